/* Internal: per-thread allocation counters behind nrt_stats_get (see stats.c). */
#ifndef NRT_CORE_STATS_H
#define NRT_CORE_STATS_H

#include <stdatomic.h>
#include <stdint.h>

/* Births and deaths alternate so that nrt_count_blocks can address each triple. */
enum nrt_counter {
  NRT_C_ALLOC,
  NRT_C_FREE,
  NRT_C_MI_ALLOC,
  NRT_C_MI_FREE,
  NRT_C_BYTES_ALLOC,
  NRT_C_BYTES_FREE,
  NRT_C_COUNT
};

#ifdef NRT_NO_STATS
#define nrt_count(counter, amount) ((void)0)
#define nrt_count_blocks(first, blocks, meminfos, bytes) ((void)0)
#else
/* One thread's counters. Only the owning thread writes them (a relaxed load and store, no
 * read-modify-write); nrt_stats_get reads them with relaxed loads. */
struct nrt_thread_counters {
  _Atomic uint64_t value[NRT_C_COUNT];
  int state; /* 0: not registered yet, 1: registered, 2: thread exiting */
  struct nrt_thread_counters *next, *prev;
};

extern __attribute__((visibility("hidden"), tls_model("initial-exec"))) _Thread_local
    struct nrt_thread_counters nrt_tls_counters;

__attribute__((visibility("hidden"))) void nrt_count_slow(enum nrt_counter c, uint64_t amount);

static inline void nrt_bump(struct nrt_thread_counters *t, enum nrt_counter c, uint64_t amount) {
  uint64_t v = atomic_load_explicit(&t->value[c], memory_order_relaxed);
  atomic_store_explicit(&t->value[c], v + amount, memory_order_relaxed);
}

/* Counts blocks, MemInfos and bytes in one go: `first` is NRT_C_ALLOC for births and NRT_C_FREE
 * for deaths (the counters are laid out so that +2 and +4 give the MemInfo and byte twins). */
static inline void nrt_count_blocks(enum nrt_counter first, uint64_t blocks, uint64_t meminfos,
                                    uint64_t bytes) {
  struct nrt_thread_counters *t = &nrt_tls_counters;
  if (__builtin_expect(t->state == 1, 1)) {
    nrt_bump(t, first, blocks);
    nrt_bump(t, (enum nrt_counter)(first + 2), meminfos);
    nrt_bump(t, (enum nrt_counter)(first + 4), bytes);
  } else {
    nrt_count_slow(first, blocks);
    nrt_count_slow((enum nrt_counter)(first + 2), meminfos);
    nrt_count_slow((enum nrt_counter)(first + 4), bytes);
  }
}

static inline void nrt_count(enum nrt_counter c, uint64_t amount) {
  struct nrt_thread_counters *t = &nrt_tls_counters;
  if (__builtin_expect(t->state == 1, 1))
    nrt_bump(t, c, amount);
  else
    nrt_count_slow(c, amount);
}
#endif

#endif

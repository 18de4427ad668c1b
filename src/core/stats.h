/* Internal: per-thread allocation counters behind nrt_stats_get (see stats.c). */
#ifndef NRT_CORE_STATS_H
#define NRT_CORE_STATS_H

#include <stdatomic.h>
#include <stdint.h>

/* Births and deaths alternate so that `first + 2k` addresses a twin. A block is counted once,
 * either as a MemInfo block or as a raw block, plus its bytes; nrt_stats_get derives
 * alloc = raw + MemInfo blocks and mi_alloc = MemInfo blocks + placed headers, so the hot path
 * of a MemInfo bumps two counters, not three. */
enum nrt_counter {
  NRT_C_RAW_ALLOC,    /* blocks that are not MemInfos (nrt_allocate, adopted headers' data) */
  NRT_C_RAW_FREE,
  NRT_C_MIB_ALLOC,    /* blocks holding a MemInfo */
  NRT_C_MIB_FREE,
  NRT_C_BYTES_ALLOC,
  NRT_C_BYTES_FREE,
  NRT_C_PLACED_ALLOC, /* MemInfo headers in caller memory (nrt_mi_init): no block */
  NRT_C_PLACED_FREE,
  NRT_C_COUNT
};

/* Registers this thread's counters (once); returns nonzero when they are registered (always
 * when statistics are compiled out). While a thread's block cache is on, its counters are
 * registered: the cache turns on only after this succeeds and turns off when they retire. */
__attribute__((visibility("hidden"))) int nrt_stats_register_thread(void);

#ifdef NRT_NO_STATS
#define nrt_count(counter, amount) ((void)0)
#define nrt_count_block_registered(first, meminfos, bytes) ((void)0)
#define nrt_count_block(first, meminfos, bytes) ((void)0)
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

/* Counts one block and its bytes: `first` is NRT_C_RAW_ALLOC for births and NRT_C_RAW_FREE
 * for deaths; `meminfos` (0 or 1) says whether the block holds a MemInfo. */
static inline void nrt_count_block(enum nrt_counter first, uint64_t meminfos, uint64_t bytes) {
  struct nrt_thread_counters *t = &nrt_tls_counters;
  enum nrt_counter blocks = (enum nrt_counter)(first + 2 * meminfos);
  enum nrt_counter byte_counter = (enum nrt_counter)(first + 4);
  if (__builtin_expect(t->state == 1, 1)) {
    nrt_bump(t, blocks, 1);
    nrt_bump(t, byte_counter, bytes);
  } else {
    nrt_count_slow(blocks, 1);
    nrt_count_slow(byte_counter, bytes);
  }
}

/* nrt_count_block for a thread known to be registered (its block cache is on). */
static inline void nrt_count_block_registered(enum nrt_counter first, uint64_t meminfos,
                                              uint64_t bytes) {
  struct nrt_thread_counters *t = &nrt_tls_counters;
  nrt_bump(t, (enum nrt_counter)(first + 2 * meminfos), 1);
  nrt_bump(t, (enum nrt_counter)(first + 4), bytes);
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

/* Runtime statistics without a shared hot cache line.
 *
 * Numba keeps one global atomic counter per statistic; under 20 threads the contended cache
 * line made allocation-heavy code 12x slower (numba #8101). Here each thread owns its counters
 * (thread-local, written with plain relaxed stores) and registers them once in a list that
 * nrt_stats_get walks. When a thread exits, its counts are folded into `retired`. */
#include "core/block_cache.h"
#include "core/stats.h"
#include "nrt/core.h"

#include <pthread.h>

int nrt_stats_enabled(void) {
#ifdef NRT_NO_STATS
  return 0;
#else
  return 1;
#endif
}

#ifdef NRT_NO_STATS

void nrt_stats_get(struct nrt_stats *out) {
  *out = (struct nrt_stats){0};
}

int nrt_stats_register_thread(void) {
  return 1;
}

#else

_Thread_local struct nrt_thread_counters nrt_tls_counters;

static pthread_mutex_t registry_lock = PTHREAD_MUTEX_INITIALIZER;
static struct nrt_thread_counters *registry_head;
static uint64_t retired[NRT_C_COUNT];
static pthread_key_t exit_key;
static pthread_once_t exit_key_once = PTHREAD_ONCE_INIT;

/* Thread exit: fold this thread's counts into the retired totals and unregister. */
static void on_thread_exit(void *arg) {
  struct nrt_thread_counters *t = arg;
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < NRT_C_COUNT; i++)
    retired[i] += atomic_load_explicit(&t->value[i], memory_order_relaxed);
  if (t->prev)
    t->prev->next = t->next;
  else
    registry_head = t->next;
  if (t->next)
    t->next->prev = t->prev;
  t->state = 2;
  pthread_mutex_unlock(&registry_lock);
  /* The block cache's fast paths count without checking registration: turn it off first. */
  nrt_block_cache_disable_thread();
}

static void make_exit_key(void) {
  /* Without a key a thread cannot be unregistered at exit, so it is never registered: its
   * counts go straight into `retired` under the lock (slower, still correct). */
  if (pthread_key_create(&exit_key, on_thread_exit) != 0)
    exit_key = (pthread_key_t)-1;
}

void nrt_count_slow(enum nrt_counter c, uint64_t amount) {
  struct nrt_thread_counters *t = &nrt_tls_counters;
  pthread_once(&exit_key_once, make_exit_key);
  pthread_mutex_lock(&registry_lock);
  if (t->state == 0 && exit_key != (pthread_key_t)-1 && pthread_setspecific(exit_key, t) == 0) {
    t->state = 1;
    t->prev = NULL;
    t->next = registry_head;
    if (registry_head)
      registry_head->prev = t;
    registry_head = t;
    uint64_t v = atomic_load_explicit(&t->value[c], memory_order_relaxed);
    atomic_store_explicit(&t->value[c], v + amount, memory_order_relaxed);
  } else {
    /* Exiting thread (or no key): count straight into the retired totals. */
    retired[c] += amount;
  }
  pthread_mutex_unlock(&registry_lock);
}

int nrt_stats_register_thread(void) {
  struct nrt_thread_counters *t = &nrt_tls_counters;
  if (t->state == 0)
    nrt_count_slow(NRT_C_RAW_ALLOC, 0);
  return t->state == 1;
}

void nrt_stats_get(struct nrt_stats *out) {
  uint64_t sum[NRT_C_COUNT];
  pthread_mutex_lock(&registry_lock);
  for (int i = 0; i < NRT_C_COUNT; i++)
    sum[i] = retired[i];
  for (struct nrt_thread_counters *t = registry_head; t; t = t->next)
    for (int i = 0; i < NRT_C_COUNT; i++)
      sum[i] += atomic_load_explicit(&t->value[i], memory_order_relaxed);
  pthread_mutex_unlock(&registry_lock);
  out->alloc = sum[NRT_C_RAW_ALLOC] + sum[NRT_C_MIB_ALLOC];
  out->free = sum[NRT_C_RAW_FREE] + sum[NRT_C_MIB_FREE];
  out->mi_alloc = sum[NRT_C_MIB_ALLOC] + sum[NRT_C_PLACED_ALLOC];
  out->mi_free = sum[NRT_C_MIB_FREE] + sum[NRT_C_PLACED_FREE];
  out->bytes_alloc = sum[NRT_C_BYTES_ALLOC];
  out->bytes_free = sum[NRT_C_BYTES_FREE];
}

#endif

uint64_t nrt_stats_live_meminfos(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  return s.mi_alloc - s.mi_free;
}

uint64_t nrt_stats_live_bytes(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  return s.bytes_alloc - s.bytes_free;
}

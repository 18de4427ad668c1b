/* The process-wide large block cache (see large_cache.h). A mutex guards it: blocks of
 * NRT_LARGE_CACHE_MIN and more are allocated a few times per chunk of rows, not per row. */
#define _GNU_SOURCE /* malloc_usable_size */
#include "core/large_cache.h"
#include "nrt/core.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

struct cached_block {
  void *p;
  size_t size; /* usable bytes */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct cached_block blocks[NRT_LARGE_CACHE_SLOTS]; /* oldest first */
static int count;
static size_t total;
static pthread_once_t decide_once = PTHREAD_ONCE_INIT;
static int enabled;

#if defined(__GLIBC__) && !defined(NRT_UNDER_SANITIZER)
/* A fork while another thread holds the lock must not leave the child's copy locked. */
static void before_fork(void) { pthread_mutex_lock(&lock); }
static void after_fork(void) { pthread_mutex_unlock(&lock); }
#endif

static void decide(void) {
#if defined(__GLIBC__) && !defined(NRT_UNDER_SANITIZER)
  const char *v = getenv("NRT_BLOCK_CACHE");
  enabled = !(v && strcmp(v, "0") == 0) && pthread_atfork(before_fork, after_fork, after_fork) == 0;
#endif
}

static int cache_on(void) {
  pthread_once(&decide_once, decide);
  return enabled;
}

static void remove_at(int i) {
  total -= blocks[i].size;
  memmove(&blocks[i], &blocks[i + 1], (size_t)(count - i - 1) * sizeof blocks[0]);
  count--;
}

void *nrt_large_cache_take(size_t size) {
  if (!cache_on())
    return NULL;
  void *p = NULL;
  pthread_mutex_lock(&lock);
  int best = -1;
  /* The smallest block that fits and is at most twice the request, give or take the C
   * library's header and page rounding: a buffer that grew by doubling to 2n is handed out
   * for the next request of n, which will grow to 2n in place. */
  for (int i = 0; i < count; i++)
    if (blocks[i].size >= size && blocks[i].size - size <= size + 8192 &&
        (best < 0 || blocks[i].size < blocks[best].size))
      best = i;
  if (best >= 0) {
    p = blocks[best].p;
    remove_at(best);
  }
  pthread_mutex_unlock(&lock);
  return p;
}

int nrt_large_cache_keep(void *p, size_t size) {
#if defined(__GLIBC__)
  /* size is what the caller asked for; a block taken from the cache may be up to twice it */
  if (size < NRT_LARGE_CACHE_MIN / 2 || !cache_on())
    return 0;
  size_t usable = malloc_usable_size(p);
  if (usable < NRT_LARGE_CACHE_MIN || usable > NRT_LARGE_CACHE_BYTES)
    return 0;
  void *evicted[NRT_LARGE_CACHE_SLOTS];
  int n_evicted = 0;
  pthread_mutex_lock(&lock);
  while (count > 0 && (count == NRT_LARGE_CACHE_SLOTS || total + usable > NRT_LARGE_CACHE_BYTES)) {
    evicted[n_evicted++] = blocks[0].p; /* the oldest make room */
    remove_at(0);
  }
  blocks[count++] = (struct cached_block){p, usable};
  total += usable;
  pthread_mutex_unlock(&lock);
  for (int i = 0; i < n_evicted; i++)
    free(evicted[i]);
  return 1;
#else
  (void)p;
  (void)size;
  return 0;
#endif
}

size_t nrt_memory_cached(void) {
  pthread_mutex_lock(&lock);
  size_t n = total;
  pthread_mutex_unlock(&lock);
  return n;
}

void nrt_memory_release_cached(void) {
  pthread_mutex_lock(&lock);
  while (count > 0) {
    free(blocks[count - 1].p);
    remove_at(count - 1);
  }
  pthread_mutex_unlock(&lock);
}

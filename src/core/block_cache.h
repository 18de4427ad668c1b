/* Internal: a per-thread cache of small MemInfo blocks from the C library's allocator.
 *
 * A string UDF allocates one small block per new string and frees it soon after, often on
 * the same thread. Recycling those blocks through a thread-local free list skips malloc/free
 * (the benchmark target is MemInfo alloc + decref within 1.15x of a bare malloc + free). Only
 * blocks of the C library's allocator are cached, so test allocators see every call; the
 * statistics still count every logical allocation and free. Each size class holds at most
 * NRT_CACHE_DEPTH blocks, a thread's cache is emptied when it exits, and setting the
 * environment variable NRT_BLOCK_CACHE=0 (done for valgrind runs) or building under a
 * sanitizer turns the cache off, so use-after-free detection is not weakened. */
#ifndef NRT_CORE_BLOCK_CACHE_H
#define NRT_CORE_BLOCK_CACHE_H

#include <stddef.h>
#include <stdint.h>

#define NRT_HIDDEN __attribute__((visibility("hidden")))

#define NRT_CACHE_GRANULE 16
#define NRT_CACHE_CLASSES 16 /* blocks up to 256 bytes */
#define NRT_CACHE_DEPTH 256 /* covers the 256 results the exec free pass releases at a time */

struct nrt_block_cache {
  void *head[NRT_CACHE_CLASSES];
  uint32_t count[NRT_CACHE_CLASSES];
  int state; /* 0: not set up, 1: caching, 2: off (disabled, or the thread is exiting) */
};

extern NRT_HIDDEN __attribute__((tls_model("initial-exec"))) _Thread_local struct nrt_block_cache
    nrt_tls_block_cache;

/* Sets up this thread's cache (exit hook, environment, statistics registration); returns
 * nonzero when caching is on. */
NRT_HIDDEN int nrt_block_cache_setup(void);

/* Empties this thread's cache and turns it off for good (thread exit). */
NRT_HIDDEN void nrt_block_cache_disable_thread(void);

/* The rounded size a cached block of `size` bytes really has, or 0 when not cacheable. */
static inline size_t nrt_block_cache_class_size(size_t size) {
#ifdef NRT_UNDER_SANITIZER
  (void)size;
  return 0;
#else
  size_t rounded = (size + NRT_CACHE_GRANULE - 1) & ~(size_t)(NRT_CACHE_GRANULE - 1);
  return rounded <= NRT_CACHE_GRANULE * NRT_CACHE_CLASSES ? rounded : 0;
#endif
}

/* A cached block of exactly `rounded` bytes (from nrt_block_cache_class_size), or NULL. */
static inline void *nrt_block_cache_pop(size_t rounded) {
  struct nrt_block_cache *c = &nrt_tls_block_cache;
  size_t k = rounded / NRT_CACHE_GRANULE - 1;
  void *p = c->head[k];
  if (p) {
    c->head[k] = *(void **)p;
    c->count[k]--;
  }
  return p;
}

/* Keeps a block of `rounded` bytes for reuse; returns 0 when the caller must free it. */
static inline int nrt_block_cache_push(void *p, size_t rounded) {
  struct nrt_block_cache *c = &nrt_tls_block_cache;
  if (__builtin_expect(c->state != 1, 0) && !nrt_block_cache_setup())
    return 0;
  size_t k = rounded / NRT_CACHE_GRANULE - 1;
  if (c->count[k] >= NRT_CACHE_DEPTH)
    return 0;
  *(void **)p = c->head[k];
  c->head[k] = p;
  c->count[k]++;
  return 1;
}

#endif

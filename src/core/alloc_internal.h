/* Internal: allocation through an nrt_allocator with statistics, shared by the core files. */
#ifndef NRT_CORE_ALLOC_INTERNAL_H
#define NRT_CORE_ALLOC_INTERNAL_H

#include "core/block_cache.h"
#include "core/large_cache.h"
#include "core/stats.h"
#include "nrt/core.h"

#include <stdatomic.h>
#include <stdbool.h>

extern NRT_HIDDEN _Atomic(const struct nrt_allocator *) nrt_default_allocator_ptr;

/* The allocator in force for `a` (NULL means the default). */
static inline const struct nrt_allocator *nrt_resolve_allocator(const struct nrt_allocator *a) {
  return a ? a : atomic_load_explicit(&nrt_default_allocator_ptr, memory_order_acquire);
}

#include <stdlib.h>

/* The C library's allocator; compared against so the common case skips the indirect call. */
extern NRT_HIDDEN const struct nrt_allocator nrt_libc_allocator_instance;

/* Allocation through `a` (never NULL), counted as `meminfos` MemInfos (0 or 1). MemInfo
 * blocks of the C library's allocator go through the per-thread block cache. */
static inline void *nrt_counted_malloc_mi(const struct nrt_allocator *a, size_t size,
                                          uint64_t meminfos) {
  void *p;
  if (a == &nrt_libc_allocator_instance) {
    size_t rounded = meminfos ? nrt_block_cache_class_size(size) : 0;
    p = rounded ? nrt_block_cache_pop(rounded)
        : size >= NRT_LARGE_CACHE_MIN ? nrt_large_cache_take(size)
                                      : NULL;
    if (!p)
      p = malloc(rounded ? rounded : size ? size : 1);
  } else {
    p = a->malloc(size, a->opaque);
  }
  if (p)
    nrt_count_block(NRT_C_RAW_ALLOC, meminfos, size);
  return p;
}

static inline void nrt_counted_free_mi(const struct nrt_allocator *a, void *p, size_t size,
                                       uint64_t meminfos) {
  if (a == &nrt_libc_allocator_instance) {
    size_t rounded = meminfos ? nrt_block_cache_class_size(size) : 0;
    bool kept = rounded ? nrt_block_cache_push(p, rounded)
                        : size >= NRT_LARGE_CACHE_MIN / 2 && nrt_large_cache_keep(p, size);
    if (!kept)
      free(p);
  } else {
    a->free(p, size, a->opaque);
  }
  nrt_count_block(NRT_C_RAW_FREE, meminfos, size);
}

static inline void *nrt_counted_malloc(const struct nrt_allocator *a, size_t size) {
  return nrt_counted_malloc_mi(a, size, 0);
}

static inline void nrt_counted_free(const struct nrt_allocator *a, void *p, size_t size) {
  nrt_counted_free_mi(a, p, size, 0);
}

#endif

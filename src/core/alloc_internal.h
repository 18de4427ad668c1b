/* Internal: allocation through an nrt_allocator with statistics, shared by the core files. */
#ifndef NRT_CORE_ALLOC_INTERNAL_H
#define NRT_CORE_ALLOC_INTERNAL_H

#include "core/stats.h"
#include "nrt/core.h"

#define NRT_HIDDEN __attribute__((visibility("hidden")))

/* The allocator in force for `a` (NULL means the default). */
NRT_HIDDEN const struct nrt_allocator *nrt_resolve_allocator(const struct nrt_allocator *a);

#include <stdlib.h>

/* The C library's allocator; compared against so the common case skips the indirect call. */
extern NRT_HIDDEN const struct nrt_allocator nrt_libc_allocator_instance;

/* Allocation through `a` (never NULL), counted as `meminfos` MemInfos (0 or 1). */
static inline void *nrt_counted_malloc_mi(const struct nrt_allocator *a, size_t size,
                                          uint64_t meminfos) {
  void *p = a == &nrt_libc_allocator_instance ? malloc(size ? size : 1)
                                              : a->malloc(size, a->opaque);
  if (p)
    nrt_count_blocks(NRT_C_ALLOC, 1, meminfos, size);
  return p;
}

static inline void nrt_counted_free_mi(const struct nrt_allocator *a, void *p, size_t size,
                                       uint64_t meminfos) {
  if (a == &nrt_libc_allocator_instance)
    free(p);
  else
    a->free(p, size, a->opaque);
  nrt_count_blocks(NRT_C_FREE, 1, meminfos, size);
}

static inline void *nrt_counted_malloc(const struct nrt_allocator *a, size_t size) {
  return nrt_counted_malloc_mi(a, size, 0);
}

static inline void nrt_counted_free(const struct nrt_allocator *a, void *p, size_t size) {
  nrt_counted_free_mi(a, p, size, 0);
}

#endif

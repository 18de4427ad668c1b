/* Internal: allocation through an nrt_allocator with statistics, shared by the core files. */
#ifndef NRT_CORE_ALLOC_INTERNAL_H
#define NRT_CORE_ALLOC_INTERNAL_H

#include "core/stats.h"
#include "nrt/core.h"

#define NRT_HIDDEN __attribute__((visibility("hidden")))

/* The allocator in force for `a` (NULL means the default). */
NRT_HIDDEN const struct nrt_allocator *nrt_resolve_allocator(const struct nrt_allocator *a);

static inline void *nrt_counted_malloc(const struct nrt_allocator *a, size_t size) {
  void *p = a->malloc(size, a->opaque);
  if (p) {
    nrt_count(NRT_C_ALLOC, 1);
    nrt_count(NRT_C_BYTES_ALLOC, size);
  }
  return p;
}

static inline void nrt_counted_free(const struct nrt_allocator *a, void *p, size_t size) {
  a->free(p, size, a->opaque);
  nrt_count(NRT_C_FREE, 1);
  nrt_count(NRT_C_BYTES_FREE, size);
}

#endif

/* The allocator interface: the C library's allocator, the default, raw counted allocation. */
#include "core/alloc_internal.h"
#include "core/large_cache.h"

#include <stdatomic.h>
#include <stdlib.h>

static void *libc_malloc(size_t size, void *opaque) {
  (void)opaque;
  if (size >= NRT_LARGE_CACHE_MIN) {
    void *p = nrt_large_cache_take(size);
    if (p)
      return p;
  }
  return malloc(size ? size : 1);
}

static void *libc_realloc(void *ptr, size_t old_size, size_t new_size, void *opaque) {
  (void)opaque;
  (void)old_size;
  return realloc(ptr, new_size ? new_size : 1);
}

static void libc_free(void *ptr, size_t size, void *opaque) {
  (void)opaque;
  if (!nrt_large_cache_keep(ptr, size))
    free(ptr);
}

const struct nrt_allocator nrt_libc_allocator_instance = {libc_malloc, libc_realloc, libc_free,
                                                          NULL};
#define libc_allocator nrt_libc_allocator_instance

/* Read on every allocation, written only by nrt_set_default_allocator: atomic so that a late
 * change is at worst seen late, never torn. */
_Atomic(const struct nrt_allocator *) nrt_default_allocator_ptr = &libc_allocator;
#define default_allocator nrt_default_allocator_ptr

const struct nrt_allocator *nrt_libc_allocator(void) {
  return &libc_allocator;
}

const struct nrt_allocator *nrt_default_allocator(void) {
  return atomic_load_explicit(&default_allocator, memory_order_acquire);
}

void nrt_set_default_allocator(const struct nrt_allocator *allocator) {
  atomic_store_explicit(&default_allocator, allocator ? allocator : &libc_allocator,
                        memory_order_release);
}

void *nrt_allocate_with(const struct nrt_allocator *a, size_t size, struct nrt_error *err) {
  a = nrt_resolve_allocator(a);
  void *p = nrt_counted_malloc(a, size);
  if (!p)
    nrt_error_set(err, NRT_ENOMEM, "out of memory allocating %zu bytes", size);
  return p;
}

void *nrt_reallocate_with(const struct nrt_allocator *a, void *ptr, size_t old_size,
                          size_t new_size, struct nrt_error *err) {
  if (!ptr)
    return nrt_allocate_with(a, new_size, err);
  a = nrt_resolve_allocator(a);
  void *p = a->realloc(ptr, old_size, new_size, a->opaque);
  if (!p) {
    nrt_error_set(err, NRT_ENOMEM, "out of memory reallocating %zu to %zu bytes", old_size,
                  new_size);
    return NULL;
  }
  /* A reallocation frees the old bytes and allocates the new ones; the block count is unchanged. */
  nrt_count(NRT_C_BYTES_FREE, old_size);
  nrt_count(NRT_C_BYTES_ALLOC, new_size);
  return p;
}

void nrt_free_with(const struct nrt_allocator *a, void *ptr, size_t size) {
  if (ptr)
    nrt_counted_free(nrt_resolve_allocator(a), ptr, size);
}

void *nrt_allocate(size_t size, struct nrt_error *err) {
  return nrt_allocate_with(NULL, size, err);
}

void *nrt_reallocate(void *ptr, size_t old_size, size_t new_size, struct nrt_error *err) {
  return nrt_reallocate_with(NULL, ptr, old_size, new_size, err);
}

void nrt_free(void *ptr, size_t size) {
  nrt_free_with(NULL, ptr, size);
}

/* MemInfo: allocation, reference counting, destruction (see nrt/core.h). */
#include "core/meminfo.h"

#include <stdalign.h>
#include <stdint.h>
#include <string.h>

/* The layout promised in nrt/core.h and relied on by compiled code and Numba-compatible code. */
_Static_assert(offsetof(nrt_meminfo, refct) == 0, "refct offset");
_Static_assert(offsetof(nrt_meminfo, dtor) == 8, "dtor offset");
_Static_assert(offsetof(nrt_meminfo, dtor_info) == 16, "dtor_info offset");
_Static_assert(offsetof(nrt_meminfo, data) == 24, "data offset");
_Static_assert(offsetof(nrt_meminfo, size) == 32, "size offset");
_Static_assert(offsetof(nrt_meminfo, allocator) == 40, "allocator offset");
_Static_assert(sizeof(nrt_meminfo) == 48, "header size keeps inline data 16-aligned");
_Static_assert(sizeof(nrt_meminfo) % NRT_MI_DATA_ALIGN == 0, "inline data alignment");
_Static_assert(alignof(struct nrt_allocator) >= 4, "two tag bits in the allocator pointer");

/* How a block was laid out, kept in the two low bits of the allocator pointer. */
enum block_kind {
  BLOCK_INLINE = 0,  /* [header][data]: one allocation of sizeof(header) + size */
  BLOCK_ALIGNED = 1, /* [header][pad, total size in the word before data][data] */
  BLOCK_ADOPTED = 2, /* [header] alone; data is foreign and released by the destructor */
  BLOCK_PLACED = 3   /* header in caller memory: nrt frees nothing */
};
#define KIND_MASK ((uintptr_t)3)

static void set_allocator(nrt_meminfo *mi, const struct nrt_allocator *a, enum block_kind k) {
  mi->allocator = (const struct nrt_allocator *)((uintptr_t)a | (uintptr_t)k);
}

static enum block_kind kind_of(const nrt_meminfo *mi) {
  return (enum block_kind)((uintptr_t)mi->allocator & KIND_MASK);
}

const struct nrt_allocator *nrt_mi_allocator(const nrt_meminfo *mi) {
  if (!mi)
    return NULL;
  return (const struct nrt_allocator *)((uintptr_t)mi->allocator & ~KIND_MASK);
}

static void init_header(nrt_meminfo *mi, void *data, size_t size, nrt_dtor_fn dtor,
                        void *dtor_info) {
  mi->refct = 1;
  mi->dtor = dtor;
  mi->dtor_info = dtor_info;
  mi->data = data;
  mi->size = size;
}

static __attribute__((noinline)) int alloc_inline(const struct nrt_allocator *a, size_t size,
                                                  nrt_dtor_fn dtor, void *dtor_info,
                                                  nrt_meminfo **out, struct nrt_error *err,
                                                  const void *site) {
  *out = NULL;
  if (size > SIZE_MAX - sizeof(nrt_meminfo))
    return nrt_error_set(err, NRT_ERANGE, "MemInfo payload of %zu bytes is too large", size);
  a = nrt_resolve_allocator(a);
  nrt_meminfo *mi = nrt_counted_malloc_mi(a, sizeof(nrt_meminfo) + size, 1);
  if (!mi)
    return nrt_error_set(err, NRT_ENOMEM, "out of memory allocating a MemInfo of %zu bytes", size);
  init_header(mi, mi + 1, size, dtor, dtor_info);
  set_allocator(mi, a, BLOCK_INLINE);
  nrt_debug_born(mi, site);
  *out = mi;
  return NRT_OK;
}

static int alloc_aligned(const struct nrt_allocator *a, size_t size, size_t align,
                         nrt_meminfo **out, struct nrt_error *err, const void *site) {
  *out = NULL;
  if (align == 0 || (align & (align - 1)) != 0 || align > NRT_MI_MAX_ALIGN)
    return nrt_error_set(err, NRT_EINVAL,
                         "alignment %zu is not a power of two between 1 and %d", align,
                         NRT_MI_MAX_ALIGN);
  if (align <= NRT_MI_DATA_ALIGN)
    return alloc_inline(a, size, NULL, NULL, out, err, site);
  /* Room for the header, the stored total, and padding up to the alignment. */
  size_t overhead = sizeof(nrt_meminfo) + sizeof(size_t) + align;
  if (size > SIZE_MAX - overhead)
    return nrt_error_set(err, NRT_ERANGE, "MemInfo payload of %zu bytes is too large", size);
  size_t total = overhead + size;
  a = nrt_resolve_allocator(a);
  nrt_meminfo *mi = nrt_counted_malloc_mi(a, total, 1);
  if (!mi)
    return nrt_error_set(err, NRT_ENOMEM, "out of memory allocating a MemInfo of %zu bytes", size);
  uintptr_t first = (uintptr_t)(mi + 1) + sizeof(size_t);
  char *data = (char *)((first + align - 1) & ~(uintptr_t)(align - 1));
  memcpy(data - sizeof(size_t), &total, sizeof total);
  init_header(mi, data, size, NULL, NULL);
  set_allocator(mi, a, BLOCK_ALIGNED);
  nrt_debug_born(mi, site);
  *out = mi;
  return NRT_OK;
}

#define CALLER __builtin_return_address(0)

/* Largest payload whose block the per-thread cache can hold. */
#define CACHED_PAYLOAD_MAX (NRT_CACHE_GRANULE * NRT_CACHE_CLASSES - sizeof(nrt_meminfo))

/* The hot case of a string UDF, small enough to need no stack frame: a small block of the C
 * library's allocator found in this thread's cache, with leak tracking off. */
static inline nrt_meminfo *alloc_from_cache(size_t size) {
  if (size > CACHED_PAYLOAD_MAX ||
      atomic_load_explicit(&nrt_default_allocator_ptr, memory_order_relaxed) !=
          &nrt_libc_allocator_instance ||
      atomic_load_explicit(&nrt_debug_tracking_on, memory_order_relaxed))
    return NULL;
  size_t total = sizeof(nrt_meminfo) + size;
  size_t rounded = nrt_block_cache_class_size(total);
  nrt_meminfo *mi = rounded ? nrt_block_cache_pop(rounded) : NULL;
  if (mi) {
    nrt_count_block_registered(NRT_C_RAW_ALLOC, 1, total);
    init_header(mi, mi + 1, size, NULL, NULL);
    set_allocator(mi, &nrt_libc_allocator_instance, BLOCK_INLINE);
  }
  return mi;
}

int nrt_mi_alloc(size_t size, nrt_meminfo **out, struct nrt_error *err) {
  nrt_meminfo *mi = alloc_from_cache(size);
  if (mi) {
    *out = mi;
    return NRT_OK;
  }
  return alloc_inline(NULL, size, NULL, NULL, out, err, CALLER);
}

int nrt_mi_alloc_with(const struct nrt_allocator *allocator, size_t size, nrt_meminfo **out,
                      struct nrt_error *err) {
  return alloc_inline(allocator, size, NULL, NULL, out, err, CALLER);
}

int nrt_mi_alloc_dtor(size_t size, nrt_dtor_fn dtor, void *dtor_info, nrt_meminfo **out,
                      struct nrt_error *err) {
  /* Small blocks with a destructor (string lists) come from the cache too. */
  nrt_meminfo *mi = alloc_from_cache(size);
  if (mi) {
    mi->dtor = dtor;
    mi->dtor_info = dtor_info;
    *out = mi;
    return NRT_OK;
  }
  return alloc_inline(NULL, size, dtor, dtor_info, out, err, CALLER);
}

int nrt_mi_alloc_aligned(size_t size, size_t align, nrt_meminfo **out, struct nrt_error *err) {
  return alloc_aligned(NULL, size, align, out, err, CALLER);
}

int nrt_mi_alloc_aligned_with(const struct nrt_allocator *allocator, size_t size, size_t align,
                              nrt_meminfo **out, struct nrt_error *err) {
  return alloc_aligned(allocator, size, align, out, err, CALLER);
}

int nrt_mi_new(void *data, size_t size, nrt_dtor_fn dtor, void *dtor_info, nrt_meminfo **out,
               struct nrt_error *err) {
  *out = NULL;
  const struct nrt_allocator *a = nrt_resolve_allocator(NULL);
  nrt_meminfo *mi = nrt_counted_malloc_mi(a, sizeof(nrt_meminfo), 1);
  if (!mi)
    return nrt_error_set(err, NRT_ENOMEM, "out of memory allocating a MemInfo header");
  init_header(mi, data, size, dtor, dtor_info);
  set_allocator(mi, a, BLOCK_ADOPTED);
  nrt_debug_born(mi, CALLER);
  *out = mi;
  return NRT_OK;
}

void nrt_mi_init(nrt_meminfo *mi, void *data, size_t size, nrt_dtor_fn dtor, void *dtor_info) {
  init_header(mi, data, size, dtor, dtor_info);
  set_allocator(mi, NULL, BLOCK_PLACED);
  nrt_count(NRT_C_PLACED_ALLOC, 1);
  nrt_debug_born(mi, CALLER);
}

/* Everything but the hot case of nrt_mi_destroy, out of line so the hot case needs no frame. */
static __attribute__((noinline)) void destroy_general(nrt_meminfo *mi) {
  /* Read everything first: for a caller-placed header the destructor may free the header. */
  enum block_kind kind = kind_of(mi);
  const struct nrt_allocator *a = nrt_mi_allocator(mi);
  size_t total = 0;
  if (kind == BLOCK_INLINE)
    total = sizeof(nrt_meminfo) + mi->size;
  else if (kind == BLOCK_ALIGNED)
    memcpy(&total, (char *)mi->data - sizeof(size_t), sizeof total);
  else if (kind == BLOCK_ADOPTED)
    total = sizeof(nrt_meminfo);
  nrt_debug_died(mi);
  mi->refct = 0;
  if (mi->dtor)
    mi->dtor(mi->data, mi->size, mi->dtor_info);
  /* A small inline block of the C library's allocator (one that had a destructor) goes back
   * to this thread's cache, as in nrt_mi_destroy's hot case. */
  if (kind == BLOCK_INLINE && a == &nrt_libc_allocator_instance &&
      !atomic_load_explicit(&nrt_debug_tracking_on, memory_order_relaxed)) {
    size_t rounded = nrt_block_cache_class_size(total);
    if (rounded && nrt_block_cache_push(mi, rounded)) {
      nrt_count_block_registered(NRT_C_RAW_FREE, 1, total);
      return;
    }
  }
  if (kind != BLOCK_PLACED)
    nrt_counted_free_mi(a, mi, total, 1);
  else
    nrt_count(NRT_C_PLACED_FREE, 1);
}

void nrt_mi_destroy(nrt_meminfo *mi) {
  if (!mi)
    return;
  /* The hot case: an inline block of the C library's allocator with no destructor goes back
   * to this thread's cache (tag 0 and the libc allocator make the exact pointer value). */
  if (mi->allocator == &nrt_libc_allocator_instance && !mi->dtor &&
      !atomic_load_explicit(&nrt_debug_tracking_on, memory_order_relaxed)) {
    size_t total = sizeof(nrt_meminfo) + mi->size;
    size_t rounded = nrt_block_cache_class_size(total);
    if (rounded && nrt_block_cache_push(mi, rounded)) {
      nrt_count_block_registered(NRT_C_RAW_FREE, 1, total);
      return;
    }
  }
  destroy_general(mi);
}

void nrt_mi_incref(nrt_meminfo *mi) {
  nrt_mi_incref_inline(mi);
}

/* Release on the decrement, acquire before destruction: an acquire load rather than a fence,
 * because ThreadSanitizer does not model fences. A count of 1 seen with acquire means ours is
 * the only reference (nobody can incref without one), so a final release, the common case out
 * of line (the free pass, owners dropping results), skips the locked instruction. */
void nrt_mi_decref(nrt_meminfo *mi) {
  if (!mi)
    return;
  if (__atomic_load_n(&mi->refct, __ATOMIC_ACQUIRE) == 1 ||
      __atomic_sub_fetch(&mi->refct, 1, __ATOMIC_RELEASE) == 0) {
    (void)__atomic_load_n(&mi->refct, __ATOMIC_ACQUIRE);
    nrt_mi_destroy(mi);
  }
}

void nrt_mi_incref_local(nrt_meminfo *mi) {
  nrt_mi_incref_local_inline(mi);
}

void nrt_mi_decref_local(nrt_meminfo *mi) {
  nrt_mi_decref_local_inline(mi);
}

void *nrt_mi_data(const nrt_meminfo *mi) {
  return mi ? mi->data : NULL;
}

size_t nrt_mi_size(const nrt_meminfo *mi) {
  return mi ? mi->size : 0;
}

size_t nrt_mi_refcount(const nrt_meminfo *mi) {
  return mi ? __atomic_load_n(&mi->refct, __ATOMIC_RELAXED) : 0;
}

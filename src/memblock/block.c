/* Memory blocks: the common header (refcount through a MemInfo), EXTERNAL and ARRAY blocks. */
#include <string.h>

#include "memblock/memblock_internal.h"

static void block_die(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  nrt_memblock *b = (nrt_memblock *)data;
  switch (b->kind) {
  case NRT_MEMBLOCK_POD:
  case NRT_MEMBLOCK_ZEROINIT:
    nrt_arena_free_chunks(b);
    break;
  case NRT_MEMBLOCK_OBJECTARRAY:
    nrt_arena_destroy_elements(b);
    nrt_arena_free_chunks(b);
    break;
  case NRT_MEMBLOCK_EXTERNAL:
    if (b->u.ext.dtor)
      b->u.ext.dtor(b->u.ext.data, b->u.ext.size, b->u.ext.dtor_info);
    break;
  case NRT_MEMBLOCK_ARRAY:
    for (size_t i = 0; i < b->u.arr.n_refs; i++)
      nrt_memblock_release(b->u.arr.refs[i]);
    break;
  }
  nrt_free_with(b->allocator, b, b->self_size);
}

int nrt_memblock_make(enum nrt_memblock_kind kind, size_t self_size, nrt_memblock **out,
                      struct nrt_error *err) {
  const struct nrt_allocator *a = nrt_default_allocator();
  nrt_memblock *b = (nrt_memblock *)nrt_allocate_with(a, self_size, err);
  *out = NULL;
  if (!b)
    return NRT_ENOMEM;
  memset(b, 0, self_size);
  b->kind = kind;
  b->allocator = a;
  b->self_size = self_size;
  nrt_mi_init(&b->mi, b, self_size, block_die, NULL);
  *out = b;
  return NRT_OK;
}

void nrt_memblock_retain(nrt_memblock *b) {
  if (b)
    nrt_mi_incref(&b->mi);
}

void nrt_memblock_release(nrt_memblock *b) {
  if (b)
    nrt_mi_decref(&b->mi);
}

enum nrt_memblock_kind nrt_memblock_kind(const nrt_memblock *b) {
  return b ? b->kind : (enum nrt_memblock_kind)0;
}

nrt_meminfo *nrt_memblock_meminfo(nrt_memblock *b) {
  return b ? &b->mi : NULL;
}

size_t nrt_memblock_refcount(const nrt_memblock *b) {
  return b ? nrt_mi_refcount(&b->mi) : 0;
}

const char *nrt_memblock_kind_name(enum nrt_memblock_kind kind) {
  switch (kind) {
  case NRT_MEMBLOCK_POD: return "pod";
  case NRT_MEMBLOCK_ZEROINIT: return "zeroinit";
  case NRT_MEMBLOCK_EXTERNAL: return "external";
  case NRT_MEMBLOCK_OBJECTARRAY: return "objectarray";
  case NRT_MEMBLOCK_ARRAY: return "array";
  }
  return "?";
}

/* ------------------------------------------------------------------ external */

int nrt_memblock_external_new(void *data, size_t size, nrt_dtor_fn dtor, void *dtor_info,
                              nrt_memblock **out, struct nrt_error *err) {
  int rc = nrt_memblock_make(NRT_MEMBLOCK_EXTERNAL, sizeof(nrt_memblock), out, err);
  if (rc)
    return rc;
  (*out)->u.ext = (struct nrt_external){data, size, dtor, dtor_info};
  return NRT_OK;
}

void *nrt_memblock_external_data(const nrt_memblock *b) {
  return b && b->kind == NRT_MEMBLOCK_EXTERNAL ? b->u.ext.data : NULL;
}

size_t nrt_memblock_external_size(const nrt_memblock *b) {
  return b && b->kind == NRT_MEMBLOCK_EXTERNAL ? b->u.ext.size : 0;
}

/* ---------------------------------------------------------------------- array */

#define ALIGN16(n) (((n) + 15) & ~(size_t)15)

int nrt_memblock_array_new(uint32_t type_id, size_t header_size, size_t n_refs,
                           nrt_memblock **out, struct nrt_error *err) {
  *out = NULL;
  size_t base = ALIGN16(sizeof(nrt_memblock));
  if (n_refs > (SIZE_MAX / 2) / sizeof(nrt_memblock *) || header_size > SIZE_MAX / 2)
    return nrt_error_set(err, NRT_ERANGE, "array block too large (%zu refs, %zu header bytes)",
                         n_refs, header_size);
  size_t refs_bytes = ALIGN16(n_refs * sizeof(nrt_memblock *));
  int rc = nrt_memblock_make(NRT_MEMBLOCK_ARRAY, base + refs_bytes + header_size, out, err);
  if (rc)
    return rc;
  nrt_memblock *b = *out;
  b->u.arr.type_id = type_id;
  b->u.arr.header_size = header_size;
  b->u.arr.n_refs = n_refs;
  b->u.arr.refs = (nrt_memblock **)((char *)b + base);
  b->u.arr.header = (char *)b + base + refs_bytes;
  return NRT_OK;
}

void *nrt_memblock_array_header(const nrt_memblock *b) {
  return b && b->kind == NRT_MEMBLOCK_ARRAY ? b->u.arr.header : NULL;
}

uint32_t nrt_memblock_array_type(const nrt_memblock *b) {
  return b && b->kind == NRT_MEMBLOCK_ARRAY ? b->u.arr.type_id : 0;
}

size_t nrt_memblock_array_ref_count(const nrt_memblock *b) {
  return b && b->kind == NRT_MEMBLOCK_ARRAY ? b->u.arr.n_refs : 0;
}

int nrt_memblock_array_set_ref(nrt_memblock *b, size_t i, nrt_memblock *ref,
                               struct nrt_error *err) {
  if (!b || b->kind != NRT_MEMBLOCK_ARRAY)
    return nrt_error_set(err, NRT_EINVAL, "set_ref on a block that is not an array block");
  if (i >= b->u.arr.n_refs)
    return nrt_error_set(err, NRT_EINDEX, "reference slot %zu out of range (%zu slots)", i,
                         b->u.arr.n_refs);
  nrt_memblock_retain(ref);
  nrt_memblock *old = b->u.arr.refs[i];
  b->u.arr.refs[i] = ref;
  nrt_memblock_release(old);
  return NRT_OK;
}

nrt_memblock *nrt_memblock_array_ref(const nrt_memblock *b, size_t i) {
  if (!b || b->kind != NRT_MEMBLOCK_ARRAY || i >= b->u.arr.n_refs)
    return NULL;
  return b->u.arr.refs[i];
}

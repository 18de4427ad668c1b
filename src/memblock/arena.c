/* POD / ZEROINIT / OBJECTARRAY arenas: the pod allocator API over a chain of chunks that grows
 * by doubling. An allocation never moves once a later one was made; only the most recent one
 * may be resized (and moved); finalize never touches memory. */
#include <string.h>

#include "memblock/memblock_internal.h"

#define DEFAULT_INITIAL 256

static bool is_arena(const nrt_memblock *b) {
  return b && (b->kind == NRT_MEMBLOCK_POD || b->kind == NRT_MEMBLOCK_ZEROINIT ||
               b->kind == NRT_MEMBLOCK_OBJECTARRAY);
}

static bool is_pow2(size_t a) {
  return a && !(a & (a - 1));
}

static uintptr_t align_up(uintptr_t p, size_t align) {
  return (p + (align - 1)) & ~(uintptr_t)(align - 1);
}

int nrt_memblock_pod_new(size_t initial_capacity, int zeroed, nrt_memblock **out,
                         struct nrt_error *err) {
  int rc = nrt_memblock_make(zeroed ? NRT_MEMBLOCK_ZEROINIT : NRT_MEMBLOCK_POD,
                             sizeof(nrt_memblock), out, err);
  if (rc)
    return rc;
  (*out)->u.arena.initial = initial_capacity ? initial_capacity : DEFAULT_INITIAL;
  (*out)->u.arena.zeroed = zeroed != 0;
  return NRT_OK;
}

void nrt_arena_free_chunks(nrt_memblock *b) {
  struct nrt_arena *a = &b->u.arena;
  for (size_t i = 0; i < a->n_chunks; i++)
    nrt_free_with(b->allocator, a->chunks[i].base, a->chunks[i].cap);
  a->n_chunks = 0;
}

/* Capacity for a new chunk that must hold `need` bytes: the first chunk is `initial`, later
 * ones at least double the largest so far. 0 on overflow. */
static size_t next_capacity(const struct nrt_arena *a, size_t need) {
  size_t cap = a->initial;
  for (size_t i = 0; i < a->n_chunks; i++) {
    size_t c = a->chunks[i].cap;
    if (c > SIZE_MAX / 2)
      return 0;
    if (2 * c > cap)
      cap = 2 * c;
  }
  return cap < need ? need : cap;
}

/* Adds a chunk able to hold `size` bytes at alignment `align`. */
static int add_chunk(nrt_memblock *b, size_t size, size_t align, struct nrt_error *err) {
  struct nrt_arena *a = &b->u.arena;
  if (a->n_chunks == NRT_ARENA_MAX_CHUNKS || size > SIZE_MAX - align)
    return nrt_error_set(err, NRT_ERANGE, "memory block cannot grow to hold %zu more bytes",
                         size);
  size_t cap = next_capacity(a, size + align - 1);
  if (!cap)
    return nrt_error_set(err, NRT_ERANGE, "memory block cannot grow to hold %zu more bytes",
                         size);
  char *p = (char *)nrt_allocate_with(b->allocator, cap, err);
  if (!p)
    return NRT_ENOMEM;
  a->chunks[a->n_chunks++] = (struct nrt_arena_chunk){p, cap, 0};
  return NRT_OK;
}

/* Places `size` bytes at `align` in the last chunk, adding one when needed. */
static int arena_place(nrt_memblock *b, size_t size, size_t align, char **begin,
                       struct nrt_error *err) {
  struct nrt_arena *a = &b->u.arena;
  if (a->n_chunks) {
    struct nrt_arena_chunk *c = &a->chunks[a->n_chunks - 1];
    uintptr_t start = align_up((uintptr_t)c->base + c->used, align);
    uintptr_t limit = (uintptr_t)c->base + c->cap;
    if (start <= limit && size <= limit - start) {
      a->last_alone = c->used == 0;
      a->last_prev_used = c->used;
      *begin = (char *)start;
      c->used = (size_t)(start - (uintptr_t)c->base) + size;
      return NRT_OK;
    }
  }
  int rc = add_chunk(b, size, align, err);
  if (rc)
    return rc;
  struct nrt_arena_chunk *c = &a->chunks[a->n_chunks - 1];
  uintptr_t start = align_up((uintptr_t)c->base, align);
  a->last_alone = true;
  a->last_prev_used = 0;
  *begin = (char *)start;
  c->used = (size_t)(start - (uintptr_t)c->base) + size;
  return NRT_OK;
}

static int check_allocatable(const nrt_memblock *b, const char *what, struct nrt_error *err) {
  if (!b || (b->kind != NRT_MEMBLOCK_POD && b->kind != NRT_MEMBLOCK_ZEROINIT))
    return nrt_error_set(err, NRT_EINVAL, "%s: not a pod or zeroinit memory block", what);
  if (b->u.arena.finalized)
    return nrt_error_set(err, NRT_EINVAL, "%s: memory block is finalized", what);
  return NRT_OK;
}

int nrt_memblock_pod_allocate(nrt_memblock *b, size_t size, size_t alignment, char **begin,
                              char **end, struct nrt_error *err) {
  *begin = *end = NULL;
  int rc = check_allocatable(b, "allocate", err);
  if (rc)
    return rc;
  if (!is_pow2(alignment) || alignment > NRT_MEMBLOCK_MAX_ALIGN)
    return nrt_error_set(err, NRT_EINVAL, "allocate: alignment %zu is not a power of two <= %d",
                         alignment, NRT_MEMBLOCK_MAX_ALIGN);
  char *p;
  rc = arena_place(b, size, alignment, &p, err);
  if (rc)
    return rc;
  if (b->u.arena.zeroed)
    memset(p, 0, size);
  b->u.arena.last_begin = p;
  b->u.arena.last_size = size;
  b->u.arena.last_align = alignment;
  *begin = p;
  *end = p + size;
  return NRT_OK;
}

int nrt_memblock_pod_resize(nrt_memblock *b, size_t new_size, char **begin, char **end,
                            struct nrt_error *err) {
  int rc = check_allocatable(b, "resize", err);
  if (rc)
    return rc;
  struct nrt_arena *a = &b->u.arena;
  if (!begin || !end || !a->last_begin || *begin != a->last_begin)
    return nrt_error_set(err, NRT_EINVAL,
                         "resize: only the most recent allocation of a memory block can be resized");
  struct nrt_arena_chunk *c = &a->chunks[a->n_chunks - 1];
  size_t old_size = a->last_size, align = a->last_align;
  size_t start = (size_t)(a->last_begin - c->base);
  char *p = a->last_begin;
  if (new_size <= c->cap - start) {
    c->used = start + new_size; /* in place */
  } else if (a->last_alone) {
    /* Alone in its chunk (nothing fits before an aligned start): reallocate the chunk, which
     * may move it; re-align the bytes if the new base has a different alignment offset. */
    if (new_size > SIZE_MAX - align)
      return nrt_error_set(err, NRT_ERANGE, "resize: %zu bytes is too large", new_size);
    size_t need = new_size + align - 1;
    size_t cap = next_capacity(a, need);
    if (!cap)
      cap = need; /* doubling would overflow: grow to what is needed */
    char *nb = (char *)nrt_reallocate_with(b->allocator, c->base, c->cap, cap, err);
    if (!nb)
      return NRT_ENOMEM;
    size_t nstart = (size_t)(align_up((uintptr_t)nb, align) - (uintptr_t)nb);
    if (nstart != start)
      memmove(nb + nstart, nb + start, old_size);
    *c = (struct nrt_arena_chunk){nb, cap, nstart + new_size};
    p = nb + nstart;
  } else {
    /* Earlier allocations share the chunk: move this one into a new chunk. */
    rc = add_chunk(b, new_size, align, err);
    if (rc)
      return rc;
    struct nrt_arena_chunk *nc = &a->chunks[a->n_chunks - 1];
    char *np = (char *)align_up((uintptr_t)nc->base, align);
    memcpy(np, p, old_size < new_size ? old_size : new_size);
    nc->used = (size_t)(np - nc->base) + new_size;
    a->chunks[a->n_chunks - 2].used = a->last_prev_used; /* the old place is given up */
    a->last_alone = true;
    a->last_prev_used = 0;
    p = np;
  }
  if (a->zeroed && new_size > old_size)
    memset(p + old_size, 0, new_size - old_size);
  a->last_begin = p;
  a->last_size = new_size;
  *begin = p;
  *end = p + new_size;
  return NRT_OK;
}

int nrt_memblock_pod_finalize(nrt_memblock *b, struct nrt_error *err) {
  if (!is_arena(b))
    return nrt_error_set(err, NRT_EINVAL, "finalize: not a pod, zeroinit or objectarray block");
  b->u.arena.finalized = true;
  return NRT_OK;
}

void nrt_arena_destroy_elements(nrt_memblock *b) {
  struct nrt_arena *a = &b->u.arena;
  if (!a->elem_dtor)
    return;
  for (size_t i = 0; i < a->n_chunks; i++) {
    struct nrt_arena_chunk *c = &a->chunks[i];
    char *p = (char *)align_up((uintptr_t)c->base, a->elem_align);
    for (; p + a->elem_size <= c->base + c->used; p += a->elem_size)
      a->elem_dtor(p, a->elem_dtor_info);
  }
}

void nrt_memblock_pod_reset(nrt_memblock *b) {
  if (!is_arena(b))
    return;
  struct nrt_arena *a = &b->u.arena;
  if (b->kind == NRT_MEMBLOCK_OBJECTARRAY)
    nrt_arena_destroy_elements(b);
  size_t keep = 0;
  for (size_t i = 1; i < a->n_chunks; i++)
    if (a->chunks[i].cap > a->chunks[keep].cap)
      keep = i;
  for (size_t i = 0; i < a->n_chunks; i++)
    if (i != keep)
      nrt_free_with(b->allocator, a->chunks[i].base, a->chunks[i].cap);
  if (a->n_chunks) {
    a->chunks[0] = a->chunks[keep];
    a->chunks[0].used = 0;
    a->n_chunks = 1;
  }
  a->finalized = false;
  a->last_begin = NULL;
  a->last_size = 0;
  a->count = 0;
}

size_t nrt_memblock_pod_chunk_count(const nrt_memblock *b) {
  return is_arena(b) ? b->u.arena.n_chunks : 0;
}

int nrt_memblock_pod_chunk(const nrt_memblock *b, size_t i, const char **begin, size_t *used) {
  if (!is_arena(b) || i >= b->u.arena.n_chunks) {
    *begin = NULL;
    *used = 0;
    return NRT_EINDEX;
  }
  *begin = b->u.arena.chunks[i].base;
  *used = b->u.arena.chunks[i].used;
  return NRT_OK;
}

size_t nrt_memblock_pod_capacity(const nrt_memblock *b) {
  size_t total = 0;
  if (is_arena(b))
    for (size_t i = 0; i < b->u.arena.n_chunks; i++)
      total += b->u.arena.chunks[i].cap;
  return total;
}

/* --------------------------------------------------------------- objectarray */

int nrt_memblock_objectarray_new(size_t elem_size, size_t elem_align, size_t initial_count,
                                 nrt_memblock_elem_dtor dtor, void *dtor_info,
                                 nrt_memblock **out, struct nrt_error *err) {
  *out = NULL;
  if (!is_pow2(elem_align) || elem_align > NRT_MEMBLOCK_MAX_ALIGN || elem_size == 0 ||
      elem_size % elem_align)
    return nrt_error_set(err, NRT_EINVAL,
                         "objectarray: element size %zu / alignment %zu is invalid", elem_size,
                         elem_align);
  if (initial_count > SIZE_MAX / 2 / elem_size)
    return nrt_error_set(err, NRT_ERANGE, "objectarray: %zu elements is too many",
                         initial_count);
  int rc = nrt_memblock_make(NRT_MEMBLOCK_OBJECTARRAY, sizeof(nrt_memblock), out, err);
  if (rc)
    return rc;
  struct nrt_arena *a = &(*out)->u.arena;
  a->initial = (initial_count ? initial_count : 16) * elem_size + elem_align - 1;
  a->zeroed = true;
  a->elem_size = elem_size;
  a->elem_align = elem_align;
  a->elem_dtor = dtor;
  a->elem_dtor_info = dtor_info;
  return NRT_OK;
}

int nrt_memblock_objectarray_allocate(nrt_memblock *b, size_t count, void **elems,
                                      struct nrt_error *err) {
  *elems = NULL;
  if (!b || b->kind != NRT_MEMBLOCK_OBJECTARRAY)
    return nrt_error_set(err, NRT_EINVAL, "objectarray_allocate: not an objectarray block");
  struct nrt_arena *a = &b->u.arena;
  if (a->finalized)
    return nrt_error_set(err, NRT_EINVAL, "objectarray_allocate: memory block is finalized");
  if (count > (SIZE_MAX / 2) / a->elem_size)
    return nrt_error_set(err, NRT_ERANGE, "objectarray_allocate: %zu elements is too many",
                         count);
  char *p;
  int rc = arena_place(b, count * a->elem_size, a->elem_align, &p, err);
  if (rc)
    return rc;
  memset(p, 0, count * a->elem_size);
  a->count += count;
  *elems = p;
  return NRT_OK;
}

size_t nrt_memblock_objectarray_count(const nrt_memblock *b) {
  return b && b->kind == NRT_MEMBLOCK_OBJECTARRAY ? b->u.arena.count : 0;
}

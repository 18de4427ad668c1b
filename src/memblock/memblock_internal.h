/* Internal layout of nrt memory blocks, shared by the memblock source files. */
#ifndef NRT_MEMBLOCK_INTERNAL_H
#define NRT_MEMBLOCK_INTERNAL_H

#include <stdbool.h>

#include "nrt/memblock.h"

/* Enough chunks for any arena: every chunk is at least twice the size of the one before. */
#define NRT_ARENA_MAX_CHUNKS 64

/* One chunk of an arena: `cap` bytes at `base` (from the block's allocator), `used` of them up
 * to the end of the last allocation placed in it. */
struct nrt_arena_chunk {
  char *base;
  size_t cap;
  size_t used;
};

/* POD / ZEROINIT / OBJECTARRAY state. */
struct nrt_arena {
  struct nrt_arena_chunk chunks[NRT_ARENA_MAX_CHUNKS];
  size_t n_chunks;
  size_t initial;    /* capacity of the first chunk */
  bool zeroed;       /* hand out zeroed memory */
  bool finalized;
  char *last_begin;  /* the most recent allocation (NULL: none) */
  size_t last_size;
  size_t last_align;
  size_t last_prev_used; /* its chunk's `used` before it was placed */
  bool last_alone;   /* it is the only allocation in its chunk (resize may reallocate) */
  /* OBJECTARRAY only */
  size_t elem_size;
  size_t elem_align;
  size_t count;
  nrt_memblock_elem_dtor elem_dtor;
  void *elem_dtor_info;
};

struct nrt_external {
  void *data;
  size_t size;
  nrt_dtor_fn dtor;
  void *dtor_info;
};

struct nrt_array_block {
  uint32_t type_id;
  size_t header_size;
  size_t n_refs;
  nrt_memblock **refs; /* inside the block's own allocation */
  void *header;        /* idem, aligned to 16 */
};

struct nrt_memblock {
  nrt_meminfo mi; /* refcount; mi.data points at the block */
  enum nrt_memblock_kind kind;
  const struct nrt_allocator *allocator; /* the default allocator when the block was made */
  size_t self_size;                      /* bytes of this block's own allocation */
  union {
    struct nrt_arena arena;
    struct nrt_external ext;
    struct nrt_array_block arr;
  } u;
};

/* Allocates a block of `self_size` bytes (>= sizeof(struct nrt_memblock)) with refcount 1. */
int nrt_memblock_make(enum nrt_memblock_kind kind, size_t self_size, nrt_memblock **out,
                      struct nrt_error *err);

/* Frees the chunks of an arena (kind-specific destruction done by the caller). */
void nrt_arena_free_chunks(nrt_memblock *b);

/* Runs an OBJECTARRAY block's element destructor over every element handed out. */
void nrt_arena_destroy_elements(nrt_memblock *b);

#endif

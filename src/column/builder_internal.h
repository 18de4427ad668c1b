/* Internal: the column builder's state and the helpers its source files share (builder.c
 * appends and finishes; builder_row.c writes string rows in place). */
#ifndef NRT_COLUMN_BUILDER_INTERNAL_H
#define NRT_COLUMN_BUILDER_INTERNAL_H

#include "column/column_internal.h"

/* A utf8_view builder starts a new data block once its current one holds this much, so no
 * chunk exceeds 1 GiB and every view offset fits in int32 (column_internal.h). */
#define VIEW_BLOCK_LIMIT nrt_col_view_block_limit
#define VIEW_MAX_BLOCKS 256
#define REF_BATCH 64

/* One growing allocation in a POD/ZEROINIT block: [data, data + used) filled, cap bytes. */
struct growbuf {
  nrt_memblock *blk;
  char *data;
  size_t used;
  size_t cap;
};

struct nrt_col_builder {
  /* Hot fields first: the append fast paths read only these. */
  enum nrt_col_type type;
  int status;
  int64_t length;
  struct growbuf values;   /* offsets, views, values or value bits */
  struct growbuf data;     /* utf8 / large_utf8 bytes */
  struct growbuf validity; /* created at the first null */
  /* managed strings recorded until the free pass: a plain growable array (released by a
   * tight decref loop, no per-element destructor call) */
  nrt_meminfo **refs;
  size_t n_refs;
  size_t ref_cap;
  char *reg_begin, *reg_cur, *reg_end; /* the open region (the block's latest allocation) */
  const char *cur_base;     /* start of the current block's last chunk */
  int32_t reg_index;        /* its variadic buffer index */
  int64_t null_count;
  int64_t expected;
  struct nrt_error error;
  /* utf8_view long strings: chunks of these blocks are the variadic buffers */
  nrt_memblock *view_blocks[VIEW_MAX_BLOCKS];
  int n_view_blocks;
  int32_t chunks_before;    /* chunks in the blocks before the current one */
  size_t cur_chunks;        /* chunks of the current block seen so far */
  bool cur_full;            /* the current block reached VIEW_BLOCK_LIMIT: start another */
  size_t reg_size;          /* size of the next region */
  nrt_col_builder *child;   /* a list builder's items (a string builder), else NULL */
};

/* Records the sticky error (code and formatted message) unless one is set; returns the sticky
 * status. */
int colb_fail(nrt_col_builder *b, int code, const char *fmt, ...) NRT_PRINTF(3, 4);
/* Records an error that a callee already described in `e`, prefixed with the row. */
int colb_fail_with(nrt_col_builder *b, const struct nrt_error *e);
/* Makes room for `extra` more bytes in g (doubling, at least min_cap), creating its block on
 * first use. The buffer may move. */
int colb_grow(nrt_col_builder *b, struct growbuf *g, size_t extra, size_t min_cap, int zeroed);
/* Bytes per row slot in the values buffer (0 for bool: bits). */
size_t colb_value_width(enum nrt_col_type t);
/* Marks the row being appended (index b->length) valid when a bitmap exists. */
int colb_mark_valid(nrt_col_builder *b);
/* Marks it null (its bit clear), creating the bitmap at the first null; counts the null. */
int colb_mark_null(nrt_col_builder *b);
/* utf8_view long-string regions: open one of at least `len` bytes (closing the current one),
 * or close the current one (shrunk to the bytes used). */
int colb_open_region(nrt_col_builder *b, int64_t len);
void colb_close_region(nrt_col_builder *b);

#endif

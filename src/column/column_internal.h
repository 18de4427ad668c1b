/* Internal helpers shared by the column source files. */
#ifndef NRT_COLUMN_INTERNAL_H
#define NRT_COLUMN_INTERNAL_H

#include "nrt/column.h"

/* Reference slots of a column's ARRAY block: the blocks owning its buffers. */
enum {
  NRT_COL_SLOT_VALIDITY = 0,
  NRT_COL_SLOT_VALUES = 1,
  NRT_COL_SLOT_DATA = 2,
  NRT_COL_SLOT_VARIADIC = 3, /* + i for variadic buffer i */
  /* A list column has no data buffer: that slot holds its child column's ARRAY block (so
   * slicing, which shares every slot, shares the child). */
  NRT_COL_SLOT_CHILD = NRT_COL_SLOT_DATA
};

/* Whether a list's items may have type t: a string layout, int64, float64 or bool. */
static inline bool nrt_col_list_item_type(enum nrt_col_type t) {
  return nrt_col_type_is_string(t) || t == NRT_COL_INT64 || t == NRT_COL_FLOAT64 ||
         t == NRT_COL_BOOL;
}

/* Alignment of the buffers nrt allocates (Arrow's recommendation). */
#define NRT_COL_BUFFER_ALIGN 64

/* A new column header of `type` with `n_variadic` variadic buffer slots, every buffer empty,
 * length/offset/null_count 0. *out owns one reference. NRT_ENOMEM. */
int nrt_col_new(enum nrt_col_type type, int32_t n_variadic, nrt_column **out,
                struct nrt_error *err);

/* Sets buffer `slot` (see the enum) of a column under construction to [data, data + size)
 * owned by `owner` (retained; may be NULL for static memory). */
void nrt_col_set_buffer(nrt_column *col, int slot, const void *data, int64_t size,
                        nrt_memblock *owner);

/* Makes `child` (retained) the child column of a list column under construction. */
void nrt_col_set_child(nrt_column *col, nrt_column *child);

/* The column type of an Arrow schema, and for a list the type of its items (0 otherwise):
 * NRT_EUNSUPPORTED for another format, a dictionary, a list of non-strings; NRT_EINVAL for a
 * NULL or released schema, a list schema without exactly one child. */
struct ArrowSchema;
int nrt_col_schema_types(const struct ArrowSchema *schema, enum nrt_col_type *type,
                         enum nrt_col_type *child_type, struct nrt_error *err);

/* nrt_col_import_arrow_flags for a known type (a list's items of layout child_type). */
struct ArrowArray;
int nrt_col_import_typed(struct ArrowArray *array, enum nrt_col_type type,
                         enum nrt_col_type child_type, unsigned flags, nrt_column **out,
                         struct nrt_error *err);

/* The block owning buffer `slot` of col (borrowed), or NULL. */
nrt_memblock *nrt_col_owner(const nrt_column *col, int slot);

/* nrt_col_validate's checks that read no row's contents: buffer sizes, and null_count
 * against the bitmap. */
int nrt_col_validate_shape(const nrt_column *col, struct nrt_error *err);

/* Number of zero bits among bits [offset, offset + length) of `bits`. */
int64_t nrt_col_count_nulls(const uint8_t *bits, int64_t offset, int64_t length);

/* Copies n bits from src at bit src_off to dst at bit dst_off (LSB-first bit order). */
void nrt_col_copy_bits(uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                       int64_t n);

/* Sets bits [off, off + n) of dst to 1. */
void nrt_col_set_bits(uint8_t *dst, int64_t off, int64_t n);

/* Gives `dst` (under construction, offset still 0) src's validity with as little offset as
 * possible: the bitmap is shared from byte src->offset / 8 and dst->offset becomes
 * src->offset % 8 (so dst's other buffers must be laid out from that offset). dst's
 * null_count is src's. */
void nrt_col_share_validity(nrt_column *dst, const nrt_column *src);

/* A new POD block holding one allocation of `size` bytes aligned for column buffers; *data
 * receives it. The block is finalized. *blk owns one reference. */
int nrt_col_alloc_buffer(size_t size, nrt_memblock **blk, char **data, struct nrt_error *err);

/* A utf8_view builder starts a new data block once its current one holds this many bytes
 * (512 MiB, so no chunk exceeds 1 GiB and view offsets fit int32). Tests lower it to reach
 * the block switch with little data; nothing else writes it. */
extern size_t nrt_col_view_block_limit;

/* Viewing a data buffer larger than INT32_MAX bytes (utf8 -> utf8_view): variadic buffer k
 * starts at byte k * NRT_COL_VIEW_WINDOW of it, so every view offset fits int32. */
#define NRT_COL_VIEW_WINDOW ((int64_t)1 << 30)

#endif

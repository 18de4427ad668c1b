/* nrt column: immutable Arrow-layout columns, builders, row access, conversions.
 *
 * Layouts (Arrow's, bit for bit, so export/import is zero-copy; see nrt/column_arrow.h):
 *   NRT_COL_UTF8        validity, int32 offsets[length+1], data bytes           format "u"
 *   NRT_COL_LARGE_UTF8  validity, int64 offsets[length+1], data bytes           format "U"
 *   NRT_COL_UTF8_VIEW   validity, 16-byte views[length], variadic data buffers  format "vu"
 *   NRT_COL_INT64       validity, int64 values[length]                          format "l"
 *   NRT_COL_FLOAT64     validity, double values[length]                         format "g"
 *   NRT_COL_BOOL        validity, bit-packed values (LSB first)                 format "b"
 *   NRT_COL_LIST        validity, int32 offsets[length+1] into one child column  format "+l"
 *                       of a string layout, int64, float64 or bool (list<utf8>,
 *                       list<large_utf8>, list<utf8_view>, list<int64>, list<double>,
 *                       list<bool>); the child has its own validity (null items)
 * The validity bitmap is optional (NULL: no nulls); bit (offset + i) set = row i is valid.
 *
 * Ownership: every buffer lives in an nrt_memblock. A column is itself a reference-counted
 * ARRAY memblock whose header is the struct nrt_column below and whose reference slots hold
 * the blocks owning its buffers. Slices and conversions that reuse a buffer take another
 * reference to its block instead of copying (slicing is zero-copy). A column is immutable
 * once made, so it may be read and released from any thread. A list column's child column is
 * held the same way: its ARRAY block sits in one of the list's reference slots, so slices of
 * the list share the child.
 *
 * Builders (one per thread) append rows and keep a sticky error, checked once at finish. */
#ifndef NRT_COLUMN_H
#define NRT_COLUMN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nrt/core.h"
#include "nrt/memblock.h"
#include "nrt/str.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Column types. */
enum nrt_col_type {
  NRT_COL_UTF8 = 1,
  NRT_COL_LARGE_UTF8 = 2,
  NRT_COL_UTF8_VIEW = 3,
  NRT_COL_INT64 = 4,
  NRT_COL_FLOAT64 = 5,
  NRT_COL_BOOL = 6,
  NRT_COL_LIST = 7 /* a list of strings, ints, floats or bools per row (the child column holds
                    * the items) */
};

/* A short name ("utf8", "large_utf8", "utf8_view", "int64", "float64", "bool", "list"), or
 * "?". */
NRT_API const char *nrt_col_type_name(enum nrt_col_type type);

/* Nonzero for the three string layouts. */
static inline int nrt_col_type_is_string(enum nrt_col_type type) {
  return type == NRT_COL_UTF8 || type == NRT_COL_LARGE_UTF8 || type == NRT_COL_UTF8_VIEW;
}

/* One buffer: its start and size in bytes (NULL / 0 when absent). */
struct nrt_col_buffer {
  const void *data;
  int64_t size;
};

/* Arrow's 16-byte string view. Strings of at most NRT_COL_VIEW_INLINE bytes are stored inline
 * (the unused inline bytes are zero); longer ones keep their first 4 bytes as a prefix and
 * point into variadic buffer `buffer_index` at byte `offset`. */
#define NRT_COL_VIEW_INLINE 12
typedef struct nrt_col_view {
  int32_t length;
  union {
    char inlined[NRT_COL_VIEW_INLINE];
    struct {
      char prefix[4];
      int32_t buffer_index;
      int32_t offset;
    } ref;
  } u;
} nrt_col_view;

/* An immutable column. Fields are read-only for users; make columns with builders,
 * nrt_col_slice, nrt_col_convert, nrt_col_concat or the Arrow import.
 * Row i (0 <= i < length) is at physical position offset + i in every buffer. */
typedef struct nrt_column {
  enum nrt_col_type type;
  int64_t length;     /* rows */
  int64_t offset;     /* rows skipped at the start of the buffers (slices) */
  int64_t null_count; /* exact number of null rows among the `length` rows */
  struct nrt_col_buffer validity; /* bitmap, or data == NULL when there are no nulls */
  struct nrt_col_buffer values;   /* offsets / views / values / value bits (list: int32
                                   * offsets into the child's rows) */
  struct nrt_col_buffer data;     /* string bytes (UTF8, LARGE_UTF8), else empty */
  int32_t n_variadic;             /* UTF8_VIEW data buffers */
  const struct nrt_col_buffer *variadic;
  nrt_memblock *block;            /* the ARRAY block holding this header (internal) */
} nrt_column;

/* Takes one more reference to the column (atomic). NULL is ignored. */
NRT_API void nrt_col_retain(nrt_column *col);

/* Drops one reference (atomic, any thread); the last one releases the column's buffers'
 * blocks and frees the header. NULL is ignored. */
NRT_API void nrt_col_release(nrt_column *col);

/* ---------------------------------------------------------------- row access
 * Row accessors do not check bounds or types: 0 <= i < col->length and the right type are the
 * caller's contract. */

/* Whether row i holds a value (not null). */
static inline bool nrt_col_is_valid(const nrt_column *col, int64_t i) {
  if (!col->validity.data)
    return true;
  int64_t p = col->offset + i;
  return (((const uint8_t *)col->validity.data)[p >> 3] >> (p & 7)) & 1;
}

/* Row i of a string column as a borrowed view (mi == NULL) into the column's buffers, valid
 * while the caller holds a reference to the column. A null row gives the empty view. */
static inline nrt_str nrt_col_str(const nrt_column *col, int64_t i) {
  int64_t p = col->offset + i;
  nrt_str s = {NULL, "", 0};
  if (!nrt_col_is_valid(col, i))
    return s;
  switch (col->type) {
  case NRT_COL_UTF8: {
    const int32_t *o = (const int32_t *)col->values.data;
    s.data = (const char *)col->data.data + o[p];
    s.len = (int64_t)o[p + 1] - o[p];
    break;
  }
  case NRT_COL_LARGE_UTF8: {
    const int64_t *o = (const int64_t *)col->values.data;
    s.data = (const char *)col->data.data + o[p];
    s.len = o[p + 1] - o[p];
    break;
  }
  case NRT_COL_UTF8_VIEW: {
    const nrt_col_view *v = (const nrt_col_view *)col->values.data + p;
    s.len = v->length;
    if (v->length <= NRT_COL_VIEW_INLINE)
      s.data = v->u.inlined;
    else
      s.data = (const char *)col->variadic[v->u.ref.buffer_index].data + v->u.ref.offset;
    break;
  }
  default:
    break;
  }
  return s;
}

/* Row i of an INT64 / FLOAT64 / BOOL column (a null row gives whatever its slot holds). */
static inline int64_t nrt_col_int64(const nrt_column *col, int64_t i) {
  return ((const int64_t *)col->values.data)[col->offset + i];
}
static inline double nrt_col_float64(const nrt_column *col, int64_t i) {
  return ((const double *)col->values.data)[col->offset + i];
}
static inline bool nrt_col_bool(const nrt_column *col, int64_t i) {
  int64_t p = col->offset + i;
  return (((const uint8_t *)col->values.data)[p >> 3] >> (p & 7)) & 1;
}

/* The child column of a list column (borrowed: valid while the caller holds a reference to
 * col; retain it to keep it longer): a string layout, INT64, FLOAT64 or BOOL. NULL for a
 * column of another type. */
NRT_API nrt_column *nrt_col_list_child(const nrt_column *col);

/* The items of row i of a list column are rows [*start, *end) of its child column
 * (nrt_col_list_child; indices are the child's rows, so read them with nrt_col_str(child, k),
 * nrt_col_int64, nrt_col_float64 or nrt_col_bool after nrt_col_is_valid(child, k)).
 * A null row built by nrt has an empty range; an imported one may cover items (Arrow allows
 * it): test nrt_col_is_valid first. */
static inline void nrt_col_list_range(const nrt_column *col, int64_t i, int64_t *start,
                                      int64_t *end) {
  const int32_t *o = (const int32_t *)col->values.data + col->offset + i;
  *start = o[0];
  *end = o[1];
}

/* Checked variant of nrt_col_str: NRT_EINDEX for a bad row, NRT_EINVAL for a non-string
 * column; *out is the borrowed view (empty for a null row) and *is_null (may be NULL) tells
 * nulls apart from empty strings. */
NRT_API int nrt_col_get_str(const nrt_column *col, int64_t i, nrt_str *out, bool *is_null,
                            struct nrt_error *err);

/* ------------------------------------------------------------- whole columns */

/* A zero-copy slice of rows [start, start + length): a new column sharing col's buffers (their
 * blocks are retained; a list's child column is shared whole); null_count is recomputed. On
 * success *out owns one reference.
 * NRT_EINDEX when the range is outside the column; NRT_ENOMEM. */
NRT_API int nrt_col_slice(nrt_column *col, int64_t start, int64_t length, nrt_column **out,
                          struct nrt_error *err);

/* Converts a string column to another string layout (or any column to its own type, which
 * retains and returns it). Bytes are shared where the layouts allow it:
 *   utf8 <-> large_utf8: the data buffer is shared, new offsets are written;
 *   utf8 / large_utf8 -> utf8_view: views point into the shared data buffer (a buffer larger
 *     than 2 GiB is exposed as several windows);
 *   utf8_view -> utf8 / large_utf8: the bytes are copied into a new data buffer.
 * A list column converts only to its own type. Errors: NRT_ERANGE when the result does not
 * fit the target (more than INT32_MAX data bytes for utf8: the message suggests large_utf8);
 * NRT_EINVAL for a non-string conversion;
 * NRT_ENOMEM. On success *out owns one reference. */
NRT_API int nrt_col_convert(nrt_column *col, enum nrt_col_type target, nrt_column **out,
                            struct nrt_error *err);

/* Concatenates n >= 0 columns (any mix of string layouts, or all of one non-string type) into
 * one new column of type `target`. For a utf8_view target the views are copied and rebased
 * and the sources' data buffers are shared (long strings' bytes are not copied); for utf8 and
 * large_utf8 targets the bytes are copied once. Used by the exec layer to stitch chunks.
 * List columns (target NRT_COL_LIST, every source a list): the offsets are rebased and the
 * items the rows cover are concatenated as above into a child of the first source's child
 * layout (utf8 when n is 0); more than INT32_MAX items is NRT_ERANGE.
 * Errors: NRT_EINVAL for incompatible types, NRT_ERANGE as for nrt_col_convert, NRT_ENOMEM. */
NRT_API int nrt_col_concat(nrt_column *const *cols, size_t n, enum nrt_col_type target,
                           nrt_column **out, struct nrt_error *err);

/* Runs task(task_arg, k) for every k in [0, n_tasks), in any order and possibly at once on
 * several threads, and returns when all have run. */
typedef void (*nrt_col_task_fn)(void *task_arg, int64_t k);
typedef void (*nrt_col_runner)(void *run_arg, int64_t n_tasks, nrt_col_task_fn task,
                               void *task_arg);

/* nrt_col_concat with the copying of each source's rows as a task of its own given to `run`
 * (NULL: in order on this thread), so that a caller with threads copies them at once (the
 * exec layer passes its worker pool). The tasks write disjoint parts of the new buffers; the
 * plan, the validity bitmap and a list's child are made on the calling thread. */
NRT_API int nrt_col_concat_run(nrt_column *const *cols, size_t n, enum nrt_col_type target,
                               nrt_col_runner run, void *run_arg, nrt_column **out,
                               struct nrt_error *err);

/* Whether two columns hold the same rows (same type family: strings compare by bytes across
 * layouts; nulls equal nulls; floats compare bitwise except that equal values compare equal;
 * lists compare item by item, whatever their child layouts and offsets). */
NRT_API bool nrt_col_equal(const nrt_column *a, const nrt_column *b);

/* Checks every structural invariant of a column (the same rules as the Arrow import: buffer
 * sizes, offsets monotonic and inside the data, views inside their buffers with zeroed inline
 * padding, null_count matching the bitmap, UTF-8 valid; for a list, offsets monotonic from
 * >= 0 and inside the child's rows, and the child itself valid, its defects prefixed with
 * "child: "). NRT_EVALUE naming the first bad row and the defect, NRT_EILSEQ for invalid UTF-8
 * (with the row and byte offset). */
NRT_API int nrt_col_validate(const nrt_column *col, struct nrt_error *err);

/* The per-row checks of nrt_col_validate (offsets, views, UTF-8; a list's whole child) over
 * rows [first, first + count) only, after its checks that read no row (buffer sizes). Rows are
 * named by their index in col. For a reader of part of a column imported with
 * NRT_COL_IMPORT_ROWS_UNCHECKED, before it reads those rows (nrt_exec_options.validate_inputs
 * checks each chunk's rows this way). NRT_EINVAL for a range outside the column. */
NRT_API int nrt_col_validate_rows(const nrt_column *col, int64_t first, int64_t count,
                                  struct nrt_error *err);

/* ------------------------------------------------------------------- builders
 *
 * A builder appends rows to a column of one type. Appends never fail loudly: the first error
 * (allocation failure, a value of the wrong type, overflow) is kept as a sticky status, later
 * appends do nothing, and finish reports it. Each append also returns the sticky status, for
 * callers that want to stop early.
 *
 * Managed strings and the free pass (cuDF's lifecycle): appending a managed string (mi !=
 * NULL) retains it (nrt_str_retain) and records it in the builder's reference list; the bytes
 * are copied into the builder's data at once (all three string layouts copy; a utf8_view
 * builder stores strings of <= 12 bytes inline and longer ones in chunks of a POD memblock
 * that become the variadic buffers, so finished chunks are never copied). The free pass
 * releases every recorded reference; it runs exactly once per builder:
 *   - nrt_col_builder_finish and nrt_col_builder_abort run it (success or failure);
 *   - nrt_col_builder_free_pass runs it early (the column's bytes do not depend on it);
 *   - nrt_col_builder_finish_keep_refs instead hands the reference list over as an
 *     OBJECTARRAY memblock, and nrt_col_free_pass(refs) is the free pass (the exec layer
 *     calls it after stitching chunks).
 * After a column is built, freed, and its free pass run, the runtime statistics are balanced
 * (alloc == free, mi_alloc == mi_free).
 *
 * Borrowed views (mi == NULL) are copied and not recorded. Strings must be valid UTF-8 (not
 * checked; the builder trusts its producer). A UTF8 builder whose data grows past INT32_MAX
 * bytes records NRT_ERANGE (reported at finish, suggesting large_utf8). */
typedef struct nrt_col_builder nrt_col_builder;

/* Makes a builder for `type`; `expected_rows` (>= 0, may be 0) sizes the first buffers.
 * On success *out is the builder (owned by the caller until finish/abort). NRT_EINVAL for a
 * bad type (NRT_COL_LIST included: a list builder needs its child layout, see
 * nrt_col_builder_new_list), NRT_ENOMEM. */
NRT_API int nrt_col_builder_new(enum nrt_col_type type, int64_t expected_rows,
                                nrt_col_builder **out, struct nrt_error *err);

/* Makes a builder of a list column whose items go to a child column of type `child_type`: a
 * string layout (NRT_COL_UTF8, NRT_COL_LARGE_UTF8, NRT_COL_UTF8_VIEW), NRT_COL_INT64,
 * NRT_COL_FLOAT64 or NRT_COL_BOOL. A row is appended either whole (a list of str:
 * nrt_col_builder_append_list) or item by item (any child type): append the row's items to
 * the item builder (nrt_col_builder_list_items) with the appends of its type, nulls included,
 * then nrt_col_builder_end_list. A null row is nrt_col_builder_append_null on the list builder.
 * nrt_col_builder_type gives NRT_COL_LIST. As nrt_col_builder_new otherwise (NRT_EINVAL for
 * another child type). */
NRT_API int nrt_col_builder_new_list(enum nrt_col_type child_type, int64_t expected_rows,
                                     nrt_col_builder **out, struct nrt_error *err);

/* Appends one list row to a list builder whose items are strings (else sticky NRT_EINVAL): the
 * items' bytes are copied
 * into the child column, so the builder keeps no reference to the list or its strings (the
 * caller keeps its own). A list must not be NULL (append a null row with
 * nrt_col_builder_append_null). More than INT32_MAX items in the column is sticky
 * NRT_ERANGE; the child's own errors (NRT_ERANGE for utf8 data above 2 GiB, NRT_ENOMEM) become
 * the builder's. */
NRT_API int nrt_col_builder_append_list(nrt_col_builder *b, const nrt_str_list *list);

/* The item builder of a list builder (borrowed: owned by b, valid until b's finish or abort;
 * NULL when b is not a list builder). Its appends add items to the row being built; never
 * finish or abort it. Its sticky error becomes b's at the next nrt_col_builder_end_list. The
 * managed strings it records count in b's nrt_col_builder_ref_count and are released by b's
 * free pass (finish, abort, nrt_col_builder_free_pass); finish_keep_refs hands over only b's
 * own, releasing the items' at once. */
NRT_API nrt_col_builder *nrt_col_builder_list_items(nrt_col_builder *b);

/* Appends one list row (list builders only, else sticky NRT_EINVAL) holding the items appended
 * to the item builder since the previous row (possibly none). The item builder's error becomes
 * the builder's, prefixed with the row; more than INT32_MAX items in the column is sticky
 * NRT_ERANGE. Returns the sticky status. */
NRT_API int nrt_col_builder_end_list(nrt_col_builder *b);

/* Appends a string (string builders only, else sticky NRT_EINVAL). A managed string is
 * retained and recorded until the free pass; the caller keeps its own reference. */
NRT_API int nrt_col_builder_append_str(nrt_col_builder *b, const nrt_str *s);

/* As nrt_col_builder_append_str, but takes over the caller's reference instead of retaining
 * (no refcount traffic); *s is emptied in every case (released if the append failed). */
NRT_API int nrt_col_builder_append_str_move(nrt_col_builder *b, nrt_str *s);

/* Appends borrowed bytes s[0..len) (copied; len >= 0). String builders only. */
NRT_API int nrt_col_builder_append_view(nrt_col_builder *b, const char *s, int64_t len);

/* Writing a string row in place: the producer writes the row's bytes straight into the
 * builder's buffers, so a computed string (a case mapping, a concatenation, formatted text)
 * needs no intermediate string. The fields are public so room checks inline:
 *
 *   nrt_col_row_writer w;
 *   if (nrt_col_builder_row_begin(b, &w, err)) ...;          // once
 *   for each row:
 *     char *p = nrt_col_row_room(&w, n, err);                 // room for n more bytes
 *     if (!p) ...;                                            // error: the builder's status
 *     w.pos = p + (bytes written at p, at most n);
 *     ...
 *     if (nrt_col_builder_row_end(b, &w, err)) ...;          // the row is appended; w is
 *                                                             // begun for the next row
 *
 * Only `pos` moves, forward, within [pos, end]; the bytes must be valid UTF-8 (not checked, as
 * for append_view). A row begun and not ended is abandoned at no cost (nothing to undo): to
 * drop a partly written row, begin again. Any other append on the builder invalidates the
 * writer: begin again after it. Layout (for compiled code): pos at 0, end at 8, row at 16. */
typedef struct nrt_col_row_writer {
  char *pos;                /* where the row's next byte goes */
  char *end;                /* end of the room made so far */
  char *row;                /* the row's first byte */
  nrt_col_builder *builder; /* the builder written to */
} nrt_col_row_writer;

/* Begins a row at the end of a string builder's data (making some room). Returns the sticky
 * status: NRT_EINVAL for a builder that does not hold strings, NRT_ENOMEM (w is then empty:
 * every room request fails with the builder's error). */
NRT_API int nrt_col_builder_row_begin(nrt_col_builder *b, nrt_col_row_writer *w,
                                      struct nrt_error *err);

/* The slow path of nrt_col_row_room: grows the room to at least n bytes past w->pos (the
 * bytes of the row written so far move with it). Returns the new w->pos, or NULL with the
 * builder's sticky error in err (allocation failure, a row too large for the layout), or NULL
 * with NRT_ELIMIT in err, the builder untouched, when the row would pass nrt_str_max_bytes
 * (nrt/str.h): that is the row's own error. */
NRT_API char *nrt_col_row_grow(nrt_col_row_writer *w, size_t n, struct nrt_error *err);

/* Room for n more bytes of the current row: w->pos, or NULL (see nrt_col_row_grow). */
static inline char *nrt_col_row_room(nrt_col_row_writer *w, size_t n, struct nrt_error *err) {
  return (size_t)(w->end - w->pos) >= n ? w->pos : nrt_col_row_grow(w, n, err);
}

/* Appends the row written in w (its bytes are [w->row, w->pos)) and begins the next one in w.
 * Returns the sticky status (NRT_ERANGE when the row does not fit the layout: a utf8 column
 * above INT32_MAX bytes, a view above INT32_MAX), with the message in err. */
NRT_API int nrt_col_builder_row_end(nrt_col_builder *b, nrt_col_row_writer *w,
                                    struct nrt_error *err);

/* Appends a null row instead of the row being written in w (its bytes so far are dropped) and
 * begins the next one in w: nrt_col_builder_append_null then nrt_col_builder_row_begin, without
 * the begin's work when the writer can simply start over. Returns the sticky status. */
NRT_API int nrt_col_builder_row_null(nrt_col_builder *b, nrt_col_row_writer *w);

/* Writing many string rows without a call per row (for compiled loops: nrt/exec.h's
 * nrt_rows_write_fn). nrt_col_builder_rows_begin begins a row in w, as row_begin does, and
 * makes room for up to n row ends. The producer then writes the rows one after another
 * through w (nrt_col_row_room, pos) without ending them: w->row stays at the first row's
 * start, and after writing row k (0-based) it stores the row's end offset,
 * r.base + (w->pos - w->row), at ((int32_t *)r.ends)[k], or ((int64_t *)r.ends)[k] when r.wide
 * (large_utf8, and utf8_view, whose base is 0: its rows stay in the open region, a row of up
 * to 12 bytes copied into its view and its bytes there left unused).
 * A utf8 row whose end would pass INT32_MAX must not be stored (write it alone with row_end,
 * which reports the error); nor a row longer than the string limit, which nrt_col_row_room
 * may refuse for the rows written so far together (NRT_ELIMIT: write that row alone).
 * A null row takes no bytes: its end is the previous row's. nrt_col_builder_rows_end(b, w, &r,
 * k, nulls, n_nulls) appends the first k rows (k <= n; bytes written after row k - 1 are
 * dropped), those listed in nulls[0..n_nulls) (increasing indexes below k) as nulls, and begins
 * the next row in w. Any other append ends the batch without its rows. Layout (for compiled
 * code): ends at 0, base at 8, wide at 16. */
typedef struct nrt_col_rows {
  void *ends;    /* where row k's end offset goes */
  int64_t base;  /* the data offset where w->row was at the begin (utf8_view: 0) */
  int32_t wide;  /* nonzero: int64 ends (large_utf8, utf8_view), else int32 (utf8) */
} nrt_col_rows;

/* Returns the sticky status: NRT_EINVAL for a builder that holds no strings or n < 0 (r is
 * then zeroed and w empty). */
NRT_API int nrt_col_builder_rows_begin(nrt_col_builder *b, nrt_col_row_writer *w, int64_t n,
                                       nrt_col_rows *r, struct nrt_error *err);
/* Returns the sticky status (the rows are then not appended): NRT_EINVAL for ends that do
 * not match the bytes written or a null's index out of order. */
NRT_API int nrt_col_builder_rows_end(nrt_col_builder *b, nrt_col_row_writer *w,
                                     const nrt_col_rows *r, int64_t k, const int32_t *nulls,
                                     int64_t n_nulls, struct nrt_error *err);

/* Appends a number / bool to an INT64 / FLOAT64 / BOOL builder (else sticky NRT_EINVAL). */
NRT_API int nrt_col_builder_append_int64(nrt_col_builder *b, int64_t v);
NRT_API int nrt_col_builder_append_float64(nrt_col_builder *b, double v);
NRT_API int nrt_col_builder_append_bool(nrt_col_builder *b, bool v);

/* Appends a null row (any type). The validity bitmap is created at the first null. */
NRT_API int nrt_col_builder_append_null(nrt_col_builder *b);

/* Records `code` and a message as the sticky error unless one is already set (for producers
 * that fail mid-build, e.g. a row function's error); returns the sticky status. */
NRT_API int nrt_col_builder_set_error(nrt_col_builder *b, int code, const char *message);

/* The sticky status (NRT_OK while every append succeeded), the rows appended so far, and the
 * builder's type. */
NRT_API int nrt_col_builder_status(const nrt_col_builder *b);
NRT_API int64_t nrt_col_builder_length(const nrt_col_builder *b);
NRT_API enum nrt_col_type nrt_col_builder_type(const nrt_col_builder *b);

/* Number of managed-string references the builder currently holds (0 after the free pass). */
NRT_API size_t nrt_col_builder_ref_count(const nrt_col_builder *b);

/* Runs the free pass now: releases every recorded managed-string reference. Idempotent; the
 * builder stays usable (later managed appends are recorded again). NULL is ignored. */
NRT_API void nrt_col_builder_free_pass(nrt_col_builder *b);

/* Finishes: on success *out owns the new column (buffers finalized, no copy of the data).
 * On a sticky error it returns that status with its message in err and *out = NULL. In both
 * cases the free pass runs and the builder is destroyed (b is invalid afterwards). */
NRT_API int nrt_col_builder_finish(nrt_col_builder *b, nrt_column **out, struct nrt_error *err);

/* As nrt_col_builder_finish, but the reference list is handed over instead of released:
 * *refs owns it (an OBJECTARRAY memblock of the recorded nrt_meminfo pointers, or NULL when
 * there are none) and nrt_col_free_pass(*refs) releases them. On error *refs is NULL and the
 * references are released. The builder is destroyed in both cases. */
NRT_API int nrt_col_builder_finish_keep_refs(nrt_col_builder *b, nrt_column **out,
                                             nrt_memblock **refs, struct nrt_error *err);

/* Abandons a build: runs the free pass and frees everything the builder made. NULL ignored. */
NRT_API void nrt_col_builder_abort(nrt_col_builder *b);

/* The free pass over a reference list from nrt_col_builder_finish_keep_refs: decrefs every
 * recorded string and frees the list (it is nrt_memblock_release). NULL is ignored. */
NRT_API void nrt_col_free_pass(nrt_memblock *refs);

#ifdef __cplusplus
}
#endif

#endif /* NRT_COLUMN_H */

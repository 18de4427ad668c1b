/* Structural validation of a column: the rules the Arrow import enforces on foreign arrays.
 * Every defect is reported with the row it concerns; nothing is read outside the buffers'
 * stated sizes. */
#include <string.h>

#include "column/column_internal.h"
#include "nrt/unicode.h"

#define BAD(err, ...) nrt_error_set(err, NRT_EVALUE, __VA_ARGS__)

static bool is_continuation(unsigned char c) {
  return (c & 0xC0) == 0x80;
}

/* Validates one row's bytes; reports the row and the byte offset inside it. */
static int check_row_utf8(const char *s, int64_t len, int64_t row, struct nrt_error *err) {
  size_t bad;
  if (nrt_utf8_validate(s, (size_t)len, &bad, NULL) != NRT_OK)
    return nrt_error_set(err, NRT_EILSEQ, "row %lld: invalid UTF-8 at byte %zu of the string",
                         (long long)row, bad);
  return NRT_OK;
}

/* Rows [first, first + n) of a utf8 / large_utf8 column: offsets >= 0, non-decreasing,
 * inside the data, then UTF-8 of every valid row; rows are named by their index in the
 * column. One macro body for both offset widths. */
#define CHECK_OFFSETS(T)                                                                     \
  do {                                                                                       \
    const T *o = (const T *)col->values.data + col->offset + first;                          \
    const char *data = (const char *)col->data.data;                                         \
    if (o[0] < 0)                                                                            \
      return BAD(err, "row %lld: first offset %lld is negative", (long long)first,          \
                 (long long)o[0]);                                                           \
    /* Non-decreasing: one branch-free pass (vectorized); the loop naming the row only runs  \
     * when some offset goes down. */                                                        \
    bool down = false;                                                                       \
    for (int64_t i = 0; i < n; i++)                                                          \
      down |= o[i + 1] < o[i];                                                               \
    for (int64_t i = 0; down && i < n; i++)                                                  \
      if (o[i + 1] < o[i])                                                                   \
        return BAD(err, "row %lld: end offset %lld is less than the start offset %lld",      \
                   (long long)(first + i), (long long)o[i + 1], (long long)o[i]);            \
    /* Monotonic: the first row ending past the data is the defect to name. */               \
    for (int64_t i = 0; i < n && (int64_t)o[n] > col->data.size; i++)                        \
      if ((int64_t)o[i + 1] > col->data.size)                                                \
        return BAD(err,                                                                      \
                   "row %lld: end offset %lld is beyond the data buffer of %lld bytes",      \
                   (long long)(first + i), (long long)o[i + 1], (long long)col->data.size);  \
    int64_t lo = o[0], hi = o[n];                                                            \
    if (hi > lo && !data)                                                                    \
      return BAD(err, "row %lld: offsets address bytes but the data buffer is missing",      \
                 (long long)first);                                                          \
    size_t bad;                                                                              \
    /* Without nulls, one pass over all the bytes; with nulls, only valid rows are read. */  \
    bool whole = (!col->validity.data ||                                                     \
                  nrt_col_count_nulls((const uint8_t *)col->validity.data,                   \
                                      col->offset + first, n) == 0) &&                       \
                 (hi == lo ||                                                                \
                  nrt_utf8_validate(data + lo, (size_t)(hi - lo), &bad, NULL) == NRT_OK);    \
    if (whole && hi > lo) {                                                                  \
      /* Every row is valid iff every row starting before `hi` starts a character; the rows  \
       * from the last such one on are empty. One branch-free pass, and the row loop below   \
       * only runs to name the row that is not. */                                           \
      int64_t starts = n;                                                                    \
      while (starts > 0 && o[starts - 1] >= hi)                                              \
        starts--;                                                                            \
      unsigned cut = 0;                                                                      \
      for (int64_t i = 0; i < starts; i++)                                                   \
        cut |= is_continuation((unsigned char)data[o[i]]);                                   \
      if (!cut)                                                                              \
        break;                                                                               \
    }                                                                                        \
    for (int64_t i = 0; i < n; i++) {                                                        \
      if (!nrt_col_is_valid(col, first + i) || o[i + 1] == o[i])                             \
        continue;                                                                            \
      if (whole) {                                                                           \
        /* The whole range is valid: a row is valid iff both its ends are char boundaries. */ \
        if (!is_continuation((unsigned char)data[o[i]]) &&                                   \
            (o[i + 1] == hi || !is_continuation((unsigned char)data[o[i + 1]])))             \
          continue;                                                                          \
      }                                                                                      \
      int rc_ = check_row_utf8(data + o[i], (int64_t)(o[i + 1] - o[i]), first + i, err);     \
      if (rc_)                                                                               \
        return rc_;                                                                          \
    }                                                                                        \
  } while (0)

/* Rows [first, first + n) of a utf8_view column. */
static int check_views(const nrt_column *col, int64_t first, int64_t n, struct nrt_error *err) {
  const nrt_col_view *v = (const nrt_col_view *)col->values.data + col->offset + first;
  for (int64_t i = 0; i < n; i++) {
    int64_t row = first + i;
    if (!nrt_col_is_valid(col, row))
      continue;
    int32_t len = v[i].length;
    if (len < 0)
      return BAD(err, "row %lld: view length %d is negative", (long long)row, len);
    if (len <= NRT_COL_VIEW_INLINE) {
      for (int k = len; k < NRT_COL_VIEW_INLINE; k++)
        if (v[i].u.inlined[k] != 0)
          return BAD(err, "row %lld: inline view of %d bytes has nonzero padding at byte %d",
                     (long long)row, len, k);
      int rc = check_row_utf8(v[i].u.inlined, len, row, err);
      if (rc)
        return rc;
      continue;
    }
    int32_t bi = v[i].u.ref.buffer_index, off = v[i].u.ref.offset;
    if (bi < 0 || bi >= col->n_variadic)
      return BAD(err, "row %lld: view buffer index %d is outside the %d data buffers",
                 (long long)row, bi, col->n_variadic);
    const struct nrt_col_buffer *b = &col->variadic[bi];
    if (off < 0 || (int64_t)off + len > b->size)
      return BAD(err,
                 "row %lld: view [%d, %lld) is outside data buffer %d of %lld bytes",
                 (long long)row, off, (long long)off + len, bi, (long long)b->size);
    if (!b->data)
      return BAD(err, "row %lld: view into data buffer %d, which is missing", (long long)row,
                 bi);
    const char *s = (const char *)b->data + off;
    if (memcmp(s, v[i].u.ref.prefix, 4) != 0)
      return BAD(err, "row %lld: view prefix does not match the first 4 bytes of the string",
                 (long long)row);
    int rc = check_row_utf8(s, len, row, err);
    if (rc)
      return rc;
  }
  return NRT_OK;
}

/* Rows [first, first + n) of a list: offsets (>= 0, non-decreasing, inside the child's
 * rows), then the whole child. */
static int check_list(const nrt_column *col, int64_t first, int64_t n, struct nrt_error *err) {
  const nrt_column *child = nrt_col_list_child(col);
  if (!child)
    return BAD(err, "the child column is missing");
  if (!nrt_col_list_item_type(child->type))
    return BAD(err, "the child column is %s, not a string layout, int64, float64 or bool",
               nrt_col_type_name(child->type));
  if (n > 0) {
    const int32_t *o = (const int32_t *)col->values.data + col->offset + first;
    if (o[0] < 0)
      return BAD(err, "row %lld: first offset %d is negative", (long long)first, o[0]);
    for (int64_t i = 0; i < n; i++) {
      if (o[i + 1] < o[i])
        return BAD(err, "row %lld: end offset %d is less than the start offset %d",
                   (long long)(first + i), o[i + 1], o[i]);
      if (o[i + 1] > child->length)
        return BAD(err, "row %lld: end offset %d is beyond the child column of %lld rows",
                   (long long)(first + i), o[i + 1], (long long)child->length);
    }
  }
  struct nrt_error e = {0};
  int rc = nrt_col_validate(child, &e);
  if (rc)
    return nrt_error_set(err, rc, "child: %s", e.message);
  return NRT_OK;
}

/* The checks that read no row: length and offset, the bitmap's and the buffers' sizes. */
static int check_shape(const nrt_column *col, struct nrt_error *err) {
  int64_t n = col->length, off = col->offset;
  if (n < 0 || off < 0 || n > INT64_MAX / 16 - off - 1)
    return BAD(err, "length %lld / offset %lld are invalid", (long long)n, (long long)off);
  int64_t end = off + n;
  if (col->validity.data) {
    int64_t need = (end + 7) / 8;
    if (col->validity.size < need)
      return BAD(err, "validity bitmap has %lld bytes, %lld rows at offset %lld need %lld",
                 (long long)col->validity.size, (long long)n, (long long)off, (long long)need);
  } else if (col->null_count != 0) {
    return BAD(err, "null_count %lld without a validity bitmap", (long long)col->null_count);
  }
  int64_t need;
  switch (col->type) {
  case NRT_COL_UTF8:
  case NRT_COL_LIST: need = (end + 1) * 4; break;
  case NRT_COL_LARGE_UTF8: need = (end + 1) * 8; break;
  case NRT_COL_UTF8_VIEW: need = end * 16; break;
  case NRT_COL_INT64:
  case NRT_COL_FLOAT64: need = end * 8; break;
  case NRT_COL_BOOL: need = (end + 7) / 8; break;
  default: return nrt_error_set(err, NRT_EINVAL, "validate: unknown column type %d", col->type);
  }
  bool offsets = col->type == NRT_COL_UTF8 || col->type == NRT_COL_LARGE_UTF8 ||
                 col->type == NRT_COL_LIST;
  if (!col->values.data) {
    if (n == 0)
      return NRT_OK;
    return BAD(err, "row 0: the %s buffer is missing", offsets ? "offsets" : "values");
  }
  if (col->values.size < need)
    return BAD(err, "%s buffer has %lld bytes, %lld rows at offset %lld need %lld",
               offsets ? "offsets" : "values", (long long)col->values.size, (long long)n,
               (long long)off, (long long)need);
  return NRT_OK;
}

/* The per-row checks of rows [first, first + n) (a shape check_shape accepted). */
static int check_rows(const nrt_column *col, int64_t first, int64_t n, struct nrt_error *err) {
  if (col->type == NRT_COL_LIST)
    return check_list(col, first, col->values.data ? n : 0, err);
  if (n == 0)
    return NRT_OK;
  if (col->type == NRT_COL_UTF8)
    CHECK_OFFSETS(int32_t);
  else if (col->type == NRT_COL_LARGE_UTF8)
    CHECK_OFFSETS(int64_t);
  else if (col->type == NRT_COL_UTF8_VIEW)
    return check_views(col, first, n, err);
  return NRT_OK;
}

int nrt_col_validate_shape(const nrt_column *col, struct nrt_error *err) {
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "validate: NULL column");
  int rc = check_shape(col, err);
  if (rc || !col->validity.data)
    return rc;
  int64_t nulls = nrt_col_count_nulls((const uint8_t *)col->validity.data, col->offset,
                                      col->length);
  if (nulls != col->null_count)
    return BAD(err, "null_count %lld does not match the %lld nulls in the validity bitmap",
               (long long)col->null_count, (long long)nulls);
  return NRT_OK;
}

int nrt_col_validate(const nrt_column *col, struct nrt_error *err) {
  int rc = nrt_col_validate_shape(col, err);
  return rc ? rc : check_rows(col, 0, col->length, err);
}

int nrt_col_validate_rows(const nrt_column *col, int64_t first, int64_t count,
                          struct nrt_error *err) {
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "validate: NULL column");
  int rc = check_shape(col, err);
  if (rc)
    return rc;
  if (first < 0 || count < 0 || first > col->length - count)
    return nrt_error_set(err, NRT_EINVAL, "validate: rows [%lld, %lld) are outside the %lld rows",
                         (long long)first, (long long)first + count, (long long)col->length);
  return check_rows(col, first, count, err);
}

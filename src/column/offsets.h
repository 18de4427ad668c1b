/* Reading and writing the offsets of utf8 / large_utf8 columns: shared by the layout
 * conversions (convert.c) and concatenation (concat.c). */
#ifndef NRT_COLUMN_OFFSETS_H
#define NRT_COLUMN_OFFSETS_H

#include <string.h>

#include "column/column_internal.h"

static inline int64_t offset_at(const nrt_column *col, int64_t p) {
  if (!col->values.data)
    return 0; /* an empty imported array may have no offsets buffer */
  return col->type == NRT_COL_UTF8 ? ((const int32_t *)col->values.data)[p]
                                   : ((const int64_t *)col->values.data)[p];
}

static inline void put_offset(char *offsets, enum nrt_col_type t, int64_t i, int64_t v) {
  if (t == NRT_COL_UTF8) {
    int32_t x = (int32_t)v;
    memcpy(offsets + 4 * i, &x, 4);
  } else {
    memcpy(offsets + 8 * i, &v, 8);
  }
}

static inline int too_large_for_utf8(int64_t bytes, struct nrt_error *err) {
  return nrt_error_set(err, NRT_ERANGE,
                       "%lld bytes of string data do not fit utf8 (int32 offsets, at most %d "
                       "bytes); use large_utf8",
                       (long long)bytes, INT32_MAX);
}

/* The byte range [first, last) of an offsets column's rows. */
static inline void offsets_range(const nrt_column *col, int64_t *first, int64_t *last) {
  if (!col->values.data) {
    *first = *last = 0;
    return;
  }
  *first = offset_at(col, col->offset);
  *last = offset_at(col, col->offset + col->length);
}

#endif

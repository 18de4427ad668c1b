/* Test helpers for the column tests: deterministic UTF-8 strings and columns built from them. */
#ifndef NRT_TESTS_COLGEN_H
#define NRT_TESTS_COLGEN_H

#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "support/check.h"

/* Row i of the generated data: NULL for a null row (every 7th row when with_nulls), else a
 * string of 0..40 bytes mixing ASCII and multi-byte characters, written into buf. */
static inline const char *gen_row(unsigned seed, int64_t i, int with_nulls, char *buf,
                                  int64_t *len) {
  static const char *const pieces[] = {"a", "bc", "\xc3\xa9", "\xe6\xbc\xa2", "xyz", " ",
                                       "\xc3\x9f", "\xf0\x9f\x98\x80", "HELLO", "0123456789"};
  unsigned h = (unsigned)(i * 2654435761u) ^ (seed * 40503u);
  if (with_nulls && (i + seed) % 7 == 3) {
    *len = 0;
    return NULL;
  }
  int n = (int)((h >> 3) % 9);
  int64_t at = 0;
  for (int k = 0; k < n; k++) {
    const char *p = pieces[(h >> (k * 3 % 24)) % 10];
    size_t pl = strlen(p);
    memcpy(buf + at, p, pl);
    at += (int64_t)pl;
  }
  buf[at] = 0;
  *len = at;
  return buf;
}

/* Builds a column of string type `t` with n generated rows (see gen_row). */
static inline nrt_column *gen_column(enum nrt_col_type t, int64_t n, unsigned seed,
                                     int with_nulls) {
  nrt_col_builder *b;
  if (nrt_col_builder_new(t, n, &b, NULL) != NRT_OK)
    return NULL;
  char buf[128];
  for (int64_t i = 0; i < n; i++) {
    int64_t len;
    const char *s = gen_row(seed, i, with_nulls, buf, &len);
    if (s)
      nrt_col_builder_append_view(b, s, len);
    else
      nrt_col_builder_append_null(b);
  }
  nrt_column *col = NULL;
  if (nrt_col_builder_finish(b, &col, NULL) != NRT_OK)
    return NULL;
  return col;
}

/* CHECKs that rows [0, n) of col equal generated rows [first, first + n). */
static inline void check_generated(const nrt_column *col, int64_t first, int64_t n,
                                   unsigned seed, int with_nulls) {
  char buf[128];
  int ok = col->length == n;
  int64_t nulls = 0;
  for (int64_t i = 0; ok && i < n; i++) {
    int64_t len;
    const char *s = gen_row(seed, first + i, with_nulls, buf, &len);
    nrt_str v = nrt_col_str(col, i);
    if (!s) {
      nulls++;
      ok = !nrt_col_is_valid(col, i) && v.len == 0;
    } else {
      ok = nrt_col_is_valid(col, i) && v.len == len && memcmp(v.data, s, (size_t)len) == 0;
    }
    if (!ok)
      fprintf(stderr, "row %lld differs\n", (long long)i);
  }
  CHECK(ok);
  CHECK_EQ_INT(col->null_count, nulls);
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
}

#endif

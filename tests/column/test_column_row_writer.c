/* Writing string rows in place (nrt_col_row_writer): every string layout, rows of every
 * length written in pieces that force the room to grow (and, for utf8_view, regions to be
 * replaced mid-row), nulls and abandoned rows in between, compared with the same rows
 * appended the ordinary way; wrong builder types, oversized rows, allocation failures. */
#include <string.h>

#include "nrt/column.h"
#include "support/check.h"

static const enum nrt_col_type string_types[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                                  NRT_COL_UTF8_VIEW};

/* Row i's text: lengths cycle through 0..299 (inline views, long views, region-sized rows),
 * with some non-ASCII bytes. Returns its length; buf holds at least 300 bytes. */
static int64_t row_text(int64_t i, char *buf) {
  int64_t len = (i * 37) % 300;
  for (int64_t k = 0; k < len; k++)
    buf[k] = (char)('a' + (i + k) % 26);
  if (len >= 2 && i % 3 == 0) { /* an é at the end */
    buf[len - 2] = (char)0xC3;
    buf[len - 1] = (char)0xA9;
  }
  return len;
}

/* Writes row i in pieces of `piece` bytes, each piece its own room request. */
static int write_row(nrt_col_row_writer *w, const char *text, int64_t len, int64_t piece,
                     struct nrt_error *err) {
  for (int64_t k = 0; k < len; k += piece) {
    int64_t n = len - k < piece ? len - k : piece;
    char *p = nrt_col_row_room(w, (size_t)n, err);
    if (!p)
      return err->code;
    memcpy(p, text + k, (size_t)n);
    w->pos = p + n;
  }
  return NRT_OK;
}

/* Row i is null: every 11th, and a run of 130 (the bitmap grows within it). */
static bool null_row(int64_t i) { return i % 11 == 5 || (i >= 400 && i < 530); }

/* Null rows as above; every row i % 7 == 3 is first half-written and abandoned. With
 * row_null, a null row is half-written first and dropped by nrt_col_builder_row_null (an
 * apply's failing row with errors as nulls); else appended with append_null and begun
 * again. */
static int build_written(enum nrt_col_type type, int64_t rows, int64_t piece, bool row_null,
                         nrt_column **out, struct nrt_error *err) {
  nrt_col_builder *b;
  *out = NULL;
  int rc = nrt_col_builder_new(type, rows / 2, &b, err);
  if (rc)
    return rc;
  nrt_col_row_writer w;
  rc = nrt_col_builder_row_begin(b, &w, err);
  char buf[300];
  for (int64_t i = 0; i < rows && !rc; i++) {
    int64_t len = row_text(i, buf);
    if (null_row(i) && row_null) {
      rc = write_row(&w, buf, len / 2, piece, err);
      if (!rc)
        rc = nrt_col_builder_row_null(b, &w);
      continue;
    }
    if (null_row(i)) {
      rc = nrt_col_builder_append_null(b);
      if (!rc)
        rc = nrt_col_builder_row_begin(b, &w, err);
      continue;
    }
    if (i % 7 == 3) {
      rc = write_row(&w, "abandoned bytes of a failed row", 31, piece, err);
      if (!rc)
        rc = nrt_col_builder_row_begin(b, &w, err);
    }
    if (!rc)
      rc = write_row(&w, buf, len, piece, err);
    if (!rc)
      rc = nrt_col_builder_row_end(b, &w, err);
  }
  int frc = nrt_col_builder_finish(b, out, rc ? NULL : err);
  return rc ? rc : frc;
}

static void test_matches_appends(void) {
  struct check_live before = check_live_now();
  const int64_t rows = 700;
  const int64_t pieces[4] = {1, 5, 64, 1000};
  for (int t = 0; t < 6; t++) {
    for (int p = 0; p < 4; p++) {
      nrt_column *col = NULL;
      struct nrt_error err = {0};
      CHECK_EQ_INT(build_written(string_types[t % 3], rows, pieces[p], t >= 3, &col, &err),
                   NRT_OK);
      if (!col)
        continue;
      CHECK_EQ_INT(col->type, string_types[t % 3]);
      CHECK_EQ_INT(col->length, rows);
      CHECK_EQ_INT(nrt_col_validate(col, &err), NRT_OK);
      char buf[300];
      for (int64_t i = 0; i < rows; i++) {
        if (null_row(i)) {
          CHECK(!nrt_col_is_valid(col, i));
          continue;
        }
        int64_t len = row_text(i, buf);
        nrt_str s = nrt_col_str(col, i);
        CHECK(nrt_col_is_valid(col, i));
        CHECK(s.len == len && (len == 0 || memcmp(s.data, buf, (size_t)len) == 0));
        if (s.len != len || (len && memcmp(s.data, buf, (size_t)len) != 0))
          check_failf(__FILE__, __LINE__, "type %d piece %lld row %lld differs", t,
                      (long long)pieces[p], (long long)i);
      }
      nrt_col_release(col);
    }
  }
  CHECK_NO_LEAK(before);
}

/* A builder that already failed, and builders that do not hold strings. */
static void test_errors(void) {
  struct check_live before = check_live_now();
  nrt_col_builder *b;
  nrt_col_row_writer w;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_row_begin(b, &w, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "int64") != NULL);
  CHECK(nrt_col_row_room(&w, 1, &err) == NULL);
  CHECK_EQ_INT(nrt_col_builder_row_end(b, &w, &err), NRT_EINVAL);
  nrt_column *col;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_EINVAL);
  CHECK(col == NULL);

  for (int t = 0; t < 3; t++) {
    CHECK_EQ_INT(nrt_col_builder_new(string_types[t], 0, &b, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_row_begin(b, &w, &err), NRT_OK);
    /* An impossible room request is an error of the build, not a crash. */
    CHECK(nrt_col_row_room(&w, SIZE_MAX / 2, &err) == NULL);
    CHECK_EQ_INT(err.code, NRT_ERANGE);
    CHECK_EQ_INT(nrt_col_builder_row_end(b, &w, &err), NRT_ERANGE);
    CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_ERANGE);
    CHECK(col == NULL);
  }
  /* Empty rows only; an ended row of zero bytes is an empty string, not a null. */
  for (int t = 0; t < 3; t++) {
    CHECK_EQ_INT(nrt_col_builder_new(string_types[t], 0, &b, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_row_begin(b, &w, &err), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_row_end(b, &w, &err), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_row_end(b, &w, &err), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_OK);
    CHECK(col && col->length == 2 && col->null_count == 0 && nrt_col_str(col, 1).len == 0);
    nrt_col_release(col);
  }
  CHECK_NO_LEAK(before);
}

struct trial {
  enum nrt_col_type type;
  bool row_null;
};

static int failing_trial(void *ctx) {
  const struct trial *t = ctx;
  nrt_column *col = NULL;
  struct nrt_error err = {0};
  int rc = build_written(t->type, 550, 7, t->row_null, &col, &err);
  if (rc == NRT_OK && col->length != 550)
    rc = NRT_EINVAL;
  nrt_col_release(col);
  return rc;
}

int main(void) {
  test_matches_appends();
  test_errors();
  for (int t = 0; t < 6; t++) {
    struct trial tr = {string_types[t % 3], t >= 3};
    check_every_allocation_failure("row writer", failing_trial, &tr);
  }
  return check_finish("test_column_row_writer");
}

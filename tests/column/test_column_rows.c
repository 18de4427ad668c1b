/* Writing many rows without a call per row (nrt_col_builder_rows_begin / rows_end): utf8,
 * large_utf8 and utf8_view, batches of 1 to 300 rows written in pieces that make the data
 * buffer grow mid-batch, null rows listed (the first ones creating the bitmap), bytes past the
 * last row dropped, ordinary appends between batches; compared with the same rows appended the
 * ordinary way. Then the errors: wrong builders, ends or null lists, the string limit over a
 * batch's rows, and every allocation failure. */
#include "colgen.h"

static const enum nrt_col_type types[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                           NRT_COL_UTF8_VIEW};

/* Room for n bytes at w->pos, written from text in pieces of `piece` bytes. */
static int write_text(nrt_col_row_writer *w, const char *text, int64_t n, int64_t piece) {
  struct nrt_error err;
  for (int64_t k = 0; k < n; k += piece) {
    int64_t m = n - k < piece ? n - k : piece;
    char *p = nrt_col_row_room(w, (size_t)m, &err);
    if (!p)
      return err.code;
    memcpy(p, text + k, (size_t)m);
    w->pos = p + m;
  }
  return NRT_OK;
}

static void store_end(const nrt_col_rows *r, int64_t k, int64_t end) {
  if (r->wide) {
    ((int64_t *)r->ends)[k] = end;
  } else {
    int32_t e = (int32_t)end;
    memcpy((char *)r->ends + 4 * k, &e, 4);
  }
}

/* Rows [i, i + n) of the generated data (colgen.h) as one batch; a null row is half written
 * first, then dropped. With `spill`, half of row i + n is written too (dropped by rows_end). */
static int write_batch(nrt_col_builder *b, nrt_col_row_writer *w, unsigned seed, int64_t i,
                       int64_t n, int64_t piece, bool spill) {
  nrt_col_rows r;
  int32_t nulls[300];
  int64_t n_nulls = 0;
  int rc = nrt_col_builder_rows_begin(b, w, n + spill, &r, NULL);
  int64_t prev = r.base;
  char buf[128];
  for (int64_t k = 0; k < n + spill && !rc; k++) {
    int64_t len;
    const char *s = gen_row(seed, i + k, 1, buf, &len);
    if (k == n) { /* the spilled row */
      rc = write_text(w, "spilled", 7, piece);
      break;
    }
    if (!s) {
      rc = write_text(w, "dropped", 7, piece);
      w->pos = w->row + (prev - r.base); /* the row's start again */
      nulls[n_nulls++] = (int32_t)k;
    } else {
      rc = write_text(w, s, len, piece);
      prev = r.base + (w->pos - w->row);
    }
    store_end(&r, k, prev);
  }
  return rc ? rc : nrt_col_builder_rows_end(b, w, &r, n, nulls, n_nulls, NULL);
}

/* All `rows` generated rows in batches of up to `batch`; after every third batch, one row
 * ended the ordinary way and one null appended (the next batch begins after them). */
static int build_batched(enum nrt_col_type type, int64_t rows, int64_t batch, int64_t piece,
                         unsigned seed, nrt_column **out) {
  nrt_col_builder *b;
  *out = NULL;
  int rc = nrt_col_builder_new(type, 1, &b, NULL); /* tiny: the data grows mid-batch */
  if (rc)
    return rc;
  nrt_col_row_writer w;
  char buf[128];
  int64_t i = 0;
  for (int64_t t = 0; i < rows && !rc; t++) {
    int64_t n = rows - i < batch ? rows - i : batch;
    rc = write_batch(b, &w, seed, i, n, piece, t % 4 == 1 && i + n < rows);
    i += n;
    if (rc || t % 3 != 2 || i + 2 > rows)
      continue;
    int64_t len;
    const char *s = gen_row(seed, i, 1, buf, &len);
    if (s) { /* row i the ordinary way, or its null */
      rc = nrt_col_builder_row_begin(b, &w, NULL);
      if (!rc)
        rc = write_text(&w, s, len, piece);
      if (!rc)
        rc = nrt_col_builder_row_end(b, &w, NULL);
    } else {
      rc = nrt_col_builder_append_null(b);
    }
    i++;
  }
  int frc = nrt_col_builder_finish(b, out, NULL);
  return rc ? rc : frc;
}

static void test_matches_appends(void) {
  struct check_live before = check_live_now();
  const int64_t batches[4] = {1, 7, 64, 300}, pieces[3] = {1, 5, 100};
  for (int t = 0; t < 3; t++)
    for (int bi = 0; bi < 4; bi++)
      for (int p = 0; p < 3; p++) {
        unsigned seed = (unsigned)(t * 12 + bi * 3 + p);
        nrt_column *col = NULL;
        CHECK_EQ_INT(build_batched(types[t], 1000, batches[bi], pieces[p], seed, &col), NRT_OK);
        if (!col)
          continue;
        CHECK_EQ_INT(col->type, types[t]);
        check_generated(col, 0, 1000, seed, 1);
        nrt_col_release(col);
      }
  /* Rows with no null: no bitmap is made. */
  nrt_col_builder *b;
  nrt_col_row_writer w;
  nrt_col_rows r;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 4, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_rows_begin(b, &w, 2, &r, NULL), NRT_OK);
  CHECK_EQ_INT(write_text(&w, "ab", 2, 1), NRT_OK);
  store_end(&r, 0, r.base + 2);
  store_end(&r, 1, r.base + 2); /* an empty string */
  CHECK_EQ_INT(nrt_col_builder_rows_end(b, &w, &r, 2, NULL, 0, NULL), NRT_OK);
  nrt_column *col;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  CHECK(col && col->length == 2 && !col->validity.data && nrt_col_str(col, 1).len == 0);
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

static void test_errors(void) {
  struct check_live before = check_live_now();
  nrt_col_builder *b;
  nrt_col_row_writer w;
  nrt_col_rows r;
  nrt_column *col;
  struct nrt_error err = {0};
  /* Builders of other layouts, a negative count: sticky errors. */
  const enum nrt_col_type others[2] = {NRT_COL_BOOL, NRT_COL_INT64};
  for (int t = 0; t < 2; t++) {
    CHECK_EQ_INT(nrt_col_builder_new(others[t], 0, &b, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_rows_begin(b, &w, 1, &r, &err), NRT_EINVAL);
    CHECK(r.ends == NULL && w.row == NULL && nrt_col_row_room(&w, 1, NULL) == NULL);
    CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_EINVAL);
  }
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_rows_begin(b, &w, -1, &r, &err), NRT_EINVAL);
  nrt_col_builder_abort(b);

  /* Ends past the bytes written, and a null list out of order. */
  for (int bad = 0; bad < 3; bad++) {
    CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_LARGE_UTF8, 0, &b, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_rows_begin(b, &w, 2, &r, NULL), NRT_OK);
    CHECK_EQ_INT(write_text(&w, "abc", 3, 3), NRT_OK);
    store_end(&r, 0, r.base + 3);
    store_end(&r, 1, r.base + (bad == 0 ? 4 : 3)); /* the last end is checked */
    int32_t nulls[2] = {1, bad == 1 ? 0 : 1};
    CHECK_EQ_INT(nrt_col_builder_rows_end(b, &w, &r, 2, nulls, bad == 0 ? 0 : 2, &err),
                 NRT_EINVAL);
    CHECK(strstr(err.message, bad == 0 ? "do not match" : "out of order") != NULL);
    CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_EINVAL);
  }

  /* The string limit counts a batch's bytes together: a room request is refused once they
   * pass it (NRT_ELIMIT, the builder untouched), and the row fits alone after rows_end. */
  int64_t old = nrt_str_set_max_bytes(100);
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_rows_begin(b, &w, 3, &r, NULL), NRT_OK);
  char sixty[60];
  memset(sixty, 'x', sizeof sixty);
  CHECK_EQ_INT(write_text(&w, sixty, 60, 60), NRT_OK);
  store_end(&r, 0, r.base + 60);
  CHECK(nrt_col_row_room(&w, 60, &err) == NULL);
  CHECK_EQ_INT(err.code, NRT_ELIMIT);
  CHECK_EQ_INT(nrt_col_builder_rows_end(b, &w, &r, 1, NULL, 0, NULL), NRT_OK);
  CHECK_EQ_INT(write_text(&w, sixty, 60, 60), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_row_end(b, &w, NULL), NRT_OK);
  nrt_str_set_max_bytes(old);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  CHECK(col && col->length == 2 && nrt_col_str(col, 1).len == 60);
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

static int failing_trial(void *ctx) {
  enum nrt_col_type type = *(const enum nrt_col_type *)ctx;
  nrt_column *col = NULL;
  int rc = build_batched(type, 400, 64, 7, 5, &col);
  if (rc == NRT_OK && col->length != 400)
    rc = NRT_EINVAL;
  nrt_col_release(col);
  return rc;
}

int main(void) {
  test_matches_appends();
  test_errors();
  for (int t = 0; t < 3; t++) {
    enum nrt_col_type type = types[t];
    check_every_allocation_failure("rows", failing_trial, &type);
  }
  return check_finish("test_column_rows");
}

/* nrt_exec_apply_write: a row function writing its string result in place gives the same
 * column as the same function returning strings (nrt_exec_apply), in every layout, for 1 and
 * N threads and any chunking; null results and null inputs; errors (lowest failing row,
 * errors as nulls, a failed room request); bad options; failure injection. Its loop form
 * (write_rows) gives the same column, info and errors as the row function alone, for utf8
 * and large_utf8 inputs (others go row by row) and every string output, with rows it leaves
 * to the row function and the string limit passed by a batch's rows. */
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "support/check.h"

/* Row i: its number, then up to 40 characters of mixed text; every 13th row null (with
 * nulls). */
static nrt_column *make_input_of(enum nrt_col_type type, int64_t rows, bool nulls) {
  static const char *parts[] = {"a", "é", "漢字", "ß", "xyz", " ", "ü", "Q", "ﬃ"};
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK(nrt_col_builder_new(type, rows, &b, NULL) == NRT_OK);
  for (int64_t i = 0; i < rows; i++) {
    if (nulls && i % 13 == 6) {
      nrt_col_builder_append_null(b);
      continue;
    }
    char buf[256];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)i);
    for (int64_t k = 0; k < (i * 7) % 41; k++) {
      const char *p = parts[(i + k) % 9];
      size_t len = strlen(p);
      memcpy(buf + n, p, len);
      n += (int)len;
    }
    nrt_col_builder_append_view(b, buf, n);
  }
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  return col;
}

static nrt_column *make_input(int64_t rows) { return make_input_of(NRT_COL_UTF8, rows, true); }

/* What both forms compute: s.upper() + "!", None when the row number is a multiple of 10,
 * ValueError for the rows listed in ctx (a struct failing, may be NULL). */
struct failing {
  const int64_t *rows;
  size_t n;
};

static long long row_number(const nrt_str *s) {
  return atoll(s->data); /* the digits end at the first non-digit byte */
}

static int check_row(const void *ctx, const nrt_str *s, struct nrt_error *err) {
  const struct failing *f = ctx;
  long long row = row_number(s);
  for (size_t k = 0; f && k < f->n; k++)
    if (f->rows[k] == row)
      return nrt_error_set(err, NRT_EVALUE, "bad row %lld", row);
  return row % 10 == 0 ? NRT_EXEC_ROW_NULL : NRT_OK;
}

static int fn_value(void *ctx, const nrt_value *args, nrt_value *result,
                    struct nrt_error *err) {
  const nrt_str *s = &args[0].as.str;
  int rc = check_row(ctx, s, err);
  if (rc == NRT_EXEC_ROW_NULL)
    return NRT_OK; /* result stays NULL */
  if (rc)
    return rc;
  static const nrt_str bang = {NULL, "!", 1};
  nrt_str up;
  if ((rc = nrt_str_upper(s, &up, err)) != NRT_OK)
    return rc;
  rc = nrt_str_concat(&up, &bang, &result->as.str, err);
  nrt_str_release(&up);
  if (rc == NRT_OK)
    result->kind = NRT_VALUE_STR;
  return rc;
}

static int fn_write(void *ctx, const nrt_value *args, nrt_col_row_writer *out,
                    struct nrt_error *err) {
  const nrt_str *s = &args[0].as.str;
  int rc = check_row(ctx, s, err);
  if (rc)
    return rc;
  /* A case mapping produces at most 3 bytes per input byte. */
  char *p = nrt_col_row_room(out, 3 * (size_t)s->len + 1, err);
  if (!p)
    return err->code;
  p += nrt_str_upper_into(s->data, s->len, p);
  *p++ = '!';
  out->pos = p;
  return NRT_OK;
}

/* Asks for more room than any column can hold on row 100. */
static int fn_huge(void *ctx, const nrt_value *args, nrt_col_row_writer *out,
                   struct nrt_error *err) {
  (void)ctx;
  size_t n = row_number(&args[0].as.str) == 100 ? SIZE_MAX / 2 : 4;
  char *p = nrt_col_row_room(out, n, err);
  if (!p)
    return err->code;
  memcpy(p, "abcd", 4);
  out->pos = p + 4;
  return NRT_OK;
}

/* fn_write's loop form (nrt_rows_write_fn), as the UDF JIT makes it: a null result, or with
 * go_on a failure, is a null row; a row over the string limit with other rows before it, and
 * every row whose number is 1 more than a multiple of 97, are left to the row function. */
static int fn_rows(void *ctx, nrt_rows_batch *bt, nrt_col_row_writer *w,
                   struct nrt_error *err) {
  int64_t first = bt->row, prev = bt->out.base;
  for (int64_t i = first; i < bt->end; i++) {
    int64_t from, to;
    if (bt->wide_in) {
      from = ((const int64_t *)bt->offsets)[i];
      to = ((const int64_t *)bt->offsets)[i + 1];
    } else {
      from = ((const int32_t *)bt->offsets)[i];
      to = ((const int32_t *)bt->offsets)[i + 1];
    }
    nrt_value arg = {.kind = NRT_VALUE_STR};
    arg.as.str = nrt_str_view(bt->data + from, to - from);
    int rc = row_number(&arg.as.str) % 97 == 1 && i > first ? NRT_ELIMIT
                                                            : fn_write(ctx, &arg, w, err);
    if (rc == NRT_ELIMIT && i > first) {
      bt->row = i;
      return NRT_OK;
    }
    if (rc == NRT_EXEC_ROW_NULL || (rc != NRT_OK && bt->go_on && rc != NRT_ENOMEM &&
                                    rc != NRT_ERANGE)) {
      w->pos = w->row + (prev - bt->out.base);
      bt->nulls[bt->n_nulls++] = (int32_t)(i - first);
      bt->failed += rc != NRT_EXEC_ROW_NULL;
    } else if (rc != NRT_OK) {
      bt->row = i;
      return rc;
    } else {
      prev = bt->out.base + (w->pos - w->row);
    }
    if (bt->out.wide) {
      ((int64_t *)bt->out.ends)[i - first] = prev;
    } else {
      int32_t e = (int32_t)prev;
      memcpy((char *)bt->out.ends + 4 * (i - first), &e, 4);
    }
  }
  bt->row = bt->end;
  return NRT_OK;
}

static bool same_column(const nrt_column *a, const nrt_column *b) {
  if (!a || !b || a->length != b->length || a->null_count != b->null_count)
    return false;
  for (int64_t i = 0; i < a->length; i++) {
    if (nrt_col_is_valid(a, i) != nrt_col_is_valid(b, i))
      return false;
    if (!nrt_col_is_valid(a, i))
      continue;
    nrt_str x = nrt_col_str(a, i), y = nrt_col_str(b, i);
    if (x.len != y.len || memcmp(x.data, y.data, (size_t)x.len) != 0)
      return false;
  }
  return true;
}

static void test_same_as_value_form(nrt_column *in) {
  enum nrt_col_type layouts[] = {NRT_COL_UTF8_VIEW, NRT_COL_UTF8, NRT_COL_LARGE_UTF8};
  struct check_live before = check_live_now();
  for (size_t l = 0; l < 3; l++) {
    struct nrt_exec_options o = {.string_type = layouts[l], .threads = 1};
    nrt_column *want = NULL;
    CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_value, NULL, &o, &want, NULL, NULL), NRT_OK);
    const int threads[] = {1, 2, 3};
    const int64_t chunks[] = {0, 1000, 77};
    for (int t = 0; t < 3; t++) {
      for (int k = 0; k < 3; k++) {
        o.threads = threads[t];
        o.chunk_rows = chunks[k];
        nrt_column *got = NULL;
        struct nrt_exec_info info;
        CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, fn_write, NULL, &o, &got, &info, NULL),
                     NRT_OK);
        CHECK(got && got->type == layouts[l]);
        CHECK(same_column(want, got));
        CHECK_EQ_INT(info.calls, in->length - in->null_count);
        CHECK_EQ_INT(info.error_row, -1);
        CHECK(got && nrt_col_validate(got, NULL) == NRT_OK);
        nrt_col_release(got);
      }
    }
    nrt_col_release(want);
  }
  CHECK_NO_LEAK(before);
}

static void test_errors(nrt_column *in) {
  struct check_live before = check_live_now();
  static const int64_t bad[] = {1901, 501, 1299}; /* not null inputs (i % 13 != 6) */
  struct failing f = {bad, 3};
  for (int threads = 1; threads <= 3; threads += 2) {
    struct nrt_exec_options o = {.threads = threads, .chunk_rows = 500};
    nrt_column *out = (nrt_column *)1;
    struct nrt_error err = {0};
    struct nrt_exec_info info;
    CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, fn_write, &f, &o, &out, &info, &err), NRT_EVALUE);
    CHECK(out == NULL);
    CHECK_EQ_INT(info.error_row, 501);
    CHECK_EQ_STR(err.message, "row 502: ValueError: bad row 501");
    /* errors as nulls: the same column as the value form's */
    o.errors_as_null = true;
    nrt_column *want = NULL;
    CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_value, &f, &o, &want, NULL, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, fn_write, &f, &o, &out, &info, &err), NRT_OK);
    CHECK_EQ_INT(info.failed_rows, 3);
    CHECK_EQ_INT(info.error_row, 501);
    CHECK(same_column(want, out));
    nrt_col_release(want);
    nrt_col_release(out);
    /* A room request no column can satisfy stops the apply, also with errors as nulls. */
    out = (nrt_column *)1;
    CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, fn_huge, NULL, &o, &out, &info, &err),
                 NRT_ERANGE);
    CHECK(out == NULL);
    CHECK_EQ_INT(info.error_row, 100);
    CHECK(strstr(err.message, "row 101") != NULL);
  }
  /* Bad options: a writing function makes strings. */
  struct nrt_exec_options o = {.result_kind = NRT_VALUE_INT64};
  nrt_column *out = (nrt_column *)1;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, fn_write, NULL, &o, &out, NULL, &err), NRT_EINVAL);
  CHECK(out == NULL && strstr(err.message, "int") != NULL);
  CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, NULL, NULL, NULL, &out, NULL, &err), NRT_EINVAL);
  CHECK_NO_LEAK(before);
}

/* An apply with and without the loop form: the same outcome (the same calls, where they do
 * not depend on the threads' timing). */
static void compare_rows_form(nrt_column *in, struct failing *f, struct nrt_exec_options o) {
  nrt_column *want = NULL, *got = NULL;
  struct nrt_exec_info wi, gi;
  struct nrt_error we = {0}, ge = {0};
  o.write_rows = NULL;
  int wrc = nrt_exec_apply_write(&in, 1, fn_write, f, &o, &want, &wi, &we);
  o.write_rows = fn_rows;
  int grc = nrt_exec_apply_write(&in, 1, fn_write, f, &o, &got, &gi, &ge);
  CHECK_EQ_INT(grc, wrc);
  CHECK_EQ_STR(ge.message, we.message);
  CHECK(wrc != NRT_OK || same_column(want, got));
  CHECK(wrc != NRT_OK || (got->type == want->type && nrt_col_validate(got, NULL) == NRT_OK));
  if (wrc == NRT_OK || o.threads == 1) /* else other chunks run on for a while */
    CHECK_EQ_INT(gi.calls, wi.calls);
  CHECK_EQ_INT(gi.failed_rows, wi.failed_rows);
  CHECK_EQ_INT(gi.error_row, wi.error_row);
  CHECK_EQ_INT(gi.error_code, wi.error_code);
  nrt_col_release(want);
  nrt_col_release(got);
}

static void test_rows_form(void) {
  struct check_live before = check_live_now();
  int64_t rows = check_scale(6000);
  nrt_column *ins[3] = {make_input_of(NRT_COL_UTF8, rows, false),
                        make_input_of(NRT_COL_LARGE_UTF8, rows, false),
                        make_input_of(NRT_COL_UTF8, rows, true)}; /* nulls: row by row */
  static const int64_t bad[] = {3901, 501, 1299, 1300, 1302};
  struct failing some = {bad, 5}, none = {NULL, 0};
  const enum nrt_col_type layouts[] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8, NRT_COL_UTF8_VIEW};
  for (int n = 0; n < 3; n++)
    for (size_t l = 0; l < 3; l++)
      for (int t = 1; t <= 2; t++)
        for (int e = 0; e < 3; e++) {
          struct nrt_exec_options o = {.string_type = layouts[l], .threads = t,
                                       .chunk_rows = e == 2 ? 77 : 0, .errors_as_null = e > 0,
                                       .discard_messages = e == 2};
          compare_rows_form(ins[n], e == 0 && t == 1 ? &none : &some, o);
          compare_rows_form(ins[n], &some, o);
        }
  /* The string limit over a batch's rows: each such row runs again alone. */
  int64_t old = nrt_str_set_max_bytes(150);
  for (int n = 0; n < 2; n++) {
    struct nrt_exec_options o = {.string_type = n ? NRT_COL_UTF8_VIEW : NRT_COL_UTF8,
                                 .threads = 1, .errors_as_null = 1};
    compare_rows_form(ins[n], &some, o);
  }
  nrt_str_set_max_bytes(old);
  for (int n = 0; n < 3; n++)
    nrt_col_release(ins[n]);
  CHECK_NO_LEAK(before);
}

struct trial {
  nrt_column *in;
  int threads;
  enum nrt_col_type layout;
  bool rows; /* with the loop form */
};

static int write_trial(void *arg) {
  struct trial *t = arg;
  struct nrt_exec_options o = {.threads = t->threads, .chunk_rows = 16, .string_type = t->layout,
                               .write_rows = t->rows ? fn_rows : NULL};
  nrt_column *out = NULL;
  int rc = nrt_exec_apply_write(&t->in, 1, fn_write, NULL, &o, &out, NULL, NULL);
  nrt_col_release(out);
  return rc;
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  nrt_column *in = make_input(check_scale(20000));
  test_same_as_value_form(in);
  test_errors(in);
  nrt_col_release(in);
  test_rows_form();
  in = make_input(60);
  struct trial t = {in, 1, NRT_COL_UTF8_VIEW, false};
  CHECK(check_every_allocation_failure("apply_write view 1 thread", write_trial, &t) > 0);
  t.layout = NRT_COL_UTF8;
  CHECK(check_every_allocation_failure("apply_write utf8 1 thread", write_trial, &t) > 0);
  t.threads = 3;
  CHECK(check_every_allocation_failure("apply_write utf8 3 threads", write_trial, &t) > 0);
  nrt_col_release(in);
  t.in = in = make_input_of(NRT_COL_UTF8, 60, false);
  t.rows = true;
  t.layout = NRT_COL_UTF8_VIEW;
  CHECK(check_every_allocation_failure("apply_write rows view", write_trial, &t) > 0);
  t.layout = NRT_COL_UTF8;
  CHECK(check_every_allocation_failure("apply_write rows 3 threads", write_trial, &t) > 0);
  t.threads = 1;
  CHECK(check_every_allocation_failure("apply_write rows 1 thread", write_trial, &t) > 0);
  nrt_col_release(in);
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_exec_apply_write");
}

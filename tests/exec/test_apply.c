/* nrt_exec_apply: results of every kind, nulls, errors (lowest failing row, errors as
 * nulls, wrong result kind), output layouts, several input columns, slices, 1 vs N threads
 * giving identical columns, balanced statistics after every apply, and failure injection. */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "support/check.h"

/* Row i of the test input: varied lengths, non-ASCII text, every 7th row null. */
static int row_text(int64_t i, char *buf, size_t cap) {
  static const char *parts[] = {"a", "é", "漢字", "ß", "xyz", " ", "ü", "Q"};
  size_t n = 0;
  for (int64_t k = 0; k < i % 9; k++) {
    const char *p = parts[(i + k) % 8];
    size_t len = strlen(p);
    if (n + len >= cap)
      break;
    memcpy(buf + n, p, len);
    n += len;
  }
  buf[n] = '\0';
  return (int)n;
}

static nrt_column *make_input(int64_t rows, int with_nulls) {
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK(nrt_col_builder_new(NRT_COL_UTF8, rows, &b, NULL) == NRT_OK);
  for (int64_t i = 0; i < rows; i++) {
    char buf[64];
    if (with_nulls && i % 7 == 3) {
      nrt_col_builder_append_null(b);
      continue;
    }
    int n = row_text(i, buf, sizeof buf);
    nrt_col_builder_append_view(b, buf, n);
  }
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  return col;
}

/* s + s (a managed string unless s is empty). */
static int fn_double(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  result->kind = NRT_VALUE_STR;
  return nrt_str_concat(&args[0].as.str, &args[0].as.str, &result->as.str, err);
}

static int fn_len(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  (void)err;
  result->kind = NRT_VALUE_INT64;
  result->as.i64 = nrt_str_len(args[0].as.str.data, args[0].as.str.len);
  return NRT_OK;
}

static int fn_half(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  (void)err;
  result->kind = NRT_VALUE_FLOAT64;
  result->as.f64 = (double)args[0].as.str.len / 2;
  return NRT_OK;
}

static int fn_is_long(void *ctx, const nrt_value *args, nrt_value *result,
                      struct nrt_error *err) {
  (void)ctx;
  (void)err;
  result->kind = NRT_VALUE_BOOL;
  result->as.b = args[0].as.str.len > 4;
  return NRT_OK;
}

/* None for short strings, else a managed copy. */
static int fn_null_if_short(void *ctx, const nrt_value *args, nrt_value *result,
                            struct nrt_error *err) {
  (void)ctx;
  if (args[0].as.str.len < 3)
    return NRT_OK; /* result stays kind NULL */
  result->kind = NRT_VALUE_STR;
  return nrt_str_new(args[0].as.str.data, args[0].as.str.len, &result->as.str, err);
}

/* The argument itself (a borrowed view): apply must copy it. */
static int fn_identity(void *ctx, const nrt_value *args, nrt_value *result,
                       struct nrt_error *err) {
  (void)ctx;
  (void)err;
  *result = args[0];
  return NRT_OK;
}

/* Sees nulls: "<null>" for a null argument. */
static int fn_show_null(void *ctx, const nrt_value *args, nrt_value *result,
                        struct nrt_error *err) {
  (void)ctx;
  result->kind = NRT_VALUE_STR;
  if (args[0].kind == NRT_VALUE_NULL)
    return nrt_str_new("<null>", 6, &result->as.str, err);
  return nrt_str_concat(&args[0].as.str, &args[0].as.str, &result->as.str, err);
}

/* Fails (ValueError) on the rows listed in ctx, after making and releasing a string. The
 * input of the error tests holds each row's number as its text. */
struct failing {
  const int64_t *rows;
  size_t n;
};

static int fn_fail_some(void *ctx, const nrt_value *args, nrt_value *result,
                        struct nrt_error *err) {
  const struct failing *f = ctx;
  nrt_str tmp;
  int rc = nrt_str_concat(&args[0].as.str, &args[0].as.str, &tmp, err);
  if (rc)
    return rc;
  char buf[32];
  size_t n = (size_t)args[0].as.str.len < sizeof buf - 1 ? (size_t)args[0].as.str.len : sizeof buf - 1;
  memcpy(buf, args[0].as.str.data, n);
  buf[n] = '\0';
  long long row = atoll(buf);
  for (size_t k = 0; k < f->n; k++)
    if (f->rows[k] == row) {
      nrt_str_release(&tmp);
      return nrt_error_set(err, NRT_EVALUE, "bad row %lld", row);
    }
  result->kind = NRT_VALUE_STR;
  result->as.str = tmp;
  return NRT_OK;
}

/* Row i holds the text of i; every 7th row is null. */
static nrt_column *make_numbered(int64_t rows) {
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK(nrt_col_builder_new(NRT_COL_UTF8, rows, &b, NULL) == NRT_OK);
  for (int64_t i = 0; i < rows; i++) {
    char buf[32];
    int n = snprintf(buf, sizeof buf, "%lld", (long long)i);
    if (i % 7 == 3)
      nrt_col_builder_append_null(b);
    else
      nrt_col_builder_append_view(b, buf, n);
  }
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  return col;
}

/* Returns an int where a str is declared. */
static int fn_wrong_kind(void *ctx, const nrt_value *args, nrt_value *result,
                         struct nrt_error *err) {
  (void)ctx;
  (void)err;
  if (args[0].as.str.len == 5) {
    result->kind = NRT_VALUE_INT64;
    result->as.i64 = 5;
    return NRT_OK;
  }
  result->kind = NRT_VALUE_STR;
  return nrt_str_new("ok", 2, &result->as.str, err);
}

/* Several inputs: "<str>|<int>|<float>|<bool>". */
static int fn_multi(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  char buf[128];
  int n = snprintf(buf, sizeof buf, "%.*s|%lld|%.1f|%d", (int)args[0].as.str.len,
                   args[0].as.str.data, (long long)args[1].as.i64, args[2].as.f64,
                   (int)args[3].as.b);
  result->kind = NRT_VALUE_STR;
  return nrt_str_new(buf, n, &result->as.str, err);
}

/* Sum of 20 int arguments (more inputs than apply keeps on its stack). */
static int fn_sum20(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  (void)err;
  result->kind = NRT_VALUE_INT64;
  result->as.i64 = 0;
  for (int k = 0; k < 20; k++)
    result->as.i64 += args[k].as.i64;
  return NRT_OK;
}

static nrt_column *apply(nrt_column *in, nrt_row_fn fn, void *ctx,
                         const struct nrt_exec_options *o, int expect_rc,
                         struct nrt_exec_info *info, struct nrt_error *err) {
  nrt_column *out = (nrt_column *)1;
  int rc = nrt_exec_apply(&in, 1, fn, ctx, o, &out, info, err);
  CHECK_EQ_INT(rc, expect_rc);
  if (rc)
    CHECK(out == NULL);
  return out;
}

/* String results in every layout, compared row by row with a direct computation. */
static void test_string_results(nrt_column *in) {
  enum nrt_col_type layouts[] = {NRT_COL_UTF8_VIEW, NRT_COL_UTF8, NRT_COL_LARGE_UTF8};
  for (size_t l = 0; l < 3; l++) {
    struct check_live before = check_live_now();
    struct nrt_exec_options o = {.string_type = layouts[l], .chunk_rows = 1000, .threads = 3};
    struct nrt_exec_info info;
    nrt_column *out = apply(in, fn_double, NULL, &o, NRT_OK, &info, NULL);
    CHECK(out && out->type == layouts[l]);
    CHECK_EQ_INT(out->length, in->length);
    CHECK_EQ_INT(info.rows, in->length);
    CHECK_EQ_INT(info.calls, in->length - in->null_count);
    CHECK_EQ_INT(info.error_row, -1);
    CHECK_EQ_INT(out->null_count, in->null_count);
    int bad = 0;
    for (int64_t i = 0; i < in->length; i++) {
      if (!nrt_col_is_valid(in, i)) {
        bad += nrt_col_is_valid(out, i);
        continue;
      }
      nrt_str s = nrt_col_str(in, i), r = nrt_col_str(out, i);
      bad += r.len != 2 * s.len || memcmp(r.data, s.data, (size_t)s.len) != 0 ||
             memcmp(r.data + s.len, s.data, (size_t)s.len) != 0;
    }
    CHECK_EQ_INT(bad, 0);
    CHECK(nrt_col_validate(out, NULL) == NRT_OK);
    nrt_col_release(out);
    CHECK_NO_LEAK(before);
  }
}

static void test_numeric_results(nrt_column *in) {
  struct check_live before = check_live_now();
  struct nrt_exec_options o = {.result_kind = NRT_VALUE_INT64, .chunk_rows = 777};
  nrt_column *lens = apply(in, fn_len, NULL, &o, NRT_OK, NULL, NULL);
  o.result_kind = NRT_VALUE_FLOAT64;
  nrt_column *halves = apply(in, fn_half, NULL, &o, NRT_OK, NULL, NULL);
  o.result_kind = NRT_VALUE_BOOL;
  nrt_column *longs = apply(in, fn_is_long, NULL, &o, NRT_OK, NULL, NULL);
  CHECK(lens && lens->type == NRT_COL_INT64);
  CHECK(halves && halves->type == NRT_COL_FLOAT64);
  CHECK(longs && longs->type == NRT_COL_BOOL);
  int bad = 0;
  for (int64_t i = 0; lens && halves && longs && i < in->length; i++) {
    if (!nrt_col_is_valid(in, i)) {
      bad += nrt_col_is_valid(lens, i) + nrt_col_is_valid(halves, i) + nrt_col_is_valid(longs, i);
      continue;
    }
    nrt_str s = nrt_col_str(in, i);
    bad += nrt_col_int64(lens, i) != nrt_str_len(s.data, s.len);
    bad += nrt_col_float64(halves, i) != (double)s.len / 2;
    bad += nrt_col_bool(longs, i) != (s.len > 4);
  }
  CHECK_EQ_INT(bad, 0);
  nrt_col_release(lens);
  nrt_col_release(halves);
  nrt_col_release(longs);
  CHECK_NO_LEAK(before);
}

static void test_null_results(nrt_column *in) {
  struct check_live before = check_live_now();
  struct nrt_exec_options o = {.chunk_rows = 500};
  nrt_column *out = apply(in, fn_null_if_short, NULL, &o, NRT_OK, NULL, NULL);
  int bad = 0;
  for (int64_t i = 0; out && i < in->length; i++) {
    int want_valid = nrt_col_is_valid(in, i) && nrt_col_str(in, i).len >= 3;
    bad += nrt_col_is_valid(out, i) != want_valid;
    if (want_valid) {
      nrt_str s = nrt_col_str(in, i), r = nrt_col_str(out, i);
      bad += !nrt_str_eq(s.data, s.len, r.data, r.len);
    }
  }
  CHECK_EQ_INT(bad, 0);
  nrt_col_release(out);

  /* Borrowed views as results are copied. */
  out = apply(in, fn_identity, NULL, &o, NRT_OK, NULL, NULL);
  CHECK(out && nrt_col_equal(out, in));
  nrt_col_release(out);

  /* call_on_null: the function sees the nulls. */
  o.call_on_null = true;
  struct nrt_exec_info info;
  out = apply(in, fn_show_null, NULL, &o, NRT_OK, &info, NULL);
  CHECK_EQ_INT(info.calls, in->length);
  CHECK(out && out->null_count == 0);
  for (int64_t i = 0; out && i < in->length; i++)
    if (!nrt_col_is_valid(in, i)) {
      nrt_str r = nrt_col_str(out, i);
      bad += !nrt_str_eq(r.data, r.len, "<null>", 6);
    }
  CHECK_EQ_INT(bad, 0);
  nrt_col_release(out);
  CHECK_NO_LEAK(before);
}

/* Errors: the lowest failing row wins whatever the scheduling; nothing leaks. */
static void test_errors(nrt_column *strings) {
  nrt_column *in = make_numbered(strings->length);
  int64_t rows = in->length;
  int64_t fail_rows[] = {rows * 7 / 10 + 5, rows * 3 / 10 + 1, rows * 9 / 10};
  for (int k = 0; k < 3; k++)
    while (!nrt_col_is_valid(in, fail_rows[k]))
      fail_rows[k]++;
  struct failing f = {fail_rows, 3};
  char expect[128];
  snprintf(expect, sizeof expect, "row %lld: ValueError: bad row %lld",
           (long long)fail_rows[1] + 1, (long long)fail_rows[1]);
  for (int round = 0; round < 10; round++) {
    struct check_live before = check_live_now();
    struct nrt_exec_options o = {.chunk_rows = 97 + round * 50, .threads = 1 + round % 4};
    struct nrt_error err = {0};
    struct nrt_exec_info info;
    apply(in, fn_fail_some, &f, &o, NRT_EVALUE, &info, &err);
    CHECK_EQ_STR(err.message, expect);
    CHECK_EQ_INT(info.error_row, fail_rows[1]);
    CHECK_EQ_INT(info.error_code, NRT_EVALUE);
    CHECK_NO_LEAK(before);
  }

  /* --errors null: failing rows become nulls, the rest is computed. */
  struct check_live before = check_live_now();
  struct nrt_exec_options o = {.chunk_rows = 256, .errors_as_null = true};
  struct nrt_exec_info info;
  nrt_column *out = apply(in, fn_fail_some, &f, &o, NRT_OK, &info, NULL);
  CHECK_EQ_INT(info.failed_rows, 3);
  CHECK_EQ_INT(info.error_row, fail_rows[1]);
  CHECK(out && out->null_count == in->null_count + 3);
  for (int k = 0; out && k < 3; k++)
    CHECK(!nrt_col_is_valid(out, fail_rows[k]));
  nrt_col_release(out);
  CHECK_NO_LEAK(before);
  nrt_col_release(in);
  in = strings;

  /* A result of the wrong kind is a TypeError of its row. */
  before = check_live_now();
  struct nrt_error err = {0};
  int64_t first5 = -1;
  for (int64_t i = 0; i < in->length && first5 < 0; i++)
    if (nrt_col_is_valid(in, i) && nrt_col_str(in, i).len == 5)
      first5 = i;
  o = (struct nrt_exec_options){.chunk_rows = 100, .threads = 2};
  apply(in, fn_wrong_kind, NULL, &o, NRT_ETYPE, &info, &err);
  char want[160];
  snprintf(want, sizeof want, "row %lld: TypeError: the row function returned int, expected str",
           (long long)first5 + 1);
  CHECK_EQ_STR(err.message, want);
  CHECK_NO_LEAK(before);
}

/* Progress reports: thread-safe callback, counts reach the row count exactly. */
struct progress {
  _Atomic int64_t calls;
  _Atomic int64_t max_done;
  _Atomic int64_t bad;
};

static void on_progress(void *arg, int64_t done, int64_t rows) {
  struct progress *p = arg;
  atomic_fetch_add(&p->calls, 1);
  if (done <= 0 || done > rows)
    atomic_fetch_add(&p->bad, 1);
  int64_t cur = atomic_load(&p->max_done);
  while (done > cur && !atomic_compare_exchange_weak(&p->max_done, &cur, done)) {
  }
}

static void test_progress(nrt_column *in) {
  static struct progress p; /* static: the atomics need no initialiser beyond zero */
  struct nrt_exec_options o = {.threads = 3, .chunk_rows = 1000, .on_progress = on_progress,
                               .progress_arg = &p};
  nrt_column *out = apply(in, fn_double, NULL, &o, NRT_OK, NULL, NULL);
  CHECK_EQ_INT(atomic_load(&p.calls), (in->length + 999) / 1000);
  CHECK_EQ_INT(atomic_load(&p.max_done), in->length);
  CHECK_EQ_INT(atomic_load(&p.bad), 0);
  nrt_col_release(out);
}

static void test_threads_identical(nrt_column *in) {
  struct check_live before = check_live_now();
  struct nrt_exec_options one = {.threads = 1}, many = {.threads = 4, .chunk_rows = 333};
  nrt_column *a = apply(in, fn_double, NULL, &one, NRT_OK, NULL, NULL);
  nrt_column *b = apply(in, fn_double, NULL, &many, NRT_OK, NULL, NULL);
  CHECK(a && b && nrt_col_equal(a, b));
  nrt_col_release(a);
  nrt_col_release(b);
  one.result_kind = many.result_kind = NRT_VALUE_INT64;
  a = apply(in, fn_len, NULL, &one, NRT_OK, NULL, NULL);
  b = apply(in, fn_len, NULL, &many, NRT_OK, NULL, NULL);
  CHECK(a && b && nrt_col_equal(a, b));
  nrt_col_release(a);
  nrt_col_release(b);
  CHECK_NO_LEAK(before);
}

static void test_multi_inputs_and_slices(void) {
  struct check_live before = check_live_now();
  int64_t rows = 300;
  nrt_col_builder *bs[4];
  CHECK(nrt_col_builder_new(NRT_COL_UTF8_VIEW, rows, &bs[0], NULL) == NRT_OK);
  CHECK(nrt_col_builder_new(NRT_COL_INT64, rows, &bs[1], NULL) == NRT_OK);
  CHECK(nrt_col_builder_new(NRT_COL_FLOAT64, rows, &bs[2], NULL) == NRT_OK);
  CHECK(nrt_col_builder_new(NRT_COL_BOOL, rows, &bs[3], NULL) == NRT_OK);
  for (int64_t i = 0; i < rows; i++) {
    char buf[64];
    int n = row_text(i, buf, sizeof buf);
    nrt_col_builder_append_view(bs[0], buf, n);
    if (i % 11 == 5)
      nrt_col_builder_append_null(bs[1]);
    else
      nrt_col_builder_append_int64(bs[1], i * 3 - 100);
    nrt_col_builder_append_float64(bs[2], (double)i + 0.5);
    nrt_col_builder_append_bool(bs[3], i % 3 == 0);
  }
  nrt_column *cols[4], *slices[4];
  for (int k = 0; k < 4; k++) {
    CHECK(nrt_col_builder_finish(bs[k], &cols[k], NULL) == NRT_OK);
    CHECK(nrt_col_slice(cols[k], 17, rows - 40, &slices[k], NULL) == NRT_OK);
  }
  nrt_column *out = NULL;
  struct nrt_exec_options o = {.chunk_rows = 50, .threads = 2};
  CHECK(nrt_exec_apply(slices, 4, fn_multi, NULL, &o, &out, NULL, NULL) == NRT_OK);
  int bad = 0;
  for (int64_t i = 0; out && i < rows - 40; i++) {
    int64_t r = i + 17;
    if (r % 11 == 5) {
      bad += nrt_col_is_valid(out, i);
      continue;
    }
    char buf[64], want[160];
    int n = row_text(r, buf, sizeof buf);
    int wn = snprintf(want, sizeof want, "%.*s|%lld|%.1f|%d", n, buf, (long long)(r * 3 - 100),
                      (double)r + 0.5, r % 3 == 0);
    nrt_str got = nrt_col_str(out, i);
    bad += !nrt_str_eq(got.data, got.len, want, wn);
  }
  CHECK_EQ_INT(bad, 0);
  nrt_col_release(out);

  /* Many inputs: the argument array is allocated. */
  nrt_column *twenty[20];
  for (int k = 0; k < 20; k++)
    twenty[k] = cols[1];
  o = (struct nrt_exec_options){.chunk_rows = 64, .threads = 2, .result_kind = NRT_VALUE_INT64};
  CHECK(nrt_exec_apply(twenty, 20, fn_sum20, NULL, &o, &out, NULL, NULL) == NRT_OK);
  for (int64_t i = 0; out && i < rows; i++)
    bad += i % 11 == 5 ? nrt_col_is_valid(out, i) : nrt_col_int64(out, i) != 20 * (i * 3 - 100);
  CHECK_EQ_INT(bad, 0);
  nrt_col_release(out);

  /* Bad arguments. */
  struct nrt_error err = {0};
  nrt_column *unequal[2] = {cols[0], slices[1]};
  CHECK(nrt_exec_apply(unequal, 2, fn_multi, NULL, NULL, &out, NULL, &err) == NRT_EINVAL);
  CHECK(out == NULL);
  CHECK(nrt_exec_apply(cols, 0, fn_multi, NULL, NULL, &out, NULL, &err) == NRT_EINVAL);
  CHECK(nrt_exec_apply(cols, 1, NULL, NULL, NULL, &out, NULL, &err) == NRT_EINVAL);
  o = (struct nrt_exec_options){.string_type = NRT_COL_INT64};
  CHECK(nrt_exec_apply(cols, 1, fn_identity, NULL, &o, &out, NULL, &err) == NRT_EINVAL);

  /* Zero rows. */
  nrt_column *empty = NULL;
  CHECK(nrt_col_slice(cols[0], 0, 0, &empty, NULL) == NRT_OK);
  CHECK(nrt_exec_apply(&empty, 1, fn_double, NULL, NULL, &out, NULL, NULL) == NRT_OK);
  CHECK(out && out->length == 0);
  nrt_col_release(out);
  nrt_col_release(empty);
  for (int k = 0; k < 4; k++) {
    nrt_col_release(slices[k]);
    nrt_col_release(cols[k]);
  }
  CHECK_NO_LEAK(before);
}

/* Failure injection: every allocation of an apply (builders, chunk table, results) may fail. */
struct trial {
  nrt_column *in;
  int threads;
  nrt_row_fn fn;
  nrt_value_kind kind;
  enum nrt_col_type layout;
};

static int apply_trial(void *arg) {
  struct trial *t = arg;
  struct nrt_exec_options o = {.threads = t->threads, .chunk_rows = 16, .result_kind = t->kind,
                               .string_type = t->layout};
  nrt_column *out = NULL;
  int rc = nrt_exec_apply(&t->in, 1, t->fn, NULL, &o, &out, NULL, NULL);
  nrt_col_release(out);
  return rc;
}

/* Rows failing (as nulls) and allocations failing: an allocation failure still stops. */
static int errors_as_null_trial(void *arg) {
  nrt_column *in = arg;
  static const int64_t fail_rows[] = {5, 18, 40}; /* not null rows (i % 7 == 3) */
  struct failing f = {fail_rows, 3};
  struct nrt_exec_options o = {.threads = 2, .chunk_rows = 8, .errors_as_null = true};
  nrt_column *out = NULL;
  struct nrt_exec_info info;
  int rc = nrt_exec_apply(&in, 1, fn_fail_some, &f, &o, &out, &info, NULL);
  if (rc == NRT_OK && (info.failed_rows != 3 || out->null_count != in->null_count + 3))
    rc = NRT_EINVAL; /* wrong result: reported as a failure of the driver's check */
  nrt_col_release(out);
  return rc;
}

static void test_failure_injection(void) {
  nrt_column *in = make_input(60, 1);
  struct trial t = {in, 1, fn_double, NRT_VALUE_STR, NRT_COL_UTF8_VIEW};
  CHECK(check_every_allocation_failure("apply str 1 thread", apply_trial, &t) > 0);
  t.layout = NRT_COL_UTF8;
  CHECK(check_every_allocation_failure("apply utf8 1 thread", apply_trial, &t) > 0);
  t.threads = 3;
  t.layout = NRT_COL_UTF8_VIEW;
  CHECK(check_every_allocation_failure("apply str 3 threads", apply_trial, &t) > 0);
  t.fn = fn_len;
  t.kind = NRT_VALUE_INT64;
  CHECK(check_every_allocation_failure("apply int 3 threads", apply_trial, &t) > 0);
  t.fn = fn_null_if_short;
  t.kind = NRT_VALUE_STR;
  CHECK(check_every_allocation_failure("apply nulls 3 threads", apply_trial, &t) > 0);
  nrt_col_release(in);
  in = make_numbered(50);
  CHECK(check_every_allocation_failure("apply errors as null", errors_as_null_trial, in) > 0);
  nrt_col_release(in);
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  nrt_column *in = make_input(check_scale(100000), 1);
  test_string_results(in);
  test_numeric_results(in);
  test_null_results(in);
  test_errors(in);
  test_threads_identical(in);
  test_progress(in);
  nrt_col_release(in);
  test_multi_inputs_and_slices();
  test_failure_injection();
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_exec_apply");
}

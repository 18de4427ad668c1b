/* nrt_exec_apply with list results (NRT_VALUE_LIST -> a list<string> column): every item
 * layout, None results and null inputs, errors (lowest failing row, errors as nulls, wrong
 * result kinds), 1 vs 2 vs 3 threads giving identical columns, balanced statistics after
 * every apply, and failure injection. */
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "support/check.h"

static const enum nrt_col_type layouts[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                             NRT_COL_UTF8_VIEW};

/* Row i of the input: words of several scripts (some past 12 bytes), every 11th row null. */
static nrt_column *make_input(int64_t rows) {
  static const char *const words[] = {"alpha", "βήτα", "漢字", "straße", "", "x",
                                      "a-long-word-of-many-bytes", "ǅemal", "😀"};
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, rows, &b, NULL), NRT_OK);
  for (int64_t i = 0; i < rows; i++) {
    if (i % 11 == 5) {
      nrt_col_builder_append_null(b);
      continue;
    }
    char buf[256];
    size_t n = 0;
    for (int64_t k = 0; k < i % 6; k++) {
      const char *w = words[(i * 7 + k) % 9];
      memcpy(buf + n, w, strlen(w));
      n += strlen(w);
      buf[n++] = ' ';
    }
    nrt_col_builder_append_view(b, buf, (int64_t)n);
  }
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  return col;
}

static bool is_strasse(const nrt_str *w) {
  return w->len == 7 && memcmp(w->data, "straße", 7) == 0;
}

/* s.split(): items are views of the borrowed argument. */
static int fn_split(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  result->kind = NRT_VALUE_LIST;
  return nrt_str_split(&args[0].as.str, NULL, -1, &result->as.list, err);
}

/* [w.upper() for w in s.split()], but None when s has no word, and ValueError when a word is
 * "straße": items are managed strings the list owns. */
static int fn_upper_words(void *ctx, const nrt_value *args, nrt_value *result,
                          struct nrt_error *err) {
  (void)ctx;
  nrt_str_list *words = NULL, *out = NULL;
  int rc = nrt_str_split(&args[0].as.str, NULL, -1, &words, err);
  if (rc == NRT_OK && words->len == 0) {
    nrt_str_list_release(words);
    return NRT_OK; /* None */
  }
  if (rc == NRT_OK)
    rc = nrt_str_list_new(words->len, &out, err);
  for (int64_t k = 0; rc == NRT_OK && k < words->len; k++) {
    if (is_strasse(&words->items[k])) {
      rc = nrt_error_set(err, NRT_EVALUE, "no straße");
      break;
    }
    nrt_str up;
    rc = nrt_str_upper(&words->items[k], &up, err);
    if (rc == NRT_OK)
      rc = nrt_str_list_append(out, up, err);
  }
  nrt_str_list_release(words);
  if (rc) {
    nrt_str_list_release(out);
    return rc;
  }
  result->kind = NRT_VALUE_LIST;
  result->as.list = out;
  return NRT_OK;
}

/* A str result where a list is expected (and the reverse through result_kind STR). */
static int fn_str(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  result->kind = NRT_VALUE_STR;
  return nrt_str_concat(&args[0].as.str, &args[0].as.str, &result->as.str, err);
}

/* The expected row i: the input's split, upper-cased when `upper`; false when row i of out
 * differs. */
static bool row_ok(const nrt_column *in, const nrt_column *out, int64_t i, bool upper) {
  if (!nrt_col_is_valid(in, i))
    return !nrt_col_is_valid(out, i);
  nrt_str s = nrt_col_str(in, i);
  nrt_str_list *words = NULL;
  if (nrt_str_split(&s, NULL, -1, &words, NULL))
    return false;
  bool failed = false;
  for (int64_t k = 0; k < words->len; k++)
    failed = failed || is_strasse(&words->items[k]);
  bool ok;
  if (upper && (failed || words->len == 0)) {
    ok = !nrt_col_is_valid(out, i);
  } else {
    const nrt_column *items = nrt_col_list_child(out);
    int64_t start, end;
    nrt_col_list_range(out, i, &start, &end);
    ok = nrt_col_is_valid(out, i) && end - start == words->len;
    for (int64_t k = 0; ok && k < words->len; k++) {
      nrt_str want = words->items[k], got = nrt_col_str(items, start + k);
      nrt_str up = {0};
      if (upper && nrt_str_upper(&words->items[k], &up, NULL) == NRT_OK)
        want = up;
      ok = got.len == want.len && memcmp(got.data, want.data, (size_t)got.len) == 0;
      nrt_str_release(&up);
    }
  }
  nrt_str_list_release(words);
  return ok;
}

static void test_results(nrt_column *in) {
  for (int t = 0; t < 3; t++) {
    nrt_column *cols[3] = {NULL, NULL, NULL};
    for (int threads = 1; threads <= 3; threads++) {
      struct nrt_exec_options o = {.result_kind = NRT_VALUE_LIST, .string_type = layouts[t],
                                   .threads = threads, .chunk_rows = threads == 3 ? 37 : 0};
      struct nrt_exec_info info;
      CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_split, NULL, &o, &cols[threads - 1], &info, NULL),
                   NRT_OK);
      nrt_column *out = cols[threads - 1];
      CHECK(out && out->type == NRT_COL_LIST && out->length == in->length);
      CHECK_EQ_INT(nrt_col_list_child(out)->type, layouts[t]);
      CHECK_EQ_INT(out->null_count, in->null_count); /* null inputs: null rows, no call */
      CHECK_EQ_INT(info.calls, in->length - in->null_count);
      CHECK_EQ_INT(nrt_col_validate(out, NULL), NRT_OK);
      bool all = true;
      for (int64_t i = 0; i < in->length; i++)
        all = all && row_ok(in, out, i, false);
      CHECK(all);
    }
    CHECK(nrt_col_equal(cols[0], cols[1]));
    CHECK(nrt_col_equal(cols[0], cols[2]));
    for (int k = 0; k < 3; k++)
      nrt_col_release(cols[k]);
  }
}

static void test_nulls_and_errors(nrt_column *in) {
  /* errors as nulls: None rows and failing rows are null; the lowest failure is reported. */
  nrt_column *cols[2] = {NULL, NULL};
  int64_t first_fail = -1, fails = 0;
  for (int64_t i = 0; i < in->length; i++) {
    nrt_str s = nrt_col_str(in, i);
    nrt_str_list *words = NULL;
    bool failed = false;
    if (nrt_col_is_valid(in, i) && nrt_str_split(&s, NULL, -1, &words, NULL) == NRT_OK)
      for (int64_t k = 0; k < words->len; k++)
        failed = failed || is_strasse(&words->items[k]);
    nrt_str_list_release(words);
    if (failed && first_fail < 0)
      first_fail = i;
    fails += failed;
  }
  CHECK(fails > 0);
  for (int threads = 1; threads <= 2; threads++) {
    struct nrt_exec_options o = {.result_kind = NRT_VALUE_LIST, .threads = threads,
                                 .chunk_rows = 64, .errors_as_null = true};
    struct nrt_exec_info info;
    CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_upper_words, NULL, &o, &cols[threads - 1], &info,
                                NULL),
                 NRT_OK);
    CHECK_EQ_INT(info.failed_rows, fails);
    CHECK_EQ_INT(info.error_row, first_fail);
    CHECK_EQ_INT(info.error_code, NRT_EVALUE);
    bool all = true;
    for (int64_t i = 0; i < in->length; i++)
      all = all && row_ok(in, cols[threads - 1], i, true);
    CHECK(all);
  }
  CHECK(nrt_col_equal(cols[0], cols[1]));
  nrt_col_release(cols[0]);
  nrt_col_release(cols[1]);
  /* Stopping: the lowest failing row, whatever the thread count. */
  for (int threads = 1; threads <= 3; threads++) {
    struct nrt_exec_options o = {.result_kind = NRT_VALUE_LIST, .threads = threads,
                                 .chunk_rows = 16};
    struct nrt_exec_info info;
    struct nrt_error err = {0};
    nrt_column *out = (nrt_column *)in;
    CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_upper_words, NULL, &o, &out, &info, &err),
                 NRT_EVALUE);
    CHECK(out == NULL);
    CHECK_EQ_INT(info.error_row, first_fail);
    char want[64];
    snprintf(want, sizeof want, "row %lld: ValueError: no straße", (long long)first_fail + 1);
    CHECK_EQ_STR(err.message, want);
  }
  /* A result of the wrong kind is a TypeError of its row, and is released. */
  struct nrt_exec_options o = {.result_kind = NRT_VALUE_LIST, .threads = 2};
  struct nrt_error err = {0};
  nrt_column *out = NULL;
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_str, NULL, &o, &out, NULL, &err), NRT_ETYPE);
  CHECK(strstr(err.message, "the row function returned str, expected list") != NULL);
  o.result_kind = NRT_VALUE_STR;
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_split, NULL, &o, &out, NULL, &err), NRT_ETYPE);
  CHECK(strstr(err.message, "row 1: TypeError: the row function returned list, expected str") !=
        NULL);
  o.result_kind = NRT_VALUE_LIST;
  o.string_type = NRT_COL_INT64;
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, fn_split, NULL, &o, &out, NULL, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "string_type int64 is not a string layout") != NULL);
  CHECK(out == NULL);
}

/* ------------------------------------------------------------------ failure injection */

struct trial {
  nrt_column *in;
  int threads;
  enum nrt_col_type layout;
};

static int apply_trial(void *ctx) {
  struct trial *t = ctx;
  struct nrt_exec_options o = {.result_kind = NRT_VALUE_LIST, .string_type = t->layout,
                               .threads = t->threads, .chunk_rows = 8, .errors_as_null = true};
  nrt_column *out = NULL;
  int rc = nrt_exec_apply(&t->in, 1, fn_upper_words, NULL, &o, &out, NULL, NULL);
  if (rc == NRT_OK && (out->length != t->in->length || nrt_col_validate(out, NULL) != NRT_OK))
    rc = NRT_EINVAL; /* a wrong result: reported as a failure of the driver's check */
  nrt_col_release(out);
  return rc;
}

static void test_failure_injection(void) {
  struct trial t = {make_input(40), 1, NRT_COL_UTF8};
  CHECK(check_every_allocation_failure("list apply utf8 1 thread", apply_trial, &t) > 0);
  t.threads = 3;
  t.layout = NRT_COL_UTF8_VIEW;
  CHECK(check_every_allocation_failure("list apply view 3 threads", apply_trial, &t) > 0);
  nrt_col_release(t.in);
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  nrt_column *in = make_input(check_scale(4000));
  test_results(in);
  test_nulls_and_errors(in);
  nrt_col_release(in);
  test_failure_injection();
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_exec_apply_list");
}

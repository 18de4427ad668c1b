/* UDFs returning a list or a tuple of str through the public API: the result kind, per-row
 * calls (the result owns its list), applies giving list<string> columns in every item layout
 * (1 vs 2 threads identical, None and raising rows as nulls, the lowest failing row
 * reported), refcount operations counted before and after pruning (the same columns, fewer
 * operations, statistics balanced), and failure injection through compiled code. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static nrt_udf *compile_opts(const char *src, bool no_prune, bool count_refops) {
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  o.no_prune = no_prune;
  o.count_refops = count_refops;
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  if (nrt_udf_compile(src, strlen(src), &o, &u, &err))
    fprintf(stderr, "compile failed: %s\n", err.message);
  return u;
}

static nrt_udf *compile(const char *src) {
  return compile_opts(src, false, false);
}

/* Rows of several scripts; row 3 is null. */
static nrt_column *input(void) {
  static const char *const rows[] = {"alpha beta,gamma", "один два", "", NULL, "漢字,かな,カナ",
                                     "straße ǅemal", "x y", "a-long-item-over-12-bytes, y",
                                     "😀 😀", "no comma here", "   ", "Ελληνικά,κείμενα"};
  return udf_trial_column(rows, 12);
}

/* Row i of a list column equals the list the UDF returns for row i of in (null for None, a
 * raise or a null input). */
static bool matches_calls(const nrt_udf *u, const nrt_column *in, const nrt_column *out) {
  bool ok = out->length == in->length;
  for (int64_t i = 0; ok && i < in->length; i++) {
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = nrt_col_str(in, i);
    struct nrt_error err = {0};
    int rc = nrt_col_is_valid(in, i) ? nrt_udf_call(u, &arg, &r, &err) : NRT_EVALUE;
    bool list = rc == NRT_OK && r.kind == NRT_VALUE_LIST;
    ok = nrt_col_is_valid(out, i) == list;
    if (ok && list) {
      int64_t start, end;
      nrt_col_list_range(out, i, &start, &end);
      ok = end - start == r.as.list->len;
      for (int64_t k = 0; ok && k < r.as.list->len; k++) {
        nrt_str got = nrt_col_str(nrt_col_list_child(out), start + k);
        ok = got.len == r.as.list->items[k].len &&
             memcmp(got.data, r.as.list->items[k].data, (size_t)got.len) == 0;
      }
    }
    if (list)
      nrt_str_list_release(r.as.list);
  }
  return ok;
}

static void test_calls(void) {
  struct check_live before = check_live_now();
  nrt_udf *u = compile("lambda s: s.rpartition(',')");
  CHECK(u != NULL);
  CHECK_EQ_INT(nrt_udf_result_kind(u), NRT_VALUE_LIST);
  CHECK(nrt_udf_write_function(u) == NULL);
  nrt_value arg = {.kind = NRT_VALUE_STR}, r;
  arg.as.str = nrt_str_view("a,b,c", 5);
  CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.kind, NRT_VALUE_LIST);
  CHECK_EQ_INT(r.as.list->len, 3);
  CHECK(r.as.list->items[0].len == 3 && memcmp(r.as.list->items[0].data, "a,b", 3) == 0);
  CHECK_EQ_INT(r.as.list->mi->refct, 1); /* the caller's one reference */
  nrt_str_list_release(r.as.list);
  nrt_udf_free(u);
  /* A managed list built by the UDF, and None on some paths. */
  u = compile("def f(s):\n    if not s:\n        return None\n"
              "    return [w.upper() + '!' for w in s.split()]\n");
  CHECK(u != NULL && nrt_udf_result_kind(u) == NRT_VALUE_LIST);
  arg.as.str = nrt_str_view("", 0);
  CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, NULL), NRT_OK);
  CHECK_EQ_INT(r.kind, NRT_VALUE_NULL);
  arg.as.str = nrt_str_view("straße x", 9);
  CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, NULL), NRT_OK);
  CHECK(r.kind == NRT_VALUE_LIST && r.as.list->len == 2);
  CHECK(r.as.list->items[0].len == 8 && memcmp(r.as.list->items[0].data, "STRASSE!", 8) == 0);
  nrt_str_list_release(r.as.list);
  nrt_udf_free(u);
  /* A mixed tuple stays a compile error naming the feature. */
  struct nrt_error err = {0};
  const char *mixed = "lambda s: (s, len(s))";
  CHECK_EQ_INT(nrt_udf_compile(mixed, strlen(mixed), NULL, &u, &err), NRT_EUNSUPPORTED);
  CHECK(strstr(err.message, "returning a tuple of mixed types") != NULL);
  CHECK_NO_LEAK(before);
}

static void test_apply(void) {
  static const char *const srcs[] = {
      "lambda s: s.split(',')",
      "lambda s: s.partition(' ')",
      "lambda s: list(s)",
      ("def f(s):\n    ws = s.split()\n    if len(ws) == 1:\n        return None\n"
       "    if 'x' in s:\n        return [str(int(s))]\n    return ws[::-1] + [s.upper()]\n"),
  };
  static const enum nrt_col_type layouts[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                               NRT_COL_UTF8_VIEW};
  struct check_live before = check_live_now();
  nrt_column *in = input();
  for (size_t k = 0; k < sizeof srcs / sizeof srcs[0]; k++) {
    nrt_udf *u = compile(srcs[k]);
    CHECK(u != NULL);
    if (!u)
      continue;
    for (int t = 0; t < 3; t++) {
      nrt_column *cols[2] = {NULL, NULL};
      for (int threads = 1; threads <= 2; threads++) {
        struct nrt_udf_apply_options ao;
        memset(&ao, 0, sizeof ao);
        ao.threads = threads;
        ao.chunk_rows = 5;
        ao.string_type = layouts[t];
        ao.errors_as_null = true;
        struct nrt_exec_info info;
        CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &cols[threads - 1], &info, NULL), NRT_OK);
        nrt_column *out = cols[threads - 1];
        CHECK(out && out->type == NRT_COL_LIST);
        CHECK_EQ_INT(nrt_col_list_child(out)->type, layouts[t]);
        CHECK_EQ_INT(nrt_col_validate(out, NULL), NRT_OK);
        CHECK(matches_calls(u, in, out));
        CHECK_EQ_INT(info.failed_rows, k == 3 ? 1 : 0); /* int('x y') raises */
      }
      CHECK(nrt_col_equal(cols[0], cols[1]));
      nrt_col_release(cols[0]);
      nrt_col_release(cols[1]);
    }
    nrt_udf_free(u);
  }
  /* Stopping at the lowest failing row. */
  nrt_udf *u = compile(srcs[3]);
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = 2;
  ao.chunk_rows = 2;
  nrt_column *out = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err), NRT_EVALUE);
  CHECK(out == NULL);
  CHECK(strncmp(err.message, "row 7: ValueError: invalid literal for int()", 44) == 0);
  nrt_udf_free(u);
  nrt_col_release(in);
  CHECK_NO_LEAK(before);
}

/* The naive IR and the pruned IR give the same columns; pruning leaves fewer operations. */
static void test_refops(void) {
  const char *src = "def f(s):\n    parts = s.split(',')\n    first = parts[0]\n"
                    "    out = [p.strip() for p in parts if p]\n"
                    "    return out if first else s.split(' ')[1:]\n";
  nrt_column *in = input();
  nrt_column *cols[2] = {NULL, NULL};
  uint64_t counts[2] = {0, 0};
  for (int prune = 0; prune < 2; prune++) {
    struct check_live before = check_live_now();
    nrt_udf *u = compile_opts(src, prune == 0, true);
    CHECK(u != NULL);
    if (!u)
      continue;
    const struct nrt_udf_compile_info *ci = nrt_udf_info(u);
    if (prune)
      CHECK(ci->refops_after < ci->refops_before);
    struct nrt_udf_apply_options ao;
    memset(&ao, 0, sizeof ao);
    ao.threads = 1;
    nrt_udf_refops_reset();
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &cols[prune], NULL, NULL), NRT_OK);
    counts[prune] = nrt_udf_refops_executed();
    CHECK(cols[prune] && matches_calls(u, in, cols[prune]));
    nrt_udf_free(u);
    nrt_col_release(cols[prune]);
    cols[prune] = NULL;
    CHECK_NO_LEAK(before);
  }
  printf("list UDF: refcount ops executed over 12 rows: %llu naive, %llu after refprune\n",
         (unsigned long long)counts[0], (unsigned long long)counts[1]);
  CHECK(counts[0] > 0);
  CHECK(counts[1] < counts[0]);
  nrt_col_release(in);
}

/* ------------------------------------------------------------------ failure injection */

static void test_failure_injection(void) {
  struct udf_trial t = {compile("lambda s: [w.upper() for w in s.split(',')] + s.split()"), input(),
                       2, 4, 12};
  CHECK(t.udf != NULL);
  udf_trial_every_failure(&t, "list UDF apply");
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  test_calls();
  test_apply();
  test_refops();
  test_failure_injection();
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_lists");
}

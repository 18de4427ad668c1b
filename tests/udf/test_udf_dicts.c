/* dict and set values through the public API: a constant display is built once per compile
 * (a lookup allocates nothing per row, however big the table), held by the compiled UDF and
 * released by nrt_udf_free; KeyError's status and message; a 2-thread apply over a shared
 * constant table; every allocation failure of a dict-building apply is an error without a
 * leak. The language itself is covered by e2e_oracle_dicts.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static const char *const ROWS[] = {"a", "b", "zz", "", "straße", "k17", "漢字", "😀", "k199"};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

/* Allocations (and MemInfos) made by `calls` calls of u over ROWS. */
static uint64_t allocations_per_calls(const nrt_udf *u, int calls, uint64_t *mis) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  for (int i = 0; i < calls; i++) {
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = (nrt_str){NULL, ROWS[i % NROWS], (int64_t)strlen(ROWS[i % NROWS])};
    struct nrt_error err = {0};
    if (nrt_udf_call(u, &arg, &r, &err) == NRT_OK && r.kind == NRT_VALUE_STR)
      nrt_str_release(&r.as.str);
  }
  nrt_stats_get(&s1);
  *mis = s1.mi_alloc - s0.mi_alloc;
  return s1.alloc - s0.alloc;
}

/* A table of n entries 'k0': 'v0', ... as a lambda's inline display. */
static char *table_lambda(int n) {
  size_t cap = 64 + (size_t)n * 24;
  char *src = malloc(cap);
  size_t len = (size_t)snprintf(src, cap, "lambda s: {");
  for (int i = 0; i < n; i++)
    len += (size_t)snprintf(src + len, cap - len, "%s'k%d': 'v%d'", i ? ", " : "", i, i);
  snprintf(src + len, cap - len, "}.get(s, s)");
  return src;
}

static void test_built_once(void) {
  struct check_live before = check_live_now();
  uint64_t small_mi, big_mi;
  nrt_udf *small = udf_trial_compile("lambda s: {'a':'x','b':'y'}.get(s, s)");
  char *src = table_lambda(200);
  nrt_udf *big = udf_trial_compile(src);
  free(src);
  CHECK(small != NULL && big != NULL);
  if (small && big) {
    uint64_t a_small = allocations_per_calls(small, 1000, &small_mi);
    uint64_t a_big = allocations_per_calls(big, 1000, &big_mi);
    /* a lookup returns the table's own string or the row: nothing is built per row */
    CHECK_EQ_INT(a_small, 0);
    CHECK_EQ_INT(a_big, 0);
    CHECK_EQ_INT(small_mi, 0);
    CHECK_EQ_INT(big_mi, 0);
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = (nrt_str){NULL, "k123", 4};
    CHECK_EQ_INT(nrt_udf_call(big, &arg, &r, NULL), NRT_OK);
    CHECK(r.as.str.len == 4 && memcmp(r.as.str.data, "v123", 4) == 0);
    nrt_str_release(&r.as.str);
  }
  nrt_udf_free(small);
  nrt_udf_free(big);
  CHECK_NO_LEAK(before); /* the tables were released with their UDFs */
}

static void test_module_table(void) {
  struct check_live before = check_live_now();
  nrt_udf *u = udf_trial_compile("M = {'a': 1, 'b': 2}\nS = {'x', 'y'}\n"
                       "def f(s):\n    return M[s] if s not in S else -1\n");
  CHECK(u != NULL);
  if (u) {
    uint64_t mis;
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = (nrt_str){NULL, "b", 1};
    CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, NULL), NRT_OK);
    CHECK_EQ_INT(r.as.i64, 2);
    struct nrt_error err = {0};
    arg.as.str = (nrt_str){NULL, "z'é", 4};
    CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, &err), NRT_EKEY);
    CHECK_EQ_STR(err.message, "\"z'é\"");
    CHECK_EQ_STR(nrt_status_name(NRT_EKEY), "KeyError");
    (void)allocations_per_calls(u, 100, &mis);
    CHECK_EQ_INT(mis, 0);
  }
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

static nrt_column *input(int n) {
  nrt_col_builder *b = NULL;
  nrt_column *c = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, n, &b, NULL), NRT_OK);
  for (int i = 0; i < n; i++)
    nrt_col_builder_append_view(b, ROWS[i % NROWS], (int64_t)strlen(ROWS[i % NROWS]));
  CHECK_EQ_INT(nrt_col_builder_finish(b, &c, NULL), NRT_OK);
  return c;
}

/* Two threads share one constant table (no refcount traffic on it: TSan and the statistics
 * would see it). */
static void test_apply_shared_table(void) {
  struct check_live before = check_live_now();
  struct udf_trial t = {udf_trial_compile("T = {'a': 'A', 'b': 'B', '漢字': 'kanji'}\n"
                                "def f(s):\n    return T.get(s, s) + '|' + str(s in T)\n"),
                        input(5000), 2, 64, 5000};
  CHECK(t.udf != NULL);
  if (t.udf)
    CHECK_EQ_INT(udf_apply_trial(&t), NRT_OK);
  nrt_udf_free(t.udf);
  nrt_col_release(t.in);
  CHECK_NO_LEAK(before);
}

static void test_failure_injection(void) {
  struct udf_trial t = {udf_trial_compile("def f(s):\n    d = {}\n    for c in s:\n"
                                "        d[c] = d.get(c, 0) + 1\n"
                                "    u = {w for w in s.split()}\n"
                                "    return ','.join([k + str(v) for k, v in d.items()]) + "
                                "str(len(u))\n"),
                        input(12), 2, 4, 12};
  CHECK(t.udf != NULL);
  udf_trial_every_failure(&t, "dict UDF apply");
}

/* Compiling builds the constant tables: every allocation failure there (and in the front end)
 * is NRT_ENOMEM with nothing left alive. */
static int compile_trial(void *ctx) {
  (void)ctx;
  static const char src[] = "T = {'a': 'x', 'é': 'y', '漢字': 'z'}\nN = {1: 2.5, -3: 0.5}\n"
                            "def f(s):\n    return T.get(s, s) + str(N.get(len(s), 0.0)) + "
                            "str(s in {'p', 'q'})\n";
  nrt_udf *u = NULL;
  struct nrt_error err = {0};
  int rc = nrt_udf_compile(src, strlen(src), NULL, &u, &err);
  if (rc == NRT_OK) {
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = (nrt_str){NULL, "a", 1};
    rc = nrt_udf_call(u, &arg, &r, &err);
    if (rc == NRT_OK) {
      rc = r.as.str.len == 9 && memcmp(r.as.str.data, "x2.5False", 9) == 0 ? NRT_OK : NRT_EINVAL;
      nrt_str_release(&r.as.str);
    }
  }
  nrt_udf_free(u);
  return rc;
}

static void test_compile_failures(void) {
  CHECK(check_every_allocation_failure("dict constants compile", compile_trial, NULL) > 0);
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  test_built_once();
  test_module_table();
  test_apply_shared_table();
  test_failure_injection();
  test_compile_failures();
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_dicts");
}

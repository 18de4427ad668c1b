/* str.translate, %(name) formatting and repr() of containers through the public API: a
 * translate table of literals is folded at compile time (a row that changes costs one
 * allocation, its result; a row that does not, none), shared by two threads; CPython's error
 * statuses and messages; every allocation failure of an apply is an error without a leak. The
 * language itself is covered by e2e_oracle_fmt2.py. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static const char *const ROWS[] = {"abc", "xyz", "", "straße", "Ελληνικά", "日本語", "😀!",
                                   "a,b;c", "hello world"};
#define NROWS (sizeof ROWS / sizeof ROWS[0])

static nrt_column *input(int n) {
  const char *rows[64];
  for (int i = 0; i < n && i < 64; i++)
    rows[i] = ROWS[i % NROWS];
  return udf_trial_column(rows, n < 64 ? n : 64);
}

/* The result of u on one row (its status; *out the string, released by the caller). */
static int call(nrt_udf *u, const char *row, nrt_str *out, struct nrt_error *err) {
  nrt_value arg = {.kind = NRT_VALUE_STR}, r;
  arg.as.str = (nrt_str){NULL, row, (int64_t)strlen(row)};
  int rc = nrt_udf_call(u, &arg, &r, err);
  if (rc == NRT_OK)
    *out = r.as.str;
  return rc;
}

static void expect(nrt_udf *u, const char *row, const char *want) {
  nrt_str r;
  struct nrt_error err = {0};
  int rc = call(u, row, &r, &err);
  CHECK_EQ_INT(rc, NRT_OK);
  if (rc == NRT_OK) {
    CHECK(r.len == (int64_t)strlen(want) && memcmp(r.data, want, (size_t)r.len) == 0);
    nrt_str_release(&r);
  }
}

static void test_folded_table(void) {
  struct check_live before = check_live_now();
  nrt_udf *u = udf_trial_compile("import string\nT = str.maketrans('abß', 'AB€', string.punctuation)\n"
                       "def f(s):\n    return s.translate(T)\n");
  CHECK(u != NULL);
  if (u) {
    expect(u, "abc", "ABc");
    expect(u, "straße!", "strA€e");
    expect(u, "xyz", "xyz");
    struct nrt_stats s0, s1;
    nrt_stats_get(&s0);
    nrt_str r;
    for (int i = 0; i < 100; i++)
      if (call(u, "xyz", &r, NULL) == NRT_OK) nrt_str_release(&r);
    nrt_stats_get(&s1);
    CHECK_EQ_INT(s1.alloc - s0.alloc, 0); /* nothing maps: the row itself */
    for (int i = 0; i < 100; i++)
      if (call(u, "a,b", &r, NULL) == NRT_OK) nrt_str_release(&r);
    nrt_stats_get(&s0);
    CHECK_EQ_INT(s0.alloc - s1.alloc, 100); /* the result only */
  }
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

static void test_errors(void) {
  struct check_live before = check_live_now();
  nrt_udf *u = udf_trial_compile("def f(s):\n    return s.translate({97: 0x110000, 98: 1.5})\n");
  CHECK(u != NULL);
  if (u) {
    nrt_str r;
    struct nrt_error err = {0};
    CHECK_EQ_INT(call(u, "xa", &r, &err), NRT_EVALUE);
    CHECK_EQ_STR(err.message, "character mapping must be in range(0x110000)");
    CHECK_EQ_INT(call(u, "b", &r, &err), NRT_ETYPE);
    CHECK_EQ_STR(err.message, "character mapping must return integer, None or str");
    expect(u, "xyz", "xyz");
  }
  nrt_udf_free(u);
  u = udf_trial_compile("def f(s):\n    d = {'k': s}\n    return '%(k)s|%(x)s' % d\n");
  CHECK(u != NULL);
  if (u) {
    nrt_str r;
    struct nrt_error err = {0};
    CHECK_EQ_INT(call(u, "a", &r, &err), NRT_EKEY);
    CHECK_EQ_STR(err.message, "'x'");
  }
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

/* Two threads share one folded table. */
static void test_shared_table(void) {
  struct check_live before = check_live_now();
  struct udf_trial t = {udf_trial_compile("def f(s):\n    return s.translate({97: 'AA', 0x65e5: None, "
                                "0x1F600: 0x263A})\n"),
                        input(64), 2, 4, 64};
  CHECK(t.udf != NULL);
  if (t.udf)
    CHECK_EQ_INT(udf_apply_trial(&t), NRT_OK);
  nrt_udf_free(t.udf);
  nrt_col_release(t.in);
  CHECK_NO_LEAK(before);
}

static void test_failure_injection(void) {
  struct udf_trial t = {udf_trial_compile("T = str.maketrans({'a': 'xyz', 'é': None})\n"
                                "def f(s):\n    d = {ord('b'): 'B', ord('c'): 'C'}\n"
                                "    m = {'k': s.translate(T), 'n': s.upper()}\n"
                                "    return '%(k)s|%(n)s|' % m + s.translate(d) + "
                                "'%(a)s%(b)r' % {'b': s.lower(), 'a': len(s)} + "
                                "repr(s.split()) + ascii({s: [s, s]}) + str([len(s) / 3])\n"),
                        input(12), 2, 4, 12};
  CHECK(t.udf != NULL);
  udf_trial_every_failure(&t, "fmt2 UDF apply");
}

int main(void) {
  test_folded_table();
  test_errors();
  test_shared_table();
  test_failure_injection();
  return check_finish("test_udf_fmt2");
}

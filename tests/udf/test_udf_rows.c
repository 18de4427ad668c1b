/* The loop form of compiled UDFs (nrt_udf_write_rows_function): applied with it, a UDF gives
 * the same column, info and error as its row function alone, for utf8 and large_utf8 inputs,
 * every string output, 1 and 2 threads, errors stopping or as nulls: None results, raised and
 * caught exceptions, failures on most rows, rows that grow the output, substring chains, case
 * mappings of every script, and rows over the string limit alone or only with the rows before
 * them. Which UDFs have a loop form. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"

static const char *const UDFS[] = {
    /* the seed UDF */
    "def f(s):\n    if len(s) > 2:\n        r = s.upper()\n    else:\n        r = s + s\n"
    "    return r + 'abc'\n",
    /* None on some rows */
    "def f(s):\n    return None if len(s) % 5 == 0 else s.lower()\n",
    /* a ValueError on most rows */
    "def f(s):\n    return f'{int(s[:2]):03d}'\n",
    /* exceptions caught, their messages read */
    "def f(s):\n    try:\n        return str(int(s[:3]))\n    except ValueError as e:\n"
    "        return str(e)\n",
    /* raised on some rows */
    "def f(s):\n    if 'x' in s:\n        raise KeyError(s)\n    return s.casefold() + '|'\n",
    /* long results: the output grows, and passes a small string limit */
    "def f(s):\n    return s * 9\n",
    /* a failure after some bytes are written */
    "def f(s):\n    return s.lower() + str(int(s[-1:]))\n",
    /* a substring chain and a mapping of it */
    "def f(s):\n    return s.partition(' ')[2].strip()[:12].upper()\n",
};
#define NUDFS (sizeof UDFS / sizeof UDFS[0])

/* Rows of every kind: empty, ASCII, Latin-1 (ß, ÿ), Greek, CJK, emoji, digits, spaces, 1 to
 * about 140 bytes. */
static nrt_column *make_input(enum nrt_col_type type, int64_t rows) {
  static const char *parts[] = {"a", "Zé", "ß", "ÿ", "Σσ", "漢字", "😀", "12", " ", "x",
                                "Straße", "0", "İ", "ﬁ", "Q7"};
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(type, rows, &b, NULL), NRT_OK);
  for (int64_t i = 0; i < rows; i++) {
    char buf[512];
    int n = 0, parts_n = (int)((i * 7919) % 53);
    if (i % 4 == 0)
      n = snprintf(buf, sizeof buf, "%lld", (long long)(i % 1000));
    for (int k = 0; k < parts_n; k++) {
      const char *p = parts[(i * 31 + k * 7) % 15];
      size_t len = strlen(p);
      memcpy(buf + n, p, len);
      n += (int)len;
    }
    CHECK_EQ_INT(nrt_col_builder_append_view(b, buf, n), NRT_OK);
  }
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  return col;
}

static bool same_column(const nrt_column *a, const nrt_column *b) {
  if (!a || !b || a->type != b->type || a->length != b->length || a->null_count != b->null_count)
    return false;
  for (int64_t i = 0; i < a->length; i++) {
    if (nrt_col_is_valid(a, i) != nrt_col_is_valid(b, i))
      return false;
    nrt_str x = nrt_col_str(a, i), y = nrt_col_str(b, i);
    if (nrt_col_is_valid(a, i) && (x.len != y.len || memcmp(x.data, y.data, (size_t)x.len)))
      return false;
  }
  return true;
}

static void compare(const nrt_udf *u, nrt_column *in, struct nrt_exec_options o, int which) {
  nrt_column *want = NULL, *got = NULL;
  struct nrt_exec_info wi, gi;
  struct nrt_error we = {0}, ge = {0};
  o.write_rows = NULL;
  int wrc = nrt_exec_apply_write(&in, 1, nrt_udf_write_function(u), NULL, &o, &want, &wi, &we);
  o.write_rows = nrt_udf_write_rows_function(u);
  int grc = nrt_exec_apply_write(&in, 1, nrt_udf_write_function(u), NULL, &o, &got, &gi, &ge);
  bool ok = grc == wrc && strcmp(ge.message, we.message) == 0 &&
            gi.failed_rows == wi.failed_rows && gi.error_row == wi.error_row &&
            gi.error_code == wi.error_code && (wrc != NRT_OK || same_column(want, got)) &&
            (wrc != NRT_OK || o.threads == 1 || gi.calls == wi.calls);
  if (ok)
    check_pass();
  else
    check_failf(__FILE__, __LINE__,
                "UDF %d, %s in, %s out, %d threads, errors %s: %d '%s' (%lld failed) with the "
                "loop form, %d '%s' (%lld failed) without",
                which, nrt_col_type_name(in->type), nrt_col_type_name(o.string_type), o.threads,
                o.errors_as_null ? "as nulls" : "stop", grc, ge.message,
                (long long)gi.failed_rows, wrc, we.message, (long long)wi.failed_rows);
  CHECK(grc != NRT_OK || nrt_col_validate(got, NULL) == NRT_OK);
  nrt_col_release(want);
  nrt_col_release(got);
}

static void test_same_outcome(void) {
  struct check_live before = check_live_now();
  int64_t rows = check_scale(3000);
  nrt_column *ins[2] = {make_input(NRT_COL_UTF8, rows), make_input(NRT_COL_LARGE_UTF8, rows)};
  for (size_t k = 0; k < NUDFS; k++) {
    nrt_udf *u = NULL;
    struct nrt_error err = {0};
    CHECK_EQ_INT(nrt_udf_compile(UDFS[k], strlen(UDFS[k]), NULL, &u, &err), NRT_OK);
    if (!u)
      continue;
    CHECK(nrt_udf_write_rows_function(u) != NULL);
    for (int limit = 0; limit < 2; limit++) {
      int64_t old = limit ? nrt_str_set_max_bytes(300) : 0;
      for (int n = 0; n < 2; n++)
        for (int t = 1; t <= 2; t++)
          for (int e = 0; e < 2; e++) {
            static const enum nrt_col_type layouts[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                                         NRT_COL_UTF8_VIEW};
            struct nrt_exec_options o = {
                .string_type = layouts[(n + t + e) % 3],
                .threads = t, .errors_as_null = e, .chunk_rows = t == 2 ? 500 : 0};
            compare(u, ins[n], o, (int)k);
          }
      if (limit)
        nrt_str_set_max_bytes(old);
    }
    nrt_udf_free(u);
  }
  nrt_col_release(ins[0]);
  nrt_col_release(ins[1]);
  CHECK_NO_LEAK(before);
}

/* A loop form only for one str parameter and a str result, and not in the quick tier. */
static void test_which_have_one(void) {
  struct check_live before = check_live_now();
  static const char *const none[] = {"def f(s):\n    return len(s)\n",
                                     "def f(s, t):\n    return s + t\n"};
  for (int k = 0; k < 2; k++) {
    struct nrt_udf_options o;
    memset(&o, 0, sizeof o);
    o.nparams = k + 1;
    nrt_udf *u = NULL;
    CHECK_EQ_INT(nrt_udf_compile(none[k], strlen(none[k]), &o, &u, NULL), NRT_OK);
    CHECK(u && nrt_udf_write_rows_function(u) == NULL);
    nrt_udf_free(u);
  }
  /* A UDF over the quick tier's size: its loop form would double the compile time. */
  char *src = malloc(200000);
  int n = snprintf(src, 200000, "def f(s):\n    if s == 'k':\n        return 'v'\n");
  for (int i = 0; i < 900; i++)
    n += snprintf(src + n, (size_t)(200000 - n), "    elif s == 'k%d':\n        return s + '%d'\n",
                  i, i);
  n += snprintf(src + n, (size_t)(200000 - n), "    return s\n");
  nrt_udf *u = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_udf_compile(src, (size_t)n, NULL, &u, &err), NRT_OK);
  CHECK(u && nrt_udf_info(u)->quick && nrt_udf_write_rows_function(u) == NULL);
  nrt_udf_free(u);
  free(src);
  CHECK_NO_LEAK(before);
}

int main(void) {
  test_same_outcome();
  test_which_have_one();
  nrt_exec_shutdown();
  return check_finish("test_udf_rows");
}

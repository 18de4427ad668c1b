/* The compilation tiers of generated UDFs (tests/udf/udf_programs.h): small UDFs get O2, large
 * ones the quick tier (nrt/udf.h, NRT_UDF_QUICK_INSTRUCTIONS), huge modules wrappers that call
 * the entry instead of inlining it (src/udf/udf.c). Also the shapes of issue 15 (linear-time
 * compilation): an elif chain longer than recursion over it could take on the stack, and
 * nested len(str(...)) calls the checker once typed twice per level. Each computes Python's
 * rows in the value and the write form, on 1 and 2 threads, with the statistics balanced.
 * Timing is not asserted. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_programs.h"

#define NROWS 7
static const char *rows[NROWS] = {"abc", "", "straße", "漢字かな", "x", "😀 ok", NULL};
static char long_row[3600]; /* longer than any branch of the elif chain */

static nrt_column *input(void) {
  memset(long_row, 'z', sizeof long_row - 1);
  rows[NROWS - 1] = long_row;
  nrt_col_builder *b = NULL;
  nrt_column *c = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, NROWS, &b, NULL), NRT_OK);
  for (int i = 0; i < NROWS; i++)
    CHECK_EQ_INT(nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i])), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &c, NULL), NRT_OK);
  return c;
}

/* Code points of a UTF-8 row: Python's len(). */
static size_t chars(const char *s) {
  size_t n = 0;
  for (; *s; s++)
    n += ((unsigned char)*s & 0xC0) != 0x80;
  return n;
}

/* Python's result of family f with n units on row. */
static bool expected(enum udf_prog_family f, int n, const char *row, nrt_str got) {
  char want[32];
  size_t len = strlen(row);
  switch (f) {
  case UDF_PROG_STATEMENTS: /* row + n * "a" */
    if ((size_t)got.len != len + (size_t)n || memcmp(got.data, row, len) != 0)
      return false;
    for (size_t i = len; i < (size_t)got.len; i++)
      if (got.data[i] != 'a')
        return false;
    return true;
  case UDF_PROG_LONG: /* n operands row concatenated */
    if ((size_t)got.len != len * (size_t)n)
      return false;
    for (size_t i = 0; i < (size_t)got.len; i++)
      if (got.data[i] != row[i % len])
        return false;
    return true;
  case UDF_PROG_ELIF: /* str(len(row)) for a branch, else the row itself */
    if (chars(row) >= (size_t)n)
      return (size_t)got.len == len && memcmp(got.data, row, len) == 0;
    snprintf(want, sizeof want, "%zu", chars(row));
    break;
  case UDF_PROG_NEST: /* str(len(str(len(...)))) of 4 calls and more: "1" */
  case UDF_PROG_NEST_STMTS: snprintf(want, sizeof want, "1"); break;
  default: return false;
  }
  return (size_t)got.len == strlen(want) && memcmp(got.data, want, strlen(want)) == 0;
}

static void check_family(enum udf_prog_family f, int n, bool quick, bool huge) {
  struct check_live before = check_live_now();
  size_t len = 0;
  char *src = udf_prog_source(f, n, &len);
  CHECK(src != NULL);
  if (!src)
    return;
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  CHECK_EQ_INT(nrt_udf_compile(src, len, NULL, &u, &err), NRT_OK);
  free(src);
  if (!u) {
    fprintf(stderr, "%s %d: %s\n", udf_prog_names[f], n, err.message);
    return;
  }
  const struct nrt_udf_compile_info *info = nrt_udf_info(u);
  CHECK_EQ_INT(info->quick, quick);
  CHECK_EQ_INT(info->huge, huge);
  CHECK_EQ_INT(info->instructions > NRT_UDF_QUICK_INSTRUCTIONS, quick);
  nrt_column *in = input();
  for (int form = 0; form < 2; form++)
    for (int threads = 1; threads <= 2; threads++) {
      struct nrt_udf_apply_options o;
      memset(&o, 0, sizeof o);
      o.threads = threads;
      o.value_form = form == 1;
      nrt_column *out = NULL;
      CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &o, &out, NULL, &err), NRT_OK);
      for (int64_t i = 0; out && i < NROWS; i++)
        if (!expected(f, n, rows[i], nrt_col_str(out, i)))
          check_failf(__FILE__, __LINE__, "%s %d (%s form, %d threads): row %lld differs",
                      udf_prog_names[f], n, form ? "value" : "write", threads, (long long)i);
      nrt_col_release(out);
    }
  nrt_col_release(in);
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

int main(void) {
  check_family(UDF_PROG_STATEMENTS, 5, false, false);
  check_family(UDF_PROG_LONG, 4, false, false);
  check_family(UDF_PROG_STATEMENTS, 600, true, false); /* some 22,000 instructions */
  check_family(UDF_PROG_LONG, 700, true, false);
  check_family(UDF_PROG_ELIF, 3, false, false);
  /* Deeper than recursion over the chain could go. */
  check_family(UDF_PROG_ELIF, 3000, true, true);
  check_family(UDF_PROG_STATEMENTS, 1000, true, true); /* huge: the wrappers call the entry */
  check_family(UDF_PROG_NEST, 190, false, false); /* 2^95 checks when typed twice per level */
  return check_finish("test_udf_tiers");
}

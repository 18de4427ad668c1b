/* The two compilation tiers (nrt/udf.h, NRT_UDF_QUICK_INSTRUCTIONS): small UDFs get O2, large
 * generated ones (tests/udf/udf_programs.h) the quick tier; both compute the same rows in the
 * value form and the write form, on 1 and 2 threads, with the statistics balanced. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_programs.h"

static const char *const rows[] = {"abc", "", "straße", "漢字かな", "x", "😀 ok"};
#define NROWS 6

static nrt_column *input(void) {
  nrt_col_builder *b = NULL;
  nrt_column *c = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, NROWS, &b, NULL), NRT_OK);
  for (int i = 0; i < NROWS; i++)
    CHECK_EQ_INT(nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i])), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &c, NULL), NRT_OK);
  return c;
}

/* The expected result of the statements family (x = s, then n times x = x + "a"), or of the
 * long family (n operands s concatenated). */
static bool expected(enum udf_prog_family f, int n, const char *row, nrt_str got) {
  size_t len = strlen(row), want = f == UDF_PROG_STATEMENTS ? len + (size_t)n : len * (size_t)n;
  if ((size_t)got.len != want || memcmp(got.data, row, len) != 0)
    return false;
  for (size_t i = len; i < want; i++)
    if (got.data[i] != (f == UDF_PROG_STATEMENTS ? 'a' : row[i % len]))
      return false;
  return true;
}

static void check_family(enum udf_prog_family f, int n, bool quick) {
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
  check_family(UDF_PROG_STATEMENTS, 5, false);
  check_family(UDF_PROG_LONG, 4, false);
  check_family(UDF_PROG_STATEMENTS, 600, true); /* some 22,000 instructions */
  check_family(UDF_PROG_LONG, 700, true);
  return check_finish("test_udf_tiers");
}

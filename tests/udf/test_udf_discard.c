/* Error messages discarded while failing rows become nulls (nrt_exec_options.discard_messages,
 * set by nrt_udf_apply): the rows and the first failure are unchanged, a UDF that reads
 * messages (`except ... as e`) still gets every one, and no thread is left discarding. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "nrt/udf.h"
#include "support/check.h"

static nrt_column *column(const char *const *rows, int n) {
  nrt_col_builder *b = NULL;
  nrt_column *c = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, n, &b, NULL), NRT_OK);
  for (int i = 0; i < n; i++)
    CHECK_EQ_INT(nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i])), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &c, NULL), NRT_OK);
  return c;
}

static nrt_udf *compile(const char *src) {
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  if (nrt_udf_compile(src, strlen(src), NULL, &u, &err))
    fprintf(stderr, "compile failed: %s\n", err.message);
  CHECK(u != NULL);
  return u;
}

static bool row_is(const nrt_column *c, int64_t i, const char *want) {
  if (!nrt_col_is_valid(c, i))
    return want == NULL;
  nrt_str s = nrt_col_str(c, i);
  return want && (size_t)s.len == strlen(want) && memcmp(s.data, want, (size_t)s.len) == 0;
}

/* The first row raises uncaught (so the chunk starts discarding); every later row reads the
 * message of the ValueError it catches. */
static void test_messages_read_by_the_udf(void) {
  static const char *const rows[] = {"boom", "x", "12", "ÿé", "boom", " 7 "};
  static const char *const want[] = {NULL,
                                     "invalid literal for int() with base 10: 'x'",
                                     "12",
                                     "invalid literal for int() with base 10: 'ÿé'",
                                     NULL,
                                     "7"};
  struct check_live before = check_live_now();
  nrt_udf *u = compile("def f(s):\n    if s == 'boom':\n        raise ValueError('boom')\n"
                       "    try:\n        return str(int(s))\n"
                       "    except ValueError as e:\n        return str(e)\n");
  nrt_column *in = column(rows, 6);
  for (int form = 0; u && form < 2; form++) {
    struct nrt_udf_apply_options o;
    memset(&o, 0, sizeof o);
    o.threads = 1;
    o.errors_as_null = true;
    o.value_form = form == 1;
    nrt_column *out = NULL;
    struct nrt_exec_info info;
    struct nrt_error err = {0};
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &o, &out, &info, &err), NRT_OK);
    CHECK_EQ_INT(info.failed_rows, 2);
    for (int i = 0; out && i < 6; i++)
      if (!row_is(out, i, want[i]))
        check_failf(__FILE__, __LINE__, "row %d (%s form) differs", i, form ? "value" : "write");
    nrt_col_release(out);
  }
  nrt_col_release(in);
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

/* Many failing rows with no one reading their messages: the nulls, the values and the first
 * failure as before, on 1 and 2 threads; the stopping error still has its whole message. */
static void test_failing_column(void) {
  enum { N = 20000 };
  static char text[N][16];
  const char *rows[N];
  for (int i = 0; i < N; i++) {
    snprintf(text[i], sizeof text[i], i % 7 == 3 ? "%d" : "x%d", i);
    rows[i] = text[i];
  }
  struct check_live before = check_live_now();
  nrt_udf *u = compile("lambda s: f'{int(s):08d}'");
  nrt_column *in = column(rows, N);
  for (int threads = 1; u && threads <= 2; threads++) {
    struct nrt_udf_apply_options o;
    memset(&o, 0, sizeof o);
    o.threads = threads;
    o.errors_as_null = true;
    o.chunk_rows = 1000;
    nrt_column *out = NULL;
    struct nrt_exec_info info;
    struct nrt_error err = {0};
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &o, &out, &info, &err), NRT_OK);
    CHECK_EQ_INT(info.error_row, 0);
    CHECK_EQ_INT(info.failed_rows, N - (N + 3) / 7);
    for (int i = 0; out && i < N; i++) {
      char want[16];
      snprintf(want, sizeof want, "%08d", i);
      if (!row_is(out, i, i % 7 == 3 ? want : NULL))
        check_failf(__FILE__, __LINE__, "row %d on %d threads differs", i, threads);
    }
    nrt_col_release(out);
    o.errors_as_null = false;
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &o, &out, &info, &err), NRT_EVALUE);
    CHECK(strstr(err.message, "row 1: ValueError: invalid literal for int() with base 10: 'x0'") !=
          NULL);
  }
  /* This thread ran rows: it must not be left discarding. */
  int64_t v;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_str_to_int64("y", 1, 10, &v, &err), NRT_EVALUE);
  CHECK(strcmp(err.message, "invalid literal for int() with base 10: 'y'") == 0);
  nrt_col_release(in);
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

int main(void) {
  test_messages_read_by_the_udf();
  test_failing_column();
  return check_finish("test_udf_discard");
}

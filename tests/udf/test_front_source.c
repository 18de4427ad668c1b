/* Edge cases of UDF source text, through the front end (parse and type check; the code
 * generator's limits are the parser's): a NUL byte is refused, as CPython does, and quoted (as
 * U+2400) with its caret; a UTF-8 byte order mark opening the source is skipped, as CPython
 * does; the fixed limits (and/or operands, comparison chains, f-string parts, list and tuple
 * displays, min/max arguments, unpacking targets, parameters) are errors with
 * file:line:column at the first item past the limit, and the caret of a long line still
 * points at it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"

/* Parses and checks src (len bytes) with one str parameter; returns the status, the message
 * in err. */
static int compile(const char *src, size_t len, struct nrt_error *err) {
  udf_module *m = NULL;
  udf_type pt[1] = {UDF_TY_STR};
  memset(err, 0, sizeof *err);
  int rc = udf_front_compile(src, len, "<udf>", NULL, pt, 1, &m, NULL, err);
  udf_module_free(m);
  return rc;
}

/* The character the caret points at: the message's last two lines are the quoted line and the
 * caret line, both indented alike. */
static char under_caret(const char *msg) {
  const char *caret = strrchr(msg, '^');
  const char *caret_line = caret ? caret : msg;
  while (caret_line > msg && caret_line[-1] != '\n')
    caret_line--;
  if (!caret || caret_line == msg)
    return 0;
  const char *quoted = caret_line - 1;
  while (quoted > msg && quoted[-1] != '\n')
    quoted--;
  size_t at = (size_t)(caret - caret_line);
  return at < (size_t)(caret_line - 1 - quoted) ? quoted[at] : 0;
}

static void expect(const char *src, size_t len, int code, const char *head, char at_caret,
                   int line) {
  struct nrt_error err;
  int rc = compile(src, len, &err);
  if (rc != code || strncmp(err.message, head, strlen(head)) != 0)
    check_failf(__FILE__, line, "expected %d '%s', got %d '%s'", code, head, rc, err.message);
  else if (at_caret && under_caret(err.message) != at_caret)
    check_failf(__FILE__, line, "caret not under '%c': %s", at_caret, err.message);
  else
    check_pass();
}
#define EXPECT(src, code, head, at) expect(src, strlen(src), code, head, at, __LINE__)

static void expect_ok(const char *src, int line) {
  struct nrt_error err;
  int rc = compile(src, strlen(src), &err);
  if (rc != NRT_OK)
    check_failf(__FILE__, line, "%s: %s", src, err.message);
  else
    check_pass();
}
#define EXPECT_OK(src) expect_ok(src, __LINE__)

static void test_nul_and_bom(void) {
  static const char nul[] = "def f(s):\n    return s +\0 'a'\n";
  struct nrt_error err;
  CHECK_EQ_INT(compile(nul, sizeof nul - 1, &err), NRT_EPARSE);
  CHECK_EQ_STR(err.message, "<udf>:2:15: source code cannot contain null bytes\n"
                            "        return s +\xE2\x90\x80 'a'\n"
                            "                  ^");
  /* in a string literal and in a comment too, as CPython; the caret under the U+2400 */
  static const char nul_in_string[] = "lambda s: s + 'a\0b'";
  CHECK_EQ_INT(compile(nul_in_string, sizeof nul_in_string - 1, &err), NRT_EPARSE);
  CHECK_EQ_STR(err.message, "<udf>:1:17: source code cannot contain null bytes\n"
                            "    lambda s: s + 'a\xE2\x90\x80" "b'\n"
                            "                    ^");
  static const char nul_in_comment[] = "def f(s):  # \xc3\xa9\0\n    return s\n";
  CHECK_EQ_INT(compile(nul_in_comment, sizeof nul_in_comment - 1, &err), NRT_EPARSE);
  CHECK(strncmp(err.message, "<udf>:1:15: source code cannot contain null bytes", 49) == 0);
  EXPECT_OK("\xEF\xBB\xBF" "def f(s):\n    return s + 'x'\n");
  EXPECT_OK("\xEF\xBB\xBF" "lambda s: s");
  /* columns count from after the mark, and the quoted line leaves it out */
  EXPECT("\xEF\xBB\xBF" "lambda s: s + 1", NRT_ETYPE,
         "<udf>:1:11: can only concatenate str (not \"int\") to str\n"
         "    lambda s: s + 1\n"
         "              ^",
         's');
  EXPECT("lambda s: s +\xEF\xBB\xBF 'a'", NRT_EPARSE,
         "<udf>:1:14: invalid non-printable character U+FEFF", 0);
  EXPECT("\xEF\xBB\xBF\xEF\xBB\xBF" "lambda s: s", NRT_EPARSE,
         "<udf>:1:1: invalid non-printable character U+FEFF", 0);
}

/* "lambda s: " then n copies of item joined by sep, then tail. */
static char *join(const char *head, const char *item, const char *sep, int n,
                  const char *tail) {
  size_t size = strlen(head) + (size_t)n * (strlen(item) + strlen(sep)) + strlen(tail) + 1;
  char *s = malloc(size), *p = s;
  p += sprintf(p, "%s", head);
  for (int i = 0; i < n; i++)
    p += sprintf(p, "%s%s", i ? sep : "", item);
  sprintf(p, "%s", tail);
  return s;
}

static void limit(const char *head, const char *item, const char *sep, int ok, const char *tail,
                  const char *message, char at, int line) {
  char *src = join(head, item, sep, ok, tail);
  expect_ok(src, line);
  free(src);
  src = join(head, item, sep, ok + 1, tail);
  expect(src, strlen(src), NRT_EUNSUPPORTED, message, at, line);
  free(src);
}

static void test_limits(void) {
  /* operand k of "lambda s: x and x and ..." starts at column 11 + 6k: the 65th at 395 */
  limit("lambda s: ", "s", " and ", 64, "", "<udf>:1:395: unsupported: a boolean expression of "
        "more than 64 operands\n    ...", 's', __LINE__);
  limit("lambda s: ", "s", " or ", 64, "", "<udf>:1:331: unsupported: a boolean expression of "
        "more than 64 operands", 's', __LINE__);
  /* 63 comparisons; the 64th's right operand is at 11 + 4 * 64 */
  limit("lambda s: ", "s", " < ", 64, "", "<udf>:1:267: unsupported: a comparison chain of "
        "more than 63 comparisons", 's', __LINE__);
  limit("lambda s: f'", "{s}x", "", 128, "'", "<udf>:1:11: unsupported: an f-string of more "
        "than 256 parts", 'f', __LINE__);
  limit("lambda s: len([", "s", ",", 256, "])", "<udf>:1:528: unsupported: a list or tuple "
        "display of more than 256 items", 's', __LINE__);
  limit("lambda s: min(", "s", ",", 64, ")", "<udf>:1:143: unsupported: a call of min() of "
        "more than 64 arguments", 's', __LINE__);
  limit("lambda s: max(", "s", ", ", 64, ")", "<udf>:1:207: unsupported: a call of max() of "
        "more than 64 arguments", 's', __LINE__);
  /* unpacking: 64 names take a 64-item tuple; the 65th name is refused */
  char *names = join("def f(s):\n    ", "v", ", ", 64, " = ");
  char *src = join(names, "s", ", ", 64, "\n    return v\n");
  EXPECT_OK(src);
  free(names);
  free(src);
  src = join("def f(s):\n    ", "v", ", ", 65, " = 1\n    return s\n");
  expect(src, strlen(src), NRT_EUNSUPPORTED,
         "<udf>:2:197: unsupported: unpacking into more than 64 names", 'v', __LINE__);
  free(src);
  /* parameters: p0 .. p64 after s */
  char def[1024];
  size_t n = (size_t)snprintf(def, sizeof def, "def f(s");
  for (int i = 0; i < 64; i++)
    n += (size_t)snprintf(def + n, sizeof def - n, ", p%d", i);
  snprintf(def + n, sizeof def - n, "):\n    return s\n");
  EXPECT(def, NRT_EUNSUPPORTED, "<udf>:1:1: unsupported: a function of more than 64 parameters",
         'd');
}

int main(void) {
  test_nul_and_bom();
  test_limits();
  return check_finish("test_front_source");
}

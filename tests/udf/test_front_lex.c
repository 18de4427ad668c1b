/* Tokenizer tests: indentation (spaces, tabs, TabError, dedent errors), line joining,
 * comments, numbers in every base, every string form and escape, f-string tokens, errors with
 * their exact message and location. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/lex.h"

/* Tokenizes src and renders the tokens compactly: names and ops by their text, INT/FLOAT by
 * value, STRING as S<decoded> (or F<body> for f-strings), N for NEWLINE, > for INDENT,
 * < for DEDENT, $ for END. Returns the error message on failure ("ERR l:c msg"). */
static const char *lex_render(const char *src, char *out, size_t cap) {
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  dc.src = src;
  dc.len = strlen(src);
  udf_arena *a = udf_arena_create(NULL);
  udf_token *t;
  int n;
  size_t k = 0;
  out[0] = '\0';
  if (udf_lex(&dc, a, src, strlen(src), (udf_loc){1, 1}, false, &t, &n) != NRT_OK) {
    snprintf(out, cap, "ERR %d:%d %s", dc.d.line, dc.d.col, dc.d.message);
    udf_arena_destroy(a);
    return out;
  }
  for (int i = 0; i < n && k + 64 < cap; i++) {
    if (i) out[k++] = ' ';
    int w = 0;
    switch (t[i].kind) {
    case UDF_T_END: w = snprintf(out + k, cap - k, "$"); break;
    case UDF_T_NEWLINE: w = snprintf(out + k, cap - k, "N"); break;
    case UDF_T_INDENT: w = snprintf(out + k, cap - k, ">"); break;
    case UDF_T_DEDENT: w = snprintf(out + k, cap - k, "<"); break;
    case UDF_T_NAME:
    case UDF_T_OP: w = snprintf(out + k, cap - k, "%.*s", (int)t[i].tlen, t[i].text); break;
    case UDF_T_INT:
      w = snprintf(out + k, cap - k, "%llu", (unsigned long long)t[i].ival);
      break;
    case UDF_T_FLOAT: w = snprintf(out + k, cap - k, "%.17g", t[i].fval); break;
    case UDF_T_STRING:
      if (t[i].is_f)
        w = snprintf(out + k, cap - k, "F<%.*s>", (int)t[i].blen, t[i].body);
      else
        w = snprintf(out + k, cap - k, "S<%.*s>", (int)t[i].value.len, t[i].value.data);
      break;
    }
    k += (size_t)w;
  }
  udf_arena_destroy(a);
  return out;
}

#define LEX_IS(src, want)                                                                    \
  do {                                                                                       \
    char buf_[2048];                                                                         \
    CHECK_EQ_STR(lex_render(src, buf_, sizeof buf_), want);                                  \
  } while (0)

static void test_indentation(void) {
  LEX_IS("def f():\n    return 1\n", "def f ( ) : N > return 1 N < $");
  LEX_IS("if a:\n  if b:\n    x\n  y\nz", "if a : N > if b : N > x N < y N < z N $");
  /* blank lines, comment lines and odd comment indentation carry no indentation */
  LEX_IS("if a:\n\n   # c\n        # d\n  x\n\n", "if a : N > x N < $");
  /* several dedents at once, and at the end of input */
  LEX_IS("if a:\n if b:\n  if c:\n   x\ny\n", "if a : N > if b : N > if c : N > x N < < < y N $");
  LEX_IS("if a:\n if b:\n  x", "if a : N > if b : N > x N < < $");
  /* tabs count to the next multiple of 8, and must be consistent */
  LEX_IS("if a:\n\tx\n\ty\n", "if a : N > x N y N < $");
  LEX_IS("if a:\n\tx\n        y\n", "ERR 3:1 inconsistent use of tabs and spaces in indentation");
  LEX_IS("if a:\n    x\n\ty\n", "ERR 3:1 inconsistent use of tabs and spaces in indentation");
  LEX_IS("if a:\n  \tx\n  \ty\n", "if a : N > x N y N < $");
  LEX_IS("if a:\n    x\n  y\n", "ERR 3:4 unindent does not match any outer indentation level");
  /* form feed resets the column */
  LEX_IS("if a:\n  x\n\f  y\n", "if a : N > x N y N < $");
  /* CRLF and CR line ends */
  LEX_IS("if a:\r\n  x\r\n", "if a : N > x N < $");
  LEX_IS("a\rb\r", "a N b N $");
}

static void test_joining(void) {
  LEX_IS("x = (1 +\n     2)\n", "x = ( 1 + 2 ) N $");
  LEX_IS("x = [1,\n# c\n 2]\n", "x = [ 1 , 2 ] N $");
  LEX_IS("x = 1 + \\\n    2\n", "x = 1 + 2 N $");
  LEX_IS("x = {\n}\n", "x = { } N $");
  LEX_IS("x = 1 \\ 2\n", "ERR 1:8 unexpected character after line continuation character");
  LEX_IS("x = (1,\n", "ERR 1:5 '(' was never closed");
  LEX_IS("x = (1]\n", "ERR 1:7 closing parenthesis ']' does not match opening parenthesis '('");
  LEX_IS("x = (1,\n2]\n",
         "ERR 2:2 closing parenthesis ']' does not match opening parenthesis '(' on line 1");
  LEX_IS(")\n", "ERR 1:1 unmatched ')'");
  LEX_IS("x = 1 # comment\n", "x = 1 N $");
  LEX_IS("x\\", "ERR 1:2 unexpected EOF while parsing");
  LEX_IS("", "$");
  LEX_IS("#\\", "$"); /* a backslash ends nothing inside a comment */
  LEX_IS("x\n# c \\\ny\n", "x N y N $");
  LEX_IS("if a:\n  x\n  \\\n  y\n", "if a : N > x N y N < $");
  LEX_IS("\n\n# only a comment\n", "$");
}

static void test_operators(void) {
  LEX_IS("a**=b//=c>>=d<<=e->f:=g...h", "a **= b //= c >>= d <<= e -> f := g ... h N $");
  LEX_IS("a!=b==c<=d>=e<f>g", "a != b == c <= d >= e < f > g N $");
  LEX_IS("a+=1;b-=2;c*=3;d/=4;e%=5;f@=6;g&=7;h|=8;i^=9",
         "a += 1 ; b -= 2 ; c *= 3 ; d /= 4 ; e %= 5 ; f @= 6 ; g &= 7 ; h |= 8 ; i ^= 9 N $");
  LEX_IS("a.b(c)[d]{e}~f@g", "a . b ( c ) [ d ] { e } ~ f @ g N $");
  LEX_IS("x = $\n", "ERR 1:5 invalid syntax");
  LEX_IS("x = a ! b\n", "ERR 1:7 invalid syntax");
  LEX_IS("x = \xe2\x82\xac\n", "ERR 1:5 invalid character '\xe2\x82\xac' (U+20AC)");
  LEX_IS("x = \xc2\xa0\n", "ERR 1:5 invalid non-printable character U+00A0");
}

static void test_names(void) {
  LEX_IS("_a1 b_ \xc3\xa9t\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97",
         "_a1 b_ \xc3\xa9t\xc3\xa9 \xe6\xbc\xa2\xe5\xad\x97 N $");
  /* keywords are names with a keyword id */
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  udf_arena *a = udf_arena_create(NULL);
  udf_token *t;
  int n;
  const char *src = "if not_ lambda None True";
  dc.src = src;
  dc.len = strlen(src);
  CHECK_EQ_INT(udf_lex(&dc, a, src, strlen(src), (udf_loc){1, 1}, false, &t, &n), NRT_OK);
  CHECK_EQ_INT(t[0].kw, UDF_KW_IF);
  CHECK_EQ_INT(t[1].kw, UDF_KW_NONE);
  CHECK_EQ_INT(t[2].kw, UDF_KW_LAMBDA);
  CHECK_EQ_INT(t[3].kw, UDF_KW_NONE_LIT);
  CHECK_EQ_INT(t[4].kw, UDF_KW_TRUE);
  /* locations: 1-based line and column in code points */
  CHECK_EQ_INT(t[1].loc.line, 1);
  CHECK_EQ_INT(t[1].loc.col, 4);
  CHECK_EQ_INT(t[1].end.col, 8);
  udf_arena_destroy(a);
}

static void test_numbers(void) {
  LEX_IS("0 00 0_0 7 1_000 0x1F 0X_f 0o17 0O7 0b101 0B_1",
         "0 0 0 7 1000 31 15 15 7 5 1 N $");
  LEX_IS("9223372036854775807 9223372036854775808",
         "9223372036854775807 9223372036854775808 N $");
  LEX_IS("1.5 1. .5 1e3 1E-2 1_0.2_5 0.0 00.5 1e+2",
         "1.5 1 0.5 1000 0.01 10.25 0 0.5 100 N $");
  LEX_IS("x = 0777", "ERR 1:5 leading zeros in decimal integer literals are not permitted; use "
                     "an 0o prefix for octal integers");
  LEX_IS("1__0", "ERR 1:1 invalid decimal literal");
  LEX_IS("1_", "ERR 1:1 invalid decimal literal");
  LEX_IS("1abc", "ERR 1:1 invalid decimal literal");
  LEX_IS("1e", "ERR 1:1 invalid decimal literal");
  LEX_IS("0x", "ERR 1:1 invalid hexadecimal literal");
  LEX_IS("0xg", "ERR 1:1 invalid hexadecimal literal");
  LEX_IS("0b12", "ERR 1:4 invalid digit '2' in binary literal");
  LEX_IS("0o8", "ERR 1:3 invalid digit '8' in octal literal");
  LEX_IS("1j", "ERR 1:1 unsupported: complex numbers");
  LEX_IS("18446744073709551616", "ERR 1:1 unsupported: integer literal out of the 64-bit range");
  LEX_IS("9223372036854775809", "ERR 1:1 unsupported: integer literal out of the 64-bit range");
}

static void test_strings(void) {
  LEX_IS("'a' \"b\" '''c\nd''' \"\"\"e\"f\"\"\"", "S<a> S<b> S<c\nd> S<e\"f> N $");
  LEX_IS("r'\\n' R\"\\t\" u'x' U'y' rb", "S<\\n> S<\\t> S<x> S<y> rb N $");
  LEX_IS("r'\\''", "S<\\'> N $");
  LEX_IS("'a\\\nb'", "S<ab> N $");
  LEX_IS("'''a\r\nb'''", "S<a\nb> N $");
  LEX_IS("f'{x}' F\"a{{\" rf'\\d{y}' fR'z' Rf'w'",
         "F<{x}> F<a{{> F<\\d{y}> F<z> F<w> N $");
  LEX_IS("b'x'", "ERR 1:1 unsupported: bytes literals");
  LEX_IS("x = 'abc\n", "ERR 1:5 unterminated string literal (detected at line 1)");
  LEX_IS("x = 'abc", "ERR 1:5 unterminated string literal (detected at line 1)");
  LEX_IS("x = '''abc\n\n", "ERR 1:5 unterminated triple-quoted string literal (detected at line 3)");
  LEX_IS("x = f\"abc", "ERR 1:5 unterminated string literal (detected at line 1)");
  LEX_IS("ur'x'", "ur S<x> N $"); /* ur is not a prefix: a name then a string */
}

static void escape_is(const char *body, const char *want, size_t want_len) {
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  udf_arena *a = udf_arena_create(NULL);
  udf_strlit s = {NULL, 0};
  int rc = udf_lex_decode_string(&dc, a, body, strlen(body), false, (udf_loc){1, 1}, &s);
  CHECK_EQ_INT(rc, NRT_OK);
  CHECK_EQ_INT(s.len, (long long)want_len);
  CHECK(rc == NRT_OK && s.len == (int64_t)want_len && memcmp(s.data, want, want_len) == 0);
  CHECK_EQ_INT(s.data[s.len], 0);
  udf_arena_destroy(a);
}

static void escape_error(const char *body, int code, const char *msg) {
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  udf_arena *a = udf_arena_create(NULL);
  udf_strlit s;
  CHECK_EQ_INT(udf_lex_decode_string(&dc, a, body, strlen(body), false, (udf_loc){1, 1}, &s),
               code);
  CHECK_EQ_STR(dc.d.message, msg);
  udf_arena_destroy(a);
}

static void test_escapes(void) {
  escape_is("\\n\\t\\\\\\'\\\"", "\n\t\\'\"", 5);
  escape_is("\\a\\b\\f\\v\\r", "\a\b\f\v\r", 5);
  escape_is("\\0", "\0", 1);
  escape_is("\\101\\0101\\7", "A\b1\a", 4); /* at most three octal digits: \010 then 1 */
  escape_is("\\1011", "A1", 2);
  escape_is("\\777", "\xc7\xbf", 2); /* U+01FF, as CPython (with a warning) */
  escape_is("\\x41\\x7e\\xe9\\xff", "A~\xc3\xa9\xc3\xbf", 6);
  escape_is("\\u00e9\\u20ac\\uFFFD", "\xc3\xa9\xe2\x82\xac\xef\xbf\xbd", 8);
  escape_is("\\U0001F600\\U00000041", "\xf0\x9f\x98\x80" "A", 5);
  escape_is("\\d\\w\\ \\q", "\\d\\w\\ \\q", 8); /* unknown escapes keep the backslash */
  escape_is("a\\\nb", "ab", 2);                 /* backslash-newline joins */
  escape_is("\\", "\\", 1);
  escape_error("ab\\x4", NRT_EPARSE,
               "(unicode error) 'unicodeescape' codec can't decode bytes in position 2-4: "
               "truncated \\xXX escape");
  escape_error("\\x", NRT_EPARSE,
               "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-1: "
               "truncated \\xXX escape");
  escape_error("\\u12", NRT_EPARSE,
               "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-3: "
               "truncated \\uXXXX escape");
  escape_error("\\U1234567", NRT_EPARSE,
               "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-8: "
               "truncated \\UXXXXXXXX escape");
  escape_error("\\U00110000", NRT_EPARSE,
               "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-9: "
               "illegal Unicode character");
  escape_error("\\ud800", NRT_EUNSUPPORTED,
               "unsupported: surrogate code point \\uD800 in a string literal (strings are "
               "UTF-8)");
  escape_error("\\N{BULLET}", NRT_EUNSUPPORTED,
               "unsupported: \\N{...} escapes (write the character or use \\uXXXX)");
  /* raw strings keep everything */
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  udf_arena *a = udf_arena_create(NULL);
  udf_strlit s;
  CHECK_EQ_INT(udf_lex_decode_string(&dc, a, "\\x4\\N{", 6, true, (udf_loc){1, 1}, &s), NRT_OK);
  CHECK_EQ_STR(s.data, "\\x4\\N{");
  udf_arena_destroy(a);
}

static void test_expr_mode(void) {
  /* f-string fields are tokenized as if inside brackets, from a given location */
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  udf_arena *a = udf_arena_create(NULL);
  udf_token *t;
  int n;
  const char *src = "x +\n y";
  dc.src = src;
  dc.len = strlen(src);
  CHECK_EQ_INT(udf_lex(&dc, a, src, strlen(src), (udf_loc){3, 10}, true, &t, &n), NRT_OK);
  CHECK_EQ_INT(n, 4);
  CHECK_EQ_INT(t[0].loc.line, 3);
  CHECK_EQ_INT(t[0].loc.col, 10);
  CHECK_EQ_INT(t[1].loc.col, 12);
  CHECK_EQ_INT(t[2].loc.line, 4);
  CHECK_EQ_INT(t[2].loc.col, 2);
  CHECK_EQ_INT(t[3].kind, UDF_T_END);
  udf_arena_destroy(a);
}

int main(void) {
  struct check_live before = check_live_now();
  test_indentation();
  test_joining();
  test_operators();
  test_names();
  test_numbers();
  test_strings();
  test_escapes();
  test_expr_mode();
  CHECK_NO_LEAK(before);
  return check_finish("test_front_lex");
}

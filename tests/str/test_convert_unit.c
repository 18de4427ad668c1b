/* Unit tests of nrt's conversions and padding: Python's documented edge cases, identity
 * results (the input itself when nothing changes), size queries, and the managed wrappers. */
#include "nrt/str_convert.h"
#include "support/check.h"

#include <math.h>
#include <pthread.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ helpers */

static int64_t to_int(const char *s, int base, int *rc, char *msg) {
  struct nrt_error err = {0};
  int64_t v = -777;
  *rc = nrt_str_to_int64(s, (int64_t)strlen(s), base, &v, &err);
  strcpy(msg, err.message);
  return v;
}

#define CHECK_INT(text, base, want)                                                         \
  do {                                                                                     \
    int rc_;                                                                               \
    char m_[NRT_ERROR_MESSAGE_SIZE];                                                       \
    int64_t v_ = to_int(text, base, &rc_, m_);                                             \
    CHECK_EQ_INT(rc_, NRT_OK);                                                             \
    CHECK_EQ_INT(v_, want);                                                                \
  } while (0)

#define CHECK_INT_ERR(text, base, code, message)                                            \
  do {                                                                                     \
    int rc_;                                                                               \
    char m_[NRT_ERROR_MESSAGE_SIZE];                                                       \
    to_int(text, base, &rc_, m_);                                                          \
    CHECK_EQ_INT(rc_, code);                                                               \
    if (message)                                                                           \
      CHECK_EQ_STR(m_, (const char *)(message));                                            \
  } while (0)

static void check_repr(double v, const char *want) {
  char buf[NRT_STR_DOUBLE_MAX_BYTES + 1];
  int64_t n = nrt_str_from_double_into(v, buf);
  buf[n] = '\0';
  CHECK_EQ_STR(buf, want);
  CHECK_EQ_INT(nrt_str_from_double_size(v), n);
}

static double to_double(const char *s, int *rc, char *msg) {
  struct nrt_error err = {0};
  double v = -777;
  *rc = nrt_str_to_double(s, (int64_t)strlen(s), &v, &err);
  strcpy(msg, err.message);
  return v;
}

static void check_float(const char *s, double want) {
  int rc;
  char msg[NRT_ERROR_MESSAGE_SIZE];
  double v = to_double(s, &rc, msg);
  CHECK_EQ_INT(rc, NRT_OK);
  CHECK(memcmp(&v, &want, sizeof v) == 0 || (isnan(v) && isnan(want)));
}

static void check_float_err(const char *s, const char *message) {
  int rc;
  char msg[NRT_ERROR_MESSAGE_SIZE];
  to_double(s, &rc, msg);
  CHECK_EQ_INT(rc, NRT_EVALUE);
  CHECK_EQ_STR(msg, message);
}

/* format(v, spec) through the managed one-call API; "!message" for an expected error. */
static void check_fmt_int(int64_t v, const char *spec, const char *want) {
  nrt_str out;
  struct nrt_error err = {0};
  int rc = nrt_str_format_int(v, spec, (int64_t)strlen(spec), &out, &err);
  if (want[0] == '!') {
    CHECK(rc != NRT_OK);
    CHECK_EQ_STR(err.message, want + 1);
    return;
  }
  CHECK_EQ_INT(rc, NRT_OK);
  if (rc == NRT_OK) {
    char buf[512];
    snprintf(buf, sizeof buf, "%.*s", (int)out.len, out.data);
    CHECK_EQ_STR(buf, want);
    nrt_str_release(&out);
  }
}

static void check_fmt_float(double v, const char *spec, const char *want) {
  nrt_str out;
  struct nrt_error err = {0};
  int rc = nrt_str_format_float(v, spec, (int64_t)strlen(spec), &out, &err);
  if (want[0] == '!') {
    CHECK(rc != NRT_OK);
    CHECK_EQ_STR(err.message, want + 1);
    return;
  }
  CHECK_EQ_INT(rc, NRT_OK);
  if (rc == NRT_OK) {
    char buf[2048];
    snprintf(buf, sizeof buf, "%.*s", (int)out.len, out.data);
    CHECK_EQ_STR(buf, want);
    nrt_str_release(&out);
  }
}

static nrt_str view(const char *s) {
  return nrt_str_view(s, (int64_t)strlen(s));
}

/* Checks a managed result's text, then releases it. */
static void check_str(int rc, nrt_str *out, const char *want) {
  CHECK_EQ_INT(rc, NRT_OK);
  if (rc != NRT_OK)
    return;
  char buf[512];
  snprintf(buf, sizeof buf, "%.*s", (int)out->len, out->data);
  CHECK_EQ_STR(buf, want);
  nrt_str_release(out);
}

/* ------------------------------------------------------------------ str(int), int(str) */

static void test_str_int(void) {
  char buf[NRT_STR_INT64_MAX_BYTES];
  int64_t n = nrt_str_from_int64_into(INT64_MIN, buf);
  CHECK_EQ_INT(n, 20);
  CHECK(memcmp(buf, "-9223372036854775808", 20) == 0);
  CHECK_EQ_INT(nrt_str_from_int64_size(INT64_MIN), 20);
  CHECK_EQ_INT(nrt_str_from_int64_size(0), 1);
  CHECK_EQ_INT(nrt_str_from_int64_size(-9), 2);
  CHECK_EQ_INT(nrt_str_from_int64_size(INT64_MAX), 19);
  nrt_str s;
  check_str(nrt_str_from_int64(7, &s, NULL), &s, "7");
  CHECK(nrt_str_from_int64(7, &s, NULL) == NRT_OK && s.mi == NULL); /* static one-char view */
  check_str(nrt_str_from_int64(-1234567, &s, NULL), &s, "-1234567");
}

static void test_int_parse(void) {
  CHECK_INT("0", 10, 0);
  CHECK_INT("  -42\n", 10, -42);
  CHECK_INT("+7", 10, 7);
  CHECK_INT("1_000_000", 10, 1000000);
  CHECK_INT("0x_ff", 16, 255);
  CHECK_INT("0XfF", 0, 255);
  CHECK_INT("0o17", 0, 15);
  CHECK_INT("0b101", 0, 5);
  CHECK_INT("0b101", 16, 0xb101);
  CHECK_INT("00", 0, 0);
  CHECK_INT("0_0", 0, 0);
  CHECK_INT("z", 36, 35);
  CHECK_INT("\xd9\xa1\xd9\xa2\xd9\xa3", 10, 123);  /* Arabic-Indic digits */
  CHECK_INT("\xe2\x80\x83" "5\xe3\x80\x80", 10, 5); /* em space, ideographic space */
  CHECK_INT("\xc2\x85" "5", 10, 5);                  /* NEL is whitespace */
  CHECK_INT("9223372036854775807", 10, INT64_MAX);
  CHECK_INT("-9223372036854775808", 10, INT64_MIN);
  CHECK_INT("-0x8000000000000000", 0, INT64_MIN);
  CHECK_INT_ERR("010", 0, NRT_EVALUE, "invalid literal for int() with base 0: '010'");
  CHECK_INT_ERR("", 10, NRT_EVALUE, "invalid literal for int() with base 10: ''");
  CHECK_INT_ERR(" ", 10, NRT_EVALUE, "invalid literal for int() with base 10: ' '");
  CHECK_INT_ERR("1__0", 10, NRT_EVALUE, "invalid literal for int() with base 10: '1__0'");
  CHECK_INT_ERR("_1", 10, NRT_EVALUE, "invalid literal for int() with base 10: '_1'");
  CHECK_INT_ERR("1_", 10, NRT_EVALUE, "invalid literal for int() with base 10: '1_'");
  CHECK_INT_ERR("0x__1", 16, NRT_EVALUE, "invalid literal for int() with base 16: '0x__1'");
  CHECK_INT_ERR("0x", 16, NRT_EVALUE, "invalid literal for int() with base 16: '0x'");
  CHECK_INT_ERR("- 1", 10, NRT_EVALUE, "invalid literal for int() with base 10: '- 1'");
  CHECK_INT_ERR("\x1c" "5", 10, NRT_EVALUE, "invalid literal for int() with base 10: '\\x1c5'");
  CHECK_INT_ERR("it's", 10, NRT_EVALUE, "invalid literal for int() with base 10: \"it's\"");
  CHECK_INT_ERR("'\"", 10, NRT_EVALUE, "invalid literal for int() with base 10: '\\'\"'");
  CHECK_INT_ERR("\xe2\x80\x8b", 10, NRT_EVALUE,
                "invalid literal for int() with base 10: '\\u200b'");
  CHECK_INT_ERR("\xf0\x9f\x98\x80", 10, NRT_EVALUE,
                "invalid literal for int() with base 10: '\xf0\x9f\x98\x80'");
  CHECK_INT_ERR("1", 1, NRT_EVALUE, "int() base must be >= 2 and <= 36, or 0");
  CHECK_INT_ERR("1", 37, NRT_EVALUE, "int() base must be >= 2 and <= 36, or 0");
  CHECK_INT_ERR("9223372036854775808", 10, NRT_EOVERFLOW, NULL);
  CHECK_INT_ERR("-9223372036854775809", 10, NRT_EOVERFLOW, NULL);
  /* A syntax error wins over overflow. */
  CHECK_INT_ERR("99999999999999999999x", 10, NRT_EVALUE, NULL);
  /* NUL inside the text is an invalid character, not an end. */
  {
    int64_t v;
    CHECK_EQ_INT(nrt_str_to_int64("1\0", 2, 10, &v, NULL), NRT_EVALUE);
    CHECK_EQ_INT(nrt_str_to_int64(NULL, 0, 10, &v, NULL), NRT_EVALUE);
  }
  /* CPython's int_max_str_digits (4300) for bases that are not powers of two. */
  {
    static char big[4302];
    memset(big, '1', 4301);
    int rc;
    char msg[NRT_ERROR_MESSAGE_SIZE];
    to_int(big, 10, &rc, msg);
    CHECK_EQ_INT(rc, NRT_EVALUE);
    CHECK_EQ_STR(msg, "Exceeds the limit (4300 digits) for integer string conversion: value "
                      "has 4301 digits; use sys.set_int_max_str_digits() to increase the limit");
    to_int(big, 16, &rc, msg); /* power of two: no limit, just too big for int64 */
    CHECK_EQ_INT(rc, NRT_EOVERFLOW);
    /* A long literal's message quotes at most 200 characters of its repr. */
    memset(big, 'x', 4301);
    to_int(big, 10, &rc, msg);
    CHECK_EQ_INT(rc, NRT_EVALUE);
    CHECK_EQ_INT(strlen(msg), strlen("invalid literal for int() with base 10: ") + 200);
  }
}

/* ------------------------------------------------------------------ float */

static void test_float_parse(void) {
  check_float("1.5", 1.5);
  check_float("  -2.5e-3 \t", -2.5e-3);
  check_float("1_000.000_1", 1000.0001);
  check_float("1e1_0", 1e10);
  check_float(".5", 0.5);
  check_float("5.", 5.0);
  check_float("-0", -0.0);
  check_float("inf", INFINITY);
  check_float("-Infinity", -INFINITY);
  check_float("+nAn", NAN);
  check_float("1e400", INFINITY);
  check_float("-1e-400", -0.0);
  check_float("4.9406564584124654e-324", 5e-324);
  check_float("2.4703282292062327e-324", 0.0);  /* below half the smallest subnormal */
  check_float("2.4703282292062328e-324", 5e-324); /* above it */
  check_float("9007199254740993", 9007199254740992.0); /* halfway: to even */
  check_float("9007199254740995", 9007199254740996.0);
  check_float("\xd9\xa1.\xd9\xa5", 1.5); /* Arabic-Indic digits */
  check_float("0.1000000000000000055511151231257827021181583404541015625", 0.1);
  {
    /* 1 + 2^-53, halfway between 1 and the next double: ties to even; one nonzero digit
     * 900 places further (beyond the 800 digits kept) rounds up. */
    static char buf[1100];
    const char *half = "1.00000000000000011102230246251565404236316680908203125";
    snprintf(buf, sizeof buf, "%s%0900d", half, 0);
    check_float(buf, 1.0);
    snprintf(buf, sizeof buf, "%s%0900d1", half, 0);
    check_float(buf, 1.0000000000000002);
  }
  check_float_err("", "could not convert string to float: ''");
  check_float_err("0x1p3", "could not convert string to float: '0x1p3'");
  check_float_err("1e", "could not convert string to float: '1e'");
  check_float_err(".", "could not convert string to float: '.'");
  check_float_err("infinit", "could not convert string to float: 'infinit'");
  check_float_err("nan(1)", "could not convert string to float: 'nan(1)'");
  check_float_err("1__0", "could not convert string to float: '1__0'");
  check_float_err("1_.5", "could not convert string to float: '1_.5'");
  check_float_err("_1", "could not convert string to float: '_1'");
  check_float_err("1_e5", "could not convert string to float: '1_e5'");
  check_float_err("\x1c" "1", "could not convert string to float: '\\x1c1'");
  check_float_err("1 2", "could not convert string to float: '1 2'");
}

static void test_repr(void) {
  check_repr(0.0, "0.0");
  check_repr(-0.0, "-0.0");
  check_repr(INFINITY, "inf");
  check_repr(-INFINITY, "-inf");
  check_repr(NAN, "nan");
  check_repr(-NAN, "nan");
  check_repr(1.0, "1.0");
  check_repr(0.1, "0.1");
  check_repr(1e16, "1e+16");
  check_repr(9999999999999998.0, "9999999999999998.0");
  check_repr(1e-5, "1e-05");
  check_repr(0.0001, "0.0001");
  check_repr(123456789012345.0, "123456789012345.0");
  check_repr(1.5e300, "1.5e+300");
  check_repr(5e-324, "5e-324");
  check_repr(1.7976931348623157e308, "1.7976931348623157e+308");
  check_repr(-2.2250738585072014e-308, "-2.2250738585072014e-308");
  check_repr(2.0 / 3.0, "0.6666666666666666");
  check_repr(1e22, "1e+22");
  check_repr(1e23, "1e+23");
  check_repr(0x1p-1022, "2.2250738585072014e-308");
  check_repr(9007199254740992.0, "9007199254740992.0");
  nrt_str s;
  check_str(nrt_str_from_double(-1.25, &s, NULL), &s, "-1.25");
}

/* ------------------------------------------------------------------ format */

static void test_format(void) {
  check_fmt_int(1234, "", "1234");
  check_fmt_int(1234, ",", "1,234");
  check_fmt_int(1234, "010,", "00,001,234");
  check_fmt_int(1, "04,", "0,001");
  check_fmt_int(-42, "=+8", "-     42");
  check_fmt_int(42, "+", "+42");
  check_fmt_int(42, " ", " 42");
  check_fmt_int(255, "#x", "0xff");
  check_fmt_int(255, "#X", "0XFF");
  check_fmt_int(255, "#010_x", "0x000_00ff");
  check_fmt_int(-255, "#b", "-0b11111111");
  check_fmt_int(8, "#o", "0o10");
  check_fmt_int(5, "<05", "50000");
  check_fmt_int(5, "x<05", "5xxxx");
  check_fmt_int(5, "*^6", "**5***");
  check_fmt_int(5, "\xc3\xa9>3", "\xc3\xa9\xc3\xa9" "5");
  check_fmt_int(65, "c", "A");
  check_fmt_int(0x1F600, ">3c", "  \xf0\x9f\x98\x80");
  check_fmt_int(5, "e", "5.000000e+00");
  check_fmt_int(5, "%", "500.000000%");
  check_fmt_int(INT64_MIN, "_", "-9_223_372_036_854_775_808");
  check_fmt_int(5, "n", "5");
  check_fmt_int(5, "abc", "!Invalid format specifier 'abc' for object of type 'int'");
  check_fmt_int(5, ".2", "!Precision not allowed in integer format specifier");
  check_fmt_int(5, "z", "!Negative zero coercion (z) not allowed in integer format specifier");
  check_fmt_int(5, "+c", "!Sign not allowed with integer format specifier 'c'");
  check_fmt_int(5, "#c", "!Alternate form (#) not allowed with integer format specifier 'c'");
  check_fmt_int(-1, "c", "!%c arg not in range(0x110000)");
  check_fmt_int(5, ",x", "!Cannot specify ',' with 'x'.");
  check_fmt_int(5, "_,", "!Cannot specify both ',' and '_'.");
  check_fmt_int(5, ",_", "!Cannot specify both ',' and '_'.");
  check_fmt_int(5, ".", "!Format specifier missing precision");
  check_fmt_int(5, "s", "!Unknown format code 's' for object of type 'int'");
  check_fmt_int(5, "\x01", "!Unknown format code '\\x1' for object of type 'int'");
  check_fmt_int(5, "\xc3\xa9", "!Unknown format code '\\xe9' for object of type 'int'");
  check_fmt_int(5, "111111111111111111111111111111",
                "!Too many decimal digits in format string");

  check_fmt_float(1234.5678, "", "1234.5678");
  check_fmt_float(1e16, "", "1e+16");
  check_fmt_float(12.0, ".2", "1.2e+01");
  check_fmt_float(1.0, ".3", "1.0");
  check_fmt_float(1234.5678, ",.2f", "1,234.57");
  check_fmt_float(1234.5678, "^12,.2f", "  1,234.57  ");
  check_fmt_float(-0.0, "z.1f", "0.0");
  check_fmt_float(-0.001, ".1f", "-0.0");
  check_fmt_float(1234.5, "#.0f", "1234.");
  check_fmt_float(0.125, ".2f", "0.12"); /* exact tie: to even */
  check_fmt_float(0.5, ".0f", "0");
  check_fmt_float(1.5, ".0f", "2");
  check_fmt_float(INFINITY, "010", "0000000inf");
  check_fmt_float(-INFINITY, "F", "-INF");
  check_fmt_float(NAN, "+E", "+NAN");
  check_fmt_float(1e-5, "g", "1e-05");
  check_fmt_float(123456789.0, "g", "1.23457e+08");
  check_fmt_float(100.0, "#g", "100.000");
  check_fmt_float(0.5, "%", "50.000000%");
  check_fmt_float(0.5, ".0%", "50%");
  check_fmt_float(1.0, "+.3e", "+1.000e+00");
  check_fmt_float(1e300, ".3E", "1.000E+300");
  check_fmt_float(-1.5, "=+10.2f", "-     1.50");
  check_fmt_float(1.5, "010.2f", "0000001.50");
  check_fmt_float(1.5, "d", "!Unknown format code 'd' for object of type 'float'");
  check_fmt_float(1.5, "abc", "!Invalid format specifier 'abc' for object of type 'float'");
  check_fmt_float(1.5, ".3000000000", "!precision too big");
  /* A huge precision: the zeros past a double's last digit. */
  {
    nrt_format_spec f;
    CHECK_EQ_INT(nrt_format_spec_parse(">5000.2000f", 11, NRT_FORMAT_FLOAT, &f, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_str_format_float_size(0.1, &f), 5000);
    static char big[5000];
    CHECK_EQ_INT(nrt_str_format_float_into(0.1, &f, big), 5000);
    CHECK(big[0] == ' ' && big[2997] == ' ' && big[2998] == '0' && big[2999] == '.');
    CHECK(memcmp(big + 3000, "1000000000000000055511151231257827", 34) == 0);
    CHECK(big[4999] == '0');
  }
  /* A huge zero-padded width is measured without a step per zero (the fuzzer's 5e9 took
   * minutes), and written as the digits after the zeros. */
  {
    nrt_format_spec f;
    int64_t size = 0;
    CHECK_EQ_INT(nrt_format_spec_parse("05000000000X", 12, NRT_FORMAT_INT, &f, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_str_format_int_size(-255, &f, &size, NULL), NRT_OK);
    CHECK_EQ_INT(size, 5000000000);
    CHECK_EQ_INT(nrt_format_spec_parse("+08x", 4, NRT_FORMAT_INT, &f, NULL), NRT_OK);
    char small[8];
    CHECK_EQ_INT(nrt_str_format_int_into(255, &f, small), 8);
    CHECK(memcmp(small, "+00000ff", 8) == 0);
  }
}

/* ------------------------------------------------------------------ ord, chr */

static void test_ord_chr(void) {
  int64_t v;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_str_ord("a", 1, &v, NULL), NRT_OK);
  CHECK_EQ_INT(v, 97);
  CHECK_EQ_INT(nrt_str_ord("\xf0\x9f\x98\x80", 4, &v, NULL), NRT_OK);
  CHECK_EQ_INT(v, 0x1F600);
  CHECK_EQ_INT(nrt_str_ord("ab", 2, &v, &err), NRT_ETYPE);
  CHECK_EQ_STR(err.message, "ord() expected a character, but string of length 2 found");
  CHECK_EQ_INT(nrt_str_ord("", 0, &v, &err), NRT_ETYPE);
  CHECK_EQ_STR(err.message, "ord() expected a character, but string of length 0 found");
  CHECK_EQ_INT(nrt_str_ord("\xc3\xa9\xc3\xa9", 4, &v, &err), NRT_ETYPE);
  CHECK_EQ_STR(err.message, "ord() expected a character, but string of length 2 found");

  nrt_str s;
  check_str(nrt_str_chr(65, &s, NULL), &s, "A");
  check_str(nrt_str_chr(0x10FFFF, &s, NULL), &s, "\xf4\x8f\xbf\xbf");
  check_str(nrt_str_chr(0, &s, NULL), &s, "");
  CHECK_EQ_INT(nrt_str_chr(0x110000, &s, &err), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "chr() arg not in range(0x110000)");
  CHECK_EQ_INT(nrt_str_chr(-1, &s, &err), NRT_EVALUE);
  CHECK_EQ_INT(nrt_str_chr(0xD800, &s, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "surrogate") != NULL);
  CHECK_EQ_INT(nrt_str_chr(INT64_C(1) << 40, &s, &err), NRT_EOVERFLOW);
  char buf[4];
  CHECK_EQ_INT(nrt_str_chr_into(0xE9, buf), 2);
  CHECK_EQ_INT(nrt_str_chr_into(0xDFFF, buf), -1);
}

/* ------------------------------------------------------------------ padding */

static void test_padding(void) {
  nrt_str s, in, fill;
  struct nrt_error err = {0};
  in = view("abc");
  check_str(nrt_str_center(&in, 6, NULL, &s, NULL), &s, " abc  ");
  check_str(nrt_str_center(&in, 7, NULL, &s, NULL), &s, "  abc  ");
  in = view("ab");
  check_str(nrt_str_center(&in, 5, NULL, &s, NULL), &s, "  ab ");  /* marg & width & 1 */
  in = view("abc");
  check_str(nrt_str_center(&in, 4, NULL, &s, NULL), &s, "abc ");
  fill = view("\xc3\xa9");
  check_str(nrt_str_ljust(&in, 5, &fill, &s, NULL), &s, "abc\xc3\xa9\xc3\xa9");
  check_str(nrt_str_rjust(&in, 5, &fill, &s, NULL), &s, "\xc3\xa9\xc3\xa9" "abc");
  fill = view("ab");
  CHECK_EQ_INT(nrt_str_center(&in, 5, &fill, &s, &err), NRT_ETYPE);
  CHECK_EQ_STR(err.message, "The fill character must be exactly one character long");
  fill = view("");
  CHECK_EQ_INT(nrt_str_ljust(&in, 1, &fill, &s, &err), NRT_ETYPE);
  /* Width in code points. */
  in = view("\xc3\xa9t\xc3\xa9");
  check_str(nrt_str_rjust(&in, 4, NULL, &s, NULL), &s, " \xc3\xa9t\xc3\xa9");
  CHECK_EQ_INT(nrt_str_rjust_size(in.data, in.len, 4, ' '), 6);
  CHECK_EQ_INT(nrt_str_center_size(in.data, in.len, -5, ' '), 5);

  in = view("42");
  check_str(nrt_str_zfill(&in, 5, &s, NULL), &s, "00042");
  in = view("-42");
  check_str(nrt_str_zfill(&in, 5, &s, NULL), &s, "-0042");
  in = view("+");
  check_str(nrt_str_zfill(&in, 3, &s, NULL), &s, "+00");
  in = view("");
  check_str(nrt_str_zfill(&in, 2, &s, NULL), &s, "00");
  in = view("a-");
  check_str(nrt_str_zfill(&in, 3, &s, NULL), &s, "0a-");

  in = view("a\tb\n\tc\r12\t|");
  check_str(nrt_str_expandtabs(&in, 8, &s, NULL), &s, "a       b\n        c\r12      |");
  check_str(nrt_str_expandtabs(&in, 0, &s, NULL), &s, "ab\nc\r12|");
  check_str(nrt_str_expandtabs(&in, -3, &s, NULL), &s, "ab\nc\r12|");
  check_str(nrt_str_expandtabs(&in, 1, &s, NULL), &s, "a b\n c\r12 |");
  in = view("\xc3\xa9\t.");
  check_str(nrt_str_expandtabs(&in, 4, &s, NULL), &s, "\xc3\xa9   .");
  in = view("x\t");
  check_str(nrt_str_expandtabs(&in, 2, &s, NULL), &s, "x "); /* same length, not the input */
  CHECK_EQ_INT(nrt_str_expandtabs(&in, INT64_C(1) << 40, &s, &err), NRT_EOVERFLOW);

  in = view("prefix-body");
  nrt_str affix = view("prefix-");
  check_str(nrt_str_removeprefix(&in, &affix, &s, NULL), &s, "body");
  affix = view("-body");
  check_str(nrt_str_removesuffix(&in, &affix, &s, NULL), &s, "prefix");
  affix = view("");
  check_str(nrt_str_removeprefix(&in, &affix, &s, NULL), &s, "prefix-body");
  affix = view("prefix-body");
  check_str(nrt_str_removeprefix(&in, &affix, &s, NULL), &s, "");
  affix = view("prefix-body!");
  check_str(nrt_str_removesuffix(&in, &affix, &s, NULL), &s, "prefix-body");
}

/* Results equal to the input are the input itself, retained, with no allocation. */
static void test_identity(void) {
  nrt_str m, s, affix = view("zz"), fill = view("*");
  CHECK_EQ_INT(nrt_str_new("hello\tworld", 11, &m, NULL), NRT_OK);
  struct check_live before = check_live_now();
  size_t rc0 = nrt_mi_refcount(m.mi);
  CHECK_EQ_INT(nrt_str_ljust(&m, 5, &fill, &s, NULL), NRT_OK);
  CHECK(s.mi == m.mi && s.data == m.data);
  CHECK_EQ_INT(nrt_mi_refcount(m.mi), rc0 + 1);
  nrt_str_release(&s);
  CHECK_EQ_INT(nrt_str_center(&m, 11, NULL, &s, NULL), NRT_OK);
  CHECK(s.mi == m.mi);
  nrt_str_release(&s);
  CHECK_EQ_INT(nrt_str_zfill(&m, -1, &s, NULL), NRT_OK);
  CHECK(s.mi == m.mi);
  nrt_str_release(&s);
  CHECK_EQ_INT(nrt_str_removeprefix(&m, &affix, &s, NULL), NRT_OK);
  CHECK(s.mi == m.mi);
  nrt_str_release(&s);
  CHECK_EQ_INT(nrt_str_removesuffix(&m, &affix, &s, NULL), NRT_OK);
  CHECK(s.mi == m.mi);
  nrt_str_release(&s);
  CHECK_EQ_INT(nrt_mi_refcount(m.mi), rc0);
  CHECK_NO_LEAK(before);
  nrt_str_release(&m);
  /* A borrowed input comes back as the same view. */
  nrt_str v = view("no tabs");
  CHECK_EQ_INT(nrt_str_expandtabs(&v, 4, &s, NULL), NRT_OK);
  CHECK(s.mi == NULL && s.data == v.data && s.len == v.len);
}

/* Every function is pure: threads converting at once get what one thread gets (and TSan
 * sees no shared state). Each thread formats, parses and pads the same values. */
#define THREAD_VALUES 2000

static void thread_work(uint64_t seed, char *out, size_t cap) {
  size_t pos = 0;
  nrt_format_spec fi, ff;
  nrt_format_spec_parse("*^+30,", 6, NRT_FORMAT_INT, &fi, NULL);
  nrt_format_spec_parse(">25.10e", 7, NRT_FORMAT_FLOAT, &ff, NULL);
  int count = getenv("NRT_UNDER_VALGRIND") ? THREAD_VALUES / 10 : THREAD_VALUES;
  for (int i = 0; i < count && pos + 200 < cap; i++) {
    seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
    double d;
    uint64_t bits = seed ^ (seed >> 29);
    memcpy(&d, &bits, 8);
    int64_t n = nrt_str_from_double_into(d, out + pos);
    double back = 0;
    nrt_str_to_double(out + pos, n, &back, NULL);
    out[pos + n] = memcmp(&back, &d, 8) == 0 || d != d ? '=' : '!';
    pos += (size_t)n + 1;
    n = nrt_str_from_int64_into((int64_t)seed, out + pos);
    int64_t iv = 0;
    nrt_str_to_int64(out + pos, n, 0, &iv, NULL);
    out[pos + n] = iv == (int64_t)seed ? '=' : '!';
    pos += (size_t)n + 1;
    int64_t size;
    nrt_str_format_int_size((int64_t)seed, &fi, &size, NULL);
    pos += (size_t)nrt_str_format_int_into((int64_t)seed, &fi, out + pos);
    pos += (size_t)nrt_str_format_float_into(d, &ff, out + pos);
    pos += (size_t)nrt_str_center_into("ab\xc3\xa9", 4, 9, 0x1F600, out + pos);
  }
  out[pos] = '\0';
}

static void *thread_main(void *arg) {
  char *buf = (char *)arg;
  thread_work(42, buf, 1 << 20);
  return NULL;
}

static void test_threads(void) {
  enum { THREADS = 4 };
  static char bufs[THREADS + 1][1 << 20];
  pthread_t th[THREADS];
  for (int i = 0; i < THREADS; i++)
    CHECK_EQ_INT(pthread_create(&th[i], NULL, thread_main, bufs[i]), 0);
  thread_work(42, bufs[THREADS], sizeof bufs[THREADS]);
  for (int i = 0; i < THREADS; i++) {
    pthread_join(th[i], NULL);
    CHECK(strcmp(bufs[i], bufs[THREADS]) == 0);
  }
  CHECK(strchr(bufs[THREADS], '!') == NULL); /* every round trip held */
}

int main(void) {
  struct check_live start = check_live_now();
  test_str_int();
  test_int_parse();
  test_float_parse();
  test_repr();
  test_format();
  test_ord_chr();
  test_padding();
  test_identity();
  test_threads();
  CHECK_NO_LEAK(start);
  return check_finish("test_str_convert_unit");
}

/* Unit tests of the case mapping and predicate operations: the cases Python documents
 * (SpecialCasing expansions, Final_Sigma, titlecase digraphs, title's word rule), empty
 * strings, the identity-returning managed wrappers, and failure injection on every managed
 * wrapper. The expected strings are CPython 3.11's results. */
#include <stdlib.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "support/check.h"

typedef int (*managed_fn)(const nrt_str *, nrt_str *, struct nrt_error *);
typedef int64_t (*size_fn)(const char *, int64_t);
typedef int64_t (*into_fn)(const char *, int64_t, char *);

struct op {
  const char *name;
  size_fn size;
  into_fn into;
  managed_fn managed;
};

static const struct op OPS[] = {
    {"upper", nrt_str_upper_size, nrt_str_upper_into, nrt_str_upper},
    {"lower", nrt_str_lower_size, nrt_str_lower_into, nrt_str_lower},
    {"casefold", nrt_str_casefold_size, nrt_str_casefold_into, nrt_str_casefold},
    {"capitalize", nrt_str_capitalize_size, nrt_str_capitalize_into, nrt_str_capitalize},
    {"title", nrt_str_title_size, nrt_str_title_into, nrt_str_title},
    {"swapcase", nrt_str_swapcase_size, nrt_str_swapcase_into, nrt_str_swapcase},
};
#define NOPS (sizeof OPS / sizeof OPS[0])

static const struct op *find_op(const char *name) {
  for (size_t i = 0; i < NOPS; i++)
    if (strcmp(OPS[i].name, name) == 0)
      return &OPS[i];
  return NULL;
}

/* Checks kernel and managed results of op(input) == want. */
static void expect(const char *name, const char *input, const char *want) {
  const struct op *op = find_op(name);
  int64_t len = (int64_t)strlen(input), wlen = (int64_t)strlen(want);
  char buf[256];
  int64_t n = op->size(input, len);
  int64_t w = op->into(input, len, buf);
  buf[w < 0 ? 0 : w] = 0;
  if (n != wlen || w != wlen || memcmp(buf, want, (size_t)wlen) != 0)
    check_failf(__FILE__, __LINE__, "%s(\"%s\") = \"%s\" (size %lld), want \"%s\"", name,
                input, buf, (long long)n, want);
  else
    check_pass();
  nrt_str in, out;
  CHECK_EQ_INT(nrt_str_new(input, len, &in, NULL), NRT_OK);
  CHECK_EQ_INT(op->managed(&in, &out, NULL), NRT_OK);
  CHECK_EQ_INT(out.len, wlen);
  CHECK(memcmp(out.data, want, (size_t)wlen) == 0);
  nrt_str_release(&out);
  nrt_str_release(&in);
}

static void test_mappings(void) {
  expect("upper", "stra\xc3\x9f" "e \xef\xac\x81 \xc5\x89 \xce\x90 \xe1\xbe\xb3",
         "STRASSE FI \xca\xbcN \xce\x99\xcc\x88\xcc\x81 \xce\x91\xce\x99");
  expect("lower", "\xce\x91\xce\xa3 \xce\xa3 \xce\x91\xce\xa3\xce\x91 \xce\x91'\xce\xa3' "
                  "\xc4\xb0STANBUL \xc7\x84" "A",
         "\xce\xb1\xcf\x82 \xcf\x83 \xce\xb1\xcf\x83\xce\xb1 \xce\xb1'\xcf\x82' "
         "i\xcc\x87stanbul \xc7\x86" "a");
  expect("casefold", "Stra\xc3\x9f" "e \xef\xac\x83 \xce\xa3\xce\x91\xce\xa3 \xe1\xbe\xbc \xc4\xb0",
         "strasse ffi \xcf\x83\xce\xb1\xcf\x83 \xce\xb1\xce\xb9 i\xcc\x87");
  expect("capitalize", "\xc7\x86" "emal \xce\xa3\xce\x91\xce\xa3",
         "\xc7\x85" "emal \xcf\x83\xce\xb1\xcf\x82");
  expect("title", "they're \xc7\x86" "emal \xef\xac\x82our \xce\x91\xce\xa3-\xce\x91\xce\xa3 "
                  "\xe1\xbe\xb3\xce\xb2",
         "They'Re \xc7\x85" "emal Flour \xce\x91\xcf\x82-\xce\x91\xcf\x82 \xe1\xbe\xbc\xce\xb2");
  expect("swapcase", "\xce\x91\xce\xa3 \xc7\x85 \xc3\x9f \xc4\xb0\xc4\xb1",
         "\xce\xb1\xcf\x82 \xc7\x85 SS i\xcc\x87I");
  expect("title", "hello world", "Hello World");
  expect("title", "HELLO wORLD 3rd", "Hello World 3Rd");
  expect("capitalize", "hELLO World", "Hello world");
  expect("upper", "abcdefghijklmnopqrstuvwxyz0123456789-ABC", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-ABC");
  expect("lower", "ABCDEFGHIJKLMNOPQRSTUVWXYZ@[`{ \xc3\x80", "abcdefghijklmnopqrstuvwxyz@[`{ \xc3\xa0");
  expect("swapcase", "Hello, World! \xf0\x90\x90\x80", "hELLO, wORLD! \xf0\x90\x90\xa8");
  /* a lone capital sigma is not final; after a cased letter with nothing cased after, it is */
  expect("lower", "\xce\xa3", "\xcf\x83");
  expect("lower", "A\xce\xa3", "a\xcf\x82");
  expect("lower", "A\xce\xa3" "B", "a\xcf\x83" "b");
  expect("lower", "A\xce\xa3\xcc\x81", "a\xcf\x82\xcc\x81");
  expect("lower", "A\xce\xa3\xcc\x81" "B", "a\xcf\x83\xcc\x81" "b");
  expect("lower", ".\xce\xa3", ".\xcf\x83");
  expect("casefold", "A\xce\xa3", "a\xcf\x83"); /* casefold has no Final_Sigma */
}

/* Empty input gives the shared empty string; unchanged input comes back itself. */
static void test_identity(void) {
  struct check_live before = check_live_now();
  for (size_t i = 0; i < NOPS; i++) {
    nrt_str empty = nrt_str_view("", 0), out;
    CHECK_EQ_INT(OPS[i].managed(&empty, &out, NULL), NRT_OK);
    CHECK_EQ_INT(out.len, 0);
    CHECK(out.mi == NULL);
    CHECK_EQ_INT(OPS[i].size("", 0), 0);
  }
  const char *same[] = {"ABC 123", "abc 123", "abc 123", "Abc 123", "Abc Def", "123 ..."};
  for (size_t i = 0; i < NOPS; i++) {
    nrt_str in, out;
    CHECK_EQ_INT(nrt_str_new(same[i], (int64_t)strlen(same[i]), &in, NULL), NRT_OK);
    size_t refs = nrt_mi_refcount(in.mi);
    CHECK_EQ_INT(OPS[i].managed(&in, &out, NULL), NRT_OK);
    CHECK(out.mi == in.mi && out.data == in.data);
    CHECK_EQ_INT(nrt_mi_refcount(in.mi), refs + 1);
    nrt_str_release(&out);
    nrt_str_release(&in);
  }
  CHECK_NO_LEAK(before);
}

static void test_predicates(void) {
  /* empty string: only isascii and isprintable are true */
  CHECK(!nrt_str_isalpha("", 0) && !nrt_str_isalnum("", 0) && !nrt_str_isdecimal("", 0));
  CHECK(!nrt_str_isdigit("", 0) && !nrt_str_isnumeric("", 0) && !nrt_str_isspace("", 0));
  CHECK(!nrt_str_isupper("", 0) && !nrt_str_islower("", 0) && !nrt_str_istitle("", 0));
  CHECK(nrt_str_isascii("", 0) && !nrt_str_isidentifier("", 0) && nrt_str_isprintable("", 0));
#define P(fn, lit) fn(lit, (int64_t)sizeof(lit) - 1)
  CHECK(P(nrt_str_isdigit, "\xc2\xb2") && !P(nrt_str_isdecimal, "\xc2\xb2"));
  CHECK(P(nrt_str_isnumeric, "\xc2\xbd\xe4\xb8\x80") && !P(nrt_str_isdigit, "\xc2\xbd"));
  CHECK(P(nrt_str_isdecimal, "\xd9\xa0\xd9\xa9" "09"));
  CHECK(P(nrt_str_isspace, " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\xc2\x85\xc2\xa0\xe3\x80\x80"));
  CHECK(!P(nrt_str_isspace, "\xe2\x80\x8b")); /* ZERO WIDTH SPACE is Cf */
  CHECK(P(nrt_str_istitle, "Hello World") && !P(nrt_str_istitle, "Hello world"));
  CHECK(P(nrt_str_istitle, "\xc7\x85" "emal") && !P(nrt_str_istitle, "HEllo"));
  CHECK(P(nrt_str_isupper, "ABC 1") && !P(nrt_str_isupper, "123") && !P(nrt_str_isupper, "\xc7\x85"));
  CHECK(P(nrt_str_islower, "abc \xc2\xaa") && !P(nrt_str_islower, "abC"));
  CHECK(P(nrt_str_isidentifier, "_a1\xc3\xa9") && !P(nrt_str_isidentifier, "1a"));
  CHECK(P(nrt_str_isidentifier, "\xe2\x84\x98x") && !P(nrt_str_isidentifier, "a-b"));
  CHECK(!P(nrt_str_isprintable, "a\n") && P(nrt_str_isprintable, "a b") &&
        !P(nrt_str_isprintable, "\xc2\xa0"));
  CHECK(P(nrt_str_isalnum, "a1\xc2\xbd") && !P(nrt_str_isalnum, "a 1"));
  CHECK(P(nrt_str_isascii, "0123456789abcdef\x7f") && !P(nrt_str_isascii, "0123456789abcdef\xc3\xa9"));
#undef P
}

/* Failure injection: every managed wrapper over a managed input that it must change. */
struct fi_ctx {
  size_t op;
};

static int trial(void *p) {
  const struct fi_ctx *ctx = p;
  static const char text[] = "Hello \xce\x91\xce\xa3 stra\xc3\x9f" "e \xef\xac\x81";
  nrt_str in, out;
  struct nrt_error err = {0};
  int rc = nrt_str_new(text, (int64_t)sizeof text - 1, &in, &err);
  if (rc != NRT_OK)
    return rc;
  rc = OPS[ctx->op].managed(&in, &out, &err);
  if (rc == NRT_OK)
    nrt_str_release(&out);
  else
    CHECK_EQ_INT(err.code, NRT_ENOMEM);
  nrt_str_release(&in);
  return rc;
}

static void test_failures(void) {
  for (size_t i = 0; i < NOPS; i++) {
    struct fi_ctx ctx = {i};
    char name[64];
    snprintf(name, sizeof name, "str_%s", OPS[i].name);
    /* the input string plus exactly one allocation for the result */
    CHECK_EQ_INT(check_every_allocation_failure(name, trial, &ctx), 2);
  }
}

int main(void) {
  test_mappings();
  test_identity();
  test_predicates();
  test_failures();
  return check_finish("test_str_case_units");
}

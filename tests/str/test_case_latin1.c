/* The Latin-1 fast path of upper, lower and casefold (src/str/case_latin1.c) against the
 * general path (nrt_str_case_reference: no direct tables, no fast path): every character of
 * U+0080..U+00FF and some beyond it (Greek final sigma, Turkish İ, a ligature, CJK, an emoji)
 * at every position of strings up to 200 bytes long, so that each crosses the 64-byte blocks'
 * edges at every offset, in ASCII, Latin-1 and mixed surroundings. The padded kernels and the
 * managed forms too; strings of up to 64 bytes go through the one-step path (one block), longer
 * ones through the prefix loop. On a CPU without AVX-512BW the same checks cover the general
 * path. */
#include <stdlib.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "str/case_internal.h"
#include "support/check.h"

typedef int64_t (*into_fn)(const char *, int64_t, char *);
typedef int (*managed_fn)(const nrt_str *, nrt_str *, struct nrt_error *);

static const struct {
  const char *name;
  int ref_op;
  into_fn into, into_padded;
  int64_t (*size)(const char *, int64_t);
  managed_fn managed;
} OPS[] = {
#define OP(name, ref)                                                                          \
  {#name, ref, nrt_str_##name##_into, nrt_str_##name##_into_padded, nrt_str_##name##_size,   \
   nrt_str_##name}
    OP(upper, NRT_CASE_REF_UPPER), OP(lower, NRT_CASE_REF_LOWER),
    OP(casefold, NRT_CASE_REF_CASEFOLD), OP(capitalize, NRT_CASE_REF_CAPITALIZE),
#undef OP
};
#define NOPS (sizeof OPS / sizeof OPS[0])

enum { MAX_LEN = 200 };

/* Characters inserted into the strings: beyond Latin-1, each stops the fast path. */
static const char *const BEYOND[] = {"\xce\xa3", "\xc4\xb0", "\xef\xac\x81", "\xe6\xbc\xa2",
                                     "\xf0\x9f\x98\x80", "\xce\x90", "\xc5\xbf"};
#define NBEYOND (sizeof BEYOND / sizeof BEYOND[0])

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static unsigned next(unsigned n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (unsigned)(rng % n);
}

/* Appends code point cp (< 0x800) as UTF-8. */
static int put(char *out, unsigned cp) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  out[0] = (char)(0xC0 | cp >> 6);
  out[1] = (char)(0x80 | (cp & 0x3F));
  return 2;
}

/* A filler character: ASCII letters of both cases and others, or (latin1) any of
 * U+0080..U+00FF too. */
static int filler(char *out, bool latin1) {
  static const char ascii[] = "aZ m-9Yq'Ab.zE";
  if (latin1 && next(3) == 0)
    return put(out, 0x80 + next(0x80));
  return put(out, (unsigned char)ascii[next(sizeof ascii - 1)]);
}

static long failures;

static void compare(const char *s, int64_t len) {
  char want[3 * MAX_LEN + 64], got[3 * MAX_LEN + 64];
  for (size_t k = 0; k < NOPS; k++) {
    int64_t n = nrt_str_case_reference(OPS[k].ref_op, s, len, want);
    int64_t size = OPS[k].size(s, len);
    int64_t w = OPS[k].into(s, len, got);
    bool ok = size == n && w == n && memcmp(got, want, (size_t)n) == 0;
    w = OPS[k].into_padded(s, len, got);
    ok = ok && w == n && memcmp(got, want, (size_t)n) == 0;
    nrt_str view = nrt_str_view(s, len), out;
    ok = ok && OPS[k].managed(&view, &out, NULL) == NRT_OK && out.len == n &&
         memcmp(out.data, want, (size_t)n) == 0;
    nrt_str_release(&out);
    if (ok) {
      check_pass();
    } else if (failures++ < 10) {
      check_failf(__FILE__, __LINE__, "%s of a %lld-byte string differs from the general path",
                  OPS[k].name, (long long)len);
    }
  }
}

/* One string of about len bytes: filler with, at position at, the character ins. */
static void run(int len, int at, const char *ins, bool latin1) {
  char s[MAX_LEN + 8];
  int n = 0;
  while (n < at)
    n += filler(s + n, latin1);
  size_t k = strlen(ins);
  memcpy(s + n, ins, k);
  n += (int)k;
  while (n < len)
    n += filler(s + n, latin1);
  compare(s, n);
}

int main(void) {
  for (int len = 0; len <= MAX_LEN; len++) {
    for (int at = 0; at <= len; at++) {
      /* every Latin-1 character somewhere at this position over the lengths */
      char one[3];
      one[put(one, 0x80 + (unsigned)(len + at) % 0x80)] = 0;
      run(len, at, one, false);
      run(len, at, one, true);
      run(len, at, BEYOND[(unsigned)(len * 7 + at) % NBEYOND], next(2) == 0);
    }
  }
  /* Every Latin-1 character, alone and after 63 ASCII bytes (its lead ends a block). */
  for (unsigned cp = 0x80; cp < 0x100; cp++) {
    char s[80];
    int n = put(s, cp);
    compare(s, n);
    memset(s, 'x', 63);
    n = 63 + put(s + 63, cp);
    compare(s, n);
  }
  return check_finish("test_str_case_latin1");
}

/* strip, lstrip and rstrip with chars None against a code-point reference, on strings built
 * from ASCII whitespace, letters and non-ASCII spaces and letters: every string of up to 5
 * such characters, then random ones of up to 40, so that whitespace runs start, end and cross
 * the 8-byte windows the kernel tests without a loop, at every position; and every code point
 * at either end, which the kernel tests by its bytes. */
#include "nrt/str.h"
#include "nrt/unicode.h"
#include "support/check.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

struct piece {
  const char *bytes;
  uint32_t cp;
};

static const struct piece alphabet[] = {
    {" ", 0x20},      {"\t", 0x09},          {"\x1c", 0x1C},        {"a", 'a'},
    {"\r", 0x0D},     {"\xc3\xa9", 0xE9},    {"\xe3\x80\x80", 0x3000}, {"\xc2\xa0", 0xA0},
    {"\xc2\x85", 0x85}, {"\xe2\x80\x8b", 0x200B}, /* U+200B: not whitespace in Python */
    /* Lead bytes of spaces in characters that are none, and a space of another lead byte. */
    {"\xc2\xbf", 0xBF}, {"\xe1\x9a\x80", 0x1680}, {"\xe4\xb8\x80", 0x4E00},
    /* Spaces of E2 80 and E2 81, a near miss (U+2030), a four-byte character. */
    {"\xe2\x80\x89", 0x2009}, {"\xe2\x80\xa8", 0x2028}, {"\xe2\x81\x9f", 0x205F},
    {"\xe2\x80\xb0", 0x2030}, {"\xf0\x9f\x98\x80", 0x1F600},
};
#define NA ((int)(sizeof alphabet / sizeof alphabet[0]))
#define MAXC 40

static char buf[MAXC * 3 + 1];
static int64_t starts[MAXC + 1]; /* byte offset of each character, and the end */
static uint32_t cps[MAXC];

static int64_t build(const int *idx, int n) {
  int64_t len = 0;
  for (int i = 0; i < n; i++) {
    starts[i] = len;
    size_t l = strlen(alphabet[idx[i]].bytes);
    memcpy(buf + len, alphabet[idx[i]].bytes, l);
    len += (int64_t)l;
    cps[i] = alphabet[idx[i]].cp;
  }
  starts[n] = len;
  return len;
}

static bool same(const nrt_str *r, const char *want, int64_t n) {
  return r->len == n && (n == 0 || memcmp(r->data, want, (size_t)n) == 0);
}

static void check_one(int n, int64_t len) {
  int b = 0, e = n;
  while (b < e && nrt_uc_is_space(cps[b])) b++;
  while (e > b && nrt_uc_is_space(cps[e - 1])) e--;
  int lb = 0, re = n;
  while (lb < n && nrt_uc_is_space(cps[lb])) lb++;
  while (re > 0 && nrt_uc_is_space(cps[re - 1])) re--;
  /* A heap copy of exactly len bytes, so that ASan sees any read past the end. */
  char *copy = nrt_allocate(len ? (size_t)len : 1, NULL);
  memcpy(copy, buf, (size_t)len);
  nrt_str s = {NULL, copy, len}, r;
  struct nrt_error err;
  CHECK(nrt_str_strip(&s, NULL, &r, &err) == NRT_OK);
  CHECK(same(&r, copy + starts[b], starts[e] - starts[b]));
  nrt_str_release(&r);
  CHECK(nrt_str_lstrip(&s, NULL, &r, &err) == NRT_OK);
  CHECK(same(&r, copy + starts[lb], len - starts[lb]));
  nrt_str_release(&r);
  CHECK(nrt_str_rstrip(&s, NULL, &r, &err) == NRT_OK);
  CHECK(same(&r, copy, starts[re]));
  nrt_str_release(&r);
  nrt_free(copy, len ? (size_t)len : 1);
}

/* Every code point alone, before and after a letter: lstrip and rstrip remove it exactly when
 * it is whitespace (the kernel's byte patterns against the Unicode tables). */
static void check_every_code_point(void) {
  struct nrt_error err;
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF)
      continue;
    char enc[8];
    int n = (int)nrt_utf8_encode(cp, enc);
    bool space = nrt_uc_is_space(cp);
    char both[16];
    memcpy(both, "ab", 2);
    memcpy(both + 2, enc, (size_t)n);
    memcpy(both + 2 + n, "cd", 2);
    nrt_str right = {NULL, both, 2 + n}, left = {NULL, both + 2, n + 2}, alone = {NULL, enc, n};
    nrt_str r;
    CHECK(nrt_str_rstrip(&right, NULL, &r, &err) == NRT_OK && r.len == (space ? 2 : 2 + n));
    nrt_str_release(&r);
    CHECK(nrt_str_lstrip(&left, NULL, &r, &err) == NRT_OK && r.len == (space ? 2 : 2 + n));
    nrt_str_release(&r);
    CHECK(nrt_str_strip(&alone, NULL, &r, &err) == NRT_OK && r.len == (space ? 0 : n));
    nrt_str_release(&r);
  }
}

int main(void) {
  check_every_code_point();
  int idx[MAXC];
  for (int n = 0; n <= 5; n++) { /* every string of n characters */
    int total = 1;
    for (int i = 0; i < n; i++) total *= NA;
    for (int k = 0; k < total; k++) {
      for (int i = 0, v = k; i < n; i++, v /= NA) idx[i] = v % NA;
      check_one(n, build(idx, n));
    }
  }
  uint64_t rng = 0x9E3779B97F4A7C15u;
  for (int t = 0; t < 200000; t++) { /* random ones: mostly spaces at the ends */
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    int n = 6 + (int)(rng % (MAXC - 5));
    int inner = (int)((rng >> 8) % (uint64_t)(n + 1));
    for (int i = 0; i < n; i++) {
      uint64_t r = (rng >> (i % 48)) ^ (uint64_t)(i * 0x9E37u) ^ (uint64_t)t;
      bool edge = i < (n - inner) / 2 || i >= n - (n - inner + 1) / 2;
      idx[i] = edge ? (int)(r % 3) + ((r >> 5) % 7 == 0 ? 6 : 0) : (int)(r % NA);
    }
    check_one(n, build(idx, n));
  }
  return check_finish("test_str_strip_windows");
}

/* The branch-free short-string paths (src/str/str_short.h and its users): every length 0..70
 * (around the 8-byte words, the 32-byte cover and the word loops beyond it), with 2-, 3- and
 * 4-byte characters at every position and ASCII/non-ASCII boundaries, against plain byte-loop
 * references. Every input lies in a heap block of exactly its size, so a read past its end is
 * caught by ASan and valgrind. */
#include <stdlib.h>

#include "nrt/str.h"
#include "support/check.h"

#define MAXLEN 70

/* The lead bytes of the characters placed in the strings: ASCII letter, 2-, 3-, 4-byte. */
static const char *const CHARS[] = {"a", "\xc3\xa9", "\xe6\xbc\xa2", "\xf0\x9f\x98\x80"};

/* A heap copy of exactly n bytes (n == 0: a 1-byte block, never read). */
static char *exact(const char *s, int64_t n) {
  char *p = malloc(n ? (size_t)n : 1);
  memcpy(p, s, (size_t)n);
  return p;
}

static int64_t ref_len(const char *s, int64_t n) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    k += ((unsigned char)s[i] & 0xC0) != 0x80;
  return k;
}

static bool ref_ascii(const char *s, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if ((unsigned char)s[i] >= 0x80)
      return false;
  return true;
}

/* Calls f on every test string: n bytes of `fill` with the character CHARS[c] at byte `at`
 * (and, for c > 0, also as the last character when it fits), plus the pure fill. */
typedef void (*case_fn)(const char *s, int64_t n, int *bad);

static void each_string(char fill, case_fn f, int *bad) {
  char buf[MAXLEN + 8];
  for (int n = 0; n <= MAXLEN; n++) {
    memset(buf, fill, (size_t)n);
    char *p = exact(buf, n);
    f(p, n, bad);
    free(p);
    for (int c = 1; c < 4; c++) {
      int w = (int)strlen(CHARS[c]);
      for (int at = 0; at + w <= n; at++) {
        memset(buf, fill, (size_t)n);
        memcpy(buf + at, CHARS[c], (size_t)w);
        if (at + 2 * w <= n && (at & 1))
          memcpy(buf + n - w, CHARS[(c % 3) + 1], (size_t)w); /* mixed widths */
        p = exact(buf, n);
        f(p, n, bad);
        free(p);
      }
    }
  }
}

static void check_len_ascii(const char *s, int64_t n, int *bad) {
  *bad += nrt_str_len(s, n) != ref_len(s, n);
  *bad += nrt_str_isascii(s, n) != ref_ascii(s, n);
  *bad += nrt_str_is_ascii_bytes(s, n) != ref_ascii(s, n);
}

static void test_len_ascii(void) {
  int bad = 0;
  each_string('x', check_len_ascii, &bad);
  each_string('\0', check_len_ascii, &bad); /* NUL is valid UTF-8, and equals the padding */
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  struct check_live before = check_live_now();
  test_len_ascii();
  CHECK_NO_LEAK(before);
  return check_finish("test_str_short");
}

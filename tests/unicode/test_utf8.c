/* UTF-8 codec: every class of invalid sequence with its exact byte offset and Python's
 * message, and round trips of decode / encode / decode_last / count / offset. */
#include <stdlib.h>
#include <string.h>

#include "nrt/unicode.h"
#include "support/check.h"

/* Expects validation of s[0..len) to fail at `offset` with a message containing `reason`. */
static void expect_invalid(const char *s, size_t len, size_t offset, const char *reason) {
  size_t at = (size_t)-1;
  struct nrt_error err = {0};
  int rc = nrt_utf8_validate(s, len, &at, &err);
  CHECK_EQ_INT(rc, NRT_EILSEQ);
  CHECK_EQ_INT(err.code, NRT_EILSEQ);
  CHECK_EQ_INT(at, offset);
  if (!strstr(err.message, reason))
    check_failf(__FILE__, __LINE__, "message \"%s\" lacks \"%s\"", err.message, reason);
  char where[64];
  snprintf(where, sizeof where, "in position %zu:", offset);
  CHECK(strstr(err.message, where) != NULL);
  /* The same answer without the optional outputs. */
  CHECK_EQ_INT(nrt_utf8_validate(s, len, NULL, NULL), NRT_EILSEQ);
}

#define INVALID(lit, offset, reason) expect_invalid(lit, sizeof(lit) - 1, offset, reason)

static void expect_valid(const char *s, size_t len) {
  size_t at = 12345;
  CHECK_EQ_INT(nrt_utf8_validate(s, len, &at, NULL), NRT_OK);
  CHECK_EQ_INT(at, 12345); /* untouched on success */
}

static void test_invalid_classes(void) {
  static const char *const start = "invalid start byte";
  static const char *const cont = "invalid continuation byte";
  static const char *const end = "unexpected end of data";
  /* bad lead bytes */
  INVALID("\xff", 0, start);
  INVALID("ab\xfe", 2, start);
  INVALID("abc\xf5\x80\x80\x80", 3, start);
  INVALID("\xf8\x88\x80\x80\x80", 0, start);
  /* stray continuation bytes */
  INVALID("\x80", 0, start);
  INVALID("a\xbf", 1, start);
  INVALID("\xc3\xa9\xa9", 2, start);
  /* overlong two-byte (C0, C1 leads) */
  INVALID("\xc0\x80", 0, start);
  INVALID("x\xc1\xbf", 1, start);
  /* overlong three-byte */
  INVALID("\xe0\x80\x80", 0, cont);
  INVALID("ab\xe0\x9f\xbf", 2, cont);
  /* overlong four-byte */
  INVALID("\xf0\x80\x80\x80", 0, cont);
  INVALID("\xf0\x8f\xbf\xbf", 0, cont);
  /* surrogates */
  INVALID("\xed\xa0\x80", 0, cont);
  INVALID("z\xed\xbf\xbf", 1, cont);
  /* above U+10FFFF */
  INVALID("\xf4\x90\x80\x80", 0, cont);
  INVALID("\xf4\xbf\xbf\xbf", 0, cont);
  /* wrong continuation */
  INVALID("\xc3\x41", 0, cont);
  INVALID("\xe2\x82\x41", 0, cont);
  INVALID("\xf0\x9f\x98\x41", 0, cont);
  INVALID("\xe2\xc3\xa9", 0, cont);
  /* truncated sequences */
  INVALID("\xc3", 0, end);
  INVALID("abc\xe2\x82", 3, end);
  INVALID("\xe2", 0, end);
  INVALID("\xf0\x9f\x98", 0, end);
  INVALID("\xf0\x9f", 0, end);
  INVALID("\xf0", 0, end);
  INVALID("\xe0\xa0", 0, end);
  INVALID("\xf4\x8f\xbf", 0, end);
  /* the first error wins, after a long ASCII run (word-at-a-time path) */
  char buf[100];
  memset(buf, 'a', sizeof buf);
  for (size_t pos = 0; pos < 40; pos++) {
    memset(buf, 'a', sizeof buf);
    buf[pos] = (char)0xC3; /* truncated by the next 'a' */
    buf[60] = (char)0xFF;
    expect_invalid(buf, sizeof buf, pos, cont);
    memset(buf, 'a', sizeof buf);
    buf[pos] = (char)0x80;
    expect_invalid(buf, sizeof buf, pos, start);
  }
}

static void test_valid(void) {
  expect_valid("", 0);
  expect_valid("hello, world", 12);
  static const char boundaries[] =
      "\x7f"             /* U+007F */
      "\xc2\x80"         /* U+0080 */
      "\xdf\xbf"         /* U+07FF */
      "\xe0\xa0\x80"     /* U+0800 */
      "\xed\x9f\xbf"     /* U+D7FF */
      "\xee\x80\x80"     /* U+E000 */
      "\xef\xbf\xbf"     /* U+FFFF */
      "\xf0\x90\x80\x80" /* U+10000 */
      "\xf4\x8f\xbf\xbf" /* U+10FFFF */;
  expect_valid(boundaries, sizeof boundaries - 1);
  static const uint32_t cps[] = {0x7F, 0x80, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFF, 0x10000,
                                 0x10FFFF};
  CHECK_EQ_INT(nrt_utf8_count(boundaries, sizeof boundaries - 1), 9);
  size_t pos = 0;
  for (size_t i = 0; i < 9; i++) {
    size_t n;
    CHECK_EQ_INT(nrt_utf8_decode(boundaries + pos, sizeof boundaries - 1 - pos, &n), cps[i]);
    CHECK_EQ_INT(nrt_utf8_offset(boundaries, sizeof boundaries - 1, i), pos);
    pos += n;
  }
  CHECK_EQ_INT(pos, sizeof boundaries - 1);
  CHECK_EQ_INT(nrt_utf8_offset(boundaries, sizeof boundaries - 1, 9), pos);
  /* NUL is a valid code point */
  expect_valid("a\0b", 3);
}

/* Every code point outside the surrogates: encode, validate, decode both ways. */
static void test_round_trip_all(void) {
  int bad = 0;
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF)
      continue;
    char buf[6] = {'x', 0, 0, 0, 0, 'y'};
    size_t n = nrt_utf8_encode(cp, buf + 1);
    size_t want = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    size_t used = 0, used_last = 0;
    buf[1 + n] = 'y';
    if (n != want || nrt_utf8_validate(buf, n + 2, NULL, NULL) != NRT_OK ||
        nrt_utf8_decode(buf + 1, n, &used) != cp || used != n ||
        nrt_utf8_decode_last(buf, n + 1, &used_last) != cp || used_last != n ||
        nrt_utf8_count(buf, n + 2) != 3 || nrt_utf8_offset(buf, n + 2, 2) != n + 1) {
      if (bad++ < 10)
        check_failf(__FILE__, __LINE__, "round trip of U+%04X", (unsigned)cp);
    }
  }
  CHECK_EQ_INT(bad, 0);
  /* Surrogates encode (the codec is total) but never validate. */
  for (uint32_t cp = 0xD800; cp <= 0xDFFF; cp += 0x7F) {
    char buf[4];
    CHECK_EQ_INT(nrt_utf8_encode(cp, buf), 3);
    CHECK_EQ_INT(nrt_utf8_validate(buf, 3, NULL, NULL), NRT_EILSEQ);
  }
}

/* Random valid strings: count, offset and decode_last agree with a forward walk. */
static void test_random_strings(void) {
  unsigned seed = 12345;
  int rounds = getenv("NRT_UNDER_VALGRIND") ? 200 : 3000;
  for (int r = 0; r < rounds; r++) {
    char buf[400];
    size_t len = 0, starts[100], ncp = 0;
    int pure_ascii = r % 3 == 0;
    while (len + 4 <= sizeof buf && ncp < 100) {
      seed = seed * 1103515245u + 12345u;
      uint32_t cp;
      unsigned kind = pure_ascii ? 0 : (seed >> 16) % 5;
      seed = seed * 1103515245u + 12345u;
      unsigned v = seed >> 8;
      if (kind <= 1)
        cp = v % 0x80;
      else if (kind == 2)
        cp = 0x80 + v % 0x780;
      else if (kind == 3)
        cp = 0x800 + v % 0xD000; /* stays below the surrogates */
      else
        cp = 0x10000 + v % 0x100000;
      starts[ncp++] = len;
      len += nrt_utf8_encode(cp, buf + len);
      if ((seed >> 20) % 17 == 0)
        break;
    }
    CHECK_EQ_INT(nrt_utf8_validate(buf, len, NULL, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_utf8_count(buf, len), ncp);
    for (size_t i = 0; i < ncp; i++) {
      if (nrt_utf8_offset(buf, len, i) != starts[i])
        check_failf(__FILE__, __LINE__, "offset %zu", i);
      size_t used;
      size_t end = i + 1 < ncp ? starts[i + 1] : len;
      size_t used2;
      if (nrt_utf8_decode_last(buf, end, &used) != nrt_utf8_decode(buf + starts[i], end - starts[i], &used2) ||
          used != used2 || used != end - starts[i])
        check_failf(__FILE__, __LINE__, "decode_last at %zu", i);
    }
    CHECK_EQ_INT(nrt_utf8_offset(buf, len, ncp), len);
    /* Cutting inside the last sequence makes it invalid at its start. */
    if (ncp > 0 && len - starts[ncp - 1] > 1) {
      size_t at;
      CHECK_EQ_INT(nrt_utf8_validate(buf, len - 1, &at, NULL), NRT_EILSEQ);
      CHECK_EQ_INT(at, starts[ncp - 1]);
    }
  }
}

/* Buffers of 64 bytes and more go through the SIMD validator first: every class of invalid
 * sequence, at every character boundary of a long valid buffer (and in its last bytes),
 * must still be found, at its own offset. */
static void test_long_buffers(void) {
  static const char *const bad[] = {
      "\x80",             /* a lone continuation byte */
      "\xFF",             /* never a UTF-8 byte */
      "\xC0\x80",         /* overlong NUL */
      "\xE0\x80\x80",     /* overlong three-byte form */
      "\xED\xA0\x80",     /* a surrogate */
      "\xF4\x90\x80\x80", /* above U+10FFFF */
      "\xE2\x82",         /* cut short before an ASCII byte */
  };
  unsigned seed = 7;
  int rounds = getenv("NRT_UNDER_VALGRIND") ? 4 : 40;
  for (int r = 0; r < rounds; r++) {
    char buf[512];
    size_t len = 0, starts[200], ncp = 0;
    size_t want_len = 64 + (size_t)r * 11;
    while (len + 4 < want_len && ncp < 200) {
      seed = seed * 1103515245u + 12345u;
      unsigned v = seed >> 8;
      uint32_t cp = (r % 4 == 0 || v % 3 == 0) ? v % 0x80 /* ASCII-heavy and mixed buffers */
                  : v % 3 == 1                ? 0x80 + v % 0x780
                                              : 0x10000 + v % 0x100000;
      starts[ncp++] = len;
      len += nrt_utf8_encode(cp, buf + len);
    }
    CHECK_EQ_INT(nrt_utf8_validate(buf, len, NULL, NULL), NRT_OK);
    for (size_t c = 0; c < ncp; c++) {
      for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
        size_t n = strlen(bad[b]);
        if (starts[c] + n + 1 > len)
          continue;
        char copy[512];
        memcpy(copy, buf, len);
        memcpy(copy + starts[c], bad[b], n);
        copy[starts[c] + n] = 'a'; /* the cut-short sequence ends at an ASCII byte */
        size_t at = 0;
        CHECK_EQ_INT(nrt_utf8_validate(copy, len, &at, NULL), NRT_EILSEQ);
        if (at != starts[c])
          check_failf(__FILE__, __LINE__, "round %d: %zu-byte error at %zu found at %zu", r, n,
                      starts[c], at);
      }
    }
    /* A multi-byte character cut by the end of the buffer. */
    size_t last = starts[ncp - 1];
    if (len - last > 1) {
      size_t at = 0;
      CHECK_EQ_INT(nrt_utf8_validate(buf, len - 1, &at, NULL), NRT_EILSEQ);
      CHECK_EQ_INT(at, last);
    }
  }
}

int main(void) {
  test_invalid_classes();
  test_valid();
  test_round_trip_all();
  test_random_strings();
  test_long_buffers();
  return check_finish("test_unicode_utf8");
}

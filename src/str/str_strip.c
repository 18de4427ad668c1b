/* strip, lstrip, rstrip with chars None (Unicode whitespace), "" or a set of code points
 * (see nrt/str.h). */
#define _GNU_SOURCE /* memmem */
#include "nrt/unicode.h"
#include "str/str_internal.h"
#include "str/str_short.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Python's whitespace among ASCII: \t \n \v \f \r, the separators U+001C..U+001F, space. */
static inline bool ascii_space(unsigned char c) {
  return ((unsigned)(c - 0x09) <= 0x0D - 0x09) | ((unsigned)(c - 0x1C) <= 0x20 - 0x1C);
}

#if defined(__SSE2__)
/* Bit i set: byte i of v is ASCII whitespace. Adding 0x80 - lo maps [lo, lo + 4] to the five
 * smallest signed bytes, so one signed compare tests each range. */
static inline uint32_t space_bits(__m128i v) {
  const __m128i below = _mm_set1_epi8((char)(0x80 + 5));
  __m128i ctl = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - 0x09))), below);
  __m128i sep = _mm_cmplt_epi8(_mm_add_epi8(v, _mm_set1_epi8((char)(0x80 - 0x1C))), below);
  return (uint32_t)_mm_movemask_epi8(_mm_or_si128(ctl, sep));
}
#endif

/* Python's whitespace beyond ASCII: U+0085 and U+00A0 (two bytes); U+1680, U+2000..U+200A,
 * U+2028, U+2029, U+202F, U+205F and U+3000 (three bytes). test_strip_windows checks these
 * tests against the Unicode tables for every code point. */

/* Whether two bytes (the first in the low byte of x) encode a space beyond ASCII. */
static inline bool two_byte_space(uint32_t x) {
  return (x == 0x85C2) | (x == 0xA0C2);
}

/* The same for three bytes. U+2000..U+200A, U+2028, U+2029 and U+202F are E2 80 and a third
 * byte among the bits of e280. */
static inline bool three_byte_space(uint32_t x) {
  const uint64_t e280 = 0x7FFULL | (3ULL << 0x28) | (1ULL << 0x2F);
  uint32_t third = (x >> 16) - 0x80;
  bool in_e280 = ((x & 0xFFFF) == 0x80E2) & (third < 48) & (unsigned)(e280 >> (third & 63));
  return (x == 0x809AE1) | (x == 0x9F81E2) | (x == 0x8080E3) | in_e280;
}

/* Whether the character that starts at byte 0 of x (little-endian; the bytes past the string
 * zero) is a space. Compares and no branch: the character at either end of a row is a random
 * letter of some script, so a branch on its length would mispredict. */
static inline bool starts_space(uint32_t x) {
  bool one = ascii_space((unsigned char)x), two = two_byte_space(x & 0xFFFF);
  bool three = three_byte_space(x & 0xFFFFFF);
  return one | two | three;
}

/* The same for the character whose last byte is byte 3 of y: a space is at most three bytes
 * long, and its lead byte (C2, E1..E3) fixes where it starts in valid UTF-8. */
static inline bool ends_space(uint32_t y) {
  bool one = ascii_space((unsigned char)(y >> 24)), two = two_byte_space(y >> 16);
  bool three = three_byte_space(y >> 8);
  return one | two | three;
}

/* Whether the character starting with byte c may be a Unicode space: ASCII whitespace, or a
 * lead byte of U+0085, U+00A0 (C2), U+1680 (E1), U+2000..U+205F (E2) or U+3000 (E3). */
static inline bool may_start_space(unsigned char c) {
  return c <= 0x20 || c == 0xC2 || (unsigned)(c - 0xE1) <= 2;
}

/* Whether the character ending at byte e - 1 (e > b, the string valid UTF-8) cannot be a
 * space: printable ASCII, or a two-byte character other than U+0080..U+00BF. */
static inline bool ends_in_no_space(const char *s, int64_t b, int64_t e) {
  unsigned char c = (unsigned char)s[e - 1];
  if (c < 0x80)
    return c > 0x20;
  return e - 2 >= b && (unsigned)((unsigned char)s[e - 2] - 0xC3) <= 0xDF - 0xC3;
}

/* Whitespace runs shorter than 8 bytes at either end, found without a branch per byte: rows
 * with zero, one or two spaces at random would mispredict the loops' exits on every row.
 * Returns true when [*b, *e) is the answer: each stripped end stopped at a character that is
 * no space, tested by its bytes whatever its script. Otherwise (a longer run, a space beyond
 * ASCII at an end, a string under 4 bytes that may hold one) the loops in strip_range_loops
 * decide. */
static inline bool ascii_window_strip(const char *s, int64_t len, enum nrt_str_strip_side side,
                                      int64_t *begin, int64_t *end) {
  int64_t b = 0, e = len; /* locals: stores through begin and end would be reloaded */
#if defined(__SSE2__)
  /* 8-byte windows for every length (a choice between 8 and 16 by length would be one more
   * mispredicted branch); longer runs are rare and go on in the loops. */
  const int w = 8;
  if (len >= w) {
    __m128i head = _mm_loadl_epi64((const __m128i *)(const void *)s);
    __m128i tail = _mm_loadl_epi64((const __m128i *)(const void *)(s + len - 8));
    const uint32_t full = (1u << w) - 1;
    if (side & NRT_STRIP_LEFT)
      b = __builtin_ctz(~space_bits(head) | (1u << w));
    if (side & NRT_STRIP_RIGHT) {
      uint32_t keep = ~space_bits(tail) & full; /* bit j: byte len - w + j is no space */
      int64_t trail = keep ? w - 1 - (31 - __builtin_clz(keep)) : w;
      e = len - trail < b ? b : len - trail;
    }
  }
#endif
  *begin = b;
  *end = e;
  if (len < 4) { /* too short for the loads below; a cheaper, cautious test */
    if (b == e)
      return len == 0;
    return (!(side & NRT_STRIP_LEFT) || !may_start_space((unsigned char)s[b])) &&
           (!(side & NRT_STRIP_RIGHT) || ends_in_no_space(s, b, e));
  }
  /* The four bytes from b (from len - 4 when fewer are left, shifted down so that zeros
   * follow the string) and the four bytes up to e (from 0 when e < 4, shifted up). */
  int64_t from = b < len - 4 ? b : len - 4, to = e < 4 ? 4 : e;
  const unsigned char *u = (const unsigned char *)s;
  uint32_t at_b = (uint32_t)(nrt_short_load32(u + from) >> (8 * (b - from)));
  uint32_t before_e = (uint32_t)(nrt_short_load32(u + to - 4) << (8 * (to - e)));
  bool left = (side & NRT_STRIP_LEFT) != 0, right = (side & NRT_STRIP_RIGHT) != 0;
  /* First by the lead bytes alone (most rows): ASCII controls and spaces, C2, E1..E3. */
  unsigned first = at_b & 0xFF, last = before_e >> 24;
  unsigned lead2 = (before_e >> 16) & 0xFF, lead3 = (before_e >> 8) & 0xFF;
  bool may_left = (first <= 0x20) | (first == 0xC2) | (first - 0xE1 <= 2);
  bool may_right = (last <= 0x20) | ((last >= 0x80) & ((lead2 == 0xC2) | (lead3 - 0xE1 <= 2)));
  if (!((left & may_left) | (right & may_right)))
    return true;
  bool left_space = starts_space(at_b), right_space = ends_space(before_e);
  return !((left & left_space) | (right & right_space));
}

bool nrt_str_is_space_cp(uint32_t cp) {
  if (cp < 0x80)
    return ascii_space((unsigned char)cp);
  /* Every other space is U+0085, U+00A0 or in U+1680..U+3000 (test_str_ops checks all code
   * points): most letters of other scripts need no table lookup. */
  if (cp != 0x85 && cp != 0xA0 && (cp < 0x1680 || cp > 0x3000))
    return false;
  return nrt_uc_is_space(cp);
}

/* The code points of chars: an ASCII bitmap plus the raw bytes for the rest. */
struct char_set {
  uint64_t ascii[2];
  const char *chars;
  int64_t clen;
  bool has_non_ascii;
};

static void char_set_init(struct char_set *cs, const char *chars, int64_t clen) {
  cs->ascii[0] = cs->ascii[1] = 0;
  cs->chars = chars;
  cs->clen = clen;
  cs->has_non_ascii = false;
  for (int64_t i = 0; i < clen; i++) {
    unsigned char b = (unsigned char)chars[i];
    if (b < 0x80)
      cs->ascii[b >> 6] |= 1ULL << (b & 63);
    else
      cs->has_non_ascii = true;
  }
}

/* Whether the code point encoded at p (nb bytes) is in the set. */
static bool char_set_has(const struct char_set *cs, const char *p, int nb) {
  unsigned char b = (unsigned char)p[0];
  if (b < 0x80)
    return (cs->ascii[b >> 6] >> (b & 63)) & 1;
  return cs->has_non_ascii && memmem(cs->chars, (size_t)cs->clen, p, (size_t)nb) != NULL;
}

/* nrt_str_strip_range past the windows: the loops over longer runs and Unicode spaces, and
 * strip with chars. Kept out of line so the common case saves no registers. */
static __attribute__((noinline)) void strip_range_loops(const char *s, int64_t len,
                                                        const char *chars, int64_t clen,
                                                        enum nrt_str_strip_side side,
                                                        int64_t *begin, int64_t *end) {
  int64_t b = 0, e = len;
  int n;
  if (!chars) {
    ascii_window_strip(s, len, side, &b, &e);
    /* ASCII bytes are tested in place; only a non-ASCII one is decoded. */
    if (side & NRT_STRIP_LEFT) {
      while (b < e) {
        unsigned char c = (unsigned char)s[b];
        if (c < 0x80) {
          if (!ascii_space(c))
            break;
          b++;
        } else if (nrt_str_is_space_cp(nrt_u8_dec(s + b, &n))) {
          b += n;
        } else {
          break;
        }
      }
    }
    if (side & NRT_STRIP_RIGHT) {
      while (e > b) {
        unsigned char c = (unsigned char)s[e - 1];
        if (c < 0x80) {
          if (!ascii_space(c))
            break;
          e--;
        } else if (nrt_str_is_space_cp(nrt_u8_dec_back(s, e, &n))) {
          e -= n;
        } else {
          break;
        }
      }
    }
  } else if (clen > 0) {
    struct char_set cs;
    char_set_init(&cs, chars, clen);
    if (side & NRT_STRIP_LEFT) {
      while (b < e) {
        n = nrt_u8_seqlen((unsigned char)s[b]);
        if (!char_set_has(&cs, s + b, n))
          break;
        b += n;
      }
    }
    if (side & NRT_STRIP_RIGHT) {
      while (e > b) {
        nrt_u8_dec_back(s, e, &n);
        if (!char_set_has(&cs, s + e - n, n))
          break;
        e -= n;
      }
    }
  }
  *begin = b;
  *end = e;
}

static int strip_side(const nrt_str *s, const nrt_str *chars, enum nrt_str_strip_side side,
                      nrt_str *out, struct nrt_error *err) {
  int64_t b, e;
  nrt_str_strip_range(s->data, s->len, chars ? chars->data : NULL, chars ? chars->len : 0, side,
                      &b, &e);
  return nrt_str_result_sub(s, s->data + b, e - b, out, err);
}

int nrt_str_strip(const nrt_str *s, const nrt_str *chars, nrt_str *out, struct nrt_error *err) {
  return strip_side(s, chars, NRT_STRIP_BOTH, out, err);
}

int nrt_str_lstrip(const nrt_str *s, const nrt_str *chars, nrt_str *out,
                   struct nrt_error *err) {
  return strip_side(s, chars, NRT_STRIP_LEFT, out, err);
}

int nrt_str_rstrip(const nrt_str *s, const nrt_str *chars, nrt_str *out,
                   struct nrt_error *err) {
  return strip_side(s, chars, NRT_STRIP_RIGHT, out, err);
}

void nrt_str_strip_range(const char *s, int64_t len, const char *chars, int64_t clen,
                         enum nrt_str_strip_side side, int64_t *begin, int64_t *end) {
  if (!chars && ascii_window_strip(s, len, side, begin, end))
    return;
  strip_range_loops(s, len, chars, clen, side, begin, end);
}

/* strip, lstrip, rstrip with chars None (Unicode whitespace), "" or a set of code points
 * (see nrt/str.h). */
#define _GNU_SOURCE /* memmem */
#include "nrt/unicode.h"
#include "str/str_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Python's whitespace among ASCII: \t \n \v \f \r, the separators U+001C..U+001F, space. */
static inline bool ascii_space(unsigned char c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20);
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
 * Returns true when [*b, *e) is the answer: each stripped end stopped at a character that
 * cannot be a space. Otherwise (a run of 8 bytes or more, or a stop at a character that may
 * be a Unicode space) the loops in strip_range_loops decide. */
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
  if (b == e)
    return len == 0;
  return (!(side & NRT_STRIP_LEFT) || !may_start_space((unsigned char)s[b])) &&
         (!(side & NRT_STRIP_RIGHT) || ends_in_no_space(s, b, e));
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

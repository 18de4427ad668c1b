/* Fast paths of the write form's padded f-string fields (runtime.h): a string of up to
 * FAST_STR bytes, or an int below 10^8 in magnitude in decimal, padded with a one-byte
 * fill to a width of at most FAST_WIDTH. Used only when the row already has FAST_ROOM bytes
 * of room, so the padding and the bytes are written with fixed-size stores that may run past
 * the field's end (the later fill, the next field or the next row overwrites them): no
 * memset or memcpy call, no read of what was just written.
 * The general paths (runtime_format.c, runtime_write.c) write the same bytes;
 * tests/udf/test_udf_fmtfast.c compares them. */
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "nrt/str.h"
#include "str/str_short.h"
#include "udf/runtime.h"

#define FAST_WIDTH 64
#if defined(__SSE2__)
#define FAST_STR 32
#else
#define FAST_STR 16 /* two words */
#endif
/* more than a fast write touches: up to 80 bytes of fill on each side of a field of up to
 * 32 bytes */
#define FAST_ROOM (2 * FAST_WIDTH + FAST_STR + 48)

/* n (0..FAST_WIDTH) bytes of the fill byte at p, in 16-byte steps (the last may write up to
 * 16 bytes past n): one step for the usual pads, so the loop is predicted. */
static inline void fill(char *p, uint64_t pattern, int64_t n) {
  int64_t k = 0;
  do {
    memcpy(p + k, &pattern, 8);
    memcpy(p + k + 8, &pattern, 8);
    k += 16;
  } while (k < n);
}

static inline bool has_room(const nrt_col_row_writer *w) {
  return w->end - w->pos >= FAST_ROOM;
}

/* Bytes of padding before the field for Python's format(): '<' none, '^' the smaller half
 * (the odd fill goes right), '>' and '=' all of it. */
static inline int64_t left_pad(char align, int64_t pad) {
  return align == '<' ? 0 : align == '^' ? pad / 2 : pad;
}

/* Continuation bytes (10xxxxxx) among the bytes of w. */
static inline int64_t word_cont(uint64_t w) {
  return nrt_short_byte_sum(nrt_short_cont_ones(w));
}

/* s[0..len) for len <= FAST_STR as the two overlapping loads of its size class (16..32
 * bytes: two 16-byte vectors; 8..15: two words; below 8: one word made branch-free), and its
 * code points. A branch per size class costs less than the branch-free cover of str_short.h,
 * which every length pays in full. */
struct short_str {
  int64_t len, chars;
#if defined(__SSE2__)
  __m128i a, b;
#endif
  uint64_t wa, wb;
};

static inline void short_load(const char *s, int64_t len, struct short_str *r) {
  r->len = len;
#if defined(__SSE2__)
  if (len >= 16) {
    r->a = _mm_loadu_si128((const __m128i *)(const void *)s);
    r->b = _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
    const __m128i limit = _mm_set1_epi8(-64); /* continuation bytes are below, as signed */
    uint64_t ma = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(r->a, limit));
    uint64_t mb = (unsigned)_mm_movemask_epi8(_mm_cmplt_epi8(r->b, limit));
    /* b's bytes at offsets 16 and up of s: its last len - 16 */
    mb = (mb >> (32 - len)) << 16;
    r->chars = len - nrt_short_popcount(ma | mb);
    return;
  }
#endif
  if (len >= 8) {
    memcpy(&r->wa, s, 8);
    memcpy(&r->wb, s + len - 8, 8);
    /* b's bytes past a's: its last len - 8 */
    uint64_t past = len == 8 ? 0 : r->wb >> (8 * (16 - len));
    r->chars = len - word_cont(r->wa) - word_cont(past);
    return;
  }
  r->wa = nrt_short_small((const unsigned char *)s, len);
  r->chars = len - word_cont(r->wa);
}

/* Stores the bytes loaded by short_load at dst (up to 8 bytes past len may be written). */
static inline void short_store(char *dst, const struct short_str *r) {
#if defined(__SSE2__)
  if (r->len >= 16) {
    _mm_storeu_si128((__m128i *)(void *)dst, r->a);
    _mm_storeu_si128((__m128i *)(void *)(dst + r->len - 16), r->b);
    return;
  }
#endif
  if (r->len >= 8) {
    memcpy(dst, &r->wa, 8);
    memcpy(dst + r->len - 8, &r->wb, 8);
    return;
  }
  memcpy(dst, &r->wa, 8);
}

bool nrt_udf_write_str_fast(nrt_col_row_writer *w, const char *s, int64_t len, int64_t *chars,
                            const struct nrt_udf_str_spec *f) {
  if (len > FAST_STR || f->filllen != 1 || f->prec >= 0 || f->width > FAST_WIDTH ||
      !has_room(w))
    return false;
  struct short_str r;
  short_load(s, len, &r);
  if (chars)
    *chars = r.chars;
  int64_t pad = f->width > r.chars ? f->width - r.chars : 0, left = left_pad(f->align, pad);
  uint64_t pattern = NRT_SHORT_ONES * (unsigned char)f->fill[0];
  char *p = w->pos;
  fill(p, pattern, left);
  short_store(p + left, &r);
  fill(p + left + len, pattern, pad - left);
  w->pos = p + len + pad;
  return true;
}

/* The decimal digits of m < 10^8 as ASCII in a little-endian word, the most significant
 * first, and their count: computed in registers (digits stored to memory and read back as a
 * word would stall on store forwarding). Four-digit halves in 32-bit lanes, split into
 * hundreds and tens by multiply-shift divisions that are exact in these ranges. */
static const char digit_pairs[200] = {
#define P(d) '0' + (d) / 10, '0' + (d) % 10
#define P10(t) P(t##0), P(t##1), P(t##2), P(t##3), P(t##4), P(t##5), P(t##6), P(t##7), P(t##8), P(t##9)
    P(0), P(1), P(2), P(3), P(4), P(5), P(6), P(7), P(8), P(9),
    P10(1), P10(2), P10(3), P10(4), P10(5), P10(6), P10(7), P10(8), P10(9)
#undef P10
#undef P
};

static inline uint64_t digits8(uint64_t m, int64_t *count) {
  if (m < 100) { /* a length, a count: two digits from a table */
    uint16_t two;
    memcpy(&two, digit_pairs + 2 * m, 2);
    *count = 1 + (m >= 10);
    return m >= 10 ? two : two >> 8;
  }
  uint64_t x = m / 10000 | (m % 10000) << 32;
  uint64_t q = ((x * 5243) >> 19) & 0x0000007F0000007Fu; /* x / 100 for x < 10^4 */
  x = q | (x - 100 * q) << 16;
  q = ((x * 103) >> 10) & 0x000F000F000F000Fu; /* x / 10 for x < 100 */
  x = q | (x - 10 * q) << 8;
  int zeros = x ? __builtin_ctzll(x) >> 3 : 7; /* leading zero digits (0 keeps one) */
  *count = 8 - zeros;
  return (x >> (8 * zeros)) | (0x3030303030303030u >> (8 * zeros));
}

bool nrt_udf_write_int_fast(nrt_col_row_writer *w, int64_t v, const nrt_format_spec *f) {
  /* the decimal specs without sign option, grouping or '#' ('04d', '>6', '<3d') */
  uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  if ((f->type != 0 && f->type != 'd') || f->empty || f->thousands || f->alternate ||
      (f->sign && f->sign != '-') || f->fill >= 0x80 || f->width > FAST_WIDTH ||
      m >= 100000000 || !has_room(w))
    return false;
  int64_t digits;
  uint64_t word = digits8(m, &digits);
  bool neg = v < 0;
  int64_t n = digits + neg, pad = f->width > n ? f->width - n : 0;
  int64_t left = left_pad(f->align, pad);
  uint64_t pattern = NRT_SHORT_ONES * (unsigned char)f->fill;
  char *p = w->pos;
  fill(p, pattern, left + 1);
  if (neg) /* '=' puts the sign before the padding */
    p[f->align == '=' ? 0 : left] = '-';
  char *at = p + left + neg; /* the digits */
  memcpy(at, &word, 8);
  fill(at + digits, pattern, pad - left);
  w->pos = p + n + pad;
  return true;
}

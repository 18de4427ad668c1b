/* UTF-8 codec: validation with the offset of the first invalid sequence, decoding forwards
 * and backwards, encoding, counting and indexing code points.
 *
 * Written here rather than taken from a library: it must be a pure C kernel (no allocation,
 * compiles as C++ for the CUDA build) and report errors the way Python's decoder does. */
#include <string.h>

#include "nrt/unicode.h"
#include "unicode/uc_lookup.h"
#include "unicode/utf8_simd.h"

/* Eight bytes at p as one word (memcpy: no alignment or aliasing assumption). */
static inline uint64_t load64(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

#define HIGH_BITS 0x8080808080808080ull

/* Reason of an invalid sequence, in the words of Python's UTF-8 decoder. */
enum bad_kind { BAD_START, BAD_CONTINUATION, BAD_END };

/* Length of the valid sequence at p (n bytes left, n > 0, p[0] >= 0x80), or 0 with *why. */
static size_t check_sequence(const unsigned char *p, size_t n, enum bad_kind *why) {
  unsigned char c = p[0];
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
  if (c < 0xC2) { /* continuation byte, or C0/C1 (overlong two-byte) */
    *why = BAD_START;
    return 0;
  }
  if (c < 0xE0) {
    need = 2;
  } else if (c < 0xF0) {
    need = 3;
    if (c == 0xE0)
      lo = 0xA0; /* overlong three-byte */
    else if (c == 0xED)
      hi = 0x9F; /* surrogates U+D800..U+DFFF */
  } else if (c < 0xF5) {
    need = 4;
    if (c == 0xF0)
      lo = 0x90; /* overlong four-byte */
    else if (c == 0xF4)
      hi = 0x8F; /* above U+10FFFF */
  } else {
    *why = BAD_START;
    return 0;
  }
  /* Python reports "invalid continuation byte" when a present byte is wrong, and
   * "unexpected end of data" only when every present byte was right. */
  if (n < 2)
    goto end;
  if (p[1] < lo || p[1] > hi)
    goto bad;
  for (size_t i = 2; i < need; i++) {
    if (i >= n)
      goto end;
    if ((p[i] & 0xC0) != 0x80)
      goto bad;
  }
  return need;
end:
  *why = BAD_END;
  return 0;
bad:
  *why = BAD_CONTINUATION;
  return 0;
}

/* From this many bytes on, the SIMD validator answers first (its dispatch costs more than a
 * short string's walk); only an invalid buffer is walked below, for the error's place. */
#define SIMD_MIN_BYTES 64

NRT_API int nrt_utf8_validate(const char *s, size_t len, size_t *error_offset,
                              struct nrt_error *err) {
  if (len >= SIMD_MIN_BYTES && nrt_utf8_valid_simd(s, len))
    return NRT_OK;
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  while (i < len) {
    /* ASCII runs a word at a time. */
    while (i + 16 <= len && ((load64(p + i) | load64(p + i + 8)) & HIGH_BITS) == 0)
      i += 16;
    while (i < len && p[i] < 0x80)
      i++;
    if (i == len)
      break;
    enum bad_kind why;
    size_t n = check_sequence(p + i, len - i, &why);
    if (n == 0) {
      if (error_offset)
        *error_offset = i;
      static const char *const reasons[] = {"invalid start byte", "invalid continuation byte",
                                             "unexpected end of data"};
      return nrt_error_set(err, NRT_EILSEQ,
                           "'utf-8' codec can't decode byte 0x%02x in position %zu: %s", p[i],
                           i, reasons[why]);
    }
    i += n;
  }
  return NRT_OK;
}

NRT_API size_t nrt_utf8_count(const char *s, size_t len) {
  const unsigned char *p = (const unsigned char *)s;
  size_t continuation = 0, i = 0;
#if defined(__GNUC__)
  /* Continuation bytes (10xxxxxx) of a word: bit 7 set and bit 6 (shifted up) clear. */
  for (; i + 8 <= len; i += 8) {
    uint64_t w = load64(p + i);
    continuation += (size_t)__builtin_popcountll(w & ~(w << 1) & HIGH_BITS);
  }
#endif
  /* Every byte that is not 10xxxxxx starts a code point. */
  for (; i < len; i++)
    continuation += (p[i] & 0xC0) == 0x80;
  return len - continuation;
}

NRT_API uint32_t nrt_utf8_decode(const char *s, size_t len, size_t *consumed) {
  const unsigned char *p = (const unsigned char *)s;
  (void)len;
  unsigned char c = p[0];
  if (c < 0x80) {
    *consumed = 1;
    return c;
  }
  if (c < 0xE0) {
    *consumed = 2;
    return ((uint32_t)(c & 0x1F) << 6) | (p[1] & 0x3Fu);
  }
  if (c < 0xF0) {
    *consumed = 3;
    return ((uint32_t)(c & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3Fu);
  }
  *consumed = 4;
  return ((uint32_t)(c & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
         ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3Fu);
}

NRT_API uint32_t nrt_utf8_decode_last(const char *s, size_t len, size_t *consumed) {
  const unsigned char *p = (const unsigned char *)s;
  size_t start = len - 1;
  while (start > 0 && len - start < 4 && (p[start] & 0xC0) == 0x80)
    start--;
  return nrt_utf8_decode(s + start, len - start, consumed);
}

NRT_API size_t nrt_utf8_encode(uint32_t cp, char out[4]) {
  return (size_t)nrt_uc_encode_utf8(cp, out);
}

NRT_API size_t nrt_utf8_offset(const char *s, size_t len, size_t index) {
  const unsigned char *p = (const unsigned char *)s;
  size_t i = 0;
  /* Pure-ASCII words advance eight code points at once. */
  while (index >= 8 && i + 8 <= len && (load64(p + i) & HIGH_BITS) == 0) {
    i += 8;
    index -= 8;
  }
  while (index > 0 && i < len) {
    unsigned char c = p[i];
    i += c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
    index--;
    while (index >= 8 && i + 8 <= len && (load64(p + i) & HIGH_BITS) == 0) {
      i += 8;
      index -= 8;
    }
  }
  return i < len ? i : len;
}

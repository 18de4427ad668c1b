/* Python's str.isX() predicates over valid UTF-8, as CPython's unicodeobject.c defines them
 * (unicode_isalpha_impl and friends). ASCII characters are classified with one load from the
 * generated ASCII flag table; the rest through the two-stage tables. Pure C, no allocation;
 * compiles unchanged as C++. */
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "unicode/uc_lookup.h"

#define HIGH 0x8080808080808080ull

#if defined(__GNUC__)
#define PRED_INLINE static inline __attribute__((always_inline))
#else
#define PRED_INLINE static inline
#endif

/* Flags of the code point at s[*i] (valid UTF-8), advancing *i past it. Decoded inline, as
 * nrt_utf8_decode does: a call per character costs more than the table lookup. */
PRED_INLINE unsigned next_flags(const char *s, int64_t len, int64_t *i) {
  (void)len;
  const unsigned char *p = (const unsigned char *)s + *i;
  unsigned char b = p[0];
  uint32_t cp;
  if (b < 0x80) {
    (*i)++;
    return nrt_uc_ascii_flags[b];
  }
  if (b < 0xE0) {
    cp = ((uint32_t)(b & 0x1F) << 6) | (p[1] & 0x3Fu);
    *i += 2;
  } else if (b < 0xF0) {
    cp = ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3Fu);
    *i += 3;
  } else {
    cp = ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
         ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3Fu);
    *i += 4;
  }
  return nrt_uc_flags_of(cp);
}

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PRED_WORDS 1
#define PRED_ONES 0x0101010101010101ull

/* Up to 8 bytes of s[i..len) (i < len) zero-extended into a word, with fixed-size loads only
 * (never reading outside s[0..len)); *avail receives how many (1..8). */
PRED_INLINE uint64_t pred_load_upto8(const unsigned char *u, int64_t i, int64_t len,
                                     int *avail) {
  int64_t n = len - i;
  uint64_t w;
  if (n >= 8) {
    *avail = 8;
    memcpy(&w, u + i, 8);
    return w;
  }
  *avail = (int)n;
  if (len >= 8) { /* the last 8 bytes, the ones before i shifted out */
    memcpy(&w, u + len - 8, 8);
    return w >> (8 * (8 - n));
  }
  if (n >= 4) { /* two overlapping 4-byte loads */
    uint32_t lo, hi;
    memcpy(&lo, u + i, 4);
    memcpy(&hi, u + len - 4, 4);
    return (uint64_t)lo | (((uint64_t)hi >> (8 * (8 - n))) << 32);
  }
  const unsigned char *p = u + i;
  return (uint64_t)p[0] | ((uint64_t)p[n >> 1] << (8 * (n >> 1))) |
         ((uint64_t)p[n - 1] << (8 * (n - 1)));
}

/* isalpha over the ASCII bytes in front of s[i] (up to 8): false when one is not a letter,
 * else advances *i past them. */
PRED_INLINE bool ascii_letters_step(const char *s, int64_t len, int64_t *i) {
  int avail;
  uint64_t w = pred_load_upto8((const unsigned char *)s, *i, len, &avail);
  uint64_t high = w & HIGH;
  int k = high ? __builtin_ctzll(high) >> 3 : avail;
  uint64_t valid = (k == 8 ? ~0ull : (1ull << (8 * k)) - 1) & HIGH;
  uint64_t lw = (w & ~HIGH) | (PRED_ONES * 0x20); /* ASCII letters folded to lowercase */
  uint64_t letters = (lw + PRED_ONES * (0x80 - 'a')) & ~(lw + PRED_ONES * (0x80 - 'z' - 1));
  if ((letters & valid) != valid)
    return false;
  *i += k;
  return true;
}
#else
#define PRED_WORDS 0
#endif

/* True when s is not empty and every code point has one of the flags in `any`. */
PRED_INLINE bool all_have(const char *s, int64_t len, unsigned any) {
  if (len == 0)
    return false;
  int64_t i = 0;
  while (i < len) {
#if PRED_WORDS
    if (any == NRT_UC_F_ALPHA) { /* isalpha: ASCII letters checked a word at a time */
      if (!ascii_letters_step(s, len, &i))
        return false;
      if (i < len && (unsigned char)s[i] < 0x80)
        continue;
    }
#endif
    /* ASCII runs: a byte at a time through the flag table, without decoding. */
    while (i < len && (unsigned char)s[i] < 0x80) {
      if (!(nrt_uc_ascii_flags[(unsigned char)s[i]] & any))
        return false;
      i++;
    }
    if (i < len && !(next_flags(s, len, &i) & any))
      return false;
  }
  return true;
}

NRT_API bool nrt_str_isalpha(const char *s, int64_t len) {
  return all_have(s, len, NRT_UC_F_ALPHA);
}

NRT_API bool nrt_str_isalnum(const char *s, int64_t len) {
  return all_have(s, len, NRT_UC_F_ALPHA | NRT_UC_F_DECIMAL | NRT_UC_F_DIGIT | NRT_UC_F_NUMERIC);
}

NRT_API bool nrt_str_isdecimal(const char *s, int64_t len) {
  return all_have(s, len, NRT_UC_F_DECIMAL);
}

NRT_API bool nrt_str_isdigit(const char *s, int64_t len) {
  return all_have(s, len, NRT_UC_F_DIGIT);
}

NRT_API bool nrt_str_isnumeric(const char *s, int64_t len) {
  return all_have(s, len, NRT_UC_F_NUMERIC);
}

NRT_API bool nrt_str_isspace(const char *s, int64_t len) {
  return all_have(s, len, NRT_UC_F_SPACE);
}

/* "".isprintable() is True in Python: every character of the empty string is printable. */
NRT_API bool nrt_str_isprintable(const char *s, int64_t len) {
  return len == 0 || all_have(s, len, NRT_UC_F_PRINTABLE);
}

/* isupper: no lowercase or titlecase character and at least one uppercase one. */
NRT_API bool nrt_str_isupper(const char *s, int64_t len) {
  bool cased = false;
  int64_t i = 0;
  while (i < len) {
    unsigned f = next_flags(s, len, &i);
    if (f & (NRT_UC_F_LOWER | NRT_UC_F_TITLE))
      return false;
    cased |= (f & NRT_UC_F_UPPER) != 0;
  }
  return cased;
}

/* islower: no uppercase or titlecase character and at least one lowercase one. */
NRT_API bool nrt_str_islower(const char *s, int64_t len) {
  bool cased = false;
  int64_t i = 0;
  while (i < len) {
    unsigned f = next_flags(s, len, &i);
    if (f & (NRT_UC_F_UPPER | NRT_UC_F_TITLE))
      return false;
    cased |= (f & NRT_UC_F_LOWER) != 0;
  }
  return cased;
}

/* istitle: uppercase and titlecase characters only after uncased ones, lowercase ones only
 * after cased ones, and at least one cased character. */
NRT_API bool nrt_str_istitle(const char *s, int64_t len) {
  bool cased = false, previous_is_cased = false;
  int64_t i = 0;
  while (i < len) {
    unsigned f = next_flags(s, len, &i);
    if (f & (NRT_UC_F_UPPER | NRT_UC_F_TITLE)) {
      if (previous_is_cased)
        return false;
      previous_is_cased = cased = true;
    } else if (f & NRT_UC_F_LOWER) {
      if (!previous_is_cased)
        return false;
      previous_is_cased = cased = true;
    } else {
      previous_is_cased = false;
    }
  }
  return cased;
}

NRT_API bool nrt_str_isascii(const char *s, int64_t len) {
  return nrt_str_is_ascii_bytes(s, len);
}

/* isidentifier: XID_Start or '_' first, then XID_Continue (no NFKC, as str.isidentifier). */
NRT_API bool nrt_str_isidentifier(const char *s, int64_t len) {
  if (len == 0)
    return false;
  int64_t i = 0;
  bool underscore = s[0] == '_';
  unsigned first = next_flags(s, len, &i);
  if (!underscore && !(first & NRT_UC_F_XID_START))
    return false;
  while (i < len)
    if (!(next_flags(s, len, &i) & NRT_UC_F_XID_CONTINUE))
      return false;
  return true;
}

/* Python's str.isX() predicates over valid UTF-8, as CPython's unicodeobject.c defines them
 * (unicode_isalpha_impl and friends). ASCII characters are classified with one load from the
 * generated ASCII flag table; the rest through the two-stage tables. Pure C, no allocation;
 * compiles unchanged as C++. */
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "unicode/uc_lookup.h"

#define HIGH 0x8080808080808080ull

/* Flags of the code point at s[*i] (valid UTF-8), advancing *i past it. */
static inline unsigned next_flags(const char *s, int64_t len, int64_t *i) {
  unsigned char b = (unsigned char)s[*i];
  if (b < 0x80) {
    (*i)++;
    return nrt_uc_ascii_flags[b];
  }
  size_t used;
  uint32_t cp = nrt_utf8_decode(s + *i, (size_t)(len - *i), &used);
  *i += (int64_t)used;
  return nrt_uc_flags_of(cp);
}

/* True when s is not empty and every code point has one of the flags in `any`. */
static bool all_have(const char *s, int64_t len, unsigned any) {
  if (len == 0)
    return false;
  int64_t i = 0;
  while (i < len) {
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
  int64_t i = 0;
  uint64_t acc = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    acc |= w;
  }
  for (; i < len; i++)
    acc |= (unsigned char)s[i];
  return (acc & HIGH) == 0;
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

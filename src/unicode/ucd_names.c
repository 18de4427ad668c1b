/* Character names (unicodedata.name / lookup) over the generated word-coded tables
 * (gen_ucd_props.py describes the coding); CJK unified ideographs and Hangul syllables are
 * named by rule, as in CPython. */
#include <stdio.h>
#include <string.h>

#include "nrt/ucd.h"
#include "unicode/ucd_lookup.h"

enum { WORD_HYPHEN = 0, WORD_HEX = 1 };

static bool is_cjk(uint32_t cp) {
  for (int i = 0; i < NRT_UCD_CJK_RANGES; i++)
    if (cp >= nrt_ucd_cjk[i][0] && cp <= nrt_ucd_cjk[i][1]) return true;
  return false;
}

static bool has_name(uint32_t cp) {
  return (nrt_ucd_record_of(cp)->flags & NRT_UCD_F_HAS_NAME) != 0;
}

/* Reads the word number at *p (advancing it). */
static unsigned next_word(const uint8_t **p) {
  unsigned b = *(*p)++;
  if (b < 0x80) return b;
  return 128 + (((b & 0x7F) << 8) | *(*p)++);
}

/* Writes the name coded at p (length byte first) for code point cp into out. */
static size_t decode(const uint8_t *p, uint32_t cp, char *out) {
  const uint8_t *end = p + 1 + p[0];
  size_t n = 0;
  bool after_word = false;
  p++;
  while (p < end) {
    unsigned w = next_word(&p);
    if (w == WORD_HYPHEN) {
      out[n++] = '-';
      after_word = false;
      continue;
    }
    if (after_word) out[n++] = ' ';
    if (w == WORD_HEX) {
      n += (size_t)snprintf(out + n, NRT_UC_NAME_MAX - n, "%04X", (unsigned)cp);
    } else {
      size_t a = nrt_ucd_word_offsets[w - 2], b = nrt_ucd_word_offsets[w - 1];
      memcpy(out + n, nrt_ucd_lexicon + a, b - a);
      n += b - a;
    }
    after_word = true;
  }
  out[n] = '\0';
  return n;
}

/* The coded name of the i-th named code point of block b and that code point. */
static const uint8_t *nth_in_block(uint32_t b, size_t i, uint32_t *cp) {
  const uint8_t *p = nrt_ucd_names + nrt_ucd_name_blocks[b];
  for (uint32_t c = b << NRT_UCD_NAME_SHIFT;; c++) {
    if (!has_name(c)) continue;
    if (i-- == 0) {
      *cp = c;
      return p;
    }
    p += 1 + p[0];
  }
}

NRT_API size_t nrt_uc_name(uint32_t cp, char out[NRT_UC_NAME_MAX]) {
  out[0] = '\0';
  if (nrt_ucd_is_hangul(cp)) {
    uint32_t s = cp - NRT_UCD_SBASE;
    return (size_t)snprintf(out, NRT_UC_NAME_MAX, "HANGUL SYLLABLE %s%s%s",
                            nrt_ucd_jamo_l[s / NRT_UCD_NCOUNT],
                            nrt_ucd_jamo_v[(s % NRT_UCD_NCOUNT) / NRT_UCD_TCOUNT],
                            nrt_ucd_jamo_t[s % NRT_UCD_TCOUNT]);
  }
  if (is_cjk(cp))
    return (size_t)snprintf(out, NRT_UC_NAME_MAX, "CJK UNIFIED IDEOGRAPH-%04X", (unsigned)cp);
  if (cp >= 0x110000u || !has_name(cp)) return 0;
  uint32_t b = cp >> NRT_UCD_NAME_SHIFT, c;
  size_t i = 0;
  for (c = b << NRT_UCD_NAME_SHIFT; c < cp; c++) i += has_name(c);
  return decode(nth_in_block(b, i, &c), cp, out);
}

/* The longest jamo short name of `names` that starts s[0..len) (the empty name counts). */
static int jamo_prefix(const char *const *names, int count, const char *s, size_t len,
                       size_t *used) {
  int best = -1;
  *used = 0;
  for (int i = 0; i < count; i++) {
    size_t n = strlen(names[i]);
    if (n <= len && memcmp(names[i], s, n) == 0 && (best < 0 || n > *used)) {
      best = i;
      *used = n;
    }
  }
  return best;
}

/* "HANGUL SYLLABLE " and "CJK UNIFIED IDEOGRAPH-" (case-sensitive, as CPython): 1 with *cp,
 * 0 when the prefix matches but the rest does not, -1 when neither prefix matches. */
static int algorithmic(const char *s, size_t len, uint32_t *cp) {
  static const char hangul[] = "HANGUL SYLLABLE ", cjk[] = "CJK UNIFIED IDEOGRAPH-";
  if (len >= sizeof hangul - 1 && memcmp(s, hangul, sizeof hangul - 1) == 0) {
    s += sizeof hangul - 1;
    len -= sizeof hangul - 1;
    size_t u;
    int l = jamo_prefix(nrt_ucd_jamo_l, NRT_UCD_LCOUNT, s, len, &u);
    s += u, len -= u;
    int v = jamo_prefix(nrt_ucd_jamo_v, NRT_UCD_VCOUNT, s, len, &u);
    s += u, len -= u;
    int t = jamo_prefix(nrt_ucd_jamo_t, NRT_UCD_TCOUNT, s, len, &u);
    if (l < 0 || v < 0 || t < 0 || u != len) return 0;
    *cp = NRT_UCD_SBASE + ((uint32_t)l * NRT_UCD_VCOUNT + (uint32_t)v) * NRT_UCD_TCOUNT +
          (uint32_t)t;
    return 1;
  }
  if (len >= sizeof cjk - 1 && memcmp(s, cjk, sizeof cjk - 1) == 0) {
    s += sizeof cjk - 1;
    len -= sizeof cjk - 1;
    if (len != 4 && len != 5) return 0;
    uint32_t v = 0;
    for (size_t i = 0; i < len; i++) {
      char ch = s[i];
      if (ch >= '0' && ch <= '9') v = v * 16 + (uint32_t)(ch - '0');
      else if (ch >= 'A' && ch <= 'F') v = v * 16 + (uint32_t)(ch - 'A' + 10);
      else return 0;
    }
    if (!is_cjk(v)) return 0;
    *cp = v;
    return 1;
  }
  return -1;
}

static char upper(char c) {
  return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/* Whether the coded name p spells s[0..len) ignoring case; a hex word needs the code point,
 * which *cp_of computes (block b, ordinal i) only then. */
static bool matches(const uint8_t *p, const char *s, size_t len, uint32_t b, size_t i) {
  const uint8_t *end = p + 1 + p[0];
  size_t k = 0;
  bool after_word = false;
  p++;
  while (p < end) {
    unsigned w = next_word(&p);
    if (w == WORD_HYPHEN) {
      if (k >= len || s[k] != '-') return false;
      k++;
      after_word = false;
      continue;
    }
    if (after_word) {
      if (k >= len || s[k] != ' ') return false;
      k++;
    }
    after_word = true;
    char hex[16];
    const char *word;
    size_t n;
    if (w == WORD_HEX) {
      uint32_t cp;
      nth_in_block(b, i, &cp);
      n = (size_t)snprintf(hex, sizeof hex, "%04X", (unsigned)cp);
      word = hex;
    } else {
      word = nrt_ucd_lexicon + nrt_ucd_word_offsets[w - 2];
      n = nrt_ucd_word_offsets[w - 1] - nrt_ucd_word_offsets[w - 2];
    }
    if (len - k < n) return false;
    for (size_t j = 0; j < n; j++)
      if (upper(s[k + j]) != word[j]) return false;
    k += n;
  }
  return k == len;
}

/* The number of the lexicon word s[0..n) (upper case), or -1. */
static long word_number(const char *s, size_t n) {
  for (long k = 0; k < NRT_UCD_WORD_COUNT; k++) {
    size_t a = nrt_ucd_word_offsets[k], b = nrt_ucd_word_offsets[k + 1];
    if (b - a == n && memcmp(nrt_ucd_lexicon + a, s, n) == 0) return k + 2;
  }
  return -1;
}

/* The numbers a name spelled s[0..len) may start with: its first word up to a space or a
 * hyphen, or up to a space (names the generator split at spaces only); -1 for none. */
static void first_words(const char *s, size_t len, long w[2]) {
  char up[NRT_UC_NAME_MAX] = {0};
  size_t n = 0, m;
  while (n < len && n < sizeof up && s[n] != ' ') {
    up[n] = upper(s[n]);
    n++;
  }
  for (m = 0; m < n && up[m] != '-'; m++) {}
  w[0] = n < sizeof up ? word_number(up, m) : -1;
  w[1] = n < sizeof up && m < n ? word_number(up, n) : -1;
}

NRT_API size_t nrt_uc_lookup(const char *name, size_t len, uint32_t out[4]) {
  uint32_t cp = 0;
  int a = algorithmic(name, len, &cp);
  if (a >= 0) {
    out[0] = cp;
    return (size_t)a;
  }
  long first[2];
  first_words(name, len, first);
  if (first[0] < 0 && first[1] < 0) return 0; /* every name's first word is in the lexicon */
  for (uint32_t b = 0; b < NRT_UCD_NAME_BLOCKS; b++) {
    const uint8_t *p = nrt_ucd_names + nrt_ucd_name_blocks[b];
    const uint8_t *end = nrt_ucd_names + nrt_ucd_name_blocks[b + 1];
    for (size_t i = 0; p < end; i++, p += 1 + p[0]) {
      const uint8_t *q = p + 1;
      long w = (long)next_word(&q);
      if (w != first[0] && w != first[1]) continue; /* a quick filter */
      if (matches(p, name, len, b, i)) {
        nth_in_block(b, i, &out[0]);
        return 1;
      }
    }
  }
  const uint8_t *p = nrt_ucd_alias_names;
  for (size_t i = 0; i < NRT_UCD_ALIAS_COUNT; i++, p += 1 + p[0])
    if (matches(p, name, len, 0, 0)) {
      out[0] = nrt_ucd_alias_cps[i];
      return 1;
    }
  p = nrt_ucd_sequence_names;
  for (size_t i = 0; i < NRT_UCD_SEQUENCE_COUNT; i++, p += 1 + p[0])
    if (matches(p, name, len, 0, 0)) {
      size_t n = nrt_ucd_sequence_cps[i][0];
      for (size_t j = 0; j < n; j++) out[j] = nrt_ucd_sequence_cps[i][1 + j];
      return n;
    }
  return 0;
}

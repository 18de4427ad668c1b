/* Python's case mapping methods: upper, lower, casefold, capitalize, title, swapcase.
 *
 * One kernel, `convert`, does all six over valid UTF-8 as CPython's unicodeobject.c does them
 * (do_upper, do_lower, do_casefold, do_capitalize, do_title, do_swapcase): full mappings from
 * the generated tables (SpecialCasing included), Final_Sigma wherever CPython lowers a
 * character (lower, swapcase, capitalize, title), titlecase for the first letter of a word.
 * With out == NULL it only measures, so _size and _into cannot disagree. Runs of 16 ASCII bytes
 * are mapped a word at a time for upper, lower, casefold and swapcase. Pure C, no allocation;
 * compiles unchanged as C++. */
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "unicode/uc_lookup.h"

enum case_mode { MODE_LOWER, MODE_UPPER, MODE_FOLD, MODE_SWAP, MODE_TITLE, MODE_CAPITALIZE };

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

static inline uint64_t load_word(const char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

/* For a word of ASCII bytes: 0x80 in every byte that lies in [lo, hi], 0 elsewhere (the
 * additions cannot carry between bytes below 0x80). */
static inline uint64_t ascii_in_range(uint64_t w, unsigned lo, unsigned hi) {
  uint64_t at_least_lo = w + ONES * (0x80 - lo);
  uint64_t above_hi = w + ONES * (0x80 - hi - 1);
  return at_least_lo & ~above_hi & HIGH;
}

/* The 0x20 bits to flip in an ASCII word for the word-at-a-time modes. */
static inline uint64_t ascii_flip(uint64_t w, enum case_mode mode) {
  uint64_t m;
  if (mode == MODE_UPPER)
    m = ascii_in_range(w, 'a', 'z');
  else if (mode == MODE_SWAP)
    m = ascii_in_range(w, 'a', 'z') | ascii_in_range(w, 'A', 'Z');
  else
    m = ascii_in_range(w, 'A', 'Z');
  return m >> 2;
}

/* Byte length of the UTF-8 encoding of cp. */
static inline int64_t utf8_len(uint32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
}

static inline int seq_len(unsigned char b) {
  return b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
}

/* Code point ending at s + end (valid UTF-8, end > 0); *start receives its offset. */
static uint32_t decode_before(const char *s, int64_t end, int64_t *start) {
  int64_t i = end - 1;
  while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
    i--;
  size_t used;
  *start = i;
  return nrt_utf8_decode(s + i, (size_t)(end - i), &used);
}

/* CPython's handle_capital_sigma: U+03A3 at s[at..after) lowers to final U+03C2 when a cased
 * letter precedes it and none follows it, skipping case-ignorable characters both ways. */
static uint32_t lower_sigma(const char *s, int64_t len, int64_t at, int64_t after) {
  int64_t i = at;
  uint32_t c = 0;
  bool found = false;
  while (i > 0) {
    c = decode_before(s, i, &i);
    if (!(nrt_uc_flags_of(c) & NRT_UC_F_CASE_IGNORABLE)) {
      found = true;
      break;
    }
  }
  bool final_sigma = found && (nrt_uc_flags_of(c) & NRT_UC_F_CASED);
  if (final_sigma) {
    int64_t j = after;
    while (j < len) {
      size_t used;
      c = nrt_utf8_decode(s + j, (size_t)(len - j), &used);
      if (!(nrt_uc_flags_of(c) & NRT_UC_F_CASE_IGNORABLE))
        return (nrt_uc_flags_of(c) & NRT_UC_F_CASED) ? 0x3C3 : 0x3C2;
      j += (int64_t)used;
    }
  }
  return final_sigma ? 0x3C2 : 0x3C3;
}

/* Maps the code point cp (at s[at..after), record r) as `kind` says, with Final_Sigma for
 * lowering; writes 1..3 code points to m and returns their count. */
static inline size_t map_cp(const char *s, int64_t len, int64_t at, int64_t after, uint32_t cp,
                            const struct nrt_uc_record *r, int kind, uint32_t m[3]) {
  if (kind == NRT_UC_CASE_LOWER && cp == 0x3A3) {
    m[0] = lower_sigma(s, len, at, after);
    return 1;
  }
  return nrt_uc_case_of(r, cp, kind, m);
}

/* The case conversion `mode` of s[0..len): writes it to out (when not NULL) and returns its
 * byte length; *changed (when not NULL) says whether it differs from s. */
static int64_t convert(const char *s, int64_t len, enum case_mode mode, char *out,
                       bool *changed) {
  int64_t i = 0, o = 0;
  bool any = false;
  bool prev_cased = false; /* title: the previous character is cased */
  const bool wordwise = mode <= MODE_SWAP;
  while (i < len) {
    /* ASCII a word at a time (modes without context). */
    if (wordwise) {
      while (i + 16 <= len) {
        uint64_t w0 = load_word(s + i), w1 = load_word(s + i + 8);
        if ((w0 | w1) & HIGH)
          break;
        uint64_t f0 = ascii_flip(w0, mode), f1 = ascii_flip(w1, mode);
        any |= (f0 | f1) != 0;
        if (out) {
          w0 ^= f0;
          w1 ^= f1;
          memcpy(out + o, &w0, 8);
          memcpy(out + o + 8, &w1, 8);
        }
        i += 16;
        o += 16;
      }
      if (i >= len)
        break;
    }
    unsigned char b = (unsigned char)s[i];
    if (b < 0x80) {
      unsigned char c = b;
      bool lower = (unsigned)(b - 'a') < 26u, upper = (unsigned)(b - 'A') < 26u;
      switch (mode) {
      case MODE_LOWER:
      case MODE_FOLD:
        c = upper ? (unsigned char)(b | 0x20) : b;
        break;
      case MODE_UPPER:
        c = lower ? (unsigned char)(b & ~0x20) : b;
        break;
      case MODE_SWAP:
        c = (lower || upper) ? (unsigned char)(b ^ 0x20) : b;
        break;
      case MODE_TITLE:
        if (lower || upper)
          c = prev_cased ? (unsigned char)(b | 0x20) : (unsigned char)(b & ~0x20);
        prev_cased = lower || upper;
        break;
      case MODE_CAPITALIZE:
        if (lower || upper)
          c = i == 0 ? (unsigned char)(b & ~0x20) : (unsigned char)(b | 0x20);
        break;
      }
      any |= c != b;
      if (out)
        out[o] = (char)c;
      i++;
      o++;
      continue;
    }
    int n = seq_len(b);
    size_t used;
    uint32_t cp = nrt_utf8_decode(s + i, (size_t)(len - i), &used);
    const struct nrt_uc_record *r = nrt_uc_record_of(cp);
    int kind = -1; /* -1: unchanged */
    switch (mode) {
    case MODE_LOWER:
      kind = NRT_UC_CASE_LOWER;
      break;
    case MODE_UPPER:
      kind = NRT_UC_CASE_UPPER;
      break;
    case MODE_FOLD:
      kind = NRT_UC_CASE_FOLD;
      break;
    case MODE_SWAP:
      if (r->flags & NRT_UC_F_UPPER)
        kind = NRT_UC_CASE_LOWER;
      else if (r->flags & NRT_UC_F_LOWER)
        kind = NRT_UC_CASE_UPPER;
      break;
    case MODE_TITLE:
      kind = prev_cased ? NRT_UC_CASE_LOWER : NRT_UC_CASE_TITLE;
      prev_cased = (r->flags & NRT_UC_F_CASED) != 0;
      break;
    case MODE_CAPITALIZE:
      kind = i == 0 ? NRT_UC_CASE_TITLE : NRT_UC_CASE_LOWER;
      break;
    }
    uint32_t m[3];
    size_t k = kind < 0 ? 0 : map_cp(s, len, i, i + n, cp, r, kind, m);
    if (k == 0 || (k == 1 && m[0] == cp)) {
      if (out)
        memcpy(out + o, s + i, (size_t)n);
      o += n;
    } else {
      any = true;
      for (size_t j = 0; j < k; j++) {
        if (out)
          o += (int64_t)nrt_utf8_encode(m[j], out + o);
        else
          o += utf8_len(m[j]);
      }
    }
    i += n;
  }
  if (changed)
    *changed = any;
  return o;
}

/* The managed form: s itself when nothing changes, the empty string for empty input,
 * otherwise one new string. */
static int convert_managed(const nrt_str *s, enum case_mode mode, nrt_str *out,
                           struct nrt_error *err) {
  if (s->len == 0) {
    *out = nrt_str_empty();
    return NRT_OK;
  }
  bool changed;
  int64_t n = convert(s->data, s->len, mode, NULL, &changed);
  if (!changed) {
    *out = *s;
    nrt_str_retain(out);
    return NRT_OK;
  }
  char *bytes;
  int rc = nrt_str_alloc(n, out, &bytes, err);
  if (rc != NRT_OK)
    return rc;
  convert(s->data, s->len, mode, bytes, NULL);
  return NRT_OK;
}

#define CASE_OPERATION(name, mode)                                                           \
  NRT_API int64_t nrt_str_##name##_size(const char *s, int64_t len) {                        \
    return convert(s, len, mode, NULL, NULL);                                                \
  }                                                                                          \
  NRT_API int64_t nrt_str_##name##_into(const char *s, int64_t len, char *out) {             \
    return convert(s, len, mode, out, NULL);                                                 \
  }                                                                                          \
  NRT_API int nrt_str_##name(const nrt_str *s, nrt_str *out, struct nrt_error *err) {        \
    return convert_managed(s, mode, out, err);                                               \
  }

CASE_OPERATION(upper, MODE_UPPER)
CASE_OPERATION(lower, MODE_LOWER)
CASE_OPERATION(casefold, MODE_FOLD)
CASE_OPERATION(capitalize, MODE_CAPITALIZE)
CASE_OPERATION(title, MODE_TITLE)
CASE_OPERATION(swapcase, MODE_SWAP)

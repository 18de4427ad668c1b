/* Python's case mapping methods: upper, lower, casefold, capitalize, title, swapcase.
 *
 * One kernel, `convert`, does them all over valid UTF-8 as CPython's unicodeobject.c does
 * (do_upper, do_lower, do_casefold, do_capitalize, do_title, do_swapcase): full mappings from
 * the generated tables (SpecialCasing included), Final_Sigma wherever CPython lowers a
 * character (lower, swapcase, capitalize, title), titlecase for the first letter of a word.
 * With out == NULL it only measures, so _size and _into cannot disagree.
 *
 * Speed: the kernel is inlined into each operation with the mode constant, so every operation
 * gets its own loop. ASCII is mapped 8 or 16 bytes at a time with SWAR arithmetic (title too:
 * the "previous byte is a letter" mask is the letter mask shifted by one byte), ASCII bytes
 * between non-ASCII characters one at a time without decoding, and only non-ASCII characters
 * go through the tables. Pure C, no allocation; compiles unchanged as C++. */
#include <pthread.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "str/case_internal.h"
#include "str/case_latin1.h"
#include "str/str_alloc.h"
#include "str/str_copy.h"
#include "unicode/uc_lookup.h"

#if defined(__GNUC__)
#define CASE_INLINE static inline __attribute__((always_inline))
#else
#define CASE_INLINE static inline
#endif

/* The title SWAR step shifts masks towards later bytes, and partial words find their first
 * non-ASCII byte by counting trailing zeros: little-endian GNU C (or clang) only; elsewhere
 * ASCII between non-ASCII characters is mapped a byte at a time. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LITTLE_WORDS 1
#else
#define LITTLE_WORDS 0
#endif

enum case_mode { MODE_LOWER, MODE_UPPER, MODE_FOLD, MODE_SWAP, MODE_TITLE };
#if NRT_CASE_LATIN1
_Static_assert((int)MODE_LOWER == NRT_CASE_LATIN1_LOWER &&
                   (int)MODE_UPPER == NRT_CASE_LATIN1_UPPER &&
                   (int)MODE_FOLD == NRT_CASE_LATIN1_FOLD,
               "case_latin1.h numbers the modes as case.c does");
#endif

#define ONES 0x0101010101010101ull
#define HIGH 0x8080808080808080ull

CASE_INLINE uint64_t load_word(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, sizeof w);
  return w;
}

/* For a word of ASCII bytes: 0x80 in every byte that lies in [lo, hi], 0 elsewhere (the
 * additions cannot carry between bytes below 0x80). */
CASE_INLINE uint64_t ascii_in_range(uint64_t w, unsigned lo, unsigned hi) {
  uint64_t at_least_lo = w + ONES * (0x80 - lo);
  uint64_t above_hi = w + ONES * (0x80 - hi - 1);
  return at_least_lo & ~above_hi & HIGH;
}

/* The 0x20 bits to flip in a word of ASCII bytes whose first k (1..8) count, the others being
 * zero; *prev: the byte before is cased (title), updated to the k-th byte. */
CASE_INLINE uint64_t word_flip(uint64_t w, enum case_mode mode, bool *prev, int k) {
  uint64_t upper = ascii_in_range(w, 'A', 'Z'), lower = ascii_in_range(w, 'a', 'z');
  switch (mode) {
  case MODE_UPPER:
    return lower >> 2;
  case MODE_SWAP:
    return (upper | lower) >> 2;
  case MODE_TITLE: {
    uint64_t letters = upper | lower;
    uint64_t after_letter = (letters << 8) | (*prev ? 0x80u : 0u);
    *prev = ((letters >> (8 * k - 1)) & 1) != 0;
    return ((upper & after_letter) | (lower & ~after_letter)) >> 2;
  }
  case MODE_LOWER:
  case MODE_FOLD:
    break;
  }
  return upper >> 2;
}

#if !LITTLE_WORDS
/* One ASCII byte mapped; *prev as for word_flip. */
CASE_INLINE unsigned char byte_map(unsigned char b, enum case_mode mode, bool *prev) {
  bool upper = (unsigned)(b - 'A') < 26u, lower = (unsigned)(b - 'a') < 26u;
  bool flip;
  switch (mode) {
  case MODE_UPPER:
    flip = lower;
    break;
  case MODE_SWAP:
    flip = upper || lower;
    break;
  case MODE_TITLE:
    flip = *prev ? upper : lower;
    *prev = upper || lower;
    break;
  case MODE_LOWER:
  case MODE_FOLD:
  default:
    flip = upper;
    break;
  }
  return (unsigned char)(b ^ (flip ? 0x20 : 0));
}
#endif

/* The bytes p[0..n) (1 <= n <= 7) zero-extended into a word, without reading past them. */
CASE_INLINE uint64_t load_small(const unsigned char *p, int64_t n) {
  if (n >= 4) { /* two overlapping 4-byte loads */
    uint32_t lo, hi;
    memcpy(&lo, p, 4);
    memcpy(&hi, p + n - 4, 4);
    return (uint64_t)lo | (((uint64_t)hi >> (8 * (8 - n))) << 32);
  }
  return (uint64_t)p[0] | ((uint64_t)p[n >> 1] << (8 * (n >> 1))) |
         ((uint64_t)p[n - 1] << (8 * (n - 1)));
}

/* Up to 8 bytes of u[i..len) (i < len) zero-extended into a word, with fixed-size loads:
 * variable-size copies become library calls, which cost more than the mapping itself. */
CASE_INLINE uint64_t load_upto8(const unsigned char *u, int64_t i, int64_t len) {
  int64_t avail = len - i;
  if (avail >= 8)
    return load_word(u + i);
  if (len >= 8) /* the last 8 bytes, the ones before i shifted out */
    return load_word(u + len - 8) >> (8 * (8 - avail));
  return load_small(u + i, avail);
}

/* Encodes cp (a valid scalar value) at out; returns the byte count. */
CASE_INLINE int encode(uint32_t cp, char *out) {
  return nrt_uc_encode_utf8(cp, out);
}

/* Copies the n-byte (2..4) sequence at p to out. */
CASE_INLINE void copy_seq(char *out, const unsigned char *p, int n) {
  out[0] = (char)p[0];
  out[1] = (char)p[1];
  if (n > 2)
    out[2] = (char)p[2];
  if (n > 3)
    out[3] = (char)p[3];
}

/* Decodes the non-ASCII code point at p (valid UTF-8) and sets *n to its length. */
CASE_INLINE uint32_t decode(const unsigned char *p, int *n) {
  unsigned char b = p[0];
  if (b < 0xE0) {
    *n = 2;
    return ((uint32_t)(b & 0x1F) << 6) | (p[1] & 0x3Fu);
  }
  if (b < 0xF0) {
    *n = 3;
    return ((uint32_t)(b & 0x0F) << 12) | ((uint32_t)(p[1] & 0x3F) << 6) | (p[2] & 0x3Fu);
  }
  *n = 4;
  return ((uint32_t)(b & 0x07) << 18) | ((uint32_t)(p[1] & 0x3F) << 12) |
         ((uint32_t)(p[2] & 0x3F) << 6) | (p[3] & 0x3Fu);
}

/* Byte length of the UTF-8 encoding of cp. */
CASE_INLINE int utf8_len(uint32_t cp) {
  return cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
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

/* Maps code point cp, found at s[at..at+n) with record r, by table `kind` (Final_Sigma applied
 * for lowering), writing at out + o when out is not NULL. Returns the bytes produced; *any is
 * set when the result differs from cp. */
CASE_INLINE int64_t emit_mapped(const char *s, int64_t len, int64_t at, int n, uint32_t cp,
                                const struct nrt_uc_record *r, int kind, char *out, int64_t o,
                                uint64_t *any) {
  uint32_t single;
  const uint32_t *seq;
  size_t k;
  if (!(r->ext & (1u << kind)) && !(kind == NRT_UC_CASE_LOWER && cp == 0x3A3)) {
    /* The common case, one code point at a fixed distance: no sequence to walk. */
    uint32_t m = (uint32_t)((int32_t)cp + r->cases[kind]);
    if (m == cp) {
      if (out)
        copy_seq(out + o, (const unsigned char *)s + at, n);
      return n;
    }
    *any = 1;
    return out ? encode(m, out + o) : utf8_len(m);
  }
  if (kind == NRT_UC_CASE_LOWER && cp == 0x3A3) {
    single = lower_sigma(s, len, at, at + n);
    seq = &single;
    k = 1;
  } else {
    k = nrt_uc_case_seq(r, cp, kind, &single, &seq);
  }
  if (k == 1 && seq[0] == cp) {
    if (out)
      copy_seq(out + o, (const unsigned char *)s + at, n);
    return n;
  }
  *any = 1;
  int64_t produced = 0;
  for (size_t j = 0; j < k; j++) {
    if (out)
      produced += encode(seq[j], out + o + produced);
    else
      produced += utf8_len(seq[j]);
  }
  return produced;
}

/* Direct tables for the characters of two and three bytes, derived from the full case
 * machinery below (so they agree with it by construction) when first needed:
 *  - two[mode][cp - 0x80] for U+0080..U+07FF (Latin, Greek, Cyrillic, ...), built once: the
 *    mapped bytes (at most 3, little-endian in bits 0..23), their count in bits 24..25 (0: use
 *    the full path: capital sigma, whose lowercase depends on its context, and the few
 *    characters that expand past 3 bytes), FAST_CHANGED, and FAST_CASED (title's "previous is
 *    cased");
 *  - three[mode][lead & 15], each found the first time a text needs it: THREE_SAME when every
 *    code point behind this 3-byte lead byte maps to itself (for title also uncased and
 *    unchanged by lower), so CJK, kana and most symbols are copied; THREE_FULL otherwise.
 * A table lookup replaces the decode, the two-stage record lookup and the mapping of each such
 * character. */
#define FAST_CHANGED (UINT32_C(1) << 26)
#define FAST_CASED (UINT32_C(1) << 27)
enum { FAST_LOWER = MODE_LOWER, FAST_MODES = MODE_TITLE + 1 };
enum { THREE_UNKNOWN = 0, THREE_SAME = 1, THREE_FULL = 2 };
struct fast_tables {
  uint32_t two[FAST_MODES][0x800 - 0x80];
  unsigned char three[FAST_MODES][16]; /* read and written with relaxed __atomic builtins */
};
static const struct fast_tables *fast_tables_get(void);
static bool three_same(int mode, unsigned lead);

/* Case conversion `mode` of s[from..len) (s[0..from) is context for Final_Sigma only; title
 * starts a word at `from`): writes it at out (when not NULL) and returns its byte length;
 * *changed (when not NULL) says whether it differs from the input. With `slack`, out has room
 * for 8 bytes past the result at every point, so ASCII runs are stored as whole words. `fast`:
 * use the direct tables (off only while building them, and in the reference form). */
CASE_INLINE int64_t convert(const char *s, int64_t len, int64_t from, enum case_mode mode,
                            char *out, bool *changed, bool slack, bool fast) {
  const unsigned char *u = (const unsigned char *)s;
  int64_t i = from, o = 0;
  uint64_t any = 0;
  bool prev = false; /* title: the previous character is cased */
  const struct fast_tables *ft = NULL; /* looked up at the first non-ASCII character */
#if NRT_CASE_LATIN1
  /* Text of U+0000..U+00FF in bulk (with AVX-512BW); the loops below go on from where that
   * stops. Not for a whole string of at most 64 bytes: every caller with `fast` offered it to
   * the one-step path first (try_short), and the prefix would fail where that did. */
  if (fast && mode <= MODE_FOLD && i < len && (from > 0 || len > 64)) {
    bool latin1_changed;
    int64_t k = nrt_case_latin1_prefix(s + i, len - i, (int)mode, out, &latin1_changed);
    i += k;
    o += k;
    any = latin1_changed;
  }
#endif
  /* Word loops over long ASCII runs; with slack (short inputs) the one-word step below
   * handles runs of any length, and the loops' setup would cost more than they save. */
  const bool by_words = (mode != MODE_TITLE || LITTLE_WORDS) && !(slack && LITTLE_WORDS);
  while (i < len) {
    if (by_words) {
      if (mode != MODE_TITLE) {
        while (i + 16 <= len) {
          uint64_t w0 = load_word(u + i), w1 = load_word(u + i + 8);
          if ((w0 | w1) & HIGH)
            break;
          uint64_t f0 = word_flip(w0, mode, &prev, 8), f1 = word_flip(w1, mode, &prev, 8);
          any |= f0 | f1;
          if (out) {
            w0 ^= f0;
            w1 ^= f1;
            memcpy(out + o, &w0, 8);
            memcpy(out + o + 8, &w1, 8);
          }
          i += 16;
          o += 16;
        }
      }
      while (i + 8 <= len) {
        uint64_t w = load_word(u + i);
        if (w & HIGH)
          break;
        uint64_t f = word_flip(w, mode, &prev, 8);
        any |= f;
        if (out) {
          w ^= f;
          memcpy(out + o, &w, 8);
        }
        i += 8;
        o += 8;
      }
    }
#if LITTLE_WORDS
    /* Fewer than 8 bytes left, or a non-ASCII byte among the next 8: map the ASCII bytes in
     * front of it as one word. */
    if (i >= len) /* the word loops reached the end */
      break;
    {
      int64_t avail = len - i < 8 ? len - i : 8;
      uint64_t w = load_upto8(u, i, len);
      uint64_t high = w & HIGH;
      int k = high ? __builtin_ctzll(high) >> 3 : (int)avail;
      if (k > 0) {
        w &= k == 8 ? ~0ull : (1ull << (8 * k)) - 1;
        uint64_t f = word_flip(w, mode, &prev, k);
        any |= f;
        if (out) {
          w ^= f;
          if (slack)
            memcpy(out + o, &w, 8);
          else /* exactly k bytes: the caller may have reserved only the result's length */
            nrt_short_store_upto8(out + o, w, (unsigned)k);
        }
        i += k;
        o += k;
      }
      if (!high) /* 8 ASCII bytes (no word loop ran) or the end */
        continue;
    }
#else
    while (i < len && u[i] < 0x80) {
      unsigned char c = byte_map(u[i], mode, &prev);
      any |= (uint64_t)(c ^ u[i]);
      if (out)
        out[o] = (char)c;
      i++;
      o++;
    }
#endif
    if (i >= len)
      break;
    if (fast) {
      if (!ft)
        ft = fast_tables_get();
      unsigned char b0 = u[i];
      if (b0 < 0xE0) { /* two bytes: the direct table */
        int t = mode == MODE_TITLE && prev ? FAST_LOWER : (int)mode;
        uint32_t e = ft->two[t][(((unsigned)b0 & 0x1F) << 6 | (u[i + 1] & 0x3Fu)) - 0x80];
        int64_t m = (e >> 24) & 3;
        if (m) {
          if (out) {
            if (slack) {
              memcpy(out + o, &e, 4); /* little-endian: the bytes first (slack: room) */
            } else {
              out[o] = (char)e;
              if (m > 1)
                out[o + 1] = (char)(e >> 8);
              if (m > 2)
                out[o + 2] = (char)(e >> 16);
            }
          }
          any |= e & FAST_CHANGED;
          prev = (e & FAST_CASED) != 0;
          i += 2;
          o += m;
          continue;
        }
      } else if (b0 < 0xF0 && three_same(mode, b0 & 0x0Fu)) {
        /* three bytes whose every code point maps to itself (and is uncased) */
        if (out)
          copy_seq(out + o, u + i, 3);
        prev = false;
        i += 3;
        o += 3;
        continue;
      }
    }
    int n;
    uint32_t cp = decode(u + i, &n);
    const struct nrt_uc_record *r = nrt_uc_record_of(cp);
    int kind = -1; /* -1: copied unchanged */
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
      kind = prev ? NRT_UC_CASE_LOWER : NRT_UC_CASE_TITLE;
      prev = (r->flags & NRT_UC_F_CASED) != 0;
      break;
    }
    if (kind < 0) {
      if (out)
        copy_seq(out + o, u + i, n);
      o += n;
    } else {
      o += emit_mapped(s, len, i, n, cp, r, kind, out, o, &any);
    }
    i += n;
  }
  if (changed)
    *changed = any != 0;
  return o;
}

/* capitalize: the first character titlecased, the rest lowered (CPython 3.8+). */
CASE_INLINE int64_t capitalize(const char *s, int64_t len, char *out, bool *changed,
                               bool slack, bool fast) {
  if (len == 0) {
    if (changed)
      *changed = false;
    return 0;
  }
  const unsigned char *u = (const unsigned char *)s;
  uint64_t any = 0;
  int64_t o;
  int n = 1;
  if (u[0] < 0x80) {
    unsigned char c = (unsigned)(u[0] - 'a') < 26u ? (unsigned char)(u[0] ^ 0x20) : u[0];
    any = c != u[0];
    if (out)
      out[0] = (char)c;
    o = 1;
  } else {
    uint32_t cp = decode(u, &n);
    o = emit_mapped(s, len, 0, n, cp, nrt_uc_record_of(cp), NRT_UC_CASE_TITLE, out, 0, &any);
  }
  bool rest_changed;
  o += convert(s, len, n, MODE_LOWER, out ? out + o : NULL, &rest_changed, slack, fast);
  if (changed)
    *changed = any || rest_changed;
  return o;
}

/* The length of one encoded character, 1..4, said so: the compiler then sees that convert()'s
 * word loops never read past a 4-byte buffer (gcc -Os warned they might). */
static inline int64_t short_seq(int n) { return n > 4 ? 4 : n; }

static struct fast_tables fast_tables;
static int fast_ready; /* set (release) once the tables are built: __atomic builtins, C and C++ */
static pthread_once_t fast_once = PTHREAD_ONCE_INIT;

static void build_fast_tables(void) {
  for (int m = 0; m < FAST_MODES; m++) {
    enum case_mode mode = (enum case_mode)m;
    for (uint32_t cp = 0x80; cp < 0x800; cp++) {
      char in[4], out[16];
      bool changed;
      int64_t k = convert(in, short_seq(encode(cp, in)), 0, mode, out, &changed, false, false);
      uint32_t e = 0;
      if (cp != 0x3A3 && k >= 1 && k <= 3) {
        for (int64_t j = 0; j < k; j++)
          e |= (uint32_t)(unsigned char)out[j] << (8 * j);
        e |= (uint32_t)k << 24;
        e |= changed ? FAST_CHANGED : 0;
        e |= (nrt_uc_flags_of(cp) & NRT_UC_F_CASED) ? FAST_CASED : 0;
      }
      fast_tables.two[m][cp - 0x80] = e;
    }
  }
  __atomic_store_n(&fast_ready, 1, __ATOMIC_RELEASE);
}

/* three[mode][lead], found on first use. Threads that race compute the same answer. */
static bool three_same(int mode, unsigned lead) {
  unsigned char *slot = &fast_tables.three[mode][lead];
  unsigned char state = __atomic_load_n(slot, __ATOMIC_RELAXED);
  if (state == THREE_UNKNOWN) {
    bool same = mode != MODE_TITLE || three_same(FAST_LOWER, lead);
    for (uint32_t cp = lead << 12; same && cp < (lead + 1) << 12; cp++) {
      if (cp < 0x800 || (cp >= 0xD800 && cp < 0xE000))
        continue; /* not encoded with three bytes */
      char in[4], out[16];
      bool changed;
      convert(in, short_seq(encode(cp, in)), 0, (enum case_mode)mode, out, &changed, false,
              false);
      same = !changed && (mode != MODE_TITLE || !(nrt_uc_flags_of(cp) & NRT_UC_F_CASED));
    }
    state = same ? THREE_SAME : THREE_FULL;
    __atomic_store_n(slot, state, __ATOMIC_RELAXED);
  }
  return state == THREE_SAME;
}

static const struct fast_tables *fast_tables_get(void) {
  if (!__atomic_load_n(&fast_ready, __ATOMIC_ACQUIRE))
    pthread_once(&fast_once, build_fast_tables);
  return &fast_tables;
}

int64_t nrt_str_case_reference(int op, const char *s, int64_t len, char *out) {
  if (op == NRT_CASE_REF_CAPITALIZE)
    return capitalize(s, len, out, NULL, false, false);
  return convert(s, len, 0, (enum case_mode)op, out, NULL, false, false);
}

/* The one-step fast path of a short string (case_latin1.h) for the modes that have one, tried
 * before convert: its call costs a fraction of convert's entry. -1: not taken. */
CASE_INLINE int64_t try_short(enum case_mode mode, const char *s, int64_t len, char *out,
                              bool *changed) {
#if NRT_CASE_LATIN1
  if (mode <= MODE_FOLD && len > 0 && len <= 64)
    return nrt_case_latin1_short(s, len, (int)mode, out, changed);
#else
  (void)mode, (void)s, (void)len, (void)out, (void)changed;
#endif
  return -1;
}

/* _size, _into and _into_padded of one operation (of mode `mode`); call(out, slack) runs it,
 * in a function of its own so that the fast path's callers pay no entry of convert's. */
#define CASE_KERNELS(name, call, mode)                                                         \
  static __attribute__((noinline)) int64_t name##_general(const char *s, int64_t len,          \
                                                          char *out, bool slack) {             \
    return call(out, slack);                                                                   \
  }                                                                                            \
  NRT_API int64_t nrt_str_##name##_size(const char *s, int64_t len) {                          \
    int64_t n = try_short(mode, s, len, NULL, NULL);                                           \
    return n >= 0 ? n : name##_general(s, len, NULL, false);                                   \
  }                                                                                            \
  NRT_API int64_t nrt_str_##name##_into(const char *s, int64_t len, char *out) {               \
    int64_t n = try_short(mode, s, len, out, NULL);                                            \
    return n >= 0 ? n : name##_general(s, len, out, false);                                    \
  }                                                                                            \
  NRT_API int64_t nrt_str_##name##_into_padded(const char *s, int64_t len, char *out) {        \
    int64_t n = try_short(mode, s, len, out, NULL);                                            \
    return n >= 0 ? n : name##_general(s, len, out, true);                                     \
  }
#define CALL_UPPER(out, slack) convert(s, len, 0, MODE_UPPER, out, NULL, slack, true)
#define CALL_LOWER(out, slack) convert(s, len, 0, MODE_LOWER, out, NULL, slack, true)
#define CALL_FOLD(out, slack) convert(s, len, 0, MODE_FOLD, out, NULL, slack, true)
#define CALL_TITLE(out, slack) convert(s, len, 0, MODE_TITLE, out, NULL, slack, true)
#define CALL_SWAP(out, slack) convert(s, len, 0, MODE_SWAP, out, NULL, slack, true)
#define CALL_CAPITALIZE(out, slack) capitalize(s, len, out, NULL, slack, true)
CASE_KERNELS(upper, CALL_UPPER, MODE_UPPER)
CASE_KERNELS(lower, CALL_LOWER, MODE_LOWER)
CASE_KERNELS(casefold, CALL_FOLD, MODE_FOLD)
CASE_KERNELS(title, CALL_TITLE, MODE_TITLE)
CASE_KERNELS(swapcase, CALL_SWAP, MODE_SWAP)
CASE_KERNELS(capitalize, CALL_CAPITALIZE, MODE_TITLE) /* no fast path either */

/* The operations of the managed forms: the case modes plus capitalize. */
#define MODE_CAPITALIZE ((enum case_mode)(MODE_TITLE + 1))

/* Writes op(s) to out and says whether it changes s (slack: see convert). */
CASE_INLINE int64_t run_op(enum case_mode op, const char *s, int64_t len, char *out,
                           bool *changed, bool slack) {
  if (op == MODE_CAPITALIZE)
    return capitalize(s, len, out, changed, slack, true);
  return convert(s, len, 0, op, out, changed, slack, true);
}

/* Inputs up to this many bytes are converted once into a stack buffer (a mapping at most
 * triples the bytes; 8 more for whole-word stores) and copied; longer ones are measured, then
 * converted in place. */
#define SHORT_INPUT 256

/* The managed form: the empty string for empty input, s itself (retained) when nothing
 * changes, otherwise one new string. Inlined per operation: no indirect call. */
CASE_INLINE int convert_managed(const nrt_str *s, enum case_mode op, nrt_str *out,
                                struct nrt_error *err) {
  if (s->len == 0) {
    *out = nrt_str_empty();
    return NRT_OK;
  }
  bool changed;
  char buf[3 * SHORT_INPUT + 8];
  int64_t n;
  if (s->len <= SHORT_INPUT) {
    n = try_short(op, s->data, s->len, buf, &changed);
    if (n < 0)
      n = run_op(op, s->data, s->len, buf, &changed, true);
  } else
    n = run_op(op, s->data, s->len, NULL, &changed, false);
  if (!changed) {
    nrt_str_copy(out, s);
    nrt_str_retain(out);
    return NRT_OK;
  }
  char *bytes;
  int rc = s->len <= SHORT_INPUT ? nrt_str_alloc_nonempty(n, out, &bytes, err) /* 0 < n */
                                 : nrt_str_alloc(n, out, &bytes, err);
  if (rc != NRT_OK)
    return rc;
  if (s->len <= SHORT_INPUT)
    nrt_copy_short(bytes, buf, n);
  else
    run_op(op, s->data, s->len, bytes, NULL, false);
  return NRT_OK;
}

/* op of one ASCII character (a character loop's `c.lower()`): s itself when unchanged, else
 * the static one-character string. Tried before convert_managed, whose stack buffer makes
 * its entry cost more than this whole mapping. */
static inline bool ascii_char_managed(const nrt_str *s, enum case_mode op, nrt_str *out) {
  if (s->len != 1 || (unsigned char)s->data[0] >= 0x80)
    return false;
  unsigned char c = (unsigned char)s->data[0], m = c;
  bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z';
  bool to_lower = op == MODE_LOWER || op == MODE_FOLD || op == MODE_SWAP;
  bool to_upper = !(op == MODE_LOWER || op == MODE_FOLD);
  if (upper && to_lower)
    m = (unsigned char)(c + 32);
  else if (lower && to_upper)
    m = (unsigned char)(c - 32);
  if (m == c) {
    nrt_str_copy(out, s);
    nrt_str_retain(out);
  } else {
    *out = nrt_str_view(&nrt_str_ascii_table[2 * m], 1);
  }
  return true;
}

#define CASE_MANAGED(name, op)                                                                 \
  static __attribute__((noinline)) int name##_managed(const nrt_str *s, nrt_str *out,           \
                                                      struct nrt_error *err) {                 \
    return convert_managed(s, op, out, err);                                                   \
  }                                                                                            \
  NRT_API int nrt_str_##name(const nrt_str *s, nrt_str *out, struct nrt_error *err) {          \
    if (ascii_char_managed(s, op, out))                                                        \
      return NRT_OK;                                                                           \
    return name##_managed(s, out, err);                                                        \
  }
CASE_MANAGED(upper, MODE_UPPER)
CASE_MANAGED(lower, MODE_LOWER)
CASE_MANAGED(casefold, MODE_FOLD)
CASE_MANAGED(title, MODE_TITLE)
CASE_MANAGED(swapcase, MODE_SWAP)
CASE_MANAGED(capitalize, MODE_CAPITALIZE)

/* The branch-free short-string paths (src/str/str_short.h and its users): every length 0..70
 * (around the 8-byte words, the 32-byte cover and the word loops beyond it), with 2-, 3- and
 * 4-byte characters at every position and ASCII/non-ASCII boundaries, against plain byte-loop
 * references. Every input lies in a heap block of exactly its size, so a read past its end is
 * caught by ASan and valgrind. */
#include <stdlib.h>

#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "support/check.h"

#define MAXLEN 70

/* Fewer strings under valgrind and the sanitizers (still past the 32-byte cover). */
#if defined(NRT_UNDER_SANITIZER)
#define LIGHT 1
#else
#define LIGHT (getenv("NRT_UNDER_VALGRIND") != NULL)
#endif

/* The lead bytes of the characters placed in the strings: ASCII letter, 2-, 3-, 4-byte. */
static const char *const CHARS[] = {"a", "\xc3\xa9", "\xe6\xbc\xa2", "\xf0\x9f\x98\x80"};

/* A heap copy of exactly n bytes (n == 0: a 1-byte block, never read). */
static char *exact(const char *s, int64_t n) {
  char *p = malloc(n ? (size_t)n : 1);
  memcpy(p, s, (size_t)n);
  return p;
}

static int64_t ref_len(const char *s, int64_t n) {
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++)
    k += ((unsigned char)s[i] & 0xC0) != 0x80;
  return k;
}

static bool ref_ascii(const char *s, int64_t n) {
  for (int64_t i = 0; i < n; i++)
    if ((unsigned char)s[i] >= 0x80)
      return false;
  return true;
}

/* Calls f on every test string: n bytes of `fill` with the character CHARS[c] at byte `at`
 * (and, for c > 0, also as the last character when it fits), plus the pure fill. */
typedef void (*case_fn)(const char *s, int64_t n, int *bad);

/* Longest string each_string makes: MAXLEN, or 40 under valgrind (past the 32-byte cover). */
static int each_max = MAXLEN;

static void each_string(char fill, case_fn f, int *bad) {
  char buf[MAXLEN + 8];
  for (int n = 0; n <= each_max; n++) {
    memset(buf, fill, (size_t)n);
    char *p = exact(buf, n);
    f(p, n, bad);
    free(p);
    for (int c = 1; c < 4; c++) {
      int w = (int)strlen(CHARS[c]);
      for (int at = 0; at + w <= n; at++) {
        memset(buf, fill, (size_t)n);
        memcpy(buf + at, CHARS[c], (size_t)w);
        const char *other = CHARS[(c % 3) + 1]; /* mixed widths: another one at the end */
        int ow = (int)strlen(other);
        if (at + w + ow <= n && (at & 1))
          memcpy(buf + n - ow, other, (size_t)ow);
        p = exact(buf, n);
        f(p, n, bad);
        free(p);
      }
    }
  }
}

static void check_len_ascii(const char *s, int64_t n, int *bad) {
  *bad += nrt_str_len(s, n) != ref_len(s, n);
  *bad += nrt_str_isascii(s, n) != ref_ascii(s, n);
  *bad += nrt_str_is_ascii_bytes(s, n) != ref_ascii(s, n);
}

static void test_len_ascii(void) {
  int bad = 0;
  /* the 16- and 64-byte vector loops up to 1,100 bytes: a 3-byte character near the start,
   * middle and end */
  static char big[1100];
  for (int n = 0; n <= 1100; n += 1 + n / 50)
    for (int at = 0; at < 3; at++) {
      memset(big, 'q', (size_t)n);
      int pos = at == 0 ? 0 : at == 1 ? n / 2 : n - 3;
      if (n >= 3 && pos >= 0)
        memcpy(big + pos, "\xe6\xbc\xa2", 3);
      char *p = exact(big, n);
      check_len_ascii(p, n, &bad);
      free(p);
    }
  each_string('x', check_len_ascii, &bad);
  each_string('\0', check_len_ascii, &bad); /* NUL is valid UTF-8, and equals the padding */
  CHECK_EQ_INT(bad, 0);
}

/* ---- split / rsplit (sep None) and splitlines against plain walkers over the bytes */

/* Byte length of the whitespace character at s[i] (str.isspace), or 0. Knows the ASCII ones
 * and the non-ASCII ones the generator uses (U+0085, U+00A0, U+2028, U+3000). */
static int ws_at(const char *s, int64_t n, int64_t i) {
  unsigned char b = (unsigned char)s[i];
  if ((b >= 0x09 && b <= 0x0D) || (b >= 0x1C && b <= 0x20))
    return 1;
  if (b == 0xC2 && i + 1 < n && ((unsigned char)s[i + 1] == 0x85 || (unsigned char)s[i + 1] == 0xA0))
    return 2;
  if (i + 2 < n && ((b == 0xE2 && memcmp(s + i, "\xe2\x80\xa8", 3) == 0) ||
                    (b == 0xE3 && memcmp(s + i, "\xe3\x80\x80", 3) == 0)))
    return 3;
  return 0;
}

/* Start of the character ending at s[end) (valid UTF-8, end > 0). */
static int64_t char_before(const char *s, int64_t end) {
  int64_t i = end - 1;
  while (i > 0 && ((unsigned char)s[i] & 0xC0) == 0x80)
    i--;
  return i;
}

static int ws_before(const char *s, int64_t n, int64_t end) {
  int64_t i = char_before(s, end);
  int w = ws_at(s, n, i);
  return w == end - i ? w : 0;
}

/* Python's split(None, maxsplit) as byte ranges; returns the count. */
static int ref_split(const char *s, int64_t n, int64_t maxsplit, int64_t *r) {
  int k = 0;
  int64_t i = 0;
  if (maxsplit < 0)
    maxsplit = INT64_MAX;
  while (maxsplit-- > 0) {
    while (i < n && ws_at(s, n, i))
      i += ws_at(s, n, i);
    if (i == n)
      break;
    int64_t j = i;
    while (i < n && !ws_at(s, n, i))
      i++;
    r[2 * k] = j;
    r[2 * k + 1] = i;
    k++;
  }
  while (i < n && ws_at(s, n, i))
    i += ws_at(s, n, i);
  if (i < n) {
    r[2 * k] = i;
    r[2 * k + 1] = n;
    k++;
  }
  return k;
}

/* Python's rsplit(None, maxsplit) as byte ranges in order; returns the count. */
static int ref_rsplit(const char *s, int64_t n, int64_t maxsplit, int64_t *r) {
  int64_t tmp[2 * 80];
  int k = 0;
  int64_t i = n;
  if (maxsplit < 0)
    maxsplit = INT64_MAX;
  while (maxsplit-- > 0) {
    while (i > 0 && ws_before(s, n, i))
      i -= ws_before(s, n, i);
    if (i == 0)
      break;
    int64_t j = i;
    while (i > 0 && !ws_before(s, n, i))
      i = char_before(s, i);
    tmp[2 * k] = i;
    tmp[2 * k + 1] = j;
    k++;
  }
  while (i > 0 && ws_before(s, n, i))
    i -= ws_before(s, n, i);
  if (i > 0) {
    tmp[2 * k] = 0;
    tmp[2 * k + 1] = i;
    k++;
  }
  for (int a = 0; a < k; a++) {
    r[2 * a] = tmp[2 * (k - 1 - a)];
    r[2 * a + 1] = tmp[2 * (k - 1 - a) + 1];
  }
  return k;
}

/* Python's splitlines(keepends) as byte ranges; returns the count. */
static int ref_splitlines(const char *s, int64_t n, bool keepends, int64_t *r) {
  int k = 0;
  int64_t i = 0;
  while (i < n) {
    int64_t j = i, brk = 0;
    while (i < n) {
      unsigned char b = (unsigned char)s[i];
      if (b == '\r')
        brk = i + 1 < n && s[i + 1] == '\n' ? 2 : 1;
      else if ((b >= 0x0A && b <= 0x0C) || (b >= 0x1C && b <= 0x1E))
        brk = 1;
      else if (b == 0xC2 && i + 1 < n && (unsigned char)s[i + 1] == 0x85)
        brk = 2;
      else if (b == 0xE2 && i + 2 < n && (unsigned char)s[i + 1] == 0x80 &&
               ((unsigned char)s[i + 2] == 0xA8 || (unsigned char)s[i + 2] == 0xA9))
        brk = 3;
      if (brk)
        break;
      i++;
    }
    r[2 * k] = j;
    r[2 * k + 1] = keepends ? i + brk : i;
    k++;
    i += brk;
  }
  return k;
}

/* Counts a difference between list l (then released) and the ranges r[0..k) of s. */
static void compare_list(nrt_str_list *l, const char *s, const int64_t *r, int k, int *bad) {
  if (!l) {
    (*bad)++;
    return;
  }
  if (l->len != k) {
    (*bad)++;
  } else {
    for (int i = 0; i < k; i++)
      *bad += !nrt_str_eq(l->items[i].data, l->items[i].len, s + r[2 * i],
                          r[2 * i + 1] - r[2 * i]);
  }
  nrt_str_list_release(l);
}

static void check_split(const char *s, int64_t n, int *bad) {
  int64_t r[2 * 80];
  nrt_str v = nrt_str_view(s, n);
  for (int64_t maxsplit = -1; maxsplit <= 3; maxsplit++) {
    nrt_str_list *l = NULL;
    int rc = nrt_str_split(&v, NULL, maxsplit, &l, NULL);
    *bad += rc != NRT_OK;
    compare_list(l, s, r, ref_split(s, n, maxsplit, r), bad);
    l = NULL;
    rc = nrt_str_rsplit(&v, NULL, maxsplit, &l, NULL);
    *bad += rc != NRT_OK;
    compare_list(l, s, r, ref_rsplit(s, n, maxsplit, r), bad);
  }
  for (int keep = 0; keep < 2; keep++) {
    nrt_str_list *l = NULL;
    int rc = nrt_str_splitlines(&v, keep, &l, NULL);
    *bad += rc != NRT_OK;
    compare_list(l, s, r, ref_splitlines(s, n, keep, r), bad);
  }
}

static uint64_t rng_state = 0x243F6A8885A308D3ULL;
static uint64_t rng(void) {
  rng_state ^= rng_state >> 12;
  rng_state ^= rng_state << 25;
  rng_state ^= rng_state >> 27;
  return rng_state * 0x2545F4914F6CDD1DULL;
}

/* Random strings of 0..40 characters mixing letters, ASCII and non-ASCII whitespace and line
 * boundaries, and non-ASCII letters whose lead bytes neighbour the whitespace ones. */
static void random_strings(case_fn f, int count, int *bad) {
  static const char *const TOKENS[] = {
      "a", "b", "a", "b", " ", " ", "\t", "\n", "\r", "\r\n", "\x1c", "\x1f", "\x0b",
      "\xc3\xa9", "\xc2\xa0", "\xc2\x85", "\xc2\xa9", "\xe3\x80\x80", "\xe2\x80\xa8",
      "\xe2\x80\x93", "\xe1\x9a\x81", "\xe6\xbc\xa2", "\xf0\x9f\x98\x80"};
  char buf[200];
  for (int t = 0; t < count; t++) {
    int chars = (int)(rng() % 41), n = 0;
    bool ascii_only = rng() % 3 == 0;
    for (int k = 0; k < chars; k++) {
      const char *tok = TOKENS[rng() % (ascii_only ? 13 : sizeof TOKENS / sizeof TOKENS[0])];
      size_t l = strlen(tok);
      memcpy(buf + n, tok, l);
      n += (int)l;
    }
    char *p = exact(buf, n);
    f(p, n, bad);
    free(p);
  }
}

static void test_split(void) {
  int bad = 0;
  each_string('a', check_split, &bad);
  each_string(' ', check_split, &bad);
  each_string('\n', check_split, &bad);
  random_strings(check_split, LIGHT ? 3000 : 30000, &bad);
  CHECK_EQ_INT(bad, 0);
}

/* ---- slices with steps 1 and -1 against a walk over the code point offsets */

/* One slice bound as slice.indices adjusts it: None is `none`, negatives count from the end,
 * and the result lies in [lo, hi]. */
static int64_t ref_bound(int64_t x, int64_t none, int64_t n, int64_t lo, int64_t hi) {
  if (x == NRT_STR_NONE)
    return none;
  if (x < 0)
    return x + n < lo ? lo : x + n;
  return x > hi ? hi : x;
}

/* Python's slice.indices for a string of n code points; returns the count. */
static int64_t ref_indices(int64_t n, int64_t *start, int64_t stop, int64_t step) {
  int64_t lo = step > 0 ? 0 : -1, hi = step > 0 ? n : n - 1;
  int64_t b = ref_bound(*start, step < 0 ? hi : lo, n, lo, hi);
  int64_t e = ref_bound(stop, step < 0 ? lo : hi, n, lo, hi);
  *start = b;
  if (step > 0)
    return b < e ? (e - b - 1) / step + 1 : 0;
  return e < b ? (b - e - 1) / -step + 1 : 0;
}

static void check_slices(const char *s, int64_t n, int *bad) {
  static const int64_t B[] = {NRT_STR_NONE, 0, 1, 2, 5, -1, -2, -7, 40, -40};
  int64_t off[80], cps = 0;
  for (int64_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      off[cps++] = i;
  off[cps] = n;
  nrt_str v = nrt_str_view(s, n);
  char want[200];
  for (size_t a = 0; a < sizeof B / sizeof B[0]; a++)
    for (size_t b = 0; b < sizeof B / sizeof B[0]; b++)
      for (int64_t step = -1; step <= 1; step += 2) {
        int64_t start = B[a];
        int64_t count = ref_indices(cps, &start, B[b], step), w = 0;
        for (int64_t k = 0; k < count; k++) {
          int64_t cp = start + k * step;
          memcpy(want + w, s + off[cp], (size_t)(off[cp + 1] - off[cp]));
          w += off[cp + 1] - off[cp];
        }
        nrt_str r;
        int rc = nrt_str_slice(&v, B[a], B[b], step == 1 && a % 2 ? NRT_STR_NONE : step, &r,
                               NULL);
        *bad += rc != NRT_OK || !nrt_str_eq(r.data, r.len, want, w);
        nrt_str_release(&r);
      }
}

/* s[:k] and s[k:] of every k (code point offsets: whole words, and the last bytes of the
 * string as one zero-padded word), against counting lead bytes. */
static void check_prefixes(const char *s, int64_t n, int *bad) {
  for (int64_t k = 0; k <= n + 1; k++) {
    int64_t want = n, seen = 0;
    for (int64_t i = 0; i < n; i++)
      if (((unsigned char)s[i] & 0xC0) != 0x80 && seen++ == k) {
        want = i;
        break;
      }
    int64_t b0, b1;
    nrt_str_slice_range(s, n, 0, k, &b0, &b1);
    *bad += b0 != 0 || b1 != want;
    nrt_str_slice_range(s, n, k, NRT_STR_NONE, &b0, &b1);
    *bad += b0 != want || b1 != n;
  }
}

static void test_slices(void) {
  int bad = 0;
  each_string('a', check_prefixes, &bad);
  each_string('a', check_slices, &bad);
  random_strings(check_slices, LIGHT ? 300 : 3000, &bad);
  CHECK_EQ_INT(bad, 0);
}

/* ---- copies into new strings: nrt_str_new and concatenation at every pair of lengths */

static void test_copies(void) {
  int bad = 0;
  char a[MAXLEN + 1], b[MAXLEN + 1], want[2 * MAXLEN + 2];
  for (int i = 0; i < MAXLEN; i++) {
    a[i] = (char)('A' + i % 26);
    b[i] = (char)('a' + (i * 7) % 26);
  }
  for (int n = 0; n <= MAXLEN; n++) {
    char *pa = exact(a, n);
    nrt_str r;
    bad += nrt_str_new(pa, n, &r, NULL) != NRT_OK || !nrt_str_eq(r.data, r.len, a, n) ||
           r.data[n] != '\0' || (n > 0) != (r.mi != NULL);
    nrt_str_release(&r);
    for (int m = 0; m <= 40; m++) {
      char *pb = exact(b, m);
      nrt_str va = nrt_str_view(pa, n), vb = nrt_str_view(pb, m);
      memcpy(want, a, (size_t)n);
      memcpy(want + n, b, (size_t)m);
      bad += nrt_str_concat(&va, &vb, &r, NULL) != NRT_OK ||
             !nrt_str_eq(r.data, r.len, want, n + m) || (r.mi && r.data[n + m] != '\0');
      nrt_str_release(&r);
      free(pb);
    }
    free(pa);
  }
  CHECK_EQ_INT(bad, 0);
}

/* ---- case kernels writing into a caller's buffer: exactly the returned bytes are written,
 * and they equal the managed result */

typedef int64_t (*into_fn)(const char *s, int64_t len, char *out);
typedef int64_t (*size_fn)(const char *s, int64_t len);
typedef int (*managed_fn)(const nrt_str *s, nrt_str *out, struct nrt_error *err);

static void check_case(const char *s, int64_t n, int *bad) {
  static const into_fn INTO[] = {nrt_str_upper_into, nrt_str_lower_into, nrt_str_casefold_into,
                                 nrt_str_swapcase_into, nrt_str_title_into,
                                 nrt_str_capitalize_into};
  static const size_fn SIZE[] = {nrt_str_upper_size, nrt_str_lower_size, nrt_str_casefold_size,
                                 nrt_str_swapcase_size, nrt_str_title_size,
                                 nrt_str_capitalize_size};
  static const managed_fn MANAGED[] = {nrt_str_upper, nrt_str_lower, nrt_str_casefold,
                                       nrt_str_swapcase, nrt_str_title, nrt_str_capitalize};
  size_t room = 3 * (size_t)n + 16;
  char *out = malloc(room);
  nrt_str v = nrt_str_view(s, n);
  for (int op = 0; op < 6; op++) {
    memset(out, 0xAA, room);
    int64_t size = SIZE[op](s, n), w = INTO[op](s, n, out);
    *bad += w != size;
    for (size_t i = (size_t)(w < 0 ? 0 : w); i < room; i++)
      *bad += (unsigned char)out[i] != 0xAA; /* nothing written past the result */
    nrt_str r;
    *bad += MANAGED[op](&v, &r, NULL) != NRT_OK || !nrt_str_eq(r.data, r.len, out, w);
    nrt_str_release(&r);
  }
  free(out);
}

static void test_case_into(void) {
  int bad = 0;
  each_string('a', check_case, &bad);
  each_string('Z', check_case, &bad);
  random_strings(check_case, LIGHT ? 300 : 3000, &bad);
  CHECK_EQ_INT(bad, 0);
}

/* ---- center, ljust, rjust, zfill: the managed forms against the kernels */

static void check_pads(const char *s, int64_t n, int *bad) {
  static const nrt_str FILLS[] = {{NULL, " ", 1}, {NULL, "*", 1}, {NULL, "\xc3\xa9", 2}};
  char want[400];
  nrt_str v = nrt_str_view(s, n);
  for (int64_t width = -1; width <= 72; width += (width < 40 ? 1 : 7)) {
    for (int f = 0; f < 3; f++) {
      uint32_t cp = f == 2 ? 0xE9 : (uint32_t)FILLS[f].data[0];
      for (int kind = 0; kind < 3; kind++) {
        int64_t size = kind == 0   ? nrt_str_center_size(s, n, width, cp)
                       : kind == 1 ? nrt_str_ljust_size(s, n, width, cp)
                                   : nrt_str_rjust_size(s, n, width, cp);
        int64_t w = kind == 0   ? nrt_str_center_into(s, n, width, cp, want)
                    : kind == 1 ? nrt_str_ljust_into(s, n, width, cp, want)
                                : nrt_str_rjust_into(s, n, width, cp, want);
        nrt_str r;
        int rc = kind == 0   ? nrt_str_center(&v, width, &FILLS[f], &r, NULL)
                 : kind == 1 ? nrt_str_ljust(&v, width, &FILLS[f], &r, NULL)
                             : nrt_str_rjust(&v, width, &FILLS[f], &r, NULL);
        *bad += w != size || rc != NRT_OK || !nrt_str_eq(r.data, r.len, want, w) ||
                (r.mi && r.data[r.len] != '\0');
        nrt_str_release(&r);
      }
    }
    int64_t w = nrt_str_zfill_into(s, n, width, want);
    nrt_str r;
    *bad += w != nrt_str_zfill_size(s, n, width) || nrt_str_zfill(&v, width, &r, NULL) != NRT_OK ||
            !nrt_str_eq(r.data, r.len, want, w) || (r.mi && r.data[r.len] != '\0');
    nrt_str_release(&r);
  }
}

static void test_pads(void) {
  int bad = 0;
  each_string('a', check_pads, &bad);
  each_string('-', check_pads, &bad); /* a sign in front for zfill */
  each_string('+', check_pads, &bad);
  random_strings(check_pads, LIGHT ? 100 : 1000, &bad);
  CHECK_EQ_INT(bad, 0);
}

/* ---- find / rfind / count with start and end (the code point ranges of short strings) */

static void check_find(const char *s, int64_t n, int *bad) {
  static const int64_t B[] = {NRT_STR_NONE, 0, 1, 2, 5, -1, -2, -7, 40, -40};
  static const char *const SUBS[] = {"", "a", "aa", "\xc3\xa9", "\xe6\xbc\xa2", "a\xc3\xa9"};
  int64_t off[80], cps = 0;
  for (int64_t i = 0; i < n; i++)
    if (((unsigned char)s[i] & 0xC0) != 0x80)
      off[cps++] = i;
  off[cps] = n;
  for (size_t a = 0; a < sizeof B / sizeof B[0]; a++)
    for (size_t b = 0; b < sizeof B / sizeof B[0]; b++)
      for (size_t k = 0; k < sizeof SUBS / sizeof SUBS[0]; k++) {
        const char *sub = SUBS[k];
        int64_t sl = (int64_t)strlen(sub), st = B[a], en = B[b];
        /* Python's ADJUST_INDICES */
        if (st == NRT_STR_NONE)
          st = 0;
        if (en == NRT_STR_NONE || en > cps)
          en = cps;
        else if (en < 0)
          en = en + cps < 0 ? 0 : en + cps;
        if (st < 0)
          st = st + cps < 0 ? 0 : st + cps;
        int64_t first = -1, last = -1, count = 0;
        if (st <= en) {
          for (int64_t c = st; c <= en; c++) { /* a match starts at a code point boundary */
            if (off[c] + sl > off[en] || memcmp(s + off[c], sub, (size_t)sl) != 0)
              continue;
            if (first < 0)
              first = c;
            last = c;
          }
          for (int64_t c = st; c <= en;) { /* non-overlapping, left to right */
            if (off[c] + sl <= off[en] && memcmp(s + off[c], sub, (size_t)sl) == 0) {
              count++;
              int64_t e = off[c] + (sl ? sl : 1);
              while (c <= en && off[c] < e)
                c++;
              if (!sl && e > off[en])
                break;
            } else {
              c++;
            }
          }
        }
        *bad += nrt_str_find(s, n, sub, sl, B[a], B[b]) != first;
        *bad += nrt_str_rfind(s, n, sub, sl, B[a], B[b]) != last;
        *bad += nrt_str_count(s, n, sub, sl, B[a], B[b]) != count;
      }
}

static void test_find(void) {
  int bad = 0;
  bool light = LIGHT; /* 1,800 searches per string */
  if (!light)
    each_string('a', check_find, &bad);
  random_strings(check_find, light ? 100 : 3000, &bad);
  CHECK_EQ_INT(bad, 0);
}

int main(void) {
  if (LIGHT)
    each_max = 40;
  struct check_live before = check_live_now();
  test_len_ascii();
  test_split();
  test_slices();
  test_copies();
  test_case_into();
  test_pads();
  test_find();
  CHECK_NO_LEAK(before);
  return check_finish("test_str_short");
}

/* Python re pattern -> PCRE2 pattern (see re_translate.h; the table is in README.md).
 *
 * The translator parses the pattern the way CPython's sre_parse does, reporting its errors
 * with its messages and positions (in code points), and writes each construct in a PCRE2
 * spelling that cannot be read differently: literals and class members as \x{hex}, Python's
 * escapes as their PCRE2 equivalents, verbose-mode whitespace and comments dropped. */
#include "udf/re_translate.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 100

typedef enum { FR_GROUP, FR_NONCAP, FR_LOOKAHEAD, FR_NEGAHEAD, FR_LOOKBEHIND, FR_NEGBEHIND,
               FR_ATOMIC, FR_COND, FR_SCOPED } frame_kind;

typedef struct frame {
  frame_kind kind;
  size_t open_at;  /* byte offset of its '(' */
  int group;       /* its group number (FR_GROUP), else 0 */
  int first_inner; /* first group number opened inside it */
  int alts;        /* '|' seen directly inside */
  bool verbose;    /* the verbose mode to restore when it closes */
} frame;

typedef struct tr {
  const char *p;
  size_t len, i;
  udf_re_translation *t;
  size_t n; /* output length */
  bool verbose, ascii, ignorecase;
  char *msg;
  size_t msgsize;
  frame fr[MAX_DEPTH];
  int depth;
  bool open[UDF_RE_MAX_GROUPS + 1];
  const char *names[UDF_RE_MAX_GROUPS + 1];
  size_t name_len[UDF_RE_MAX_GROUPS + 1];
  /* The item a quantifier would apply to. */
  bool repeatable;    /* there is one that can be repeated */
  bool after_repeat;  /* the previous item is itself a quantifier */
  bool top_alt;       /* a '|' at the top level: every group may not take part */
  int cond_ref;       /* the first group a conditional names, checked at the end */
  size_t cond_at;
  int item_g0, item_g1; /* groups inside the previous item: [g0, g1], empty when g0 > g1 */
} tr;

static int pos_of(const tr *s, size_t byte) { /* code points before `byte` */
  int n = 0;
  for (size_t k = 0; k < byte && k < s->len; k++)
    if (((unsigned char)s->p[k] & 0xC0) != 0x80) n++;
  return n;
}

static int fail(tr *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(tr *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(s->msg, s->msgsize, fmt, ap);
  va_end(ap);
  return -1;
}

static int re_error(tr *s, size_t at, const char *what) {
  return fail(s, "re.error: %s at position %d", what, pos_of(s, at));
}

static void out(tr *s, const char *text) {
  size_t k = strlen(text);
  if (s->n + k >= udf_re_out_size(s->len)) return; /* cannot happen: at most 32 per byte */
  memcpy(s->t->out + s->n, text, k);
  s->n += k;
}

static void out_cp(tr *s, uint32_t cp) {
  char buf[16];
  snprintf(buf, sizeof buf, "\\x{%x}", cp);
  out(s, buf);
}

/* Decodes the code point at s->i (valid UTF-8) and advances. */
static uint32_t next_cp(tr *s) {
  const unsigned char *u = (const unsigned char *)s->p + s->i;
  uint32_t c = u[0];
  int n = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
  if (n > 1) c &= 0x3F >> (n - 1);
  for (int k = 1; k < n; k++) c = (c << 6) | (u[k] & 0x3F);
  s->i += (size_t)n;
  return c;
}

static bool at(const tr *s, char ch) { return s->i < s->len && s->p[s->i] == ch; }
static bool is_digit(char ch) { return ch >= '0' && ch <= '9'; }
static bool is_oct(char ch) { return ch >= '0' && ch <= '7'; }
static int hexval(char ch) {
  if (ch >= '0' && ch <= '9') return ch - '0';
  if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
  return -1;
}

/* Characters Python's case-insensitive matching equates and PCRE2's Unicode case folding does
 * not (found by comparing the two over re._casefix's table): i, I, İ (U+0130, whose simple
 * lowercase is i) and ı (U+0131, which sre equates with i); ΐ and ΐ; ΰ and ΰ; ﬅ and ﬆ. */
static const uint32_t fold_extra[][4] = {
    {'i', 'I', 0x130, 0x131}, {0x390, 0x1FD3, 0, 0}, {0x3B0, 0x1FE3, 0, 0}, {0xFB05, 0xFB06, 0, 0}};
#define NFOLD_EXTRA (sizeof fold_extra / sizeof fold_extra[0])

/* The class of fold_extra that cp is in, or -1. */
static int fold_class(uint32_t cp) {
  for (size_t k = 0; k < NFOLD_EXTRA; k++)
    for (int j = 0; j < 4 && fold_extra[k][j]; j++)
      if (fold_extra[k][j] == cp) return (int)k;
  return -1;
}

static void out_fold_class(tr *s, int k) {
  for (int j = 0; j < 4 && fold_extra[k][j]; j++) out_cp(s, fold_extra[k][j]);
}

/* A literal character; in_class: inside [...]. */
static int literal_in(tr *s, uint32_t cp, bool in_class) {
  if (s->ascii && s->ignorecase && cp > 0x7F)
    return fail(s, "unsupported: re.ASCII with re.IGNORECASE and a non-ASCII character in the "
                   "pattern (PCRE2 would match its other cases)");
  int k = s->ignorecase && !s->ascii ? fold_class(cp) : -1;
  if (k >= 0) {
    if (!in_class) out(s, "[");
    out_fold_class(s, k);
    if (!in_class) out(s, "]");
    return 0;
  }
  out_cp(s, cp);
  return 0;
}

static int literal(tr *s, uint32_t cp) { return literal_in(s, cp, false); }

/* \xhh, \uhhhh, \Uhhhhhhhh after the backslash and the letter: the code point or -1. */
static long hex_escape(tr *s, size_t start, char letter, int ndigits) {
  uint32_t v = 0;
  int k = 0;
  for (; k < ndigits && s->i < s->len && hexval(s->p[s->i]) >= 0; k++)
    v = v * 16 + (uint32_t)hexval(s->p[s->i++]);
  if (k < ndigits)
    return fail(s, "re.error: incomplete escape \\%c%.*s at position %d", letter, k,
                s->p + s->i - k, pos_of(s, start)), -1;
  if (v > 0x10FFFF)
    return fail(s, "re.error: bad escape \\%c%.*s at position %d", letter, k, s->p + s->i - k,
                pos_of(s, start)), -1;
  if (v >= 0xD800 && v <= 0xDFFF)
    return fail(s, "unsupported: a surrogate code point (\\%c%.*s) in a pattern", letter, k,
                s->p + s->i - k), -1;
  return (long)v;
}

/* An escape that stands for one character (both inside and outside classes), after the
 * backslash: the code point, -1 on error, -2 when it is not such an escape. */
static long char_escape(tr *s, size_t start, bool in_class) {
  char ch = s->p[s->i];
  switch (ch) {
  case 'a': s->i++; return 7;
  case 'f': s->i++; return 12;
  case 'n': s->i++; return 10;
  case 'r': s->i++; return 13;
  case 't': s->i++; return 9;
  case 'v': s->i++; return 11;
  case '\\': s->i++; return '\\';
  case 'x': s->i++; return hex_escape(s, start, 'x', 2);
  case 'u': s->i++; return hex_escape(s, start, 'u', 4);
  case 'U': s->i++; return hex_escape(s, start, 'U', 8);
  case 'N': return fail(s, "unsupported: \\N{...} named characters in a pattern (write the "
                           "character or \\uXXXX)"), -1;
  default: break;
  }
  if (is_oct(ch)) {
    /* \0, \0o, \0oo, or three octal digits: an octal escape (in a class any octal one). */
    size_t k = s->i;
    int nd = 0;
    while (nd < 3 && k < s->len && is_oct(s->p[k])) k++, nd++;
    if (ch == '0' || nd == 3 || in_class) {
      if (ch != '0' && nd < 3 && in_class) return -2;
      unsigned v = 0;
      for (size_t q = s->i; q < k; q++) v = v * 8 + (unsigned)(s->p[q] - '0');
      if (v > 0377)
        return fail(s, "re.error: octal escape value \\%.*s outside of range 0-0o377 at "
                       "position %d", (int)(k - s->i), s->p + s->i, pos_of(s, start)), -1;
      s->i = k;
      return (long)v;
    }
  }
  return -2;
}

/* A class escape \d \D \w \W \s \S as PCRE2 text (inside a class when in_class), or NULL. */
static const char *class_escape(tr *s, char ch, bool in_class, bool *bad) {
  *bad = false;
  switch (ch) {
  case 'd': return "\\d";
  case 'D': return "\\D";
  case 'w': return "\\w";
  case 'W': return "\\W";
  case 's': /* Python's Unicode \s also has \x1c-\x1f (str.isspace), PCRE2's has not */
    if (s->ascii) return "\\s";
    return in_class ? "\\s\\x{1c}-\\x{1f}" : "[\\s\\x{1c}-\\x{1f}]";
  case 'S':
    if (s->ascii) return "\\S";
    if (in_class) {
      *bad = true;
      return NULL;
    }
    return "[^\\s\\x{1c}-\\x{1f}]";
  default: return NULL;
  }
}

static int parse_class(tr *s) {
  size_t open_at = s->i++;
  out(s, "[");
  if (at(s, '^')) {
    s->i++;
    out(s, "^");
  }
  bool first = true;
  for (;;) {
    if (s->i >= s->len) return re_error(s, open_at, "unterminated character set");
    if (at(s, ']') && !first) {
      s->i++;
      break;
    }
    first = false;
    size_t item_at = s->i;
    long lo;
    const char *cls = NULL;
    if (at(s, '\\')) {
      s->i++;
      if (s->i >= s->len) return re_error(s, item_at, "unterminated character set");
      char ch = s->p[s->i];
      bool bad;
      cls = class_escape(s, ch, true, &bad);
      if (bad)
        return fail(s, "unsupported: \\S inside a character class (PCRE2's \\S differs from "
                       "Python's on \\x1c-\\x1f; use re.ASCII or list the characters)");
      if (cls) {
        s->i++;
        lo = -1;
      } else if (ch == 'b') {
        s->i++;
        lo = 8;
      } else {
        lo = char_escape(s, item_at, true);
        if (lo == -1) return -1;
        if (lo == -2) {
          if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || is_digit(ch)) {
            char m[32];
            snprintf(m, sizeof m, "bad escape \\%c", ch);
            return re_error(s, item_at, m);
          }
          lo = (long)next_cp(s);
        }
      }
    } else {
      lo = (long)next_cp(s);
    }
    /* A range lo-hi (a '-' before the closing ']' is a literal). */
    if (at(s, '-') && s->i + 1 < s->len && s->p[s->i + 1] != ']') {
      s->i++;
      size_t hi_at = s->i;
      long hi;
      const char *hcls = NULL;
      if (at(s, '\\')) {
        s->i++;
        if (s->i >= s->len) return re_error(s, item_at, "unterminated character set");
        char ch = s->p[s->i];
        bool bad;
        hcls = class_escape(s, ch, true, &bad);
        if (hcls || bad) {
          s->i++;
          hi = -1;
        } else if (ch == 'b') {
          s->i++;
          hi = 8;
        } else {
          hi = char_escape(s, hi_at, true);
          if (hi == -1) return -1;
          if (hi == -2) {
            if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || is_digit(ch)) {
              char m[32];
              snprintf(m, sizeof m, "bad escape \\%c", ch);
              return re_error(s, hi_at, m);
            }
            hi = (long)next_cp(s);
          }
        }
      } else {
        hi = (long)next_cp(s);
      }
      if (cls || hcls || hi < 0 || lo > hi) {
        char m[96];
        snprintf(m, sizeof m, "bad character range %.*s", (int)(s->i - item_at),
                 s->p + item_at);
        return re_error(s, item_at, m);
      }
      if (s->ascii && s->ignorecase && hi > 0x7F)
        return literal(s, (uint32_t)hi);
      out_cp(s, (uint32_t)lo);
      out(s, "-");
      out_cp(s, (uint32_t)hi);
      if (s->ignorecase && !s->ascii)
        for (size_t k = 0; k < NFOLD_EXTRA; k++)
          for (int j = 0; j < 4 && fold_extra[k][j]; j++)
            if (fold_extra[k][j] >= (uint32_t)lo && fold_extra[k][j] <= (uint32_t)hi) {
              out_fold_class(s, (int)k);
              break;
            }
      continue;
    }
    if (cls) out(s, cls);
    else if (literal_in(s, (uint32_t)lo, true)) return -1;
  }
  out(s, "]");
  return 0;
}

/* Marks groups g0..g1 as possibly not taking part. */
static void mark_optional(tr *s, int g0, int g1) {
  for (int g = g0; g <= g1 && g <= s->t->ngroups; g++)
    if (g >= 1) s->t->optional[g] = true;
}

static void set_item(tr *s, bool repeatable, int g0, int g1) {
  s->repeatable = repeatable;
  s->after_repeat = false;
  s->item_g0 = g0;
  s->item_g1 = g1;
}

/* A quantifier at s->i (one of * + ? {): 1 when one was written, 0 when `{` is a literal. */
static int quantifier(tr *s) {
  size_t q_at = s->i;
  char ch = s->p[s->i];
  long lo = 0, hi = -1;
  if (ch == '{') {
    size_t k = s->i + 1;
    long a = -1, b = -1;
    bool comma = false;
    while (k < s->len && is_digit(s->p[k])) a = (a < 0 ? 0 : a * 10) + (s->p[k++] - '0');
    if (k < s->len && s->p[k] == ',') {
      comma = true;
      k++;
      while (k < s->len && is_digit(s->p[k])) b = (b < 0 ? 0 : b * 10) + (s->p[k++] - '0');
    }
    if (k >= s->len || s->p[k] != '}' || (!comma && a < 0)) return 0; /* a literal '{' */
    if (a > 4294967294L || b > 4294967294L)
      return fail(s, "re.error: the repetition number is too large at position %d",
                  pos_of(s, q_at + 1)), -1;
    lo = a < 0 ? 0 : a;
    hi = comma ? b : a;
    if (hi >= 0 && hi < lo) return re_error(s, q_at + 1, "min repeat greater than max repeat");
    if (lo > 65535 || hi > 65535)
      return fail(s, "unsupported: a repeat count over 65535 (PCRE2's limit)");
    s->i = k + 1;
  } else {
    s->i++;
    lo = ch == '+' ? 1 : 0;
    hi = ch == '?' ? 1 : -1;
  }
  if (s->after_repeat) return re_error(s, q_at, "multiple repeat");
  if (!s->repeatable) return re_error(s, q_at, "nothing to repeat");
  char buf[48];
  if (ch == '{') {
    if (hi < 0) snprintf(buf, sizeof buf, "{%ld,}", lo);
    else snprintf(buf, sizeof buf, "{%ld,%ld}", lo, hi);
    out(s, buf);
  } else {
    buf[0] = ch;
    buf[1] = 0;
    out(s, buf);
  }
  if (at(s, '?') || at(s, '+')) { /* lazy or possessive */
    buf[0] = s->p[s->i++];
    buf[1] = 0;
    out(s, buf);
  }
  if (lo == 0) mark_optional(s, s->item_g0, s->item_g1);
  s->repeatable = false;
  s->after_repeat = true;
  return 1;
}

static bool ident_start(unsigned char c) {
  return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80;
}

/* A group name ending at `term` starting at s->i: its length, or -1 after an error. */
static long group_name(tr *s, char term, size_t err_at) {
  size_t k = s->i;
  while (k < s->len && s->p[k] != term) k++;
  if (k >= s->len) return re_error(s, err_at, "missing >, unterminated name"), -1;
  size_t n = k - s->i;
  if (n == 0) return re_error(s, err_at, "missing group name"), -1;
  bool ok = ident_start((unsigned char)s->p[s->i]);
  bool ascii = true;
  for (size_t q = s->i; q < k; q++) {
    unsigned char c = (unsigned char)s->p[q];
    if (c >= 0x80) ascii = false;
    if (!(ident_start(c) || is_digit((char)c))) ok = false;
  }
  if (!ok) {
    char m[160];
    snprintf(m, sizeof m, "bad character in group name '%.*s'", (int)n, s->p + s->i);
    return re_error(s, s->i, m), -1;
  }
  if (!ascii)
    return fail(s, "unsupported: a non-ASCII group name '%.*s' (PCRE2 10.42 allows ASCII "
                   "names only)", (int)n, s->p + s->i), -1;
  if (n > 32) return fail(s, "unsupported: a group name longer than 32 characters"), -1;
  return (long)n;
}

static int find_name(const tr *s, const char *name, size_t n) {
  for (int g = 1; g <= s->t->ngroups; g++)
    if (s->names[g] && s->name_len[g] == n && memcmp(s->names[g], name, n) == 0) return g;
  return 0;
}

static int push(tr *s, frame_kind kind, size_t open_at, int group) {
  if (s->depth >= MAX_DEPTH) return fail(s, "unsupported: groups nested over %d deep", MAX_DEPTH);
  frame *f = &s->fr[s->depth++];
  f->kind = kind;
  f->open_at = open_at;
  f->group = group;
  f->first_inner = s->t->ngroups + 1;
  f->alts = 0;
  f->verbose = s->verbose;
  return 0;
}

/* Inline flag letters at s->i up to ')' or ':'; *on / *off get the flags. */
static int inline_flags(tr *s, size_t open_at, int *on, int *off) {
  *on = *off = 0;
  bool minus = false;
  while (s->i < s->len && s->p[s->i] != ')' && s->p[s->i] != ':') {
    char ch = s->p[s->i++];
    int f = ch == 'a' ? UDF_RE_A : ch == 'i' ? UDF_RE_I : ch == 'L' ? UDF_RE_L
          : ch == 'm' ? UDF_RE_M : ch == 's' ? UDF_RE_S : ch == 'u' ? UDF_RE_U
          : ch == 'x' ? UDF_RE_X : 0;
    if (ch == '-' && !minus) {
      minus = true;
      continue;
    }
    if (!f) {
      char m[48];
      snprintf(m, sizeof m, "unknown flag");
      return re_error(s, s->i - 1, m);
    }
    if (f == UDF_RE_L)
      return re_error(s, s->i, "bad inline flags: cannot use 'L' flag with a str pattern");
    if (minus && (f == UDF_RE_A || f == UDF_RE_U))
      return re_error(s, s->i, "bad inline flags: cannot turn off flags 'a', 'u' and 'L'");
    if (minus) *off |= f;
    else *on |= f;
    if ((*on & UDF_RE_A) && (*on & UDF_RE_U))
      return re_error(s, s->i, "bad inline flags: flags 'a', 'u' and 'L' are incompatible");
  }
  if (s->i >= s->len) return re_error(s, s->i, "missing -, : or )");
  (void)open_at;
  return 0;
}

/* After "(?" at s->i: an extension group. */
static int extension(tr *s, size_t open_at, bool at_start) {
  char ch = s->i < s->len ? s->p[s->i] : 0;
  size_t ext_at = s->i - 1; /* CPython's positions for "unknown extension" are the '?' */
  switch (ch) {
  case ':': s->i++; out(s, "(?:"); return push(s, FR_NONCAP, open_at, 0);
  case '>': s->i++; out(s, "(?>"); return push(s, FR_ATOMIC, open_at, 0);
  case '=': s->i++; out(s, "(?="); return push(s, FR_LOOKAHEAD, open_at, 0);
  case '!': s->i++; out(s, "(?!"); return push(s, FR_NEGAHEAD, open_at, 0);
  case '#': {
    while (s->i < s->len && s->p[s->i] != ')') s->i++;
    if (s->i >= s->len) return re_error(s, open_at, "missing ), unterminated comment");
    s->i++;
    return 1; /* nothing emitted, no item */
  }
  case '<': {
    char n = s->i + 1 < s->len ? s->p[s->i + 1] : 0;
    if (n == '=' || n == '!') {
      s->i += 2;
      /* The body in a group: PCRE2 then wants one width for all of it, as Python does
       * (alone, PCRE2 allows top-level alternatives of different widths). */
      out(s, n == '=' ? "(?<=(?:" : "(?<!(?:");
      return push(s, n == '=' ? FR_LOOKBEHIND : FR_NEGBEHIND, open_at, 0);
    }
    char m[48];
    if (n) snprintf(m, sizeof m, "unknown extension ?<%c", n);
    else snprintf(m, sizeof m, "unexpected end of pattern");
    return re_error(s, ext_at, m);
  }
  case 'P': {
    s->i++;
    char n = s->i < s->len ? s->p[s->i] : 0;
    if (n == '<') {
      s->i++;
      long len = group_name(s, '>', s->i);
      if (len < 0) return -1;
      int dup = find_name(s, s->p + s->i, (size_t)len);
      if (s->t->ngroups >= UDF_RE_MAX_GROUPS)
        return fail(s, "unsupported: more than %d groups", UDF_RE_MAX_GROUPS);
      int g = ++s->t->ngroups;
      if (dup) {
        char m[200];
        snprintf(m, sizeof m, "redefinition of group name '%.*s' as group %d; was group %d",
                 (int)len, s->p + s->i, g, dup);
        return re_error(s, s->i, m);
      }
      s->names[g] = s->p + s->i;
      s->name_len[g] = (size_t)len;
      out(s, "(?P<");
      memcpy(s->t->out + s->n, s->p + s->i, (size_t)len);
      s->n += (size_t)len;
      out(s, ">");
      s->i += (size_t)len + 1;
      s->open[g] = true;
      if (push(s, FR_GROUP, open_at, g)) return -1;
      s->fr[s->depth - 1].first_inner = g + 1;
      return 0;
    }
    if (n == '=') {
      s->i++;
      size_t name_at = s->i;
      size_t k = s->i;
      while (k < s->len && s->p[k] != ')') k++;
      if (k >= s->len) return re_error(s, name_at, "missing ), unterminated name");
      long len = group_name(s, ')', name_at);
      if (len < 0) return -1;
      int g = find_name(s, s->p + s->i, (size_t)len);
      if (!g) {
        char m[160];
        snprintf(m, sizeof m, "unknown group name '%.*s'", (int)len, s->p + s->i);
        return re_error(s, name_at, m);
      }
      if (s->open[g]) return re_error(s, name_at, "cannot refer to an open group");
      char buf[24];
      snprintf(buf, sizeof buf, "\\g{%d}", g);
      out(s, buf);
      s->i = k + 1;
      return 2; /* an item */
    }
    char m[48];
    if (n) snprintf(m, sizeof m, "unknown extension ?P%c", n);
    else snprintf(m, sizeof m, "unexpected end of pattern");
    return re_error(s, ext_at, m);
  }
  case '(': {
    s->i++;
    size_t k = s->i;
    while (k < s->len && s->p[k] != ')') k++;
    if (k >= s->len) return re_error(s, s->i, "missing ), unterminated name");
    size_t n = k - s->i;
    char buf[64];
    bool digits = n > 0;
    for (size_t q = s->i; q < k; q++) digits = digits && is_digit(s->p[q]);
    int g;
    if (digits) {
      g = 0;
      for (size_t q = s->i; q < k && g < 100000; q++) g = g * 10 + (s->p[q] - '0');
      if (g == 0) return re_error(s, s->i, "bad group number");
      if (g > s->t->ngroups && !s->cond_ref) { /* CPython checks when the pattern ends */
        s->cond_ref = g;
        s->cond_at = s->i;
      }
    } else {
      long len = group_name(s, ')', s->i);
      if (len < 0) return -1;
      g = find_name(s, s->p + s->i, (size_t)len);
      if (!g) {
        char m[160];
        snprintf(m, sizeof m, "unknown group name '%.*s'", (int)len, s->p + s->i);
        return re_error(s, s->i, m);
      }
    }
    snprintf(buf, sizeof buf, "(?(%d)", g);
    out(s, buf);
    s->i = k + 1;
    return push(s, FR_COND, open_at, 0);
  }
  default: break;
  }
  if (strchr("aiLmsux-", ch) && ch) {
    int on, off;
    size_t flags_at = s->i;
    if (inline_flags(s, open_at, &on, &off)) return -1;
    if (s->p[s->i] == ')') {
      if (off) return re_error(s, s->i, "missing :");
      if (!at_start)
        return re_error(s, open_at, "global flags not at the start of the expression");
      s->i++;
      s->t->flags |= on;
      if (on & UDF_RE_X) s->verbose = true;
      if (on & UDF_RE_A) s->ascii = true;
      if (on & UDF_RE_I) s->ignorecase = true;
      return 1;
    }
    s->i++; /* ':' */
    if ((on | off) & UDF_RE_A)
      return fail(s, "unsupported: a scoped ASCII flag (?a:...) (use re.A for the whole "
                     "pattern)");
    if (on & off) return re_error(s, flags_at, "bad inline flags: flag turned on and off");
    if ((on & UDF_RE_I) && s->ascii)
      return fail(s, "unsupported: a scoped (?i:...) with re.ASCII");
    char buf[16];
    size_t k = 0;
    buf[k++] = '(';
    buf[k++] = '?';
    if (on & UDF_RE_I) buf[k++] = 'i';
    if (on & UDF_RE_M) buf[k++] = 'm';
    if (on & UDF_RE_S) buf[k++] = 's';
    if (off & (UDF_RE_I | UDF_RE_M | UDF_RE_S)) buf[k++] = '-';
    if (off & UDF_RE_I) buf[k++] = 'i';
    if (off & UDF_RE_M) buf[k++] = 'm';
    if (off & UDF_RE_S) buf[k++] = 's';
    buf[k++] = ':';
    buf[k] = 0;
    out(s, buf);
    if (push(s, FR_SCOPED, open_at, 0)) return -1;
    if (on & UDF_RE_X) s->verbose = true;
    if (off & UDF_RE_X) s->verbose = false;
    return 0;
  }
  char m[48];
  if (ch) snprintf(m, sizeof m, "unknown extension ?%c", ch);
  else snprintf(m, sizeof m, "unexpected end of pattern");
  return re_error(s, ext_at, m);
}

static int close_group(tr *s) {
  size_t close_at = s->i++;
  if (s->depth == 0) return re_error(s, close_at, "unbalanced parenthesis");
  frame *f = &s->fr[--s->depth];
  out(s, f->kind == FR_LOOKBEHIND || f->kind == FR_NEGBEHIND ? "))" : ")");
  if (f->kind == FR_COND && f->alts > 1)
    return re_error(s, close_at, "conditional backref with more than two branches");
  int last = s->t->ngroups;
  if (f->alts || f->kind == FR_COND) mark_optional(s, f->first_inner, last);
  if (f->kind == FR_NEGAHEAD || f->kind == FR_NEGBEHIND) mark_optional(s, f->first_inner, last);
  if (f->group) s->open[f->group] = false;
  s->verbose = f->verbose;
  set_item(s, true, f->group ? f->group : f->first_inner, last);
  return 0;
}

static int escape(tr *s) {
  size_t start = s->i++;
  if (s->i >= s->len) return re_error(s, start, "bad escape (end of pattern)");
  char ch = s->p[s->i];
  bool bad;
  const char *cls = class_escape(s, ch, false, &bad);
  if (cls) {
    s->i++;
    out(s, cls);
    set_item(s, true, 1, 0);
    return 0;
  }
  const char *anchor = ch == 'A' ? "\\A" : ch == 'Z' ? "\\z" : ch == 'b' ? "\\b"
                     : ch == 'B' ? "\\B" : NULL;
  if (anchor) {
    s->i++;
    out(s, anchor);
    set_item(s, false, 1, 0);
    return 0;
  }
  long cp = char_escape(s, start, false);
  if (cp == -1) return -1;
  if (cp == -2 && is_digit(ch)) { /* a back reference \1 .. \99 */
    int g = ch - '0';
    s->i++;
    if (s->i < s->len && is_digit(s->p[s->i])) g = g * 10 + (s->p[s->i++] - '0');
    if (g > s->t->ngroups || g == 0) {
      char m[64];
      snprintf(m, sizeof m, "invalid group reference %d", g);
      return re_error(s, start + 1, m);
    }
    if (s->open[g]) return re_error(s, start, "cannot refer to an open group");
    char buf[24];
    snprintf(buf, sizeof buf, "\\g{%d}", g);
    out(s, buf);
    set_item(s, true, 1, 0);
    return 0;
  }
  if (cp == -2) {
    if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z')) {
      char m[32];
      snprintf(m, sizeof m, "bad escape \\%c", ch);
      return re_error(s, start, m);
    }
    cp = (long)next_cp(s);
  }
  if (literal(s, (uint32_t)cp)) return -1;
  set_item(s, true, 1, 0);
  return 0;
}

int udf_re_translate(const char *pat, size_t len, int flags, udf_re_translation *t, char *msg,
                     size_t msgsize) {
  tr s;
  memset(&s, 0, sizeof s);
  s.p = pat;
  s.len = len;
  s.t = t;
  s.msg = msg;
  s.msgsize = msgsize;
  t->ngroups = 0;
  t->flags = flags;
  memset(t->optional, 0, sizeof t->optional);
  if (flags & UDF_RE_L) return fail(&s, "ValueError: cannot use LOCALE flag with a str pattern");
  if ((flags & UDF_RE_A) && (flags & UDF_RE_U))
    return fail(&s, "ValueError: ASCII and UNICODE flags are incompatible");
  if (flags & (UDF_RE_T | UDF_RE_DEBUG))
    return fail(&s, "unsupported: re.TEMPLATE and re.DEBUG");
  s.verbose = (flags & UDF_RE_X) != 0;
  s.ascii = (flags & UDF_RE_A) != 0;
  s.ignorecase = (flags & UDF_RE_I) != 0;
  bool at_start = true;
  while (s.i < s.len) {
    char ch = s.p[s.i];
    if (s.verbose && (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' ||
                      ch == '\f')) {
      s.i++;
      continue;
    }
    if (s.verbose && ch == '#') {
      while (s.i < s.len && s.p[s.i] != '\n') s.i++;
      continue;
    }
    bool was_start = at_start;
    at_start = false;
    int rc = 0;
    switch (ch) {
    case '(': {
      size_t open_at = s.i++;
      if (at(&s, '?')) {
        s.i++;
        rc = extension(&s, open_at, was_start);
        if (rc == 1) { /* global flags, a comment: no item */
          at_start = was_start;
          rc = 0;
        } else if (rc == 2) {
          set_item(&s, true, 1, 0);
          rc = 0;
        } else if (rc == 0) {
          set_item(&s, false, 1, 0);
        }
        break;
      }
      if (s.t->ngroups >= UDF_RE_MAX_GROUPS)
        return fail(&s, "unsupported: more than %d groups", UDF_RE_MAX_GROUPS);
      int g = ++s.t->ngroups;
      s.open[g] = true;
      out(&s, "(");
      rc = push(&s, FR_GROUP, open_at, g);
      if (!rc) s.fr[s.depth - 1].first_inner = g + 1;
      set_item(&s, false, 1, 0);
      break;
    }
    case ')': rc = close_group(&s); break;
    case '|':
      s.i++;
      out(&s, "|");
      if (s.depth && ++s.fr[s.depth - 1].alts > 1 && s.fr[s.depth - 1].kind == FR_COND)
        return re_error(&s, s.i - 1, "conditional backref with more than two branches");
      else s.top_alt = true;
      set_item(&s, false, 1, 0);
      break;
    case '[': rc = parse_class(&s); set_item(&s, true, 1, 0); break;
    case '\\': rc = escape(&s); break;
    case '.': s.i++; out(&s, "."); set_item(&s, true, 1, 0); break;
    case '^': s.i++; out(&s, "^"); set_item(&s, false, 1, 0); break;
    case '$': s.i++; out(&s, "$"); set_item(&s, false, 1, 0); break;
    case '*': case '+': case '?': rc = quantifier(&s); break;
    case '{':
      rc = quantifier(&s);
      if (rc == 0) {
        s.i++;
        rc = literal(&s, '{');
        set_item(&s, true, 1, 0);
      } else if (rc == 1) {
        rc = 0;
      }
      break;
    default: {
      uint32_t cp = next_cp(&s);
      rc = literal(&s, cp);
      set_item(&s, true, 1, 0);
      break;
    }
    }
    if (rc < 0) return -1;
    if (ch == '*' || ch == '+' || ch == '?') rc = 0;
  }
  if (s.depth) return re_error(&s, s.fr[s.depth - 1].open_at, "missing ), unterminated subpattern");
  if (s.cond_ref > t->ngroups) {
    char m[64];
    snprintf(m, sizeof m, "invalid group reference %d", s.cond_ref);
    return re_error(&s, s.cond_at, m);
  }
  if (s.top_alt) mark_optional(&s, 1, t->ngroups);
  t->out[s.n] = 0;
  t->out_len = s.n;
  return 0;
}

/* str(int) and int(str, base) with CPython 3.11's rules (Objects/longobject.c,
 * PyLong_FromUnicodeObject and PyLong_FromString), over int64. */
#include "str/convert_internal.h"

#include "core/error_discard.h"
#include "nrt/unicode.h"

int64_t nrt_str_from_int64_size(int64_t v) {
  uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  int64_t n = v < 0 ? 2 : 1;
  while (m >= 10) {
    m /= 10;
    n++;
  }
  return n;
}

int64_t nrt_str_from_int64_into(int64_t v, char *out) {
  char tmp[NRT_STR_INT64_MAX_BYTES];
  uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  int i = NRT_STR_INT64_MAX_BYTES;
  do {
    tmp[--i] = (char)('0' + m % 10);
    m /= 10;
  } while (m);
  if (v < 0)
    tmp[--i] = '-';
  memcpy(out, tmp + i, (size_t)(NRT_STR_INT64_MAX_BYTES - i));
  return NRT_STR_INT64_MAX_BYTES - i;
}

int nrt_str_from_int64(int64_t v, nrt_str *out, struct nrt_error *err) {
  char tmp[NRT_STR_INT64_MAX_BYTES];
  int64_t n = nrt_str_from_int64_into(v, tmp);
  return nrt_str_make(tmp, n, out, err);
}

/* ------------------------------------------------------------------ int(str) */

/* CPython first maps the text to ASCII (_PyUnicode_TransformDecimalAndSpaceToASCII): a
 * non-ASCII space becomes ' ', a decimal digit its ASCII digit, anything else ends the text
 * with '?'. A cursor over that mapped text, decoded on the fly (no copy, no allocation). */
#define CH_END (-1)

struct cursor {
  const char *s;
  int64_t len;
  int64_t pos;  /* byte offset of the current character */
  bool stopped; /* the mapped text ended with '?' before pos */
  /* The current character once mapped (memo_pos == pos): peek and advance each ask for it,
   * and decoding a non-ASCII character with its table lookups is most of a row's parse. */
  int64_t memo_pos, memo_next;
  int memo_ch;
};

#define CURSOR(s, len) {(s), (len), 0, false, -1, 0, 0}

/* The mapped character at byte offset pos and the offset after it. */
static int mapped_at(const struct cursor *c, int64_t pos, int64_t *next) {
  if (pos >= c->len || c->stopped) {
    *next = pos;
    return CH_END;
  }
  unsigned char b = (unsigned char)c->s[pos];
  if (b < 0x7f) {
    *next = pos + 1;
    return b;
  }
  int k;
  uint32_t cp = nrt_u8_dec(c->s + pos, &k);
  *next = pos + k;
  if (nrt_str_is_space_cp(cp)) /* U+007F is none */
    return ' ';
  int d = cp == 0x7f ? -1 : nrt_uc_decimal_value(cp);
  if (d >= 0)
    return '0' + d;
  return '?';
}

/* The mapped character at the cursor, and the offset after it in *next. */
static int current(struct cursor *c, int64_t *next) {
  if (c->memo_pos != c->pos) {
    c->memo_ch = mapped_at(c, c->pos, &c->memo_next);
    c->memo_pos = c->pos;
  }
  *next = c->memo_next;
  return c->memo_ch;
}

static int peek(struct cursor *c) {
  int64_t next;
  return current(c, &next);
}

static int peek2(struct cursor *c) {
  int64_t next, next2;
  int ch = current(c, &next);
  if (ch == CH_END || ch == '?')
    return CH_END;
  return mapped_at(c, next, &next2);
}

static void advance(struct cursor *c) {
  int64_t next;
  int ch = current(c, &next);
  if (ch == '?')
    c->stopped = true; /* the mapped text ends here */
  c->pos = next;
}

/* Py_ISSPACE over the mapped text: ASCII whitespace only (U+001C..U+001F are not). */
static bool is_ascii_space(int ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* _PyLong_DigitValue: 0..35 for digits and letters, 37 for anything else. */
static int digit_value(int ch) {
  if (ch >= '0' && ch <= '9')
    return ch - '0';
  if (ch >= 'a' && ch <= 'z')
    return ch - 'a' + 10;
  if (ch >= 'A' && ch <= 'Z')
    return ch - 'A' + 10;
  return 37;
}

/* CPython 3.11's default sys.get_int_max_str_digits(). */
#define MAX_STR_DIGITS 4300

/* The common case without the general machinery: ASCII whitespace, a sign, 1..18 ASCII
 * digits (no overflow possible), ASCII whitespace. Anything else (underscores, non-ASCII,
 * base 0 with a leading zero, long literals, errors) goes the general way. */
enum fast_outcome { FAST_UNKNOWN, FAST_OK, FAST_INVALID };

static enum fast_outcome fast_decimal(const char *s, int64_t len, int base, int64_t *out) {
  int64_t i = 0;
  while (i < len && is_ascii_space((unsigned char)s[i]))
    i++;
  bool negative = false;
  if (i < len && (s[i] == '+' || s[i] == '-'))
    negative = s[i++] == '-';
  int64_t start = i;
  int64_t v = 0;
  while (i < len && s[i] >= '0' && s[i] <= '9' && i - start < 18)
    v = v * 10 + (s[i++] - '0');
  int64_t digits = i - start;
  if (digits == 0) {
    /* Base 10 with the end or an ASCII character that is no digit where the digits should
     * begin: invalid (fast_reject's answer, as a word gets it, without a second look). A
     * non-ASCII character may be a digit or a space of another script: the general way. */
    if (base != 10)
      return FAST_UNKNOWN;
    if (start == len || (unsigned char)s[start] < 0x7f)
      return FAST_INVALID;
    /* A character of another script that is neither a space nor a decimal digit maps to
     * '?': invalid too, decoded once. */
    int k;
    uint32_t cp = nrt_u8_dec(s + start, &k);
    return nrt_str_is_space_cp(cp) || nrt_uc_decimal_value(cp) >= 0 ? FAST_UNKNOWN
                                                                      : FAST_INVALID;
  }
  if (base == 0 && s[start] == '0' && digits > 1)
    return FAST_UNKNOWN;
  while (i < len && is_ascii_space((unsigned char)s[i]))
    i++;
  if (i != len)
    return FAST_UNKNOWN;
  *out = negative ? -v : v;
  return FAST_OK;
}

/* Base 10 text that cannot be a literal, found without the general machinery: after
 * whitespace and a sign, the end or a character that is no digit (most failing rows: words,
 * in any script). One look at the first such character. */
static bool fast_reject(const char *s, int64_t len) {
  struct cursor c = CURSOR(s, len);
  int ch = peek(&c);
  while (is_ascii_space(ch)) {
    advance(&c);
    ch = peek(&c);
  }
  if (ch == '+' || ch == '-') {
    advance(&c);
    ch = peek(&c);
  }
  return ch < '0' || ch > '9';
}

static int invalid_literal(const char *s, int64_t len, int base, struct nrt_error *err) {
  if (err && nrt_error_discarding()) { /* a message nobody reads: not even its prefix */
    err->code = NRT_EVALUE;
    err->message[0] = '\0';
    return NRT_EVALUE;
  }
  /* The base (0 to 36) by hand: snprintf's cost would be most of a failing row's. */
  static const char head[] = "invalid literal for int() with base ";
  char prefix[sizeof head + 4];
  size_t n = sizeof head - 1;
  memcpy(prefix, head, n);
  if (base >= 10)
    prefix[n++] = (char)('0' + base / 10);
  prefix[n++] = (char)('0' + base % 10);
  prefix[n++] = ':';
  prefix[n++] = ' ';
  prefix[n] = '\0';
  return nrt_conv_error_repr(err, NRT_EVALUE, prefix, s, len, 200);
}

int nrt_str_to_int64(const char *s, int64_t len, int base, int64_t *out,
                     struct nrt_error *err) {
  if ((base != 0 && base < 2) || base > 36)
    return nrt_error_set(err, NRT_EVALUE, "int() base must be >= 2 and <= 36, or 0");
  if (len < 0)
    return nrt_error_set(err, NRT_EINVAL, "int(): negative length");
  if (base == 10 || base == 0) {
    enum fast_outcome f = fast_decimal(s, len, base, out);
    if (f == FAST_OK)
      return NRT_OK;
    if (f == FAST_INVALID)
      return invalid_literal(s, len, base, err);
  }
  if (base == 10 && fast_reject(s, len))
    return invalid_literal(s, len, base, err);
  const int orig_base = base;
  struct cursor c = CURSOR(s, len);
  bool negative = false, error_if_nonzero = false;

  while (is_ascii_space(peek(&c)))
    advance(&c);
  if (peek(&c) == '+') {
    advance(&c);
  } else if (peek(&c) == '-') {
    advance(&c);
    negative = true;
  }
  int c0 = peek(&c), c1 = peek2(&c);
  if (base == 0) {
    if (c0 != '0')
      base = 10;
    else if (c1 == 'x' || c1 == 'X')
      base = 16;
    else if (c1 == 'o' || c1 == 'O')
      base = 8;
    else if (c1 == 'b' || c1 == 'B')
      base = 2;
    else {
      error_if_nonzero = true; /* "010" is an old octal literal: invalid unless zero */
      base = 10;
    }
  }
  if (c0 == '0' && ((base == 16 && (c1 == 'x' || c1 == 'X')) ||
                    (base == 8 && (c1 == 'o' || c1 == 'O')) ||
                    (base == 2 && (c1 == 'b' || c1 == 'B')))) {
    advance(&c);
    advance(&c);
    if (peek(&c) == '_') /* one underscore allowed after the prefix */
      advance(&c);
  }
  if (peek(&c) == '_')
    return invalid_literal(s, len, orig_base, err);

  /* Digits with single underscores between them; the magnitude saturates (overflow is
   * decided after the syntax, which takes precedence, as Python would accept the text). */
  uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  uint64_t mag = 0;
  bool overflow = false;
  int64_t digits = 0;
  int prev = 0;
  for (;;) {
    int ch = peek(&c);
    if (ch == '_') {
      if (prev == '_')
        return invalid_literal(s, len, orig_base, err);
    } else {
      int d = ch == CH_END ? 37 : digit_value(ch);
      if (d >= base)
        break;
      digits++;
      if (!overflow) {
        if (mag > (limit - (uint64_t)d) / (uint64_t)base)
          overflow = true;
        else
          mag = mag * (uint64_t)base + (uint64_t)d;
      }
    }
    prev = ch;
    advance(&c);
  }
  if (prev == '_')
    return invalid_literal(s, len, orig_base, err);
  if ((base & (base - 1)) != 0 && digits > MAX_STR_DIGITS)
    return nrt_error_set(err, NRT_EVALUE,
                         "Exceeds the limit (%d digits) for integer string conversion: value "
                         "has %lld digits; use sys.set_int_max_str_digits() to increase the "
                         "limit",
                         MAX_STR_DIGITS, (long long)digits);
  if (error_if_nonzero && (mag != 0 || overflow))
    return invalid_literal(s, len, 0, err);
  if (digits == 0)
    return invalid_literal(s, len, orig_base, err);
  while (is_ascii_space(peek(&c)))
    advance(&c);
  if (peek(&c) != CH_END)
    return invalid_literal(s, len, orig_base, err);
  if (overflow) {
    char prefix[128];
    snprintf(prefix, sizeof prefix,
             "int() with base %d: value does not fit in 64 bits (nrt ints are int64): ",
             orig_base);
    return nrt_conv_error_repr(err, NRT_EOVERFLOW, prefix, s, len, 200);
  }
  *out = negative ? (int64_t)(0 - mag) : (int64_t)mag;
  return NRT_OK;
}

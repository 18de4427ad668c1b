/* Python's repr() of a string: the public kernels (size, into) and the bounded form the error
 * messages of int(), float() and friends quote their argument with. */
#include "str/convert_internal.h"

#include "core/error_discard.h"
#include "nrt/unicode.h"

/* Appends the n bytes of p when all of them fit (keeping room for the NUL); false if not. */
static bool put(char *buf, size_t cap, size_t *pos, const char *p, size_t n) {
  if (*pos + n + 1 > cap)
    return false;
  memcpy(buf + *pos, p, n);
  *pos += n;
  buf[*pos] = '\0';
  return true;
}

/* One character of the repr body, as CPython's unicode_repr writes it. */
static size_t repr_char(uint32_t ch, char quote, char *o) {
  static const char hex[] = "0123456789abcdef";
  if (ch == (uint32_t)quote || ch == '\\') {
    o[0] = '\\';
    o[1] = (char)ch;
    return 2;
  }
  if (ch == '\t' || ch == '\n' || ch == '\r') {
    o[0] = '\\';
    o[1] = ch == '\t' ? 't' : ch == '\n' ? 'n' : 'r';
    return 2;
  }
  if (ch < ' ' || ch == 0x7f || (ch > 0x7f && !nrt_uc_is_printable(ch))) {
    int digits = ch < 0x100 ? 2 : ch < 0x10000 ? 4 : 8;
    o[0] = '\\';
    o[1] = digits == 2 ? 'x' : digits == 4 ? 'u' : 'U';
    for (int i = 0; i < digits; i++)
      o[2 + i] = hex[(ch >> (4 * (digits - 1 - i))) & 0xF];
    return (size_t)digits + 2;
  }
  return (size_t)nrt_u8_enc(ch, o);
}

/* Quote choice: ' unless the text has ' and no " (CPython's unicode_repr). */
static char repr_quote(const char *s, int64_t len) {
  bool squote = len && memchr(s, '\'', (size_t)len) != NULL;
  bool dquote = len && memchr(s, '"', (size_t)len) != NULL;
  return squote && !dquote ? '"' : '\'';
}

/* One pass of repr(s): the bytes it makes, written to out unless out is NULL. */
static int64_t repr_pass(const char *s, int64_t len, char *out) {
  char quote = repr_quote(s, len);
  int64_t n = 1;
  if (out)
    out[0] = quote;
  for (int64_t i = 0; i < len;) {
    if ((unsigned char)s[i] >= 0x20 && (unsigned char)s[i] < 0x7f && s[i] != quote &&
        s[i] != '\\') { /* printable ASCII: itself */
      if (out)
        out[n] = s[i];
      n++;
      i++;
      continue;
    }
    int k;
    uint32_t ch = nrt_u8_dec(s + i, &k);
    i += k;
    char o[10];
    size_t m = repr_char(ch, quote, o);
    if (out)
      memcpy(out + n, o, m);
    n += (int64_t)m;
  }
  if (out)
    out[n] = quote;
  return n + 1;
}

int64_t nrt_str_repr_size(const char *s, int64_t len) {
  return repr_pass(s, len, NULL);
}

int64_t nrt_str_repr_into(const char *s, int64_t len, char *out) {
  return repr_pass(s, len, out);
}

void nrt_conv_repr(const char *s, int64_t len, int64_t max_chars, char *buf, size_t cap,
                   size_t *pos) {
  char quote = repr_quote(s, len);
  int64_t chars = 0; /* characters of the repr written so far */
  if (max_chars == 0 || !put(buf, cap, pos, &quote, 1))
    return;
  chars++;
  for (int64_t i = 0; i < len;) {
    /* A run of printable ASCII other than the quote and '\\' is itself: copied at once, as
     * far as the character limit and the buffer allow (one by one, the same bytes). */
    int64_t run = 0;
    for (unsigned char c; i + run < len && (c = (unsigned char)s[i + run]) >= 0x20 && c < 0x7f &&
                          c != (unsigned char)quote && c != '\\';)
      run++;
    if (run) {
      int64_t take = run;
      if (max_chars >= 0 && take > max_chars - chars)
        take = max_chars - chars;
      if (*pos + 1 >= cap)
        return;
      if ((size_t)take > cap - *pos - 1)
        take = (int64_t)(cap - *pos - 1);
      put(buf, cap, pos, s + i, (size_t)take);
      chars += take;
      i += take;
      if (take < run)
        return;
      continue;
    }
    int k;
    uint32_t ch = nrt_u8_dec(s + i, &k);
    i += k;
    char o[10];
    size_t n = repr_char(ch, quote, o);
    /* An escape counts as several characters; %.NR cuts inside it too. */
    size_t nchars = ch < 0x80 || o[0] == '\\' ? n : 1;
    if (max_chars >= 0 && chars + (int64_t)nchars > max_chars) {
      if (o[0] == '\\')
        put(buf, cap, pos, o, (size_t)(max_chars - chars));
      return;
    }
    if (!put(buf, cap, pos, o, n))
      return;
    chars += (int64_t)nchars;
  }
  if (max_chars < 0 || chars < max_chars)
    put(buf, cap, pos, &quote, 1);
}

int nrt_conv_error_repr(struct nrt_error *err, int code, const char *prefix, const char *s,
                        int64_t len, int64_t max_chars) {
  if (!err)
    return code;
  /* Written in place, without printf: with errors as null, a column of unparsable rows
   * makes one of these per row (when the apply does not discard them altogether). */
  size_t pos = 0;
  err->code = code;
  err->message[0] = '\0';
  if (nrt_error_discarding())
    return code;
  put(err->message, sizeof err->message, &pos, prefix, strlen(prefix));
  nrt_conv_repr(s ? s : "", len, max_chars, err->message, sizeof err->message, &pos);
  return code;
}

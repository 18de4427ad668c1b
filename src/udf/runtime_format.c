/* f-string support for strings: format(str, spec) and repr()/ascii() of a string, with
 * Python's rules (see runtime.h). Numbers are formatted by the str layer (nrt/str_convert.h). */
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "nrt/unicode.h"
#include "udf/runtime.h"

/* format(s, spec) for a str: [[fill]align][0][width][.precision][s]. */
int32_t nrt_udf_rt_format_str(struct nrt_error *err, const nrt_str *s, const char *spec,
                              int64_t speclen, nrt_str *out) {
  int64_t i = 0;
  char fillbuf[4] = {' '};
  int64_t filllen = 1;
  char align = '<';
  bool explicit_fill = false;
  if (speclen > 0) {
    size_t n;
    nrt_utf8_decode(spec, (size_t)speclen, &n);
    if ((int64_t)n < speclen && strchr("<>^=", spec[n])) {
      memcpy(fillbuf, spec, n);
      filllen = (int64_t)n;
      align = spec[n];
      explicit_fill = true;
      i = (int64_t)n + 1;
    } else if (strchr("<>^=", spec[0])) {
      align = spec[0];
      i = 1;
    }
  }
  if (i < speclen && strchr("+- ", spec[i]))
    return nrt_error_set(err, NRT_EVALUE, "Sign not allowed in string format specifier");
  if (i < speclen && spec[i] == '#')
    return nrt_error_set(err, NRT_EVALUE,
                         "Alternate form (#) not allowed in string format specifier");
  if (i < speclen && spec[i] == '0') {
    if (!explicit_fill) {
      fillbuf[0] = '0';
      filllen = 1;
    }
    i++; /* strings keep their default left alignment (Python >= 3.10) */
  }
  int64_t width = -1, prec = -1;
  while (i < speclen && spec[i] >= '0' && spec[i] <= '9') {
    width = (width < 0 ? 0 : width) * 10 + (spec[i++] - '0');
    if (width > ((int64_t)1 << 40))
      return nrt_error_set(err, NRT_EVALUE, "Too many decimal digits in format string");
  }
  if (i < speclen && (spec[i] == ',' || spec[i] == '_'))
    return nrt_error_set(err, NRT_EVALUE, "Cannot specify '%c' with 's'.", spec[i]);
  if (i < speclen && spec[i] == '.') {
    i++;
    if (i >= speclen || spec[i] < '0' || spec[i] > '9')
      return nrt_error_set(err, NRT_EVALUE, "Format specifier missing precision");
    prec = 0;
    while (i < speclen && spec[i] >= '0' && spec[i] <= '9') {
      prec = prec * 10 + (spec[i++] - '0');
      if (prec > ((int64_t)1 << 40))
        return nrt_error_set(err, NRT_EVALUE, "Too many decimal digits in format string");
    }
  }
  if (i < speclen && spec[i] == 's')
    i++;
  if (i < speclen) {
    if (speclen - i == 1)
      return nrt_error_set(err, NRT_EVALUE, "Unknown format code '%c' for object of type 'str'",
                           spec[i]);
    return nrt_error_set(err, NRT_EVALUE,
                         "Invalid format specifier '%.*s' for object of type 'str'", (int)speclen,
                         spec);
  }
  if (align == '=')
    return nrt_error_set(err, NRT_EVALUE, "'=' alignment not allowed in string format specifier");
  nrt_str cut = *s;
  nrt_str tmp = nrt_str_empty();
  if (prec >= 0 && nrt_str_len(s->data, s->len) > prec) {
    int rc = nrt_str_slice(s, 0, prec, 1, &tmp, err);
    if (rc)
      return rc;
    cut = tmp;
  }
  int64_t n = nrt_str_len(cut.data, cut.len);
  int rc = NRT_OK;
  if (width <= n) {
    nrt_str_retain(&cut);
    *out = cut;
  } else {
    /* format() centres with the odd fill on the right (str.center puts it on the left). */
    int64_t pad = width - n;
    int64_t left = align == '>' ? pad : align == '^' ? pad / 2 : 0;
    int64_t right = pad - left;
    if (pad > (INT64_MAX / 8 - cut.len) / filllen) {
      rc = nrt_error_set(err, NRT_EOVERFLOW, "formatted string is too long");
    } else {
      char *p;
      rc = nrt_str_alloc(cut.len + pad * filllen, out, &p, err);
      for (int64_t k = 0; rc == NRT_OK && k < left; k++, p += filllen)
        memcpy(p, fillbuf, (size_t)filllen);
      if (rc == NRT_OK) {
        memcpy(p, cut.data, (size_t)cut.len);
        p += cut.len;
      }
      for (int64_t k = 0; rc == NRT_OK && k < right; k++, p += filllen)
        memcpy(p, fillbuf, (size_t)filllen);
    }
  }
  nrt_str_release(&tmp);
  return rc;
}

/* repr(s) / ascii(s) with CPython's quoting and escapes. */
int32_t nrt_udf_rt_repr(struct nrt_error *err, const nrt_str *s, int32_t ascii, nrt_str *out) {
  bool has_sq = memchr(s->data, '\'', (size_t)s->len) != NULL;
  bool has_dq = memchr(s->data, '"', (size_t)s->len) != NULL;
  char quote = has_sq && !has_dq ? '"' : '\'';
  /* Two passes: measure, then write. */
  int64_t size = 0;
  char *p = NULL;
  for (int pass = 0; pass < 2; pass++) {
    int64_t n = 0;
#define PUT(ch)                                                                              \
  do {                                                                                       \
    if (pass)                                                                                \
      p[n] = (char)(ch);                                                                     \
    n++;                                                                                     \
  } while (0)
    PUT(quote);
    for (int64_t i = 0; i < s->len;) {
      size_t k;
      uint32_t cp = nrt_utf8_decode(s->data + i, (size_t)(s->len - i), &k);
      if (cp == (uint32_t)quote || cp == '\\') {
        PUT('\\');
        PUT(cp);
      } else if (cp == '\t' || cp == '\n' || cp == '\r') {
        PUT('\\');
        PUT(cp == '\t' ? 't' : cp == '\n' ? 'n' : 'r');
      } else if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && (ascii || !nrt_uc_is_printable(cp)))) {
        char esc[12];
        int m = cp < 0x100 ? snprintf(esc, sizeof esc, "\\x%02x", cp)
                : cp < 0x10000 ? snprintf(esc, sizeof esc, "\\u%04x", cp)
                               : snprintf(esc, sizeof esc, "\\U%08x", cp);
        for (int j = 0; j < m; j++)
          PUT(esc[j]);
      } else {
        for (size_t j = 0; j < k; j++)
          PUT(s->data[i + (int64_t)j]);
      }
      i += (int64_t)k;
    }
    PUT(quote);
#undef PUT
    if (!pass) {
      size = n;
      int rc = nrt_str_alloc(size, out, &p, err);
      if (rc)
        return rc;
    }
  }
  return NRT_OK;
}

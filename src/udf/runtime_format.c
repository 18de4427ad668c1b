/* f-string support for strings: format(str, spec) and repr()/ascii() of a string, with
 * Python's rules (see runtime.h). Numbers are formatted by the str layer (nrt/str_convert.h). */
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "nrt/unicode.h"
#include "str/str_copy.h"
#include "udf/runtime.h"

int nrt_udf_parse_str_spec(const char *spec, int64_t speclen, struct nrt_udf_str_spec *f,
                           struct nrt_error *err) {
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
  memcpy(f->fill, fillbuf, sizeof fillbuf);
  f->filllen = filllen;
  f->align = align;
  f->width = width;
  f->prec = prec;
  return NRT_OK;
}

/* Pads s[0..len) (n code points) to the spec's width into out (room for the result); returns
 * the bytes written. format() centres with the odd fill on the right (str.center puts it on
 * the left). */
static int64_t pad_into(const struct nrt_udf_str_spec *f, const char *s, int64_t len, int64_t n,
                        char *out) {
  char *p = out;
  int64_t pad = f->width > n ? f->width - n : 0;
  int64_t left = f->align == '>' ? pad : f->align == '^' ? pad / 2 : 0;
  if (f->filllen == 1) { /* the usual one-byte fill: one memset a side */
    memset(p, f->fill[0], (size_t)left);
    p += left;
  } else {
    for (int64_t k = 0; k < left; k++, p += f->filllen)
      memcpy(p, f->fill, (size_t)f->filllen);
  }
  if (len)
    memcpy(p, s, (size_t)len);
  p += len;
  if (f->filllen == 1) {
    memset(p, f->fill[0], (size_t)(pad - left));
    p += pad - left;
  } else {
    for (int64_t k = left; k < pad; k++, p += f->filllen)
      memcpy(p, f->fill, (size_t)f->filllen);
  }
  return p - out;
}

/* The bytes of format(s, spec) for a parsed spec: the kept prefix of s (precision) and the
 * padded size. NRT_EOVERFLOW when the padding cannot be represented. */
static int str_layout(const struct nrt_udf_str_spec *f, const char *s, int64_t len, int64_t known,
                      int64_t *keep, int64_t *chars, int64_t *size, struct nrt_error *err) {
  /* every code point takes 1 to 4 bytes: no count is needed when the width is reached and
   * no precision cuts */
  int64_t n = known >= 0 ? known : f->prec < 0 && f->width <= len / 4 ? len : nrt_str_len(s, len);
  *keep = len;
  if (f->prec >= 0 && n > f->prec) { /* keep the bytes before code point prec */
    int64_t nbytes;
    nrt_str_char_range(s, len, f->prec, keep, &nbytes, NULL);
    n = f->prec;
  }
  *chars = n;
  int64_t pad = f->width > n ? f->width - n : 0;
  if (pad > (INT64_MAX / 8 - *keep) / f->filllen) {
    nrt_error_set(err, NRT_EOVERFLOW, "formatted string is too long");
    return NRT_EOVERFLOW; /* a constant: the callers' compiler sees *size set on NRT_OK */
  }
  *size = *keep + pad * f->filllen;
  return NRT_OK;
}

/* format(s, spec) for a str: s itself when the spec neither cuts nor pads it. */
int32_t nrt_udf_rt_format_str(struct nrt_error *err, const nrt_str *s, const char *spec,
                              int64_t speclen, nrt_str *out) {
  struct nrt_udf_str_spec f;
  int64_t keep, chars, size;
  int rc = nrt_udf_parse_str_spec(spec, speclen, &f, err);
  if (rc == NRT_OK)
    rc = str_layout(&f, s->data, s->len, -1, &keep, &chars, &size, err);
  if (rc)
    return rc;
  if (keep == s->len && size == s->len) { /* neither cut nor padded */
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  char *p;
  rc = nrt_str_alloc(size, out, &p, err);
  if (rc == NRT_OK)
    pad_into(&f, s->data, keep, chars, p);
  return rc;
}

/* The general path of the two below. */
static int32_t write_str_spec(struct nrt_error *err, nrt_col_row_writer *w, const char *data,
                              int64_t len, int64_t known, const struct nrt_udf_str_spec *f) {
  int64_t keep, chars, size;
  int rc = str_layout(f, data, len, known, &keep, &chars, &size, err);
  if (rc)
    return rc;
  char *p = nrt_col_row_room(w, (size_t)size, err);
  if (!p)
    return nrt_udf_room_failed(err);
  w->pos = p + pad_into(f, data, keep, chars, p);
  return NRT_OK;
}

int32_t nrt_udf_rt_write_str_spec(struct nrt_error *err, nrt_col_row_writer *w,
                                  const char *data, int64_t len,
                                  const struct nrt_udf_str_spec *f) {
  if (nrt_udf_write_str_fast(w, data, len, NULL, f))
    return NRT_OK;
  return write_str_spec(err, w, data, len, -1, f);
}

int32_t nrt_udf_rt_write_str_spec_n(struct nrt_error *err, nrt_col_row_writer *w,
                                    const char *data, int64_t len, int64_t *chars,
                                    const struct nrt_udf_str_spec *f) {
  if (nrt_udf_write_str_fast(w, data, len, chars, f))
    return NRT_OK;
  if (!chars)
    return write_str_spec(err, w, data, len, -1, f);
  *chars = nrt_str_len(data, len);
  return write_str_spec(err, w, data, len, *chars, f);
}

int32_t nrt_udf_rt_write_format_str(struct nrt_error *err, nrt_col_row_writer *w,
                                    const char *data, int64_t len, const char *spec,
                                    int64_t speclen) {
  struct nrt_udf_str_spec f;
  int rc = nrt_udf_parse_str_spec(spec, speclen, &f, err);
  return rc ? rc : nrt_udf_rt_write_str_spec(err, w, data, len, &f);
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

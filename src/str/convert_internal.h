/* Internal helpers of the conversion files (convert_*.c, pad.c): a counting output writer,
 * Python's repr of a string for error messages, and decimal digit generation for doubles.
 * Not part of the public API. */
#ifndef NRT_STR_CONVERT_INTERNAL_H
#define NRT_STR_CONVERT_INTERNAL_H

#include "nrt/str_convert.h"
#include "str/str_internal.h"

#include <stdio.h>
#include <string.h>

/* Output writer: counts bytes, and stores them too when out is not NULL. The same code path
 * computes a size and writes the bytes, so the two cannot disagree. */
struct nrt_cw {
  char *out;
  int64_t n;
};

static inline void nrt_cw_bytes(struct nrt_cw *w, const char *p, int64_t n) {
  if (w->out && n > 0)
    memcpy(w->out + w->n, p, (size_t)n);
  w->n += n;
}

static inline void nrt_cw_char(struct nrt_cw *w, char c) {
  if (w->out)
    w->out[w->n] = c;
  w->n++;
}

/* count copies of code point cp. */
static inline void nrt_cw_fill(struct nrt_cw *w, uint32_t cp, int64_t count) {
  char enc[4];
  int k = nrt_u8_enc(cp, enc);
  if (count <= 0)
    return;
  if (!w->out) {
    w->n += count * k;
    return;
  }
  if (k == 1) {
    memset(w->out + w->n, enc[0], (size_t)count);
    w->n += count;
    return;
  }
  for (int64_t i = 0; i < count; i++) {
    memcpy(w->out + w->n, enc, (size_t)k);
    w->n += k;
  }
}

/* Python's repr(s[0..len)) appended to buf[*pos..cap-1) and NUL-terminated, limited to
 * max_chars characters of the repr (CPython's %.200R; -1 for no limit). Stops early at a
 * character boundary when buf is full. */
NRT_STR_HIDDEN void nrt_conv_repr(const char *s, int64_t len, int64_t max_chars, char *buf,
                                  size_t cap, size_t *pos);

/* Sets err to code with message `prefix` + repr(s) (limited as nrt_conv_repr); returns code. */
NRT_STR_HIDDEN int nrt_conv_error_repr(struct nrt_error *err, int code, const char *prefix,
                                       const char *s, int64_t len, int64_t max_chars);

/* Decimal digits of a finite double's magnitude, in the form of David Gay's dtoa: ASCII
 * digits d[0..n) without leading or trailing zeros ("0" for zero) and the decimal point
 * position decpt (value = 0.d[0]d[1]... * 10^decpt). */
#define NRT_CONV_MAX_DIGITS 1120
struct nrt_conv_digits {
  char d[NRT_CONV_MAX_DIGITS];
  int n;
  int decpt;
};

/* dtoa mode 0: the shortest digits that read back as v (nearest to v among those). */
NRT_STR_HIDDEN void nrt_conv_digits_shortest(double v, struct nrt_conv_digits *out);
/* dtoa mode 2: v correctly rounded to max(ndigits, 1) significant digits. */
NRT_STR_HIDDEN void nrt_conv_digits_sig(double v, int64_t ndigits, struct nrt_conv_digits *out);
/* dtoa mode 3: v correctly rounded to ndigits (>= 0) digits after the decimal point. */
NRT_STR_HIDDEN void nrt_conv_digits_fixed(double v, int64_t ndigits,
                                          struct nrt_conv_digits *out);

/* CPython's format_float_short (Python/pystrtod.c) over a double: code 'r' (repr), 'e',
 * 'f', 'g' (precision as PyOS_double_to_string takes it), upper for E/F/G. */
struct nrt_conv_float_flags {
  bool add_dot_0;  /* Py_DTSF_ADD_DOT_0 */
  bool alt;        /* Py_DTSF_ALT */
  bool no_neg_0;   /* Py_DTSF_NO_NEG_0 */
  bool sign_plus;  /* Py_DTSF_SIGN */
  bool upper;      /* E, F, G: "INF", "NAN", "E" */
};
NRT_STR_HIDDEN void nrt_conv_double_to_string(struct nrt_cw *w, double v, char code,
                                              int64_t precision,
                                              const struct nrt_conv_float_flags *flags);

#endif

/* Doubles to text as CPython's PyOS_double_to_string / format_float_short
 * (Python/pystrtod.c): repr, and the e/f/g/% presentations of format specs. */
#include "str/convert_internal.h"

#include <math.h>

void nrt_conv_double_to_string(struct nrt_cw *w, double v, char code, int64_t precision,
                               const struct nrt_conv_float_flags *flags) {
  bool negative = signbit(v) != 0;
  if (isnan(v) || isinf(v)) {
    if (isnan(v))
      negative = false; /* the sign of a nan is never shown */
    if (negative)
      nrt_cw_char(w, '-');
    else if (flags->sign_plus)
      nrt_cw_char(w, '+');
    const char *word = isnan(v) ? (flags->upper ? "NAN" : "nan") : (flags->upper ? "INF" : "inf");
    nrt_cw_bytes(w, word, 3);
    return;
  }

  /* Digits, as _Py_dg_dtoa's modes: 0 (shortest), 2 (significant), 3 (fixed). */
  struct nrt_conv_digits dg;
  switch (code) {
  case 'e':
    precision++;
    nrt_conv_digits_sig(v, precision, &dg);
    break;
  case 'f':
    nrt_conv_digits_fixed(v, precision, &dg);
    break;
  case 'g':
    if (precision == 0)
      precision = 1;
    nrt_conv_digits_sig(v, precision, &dg);
    break;
  default: /* 'r' */
    nrt_conv_digits_shortest(v, &dg);
    break;
  }
  int64_t digits_len = dg.n, decpt = dg.decpt;
  if (flags->no_neg_0 && negative && digits_len == 1 && dg.d[0] == '0')
    negative = false;

  /* The output is a slice vdigits[vdigits_start:vdigits_end] of the digits padded with
   * zeros on both sides, with a decimal point at decpt and maybe an exponent. */
  bool use_exp = false;
  int64_t vdigits_end = digits_len, exp = 0;
  switch (code) {
  case 'e':
    use_exp = true;
    vdigits_end = precision;
    break;
  case 'f':
    vdigits_end = decpt + precision;
    break;
  case 'g':
    if (decpt <= -4 || decpt > (flags->add_dot_0 ? precision - 1 : precision))
      use_exp = true;
    if (flags->alt)
      vdigits_end = precision;
    break;
  default: /* 'r': exponent from 1e16 and below 1e-4 */
    if (decpt <= -4 || decpt > 16)
      use_exp = true;
    break;
  }
  if (use_exp) {
    exp = decpt - 1;
    decpt = 1;
  }
  int64_t vdigits_start = decpt <= 0 ? decpt - 1 : 0;
  if (!use_exp && flags->add_dot_0)
    vdigits_end = vdigits_end > decpt ? vdigits_end : decpt + 1;
  else
    vdigits_end = vdigits_end > decpt ? vdigits_end : decpt;

  if (negative)
    nrt_cw_char(w, '-');
  else if (flags->sign_plus)
    nrt_cw_char(w, '+');

  bool last_is_point = false;
  if (decpt <= 0) {
    nrt_cw_fill(w, '0', decpt - vdigits_start);
    nrt_cw_char(w, '.');
    nrt_cw_fill(w, '0', 0 - decpt);
    last_is_point = decpt == 0;
  } else {
    nrt_cw_fill(w, '0', 0 - vdigits_start);
  }
  if (0 < decpt && decpt <= digits_len) {
    nrt_cw_bytes(w, dg.d, decpt);
    nrt_cw_char(w, '.');
    nrt_cw_bytes(w, dg.d + decpt, digits_len - decpt);
    last_is_point = digits_len == decpt;
  } else {
    nrt_cw_bytes(w, dg.d, digits_len);
    if (digits_len > 0)
      last_is_point = false;
  }
  if (digits_len < decpt) {
    nrt_cw_fill(w, '0', decpt - digits_len);
    nrt_cw_char(w, '.');
    nrt_cw_fill(w, '0', vdigits_end - decpt);
    last_is_point = vdigits_end == decpt;
  } else {
    nrt_cw_fill(w, '0', vdigits_end - digits_len);
    if (vdigits_end > digits_len)
      last_is_point = false;
  }
  /* A trailing decimal point goes, unless alternate form. */
  if (last_is_point && !flags->alt)
    w->n--;
  if (use_exp) {
    char ebuf[16];
    int k = snprintf(ebuf, sizeof ebuf, "%c%+.02d", flags->upper ? 'E' : 'e', (int)exp);
    nrt_cw_bytes(w, ebuf, k);
  }
}

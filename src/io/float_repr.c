/* Python's float repr (see io/float_repr.h).
 *
 * The shortest round-tripping digits are found by asking the C library for 1, 2, ... 17
 * correctly rounded significant digits until strtod gives x back; the digits are then laid
 * out with Python's rules (float_repr_style 'short'). Written here because the C library has
 * no shortest-repr conversion and the writers need Python's exact spelling. */
#include "io/float_repr.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t io_float_repr(double x, char out[IO_FLOAT_REPR_SIZE]) {
  if (isnan(x)) {
    memcpy(out, "nan", 4);
    return 3;
  }
  if (isinf(x)) {
    memcpy(out, x < 0 ? "-inf" : "inf", x < 0 ? 5 : 4);
    return x < 0 ? 4 : 3;
  }
  char sci[IO_FLOAT_REPR_SIZE];
  for (int prec = 0; prec < 17; prec++) {
    snprintf(sci, sizeof sci, "%.*e", prec, x);
    if (strtod(sci, NULL) == x)
      break;
  }
  /* sci is "-d.ddde+XX": collect the digits and the exponent. */
  char digits[20];
  size_t nd = 0;
  const char *p = sci;
  int negative = *p == '-';
  if (negative)
    p++;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9')
      digits[nd++] = *p;
  int exp10 = atoi(p + 1);
  while (nd > 1 && digits[nd - 1] == '0')
    nd--;
  size_t n = 0;
  if (negative)
    out[n++] = '-';
  if (exp10 >= -4 && exp10 < 16) {
    if (exp10 >= 0) {
      for (int i = 0; i <= exp10; i++)
        out[n++] = (size_t)i < nd ? digits[i] : '0';
      out[n++] = '.';
      if ((size_t)exp10 + 1 < nd)
        for (size_t i = (size_t)exp10 + 1; i < nd; i++)
          out[n++] = digits[i];
      else
        out[n++] = '0';
    } else {
      out[n++] = '0';
      out[n++] = '.';
      for (int i = 0; i < -exp10 - 1; i++)
        out[n++] = '0';
      for (size_t i = 0; i < nd; i++)
        out[n++] = digits[i];
    }
    out[n] = '\0';
    return n;
  }
  out[n++] = digits[0];
  if (nd > 1) {
    out[n++] = '.';
    for (size_t i = 1; i < nd; i++)
      out[n++] = digits[i];
  }
  n += (size_t)snprintf(out + n, IO_FLOAT_REPR_SIZE - n, "e%c%02d", exp10 < 0 ? '-' : '+',
                        exp10 < 0 ? -exp10 : exp10);
  return n;
}

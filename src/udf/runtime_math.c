/* Arithmetic entry points of compiled UDF code with Python's semantics (see runtime.h). */
#include <math.h>

#include "udf/runtime.h"

int32_t nrt_udf_rt_raise(struct nrt_error *err, int32_t code, const char *msg) {
  return nrt_error_set(err, code, "%s", msg);
}

int32_t nrt_udf_rt_ipow(struct nrt_error *err, int64_t base, int64_t exp, int64_t *out) {
  /* Typed int ** int: a negative exponent known only at run time would make Python's result
   * a float, which the compiled type cannot hold (a literal one is typed float by the checker). */
  if (exp < 0)
    return nrt_error_set(err, NRT_EVALUE,
                         "negative exponent %lld in int ** int (the result would be a float; "
                         "write float(x) ** y)",
                         (long long)exp);
  int64_t result = 1;
  /* Square-and-multiply; every product checked, but only when it is needed. */
  while (exp > 0) {
    if (exp & 1) {
      if (__builtin_mul_overflow(result, base, &result))
        goto overflow;
    }
    exp >>= 1;
    if (exp > 0 && __builtin_mul_overflow(base, base, &base))
      goto overflow;
  }
  *out = result;
  return NRT_OK;
overflow:
  return nrt_error_set(err, NRT_EOVERFLOW, "integer overflow in ** (nrt ints are 64-bit)");
}

int32_t nrt_udf_rt_ffloordiv(struct nrt_error *err, double a, double b, double *out) {
  if (b == 0.0)
    return nrt_error_set(err, NRT_EZERODIV, "float floor division by zero");
  /* CPython's float_floor_div (via _float_div_mod). */
  double mod = fmod(a, b);
  double div = (a - mod) / b;
  if (mod != 0.0 && ((b < 0) != (mod < 0)))
    div -= 1.0;
  double floordiv;
  if (div != 0.0) {
    floordiv = floor(div);
    if (div - floordiv > 0.5)
      floordiv += 1.0;
  } else {
    floordiv = copysign(0.0, a / b);
  }
  *out = floordiv;
  return NRT_OK;
}

int32_t nrt_udf_rt_fmod(struct nrt_error *err, double a, double b, double *out) {
  if (b == 0.0)
    return nrt_error_set(err, NRT_EZERODIV, "float modulo");
  double mod = fmod(a, b);
  if (mod != 0.0) {
    if ((b < 0) != (mod < 0))
      mod += b;
  } else {
    mod = copysign(0.0, b);
  }
  *out = mod;
  return NRT_OK;
}

int32_t nrt_udf_rt_fpow(struct nrt_error *err, double a, double b, double *out) {
  if (a == 0.0 && b < 0.0 && isfinite(b))
    return nrt_error_set(err, NRT_EZERODIV, "0.0 cannot be raised to a negative power");
  if (a < 0.0 && isfinite(a) && isfinite(b) && floor(b) != b)
    return nrt_error_set(err, NRT_EVALUE,
                         "negative number cannot be raised to a fractional power");
  double r = pow(a, b);
  if (isinf(r) && isfinite(a) && isfinite(b))
    return nrt_error_set(err, NRT_EOVERFLOW, "(34, 'Numerical result out of range')");
  *out = r;
  return NRT_OK;
}

int32_t nrt_udf_rt_float_to_int(struct nrt_error *err, double x, int64_t *out) {
  if (isnan(x))
    return nrt_error_set(err, NRT_EVALUE, "cannot convert float NaN to integer");
  if (isinf(x))
    return nrt_error_set(err, NRT_EOVERFLOW, "cannot convert float infinity to integer");
  double t = trunc(x);
  /* [-2^63, 2^63) is exactly representable at both ends. */
  if (t < -9223372036854775808.0 || t >= 9223372036854775808.0)
    return nrt_error_set(err, NRT_EOVERFLOW, "integer overflow: %.17g does not fit in 64 bits",
                         x);
  *out = (int64_t)t;
  return NRT_OK;
}

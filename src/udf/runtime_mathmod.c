/* The functions of Python's math module a UDF may import, with CPython 3.11's results and
 * errors (Modules/mathmodule.c: math_1, m_log*, math_pow, loghelper). */
#include <math.h>

#include "udf/runtime.h"

static int32_t domain(struct nrt_error *err) {
  return nrt_error_set(err, NRT_EVALUE, "math domain error");
}

static int32_t range(struct nrt_error *err) {
  return nrt_error_set(err, NRT_EOVERFLOW, "math range error");
}

/* m_log, m_log2, m_log10: NaN passes, +inf gives +inf, zero and negatives are domain errors. */
static int32_t logf_(struct nrt_error *err, int32_t op, double x, double *out) {
  if (isnan(x)) {
    *out = x;
    return NRT_OK;
  }
  if (!(x > 0.0)) return domain(err);
  *out = op == NRT_UDF_MATH_LOG2 ? log2(x) : op == NRT_UDF_MATH_LOG10 ? log10(x) : log(x);
  return NRT_OK;
}

static int32_t math_pow(struct nrt_error *err, double x, double y, double *out) {
  double r;
  if (!isfinite(x) || !isfinite(y)) {
    if (isnan(x)) {
      r = y == 0.0 ? 1.0 : x;
    } else if (isnan(y)) {
      r = x == 1.0 ? 1.0 : y;
    } else if (isinf(x)) {
      bool odd_y = isfinite(y) && fmod(fabs(y), 2.0) == 1.0;
      if (y > 0.0) r = odd_y ? x : fabs(x);
      else if (y == 0.0) r = 1.0;
      else r = odd_y ? copysign(0.0, x) : 0.0;
    } else if (fabs(x) == 1.0) { /* y is infinite */
      r = 1.0;
    } else if (y > 0.0 && fabs(x) > 1.0) {
      r = y;
    } else if (y < 0.0 && fabs(x) < 1.0) {
      r = -y;
    } else {
      r = 0.0;
    }
  } else {
    r = pow(x, y);
    if (isnan(r)) return domain(err);
    if (isinf(r)) return x == 0.0 ? domain(err) : range(err);
  }
  *out = r;
  return NRT_OK;
}

int32_t nrt_udf_rt_math(struct nrt_error *err, int32_t op, double x, double y, double *out) {
  switch (op) {
  case NRT_UDF_MATH_SQRT:
    if (x < 0.0) return domain(err); /* -0.0 is not: sqrt(-0.0) is -0.0 */
    *out = sqrt(x);
    return NRT_OK;
  case NRT_UDF_MATH_EXP: {
    double r = exp(x);
    if (isinf(r) && isfinite(x)) return range(err);
    *out = r;
    return NRT_OK;
  }
  case NRT_UDF_MATH_LOG:
  case NRT_UDF_MATH_LOG2:
  case NRT_UDF_MATH_LOG10: return logf_(err, op, x, out);
  case NRT_UDF_MATH_LOG_BASE: {
    double num = 0.0, den = 0.0;
    if (logf_(err, NRT_UDF_MATH_LOG, x, &num) || logf_(err, NRT_UDF_MATH_LOG, y, &den))
      return err->code;
    if (den == 0.0) return nrt_error_set(err, NRT_EZERODIV, "float division by zero");
    *out = num / den;
    return NRT_OK;
  }
  case NRT_UDF_MATH_POW: return math_pow(err, x, y, out);
  default: return nrt_error_set(err, NRT_EINVAL, "unknown math function %d", (int)op);
  }
}

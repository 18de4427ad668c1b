/* The unicodedata module's runtime (runtime_ucd.c), called by compiled UDF code
 * (codegen_ucd.c) with CPython 3.11's results and exceptions. */
#ifndef NRT_UDF_RUNTIME_UCD_H
#define NRT_UDF_RUNTIME_UCD_H

#include <stdint.h>

#include "nrt/core.h"
#include "nrt/str.h"

/* The functions, in the order of types_ucd.c's table. */
enum {
  NRT_UDF_UCD_CATEGORY, NRT_UDF_UCD_BIDIRECTIONAL, NRT_UDF_UCD_EAST_ASIAN_WIDTH,
  NRT_UDF_UCD_DECOMPOSITION, NRT_UDF_UCD_NAME, NRT_UDF_UCD_LOOKUP, NRT_UDF_UCD_NORMALIZE,
  NRT_UDF_UCD_DECIMAL, NRT_UDF_UCD_DIGIT, NRT_UDF_UCD_COMBINING, NRT_UDF_UCD_MIRRORED,
  NRT_UDF_UCD_IS_NORMALIZED, NRT_UDF_UCD_NUMERIC
};

/* The str functions, CATEGORY .. NORMALIZE: fn(a) or fn(a, b) (b: name's default, or NULL;
 * normalize(a = form, b = text)). The result is a new reference in *out (normalize of text
 * already normalized returns text itself). NAME | NRT_UDF_UCD_DEFAULT_NONE is name(a, None):
 * out->data is NULL (None) for a character without a name. */
#define NRT_UDF_UCD_DEFAULT_NONE 0x100
int32_t nrt_udf_rt_ucd_str(int32_t fn, const nrt_str *a, const nrt_str *b, nrt_str *out,
                           struct nrt_error *err);
/* The int functions, DECIMAL .. IS_NORMALIZED (is_normalized(a = form, b = text) gives 0/1);
 * has_default: decimal/digit return dflt where CPython returns its default. */
int32_t nrt_udf_rt_ucd_int(int32_t fn, const nrt_str *a, const nrt_str *b, int32_t has_default,
                           int64_t dflt, int64_t *out, struct nrt_error *err);
/* numeric(a[, dflt]). */
int32_t nrt_udf_rt_ucd_numeric(const nrt_str *a, int32_t has_default, double dflt, double *out,
                               struct nrt_error *err);

#endif

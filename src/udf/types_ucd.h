/* Checking calls of the unicodedata module (types_ucd.c), for types.c: the arguments are
 * checked by types.c; this applies CPython's arity and type rules and rewrites the call into
 * UDF_BI_UCD (ast.h). An error comes back in *er with UDF_TY_UNKNOWN. */
#ifndef NRT_UDF_TYPES_UCD_H
#define NRT_UDF_TYPES_UCD_H

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/types_re.h" /* udf_re_err: code, location, message */

/* unicodedata.<fn>(...) whose arguments are checked: its type, or UDF_TY_UNKNOWN with *er. */
udf_type udf_ucd_check_call(udf_arena *a, udf_expr *e, const char *fn, udf_re_err *er);

#endif

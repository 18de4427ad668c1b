/* The UDF front end: source text -> checked, typed AST (ast.h).
 *
 * Internal API of the udf module (not exported from libnrt). */
#ifndef NRT_UDF_FRONT_H
#define NRT_UDF_FRONT_H

#include <stddef.h>

#include "nrt/core.h"
#include "udf/ast.h"

/* A compile diagnostic: where, and the message without the location prefix. */
typedef struct udf_diag {
  int line;          /* 1-based; 0 when the error has no location (allocation failure) */
  int col;           /* 1-based, in code points */
  char message[256]; /* e.g. "invalid syntax", "name 'x' is not defined" */
} udf_diag;

/* Parses and type-checks `src` (len bytes of UTF-8; need not be NUL-terminated).
 *
 * file: the name shown in messages (NULL: "<udf>").
 * entry: the entry function's name; NULL picks the lambda of a lambda module, the only def,
 *   or the last def.
 * param_types/nparams: the entry's parameter types, one per input column, each UDF_TY_STR,
 *   UDF_TY_INT, UDF_TY_FLOAT or UDF_TY_BOOL (nparams must equal the entry's parameter count).
 *
 * On success returns NRT_OK and stores in *out a module owning the whole tree (release it with
 * udf_module_free). On failure *out is NULL, nothing is left allocated, and the result is
 * NRT_EPARSE (syntax error), NRT_ETYPE (type or name error), NRT_EUNSUPPORTED (a construct
 * outside the language), NRT_EINVAL (bad arguments to this function) or NRT_ENOMEM. `err`
 * (NULL allowed) then receives the full diagnostic
 *     file:line:column: message
 *         <the source line>
 *         <spaces>^
 * (truncated to the size of nrt_error's message), and `diag` (NULL allowed) the location and
 * the bare message. */
int udf_front_compile(const char *src, size_t len, const char *file, const char *entry,
                      const udf_type *param_types, int nparams, udf_module **out,
                      udf_diag *diag, struct nrt_error *err);

#endif

/* Calls of helper functions (internal, used by the checker types.c): CPython's argument
 * binding with its TypeErrors, the scoping of nested defs and named lambdas, and their
 * closures by lambda lifting: every variable of an enclosing function that a nested function
 * reads becomes a hidden parameter (udf_func.ncaptures), which each call fills with the
 * caller's variable of that name, read at the call: Python's late binding. */
#ifndef NRT_UDF_TYPES_FUNCS_H
#define NRT_UDF_TYPES_FUNCS_H

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* Places call e's positional and keyword arguments into cargs[0..f's visible parameters)
 * (cargs zeroed, NULL where not given) and reports CPython's TypeError for a wrong call as a
 * compile error: unexpected keyword, multiple values, too many positional arguments, missing
 * ones (a parameter with a default, or hidden, is never missing). Returns NRT_OK or the error
 * code. */
int udf_bind_call_args(udf_diagctx *dc, const udf_expr *e, const udf_func *f, udf_expr **cargs);

/* A fresh use of the caller's variable for the hidden parameter `param`, located at loc. */
udf_expr *udf_capture_arg(udf_arena *a, const udf_var *param, udf_loc loc);

/* The function a call of `id` inside `from` names: a nested function of `from` or of a
 * function around it (innermost first), else a module-level def; NULL for none. */
udf_func *udf_resolve_func(const udf_module *m, const udf_func *from, const char *id);

/* Computes the captures of every nested function and adds them as hidden parameters. */
int udf_funcs_capture(udf_diagctx *dc, udf_arena *a, udf_module *m);

#endif

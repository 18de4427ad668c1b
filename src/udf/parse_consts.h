/* Module-level constants (internal): `NAME = expr` at module level, folded at parse time to a
 * literal or a tuple of literals (ast.h: udf_const), and default values of parameters folded
 * the same way (they are evaluated once, when the def runs). */
#ifndef NRT_UDF_PARSE_CONSTS_H
#define NRT_UDF_PARSE_CONSTS_H

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* Binds a module-level statement if it is a constant assignment. Returns 1 when it bound one,
 * 0 when s is no assignment of a single name (the caller reports it), -1 after reporting an
 * error (a value that is not a constant, a list display, ...). */
int udf_const_assign(udf_diagctx *dc, udf_arena *a, udf_module *m, const udf_stmt *s);

/* Folds every default value of f's parameters (literals, constants, expressions of them).
 * False after reporting an error (a mutable display, a name that is no constant, ...). */
bool udf_const_defaults(udf_diagctx *dc, udf_arena *a, const udf_module *m, udf_func *f);

/* The constant `name` (the last binding), or NULL. */
const udf_const *udf_const_find(const udf_module *m, const char *name);

/* A fresh copy of a constant's folded value, located at loc; NULL when out of memory. */
udf_expr *udf_const_copy(udf_arena *a, const udf_expr *value, udf_loc loc);

#endif

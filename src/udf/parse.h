/* The UDF parser (internal): tokens -> untyped AST (ast.h) in the arena.
 *
 * Recursive descent over Python 3.11's grammar with its precedence. Constructs outside the
 * UDF language are recognised and reported as "unsupported: ..." (NRT_EUNSUPPORTED) rather
 * than as syntax errors. The result has names as written (E_NAME.id, var NULL); for-loop and
 * comprehension targets get a fresh udf_var each, which the checker binds. */
#ifndef NRT_UDF_PARSE_H
#define NRT_UDF_PARSE_H

#include <stddef.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* Parses a whole module into *out (allocated in `a`; its `arena` field is set to `a`).
 * A module is one or more `def`s (docstrings allowed), or a single `lambda` expression
 * (optionally written `name = lambda ...`), which becomes a function with is_lambda set.
 * Returns NRT_OK or the error recorded in dc. */
int udf_parse_module(udf_diagctx *dc, udf_arena *a, const char *src, size_t len,
                     udf_module **out);

#endif

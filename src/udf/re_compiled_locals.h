/* `name = re.compile(<literal>, <flags>)` as a statement at the top of a function body, the
 * only binding of name there: the name is renamed (in the function and the functions nested
 * in it) to an unspellable module-level constant bound to the call, and the statement becomes
 * a `pass`, so that `name.search(s)` is checked as a module constant's method
 * (types_re_pattern.h) and the pattern is compiled once per UDF. Other uses of re.compile stay
 * as written (the checker refuses a pattern object used as a value). Run by the parser on the
 * whole module, before captures are computed. */
#ifndef NRT_UDF_RE_COMPILED_LOCALS_H
#define NRT_UDF_RE_COMPILED_LOCALS_H

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* NRT_OK, or an error reported in dc (out of memory). */
int udf_re_compiled_locals(udf_diagctx *dc, udf_arena *a, udf_module *m);

#endif

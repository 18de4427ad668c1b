/* Translate tables folded at compile time (runtime_translate.h has their layout): from the
 * literal arguments of str.maketrans(...) or from a dict display of literals. Internal. */
#ifndef NRT_UDF_TRANSLATE_TABLE_H
#define NRT_UDF_TRANSLATE_TABLE_H

#include <stdint.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* True when e is a literal a table can be folded from (str, int, float, bool, None, or a dict
 * display of them). */
bool udf_trans_is_literal(const udf_expr *e);

/* The table of str.maketrans(args[0..nargs)) (literals: see udf_trans_is_literal), checked
 * as CPython checks them: its bytes in the arena. Returns false after reporting CPython's
 * error ("str.maketrans raises ValueError: ...") at loc. */
bool udf_trans_fold_maketrans(udf_diagctx *dc, udf_arena *a, udf_loc loc, udf_expr *const *args,
                              int nargs, char **table, int64_t *size);

/* The table of a dict display of literals used as a translate table directly (str keys never
 * match, as in CPython). */
bool udf_trans_fold_dict(udf_diagctx *dc, udf_arena *a, const udf_expr *dict, char **table,
                         int64_t *size);

#endif

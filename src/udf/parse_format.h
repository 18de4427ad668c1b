/* str.format and %-formatting on a literal format string, desugared by the parser into the
 * f-string node (UDF_E_FSTRING), so both share the f-string's typing, code and runtime.
 *
 * The format string is known at compile time, so the errors CPython raises for it on every
 * call (a bad field, a missing argument, a wrong argument count) are compile errors here that
 * name CPython's exception and message. */
#ifndef NRT_UDF_PARSE_FORMAT_H
#define NRT_UDF_PARSE_FORMAT_H

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* `'literal'.format(args...)`: `call` is the parsed call whose func is the attribute `format`
 * of a UDF_E_STR. Returns the equivalent UDF_E_FSTRING, or NULL with the error in dc.
 * Arguments keep CPython's evaluation (each once, in order): when the fields use an argument
 * that is not a name or a literal twice, out of order or not at all, the result is instead a
 * call of a hidden helper added to m (`def <str.format at L:C>(arg0, ...): return f'...'`),
 * which evaluates the arguments as CPython does. */
udf_expr *udf_format_call(udf_diagctx *dc, udf_arena *a, udf_module *m, udf_expr *call);

/* `'literal' % right`: a tuple display gives the arguments, any other value is the single
 * argument. Returns the equivalent UDF_E_FSTRING (its fields carry the % conversion in
 * udf_fpart.percent for the checker), or NULL with the error in dc. */
udf_expr *udf_format_percent(udf_diagctx *dc, udf_arena *a, udf_expr *fmt, udf_expr *right);

/* True when the %-format string fmt has a `%(key)` conversion (then right must be a mapping). */
bool udf_format_percent_has_keys(const udf_expr *fmt);

/* `'literal' % mapping` with `%(key)` conversions: right a dict display of str literal keys
 * (each key's last value; the values evaluated once, in order, through a hidden helper added
 * to m when needed) or a variable holding a dict of str keys (is_var: each conversion looks
 * its key up, KeyError at runtime). Errors as udf_format_percent's, and CPython's KeyError
 * for a key the display lacks. */
udf_expr *udf_format_percent_keys(udf_diagctx *dc, udf_arena *a, udf_module *m, udf_expr *fmt,
                                  udf_expr *right, bool is_var);

#endif

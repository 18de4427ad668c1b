/* Checking the re module's calls and match objects (types_re.c), for types.c: types.c checks
 * the arguments, these functions apply re's rules, compile the patterns (re_compile.h) and, in
 * the final pass, rewrite the call into a UDF_BI_RE_* builtin (ast.h). An error is returned
 * in *er (code, location, message) with UDF_TY_UNKNOWN, for types.c to report. */
#ifndef NRT_UDF_TYPES_RE_H
#define NRT_UDF_TYPES_RE_H

#include <stdbool.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"

/* A flag on a UDF_TY_MATCH type: the matches of re.finditer (a list whose items' MemInfos are
 * the match objects), only as the iterable of a for loop or comprehension. */
#define UDF_TY_RE_MATCHES 0x8000u

/* The keyword names of Pattern.match/search/fullmatch's pos and endpos once rewritten into
 * re.match/search/fullmatch (types_re_pattern.h): no source can spell them. */
#define UDF_RE_POS "\001pos"
#define UDF_RE_ENDPOS "\001endpos"

typedef struct udf_re_err {
  int code;
  udf_loc loc;
  char msg[400];
} udf_re_err;

/* Sets *er: the error's code, where, and its message. */
void udf_re_err_set(udf_re_err *er, int code, udf_loc loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Folds `a | b | ...` of int literals (re.I | re.M) into one literal in place; false when e
 * is not such an expression. */
bool udf_re_fold_flags(udf_expr *e);

/* Before the arguments of re.<fn>(...) are checked: folds flags (re.I | re.M) into an int
 * literal and rejects arguments that are not values (a function as sub's replacement).
 * False with *er set on error; false with er->code 0 when e was rewritten (re.subn into a
 * tuple display of re.sub and its count) and must be checked again. */
/* (re.sub with a def as the replacement becomes a call of it on the current match.) */
bool udf_re_precheck(udf_module *m, udf_arena *a, udf_expr *e, const char *fn, udf_re_err *er);
/* re.<fn>(...) whose arguments are checked: its type, or UDF_TY_UNKNOWN with *er.
 * as_iterable: the call is the iterable of a for loop or comprehension (re.finditer). */
udf_type udf_re_check_call(udf_module *m, udf_arena *a, bool final, udf_expr *e, const char *fn,
                           bool as_iterable, udf_re_err *er);
/* m.<name>(...) (method) or m[index] (name NULL; index in args[0]) on a match m (receiver
 * checked, not None) whose arguments are checked. m.span() is rewritten into a tuple display
 * of m.start() and m.end(): UDF_TY_UNKNOWN with er->code 0 says to check e again. */
udf_type udf_re_check_match(udf_module *m, udf_arena *a, bool final, udf_expr *e,
                            udf_expr *recv, const char *name, udf_re_err *er);

/* e = m.groupdict()[key] (is_get false) or m.groupdict().get(key, dflt) (dflt NULL: None),
 * gd the groupdict call, m a match (checked, not None), key a str literal: e becomes
 * m.group(key) (None where the group did not take part, as the dict holds), or for get of a
 * name the pattern lacks, dflt / None. Not (nothing changed) where the dict itself is needed:
 * a name the pattern lacks in [] (KeyError at run time), or groupdict(default) of a group that
 * may not take part. Returns 1 (rewritten), 0 (not), -1 (out of memory). */
int udf_re_groupdict_item(udf_module *m, udf_arena *a, udf_expr *e, udf_expr *gd,
                          udf_expr *key, udf_expr *dflt, bool is_get);

#endif

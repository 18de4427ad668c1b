/* Pattern objects (internal, for types.c): `re.compile(<literal>, <flags>)` is no value of
 * its own; where a module-level constant (or a function's, re_compiled_locals.h) or the call
 * itself is the receiver of a method, the call is rewritten into the re module's function with
 * the pattern and flags prepended (`P.sub(r, s)` is `re.sub(<pattern>, r, s, flags=<flags>)`),
 * its attributes become literals (P.pattern, P.flags, P.groups), and as the pattern argument
 * of a re function it is replaced by its literal. Errors come back in *er (types_re.h). */
#ifndef NRT_UDF_TYPES_RE_PATTERN_H
#define NRT_UDF_TYPES_RE_PATTERN_H

#include <stdbool.h>
#include <stddef.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/types_re.h"

/* x is a call of re.compile (as the parser resolved it). */
bool udf_re_is_compile(const udf_expr *x);

/* e = P.name(args) with P (the call p) a pattern object: e becomes re.name(pattern, args,
 * flags=...), to be checked again. False with *er (CPython's TypeError for the arguments of
 * Pattern methods; pos/endpos unsupported). */
bool udf_re_pattern_call(udf_arena *a, udf_expr *e, udf_expr *p, const char *name,
                         udf_re_err *er);

/* e = P.attr (UDF_E_ATTRIBUTE) becomes a literal: pattern (str), flags (int, re.UNICODE
 * included as in CPython), groups (int). */
bool udf_re_pattern_attr(udf_module *m, udf_expr *e, udf_expr *p, udf_re_err *er);

/* re.fn(P, ...) with *slot (its pattern argument) the pattern object p: *slot becomes the
 * literal and the flags are passed (CPython's ValueError for non-zero flags of the call).
 * flags_index: the position of fn's flags parameter. */
bool udf_re_pattern_arg(udf_arena *a, udf_expr *e, udf_expr **slot, udf_expr *p, int flags_index,
                        udf_re_err *er);

/* Compiles the patterns of the module-level constants bound to re.compile (CPython compiles
 * them when the module runs, whether a function uses them or not): false with *er for the
 * first that CPython rejects or that cannot be translated. */
bool udf_re_pattern_constants(udf_module *m, udf_re_err *er);

/* m.attr (not called) on a match: true with the message in why ("unsupported: ..." or
 * CPython's AttributeError) when it is no method read as a value. */
bool udf_re_match_attr(const char *attr, char *why, size_t size);

#endif

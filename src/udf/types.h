/* Name resolution and type inference of the UDF front end (internal). */
#ifndef NRT_UDF_TYPES_H
#define NRT_UDF_TYPES_H

#include <stdbool.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/diag.h"

/* Checks a parsed module: picks the entry (see front.h), types it with the given parameter
 * types, and every helper it calls (transitively) with the argument types of their first
 * call. Fills the typed-AST guarantees listed in ast.h. Returns NRT_OK or the code recorded
 * in dc. */
int udf_check_module(udf_diagctx *dc, udf_arena *a, udf_module *m, const char *entry,
                     const udf_type *param_types, int nparams);

/* ---- the string method table (types_methods.c) ---- */

typedef enum udf_slot_kind {
  UDF_SLOT_STR,         /* str */
  UDF_SLOT_STR_OR_NONE, /* str or None (None = absent) */
  UDF_SLOT_INT,         /* int (bool cast) */
  UDF_SLOT_INT_OR_NONE, /* int or None (None = absent): start/end */
  UDF_SLOT_PREFIX,      /* str or tuple of str */
  UDF_SLOT_TRUTH,       /* keepends: bool, or int wrapped in a truth test */
  UDF_SLOT_ITERABLE     /* join: list[str], tuple[str] or str */
} udf_slot_kind;

typedef struct udf_method_info {
  const char *name;
  udf_method id;
  int min_args, max_args;
  udf_slot_kind slots[3];
  const char *keywords[3]; /* keyword name per slot, NULL when positional-only */
  udf_type result;
} udf_method_info;

/* The entry for a str method name, or NULL when the name is not a supported method. */
const udf_method_info *udf_method_lookup(const char *name);

/* True when `name` is a method of Python's str that the UDF language does not support. */
bool udf_method_is_unsupported_str_method(const char *name);

/* True when `name` is a Python builtin function the UDF language does not support. */
bool udf_builtin_is_unsupported(const char *name);

/* Definite assignment and reachability (types_flow.c): sets check_bound on uses of a variable
 * that may be unassigned, needs_bound_flag on such variables, and fn->falls_off_end. */
int udf_flow_function(udf_diagctx *dc, udf_arena *a, udf_func *fn);

#endif

/* The modules a UDF may import (math, string, re, unicodedata), resolved by the parser: an
 * imported name used in an expression becomes a literal (string.digits, math.pi) or a call of
 * a checker builtin whose name is the dotted path ("math.floor"), which no Python identifier
 * can spell. */
#ifndef NRT_UDF_IMPORTS_H
#define NRT_UDF_IMPORTS_H

#include <stdbool.h>
#include <stddef.h>

#include "udf/ast.h"

/* One binding made by an import statement: `import m as alias` (member NULL) or
 * `from m import member as alias`. */
typedef struct udf_import {
  const char *alias;
  const char *module;
  const char *member;
} udf_import;

/* The imports in scope while parsing, in statement order (function bodies pop theirs). */
typedef struct udf_imports {
  udf_import *v;
  int n, cap;
} udf_imports;

/* The canonical name of an importable module spelled text[0..len), or NULL. */
const char *udf_import_module(const char *text, size_t len);

/* The binding of `name` (innermost first), or NULL. */
const udf_import *udf_import_find(const udf_imports *im, const char *name, size_t len);

/* Rewrites `e`, an expression node located where module.member is used, into that member's
 * meaning: a UDF_E_STR or UDF_E_FLOAT literal, or a UDF_E_NAME with the dotted builtin name
 * (arena-allocated). Returns NULL on success, or the unsupported name ("math.gamma") in `buf`
 * when the member is not supported. */
const char *udf_import_resolve(udf_expr *e, const char *module, const char *member,
                               char *buf, size_t bufsize);

#endif

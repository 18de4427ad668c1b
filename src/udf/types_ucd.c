/* Checking the unicodedata module's calls (see types_ucd.h), with CPython 3.11's messages. */
#include "udf/types_ucd.h"

#include <stdio.h>
#include <string.h>

#include "nrt/core.h"
#include "nrt/ucd.h"
#include "nrt/unicode.h"
#include "udf/runtime_ucd.h"

/* An error: *er set, and the unknown type. */
#define fail(er, code, loc, ...) (udf_re_err_set(er, code, loc, __VA_ARGS__), UDF_TY_UNKNOWN)

/* How a function is called: CHAR f(chr); CHAR_DEFAULT f(chr[, default]); FORM_TEXT
 * f(form, unistr); NAME lookup(name). */
enum shape { CHAR, CHAR_DEFAULT, FORM_TEXT, NAME };

static const struct {
  const char *name;
  int fn; /* NRT_UDF_UCD_* */
  enum shape shape;
  udf_type result;
} funcs[] = {
    {"category", NRT_UDF_UCD_CATEGORY, CHAR, UDF_TY_STR},
    {"bidirectional", NRT_UDF_UCD_BIDIRECTIONAL, CHAR, UDF_TY_STR},
    {"east_asian_width", NRT_UDF_UCD_EAST_ASIAN_WIDTH, CHAR, UDF_TY_STR},
    {"decomposition", NRT_UDF_UCD_DECOMPOSITION, CHAR, UDF_TY_STR},
    {"name", NRT_UDF_UCD_NAME, CHAR_DEFAULT, UDF_TY_STR},
    {"lookup", NRT_UDF_UCD_LOOKUP, NAME, UDF_TY_STR},
    {"normalize", NRT_UDF_UCD_NORMALIZE, FORM_TEXT, UDF_TY_STR},
    {"decimal", NRT_UDF_UCD_DECIMAL, CHAR_DEFAULT, UDF_TY_INT},
    {"digit", NRT_UDF_UCD_DIGIT, CHAR_DEFAULT, UDF_TY_INT},
    {"combining", NRT_UDF_UCD_COMBINING, CHAR, UDF_TY_INT},
    {"mirrored", NRT_UDF_UCD_MIRRORED, CHAR, UDF_TY_INT},
    {"is_normalized", NRT_UDF_UCD_IS_NORMALIZED, FORM_TEXT, UDF_TY_BOOL},
    {"numeric", NRT_UDF_UCD_NUMERIC, CHAR_DEFAULT, UDF_TY_FLOAT},
};

static const char *type_name(udf_type t) {
  return udf_type_name(t);
}

/* lookup('LITERAL') of a name that exists becomes the literal it finds: the search runs once,
 * not per row. A name that does not exist is left to raise KeyError where CPython does. */
static bool lookup_literal(udf_arena *a, udf_expr *e, udf_re_err *er) {
  const udf_expr *arg = e->u.call.args[0];
  uint32_t cps[4];
  size_t n = arg->u.str.len > 256 ? 0
                                  : nrt_uc_lookup(arg->u.str.data, (size_t)arg->u.str.len, cps);
  if (n == 0) return false; /* not folded */
  char *text = udf_arena_alloc(a, 17);
  if (!text) return udf_re_err_set(er, NRT_ENOMEM, e->loc, "out of memory"), false;
  size_t len = 0;
  for (size_t i = 0; i < n; i++) len += nrt_utf8_encode(cps[i], text + len);
  text[len] = '\0';
  e->kind = UDF_E_STR;
  memset(&e->u, 0, sizeof e->u);
  e->u.str.data = text;
  e->u.str.len = (int64_t)len;
  e->type = UDF_TY_STR;
  return true;
}

udf_type udf_ucd_check_call(udf_arena *a, udf_expr *e, const char *fn, udf_re_err *er) {
  size_t k = 0;
  while (k < sizeof funcs / sizeof funcs[0] && strcmp(funcs[k].name, fn) != 0) k++;
  if (k == sizeof funcs / sizeof funcs[0])
    return fail(er, NRT_EUNSUPPORTED, e->loc, "unsupported: unicodedata.%s", fn);
  int n = e->u.call.nargs;
  udf_expr **args = e->u.call.args;
  if (e->u.call.nkeywords)
    return fail(er, NRT_ETYPE, e->u.call.keywords[0].loc,
                "unicodedata.%s() takes no keyword arguments", fn);
  switch (funcs[k].shape) {
  case CHAR:
  case NAME:
    if (n != 1)
      return fail(er, NRT_ETYPE, e->loc, "unicodedata.%s() takes exactly one argument (%d given)",
                  fn, n);
    break;
  case CHAR_DEFAULT:
    if (n < 1) return fail(er, NRT_ETYPE, e->loc, "%s expected at least 1 argument, got 0", fn);
    if (n > 2)
      return fail(er, NRT_ETYPE, e->loc, "%s expected at most 2 arguments, got %d", fn, n);
    break;
  case FORM_TEXT:
    if (n != 2) return fail(er, NRT_ETYPE, e->loc, "%s expected 2 arguments, got %d", fn, n);
    break;
  }
  for (int i = 0; i < (funcs[k].shape == FORM_TEXT ? 2 : 1); i++) {
    udf_type t = args[i]->type;
    if (t == UDF_TY_STR) continue;
    if (funcs[k].shape == FORM_TEXT)
      return fail(er, NRT_ETYPE, args[i]->loc, "%s() argument %d must be str, not %s", fn, i + 1,
                  type_name(t));
    if (funcs[k].shape == NAME)
      return fail(er, NRT_ETYPE, args[i]->loc, "a bytes-like object is required, not '%s'",
                  type_name(t));
    return fail(er, NRT_ETYPE, args[i]->loc, "%s() argument %smust be a unicode character, not %s",
                fn, funcs[k].shape == CHAR_DEFAULT ? "1 " : "", type_name(t));
  }
  udf_type result = funcs[k].result;
  if (funcs[k].fn == NRT_UDF_UCD_NAME && n == 2 && args[1]->type == UDF_TY_NONE)
    result = UDF_TY_STR | UDF_TY_NULLABLE; /* name(c, None): str | None */
  else if (funcs[k].shape == CHAR_DEFAULT && n == 2 && args[1]->type != result)
    return fail(er, NRT_EUNSUPPORTED, args[1]->loc,
                "unsupported: unicodedata.%s() with a default of type %s (the default must be "
                "%s %s, the type of the result%s)",
                fn, type_name(args[1]->type), result == UDF_TY_INT ? "an" : "a", type_name(result),
                result == UDF_TY_FLOAT ? ", e.g. -1.0" : "");
  if (funcs[k].fn == NRT_UDF_UCD_LOOKUP && args[0]->kind == UDF_E_STR) {
    er->code = 0;
    if (lookup_literal(a, e, er)) return e->type;
    if (er->code) return UDF_TY_UNKNOWN;
  }
  udf_expr **cargs = udf_arena_alloc(a, 3 * sizeof *cargs);
  udf_expr *op = udf_arena_alloc(a, sizeof *op);
  if (!cargs || !op) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
  memset(op, 0, sizeof *op);
  op->kind = UDF_E_INT;
  op->loc = e->loc;
  op->type = UDF_TY_INT;
  op->u.ival = funcs[k].fn;
  cargs[0] = op;
  cargs[1] = args[0];
  cargs[2] = n > 1 ? args[1] : NULL;
  e->u.call.ckind = UDF_CALL_BUILTIN;
  e->u.call.builtin = UDF_BI_UCD;
  e->u.call.cargs = cargs;
  e->u.call.ncargs = n + 1;
  return e->type = result;
}

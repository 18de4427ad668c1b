/* Lowering of calls: builtins, string methods, helper functions, f-strings and str(). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "udf/codegen_internal.h"
#include "udf/runtime.h"

cg_val cg_new_str(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n) {
  /* fn(args..., nrt_str *out, nrt_error *err) -> status */
  LLVMValueRef all[12];
  memcpy(all, args, (size_t)n * sizeof *args);
  LLVMValueRef out = cg_out_str(c);
  all[n] = out;
  all[n + 1] = c->err;
  cg_check(c, cg_call(c, fn, sig, all, n + 2));
  cg_val v = {cg_load_str(c, out), UDF_TY_STR, false};
  cg_push_temp(c, &v);
  return v;
}

static cg_val rt_str(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n) {
  /* fn(err, args..., nrt_str *out) -> status */
  LLVMValueRef all[12];
  all[0] = c->err;
  memcpy(all + 1, args, (size_t)n * sizeof *args);
  LLVMValueRef out = cg_out_str(c);
  all[n + 1] = out;
  cg_check(c, cg_call(c, fn, sig, all, n + 2));
  cg_val v = {cg_load_str(c, out), UDF_TY_STR, false};
  cg_push_temp(c, &v);
  return v;
}


static LLVMValueRef rt_i64(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n,
                           bool err_first) {
  LLVMValueRef all[12];
  int k = 0;
  if (err_first)
    all[k++] = c->err;
  memcpy(all + k, args, (size_t)n * sizeof *args);
  k += n;
  LLVMValueRef out = cg_scratch(c, c->i64, "i");
  all[k++] = out;
  if (!err_first)
    all[k++] = c->err;
  cg_check(c, cg_call(c, fn, sig, all, k));
  return LLVMBuildLoad2(c->b, c->i64, out, "");
}

static LLVMValueRef opt_int(cg *c, const udf_expr *e, long long dflt) {
  if (!e || e->kind == UDF_E_NONE)
    return cg_i64(c, dflt);
  return cg_expr(c, e).v;
}

static cg_val lit(cg *c, const char *s) {
  cg_val v = {cg_str_lit(c, s, (int64_t)strlen(s)), UDF_TY_STR, false};
  return v;
}

/* ------------------------------------------------------------------ str() */

cg_val cg_to_str(cg *c, cg_val v) {
  switch (udf_type_base(v.type)) {
  case UDF_TY_STR: return v;
  case UDF_TY_INT: return cg_new_str(c, "nrt_str_from_int64", "i:lsp", &v.v, 1);
  case UDF_TY_FLOAT: return cg_new_str(c, "nrt_str_from_double", "i:dsp", &v.v, 1);
  case UDF_TY_BOOL: {
    cg_val r = {LLVMBuildSelect(c->b, v.v, cg_str_lit(c, "True", 4), cg_str_lit(c, "False", 5),
                                ""),
                UDF_TY_STR, false};
    return r;
  }
  case UDF_TY_NONE: return lit(c, "None");
  default:
    cg_fail(c, "str() of %s is not supported", udf_type_name(v.type));
    return lit(c, "");
  }
}

/* repr() of a value, for the !r and !a conversions of f-strings. */
static cg_val to_repr(cg *c, cg_val v, bool ascii) {
  if (udf_type_base(v.type) != UDF_TY_STR)
    return cg_to_str(c, v);
  LLVMValueRef args[2] = {cg_spill(c, v.v), LLVMConstInt(c->i32, ascii ? 1 : 0, 0)};
  return rt_str(c, "nrt_udf_rt_repr", "i:psis", args, 2);
}

/* ------------------------------------------------------------------ f-strings */

cg_val cg_format_field(cg *c, const udf_fpart *p) {
  cg_val v = cg_expr(c, p->expr);
  udf_type t = udf_type_base(v.type);
  bool has_spec = p->spec.len > 0;
  LLVMValueRef spec = cg_cstr(c, p->spec.data ? p->spec.data : "", (size_t)p->spec.len);
  LLVMValueRef speclen = cg_i64(c, p->spec.len);
  cg_val s;
  if (p->conversion == 'r' || p->conversion == 'a' || p->conversion == 's') {
    s = p->conversion == 's' ? cg_to_str(c, v) : to_repr(c, v, p->conversion == 'a');
    t = UDF_TY_STR;
  } else if (t == UDF_TY_BOOL && !has_spec) {
    s = cg_to_str(c, v);
    t = UDF_TY_STR;
  } else if (t == UDF_TY_BOOL) {
    LLVMValueRef args[3] = {LLVMBuildZExt(c->b, v.v, c->i64, ""), spec, speclen};
    s = cg_new_str(c, "nrt_str_format_int", "i:lplsp", args, 3);
    t = UDF_TY_NONE; /* done */
  } else if (t == UDF_TY_INT) {
    LLVMValueRef args[3] = {v.v, spec, speclen};
    s = cg_new_str(c, "nrt_str_format_int", "i:lplsp", args, 3);
    t = UDF_TY_NONE;
  } else if (t == UDF_TY_FLOAT) {
    LLVMValueRef args[3] = {v.v, spec, speclen};
    s = cg_new_str(c, "nrt_str_format_float", "i:dplsp", args, 3);
    t = UDF_TY_NONE;
  } else {
    s = v;
  }
  if (t == UDF_TY_STR && has_spec) {
    LLVMValueRef args[3] = {cg_spill(c, s.v), spec, speclen};
    cg_val f = rt_str(c, "nrt_udf_rt_format_str", "i:pspls", args, 3);
    if (s.v != v.v)
      cg_release(c, s);
    s = f;
  }
  if (s.v != v.v)
    cg_release(c, v);
  return s;
}

static cg_val fstring(cg *c, const udf_expr *e) {
  int n = e->u.fstring.nparts;
  if (n > 256) {
    cg_fail(c, "f-string of more than 256 parts");
    n = 256;
  }
  cg_val parts[256];
  for (int i = 0; i < n; i++) {
    const udf_fpart *p = &e->u.fstring.parts[i];
    if (p->is_field) {
      parts[i] = cg_format_field(c, p);
    } else {
      parts[i].v = cg_str_lit(c, p->text.data ? p->text.data : "", p->text.len);
      parts[i].type = UDF_TY_STR;
      parts[i].temp = false;
    }
  }
  if (n == 1 && e->u.fstring.parts[0].is_field)
    return parts[0];
  LLVMTypeRef arr = LLVMArrayType(c->str, (unsigned)(n ? n : 1));
  LLVMValueRef items = cg_scratch(c, arr, "parts");
  for (int i = 0; i < n; i++) {
    LLVMValueRef idx[2] = {cg_i64(c, 0), cg_i64(c, i)};
    LLVMBuildStore(c->b, parts[i].v, LLVMBuildInBoundsGEP2(c->b, arr, items, idx, 2, ""));
  }
  LLVMValueRef args[3] = {cg_spill(c, cg_str_lit(c, "", 0)),
                          LLVMBuildBitCast(c->b, items, c->strp, ""), cg_i64(c, n)};
  cg_val r = cg_new_str(c, "nrt_str_join_array", "i:sslsp", args, 3);
  for (int i = n - 1; i >= 0; i--)
    cg_release(c, parts[i]);
  return r;
}

/* ------------------------------------------------------------------ builtins */

static cg_val minmax(cg *c, const udf_expr *e, bool is_max) {
  int n = e->u.call.ncargs;
  udf_type t = udf_type_base(e->type);
  if (n == 1) {
    cg_val a = cg_expr(c, e->u.call.cargs[0]);
    LLVMValueRef args[2] = {a.v, LLVMConstInt(c->i32, is_max, 0)};
    cg_val r;
    if (udf_type_base(a.type) == UDF_TY_STR) {
      args[0] = cg_spill(c, a.v);
      r = rt_str(c, "nrt_udf_rt_str_minmax", "i:psis", args, 2);
    } else {
      r = rt_str(c, "nrt_udf_rt_list_minmax", "i:ppis", args, 2);
    }
    cg_release(c, a);
    return r;
  }
  if (n > 64) {
    cg_fail(c, "min/max of more than 64 arguments");
    n = 64;
  }
  cg_val vals[64];
  memset(vals, 0, sizeof vals);
  for (int i = 0; i < n; i++)
    vals[i] = cg_expr(c, e->u.call.cargs[i]);
  LLVMValueRef cur = vals[0].v;
  cg_val curv = vals[0];
  for (int i = 1; i < n; i++) {
    LLVMValueRef better;
    LLVMValueRef x = vals[i].v;
    if (t == UDF_TY_INT) {
      better = LLVMBuildICmp(c->b, is_max ? LLVMIntSGT : LLVMIntSLT, x, cur, "");
    } else if (t == UDF_TY_FLOAT) {
      better = LLVMBuildFCmp(c->b, is_max ? LLVMRealOGT : LLVMRealOLT, x, cur, "");
    } else {
      LLVMValueRef args[4] = {cg_str_data(c, x), cg_str_len(c, x), cg_str_data(c, cur),
                              cg_str_len(c, cur)};
      LLVMValueRef cmp = cg_call(c, "nrt_str_compare", "i:plpl", args, 4);
      better = LLVMBuildICmp(c->b, is_max ? LLVMIntSGT : LLVMIntSLT, cmp, cg_i32(c, 0), "");
    }
    cur = LLVMBuildSelect(c->b, better, x, cur, "");
  }
  curv.v = cur;
  curv.type = t;
  curv.temp = false;
  if (t == UDF_TY_STR) {
    cg_incref(c, curv);
    for (int i = n - 1; i >= 0; i--)
      cg_release(c, vals[i]);
    cg_push_temp(c, &curv);
  }
  return curv;
}

/* math.floor(x) ... (imports.h): the arguments are float (or int for floor/ceil/trunc). */
static cg_val math_fn(cg *c, const udf_expr *e) {
  udf_builtin b = e->u.call.builtin;
  cg_val r = {NULL, e->type, false};
  cg_val x = cg_expr(c, e->u.call.cargs[0]);
  LLVMValueRef y = e->u.call.ncargs > 1 ? cg_expr(c, e->u.call.cargs[1]).v
                                        : LLVMConstReal(c->f64, 0);
  LLVMTypeRef pt = c->f64;
  LLVMValueRef inf = LLVMConstReal(c->f64, INFINITY);
  if (b <= UDF_BI_MATH_TRUNC) {
    if (udf_type_base(x.type) == UDF_TY_INT) return x;
    static const char *const rounding[] = {"llvm.floor.f64", "llvm.ceil.f64", "llvm.trunc.f64"};
    LLVMValueRef v = cg_intrinsic(c, rounding[b - UDF_BI_MATH_FLOOR], c->f64, &pt, 1, &x.v, 1);
    r.v = rt_i64(c, "nrt_udf_rt_float_to_int", "i:pdL", &v, 1, true);
    return r;
  }
  switch (b) {
  case UDF_BI_MATH_ISNAN: r.v = LLVMBuildFCmp(c->b, LLVMRealUNO, x.v, x.v, ""); return r;
  case UDF_BI_MATH_ISINF:
  case UDF_BI_MATH_ISFINITE: {
    LLVMValueRef a = cg_intrinsic(c, "llvm.fabs.f64", c->f64, &pt, 1, &x.v, 1);
    r.v = LLVMBuildFCmp(c->b, b == UDF_BI_MATH_ISINF ? LLVMRealOEQ : LLVMRealOLT, a, inf, "");
    return r;
  }
  case UDF_BI_MATH_FABS: r.v = cg_intrinsic(c, "llvm.fabs.f64", c->f64, &pt, 1, &x.v, 1); return r;
  default: break;
  }
  int op = b == UDF_BI_MATH_SQRT    ? NRT_UDF_MATH_SQRT
           : b == UDF_BI_MATH_EXP   ? NRT_UDF_MATH_EXP
           : b == UDF_BI_MATH_LOG2  ? NRT_UDF_MATH_LOG2
           : b == UDF_BI_MATH_LOG10 ? NRT_UDF_MATH_LOG10
           : b == UDF_BI_MATH_POW   ? NRT_UDF_MATH_POW
           : e->u.call.ncargs > 1   ? NRT_UDF_MATH_LOG_BASE
                                    : NRT_UDF_MATH_LOG;
  LLVMValueRef out = cg_scratch(c, c->f64, "f");
  LLVMValueRef args[5] = {c->err, cg_i32(c, op), x.v, y, out};
  cg_check(c, cg_call(c, "nrt_udf_rt_math", "i:piddD", args, 5));
  r.v = LLVMBuildLoad2(c->b, c->f64, out, "");
  return r;
}

static cg_val builtin(cg *c, const udf_expr *e) {
  int n = e->u.call.ncargs;
  udf_expr *const *a = e->u.call.cargs;
  cg_val r = {NULL, e->type, false};
  if (e->u.call.builtin == UDF_BI_UCD)
    return cg_ucd_call(c, e);
  if (e->u.call.builtin >= UDF_BI_TRANSLATE)
    return cg_format_builtin(c, e);
  if (e->u.call.builtin >= UDF_BI_RE_MATCH)
    return cg_re_call(c, e);
  switch (e->u.call.builtin) {
  case UDF_BI_LEN: {
    cg_val v = cg_expr(c, a[0]);
    if (udf_type_base(v.type) == UDF_TY_STR) {
      LLVMValueRef args[2] = {cg_str_data(c, v.v), cg_str_len(c, v.v)};
      r.v = cg_call(c, "nrt_str_len", "l:pl", args, 2);
    } else {
      r.v = cg_list_len(c, v.v);
    }
    cg_release(c, v);
    return r;
  }
  case UDF_BI_STR: {
    if (n == 0)
      return lit(c, "");
    cg_val v = cg_expr(c, a[0]);
    cg_val s = cg_to_str(c, v);
    if (s.v != v.v)
      cg_release(c, v);
    return s;
  }
  case UDF_BI_INT: {
    if (n == 0) {
      r.v = cg_i64(c, 0);
      return r;
    }
    cg_val v = cg_expr(c, a[0]);
    switch (udf_type_base(v.type)) {
    case UDF_TY_INT: return v;
    case UDF_TY_BOOL: r.v = LLVMBuildZExt(c->b, v.v, c->i64, ""); return r;
    case UDF_TY_FLOAT: {
      LLVMValueRef args[1] = {v.v};
      r.v = rt_i64(c, "nrt_udf_rt_float_to_int", "i:pdL", args, 1, true);
      return r;
    }
    case UDF_TY_STR: {
      LLVMValueRef base = cg_i32(c, 10);
      if (n >= 2 && a[1]) {
        /* int(s, base) with base outside 0, 2..36 is Python's ValueError. */
        LLVMValueRef full = cg_expr(c, a[1]).v;
        LLVMValueRef args[2] = {c->err, full};
        cg_check(c, cg_call(c, "nrt_udf_rt_check_base", "i:pl", args, 2));
        base = LLVMBuildTrunc(c->b, full, c->i32, "");
      }
      LLVMValueRef args[3] = {cg_str_data(c, v.v), cg_str_len(c, v.v), base};
      r.v = rt_i64(c, "nrt_str_to_int64", "i:pliLp", args, 3, false);
      cg_release(c, v);
      return r;
    }
    default: break;
    }
    break;
  }
  case UDF_BI_FLOAT: {
    if (n == 0) {
      r.v = LLVMConstReal(c->f64, 0);
      return r;
    }
    cg_val v = cg_expr(c, a[0]);
    switch (udf_type_base(v.type)) {
    case UDF_TY_FLOAT: return v;
    case UDF_TY_INT: r.v = LLVMBuildSIToFP(c->b, v.v, c->f64, ""); return r;
    case UDF_TY_BOOL: r.v = LLVMBuildUIToFP(c->b, v.v, c->f64, ""); return r;
    case UDF_TY_STR: {
      LLVMValueRef out = cg_scratch(c, c->f64, "f");
      LLVMValueRef args[4] = {cg_str_data(c, v.v), cg_str_len(c, v.v), out, c->err};
      cg_check(c, cg_call(c, "nrt_str_to_double", "i:plDp", args, 4));
      r.v = LLVMBuildLoad2(c->b, c->f64, out, "");
      cg_release(c, v);
      return r;
    }
    default: break;
    }
    break;
  }
  case UDF_BI_ORD: {
    cg_val v = cg_expr(c, a[0]);
    LLVMValueRef args[2] = {cg_str_data(c, v.v), cg_str_len(c, v.v)};
    r.v = rt_i64(c, "nrt_str_ord", "i:plLp", args, 2, false);
    cg_release(c, v);
    return r;
  }
  case UDF_BI_CHR: {
    cg_val v = cg_expr(c, a[0]);
    return cg_new_str(c, "nrt_str_chr", "i:lsp", &v.v, 1);
  }
  case UDF_BI_ABS: {
    cg_val v = cg_expr(c, a[0]);
    if (udf_type_base(v.type) == UDF_TY_FLOAT) {
      LLVMTypeRef pt = c->f64;
      r.v = cg_intrinsic(c, "llvm.fabs.f64", c->f64, &pt, 1, &v.v, 1);
      return r;
    }
    cg_check_bool_fail(c, LLVMBuildICmp(c->b, LLVMIntEQ, v.v, cg_i64(c, INT64_MIN), ""),
                       NRT_EOVERFLOW, "integer overflow in abs() (nrt ints are 64-bit)");
    LLVMValueRef neg = LLVMBuildICmp(c->b, LLVMIntSLT, v.v, cg_i64(c, 0), "");
    r.v = LLVMBuildSelect(c->b, neg, LLVMBuildNeg(c->b, v.v, ""), v.v, "");
    return r;
  }
  case UDF_BI_MIN: return minmax(c, e, false);
  case UDF_BI_MAX: return minmax(c, e, true);
  case UDF_BI_MATH_FLOOR:
  case UDF_BI_MATH_CEIL:
  case UDF_BI_MATH_TRUNC:
  case UDF_BI_MATH_SQRT:
  case UDF_BI_MATH_ISNAN:
  case UDF_BI_MATH_ISINF:
  case UDF_BI_MATH_ISFINITE:
  case UDF_BI_MATH_FABS:
  case UDF_BI_MATH_EXP:
  case UDF_BI_MATH_LOG:
  case UDF_BI_MATH_LOG2:
  case UDF_BI_MATH_LOG10:
  case UDF_BI_MATH_POW: return math_fn(c, e);
  case UDF_BI_LIST: {
    if (n == 0) {
      LLVMValueRef cap = cg_i64(c, 0);
      return cg_rt_list(c, "nrt_udf_rt_list_new", "i:plq", &cap, 1, UDF_TY_LIST_STR);
    }
    if (a[0]->type == UDF_TY_RANGE)
      return cg_range_list(c, a[0]);
    cg_val v = cg_expr(c, a[0]);
    udf_expr_kind k = a[0]->kind;
    if (k == UDF_E_GENEXP || k == UDF_E_LISTCOMP || k == UDF_E_LIST)
      return v; /* already a new list */
    if (udf_type_base(v.type) != UDF_TY_STR) { /* a new list: lists are mutable */
      r = cg_rt_list(c, "nrt_udf_rt_mlist_copy", "i:ppq", &v.v, 1, e->type);
      cg_release(c, v);
      return r;
    }
    LLVMValueRef arg = cg_spill(c, v.v);
    r = cg_rt_list(c, "nrt_udf_rt_list_chars", "i:psq", &arg, 1, UDF_TY_LIST_STR);
    cg_release(c, v);
    return r;
  }
  default:
    if (e->u.call.builtin >= UDF_BI_LIST_APPEND)
      return cg_mlist_builtin(c, e);
    break;
  }
  cg_fail(c, "unsupported use of a builtin");
  r.v = LLVMGetUndef(cg_llty(c, e->type));
  return r;
}

/* ------------------------------------------------------------------ methods */

static const char *const case_fns[] = {"nrt_str_upper", "nrt_str_lower", "nrt_str_casefold",
                                       "nrt_str_capitalize", "nrt_str_title", "nrt_str_swapcase"};
static const char *const pred_fns[] = {
    "nrt_str_isalpha", "nrt_str_isalnum", "nrt_str_isdecimal", "nrt_str_isdigit",
    "nrt_str_isnumeric", "nrt_str_isspace", "nrt_str_isupper", "nrt_str_islower",
    "nrt_str_istitle", "nrt_str_isascii", "nrt_str_isidentifier", "nrt_str_isprintable"};

/* Pointer to a str argument, or NULL for an absent / None one. */
static LLVMValueRef opt_str_ptr(cg *c, const udf_expr *e, cg_val *keep) {
  keep->temp = false;
  keep->v = NULL;
  if (!e || e->kind == UDF_E_NONE)
    return LLVMConstNull(c->strp);
  *keep = cg_expr(c, e);
  return cg_spill(c, keep->v);
}

/* Whether e is x.split() (on whitespace, without maxsplit). */
static bool splits_words(const udf_expr *e) {
  if (!e || e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_METHOD ||
      e->u.call.method != UDF_M_SPLIT)
    return false;
  const udf_expr *sep = e->u.call.ncargs > 0 ? e->u.call.cargs[0] : NULL;
  const udf_expr *maxsplit = e->u.call.ncargs > 1 ? e->u.call.cargs[1] : NULL;
  return (!sep || sep->kind == UDF_E_NONE) && !maxsplit;
}

cg_val cg_partition_item(cg *c, const udf_expr *call, int item) {
  cg_val s = cg_expr(c, call->u.call.receiver);
  cg_val sep = cg_expr(c, call->u.call.cargs[0]);
  LLVMValueRef args[4] = {cg_spill(c, s.v), cg_spill(c, sep.v),
                          cg_i32(c, call->u.call.method == UDF_M_RPARTITION), cg_i32(c, item)};
  cg_val r = rt_str(c, "nrt_udf_rt_partition_item", "i:pssiis", args, 4);
  cg_release(c, sep);
  cg_release(c, s);
  return r;
}

/* s.replace(old, new) of a one-byte literal old: memchr from the row function first. A row
 * without old (most rows: `s.replace('-', '')`) gives s itself, a new reference, with no call;
 * the others call nrt_str_replace. */
static cg_val replace_byte(cg *c, cg_val s, cg_val old, cg_val new_s, unsigned char ch) {
  LLVMValueRef at = cg_memchr(c, cg_str_data(c, s.v), cg_str_len(c, s.v), ch);
  LLVMBasicBlockRef same = cg_block(c, "repl.same"), call = cg_block(c, "repl.call"),
                    done = cg_block(c, "repl.done");
  LLVMBuildCondBr(c->b, LLVMBuildIsNull(c->b, at, ""), same, call);
  cg_at(c, same);
  cg_incref(c, (cg_val){s.v, UDF_TY_STR, false});
  LLVMBasicBlockRef same_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, done);
  cg_at(c, call);
  LLVMValueRef out = cg_out_str(c);
  LLVMValueRef all[6] = {cg_spill(c, s.v), cg_spill(c, old.v), cg_spill(c, new_s.v),
                         cg_i64(c, -1), out, c->err};
  cg_check(c, cg_call(c, "nrt_str_replace", "i:ssslsp", all, 6));
  LLVMValueRef made = cg_load_str(c, out);
  LLVMBasicBlockRef call_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, done);
  cg_at(c, done);
  cg_val r = {cg_phi2(c, c->str, "repl", s.v, same_end, made, call_end), UDF_TY_STR, false};
  cg_push_temp(c, &r);
  return r;
}

static cg_val method(cg *c, const udf_expr *e) {
  udf_method m = e->u.call.method;
  udf_expr *const *a = e->u.call.cargs;
  int na = e->u.call.ncargs;
#define ARG(i) ((i) < na ? a[i] : NULL)
  cg_val s = cg_expr(c, e->u.call.receiver);
  cg_val r = {NULL, e->type, false};
  cg_val k[3] = {{NULL, UDF_TY_NONE, false}, {NULL, UDF_TY_NONE, false},
                 {NULL, UDF_TY_NONE, false}};
  LLVMValueRef sd = cg_str_data(c, s.v), sl = cg_str_len(c, s.v);
  if (m <= UDF_M_SWAPCASE) {
    LLVMValueRef p = cg_spill(c, s.v);
    r = cg_new_str(c, case_fns[m], "i:ssp", &p, 1);
  } else if (m <= UDF_M_ISPRINTABLE) {
    LLVMValueRef args[2] = {sd, sl};
    r.v = cg_bool_of_c(c, cg_call(c, pred_fns[m - UDF_M_ISALPHA], "b:pl", args, 2));
  } else if (m <= UDF_M_COUNT) {
    k[0] = cg_expr(c, ARG(0));
    LLVMValueRef st = opt_int(c, ARG(1), NRT_STR_NONE), en = opt_int(c, ARG(2), NRT_STR_NONE);
    LLVMValueRef args[6] = {sd, sl, cg_str_data(c, k[0].v), cg_str_len(c, k[0].v), st, en};
    if (m == UDF_M_INDEX || m == UDF_M_RINDEX)
      r.v = rt_i64(c, m == UDF_M_INDEX ? "nrt_str_index" : "nrt_str_rindex", "i:plplllLp", args,
                   6, false);
    else
      r.v = cg_call(c,
                    m == UDF_M_FIND ? "nrt_str_find"
                    : m == UDF_M_RFIND ? "nrt_str_rfind"
                                       : "nrt_str_count",
                    "l:plplll", args, 6);
  } else if (m == UDF_M_STARTSWITH || m == UDF_M_ENDSWITH) {
    k[0] = cg_expr(c, ARG(0));
    LLVMValueRef st = opt_int(c, ARG(1), NRT_STR_NONE), en = opt_int(c, ARG(2), NRT_STR_NONE);
    bool starts = m == UDF_M_STARTSWITH;
    if (udf_type_base(k[0].type) == UDF_TY_STR) {
      LLVMValueRef args[6] = {sd, sl, cg_str_data(c, k[0].v), cg_str_len(c, k[0].v), st, en};
      r.v = cg_bool_of_c(c, cg_call(c, starts ? "nrt_str_startswith" : "nrt_str_endswith",
                                    "b:plplll", args, 6));
    } else {
      LLVMValueRef args[5] = {k[0].v, sd, sl, st, en};
      r.v = cg_bool_of_c(c, cg_call(c,
                                    starts ? "nrt_udf_rt_startswith_list"
                                           : "nrt_udf_rt_endswith_list",
                                    "b:pplll", args, 5));
    }
  } else if (m == UDF_M_REPLACE) {
    k[0] = cg_expr(c, ARG(0));
    k[1] = cg_expr(c, ARG(1));
    const udf_expr *old = ARG(0);
    if (!ARG(2) && old->kind == UDF_E_STR && old->u.str.len == 1) {
      r = replace_byte(c, s, k[0], k[1], (unsigned char)old->u.str.data[0]);
    } else {
      LLVMValueRef args[4] = {cg_spill(c, s.v), cg_spill(c, k[0].v), cg_spill(c, k[1].v),
                              opt_int(c, ARG(2), -1)};
      r = cg_new_str(c, "nrt_str_replace", "i:ssslsp", args, 4);
    }
  } else if (m == UDF_M_STRIP || m == UDF_M_LSTRIP || m == UDF_M_RSTRIP) {
    LLVMValueRef chars = opt_str_ptr(c, ARG(0), &k[0]);
    int side = m == UDF_M_STRIP ? NRT_STRIP_BOTH : m == UDF_M_LSTRIP ? NRT_STRIP_LEFT
                                                                    : NRT_STRIP_RIGHT;
    LLVMValueRef args[3] = {cg_spill(c, s.v), chars, cg_i32(c, side)};
    r = rt_str(c, "nrt_udf_rt_strip", "i:pssis", args, 3);
  } else if (m == UDF_M_SPLIT || m == UDF_M_RSPLIT) {
    LLVMValueRef sep = opt_str_ptr(c, ARG(0), &k[0]);
    LLVMValueRef args[4] = {cg_spill(c, s.v), sep, opt_int(c, ARG(1), -1),
                            cg_i32(c, c->split_sort_len_reverse)};
    if (c->split_sort_len == e) { /* sorted(s.split(...), key=len): sorted as it is made */
      c->split_sort_len = NULL;    /* taken (codegen_mlist.c) */
      r = cg_rt_list(c, "nrt_udf_rt_split_sorted_len", "i:pssliq", args, 4, UDF_TY_LIST_STR);
    } else
      r = cg_rt_list(c, m == UDF_M_SPLIT ? "nrt_udf_rt_split" : "nrt_udf_rt_rsplit", "i:psslq",
                     args, 3, UDF_TY_LIST_STR);
  } else if (m == UDF_M_SPLITLINES) {
    LLVMValueRef keep = ARG(0) ? LLVMBuildZExt(c->b, cg_expr(c, ARG(0)).v, c->i32, "")
                               : cg_i32(c, 0);
    LLVMValueRef args[2] = {cg_spill(c, s.v), keep};
    r = cg_rt_list(c, "nrt_udf_rt_splitlines", "i:psiq", args, 2, UDF_TY_LIST_STR);
  } else if (m == UDF_M_PARTITION || m == UDF_M_RPARTITION) {
    k[0] = cg_expr(c, ARG(0));
    LLVMValueRef args[3] = {cg_spill(c, s.v), cg_spill(c, k[0].v),
                            LLVMConstInt(c->i32, m == UDF_M_RPARTITION, 0)};
    r = cg_rt_list(c, "nrt_udf_rt_partition", "i:pssiq", args, 3, UDF_TY_TUPLE_STR);
  } else if (m == UDF_M_JOIN && splits_words(ARG(0))) {
    /* sep.join(x.split()): the words joined in one string, no list of them */
    k[0] = cg_expr(c, ARG(0)->u.call.receiver);
    LLVMValueRef args[2] = {cg_spill(c, s.v), cg_spill(c, k[0].v)};
    r = rt_str(c, "nrt_udf_rt_join_words", "i:psss", args, 2);
  } else if (m == UDF_M_JOIN) {
    k[0] = cg_expr(c, ARG(0));
    if (udf_type_base(k[0].type) == UDF_TY_STR) {
      LLVMValueRef args[2] = {cg_spill(c, s.v), cg_spill(c, k[0].v)};
      r = rt_str(c, "nrt_udf_rt_join_chars", "i:psss", args, 2);
    } else {
      LLVMValueRef args[2] = {cg_spill(c, s.v), k[0].v};
      r = rt_str(c, "nrt_udf_rt_join", "i:psps", args, 2);
    }
  } else if (m == UDF_M_CENTER || m == UDF_M_LJUST || m == UDF_M_RJUST) {
    LLVMValueRef w = cg_expr(c, ARG(0)).v;
    LLVMValueRef fill = opt_str_ptr(c, ARG(1), &k[0]);
    LLVMValueRef args[3] = {cg_spill(c, s.v), w, fill};
    r = cg_new_str(c,
                m == UDF_M_CENTER ? "nrt_str_center"
                : m == UDF_M_LJUST ? "nrt_str_ljust"
                                   : "nrt_str_rjust",
                "i:slssp", args, 3);
  } else if (m == UDF_M_ZFILL || m == UDF_M_EXPANDTABS) {
    LLVMValueRef args[2] = {cg_spill(c, s.v), opt_int(c, ARG(0), 8)};
    r = cg_new_str(c, m == UDF_M_ZFILL ? "nrt_str_zfill" : "nrt_str_expandtabs", "i:slsp", args, 2);
  } else if (m == UDF_M_REMOVEPREFIX || m == UDF_M_REMOVESUFFIX) {
    k[0] = cg_expr(c, ARG(0));
    LLVMValueRef args[2] = {cg_spill(c, s.v), cg_spill(c, k[0].v)};
    r = cg_new_str(c, m == UDF_M_REMOVEPREFIX ? "nrt_str_removeprefix" : "nrt_str_removesuffix",
                "i:sssp", args, 2);
  } else {
    cg_fail(c, "unsupported string method");
    r.v = LLVMGetUndef(cg_llty(c, e->type));
  }
#undef ARG
  for (int i = 2; i >= 0; i--)
    if (k[i].v)
      cg_release(c, k[i]);
  cg_release(c, s);
  return r;
}

/* ------------------------------------------------------------------ helper functions */

static cg_val call_func(cg *c, const udf_expr *e) {
  const udf_func *f = e->u.call.callee;
  LLVMValueRef fn = c->llfuncs[f->index];
  cg_val vals[64];
  LLVMValueRef args[67];
  int n = f->nparams;
  if (n > 64) {
    cg_fail(c, "call with more than 64 arguments");
    n = 64;
  }
  args[0] = c->err;
  args[1] = LLVMBuildAdd(c->b, c->depth, cg_i32(c, 1), "depth");
  for (int i = 0; i < n; i++) {
    vals[i] = cg_coerce(c, cg_expr(c, e->u.call.cargs[i]), f->params[i]->type);
    args[i + 2] = vals[i].v;
  }
  LLVMTypeRef rt = cg_llty(c, f->result);
  LLVMValueRef slot = cg_scratch(c, rt, "ret");
  LLVMBuildStore(c->b, LLVMConstNull(rt), slot);
  args[n + 2] = slot;
  LLVMValueRef st =
      LLVMBuildCall2(c->b, LLVMGetElementType(LLVMTypeOf(fn)), fn, args, (unsigned)n + 3, "");
  cg_check(c, st);
  cg_val r = {LLVMBuildLoad2(c->b, rt, slot, ""), f->result, false};
  if (udf_type_base(f->result) == UDF_TY_NONE)
    r.v = LLVMConstInt(c->i1, 0, 0);
  cg_push_temp(c, &r);
  for (int i = n - 1; i >= 0; i--)
    cg_release(c, vals[i]);
  return r;
}

cg_val cg_call_expr(cg *c, const udf_expr *e) {
  if (e->kind == UDF_E_FSTRING)
    return fstring(c, e);
  switch (e->u.call.ckind) {
  case UDF_CALL_BUILTIN: return builtin(c, e);
  case UDF_CALL_METHOD: return method(c, e);
  case UDF_CALL_FUNC: return call_func(c, e);
  case UDF_CALL_DICT: return cg_dict_call(c, e);
  default: break;
  }
  cg_fail(c, "unresolved call");
  cg_val v = {LLVMGetUndef(cg_llty(c, e->type)), e->type, false};
  return v;
}

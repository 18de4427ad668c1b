/* Lowering of the formatting builtins (ast.h: UDF_BI_TRANSLATE ... UDF_BI_REPR_VALUE). */
#include "udf/codegen_internal.h"

/* fn(err, args..., nrt_str *out) -> status, checked; the result a temp. */
static cg_val rt_str(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n) {
  LLVMValueRef all[8];
  all[0] = c->err;
  for (int i = 0; i < n; i++)
    all[i + 1] = args[i];
  LLVMValueRef out = cg_out_str(c);
  all[n + 1] = out;
  cg_check(c, cg_call(c, fn, sig, all, n + 2));
  cg_val v = {cg_load_str(c, out), UDF_TY_STR, false};
  cg_push_temp(c, &v);
  return v;
}

static cg_val translate(cg *c, const udf_expr *e) {
  cg_val s = cg_expr(c, e->u.call.cargs[0]);
  cg_val r;
  if (e->u.call.builtin == UDF_BI_TRANSLATE) {
    const udf_strlit *t = &e->u.call.cargs[1]->u.str;
    LLVMValueRef args[3] = {cg_spill(c, s.v), cg_cstr(c, t->data, (size_t)t->len),
                            cg_i64(c, t->len)};
    r = rt_str(c, "nrt_udf_rt_translate", "i:pspls", args, 3);
  } else {
    cg_val d = cg_expr(c, e->u.call.cargs[1]);
    LLVMValueRef args[2] = {cg_spill(c, s.v), d.v};
    r = rt_str(c, "nrt_udf_rt_translate_dict", "i:psps", args, 2);
    cg_release(c, d);
  }
  cg_release(c, s);
  return r;
}

/* repr(x) / ascii(x) of a list, tuple or dict (runtime_repr.c). */
static cg_val repr_value(cg *c, const udf_expr *e) {
  cg_val x = cg_expr(c, e->u.call.cargs[0]);
  LLVMValueRef args[3] = {x.v, cg_i32(c, (int)e->u.call.cargs[0]->type),
                          cg_i32(c, e->u.call.cargs[1]->u.ival == 'a')};
  cg_val r = rt_str(c, "nrt_udf_rt_repr_value", "i:ppiis", args, 3);
  cg_release(c, x);
  return r;
}

cg_val cg_format_builtin(cg *c, const udf_expr *e) {
  if (e->u.call.builtin == UDF_BI_REPR_VALUE)
    return repr_value(c, e);
  return translate(c, e);
}

bool cg_write_format_builtin(cg *c, const udf_expr *e) {
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_BUILTIN)
    return false;
  if (e->u.call.builtin == UDF_BI_REPR_VALUE && e->u.call.cargs[1]->u.ival != 'a') {
    cg_val x = cg_expr(c, e->u.call.cargs[0]);
    LLVMValueRef args[4] = {c->err, c->writer, x.v, cg_i32(c, (int)e->u.call.cargs[0]->type)};
    cg_check(c, cg_call(c, "nrt_udf_rt_write_repr_value", "i:pppi", args, 4));
    cg_release(c, x);
    return true;
  }
  if (e->u.call.builtin != UDF_BI_TRANSLATE)
    return false;
  cg_val s = cg_expr(c, e->u.call.cargs[0]);
  const udf_strlit *t = &e->u.call.cargs[1]->u.str;
  LLVMValueRef args[5] = {c->err, c->writer, cg_spill(c, s.v),
                          cg_cstr(c, t->data, (size_t)t->len), cg_i64(c, t->len)};
  cg_check(c, cg_call(c, "nrt_udf_rt_write_translate", "i:ppspl", args, 5));
  cg_release(c, s);
  return true;
}

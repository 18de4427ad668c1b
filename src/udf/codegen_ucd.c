/* Code for unicodedata.<fn>(...) (UDF_BI_UCD, types_ucd.c): one call of runtime_ucd.c. */
#include "udf/codegen_internal.h"
#include "udf/runtime_ucd.h"

cg_val cg_ucd_call(cg *c, const udf_expr *e) {
  udf_expr *const *a = e->u.call.cargs;
  int fn = (int)a[0]->u.ival;
  cg_val r = {NULL, e->type, false};
  cg_val x = cg_expr(c, a[1]);
  cg_val y = {NULL, UDF_TY_NONE, false};
  if (e->u.call.ncargs > 2 && a[2]->type == UDF_TY_NONE)
    fn |= NRT_UDF_UCD_DEFAULT_NONE; /* name(c, None): nothing to evaluate */
  else if (e->u.call.ncargs > 2)
    y = cg_expr(c, a[2]);
  bool y_str = y.v && udf_type_base(y.type) == UDF_TY_STR;
  LLVMValueRef xs = cg_spill(c, x.v);
  LLVMValueRef ys = y_str ? cg_spill(c, y.v) : LLVMConstNull(c->strp);
  LLVMValueRef has_default = cg_i32(c, y.v && !y_str);
  if ((fn & ~NRT_UDF_UCD_DEFAULT_NONE) <= NRT_UDF_UCD_NORMALIZE) {
    LLVMValueRef args[3] = {cg_i32(c, fn), xs, ys};
    r = cg_new_str(c, "nrt_udf_rt_ucd_str", "i:isssp", args, 3);
    r.type = e->type; /* str | None for name(c, None) */
  } else if (fn == NRT_UDF_UCD_NUMERIC) {
    LLVMValueRef out = cg_scratch(c, c->f64, "f");
    LLVMValueRef args[5] = {xs, has_default, y.v && !y_str ? y.v : LLVMConstReal(c->f64, 0),
                            out, c->err};
    cg_check(c, cg_call(c, "nrt_udf_rt_ucd_numeric", "i:sidDp", args, 5));
    r.v = LLVMBuildLoad2(c->b, c->f64, out, "");
  } else {
    LLVMValueRef out = cg_scratch(c, c->i64, "i");
    LLVMValueRef args[7] = {cg_i32(c, fn), xs, ys, has_default,
                            y.v && !y_str ? y.v : cg_i64(c, 0), out, c->err};
    cg_check(c, cg_call(c, "nrt_udf_rt_ucd_int", "i:issilLp", args, 7));
    r.v = LLVMBuildLoad2(c->b, c->i64, out, "");
    if (fn == NRT_UDF_UCD_IS_NORMALIZED)
      r.v = LLVMBuildICmp(c->b, LLVMIntNE, r.v, cg_i64(c, 0), "");
  }
  if (y_str) cg_release(c, y);
  cg_release(c, x);
  return r;
}

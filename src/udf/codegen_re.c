/* Code for the re module's builtins (ast.h: UDF_BI_RE_*): calls of runtime_re.c, with the
 * compiled pattern passed by address (the UDF owns it: re_compile.h). */
#include <stdint.h>

#include "udf/codegen_internal.h"
#include "udf/re_compile.h"
#include "udf/types_re.h"

static LLVMValueRef pattern(cg *c, const udf_expr *idx) {
  udf_re *re = udf_re_set_get(c->m->res, (int)idx->u.ival);
  if (!re) {
    cg_fail(c, "internal error: unknown pattern");
    return cg_null(c);
  }
  return LLVMConstIntToPtr(LLVMConstInt(c->i64, (unsigned long long)(uintptr_t)re, 0), c->ptr);
}

/* re.sub(p, f, s, count): f called on each match (a[1] is that call, on a CURRENT node), its
 * results collected in a list, then the string assembled from the gaps and the results. */
static cg_val sub_fn(cg *c, const udf_expr *e) {
  udf_expr *const *a = e->u.call.cargs;
  cg_val s = cg_expr(c, a[2]);
  cg_val count = cg_expr(c, a[3]);
  udf_type mt = udf_type_base(a[1]->u.call.cargs[0]->type) == UDF_TY_MATCH
                    ? a[1]->u.call.cargs[0]->type
                    : UDF_TY_MATCH;
  LLVMValueRef fargs[3] = {pattern(c, a[0]), cg_spill(c, s.v), count.v};
  cg_val matches = cg_rt_list(c, "nrt_udf_rt_re_finditer_n", "i:ppslq", fargs, 3,
                              mt | UDF_TY_RE_MATCHES);
  LLVMValueRef cap = cg_i64(c, 0);
  cg_val repls = cg_rt_list(c, "nrt_udf_rt_list_new", "i:plq", &cap, 1, UDF_TY_LIST_STR);
  LLVMValueRef i = cg_alloca(c, c->i64, "sub.i");
  LLVMBuildStore(c->b, cg_i64(c, 0), i);
  LLVMBasicBlockRef head = cg_block(c, "sub.head"), body = cg_block(c, "sub.body"),
                    done = cg_block(c, "sub.done");
  LLVMBuildBr(c->b, head);
  cg_at(c, head);
  LLVMValueRef k = LLVMBuildLoad2(c->b, c->i64, i, "k");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntSLT, k, cg_list_len(c, matches.v), ""), body,
                  done);
  cg_at(c, body);
  cg_val saved = c->re_cur;
  c->re_cur = (cg_val){cg_str_mi(c, cg_list_item(c, matches.v, k)), mt, false};
  cg_val r = cg_expr(c, a[1]);
  c->re_cur = saved;
  LLVMValueRef aargs[3] = {c->err, repls.v, cg_spill(c, r.v)};
  cg_check(c, cg_call(c, "nrt_udf_rt_list_append", "i:pps", aargs, 3));
  cg_release(c, r);
  LLVMBuildStore(c->b, LLVMBuildAdd(c->b, k, cg_i64(c, 1), ""), i);
  LLVMBuildBr(c->b, head);
  cg_at(c, done);
  cg_val out;
  if (udf_type_base(e->type) == UDF_TY_INT) { /* re.subn's count */
    out = (cg_val){cg_list_len(c, matches.v), UDF_TY_INT, false};
  } else {
    LLVMValueRef sargs[3] = {cg_spill(c, s.v), matches.v, repls.v};
    out = cg_new_str(c, "nrt_udf_rt_re_assemble", "i:sppsp", sargs, 3);
  }
  cg_release(c, repls);
  cg_release(c, matches);
  cg_release(c, s);
  return out;
}

cg_val cg_re_call(cg *c, const udf_expr *e) {
  udf_expr *const *a = e->u.call.cargs;
  cg_val r = {NULL, e->type, false};
  switch (e->u.call.builtin) {
  case UDF_BI_RE_SUB_FN: return sub_fn(c, e);
  case UDF_BI_RE_CURRENT:
    if (!c->re_cur.v)
      cg_fail(c, "internal error: no current match");
    return c->re_cur;
  case UDF_BI_RE_ESCAPE: {
    cg_val s = cg_expr(c, a[0]);
    LLVMValueRef args[1] = {cg_spill(c, s.v)};
    r = cg_new_str(c, "nrt_udf_rt_re_escape", "i:ssp", args, 1);
    cg_release(c, s);
    return r;
  }
  case UDF_BI_RE_MATCH:
  case UDF_BI_RE_SEARCH:
  case UDF_BI_RE_FULLMATCH: {
    cg_val s = cg_expr(c, a[1]);
    int mode = e->u.call.builtin == UDF_BI_RE_MATCH ? 0 : e->u.call.builtin == UDF_BI_RE_SEARCH ? 1 : 2;
    if (e->u.call.ncargs == 4) { /* Pattern.search(s, pos, endpos) */
      cg_val pos = cg_expr(c, a[2]);
      cg_val end = cg_expr(c, a[3]);
      LLVMValueRef args[5] = {pattern(c, a[0]), cg_spill(c, s.v), cg_i32(c, mode), pos.v, end.v};
      r = cg_rt_list(c, "nrt_udf_rt_re_match_at", "i:ppsillq", args, 5, e->type);
      cg_release(c, s);
      return r;
    }
    LLVMValueRef args[3] = {pattern(c, a[0]), cg_spill(c, s.v), cg_i32(c, mode)};
    r = cg_rt_list(c, "nrt_udf_rt_re_match", "i:ppsiq", args, 3, e->type);
    cg_release(c, s);
    return r;
  }
  case UDF_BI_RE_SUB:
  case UDF_BI_RE_SUBN_COUNT: {
    cg_val repl = cg_expr(c, a[1]);
    cg_val s = cg_expr(c, a[2]);
    cg_val count = cg_expr(c, a[3]);
    LLVMValueRef n = cg_scratch(c, c->i64, "nsubs");
    LLVMValueRef args[5] = {pattern(c, a[0]), cg_spill(c, repl.v), cg_spill(c, s.v), count.v, n};
    cg_val made = cg_new_str(c, "nrt_udf_rt_re_sub", "i:psslLsp", args, 5);
    cg_release(c, s);
    cg_release(c, repl);
    if (e->u.call.builtin == UDF_BI_RE_SUB)
      return made;
    cg_release(c, made);
    r.v = LLVMBuildLoad2(c->b, c->i64, n, "nsubs");
    return r;
  }
  case UDF_BI_RE_SPLIT: {
    cg_val s = cg_expr(c, a[1]);
    cg_val maxsplit = cg_expr(c, a[2]);
    LLVMValueRef args[3] = {pattern(c, a[0]), cg_spill(c, s.v), maxsplit.v};
    r = cg_rt_list(c, "nrt_udf_rt_re_split", "i:ppslq", args, 3, UDF_TY_LIST_STR);
    cg_release(c, s);
    return r;
  }
  case UDF_BI_RE_FINDITER: {
    cg_val s = cg_expr(c, a[1]);
    LLVMValueRef args[2] = {pattern(c, a[0]), cg_spill(c, s.v)};
    r = cg_rt_list(c, "nrt_udf_rt_re_finditer", "i:ppsq", args, 2, e->type);
    cg_release(c, s);
    return r;
  }
  case UDF_BI_RE_FINDALL: {
    cg_val s = cg_expr(c, a[1]);
    LLVMValueRef args[2] = {pattern(c, a[0]), cg_spill(c, s.v)};
    r = cg_rt_list(c, "nrt_udf_rt_re_findall", "i:ppsq", args, 2, UDF_TY_LIST_STR);
    cg_release(c, s);
    return r;
  }
  case UDF_BI_RE_GROUP: {
    cg_val m = cg_expr(c, a[0]);
    cg_val g = cg_expr(c, a[1]);
    LLVMValueRef args[2] = {m.v, g.v};
    r = cg_new_str(c, "nrt_udf_rt_re_group", "i:plsp", args, 2);
    r.type = e->type; /* str | None: data NULL for a group that did not take part */
    cg_release(c, m);
    return r;
  }
  case UDF_BI_RE_START:
  case UDF_BI_RE_END: {
    cg_val m = cg_expr(c, a[0]);
    cg_val g = cg_expr(c, a[1]);
    LLVMValueRef out = cg_scratch(c, c->i64, "pos");
    LLVMValueRef args[5] = {c->err, m.v, g.v,
                            cg_i32(c, e->u.call.builtin == UDF_BI_RE_END), out};
    cg_check(c, cg_call(c, "nrt_udf_rt_re_pos", "i:ppliL", args, 5));
    r.v = LLVMBuildLoad2(c->b, c->i64, out, "");
    cg_release(c, m);
    return r;
  }
  case UDF_BI_RE_GROUPS: {
    cg_val m = cg_expr(c, a[0]);
    LLVMValueRef args[1] = {m.v};
    r = cg_rt_list(c, "nrt_udf_rt_re_groups", "i:ppq", args, 1, UDF_TY_TUPLE_STR);
    cg_release(c, m);
    return r;
  }
  default: break;
  }
  cg_fail(c, "unsupported use of the re module");
  r.v = LLVMGetUndef(cg_llty(c, e->type));
  return r;
}

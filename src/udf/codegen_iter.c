/* for loops and comprehension clauses over several iterables at once: enumerate(), zip() and
 * reversed(), their items unpacked into the target by structure. Each loop is flattened into
 * leaves, one per name of the target: a plain iteration (cg_iter) or enumerate's counter. */
#include <string.h>

#include "nrt/str.h"
#include "udf/codegen_internal.h"

static cg_for_leaf *new_leaf(cg *c, cg_for *f) {
  if (f->n >= CG_FOR_LEAVES) {
    cg_fail(c, "more than %d names in a for target", CG_FOR_LEAVES);
    return NULL;
  }
  cg_for_leaf *l = &f->leaf[f->n++];
  memset(l, 0, sizeof *l);
  return l;
}

static const udf_var *name_var(const udf_expr *t) {
  return t && t->kind == UDF_E_NAME ? t->u.name.var : NULL;
}

/* Evaluates the iterables of iter in source order, one leaf per target name (the checker
 * matched the structures). */
static void flatten(cg *c, cg_for *f, const udf_expr *iter, const udf_var *var,
                    const udf_expr *unpack) {
  if (c->failed)
    return;
  bool items = iter->kind == UDF_E_CALL && iter->u.call.ckind == UDF_CALL_DICT &&
               udf_type_base(iter->type) == UDF_TY_ITER;
  if (items) { /* d.keys(), d.values(), d.items(): one iteration, two names for items */
    cg_for_leaf *l = new_leaf(c, f);
    if (!l)
      return;
    bool two = unpack && unpack->kind == UDF_E_TUPLE;
    l->var = two ? name_var(unpack->u.seq.items[0]) : var ? var : name_var(unpack);
    l->var2 = two ? name_var(unpack->u.seq.items[1]) : NULL;
    cg_iter_setup(c, &l->it, iter);
    return;
  }
  bool multi = udf_type_base(iter->type) == UDF_TY_ITER &&
               iter->u.call.builtin != UDF_BI_REVERSED;
  if (!multi) {
    cg_for_leaf *l = new_leaf(c, f);
    if (!l)
      return;
    l->var = var ? var : name_var(unpack);
    l->chars = unpack && unpack->kind == UDF_E_TUPLE ? unpack : NULL;
    cg_iter_setup(c, &l->it, iter);
    return;
  }
  if (iter->u.call.builtin == UDF_BI_ZIP && !unpack) { /* a tuple of str per item */
    if (f->pack_var) {
      cg_fail(c, "internal error: two tuple targets in one loop");
      return;
    }
    f->pack_var = var;
    f->pack_from = f->n;
    f->pack_n = iter->u.call.ncargs;
    for (int i = 0; i < iter->u.call.ncargs; i++)
      flatten(c, f, iter->u.call.cargs[i], NULL, NULL);
    return;
  }
  if (iter->u.call.builtin == UDF_BI_ENUMERATE) {
    int k = f->n;
    cg_for_leaf *l = new_leaf(c, f); /* the counter binds first, its start is evaluated last */
    if (!l)
      return;
    l->var = name_var(unpack->u.seq.items[0]);
    const udf_expr *t = unpack->u.seq.items[1];
    flatten(c, f, iter->u.call.cargs[0], name_var(t), t->kind == UDF_E_NAME ? NULL : t);
    if (c->failed)
      return;
    l = &f->leaf[k];
    l->count = cg_alloca(c, c->i64, "enum.count");
    l->count_ovf = cg_alloca(c, c->i1, "enum.ovf");
    LLVMValueRef start =
        iter->u.call.ncargs > 1 ? cg_expr(c, iter->u.call.cargs[1]).v : cg_i64(c, 0);
    LLVMBuildStore(c->b, start, l->count);
    LLVMBuildStore(c->b, LLVMConstInt(c->i1, 0, 0), l->count_ovf);
    return;
  }
  for (int i = 0; i < iter->u.call.ncargs; i++) { /* zip */
    const udf_expr *t = unpack->u.seq.items[i];
    flatten(c, f, iter->u.call.cargs[i], name_var(t), t->kind == UDF_E_NAME ? NULL : t);
  }
}

void cg_unpack_chars(cg *c, cg_val s, const udf_expr *t) {
  LLVMValueRef arg = cg_spill(c, s.v);
  cg_val list = cg_rt_list(c, "nrt_udf_rt_list_chars", "i:psq", &arg, 1, UDF_TY_LIST_STR);
  LLVMValueRef args[3] = {c->err, cg_list_len(c, list.v), cg_i64(c, t->u.seq.n)};
  cg_check(c, cg_call(c, "nrt_udf_rt_unpack_check", "i:pll", args, 3));
  for (int k = 0; k < t->u.seq.n; k++) {
    cg_val item = {cg_list_item(c, list.v, cg_i64(c, k)), UDF_TY_STR, false};
    cg_bind(c, t->u.seq.items[k]->u.name.var, item);
  }
  cg_release(c, list);
}

void cg_for_begin(cg *c, cg_for *f, const udf_expr *iter, const udf_var *var,
                  const udf_expr *unpack) {
  memset(f, 0, sizeof *f);
  flatten(c, f, iter, var, unpack);
  f->head = cg_block(c, "for.head");
  f->body = cg_block(c, "for.body");
  f->next = cg_block(c, "for.next");
  f->done = cg_block(c, "for.done");
  cg_goto(c, f->head);
  cg_at(c, f->head);
}

void cg_for_next(cg *c, cg_for *f) {
  /* zip stops at the first exhausted iterable; none has side effects, so test them all. */
  LLVMValueRef more = LLVMConstInt(c->i1, 1, 0);
  for (int i = 0; i < f->n; i++)
    if (!f->leaf[i].count)
      more = LLVMBuildAnd(c->b, more, cg_iter_more(c, &f->leaf[i].it), "");
  LLVMBuildCondBr(c->b, more, f->body, f->done);
  cg_at(c, f->body);
  /* Every item is made before any name is bound, as Python builds the tuple first. */
  cg_val vals[CG_FOR_LEAVES];
  for (int i = 0; i < f->n; i++) {
    cg_for_leaf *l = &f->leaf[i];
    if (!l->count) {
      vals[i] = cg_iter_value(c, &l->it);
      continue;
    }
    cg_check_bool_fail(c, LLVMBuildLoad2(c->b, c->i1, l->count_ovf, ""), NRT_EOVERFLOW,
                       "enumerate() index out of range (nrt ints are 64-bit)");
    LLVMValueRef n = LLVMBuildLoad2(c->b, c->i64, l->count, "index");
    LLVMTypeRef pt[2] = {c->i64, c->i64};
    LLVMValueRef args[2] = {n, cg_i64(c, 1)};
    LLVMTypeRef rt[2] = {c->i64, c->i1};
    LLVMValueRef r = cg_intrinsic(c, "llvm.sadd.with.overflow.i64",
                                  LLVMStructTypeInContext(c->ctx, rt, 2, 0), pt, 2, args, 2);
    LLVMBuildStore(c->b, LLVMBuildExtractValue(c->b, r, 0, ""), l->count);
    LLVMBuildStore(c->b, LLVMBuildExtractValue(c->b, r, 1, ""), l->count_ovf);
    vals[i] = (cg_val){n, UDF_TY_INT, false};
  }
  for (int i = 0; i < f->n; i++) {
    if (f->leaf[i].var)
      cg_bind(c, f->leaf[i].var, vals[i]);
    else if (f->leaf[i].chars)
      cg_unpack_chars(c, vals[i], f->leaf[i].chars);
    if (f->leaf[i].var2)
      cg_bind(c, f->leaf[i].var2, cg_dict_iter_value(c, &f->leaf[i].it, true));
  }
  if (f->pack_var && !c->failed) {
    cg_val t = cg_list_from_values(c, vals + f->pack_from, f->pack_n, UDF_TY_TUPLE_STR);
    cg_bind(c, f->pack_var, t);
    cg_release(c, t);
  }
  for (int i = f->n - 1; i >= 0; i--)
    cg_release(c, vals[i]);
}

void cg_for_release(cg *c, cg_for *f, bool drop) {
  for (int i = f->n - 1; i >= 0; i--) {
    cg_val it = f->leaf[i].it.iterable;
    if (f->leaf[i].count || !it.temp)
      continue;
    cg_decref(c, it);
    if (drop)
      cg_drop_temp(c, it);
  }
}

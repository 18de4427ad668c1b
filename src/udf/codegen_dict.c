/* dict and set values in compiled code (types_dict.h, runtime_dict.h). A dict or set value is
 * an i8* to its nrt_udf_dict, whose first field is the MemInfo reference counting acts on
 * (NULL for a constant built once per compile: no refcount traffic from any thread). Keys and
 * values cross into the runtime as nrt_str-shaped slots. */
#include "udf/codegen_internal.h"
#include "udf/runtime_dict.h"
#include "udf/types_dict.h"

/* NULL for no dict (an unbound variable's zero value) too: the load reads a NULL constant
 * instead of dereferencing NULL. */
LLVMValueRef cg_dict_mi(cg *c, LLVMValueRef d) {
  LLVMTypeRef pt = LLVMPointerType(c->ptr, 0);
  LLVMValueRef none = LLVMGetNamedGlobal(c->mod, "dict.no_mi");
  if (!none) {
    none = LLVMAddGlobal(c->mod, c->ptr, "dict.no_mi");
    LLVMSetInitializer(none, cg_null(c));
    LLVMSetGlobalConstant(none, 1);
    LLVMSetLinkage(none, LLVMPrivateLinkage);
  }
  LLVMValueRef pp = LLVMBuildBitCast(c->b, d, pt, "");
  pp = LLVMBuildSelect(c->b, LLVMBuildIsNull(c->b, d, ""), none, pp, "");
  return LLVMBuildLoad2(c->b, c->ptr, pp, "dict.mi");
}

/* v as an nrt_str-shaped slot value. */
static LLVMValueRef to_slot(cg *c, cg_val v) {
  switch (udf_type_base(v.type)) {
  case UDF_TY_STR: return v.v;
  case UDF_TY_INT: return cg_str_make(c, cg_null(c), cg_null(c), v.v);
  case UDF_TY_FLOAT:
    return cg_str_make(c, cg_null(c), cg_null(c), LLVMBuildBitCast(c->b, v.v, c->i64, ""));
  case UDF_TY_BOOL:
    return cg_str_make(c, cg_null(c), cg_null(c), LLVMBuildZExt(c->b, v.v, c->i64, ""));
  case UDF_TY_LIST_STR: return cg_str_make(c, v.v, cg_null(c), cg_i64(c, 0));
  default: return cg_str_make(c, cg_null(c), cg_null(c), cg_i64(c, 0)); /* a set's value */
  }
}

static LLVMValueRef slot_arg(cg *c, cg_val v) { return cg_spill(c, to_slot(c, v)); }

/* The value of kind t in slot value s (borrowed). */
static LLVMValueRef from_slot(cg *c, LLVMValueRef s, udf_type t) {
  switch (udf_type_base(t)) {
  case UDF_TY_STR: return s;
  case UDF_TY_INT: return cg_str_len(c, s);
  case UDF_TY_FLOAT: return LLVMBuildBitCast(c->b, cg_str_len(c, s), c->f64, "");
  case UDF_TY_BOOL: return LLVMBuildICmp(c->b, LLVMIntNE, cg_str_len(c, s), cg_i64(c, 0), "");
  case UDF_TY_LIST_STR: return cg_str_mi(c, s);
  default: return LLVMConstInt(c->i1, 0, 0);
  }
}

/* A borrowed value read from slot `out`, made a temp with its own reference. */
static cg_val owned_from(cg *c, LLVMValueRef out, udf_type t) {
  cg_val v = {from_slot(c, cg_load_str(c, out), t), t, false};
  return cg_owned(c, v);
}

static cg_val new_dict(cg *c, udf_type t) {
  udf_type b = udf_type_base(t);
  LLVMValueRef args[3] = {cg_i32(c, (int)udf_type_param1(t)),
                          cg_i32(c, b == UDF_TY_SET ? UDF_TY_NONE : (int)udf_type_param2(t)),
                          cg_i64(c, 0)};
  return cg_rt_list(c, "nrt_udf_rt_dict_new", "i:piilq", args, 3, t);
}

static void dict_set(cg *c, LLVMValueRef d, cg_val k, cg_val v) {
  LLVMValueRef args[4] = {c->err, d, slot_arg(c, k), slot_arg(c, v)};
  cg_check(c, cg_call(c, "nrt_udf_rt_dict_set", "i:ppss", args, 4));
}

static cg_val display(cg *c, const udf_expr *e) {
  if (e->u.dict.const_index >= 0) {
    void *built = c->m->const_built ? c->m->const_built[e->u.dict.const_index] : NULL;
    if (!built) {
      cg_fail(c, "internal error: a constant display was not built");
      cg_val z = {cg_null(c), e->type, false};
      return z;
    }
    cg_val v = {LLVMConstIntToPtr(LLVMConstInt(c->i64, (unsigned long long)(uintptr_t)built, 0),
                                  c->ptr),
                e->type, false};
    return v;
  }
  cg_val d = new_dict(c, e->type);
  for (int i = 0; i < e->u.dict.n && !c->failed; i++) {
    cg_val k = cg_expr(c, e->u.dict.keys[i]);
    cg_val v = e->u.dict.values ? cg_expr(c, e->u.dict.values[i])
                                : (cg_val){LLVMConstInt(c->i1, 0, 0), UDF_TY_NONE, false};
    dict_set(c, d.v, k, v);
    cg_release(c, v);
    cg_release(c, k);
  }
  return d;
}

/* A dict or set comprehension's innermost step: the key (and value) stored into d. */
static void dict_set_elt(cg *c, const udf_expr *e, cg_val d) {
  cg_val k = cg_expr(c, e->u.comp.elt);
  cg_val v = e->u.comp.value ? cg_expr(c, e->u.comp.value)
                             : (cg_val){LLVMConstInt(c->i1, 0, 0), UDF_TY_NONE, false};
  dict_set(c, d.v, k, v);
  cg_release(c, v);
  cg_release(c, k);
}

cg_val cg_dict_expr(cg *c, const udf_expr *e) {
  if (e->kind == UDF_E_DICT || e->kind == UDF_E_SET) return display(c, e);
  cg_val d = new_dict(c, e->type);
  cg_comp_loops(c, e, dict_set_elt, d);
  return d;
}

LLVMValueRef cg_dict_contains(cg *c, cg_val key, cg_val d) {
  LLVMValueRef args[3] = {d.v, slot_arg(c, key), LLVMConstNull(c->strp)};
  return cg_bool_of_c(c, cg_call(c, "nrt_udf_rt_dict_find", "b:pss", args, 3));
}

cg_val cg_dict_getitem(cg *c, const udf_expr *e) {
  cg_val d = cg_expr(c, e->u.subscript.value);
  cg_val k = cg_expr(c, e->u.subscript.index);
  LLVMValueRef out = cg_out_str(c);
  LLVMValueRef args[4] = {c->err, d.v, slot_arg(c, k), out};
  cg_check(c, cg_call(c, "nrt_udf_rt_dict_getitem", "i:ppss", args, 4));
  cg_val v = owned_from(c, out, e->type);
  cg_release(c, k);
  cg_release(c, d);
  return v;
}

/* d.get(k[, default]) */
static cg_val get(cg *c, const udf_expr *e, cg_val d, cg_val k) {
  const udf_expr *dflt_e = e->u.call.cargs[1];
  cg_val dflt = dflt_e ? cg_expr(c, dflt_e) : (cg_val){NULL, UDF_TY_NONE, false};
  LLVMValueRef out = cg_out_str(c);
  LLVMValueRef args[3] = {d.v, slot_arg(c, k), out};
  LLVMValueRef found = cg_bool_of_c(c, cg_call(c, "nrt_udf_rt_dict_find", "b:pss", args, 3));
  udf_type vt = udf_type_param2(e->u.call.receiver->type);
  LLVMValueRef val = from_slot(c, cg_load_str(c, out), vt);
  cg_val r = {NULL, e->type, false};
  if (dflt_e) {
    r.v = LLVMBuildSelect(c->b, found, val, dflt.v, "get");
  } else if (vt == UDF_TY_STR) {
    r.v = LLVMBuildSelect(c->b, found, val, cg_null_value(c, e->type), "get");
  } else if (vt == UDF_TY_LIST_STR) {
    r.v = LLVMBuildSelect(c->b, found, val, cg_null(c), "get");
  } else {
    LLVMValueRef s = LLVMGetUndef(cg_llty(c, e->type));
    s = LLVMBuildInsertValue(c->b, s, val, 0, "");
    r.v = LLVMBuildInsertValue(c->b, s, found, 1, "get");
  }
  r = cg_owned(c, r);
  if (dflt_e) cg_release(c, dflt);
  return r;
}

cg_val cg_dict_call(cg *c, const udf_expr *e) {
  int op = e->u.call.dict_op;
  cg_val none = {LLVMConstInt(c->i1, 0, 0), UDF_TY_NONE, false};
  if (op == UDF_DOP_NEW) return new_dict(c, e->type);
  if (op == UDF_DOP_LEN) {
    cg_val d = cg_expr(c, e->u.call.cargs[0]);
    LLVMValueRef n = cg_call(c, "nrt_udf_rt_dict_len", "l:p", &d.v, 1);
    cg_release(c, d);
    cg_val r = {n, UDF_TY_INT, false};
    return r;
  }
  if (op == UDF_DOP_SET_OF) {
    cg_val s = cg_expr(c, e->u.call.cargs[0]);
    cg_val list = s;
    if (udf_type_base(s.type) == UDF_TY_STR) {
      LLVMValueRef arg = cg_spill(c, s.v);
      list = cg_rt_list(c, "nrt_udf_rt_list_chars", "i:psq", &arg, 1, UDF_TY_LIST_STR);
    }
    cg_val r = cg_rt_list(c, "nrt_udf_rt_set_of_list", "i:ppq", &list.v, 1, e->type);
    if (list.v != s.v) cg_release(c, list);
    cg_release(c, s);
    return r;
  }
  if (op == UDF_DOP_KEYS_LIST || op == UDF_DOP_VALUES_LIST) {
    cg_val d = cg_expr(c, e->u.call.receiver);
    LLVMValueRef args[2] = {d.v, cg_i32(c, op == UDF_DOP_VALUES_LIST)};
    cg_val r = cg_rt_list(c, "nrt_udf_rt_dict_list", "i:ppiq", args, 2, UDF_TY_LIST_STR);
    cg_release(c, d);
    return r;
  }
  if (op == UDF_DOP_COPY || op == UDF_DOP_CLEAR || op == UDF_DOP_UPDATE) {
    cg_val d = cg_expr(c, e->u.call.receiver);
    cg_val r = none;
    if (op == UDF_DOP_COPY) {
      r = cg_rt_list(c, "nrt_udf_rt_dict_copy", "i:ppq", &d.v, 1, e->type);
    } else if (op == UDF_DOP_CLEAR) {
      cg_call(c, "nrt_udf_rt_dict_clear", "v:p", &d.v, 1);
    } else {
      cg_val o = cg_expr(c, e->u.call.cargs[0]);
      LLVMValueRef args[3] = {c->err, d.v, o.v};
      cg_check(c, cg_call(c, "nrt_udf_rt_dict_update", "i:ppp", args, 3));
      cg_release(c, o);
    }
    cg_release(c, d);
    return r;
  }
  if (op == UDF_DOP_KEYS || op == UDF_DOP_VALUES || op == UDF_DOP_ITEMS) {
    cg_fail(c, "d.keys(), d.values() and d.items() only as the iterable of a for loop");
    return none;
  }
  cg_val d = cg_expr(c, e->u.call.receiver);
  cg_val k = cg_expr(c, e->u.call.cargs[0]);
  cg_val r = none;
  udf_type vt = udf_type_param2(e->u.call.receiver->type);
  switch (op) {
  case UDF_DOP_GET: r = get(c, e, d, k); break;
  case UDF_DOP_SETDEFAULT: {
    cg_val v = cg_expr(c, e->u.call.cargs[1]);
    LLVMValueRef out = cg_out_str(c);
    LLVMValueRef args[5] = {c->err, d.v, slot_arg(c, k), slot_arg(c, v), out};
    cg_check(c, cg_call(c, "nrt_udf_rt_dict_setdefault", "i:ppsss", args, 5));
    r = owned_from(c, out, vt);
    cg_release(c, v);
    break;
  }
  case UDF_DOP_POP: {
    const udf_expr *de = e->u.call.cargs[1];
    cg_val dv = de ? cg_expr(c, de) : none;
    LLVMValueRef out = cg_out_str(c);
    LLVMValueRef dflt = de ? slot_arg(c, dv) : LLVMConstNull(c->strp);
    LLVMValueRef args[5] = {c->err, d.v, slot_arg(c, k), dflt, out};
    cg_check(c, cg_call(c, "nrt_udf_rt_dict_pop", "i:ppsss", args, 5));
    r = (cg_val){from_slot(c, cg_load_str(c, out), vt), vt, false};
    cg_push_temp(c, &r); /* pop hands over the table's reference */
    if (de) cg_release(c, dv);
    break;
  }
  case UDF_DOP_ADD: dict_set(c, d.v, k, none); break;
  case UDF_DOP_DISCARD:
  case UDF_DOP_REMOVE: {
    LLVMValueRef zero = op == UDF_DOP_DISCARD ? slot_arg(c, none) : LLVMConstNull(c->strp);
    LLVMValueRef args[5] = {c->err, d.v, slot_arg(c, k), zero, LLVMConstNull(c->strp)};
    cg_check(c, cg_call(c, "nrt_udf_rt_dict_pop", "i:ppsss", args, 5));
    break;
  }
  default: cg_fail(c, "internal error: dict operation %d", op); break;
  }
  cg_release(c, k);
  cg_release(c, d);
  return r;
}

void cg_dict_setitem(cg *c, const udf_stmt *s) {
  const udf_expr *t = s->u.setitem.target;
  cg_val v = s->u.setitem.value ? cg_expr(c, s->u.setitem.value)
                                : (cg_val){NULL, UDF_TY_NONE, false};
  cg_val d = cg_expr(c, t->u.subscript.value);
  cg_val k = cg_expr(c, t->u.subscript.index);
  if (s->u.setitem.value) {
    dict_set(c, d.v, k, v);
  } else {
    LLVMValueRef args[5] = {c->err, d.v, slot_arg(c, k), LLVMConstNull(c->strp),
                            LLVMConstNull(c->strp)};
    cg_check(c, cg_call(c, "nrt_udf_rt_dict_pop", "i:ppsss", args, 5));
  }
  cg_release(c, k);
  cg_release(c, d);
  if (s->u.setitem.value) cg_release(c, v);
}

/* ---- iteration: for k in d / d.keys() / d.values() / k, v in d.items() */

bool cg_dict_iter_setup(cg *c, cg_iter *it, const udf_expr *iter) {
  const udf_expr *d = iter;
  int op = UDF_DOP_KEYS;
  if (iter->kind == UDF_E_CALL && iter->u.call.ckind == UDF_CALL_DICT &&
      udf_type_base(iter->type) == UDF_TY_ITER) {
    d = iter->u.call.receiver;
    op = iter->u.call.dict_op;
  } else if (udf_type_base(iter->type) != UDF_TY_DICT) {
    return false;
  }
  it->kind = UDF_TY_DICT;
  it->dict_op = op;
  it->dict_type = d->type;
  it->pos = cg_alloca(c, c->i64, "it.pos");
  it->iterable = cg_owned(c, cg_expr(c, d));
  LLVMBuildStore(c->b, cg_i64(c, 0), it->pos);
  it->stop = cg_call(c, "nrt_udf_rt_dict_len", "l:p", &it->iterable.v, 1);
  it->kslot = cg_alloca(c, c->str, "it.key");
  it->vslot = cg_alloca(c, c->str, "it.value");
  return true;
}

LLVMValueRef cg_dict_iter_more(cg *c, cg_iter *it) {
  LLVMValueRef more = cg_scratch(c, c->i8, "more");
  LLVMValueRef args[7] = {c->err, it->iterable.v, it->pos, it->stop, it->kslot, it->vslot, more};
  cg_check(c, cg_call(c, "nrt_udf_rt_dict_next", "i:ppLlssp", args, 7));
  return cg_bool_of_c(c, LLVMBuildLoad2(c->b, c->i8, more, ""));
}

cg_val cg_dict_iter_value(cg *c, cg_iter *it, bool second) {
  udf_type kt = udf_type_param1(it->dict_type), vt = udf_type_param2(it->dict_type);
  bool value = second || it->dict_op == UDF_DOP_VALUES;
  udf_type t = value ? vt : kt;
  cg_val v = {from_slot(c, cg_load_str(c, value ? it->vslot : it->kslot), t), t, false};
  return v;
}

cg_val cg_dict_binop(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type) {
  int ch = op == UDF_OP_BITOR ? '|' : op == UDF_OP_BITAND ? '&' : op == UDF_OP_SUB ? '-' : '^';
  LLVMValueRef args[3] = {l.v, r.v, cg_i32(c, ch)};
  return cg_rt_list(c, "nrt_udf_rt_set_binop", "i:pppiq", args, 3, type);
}

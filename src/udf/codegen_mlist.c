/* Lowering of the mutable-list builtins (ast.h UDF_BI_LIST_APPEND ... UDF_BI_MAX_KEY): list
 * methods, item assignment and deletion as runtime calls (runtime_mlist.c), and the keyed
 * sort/sorted/min/max: a loop binding each item to the key's variable, computing the key
 * expression (an inlined lambda body, or the call of the key function) into a key array, then
 * one runtime call ordering or picking by it (runtime_sortkeys.c). */
#include "udf/codegen_internal.h"
#include "udf/runtime.h"

/* Lists of bool (issue 14's list results) hold 0 or 1 and compare and sort as ints. */
int cg_nlist_kind(udf_type list) {
  return udf_type_param1(list) == UDF_TY_FLOAT ? NRT_UDF_KEY_FLOAT : NRT_UDF_KEY_INT;
}

static bool is_nlist(udf_type t) { return udf_type_base(t) == UDF_TY_LIST; }

/* The bits of an int, float or bool as an i64. */
static LLVMValueRef bits_of(cg *c, cg_val v) {
  switch (udf_type_base(v.type)) {
  case UDF_TY_FLOAT: return LLVMBuildBitCast(c->b, v.v, c->i64, "");
  case UDF_TY_BOOL: return LLVMBuildZExt(c->b, v.v, c->i64, "");
  default: return v.v;
  }
}

/* A number of type elem from its bits (bits_of's inverse). */
static LLVMValueRef from_bits(cg *c, LLVMValueRef b, udf_type elem) {
  switch (udf_type_base(elem)) {
  case UDF_TY_FLOAT: return LLVMBuildBitCast(c->b, b, c->f64, "");
  case UDF_TY_BOOL: return LLVMBuildICmp(c->b, LLVMIntNE, b, cg_i64(c, 0), "");
  default: return b;
  }
}

LLVMValueRef cg_item_ptr(cg *c, cg_val v) {
  if (udf_type_base(v.type) == UDF_TY_STR)
    return cg_spill(c, v.v);
  LLVMValueRef null = LLVMConstNull(c->ptr);
  return cg_spill(c, cg_str_make(c, null, null, bits_of(c, v)));
}

cg_val cg_nlist_unbox(cg *c, LLVMValueRef item, udf_type elem) {
  cg_val v = {from_bits(c, cg_str_len(c, item), elem), elem, false};
  return v;
}

LLVMValueRef cg_nlist_contains(cg *c, cg_val list, cg_val x) {
  LLVMValueRef args[3] = {list.v, cg_i32(c, cg_nlist_kind(list.type)), bits_of(c, x)};
  LLVMValueRef n = cg_call(c, "nrt_udf_rt_nlist_count", "l:pil", args, 3);
  return LLVMBuildICmp(c->b, LLVMIntSGT, n, cg_i64(c, 0), "in");
}

cg_val cg_range_list(cg *c, const udf_expr *rg) {
  LLVMValueRef ra[3] = {cg_i64(c, 0), NULL, cg_i64(c, 1)};
  int rn = rg->u.call.ncargs;
  for (int i = 0; i < rn && i < 3; i++)
    ra[rn == 1 ? 1 : i] = cg_expr(c, rg->u.call.cargs[i]).v;
  return cg_rt_list(c, "nrt_udf_rt_nlist_range", "i:plllq", ra, 3,
                    udf_type_make(UDF_TY_LIST, UDF_TY_INT, 0));
}

static cg_val none_value(cg *c) {
  cg_val v = {LLVMConstInt(c->i1, 0, 0), UDF_TY_NONE, false};
  return v;
}

/* fn(err, args...) -> status, checked. */
static void rt_do(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n) {
  LLVMValueRef all[8];
  all[0] = c->err;
  for (int i = 0; i < n; i++)
    all[i + 1] = args[i];
  cg_check(c, cg_call(c, fn, sig, all, n + 1));
}

/* Whether e makes a new list that nothing else refers to (s.split(), a list display or
 * comprehension): sorted() of it may sort it in place instead of a copy. */
static bool makes_fresh_list(const udf_expr *e) {
  if (e->kind == UDF_E_LIST || e->kind == UDF_E_LISTCOMP)
    return true;
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_METHOD)
    return false;
  udf_method m = e->u.call.method;
  return m == UDF_M_SPLIT || m == UDF_M_RSPLIT || m == UDF_M_SPLITLINES;
}

/* The item list of a keyed call: a new list for sorted() (the characters of a str, a copy of
 * a list or tuple, or a fresh list itself), the list itself for the others (owned for the
 * call). */
static cg_val keyed_items(cg *c, const udf_expr *e) {
  if (e->u.call.cargs[0]->type == UDF_TY_RANGE)
    return cg_range_list(c, e->u.call.cargs[0]);
  cg_val src = cg_expr(c, e->u.call.cargs[0]);
  if (e->u.call.builtin != UDF_BI_SORTED)
    return cg_owned(c, src);
  if (src.temp && makes_fresh_list(e->u.call.cargs[0]) &&
      udf_type_base(src.type) != UDF_TY_STR) {
    src.type = e->type; /* the same representation: a list of str or of numbers */
    return src;
  }
  cg_val l;
  if (udf_type_base(src.type) == UDF_TY_STR) {
    LLVMValueRef arg = cg_spill(c, src.v);
    l = cg_rt_list(c, "nrt_udf_rt_list_chars", "i:psq", &arg, 1, UDF_TY_LIST_STR);
  } else {
    l = cg_rt_list(c, "nrt_udf_rt_mlist_copy", "i:ppq", &src.v, 1, e->type);
  }
  cg_release(c, src);
  return l;
}

/* Computes the key of each item of list into a new key array (a temp): at most the items
 * the list had at the start, and only while the key function leaves them there. */
#define MAX_KEY_PARTS 8

static int key_kind(const udf_expr *part) {
  udf_type kt = udf_type_base(part->type);
  return kt == UDF_TY_INT ? NRT_UDF_KEY_INT : kt == UDF_TY_FLOAT ? NRT_UDF_KEY_FLOAT
                                                                : NRT_UDF_KEY_STR;
}

/* Computes the key of each item of list into a new key array (a temp; a tuple key: one array
 * per item of the tuple, chained to the first): at most the items the list had at the start,
 * and only while the key function leaves them there. */
static cg_val compute_keys(cg *c, const udf_expr *key, const udf_var *var, cg_val list) {
  const udf_expr *parts[MAX_KEY_PARTS] = {key};
  int nparts = 1;
  if (key->kind == UDF_E_TUPLE) {
    nparts = key->u.seq.n;
    if (nparts > MAX_KEY_PARTS) {
      cg_fail(c, "a tuple key of more than %d items", MAX_KEY_PARTS);
      nparts = MAX_KEY_PARTS;
    }
    for (int j = 0; j < nparts; j++)
      parts[j] = key->u.seq.items[j];
  }
  LLVMValueRef n = cg_list_len(c, list.v);
  LLVMValueRef arrays[MAX_KEY_PARTS];
  cg_val keys = {NULL, UDF_TY_LIST_STR, false};
  for (int j = 0; j < nparts; j++) {
    LLVMValueRef args[2] = {n, cg_i32(c, key_kind(parts[j]))};
    cg_val k = cg_rt_list(c, "nrt_udf_rt_keys_new", "i:pliq", args, 2, UDF_TY_LIST_STR);
    arrays[j] = k.v;
    if (j == 0) {
      keys = k;
      continue;
    }
    LLVMValueRef chain[2] = {keys.v, k.v};
    cg_call(c, "nrt_udf_rt_keys_chain", "v:pp", chain, 2); /* keys now holds k */
    cg_release(c, k);
  }
  LLVMValueRef pos = cg_alloca(c, c->i64, "key.pos");
  LLVMBuildStore(c->b, cg_i64(c, 0), pos);
  LLVMBasicBlockRef head = cg_block(c, "key.head"), body = cg_block(c, "key.body"),
                    done = cg_block(c, "key.done");
  cg_goto(c, head);
  cg_at(c, head);
  LLVMValueRef i = LLVMBuildLoad2(c->b, c->i64, pos, "i");
  LLVMValueRef more = LLVMBuildAnd(
      c->b, LLVMBuildICmp(c->b, LLVMIntSLT, i, n, ""),
      LLVMBuildICmp(c->b, LLVMIntSLT, i, cg_list_len(c, list.v), ""), "more");
  LLVMBuildCondBr(c->b, more, body, done);
  cg_at(c, body);
  cg_val item = {cg_list_item(c, list.v, i), UDF_TY_STR, false};
  cg_bind(c, var, is_nlist(list.type) ? cg_nlist_unbox(c, item.v, var->type) : item);
  for (int j = 0; j < nparts; j++) {
    int kind = key_kind(parts[j]);
    cg_val k = cg_expr(c, parts[j]);
    if (kind == NRT_UDF_KEY_STR) {
      LLVMValueRef a[2] = {arrays[j], cg_spill(c, k.v)};
      cg_call(c, "nrt_udf_rt_keys_add_str", "v:ps", a, 2);
    } else {
      LLVMValueRef a[2] = {arrays[j], k.v};
      cg_call(c, kind == NRT_UDF_KEY_INT ? "nrt_udf_rt_keys_add_int" : "nrt_udf_rt_keys_add_float",
              kind == NRT_UDF_KEY_INT ? "v:pl" : "v:pd", a, 2);
    }
    cg_release(c, k);
  }
  LLVMBuildStore(c->b, LLVMBuildAdd(c->b, i, cg_i64(c, 1), ""), pos);
  cg_goto(c, head);
  cg_at(c, done);
  return keys;
}

/* key=len (or lambda w: len(w)) of the item variable: sorting a list of str by it needs no
 * key array (nrt_udf_rt_mlist_sort_len computes the lengths). */
static bool key_is_len(const udf_expr *key, const udf_expr *item) {
  if (!key || !item || key->kind != UDF_E_CALL || key->u.call.ckind != UDF_CALL_BUILTIN ||
      key->u.call.builtin != UDF_BI_LEN || key->u.call.ncargs != 1)
    return false;
  const udf_expr *x = key->u.call.cargs[0];
  return x->kind == UDF_E_NAME && x->u.name.var == item->u.name.var &&
         udf_type_base(x->type) == UDF_TY_STR;
}

const udf_expr *cg_sorted_split_len(const udf_expr *e, bool *reverse) {
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_BUILTIN ||
      e->u.call.builtin != UDF_BI_SORTED)
    return NULL;
  udf_expr *const *a = e->u.call.cargs;
  const udf_expr *x = a[0];
  if (!key_is_len(a[1], a[3]) || (a[2] && a[2]->kind != UDF_E_BOOL) || x->kind != UDF_E_CALL ||
      x->u.call.ckind != UDF_CALL_METHOD || x->u.call.method != UDF_M_SPLIT ||
      udf_type_base(x->u.call.receiver->type) != UDF_TY_STR)
    return NULL;
  *reverse = a[2] && a[2]->u.bval;
  return x;
}

/* sorted(s.split(...), key=len): the split sorts its list as it makes it
 * (nrt_udf_rt_split_sorted_len). */
static bool fuse_split_sort_len(cg *c, const udf_expr *e) {
  bool reverse;
  const udf_expr *x = cg_sorted_split_len(e, &reverse);
  if (!x)
    return false;
  c->split_sort_len = x;
  c->split_sort_len_reverse = reverse;
  return true;
}

static cg_val keyed(cg *c, const udf_expr *e) {
  udf_expr *const *a = e->u.call.cargs;
  udf_builtin b = e->u.call.builtin;
  /* restored after: a fused sorted() may sit inside another's split (its receiver) */
  const udf_expr *outer = c->split_sort_len;
  bool outer_reverse = c->split_sort_len_reverse;
  bool fused = fuse_split_sort_len(c, e);
  cg_val list = keyed_items(c, e);
  fused = fused && !c->split_sort_len; /* the split took it: its list is sorted */
  c->split_sort_len = outer;
  c->split_sort_len_reverse = outer_reverse;
  /* The other arguments are evaluated before the call runs (the key function per item). */
  cg_val third = {NULL, UDF_TY_NONE, false};
  if (a[2])
    third = cg_expr(c, a[2]);
  cg_val keys = {cg_null(c), UDF_TY_LIST_STR, false};
  bool numbers = is_nlist(list.type), by_items = numbers && !a[1];
  bool sort_len = (b == UDF_BI_LIST_SORT || b == UDF_BI_SORTED) && !numbers &&
                  key_is_len(a[1], a[3]);
  if (a[1] && !sort_len)
    keys = compute_keys(c, a[1], a[3]->u.name.var, list);
  cg_val r;
  LLVMValueRef kind = cg_i32(c, numbers ? cg_nlist_kind(list.type) : 0);
  if (sort_len && fused) {
    r = none_value(c);
  } else if (sort_len) {
    LLVMValueRef rev = a[2] ? LLVMBuildZExt(c->b, third.v, c->i32, "") : cg_i32(c, 0);
    LLVMValueRef args[2] = {list.v, rev};
    rt_do(c, "nrt_udf_rt_mlist_sort_len", "i:ppi", args, 2);
    r = none_value(c);
  } else if (b == UDF_BI_LIST_SORT || b == UDF_BI_SORTED) {
    LLVMValueRef rev = a[2] ? LLVMBuildZExt(c->b, third.v, c->i32, "") : cg_i32(c, 0);
    LLVMValueRef args[3] = {list.v, by_items ? kind : keys.v, rev};
    if (by_items)
      rt_do(c, "nrt_udf_rt_nlist_sort", "i:ppii", args, 3);
    else
      rt_do(c, "nrt_udf_rt_mlist_sort", "i:pppi", args, 3);
    r = none_value(c);
  } else if (by_items) { /* min/max of numbers */
    LLVMValueRef dflt = LLVMConstNull(LLVMPointerType(c->i64, 0));
    if (a[2]) {
      dflt = cg_scratch(c, c->i64, "default");
      LLVMBuildStore(c->b, bits_of(c, third), dflt);
    }
    LLVMValueRef out = cg_scratch(c, c->i64, "best");
    LLVMValueRef all[6] = {c->err, list.v, kind, cg_i32(c, b == UDF_BI_MAX_KEY), dflt, out};
    cg_check(c, cg_call(c, "nrt_udf_rt_nlist_pick", "i:ppiiLL", all, 6));
    LLVMValueRef bits = LLVMBuildLoad2(c->b, c->i64, out, "");
    r = (cg_val){from_bits(c, bits, e->type), e->type, false};
  } else {
    LLVMValueRef args[5] = {c->err, list.v, keys.v, cg_i32(c, b == UDF_BI_MAX_KEY),
                            a[2] ? cg_item_ptr(c, third) : LLVMConstNull(c->strp)};
    LLVMValueRef out = cg_out_str(c);
    LLVMValueRef all[6] = {args[0], args[1], args[2], args[3], args[4], out};
    cg_check(c, cg_call(c, "nrt_udf_rt_mlist_pick", "i:pppiss", all, 6));
    if (numbers) {
      r = cg_nlist_unbox(c, cg_load_str(c, out), e->type);
    } else {
      r = (cg_val){cg_load_str(c, out), UDF_TY_STR, false};
      cg_push_temp(c, &r);
    }
  }
  cg_release(c, keys);
  cg_release(c, third);
  if (b == UDF_BI_SORTED)
    return list; /* the new sorted list, still a temp */
  cg_release(c, list);
  return r;
}

/* An int or str argument, evaluated. */
static cg_val arg(cg *c, const udf_expr *e) { return cg_expr(c, e); }

cg_val cg_mlist_builtin(cg *c, const udf_expr *e) {
  udf_expr *const *a = e->u.call.cargs;
  udf_builtin b = e->u.call.builtin;
  if (b == UDF_BI_LIST_SORT || b == UDF_BI_SORTED || b == UDF_BI_MIN_KEY || b == UDF_BI_MAX_KEY)
    return keyed(c, e);
  if (b == UDF_BI_SUM) {
    cg_val l = a[0]->type == UDF_TY_RANGE ? cg_range_list(c, a[0]) : cg_expr(c, a[0]);
    LLVMValueRef out = cg_scratch(c, c->i64, "sum");
    LLVMValueRef args[3] = {l.v, cg_i32(c, cg_nlist_kind(l.type)), out};
    rt_do(c, "nrt_udf_rt_nlist_sum", "i:ppiL", args, 3);
    cg_release(c, l);
    LLVMValueRef bits = LLVMBuildLoad2(c->b, c->i64, out, "");
    cg_val r = {from_bits(c, bits, e->type), e->type, false};
    return r;
  }
  cg_val v = {NULL, UDF_TY_NONE, false};
  if (b == UDF_BI_LIST_SETITEM)
    v = arg(c, a[2]); /* xs[i] = v: the value first, as Python */
  cg_val list = cg_expr(c, a[0]);
  cg_val x = {NULL, UDF_TY_NONE, false}, y = {NULL, UDF_TY_NONE, false};
  cg_val r = none_value(c);
  if (is_nlist(list.type) &&
      (b == UDF_BI_LIST_REMOVE || b == UDF_BI_LIST_INDEX || b == UDF_BI_LIST_COUNT)) {
    x = arg(c, a[1]);
    if (b == UDF_BI_LIST_COUNT) {
      LLVMValueRef args[3] = {list.v, cg_i32(c, cg_nlist_kind(list.type)), bits_of(c, x)};
      r = (cg_val){cg_call(c, "nrt_udf_rt_nlist_count", "l:pil", args, 3), UDF_TY_INT, false};
    } else if (b == UDF_BI_LIST_INDEX) {
      LLVMValueRef out = cg_scratch(c, c->i64, "index");
      /* A list of bool: compared as ints, named True/False in the ValueError. */
      int kind = udf_type_param1(list.type) == UDF_TY_BOOL ? NRT_UDF_KEY_BOOL
                                                           : cg_nlist_kind(list.type);
      LLVMValueRef args[5] = {c->err, list.v, cg_i32(c, kind), bits_of(c, x), out};
      cg_check(c, cg_call(c, "nrt_udf_rt_nlist_index", "i:ppilL", args, 5));
      r = (cg_val){LLVMBuildLoad2(c->b, c->i64, out, ""), UDF_TY_INT, false};
    } else {
      LLVMValueRef args[3] = {list.v, cg_i32(c, cg_nlist_kind(list.type)), bits_of(c, x)};
      rt_do(c, "nrt_udf_rt_nlist_remove", "i:ppil", args, 3);
    }
  } else switch (b) {
  case UDF_BI_LIST_APPEND: {
    x = arg(c, a[1]);
    LLVMValueRef args[2] = {list.v, cg_item_ptr(c, x)};
    rt_do(c, "nrt_udf_rt_list_append", "i:pps", args, 2);
    break;
  }
  case UDF_BI_LIST_EXTEND: {
    x = arg(c, a[1]);
    LLVMValueRef src = x.v;
    if (udf_type_base(x.type) == UDF_TY_STR) { /* its characters */
      LLVMValueRef s = cg_spill(c, x.v);
      y = cg_rt_list(c, "nrt_udf_rt_list_chars", "i:psq", &s, 1, UDF_TY_LIST_STR);
      src = y.v;
    }
    LLVMValueRef args[2] = {list.v, src};
    rt_do(c, "nrt_udf_rt_mlist_extend", "i:ppp", args, 2);
    break;
  }
  case UDF_BI_LIST_INSERT: {
    x = arg(c, a[1]);
    y = arg(c, a[2]);
    LLVMValueRef args[3] = {list.v, x.v, cg_item_ptr(c, y)};
    rt_do(c, "nrt_udf_rt_mlist_insert", "i:ppls", args, 3);
    break;
  }
  case UDF_BI_LIST_POP: {
    if (a[1])
      x = arg(c, a[1]);
    LLVMValueRef out = cg_out_str(c);
    LLVMValueRef args[5] = {c->err, list.v, a[1] ? x.v : cg_i64(c, -1), cg_i32(c, a[1] != NULL),
                            out};
    cg_check(c, cg_call(c, "nrt_udf_rt_mlist_pop", "i:pplis", args, 5));
    if (is_nlist(list.type)) {
      r = cg_nlist_unbox(c, cg_load_str(c, out), e->type);
      break;
    }
    r = (cg_val){cg_load_str(c, out), UDF_TY_STR, false};
    cg_push_temp(c, &r);
    break;
  }
  case UDF_BI_LIST_REMOVE: {
    x = arg(c, a[1]);
    LLVMValueRef args[2] = {list.v, cg_spill(c, x.v)};
    rt_do(c, "nrt_udf_rt_mlist_remove", "i:pps", args, 2);
    break;
  }
  case UDF_BI_LIST_INDEX: {
    x = arg(c, a[1]);
    LLVMValueRef out = cg_scratch(c, c->i64, "index");
    LLVMValueRef args[4] = {c->err, list.v, cg_spill(c, x.v), out};
    cg_check(c, cg_call(c, "nrt_udf_rt_mlist_index", "i:ppsL", args, 4));
    r = (cg_val){LLVMBuildLoad2(c->b, c->i64, out, ""), UDF_TY_INT, false};
    break;
  }
  case UDF_BI_LIST_COUNT: {
    x = arg(c, a[1]);
    LLVMValueRef args[2] = {list.v, cg_spill(c, x.v)};
    r = (cg_val){cg_call(c, "nrt_udf_rt_mlist_count", "l:ps", args, 2), UDF_TY_INT, false};
    break;
  }
  case UDF_BI_LIST_REVERSE:
  case UDF_BI_LIST_CLEAR:
    cg_call(c, b == UDF_BI_LIST_REVERSE ? "nrt_udf_rt_mlist_reverse" : "nrt_udf_rt_mlist_clear",
            "v:p", &list.v, 1);
    break;
  case UDF_BI_LIST_COPY:
    r = cg_rt_list(c, "nrt_udf_rt_mlist_copy", "i:ppq", &list.v, 1, e->type);
    break;
  case UDF_BI_LIST_SETITEM: {
    x = arg(c, a[1]);
    LLVMValueRef args[3] = {list.v, x.v, cg_item_ptr(c, v)};
    rt_do(c, "nrt_udf_rt_mlist_setitem", "i:ppls", args, 3);
    break;
  }
  case UDF_BI_LIST_DELITEM:
  case UDF_BI_LIST_IMUL: {
    x = arg(c, a[1]);
    LLVMValueRef args[2] = {list.v, x.v};
    rt_do(c, b == UDF_BI_LIST_IMUL ? "nrt_udf_rt_mlist_imul" : "nrt_udf_rt_mlist_delitem",
          "i:ppl", args, 2);
    break;
  }
  default: cg_fail(c, "internal error: not a list builtin"); break;
  }
  cg_release(c, y);
  cg_release(c, x);
  cg_release(c, list);
  cg_release(c, v);
  return r;
}

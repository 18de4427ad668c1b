/* Lowering of expressions: literals, names, operators with Python's semantics, comparisons,
 * short-circuit logic, conditional expressions, indexing, slicing, lists, comprehensions. */
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "udf/codegen_internal.h"

static LLVMValueRef load_at(cg *c, LLVMTypeRef t, LLVMValueRef base, long long off) {
  LLVMValueRef o = cg_i64(c, off);
  LLVMValueRef p = LLVMBuildGEP2(c->b, c->i8, base, &o, 1, "");
  return LLVMBuildLoad2(c->b, t, LLVMBuildBitCast(c->b, p, LLVMPointerType(t, 0), ""), "");
}

/* nrt_str_list { mi @0, len @8, cap @16, items @24 } is the payload (mi->data @24). */
static LLVMValueRef list_ptr(cg *c, LLVMValueRef mi) { return load_at(c, c->ptr, mi, 24); }

LLVMValueRef cg_list_of(cg *c, LLVMValueRef list_mi) { return list_ptr(c, list_mi); }

LLVMValueRef cg_list_len(cg *c, LLVMValueRef list_mi) {
  return load_at(c, c->i64, list_ptr(c, list_mi), 8);
}

LLVMValueRef cg_list_item(cg *c, LLVMValueRef list_mi, LLVMValueRef i) {
  LLVMValueRef items = LLVMBuildBitCast(c->b, load_at(c, c->ptr, list_ptr(c, list_mi), 24),
                                        c->strp, "items");
  LLVMValueRef p = LLVMBuildGEP2(c->b, c->str, items, &i, 1, "");
  return LLVMBuildLoad2(c->b, c->str, p, "item");
}

cg_val cg_coerce(cg *c, cg_val v, udf_type to) {
  if (v.type == to || !udf_type_is_nullable(to))
    return v;
  udf_type base = udf_type_base(to);
  if (udf_type_base(v.type) == UDF_TY_NONE) {
    cg_val n = {cg_null_value(c, to), to, false};
    return n;
  }
  if (udf_type_is_nullable(v.type) || base == UDF_TY_STR || base == UDF_TY_LIST_STR ||
      base == UDF_TY_LIST ||
      base == UDF_TY_TUPLE_STR || base == UDF_TY_MATCH) {
    v.type = to; /* same representation */
    return v;
  }
  LLVMValueRef s = LLVMGetUndef(cg_llty(c, to));
  s = LLVMBuildInsertValue(c->b, s, v.v, 0, "");
  s = LLVMBuildInsertValue(c->b, s, LLVMConstInt(c->i1, 1, 0), 1, "");
  cg_val r = {s, to, false};
  return r;
}

LLVMValueRef cg_truth(cg *c, cg_val v) {
  switch (udf_type_base(v.type)) {
  case UDF_TY_BOOL: return v.v;
  case UDF_TY_INT: return LLVMBuildICmp(c->b, LLVMIntNE, v.v, cg_i64(c, 0), "");
  case UDF_TY_FLOAT: return LLVMBuildFCmp(c->b, LLVMRealUNE, v.v, LLVMConstReal(c->f64, 0), "");
  case UDF_TY_STR: return LLVMBuildICmp(c->b, LLVMIntNE, cg_str_len(c, v.v), cg_i64(c, 0), "");
  case UDF_TY_LIST_STR:
  case UDF_TY_LIST:
  case UDF_TY_TUPLE_STR:
    return LLVMBuildICmp(c->b, LLVMIntNE, cg_list_len(c, v.v), cg_i64(c, 0), "");
  case UDF_TY_DICT:
  case UDF_TY_SET:
    return LLVMBuildICmp(c->b, LLVMIntNE, cg_call(c, "nrt_udf_rt_dict_len", "l:p", &v.v, 1),
                         cg_i64(c, 0), "");
  case UDF_TY_MATCH: return LLVMBuildIsNotNull(c->b, v.v, ""); /* None is false */
  default: return LLVMConstInt(c->i1, 0, 0);
  }
}

/* ------------------------------------------------------------------ arithmetic */

static LLVMValueRef checked_int(cg *c, const char *intr, LLVMValueRef a, LLVMValueRef b,
                                const char *what) {
  LLVMTypeRef pt[2] = {c->i64, c->i64};
  LLVMTypeRef rt[2] = {c->i64, c->i1};
  LLVMValueRef args[2] = {a, b};
  LLVMValueRef r = cg_intrinsic(c, intr, LLVMStructTypeInContext(c->ctx, rt, 2, 0), pt, 2,
                                args, 2);
  char msg[120];
  snprintf(msg, sizeof msg, "integer overflow in %s (nrt ints are 64-bit)", what);
  cg_check_bool_fail(c, LLVMBuildExtractValue(c->b, r, 1, ""), NRT_EOVERFLOW, msg);
  return LLVMBuildExtractValue(c->b, r, 0, "");
}

/* Python's // and % on int64: round toward -inf, remainder with the divisor's sign. */
static LLVMValueRef int_divmod(cg *c, LLVMValueRef a, LLVMValueRef b, bool want_mod) {
  cg_check_bool_fail(c, LLVMBuildICmp(c->b, LLVMIntEQ, b, cg_i64(c, 0), ""), NRT_EZERODIV,
                     want_mod ? "integer modulo by zero" : "integer division or modulo by zero");
  /* INT64_MIN // -1 overflows (and traps in hardware): handle b == -1 apart. */
  LLVMValueRef minus1 = LLVMBuildICmp(c->b, LLVMIntEQ, b, cg_i64(c, -1), "");
  if (!want_mod) {
    LLVMValueRef isneg_ovf = LLVMBuildAnd(
        c->b, minus1, LLVMBuildICmp(c->b, LLVMIntEQ, a, cg_i64(c, INT64_MIN), ""), "");
    cg_check_bool_fail(c, isneg_ovf, NRT_EOVERFLOW,
                       "integer overflow in // (nrt ints are 64-bit)");
  }
  LLVMValueRef safe_b = LLVMBuildSelect(c->b, minus1, cg_i64(c, 1), b, "");
  LLVMValueRef q = LLVMBuildSDiv(c->b, a, safe_b, "");
  LLVMValueRef r = LLVMBuildSRem(c->b, a, safe_b, "");
  q = LLVMBuildSelect(c->b, minus1, LLVMBuildNeg(c->b, a, ""), q, "");
  r = LLVMBuildSelect(c->b, minus1, cg_i64(c, 0), r, "");
  LLVMValueRef adjust = LLVMBuildAnd(
      c->b, LLVMBuildICmp(c->b, LLVMIntNE, r, cg_i64(c, 0), ""),
      LLVMBuildICmp(c->b, LLVMIntSLT, LLVMBuildXor(c->b, r, b, ""), cg_i64(c, 0), ""), "");
  if (want_mod)
    return LLVMBuildSelect(c->b, adjust, LLVMBuildAdd(c->b, r, b, ""), r, "mod");
  return LLVMBuildSelect(c->b, adjust, LLVMBuildSub(c->b, q, cg_i64(c, 1), ""), q, "div");
}

static LLVMValueRef float_rt(cg *c, const char *fn, LLVMValueRef a, LLVMValueRef b) {
  LLVMValueRef out = cg_scratch(c, c->f64, "f");
  LLVMValueRef args[4] = {c->err, a, b, out};
  cg_check(c, cg_call(c, fn, "i:pddD", args, 4));
  return LLVMBuildLoad2(c->b, c->f64, out, "");
}

cg_val cg_binop_values(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type);
cg_val cg_binop_values(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type) {
  if (udf_type_base(type) == UDF_TY_DICT || udf_type_base(type) == UDF_TY_SET)
    return cg_dict_binop(c, op, l, r, type);
  cg_val res = {NULL, udf_type_base(type), false};
  switch (udf_type_base(type)) {
  case UDF_TY_INT:
    switch (op) {
    case UDF_OP_ADD: res.v = checked_int(c, "llvm.sadd.with.overflow.i64", l.v, r.v, "+"); break;
    case UDF_OP_SUB: res.v = checked_int(c, "llvm.ssub.with.overflow.i64", l.v, r.v, "-"); break;
    case UDF_OP_MUL: res.v = checked_int(c, "llvm.smul.with.overflow.i64", l.v, r.v, "*"); break;
    case UDF_OP_FLOORDIV: res.v = int_divmod(c, l.v, r.v, false); break;
    case UDF_OP_MOD: res.v = int_divmod(c, l.v, r.v, true); break;
    case UDF_OP_POW: {
      LLVMValueRef out = cg_scratch(c, c->i64, "pow");
      LLVMValueRef args[4] = {c->err, l.v, r.v, out};
      cg_check(c, cg_call(c, "nrt_udf_rt_ipow", "i:pllL", args, 4));
      res.v = LLVMBuildLoad2(c->b, c->i64, out, "");
      break;
    }
    default: cg_fail(c, "unsupported int operator"); res.v = cg_i64(c, 0);
    }
    return res;
  case UDF_TY_FLOAT:
    switch (op) {
    case UDF_OP_ADD: res.v = LLVMBuildFAdd(c->b, l.v, r.v, ""); break;
    case UDF_OP_SUB: res.v = LLVMBuildFSub(c->b, l.v, r.v, ""); break;
    case UDF_OP_MUL: res.v = LLVMBuildFMul(c->b, l.v, r.v, ""); break;
    case UDF_OP_DIV:
      cg_check_bool_fail(c, LLVMBuildFCmp(c->b, LLVMRealOEQ, r.v, LLVMConstReal(c->f64, 0), ""),
                         NRT_EZERODIV, "float division by zero");
      res.v = LLVMBuildFDiv(c->b, l.v, r.v, "");
      break;
    case UDF_OP_FLOORDIV: res.v = float_rt(c, "nrt_udf_rt_ffloordiv", l.v, r.v); break;
    case UDF_OP_MOD: res.v = float_rt(c, "nrt_udf_rt_fmod", l.v, r.v); break;
    case UDF_OP_POW: res.v = float_rt(c, "nrt_udf_rt_fpow", l.v, r.v); break;
    default: cg_fail(c, "unsupported float operator"); res.v = LLVMConstReal(c->f64, 0);
    }
    return res;
  case UDF_TY_STR:
    if (op == UDF_OP_ADD) {
      LLVMValueRef args[2] = {cg_spill(c, l.v), cg_spill(c, r.v)};
      return cg_new_str(c, "nrt_str_concat", "i:sssp", args, 2);
    }
    if (op == UDF_OP_MUL) {
      cg_val s = udf_type_base(l.type) == UDF_TY_STR ? l : r;
      cg_val n = udf_type_base(l.type) == UDF_TY_STR ? r : l;
      LLVMValueRef args[2] = {cg_spill(c, s.v), n.v};
      return cg_new_str(c, "nrt_str_repeat", "i:slsp", args, 2);
    }
    break;
  case UDF_TY_LIST_STR:
  case UDF_TY_LIST:
  case UDF_TY_TUPLE_STR:
    if (op == UDF_OP_ADD) {
      LLVMValueRef args[2] = {l.v, r.v};
      return cg_rt_list(c, "nrt_udf_rt_list_concat", "i:pppq", args, 2, type);
    }
    if (op == UDF_OP_MUL) {
      cg_val s = udf_type_base(l.type) == UDF_TY_INT ? r : l;
      cg_val n = udf_type_base(l.type) == UDF_TY_INT ? l : r;
      LLVMValueRef args[2] = {s.v, n.v};
      return cg_rt_list(c, "nrt_udf_rt_list_repeat", "i:pplq", args, 2, type);
    }
    break;
  default:
    break;
  }
  cg_fail(c, "unsupported operator for %s", udf_type_name(type));
  res.v = LLVMGetUndef(cg_llty(c, type));
  return res;
}

static bool is_int_cast(const udf_expr *e) {
  return e->kind == UDF_E_CAST && udf_type_base(e->u.cast.operand->type) != UDF_TY_FLOAT;
}

static cg_val binary(cg *c, const udf_expr *e) {
  cg_val l = cg_expr(c, e->u.binary.left);
  cg_val r = cg_expr(c, e->u.binary.right);
  cg_val v;
  if (e->u.binary.op == UDF_OP_DIV && is_int_cast(e->u.binary.left) &&
      is_int_cast(e->u.binary.right)) {
    /* int / int: Python's message differs from the float one. */
    cg_check_bool_fail(c, LLVMBuildFCmp(c->b, LLVMRealOEQ, r.v, LLVMConstReal(c->f64, 0), ""),
                       NRT_EZERODIV, "division by zero");
  }
  v = cg_binop_values(c, e->u.binary.op, l, r, e->type);
  cg_release(c, r);
  cg_release(c, l);
  return v;
}

static cg_val unary(cg *c, const udf_expr *e) {
  cg_val v = cg_expr(c, e->u.unary.operand);
  cg_val r = {NULL, e->type, false};
  switch (e->u.unary.op) {
  case UDF_UOP_NEG:
    if (udf_type_base(e->type) == UDF_TY_FLOAT)
      r.v = LLVMBuildFNeg(c->b, v.v, "");
    else
      r.v = checked_int(c, "llvm.ssub.with.overflow.i64", cg_i64(c, 0), v.v, "unary -");
    return r;
  case UDF_UOP_POS:
    r.v = v.v;
    return r;
  case UDF_UOP_NOT:
    r.v = LLVMBuildNot(c->b, v.v, "");
    return r;
  default:
    cg_fail(c, "unsupported unary operator");
    r.v = v.v;
    return r;
  }
}

/* ------------------------------------------------------------------ comparisons */

static LLVMValueRef is_none(cg *c, cg_val v) {
  udf_type b = udf_type_base(v.type);
  if (b == UDF_TY_NONE)
    return LLVMConstInt(c->i1, 1, 0);
  if (!udf_type_is_nullable(v.type))
    return LLVMConstInt(c->i1, 0, 0);
  if (b == UDF_TY_STR)
    return LLVMBuildIsNull(c->b, cg_str_data(c, v.v), "");
  if (b == UDF_TY_LIST_STR || b == UDF_TY_TUPLE_STR || b == UDF_TY_LIST || b == UDF_TY_MATCH)
    return LLVMBuildIsNull(c->b, v.v, "");
  return LLVMBuildNot(c->b, LLVMBuildExtractValue(c->b, v.v, 1, ""), "");
}

/* The bit of byte b (an i64 below 128) in a 128-bit set of ASCII bytes. */
static LLVMValueRef ascii_set_bit(cg *c, const uint64_t set[2], LLVMValueRef b) {
  LLVMValueRef word = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntULT, b, cg_i64(c, 64), ""),
                                      LLVMConstInt(c->i64, set[0], 0),
                                      LLVMConstInt(c->i64, set[1], 0), "");
  LLVMValueRef bit = LLVMBuildLShr(c->b, word, LLVMBuildAnd(c->b, b, cg_i64(c, 63), ""), "");
  return LLVMBuildTrunc(c->b, bit, c->i1, "");
}

/* The end of `x in LIT`: in the current block, x searched for by nrt_str_contains; then, at
 * done, the result: `fast` coming from fast_bb, or the search's. */
static LLVMValueRef search_then_join(cg *c, const udf_strlit *lit, LLVMValueRef xd,
                                     LLVMValueRef xl, LLVMBasicBlockRef done, LLVMValueRef fast,
                                     LLVMBasicBlockRef fast_bb) {
  LLVMValueRef args[4] = {cg_cstr(c, lit->data, (size_t)lit->len), cg_i64(c, lit->len), xd, xl};
  LLVMValueRef found = cg_bool_of_c(c, cg_call(c, "nrt_str_contains", "b:plpl", args, 4));
  LLVMBasicBlockRef search_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, done);
  cg_at(c, done);
  return cg_phi2(c, c->i1, "in", fast, fast_bb, found, search_end);
}

/* `x in LIT` for an ASCII literal without branching on the character: a one-byte x is looked
 * up in the set, and an x led by a non-ASCII byte is not in the literal (that is every other
 * character of a character loop); only '' and ASCII-led strings of several bytes search. */
static LLVMValueRef in_ascii_literal(cg *c, LLVMValueRef xd, LLVMValueRef xl,
                                     const udf_strlit *lit, const uint64_t set[2]) {
  LLVMBasicBlockRef lead_bb = cg_block(c, "in.lead"), search = cg_block(c, "in.search"),
                    done = cg_block(c, "in.done");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntSGT, xl, cg_i64(c, 0), ""), lead_bb,
                  search); /* '' has no lead byte to read */
  cg_at(c, lead_bb);
  LLVMValueRef lead = LLVMBuildLoad2(c->b, c->i8, xd, "");
  LLVMValueRef one = LLVMBuildICmp(c->b, LLVMIntEQ, xl, cg_i64(c, 1), "");
  LLVMValueRef high = LLVMBuildICmp(c->b, LLVMIntSLT, lead, LLVMConstInt(c->i8, 0, 0), "");
  LLVMValueRef in_set = LLVMBuildAnd(c->b, one,
                                     ascii_set_bit(c, set, LLVMBuildZExt(c->b, lead, c->i64, "")),
                                     "");
  LLVMValueRef br = LLVMBuildCondBr(c->b, LLVMBuildOr(c->b, one, high, ""), done, search);
  /* One branch, not one per condition (which the code generator would make of an `or`): for
   * a character the first test depends on its width, the second on its lead byte. */
  static const char unpredictable[] = "unpredictable";
  LLVMSetMetadata(br, LLVMGetMDKindIDInContext(c->ctx, unpredictable, sizeof unpredictable - 1),
                  LLVMMDNodeInContext(c->ctx, NULL, 0));
  cg_at(c, search);
  return search_then_join(c, lit, xd, xl, done, in_set, lead_bb);
}

/* `x in LIT` for a string literal: a one-byte x (an ASCII character: the common `c in
 * 'aeiou'` of a character loop) is looked up in a 128-bit set of the literal's ASCII bytes
 * built at compile time; any other x goes through nrt_str_contains. */
static LLVMValueRef in_literal(cg *c, cg_val x, const udf_strlit *lit) {
  uint64_t set[2] = {0, 0};
  for (int64_t i = 0; i < lit->len; i++) {
    unsigned char b = (unsigned char)lit->data[i];
    if (b < 0x80)
      set[b >> 6] |= UINT64_C(1) << (b & 63);
  }
  LLVMValueRef xd = cg_str_data(c, x.v), xl = cg_str_len(c, x.v);
  if (nrt_str_is_ascii_bytes(lit->data, lit->len))
    return in_ascii_literal(c, xd, xl, lit, set);
  LLVMBasicBlockRef one = cg_block(c, "in.byte"), other = cg_block(c, "in.search"),
                    done = cg_block(c, "in.done");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, xl, cg_i64(c, 1), ""), one, other);
  cg_at(c, one);
  LLVMValueRef b = LLVMBuildZExt(c->b, LLVMBuildLoad2(c->b, c->i8, xd, ""), c->i64, "");
  LLVMValueRef in_one = ascii_set_bit(c, set, b);
  LLVMBuildBr(c->b, done);
  cg_at(c, other);
  return search_then_join(c, lit, xd, xl, done, in_one, one);
}

static LLVMValueRef compare_one(cg *c, cg_val l, udf_cmpop op, cg_val r) {
  if (op == UDF_CMP_IS || op == UDF_CMP_IS_NOT) {
    LLVMValueRef n = udf_type_base(l.type) == UDF_TY_NONE ? is_none(c, r) : is_none(c, l);
    return op == UDF_CMP_IS ? n : LLVMBuildNot(c->b, n, "");
  }
  if (op == UDF_CMP_IN || op == UDF_CMP_NOT_IN) {
    LLVMValueRef in;
    if (udf_type_base(r.type) == UDF_TY_DICT || udf_type_base(r.type) == UDF_TY_SET) {
      in = cg_dict_contains(c, l, r);
    } else if (udf_type_base(r.type) == UDF_TY_LIST) {
      in = cg_nlist_contains(c, r, l);
    } else if (udf_type_base(r.type) == UDF_TY_STR) {
      LLVMValueRef args[4] = {cg_str_data(c, r.v), cg_str_len(c, r.v), cg_str_data(c, l.v),
                              cg_str_len(c, l.v)};
      in = cg_bool_of_c(c, cg_call(c, "nrt_str_contains", "b:plpl", args, 4));
    } else {
      LLVMValueRef args[3] = {r.v, cg_str_data(c, l.v), cg_str_len(c, l.v)};
      in = cg_bool_of_c(c, cg_call(c, "nrt_udf_rt_list_contains", "b:ppl", args, 3));
    }
    return op == UDF_CMP_IN ? in : LLVMBuildNot(c->b, in, "");
  }
  static const LLVMIntPredicate ip[] = {LLVMIntEQ, LLVMIntNE, LLVMIntSLT,
                                        LLVMIntSLE, LLVMIntSGT, LLVMIntSGE};
  static const LLVMIntPredicate up[] = {LLVMIntEQ, LLVMIntNE, LLVMIntULT,
                                        LLVMIntULE, LLVMIntUGT, LLVMIntUGE};
  static const LLVMRealPredicate fp[] = {LLVMRealOEQ, LLVMRealUNE, LLVMRealOLT,
                                         LLVMRealOLE, LLVMRealOGT, LLVMRealOGE};
  switch (udf_type_base(l.type)) {
  case UDF_TY_INT: return LLVMBuildICmp(c->b, ip[op], l.v, r.v, "");
  case UDF_TY_BOOL: return LLVMBuildICmp(c->b, up[op], l.v, r.v, "");
  case UDF_TY_FLOAT: return LLVMBuildFCmp(c->b, fp[op], l.v, r.v, "");
  case UDF_TY_STR: {
    LLVMValueRef args[4] = {cg_str_data(c, l.v), cg_str_len(c, l.v), cg_str_data(c, r.v),
                            cg_str_len(c, r.v)};
    if (op == UDF_CMP_EQ || op == UDF_CMP_NE) {
      LLVMValueRef eq = cg_bool_of_c(c, cg_call(c, "nrt_str_eq", "b:plpl", args, 4));
      return op == UDF_CMP_EQ ? eq : LLVMBuildNot(c->b, eq, "");
    }
    LLVMValueRef cmp = cg_call(c, "nrt_str_compare", "i:plpl", args, 4);
    return LLVMBuildICmp(c->b, ip[op], cmp, cg_i32(c, 0), "");
  }
  case UDF_TY_LIST:
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR: {
    LLVMValueRef args[3] = {l.v, r.v, cg_i32(c, cg_nlist_kind(l.type))};
    LLVMValueRef eq = udf_type_base(l.type) == UDF_TY_LIST
                          ? cg_bool_of_c(c, cg_call(c, "nrt_udf_rt_nlist_eq", "b:ppi", args, 3))
                          : cg_bool_of_c(c, cg_call(c, "nrt_udf_rt_list_eq", "b:pp", args, 2));
    return op == UDF_CMP_NE ? LLVMBuildNot(c->b, eq, "") : eq;
  }
  default:
    cg_fail(c, "unsupported comparison of %s", udf_type_name(l.type));
    return LLVMConstInt(c->i1, 0, 0);
  }
}

/* The str whose len() e is, or NULL. */
static const udf_expr *len_of_str(const udf_expr *e) {
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_BUILTIN ||
      e->u.call.builtin != UDF_BI_LEN || e->u.call.ncargs != 1 ||
      udf_type_base(e->u.call.cargs[0]->type) != UDF_TY_STR)
    return NULL;
  return e->u.call.cargs[0];
}

/* len(s) OP k or k OP len(s) for an int literal k and an ordering OP: a string of b bytes has
 * between b/4 and b code points, so `len(s) > t` is (b > t) unless t < b <= 4t, and only then
 * are the code points counted. Short strings compared with small bounds (`len(s) > 2`)
 * mostly skip the count. Returns false (nothing emitted) for other comparisons. */
static bool len_compare(cg *c, const udf_expr *e, cg_val *out) {
  if (e->u.compare.n != 1)
    return false;
  udf_cmpop op = e->u.compare.ops[0];
  const udf_expr *l = e->u.compare.operands[0], *r = e->u.compare.operands[1];
  const udf_expr *s = len_of_str(l);
  bool flipped = false;
  if (!s && r->kind != UDF_E_INT) {
    s = len_of_str(r);
    flipped = s != NULL && l->kind == UDF_E_INT;
    if (!flipped)
      return false;
  } else if (!s || r->kind != UDF_E_INT) {
    return false;
  }
  int64_t k = flipped ? l->u.ival : r->u.ival;
  if (flipped) /* k OP len  ==  len OP' k */
    op = op == UDF_CMP_LT ? UDF_CMP_GT : op == UDF_CMP_LE ? UDF_CMP_GE
       : op == UDF_CMP_GT ? UDF_CMP_LT : op == UDF_CMP_GE ? UDF_CMP_LE : op;
  /* As `len > t`, negated for < and <=. */
  int64_t t;
  bool negate;
  switch (op) {
  case UDF_CMP_GT: t = k; negate = false; break;
  case UDF_CMP_GE: t = k - 1; negate = false; break;
  case UDF_CMP_LT: t = k - 1; negate = true; break;
  case UDF_CMP_LE: t = k; negate = true; break;
  default: return false;
  }
  if (t < 0 || t > ((int64_t)1 << 40))
    return false;
  cg_val v = cg_expr(c, s);
  LLVMValueRef b = cg_str_len(c, v.v), tt = cg_i64(c, t);
  LLVMValueRef quick = LLVMBuildICmp(c->b, LLVMIntSGT, b, tt, "len.quick");
  LLVMValueRef unsure = LLVMBuildAnd(
      c->b, quick, LLVMBuildICmp(c->b, LLVMIntSLE, b, cg_i64(c, 4 * t), ""), "len.unsure");
  LLVMBasicBlockRef from = LLVMGetInsertBlock(c->b), count = cg_block(c, "len.count"),
                    done = cg_block(c, "len.done");
  LLVMBuildCondBr(c->b, unsure, count, done);
  cg_at(c, count);
  LLVMValueRef args[2] = {cg_str_data(c, v.v), b};
  LLVMValueRef exact =
      LLVMBuildICmp(c->b, LLVMIntSGT, cg_call(c, "nrt_str_len", "l:pl", args, 2), tt, "");
  LLVMBasicBlockRef counted = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, done);
  cg_at(c, done);
  LLVMValueRef phi = cg_phi2(c, c->i1, "len.gt", quick, from, exact, counted);
  cg_release(c, v);
  out->v = negate ? LLVMBuildNot(c->b, phi, "") : phi;
  out->type = UDF_TY_BOOL;
  out->temp = false;
  return true;
}

static cg_val compare(cg *c, const udf_expr *e) {
  cg_val quick;
  if (len_compare(c, e, &quick))
    return quick;
  int n = e->u.compare.n;
  LLVMBasicBlockRef end = cg_block(c, "cmp.end");
  LLVMValueRef inc_v[64];
  LLVMBasicBlockRef inc_b[64];
  int ninc = 0;
  if (n > 63) {
    cg_fail(c, "comparison chain longer than 63");
    cg_val z = {LLVMConstInt(c->i1, 0, 0), UDF_TY_BOOL, false};
    return z;
  }
  cg_val left = cg_expr(c, e->u.compare.operands[0]);
  for (int i = 0; i < n; i++) {
    const udf_expr *re = e->u.compare.operands[i + 1];
    udf_cmpop op = e->u.compare.ops[i];
    cg_val right = cg_expr(c, re);
    LLVMValueRef r;
    if ((op == UDF_CMP_IN || op == UDF_CMP_NOT_IN) && re->kind == UDF_E_STR) {
      r = in_literal(c, left, &re->u.str);
      if (op == UDF_CMP_NOT_IN)
        r = LLVMBuildNot(c->b, r, "");
    } else {
      r = compare_one(c, left, op, right);
    }
    cg_release(c, left);
    if (i == n - 1) {
      cg_release(c, right);
      inc_v[ninc] = r;
      inc_b[ninc++] = LLVMGetInsertBlock(c->b);
      LLVMBuildBr(c->b, end);
      break;
    }
    LLVMBasicBlockRef next = cg_block(c, "cmp.next"), no = cg_block(c, "cmp.false");
    LLVMBuildCondBr(c->b, r, next, no);
    cg_at(c, no);
    if (right.temp)
      cg_decref(c, right);
    inc_v[ninc] = LLVMConstInt(c->i1, 0, 0);
    inc_b[ninc++] = LLVMGetInsertBlock(c->b);
    LLVMBuildBr(c->b, end);
    cg_at(c, next);
    left = right;
  }
  cg_at(c, end);
  LLVMValueRef phi = LLVMBuildPhi(c->b, c->i1, "cmp");
  LLVMAddIncoming(phi, inc_v, inc_b, (unsigned)ninc);
  cg_val v = {phi, UDF_TY_BOOL, false};
  return v;
}

/* ------------------------------------------------------------------ logic */

static cg_val boolop(cg *c, const udf_expr *e) {
  int n = e->u.boolop.n;
  bool is_and = e->u.boolop.op == UDF_BOOL_AND;
  LLVMTypeRef t = cg_llty(c, e->type);
  LLVMBasicBlockRef end = cg_block(c, "bool.end");
  LLVMValueRef inc_v[64];
  LLVMBasicBlockRef inc_b[64];
  if (n > 64) {
    cg_fail(c, "boolean expression of more than 64 operands");
    n = 64;
  }
  for (int i = 0; i < n; i++) {
    cg_val v = cg_coerce(c, cg_owned(c, cg_expr(c, e->u.boolop.values[i])), e->type);
    if (i == n - 1) {
      cg_drop_temp(c, v);
      inc_v[i] = v.v;
      inc_b[i] = LLVMGetInsertBlock(c->b);
      LLVMBuildBr(c->b, end);
      break;
    }
    LLVMValueRef truth = cg_truth(c, v);
    LLVMBasicBlockRef take = cg_block(c, "bool.take"), next = cg_block(c, "bool.next");
    LLVMBuildCondBr(c->b, truth, is_and ? next : take, is_and ? take : next);
    cg_at(c, take);
    inc_v[i] = v.v;
    inc_b[i] = take;
    LLVMBuildBr(c->b, end);
    cg_at(c, next);
    cg_release(c, v);
  }
  cg_at(c, end);
  LLVMValueRef phi = LLVMBuildPhi(c->b, t, "boolop");
  LLVMAddIncoming(phi, inc_v, inc_b, (unsigned)n);
  cg_val r = {phi, e->type, false};
  cg_push_temp(c, &r);
  return r;
}

static cg_val ifexp(cg *c, const udf_expr *e) {
  LLVMValueRef test = cg_expr(c, e->u.ifexp.test).v;
  LLVMBasicBlockRef yes = cg_block(c, "ifexp.then"), no = cg_block(c, "ifexp.else"),
                    end = cg_block(c, "ifexp.end");
  LLVMBuildCondBr(c->b, test, yes, no);
  cg_at(c, yes);
  cg_val a = cg_coerce(c, cg_owned(c, cg_expr(c, e->u.ifexp.body)), e->type);
  cg_drop_temp(c, a);
  LLVMBasicBlockRef a_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, end);
  cg_at(c, no);
  cg_val b = cg_coerce(c, cg_owned(c, cg_expr(c, e->u.ifexp.orelse)), e->type);
  cg_drop_temp(c, b);
  LLVMBasicBlockRef b_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, end);
  cg_at(c, end);
  cg_val r = {cg_phi2(c, cg_llty(c, e->type), "ifexp", a.v, a_end, b.v, b_end), e->type, false};
  cg_push_temp(c, &r);
  return r;
}

/* ------------------------------------------------------------------ subscripts, lists */

LLVMValueRef cg_opt_index(cg *c, const udf_expr *e, cg_val *keep) {
  keep->temp = false;
  if (!e || e->kind == UDF_E_NONE)
    return cg_i64(c, NRT_STR_NONE);
  *keep = cg_expr(c, e);
  return keep->v;
}

/* The item k (0 to 2) when e is s.partition(sep)[k] or s.rpartition(sep)[k] with a constant
 * k in -3..2, else -1: that item alone is made, not the tuple and the other two. */
int cg_partition_index(const udf_expr *e) {
  const udf_expr *v = e->u.subscript.value, *i = e->u.subscript.index;
  if (v->kind != UDF_E_CALL || v->u.call.ckind != UDF_CALL_METHOD ||
      (v->u.call.method != UDF_M_PARTITION && v->u.call.method != UDF_M_RPARTITION))
    return -1;
  int64_t k;
  if (i->kind == UDF_E_INT)
    k = i->u.ival;
  else if (i->kind == UDF_E_UNARY && i->u.unary.op == UDF_UOP_NEG &&
           i->u.unary.operand->kind == UDF_E_INT)
    k = -i->u.unary.operand->u.ival;
  else
    return -1;
  return k >= -3 && k <= 2 ? (int)(k < 0 ? k + 3 : k) : -1;
}

static cg_val subscript(cg *c, const udf_expr *e) {
  int item = cg_partition_index(e);
  if (item >= 0)
    return cg_partition_item(c, e->u.subscript.value, item);
  cg_val v = cg_expr(c, e->u.subscript.value);
  cg_val i = cg_expr(c, e->u.subscript.index);
  cg_val r;
  if (udf_type_base(v.type) == UDF_TY_STR) {
    LLVMValueRef args[4] = {cg_str_mi(c, v.v), cg_str_data(c, v.v), cg_str_len(c, v.v), i.v};
    LLVMValueRef all[6] = {c->err, args[0], args[1], args[2], args[3], cg_out_str(c)};
    cg_check(c, cg_call(c, "nrt_udf_rt_str_getitem", "i:ppplls", all, 6));
    r.v = cg_load_str(c, all[5]);
  } else {
    LLVMValueRef all[4] = {c->err, v.v, i.v, cg_out_str(c)};
    cg_check(c, cg_call(c, "nrt_udf_rt_list_getitem", "i:ppls", all, 4));
    r.v = cg_load_str(c, all[3]);
    if (udf_type_base(v.type) == UDF_TY_LIST) { /* a number: nothing to release */
      cg_release(c, v);
      return cg_nlist_unbox(c, r.v, e->type);
    }
  }
  r.type = UDF_TY_STR;
  cg_push_temp(c, &r);
  cg_release(c, v);
  return r;
}

static cg_val slice(cg *c, const udf_expr *e) {
  cg_val v = cg_expr(c, e->u.slice.value);
  cg_val k1, k2;
  LLVMValueRef lo = cg_opt_index(c, e->u.slice.lower, &k1);
  LLVMValueRef hi = cg_opt_index(c, e->u.slice.upper, &k2);
  LLVMValueRef st = e->u.slice.step && e->u.slice.step->kind != UDF_E_NONE
                        ? cg_expr(c, e->u.slice.step).v
                        : cg_i64(c, 1);
  cg_val r;
  if (udf_type_base(v.type) == UDF_TY_STR) {
    LLVMValueRef all[8] = {c->err, cg_str_mi(c, v.v), cg_str_data(c, v.v), cg_str_len(c, v.v),
                           lo, hi, st, cg_out_str(c)};
    cg_check(c, cg_call(c, "nrt_udf_rt_str_slice", "i:ppplllls", all, 8));
    r.v = cg_load_str(c, all[7]);
    r.type = UDF_TY_STR;
    cg_push_temp(c, &r);
  } else {
    LLVMValueRef args[4] = {v.v, lo, hi, st};
    r = cg_rt_list(c, "nrt_udf_rt_list_slice", "i:pplllq", args, 4, e->type);
  }
  cg_release(c, v);
  return r;
}

cg_val cg_list_from_values(cg *c, cg_val *items, int n, udf_type type) {
  LLVMValueRef cap = cg_i64(c, n);
  cg_val list = cg_rt_list(c, "nrt_udf_rt_list_new", "i:plq", &cap, 1, type);
  for (int i = 0; i < n; i++) {
    int mark = cg_scratch_mark(c);
    LLVMValueRef args[3] = {c->err, list.v, cg_item_ptr(c, items[i])};
    cg_check(c, cg_call(c, "nrt_udf_rt_list_append", "i:pps", args, 3));
    cg_scratch_release(c, mark);
  }
  return list;
}

static cg_val display(cg *c, const udf_expr *e) {
  int n = e->u.seq.n;
  cg_val items[256];
  if (n > 256) {
    cg_fail(c, "list display of more than 256 items");
    n = 256;
  }
  for (int i = 0; i < n; i++)
    items[i] = cg_expr(c, e->u.seq.items[i]);
  cg_val list = cg_list_from_values(c, items, n, udf_type_base(e->type));
  for (int i = n - 1; i >= 0; i--)
    cg_release(c, items[i]);
  return list;
}

/* The for clauses of comprehension e from clause `level` inward, with their ifs; at the
 * innermost level, inner(c, e, acc) adds the current item(s) to the result acc. */
static void comp_level(cg *c, const udf_expr *e, int level, cg_comp_inner_fn inner,
                       cg_val acc) {
  if (level == e->u.comp.ngens) {
    inner(c, e, acc);
    return;
  }
  const udf_comp_for *g = &e->u.comp.gens[level];
  cg_for it;
  cg_for_begin(c, &it, g->iter, g->target, g->unpack);
  cg_for_next(c, &it);
  for (int i = 0; i < g->nifs; i++) {
    LLVMValueRef cond = cg_expr(c, g->ifs[i]).v;
    LLVMBasicBlockRef pass = cg_block(c, "comp.if");
    LLVMBuildCondBr(c->b, cond, pass, it.next);
    cg_at(c, pass);
  }
  comp_level(c, e, level + 1, inner, acc);
  cg_goto(c, it.next);
  cg_at(c, it.next);
  LLVMBuildBr(c->b, it.head);
  cg_at(c, it.done);
  cg_for_release(c, &it, true);
  /* it.body..it.next are closed; it.done continues. */
}

void cg_comp_loops(cg *c, const udf_expr *e, cg_comp_inner_fn inner, cg_val acc) {
  comp_level(c, e, 0, inner, acc);
}

/* A list comprehension's innermost step: the element appended to the list. */
static void list_append_elt(cg *c, const udf_expr *e, cg_val list) {
  cg_val v = cg_expr(c, e->u.comp.elt);
  LLVMValueRef args[3] = {c->err, list.v, cg_item_ptr(c, v)};
  cg_check(c, cg_call(c, "nrt_udf_rt_list_append", "i:pps", args, 3));
  cg_release(c, v);
}

static cg_val comprehension(cg *c, const udf_expr *e) {
  LLVMValueRef cap = cg_i64(c, 0);
  cg_val list = cg_rt_list(c, "nrt_udf_rt_list_new", "i:plq", &cap, 1, e->type);
  cg_comp_loops(c, e, list_append_elt, list);
  return list;
}

/* ------------------------------------------------------------------ dispatch */

static cg_val expr_value(cg *c, const udf_expr *e);

/* An expression's value is an SSA value, never a scratch slot: the slots its evaluation
 * borrowed are free again once it is done. */
cg_val cg_expr(cg *c, const udf_expr *e) {
  int mark = cg_scratch_mark(c);
  cg_val v = expr_value(c, e);
  cg_scratch_release(c, mark);
  return v;
}

static cg_val expr_value(cg *c, const udf_expr *e) {
  cg_val v = {NULL, e->type, false};
  if (c->failed) {
    v.v = LLVMGetUndef(cg_llty(c, e->type));
    return v;
  }
  switch (e->kind) {
  case UDF_E_NONE: v.v = LLVMConstInt(c->i1, 0, 0); v.type = UDF_TY_NONE; return v;
  case UDF_E_BOOL: v.v = LLVMConstInt(c->i1, e->u.bval ? 1 : 0, 0); return v;
  case UDF_E_INT: v.v = cg_i64(c, e->u.ival); return v;
  case UDF_E_FLOAT: v.v = LLVMConstReal(c->f64, e->u.fval); return v;
  case UDF_E_STR: v.v = cg_str_lit(c, e->u.str.data, e->u.str.len); return v;
  case UDF_E_NAME:
    return cg_read_var(c, e->u.name.var, e->u.name.check_bound, e->loc);
  case UDF_E_UNARY: return unary(c, e);
  case UDF_E_BINARY: return binary(c, e);
  case UDF_E_BOOLOP: return boolop(c, e);
  case UDF_E_COMPARE: return compare(c, e);
  case UDF_E_IFEXP: return ifexp(c, e);
  case UDF_E_CALL:
  case UDF_E_FSTRING: return cg_call_expr(c, e);
  case UDF_E_SUBSCRIPT:
    if (udf_type_base(e->u.subscript.value->type) == UDF_TY_DICT) return cg_dict_getitem(c, e);
    return subscript(c, e);
  case UDF_E_DICT:
  case UDF_E_SET:
  case UDF_E_DICTCOMP:
  case UDF_E_SETCOMP: return cg_dict_expr(c, e);
  case UDF_E_SLICE: return slice(c, e);
  case UDF_E_LIST:
  case UDF_E_TUPLE:
    if (udf_type_base(e->type) == UDF_TY_TUPLE) {
      cg_fail(c, "a mixed tuple can only be unpacked");
      v.v = LLVMGetUndef(c->ptr);
      return v;
    }
    return display(c, e);
  case UDF_E_LISTCOMP:
  case UDF_E_GENEXP: return comprehension(c, e);
  case UDF_E_CAST: {
    cg_val o = cg_expr(c, e->u.cast.operand);
    udf_type from = udf_type_base(o.type), to = udf_type_base(e->type);
    if (from == UDF_TY_BOOL && to == UDF_TY_INT)
      v.v = LLVMBuildZExt(c->b, o.v, c->i64, "");
    else if (from == UDF_TY_BOOL && to == UDF_TY_FLOAT)
      v.v = LLVMBuildUIToFP(c->b, o.v, c->f64, "");
    else if (from == UDF_TY_INT && to == UDF_TY_FLOAT)
      v.v = LLVMBuildSIToFP(c->b, o.v, c->f64, "");
    else if (udf_type_is_nullable(o.type) && !udf_type_is_nullable(e->type) &&
             (to == UDF_TY_INT || to == UDF_TY_FLOAT || to == UDF_TY_BOOL))
      v.v = LLVMBuildExtractValue(c->b, o.v, 0, "value"); /* narrowed: known not None */
    else
      v = cg_coerce(c, o, e->type);
    return v;
  }
  case UDF_E_TRUTH: {
    cg_val o = cg_expr(c, e->u.truth.operand);
    v.v = cg_truth(c, o);
    v.type = UDF_TY_BOOL;
    cg_release(c, o);
    return v;
  }
  case UDF_E_NAMED: {
    v = cg_expr(c, e->u.named.value);
    cg_bind(c, e->u.named.target->u.name.var, v);
    return v;
  }
  case UDF_E_ATTRIBUTE:
  default:
    cg_fail(c, "unsupported expression");
    v.v = LLVMGetUndef(cg_llty(c, e->type));
    return v;
  }
}

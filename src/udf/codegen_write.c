/* The write form of a string result (codegen.h): `return e` writes e's bytes straight into
 * the output column's row writer instead of making a result string.
 *
 * A concatenation writes its operands one after the other, a conditional expression writes
 * the branch taken, a literal is copied, a case mapping (upper, lower, casefold, capitalize,
 * title, swapcase) runs its kernel into the row, an f-string writes its pieces (numbers and
 * padded strings formatted in place), replace() and sep.join(s.split(old)) write the
 * replaced text, sep.join(xs) of a list of str writes the items and separators, and str(s)
 * of a str writes s. Any other expression is evaluated as usual and its bytes copied. So
 * `s.upper() + 'abc'` makes no string at all, where the value form makes two. Each write
 * checks the room inline and calls the runtime only to grow it. Python's evaluation order
 * is kept (left operand before right); an error midway leaves a partly written row, which
 * apply drops.
 * A None result (a None branch, a nullable value that is None) ends the row as null:
 * status NRT_EXEC_ROW_NULL, after releasing the live temporaries. */
#include <string.h>

#include "nrt/exec.h"
#include "nrt/str.h"
#include "udf/codegen_internal.h"
#include "udf/runtime.h"

/* Leaves the function with a null row. */
static void leave_null(cg *c) {
  cg_release_temps_above(c, 0);
  cg_leave(c, cg_i32(c, NRT_EXEC_ROW_NULL));
  cg_at(c, cg_block(c, "after.none"));
}

/* Room for size << shift bytes at the writer's position: checked inline (the room is there
 * almost always), grown by the runtime otherwise. Returns the position (reloaded after a
 * growth, which may move the row) and its slot in *posp. (A shift instead of multiplying
 * size: no overflow in the check.) */
static LLVMValueRef reserve(cg *c, LLVMValueRef size, unsigned shift, LLVMValueRef *posp) {
  LLVMTypeRef pp = LLVMPointerType(c->ptr, 0);
  *posp = LLVMBuildBitCast(c->b, c->writer, pp, "w.posp"); /* pos at 0, end at 8 */
  LLVMValueRef eight = cg_i64(c, 8);
  LLVMValueRef endp = LLVMBuildBitCast(
      c->b, LLVMBuildGEP2(c->b, c->i8, c->writer, &eight, 1, ""), pp, "w.endp");
  LLVMValueRef pos = LLVMBuildLoad2(c->b, c->ptr, *posp, "w.pos");
  LLVMValueRef end = LLVMBuildLoad2(c->b, c->ptr, endp, "w.end");
  LLVMValueRef room = LLVMBuildSub(c->b, LLVMBuildPtrToInt(c->b, end, c->i64, ""),
                                   LLVMBuildPtrToInt(c->b, pos, c->i64, ""), "w.room");
  if (shift)
    room = LLVMBuildLShr(c->b, room, cg_i64(c, shift), "");
  LLVMBasicBlockRef grow = cg_block(c, "w.grow"), ready = cg_block(c, "w.ready");
  LLVMBasicBlockRef fast = LLVMGetInsertBlock(c->b);
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntUGE, room, size, ""), ready, grow);
  cg_at(c, grow);
  LLVMValueRef args[4] = {c->err, c->writer, size, cg_i32(c, (int)shift)};
  cg_check(c, cg_call(c, "nrt_udf_rt_write_room", "i:ppli", args, 4));
  /* The position after a growth is reloaded on the growth path itself: a reload after the
   * join would be partly redundant, and GVN's load PRE would split the growth path's edge to
   * the exit at every write (each split renumbering the whole function). */
  LLVMValueRef grown = LLVMBuildLoad2(c->b, c->ptr, *posp, "w.pos");
  LLVMBasicBlockRef grown_bb = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, ready);
  cg_at(c, ready);
  return cg_phi2(c, c->ptr, "w.pos", pos, fast, grown, grown_bb);
}

/* The row's position moves past n bytes written at pos. */
static void advance(cg *c, LLVMValueRef posp, LLVMValueRef pos, LLVMValueRef n) {
  LLVMBuildStore(c->b, LLVMBuildGEP2(c->b, c->i8, pos, &n, 1, ""), posp);
}

/* Copies len bytes from data into the row (a literal's constant size becomes a few moves).
 * The position moves first: after the copy, which might write anywhere as far as LLVM knows,
 * the next write reloads it. Forwarded from write to write instead, the positions would form
 * one chain of phis and GEPs through the whole function, which the SLP vectoriser walks back
 * from every comparison (quadratic in the writes). */
static void write_bytes(cg *c, LLVMValueRef data, LLVMValueRef len) {
  LLVMValueRef posp, pos = reserve(c, len, 0, &posp);
  advance(c, posp, pos, len);
  LLVMValueRef margs[4] = {pos, data, len, LLVMConstInt(c->i1, 0, 0)};
  LLVMTypeRef mt[4] = {c->ptr, c->ptr, c->i64, c->i1};
  cg_intrinsic(c, "llvm.memcpy.p0i8.p0i8.i64", c->voidt, mt, 4, margs, 4);
}

static void write_literal(cg *c, const udf_strlit *lit) {
  if (lit->len > 0)
    write_bytes(c, cg_cstr(c, lit->data, (size_t)lit->len), cg_i64(c, lit->len));
}

/* The _into_padded kernel of a case mapping method of the str receiver, or NULL. */
static const char *case_kernel(const udf_expr *e) {
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_METHOD)
    return NULL;
  switch (e->u.call.method) {
  case UDF_M_UPPER: return "nrt_str_upper_into_padded";
  case UDF_M_LOWER: return "nrt_str_lower_into_padded";
  case UDF_M_CASEFOLD: return "nrt_str_casefold_into_padded";
  case UDF_M_CAPITALIZE: return "nrt_str_capitalize_into_padded";
  case UDF_M_TITLE: return "nrt_str_title_into_padded";
  case UDF_M_SWAPCASE: return "nrt_str_swapcase_into_padded";
  default: return NULL;
  }
}

/* Writes a value: its bytes, or a null row for None. Releases it. */
static void write_value(cg *c, cg_val v) {
  if (udf_type_is_nullable(v.type)) {
    LLVMBasicBlockRef none = cg_block(c, "write.none"), some = cg_block(c, "write.some");
    LLVMBuildCondBr(c->b, LLVMBuildIsNull(c->b, cg_str_data(c, v.v), ""), none, some);
    cg_at(c, none);
    leave_null(c);
    cg_goto(c, some);
    cg_at(c, some);
  }
  write_bytes(c, cg_str_data(c, v.v), cg_str_len(c, v.v));
  cg_release(c, v);
}

void cg_write_value(cg *c, cg_val v) { write_value(c, v); }

/* A private constant holding the bytes of a plain-data struct built at compile time (a
 * parsed format spec), 8-byte aligned; returns an i8* to it. */
static LLVMValueRef embed(cg *c, const void *bytes, size_t n) {
  LLVMValueRef init = LLVMConstStringInContext(c->ctx, (const char *)bytes, (unsigned)n, 1);
  LLVMValueRef g = LLVMAddGlobal(c->mod, LLVMTypeOf(init), "spec");
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetAlignment(g, 8);
  return LLVMConstBitCast(g, c->ptr);
}

/* A padded field's fast path called from the code (runtime_write_fast.c: `fast` takes the
 * arguments but err and says whether it wrote), the general runtime (`slow`, a status,
 * checked) only where it declines. */
static void write_fast_or(cg *c, const char *fast, const char *fast_sig, const char *slow,
                          const char *slow_sig, LLVMValueRef *args, int n) {
  LLVMValueRef wrote = cg_call(c, fast, fast_sig, args + 1, n - 1);
  LLVMValueRef hint[2] = {LLVMBuildICmp(c->b, LLVMIntNE, wrote, LLVMConstInt(c->i8, 0, 0), ""),
                          LLVMConstInt(c->i1, 1, 0)};
  LLVMTypeRef pt[2] = {c->i1, c->i1};
  LLVMBasicBlockRef general = cg_block(c, "field.general"), done = cg_block(c, "field.done");
  LLVMBuildCondBr(c->b, cg_intrinsic(c, "llvm.expect.i1", c->i1, pt, 2, hint, 2), done, general);
  cg_at(c, general);
  cg_check(c, cg_call(c, slow, slow_sig, args, n));
  cg_goto(c, done);
  cg_at(c, done);
}

/* An f-string field: numbers and padded strings are formatted straight into the row; the
 * conversions (!r !a !s) and bools go through their text. */
static void write_field(cg *c, const udf_fpart *p, cg_len_memo *memo) {
  if (p->conversion == 0 && p->spec.len == 0 && cg_write_format_builtin(c, p->expr))
    return; /* repr(xs), s.translate(t): written in place */
  udf_type t = udf_type_base(p->expr->type);
  bool plain = (p->conversion == 0 || (p->conversion == 's' && t == UDF_TY_STR)) &&
               (t == UDF_TY_INT || t == UDF_TY_FLOAT || t == UDF_TY_STR); /* str(s) is s */
  if (!plain) {
    write_value(c, cg_format_field(c, p));
    return;
  }
  cg_val v = cg_len_memo_expr(c, memo, p->expr);
  if (t == UDF_TY_STR && p->spec.len == 0) {
    write_value(c, v);
    return;
  }
  /* A spec Python accepts is parsed here, once: its parsed form is embedded in the code. A
   * bad one is left to the runtime, which raises Python's ValueError when the row runs. */
  const char *text = p->spec.data ? p->spec.data : "";
  if (t == UDF_TY_STR) {
    struct nrt_udf_str_spec f;
    memset(&f, 0, sizeof f); /* its padding too: the bytes are embedded */
    if (nrt_udf_parse_str_spec(text, p->spec.len, &f, NULL) == NRT_OK) {
      bool count = cg_len_memo_wanted(memo); /* the call also gives the count, for len() */
      LLVMValueRef chars = count ? cg_alloca(c, c->i64, "chars")
                                 : LLVMConstNull(LLVMPointerType(c->i64, 0));
      LLVMValueRef args[6] = {c->err, c->writer, cg_str_data(c, v.v), cg_str_len(c, v.v),
                              chars, embed(c, &f, sizeof f)};
      write_fast_or(c, "nrt_udf_write_str_fast", "b:pplLp", "nrt_udf_rt_write_str_spec_n",
                    "i:ppplLp", args, 6);
      if (count)
        cg_len_memo_record(memo, LLVMBuildLoad2(c->b, c->i64, chars, "chars"));
      cg_release(c, v);
      return;
    }
  } else {
    nrt_format_spec f;
    memset(&f, 0, sizeof f);
    if (nrt_format_spec_parse(text, p->spec.len, t == UDF_TY_INT ? NRT_FORMAT_INT
                                                                   : NRT_FORMAT_FLOAT,
                              &f, NULL) == NRT_OK) {
      LLVMValueRef args[4] = {c->err, c->writer, v.v, embed(c, &f, sizeof f)};
      if (t == UDF_TY_INT)
        write_fast_or(c, "nrt_udf_write_int_fast", "b:plp", "nrt_udf_rt_write_int_spec",
                      "i:pplp", args, 4);
      else
        cg_check(c, cg_call(c, "nrt_udf_rt_write_float_spec", "i:ppdp", args, 4));
      return;
    }
  }
  LLVMValueRef spec = cg_cstr(c, text, (size_t)p->spec.len);
  LLVMValueRef speclen = cg_i64(c, p->spec.len);
  if (t == UDF_TY_STR) {
    LLVMValueRef args[6] = {c->err, c->writer, cg_str_data(c, v.v), cg_str_len(c, v.v), spec,
                            speclen};
    cg_check(c, cg_call(c, "nrt_udf_rt_write_format_str", "i:ppplpl", args, 6));
    cg_release(c, v);
    return;
  }
  LLVMValueRef args[4] = {c->err, c->writer, v.v, spec};
  LLVMValueRef all[5] = {args[0], args[1], args[2], args[3], speclen};
  cg_check(c, t == UDF_TY_INT ? cg_call(c, "nrt_udf_rt_write_int", "i:pplpl", all, 5)
                              : cg_call(c, "nrt_udf_rt_write_float", "i:ppdpl", all, 5));
}

/* s.replace(old, new[, count]), and sep.join(s.split(old)) (== s.replace(old, sep) for a
 * separator given as a str, without maxsplit), written in place. Returns false for other
 * calls. Operands are evaluated in Python's order. */
static bool write_replace(cg *c, const udf_expr *e) {
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_METHOD)
    return false;
  const udf_expr *s_e, *old_e, *new_e, *count_e = NULL;
  bool split_join = false;
  if (e->u.call.method == UDF_M_REPLACE) {
    s_e = e->u.call.receiver;
    old_e = e->u.call.cargs[0];
    new_e = e->u.call.cargs[1];
    count_e = e->u.call.ncargs > 2 ? e->u.call.cargs[2] : NULL;
  } else if (e->u.call.method == UDF_M_JOIN) {
    const udf_expr *split = e->u.call.cargs[0];
    if (split->kind != UDF_E_CALL || split->u.call.ckind != UDF_CALL_METHOD ||
        split->u.call.method != UDF_M_SPLIT || split->u.call.ncargs < 1 ||
        !split->u.call.cargs[0] || split->u.call.cargs[0]->type != UDF_TY_STR ||
        (split->u.call.ncargs > 1 && split->u.call.cargs[1]))
      return false;
    new_e = e->u.call.receiver; /* the joining separator, evaluated first */
    s_e = split->u.call.receiver;
    old_e = split->u.call.cargs[0];
    split_join = true;
  } else {
    return false;
  }
  cg_val first = cg_expr(c, split_join ? new_e : s_e);
  cg_val second = cg_expr(c, split_join ? s_e : old_e);
  cg_val third = cg_expr(c, split_join ? old_e : new_e);
  cg_val s = split_join ? second : first, old = split_join ? third : second,
         repl = split_join ? first : third;
  LLVMValueRef count = cg_i64(c, -1);
  if (count_e && count_e->kind != UDF_E_NONE)
    count = cg_expr(c, count_e).v;
  LLVMValueRef args[7] = {c->err, c->writer, cg_spill(c, s.v), cg_spill(c, old.v),
                          cg_spill(c, repl.v), count, cg_i32(c, split_join)};
  cg_check(c, cg_call(c, "nrt_udf_rt_write_replace", "i:ppsssli", args, 7));
  cg_release(c, third);
  cg_release(c, second);
  cg_release(c, first);
  return true;
}

/* sep.join(xs) of a list or tuple of str, written in place (the separator evaluated first,
 * as Python does). Returns false for other calls. */
static bool write_join(cg *c, const udf_expr *e) {
  if (e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_METHOD ||
      e->u.call.method != UDF_M_JOIN || e->u.call.ncargs != 1)
    return false;
  const udf_expr *x = e->u.call.cargs[0];
  if (x->type != UDF_TY_LIST_STR && x->type != UDF_TY_TUPLE_STR)
    return false;
  if (x->kind == UDF_E_CALL && x->u.call.ckind == UDF_CALL_METHOD &&
      x->u.call.method == UDF_M_SPLIT &&
      (x->u.call.ncargs == 0 || !x->u.call.cargs[0] || x->u.call.cargs[0]->kind == UDF_E_NONE) &&
      (x->u.call.ncargs < 2 || !x->u.call.cargs[1]))
    return false; /* sep.join(s.split()): the words joined without a list (codegen_call.c) */
  bool reverse;
  const udf_expr *split = cg_sorted_split_len(x, &reverse);
  if (split && split->u.call.receiver->type == UDF_TY_STR &&
      (split->u.call.ncargs == 0 || !split->u.call.cargs[0] ||
       split->u.call.cargs[0]->kind == UDF_E_NONE) &&
      (split->u.call.ncargs < 2 || !split->u.call.cargs[1])) {
    /* sep.join(sorted(s.split(), key=len)): the words sorted and written, no list */
    cg_val sep = cg_expr(c, e->u.call.receiver);
    cg_val s = cg_expr(c, split->u.call.receiver);
    LLVMValueRef args[5] = {c->err, c->writer, cg_spill(c, sep.v), cg_spill(c, s.v),
                            cg_i32(c, reverse)};
    cg_check(c, cg_call(c, "nrt_udf_rt_write_join_sorted_words", "i:ppssi", args, 5));
    cg_release(c, s);
    cg_release(c, sep);
    return true;
  }
  cg_val sep = cg_expr(c, e->u.call.receiver);
  cg_val xs = cg_expr(c, e->u.call.cargs[0]);
  LLVMValueRef args[4] = {c->err, c->writer, cg_spill(c, sep.v), xs.v};
  cg_check(c, cg_call(c, "nrt_udf_rt_write_join", "i:ppsp", args, 4));
  cg_release(c, xs);
  cg_release(c, sep);
  return true;
}

/* The string a substring step takes its range of, when e is one (strip, lstrip or rstrip,
 * a slice of step 1, s.partition(sep)[k] or s.rpartition(sep)[k]), else NULL. */
static const udf_expr *substring_of(const udf_expr *e) {
  const udf_expr *x;
  if (e->kind == UDF_E_SLICE) {
    const udf_expr *st = e->u.slice.step;
    if (st && st->kind != UDF_E_NONE && !(st->kind == UDF_E_INT && st->u.ival == 1))
      return NULL;
    x = e->u.slice.value;
  } else if (e->kind == UDF_E_CALL && e->u.call.ckind == UDF_CALL_METHOD &&
             (e->u.call.method == UDF_M_STRIP || e->u.call.method == UDF_M_LSTRIP ||
              e->u.call.method == UDF_M_RSTRIP)) {
    x = e->u.call.receiver;
  } else if (e->kind == UDF_E_SUBSCRIPT && cg_partition_index(e) >= 0) {
    x = e->u.subscript.value->u.call.receiver;
  } else {
    return NULL;
  }
  return x->type == UDF_TY_STR ? x : NULL; /* a str, not a nullable one or a list */
}

/* s.partition(c)[k] of a one-byte literal c: memchr, called straight from the row function
 * (the separator of a row's split, such as '@', is found in a few cycles), and the item's
 * range [*b, *e) chosen from where it found c. */
static void partition_byte(cg *c, int item, unsigned char sep, LLVMValueRef data,
                           LLVMValueRef len, LLVMValueRef *b, LLVMValueRef *e) {
  LLVMValueRef at_p = cg_memchr(c, data, len, sep);
  LLVMValueRef found = LLVMBuildIsNotNull(c->b, at_p, "part.found");
  LLVMValueRef at = LLVMBuildSub(c->b, LLVMBuildPtrToInt(c->b, at_p, c->i64, ""),
                                 LLVMBuildPtrToInt(c->b, data, c->i64, ""), "part.at");
  LLVMValueRef after = LLVMBuildAdd(c->b, at, cg_i64(c, 1), ""), zero = cg_i64(c, 0);
  /* Not found: (s, '', '') */
  LLVMValueRef bs[3] = {zero, at, after}, es[3] = {at, after, len}, none[3] = {len, zero, zero};
  *b = item == 0 ? zero : LLVMBuildSelect(c->b, found, bs[item], zero, "part.b");
  *e = LLVMBuildSelect(c->b, found, es[item], none[item], "part.e");
}

/* A substring step: the range [*b, *e) of the bytes (data, len), its arguments evaluated
 * first. from and to: scratch for the runtime's answers. */
static void substring_step(cg *c, const udf_expr *step, LLVMValueRef data, LLVMValueRef len,
                           LLVMValueRef from, LLVMValueRef to, LLVMValueRef *b,
                           LLVMValueRef *e) {
  cg_val keep = {NULL, UDF_TY_NONE, false};
  if (step->kind == UDF_E_SLICE) {
    cg_val k2;
    LLVMValueRef lo = cg_opt_index(c, step->u.slice.lower, &keep);
    LLVMValueRef hi = cg_opt_index(c, step->u.slice.upper, &k2);
    LLVMValueRef args[6] = {data, len, lo, hi, from, to};
    cg_call(c, "nrt_str_slice_range", "v:plllLL", args, 6);
  } else if (step->kind == UDF_E_SUBSCRIPT) {
    const udf_expr *call = step->u.subscript.value, *sep = call->u.call.cargs[0];
    bool reverse = call->u.call.method == UDF_M_RPARTITION;
    if (!reverse && sep->kind == UDF_E_STR && sep->u.str.len == 1) {
      partition_byte(c, cg_partition_index(step), (unsigned char)sep->u.str.data[0], data, len,
                     b, e);
      return;
    }
    keep = cg_expr(c, sep);
    LLVMValueRef args[9] = {c->err,
                            data,
                            len,
                            cg_str_data(c, keep.v),
                            cg_str_len(c, keep.v),
                            cg_i32(c, reverse),
                            cg_i32(c, cg_partition_index(step)),
                            from,
                            to};
    cg_check(c, cg_call(c, "nrt_udf_rt_partition_range", "i:pplpliiLL", args, 9));
    cg_release(c, keep);
  } else {
    udf_method m = step->u.call.method;
    const udf_expr *chars = step->u.call.ncargs > 0 ? step->u.call.cargs[0] : NULL;
    LLVMValueRef cd = LLVMConstNull(c->ptr), cl = cg_i64(c, 0);
    if (chars && chars->kind != UDF_E_NONE) { /* a None value has no bytes: whitespace */
      keep = cg_expr(c, chars);
      cd = cg_str_data(c, keep.v);
      cl = cg_str_len(c, keep.v);
    }
    int side = m == UDF_M_STRIP ? NRT_STRIP_BOTH : m == UDF_M_LSTRIP ? NRT_STRIP_LEFT
                                                                    : NRT_STRIP_RIGHT;
    LLVMValueRef args[7] = {data, len, cd, cl, cg_i32(c, side), from, to};
    cg_call(c, "nrt_str_strip_range", "v:plpliLL", args, 7);
    cg_release(c, keep);
  }
  *b = LLVMBuildLoad2(c->b, c->i64, from, "sub.b");
  *e = LLVMBuildLoad2(c->b, c->i64, to, "sub.e");
}

/* A chain of substring steps over a base, `s.replace('-', '').strip()[:10]` or
 * `s.partition('@')[2]`: evaluates the base into *base (to release after its bytes are
 * used) and narrows a range of its bytes step by step into (*data, *len). No string is made
 * for any step, where the value form copies a substring of each new string. Each step's
 * arguments are evaluated after the steps before it, as in Python. False (nothing emitted)
 * when e is no substring step. */
static bool substring_range(cg *c, const udf_expr *e, cg_val *base, LLVMValueRef *data,
                            LLVMValueRef *len) {
  enum { MAX_STEPS = 16 };
  const udf_expr *steps[MAX_STEPS];
  int n = 0;
  for (const udf_expr *x; n < MAX_STEPS && (x = substring_of(e)); e = x)
    steps[n++] = e;
  if (n == 0)
    return false;
  *base = cg_expr(c, e);
  LLVMValueRef d = cg_str_data(c, base->v), l = cg_str_len(c, base->v);
  LLVMValueRef from = cg_scratch(c, c->i64, "sub.from"), to = cg_scratch(c, c->i64, "sub.to");
  while (n-- > 0 && !c->failed) {
    LLVMValueRef b, end;
    substring_step(c, steps[n], d, l, from, to, &b, &end);
    d = LLVMBuildGEP2(c->b, c->i8, d, &b, 1, "sub.data");
    l = LLVMBuildSub(c->b, end, b, "sub.len");
  }
  *data = d;
  *len = l;
  return true;
}

/* A substring chain's bytes written straight from its base. */
static bool write_substring(cg *c, const udf_expr *e) {
  cg_val base;
  LLVMValueRef data, len;
  if (!substring_range(c, e, &base, &data, &len))
    return false;
  write_bytes(c, data, len);
  cg_release(c, base);
  return true;
}

void cg_write(cg *c, const udf_expr *e) {
  if (c->failed)
    return;
  if (c->fwd_var && e->kind == UDF_E_NAME && e->u.name.var == c->fwd_var) {
    const udf_expr *value = c->fwd_value; /* the variable's only use: its value instead */
    c->fwd_var = NULL;
    cg_write(c, value);
    return;
  }
  const char *kernel = case_kernel(e);
  if (kernel) {
    /* The padded kernel straight into the room: a case mapping at most triples the bytes,
     * plus the kernel's padding; room for 4 * (len + 2) is asked (as a shift). */
    _Static_assert(NRT_STR_CASE_MAX_GROWTH <= 4 && NRT_STR_CASE_PADDING <= 8,
                   "room is checked for 4 bytes per byte and 8 more");
    cg_val s; /* the receiver, or the base of a receiver that is a substring chain */
    LLVMValueRef data, len;
    if (!substring_range(c, e->u.call.receiver, &s, &data, &len)) {
      s = cg_expr(c, e->u.call.receiver);
      data = cg_str_data(c, s.v);
      len = cg_str_len(c, s.v);
    }
    /* An empty string maps to nothing: no room, no call (s.partition(sep)[2].lower() of a row
     * without sep, a stripped blank row). */
    LLVMBasicBlockRef map = cg_block(c, "case.map"), done = cg_block(c, "case.done");
    LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, len, cg_i64(c, 0), ""), done, map);
    cg_at(c, map);
    LLVMValueRef posp, pos = reserve(c, LLVMBuildAdd(c->b, len, cg_i64(c, 2), ""), 2, &posp);
    LLVMValueRef kargs[3] = {data, len, pos};
    advance(c, posp, pos, cg_call(c, kernel, "l:plp", kargs, 3));
    cg_goto(c, done);
    cg_at(c, done);
    cg_release(c, s);
    return;
  }
  if (write_replace(c, e) || write_join(c, e) || write_substring(c, e) ||
      cg_write_format_builtin(c, e))
    return;
  switch (e->kind) {
  case UDF_E_NONE:
    leave_null(c);
    return;
  case UDF_E_FSTRING: {
    cg_len_memo memo = {.fstring = e, .n = 0};
    for (int i = 0; i < e->u.fstring.nparts && !c->failed; i++) {
      const udf_fpart *p = &e->u.fstring.parts[i];
      memo.at = i;
      if (p->is_field)
        write_field(c, p, &memo);
      else
        write_literal(c, &p->text);
    }
    return;
  }
  case UDF_E_STR:
    write_literal(c, &e->u.str);
    return;
  case UDF_E_BINARY:
    if (e->u.binary.op == UDF_OP_ADD && udf_type_base(e->type) == UDF_TY_STR) {
      cg_write(c, e->u.binary.left);
      cg_write(c, e->u.binary.right);
      return;
    }
    break;
  case UDF_E_IFEXP: {
    LLVMValueRef test = cg_expr(c, e->u.ifexp.test).v;
    LLVMBasicBlockRef yes = cg_block(c, "wifexp.then"), no = cg_block(c, "wifexp.else"),
                      end = cg_block(c, "wifexp.end");
    LLVMBuildCondBr(c->b, test, yes, no);
    cg_at(c, yes);
    cg_write(c, e->u.ifexp.body);
    cg_goto(c, end);
    cg_at(c, no);
    cg_write(c, e->u.ifexp.orelse);
    cg_goto(c, end);
    cg_at(c, end);
    return;
  }
  case UDF_E_CALL:
    /* str(s) of a str is s itself. */
    if (e->u.call.ckind == UDF_CALL_BUILTIN && e->u.call.builtin == UDF_BI_STR &&
        e->u.call.ncargs == 1 && udf_type_base(e->u.call.cargs[0]->type) == UDF_TY_STR) {
      cg_write(c, e->u.call.cargs[0]);
      return;
    }
    break;
  default:
    break;
  }
  write_value(c, cg_expr(c, e));
}

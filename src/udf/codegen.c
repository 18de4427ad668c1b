/* Lowering of a checked UDF module to LLVM IR: functions, variables, statements, loops and
 * the row-function wrapper (see codegen.h for the representation and the refcount rule). */
#include <stdio.h>
#include <string.h>

#include "nrt/exec.h"
#include "nrt/str.h"
#include "udf/codegen_internal.h"
#include "udf/result_kind.h"
#include "udf/types_re.h"

/* ------------------------------------------------------------------ variables */

/* The address of frame slot k, computed where it is used. Computed once in the entry, every
 * slot's address would be a value live through the whole function (quadratic for the
 * register allocator); as a canonical GEP of the alloca (InstCombine leaves it alone: a GEP
 * it rewrites requeues the alloca, whose visit walks all its uses) without inbounds (EarlyCSE
 * merging GEPs that have it walks the users of the one kept). */
static LLVMValueRef frame_slot_ptr(cg *c, int k) {
  LLVMValueRef idx[2] = {cg_i64(c, 0), cg_i64(c, k)};
  return LLVMBuildGEP2(c->b, c->frame_type, c->frame, idx, 2, "");
}

LLVMValueRef cg_frame_slot_ptr(cg *c, int k) { return frame_slot_ptr(c, k); }

LLVMValueRef cg_null_value(cg *c, udf_type t) {
  /* str: data NULL; list: NULL MemInfo; scalars: present flag 0. All zero. */
  return LLVMConstNull(cg_llty(c, t));
}

void cg_bind(cg *c, const udf_var *var, cg_val v) {
  v = cg_coerce(c, v, var->type);
  if (c->ssa[var->index]) { /* its one binding: nothing bound before */
    cg_incref(c, v);
    c->ssa_val[var->index] = v.v;
    if (cg_is_refcounted(var->type))
      LLVMBuildStore(c->b, cg_mi(c, v), frame_slot_ptr(c, c->frame_slot[var->index]));
    return;
  }
  LLVMValueRef slot = c->vars[var->index];
  cg_val old = {NULL, var->type, false};
  if (cg_is_refcounted(var->type)) {
    old.v = LLVMBuildLoad2(c->b, cg_llty(c, var->type), slot, var->name);
    cg_incref(c, v);
  }
  LLVMBuildStore(c->b, v.v, slot);
  if (cg_is_refcounted(var->type)) {
    /* The frame holds what the exits release. */
    LLVMBuildStore(c->b, cg_mi(c, v), frame_slot_ptr(c, c->frame_slot[var->index]));
    cg_decref(c, old);
  }
  if (c->bound[var->index])
    LLVMBuildStore(c->b, LLVMConstInt(c->i1, 1, 0), c->bound[var->index]);
}

void cg_unbind(cg *c, const udf_var *var) {
  if (c->ssa[var->index])
    return; /* never: a name bound by an except clause is not an SSA value */
  LLVMValueRef slot = c->vars[var->index];
  if (cg_is_refcounted(var->type)) {
    cg_val old = {LLVMBuildLoad2(c->b, cg_llty(c, var->type), slot, var->name), var->type,
                  false};
    LLVMBuildStore(c->b, LLVMConstNull(cg_llty(c, var->type)), slot);
    LLVMBuildStore(c->b, cg_null(c), frame_slot_ptr(c, c->frame_slot[var->index]));
    cg_decref(c, old);
  }
  if (c->bound[var->index])
    LLVMBuildStore(c->b, LLVMConstInt(c->i1, 0, 0), c->bound[var->index]);
}

cg_val cg_read_var(cg *c, const udf_var *var, bool check_bound, udf_loc loc) {
  (void)loc;
  if (c->ssa[var->index]) {
    /* Not bound yet in emission order: unreachable code (codegen_locals.c). */
    LLVMValueRef val = c->ssa_val[var->index];
    cg_val r = {val ? val : LLVMGetUndef(cg_llty(c, var->type)), var->type, false};
    return r;
  }
  if (check_bound && c->bound[var->index]) {
    LLVMValueRef set = LLVMBuildLoad2(c->b, c->i1, c->bound[var->index], "bound");
    char msg[200];
    snprintf(msg, sizeof msg,
             "cannot access local variable '%s' where it is not associated with a value",
             var->name);
    cg_check_bool_fail(c, LLVMBuildNot(c->b, set, ""), NRT_EUNBOUND, msg);
  }
  cg_val v = {LLVMBuildLoad2(c->b, cg_llty(c, var->type), c->vars[var->index], var->name),
              var->type, false};
  return v;
}

/* ------------------------------------------------------------------ iteration */

/* reversed(range(start, stop, step)): Python's length of the range, counted down; in 128
 * bits, where no difference of two int64 values overflows. */
static void reversed_range(cg *c, cg_iter *it, LLVMValueRef start) {
  LLVMTypeRef i128 = LLVMInt128TypeInContext(c->ctx);
  LLVMValueRef s = LLVMBuildSExt(c->b, start, i128, ""), e = LLVMBuildSExt(c->b, it->stop, i128, "");
  LLVMValueRef t = LLVMBuildSExt(c->b, it->step, i128, ""), one = LLVMConstInt(i128, 1, 0),
               zero = LLVMConstInt(i128, 0, 0);
  LLVMValueRef up = LLVMBuildICmp(c->b, LLVMIntSGT, t, zero, "");
  LLVMValueRef lo = LLVMBuildSelect(c->b, up, s, e, ""), hi = LLVMBuildSelect(c->b, up, e, s, "");
  LLVMValueRef mag = LLVMBuildSelect(c->b, up, t, LLVMBuildNeg(c->b, t, ""), "");
  LLVMValueRef n = LLVMBuildAdd(
      c->b, LLVMBuildSDiv(c->b, LLVMBuildSub(c->b, LLVMBuildSub(c->b, hi, lo, ""), one, ""), mag, ""),
      one, "");
  n = LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntSLT, lo, hi, ""), n, zero, "len");
  it->rstart = s;
  it->rstep = t;
  it->rcount = cg_alloca(c, i128, "rev.left");
  LLVMBuildStore(c->b, n, it->rcount);
}

void cg_iter_setup(cg *c, cg_iter *it, const udf_expr *iter) {
  memset(it, 0, sizeof *it);
  if (cg_dict_iter_setup(c, it, iter))
    return;
  if (udf_type_base(iter->type) == UDF_TY_ITER) { /* reversed(x): x from its end */
    it->reversed = true;
    iter = iter->u.call.cargs[0];
  }
  it->kind = udf_type_base(iter->type);
  it->elem = it->kind == UDF_TY_MATCH ? iter->type & ~(udf_type)UDF_TY_RE_MATCHES /* finditer */
                                      : udf_type_param1(iter->type);
  it->pos = cg_alloca(c, c->i64, "it.pos");
  if (it->kind == UDF_TY_RANGE) {
    /* range(...) is a builtin call with 1 to 3 int arguments. */
    const udf_expr *call = iter;
    LLVMValueRef a[3];
    int n = call->u.call.ncargs;
    for (int i = 0; i < n && i < 3; i++) {
      cg_val v = cg_expr(c, call->u.call.cargs[i]);
      a[i] = v.v;
    }
    LLVMValueRef start = n >= 2 ? a[0] : cg_i64(c, 0);
    it->stop = n >= 2 ? a[1] : a[0];
    it->step = n >= 3 ? a[2] : cg_i64(c, 1);
    if (n >= 3)
      cg_check_bool_fail(c, LLVMBuildICmp(c->b, LLVMIntEQ, it->step, cg_i64(c, 0), ""),
                         NRT_EVALUE, "range() arg 3 must not be zero");
    LLVMBuildStore(c->b, start, it->pos);
    if (it->reversed)
      reversed_range(c, it, start);
  } else {
    /* Python's iterator holds a reference to the iterable for the whole loop. */
    it->iterable = cg_owned(c, cg_expr(c, iter));
    LLVMValueRef start = cg_i64(c, 0);
    if (it->reversed)
      start = it->kind == UDF_TY_STR ? cg_str_len(c, it->iterable.v)
                                     : cg_list_len(c, it->iterable.v);
    LLVMBuildStore(c->b, start, it->pos);
  }
}

void cg_iter_begin(cg *c, cg_iter *it, const udf_expr *iter) {
  cg_iter_setup(c, it, iter);
  it->head = cg_block(c, "for.head");
  it->body = cg_block(c, "for.body");
  it->next = cg_block(c, "for.next");
  it->done = cg_block(c, "for.done");
  cg_goto(c, it->head);
  cg_at(c, it->head);
}

LLVMValueRef cg_iter_more(cg *c, cg_iter *it) {
  if (it->kind == UDF_TY_DICT)
    return cg_dict_iter_more(c, it);
  LLVMValueRef pos = it->cur = LLVMBuildLoad2(c->b, c->i64, it->pos, "pos");
  if (it->rcount) {
    LLVMTypeRef i128 = LLVMInt128TypeInContext(c->ctx);
    it->cur = LLVMBuildLoad2(c->b, i128, it->rcount, "left");
    return LLVMBuildICmp(c->b, LLVMIntSGT, it->cur, LLVMConstInt(i128, 0, 0), "more");
  }
  if (it->kind == UDF_TY_RANGE) {
    LLVMValueRef up = LLVMBuildICmp(c->b, LLVMIntSLT, pos, it->stop, "");
    LLVMValueRef down = LLVMBuildICmp(c->b, LLVMIntSGT, pos, it->stop, "");
    LLVMValueRef pos_step = LLVMBuildICmp(c->b, LLVMIntSGT, it->step, cg_i64(c, 0), "");
    return LLVMBuildSelect(c->b, pos_step, up, down, "more");
  }
  if (it->reversed && it->kind == UDF_TY_STR)
    return LLVMBuildICmp(c->b, LLVMIntSGT, pos, cg_i64(c, 0), "more");
  if (it->reversed) /* a list may shrink meanwhile: CPython's reversed() then stops */
    return LLVMBuildAnd(c->b, LLVMBuildICmp(c->b, LLVMIntSGT, pos, cg_i64(c, 0), ""),
                        LLVMBuildICmp(c->b, LLVMIntSLE, pos, cg_list_len(c, it->iterable.v), ""),
                        "more");
  LLVMValueRef len = it->kind == UDF_TY_STR ? cg_str_len(c, it->iterable.v)
                                            : cg_list_len(c, it->iterable.v);
  return LLVMBuildICmp(c->b, LLVMIntSLT, pos, len, "more");
}

/* The character of string s at byte offset pos (a temp) and its length in bytes (*nb_out):
 * a view of a borrowed string (inline: its length from the lead byte), else a new string from
 * the runtime (the view could outlive a managed iterable). A parameter's iterable is
 * borrowed, so the optimiser keeps only the view. */
static cg_val char_at(cg *c, LLVMValueRef s, LLVMValueRef pos, LLVMValueRef *nb_out) {
  LLVMValueRef len = cg_str_len(c, s);
  LLVMValueRef data = cg_str_data(c, s), mi = cg_str_mi(c, s);
  LLVMValueRef lead = LLVMBuildZExt(
      c->b, LLVMBuildLoad2(c->b, c->i8, LLVMBuildGEP2(c->b, c->i8, data, &pos, 1, ""), ""),
      c->i64, "lead");
  /* An ASCII lead is a branch, not a select: the next character's offset is then predicted
   * through ASCII runs instead of waiting for this byte's load and classification. */
  LLVMBasicBlockRef ascii = cg_block(c, "char.ascii"), multi = cg_block(c, "char.multi"),
                    sized = cg_block(c, "char.sized");
  LLVMValueRef is_ascii[2] = {LLVMBuildICmp(c->b, LLVMIntULT, lead, cg_i64(c, 0x80), ""),
                              LLVMConstInt(c->i1, 1, 0)};
  LLVMTypeRef ept[2] = {c->i1, c->i1};
  LLVMBuildCondBr(c->b, cg_intrinsic(c, "llvm.expect.i1", c->i1, ept, 2, is_ascii, 2), ascii,
                  multi);
  cg_at(c, ascii);
  LLVMBuildBr(c->b, sized);
  cg_at(c, multi);
  LLVMValueRef n_multi = LLVMBuildSelect(
      c->b, LLVMBuildICmp(c->b, LLVMIntULT, lead, cg_i64(c, 0xE0), ""), cg_i64(c, 2),
      LLVMBuildSelect(c->b, LLVMBuildICmp(c->b, LLVMIntULT, lead, cg_i64(c, 0xF0), ""),
                      cg_i64(c, 3), cg_i64(c, 4), ""),
      "");
  LLVMBuildBr(c->b, sized);
  cg_at(c, sized);
  LLVMValueRef n = cg_phi2(c, c->i64, "nb", cg_i64(c, 1), ascii, n_multi, multi);
  LLVMBasicBlockRef view = cg_block(c, "char.view"), made = cg_block(c, "char.new"),
                    got = cg_block(c, "char.got");
  LLVMBuildCondBr(c->b, LLVMBuildIsNull(c->b, mi, ""), view, made);
  cg_at(c, view);
  LLVMValueRef view_v =
      cg_str_make(c, cg_null(c), LLVMBuildGEP2(c->b, c->i8, data, &pos, 1, ""), n);
  LLVMBuildBr(c->b, got);
  cg_at(c, made);
  LLVMValueRef out = cg_out_str(c);
  LLVMValueRef nbp = cg_scratch(c, c->i64, "nb");
  LLVMValueRef args[7] = {c->err, mi, data, len, pos, nbp, out};
  cg_check(c, cg_call(c, "nrt_udf_rt_char_at", "i:pppllLs", args, 7));
  LLVMValueRef made_nb = LLVMBuildLoad2(c->b, c->i64, nbp, "");
  LLVMValueRef made_v = cg_load_str(c, out);
  LLVMBasicBlockRef made_end = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, got);
  cg_at(c, got);
  LLVMValueRef nb = cg_phi2(c, c->i64, "nb", n, view, made_nb, made_end);
  LLVMValueRef chv = cg_phi2(c, c->str, "ch", view_v, view, made_v, made_end);
  cg_val ch = {chv, UDF_TY_STR, false};
  cg_push_temp(c, &ch);
  *nb_out = nb;
  return ch;
}

/* The byte offset of the character that ends at byte offset pos (> 0) of string s. */
static LLVMValueRef char_start_before(cg *c, LLVMValueRef s, LLVMValueRef pos) {
  LLVMValueRef data = cg_str_data(c, s);
  LLVMValueRef at = cg_alloca(c, c->i64, "rev.at");
  LLVMBuildStore(c->b, LLVMBuildSub(c->b, pos, cg_i64(c, 1), ""), at);
  LLVMBasicBlockRef test = cg_block(c, "rev.test"), back = cg_block(c, "rev.back"),
                    found = cg_block(c, "rev.found");
  LLVMBuildBr(c->b, test);
  cg_at(c, test);
  LLVMValueRef p = LLVMBuildLoad2(c->b, c->i64, at, "");
  LLVMValueRef byte = LLVMBuildLoad2(c->b, c->i8, LLVMBuildGEP2(c->b, c->i8, data, &p, 1, ""), "");
  LLVMValueRef cont = LLVMBuildICmp(
      c->b, LLVMIntEQ, LLVMBuildAnd(c->b, byte, LLVMConstInt(c->i8, 0xC0, 0), ""),
      LLVMConstInt(c->i8, 0x80, 0), "");
  LLVMValueRef more = LLVMBuildAnd(
      c->b, cont, LLVMBuildICmp(c->b, LLVMIntSGT, p, cg_i64(c, 0), ""), "");
  LLVMBuildCondBr(c->b, more, back, found);
  cg_at(c, back);
  LLVMBuildStore(c->b, LLVMBuildSub(c->b, p, cg_i64(c, 1), ""), at);
  LLVMBuildBr(c->b, test);
  cg_at(c, found);
  return p;
}

cg_val cg_iter_value(cg *c, cg_iter *it) {
  if (it->kind == UDF_TY_DICT)
    return cg_dict_iter_value(c, it, false);
  LLVMValueRef pos = it->cur;
  if (it->rcount) { /* the item start + (left - 1) * step, which fits in 64 bits */
    LLVMValueRef left = LLVMBuildSub(c->b, pos, LLVMConstInt(LLVMTypeOf(pos), 1, 0), "");
    LLVMBuildStore(c->b, left, it->rcount);
    LLVMValueRef v = LLVMBuildAdd(c->b, it->rstart, LLVMBuildMul(c->b, left, it->rstep, ""), "");
    cg_val r = {LLVMBuildTrunc(c->b, v, c->i64, ""), UDF_TY_INT, false};
    return r;
  }
  if (it->kind == UDF_TY_RANGE) {
    cg_val v = {pos, UDF_TY_INT, false};
    /* The next value; an overflowing step ends the loop (the range is exhausted). */
    LLVMTypeRef pt[2] = {c->i64, c->i64};
    LLVMValueRef args[2] = {pos, it->step};
    LLVMTypeRef rt[2] = {c->i64, c->i1};
    LLVMValueRef r = cg_intrinsic(c, "llvm.sadd.with.overflow.i64",
                                  LLVMStructTypeInContext(c->ctx, rt, 2, 0), pt, 2, args, 2);
    LLVMValueRef nxt = LLVMBuildExtractValue(c->b, r, 0, "");
    LLVMValueRef ovf = LLVMBuildExtractValue(c->b, r, 1, "");
    nxt = LLVMBuildSelect(c->b, ovf, it->stop, nxt, "");
    LLVMBuildStore(c->b, nxt, it->pos);
    return v;
  }
  if (it->kind == UDF_TY_STR) {
    LLVMValueRef s = it->iterable.v, nb;
    if (it->reversed) {
      LLVMValueRef p = char_start_before(c, s, pos);
      cg_val ch = char_at(c, s, p, &nb);
      LLVMBuildStore(c->b, p, it->pos);
      return ch;
    }
    cg_val ch = char_at(c, s, pos, &nb);
    LLVMBuildStore(c->b, LLVMBuildAdd(c->b, pos, nb, ""), it->pos);
    return ch;
  }
  LLVMValueRef list = it->iterable.v;
  if (it->reversed) {
    LLVMValueRef p = LLVMBuildSub(c->b, pos, cg_i64(c, 1), "");
    cg_val item = {cg_list_item(c, list, p), UDF_TY_STR, false};
    LLVMBuildStore(c->b, p, it->pos);
    return it->kind == UDF_TY_LIST ? cg_nlist_unbox(c, item.v, it->elem) : item;
  }
  cg_val item = {cg_list_item(c, list, pos), UDF_TY_STR, false};
  if (it->kind == UDF_TY_MATCH) /* re.finditer: the list's items hold the match objects */
    item = (cg_val){cg_str_mi(c, item.v), it->elem, false};
  LLVMBuildStore(c->b, LLVMBuildAdd(c->b, pos, cg_i64(c, 1), ""), it->pos);
  return it->kind == UDF_TY_LIST ? cg_nlist_unbox(c, item.v, it->elem) : item;
}

void cg_iter_next(cg *c, cg_iter *it, const udf_var *var) {
  LLVMValueRef more = cg_iter_more(c, it);
  LLVMBuildCondBr(c->b, more, it->body, it->done);
  cg_at(c, it->body);
  cg_val v = cg_iter_value(c, it);
  cg_bind(c, var, v);
  cg_release(c, v);
}

/* ------------------------------------------------------------------ statements */

static void emit_stmt(cg *c, const udf_stmt *s);

void cg_stmts(cg *c, const udf_block *blk) {
  for (int i = 0; i < blk->n && !c->failed; i++) {
    int mark = cg_scratch_mark(c); /* a statement keeps nothing in scratch slots */
    if (c->writer && c->ntries == 0 && cg_write_forward(c, blk, i))
      i++; /* the return after it was emitted too */
    else
      emit_stmt(c, blk->items[i]);
    cg_scratch_release(c, mark);
  }
}

/* A return inside try statements: the value first, then the finally blocks (their shared
 * return path, codegen_try.c), then the exit. In the write form the value is made before
 * anything is written, so an exception a handler catches never leaves a partly written row. */
static void emit_return_in_try(cg *c, const udf_expr *value) {
  udf_type rt = c->fn->result;
  bool has = value && udf_type_base(value->type) != UDF_TY_NONE;
  cg_val v = {NULL, rt, false};
  if (has) {
    v = cg_expr(c, value);
    if (!c->writer)
      v = cg_fit_result(c, cg_coerce(c, v, rt));
    v = cg_owned(c, v);
  } else if (value) {
    cg_release(c, cg_expr(c, value));
  }
  if (cg_return_through_finally(c, has ? &v : NULL)) {
    cg_at(c, cg_block(c, "after.return"));
    return;
  }
  if (c->writer) {
    if (has)
      cg_write_value(c, v);
    cg_release_temps_above(c, 0);
    cg_leave(c, cg_i32(c, has ? NRT_OK : NRT_EXEC_ROW_NULL));
  } else {
    if (udf_type_base(rt) != UDF_TY_NONE) {
      if (has) {
        if (v.temp)
          cg_drop_temp(c, v);
        else
          cg_incref(c, v);
      }
      LLVMBuildStore(c->b, has ? v.v : cg_null_value(c, rt), c->result);
    } else if (has) {
      cg_release(c, v);
    }
    cg_release_temps_above(c, 0);
    cg_leave(c, cg_i32(c, NRT_OK));
  }
  cg_at(c, cg_block(c, "after.return"));
}

static void emit_return(cg *c, const udf_expr *value) {
  if (c->ntries > 0) {
    emit_return_in_try(c, value);
    return;
  }
  udf_type rt = c->fn->result;
  if (c->writer) { /* the write form: the result goes into the row writer */
    if (value)
      cg_write(c, value);
    cg_release_temps_above(c, 0);
    cg_leave(c, cg_i32(c, value ? NRT_OK : NRT_EXEC_ROW_NULL));
  } else if (udf_type_base(rt) != UDF_TY_NONE) {
    cg_val v;
    if (value) {
      v = cg_fit_result(c, cg_coerce(c, cg_expr(c, value), rt));
    } else {
      v.v = cg_null_value(c, rt);
      v.type = rt;
      v.temp = false;
    }
    /* The result owns a reference: take the temp's over, or a new one. */
    if (v.temp)
      cg_drop_temp(c, v);
    else
      cg_incref(c, v);
    LLVMBuildStore(c->b, v.v, c->result);
  } else if (value) {
    cg_release(c, cg_expr(c, value));
  }
  if (!c->writer) {
    cg_release_temps_above(c, 0);
    cg_leave(c, cg_i32(c, NRT_OK));
  }
  cg_at(c, cg_block(c, "after.return"));
}

/* Assignment of a tuple display to a tuple of names: every item first, then the targets. */
static void assign_unpack(cg *c, const udf_expr *target, const udf_expr *value) {
  int n = target->u.seq.n;
  if (value->kind == UDF_E_TUPLE && value->u.seq.n == n) {
    cg_val vals[64];
    if (n > 64) {
      cg_fail(c, "tuple of more than 64 items");
      return;
    }
    for (int i = 0; i < n; i++)
      vals[i] = cg_expr(c, value->u.seq.items[i]);
    for (int i = 0; i < n; i++)
      cg_bind(c, target->u.seq.items[i]->u.name.var, vals[i]);
    for (int i = n - 1; i >= 0; i--)
      cg_release(c, vals[i]);
    return;
  }
  cg_val list = cg_expr(c, value);
  LLVMValueRef len = cg_list_len(c, list.v);
  LLVMValueRef args[3] = {c->err, len, cg_i64(c, n)};
  cg_check(c, cg_call(c, "nrt_udf_rt_unpack_check", "i:pll", args, 3));
  for (int i = 0; i < n; i++) {
    cg_val item = {cg_list_item(c, list.v, cg_i64(c, i)), UDF_TY_STR, false};
    cg_bind(c, target->u.seq.items[i]->u.name.var, item);
  }
  cg_release(c, list);
}

static cg_val binop_values(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type);

/* var = cur op value, cur being var's value already read: `var op= value`. A growing local
 * appends (codegen_append.c). */
static void rebind(cg *c, const udf_var *var, udf_binop op, cg_val cur, const udf_expr *value) {
  cg_val r = cg_expr(c, value);
  cg_val v = op == UDF_OP_ADD && c->appender[var->index]
                 ? cg_str_append(c, cur, r)
                 : binop_values(c, op, cur, r, var->type);
  cg_release(c, r);
  cg_bind(c, var, v);
  cg_release(c, v);
}

/* An if statement and its elif chain (each elif an if alone in the else block), emitted in
 * a loop: a chain's length is not bounded by indentation, and recursion would exhaust the
 * stack. The blocks are those of the nested form: each level joins in its own block, which
 * branches to the join of the level around it (one join of thousands of predecessors made
 * InstCombine quadratic). */
/* `if test: x += K` (or -=) of a bound int local and an int literal, without an else: the
 * counting idiom of a character loop. Emitted without a branch on the test, as
 * x += (K if test else 0), which raises exactly when the original would (adding 0 never
 * overflows), so a test that flips from character to character costs no mispredicted
 * branch. False for any other statement. */
static bool emit_if_count(cg *c, const udf_stmt *s) {
  if (s->u.if_.orelse.n != 0 || s->u.if_.body.n != 1)
    return false;
  const udf_stmt *a = s->u.if_.body.items[0];
  if (a->kind != UDF_S_AUGASSIGN ||
      (a->u.augassign.op != UDF_OP_ADD && a->u.augassign.op != UDF_OP_SUB))
    return false;
  const udf_expr *t = a->u.augassign.target, *k = a->u.augassign.value;
  if (t->kind != UDF_E_NAME || t->u.name.check_bound || t->u.name.var->type != UDF_TY_INT ||
      k->kind != UDF_E_INT || k->type != UDF_TY_INT)
    return false;
  LLVMValueRef cond = cg_expr(c, s->u.if_.test).v;
  cg_val cur = cg_read_var(c, t->u.name.var, false, t->loc);
  cg_val step = {LLVMBuildSelect(c->b, cond, cg_i64(c, k->u.ival), cg_i64(c, 0), "step"),
                 UDF_TY_INT, false};
  cg_val v = binop_values(c, a->u.augassign.op, cur, step, UDF_TY_INT);
  cg_bind(c, t->u.name.var, v);
  cg_release(c, v);
  return true;
}

static void emit_if_chain(cg *c, const udf_stmt *s) {
  LLVMBasicBlockRef small[16], *ends = small;
  size_t n = 0, cap = sizeof small / sizeof small[0];
  for (;;) {
    if (n == cap) {
      LLVMBasicBlockRef *grown = nrt_allocate(2 * cap * sizeof *grown, c->errp);
      if (!grown) {
        c->failed = 1;
        c->code = NRT_ENOMEM;
        break;
      }
      memcpy(grown, ends, n * sizeof *ends);
      if (ends != small)
        nrt_free(ends, cap * sizeof *ends);
      ends = grown;
      cap *= 2;
    }
    LLVMValueRef cond = cg_expr(c, s->u.if_.test).v;
    LLVMBasicBlockRef then = cg_block(c, "if.then"), els = cg_block(c, "if.else");
    ends[n] = cg_block(c, "if.end");
    LLVMBuildCondBr(c->b, cond, then, els);
    cg_at(c, then);
    cg_stmts(c, &s->u.if_.body);
    cg_goto(c, ends[n++]);
    cg_at(c, els);
    const udf_block *orelse = &s->u.if_.orelse;
    if (orelse->n != 1 || orelse->items[0]->kind != UDF_S_IF || c->failed) {
      cg_stmts(c, orelse);
      break;
    }
    s = orelse->items[0];
  }
  while (n > 0) {
    cg_goto(c, ends[--n]);
    cg_at(c, ends[n]);
  }
  if (ends != small)
    nrt_free(ends, cap * sizeof *ends);
}

static void emit_stmt(cg *c, const udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_SETITEM:
  case UDF_S_DELITEM:
    cg_dict_setitem(c, s);
    return;
  case UDF_S_PASS:
    return;
  case UDF_S_EXPR:
    if (s->u.expr->kind == UDF_E_STR)
      return; /* docstring */
    cg_release(c, cg_expr(c, s->u.expr));
    return;
  case UDF_S_ASSIGN: {
    bool display_unpack = s->u.assign.ntargets == 1 &&
                          s->u.assign.targets[0]->kind == UDF_E_TUPLE &&
                          s->u.assign.value->kind == UDF_E_TUPLE;
    if (display_unpack) {
      assign_unpack(c, s->u.assign.targets[0], s->u.assign.value);
      return;
    }
    if (cg_is_self_concat(c, s)) { /* v = v + e: as v += e */
      const udf_expr *sum = s->u.assign.value;
      cg_val cur = cg_expr(c, sum->u.binary.left);
      rebind(c, sum->u.binary.left->u.name.var, UDF_OP_ADD, cur, sum->u.binary.right);
      return;
    }
    cg_val v = cg_expr(c, s->u.assign.value);
    for (int i = 0; i < s->u.assign.ntargets; i++) {
      const udf_expr *t = s->u.assign.targets[i];
      if (t->kind == UDF_E_NAME) {
        cg_bind(c, t->u.name.var, v);
      } else if (udf_type_base(v.type) == UDF_TY_STR) {
        cg_unpack_chars(c, v, t); /* a, b = 'xy' */
      } else {
        /* Unpacking a runtime tuple/list of str. */
        LLVMValueRef len = cg_list_len(c, v.v);
        LLVMValueRef args[3] = {c->err, len, cg_i64(c, t->u.seq.n)};
        cg_check(c, cg_call(c, "nrt_udf_rt_unpack_check", "i:pll", args, 3));
        for (int k = 0; k < t->u.seq.n; k++) {
          cg_val item = {cg_list_item(c, v.v, cg_i64(c, k)), UDF_TY_STR, false};
          cg_bind(c, t->u.seq.items[k]->u.name.var, item);
        }
      }
    }
    cg_release(c, v);
    return;
  }
  case UDF_S_AUGASSIGN: {
    const udf_expr *t = s->u.augassign.target;
    cg_val cur = cg_read_var(c, t->u.name.var, t->u.name.check_bound, t->loc);
    rebind(c, t->u.name.var, s->u.augassign.op, cur, s->u.augassign.value);
    return;
  }
  case UDF_S_IF:
    if (!emit_if_count(c, s))
      emit_if_chain(c, s);
    return;
  case UDF_S_WHILE: {
    LLVMBasicBlockRef head = cg_block(c, "while.head"), body = cg_block(c, "while.body"),
                      els = cg_block(c, "while.else"), end = cg_block(c, "while.end");
    cg_goto(c, head);
    cg_at(c, head);
    LLVMValueRef cond = cg_expr(c, s->u.while_.test).v;
    LLVMBuildCondBr(c->b, cond, body, els);
    cg_at(c, body);
    if (c->nloops >= CG_MAX_LOOPS) {
      cg_fail(c, "loops nested deeper than %d", CG_MAX_LOOPS);
      return;
    }
    c->loops[c->nloops++] = (cg_loop){end, head, c->ntemps};
    cg_stmts(c, &s->u.while_.body);
    c->nloops--;
    cg_goto(c, head);
    cg_at(c, els);
    cg_stmts(c, &s->u.while_.orelse);
    cg_goto(c, end);
    cg_at(c, end);
    return;
  }
  case UDF_S_FOR: {
    cg_for it;
    cg_for_begin(c, &it, s->u.for_.iter, s->u.for_.target, s->u.for_.unpack);
    cg_for_next(c, &it);
    LLVMBasicBlockRef brk = cg_block(c, "for.break"), end = cg_block(c, "for.end");
    if (c->nloops >= CG_MAX_LOOPS) {
      cg_fail(c, "loops nested deeper than %d", CG_MAX_LOOPS);
      return;
    }
    c->loops[c->nloops++] = (cg_loop){brk, it.next, c->ntemps};
    cg_stmts(c, &s->u.for_.body);
    c->nloops--;
    cg_goto(c, it.next);
    cg_at(c, it.next);
    LLVMBuildBr(c->b, it.head);
    /* Exhausted: drop the iterables, run the else block. break: drop them, skip the else. */
    cg_at(c, brk);
    cg_for_release(c, &it, false);
    cg_goto(c, end);
    cg_at(c, it.done);
    cg_for_release(c, &it, true);
    cg_stmts(c, &s->u.for_.orelse);
    cg_goto(c, end);
    cg_at(c, end);
    return;
  }
  case UDF_S_BREAK:
  case UDF_S_CONTINUE: {
    if (c->nloops == 0) {
      cg_fail(c, "'%s' outside loop", s->kind == UDF_S_BREAK ? "break" : "continue");
      return;
    }
    if (cg_jump_through_finally(c, s->kind == UDF_S_BREAK)) {
      cg_at(c, cg_block(c, "after.jump"));
      return;
    }
    cg_loop *l = &c->loops[c->nloops - 1];
    cg_release_temps_above(c, l->temps); /* none, unless a return's value waits */
    LLVMBuildBr(c->b, s->kind == UDF_S_BREAK ? l->brk : l->cont);
    cg_at(c, cg_block(c, "after.jump"));
    return;
  }
  case UDF_S_RETURN:
    emit_return(c, s->u.ret.value);
    return;
  case UDF_S_TRY:
    cg_try_stmt(c, s);
    return;
  case UDF_S_RAISE:
    cg_raise_stmt(c, s);
    return;
  }
}

/* AugAssign shares the binary operator code of expressions (codegen_expr.c). */
cg_val cg_binop_values(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type);
static cg_val binop_values(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type) {
  return cg_binop_values(c, op, l, r, type);
}

/* ------------------------------------------------------------------ functions */

/* i32 (i8* err, i32 depth, params..., T* result), or with `write` i32 (i8* err, i32 depth,
 * params..., i8* writer). depth: the calls the function is nested in (codegen_funcs.c). */
static LLVMTypeRef func_type(cg *c, const udf_func *f, bool write) {
  LLVMTypeRef params[70];
  int np = 0;
  params[np++] = c->ptr; /* err */
  params[np++] = c->i32; /* depth */
  for (int i = 0; i < f->nparams && np < 68; i++)
    params[np++] = cg_llty(c, f->params[i]->type);
  params[np++] = write ? c->ptr : LLVMPointerType(cg_llty(c, f->result), 0);
  return LLVMFunctionType(c->i32, params, (unsigned)np, 0);
}

static LLVMValueRef declare_func(cg *c, const udf_func *f, bool write) {
  char name[300];
  snprintf(name, sizeof name, write ? "udf.%s.write" : "udf.%s", f->name);
  LLVMValueRef fn = LLVMAddFunction(c->mod, name, func_type(c, f, write));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  return fn;
}

/* The exits' state: a status slot, and a frame with a slot per refcounted local, zeroed on
 * entry (cg_bind keeps it up to date). */
static void begin_raise_exit(cg *c, const udf_func *f) {
  c->nframe = 0;
  for (int i = 0; i < f->nlocals; i++)
    c->frame_slot[i] = cg_is_refcounted(f->locals[i]->type) ? c->nframe++ : -1;
  /* A return waiting for finally blocks holds its value in a slot of its own. */
  c->ret_frame = cg_has_finally(&f->body) ? c->nframe++ : -1;
  c->ret_slot = NULL;
  c->status_slot = cg_alloca(c, c->i32, "raise.status");
  c->frame_type = LLVMArrayType(c->ptr, (unsigned)(c->nframe ? c->nframe : 1));
  c->frame = cg_alloca(c, c->frame_type, "frame");
  LLVMPositionBuilderBefore(c->ab, c->alloca_end);
  LLVMBuildMemSet(c->ab, LLVMBuildBitCast(c->ab, c->frame, c->ptr, ""),
                  LLVMConstInt(c->i8, 0, 0), LLVMSizeOf(c->frame_type), 8);
  c->raise_bb = cg_block(c, "raise.exit");
}

/* Releases the frame and returns the status in status_slot, out of line. */
static LLVMValueRef unwind(cg *c) {
  LLVMValueRef args[3] = {frame_slot_ptr(c, 0), cg_i64(c, c->nframe), c->status_slot};
  return cg_call(c, "nrt_udf_rt_unwind", "i:qlI", args, 3);
}

/* raise_bb: nrt_udf_rt_unwind releases the frame's objects and returns the stored status.
 * Both allocas escape into that call, so SROA cannot turn them into phis of an entry per
 * raise site. The status slot is nocapture (no other call touches it); the frame is not: if
 * calls were known to leave it alone, GVN would forward each binding's store to the exit's
 * load, and every local's value would stay live to the exit again. */
static void end_raise_exit(cg *c) {
  cg_at(c, c->raise_bb);
  LLVMValueRef st = unwind(c);
  LLVMValueRef fn = LLVMGetNamedFunction(c->mod, "nrt_udf_rt_unwind");
  unsigned nocapture = LLVMGetEnumAttributeKindForName("nocapture", 9);
  unsigned readonly = LLVMGetEnumAttributeKindForName("readonly", 8);
  LLVMAddAttributeAtIndex(fn, 3, LLVMCreateEnumAttribute(c->ctx, nocapture, 0));
  LLVMAddAttributeAtIndex(fn, 3, LLVMCreateEnumAttribute(c->ctx, readonly, 0));
  LLVMBuildRet(c->b, st);
}

/* Frees the per-local arrays of emit_func (NULL ones allowed). */
static void free_locals(cg *c, const udf_func *f) {
  size_t n = (size_t)(f->nlocals ? f->nlocals : 1);
  nrt_free(c->vars, c->vars ? n * sizeof(LLVMValueRef) : 0);
  nrt_free(c->bound, c->bound ? n * sizeof(LLVMValueRef) : 0);
  nrt_free(c->ssa_val, c->ssa_val ? n * sizeof(LLVMValueRef) : 0);
  nrt_free(c->appender, c->appender ? n * sizeof(bool) : 0);
  nrt_free(c->ssa, c->ssa ? n * sizeof(bool) : 0);
  nrt_free(c->frame_slot, c->frame_slot ? n * sizeof(int) : 0);
  c->vars = c->bound = c->ssa_val = NULL;
  c->appender = c->ssa = NULL;
  c->frame_slot = NULL;
}

/* Emits f into llfn: its value form, or (write) the write form of a str result. */
static void emit_func(cg *c, const udf_func *f, LLVMValueRef llfn, bool write) {
  if (f->nparams > 64) {
    cg_fail(c, "function %s has more than 64 parameters", f->name);
    return;
  }
  c->fn = f;
  c->llfn = llfn;
  c->ntemps = 0;
  c->nloops = 0;
  c->ntries = 0;
  c->nexc = 0;
  c->finally_stmts = 0;
  c->err = LLVMGetParam(c->llfn, 0);
  c->depth = LLVMGetParam(c->llfn, 1);
  LLVMValueRef last = LLVMGetParam(c->llfn, (unsigned)f->nparams + 2);
  c->result = write ? NULL : last;
  c->writer = write ? last : NULL;
  LLVMBasicBlockRef entry = cg_block(c, "entry");
  LLVMBasicBlockRef body = cg_block(c, "body");
  c->exit_bb = cg_block(c, "exit");
  cg_at(c, entry);
  c->alloca_end = LLVMBuildBr(c->b, body);
  cg_at(c, c->exit_bb);
  c->exit_phi = LLVMBuildPhi(c->b, c->i32, "status");

  size_t bytes = (size_t)(f->nlocals ? f->nlocals : 1) * sizeof(LLVMValueRef);
  size_t flags = (size_t)(f->nlocals ? f->nlocals : 1) * sizeof(bool);
  size_t slots = (size_t)(f->nlocals ? f->nlocals : 1) * sizeof(int);
  c->vars = nrt_allocate(bytes, c->errp);
  c->bound = nrt_allocate(bytes, c->errp);
  c->ssa_val = nrt_allocate(bytes, c->errp);
  c->appender = nrt_allocate(flags, c->errp);
  c->ssa = nrt_allocate(flags, c->errp);
  c->frame_slot = nrt_allocate(slots, c->errp);
  if (!c->vars || !c->bound || !c->ssa_val || !c->appender || !c->ssa || !c->frame_slot ||
      !cg_find_ssa_locals(c, f)) {
    c->failed = 1;
    if (!c->code)
      c->code = NRT_ENOMEM;
    free_locals(c, f);
    return;
  }
  begin_raise_exit(c, f);
  c->fits_results = cg_find_appenders(c, f);
  /* Every local but those kept as SSA values starts as the empty value (None / NULL MemInfo),
   * so a binding can release the value it replaces unconditionally. */
  for (int i = 0; i < f->nlocals; i++) {
    const udf_var *v = f->locals[i];
    LLVMTypeRef t = cg_llty(c, v->type);
    c->ssa_val[i] = NULL;
    c->vars[i] = NULL;
    c->bound[i] = NULL;
    if (c->ssa[i])
      continue;
    c->vars[i] = cg_alloca(c, t, v->name);
    LLVMPositionBuilderBefore(c->ab, c->alloca_end);
    LLVMBuildStore(c->ab, LLVMConstNull(t), c->vars[i]);
    if (v->needs_bound_flag) {
      c->bound[i] = cg_alloca(c, c->i1, "bound");
      LLVMPositionBuilderBefore(c->ab, c->alloca_end);
      LLVMBuildStore(c->ab, LLVMConstInt(c->i1, v->is_param ? 1 : 0, 0), c->bound[i]);
    }
  }
  cg_at(c, body);
  cg_check_depth(c, f);
  /* Parameters are borrowed from the caller; binding them takes a reference. */
  for (int i = 0; i < f->nparams; i++) {
    cg_val p = {LLVMGetParam(c->llfn, (unsigned)i + 2), f->params[i]->type, false};
    cg_bind(c, f->params[i], p);
  }
  cg_stmts(c, &f->body);
  if (cg_open(c)) {
    if (f->falls_off_end || udf_type_base(f->result) == UDF_TY_NONE)
      emit_return(c, NULL);
    else
      LLVMBuildUnreachable(c->b);
  }
  /* Blocks left open after a return or jump are unreachable. */
  if (cg_open(c))
    LLVMBuildUnreachable(c->b);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(c->llfn); bb; bb = LLVMGetNextBasicBlock(bb))
    if (bb != c->exit_bb && bb != c->raise_bb && !LLVMGetBasicBlockTerminator(bb)) {
      cg_at(c, bb);
      LLVMBuildUnreachable(c->b);
    }
  /* The exit releases every local's binding, found in the frame: read from the variables,
   * the values would stay live (in registers or spilled) from their binding to the exit, and
   * a function with many locals would be quadratic for the register allocator. */
  cg_at(c, c->exit_bb);
  if (c->nframe <= CG_INLINE_RELEASES) {
    for (int k = 0; k < c->nframe; k++) {
      LLVMValueRef mi = LLVMBuildLoad2(c->b, c->ptr, frame_slot_ptr(c, k), "mi");
      cg_call(c, "nrt_mi_decref_local", "v:p", &mi, 1);
    }
    LLVMBuildRet(c->b, c->exit_phi);
  } else { /* many locals: the loop of the raise exit */
    LLVMBuildStore(c->b, c->exit_phi, c->status_slot);
    LLVMBuildRet(c->b, unwind(c));
  }
  end_raise_exit(c);
  cg_scratch_free(c); /* the slots are this function's allocas */
  free_locals(c, f);
}

/* A field of type t at byte offset off of the struct at p. */
static LLVMValueRef field_ptr(cg *c, LLVMValueRef p, long long off, LLVMTypeRef t) {
  LLVMValueRef o = cg_i64(c, off);
  return LLVMBuildBitCast(c->b, LLVMBuildGEP2(c->b, c->i8, p, &o, 1, ""), LLVMPointerType(t, 0),
                          "");
}

static LLVMValueRef load_field(cg *c, LLVMValueRef p, long long off, LLVMTypeRef t) {
  return LLVMBuildLoad2(c->b, t, field_ptr(c, p, off, t), "");
}

/* Adds a row wrapper `name` (i32 (i8* ctx, nrt_value* args, i8* out, nrt_error* err)) with
 * its entry block, and loads the entry's arguments from args into callargs after the error
 * slot (callargs[0]). Returns the number of callargs filled. */
static int begin_row(cg *c, const udf_func *f, const char *name, LLVMValueRef *callargs) {
  LLVMTypeRef params[4] = {c->ptr, c->ptr, c->ptr, c->ptr};
  LLVMTypeRef fty = LLVMFunctionType(c->i32, params, 4, 0);
  LLVMValueRef row = LLVMAddFunction(c->mod, name, fty);
  c->llfn = row;
  LLVMBasicBlockRef entry = cg_block(c, "entry");
  cg_at(c, entry);
  LLVMValueRef args = LLVMGetParam(row, 1);
  int n = 0;
  callargs[n++] = LLVMGetParam(row, 3);
  callargs[n++] = cg_i32(c, 0); /* depth: the entry is the first call */
  for (int i = 0; i < f->nparams; i++) {
    udf_type t = udf_type_base(f->params[i]->type);
    long long base = (long long)i * (long long)sizeof(nrt_value) + 8;
    LLVMValueRef v;
    if (t == UDF_TY_STR) {
      /* A borrowed view: the MemInfo is NULL by contract (known to the optimiser). */
      LLVMValueRef data = load_field(c, args, base + 8, c->ptr);
      LLVMValueRef len = load_field(c, args, base + 16, c->i64);
      /* Two loads, as the apply's two stores of the row's bytes and length: merged into one
       * 16-byte load (the backend does, when the pair is copied into a local string), it
       * cannot be forwarded from those stores and waits for them to reach the cache, a dozen
       * cycles per row. Volatile keeps them apart. */
      LLVMSetVolatile(data, 1);
      LLVMSetVolatile(len, 1);
      v = cg_str_make(c, cg_null(c), data, len);
    } else if (t == UDF_TY_BOOL) {
      v = cg_bool_of_c(c, load_field(c, args, base, c->i8));
    } else {
      v = load_field(c, args, base, cg_llty(c, t));
    }
    callargs[n++] = v;
  }
  return n;
}

/* Inlined into the wrapper before pruning, so the NULL MemInfo of the borrowed arguments is a
 * constant there and refprune drops the parameters' refcount operations. */
static void always_inline(cg *c, LLVMValueRef fn) {
  unsigned inline_kind = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  LLVMAddAttributeAtIndex(fn, LLVMAttributeFunctionIndex,
                          LLVMCreateEnumAttribute(c->ctx, inline_kind, 0));
}

/* i32 nrt_udf_row_write(i8* ctx, nrt_value* args, nrt_col_row_writer* out, nrt_error* err):
 * the nrt_row_write_fn of an entry returning str. */
static void emit_row_write(cg *c, const udf_func *f, LLVMValueRef write_fn) {
  LLVMValueRef callargs[70];
  int n = begin_row(c, f, NRT_UDF_ROW_WRITE_SYMBOL, callargs);
  callargs[n++] = LLVMGetParam(c->llfn, 2);
  LLVMValueRef st = LLVMBuildCall2(c->b, func_type(c, f, true), write_fn, callargs,
                                   (unsigned)n, "status");
  always_inline(c, write_fn);
  LLVMBuildRet(c->b, st);
}

/* Element k (an i64 index) of the array of t at p: its address. */
static LLVMValueRef element_ptr(cg *c, LLVMValueRef p, LLVMTypeRef t, LLVMValueRef k) {
  return LLVMBuildGEP2(c->b, t, LLVMBuildBitCast(c->b, p, LLVMPointerType(t, 0), ""), &k, 1, "");
}

/* Input offset k of a batch: int64 offsets when wide_in, else int32. */
static LLVMValueRef load_offset(cg *c, LLVMValueRef offsets, LLVMValueRef wide_in,
                                LLVMValueRef k) {
  LLVMBasicBlockRef wide = cg_block(c, "off.wide"), narrow = cg_block(c, "off.narrow"),
                    join = cg_block(c, "off.done");
  LLVMBuildCondBr(c->b, wide_in, wide, narrow);
  cg_at(c, wide);
  LLVMValueRef w = LLVMBuildLoad2(c->b, c->i64, element_ptr(c, offsets, c->i64, k), "");
  LLVMBuildBr(c->b, join);
  cg_at(c, narrow);
  LLVMValueRef n = LLVMBuildLoad2(c->b, c->i32, element_ptr(c, offsets, c->i32, k), "");
  n = LLVMBuildSExt(c->b, n, c->i64, "");
  LLVMBuildBr(c->b, join);
  cg_at(c, join);
  return cg_phi2(c, c->i64, "off", w, wide, n, narrow);
}

/* i32 nrt_udf_rows_write(i8* ctx, nrt_rows_batch* batch, nrt_col_row_writer* w,
 * nrt_error* err): the loop form (nrt/exec.h's nrt_rows_write_fn) of an entry of one str
 * parameter returning str. The entry is inlined into the loop, so a row costs no call, and its
 * argument, a view of the input's bytes, comes from the offsets in registers. Each row's end
 * offset is stored as nrt_col_rows says; a None result, or with go_on a failure (but
 * NRT_ENOMEM and NRT_ERANGE, which may be the output's), is a null row listed in nulls. A utf8
 * row ending past INT32_MAX, or a row refused for the string limit after other rows of the
 * batch (NRT_ELIMIT), is left to the row function. */
static void emit_rows_write(cg *c, const udf_func *f, LLVMValueRef write_fn) {
  LLVMTypeRef params[4] = {c->ptr, c->ptr, c->ptr, c->ptr};
  LLVMValueRef fn =
      LLVMAddFunction(c->mod, NRT_UDF_ROWS_WRITE_SYMBOL, LLVMFunctionType(c->i32, params, 4, 0));
  c->llfn = fn;
  LLVMValueRef batch = LLVMGetParam(fn, 1), w = LLVMGetParam(fn, 2), err = LLVMGetParam(fn, 3);
  LLVMBasicBlockRef entry = cg_block(c, "entry");
  cg_at(c, entry);
  LLVMValueRef offsets = load_field(c, batch, 0, c->ptr);
  LLVMValueRef data = load_field(c, batch, 8, c->ptr);
  LLVMValueRef first = load_field(c, batch, 16, c->i64);
  LLVMValueRef end = load_field(c, batch, 24, c->i64);
  LLVMValueRef ends = load_field(c, batch, 32, c->ptr);
  LLVMValueRef base = load_field(c, batch, 40, c->i64);
  LLVMValueRef zero32 = cg_i32(c, 0), zero = cg_i64(c, 0), one = cg_i64(c, 1);
  LLVMValueRef wide =
      LLVMBuildICmp(c->b, LLVMIntNE, load_field(c, batch, 48, c->i32), zero32, "wide");
  LLVMValueRef wide_in =
      LLVMBuildICmp(c->b, LLVMIntNE, load_field(c, batch, 56, c->i32), zero32, "wide.in");
  LLVMValueRef go_on =
      LLVMBuildICmp(c->b, LLVMIntNE, load_field(c, batch, 60, c->i32), zero32, "go.on");
  LLVMValueRef nulls = load_field(c, batch, 64, c->ptr);
  LLVMBasicBlockRef head = cg_block(c, "head"), body = cg_block(c, "body"),
                    written = cg_block(c, "written"), failed = cg_block(c, "failed"),
                    soft = cg_block(c, "soft"), null_row = cg_block(c, "null.row"),
                    record = cg_block(c, "record"), store64 = cg_block(c, "end.wide"),
                    check32 = cg_block(c, "end.check"), store32 = cg_block(c, "end.narrow"),
                    next = cg_block(c, "next"), stop = cg_block(c, "stop"),
                    early = cg_block(c, "early"), done = cg_block(c, "done");
  LLVMBuildBr(c->b, head);

  /* i: the row; prev: the previous row's end; nn, nf: null rows, failed rows so far */
  cg_at(c, head);
  LLVMValueRef i = LLVMBuildPhi(c->b, c->i64, "i");
  LLVMValueRef prev = LLVMBuildPhi(c->b, c->i64, "prev");
  LLVMValueRef nn = LLVMBuildPhi(c->b, c->i64, "nn");
  LLVMValueRef nf = LLVMBuildPhi(c->b, c->i64, "nf");
  LLVMValueRef k = LLVMBuildSub(c->b, i, first, "k");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntSLT, i, end, ""), body, done);

  cg_at(c, body);
  LLVMValueRef i1 = LLVMBuildAdd(c->b, i, one, "");
  LLVMValueRef from = load_offset(c, offsets, wide_in, i);
  LLVMValueRef to = load_offset(c, offsets, wide_in, i1);
  LLVMValueRef arg = cg_str_make(c, cg_null(c), LLVMBuildGEP2(c->b, c->i8, data, &from, 1, ""),
                                 LLVMBuildSub(c->b, to, from, ""));
  LLVMValueRef callargs[4] = {err, zero32, arg, w};
  LLVMValueRef st = LLVMBuildCall2(c->b, func_type(c, f, true), write_fn, callargs, 4, "status");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, st, zero32, ""), written, failed);

  /* The row's end: base + (pos - row), the writer's row being the batch's first. */
  cg_at(c, written);
  LLVMValueRef pos = LLVMBuildPtrToInt(c->b, load_field(c, w, 0, c->ptr), c->i64, "");
  LLVMValueRef row = LLVMBuildPtrToInt(c->b, load_field(c, w, 16, c->ptr), c->i64, "");
  LLVMValueRef at = LLVMBuildAdd(c->b, base, LLVMBuildSub(c->b, pos, row, ""), "end");
  LLVMBuildBr(c->b, record);

  /* A failure: left to the row function (NRT_ELIMIT after other rows), a null row, or the
   * batch's end. */
  cg_at(c, failed);
  LLVMValueRef isnull = LLVMBuildICmp(c->b, LLVMIntEQ, st, cg_i32(c, NRT_EXEC_ROW_NULL), "");
  LLVMValueRef again =
      LLVMBuildAnd(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, st, cg_i32(c, NRT_ELIMIT), ""),
                   LLVMBuildICmp(c->b, LLVMIntSGT, i, first, ""), "");
  LLVMBuildCondBr(c->b, again, early, soft);
  cg_at(c, soft);
  LLVMValueRef output_error =
      LLVMBuildOr(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, st, cg_i32(c, NRT_ENOMEM), ""),
                  LLVMBuildICmp(c->b, LLVMIntEQ, st, cg_i32(c, NRT_ERANGE), ""), "");
  LLVMValueRef as_null = LLVMBuildOr(
      c->b, isnull, LLVMBuildAnd(c->b, go_on, LLVMBuildNot(c->b, output_error, ""), ""), "");
  LLVMBuildCondBr(c->b, as_null, null_row, stop);
  /* A null takes no bytes: the row's start again, and the previous end. */
  cg_at(c, null_row);
  LLVMValueRef rowp = load_field(c, w, 16, c->ptr);
  LLVMValueRef back = LLVMBuildSub(c->b, prev, base, "");
  LLVMBuildStore(c->b, LLVMBuildGEP2(c->b, c->i8, rowp, &back, 1, ""), field_ptr(c, w, 0, c->ptr));
  LLVMBuildStore(c->b, LLVMBuildTrunc(c->b, k, c->i32, ""), element_ptr(c, nulls, c->i32, nn));
  LLVMValueRef fail1 = LLVMBuildZExt(c->b, LLVMBuildNot(c->b, isnull, ""), c->i64, "");
  LLVMBuildBr(c->b, record);

  cg_at(c, record);
  LLVMValueRef endv = cg_phi2(c, c->i64, "end", at, written, prev, null_row);
  LLVMValueRef add_null = cg_phi2(c, c->i64, "", zero, written, one, null_row);
  LLVMValueRef add_failed = cg_phi2(c, c->i64, "", zero, written, fail1, null_row);
  LLVMBuildCondBr(c->b, wide, store64, check32);
  cg_at(c, store64);
  LLVMBuildStore(c->b, endv, element_ptr(c, ends, c->i64, k));
  LLVMBuildBr(c->b, next);
  cg_at(c, check32);
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntSGT, endv, cg_i64(c, INT32_MAX), ""), early,
                  store32);
  cg_at(c, store32);
  LLVMBuildStore(c->b, LLVMBuildTrunc(c->b, endv, c->i32, ""), element_ptr(c, ends, c->i32, k));
  LLVMBuildBr(c->b, next);
  cg_at(c, next);
  LLVMValueRef nn1 = LLVMBuildAdd(c->b, nn, add_null, "");
  LLVMValueRef nf1 = LLVMBuildAdd(c->b, nf, add_failed, "");
  LLVMBuildBr(c->b, head);
  LLVMBasicBlockRef in_bbs[2] = {entry, next};
  LLVMValueRef i_in[2] = {first, i1}, prev_in[2] = {base, endv}, nn_in[2] = {zero, nn1},
               nf_in[2] = {zero, nf1};
  LLVMAddIncoming(i, i_in, in_bbs, 2);
  LLVMAddIncoming(prev, prev_in, in_bbs, 2);
  LLVMAddIncoming(nn, nn_in, in_bbs, 2);
  LLVMAddIncoming(nf, nf_in, in_bbs, 2);

  /* The exits: the row reached, and the nulls. */
  LLVMBasicBlockRef exits[3] = {stop, early, done};
  for (int x = 0; x < 3; x++) {
    cg_at(c, exits[x]);
    LLVMBuildStore(c->b, exits[x] == done ? end : i, field_ptr(c, batch, 16, c->i64));
    LLVMBuildStore(c->b, nn, field_ptr(c, batch, 72, c->i64));
    LLVMBuildStore(c->b, nf, field_ptr(c, batch, 80, c->i64));
    LLVMBuildRet(c->b, exits[x] == stop ? st : zero32);
  }
}

/* i32 nrt_udf_row(i8* ctx, nrt_value* args, nrt_value* result, nrt_error* err) */
static void emit_row(cg *c, const udf_func *f) {
  LLVMValueRef callargs[70];
  int n = begin_row(c, f, NRT_UDF_ROW_SYMBOL, callargs);
  LLVMValueRef result = LLVMGetParam(c->llfn, 2);
  LLVMTypeRef rt = cg_llty(c, f->result);
  LLVMValueRef slot = LLVMBuildAlloca(c->b, rt, "res");
  LLVMBuildStore(c->b, LLVMConstNull(rt), slot);
  callargs[n++] = slot;
  LLVMValueRef st = LLVMBuildCall2(c->b, func_type(c, f, false), c->llfuncs[f->index],
                                   callargs, (unsigned)n, "status");
  always_inline(c, c->llfuncs[f->index]);
  LLVMBasicBlockRef ok = cg_block(c, "ok"), done = cg_block(c, "done");
  LLVMBuildCondBr(c->b, LLVMBuildICmp(c->b, LLVMIntEQ, st, cg_i32(c, 0), ""), ok, done);
  cg_at(c, ok);
  udf_type b = udf_type_base(f->result);
  LLVMValueRef kindp = LLVMBuildBitCast(c->b, result, LLVMPointerType(c->i32, 0), "");
  LLVMValueRef off8 = cg_i64(c, 8);
  LLVMValueRef valp = LLVMBuildGEP2(c->b, c->i8, result, &off8, 1, "");
  LLVMValueRef r = LLVMBuildLoad2(c->b, rt, slot, "r");
  LLVMValueRef present = LLVMConstInt(c->i1, 1, 0);
  LLVMValueRef val = r;
  int kind = NRT_VALUE_NULL;
  switch (b) {
  case UDF_TY_STR: kind = NRT_VALUE_STR; break;
  case UDF_TY_INT: kind = NRT_VALUE_INT64; break;
  case UDF_TY_FLOAT: kind = NRT_VALUE_FLOAT64; break;
  case UDF_TY_BOOL: kind = NRT_VALUE_BOOL; break;
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR:
  case UDF_TY_LIST: kind = NRT_VALUE_LIST; break;
  default: kind = NRT_VALUE_NULL; break;
  }
  if (kind == NRT_VALUE_LIST) {
    /* The list's MemInfo (NULL for None): the result holds the list, the payload of its
     * MemInfo, and takes over the reference the entry returned. */
    present = LLVMBuildIsNotNull(c->b, r, "");
  } else if (kind != NRT_VALUE_NULL && udf_type_is_nullable(f->result)) {
    if (b == UDF_TY_STR) {
      present = LLVMBuildIsNotNull(c->b, cg_str_data(c, r), "");
    } else {
      present = LLVMBuildExtractValue(c->b, r, 1, "");
      val = LLVMBuildExtractValue(c->b, r, 0, "");
    }
  }
  if (kind != NRT_VALUE_NULL) {
    LLVMBasicBlockRef store = cg_block(c, "store");
    LLVMBuildCondBr(c->b, present, store, done);
    cg_at(c, store);
    LLVMBuildStore(c->b, cg_i32(c, kind), kindp);
    if (b == UDF_TY_BOOL)
      val = LLVMBuildZExt(c->b, val, c->i8, "");
    if (kind == NRT_VALUE_LIST) {
      val = cg_list_of(c, r);
      int item = (int)udf_result_item_kind(f->result); /* nrt_value.item_kind, offset 4 */
      if (item != NRT_VALUE_STR)
        LLVMBuildStore(c->b, cg_i32(c, item), LLVMBuildGEP2(c->b, c->i32, kindp,
                                                           (LLVMValueRef[]){cg_i64(c, 1)}, 1, ""));
    }
    LLVMTypeRef vt = LLVMTypeOf(val);
    LLVMBuildStore(c->b, val, LLVMBuildBitCast(c->b, valp, LLVMPointerType(vt, 0), ""));
  }
  LLVMBuildBr(c->b, done);
  cg_at(c, done);
  LLVMBuildRet(c->b, st);
}

int udf_codegen(const udf_module *m, LLVMContextRef ctx, LLVMModuleRef *out,
                struct nrt_error *err) {
  *out = NULL;
  cg c;
  memset(&c, 0, sizeof c);
  c.ctx = ctx;
  c.m = m;
  c.errp = err;
  c.mod = LLVMModuleCreateWithNameInContext("udf", ctx);
  c.b = LLVMCreateBuilderInContext(ctx);
  c.ab = LLVMCreateBuilderInContext(ctx);
  c.i1 = LLVMInt1TypeInContext(ctx);
  c.i8 = LLVMInt8TypeInContext(ctx);
  c.i32 = LLVMInt32TypeInContext(ctx);
  c.i64 = LLVMInt64TypeInContext(ctx);
  c.f64 = LLVMDoubleTypeInContext(ctx);
  c.voidt = LLVMVoidTypeInContext(ctx);
  c.ptr = LLVMPointerType(c.i8, 0);
  c.str = LLVMStructCreateNamed(ctx, "nrt_str");
  LLVMTypeRef f[3] = {c.ptr, c.ptr, c.i64};
  LLVMStructSetBody(c.str, f, 3, 0);
  c.strp = LLVMPointerType(c.str, 0);
  size_t fbytes = (size_t)(m->nfuncs ? m->nfuncs : 1) * sizeof(LLVMValueRef);
  c.llfuncs = nrt_allocate(fbytes, err);
  if (!c.llfuncs) {
    c.failed = 1;
    c.code = NRT_ENOMEM;
  } else {
    memset(c.llfuncs, 0, fbytes);
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i]->checked)
        c.llfuncs[i] = declare_func(&c, m->funcs[i], false);
    for (int i = 0; i < m->nfuncs && !c.failed; i++)
      if (m->funcs[i]->checked)
        emit_func(&c, m->funcs[i], c.llfuncs[i], false);
    if (!c.failed)
      emit_row(&c, m->entry);
    if (!c.failed && udf_type_base(m->entry->result) == UDF_TY_STR) {
      LLVMValueRef write_fn = declare_func(&c, m->entry, true);
      emit_func(&c, m->entry, write_fn, true);
      c.writer = NULL;
      if (!c.failed)
        emit_row_write(&c, m->entry, write_fn);
      if (!c.failed && m->entry->nparams == 1 &&
          udf_type_base(m->entry->params[0]->type) == UDF_TY_STR &&
          !udf_type_is_nullable(m->entry->params[0]->type))
        emit_rows_write(&c, m->entry, write_fn);
    }
    nrt_free(c.llfuncs, fbytes);
  }
  cg_scratch_free(&c);
  LLVMDisposeBuilder(c.b);
  LLVMDisposeBuilder(c.ab);
  if (c.failed) {
    LLVMDisposeModule(c.mod);
    return c.code ? c.code : NRT_EUNSUPPORTED;
  }
  *out = c.mod;
  return NRT_OK;
}

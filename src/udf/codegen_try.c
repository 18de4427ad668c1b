/* try / except / else / finally and raise.
 *
 * A raising operation inside a try body stores its status in status_slot and branches to the
 * innermost try's landing after releasing the temporaries made inside the try (cg_leave_raising
 * in codegen_util.c); the locals need nothing: they stay bound, released at the function's
 * exits through the frame. The landing of except clauses compares the status with the codes of
 * each clause's classes (exceptions.h), and an exception no clause matches goes on outward.
 *
 * A finally block is emitted once for each kind of way out of its try: the normal end (and
 * each except clause's), the exceptional path (its own landing: the exception is saved, the
 * block runs, the exception is raised again), and one shared path each for the returns (their
 * value waits in a slot of the frame), the breaks and the continues that leave the try. Each
 * copy is emitted as code outside the try, so an exception in it goes outward and a return in
 * it leaves the function (or goes on to the next finally block out), as in Python. */
#include <string.h>

#include "nrt/core.h"
#include "nrt/exec.h"
#include "udf/codegen_internal.h"
#include "udf/exceptions.h"

static void push_try(cg *c, bool is_finally, LLVMBasicBlockRef landing, const udf_block *fin) {
  if (c->ntries >= CG_MAX_TRIES) {
    cg_fail(c, "try statements nested deeper than %d", CG_MAX_TRIES);
    return;
  }
  c->tries[c->ntries++] =
      (cg_try){is_finally, landing, NULL, NULL, NULL, c->ntemps, c->nloops, c->nexc, fin};
}

static long block_size(const udf_block *b);

static long stmt_size(const udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_IF: return 1 + block_size(&s->u.if_.body) + block_size(&s->u.if_.orelse);
  case UDF_S_WHILE: return 1 + block_size(&s->u.while_.body) + block_size(&s->u.while_.orelse);
  case UDF_S_FOR: return 1 + block_size(&s->u.for_.body) + block_size(&s->u.for_.orelse);
  case UDF_S_TRY: {
    long n = 1 + block_size(&s->u.try_.body) + block_size(&s->u.try_.orelse) +
             block_size(&s->u.try_.finalbody);
    for (int k = 0; k < s->u.try_.nhandlers; k++)
      n += block_size(&s->u.try_.handlers[k]->body);
    return n;
  }
  default: return 1;
  }
}

static long block_size(const udf_block *b) {
  long n = 0;
  for (int i = 0; i < b->n && n < CG_MAX_FINALLY_STMTS; i++)
    n += stmt_size(b->items[i]);
  return n;
}

/* Emits finally block fin once more, within the function's budget. */
static void emit_finally(cg *c, const udf_block *fin) {
  c->finally_stmts += block_size(fin);
  if (c->finally_stmts > CG_MAX_FINALLY_STMTS) {
    udf_loc at = fin->n ? fin->items[0]->loc : c->fn->loc;
    cg_fail(c,
            "%s:%d:%d: unsupported: finally blocks copied into more than %d statements "
            "(each return, break or continue leaving a try copies its finally block: nest "
            "fewer of them)",
            c->m->file ? c->m->file : "<udf>", at.line, at.col, CG_MAX_FINALLY_STMTS);
    return;
  }
  cg_stmts(c, fin);
}

/* Emits the finally block of tries[i] as code outside that try: the tries from i up and the
 * except clauses entered inside it are not around it. */
static void run_finally(cg *c, int i) {
  cg_try saved_tries[CG_MAX_TRIES];
  cg_exc saved_excs[CG_MAX_TRIES];
  int ntries = c->ntries, nexc = c->nexc, exc_at = c->tries[i].nexc;
  const udf_block *fin = c->tries[i].finalbody;
  memcpy(saved_tries, c->tries + i, (size_t)(ntries - i) * sizeof(cg_try));
  memcpy(saved_excs, c->excs + exc_at, (size_t)(nexc - exc_at) * sizeof(cg_exc));
  c->ntries = i;
  c->nexc = exc_at;
  emit_finally(c, fin);
  memcpy(c->tries + i, saved_tries, (size_t)(ntries - i) * sizeof(cg_try));
  memcpy(c->excs + exc_at, saved_excs, (size_t)(nexc - exc_at) * sizeof(cg_exc));
  c->ntries = ntries;
  c->nexc = nexc;
}

bool cg_has_finally(const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    const udf_stmt *s = b->items[i];
    switch (s->kind) {
    case UDF_S_IF:
      if (cg_has_finally(&s->u.if_.body) || cg_has_finally(&s->u.if_.orelse))
        return true;
      break;
    case UDF_S_WHILE:
      if (cg_has_finally(&s->u.while_.body) || cg_has_finally(&s->u.while_.orelse))
        return true;
      break;
    case UDF_S_FOR:
      if (cg_has_finally(&s->u.for_.body) || cg_has_finally(&s->u.for_.orelse))
        return true;
      break;
    case UDF_S_TRY:
      return true; /* a try without finally may hold one; the slot is cheap */
    default: break;
    }
  }
  return false;
}

/* The type a pending return's value is kept as. */
static udf_type pending_type(cg *c) {
  return c->writer ? (UDF_TY_STR | UDF_TY_NULLABLE) : c->fn->result;
}

/* The innermost try with a finally block, or -1. */
static int innermost_finally(cg *c) {
  for (int i = c->ntries - 1; i >= 0; i--)
    if (c->tries[i].is_finally)
      return i;
  return -1;
}

/* Leaves from a point at temp depth tries[j].temps... for the shared return path of try j. */
static void goto_return_path(cg *c, int j) {
  cg_try *t = &c->tries[j];
  if (!t->ret_bb)
    t->ret_bb = cg_block(c, "finally.return");
  cg_release_temps_above(c, t->temps);
  LLVMBuildBr(c->b, t->ret_bb);
}

bool cg_return_through_finally(cg *c, cg_val *v) {
  int j = innermost_finally(c);
  if (j < 0 || c->ret_frame < 0)
    return false;
  udf_type pt = pending_type(c);
  if (udf_type_base(pt) != UDF_TY_NONE) {
    if (!c->ret_slot)
      c->ret_slot = cg_alloca(c, cg_llty(c, pt), "ret.pending");
    cg_val nv = {cg_null_value(c, pt), pt, false};
    cg_val val = v ? cg_coerce(c, *v, pt) : nv;
    if (cg_is_refcounted(pt)) { /* the slot owns the value: the one it held goes */
      LLVMValueRef fp = cg_frame_slot_ptr(c, c->ret_frame);
      LLVMValueRef old = LLVMBuildLoad2(c->b, c->ptr, fp, "");
      cg_call(c, "nrt_mi_decref_local", "v:p", &old, 1);
      LLVMBuildStore(c->b, cg_mi(c, val), cg_frame_slot_ptr(c, c->ret_frame));
    }
    LLVMBuildStore(c->b, val.v, c->ret_slot);
    if (v && v->temp && cg_is_refcounted(pt))
      cg_drop_temp(c, *v);
    else if (v)
      cg_release(c, *v);
  } else if (v) {
    cg_release(c, *v);
  }
  goto_return_path(c, j);
  return true;
}

/* The innermost try with a finally block inside the innermost loop, or -1. */
static int finally_in_loop(cg *c) {
  int j = innermost_finally(c);
  return j >= 0 && c->nloops > 0 && c->tries[j].loops == c->nloops ? j : -1;
}

static void goto_jump_path(cg *c, int j, bool is_break) {
  cg_try *t = &c->tries[j];
  LLVMBasicBlockRef *bb = is_break ? &t->brk_bb : &t->cont_bb;
  if (!*bb)
    *bb = cg_block(c, is_break ? "finally.break" : "finally.continue");
  cg_release_temps_above(c, t->temps);
  LLVMBuildBr(c->b, *bb);
}

bool cg_jump_through_finally(cg *c, bool is_break) {
  int j = finally_in_loop(c);
  if (j < 0)
    return false;
  goto_jump_path(c, j, is_break);
  return true;
}

/* The end of a shared break or continue path, after its finally block. */
static void finish_jump(cg *c, bool is_break) {
  int j = finally_in_loop(c);
  if (j >= 0) {
    goto_jump_path(c, j, is_break);
    return;
  }
  cg_loop *l = &c->loops[c->nloops - 1];
  cg_release_temps_above(c, l->temps);
  LLVMBuildBr(c->b, is_break ? l->brk : l->cont);
}

/* The end of a shared return path, after its finally block: on to the next finally block out,
 * or the function's exit with the pending value. */
static void finish_return(cg *c) {
  int j = innermost_finally(c);
  if (j >= 0) {
    goto_return_path(c, j);
    return;
  }
  udf_type pt = pending_type(c);
  if (c->writer) {
    cg_val v = {LLVMBuildLoad2(c->b, cg_llty(c, pt), c->ret_slot, "ret"), pt, false};
    cg_write_value(c, v); /* None: a null row */
    cg_release_temps_above(c, 0);
    cg_leave(c, cg_i32(c, NRT_OK));
    return;
  }
  if (udf_type_base(pt) != UDF_TY_NONE) {
    cg_val v = {LLVMBuildLoad2(c->b, cg_llty(c, pt), c->ret_slot, "ret"), pt, false};
    cg_incref(c, v); /* the result's own reference; the frame releases the slot's */
    LLVMBuildStore(c->b, v.v, c->result);
  }
  cg_release_temps_above(c, 0);
  cg_leave(c, cg_i32(c, NRT_OK));
}

/* Saves the exception being handled (status in status_slot, message in err) into a fresh
 * cg_exc, and clears err. */
static cg_exc save_exception(cg *c, LLVMValueRef status) {
  cg_exc x;
  x.code = cg_alloca(c, c->i32, "exc.code");
  x.msg = cg_alloca(c, LLVMArrayType(c->i8, NRT_ERROR_MESSAGE_SIZE), "exc.msg");
  LLVMBuildStore(c->b, status, x.code);
  LLVMValueRef args[2] = {c->err, LLVMBuildBitCast(c->b, x.msg, c->ptr, "")};
  cg_call(c, "nrt_udf_rt_exc_save", "v:pp", args, 2);
  return x;
}

/* Raises the saved exception x again (a bare raise, the end of a finally block). */
static void reraise(cg *c, const cg_exc *x) {
  LLVMValueRef args[3] = {c->err, LLVMBuildLoad2(c->b, c->i32, x->code, ""),
                          LLVMBuildBitCast(c->b, x->msg, c->ptr, "")};
  cg_leave_raising(c, cg_call(c, "nrt_udf_rt_exc_restore", "i:pip", args, 3));
  cg_at(c, cg_block(c, "after.raise"));
}

/* status is one of the classes of `catches` (i1). */
static LLVMValueRef matches(cg *c, LLVMValueRef status, uint32_t catches) {
  LLVMValueRef any = LLVMConstInt(c->i1, 0, 0);
  for (int i = 0; i < UDF_EXC_COUNT; i++)
    if (catches & (1u << i))
      any = LLVMBuildOr(c->b, any,
                        LLVMBuildICmp(c->b, LLVMIntEQ, status, cg_i32(c, udf_exc_status(i)), ""),
                        "");
  return any;
}

static bool has_bare_raise(const udf_block *b);

static bool stmt_has_bare_raise(const udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_RAISE: return s->u.raise.exc == NULL;
  case UDF_S_IF: return has_bare_raise(&s->u.if_.body) || has_bare_raise(&s->u.if_.orelse);
  case UDF_S_WHILE:
    return has_bare_raise(&s->u.while_.body) || has_bare_raise(&s->u.while_.orelse);
  case UDF_S_FOR: return has_bare_raise(&s->u.for_.body) || has_bare_raise(&s->u.for_.orelse);
  case UDF_S_TRY:
    for (int k = 0; k < s->u.try_.nhandlers; k++)
      if (has_bare_raise(&s->u.try_.handlers[k]->body))
        return true;
    return has_bare_raise(&s->u.try_.body) || has_bare_raise(&s->u.try_.orelse) ||
           has_bare_raise(&s->u.try_.finalbody);
  default: return false;
  }
}

static bool has_bare_raise(const udf_block *b) {
  for (int i = 0; i < b->n; i++)
    if (stmt_has_bare_raise(b->items[i]))
      return true;
  return false;
}

/* One except clause: binds its name, runs its body, unbinds the name. The exception is saved
 * only where something reads it again (the name, a bare raise): else err is just cleared. */
static void emit_handler(cg *c, const udf_handler *h, LLVMValueRef status) {
  if (!h->name && !has_bare_raise(&h->body)) {
    LLVMValueRef args[2] = {c->err, cg_null(c)};
    cg_call(c, "nrt_udf_rt_exc_save", "v:pp", args, 2);
    cg_stmts(c, &h->body);
    return;
  }
  cg_exc x = save_exception(c, status);
  if (h->name) {
    LLVMValueRef arg = LLVMBuildBitCast(c->b, x.msg, c->ptr, "");
    cg_val msg = cg_new_str(c, "nrt_udf_rt_exc_str", "i:psp", &arg, 1);
    cg_bind(c, h->name, msg);
    cg_release(c, msg);
  }
  if (c->nexc >= CG_MAX_TRIES) {
    cg_fail(c, "except clauses nested deeper than %d", CG_MAX_TRIES);
    return;
  }
  c->excs[c->nexc++] = x;
  cg_stmts(c, &h->body);
  c->nexc--;
  if (h->name && cg_open(c))
    cg_unbind(c, h->name);
}

void cg_try_stmt(cg *c, const udf_stmt *s) {
  bool has_fin = s->u.try_.finalbody.n > 0;
  int nh = s->u.try_.nhandlers;
  LLVMBasicBlockRef end = cg_block(c, "try.end");
  LLVMBasicBlockRef fin_land = has_fin ? cg_block(c, "finally.raise") : NULL;
  LLVMBasicBlockRef exc_land = nh ? cg_block(c, "except") : NULL;
  int depth = c->ntries;
  if (has_fin)
    push_try(c, true, fin_land, &s->u.try_.finalbody);
  if (nh)
    push_try(c, false, exc_land, NULL);
  if (c->failed)
    return;
  cg_stmts(c, &s->u.try_.body);
  if (nh)
    c->ntries--;
  if (cg_open(c))
    cg_stmts(c, &s->u.try_.orelse);
  if (has_fin && cg_open(c))
    run_finally(c, depth);
  cg_goto(c, end);
  if (nh) {
    cg_at(c, exc_land);
    LLVMValueRef status = LLVMBuildLoad2(c->b, c->i32, c->status_slot, "exc");
    for (int k = 0; k < nh && !c->failed; k++) {
      const udf_handler *h = s->u.try_.handlers[k];
      LLVMBasicBlockRef body = cg_block(c, "except.body"), next = cg_block(c, "except.next");
      LLVMBuildCondBr(c->b, matches(c, status, h->catches), body, next);
      cg_at(c, body);
      emit_handler(c, h, status);
      if (has_fin && cg_open(c))
        run_finally(c, depth);
      cg_goto(c, end);
      cg_at(c, next);
    }
    cg_leave_raising(c, status); /* no clause matched: on outward */
  }
  if (has_fin) {
    cg_try t = c->tries[c->ntries - 1];
    c->ntries--;
    /* The returns, breaks and continues leaving the try: the finally block once for each
     * kind of exit, then on to the next finally block out or the target. */
    if (t.ret_bb) {
      cg_at(c, t.ret_bb);
      emit_finally(c, &s->u.try_.finalbody);
      if (cg_open(c))
        finish_return(c);
    }
    for (int k = 0; k < 2; k++) {
      LLVMBasicBlockRef bb = k == 0 ? t.brk_bb : t.cont_bb;
      if (!bb)
        continue;
      cg_at(c, bb);
      emit_finally(c, &s->u.try_.finalbody);
      if (cg_open(c))
        finish_jump(c, k == 0);
    }
    cg_at(c, fin_land);
    LLVMValueRef status = LLVMBuildLoad2(c->b, c->i32, c->status_slot, "exc");
    cg_exc x = save_exception(c, status);
    if (c->nexc >= CG_MAX_TRIES) {
      cg_fail(c, "except clauses nested deeper than %d", CG_MAX_TRIES);
      return;
    }
    c->excs[c->nexc++] = x; /* a bare raise in it raises the pending exception, as in Python */
    emit_finally(c, &s->u.try_.finalbody);
    c->nexc--;
    if (cg_open(c))
      reraise(c, &x);
    if (cg_open(c))
      LLVMBuildUnreachable(c->b);
  }
  cg_at(c, end);
}

void cg_raise_stmt(cg *c, const udf_stmt *s) {
  if (!s->u.raise.exc) { /* the checker allows it only inside an except clause */
    if (c->nexc == 0) {
      cg_fail(c, "internal error: bare raise outside an except clause");
      return;
    }
    reraise(c, &c->excs[c->nexc - 1]);
    return;
  }
  if (!s->u.raise.msg) {
    cg_raise(c, s->u.raise.code, "");
    return;
  }
  cg_val msg = cg_expr(c, s->u.raise.msg);
  LLVMValueRef args[3] = {c->err, cg_i32(c, s->u.raise.code), cg_spill(c, msg.v)};
  LLVMValueRef st = cg_call(c, "nrt_udf_rt_raise_str", "i:pis", args, 3);
  cg_leave_raising(c, st); /* releases msg with the other temporaries */
  if (msg.temp)
    cg_drop_temp(c, msg);
  cg_at(c, cg_block(c, "after.raise"));
}

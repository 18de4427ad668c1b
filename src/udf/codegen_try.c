/* try / except / else / finally and raise.
 *
 * A raising operation inside a try body stores its status in status_slot and branches to the
 * innermost try's landing after releasing the temporaries made inside the try (cg_leave_raising
 * in codegen_util.c); the locals need nothing: they stay bound, released at the function's
 * exits through the frame. The landing of except clauses compares the status with the codes of
 * each clause's classes (exceptions.h), and an exception no clause matches goes on outward.
 *
 * A finally block is emitted once for each way out of its try: on the normal path, on the
 * exceptional path (its own landing: the exception is saved, the block runs, the exception is
 * raised again), and before each return, break or continue that leaves the try. Each copy is
 * emitted as code outside the try, so an exception in it goes outward and a return in it
 * leaves the function, as in Python. */
#include <string.h>

#include "nrt/core.h"
#include "udf/codegen_internal.h"
#include "udf/exceptions.h"

static void push_try(cg *c, bool is_finally, LLVMBasicBlockRef landing, const udf_block *fin) {
  if (c->ntries >= CG_MAX_TRIES) {
    cg_fail(c, "try statements nested deeper than %d", CG_MAX_TRIES);
    return;
  }
  c->tries[c->ntries++] = (cg_try){is_finally, landing, c->ntemps, c->nloops, c->nexc, fin};
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
  cg_stmts(c, fin);
  memcpy(c->tries + i, saved_tries, (size_t)(ntries - i) * sizeof(cg_try));
  memcpy(c->excs + exc_at, saved_excs, (size_t)(nexc - exc_at) * sizeof(cg_exc));
  c->ntries = ntries;
  c->nexc = nexc;
}

void cg_run_finallies(cg *c, int min_loops) {
  for (int i = c->ntries - 1; i >= 0 && cg_open(c) && !c->failed; i--) {
    if (c->tries[i].loops < min_loops)
      break;
    if (c->tries[i].is_finally)
      run_finally(c, i);
  }
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
    c->ntries--;
    cg_at(c, fin_land);
    LLVMValueRef status = LLVMBuildLoad2(c->b, c->i32, c->status_slot, "exc");
    cg_exc x = save_exception(c, status);
    if (c->nexc >= CG_MAX_TRIES) {
      cg_fail(c, "except clauses nested deeper than %d", CG_MAX_TRIES);
      return;
    }
    c->excs[c->nexc++] = x; /* a bare raise in it raises the pending exception, as in Python */
    cg_stmts(c, &s->u.try_.finalbody);
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

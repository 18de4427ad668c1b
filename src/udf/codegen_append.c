/* Growing a str local in place: `v += e` and `v = v + e`, Python's string-building loop.
 *
 *     out = ''
 *     for c in s:
 *         if c.isalnum():
 *             out += c.lower()      # nrt_str_append: amortised O(len(e)), not O(len(out))
 *     return out
 *
 * CPython appends in place when the string's refcount is 1. Compiled code cannot ask that:
 * refprune removes incref/decref pairs, so a count of 1 does not prove that no other value
 * shares the string. Instead a local qualifies when the code proves that its value is never
 * held anywhere else (cg_find_appenders below): every read of v other than its appends is
 * consumed within its statement (an ancestor has a scalar type: len(v), v == x, `if v`,
 * v.endswith(x); or is a concatenation, which copies rather than shares a growing operand:
 * `result = out + '!'`; never an argument of a user function), discarded (an expression
 * statement), or returned (directly or through a conditional expression's branches). A value
 * leaving a function that has such a local goes through nrt_str_fit, so a buffer with room
 * never leaves its variable and only that variable ever appends to it. The appends themselves
 * follow the calling convention (a new reference out, the old value released by the bind), so
 * refprune stays sound. */
#include <string.h>

#include "udf/codegen_internal.h"

static bool is_scalar(udf_type t) {
  udf_type b = udf_type_base(t);
  return b == UDF_TY_NONE || b == UDF_TY_BOOL || b == UDF_TY_INT || b == UDF_TY_FLOAT;
}

/* How a statement uses the value of its expression. */
enum use {
  USE_HELD,     /* bound, iterated over or appended: the value outlives the expression */
  USE_RETURNED, /* returned: it leaves through nrt_str_fit */
  USE_CONSUMED  /* turned into a scalar, or discarded, within the statement */
};

/* One scan of a function for all its locals at once (a scan per local would be quadratic in
 * the function's size). `only` / `skip`: the reads of that one variable alone are recorded, or
 * every read but that one's (an append `v = v + e` sees e differently for v and the others). */
struct scan {
  int *appends;  /* per local */
  bool *shared;  /* per local: a read may be held by another value */
  enum use use;  /* of the expression being visited */
  const udf_var *only, *skip;
};

static void scan_expr(struct scan *s, const udf_expr *e);

static void scan_child(void *ctx, const udf_expr *e) { scan_expr(ctx, e); }

static void scan_expr(struct scan *s, const udf_expr *e) {
  if (e->kind == UDF_E_NAME) {
    const udf_var *v = e->u.name.var;
    if (v && v->index >= 0 && s->use == USE_HELD && v != s->skip && (!s->only || v == s->only))
      s->shared[v->index] = true;
    return;
  }
  enum use outer = s->use;
  if (e->kind == UDF_E_NAMED) { /* the value is held by the target and by the expression */
    const udf_var *v = e->u.named.target->u.name.var;
    if (v && v->index >= 0)
      s->shared[v->index] = true;
    s->use = USE_HELD;
    scan_expr(s, e->u.named.value);
    s->use = outer;
    return;
  }
  bool concat = e->kind == UDF_E_BINARY && e->u.binary.op == UDF_OP_ADD &&
                udf_type_base(e->type) == UDF_TY_STR;
  if (e->kind == UDF_E_CALL && e->u.call.ckind == UDF_CALL_FUNC)
    s->use = USE_HELD; /* another function's locals could take v's value */
  else if (is_scalar(e->type) || concat)
    s->use = USE_CONSUMED; /* a concatenation copies a growing operand (nrt_str_concat) */
  else if (outer == USE_RETURNED && e->kind != UDF_E_IFEXP)
    s->use = USE_HELD; /* a call, subscript, list... may keep v's value */
  udf_expr_each_child(e, scan_child, s);
  s->use = outer;
}

static void scan_root(struct scan *s, const udf_expr *e, enum use use) {
  if (!e)
    return;
  s->use = use;
  scan_expr(s, e);
}

/* `v = v + e` with a single target v: an append of e. */
static const udf_expr *self_concat(const udf_stmt *st, const udf_var *v) {
  if (st->u.assign.ntargets != 1 || st->u.assign.targets[0]->kind != UDF_E_NAME ||
      st->u.assign.targets[0]->u.name.var != v)
    return NULL;
  const udf_expr *x = st->u.assign.value;
  if (x->kind != UDF_E_BINARY || x->u.binary.op != UDF_OP_ADD ||
      udf_type_base(x->type) != UDF_TY_STR || x->u.binary.left->kind != UDF_E_NAME ||
      x->u.binary.left->u.name.var != v)
    return NULL;
  return x->u.binary.right;
}

static void scan_block(struct scan *s, const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    const udf_stmt *st = b->items[i];
    switch (st->kind) {
    case UDF_S_EXPR: scan_root(s, st->u.expr, USE_CONSUMED); break;
    case UDF_S_ASSIGN: {
      const udf_expr *t = st->u.assign.targets[0];
      const udf_var *v = t->kind == UDF_E_NAME ? t->u.name.var : NULL;
      const udf_expr *appended = v ? self_concat(st, v) : NULL;
      if (!appended) {
        scan_root(s, st->u.assign.value, USE_HELD);
        break;
      }
      /* For v, an append of e; for the others, e is an operand of a concatenation. */
      s->appends[v->index]++;
      s->only = v;
      scan_root(s, appended, USE_HELD);
      s->only = NULL;
      s->skip = v;
      scan_root(s, appended, USE_CONSUMED);
      s->skip = NULL;
      break;
    }
    case UDF_S_AUGASSIGN: {
      /* v op= e rebinds v to its own result: only e's reads of v matter. */
      const udf_var *v = st->u.augassign.target->u.name.var;
      if (st->u.augassign.op == UDF_OP_ADD && v && v->index >= 0)
        s->appends[v->index]++;
      scan_root(s, st->u.augassign.value, USE_HELD);
      break;
    }
    case UDF_S_IF:
      scan_root(s, st->u.if_.test, USE_HELD);
      scan_block(s, &st->u.if_.body);
      scan_block(s, &st->u.if_.orelse);
      break;
    case UDF_S_WHILE:
      scan_root(s, st->u.while_.test, USE_HELD);
      scan_block(s, &st->u.while_.body);
      scan_block(s, &st->u.while_.orelse);
      break;
    case UDF_S_FOR:
      scan_root(s, st->u.for_.iter, USE_HELD);
      scan_block(s, &st->u.for_.body);
      scan_block(s, &st->u.for_.orelse);
      break;
    case UDF_S_RETURN: scan_root(s, st->u.ret.value, USE_RETURNED); break;
    case UDF_S_RAISE:
      if (st->u.raise.msg) scan_root(s, st->u.raise.msg, USE_HELD);
      break;
    case UDF_S_SETITEM:
    case UDF_S_DELITEM:
      scan_root(s, st->u.setitem.target, USE_HELD);
      if (st->u.setitem.value) scan_root(s, st->u.setitem.value, USE_HELD);
      break;
    case UDF_S_TRY:
      scan_block(s, &st->u.try_.body);
      for (int k = 0; k < st->u.try_.nhandlers; k++)
        scan_block(s, &st->u.try_.handlers[k]->body);
      scan_block(s, &st->u.try_.orelse);
      scan_block(s, &st->u.try_.finalbody);
      break;
    default: break;
    }
  }
}

/* A local qualifies when it is a plain str local that is appended to and never shared. */
bool cg_find_appenders(cg *c, const udf_func *f) {
  int n = f->nlocals ? f->nlocals : 1;
  size_t ibytes = sizeof(int) * (size_t)n, bbytes = sizeof(bool) * (size_t)n;
  struct scan s = {nrt_allocate(ibytes, c->errp), nrt_allocate(bbytes, c->errp), USE_HELD,
                   NULL, NULL};
  bool any = false;
  if (!s.appends || !s.shared) {
    c->failed = 1;
    c->code = NRT_ENOMEM;
    memset(c->appender, 0, sizeof(bool) * (size_t)n);
  } else {
    memset(s.appends, 0, ibytes);
    memset(s.shared, 0, bbytes);
    scan_block(&s, &f->body);
    for (int i = 0; i < f->nlocals; i++) {
      const udf_var *v = f->locals[i];
      c->appender[i] = v->type == UDF_TY_STR && !v->is_comp_var && s.appends[i] > 0 &&
                       !s.shared[i];
      any |= c->appender[i];
    }
  }
  nrt_free(s.appends, s.appends ? ibytes : 0);
  nrt_free(s.shared, s.shared ? bbytes : 0);
  return any;
}

cg_val cg_str_append(cg *c, cg_val cur, cg_val x) {
  LLVMValueRef args[2] = {cg_spill(c, cur.v), cg_spill(c, x.v)};
  return cg_new_str(c, "nrt_str_append", "i:sssp", args, 2);
}

bool cg_is_self_concat(cg *c, const udf_stmt *s) {
  const udf_expr *t = s->u.assign.targets[0];
  return t->kind == UDF_E_NAME && c->appender[t->u.name.var->index] &&
         self_concat(s, t->u.name.var) != NULL;
}

cg_val cg_fit_result(cg *c, cg_val v) {
  if (!c->fits_results || udf_type_base(v.type) != UDF_TY_STR)
    return v;
  LLVMValueRef arg = cg_spill(c, v.v);
  cg_val r = cg_new_str(c, "nrt_str_fit", "i:ssp", &arg, 1);
  r.type = v.type;
  cg_release(c, v);
  return r;
}

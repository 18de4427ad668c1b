/* Locals kept as SSA values: a local bound exactly once, outside every loop, and definitely
 * assigned wherever it is read (types_flow.c) has its one binding dominating every read, so
 * the code generator can use the bound value itself instead of an alloca. Promoting allocas
 * costs LLVM's mem2reg a walk of the dominator subtree below each one's bindings, which in a
 * long function is most of it: a function of n statements binding n locals once each (the
 * common shape of generated code) was quadratic to compile. Locals bound more than once keep
 * their allocas. */
#include <string.h>

#include "udf/codegen_internal.h"

struct bindings {
  int *count;   /* per local: binding sites */
  bool *looped; /* per local: a binding site inside a loop */
};

static void bind_target(struct bindings *b, const udf_expr *t, int loops) {
  if (t->kind == UDF_E_NAME) {
    const udf_var *v = t->u.name.var;
    if (v && v->index >= 0) {
      b->count[v->index]++;
      b->looped[v->index] |= loops > 0;
    }
  } else if (t->kind == UDF_E_TUPLE) {
    for (int i = 0; i < t->u.seq.n; i++)
      bind_target(b, t->u.seq.items[i], loops);
  }
}

static void bind_looped(void *ctx, udf_var *v) {
  struct bindings *b = ctx;
  if (v->index >= 0) {
    b->count[v->index]++;
    b->looped[v->index] = true;
  }
}

/* An assignment expression's target is never an SSA value: counted twice. */
static void count_named(void *ctx, const udf_expr *e) {
  struct bindings *b = ctx;
  const udf_var *v = e->kind == UDF_E_NAMED ? e->u.named.target->u.name.var : NULL;
  if (v && v->index >= 0)
    b->count[v->index] += 2;
  udf_expr_each_child(e, count_named, b);
}

static const udf_expr *stmt_expr(const udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_EXPR: return s->u.expr;
  case UDF_S_ASSIGN: return s->u.assign.value;
  case UDF_S_AUGASSIGN: return s->u.augassign.value;
  case UDF_S_IF: return s->u.if_.test;
  case UDF_S_WHILE: return s->u.while_.test;
  case UDF_S_FOR: return s->u.for_.iter;
  case UDF_S_RETURN: return s->u.ret.value;
  case UDF_S_RAISE: return s->u.raise.msg;
  default: return NULL;
  }
}

static void count_block(struct bindings *b, const udf_block *blk, int loops) {
  for (int i = 0; i < blk->n; i++) {
    const udf_stmt *s = blk->items[i];
    if (stmt_expr(s))
      count_named(b, stmt_expr(s));
    switch (s->kind) {
    case UDF_S_ASSIGN:
      for (int k = 0; k < s->u.assign.ntargets; k++)
        bind_target(b, s->u.assign.targets[k], loops);
      break;
    case UDF_S_AUGASSIGN: bind_target(b, s->u.augassign.target, loops); break;
    case UDF_S_SETITEM: /* d[k] = v binds no name, but := inside it does */
    case UDF_S_DELITEM:
      count_named(b, s->u.setitem.target);
      if (s->u.setitem.value)
        count_named(b, s->u.setitem.value);
      break;
    case UDF_S_IF:
      count_block(b, &s->u.if_.body, loops);
      count_block(b, &s->u.if_.orelse, loops);
      break;
    case UDF_S_WHILE:
      count_block(b, &s->u.while_.body, loops + 1);
      count_block(b, &s->u.while_.orelse, loops);
      break;
    case UDF_S_FOR: {
      udf_target_each_var(s->u.for_.target, s->u.for_.unpack, bind_looped, b);
      count_block(b, &s->u.for_.body, loops + 1);
      count_block(b, &s->u.for_.orelse, loops);
      break;
    }
    case UDF_S_TRY:
      /* As a loop: a handler does not see the body's bindings as SSA values dominating it,
       * and a finally block is emitted once per way out. */
      count_block(b, &s->u.try_.body, loops + 1);
      for (int k = 0; k < s->u.try_.nhandlers; k++)
        count_block(b, &s->u.try_.handlers[k]->body, loops + 1);
      count_block(b, &s->u.try_.orelse, loops + 1);
      count_block(b, &s->u.try_.finalbody, loops + 1);
      break;
    default: break;
    }
  }
}

bool cg_find_ssa_locals(cg *c, const udf_func *f) {
  int n = f->nlocals ? f->nlocals : 1;
  size_t ibytes = sizeof(int) * (size_t)n, bbytes = sizeof(bool) * (size_t)n;
  struct bindings b = {nrt_allocate(ibytes, c->errp), nrt_allocate(bbytes, c->errp)};
  bool ok = b.count && b.looped;
  memset(c->ssa, 0, bbytes);
  if (ok) {
    memset(b.count, 0, ibytes);
    memset(b.looped, 0, bbytes);
    count_block(&b, &f->body, 0);
    for (int i = 0; i < f->nlocals; i++) {
      const udf_var *v = f->locals[i];
      c->ssa[i] = !v->is_param && !v->is_comp_var && !v->needs_bound_flag && b.count[i] == 1 &&
                  !b.looped[i];
    }
  } else {
    c->failed = 1;
    c->code = NRT_ENOMEM;
  }
  nrt_free(b.count, b.count ? ibytes : 0);
  nrt_free(b.looped, b.looped ? bbytes : 0);
  return ok;
}

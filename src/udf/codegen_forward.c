/* Write form: forwarding a single-use string variable into the return that uses it.
 *
 *     if len(s) > 2:                      if len(s) > 2:
 *         result = s.upper()                  return s.upper() + 'abc'   (written in place)
 *     else:                        ==>    else:
 *         result = s + s                      return s + s + 'abc'       (written in place)
 *     return result + 'abc'
 *
 * When a `return R` directly follows an assignment `v = A`, or an if/elif/else whose every
 * branch ends by assigning v, and v is R's first evaluated operand and used nowhere else in
 * the function, the return is written at the end of each branch with A in v's place. Nothing
 * is evaluated in between in Python either (A is the branch's last step, v the return's
 * first), so the order of effects and errors is Python's; v's string is never made. */
#include "udf/codegen_internal.h"

/* Distinct name nodes reading one variable (a node reached twice counts once). `blocked`: v
 * is also a loop target. */
struct uses {
  const udf_var *v;
  const udf_expr *seen[2];
  int n;
  bool blocked;
};

static void note(struct uses *u, const udf_expr *e) {
  if (e->u.name.var != u->v)
    return;
  for (int k = 0; k < u->n && k < 2; k++)
    if (u->seen[k] == e)
      return;
  if (u->n < 2)
    u->seen[u->n] = e;
  u->n++;
}

static void walk_expr(struct uses *u, const udf_expr *e);

static void walk_child(void *u, const udf_expr *e) { walk_expr(u, e); }

static void block_var(void *ctx, udf_var *v) {
  struct uses *u = ctx;
  u->blocked |= v == u->v;
}

static void walk_expr(struct uses *u, const udf_expr *e) {
  if (!e)
    return;
  if (e->kind == UDF_E_NAMED)
    u->blocked |= e->u.named.target->u.name.var == u->v;
  if (e->kind == UDF_E_NAME) {
    note(u, e);
    return;
  }
  if (e->kind == UDF_E_LISTCOMP || e->kind == UDF_E_GENEXP)
    for (int g = 0; g < e->u.comp.ngens; g++)
      udf_target_each_var(e->u.comp.gens[g].target, e->u.comp.gens[g].unpack, block_var, u);
  udf_expr_each_child(e, walk_child, u);
}

static void walk_block(struct uses *u, const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    const udf_stmt *s = b->items[i];
    switch (s->kind) {
    case UDF_S_EXPR: walk_expr(u, s->u.expr); break;
    case UDF_S_ASSIGN: walk_expr(u, s->u.assign.value); break; /* targets are stores */
    case UDF_S_AUGASSIGN:
      note(u, s->u.augassign.target); /* reads the target */
      walk_expr(u, s->u.augassign.value);
      break;
    case UDF_S_IF: { /* an elif chain in a loop: its length costs no stack */
      const udf_stmt *e = s;
      for (;;) {
        walk_expr(u, e->u.if_.test);
        walk_block(u, &e->u.if_.body);
        const udf_block *o = &e->u.if_.orelse;
        if (o->n != 1 || o->items[0]->kind != UDF_S_IF) {
          walk_block(u, o);
          break;
        }
        e = o->items[0];
      }
      break;
    }
    case UDF_S_WHILE:
      walk_expr(u, s->u.while_.test);
      walk_block(u, &s->u.while_.body);
      walk_block(u, &s->u.while_.orelse);
      break;
    case UDF_S_FOR:
      udf_target_each_var(s->u.for_.target, s->u.for_.unpack, block_var, u);
      walk_expr(u, s->u.for_.iter);
      walk_block(u, &s->u.for_.body);
      walk_block(u, &s->u.for_.orelse);
      break;
    case UDF_S_RETURN: walk_expr(u, s->u.ret.value); break;
    case UDF_S_RAISE: walk_expr(u, s->u.raise.msg); break;
    case UDF_S_SETITEM:
    case UDF_S_DELITEM:
      walk_expr(u, s->u.setitem.target);
      walk_expr(u, s->u.setitem.value);
      break;
    case UDF_S_TRY:
      walk_block(u, &s->u.try_.body);
      for (int k = 0; k < s->u.try_.nhandlers; k++) {
        u->blocked |= s->u.try_.handlers[k]->name == u->v;
        walk_block(u, &s->u.try_.handlers[k]->body);
      }
      walk_block(u, &s->u.try_.orelse);
      walk_block(u, &s->u.try_.finalbody);
      break;
    default: break;
    }
  }
}

/* The operand a str concatenation evaluates first. */
static const udf_expr *first_operand(const udf_expr *e) {
  while (e->kind == UDF_E_BINARY && e->u.binary.op == UDF_OP_ADD &&
         udf_type_base(e->type) == UDF_TY_STR)
    e = e->u.binary.left;
  return e;
}

/* s assigns v alone: `v = A`. */
static bool assigns(const udf_stmt *s, const udf_var *v) {
  return s->kind == UDF_S_ASSIGN && s->u.assign.ntargets == 1 &&
         s->u.assign.targets[0]->kind == UDF_E_NAME && s->u.assign.targets[0]->u.name.var == v;
}

/* s assigns v as its last step on every path that reaches its end (a branch may also leave
 * early: return, break, continue run as usual). */
static bool ends_assigning(const udf_stmt *s, const udf_var *v) {
  for (;;) { /* along the else blocks in a loop: an elif chain costs no stack */
    if (assigns(s, v))
      return true;
    if (s->kind != UDF_S_IF || s->u.if_.body.n == 0 || s->u.if_.orelse.n == 0 ||
        !ends_assigning(s->u.if_.body.items[s->u.if_.body.n - 1], v))
      return false;
    s = s->u.if_.orelse.items[s->u.if_.orelse.n - 1];
  }
}

/* Emits s, whose last step assigns v, with `return ret` written in place of that step. */
static void emit_forwarded(cg *c, const udf_stmt *s, const udf_var *v, const udf_expr *ret);

static void emit_block_forwarded(cg *c, const udf_block *b, const udf_var *v,
                                 const udf_expr *ret) {
  udf_block head = {b->items, b->n - 1};
  cg_stmts(c, &head);
  if (cg_open(c) && !c->failed)
    emit_forwarded(c, b->items[b->n - 1], v, ret);
}

static void emit_forwarded(cg *c, const udf_stmt *s, const udf_var *v, const udf_expr *ret) {
  /* An elif (an if alone in the else block) in a loop: a chain's length costs no stack. */
  while (s->kind == UDF_S_IF) {
    LLVMValueRef cond = cg_expr(c, s->u.if_.test).v;
    LLVMBasicBlockRef then = cg_block(c, "fwd.then"), els = cg_block(c, "fwd.else");
    LLVMBuildCondBr(c->b, cond, then, els);
    cg_at(c, then);
    emit_block_forwarded(c, &s->u.if_.body, v, ret);
    cg_at(c, els);
    const udf_block *o = &s->u.if_.orelse;
    if (o->n != 1 || c->failed) {
      emit_block_forwarded(c, o, v, ret);
      return;
    }
    s = o->items[0];
  }
  c->fwd_var = v;
  c->fwd_value = s->u.assign.value;
  cg_write(c, ret);
  c->fwd_var = NULL;
  c->fwd_value = NULL;
  cg_release_temps_above(c, 0);
  cg_leave(c, cg_i32(c, NRT_OK));
}

bool cg_write_forward(cg *c, const udf_block *blk, int i) {
  if (!c->writer || i + 1 >= blk->n || blk->items[i + 1]->kind != UDF_S_RETURN ||
      !blk->items[i + 1]->u.ret.value)
    return false;
  const udf_expr *ret = blk->items[i + 1]->u.ret.value;
  const udf_expr *first = first_operand(ret);
  if (first->kind != UDF_E_NAME || first->u.name.check_bound)
    return false;
  const udf_var *v = first->u.name.var;
  if (v->is_param || v->is_comp_var || v->type != UDF_TY_STR ||
      !ends_assigning(blk->items[i], v))
    return false;
  struct uses u = {v, {NULL, NULL}, 0, false};
  walk_block(&u, &c->fn->body);
  if (u.blocked || u.n != 1 || u.seen[0] != first)
    return false;
  emit_forwarded(c, blk->items[i], v, ret);
  cg_at(c, cg_block(c, "after.return"));
  return true;
}

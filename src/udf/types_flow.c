/* Definite assignment and reachability over a checked function (see types.h).
 *
 * The state is the set of variables assigned on every path to a point (a bitset), or "dead"
 * when no path reaches it. Loop bodies are entered with the state before the loop (a safe
 * under-approximation for later iterations), and the state after a loop is the state before it,
 * so a use is only flagged when some path may really reach it unassigned: such uses get
 * check_bound and their variable needs_bound_flag, for a runtime UnboundLocalError. */
#include <string.h>

#include "udf/types.h"

typedef struct state {
  uint64_t *bits;
  bool dead;
} state;

typedef struct flow {
  udf_diagctx *dc;
  udf_arena *a;
  int words;
  bool loop_break[256]; /* per enclosing loop: a break was seen */
  int nloops;
  int cond; /* inside an operand that may not be evaluated */
  bool oom;
} flow;

static bool alloc_state(flow *f, state *s) {
  s->bits = udf_arena_alloc(f->a, (size_t)f->words * sizeof(uint64_t));
  s->dead = false;
  if (!s->bits) f->oom = true;
  return s->bits != NULL;
}

static bool copy_state(flow *f, state *to, const state *from) {
  if (!alloc_state(f, to)) return false;
  memcpy(to->bits, from->bits, (size_t)f->words * sizeof(uint64_t));
  to->dead = from->dead;
  return true;
}

static void meet(flow *f, state *into, const state *other) {
  if (other->dead) return;
  if (into->dead) {
    memcpy(into->bits, other->bits, (size_t)f->words * sizeof(uint64_t));
    into->dead = false;
    return;
  }
  for (int i = 0; i < f->words; i++) into->bits[i] &= other->bits[i];
}

static void set_var(state *s, const udf_var *v) {
  if (v && v->index >= 0) s->bits[v->index / 64] |= (uint64_t)1 << (v->index % 64);
}

static void clear_var(state *s, const udf_var *v) {
  if (v && v->index >= 0) s->bits[v->index / 64] &= ~((uint64_t)1 << (v->index % 64));
}

static bool has_var(const state *s, const udf_var *v) {
  return (s->bits[v->index / 64] >> (v->index % 64)) & 1;
}

static void uses(flow *f, udf_expr *e, state *s);

static void uses_list(flow *f, udf_expr **items, int n, state *s) {
  for (int i = 0; i < n; i++)
    if (items[i]) uses(f, items[i], s);
}

static void uses(flow *f, udf_expr *e, state *s) {
  if (!e || s->dead) return;
  switch (e->kind) {
  case UDF_E_NAME: {
    udf_var *v = e->u.name.var;
    if (v && !v->is_comp_var && v->index >= 0 && !has_var(s, v)) {
      e->u.name.check_bound = true;
      v->needs_bound_flag = true;
    }
    break;
  }
  case UDF_E_FSTRING:
    for (int i = 0; i < e->u.fstring.nparts; i++)
      if (e->u.fstring.parts[i].is_field) uses(f, e->u.fstring.parts[i].expr, s);
    break;
  case UDF_E_UNARY: uses(f, e->u.unary.operand, s); break;
  case UDF_E_BINARY:
    uses(f, e->u.binary.left, s);
    uses(f, e->u.binary.right, s);
    break;
  /* Operands that may not run (short circuits, branches, comprehension bodies): an
   * assignment expression in them does not make its name assigned afterwards. */
  case UDF_E_BOOLOP:
    uses(f, e->u.boolop.values[0], s);
    f->cond++;
    uses_list(f, e->u.boolop.values + 1, e->u.boolop.n - 1, s);
    f->cond--;
    break;
  case UDF_E_COMPARE:
    uses_list(f, e->u.compare.operands, 2, s);
    f->cond++;
    uses_list(f, e->u.compare.operands + 2, e->u.compare.n - 1, s);
    f->cond--;
    break;
  case UDF_E_IFEXP:
    uses(f, e->u.ifexp.test, s);
    f->cond++;
    uses(f, e->u.ifexp.body, s);
    uses(f, e->u.ifexp.orelse, s);
    f->cond--;
    break;
  case UDF_E_NAMED:
    uses(f, e->u.named.value, s);
    if (!f->cond && e->u.named.target->u.name.var) set_var(s, e->u.named.target->u.name.var);
    break;
  case UDF_E_CALL:
    if (e->u.call.ckind == UDF_CALL_METHOD) uses(f, e->u.call.receiver, s);
    uses_list(f, e->u.call.args, e->u.call.nargs, s);
    for (int i = 0; i < e->u.call.nkeywords; i++) uses(f, e->u.call.keywords[i].value, s);
    break;
  case UDF_E_ATTRIBUTE: uses(f, e->u.attribute.value, s); break;
  case UDF_E_SUBSCRIPT:
    uses(f, e->u.subscript.value, s);
    uses(f, e->u.subscript.index, s);
    break;
  case UDF_E_SLICE:
    uses(f, e->u.slice.value, s);
    uses(f, e->u.slice.lower, s);
    uses(f, e->u.slice.upper, s);
    uses(f, e->u.slice.step, s);
    break;
  case UDF_E_LIST:
  case UDF_E_TUPLE: uses_list(f, e->u.seq.items, e->u.seq.n, s); break;
  case UDF_E_LISTCOMP:
  case UDF_E_GENEXP:
    for (int g = 0; g < e->u.comp.ngens; g++) {
      uses(f, e->u.comp.gens[g].iter, s);
      f->cond++;
      uses_list(f, e->u.comp.gens[g].ifs, e->u.comp.gens[g].nifs, s);
    }
    uses(f, e->u.comp.elt, s);
    f->cond -= e->u.comp.ngens;
    break;
  case UDF_E_CAST: uses(f, e->u.cast.operand, s); break;
  case UDF_E_TRUTH: uses(f, e->u.truth.operand, s); break;
  default: break;
  }
}

static void assign_target(state *s, udf_expr *t) {
  if (t->kind == UDF_E_NAME)
    set_var(s, t->u.name.var);
  else if (t->kind == UDF_E_TUPLE)
    for (int i = 0; i < t->u.seq.n; i++) assign_target(s, t->u.seq.items[i]);
}

static void flow_block(flow *f, udf_block *b, state *s);

static void flow_try(flow *f, udf_stmt *st, state *s);

static void set_var_cb(void *s, udf_var *v) { set_var(s, v); }

static void flow_loop(flow *f, udf_block *body, udf_block *orelse, state *s, udf_var *target,
                      udf_expr *unpack, bool forever) {
  state in_body, in_else;
  if (!copy_state(f, &in_body, s) || !copy_state(f, &in_else, s)) return;
  udf_target_each_var(target, unpack, set_var_cb, &in_body);
  if (f->nloops >= (int)(sizeof f->loop_break / sizeof f->loop_break[0])) {
    udf_diag_error(f->dc, NRT_EUNSUPPORTED, (udf_loc){1, 1}, "unsupported: loops nested too deeply");
    return;
  }
  f->loop_break[f->nloops++] = false;
  flow_block(f, body, &in_body);
  bool brk = f->loop_break[--f->nloops];
  if (forever) in_else.dead = true; /* `while True:` leaves only through break */
  flow_block(f, orelse, &in_else);
  if (!brk && in_else.dead) s->dead = true;
}

/* A try statement. An exception may come before any assignment of the body, so a handler
 * starts from the state before the try; the finally block is checked from there too (its
 * exceptional path) and from the join of the normal ways out (what follows it). */
static void flow_try(flow *f, udf_stmt *st, state *s) {
  state before, fin_raising;
  if (!copy_state(f, &before, s) || !copy_state(f, &fin_raising, s)) return;
  flow_block(f, &st->u.try_.body, s);
  flow_block(f, &st->u.try_.orelse, s);
  for (int k = 0; k < st->u.try_.nhandlers && !f->oom; k++) {
    udf_handler *h = st->u.try_.handlers[k];
    state hs;
    if (!copy_state(f, &hs, &before)) return;
    if (h->name) set_var(&hs, h->name);
    flow_block(f, &h->body, &hs);
    if (h->name) clear_var(&hs, h->name); /* Python deletes the name after the clause */
    bool both_dead = s->dead && hs.dead;
    meet(f, s, &hs);
    if (both_dead) s->dead = true;
  }
  if (st->u.try_.finalbody.n > 0) {
    flow_block(f, &st->u.try_.finalbody, &fin_raising);
    flow_block(f, &st->u.try_.finalbody, s);
  }
}

static bool const_true(const udf_expr *e) { return e->kind == UDF_E_BOOL && e->u.bval; }

static void flow_stmt(flow *f, udf_stmt *st, state *s) {
  switch (st->kind) {
  case UDF_S_EXPR: uses(f, st->u.expr, s); break;
  case UDF_S_ASSIGN:
    uses(f, st->u.assign.value, s);
    for (int i = 0; i < st->u.assign.ntargets; i++) assign_target(s, st->u.assign.targets[i]);
    break;
  case UDF_S_AUGASSIGN:
    uses(f, st->u.augassign.target, s);
    uses(f, st->u.augassign.value, s);
    break;
  case UDF_S_IF: {
    uses(f, st->u.if_.test, s);
    state other;
    if (!copy_state(f, &other, s)) return;
    flow_block(f, &st->u.if_.body, s);
    flow_block(f, &st->u.if_.orelse, &other);
    meet(f, s, &other);
    if (other.dead && s->dead) s->dead = true;
    break;
  }
  case UDF_S_WHILE:
    uses(f, st->u.while_.test, s);
    flow_loop(f, &st->u.while_.body, &st->u.while_.orelse, s, NULL, NULL,
              const_true(st->u.while_.test));
    break;
  case UDF_S_FOR:
    uses(f, st->u.for_.iter, s);
    flow_loop(f, &st->u.for_.body, &st->u.for_.orelse, s, st->u.for_.target,
              st->u.for_.unpack, false);
    break;
  case UDF_S_BREAK:
    if (!s->dead && f->nloops > 0) f->loop_break[f->nloops - 1] = true;
    s->dead = true;
    break;
  case UDF_S_CONTINUE: s->dead = true; break;
  case UDF_S_RETURN:
    uses(f, st->u.ret.value, s);
    s->dead = true;
    break;
  case UDF_S_TRY: flow_try(f, st, s); break;
  case UDF_S_RAISE:
    if (st->u.raise.msg) uses(f, st->u.raise.msg, s);
    s->dead = true;
    break;
  case UDF_S_PASS: break;
  case UDF_S_SETITEM:
  case UDF_S_DELITEM:
    uses(f, st->u.setitem.target, s);
    if (st->u.setitem.value) uses(f, st->u.setitem.value, s);
    break;
  }
}

static void flow_block(flow *f, udf_block *b, state *s) {
  for (int i = 0; i < b->n && !f->oom; i++) flow_stmt(f, b->items[i], s);
}

int udf_flow_function(udf_diagctx *dc, udf_arena *a, udf_func *fn) {
  flow f;
  memset(&f, 0, sizeof f);
  f.dc = dc;
  f.a = a;
  f.words = fn->nlocals / 64 + 1;
  state s;
  if (!alloc_state(&f, &s))
    return udf_diag_error(dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  for (int i = 0; i < fn->nparams; i++) set_var(&s, fn->params[i]);
  flow_block(&f, &fn->body, &s);
  if (f.oom) return udf_diag_error(dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  if (udf_diag_failed(dc)) return dc->code;
  fn->falls_off_end = !s.dead;
  return NRT_OK;
}

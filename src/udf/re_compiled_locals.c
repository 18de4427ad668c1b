/* `pat = re.compile(r'...')` inside a function (re_compiled_locals.h): the name becomes a
 * module-level constant of its own, so its methods are rewritten like a module constant's
 * (types_re_pattern.h) and the pattern is compiled once per UDF. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "udf/re_compiled_locals.h"

typedef struct walk {
  const char *id;
  const char *renamed; /* NULL: count bindings and uses only */
  int bindings, uses;
  udf_loc before;      /* uses located before this count in `uses_before` */
  int uses_before;
} walk;

static bool loc_before(udf_loc a, udf_loc b) {
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

static void walk_expr(void *ctx, const udf_expr *ce);

static void bind(walk *w, const udf_expr *t) {
  if (!t) return;
  if (t->kind == UDF_E_NAME) {
    if (strcmp(t->u.name.id, w->id) == 0) w->bindings++;
  } else if (t->kind == UDF_E_TUPLE || t->kind == UDF_E_LIST) {
    for (int i = 0; i < t->u.seq.n; i++) bind(w, t->u.seq.items[i]);
  } else {
    walk_expr(w, t);
  }
}

static void bind_var(walk *w, const udf_var *v) {
  if (v && strcmp(v->name, w->id) == 0) w->bindings++;
}

static void walk_expr(void *ctx, const udf_expr *ce) {
  walk *w = ctx;
  if (!ce) return;
  udf_expr *e = (udf_expr *)(uintptr_t)ce; /* arena nodes, renamed in place */
  if (e->kind == UDF_E_NAME) {
    if (strcmp(e->u.name.id, w->id) != 0) return;
    w->uses++;
    if (loc_before(e->loc, w->before)) w->uses_before++;
    if (w->renamed) e->u.name.id = w->renamed;
    return;
  }
  if (e->kind == UDF_E_NAMED) bind(w, e->u.named.target);
  if (e->kind == UDF_E_LISTCOMP || e->kind == UDF_E_GENEXP || e->kind == UDF_E_DICTCOMP ||
      e->kind == UDF_E_SETCOMP)
    for (int g = 0; g < e->u.comp.ngens; g++) {
      bind_var(w, e->u.comp.gens[g].target);
      bind(w, e->u.comp.gens[g].unpack);
    }
  if (e->kind == UDF_E_CALL)
    for (int k = 0; k < e->u.call.nkeywords; k++) bind_var(w, e->u.call.keywords[k].lambda_param);
  udf_expr_each_child(e, walk_expr, w);
}

static void walk_block(walk *w, const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    const udf_stmt *s = b->items[i];
    switch (s->kind) {
    case UDF_S_EXPR: walk_expr(w, s->u.expr); break;
    case UDF_S_ASSIGN:
      for (int k = 0; k < s->u.assign.ntargets; k++) bind(w, s->u.assign.targets[k]);
      walk_expr(w, s->u.assign.value);
      break;
    case UDF_S_AUGASSIGN:
      bind(w, s->u.augassign.target);
      walk_expr(w, s->u.augassign.target);
      walk_expr(w, s->u.augassign.value);
      break;
    case UDF_S_IF:
      walk_expr(w, s->u.if_.test);
      walk_block(w, &s->u.if_.body);
      walk_block(w, &s->u.if_.orelse);
      break;
    case UDF_S_WHILE:
      walk_expr(w, s->u.while_.test);
      walk_block(w, &s->u.while_.body);
      walk_block(w, &s->u.while_.orelse);
      break;
    case UDF_S_FOR:
      bind_var(w, s->u.for_.target);
      bind(w, s->u.for_.unpack);
      walk_expr(w, s->u.for_.iter);
      walk_block(w, &s->u.for_.body);
      walk_block(w, &s->u.for_.orelse);
      break;
    case UDF_S_SETITEM:
    case UDF_S_DELITEM:
      walk_expr(w, s->u.setitem.target);
      walk_expr(w, s->u.setitem.value);
      break;
    case UDF_S_RETURN: walk_expr(w, s->u.ret.value); break;
    case UDF_S_RAISE: walk_expr(w, s->u.raise.exc); break;
    case UDF_S_TRY:
      walk_block(w, &s->u.try_.body);
      for (int k = 0; k < s->u.try_.nhandlers; k++) {
        bind_var(w, s->u.try_.handlers[k]->name);
        walk_block(w, &s->u.try_.handlers[k]->body);
      }
      walk_block(w, &s->u.try_.orelse);
      walk_block(w, &s->u.try_.finalbody);
      break;
    default: break;
    }
  }
}

static bool is_inside(const udf_func *g, const udf_func *f) {
  for (const udf_func *p = g->parent; p; p = p->parent)
    if (p == f) return true;
  return false;
}

/* Bindings of id in g (its parameters and body). */
static int bindings_in(const udf_func *g, const char *id) {
  walk w = {id, NULL, 0, 0, {0, 0}, 0};
  for (int k = 0; k < g->nparams; k++) bind_var(&w, g->params[k]);
  walk_block(&w, &g->body);
  return w.bindings;
}

static bool is_re_compile(const udf_expr *v) {
  return v->kind == UDF_E_CALL && v->u.call.func->kind == UDF_E_NAME &&
         strcmp(v->u.call.func->u.name.id, "re.compile") == 0;
}

static bool add_const(udf_arena *a, udf_module *m, const char *name, udf_expr *v, udf_loc loc) {
  udf_const *grown = udf_arena_alloc(a, (size_t)(m->nliteral_consts + 1) * sizeof *grown);
  if (!grown) return false;
  if (m->nliteral_consts)
    memcpy(grown, m->literal_consts, (size_t)m->nliteral_consts * sizeof *grown);
  grown[m->nliteral_consts] = (udf_const){name, v, loc};
  m->literal_consts = grown;
  m->nliteral_consts++;
  return true;
}

int udf_re_compiled_locals(udf_diagctx *dc, udf_arena *a, udf_module *m) {
  for (int fi = 0; fi < m->nfuncs; fi++) {
    udf_func *f = m->funcs[fi];
    for (int i = 0; i < f->body.n; i++) {
      udf_stmt *s = f->body.items[i];
      if (s->kind != UDF_S_ASSIGN || s->u.assign.ntargets != 1 ||
          s->u.assign.targets[0]->kind != UDF_E_NAME || !is_re_compile(s->u.assign.value))
        continue;
      const char *id = s->u.assign.targets[0]->u.name.id;
      if (bindings_in(f, id) != 1) continue; /* rebound: an ordinary local (refused) */
      walk probe = {id, NULL, 0, 0, s->loc, 0};
      walk_block(&probe, &f->body);
      if (probe.uses_before) continue; /* read before it is bound: refused as a value */
      char buf[300];
      snprintf(buf, sizeof buf, "%s#%d:%d", id, s->loc.line, s->loc.col); /* unspellable */
      char *renamed = udf_arena_strndup(a, buf, strlen(buf));
      if (!renamed || !add_const(a, m, renamed, s->u.assign.value, s->loc))
        return udf_diag_error(dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
      walk w = {id, renamed, 0, 0, {0, 0}, 0};
      walk_block(&w, &f->body);
      /* functions nested in f read it too, unless they bind the name themselves */
      for (int gi = 0; gi < m->nfuncs; gi++) {
        udf_func *g = m->funcs[gi];
        bool shadowed = false;
        for (const udf_func *p = g; p && p != f; p = p->parent)
          shadowed = shadowed || bindings_in(p, id) > 0;
        if (is_inside(g, f) && !shadowed) walk_block(&w, &g->body);
      }
      s->kind = UDF_S_PASS;
    }
  }
  return NRT_OK;
}

/* Argument binding and closures of helper functions (types_funcs.h). */
#include <stdio.h>
#include <string.h>

#include "udf/types_funcs.h"

static int visible_params(const udf_func *f) { return f->nparams - f->ncaptures; }

/* The default of parameter i, or NULL (a generated helper has no defaults array). */
static const udf_expr *default_of(const udf_func *f, int i) {
  return f->defaults ? f->defaults[i] : NULL;
}

/* "'a'", "'a' and 'b'", "'a', 'b', and 'c'": CPython's list of missing names. */
static void name_list(char *buf, size_t cap, const char **names, int n) {
  size_t k = 0;
  buf[0] = 0;
  for (int i = 0; i < n && k < cap; i++) {
    const char *sep = i == 0 ? "" : n == 2 ? " and " : i == n - 1 ? ", and " : ", ";
    int w = snprintf(buf + k, cap - k, "%s'%s'", sep, names[i]);
    if (w < 0) break;
    k += (size_t)w;
  }
}

/* CPython's __qualname__, which its TypeErrors name: "g", "f.<locals>.g", "<lambda>". */
static void qualname(char *buf, size_t cap, const udf_func *f) {
  char outer[512] = "";
  if (f->parent) qualname(outer, sizeof outer, f->parent);
  snprintf(buf, cap, "%s%s%s", outer, f->parent ? ".<locals>." : "",
           f->is_lambda ? "<lambda>" : f->name);
}

int udf_bind_call_args(udf_diagctx *dc, const udf_expr *e, const udf_func *f, udf_expr **cargs) {
  int n = e->u.call.nargs, np = visible_params(f);
  char name[512];
  qualname(name, sizeof name, f);
  for (int i = 0; i < f->nparams; i++) cargs[i] = NULL;
  for (int i = 0; i < n && i < np; i++) cargs[i] = e->u.call.args[i];
  for (int k = 0; k < e->u.call.nkeywords; k++) {
    const udf_keyword *kw = &e->u.call.keywords[k];
    int slot = -1;
    for (int i = 0; i < np; i++)
      if (strcmp(f->params[i]->name, kw->name) == 0) slot = i;
    if (slot < 0)
      return udf_diag_error(dc, NRT_ETYPE, kw->loc,
                            "%s() got an unexpected keyword argument '%s'", name, kw->name);
    if (cargs[slot])
      return udf_diag_error(dc, NRT_ETYPE, kw->loc, "%s() got multiple values for argument '%s'",
                            name, kw->name);
    cargs[slot] = kw->value;
  }
  int required = 0;
  while (required < np && !default_of(f, required)) required++;
  if (n > np) {
    char takes[64];
    if (required < np)
      snprintf(takes, sizeof takes, "from %d to %d positional arguments", required, np);
    else
      snprintf(takes, sizeof takes, "%d positional argument%s", np, np == 1 ? "" : "s");
    return udf_diag_error(dc, NRT_ETYPE, e->loc, "%s() takes %s but %d %s given", name,
                          takes, n, n == 1 ? "was" : "were");
  }
  const char *missing[64];
  int nmissing = 0;
  for (int i = 0; i < np && nmissing < 64; i++)
    if (!cargs[i] && !default_of(f, i)) missing[nmissing++] = f->params[i]->name;
  if (nmissing) {
    char names[1024];
    name_list(names, sizeof names, missing, nmissing);
    return udf_diag_error(dc, NRT_ETYPE, e->loc,
                          "%s() missing %d required positional argument%s: %s",
                          name, nmissing, nmissing == 1 ? "" : "s", names);
  }
  return NRT_OK;
}

udf_expr *udf_capture_arg(udf_arena *a, const udf_var *param, udf_loc loc) {
  udf_expr *e = udf_arena_alloc(a, sizeof *e);
  if (!e) return NULL;
  memset(e, 0, sizeof *e);
  e->kind = UDF_E_NAME;
  e->loc = loc;
  e->u.name.id = param->name;
  return e;
}

udf_func *udf_resolve_func(const udf_module *m, const udf_func *from, const char *id) {
  for (const udf_func *s = from; s; s = s->parent)
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i]->parent == s && strcmp(m->funcs[i]->name, id) == 0) return m->funcs[i];
  for (int i = 0; i < m->nfuncs; i++)
    if (!m->funcs[i]->parent && strcmp(m->funcs[i]->name, id) == 0) return m->funcs[i];
  return NULL;
}

/* ---------------------------------------------------------------- closures */

/* A set of names (arena strings), small. */
typedef struct names {
  const char **items;
  int n, cap;
} names;

typedef struct scan {
  udf_diagctx *dc;
  udf_arena *a;
  const udf_module *m;
  const udf_func *fn;
  names *bound;  /* the function's locals (parameters, assignments, loop and comprehension
                  * targets, := targets, except names) */
  names *used;   /* names read, and the captures of functions it calls */
  names *const *caps; /* per function (by index): its captures so far */
  bool oom;
} scan;

static bool has(const names *s, const char *id) {
  for (int i = 0; i < s->n; i++)
    if (strcmp(s->items[i], id) == 0) return true;
  return false;
}

static bool add(scan *sc, names *s, const char *id) {
  if (has(s, id)) return false;
  if (s->n == s->cap) {
    int ncap = s->cap ? 2 * s->cap : 8;
    const char **grown = udf_arena_alloc(sc->a, (size_t)ncap * sizeof *grown);
    if (!grown) {
      sc->oom = true;
      return false;
    }
    if (s->n) memcpy(grown, s->items, (size_t)s->n * sizeof *grown);
    s->items = grown;
    s->cap = ncap;
  }
  s->items[s->n++] = id;
  return true;
}

static void bind_target(scan *sc, const udf_expr *t) {
  if (t->kind == UDF_E_NAME) {
    add(sc, sc->bound, t->u.name.id);
  } else if (t->kind == UDF_E_TUPLE || t->kind == UDF_E_LIST) {
    for (int i = 0; i < t->u.seq.n; i++) bind_target(sc, t->u.seq.items[i]);
  }
}

static void scan_expr(void *ctx, const udf_expr *e) {
  scan *sc = ctx;
  if (!e) return;
  if (e->kind == UDF_E_NAME) {
    add(sc, sc->used, e->u.name.id);
    return;
  }
  if (e->kind == UDF_E_NAMED) bind_target(sc, e->u.named.target);
  if (e->kind == UDF_E_LISTCOMP || e->kind == UDF_E_GENEXP)
    for (int g = 0; g < e->u.comp.ngens; g++) {
      const udf_comp_for *cf = &e->u.comp.gens[g];
      if (cf->target) add(sc, sc->bound, cf->target->name);
      if (cf->unpack) bind_target(sc, cf->unpack);
    }
  if (e->kind == UDF_E_CALL && e->u.call.func->kind == UDF_E_NAME) {
    /* a function defined around this one: its captures are read here */
    const udf_func *h = udf_resolve_func(sc->m, sc->fn, e->u.call.func->u.name.id);
    if (h && h->parent && h->parent != sc->fn) {
      const names *hc = sc->caps[h->index];
      for (int i = 0; i < hc->n; i++) add(sc, sc->used, hc->items[i]);
    }
  }
  udf_expr_each_child(e, scan_expr, sc);
}

static void scan_block(scan *sc, const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    const udf_stmt *s = b->items[i];
    switch (s->kind) {
    case UDF_S_EXPR: scan_expr(sc, s->u.expr); break;
    case UDF_S_ASSIGN:
      for (int k = 0; k < s->u.assign.ntargets; k++) bind_target(sc, s->u.assign.targets[k]);
      scan_expr(sc, s->u.assign.value);
      break;
    case UDF_S_AUGASSIGN:
      bind_target(sc, s->u.augassign.target);
      scan_expr(sc, s->u.augassign.value);
      break;
    case UDF_S_IF:
      scan_expr(sc, s->u.if_.test);
      scan_block(sc, &s->u.if_.body);
      scan_block(sc, &s->u.if_.orelse);
      break;
    case UDF_S_WHILE:
      scan_expr(sc, s->u.while_.test);
      scan_block(sc, &s->u.while_.body);
      scan_block(sc, &s->u.while_.orelse);
      break;
    case UDF_S_FOR:
      if (s->u.for_.target) add(sc, sc->bound, s->u.for_.target->name);
      if (s->u.for_.unpack) bind_target(sc, s->u.for_.unpack);
      scan_expr(sc, s->u.for_.iter);
      scan_block(sc, &s->u.for_.body);
      scan_block(sc, &s->u.for_.orelse);
      break;
    case UDF_S_RETURN: scan_expr(sc, s->u.ret.value); break;
    case UDF_S_RAISE: scan_expr(sc, s->u.raise.exc); break;
    case UDF_S_TRY:
      scan_block(sc, &s->u.try_.body);
      for (int k = 0; k < s->u.try_.nhandlers; k++) {
        const udf_handler *h = s->u.try_.handlers[k];
        if (h->name) add(sc, sc->bound, h->name->name);
        scan_block(sc, &h->body);
      }
      scan_block(sc, &s->u.try_.orelse);
      scan_block(sc, &s->u.try_.finalbody);
      break;
    default: break;
    }
  }
}

int udf_funcs_capture(udf_diagctx *dc, udf_arena *a, udf_module *m) {
  int nf = m->nfuncs;
  bool any = false;
  for (int i = 0; i < nf; i++) any = any || m->funcs[i]->parent;
  if (!any) return NRT_OK;
  names **bound = udf_arena_alloc(a, (size_t)nf * sizeof *bound);
  names **caps = udf_arena_alloc(a, (size_t)nf * sizeof *caps);
  names **freev = udf_arena_alloc(a, (size_t)nf * sizeof *freev);
  if (!bound || !caps || !freev) goto oom;
  for (int i = 0; i < nf; i++) {
    bound[i] = udf_arena_alloc(a, sizeof **bound);
    caps[i] = udf_arena_alloc(a, sizeof **caps);
    freev[i] = udf_arena_alloc(a, sizeof **freev);
    if (!bound[i] || !caps[i] || !freev[i]) goto oom;
    memset(bound[i], 0, sizeof **bound);
    memset(caps[i], 0, sizeof **caps);
    memset(freev[i], 0, sizeof **freev);
  }
  /* A fixed point: a function's free names grow with the captures of the functions it calls
   * and of those nested in it; each round adds names or ends. */
  for (bool changed = true; changed;) {
    changed = false;
    for (int i = 0; i < nf; i++) {
      udf_func *f = m->funcs[i];
      names used = {NULL, 0, 0};
      scan sc = {dc, a, m, f, bound[i], &used, (names *const *)caps, false};
      for (int k = 0; k < f->nparams; k++) add(&sc, bound[i], f->params[k]->name);
      scan_block(&sc, &f->body);
      for (int j = 0; j < nf; j++) /* what the functions nested in f read from around f */
        if (m->funcs[j]->parent == f)
          for (int k = 0; k < freev[j]->n; k++) add(&sc, &used, freev[j]->items[k]);
      if (sc.oom) goto oom;
      for (int k = 0; k < used.n; k++)
        if (!has(bound[i], used.items[k]) && add(&sc, freev[i], used.items[k])) changed = true;
      if (sc.oom) goto oom;
    }
    for (int i = 0; i < nf; i++) {
      const udf_func *p = m->funcs[i]->parent;
      if (!p) continue;
      scan sc = {dc, a, m, m->funcs[i], NULL, NULL, NULL, false};
      for (int k = 0; k < freev[i]->n; k++) {
        const char *id = freev[i]->items[k];
        if ((has(bound[p->index], id) || has(caps[p->index], id)) && add(&sc, caps[i], id))
          changed = true;
      }
      if (sc.oom) goto oom;
    }
  }
  for (int i = 0; i < nf; i++) {
    udf_func *f = m->funcs[i];
    for (int k = 0; k < caps[i]->n; k++) {
      if (f->nparams >= 64)
        return udf_diag_error(dc, NRT_EUNSUPPORTED, f->loc,
                              "unsupported: function '%s' reads more than 64 variables and "
                              "parameters",
                              f->name);
      udf_var *v = udf_arena_alloc(a, sizeof *v);
      if (!v) goto oom;
      memset(v, 0, sizeof *v);
      v->name = caps[i]->items[k];
      v->is_param = true;
      v->index = -1;
      v->loc = f->loc;
      int np = f->nparams, cap = np, dn = np, dcap = np;
      if (!udf_arena_push(a, (void ***)&f->params, &np, &cap, v) ||
          !udf_arena_push(a, (void ***)&f->defaults, &dn, &dcap, NULL))
        goto oom;
      f->nparams = np;
      f->ncaptures++;
    }
  }
  return NRT_OK;
oom:
  return udf_diag_error(dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
}

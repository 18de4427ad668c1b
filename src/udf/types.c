/* Name resolution and type inference (see types.h and the guarantees in ast.h).
 *
 * Each function is checked with known parameter types. Variable types are inferred by running
 * the checker over the body repeatedly ("inference passes", which report nothing and change
 * nothing in the tree) until no variable's type changes; a last "final pass" then reports the
 * first error, resolves calls and inserts the cast and truth nodes. A variable's type is the
 * join of what is assigned to it, where only None may join with another type (T + None =
 * T | None); int and float never mix (Python would print 1 and 1.0 differently). Helpers are
 * checked at their first call with that call's argument types. A recursive call (to a function
 * being checked) has the result type its function's returns gave so far: the passes repeat
 * until that guess stops changing (a fixed point), and the final result must equal it. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "udf/exceptions.h"
#include "udf/parse_consts.h"
#include "udf/parse_format.h"
#include "udf/result_kind.h"
#include "udf/types.h"
#include "udf/types_dict.h"
#include "udf/types_funcs.h"
#include "udf/types_re.h"
#include "udf/types_re_pattern.h"
#include "udf/types_ucd.h"

typedef struct ck {
  udf_diagctx *dc;
  udf_arena *a;
  udf_module *m;
  udf_func *fn;
  struct ck *parent; /* the caller being checked (recursion detection) */
  bool final;
  bool changed;
  udf_var **scope; /* comprehension variables in scope, innermost last */
  int nscope, capscope;
  udf_type ret;    /* join of the returns seen in this pass */
  udf_loc ret_loc; /* where ret was first set */
  int lcap;        /* capacity of fn->locals */
  /* fn's locals by name, comprehension variables left out (find_local): open addressing,
   * a power-of-two capacity at least twice fn->locals[0..nindexed), which it indexes. */
  udf_var **names;
  int names_cap, nindexed;
  udf_var **narrowed; /* nullable variables known not to be None at this point */
  int nnarrowed, capnarrowed;
  /* Helpers called during inference passes with known argument types: checked once the
   * caller's own types have settled, so their parameter types are the final ones. */
  udf_func **pending;
  udf_type **pending_types;
  int npending, cappending, cappending_types;
  int nexcept;            /* except clauses around the statement checked (for bare raise) */
  const udf_expr *exc_ok; /* the one use of an `as` name allowed here: str(e), f"{e}" */
  int comp_iter;          /* inside a comprehension's iterable (no := there) */
  const udf_expr *iter_expr; /* the iterable of a for loop being checked (d.keys() there is
                              * iterated in place, elsewhere it is a list) */
  /* Recursion: the result type assumed for recursive calls to fn, whether one used it, and
   * the guess the final passes' calls were given (it must be fn's final result). */
  udf_type guess;
  bool guess_used;
  udf_type final_guess;
  const udf_expr *re_iterable; /* the re.finditer call being checked as an iterable */
  const udf_expr *ret_expr; /* the value a `return` gives, or a branch of its conditional
                             * expression: a tuple of numbers there is a list (result_kind.h) */
  /* The argument of len(x) or list(x) that check_dict_builtin checked and found no dict, and
   * its type: check_builtin takes it as checked instead of checking it again (twice per
   * level made nested len(str(len(...))) exponential in its depth). */
  const udf_expr *prechecked;
  udf_type prechecked_type;
} ck;

#define UNKNOWN UDF_TY_UNKNOWN

static udf_type base(udf_type t) { return udf_type_base(t); }
/* t without None: the kind and its type parameters (a match's pattern, a container's items). */
static udf_type strip(udf_type t) { return t & ~(udf_type)UDF_TY_NULLABLE; }
static bool nullable(udf_type t) { return udf_type_is_nullable(t); }
static bool is_num(udf_type t) {
  return t == UDF_TY_INT || t == UDF_TY_FLOAT || t == UDF_TY_BOOL;
}

/* Reports an error in the final pass; in an inference pass errors are ignored (the final
 * pass reports them). Returns UNKNOWN so callers can `return err(...)`. */
static udf_type err(ck *c, int code, udf_loc loc, const char *fmt, ...) NRT_PRINTF(4, 5);
static udf_type err(ck *c, int code, udf_loc loc, const char *fmt, ...) {
  /* an earlier pass's errors may go away with more types known; running out of memory not */
  if ((!c->final && code != NRT_ENOMEM) || udf_diag_failed(c->dc)) return UNKNOWN;
  char msg[sizeof c->dc->d.message];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  udf_diag_error(c->dc, code, loc, "%s", msg);
  return UNKNOWN;
}

static udf_type oom(ck *c) {
  udf_diag_error(c->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  return UNKNOWN;
}

static bool stop(const ck *c) { return udf_diag_failed(c->dc); }

static const char *tn(udf_type t) { return udf_type_name(t); }

/* ---------------------------------------------------------------------------------------
 * Tree edits (final pass only) */

static udf_expr *wrap(ck *c, udf_expr *e, udf_expr_kind kind, udf_type t) {
  udf_expr *w = udf_arena_alloc(c->a, sizeof *w);
  if (!w) {
    oom(c);
    return NULL;
  }
  w->kind = kind;
  w->loc = e->loc;
  w->type = t;
  if (kind == UDF_E_CAST)
    w->u.cast.operand = e;
  else
    w->u.truth.operand = e;
  return w;
}

/* Converts *ep to numeric type `to` (final pass: inserts a UDF_E_CAST when needed). */
static void cast_to(ck *c, udf_expr **ep, udf_type to) {
  if (!c->final || (*ep)->type == to || stop(c)) return;
  udf_expr *w = wrap(c, *ep, UDF_E_CAST, to);
  if (w) *ep = w;
}

/* ---------------------------------------------------------------------------------------
 * Variables */

static bool add_local(ck *c, udf_var *v) {
  v->index = c->fn->nlocals;
  if (!udf_arena_push(c->a, (void ***)&c->fn->locals, &c->fn->nlocals, &c->lcap, v)) {
    oom(c);
    return false;
  }
  return true;
}

static unsigned name_hash(const char *s) {
  unsigned h = 2166136261u; /* FNV-1a */
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 16777619u;
  return h;
}

static void index_name(ck *c, udf_var *v) {
  unsigned mask = (unsigned)c->names_cap - 1, i = name_hash(v->name) & mask;
  while (c->names[i]) i = (i + 1) & mask;
  c->names[i] = v;
}

/* Brings the name index up to date with fn->locals; false when out of memory. */
static bool index_locals(ck *c) {
  while (c->nindexed < c->fn->nlocals) {
    if (2 * (c->nindexed + 1) > c->names_cap) {
      int cap = c->names_cap ? 2 * c->names_cap : 16;
      udf_var **names = udf_arena_alloc(c->a, (size_t)cap * sizeof *names);
      if (!names) return false;
      c->names = names;
      c->names_cap = cap;
      for (int i = 0; i < c->nindexed; i++)
        if (!c->fn->locals[i]->is_comp_var) index_name(c, c->fn->locals[i]);
    }
    udf_var *v = c->fn->locals[c->nindexed++];
    if (!v->is_comp_var) index_name(c, v);
  }
  return true;
}

/* A hash lookup: names are looked up at every use in every inference pass, so a scan of the
 * locals would make checking quadratic in a function's variables. */
static udf_var *find_local(ck *c, const char *name) {
  if (!index_locals(c)) {
    oom(c);
    return NULL;
  }
  unsigned mask = (unsigned)c->names_cap - 1, i = name_hash(name) & mask;
  for (udf_var *v; c->names_cap && (v = c->names[i]) != NULL; i = (i + 1) & mask)
    if (strcmp(v->name, name) == 0) return v;
  return NULL;
}

/* The local named like target (created on first sight). */
static udf_var *local_for(ck *c, const char *name, udf_loc loc) {
  udf_var *v = find_local(c, name);
  if (v) return v;
  v = udf_arena_alloc(c->a, sizeof *v);
  if (!v) {
    oom(c);
    return NULL;
  }
  v->name = name;
  v->loc = loc;
  return add_local(c, v) ? v : NULL;
}

static void collect_block(ck *c, udf_block *b);

static void collect_target(ck *c, udf_expr *t) {
  if (t->kind == UDF_E_NAME) {
    t->u.name.var = local_for(c, t->u.name.id, t->loc);
  } else if (t->kind == UDF_E_TUPLE) {
    for (int i = 0; i < t->u.seq.n; i++) collect_target(c, t->u.seq.items[i]);
  }
}

/* The targets of assignment expressions in e: locals of the function, also from inside a
 * comprehension. */
static void collect_named(void *ctx, const udf_expr *e) {
  ck *c = ctx;
  if (e->kind == UDF_E_NAMED) local_for(c, e->u.named.target->u.name.id, e->loc);
  if (!stop(c)) udf_expr_each_child(e, collect_named, c);
}

static void collect_stmt_named(ck *c, const udf_stmt *s) {
  const udf_expr *e = NULL;
  switch (s->kind) {
  case UDF_S_EXPR: e = s->u.expr; break;
  case UDF_S_ASSIGN: e = s->u.assign.value; break;
  case UDF_S_AUGASSIGN: e = s->u.augassign.value; break;
  case UDF_S_IF: e = s->u.if_.test; break;
  case UDF_S_WHILE: e = s->u.while_.test; break;
  case UDF_S_FOR: e = s->u.for_.iter; break;
  case UDF_S_RETURN: e = s->u.ret.value; break;
  case UDF_S_RAISE: e = s->u.raise.exc; break;
  case UDF_S_SETITEM:
  case UDF_S_DELITEM:
    e = s->u.setitem.target;
    if (s->u.setitem.value) collect_named(c, s->u.setitem.value);
    break;
  default: break;
  }
  if (e) collect_named(c, e);
}

/* Python's scoping: every name bound anywhere in the function is local to all of it. */
static void collect_block(ck *c, udf_block *b) {
  for (int i = 0; i < b->n && !stop(c); i++) {
    udf_stmt *s = b->items[i];
    collect_stmt_named(c, s);
    switch (s->kind) {
    case UDF_S_ASSIGN:
      for (int k = 0; k < s->u.assign.ntargets; k++) collect_target(c, s->u.assign.targets[k]);
      break;
    case UDF_S_AUGASSIGN: collect_target(c, s->u.augassign.target); break;
    case UDF_S_IF:
      collect_block(c, &s->u.if_.body);
      collect_block(c, &s->u.if_.orelse);
      break;
    case UDF_S_WHILE:
      collect_block(c, &s->u.while_.body);
      collect_block(c, &s->u.while_.orelse);
      break;
    case UDF_S_FOR: {
      if (s->u.for_.unpack) {
        collect_target(c, s->u.for_.unpack);
      } else {
        udf_var *v = local_for(c, s->u.for_.target->name, s->u.for_.target_loc);
        if (v) s->u.for_.target = v;
      }
      collect_block(c, &s->u.for_.body);
      collect_block(c, &s->u.for_.orelse);
      break;
    }
    case UDF_S_TRY:
      collect_block(c, &s->u.try_.body);
      for (int k = 0; k < s->u.try_.nhandlers && !stop(c); k++) {
        udf_handler *h = s->u.try_.handlers[k];
        if (h->name) {
          udf_var *v = local_for(c, h->name->name, h->name_loc);
          if (v) {
            h->name = v;
            v->is_exc_name = true;
          }
        }
        collect_block(c, &h->body);
      }
      collect_block(c, &s->u.try_.orelse);
      collect_block(c, &s->u.try_.finalbody);
      break;
    default: break;
    }
  }
}

/* `xs = []` typed by its appends (types_mlist.inc). */
static udf_type mlist_empty_assigned(ck *c, udf_stmt *s, udf_type vt);
static udf_type mlist_join(udf_type old, udf_type t);
static void mlist_settle(udf_func *fn);
static bool mlist_augassign(ck *c, udf_stmt *s, udf_type lt);

/* Joins type t into variable v (inference passes). */
static void join_var(ck *c, udf_var *v, udf_type t) {
  if (t == UNKNOWN || v->is_param) return;
  udf_type old = v->type, nt = old;
  if (old == UNKNOWN)
    nt = t;
  else if (old == t)
    nt = old;
  else if (t == UDF_TY_NONE && base(old) != UDF_TY_NONE)
    nt = old | UDF_TY_NULLABLE;
  else if (old == UDF_TY_NONE && base(t) != UDF_TY_NONE)
    nt = t | UDF_TY_NULLABLE;
  else if (nullable(old) && strip(t) == strip(old))
    nt = old;
  else if (nullable(t) && strip(t) == strip(old))
    nt = t;
  else if ((base(old) == UDF_TY_DICT || base(old) == UDF_TY_SET) && base(t) == base(old) &&
           udf_type_param1(old) == UNKNOWN)
    nt = t; /* an empty dict or set gets its item types */
  else
    nt = mlist_join(old, t);
  if (nt != old) {
    v->type = nt;
    c->changed = true;
  }
}

/* ---- None narrowing: `if x is None: return ...` makes x a plain T afterwards ---- */

static bool is_narrowed(const ck *c, const udf_var *v) {
  for (int i = 0; i < c->nnarrowed; i++)
    if (c->narrowed[i] == v) return true;
  return false;
}

static void narrow(ck *c, udf_var *v) {
  if (!udf_arena_push(c->a, (void ***)&c->narrowed, &c->nnarrowed, &c->capnarrowed, v)) oom(c);
}

static void unnarrow(ck *c, const udf_var *v) {
  for (int i = 0; i < c->nnarrowed; i++)
    if (c->narrowed[i] == v) c->narrowed[i] = NULL;
}

/* May a value of type `from` be stored where `to` is expected? */
static bool assignable(udf_type from, udf_type to) {
  if (from == to) return true;
  if (nullable(to) && (from == UDF_TY_NONE || from == strip(to))) return true;
  /* an empty dict or set display takes the type of the variable it is stored in */
  if ((base(to) == UDF_TY_DICT || base(to) == UDF_TY_SET) && base(from) == base(to) &&
      udf_type_param1(from) == UDF_TY_UNKNOWN)
    return true;
  return false;
}

static bool storable(udf_type t) {
  udf_type b = base(t);
  return b == UDF_TY_NONE || b == UDF_TY_BOOL || b == UDF_TY_INT || b == UDF_TY_FLOAT ||
         b == UDF_TY_STR || b == UDF_TY_LIST_STR || b == UDF_TY_TUPLE_STR || b == UDF_TY_LIST ||
         b == UDF_TY_MATCH || ((b == UDF_TY_DICT || b == UDF_TY_SET) && !nullable(t));
}

static udf_type store_error(ck *c, udf_loc loc, udf_type t) {
  if (base(t) == UDF_TY_RANGE)
    return err(c, NRT_EUNSUPPORTED, loc,
               "unsupported: a range stored in a variable (use range() directly in a for loop)");
  if (base(t) == UDF_TY_ITER)
    return err(c, NRT_EUNSUPPORTED, loc,
               "unsupported: d.keys(), d.values() or d.items() stored in a variable (use them "
               "directly, or list(d.keys()))");
  return err(c, NRT_EUNSUPPORTED, loc,
             "unsupported: a tuple of mixed types stored in a variable (only tuples of str)");
}

/* Assigns a value of type t to v at loc (both kinds of passes). */
static void assign_var(ck *c, udf_var *v, udf_type t, udf_loc loc) {
  if (v) unnarrow(c, v);
  if (t == UNKNOWN || !v) return;
  if (!storable(t)) {
    store_error(c, loc, t);
    return;
  }
  if (!c->final) {
    join_var(c, v, t);
    return;
  }
  if (!assignable(t, v->type)) {
    if (v->is_param)
      err(c, NRT_ETYPE, loc,
          "parameter '%s' has type %s; cannot assign a value of type %s (a variable keeps one "
          "type)",
          v->name, tn(v->type), tn(t));
    else
      err(c, NRT_ETYPE, loc,
          "variable '%s' has type %s; cannot assign a value of type %s (a variable keeps one "
          "type)",
          v->name, tn(v->type), tn(t));
  }
}

/* ---------------------------------------------------------------------------------------
 * Expressions */

static udf_type check_expr(ck *c, udf_expr **ep);
static bool mlist_number_item(ck *c, udf_expr **ep, udf_type elem); /* types_mlist.inc */
static udf_type check_cond(ck *c, udf_expr **ep);
static int check_function(ck *parent, udf_func *fn, const udf_type *ptypes);
/* dict and set values (types_dict.inc) */
static bool dict_kind(udf_type t);
static bool dict_key(ck *c, udf_expr **kp, udf_type want, const char *what);
static udf_type check_dict_subscript(ck *c, udf_expr *e, udf_type vt);
static udf_type check_dict_method(ck *c, udf_expr *e, udf_expr *attr, udf_type rt);
static bool check_dict_builtin(ck *c, udf_expr *e, const char *id, udf_type *t);
static void dict_type_empty(ck *c, udf_expr *value, udf_type vt);
static bool dict_binary(ck *c, udf_loc loc, udf_binop op, udf_expr **lp, udf_expr **rp,
                        udf_type *t);

/* A generator expression is materialised as a list, which is only Python's behaviour where
 * the generator is consumed once: as an iterable (for, comprehension, join, min/max, in). */
static bool not_generator(ck *c, const udf_expr *e, const char *what) {
  if (e->kind != UDF_E_GENEXP) return true;
  err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: %s a generator (use a list comprehension [...])",
      what);
  return false;
}

/* A value used by an operation must not be None or possibly None. */
static bool need_value(ck *c, const udf_expr *e, const char *what) {
  udf_type t = e->type;
  if (t == UNKNOWN) return false;
  if (t == UDF_TY_NONE || nullable(t)) {
    err(c, NRT_ETYPE, e->loc,
        "%s a value of type %s that may be None; such a value can only be returned, assigned "
        "or tested with 'is None'",
        what, tn(t));
    return false;
  }
  return true;
}

/* id names a module-level constant here: no comprehension variable or local shadows it. */
static bool is_module_const(ck *c, const char *id) {
  if (!udf_const_find(c->m, id)) return false;
  for (int i = c->nscope - 1; i >= 0; i--)
    if (strcmp(c->scope[i]->name, id) == 0) return false;
  return !find_local(c, id);
}

static udf_type check_name(ck *c, udf_expr *e) {
  const char *id = e->u.name.id;
  for (int i = c->nscope - 1; i >= 0; i--)
    if (strcmp(c->scope[i]->name, id) == 0) {
      e->u.name.var = c->scope[i];
      return e->type = c->scope[i]->type;
    }
  udf_var *v = find_local(c, id);
  if (v) {
    e->u.name.var = v;
    if (v->is_exc_name && c->exc_ok != e)
      return err(c, NRT_EUNSUPPORTED, e->loc,
                 "unsupported: using the exception '%s' other than as str(%s) or in an "
                 "f-string field {%s}",
                 id, id, id);
    if (v->type == UNKNOWN && c->final)
      return err(c, NRT_ETYPE, e->loc, "cannot infer the type of local variable '%s'", id);
    return e->type = v->type;
  }
  if (udf_resolve_func(c->m, c->fn, id))
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: functions as values ('%s')", id);
  static const char *const builtins[] = {"len", "str", "int", "float", "bool", "ord", "chr",
                                         "abs", "min", "max", "range", "list", NULL};
  for (int i = 0; builtins[i]; i++)
    if (strcmp(builtins[i], id) == 0)
      return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: functions as values ('%s')", id);
  if (strncmp(id, "math.", 5) == 0 || strncmp(id, "re.", 3) == 0 ||
      strncmp(id, "unicodedata.", 12) == 0) /* imports.h */
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: functions as values ('%s')", id);
  if (udf_builtin_is_unsupported(id))
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: built-in function '%s'", id);
  return err(c, NRT_ETYPE, e->loc, "name '%s' is not defined", id);
}

static const char *binop_text(udf_binop op) {
  static const char *const t[] = {"+", "-", "*", "/", "//", "%", "**", "@", "|", "^", "&",
                                  "<<", ">>"};
  return t[op];
}

static bool is_negative_int_literal(const udf_expr *e) {
  if (e->kind == UDF_E_INT) return e->u.ival < 0;
  return e->kind == UDF_E_UNARY && e->u.unary.op == UDF_UOP_NEG &&
         e->u.unary.operand->kind == UDF_E_INT && e->u.unary.operand->u.ival > 0;
}

/* Types `l op r` given operands already checked, inserting casts on either side (the caller of
 * an augmented assignment detects a cast of its target). */
static udf_type binary_types(ck *c, udf_loc loc, udf_binop op, udf_expr **lp, udf_expr **rp) {
  udf_type lt = (*lp)->type, rt = (*rp)->type;
  if (lt == UNKNOWN || rt == UNKNOWN) return UNKNOWN;
  if ((*lp)->kind == UDF_E_GENEXP || (*rp)->kind == UDF_E_GENEXP)
    return err(c, NRT_ETYPE, loc, "unsupported operand type(s) for %s: '%s' and '%s'",
               binop_text(op), (*lp)->kind == UDF_E_GENEXP ? "generator" : tn(lt),
               (*rp)->kind == UDF_E_GENEXP ? "generator" : tn(rt));
  udf_type dt;
  if (dict_binary(c, loc, op, lp, rp, &dt)) return dt;
  if (op >= UDF_OP_MATMUL)
    return err(c, NRT_EUNSUPPORTED, loc, "unsupported: operator '%s'", binop_text(op));
  if (is_num(lt) && is_num(rt)) {
    udf_type t = (lt == UDF_TY_FLOAT || rt == UDF_TY_FLOAT) ? UDF_TY_FLOAT : UDF_TY_INT;
    if (op == UDF_OP_DIV) t = UDF_TY_FLOAT;
    if (op == UDF_OP_POW && t == UDF_TY_INT && is_negative_int_literal(*rp)) t = UDF_TY_FLOAT;
    cast_to(c, lp, t);
    cast_to(c, rp, t);
    return t;
  }
  const char *o = binop_text(op);
  if (op == UDF_OP_ADD) {
    if (lt == UDF_TY_STR && rt == UDF_TY_STR) return UDF_TY_STR;
    if (lt == UDF_TY_LIST_STR && rt == UDF_TY_LIST_STR) return UDF_TY_LIST_STR;
    if (base(lt) == UDF_TY_LIST && lt == rt) return lt;
    if (lt == UDF_TY_STR && !nullable(rt) && rt != UDF_TY_NONE)
      return err(c, NRT_ETYPE, loc, "can only concatenate str (not \"%s\") to str", tn(rt));
    if (lt == UDF_TY_LIST_STR && !nullable(rt) && rt != UDF_TY_NONE)
      return err(c, NRT_ETYPE, loc, "can only concatenate list (not \"%s\") to list", tn(rt));
  }
  if (op == UDF_OP_MUL) {
    bool lseq = lt == UDF_TY_STR || lt == UDF_TY_LIST_STR || base(lt) == UDF_TY_LIST;
    bool rseq = rt == UDF_TY_STR || rt == UDF_TY_LIST_STR || base(rt) == UDF_TY_LIST;
    if (lseq && (rt == UDF_TY_INT || rt == UDF_TY_BOOL)) {
      cast_to(c, rp, UDF_TY_INT);
      return lt;
    }
    if (rseq && (lt == UDF_TY_INT || lt == UDF_TY_BOOL)) {
      cast_to(c, lp, UDF_TY_INT);
      return rt;
    }
    if (lseq && !nullable(rt) && rt != UDF_TY_NONE)
      return err(c, NRT_ETYPE, loc, "can't multiply sequence by non-int of type '%s'", tn(rt));
    if (rseq && !nullable(lt) && lt != UDF_TY_NONE)
      return err(c, NRT_ETYPE, loc, "can't multiply sequence by non-int of type '%s'", tn(lt));
  }
  if (op == UDF_OP_MOD && lt == UDF_TY_STR)
    return err(c, NRT_EUNSUPPORTED, loc,
               "unsupported: %%-formatting with a format string that is not a literal");
  return err(c, NRT_ETYPE, loc, "unsupported operand type(s) for %s: '%s' and '%s'", o,
             base(lt) == UDF_TY_NONE || nullable(lt) ? "NoneType" : tn(lt),
             base(rt) == UDF_TY_NONE || nullable(rt) ? "NoneType" : tn(rt));
}

static udf_type check_unary(ck *c, udf_expr *e) {
  if (e->u.unary.op == UDF_UOP_NOT) {
    if (check_cond(c, &e->u.unary.operand) == UNKNOWN) return UNKNOWN;
    return e->type = UDF_TY_BOOL;
  }
  udf_type t = check_expr(c, &e->u.unary.operand);
  if (t == UNKNOWN) return UNKNOWN;
  if (e->u.unary.op == UDF_UOP_INVERT)
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: operator '~'");
  if (!is_num(t))
    return err(c, NRT_ETYPE, e->loc, "bad operand type for unary %s: '%s'",
               e->u.unary.op == UDF_UOP_NEG ? "-" : "+",
               t == UDF_TY_NONE || nullable(t) ? "NoneType" : tn(t));
  if (t == UDF_TY_BOOL) {
    cast_to(c, &e->u.unary.operand, UDF_TY_INT);
    t = UDF_TY_INT;
  }
  return e->type = t;
}

/* Value-context and/or: all operands of one type. */
static udf_type check_boolop_value(ck *c, udf_expr *e) {
  udf_type t = UNKNOWN;
  bool unknown = false;
  for (int i = 0; i < e->u.boolop.n; i++) {
    udf_type vt = check_expr(c, &e->u.boolop.values[i]);
    if (vt == UNKNOWN) {
      unknown = true;
      continue;
    }
    if (!need_value(c, e->u.boolop.values[i], "'and'/'or' with")) return UNKNOWN;
    if (t == UNKNOWN) {
      t = vt;
    } else if (vt != t) {
      return err(c, NRT_EUNSUPPORTED, e->u.boolop.values[i]->loc,
                 "unsupported: '%s' with operands of types %s and %s (its value would be of "
                 "either type)",
                 e->u.boolop.op == UDF_BOOL_AND ? "and" : "or", tn(t), tn(vt));
    }
  }
  if (unknown && !c->final && t != UNKNOWN) return t; /* as check_ifexp: a recursive call's */
  if (unknown) return UNKNOWN;
  if (!storable(t)) return store_error(c, e->loc, t);
  return e->type = t;
}

static bool iterable_elem(ck *c, udf_expr *it, udf_type *elem) {
  udf_type t = it->type;
  if (t == UNKNOWN) return false;
  if (!need_value(c, it, "iterating over")) return false;
  if (base(t) == UDF_TY_LIST) { /* a list of numbers */
    *elem = udf_type_param1(t);
    return true;
  }
  if (base(t) == UDF_TY_MATCH && (t & UDF_TY_RE_MATCHES)) {
    *elem = t & ~(udf_type)UDF_TY_RE_MATCHES;
    return true;
  }
  switch (t) {
  case UDF_TY_STR:
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR: *elem = UDF_TY_STR; return true;
  case UDF_TY_RANGE: *elem = UDF_TY_INT; return true;
  default: break;
  }
  if (base(t) == UDF_TY_DICT) {
    *elem = udf_type_param1(t);
    if (*elem == UNKNOWN)
      err(c, NRT_ETYPE, it->loc, "cannot infer the type of the keys of this dict");
    return *elem != UNKNOWN;
  }
  if (base(t) == UDF_TY_SET) {
    err(c, NRT_EUNSUPPORTED, it->loc,
        "unsupported: iterating over a set (CPython's order depends on the string hash seed; "
        "keep the items in a dict or a list)");
    return false;
  }
  switch (t) {
  case UDF_TY_TUPLE:
    err(c, NRT_EUNSUPPORTED, it->loc, "unsupported: iterating over a tuple of mixed types");
    return false;
  default: err(c, NRT_ETYPE, it->loc, "'%s' object is not iterable", tn(t)); return false;
  }
}

/* ---- for targets: enumerate/zip/reversed and unpacking by structure ---- */

static const char *none_name(udf_type t);


/* The iterable of a for loop or comprehension: a call of enumerate, zip or reversed (unless
 * a def of the module has that name), or any expression. */
static udf_type check_iterable(ck *c, udf_expr **ep) {
  udf_expr *e = *ep;
  c->iter_expr = e;
  if (e->kind != UDF_E_CALL || e->u.call.func->kind != UDF_E_NAME) return check_expr(c, ep);
  const char *id = e->u.call.func->u.name.id;
  if (strcmp(id, "re.finditer") == 0) { /* imports.h: its matches (types_re.h) */
    c->re_iterable = e;
    udf_type t = check_expr(c, ep);
    c->re_iterable = NULL;
    return t;
  }
  bool en = strcmp(id, "enumerate") == 0, zip = strcmp(id, "zip") == 0,
       rev = strcmp(id, "reversed") == 0;
  if (!en && !zip && !rev) return check_expr(c, ep);
  for (int i = 0; i < c->m->nfuncs; i++)
    if (strcmp(c->m->funcs[i]->name, id) == 0) return check_expr(c, ep);
  int n = e->u.call.nargs;
  udf_expr *start = NULL;
  for (int k = 0; k < e->u.call.nkeywords; k++) {
    udf_keyword *kw = &e->u.call.keywords[k];
    if (!en || strcmp(kw->name, "start") != 0 || n != 1 || start)
      return err(c, NRT_ETYPE, kw->loc, "'%s' is an invalid keyword argument for %s()",
                 kw->name, id);
    start = kw->value;
  }
  if (en && (n < 1 || n + (start != NULL) > 2))
    return err(c, NRT_ETYPE, e->loc, n < 1 ? "enumerate() missing required argument 'iterable'"
                                          : "enumerate() takes at most 2 arguments (%d given)",
               n + (start != NULL));
  if (rev && n != 1)
    return err(c, NRT_ETYPE, e->loc, "reversed expected 1 argument, got %d", n);
  if (zip && n < 1)
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: zip() without arguments");
  if (zip && n > 8)
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: zip() of more than 8 iterables");
  udf_expr **cargs = udf_arena_alloc(c->a, 2 * sizeof *cargs + (size_t)n * sizeof *cargs);
  if (!cargs) return oom(c);
  bool unknown = false;
  for (int i = 0; i < n; i++) {
    cargs[i] = e->u.call.args[i];
    udf_type t = rev || (en && i == 1) ? check_expr(c, &cargs[i]) : check_iterable(c, &cargs[i]);
    if (t == UNKNOWN) {
      unknown = true;
      continue;
    }
    if (en && i == 1) continue;
    if (t == UDF_TY_ITER) continue;
    if (rev && t != UDF_TY_STR && t != UDF_TY_LIST_STR && t != UDF_TY_TUPLE_STR &&
        t != UDF_TY_RANGE && need_value(c, cargs[i], "reversing"))
      return err(c, NRT_ETYPE, cargs[i]->loc, "'%s' object is not reversible", none_name(t));
    udf_type elem;
    if (!iterable_elem(c, cargs[i], &elem)) return UNKNOWN;
  }
  if (en) {
    if (start) cargs[1] = start;
    if (start && check_expr(c, &cargs[1]) == UNKNOWN) unknown = true;
    if (n + (start != NULL) == 2 && !unknown) {
      udf_type t = cargs[1]->type;
      if (t == UDF_TY_BOOL) cast_to(c, &cargs[1], UDF_TY_INT);
      else if (t != UDF_TY_INT)
        return err(c, NRT_ETYPE, cargs[1]->loc,
                   "'%s' object cannot be interpreted as an integer", none_name(t));
    }
    if (n + (start != NULL) == 1) cargs[1] = NULL;
  }
  if (unknown) return UNKNOWN;
  e->u.call.ckind = UDF_CALL_BUILTIN;
  e->u.call.builtin = en ? UDF_BI_ENUMERATE : zip ? UDF_BI_ZIP : UDF_BI_REVERSED;
  e->u.call.cargs = cargs;
  e->u.call.ncargs = en ? 1 + (cargs[1] != NULL) : n;
  return e->type = UDF_TY_ITER;
}

/* Gives the for target's variable v the type t: a function local (assigned, as `v = ...`),
 * or a comprehension's own variable (declared in its scope). */
static bool bind_target_var(ck *c, udf_var *v, udf_type t, udf_loc loc, bool comp) {
  if (!comp) {
    assign_var(c, v, t, loc);
    return true;
  }
  if (v->index < 0 && !add_local(c, v)) return false;
  if (t != UNKNOWN && v->type != t) {
    v->type = t;
    c->changed = true;
  }
  if (!udf_arena_push(c->a, (void ***)&c->scope, &c->nscope, &c->capscope, v)) {
    oom(c);
    return false;
  }
  return true;
}

/* Items of `it` that are str, unpacked into a tuple of names: their characters. */
static bool str_items_into_names(const udf_expr *it, const udf_expr *unpack) {
  if (it->type == UDF_TY_ITER) it = it->u.call.cargs[0]; /* reversed(x) */
  if (it->type != UDF_TY_STR && it->type != UDF_TY_LIST_STR && it->type != UDF_TY_TUPLE_STR)
    return false;
  for (int i = 0; i < unpack->u.seq.n; i++)
    if (unpack->u.seq.items[i]->kind != UDF_E_NAME) return false;
  return true;
}

/* zip() of iterables of str: its items are tuples of str, storable values. */
static bool zip_of_str(const udf_expr *it) {
  if (it->type != UDF_TY_ITER || it->u.call.builtin != UDF_BI_ZIP) return false;
  for (int i = 0; i < it->u.call.ncargs; i++) {
    const udf_expr *a = it->u.call.cargs[i];
    if (a->type == UDF_TY_ITER && a->u.call.builtin == UDF_BI_REVERSED) a = a->u.call.cargs[0];
    if (a->type != UDF_TY_STR && a->type != UDF_TY_LIST_STR && a->type != UDF_TY_TUPLE_STR)
      return false;
  }
  return true;
}

static int count_items(const udf_expr *it) {
  return it->u.call.builtin == UDF_BI_ENUMERATE ? 2
         : it->u.call.builtin == UDF_BI_ZIP     ? it->u.call.ncargs
                                                : 1;
}

/* Binds the target (v, or the tuple `unpack`) to the items of `it` (NULL: of unknown type,
 * the names are declared only). The structures must match: an enumerate or zip item is
 * unpacked into a tuple of as many names; other items go to one name. False on a failure
 * that must stop the comprehension's scan (out of memory). */
/* for k in d.keys() / v in d.values() / k, v in d.items(). */
static bool bind_dict_target(ck *c, udf_expr *it, udf_var *v, udf_expr *unpack, udf_loc loc,
                             bool comp) {
  udf_type dt = it->u.call.receiver->type;
  udf_type kt = udf_type_param1(dt), vt = udf_type_param2(dt);
  int op = it->u.call.dict_op;
  if (op != UDF_DOP_ITEMS) {
    if (unpack) {
      err(c, NRT_EUNSUPPORTED, unpack->loc, "unsupported: unpacking the items of d.%s()",
          op == UDF_DOP_KEYS ? "keys" : "values");
      return false;
    }
    return bind_target_var(c, v, op == UDF_DOP_KEYS ? kt : vt, loc, comp);
  }
  if (!unpack || unpack->kind != UDF_E_TUPLE || unpack->u.seq.n != 2 ||
      unpack->u.seq.items[0]->kind != UDF_E_NAME || unpack->u.seq.items[1]->kind != UDF_E_NAME) {
    err(c, NRT_EUNSUPPORTED, unpack ? unpack->loc : loc,
        "unsupported: the items of d.items() other than unpacked into two names (for k, v in "
        "d.items())");
    return false;
  }
  return bind_target_var(c, unpack->u.seq.items[0]->u.name.var, kt, unpack->u.seq.items[0]->loc,
                         comp) &&
         bind_target_var(c, unpack->u.seq.items[1]->u.name.var, vt, unpack->u.seq.items[1]->loc,
                         comp);
}

static bool bind_for_target(ck *c, udf_expr *it, udf_var *v, udf_expr *unpack, udf_loc loc,
                            bool comp) {
  if (unpack && unpack->kind == UDF_E_NAME) {
    v = unpack->u.name.var;
    loc = unpack->loc;
    unpack = NULL;
  }
  if (it && it->kind == UDF_E_CALL && it->u.call.ckind == UDF_CALL_DICT &&
      it->type == UDF_TY_ITER)
    return bind_dict_target(c, it, v, unpack, loc, comp);
  bool iter = it && it->type == UDF_TY_ITER && it->u.call.builtin != UDF_BI_REVERSED;
  if (it && unpack && !iter && str_items_into_names(it, unpack)) {
    for (int i = 0; i < unpack->u.seq.n; i++)
      if (!bind_target_var(c, unpack->u.seq.items[i]->u.name.var, UDF_TY_STR,
                           unpack->u.seq.items[i]->loc, comp))
        return false;
    return true;
  }
  if (it && unpack && !iter) {
    err(c, NRT_EUNSUPPORTED, unpack->loc,
        "unsupported: unpacking the %s items of a %s in a for target (only the items of "
        "enumerate() and zip())",
        it->type == UDF_TY_RANGE ? "int" : "str",
        it->type == UDF_TY_ITER ? "reversed()" : tn(it->type));
    it = NULL;
  } else if (it && !unpack && zip_of_str(it)) {
    return bind_target_var(c, v, UDF_TY_TUPLE_STR, loc, comp);
  } else if (it && !unpack && iter) {
    err(c, NRT_EUNSUPPORTED, loc,
        "unsupported: a tuple of mixed types from %s() as a value (unpack it: for a, b in "
        "%s(...))",
        it->u.call.builtin == UDF_BI_ZIP ? "zip" : "enumerate",
        it->u.call.builtin == UDF_BI_ZIP ? "zip" : "enumerate");
    it = NULL;
  } else if (it && unpack && count_items(it) != unpack->u.seq.n) {
    int want = unpack->u.seq.n, got = count_items(it);
    err(c, NRT_EUNSUPPORTED, unpack->loc,
        "unsupported: unpacking %d item%s into %d name%s (ValueError: %s values to unpack "
        "(expected %d%s%.0d))",
        got, got == 1 ? "" : "s", want, want == 1 ? "" : "s", got > want ? "too many" : "not enough", want, got > want ? "" : ", got ",
        got > want ? 0 : got);
    it = NULL;
  }
  if (!unpack) {
    udf_type elem = UNKNOWN;
    if (it) {
      udf_expr *src = it->type == UDF_TY_ITER ? it->u.call.cargs[0] : it;
      if (!iterable_elem(c, src, &elem)) elem = UNKNOWN;
    }
    return bind_target_var(c, v, elem, loc, comp);
  }
  for (int i = 0; i < unpack->u.seq.n; i++) {
    udf_expr *item_it = NULL, *t = unpack->u.seq.items[i];
    bool counter = false;
    if (it && it->u.call.builtin == UDF_BI_ENUMERATE) {
      counter = i == 0;
      item_it = i == 0 ? NULL : it->u.call.cargs[0];
    } else if (it) {
      item_it = it->u.call.cargs[i];
    }
    if (counter) {
      if (t->kind != UDF_E_NAME) {
        err(c, NRT_EUNSUPPORTED, t->loc,
            "unsupported: unpacking enumerate()'s index (TypeError: cannot unpack "
            "non-iterable int object)");
        if (!bind_for_target(c, NULL, NULL, t, loc, comp)) return false;
        continue;
      }
      if (!bind_target_var(c, t->u.name.var, UDF_TY_INT, t->loc, comp)) return false;
      continue;
    }
    if (!bind_for_target(c, item_it, t->kind == UDF_E_NAME ? t->u.name.var : NULL,
                         t->kind == UDF_E_NAME ? NULL : t, t->loc, comp))
      return false;
  }
  return true;
}

/* (name := value): binds a local of the function, from a comprehension too (Python's
 * scoping), never a comprehension's own variable. */
static udf_type check_named(ck *c, udf_expr *e) {
  udf_expr *t = e->u.named.target;
  const char *id = t->u.name.id;
  for (int i = 0; i < c->nscope; i++)
    if (strcmp(c->scope[i]->name, id) == 0)
      return err(c, NRT_EPARSE, t->loc,
                 "assignment expression cannot rebind comprehension iteration variable '%s'",
                 id);
  if (c->comp_iter)
    return err(c, NRT_EPARSE, e->loc,
               "assignment expression cannot be used in a comprehension iterable expression");
  udf_var *v = find_local(c, id);
  if (!v) return oom(c);
  if (v->is_exc_name)
    return err(c, NRT_EUNSUPPORTED, t->loc,
               "unsupported: assigning to '%s', the name of an except clause", id);
  t->u.name.var = v;
  udf_type vt = check_expr(c, &e->u.named.value);
  if (vt == UNKNOWN) return UNKNOWN;
  assign_var(c, v, vt, t->loc);
  t->type = v->type;
  return e->type = vt;
}

static udf_type check_comp(ck *c, udf_expr *e) {
  int saved = c->nscope;
  udf_type result = UDF_TY_LIST_STR;
  for (int g = 0; g < e->u.comp.ngens; g++) {
    udf_comp_for *gen = &e->u.comp.gens[g];
    c->comp_iter++;
    udf_type it = check_iterable(c, &gen->iter);
    c->comp_iter--;
    if (!bind_for_target(c, it == UNKNOWN ? NULL : gen->iter, gen->target, gen->unpack,
                         gen->target_loc, true))
      break;
    if (it == UNKNOWN) result = UNKNOWN;
    for (int k = 0; k < gen->nifs; k++)
      if (check_cond(c, &gen->ifs[k]) == UNKNOWN) result = UNKNOWN;
  }
  udf_type et = stop(c) ? UNKNOWN : check_expr(c, &e->u.comp.elt);
  c->nscope = saved;
  if (et == UNKNOWN || result == UNKNOWN) return UNKNOWN;
  if (et == UDF_TY_INT || et == UDF_TY_FLOAT || et == UDF_TY_BOOL)
    return e->type = udf_type_make(UDF_TY_LIST, et, 0);
  if (et != UDF_TY_STR) {
    if (!need_value(c, e->u.comp.elt, "a list of")) return UNKNOWN;
    return err(c, NRT_EUNSUPPORTED, e->u.comp.elt->loc,
               "unsupported: lists of %s (only lists of str, int, float or bool)", tn(et));
  }
  return e->type = UDF_TY_LIST_STR;
}

static udf_type check_seq(ck *c, udf_expr *e) {
  bool all_str = true, unknown = false;
  for (int i = 0; i < e->u.seq.n; i++) {
    udf_type t = check_expr(c, &e->u.seq.items[i]);
    if (t == UNKNOWN) {
      unknown = true;
      continue;
    }
    if (t != UDF_TY_STR) {
      all_str = false;
      if (e->kind == UDF_E_LIST && (t == UDF_TY_INT || t == UDF_TY_FLOAT || t == UDF_TY_BOOL)) {
        if (i > 0 && e->u.seq.items[0]->type != t)
          return err(c, NRT_EUNSUPPORTED, e->u.seq.items[i]->loc,
                     "unsupported: a list mixing %s and %s (lists hold one type)",
                     tn(e->u.seq.items[0]->type), tn(t));
        continue;
      }
      if (e->kind == UDF_E_LIST) {
        if (!need_value(c, e->u.seq.items[i], "a list holding")) return UNKNOWN;
        return err(c, NRT_EUNSUPPORTED, e->u.seq.items[i]->loc,
                   "unsupported: lists of %s (only lists of str, int, float or bool)", tn(t));
      }
    }
  }
  if (unknown) return UNKNOWN;
  if (e->kind == UDF_E_LIST && e->u.seq.n > 0 && e->u.seq.items[0]->type != UDF_TY_STR)
    return e->type = udf_type_make(UDF_TY_LIST, e->u.seq.items[0]->type, 0);
  if (e->kind == UDF_E_LIST && e->u.seq.n == 0 && !c->final)
    return e->type = UDF_TY_LIST; /* [] : its items' type is inferred from its appends */
  if (e->kind == UDF_E_LIST) return e->type = UDF_TY_LIST_STR;
  return e->type = all_str ? UDF_TY_TUPLE_STR : UDF_TY_TUPLE;
}

static udf_var *none_test(const udf_expr *t, bool *is_none);

/* `a and (x := ...) is not None and m` held (held true): every such name is not None;
 * `x is None or m is None or ...` failed (held false): likewise. */
static void narrow_when(ck *c, const udf_expr *t, bool held) {
  if (t->kind != UDF_E_BOOLOP || t->u.boolop.op != (held ? UDF_BOOL_AND : UDF_BOOL_OR)) return;
  for (int i = 0; i < t->u.boolop.n; i++) {
    bool is_none = false;
    udf_var *v = none_test(t->u.boolop.values[i], &is_none);
    if (v && is_none != held) narrow(c, v);
  }
}

static udf_type check_ifexp(ck *c, udf_expr *e) {
  udf_type tt = check_cond(c, &e->u.ifexp.test);
  /* `x.f() if x is not None else d` (or `if m` on a match): x is not None in the body. */
  bool is_none = false;
  udf_var *nv = tt == UNKNOWN ? NULL : none_test(e->u.ifexp.test, &is_none);
  int saved = c->nnarrowed;
  if (nv && !is_none) narrow(c, nv);
  if (tt != UNKNOWN) narrow_when(c, e->u.ifexp.test, true);
  bool ret = e == c->ret_expr && c->fn == c->m->entry; /* `return (a, b) if t else None` */
  if (ret) c->ret_expr = e->u.ifexp.body;
  udf_type bt = check_expr(c, &e->u.ifexp.body);
  if (ret && base(bt) == UDF_TY_TUPLE) bt = udf_result_tuple_as_list(e->u.ifexp.body);
  if (ret) c->ret_expr = e->u.ifexp.orelse;
  c->nnarrowed = saved;
  if (ret && base(bt) == UDF_TY_TUPLE)
    return err(c, NRT_EUNSUPPORTED, e->u.ifexp.body->loc, UDF_MIXED_TUPLE_RESULT);
  if (nv && is_none) narrow(c, nv);
  if (tt != UNKNOWN) narrow_when(c, e->u.ifexp.test, false);
  udf_type ot = check_expr(c, &e->u.ifexp.orelse);
  if (ret && base(ot) == UDF_TY_TUPLE) ot = udf_result_tuple_as_list(e->u.ifexp.orelse);
  c->nnarrowed = saved;
  if (ret && base(ot) == UDF_TY_TUPLE)
    return err(c, NRT_EUNSUPPORTED, e->u.ifexp.orelse->loc, UDF_MIXED_TUPLE_RESULT);
  /* Inference passes take the known branch's type for the other, still unknown (a
   * recursive call's before its result is inferred: `'' if not s else f(s[1:]) + s[0]`); the
   * final pass checks both. */
  if (!c->final && tt != UNKNOWN && (bt == UNKNOWN) != (ot == UNKNOWN))
    return bt == UNKNOWN ? ot : bt;
  if (tt == UNKNOWN || bt == UNKNOWN || ot == UNKNOWN) return UNKNOWN;
  udf_type t;
  if (bt == ot)
    t = bt;
  else if (bt == UDF_TY_NONE && base(ot) != UDF_TY_NONE)
    t = ot | UDF_TY_NULLABLE;
  else if (ot == UDF_TY_NONE && base(bt) != UDF_TY_NONE)
    t = bt | UDF_TY_NULLABLE;
  else if (strip(bt) == strip(ot))
    t = bt | UDF_TY_NULLABLE;
  else
    return err(c, NRT_EUNSUPPORTED, e->loc,
               "unsupported: conditional expression with branches of types %s and %s (its "
               "value would be of either type)",
               tn(bt), tn(ot));
  if (!storable(t)) return store_error(c, e->loc, t);
  return e->type = t;
}

static udf_type check_index(ck *c, udf_expr **ip, udf_type container) {
  udf_type t = check_expr(c, ip);
  if (t == UNKNOWN) return UNKNOWN;
  if (t == UDF_TY_INT) return t;
  if (t == UDF_TY_BOOL) {
    cast_to(c, ip, UDF_TY_INT);
    return UDF_TY_INT;
  }
  const char *what = t == UDF_TY_NONE || nullable(t) ? "NoneType" : tn(t);
  if (container == UDF_TY_STR)
    return err(c, NRT_ETYPE, (*ip)->loc, "string indices must be integers, not '%s'", what);
  return err(c, NRT_ETYPE, (*ip)->loc, "%s indices must be integers or slices, not %s",
             container == UDF_TY_LIST_STR || base(container) == UDF_TY_LIST ? "list" : "tuple",
             what);
}

/* The re module (types_re.c): m.name(...) or m[index] (name NULL) on a match. */
static udf_type check_re_match(ck *c, udf_expr *e, udf_expr *recv, const char *name) {
  if (name) {
    bool unknown = false;
    for (int i = 0; i < e->u.call.nargs; i++)
      if (check_expr(c, &e->u.call.args[i]) == UNKNOWN) unknown = true;
    if (unknown) return UNKNOWN;
  } else if (check_expr(c, &e->u.subscript.index) == UNKNOWN) {
    return UNKNOWN;
  }
  udf_re_err er;
  er.code = -1;
  udf_type t = udf_re_check_match(c->m, c->a, c->final, e, recv, name, &er);
  if (t == UNKNOWN && er.code == 0) return check_expr(c, &e); /* m.span(): now a tuple */
  if (t == UNKNOWN) return err(c, er.code, er.loc, "%s", er.msg);
  return t;
}

/* The re.compile call x denotes (written there, or a module constant's), or NULL. */
static udf_expr *re_pattern_object(ck *c, udf_expr *x) {
  if (x->kind == UDF_E_NAME && !x->u.name.var && is_module_const(c, x->u.name.id))
    x = udf_const_find(c->m, x->u.name.id)->value;
  return udf_re_is_compile(x) ? x : NULL;
}

/* P.name(...) / P.name on a pattern object (types_re_pattern.h): rewritten, checked again. */
static udf_type check_re_pattern(ck *c, udf_expr **ep, udf_expr *p, const char *name) {
  udf_re_err er;
  bool ok = name ? udf_re_pattern_call(c->a, *ep, p, name, &er)
                 : udf_re_pattern_attr(c->m, *ep, p, &er);
  if (!ok) return err(c, er.code, er.loc, "%s", er.msg);
  return check_expr(c, ep);
}

/* re.fn(...) (imports.h names it "re.fn"). */
static udf_type check_re(ck *c, udf_expr *e, const char *fn) {
  udf_re_err er;
  if (strcmp(fn, "escape") != 0 && strcmp(fn, "compile") != 0) { /* re.fn(P, ...) */
    udf_expr **slot = e->u.call.nargs ? &e->u.call.args[0] : NULL;
    for (int i = 0; i < e->u.call.nkeywords; i++)
      if (strcmp(e->u.call.keywords[i].name, "pattern") == 0) slot = &e->u.call.keywords[i].value;
    udf_expr *p = slot ? re_pattern_object(c, *slot) : NULL;
    int fi = strcmp(fn, "sub") == 0 || strcmp(fn, "subn") == 0 ? 4
             : strcmp(fn, "split") == 0                          ? 3
                                                                 : 2;
    if (p && !udf_re_pattern_arg(c->a, e, slot, p, fi, &er))
      return err(c, er.code, er.loc, "%s", er.msg);
  }
  if (!udf_re_precheck(c->m, c->a, e, fn, &er)) {
    if (er.code == 0) return check_expr(c, &e); /* re.subn: now a tuple */
    return err(c, er.code, er.loc, "%s", er.msg);
  }
  bool unknown = false;
  for (int i = 0; i < e->u.call.nargs; i++)
    if (check_expr(c, &e->u.call.args[i]) == UNKNOWN) unknown = true;
  for (int i = 0; i < e->u.call.nkeywords; i++)
    if (check_expr(c, &e->u.call.keywords[i].value) == UNKNOWN) unknown = true;
  if (unknown) return UNKNOWN;
  udf_type t = udf_re_check_call(c->m, c->a, c->final, e, fn, c->re_iterable == e, &er);
  if (t == UNKNOWN) return err(c, er.code, er.loc, "%s", er.msg);
  return t;
}

/* m.groupdict()[k] / m.groupdict().get(k, d) (types_re.h): e rewritten in place, or false. */
static bool groupdict_item(ck *c, udf_expr *e, udf_expr *gd, udf_expr *key, udf_expr *dflt,
                           bool is_get) {
  if (gd->kind != UDF_E_CALL || gd->u.call.func->kind != UDF_E_ATTRIBUTE ||
      strcmp(gd->u.call.func->u.attribute.attr, "groupdict") != 0 || key->kind != UDF_E_STR)
    return false;
  udf_type rt = check_expr(c, &gd->u.call.func->u.attribute.value);
  if (rt == UNKNOWN || base(rt) != UDF_TY_MATCH || nullable(rt)) return false;
  int r = udf_re_groupdict_item(c->m, c->a, e, gd, key, dflt, is_get);
  if (r < 0) oom(c);
  return r != 0; /* after running out of memory: checked again, stopping at once */
}

/* unicodedata.<fn>(...) (types_ucd.c). */
static udf_type check_ucd(ck *c, udf_expr *e, const char *fn) {
  bool unknown = false;
  for (int i = 0; i < e->u.call.nargs; i++)
    if (check_expr(c, &e->u.call.args[i]) == UNKNOWN) unknown = true;
  for (int i = 0; i < e->u.call.nkeywords; i++)
    if (check_expr(c, &e->u.call.keywords[i].value) == UNKNOWN) unknown = true;
  if (unknown) return UNKNOWN;
  udf_re_err er;
  udf_type t = udf_ucd_check_call(c->a, e, fn, &er);
  if (t == UNKNOWN) return err(c, er.code, er.loc, "%s", er.msg);
  return t;
}

static udf_type check_subscript(ck *c, udf_expr *e) {
  if (groupdict_item(c, e, e->u.subscript.value, e->u.subscript.index, NULL, false))
    return check_expr(c, &e);
  udf_type vt = check_expr(c, &e->u.subscript.value);
  if (vt == UNKNOWN) {
    check_expr(c, &e->u.subscript.index);
    return UNKNOWN;
  }
  if (!need_value(c, e->u.subscript.value, "indexing")) return UNKNOWN;
  if (e->u.subscript.value->kind == UDF_E_GENEXP)
    return err(c, NRT_ETYPE, e->loc, "'generator' object is not subscriptable");
  if (dict_kind(vt)) return check_dict_subscript(c, e, vt);
  if (base(vt) == UDF_TY_LIST) {
    if (check_index(c, &e->u.subscript.index, vt) == UNKNOWN) return UNKNOWN;
    return e->type = udf_type_param1(vt);
  }
  if (base(vt) == UDF_TY_MATCH) return check_re_match(c, e, e->u.subscript.value, NULL);
  switch (vt) {
  case UDF_TY_STR:
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR: break;
  case UDF_TY_TUPLE:
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: indexing a tuple of mixed types");
  default: return err(c, NRT_ETYPE, e->loc, "'%s' object is not subscriptable", tn(vt));
  }
  if (check_index(c, &e->u.subscript.index, vt) == UNKNOWN) return UNKNOWN;
  return e->type = UDF_TY_STR;
}

static udf_type check_slice(ck *c, udf_expr *e) {
  udf_type vt = check_expr(c, &e->u.slice.value);
  udf_expr **parts[3] = {&e->u.slice.lower, &e->u.slice.upper, &e->u.slice.step};
  bool unknown = vt == UNKNOWN;
  for (int i = 0; i < 3; i++) {
    if (!*parts[i]) continue;
    udf_type t = check_expr(c, parts[i]);
    if (t == UNKNOWN) {
      unknown = true;
      continue;
    }
    if (t == UDF_TY_NONE) {
      if (c->final) *parts[i] = NULL;
      continue;
    }
    if (t == UDF_TY_BOOL) {
      cast_to(c, parts[i], UDF_TY_INT);
      continue;
    }
    if (t != UDF_TY_INT)
      return err(c, NRT_ETYPE, (*parts[i])->loc,
                 "slice indices must be integers or None or have an __index__ method");
  }
  if (unknown) return UNKNOWN;
  if (!need_value(c, e->u.slice.value, "slicing")) return UNKNOWN;
  if (e->u.slice.value->kind == UDF_E_GENEXP)
    return err(c, NRT_ETYPE, e->loc, "'generator' object is not subscriptable");
  if (base(vt) == UDF_TY_LIST) return e->type = vt;
  switch (vt) {
  case UDF_TY_STR:
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR: return e->type = vt;
  case UDF_TY_TUPLE:
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: slicing a tuple of mixed types");
  default: return err(c, NRT_ETYPE, e->loc, "'%s' object is not subscriptable", tn(vt));
  }
}

/* ---- comparisons ---- */

static const char *cmp_text(udf_cmpop op) {
  static const char *const t[] = {"==", "!=", "<", "<=", ">", ">=", "in", "not in", "is",
                                  "is not"};
  return t[op];
}

static udf_type check_compare(ck *c, udf_expr *e) {
  int n = e->u.compare.n;
  bool unknown = false;
  for (int i = 0; i <= n; i++)
    if (check_expr(c, &e->u.compare.operands[i]) == UNKNOWN) unknown = true;
  if (unknown) return UNKNOWN;
  udf_expr **ops = e->u.compare.operands;
  /* An all-numeric chain of ordering/equality comparisons shares one operand type. */
  bool numeric = true;
  for (int i = 0; i < n; i++)
    if (e->u.compare.ops[i] >= UDF_CMP_IN) numeric = false;
  for (int i = 0; i <= n; i++)
    if (!is_num(ops[i]->type)) numeric = false;
  if (numeric) {
    udf_type t = UDF_TY_BOOL;
    for (int i = 0; i <= n; i++) {
      if (ops[i]->type == UDF_TY_FLOAT) t = UDF_TY_FLOAT;
      else if (ops[i]->type == UDF_TY_INT && t == UDF_TY_BOOL) t = UDF_TY_INT;
    }
    for (int i = 0; i <= n; i++) cast_to(c, &ops[i], t);
    return e->type = UDF_TY_BOOL;
  }
  for (int i = 0; i < n; i++) {
    udf_cmpop op = e->u.compare.ops[i];
    udf_expr *l = ops[i], *r = ops[i + 1];
    udf_type lt = l->type, rt = r->type;
    if (op == UDF_CMP_IS || op == UDF_CMP_IS_NOT) {
      if (l->kind != UDF_E_NONE && r->kind != UDF_E_NONE)
        return err(c, NRT_EUNSUPPORTED, e->loc,
                   "unsupported: '%s' comparisons other than with None", cmp_text(op));
      continue;
    }
    if (!need_value(c, l, "comparing") || !need_value(c, r, "comparing")) return UNKNOWN;
    if ((op == UDF_CMP_IN || op == UDF_CMP_NOT_IN) && dict_kind(rt)) {
      if (!dict_key(c, &ops[i], udf_type_param1(rt), base(rt) == UDF_TY_SET ? "set" : "dict"))
        return UNKNOWN;
      continue;
    }
    if (op == UDF_CMP_IN || op == UDF_CMP_NOT_IN) {
      if (rt == UDF_TY_STR) {
        if (lt != UDF_TY_STR)
          return err(c, NRT_ETYPE, l->loc,
                     "'in <string>' requires string as left operand, not %s", tn(lt));
        continue;
      }
      if (rt == UDF_TY_LIST_STR || rt == UDF_TY_TUPLE_STR) {
        if (lt != UDF_TY_STR)
          return err(c, NRT_EUNSUPPORTED, l->loc,
                     "unsupported: '%s' of a %s in a %s of str", cmp_text(op), tn(lt), tn(rt));
        continue;
      }
      if (base(rt) == UDF_TY_LIST && !nullable(rt)) {
        if (!mlist_number_item(c, &ops[i], udf_type_param1(rt))) return UNKNOWN;
        continue;
      }
      if (rt == UDF_TY_TUPLE)
        return err(c, NRT_EUNSUPPORTED, r->loc,
                   "unsupported: 'in' on a tuple of mixed types");
      return err(c, NRT_ETYPE, r->loc, "argument of type '%s' is not iterable", tn(rt));
    }
    if (is_num(lt) && is_num(rt)) {
      if (n > 1 && lt != rt)
        return err(c, NRT_EUNSUPPORTED, e->loc,
                   "unsupported: a comparison chain mixing %s and %s with other operand types",
                   tn(lt), tn(rt));
      udf_type t = (lt == UDF_TY_FLOAT || rt == UDF_TY_FLOAT) ? UDF_TY_FLOAT
                   : (lt == UDF_TY_INT || rt == UDF_TY_INT) ? UDF_TY_INT
                                                             : UDF_TY_BOOL;
      cast_to(c, &ops[i], t);
      cast_to(c, &ops[i + 1], t);
      continue;
    }
    bool ordering = op >= UDF_CMP_LT && op <= UDF_CMP_GE;
    if (lt == rt && lt == UDF_TY_STR) continue;
    if (lt == rt && !ordering && (lt == UDF_TY_LIST_STR || lt == UDF_TY_TUPLE_STR)) continue;
    if (lt == rt && !ordering && base(lt) == UDF_TY_LIST) continue;
    if (ordering)
      return err(c, NRT_ETYPE, e->loc, "'%s' not supported between instances of '%s' and '%s'",
                 cmp_text(op), tn(lt), tn(rt));
    return err(c, NRT_EUNSUPPORTED, e->loc,
               "unsupported: comparing %s with %s using '%s' (always %s in Python)", tn(lt),
               tn(rt), cmp_text(op), op == UDF_CMP_EQ ? "False" : "True");
  }
  return e->type = UDF_TY_BOOL;
}

/* ---- calls ---- */

static bool no_keywords(ck *c, udf_expr *e, const char *name) {
  if (e->u.call.nkeywords == 0) return true;
  err(c, NRT_ETYPE, e->u.call.keywords[0].loc, "%s() takes no keyword arguments", name);
  return false;
}

static bool arity(ck *c, udf_expr *e, const char *name, int lo, int hi) {
  int n = e->u.call.nargs;
  if (n >= lo && n <= hi) return true;
  if (lo == hi && lo == 1)
    err(c, NRT_ETYPE, e->loc, "%s() takes exactly one argument (%d given)", name, n);
  else if (n < lo)
    err(c, NRT_ETYPE, e->loc, "%s expected at least %d argument%s, got %d", name, lo,
        lo == 1 ? "" : "s", n);
  else
    err(c, NRT_ETYPE, e->loc, "%s expected at most %d argument%s, got %d", name, hi,
        hi == 1 ? "" : "s", n);
  return false;
}

static const char *none_name(udf_type t) {
  return t == UDF_TY_NONE || nullable(t) ? "NoneType" : udf_type_name(t);
}

/* reversed(x) consumed whole by a function of an iterable (join, list, min, max) gives what
 * x[::-1] gives: the tree says so. Elsewhere reversed() is only a for loop's iterable. */
static void reversed_as_slice(ck *c, udf_expr **ep) {
  udf_expr *e = *ep;
  if (e->kind != UDF_E_CALL || e->u.call.func->kind != UDF_E_NAME ||
      strcmp(e->u.call.func->u.name.id, "reversed") != 0 || e->u.call.nargs != 1 ||
      e->u.call.nkeywords != 0)
    return;
  for (int i = 0; i < c->m->nfuncs; i++)
    if (strcmp(c->m->funcs[i]->name, "reversed") == 0) return;
  udf_expr *sl = udf_arena_alloc(c->a, sizeof *sl), *step = udf_arena_alloc(c->a, sizeof *step);
  if (!sl || !step) {
    oom(c);
    return;
  }
  step->kind = UDF_E_INT;
  step->loc = e->loc;
  step->u.ival = -1;
  sl->kind = UDF_E_SLICE;
  sl->loc = e->loc;
  sl->u.slice.value = e->u.call.args[0];
  sl->u.slice.step = step;
  *ep = sl;
}

#include "udf/types_formatting.inc"

static udf_type check_builtin(ck *c, udf_expr *e, const char *name) {
  udf_expr **args = e->u.call.args;
  int n = e->u.call.nargs;
  bool unknown = false;
  if (n == 1 && (strcmp(name, "list") == 0 || strcmp(name, "min") == 0 ||
                 strcmp(name, "max") == 0))
    reversed_as_slice(c, &args[0]);
  if (n == 1 && strcmp(name, "str") == 0) c->exc_ok = args[0];
  const udf_expr *pre = c->prechecked;
  c->prechecked = NULL;
  for (int i = 0; i < n; i++)
    if ((args[i] == pre ? c->prechecked_type : check_expr(c, &args[i])) == UNKNOWN)
      unknown = true;
  c->exc_ok = NULL;
  for (int i = 0; i < e->u.call.nkeywords; i++)
    if (check_expr(c, &e->u.call.keywords[i].value) == UNKNOWN) unknown = true;
  if (unknown) return UNKNOWN;
  udf_builtin b;
  udf_type result;
  if (strcmp(name, "len") == 0) {
    b = UDF_BI_LEN;
    if (!no_keywords(c, e, name) || !arity(c, e, "len", 1, 1)) return UNKNOWN;
    udf_type t = args[0]->type;
    if (args[0]->kind == UDF_E_GENEXP)
      return err(c, NRT_ETYPE, e->loc, "object of type 'generator' has no len()");
    if (t != UDF_TY_STR && t != UDF_TY_LIST_STR && t != UDF_TY_TUPLE_STR && t != UDF_TY_TUPLE &&
        base(t) != UDF_TY_LIST)
      return err(c, NRT_ETYPE, e->loc, "object of type '%s' has no len()", none_name(t));
    result = UDF_TY_INT;
  } else if (strcmp(name, "str") == 0 || strcmp(name, "int") == 0 || strcmp(name, "float") == 0 ||
             strcmp(name, "bool") == 0) {
    bool is_int = name[0] == 'i', is_str = name[0] == 's', is_bool = name[0] == 'b';
    b = is_str ? UDF_BI_STR : is_int ? UDF_BI_INT : is_bool ? UDF_BI_BOOL : UDF_BI_FLOAT;
    result = is_str ? UDF_TY_STR : is_int ? UDF_TY_INT : is_bool ? UDF_TY_BOOL : UDF_TY_FLOAT;
    udf_expr *base_arg = NULL;
    if (is_int && e->u.call.nkeywords == 1 && strcmp(e->u.call.keywords[0].name, "base") == 0 &&
        n == 1) {
      base_arg = e->u.call.keywords[0].value;
    } else if (!no_keywords(c, e, name)) {
      return UNKNOWN;
    }
    if (!arity(c, e, name, 0, is_int && !base_arg ? 2 : 1)) return UNKNOWN;
    if (n == 0 && !base_arg) { /* str() int() float() bool(): their literal */
      if (c->final) {
        memset(&e->u, 0, sizeof e->u);
        e->kind = is_str ? UDF_E_STR : is_int ? UDF_E_INT : is_bool ? UDF_E_BOOL : UDF_E_FLOAT;
        if (is_str) e->u.str.data = "";
      }
      return e->type = result;
    }
    if (is_bool) {
      udf_expr *x = args[0];
      if (check_cond(c, &x) == UNKNOWN) return UNKNOWN;
      if (c->final) *e = *x; /* x is bool already, or a UDF_E_TRUTH of it */
      return e->type = UDF_TY_BOOL;
    }
    udf_type t = args[0]->type;
    if (!need_value(c, args[0], "converting")) return UNKNOWN;
    if (n == 2 || base_arg) {
      udf_expr **bp = base_arg ? &e->u.call.keywords[0].value : &args[1];
      if (t != UDF_TY_STR)
        return err(c, NRT_ETYPE, e->loc, "int() can't convert non-string with explicit base");
      udf_type bt = (*bp)->type;
      if (bt == UDF_TY_BOOL) cast_to(c, bp, UDF_TY_INT);
      else if (bt != UDF_TY_INT)
        return err(c, NRT_ETYPE, (*bp)->loc, "'%s' object cannot be interpreted as an integer",
                   none_name(bt));
      if (base_arg && c->final) {
        udf_expr **na = udf_arena_alloc(c->a, 2 * sizeof *na);
        if (!na) return oom(c);
        na[0] = args[0];
        na[1] = *bp;
        e->u.call.args = args = na;
        e->u.call.nargs = n = 2;
      }
    } else if (is_str && (reprable(t) || base(t) == UDF_TY_SET)) {
      return str_of_container(c, e, t);
    } else if (!(t == UDF_TY_STR || is_num(t))) {
      if (is_str)
        return err(c, NRT_EUNSUPPORTED, args[0]->loc, "unsupported: str() of a %s", tn(t));
      return err(c, NRT_ETYPE, args[0]->loc,
                 is_int ? "int() argument must be a string, a bytes-like object or a real "
                          "number, not '%s'"
                        : "float() argument must be a string or a real number, not '%s'",
                 tn(t));
    }
  } else if (strcmp(name, "ord") == 0) {
    b = UDF_BI_ORD;
    if (!no_keywords(c, e, name) || !arity(c, e, "ord", 1, 1)) return UNKNOWN;
    if (args[0]->type != UDF_TY_STR)
      return err(c, NRT_ETYPE, args[0]->loc, "ord() expected string of length 1, but %s found",
                 none_name(args[0]->type));
    result = UDF_TY_INT;
  } else if (strcmp(name, "chr") == 0) {
    b = UDF_BI_CHR;
    if (!no_keywords(c, e, name) || !arity(c, e, "chr", 1, 1)) return UNKNOWN;
    if (args[0]->type == UDF_TY_BOOL) cast_to(c, &args[0], UDF_TY_INT);
    else if (args[0]->type != UDF_TY_INT)
      return err(c, NRT_ETYPE, args[0]->loc, "'%s' object cannot be interpreted as an integer",
                 none_name(args[0]->type));
    result = UDF_TY_STR;
  } else if (strcmp(name, "abs") == 0) {
    b = UDF_BI_ABS;
    if (!no_keywords(c, e, name) || !arity(c, e, "abs", 1, 1)) return UNKNOWN;
    udf_type t = args[0]->type;
    if (!is_num(t))
      return err(c, NRT_ETYPE, args[0]->loc, "bad operand type for abs(): '%s'", none_name(t));
    if (t == UDF_TY_BOOL) cast_to(c, &args[0], UDF_TY_INT);
    result = t == UDF_TY_FLOAT ? UDF_TY_FLOAT : UDF_TY_INT;
  } else if (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) {
    b = name[1] == 'i' ? UDF_BI_MIN : UDF_BI_MAX;
    if (e->u.call.nkeywords)
      return err(c, NRT_EUNSUPPORTED, e->u.call.keywords[0].loc,
                 "unsupported: %s() with keyword arguments (key=, default=)", name);
    if (n == 0) return err(c, NRT_ETYPE, e->loc, "%s expected at least 1 argument, got 0", name);
    if (n == 1) {
      udf_type t = args[0]->type;
      if (t != UDF_TY_STR && t != UDF_TY_LIST_STR && t != UDF_TY_TUPLE_STR)
        return err(c, NRT_ETYPE, args[0]->loc, "'%s' object is not iterable", none_name(t));
      result = UDF_TY_STR;
    } else {
      udf_type t = args[0]->type;
      for (int i = 0; i < n; i++) {
        if (!need_value(c, args[i], "comparing")) return UNKNOWN;
        if (args[i]->type != t) {
          if (is_num(t) && is_num(args[i]->type))
            return err(c, NRT_EUNSUPPORTED, args[i]->loc,
                       "unsupported: %s() of %s and %s (the result type would depend on the "
                       "values)",
                       name, tn(t), tn(args[i]->type));
          return err(c, NRT_ETYPE, args[i]->loc,
                     "'%s' not supported between instances of '%s' and '%s'",
                     b == UDF_BI_MIN ? "<" : ">", tn(args[i]->type), tn(t));
        }
      }
      if (!(is_num(t) || t == UDF_TY_STR))
        return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: %s() of %s values", name, tn(t));
      result = t;
    }
  } else if (strcmp(name, "list") == 0) {
    b = UDF_BI_LIST;
    if (!no_keywords(c, e, name) || !arity(c, e, "list", 0, 1)) return UNKNOWN;
    if (n == 1 && (args[0]->type == UDF_TY_RANGE || base(args[0]->type) == UDF_TY_LIST)) {
      e->u.call.ckind = UDF_CALL_BUILTIN;
      e->u.call.builtin = b;
      e->u.call.cargs = args;
      e->u.call.ncargs = 1;
      return e->type = args[0]->type == UDF_TY_RANGE ? udf_type_make(UDF_TY_LIST, UDF_TY_INT, 0)
                                                     : args[0]->type;
    }
    if (n == 1) {
      udf_type t = args[0]->type;
      if (t == UDF_TY_TUPLE)
        return err(c, NRT_EUNSUPPORTED, args[0]->loc,
                   "unsupported: list() of a tuple of mixed types (only lists of str)");
      if (t != UDF_TY_STR && t != UDF_TY_LIST_STR && t != UDF_TY_TUPLE_STR)
        return err(c, NRT_ETYPE, args[0]->loc, "'%s' object is not iterable", none_name(t));
    }
    result = UDF_TY_LIST_STR;
  } else if (strncmp(name, "math.", 5) == 0) {
    static const char *const fns[] = {"floor", "ceil",     "trunc", "sqrt", "isnan",
                                      "isinf", "isfinite", "fabs",  "exp",  "log",
                                      "log2",  "log10",    "pow",   NULL};
    int k = 0;
    while (fns[k] && strcmp(fns[k], name + 5) != 0) k++;
    if (!fns[k]) return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: %s", name);
    b = (udf_builtin)(UDF_BI_MATH_FLOOR + k);
    if (!no_keywords(c, e, name)) return UNKNOWN;
    int lo = b == UDF_BI_MATH_POW ? 2 : 1, hi = b == UDF_BI_MATH_LOG || lo == 2 ? 2 : 1;
    if (hi == 1 && n != 1)
      return err(c, NRT_ETYPE, e->loc, "%s() takes exactly one argument (%d given)", name, n);
    if (n < lo || n > hi)
      return err(c, NRT_ETYPE, e->loc, "%s expected %s, got %d", name + 5,
                 lo == 2 ? "2 arguments" : n < lo ? "at least 1 argument" : "at most 2 arguments",
                 n);
    bool to_int = b <= UDF_BI_MATH_TRUNC && args[0]->type != UDF_TY_FLOAT;
    for (int i = 0; i < n; i++) {
      if (!is_num(args[i]->type))
        return err(c, NRT_ETYPE, args[i]->loc, "must be real number, not %s",
                   none_name(args[i]->type));
      cast_to(c, &args[i], to_int ? UDF_TY_INT : UDF_TY_FLOAT);
    }
    result = b <= UDF_BI_MATH_TRUNC                                ? UDF_TY_INT
             : b >= UDF_BI_MATH_ISNAN && b <= UDF_BI_MATH_ISFINITE ? UDF_TY_BOOL
                                                                   : UDF_TY_FLOAT;
  } else { /* range */
    b = UDF_BI_RANGE;
    if (!no_keywords(c, e, name)) return UNKNOWN;
    if (n == 0) return err(c, NRT_ETYPE, e->loc, "range expected at least 1 argument, got 0");
    if (n > 3) return err(c, NRT_ETYPE, e->loc, "range expected at most 3 arguments, got %d", n);
    for (int i = 0; i < n; i++) {
      udf_type t = args[i]->type;
      if (t == UDF_TY_BOOL) cast_to(c, &args[i], UDF_TY_INT);
      else if (t != UDF_TY_INT)
        return err(c, NRT_ETYPE, args[i]->loc, "'%s' object cannot be interpreted as an integer",
                   none_name(t));
    }
    result = UDF_TY_RANGE;
  }
  e->u.call.ckind = UDF_CALL_BUILTIN;
  e->u.call.builtin = b;
  e->u.call.cargs = e->u.call.args;
  e->u.call.ncargs = e->u.call.nargs;
  return e->type = result;
}

static udf_type check_slot(ck *c, const udf_method_info *mi, int slot, udf_expr **ap,
                           udf_expr **out) {
  udf_type t = (*ap)->type;
  udf_loc loc = (*ap)->loc;
  *out = *ap;
  switch (mi->slots[slot]) {
  case UDF_SLOT_STR:
    if (t != UDF_TY_STR)
      return err(c, NRT_ETYPE, loc, "%s() argument %d must be str, not %s", mi->name, slot + 1,
                 none_name(t));
    return t;
  case UDF_SLOT_STR_OR_NONE:
    if (t == UDF_TY_NONE) {
      *out = NULL;
      return t;
    }
    if (t != UDF_TY_STR) {
      if (mi->id == UDF_M_STRIP || mi->id == UDF_M_LSTRIP || mi->id == UDF_M_RSTRIP)
        return err(c, NRT_ETYPE, loc, "%s arg must be None or str", mi->name);
      return err(c, NRT_ETYPE, loc, "must be str or None, not %s", none_name(t));
    }
    return t;
  case UDF_SLOT_INT:
  case UDF_SLOT_INT_OR_NONE:
    if (t == UDF_TY_NONE && mi->slots[slot] == UDF_SLOT_INT_OR_NONE) {
      *out = NULL;
      return t;
    }
    if (t == UDF_TY_BOOL) {
      cast_to(c, ap, UDF_TY_INT);
      *out = *ap;
      return UDF_TY_INT;
    }
    if (t != UDF_TY_INT) {
      if (mi->slots[slot] == UDF_SLOT_INT_OR_NONE)
        return err(c, NRT_ETYPE, loc,
                   "slice indices must be integers or None or have an __index__ method");
      return err(c, NRT_ETYPE, loc, "'%s' object cannot be interpreted as an integer",
                 none_name(t));
    }
    return t;
  case UDF_SLOT_PREFIX:
    if (t != UDF_TY_STR && t != UDF_TY_TUPLE_STR)
      return err(c, NRT_ETYPE, loc, "%s first arg must be str or a tuple of str, not %s",
                 mi->name, none_name(t));
    return t;
  case UDF_SLOT_TRUTH:
    if (t == UDF_TY_BOOL) return t;
    if (t != UDF_TY_INT)
      return err(c, NRT_ETYPE, loc, "'%s' object cannot be interpreted as an integer",
                 none_name(t));
    if (c->final) {
      udf_expr *w = wrap(c, *ap, UDF_E_TRUTH, UDF_TY_BOOL);
      if (!w) return UNKNOWN;
      *ap = *out = w;
    }
    return UDF_TY_BOOL;
  case UDF_SLOT_ITERABLE:
    if (base(t) == UDF_TY_LIST && !nullable(t))
      return err(c, NRT_EUNSUPPORTED, loc,
                 "unsupported: joining a list of %s (TypeError: sequence item 0: expected str "
                 "instance, %s found)", tn(udf_type_param1(t)), tn(udf_type_param1(t)));
    if (t != UDF_TY_STR && t != UDF_TY_LIST_STR && t != UDF_TY_TUPLE_STR) {
      if (t == UDF_TY_TUPLE)
        return err(c, NRT_ETYPE, loc, "sequence item: expected str instance");
      return err(c, NRT_ETYPE, loc, "can only join an iterable");
    }
    return t;
  }
  return UNKNOWN;
}

#include "udf/types_mlist.inc"

static udf_type check_method(ck *c, udf_expr *e, udf_expr *attr) {
  const char *name = attr->u.attribute.attr;
  udf_expr *pat = re_pattern_object(c, attr->u.attribute.value);
  if (pat) return check_re_pattern(c, &e, pat, name); /* e is checked in place */
  if (strcmp(name, "get") == 0 && !e->u.call.nkeywords &&
      (e->u.call.nargs == 1 || e->u.call.nargs == 2) &&
      groupdict_item(c, e, attr->u.attribute.value, e->u.call.args[0],
                     e->u.call.nargs == 2 ? e->u.call.args[1] : NULL, true))
    return check_expr(c, &e);
  udf_type rt = check_expr(c, &attr->u.attribute.value);
  if (rt != UNKNOWN && base(rt) == UDF_TY_MATCH) {
    if (!need_value(c, attr->u.attribute.value, "calling a method of")) return UNKNOWN;
    return check_re_match(c, e, attr->u.attribute.value, name);
  }
  if (strcmp(name, "translate") == 0 || strcmp(name, "maketrans") == 0)
    return check_translate(c, e, attr, rt);
  if (rt == UDF_TY_LIST_STR || base(rt) == UDF_TY_LIST ||
      ((rt == UDF_TY_STR || rt == UDF_TY_TUPLE_STR) && strncmp(name, "__", 2) == 0))
    return check_list_method(c, e, attr, rt);
  if (mlist_lambda_elsewhere(c, e) == UNKNOWN) return UNKNOWN;
  bool unknown = rt == UNKNOWN;
  if (strcmp(name, "join") == 0 && e->u.call.nargs == 1)
    reversed_as_slice(c, &e->u.call.args[0]);
  for (int i = 0; i < e->u.call.nargs; i++)
    if (check_expr(c, &e->u.call.args[i]) == UNKNOWN) unknown = true;
  for (int i = 0; i < e->u.call.nkeywords; i++)
    if (!e->u.call.keywords[i].lambda_param &&
        check_expr(c, &e->u.call.keywords[i].value) == UNKNOWN)
      unknown = true;
  if (unknown) return UNKNOWN;
  udf_expr *recv = attr->u.attribute.value;
  if (!need_value(c, recv, "calling a method of")) return UNKNOWN;
  if (dict_kind(rt)) return check_dict_method(c, e, attr, rt);
  if (rt != UDF_TY_STR) {
    return err(c, NRT_EUNSUPPORTED, attr->loc, "unsupported: method '%s' of a %s value", name,
               tn(rt));
  }
  const udf_method_info *mi = udf_method_lookup(name);
  if (!mi) {
    if (udf_method_is_unsupported_str_method(name))
      return err(c, NRT_EUNSUPPORTED, attr->loc, "unsupported: str method '%s'", name);
    return err(c, NRT_ETYPE, attr->loc, "'str' object has no attribute '%s'", name);
  }
  int n = e->u.call.nargs;
  if (n > mi->max_args || (n < mi->min_args && e->u.call.nkeywords == 0)) {
    if (mi->max_args == 0)
      return err(c, NRT_ETYPE, e->loc, "str.%s() takes no arguments (%d given)", name, n);
    if (mi->min_args == 1 && mi->max_args == 1)
      return err(c, NRT_ETYPE, e->loc, "str.%s() takes exactly one argument (%d given)", name,
                 n);
    if (n < mi->min_args)
      return err(c, NRT_ETYPE, e->loc, "%s expected at least %d argument%s, got %d", name,
                 mi->min_args, mi->min_args == 1 ? "" : "s", n);
    return err(c, NRT_ETYPE, e->loc, "%s expected at most %d argument%s, got %d", name,
               mi->max_args, mi->max_args == 1 ? "" : "s", n);
  }
  udf_expr **cargs = udf_arena_alloc(c->a, 3 * sizeof *cargs);
  if (!cargs) return oom(c);
  udf_expr **srcs[3] = {NULL, NULL, NULL};
  for (int i = 0; i < n; i++) srcs[i] = &e->u.call.args[i];
  for (int k = 0; k < e->u.call.nkeywords; k++) {
    udf_keyword *kw = &e->u.call.keywords[k];
    int slot = -1;
    bool any_kw = false;
    for (int s = 0; s < mi->max_args; s++) {
      if (mi->keywords[s]) any_kw = true;
      if (mi->keywords[s] && strcmp(mi->keywords[s], kw->name) == 0) slot = s;
    }
    if (!any_kw) {
      if (mi->max_args == 0)
        return err(c, NRT_ETYPE, kw->loc, "str.%s() takes no keyword arguments", name);
      return err(c, NRT_ETYPE, kw->loc, "%s() takes no keyword arguments", name);
    }
    if (slot < 0)
      return err(c, NRT_ETYPE, kw->loc, "'%s' is an invalid keyword argument for %s()", kw->name,
                 name);
    if (srcs[slot])
      return err(c, NRT_ETYPE, kw->loc, "argument for %s() given by name ('%s') and position "
                 "(%d)", name, kw->name, slot + 1);
    srcs[slot] = &kw->value;
  }
  for (int s = 0; s < mi->min_args; s++)
    if (!srcs[s])
      return err(c, NRT_ETYPE, e->loc, "%s expected at least %d argument%s, got %d", name,
                 mi->min_args, mi->min_args == 1 ? "" : "s", n);
  for (int s = 0; s < mi->max_args; s++) {
    if (!srcs[s]) continue;
    if (check_slot(c, mi, s, srcs[s], &cargs[s]) == UNKNOWN) return UNKNOWN;
  }
  e->u.call.ckind = UDF_CALL_METHOD;
  e->u.call.method = mi->id;
  e->u.call.receiver = recv;
  e->u.call.cargs = cargs;
  e->u.call.ncargs = mi->max_args;
  return e->type = mi->result;
}

static bool is_literal(const udf_expr *d) {
  switch (d->kind) {
  case UDF_E_NONE: case UDF_E_BOOL: case UDF_E_INT: case UDF_E_FLOAT: case UDF_E_STR:
    return true;
  case UDF_E_UNARY:
    return (d->u.unary.op == UDF_UOP_NEG || d->u.unary.op == UDF_UOP_POS) &&
           (d->u.unary.operand->kind == UDF_E_INT || d->u.unary.operand->kind == UDF_E_FLOAT);
  case UDF_E_TUPLE: /* a folded constant (parse_consts.h): a tuple of literals */
    for (int i = 0; i < d->u.seq.n; i++)
      if (d->u.seq.items[i]->kind == UDF_E_TUPLE || !is_literal(d->u.seq.items[i])) return false;
    return true;
  default: return false;
  }
}

static udf_type check_user_call(ck *c, udf_expr *e, udf_func *f) {
  int n = e->u.call.nargs, np = f->nparams;
  bool unknown = false;
  for (int i = 0; i < n; i++)
    if (check_expr(c, &e->u.call.args[i]) == UNKNOWN) unknown = true;
  for (int i = 0; i < e->u.call.nkeywords; i++)
    if (check_expr(c, &e->u.call.keywords[i].value) == UNKNOWN) unknown = true;
  if (unknown) return UNKNOWN;
  udf_expr **cargs = udf_arena_alloc(c->a, (size_t)(np ? np : 1) * sizeof *cargs);
  if (!cargs) return oom(c);
  /* CPython's TypeErrors (as compile errors), in its order: keywords, then counts. */
  if (udf_bind_call_args(c->dc, e, f, cargs)) return UNKNOWN;
  for (int i = 0; i < np; i++) {
    if (cargs[i]) continue;
    if (i >= np - f->ncaptures) { /* a closure's hidden argument: the caller's variable */
      cargs[i] = udf_capture_arg(c->a, f->params[i], e->loc);
      if (!cargs[i]) return oom(c);
      int nscope = c->nscope; /* a function variable, never a comprehension's */
      c->nscope = 0;
      udf_type t = check_expr(c, &cargs[i]);
      c->nscope = nscope;
      if (t == UNKNOWN) return UNKNOWN;
      continue;
    }
    udf_expr *d = f->defaults[i]; /* bound: a parameter without one is never left out */
    if (!is_literal(d))
      return err(c, NRT_EUNSUPPORTED, d->loc,
                 "unsupported: a default value that is not a literal");
    if (check_expr(c, &f->defaults[i]) == UNKNOWN) return UNKNOWN;
    cargs[i] = f->defaults[i];
  }
  udf_type *types = udf_arena_alloc(c->a, (size_t)(np ? np : 1) * sizeof *types);
  if (!types) return oom(c);
  for (int i = 0; i < np; i++) {
    if (!not_generator(c, cargs[i], "passing")) return UNKNOWN;
    types[i] = cargs[i]->type;
    if (!storable(types[i])) return store_error(c, cargs[i]->loc, types[i]);
  }
  ck *anc = NULL;
  for (ck *p = c; p && !f->checked && !anc; p = p->parent)
    if (p->fn == f) anc = p;
  if (anc) { /* a recursive call: the types f is being checked with */
    for (ck *p = c; p != anc->parent; p = p->parent) p->fn->recursive = true;
    for (int i = 0; i < np; i++) {
      udf_type pt = f->params[i]->type;
      if (types[i] == pt || (nullable(pt) && assignable(types[i], pt))) continue;
      if (types[i] == UDF_TY_BOOL && pt == UDF_TY_INT) {
        cast_to(c, &cargs[i], UDF_TY_INT);
        continue;
      }
      return err(c, NRT_ETYPE, cargs[i]->loc,
                 "argument '%s' of %s() is %s here but %s at its first call (a parameter keeps "
                 "one type)",
                 f->params[i]->name, f->name, tn(types[i]), tn(pt));
    }
    anc->guess_used = true;
    if (anc->guess == UNKNOWN) {
      if (!c->final) return UNKNOWN;
      return err(c, NRT_EUNSUPPORTED, e->loc,
                 "unsupported: recursive call to '%s' before its result type is known (return "
                 "a value in a base case first)",
                 f->name);
    }
    if (c->final) {
      if (anc->final_guess != UNKNOWN && anc->final_guess != anc->guess)
        return err(c, NRT_EUNSUPPORTED, e->loc,
                   "unsupported: the result type of recursive function '%s' changes (%s, %s)",
                   f->name, tn(anc->final_guess), tn(anc->guess));
      anc->final_guess = anc->guess;
    }
    e->u.call.ckind = UDF_CALL_FUNC;
    e->u.call.callee = f;
    e->u.call.cargs = cargs;
    e->u.call.ncargs = np;
    return e->type = anc->guess;
  }
  if (!f->checked) {
    if (!c->final) { /* checked after the inference passes, with settled argument types */
      for (int i = 0; i < c->npending; i++)
        if (c->pending[i] == f) return UNKNOWN;
      int n2 = c->npending;
      if (!udf_arena_push(c->a, (void ***)&c->pending, &c->npending, &c->cappending, f) ||
          !udf_arena_push(c->a, (void ***)&c->pending_types, &n2, &c->cappending_types, types))
        return oom(c);
      return UNKNOWN;
    }
    /* First met in the final pass (its arguments were not typed before): checked now. */
    if (check_function(c, f, types)) return UNKNOWN;
  } else {
    for (int i = 0; i < np; i++) {
      udf_type pt = f->params[i]->type;
      if (types[i] == pt || (nullable(pt) && assignable(types[i], pt))) continue;
      if (types[i] == UDF_TY_BOOL && pt == UDF_TY_INT) {
        cast_to(c, &cargs[i], UDF_TY_INT);
        continue;
      }
      return err(c, NRT_ETYPE, cargs[i]->loc,
                 "argument '%s' of %s() is %s here but %s at its first call (a parameter keeps "
                 "one type)",
                 f->params[i]->name, f->name, tn(types[i]), tn(pt));
    }
  }
  e->u.call.ckind = UDF_CALL_FUNC;
  e->u.call.callee = f;
  e->u.call.cargs = cargs;
  e->u.call.ncargs = np;
  return e->type = f->result;
}

static udf_type check_fstring(ck *c, udf_expr *e);

/* repr(x) / ascii(x) / format(x[, 'spec']): the final pass turns the call into the f-string
 * f'{x!r}' / f'{x!a}' / f'{x:spec}'. */
static udf_type check_repr(ck *c, udf_expr *e, const char *id) {
  bool is_format = id[0] == 'f';
  int n = e->u.call.nargs;
  if (e->u.call.nkeywords)
    return err(c, NRT_ETYPE, e->loc, "%s() takes no keyword arguments", id);
  if (is_format && (n < 1 || n > 2))
    return err(c, NRT_ETYPE, e->loc, "format expected at %s %d argument%s, got %d",
               n < 1 ? "least" : "most", n < 1 ? 1 : 2, n < 1 ? "" : "s", n);
  if (!is_format && n != 1)
    return err(c, NRT_ETYPE, e->loc, "%s() takes exactly one argument (%d given)", id, n);
  udf_expr *x = e->u.call.args[0];
  udf_strlit spec = {"", 0};
  if (n == 2) {
    udf_expr *sp = e->u.call.args[1];
    if (sp->kind != UDF_E_STR) {
      udf_type st = check_expr(c, &e->u.call.args[1]);
      if (st == UNKNOWN) return UNKNOWN;
      if (st != UDF_TY_STR)
        return err(c, NRT_ETYPE, sp->loc, "format() argument 2 must be str, not %s",
                   none_name(st));
      return err(c, NRT_EUNSUPPORTED, sp->loc,
                 "unsupported: format() with a spec that is not a literal");
    }
    spec = sp->u.str;
  }
  if (is_format && x->kind == UDF_E_NONE && spec.len)
    return err(c, NRT_ETYPE, e->loc,
               "unsupported format string passed to NoneType.__format__");
  if (x->kind == UDF_E_NONE) { /* repr(None), format(None) */
    if (c->final) {
      e->kind = UDF_E_STR;
      e->u.str.data = "None";
      e->u.str.len = 4;
    }
    return e->type = UDF_TY_STR;
  }
  if (!c->final) {
    udf_type t = check_expr(c, &e->u.call.args[0]);
    return t == UNKNOWN ? UNKNOWN : UDF_TY_STR;
  }
  udf_fpart *part = udf_arena_alloc(c->a, sizeof *part);
  if (!part) return oom(c);
  part->is_field = true;
  part->expr = x;
  part->conversion = is_format ? 0 : id[0] == 'r' ? 'r' : 'a';
  part->spec = spec;
  e->kind = UDF_E_FSTRING;
  e->u.fstring.parts = part;
  e->u.fstring.nparts = 1;
  return check_fstring(c, e);
}

static udf_type check_call(ck *c, udf_expr *e) {
  if (e->u.call.ckind == UDF_CALL_BUILTIN && e->u.call.builtin >= UDF_BI_TRANSLATE)
    return e->type; /* made by the final pass (types_formatting.inc), met again */
  udf_expr *fx = e->u.call.func;
  if (fx->kind == UDF_E_ATTRIBUTE) {
    udf_expr *recv = fx->u.attribute.value;
    if (strcmp(fx->u.attribute.attr, "format") == 0) /* a literal's became an f-string */
      return err(c, NRT_EUNSUPPORTED, fx->loc,
                 "unsupported: str.format on a format string that is not a literal");
    if (is_maketrans(e)) return check_maketrans_elsewhere(c, e);
    if (recv->kind == UDF_E_NAME && (strcmp(recv->u.name.id, "str") == 0) &&
        !find_local(c, "str"))
      return err(c, NRT_EUNSUPPORTED, fx->loc,
                 "unsupported: calling a method through its type (write s.%s(...))",
                 fx->u.attribute.attr);
    return check_method(c, e, fx);
  }
  if (fx->kind != UDF_E_NAME) {
    udf_type t = check_expr(c, &e->u.call.func);
    if (t == UNKNOWN) return UNKNOWN;
    return err(c, NRT_ETYPE, fx->loc, "'%s' object is not callable", none_name(t));
  }
  const char *id = fx->u.name.id;
  bool local = false;
  for (int i = c->nscope - 1; i >= 0; i--)
    if (strcmp(c->scope[i]->name, id) == 0) local = true;
  if (local || find_local(c, id)) {
    udf_type t = check_expr(c, &e->u.call.func);
    if (t == UNKNOWN) return UNKNOWN;
    return err(c, NRT_ETYPE, fx->loc, "'%s' object is not callable", none_name(t));
  }
  bool keyed = strcmp(id, "sorted") == 0 || strcmp(id, "sum") == 0 ||
               ((strcmp(id, "min") == 0 || strcmp(id, "max") == 0) &&
                (e->u.call.nkeywords || e->u.call.nargs == 1));
  if (!keyed && mlist_lambda_elsewhere(c, e) == UNKNOWN) return UNKNOWN;
  udf_func *callee = udf_resolve_func(c->m, c->fn, id);
  if (callee && callee->parent == c->fn &&
      (e->loc.line < callee->loc.line ||
       (e->loc.line == callee->loc.line && e->loc.col < callee->loc.col)))
    return err(c, NRT_EUNSUPPORTED, fx->loc,
               "unsupported: calling '%s' above its definition (in Python an "
               "UnboundLocalError until the definition has run)",
               id);
  if (callee) return check_user_call(c, e, callee);
  if (keyed) return check_keyed_builtin(c, e, id);
  if (strcmp(id, "repr") == 0 || strcmp(id, "ascii") == 0 || strcmp(id, "format") == 0)
    return check_repr(c, e, id);
  udf_type dt;
  c->prechecked = NULL;
  if (check_dict_builtin(c, e, id, &dt)) return dt;
  static const char *const builtins[] = {"len", "str", "int", "float", "bool", "ord",
                                         "chr", "abs", "min", "max", "range", "list", NULL};
  for (int i = 0; builtins[i]; i++)
    if (strcmp(builtins[i], id) == 0) return check_builtin(c, e, id);
  if (strncmp(id, "math.", 5) == 0) return check_builtin(c, e, id); /* imports.h */
  if (strncmp(id, "re.", 3) == 0) return check_re(c, e, id + 3);
  if (strncmp(id, "unicodedata.", 12) == 0) return check_ucd(c, e, id + 12);
  if (strcmp(id, "enumerate") == 0 || strcmp(id, "zip") == 0 || strcmp(id, "reversed") == 0)
    return err(c, NRT_EUNSUPPORTED, fx->loc,
               "unsupported: %s() outside the iterable of a for loop or comprehension", id);
  if (udf_builtin_is_unsupported(id))
    return err(c, NRT_EUNSUPPORTED, fx->loc, "unsupported: built-in function '%s'", id);
  return err(c, NRT_ETYPE, fx->loc, "name '%s' is not defined", id);
}

/* The type rules of a %-formatting conversion (parse_format.h) for an argument of type t. */
static bool check_percent(ck *c, udf_fpart *p, udf_type t) {
  char k = p->percent;
  if (strchr("sra", k)) return true;
  if (t == UDF_TY_STR) {
    if (k == 'd')
      err(c, NRT_ETYPE, p->expr->loc,
          "%%-formatting raises TypeError: %%d format: a real number is required, not str");
    else if (strchr("oxX", k))
      err(c, NRT_ETYPE, p->expr->loc,
          "%%-formatting raises TypeError: %%%c format: an integer is required, not str", k);
    else
      err(c, NRT_ETYPE, p->expr->loc,
          "%%-formatting raises TypeError: must be real number, not str");
    return false;
  }
  if (t == UDF_TY_FLOAT && strchr("oxX", k)) {
    err(c, NRT_ETYPE, p->expr->loc,
        "%%-formatting raises TypeError: %%%c format: an integer is required, not float", k);
    return false;
  }
  if (t == UDF_TY_FLOAT && k == 'd' && c->final) { /* %d truncates a float: int(x) */
    udf_expr *call = udf_arena_alloc(c->a, sizeof *call);
    udf_expr **args = udf_arena_alloc(c->a, sizeof *args);
    if (!call || !args) return oom(c), false;
    args[0] = p->expr;
    call->kind = UDF_E_CALL;
    call->loc = p->expr->loc;
    call->type = UDF_TY_INT;
    call->u.call.ckind = UDF_CALL_BUILTIN;
    call->u.call.builtin = UDF_BI_INT;
    call->u.call.args = call->u.call.cargs = args;
    call->u.call.nargs = call->u.call.ncargs = 1;
    p->expr = call;
  }
  return true;
}

static udf_type check_fstring(ck *c, udf_expr *e) {
  bool unknown = false;
  for (int i = 0; i < e->u.fstring.nparts; i++) {
    udf_fpart *p = &e->u.fstring.parts[i];
    if (!p->is_field) continue;
    if (!p->conversion && p->spec.len == 0) c->exc_ok = p->expr;
    udf_type t = check_expr(c, &p->expr);
    c->exc_ok = NULL;
    if (t == UNKNOWN) {
      unknown = true;
      continue;
    }
    if (!need_value(c, p->expr, "formatting")) return UNKNOWN;
    if (reprable(t) || base(t) == UDF_TY_SET) {
      if (!repr_field(c, p, t)) return UNKNOWN;
      continue;
    }
    if (!(t == UDF_TY_STR || is_num(t)))
      return err(c, NRT_EUNSUPPORTED, p->expr->loc,
                 "unsupported: formatting a %s in an f-string", tn(t));
    if (p->percent && !check_percent(c, p, t)) return UNKNOWN;
  }
  if (unknown) return UNKNOWN;
  return e->type = UDF_TY_STR;
}

/* 'literal'.format(...) and 'literal' % x become f-strings in place (parse_format.h), at their
 * first check: the parse tree stays Python's, the later passes see the f-string. */
/* 'literal' % right with %(key) conversions: right a dict display (or a module-level one) or
 * a dict variable with str keys. 0 not known yet, -1 after an error. */
static int desugar_percent_keys(ck *c, udf_expr *e, udf_expr **f) {
  udf_expr *r = e->u.binary.right, *fmte = e->u.binary.left;
  if (r->kind == UDF_E_NAME && trans_global(c, r) && module_const_index(c, r->u.name.id) >= 0 &&
      c->m->const_values[module_const_index(c, r->u.name.id)]->kind == UDF_E_DICT)
    r = c->m->const_values[module_const_index(c, r->u.name.id)];
  if (r->kind == UDF_E_DICT) {
    *f = udf_format_percent_keys(c->dc, c->a, c->m, fmte, r, false);
    return *f ? 1 : -1;
  }
  if (r->kind == UDF_E_TUPLE || r->kind == UDF_E_STR || r->kind == UDF_E_INT ||
      r->kind == UDF_E_FLOAT || r->kind == UDF_E_NONE || r->kind == UDF_E_BOOL) {
    *f = udf_format_percent(c->dc, c->a, fmte, r); /* CPython's TypeError */
    return -1;
  }
  if (r->kind != UDF_E_NAME)
    return err(c, NRT_EUNSUPPORTED, r->loc,
               "unsupported: %%(name) formatting of a mapping that is not a dict display or a "
               "variable"), -1;
  udf_type t = check_expr(c, &e->u.binary.right);
  if (t == UNKNOWN) return stop(c) ? -1 : 0;
  if (base(t) == UDF_TY_LIST || t == UDF_TY_LIST_STR)
    return err(c, NRT_ETYPE, fmte->loc, "%%-formatting raises TypeError: list indices must be "
               "integers or slices, not str"), -1;
  if (base(t) != UDF_TY_DICT || nullable(t))
    return err(c, NRT_ETYPE, fmte->loc,
               "%%-formatting raises TypeError: format requires a mapping"), -1;
  if (udf_type_param1(t) != UDF_TY_STR)
    return err(c, NRT_EUNSUPPORTED, r->loc,
               "unsupported: %%(name) formatting of a dict whose keys are not str"), -1;
  *f = udf_format_percent_keys(c->dc, c->a, c->m, fmte, e->u.binary.right, true);
  return *f ? 1 : -1;
}

static bool desugar_format(ck *c, udf_expr *e) {
  udf_expr *f;
  if (e->kind == UDF_E_CALL && e->u.call.ckind == UDF_CALL_UNRESOLVED &&
      e->u.call.func->kind == UDF_E_ATTRIBUTE &&
      e->u.call.func->u.attribute.value->kind == UDF_E_STR &&
      strcmp(e->u.call.func->u.attribute.attr, "format") == 0)
    f = udf_format_call(c->dc, c->a, c->m, e);
  else if (e->kind == UDF_E_BINARY && e->u.binary.op == UDF_OP_MOD &&
           e->u.binary.left->kind == UDF_E_STR &&
           udf_format_percent_has_keys(e->u.binary.left)) {
    if (desugar_percent_keys(c, e, &f) <= 0) return false; /* an error, or not known yet */
  } else if (e->kind == UDF_E_BINARY && e->u.binary.op == UDF_OP_MOD &&
           e->u.binary.left->kind == UDF_E_STR)
    f = udf_format_percent(c->dc, c->a, e->u.binary.left, e->u.binary.right);
  else
    return true;
  if (!f) return false;
  *e = *f;
  return true;
}

#include "udf/types_dict.inc"

static udf_type check_expr(ck *c, udf_expr **ep) {
  udf_expr *e = *ep;
  if (stop(c)) return UNKNOWN;
  if (!desugar_format(c, e)) return UNKNOWN;
  switch (e->kind) {
  case UDF_E_NONE: return e->type = UDF_TY_NONE;
  case UDF_E_BOOL: return e->type = UDF_TY_BOOL;
  case UDF_E_INT: return e->type = UDF_TY_INT;
  case UDF_E_FLOAT: return e->type = UDF_TY_FLOAT;
  case UDF_E_STR: return e->type = UDF_TY_STR;
  case UDF_E_NAMED: return check_named(c, e);
  case UDF_E_FSTRING: return check_fstring(c, e);
  case UDF_E_NAME: {
    int k = module_const_index(c, e->u.name.id);
    if (k >= 0 && !dict_target_var(c, e) && !e->u.name.var) return check_module_const(c, ep, k);
    if (is_module_const(c, e->u.name.id)) { /* a module-level constant: a copy of its value */
      udf_expr *copy = udf_const_copy(c->a, udf_const_find(c->m, e->u.name.id)->value, e->loc);
      if (!copy) return oom(c);
      *ep = copy;
      return check_expr(c, ep);
    }
    udf_type t = check_name(c, e);
    udf_var *v = e->u.name.var;
    if (t != UNKNOWN && nullable(t) && v && is_narrowed(c, v)) {
      t = strip(t);
      if (c->final)
        cast_to(c, ep, t); /* a UDF_E_CAST from T | None to T */
      else
        e->type = t;
    }
    return t;
  }
  case UDF_E_UNARY: return check_unary(c, e);
  case UDF_E_BINARY: {
    udf_type lt = check_expr(c, &e->u.binary.left);
    udf_type rt = check_expr(c, &e->u.binary.right);
    if (lt == UNKNOWN || rt == UNKNOWN) return UNKNOWN;
    udf_type t = binary_types(c, e->loc, e->u.binary.op, &e->u.binary.left, &e->u.binary.right);
    return t == UNKNOWN ? UNKNOWN : (e->type = t);
  }
  case UDF_E_BOOLOP: return check_boolop_value(c, e);
  case UDF_E_COMPARE: return check_compare(c, e);
  case UDF_E_IFEXP: return check_ifexp(c, e);
  case UDF_E_CALL: return check_call(c, e);
  case UDF_E_ATTRIBUTE: {
    udf_expr *pat = re_pattern_object(c, e->u.attribute.value);
    if (pat) return check_re_pattern(c, ep, pat, NULL);
    udf_type t = check_expr(c, &e->u.attribute.value);
    if (t == UNKNOWN) return UNKNOWN;
    char why[200];
    if (base(t) == UDF_TY_MATCH && udf_re_match_attr(e->u.attribute.attr, why, sizeof why))
      return err(c, why[0] == 'u' ? NRT_EUNSUPPORTED : NRT_ETYPE, e->loc, "%s", why);
    if (t == UDF_TY_STR && !udf_method_lookup(e->u.attribute.attr))
      return err(c, NRT_ETYPE, e->loc, "'str' object has no attribute '%s'",
                 e->u.attribute.attr);
    return err(c, NRT_EUNSUPPORTED, e->loc,
               "unsupported: attribute '%s' used as a value (only method calls)",
               e->u.attribute.attr);
  }
  case UDF_E_SUBSCRIPT: return check_subscript(c, e);
  case UDF_E_SLICE: return check_slice(c, e);
  case UDF_E_LIST:
  case UDF_E_TUPLE: return check_seq(c, e);
  case UDF_E_LISTCOMP:
  case UDF_E_GENEXP: return check_comp(c, e);
  case UDF_E_CAST: return e->type;
  case UDF_E_TRUTH: return e->type;
  case UDF_E_DICT:
  case UDF_E_SET: return check_dict_display(c, e);
  case UDF_E_DICTCOMP:
  case UDF_E_SETCOMP: return check_dict_comp(c, e);
  }
  return UNKNOWN;
}

/* A condition: its value as bool (UDF_E_TRUTH inserted for other types). */
static udf_type check_cond(ck *c, udf_expr **ep) {
  udf_expr *e = *ep;
  if (stop(c)) return UNKNOWN;
  if (e->kind == UDF_E_BOOLOP) {
    bool unknown = false;
    int saved = c->nnarrowed;
    for (int i = 0; i < e->u.boolop.n; i++) {
      if (check_cond(c, &e->u.boolop.values[i]) == UNKNOWN) unknown = true;
      /* `m and m.group()`, `m is None or m.end()`: not None in the operands after the test */
      bool is_none = false;
      udf_var *nv = none_test(e->u.boolop.values[i], &is_none);
      if (nv && is_none == (e->u.boolop.op == UDF_BOOL_OR)) narrow(c, nv);
    }
    c->nnarrowed = saved;
    if (unknown) return UNKNOWN;
    return e->type = UDF_TY_BOOL;
  }
  udf_type t = check_expr(c, ep);
  if (t == UNKNOWN) return UNKNOWN;
  if (t == UDF_TY_BOOL) return t;
  udf_type b = base(t);
  if (e->kind == UDF_E_GENEXP)
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: the truth value of a generator");
  if (b == UDF_TY_RANGE || b == UDF_TY_TUPLE)
    return err(c, NRT_EUNSUPPORTED, e->loc, "unsupported: the truth value of a %s", tn(t));
  if (c->final) {
    udf_expr *w = wrap(c, e, UDF_E_TRUTH, UDF_TY_BOOL);
    if (!w) return UNKNOWN;
    *ep = w;
  }
  return UDF_TY_BOOL;
}

/* ---------------------------------------------------------------------------------------
 * Statements */

static void check_block(ck *c, udf_block *b);

/* `x is None` / `x is not None` on a nullable variable x: returns x. */
static udf_var *none_test(const udf_expr *t, bool *is_none) {
  /* `if m and ...:`: m is not None in the body. */
  if (t->kind == UDF_E_BOOLOP && t->u.boolop.op == UDF_BOOL_AND)
    for (int i = 0; i < t->u.boolop.n; i++) {
      udf_var *v = none_test(t->u.boolop.values[i], is_none);
      if (v && !*is_none) return v;
    }
  /* `if m:` / `if not m:` on a match that may be None: a match object is always true;
   * `if (m := re.search(...)):` too. */
  bool negated = t->kind == UDF_E_UNARY && t->u.unary.op == UDF_UOP_NOT;
  const udf_expr *m = negated ? t->u.unary.operand : t;
  if (m->kind == UDF_E_TRUTH) m = m->u.truth.operand;
  if (m->kind == UDF_E_NAMED) m = m->u.named.target;
  if (m->kind == UDF_E_NAME && m->u.name.var && nullable(m->u.name.var->type) &&
      base(m->u.name.var->type) == UDF_TY_MATCH) {
    *is_none = negated;
    return m->u.name.var;
  }
  if (t->kind != UDF_E_COMPARE || t->u.compare.n != 1) return NULL;
  udf_cmpop op = t->u.compare.ops[0];
  if (op != UDF_CMP_IS && op != UDF_CMP_IS_NOT) return NULL;
  const udf_expr *l = t->u.compare.operands[0], *r = t->u.compare.operands[1];
  const udf_expr *name = l->kind == UDF_E_NONE ? r : r->kind == UDF_E_NONE ? l : NULL;
  if (name && name->kind == UDF_E_NAMED) name = name->u.named.target; /* (x := ...) is None */
  if (!name || name->kind != UDF_E_NAME || !name->u.name.var) return NULL;
  if (!nullable(name->u.name.var->type)) return NULL;
  *is_none = op == UDF_CMP_IS;
  return name->u.name.var;
}

/* Does every path through b end in return, break or continue? */
static bool block_exits(const udf_block *b) {
  if (b->n == 0) return false;
  const udf_stmt *last = b->items[b->n - 1];
  switch (last->kind) {
  case UDF_S_RETURN: case UDF_S_BREAK: case UDF_S_CONTINUE: return true;
  case UDF_S_IF: return block_exits(&last->u.if_.body) && block_exits(&last->u.if_.orelse);
  default: return false;
  }
}

static void kill_target(ck *c, const udf_expr *t) {
  if (t->kind == UDF_E_NAME && t->u.name.var) unnarrow(c, t->u.name.var);
  else if (t->kind == UDF_E_TUPLE)
    for (int i = 0; i < t->u.seq.n; i++) kill_target(c, t->u.seq.items[i]);
}

static void kill_assigned(ck *c, const udf_block *b);

/* A try statement may leave any of its blocks midway: what they assign loses its narrowing. */
static void kill_try(ck *c, const udf_stmt *s) {
  kill_assigned(c, &s->u.try_.body);
  for (int k = 0; k < s->u.try_.nhandlers; k++) {
    if (s->u.try_.handlers[k]->name) unnarrow(c, s->u.try_.handlers[k]->name);
    kill_assigned(c, &s->u.try_.handlers[k]->body);
  }
  kill_assigned(c, &s->u.try_.orelse);
  kill_assigned(c, &s->u.try_.finalbody);
}

static void unnarrow_cb(void *c, udf_var *v) { unnarrow(c, v); }

/* Variables assigned in a loop lose their narrowing for the whole loop. */
static void kill_assigned(ck *c, const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    const udf_stmt *s = b->items[i];
    switch (s->kind) {
    case UDF_S_ASSIGN:
      for (int k = 0; k < s->u.assign.ntargets; k++) kill_target(c, s->u.assign.targets[k]);
      break;
    case UDF_S_AUGASSIGN: kill_target(c, s->u.augassign.target); break;
    case UDF_S_IF:
      kill_assigned(c, &s->u.if_.body);
      kill_assigned(c, &s->u.if_.orelse);
      break;
    case UDF_S_WHILE:
      kill_assigned(c, &s->u.while_.body);
      kill_assigned(c, &s->u.while_.orelse);
      break;
    case UDF_S_FOR:
      udf_target_each_var(s->u.for_.target, s->u.for_.unpack, unnarrow_cb, c);
      kill_assigned(c, &s->u.for_.body);
      kill_assigned(c, &s->u.for_.orelse);
      break;
    case UDF_S_TRY:
      kill_try(c, s);
      break;
    default: break;
    }
  }
}

static udf_type return_join(ck *c, udf_type r, udf_loc loc) {
  if (base(r) == UDF_TY_MATCH)
    return err(c, NRT_EUNSUPPORTED, loc,
               "unsupported: returning a re.Match object (return m.group(), m.start(), ...)");
  udf_type old = c->ret;
  if (base(r) == UDF_TY_DICT || base(r) == UDF_TY_SET)
    return err(c, NRT_EUNSUPPORTED, loc, "unsupported: returning a %s (a UDF returns str, int, "
               "float, bool, a list or a tuple)", tn(r));
  if (old == UNKNOWN) {
    c->ret = r;
    c->ret_loc = loc;
    return r;
  }
  udf_type nt;
  if (old == r) nt = old;
  else if (r == UDF_TY_NONE && base(old) != UDF_TY_NONE) nt = old | UDF_TY_NULLABLE;
  else if (old == UDF_TY_NONE && base(r) != UDF_TY_NONE) nt = r | UDF_TY_NULLABLE;
  else if (strip(old) == strip(r)) nt = old | r;
  else
    return err(c, NRT_EUNSUPPORTED, loc,
               "unsupported: function '%s' returns %s (line %d) and %s here; a function "
               "returns one type (or None)",
               c->fn->name, tn(old), c->ret_loc.line, tn(r));
  c->ret = nt;
  return nt;
}

static void check_assign(ck *c, udf_stmt *s) {
  udf_type vt = check_expr(c, &s->u.assign.value);
  udf_expr *v = s->u.assign.value;
  vt = mlist_empty_assigned(c, s, vt);
  if (vt != UNKNOWN && !not_generator(c, v, "storing")) return;
  for (int k = 0; k < s->u.assign.ntargets && !stop(c); k++) {
    udf_expr *t = s->u.assign.targets[k];
    if (t->kind == UDF_E_NAME) {
      t->type = t->u.name.var ? (vt != UNKNOWN ? vt : UNKNOWN) : UNKNOWN;
      assign_var(c, t->u.name.var, vt, t->loc);
      if (c->final && t->u.name.var) t->type = t->u.name.var->type;
      if (t->u.name.var) dict_type_empty(c, v, t->u.name.var->type);
      continue;
    }
    /* unpacking */
    int nt = t->u.seq.n;
    if (vt == UNKNOWN) continue;
    if (v->kind == UDF_E_TUPLE) {
      if (v->u.seq.n != nt) {
        if (v->u.seq.n > nt)
          err(c, NRT_EVALUE, t->loc, "too many values to unpack (expected %d)", nt);
        else
          err(c, NRT_EVALUE, t->loc, "not enough values to unpack (expected %d, got %d)", nt,
              v->u.seq.n);
        return;
      }
      for (int i = 0; i < nt; i++) {
        udf_expr *ti = t->u.seq.items[i];
        assign_var(c, ti->u.name.var, v->u.seq.items[i]->type, ti->loc);
        if (c->final) ti->type = ti->u.name.var->type;
      }
      t->type = vt;
      continue;
    }
    if (!need_value(c, v, "unpacking")) return;
    if (vt != UDF_TY_TUPLE_STR && vt != UDF_TY_LIST_STR && vt != UDF_TY_STR) {
      err(c, NRT_ETYPE, v->loc, "cannot unpack non-iterable %s object", tn(vt));
      return;
    }
    if (v->kind == UDF_E_CALL && v->u.call.ckind == UDF_CALL_METHOD && nt != 3 &&
        (v->u.call.method == UDF_M_PARTITION || v->u.call.method == UDF_M_RPARTITION)) {
      if (nt > 3)
        err(c, NRT_EVALUE, t->loc, "not enough values to unpack (expected %d, got 3)", nt);
      else
        err(c, NRT_EVALUE, t->loc, "too many values to unpack (expected %d)", nt);
      return;
    }
    for (int i = 0; i < nt; i++) {
      udf_expr *ti = t->u.seq.items[i];
      assign_var(c, ti->u.name.var, UDF_TY_STR, ti->loc);
      if (c->final) ti->type = ti->u.name.var->type;
    }
    t->type = vt;
  }
}

/* The classes an except clause names (a name or a tuple of names): their UDF_EXC_* bits. */
static bool handler_catches(ck *c, udf_handler *h) {
  if (!h->type) {
    h->catches = UDF_EXC_ALL;
    return true;
  }
  udf_expr *one = h->type;
  udf_expr **items = h->type->kind == UDF_E_TUPLE ? h->type->u.seq.items : &one;
  int n = h->type->kind == UDF_E_TUPLE ? h->type->u.seq.n : 1;
  h->catches = 0;
  for (int i = 0; i < n; i++) {
    uint32_t bits;
    int code;
    if (items[i]->kind != UDF_E_NAME) {
      err(c, NRT_EUNSUPPORTED, items[i]->loc,
          "unsupported: an except clause naming something other than a built-in exception "
          "class");
      return false;
    }
    if (!udf_exc_class(items[i]->u.name.id, &bits, &code)) {
      err(c, NRT_EUNSUPPORTED, items[i]->loc,
          "unsupported: exception class '%s' (only built-in exceptions such as ValueError, "
          "TypeError, IndexError, ZeroDivisionError, OverflowError, Exception)",
          items[i]->u.name.id);
      return false;
    }
    h->catches |= bits;
  }
  return true;
}

static void check_try(ck *c, udf_stmt *s) {
  kill_try(c, s);
  check_block(c, &s->u.try_.body);
  for (int k = 0; k < s->u.try_.nhandlers && !stop(c); k++) {
    udf_handler *h = s->u.try_.handlers[k];
    if (!handler_catches(c, h)) return;
    if (h->name) assign_var(c, h->name, UDF_TY_STR, h->name_loc);
    c->nexcept++;
    check_block(c, &h->body);
    c->nexcept--;
    if (h->name) unnarrow(c, h->name);
  }
  check_block(c, &s->u.try_.orelse);
  check_block(c, &s->u.try_.finalbody);
}

/* raise E(msg) / raise E / raise: the status and the message. */
static void check_raise(ck *c, udf_stmt *s) {
  udf_expr *e = s->u.raise.exc;
  if (!e) {
    if (c->nexcept == 0)
      err(c, NRT_EUNSUPPORTED, s->loc, "unsupported: a bare 'raise' outside an except clause");
    return;
  }
  udf_expr *cls = e->kind == UDF_E_CALL ? e->u.call.func : e;
  uint32_t bits;
  int code = 0;
  if (cls->kind != UDF_E_NAME || !udf_exc_class(cls->u.name.id, &bits, &code)) {
    err(c, NRT_EUNSUPPORTED, e->loc,
        "unsupported: raising something other than a built-in exception class");
    return;
  }
  if (!code) {
    err(c, NRT_EUNSUPPORTED, cls->loc,
        "unsupported: raising %s (raise ValueError, TypeError, IndexError, KeyError, "
        "ZeroDivisionError, OverflowError, RuntimeError, MemoryError or UnboundLocalError)",
        cls->u.name.id);
    return;
  }
  s->u.raise.code = code;
  s->u.raise.msg = NULL;
  if (e->kind != UDF_E_CALL) return;
  if (e->u.call.nkeywords > 0 || e->u.call.nargs > 1) {
    err(c, NRT_EUNSUPPORTED, e->loc,
        "unsupported: an exception with keyword arguments or more than one argument");
    return;
  }
  if (e->u.call.nargs == 0) return;
  udf_type t = check_expr(c, &e->u.call.args[0]);
  if (t == UNKNOWN) return;
  if (t != UDF_TY_STR) {
    err(c, NRT_EUNSUPPORTED, e->u.call.args[0]->loc,
        "unsupported: an exception argument of type %s (pass a str, e.g. str(x) or an f-string)",
        tn(t));
    return;
  }
  s->u.raise.msg = e->u.call.args[0];
}

/* xs[i] = v and del xs[i] are parsed as item statements, which types_dict.inc checks for
 * dicts; on a list they become the list's __setitem__ / __delitem__ call, as types_mlist.inc
 * types them (v is evaluated first there, as in Python). Returns true when s was rewritten. */
static bool list_item_stmt(ck *c, udf_stmt *s) {
  udf_expr *t = s->u.setitem.target;
  udf_type lt = check_expr(c, &t->u.subscript.value);
  if (lt != UDF_TY_LIST_STR && base(lt) != UDF_TY_LIST) return false;
  udf_expr *attr = udf_arena_alloc(c->a, sizeof *attr);
  udf_expr *call = udf_arena_alloc(c->a, sizeof *call);
  udf_expr **args = udf_arena_alloc(c->a, 2 * sizeof *args);
  if (!attr || !call || !args) {
    oom(c);
    return false;
  }
  attr->kind = UDF_E_ATTRIBUTE;
  attr->loc = t->loc;
  attr->u.attribute.value = t->u.subscript.value;
  attr->u.attribute.attr = s->u.setitem.value ? "__setitem__" : "__delitem__";
  call->kind = UDF_E_CALL;
  call->loc = t->loc;
  call->u.call.func = attr;
  args[0] = t->u.subscript.index;
  args[1] = s->u.setitem.value;
  call->u.call.args = args;
  call->u.call.nargs = s->u.setitem.value ? 2 : 1;
  s->kind = UDF_S_EXPR;
  s->u.expr = call;
  return true;
}

static void check_stmt(ck *c, udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_EXPR: check_expr(c, &s->u.expr); break;
  case UDF_S_ASSIGN: check_assign(c, s); break;
  case UDF_S_AUGASSIGN: {
    udf_expr *t = s->u.augassign.target;
    udf_type lt = check_name(c, t);
    if (mlist_augassign(c, s, lt)) break; /* xs += v, xs *= n: in place */
    udf_type rt = check_expr(c, &s->u.augassign.value);
    if (lt == UNKNOWN || rt == UNKNOWN) break;
    udf_expr *tcopy = t;
    if (!need_value(c, t, "augmented assignment to")) break;
    if (!need_value(c, s->u.augassign.value, "augmented assignment with")) break;
    if (dict_kind(lt)) { /* Python changes the set in place, seen through every alias */
      err(c, NRT_EUNSUPPORTED, s->loc, "unsupported: '%s=' on a %s (write %s = %s %s ...)",
          binop_text(s->u.augassign.op), tn(lt), t->u.name.id, t->u.name.id,
          binop_text(s->u.augassign.op));
      break;
    }
    udf_type r = binary_types(c, s->loc, s->u.augassign.op, &tcopy, &s->u.augassign.value);
    if (r == UNKNOWN) break;
    if (tcopy != t || r != lt)
      err(c, NRT_ETYPE, s->loc,
          "variable '%s' has type %s; '%s=' would make it %s (a variable keeps one type)",
          t->u.name.id, tn(lt), binop_text(s->u.augassign.op), tn(r));
    break;
  }
  case UDF_S_IF: {
    check_cond(c, &s->u.if_.test);
    bool is_none = false;
    udf_var *nv = none_test(s->u.if_.test, &is_none);
    int saved = c->nnarrowed;
    if (nv && !is_none) narrow(c, nv);
    narrow_when(c, s->u.if_.test, true);
    check_block(c, &s->u.if_.body);
    c->nnarrowed = saved;
    if (nv && is_none) narrow(c, nv);
    narrow_when(c, s->u.if_.test, false);
    check_block(c, &s->u.if_.orelse);
    c->nnarrowed = saved;
    if (nv && ((is_none && block_exits(&s->u.if_.body)) ||
               (!is_none && block_exits(&s->u.if_.orelse))))
      narrow(c, nv); /* for the rest of the enclosing block */
    break;
  }
  case UDF_S_WHILE: {
    kill_assigned(c, &s->u.while_.body);
    check_cond(c, &s->u.while_.test);
    /* `while m:` / `while (m := re.search(...)) is not None:`: not None in the body (until
     * assigned there) */
    bool is_none = false;
    udf_var *nv = none_test(s->u.while_.test, &is_none);
    int saved = c->nnarrowed;
    if (nv && !is_none) narrow(c, nv);
    narrow_when(c, s->u.while_.test, true);
    check_block(c, &s->u.while_.body);
    c->nnarrowed = saved;
    check_block(c, &s->u.while_.orelse);
    break;
  }
  case UDF_S_FOR: {
    udf_type it = check_iterable(c, &s->u.for_.iter);
    kill_assigned(c, &s->u.for_.body);
    if (it != UNKNOWN)
      bind_for_target(c, s->u.for_.iter, s->u.for_.target, s->u.for_.unpack,
                      s->u.for_.target_loc, false);
    check_block(c, &s->u.for_.body);
    check_block(c, &s->u.for_.orelse);
    break;
  }
  case UDF_S_RETURN: {
    udf_type r = UDF_TY_NONE;
    if (s->u.ret.value) {
      c->ret_expr = s->u.ret.value;
      r = check_expr(c, &s->u.ret.value);
      c->ret_expr = NULL;
      if (r == UNKNOWN) break;
      if (!not_generator(c, s->u.ret.value, "returning")) break;
      if (base(r) == UDF_TY_TUPLE && c->fn == c->m->entry)
        r = udf_result_tuple_as_list(s->u.ret.value); /* (1, 2) -> list<int64> */
      if (base(r) == UDF_TY_TUPLE) {
        err(c, NRT_EUNSUPPORTED, s->u.ret.value->loc, UDF_MIXED_TUPLE_RESULT);
        break;
      }
      if (!storable(r)) {
        store_error(c, s->u.ret.value->loc, r);
        break;
      }
    }
    return_join(c, r, s->loc);
    break;
  }
  case UDF_S_TRY: check_try(c, s); break;
  case UDF_S_RAISE: check_raise(c, s); break;
  case UDF_S_SETITEM:
  case UDF_S_DELITEM:
    if (list_item_stmt(c, s))
      check_stmt(c, s); /* now the list's method call */
    else
      check_setitem(c, s);
    break;
  case UDF_S_BREAK:
  case UDF_S_CONTINUE:
  case UDF_S_PASS: break;
  }
}

static void check_block(ck *c, udf_block *b) {
  int saved = c->nnarrowed;
  for (int i = 0; i < b->n && !stop(c); i++) check_stmt(c, b->items[i]);
  c->nnarrowed = saved;
}

static int check_function(ck *parent, udf_func *fn, const udf_type *ptypes) {
  ck c;
  memset(&c, 0, sizeof c);
  c.dc = parent->dc;
  c.a = parent->a;
  c.m = parent->m;
  c.fn = fn;
  c.parent = parent->fn ? parent : NULL;
  for (int i = 0; i < fn->nparams; i++) {
    udf_var *v = fn->params[i];
    v->type = ptypes[i];
    if (v->index < 0 && !add_local(&c, v)) return c.dc->code;
  }
  collect_block(&c, &fn->body);
  if (stop(&c)) return c.dc->code;
  for (int round = 0; round <= 2 * c.m->nfuncs + 8; round++) {
    int max_passes = 2 * fn->nlocals + 4;
    for (int pass = 0; pass < max_passes; pass++) {
      c.changed = false;
      c.ret = UNKNOWN;
      c.nscope = 0;
      c.nnarrowed = 0;
      c.npending = 0;
      check_block(&c, &fn->body);
      if (stop(&c)) return c.dc->code;
      if (!c.changed) break;
    }
    bool guess_moved = c.ret != UNKNOWN && c.ret != c.guess;
    if (guess_moved) c.guess = c.ret;
    if (c.npending == 0 && !(guess_moved && c.guess_used)) break;
    for (int i = 0; i < c.npending; i++)
      if (!c.pending[i]->checked && check_function(&c, c.pending[i], c.pending_types[i]))
        return c.dc->code;
  }
  mlist_settle(fn);
  c.final = true;
  c.ret = UNKNOWN;
  c.nscope = 0;
  c.nnarrowed = 0;
  check_block(&c, &fn->body);
  if (stop(&c)) return c.dc->code;
  if (udf_flow_function(c.dc, c.a, fn)) return c.dc->code;
  if (fn->falls_off_end) return_join(&c, UDF_TY_NONE, fn->loc);
  if (stop(&c)) return c.dc->code;
  fn->result = c.ret == UNKNOWN ? UDF_TY_NONE : c.ret;
  if (c.final_guess != UNKNOWN && c.final_guess != fn->result)
    return err(&c, NRT_EUNSUPPORTED, fn->loc,
               "unsupported: recursive function '%s' returns %s, but its recursive calls were "
               "typed %s",
               fn->name, tn(fn->result), tn(c.final_guess));
  fn->checked = true;
  return NRT_OK;
}

int udf_check_module(udf_diagctx *dc, udf_arena *a, udf_module *m, const char *entry,
                     const udf_type *param_types, int nparams) {
  udf_func *f = NULL;
  udf_loc top = {1, 1};
  if (entry) {
    for (int i = 0; i < m->nfuncs; i++)
      if (!m->funcs[i]->parent && strcmp(m->funcs[i]->name, entry) == 0) f = m->funcs[i];
    if (!f) return udf_diag_error(dc, NRT_EINVAL, top, "no function named '%s' in the UDF", entry);
  } else {
    f = m->funcs[m->nfuncs - 1];
  }
  m->entry = f;
  if (nparams != f->nparams)
    return udf_diag_error(dc, NRT_EINVAL, f->loc,
                          "function '%s' takes %d parameter%s but the input has %d column%s",
                          f->name, f->nparams, f->nparams == 1 ? "" : "s", nparams,
                          nparams == 1 ? "" : "s");
  for (int i = 0; i < nparams; i++) {
    udf_type t = param_types[i];
    if (t != UDF_TY_STR && t != UDF_TY_INT && t != UDF_TY_FLOAT && t != UDF_TY_BOOL)
      return udf_diag_error(dc, NRT_EINVAL, f->loc,
                            "parameter %d: an input column must be str, int, float or bool",
                            i + 1);
  }
  if (udf_funcs_capture(dc, a, m)) return dc->code; /* before: captures are uses */
  udf_re_err rer; /* module-level patterns compile when the module runs, used or not */
  if (!udf_re_pattern_constants(m, &rer))
    return udf_diag_error(dc, rer.code, rer.loc, "%s", rer.msg);
  if (!dict_prepass(a, m)) return udf_diag_error(dc, NRT_ENOMEM, top, "out of memory");
  ck root;
  memset(&root, 0, sizeof root);
  root.dc = dc;
  root.a = a;
  root.m = m;
  if (check_function(&root, f, param_types)) return dc->code;
  udf_type r = base(f->result);
  if (!(r == UDF_TY_NONE || r == UDF_TY_STR || r == UDF_TY_INT || r == UDF_TY_FLOAT ||
        r == UDF_TY_BOOL || udf_result_item_kind(f->result) != NRT_VALUE_NULL))
    return udf_diag_error(dc, NRT_EUNSUPPORTED, f->loc,
                          "unsupported: the UDF '%s' returns a %s; it must return a str, int, "
                          "float, bool, a list or tuple of str, int or float, or None",
                          f->name, udf_type_name(f->result));
  return NRT_OK;
}

/* Checking the re module's calls and match objects (see types_re.h). */
#include "udf/types_re.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nrt/core.h"
#include "udf/re_compile.h"
#include "udf/runtime_re.h"

void udf_re_err_set(udf_re_err *er, int code, udf_loc loc, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(er->msg, sizeof er->msg, fmt, ap);
  va_end(ap);
  er->code = code;
  er->loc = loc;
}

/* An error: *er set, and the unknown type. */
#define fail(er, code, loc, ...) (udf_re_err_set(er, code, loc, __VA_ARGS__), UDF_TY_UNKNOWN)

bool udf_re_fold_flags(udf_expr *e) {
  if (e->kind == UDF_E_INT) return true;
  if (e->kind != UDF_E_BINARY || e->u.binary.op != UDF_OP_BITOR) return false;
  if (!udf_re_fold_flags(e->u.binary.left) || !udf_re_fold_flags(e->u.binary.right))
    return false;
  int64_t v = e->u.binary.left->u.ival | e->u.binary.right->u.ival;
  e->kind = UDF_E_INT;
  e->u.ival = v;
  return true;
}

/* The parameters of each function, in order ("pattern" is always first but escape's). */
typedef struct re_sig {
  const char *fn;
  udf_builtin b;
  const char *params[5];
  int required;
  int positional; /* the most positional arguments (0: all the parameters) */
} re_sig;

/* UDF_RE_POS / UDF_RE_ENDPOS (types_re.h): keyword-only, no source can spell them. */
static const re_sig sigs[] = {
    {"match", UDF_BI_RE_MATCH, {"pattern", "string", "flags", UDF_RE_POS, UDF_RE_ENDPOS}, 2, 3},
    {"search", UDF_BI_RE_SEARCH, {"pattern", "string", "flags", UDF_RE_POS, UDF_RE_ENDPOS}, 2, 3},
    {"fullmatch", UDF_BI_RE_FULLMATCH, {"pattern", "string", "flags", UDF_RE_POS, UDF_RE_ENDPOS},
     2, 3},
    {"sub", UDF_BI_RE_SUB, {"pattern", "repl", "string", "count", "flags"}, 3, 0},
    {"subn.count", UDF_BI_RE_SUBN_COUNT, {"pattern", "repl", "string", "count", "flags"}, 3, 0},
    {"split", UDF_BI_RE_SPLIT, {"pattern", "string", "maxsplit", "flags"}, 2, 0},
    {"findall", UDF_BI_RE_FINDALL, {"pattern", "string", "flags"}, 2, 0},
    {"finditer", UDF_BI_RE_FINDITER, {"pattern", "string", "flags"}, 2, 0},
    {"escape", UDF_BI_RE_ESCAPE, {"pattern"}, 1, 0},
};

static int nparams(const re_sig *s) {
  int n = 0;
  while (n < 5 && s->params[n]) n++;
  return n;
}

/* The arguments by parameter (NULL when not given). */
static bool bind_args(udf_expr *e, const re_sig *s, udf_expr ***slots, udf_re_err *er) {
  int np = s->positional ? s->positional : nparams(s);
  for (int i = 0; i < 5; i++) slots[i] = NULL;
  if (e->u.call.nargs > np) {
    udf_re_err_set(er, NRT_ETYPE, e->loc, "%s() takes from %d to %d positional arguments but %d were given",
         s->fn, s->required, np, e->u.call.nargs);
    if (s->required == np)
      udf_re_err_set(er, NRT_ETYPE, e->loc, "%s() takes %d positional argument%s but %d were given", s->fn,
           np, np == 1 ? "" : "s", e->u.call.nargs);
    return false;
  }
  for (int i = 0; i < e->u.call.nargs; i++) slots[i] = &e->u.call.args[i];
  for (int k = 0; k < e->u.call.nkeywords; k++) {
    udf_keyword *kw = &e->u.call.keywords[k];
    int p = -1;
    for (int i = 0; i < nparams(s); i++)
      if (strcmp(s->params[i], kw->name) == 0) p = i;
    if (p < 0) {
      udf_re_err_set(er, NRT_ETYPE, kw->loc, "%s() got an unexpected keyword argument '%s'", s->fn,
           kw->name);
      return false;
    }
    if (slots[p]) {
      udf_re_err_set(er, NRT_ETYPE, kw->loc, "%s() got multiple values for argument '%s'", s->fn, kw->name);
      return false;
    }
    slots[p] = &kw->value;
  }
  for (int i = 0; i < s->required; i++)
    if (!slots[i]) {
      udf_re_err_set(er, NRT_ETYPE, e->loc, "%s() missing 1 required positional argument: '%s'", s->fn,
           s->params[i]);
      return false;
    }
  return true;
}

static const re_sig *sig_of(const char *fn) {
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    if (strcmp(sigs[i].fn, fn) == 0) return &sigs[i];
  return NULL;
}

static int param_index(const re_sig *s, const char *name) {
  for (int i = 0; i < nparams(s); i++)
    if (strcmp(s->params[i], name) == 0) return i;
  return -1;
}

/* re.subn(...) becomes the tuple display (re.sub(...), <its count>), whose use the checker
 * then rules on (unpacking: `new, n = re.subn(...)`). The arguments are evaluated twice: they
 * have no side effects a UDF could see (only the time). */
static bool subn_as_tuple(udf_arena *a, udf_expr *e, udf_re_err *er) {
  udf_expr **items = udf_arena_alloc(a, 2 * sizeof *items);
  if (!items) return udf_re_err_set(er, NRT_ENOMEM, e->loc, "out of memory"), false;
  for (int k = 0; k < 2; k++) {
    udf_expr *name = udf_arena_alloc(a, sizeof *name);
    udf_expr *call = udf_arena_alloc(a, sizeof *call);
    if (!name || !call) return udf_re_err_set(er, NRT_ENOMEM, e->loc, "out of memory"), false;
    name->kind = UDF_E_NAME;
    name->loc = e->u.call.func->loc;
    name->u.name.id = k == 0 ? "re.sub" : "re.subn.count"; /* no import can spell the second */
    *call = *e;
    call->u.call.func = name;
    items[k] = call;
  }
  e->kind = UDF_E_TUPLE;
  memset(&e->u, 0, sizeof e->u);
  e->u.seq.items = items;
  e->u.seq.n = 2;
  er->code = 0; /* check e again */
  return false;
}

/* re.sub(p, f, s) with f a def of the module: the replacement slot becomes the call
 * f(<the current match>) (a CURRENT node typed with the pattern), which the checker then types
 * as any call of f, and SUB_FN calls once per match. */
static bool repl_function(udf_module *m, udf_arena *a, udf_expr **slots[5], const re_sig *s,
                          udf_re_err *er) {
  udf_expr *pat = *slots[0], *fname = *slots[1];
  if (pat->kind != UDF_E_STR) return true; /* reported when checked */
  int fi = param_index(s, "flags");
  int flags = slots[fi] && (*slots[fi])->kind == UDF_E_INT ? (int)(*slots[fi])->u.ival : 0;
  char msg[300];
  int idx = udf_re_set_add(&m->res, pat->u.str.data, (size_t)pat->u.str.len, flags, msg,
                           sizeof msg);
  if (idx < 0)
    return udf_re_err_set(er, udf_re_set_error_code(msg),
                pat->loc, "%s", msg), false;
  udf_expr *cur_name = udf_arena_alloc(a, sizeof *cur_name);
  udf_expr *cur = udf_arena_alloc(a, sizeof *cur);
  udf_expr *call = udf_arena_alloc(a, sizeof *call);
  udf_expr **cur_args = udf_arena_alloc(a, sizeof *cur_args);
  udf_expr **call_args = udf_arena_alloc(a, sizeof *call_args);
  udf_expr *idx_node = udf_arena_alloc(a, sizeof *idx_node);
  if (!cur_name || !cur || !call || !cur_args || !call_args || !idx_node)
    return udf_re_err_set(er, NRT_ENOMEM, fname->loc, "out of memory"), false;
  idx_node->kind = UDF_E_INT;
  idx_node->loc = fname->loc;
  idx_node->u.ival = idx;
  cur_name->kind = UDF_E_NAME;
  cur_name->loc = fname->loc;
  cur_name->u.name.id = "re.current.match"; /* no import can spell it */
  cur_args[0] = idx_node;
  cur->kind = UDF_E_CALL;
  cur->loc = fname->loc;
  cur->u.call.func = cur_name;
  cur->u.call.args = cur_args;
  cur->u.call.nargs = 1;
  call_args[0] = cur;
  call->kind = UDF_E_CALL;
  call->loc = fname->loc;
  call->u.call.func = fname;
  call->u.call.args = call_args;
  call->u.call.nargs = 1;
  *slots[1] = call;
  return true;
}

bool udf_re_precheck(udf_module *m, udf_arena *a, udf_expr *e, const char *fn, udf_re_err *er) {
  if (strcmp(fn, "current.match") == 0) return true;
  if (strcmp(fn, "subn") == 0) {
    udf_expr **slots[5];
    re_sig subn = *sig_of("sub");
    subn.fn = "subn"; /* for the messages */
    if (!bind_args(e, &subn, slots, er)) return false;
    return subn_as_tuple(a, e, er);
  }
  if (strcmp(fn, "compile") == 0) {
    if (e->u.call.nargs && e->u.call.args[0]->kind != UDF_E_STR)
      return udf_re_err_set(er, NRT_EUNSUPPORTED, e->u.call.args[0]->loc,
                  "unsupported: a pattern that is not a string literal in re.compile "
                  "(patterns are compiled once, when the UDF is compiled)"), false;
    return udf_re_err_set(er, NRT_EUNSUPPORTED, e->loc,
                "unsupported: a re.compile pattern object used as a value (bind it once, at "
                "module level or at the top of the function, and call its methods: "
                "P.search(s), P.sub(r, s), ...)"), false;
  }
  const re_sig *s = sig_of(fn);
  if (!s) return udf_re_err_set(er, NRT_EUNSUPPORTED, e->loc, "unsupported: re.%s", fn), false;
  udf_expr **slots[5];
  if (!bind_args(e, s, slots, er)) return false;
  int f = param_index(s, "flags");
  if (f >= 0 && slots[f] && !udf_re_fold_flags(*slots[f]))
    return udf_re_err_set(er, NRT_EUNSUPPORTED, (*slots[f])->loc,
                "unsupported: re flags that are not constants (write re.I | re.M ...)"), false;
  int r = param_index(s, "repl");
  if (r >= 0 && (*slots[r])->kind == UDF_E_NAME) {
    for (int i = 0; i < m->nfuncs; i++)
      if (strcmp(m->funcs[i]->name, (*slots[r])->u.name.id) == 0)
        return repl_function(m, a, slots, s, er);
  }
  return true;
}

static udf_expr *int_node(udf_arena *a, udf_loc loc, int64_t v) {
  udf_expr *n = udf_arena_alloc(a, sizeof *n);
  if (!n) return NULL;
  n->kind = UDF_E_INT;
  n->loc = loc;
  n->type = UDF_TY_INT;
  n->u.ival = v;
  return n;
}

/* An int argument (bool cast): its node in *out (final pass), false with *er. */
static bool int_arg(udf_arena *a, bool final, udf_expr *x, udf_expr **out, udf_re_err *er) {
  udf_type t = x->type;
  if (t == UDF_TY_INT) {
    *out = x;
    return true;
  }
  if (t == UDF_TY_BOOL) {
    if (!final) return *out = x, true;
    udf_expr *w = udf_arena_alloc(a, sizeof *w);
    if (!w) return udf_re_err_set(er, NRT_ENOMEM, x->loc, "out of memory"), false;
    w->kind = UDF_E_CAST;
    w->loc = x->loc;
    w->type = UDF_TY_INT;
    w->u.cast.operand = x;
    *out = w;
    return true;
  }
  udf_re_err_set(er, NRT_ETYPE, x->loc, "'%s' object cannot be interpreted as an integer",
       udf_type_is_nullable(t) || t == UDF_TY_NONE ? "NoneType" : udf_type_name(t));
  return false;
}

static bool str_arg(udf_expr *x, udf_re_err *er) {
  if (x->type == UDF_TY_STR) return true;
  udf_re_err_set(er, NRT_ETYPE, x->loc, "expected string or bytes-like object, got '%s'",
       udf_type_is_nullable(x->type) || x->type == UDF_TY_NONE ? "NoneType"
                                                               : udf_type_name(x->type));
  return false;
}

static udf_type match_type(int index) {
  return udf_type_make(UDF_TY_MATCH | UDF_TY_NULLABLE, (udf_type)(index & 0xff),
                       (udf_type)(index >> 8));
}

static int index_of_type(udf_type t) {
  return (int)(udf_type_param1(t) | (udf_type_param2(t) << 8));
}

udf_type udf_re_check_call(udf_module *m, udf_arena *a, bool final, udf_expr *e, const char *fn,
                           bool as_iterable, udf_re_err *er) {
  if (strcmp(fn, "current.match") == 0) { /* (index): made by repl_function */
    if (final) {
      e->u.call.ckind = UDF_CALL_BUILTIN;
      e->u.call.builtin = UDF_BI_RE_CURRENT;
      e->u.call.cargs = NULL;
      e->u.call.ncargs = 0;
    }
    return e->type = match_type((int)e->u.call.args[0]->u.ival) & ~(udf_type)UDF_TY_NULLABLE;
  }
  const re_sig *s = sig_of(fn);
  udf_expr **slots[5];
  if (!s || !bind_args(e, s, slots, er)) return UDF_TY_UNKNOWN;
  if (s->b == UDF_BI_RE_FINDITER && !as_iterable)
    return fail(er, NRT_EUNSUPPORTED, e->loc,
                "unsupported: re.finditer outside the iterable of a for loop or comprehension "
                "(an iterator as a value)");
  udf_expr **cargs = final ? udf_arena_alloc(a, 4 * sizeof *cargs) : NULL;
  if (final && !cargs) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
  udf_type result;
  if (s->b == UDF_BI_RE_ESCAPE) {
    if (!str_arg(*slots[0], er)) return UDF_TY_UNKNOWN;
    if (final) {
      cargs[0] = *slots[0];
      e->u.call.ncargs = 1;
    }
    result = UDF_TY_STR;
  } else {
    udf_expr *pat = *slots[0];
    if (pat->kind != UDF_E_STR)
      return fail(er, NRT_EUNSUPPORTED, pat->loc,
                  "unsupported: a pattern that is not a string literal in re.%s (patterns are "
                  "compiled once, when the UDF is compiled)", fn);
    int flags = 0;
    int fi = param_index(s, "flags");
    if (slots[fi]) {
      udf_expr *fx = *slots[fi];
      if (fx->kind != UDF_E_INT)
        return fail(er, NRT_EUNSUPPORTED, fx->loc, "unsupported: re flags that are not constants");
      flags = (int)fx->u.ival;
    }
    char msg[300];
    int idx = udf_re_set_add(&m->res, pat->u.str.data, (size_t)pat->u.str.len, flags, msg,
                             sizeof msg);
    if (idx < 0)
      return fail(er, udf_re_set_error_code(msg),
                  pat->loc, "%s", msg);
    if (idx > 0xffff) return fail(er, NRT_EUNSUPPORTED, pat->loc, "unsupported: over 65536 patterns");
    udf_re *re = udf_re_set_get(m->res, idx);
    bool sub = s->b == UDF_BI_RE_SUB || s->b == UDF_BI_RE_SUBN_COUNT;
    udf_expr *subject = *slots[sub ? 2 : 1];
    if (!str_arg(subject, er)) return UDF_TY_UNKNOWN;
    if (final) {
      cargs[0] = int_node(a, pat->loc, idx);
      if (!cargs[0]) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
    }
    switch (s->b) {
    case UDF_BI_RE_SUB:
    case UDF_BI_RE_SUBN_COUNT: {
      udf_expr *repl = *slots[1];
      const udf_expr *cur = repl->kind == UDF_E_CALL && repl->u.call.nargs == 1
                                ? repl->u.call.args[0] : NULL; /* made by repl_function */
      bool fn_repl = cur && cur->kind == UDF_E_CALL && cur->u.call.func->kind == UDF_E_NAME &&
                     strcmp(cur->u.call.func->u.name.id, "re.current.match") == 0;
      if (fn_repl && repl->type != UDF_TY_STR)
        return fail(er, NRT_EUNSUPPORTED, repl->loc,
                    "unsupported: a replacement function returning %s (it must return str)",
                    udf_type_name(repl->type));
      if (!fn_repl && repl->kind != UDF_E_STR)
        return fail(er, NRT_EUNSUPPORTED, repl->loc,
                    "unsupported: a replacement that is not a string literal in re.sub");
      if (!fn_repl &&
          udf_re_check_template(re, repl->u.str.data, repl->u.str.len, msg, sizeof msg))
        return fail(er, strncmp(msg, "IndexError", 10) == 0 ? NRT_EINDEX : NRT_EVALUE,
                    repl->loc, "%s", msg);
      udf_expr *count = NULL;
      if (slots[3] && !int_arg(a, final, *slots[3], &count, er)) return UDF_TY_UNKNOWN;
      if (final) {
        cargs[1] = repl;
        cargs[2] = subject;
        cargs[3] = count ? count : int_node(a, e->loc, 0);
        if (!cargs[3]) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
        e->u.call.ncargs = 4;
      }
      result = s->b == UDF_BI_RE_SUB ? UDF_TY_STR : UDF_TY_INT;
      if (fn_repl && final) {
        e->u.call.ckind = UDF_CALL_BUILTIN;
        e->u.call.builtin = UDF_BI_RE_SUB_FN;
        e->u.call.cargs = cargs;
        return e->type = result;
      }
      break;
    }
    case UDF_BI_RE_SPLIT: {
      for (int g = 1; g <= re->ngroups; g++)
        if (re->optional[g])
          return fail(er, NRT_EUNSUPPORTED, pat->loc,
                      "unsupported: re.split with a group that may not take part in a match "
                      "(group %d: CPython puts None in the list; lists here hold str only)", g);
      udf_expr *maxsplit = NULL;
      if (slots[2] && !int_arg(a, final, *slots[2], &maxsplit, er)) return UDF_TY_UNKNOWN;
      if (final) {
        cargs[1] = subject;
        cargs[2] = maxsplit ? maxsplit : int_node(a, e->loc, 0);
        if (!cargs[2]) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
        e->u.call.ncargs = 3;
      }
      result = UDF_TY_LIST_STR;
      break;
    }
    case UDF_BI_RE_FINDALL:
      if (re->ngroups > 1)
        return fail(er, NRT_EUNSUPPORTED, pat->loc,
                    "unsupported: re.findall with %d groups (a list of tuples; use one group, "
                    "(?:...) for the others)", re->ngroups);
      if (final) {
        cargs[1] = subject;
        e->u.call.ncargs = 2;
      }
      result = UDF_TY_LIST_STR;
      break;
    case UDF_BI_RE_FINDITER:
      if (final) {
        cargs[1] = subject;
        e->u.call.ncargs = 2;
      }
      result = (match_type(idx) & ~(udf_type)UDF_TY_NULLABLE) | UDF_TY_RE_MATCHES;
      break;
    default: {
      udf_expr *pos = NULL, *endpos = NULL; /* Pattern.search(s, pos, endpos) */
      if (slots[3] && !int_arg(a, final, *slots[3], &pos, er)) return UDF_TY_UNKNOWN;
      if (slots[4] && !int_arg(a, final, *slots[4], &endpos, er)) return UDF_TY_UNKNOWN;
      if (final) {
        cargs[1] = subject;
        e->u.call.ncargs = 2;
        if (pos || endpos) {
          cargs[2] = pos ? pos : int_node(a, e->loc, 0);
          cargs[3] = endpos ? endpos : int_node(a, e->loc, INT64_MAX);
          if (!cargs[2] || !cargs[3]) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
          e->u.call.ncargs = 4;
        }
      }
      result = match_type(idx);
      break;
    }
    }
  }
  if (final) {
    e->u.call.ckind = UDF_CALL_BUILTIN;
    e->u.call.builtin = s->b;
    e->u.call.cargs = cargs;
  }
  return e->type = result;
}

/* A group argument: its number in *g (-1 when known only at run time), false with *er. */
static bool group_arg(const udf_re *re, udf_expr *x, int *g, udf_re_err *er) {
  if (x->kind == UDF_E_INT || (x->kind == UDF_E_UNARY && x->u.unary.op == UDF_UOP_NEG &&
                               x->u.unary.operand->kind == UDF_E_INT)) {
    int64_t v = x->kind == UDF_E_INT ? x->u.ival : -x->u.unary.operand->u.ival;
    if (v < 0 || v > re->ngroups)
      return udf_re_err_set(er, NRT_EINDEX, x->loc, "IndexError: no such group"), false;
    *g = (int)v;
    return true;
  }
  if (x->kind == UDF_E_STR) {
    char name[64];
    int n = -1;
    if (x->u.str.len < (int64_t)sizeof name) {
      memcpy(name, x->u.str.data, (size_t)x->u.str.len);
      name[x->u.str.len] = 0;
      n = pcre2_substring_number_from_name(re->code, (PCRE2_SPTR)name);
    }
    if (n < 0) return udf_re_err_set(er, NRT_EINDEX, x->loc, "IndexError: no such group"), false;
    *g = n;
    return true;
  }
  if (x->type == UDF_TY_INT || x->type == UDF_TY_BOOL) {
    *g = -1;
    return true;
  }
  if (x->type == UDF_TY_STR)
    udf_re_err_set(er, NRT_EUNSUPPORTED, x->loc,
         "unsupported: a group name that is not a string literal (names are resolved when "
         "compiling)");
  else
    udf_re_err_set(er, NRT_EINDEX, x->loc, "IndexError: no such group");
  return false;
}

/* m.span(g) becomes the tuple display (m.start(g), m.end(g)), whose use the checker then
 * rules on (unpacking: `a, b = m.span()`); m is a name (a match that may be None has no
 * methods), so reading it twice is reading it once. */
static udf_type span_as_tuple(udf_arena *a, udf_expr *e, udf_expr *recv, udf_re_err *er) {
  if (e->u.call.nargs > 1)
    return fail(er, NRT_ETYPE, e->loc, "span expected at most 1 argument, got %d",
                e->u.call.nargs);
  udf_expr **items = udf_arena_alloc(a, 2 * sizeof *items);
  if (!items) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
  for (int k = 0; k < 2; k++) {
    udf_expr *attr = udf_arena_alloc(a, sizeof *attr);
    udf_expr *call = udf_arena_alloc(a, sizeof *call);
    if (!attr || !call) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
    attr->kind = UDF_E_ATTRIBUTE;
    attr->loc = e->loc;
    attr->u.attribute.value = recv;
    attr->u.attribute.attr = k == 0 ? "start" : "end";
    call->kind = UDF_E_CALL;
    call->loc = e->loc;
    call->u.call.func = attr;
    call->u.call.args = e->u.call.args;
    call->u.call.nargs = e->u.call.nargs;
    items[k] = call;
  }
  e->kind = UDF_E_TUPLE;
  memset(&e->u, 0, sizeof e->u);
  e->u.seq.items = items;
  e->u.seq.n = 2;
  er->code = 0; /* not an error: check e again */
  return UDF_TY_UNKNOWN;
}

/* m.groupdict() becomes the dict display {'name': m.group('name'), ...} in the order of the
 * groups, as CPython builds it; its use is then checked as any dict's. A named group that may
 * not take part would make a None value, which dict values cannot hold: refused. */
static udf_type groupdict_as_dict(udf_arena *a, udf_expr *e, udf_expr *recv, const udf_re *re,
                                  udf_re_err *er) {
  if (e->u.call.nargs > 1)
    return fail(er, NRT_ETYPE, e->loc, "groupdict() takes at most 1 argument (%d given)",
                e->u.call.nargs);
  uint32_t count = 0, size = 0;
  PCRE2_SPTR table = NULL;
  pcre2_pattern_info(re->code, PCRE2_INFO_NAMECOUNT, &count);
  pcre2_pattern_info(re->code, PCRE2_INFO_NAMEENTRYSIZE, &size);
  pcre2_pattern_info(re->code, PCRE2_INFO_NAMETABLE, &table);
  int n = (int)count;
  udf_expr **keys = udf_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *keys);
  udf_expr **values = udf_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *values);
  if (!keys || !values) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
  int k = 0;
  for (int g = 1; g <= re->ngroups; g++) /* the table is sorted by name: go by number */
    for (int i = 0; i < n; i++) {
      PCRE2_SPTR entry = table + (size_t)i * size;
      if ((entry[0] << 8 | entry[1]) != g) continue;
      if (re->optional[g])
        return fail(er, NRT_EUNSUPPORTED, e->loc,
                    "unsupported: m.groupdict() of a pattern whose group '%s' may not take "
                    "part (a None value; use m.group('%s'), which may be None)",
                    (const char *)entry + 2, (const char *)entry + 2);
      const char *gname = (const char *)entry + 2;
      udf_expr *key = udf_arena_alloc(a, sizeof *key);
      udf_expr *arg = udf_arena_alloc(a, sizeof *arg);
      udf_expr *attr = udf_arena_alloc(a, sizeof *attr);
      udf_expr *call = udf_arena_alloc(a, sizeof *call);
      udf_expr **args = udf_arena_alloc(a, sizeof *args);
      udf_expr *m = udf_arena_alloc(a, sizeof *m); /* a name: each use is checked on its own */
      if (!key || !arg || !attr || !call || !args || !m)
        return fail(er, NRT_ENOMEM, e->loc, "out of memory");
      *m = *recv;
      memset(key, 0, sizeof *key);
      key->kind = UDF_E_STR;
      key->loc = e->loc;
      key->u.str.data = gname;
      key->u.str.len = (int64_t)strlen(gname);
      *arg = *key;
      memset(attr, 0, sizeof *attr);
      attr->kind = UDF_E_ATTRIBUTE;
      attr->loc = e->loc;
      attr->u.attribute.value = m;
      attr->u.attribute.attr = "group";
      memset(call, 0, sizeof *call);
      call->kind = UDF_E_CALL;
      call->loc = e->loc;
      call->u.call.func = attr;
      args[0] = arg;
      call->u.call.args = args;
      call->u.call.nargs = 1;
      keys[k] = key;
      values[k] = call;
      k++;
    }
  udf_loc loc = e->loc;
  memset(e, 0, sizeof *e);
  e->kind = UDF_E_DICT;
  e->loc = loc;
  e->u.dict.keys = keys;
  e->u.dict.values = values;
  e->u.dict.n = k;
  e->u.dict.const_index = -1;
  er->code = 0; /* check e again */
  return UDF_TY_UNKNOWN;
}

udf_type udf_re_check_match(udf_module *m, udf_arena *a, bool final, udf_expr *e,
                            udf_expr *recv, const char *name, udf_re_err *er) {
  udf_re *re = udf_re_set_get(m->res, index_of_type(recv->type));
  if (!re) return fail(er, NRT_EUNSUPPORTED, e->loc, "internal error: unknown pattern");
  udf_builtin b;
  udf_expr **args;
  int nargs;
  if (!name) {
    b = UDF_BI_RE_GROUP;
    args = &e->u.subscript.index;
    nargs = 1;
  } else {
    args = e->u.call.args;
    nargs = e->u.call.nargs;
    if (e->u.call.nkeywords)
      return fail(er, NRT_ETYPE, e->u.call.keywords[0].loc, "%s() takes no keyword arguments",
                  name);
    if (strcmp(name, "group") == 0) b = UDF_BI_RE_GROUP;
    else if (strcmp(name, "start") == 0) b = UDF_BI_RE_START;
    else if (strcmp(name, "end") == 0) b = UDF_BI_RE_END;
    else if (strcmp(name, "groups") == 0) b = UDF_BI_RE_GROUPS;
    else if (strcmp(name, "groupdict") == 0)
      return groupdict_as_dict(a, e, recv, re, er);
    else if (strcmp(name, "span") == 0)
      return span_as_tuple(a, e, recv, er);
    else if (strcmp(name, "expand") == 0)
      return fail(er, NRT_EUNSUPPORTED, e->loc, "unsupported: m.expand()");
    else
      return fail(er, NRT_ETYPE, e->loc, "'re.Match' object has no attribute '%s'", name);
    if (b == UDF_BI_RE_GROUPS && nargs > 0)
      return fail(er, NRT_EUNSUPPORTED, e->loc, "unsupported: m.groups(default)");
    if (b == UDF_BI_RE_GROUP && nargs > 1)
      return fail(er, NRT_EUNSUPPORTED, e->loc,
                  "unsupported: m.group() of several groups (a tuple; call it once per group)");
    if (b != UDF_BI_RE_GROUP && nargs > 1)
      return fail(er, NRT_ETYPE, e->loc, "%s expected at most 1 argument, got %d", name, nargs);
  }
  int g = 0;
  udf_expr *garg = NULL;
  if (nargs == 1 && b != UDF_BI_RE_GROUPS) {
    if (!group_arg(re, args[0], &g, er)) return UDF_TY_UNKNOWN;
    if (g < 0 && !int_arg(a, final, args[0], &garg, er)) return UDF_TY_UNKNOWN;
  }
  bool optional = false;
  if (g >= 0) optional = re->optional[g];
  else
    for (int k = 1; k <= re->ngroups; k++) optional = optional || re->optional[k];
  udf_type result;
  if (b == UDF_BI_RE_GROUPS) {
    for (int k = 1; k <= re->ngroups; k++)
      if (re->optional[k])
        return fail(er, NRT_EUNSUPPORTED, e->loc,
                    "unsupported: m.groups() of a pattern whose group %d may not take part (a "
                    "None item; use m.group(%d), which may be None)", k, k);
    result = UDF_TY_TUPLE_STR;
  } else if (b == UDF_BI_RE_GROUP) {
    result = optional ? (UDF_TY_STR | UDF_TY_NULLABLE) : UDF_TY_STR;
  } else {
    result = UDF_TY_INT;
  }
  if (final) {
    udf_expr **cargs = udf_arena_alloc(a, 2 * sizeof *cargs);
    if (!cargs) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
    cargs[0] = recv;
    cargs[1] = garg ? garg : int_node(a, e->loc, g);
    if (!cargs[1]) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
    udf_expr_kind was = e->kind;
    if (was == UDF_E_SUBSCRIPT) {
      udf_expr *fx = udf_arena_alloc(a, sizeof *fx);
      if (!fx) return fail(er, NRT_ENOMEM, e->loc, "out of memory");
      fx->kind = UDF_E_NAME;
      fx->loc = e->loc;
      fx->u.name.id = "group";
      e->kind = UDF_E_CALL;
      memset(&e->u.call, 0, sizeof e->u.call);
      e->u.call.func = fx;
    }
    e->u.call.ckind = UDF_CALL_BUILTIN;
    e->u.call.builtin = b;
    e->u.call.cargs = cargs;
    e->u.call.ncargs = b == UDF_BI_RE_GROUPS ? 1 : 2;
  }
  return e->type = result;
}

int udf_re_groupdict_item(udf_module *m, udf_arena *a, udf_expr *e, udf_expr *gd,
                          udf_expr *key, udf_expr *dflt, bool is_get) {
  udf_expr *recv = gd->u.call.func->u.attribute.value;
  const udf_re *re = udf_re_set_get(m->res, index_of_type(recv->type));
  if (!re || gd->u.call.nargs > 1 || gd->u.call.nkeywords || key->u.str.len >= 64) return 0;
  char name[64];
  memcpy(name, key->u.str.data, (size_t)key->u.str.len);
  name[key->u.str.len] = 0;
  int g = memchr(name, 0, (size_t)key->u.str.len) ? -1
          : pcre2_substring_number_from_name(re->code, (PCRE2_SPTR)name);
  if (g < 0) {
    if (!is_get) return 0;
    udf_loc loc = e->loc;
    if (dflt) *e = *dflt;
    else {
      memset(e, 0, sizeof *e);
      e->kind = UDF_E_NONE;
    }
    e->loc = loc;
    return 1;
  }
  if (re->optional[g] && gd->u.call.nargs == 1) return 0;
  udf_expr *attr = udf_arena_alloc(a, sizeof *attr);
  udf_expr **args = udf_arena_alloc(a, sizeof *args);
  if (!attr || !args) return -1;
  memset(attr, 0, sizeof *attr);
  attr->kind = UDF_E_ATTRIBUTE;
  attr->loc = e->loc;
  attr->u.attribute.value = recv;
  attr->u.attribute.attr = "group";
  args[0] = key;
  udf_loc loc = e->loc;
  memset(e, 0, sizeof *e);
  e->kind = UDF_E_CALL;
  e->loc = loc;
  e->u.call.func = attr;
  e->u.call.args = args;
  e->u.call.nargs = 1;
  return 1;
}

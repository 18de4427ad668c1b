/* Pattern objects of re.compile, rewritten into the re module's functions (types_re_pattern.h). */
#include "udf/types_re_pattern.h"

#include <stdio.h>
#include <string.h>

#include "nrt/core.h"
#include "udf/parse_consts.h"
#include "udf/re_compile.h"

/* An error: *er set, and false. */
#define fail(er, code, loc, ...) (udf_re_err_set(er, code, loc, __VA_ARGS__), false)

static bool oom(udf_re_err *er, udf_loc loc) { return fail(er, NRT_ENOMEM, loc, "out of memory"); }

bool udf_re_is_compile(const udf_expr *x) {
  return x && x->kind == UDF_E_CALL && x->u.call.func->kind == UDF_E_NAME &&
         strcmp(x->u.call.func->u.name.id, "re.compile") == 0;
}


/* The pattern literal and flags of re.compile(pattern, flags=0). */
static bool compile_args(const udf_expr *p, const udf_expr **pat, int *flags, udf_re_err *er) {
  udf_expr *slot[2] = {NULL, NULL};
  if (p->u.call.nargs > 2)
    return fail(er, NRT_ETYPE, p->loc,
                "compile() takes from 1 to 2 positional arguments but %d were given",
                p->u.call.nargs);
  for (int i = 0; i < p->u.call.nargs; i++) slot[i] = p->u.call.args[i];
  for (int k = 0; k < p->u.call.nkeywords; k++) {
    const udf_keyword *kw = &p->u.call.keywords[k];
    int i = strcmp(kw->name, "pattern") == 0 ? 0 : strcmp(kw->name, "flags") == 0 ? 1 : -1;
    if (i < 0)
      return fail(er, NRT_ETYPE, kw->loc, "compile() got an unexpected keyword argument '%s'",
                  kw->name);
    if (slot[i])
      return fail(er, NRT_ETYPE, kw->loc, "compile() got multiple values for argument '%s'",
                  kw->name);
    slot[i] = kw->value;
  }
  if (!slot[0])
    return fail(er, NRT_ETYPE, p->loc,
                "compile() missing 1 required positional argument: 'pattern'");
  if (slot[0]->kind != UDF_E_STR)
    return fail(er, NRT_EUNSUPPORTED, slot[0]->loc,
                "unsupported: a pattern that is not a string literal in re.compile (patterns "
                "are compiled once, when the UDF is compiled)");
  if (slot[1] && !udf_re_fold_flags(slot[1]))
    return fail(er, NRT_EUNSUPPORTED, slot[1]->loc,
                "unsupported: re flags that are not constants (write re.I | re.M ...)");
  *pat = slot[0];
  *flags = slot[1] ? (int)slot[1]->u.ival : 0;
  return true;
}

static udf_expr *node(udf_arena *a, udf_expr_kind kind, udf_loc loc) {
  udf_expr *n = udf_arena_alloc(a, sizeof *n);
  if (!n) return NULL;
  memset(n, 0, sizeof *n);
  n->kind = kind;
  n->loc = loc;
  return n;
}

typedef struct pattern_method {
  const char *name;
  const char *params[3];
  int required;
  bool has_pos; /* params[1], params[2] are pos and endpos */
} pattern_method;

static const pattern_method methods[] = {
    {"match", {"string", "pos", "endpos"}, 1, true},
    {"search", {"string", "pos", "endpos"}, 1, true},
    {"fullmatch", {"string", "pos", "endpos"}, 1, true},
    {"findall", {"string", "pos", "endpos"}, 1, true},
    {"finditer", {"string", "pos", "endpos"}, 1, true},
    {"sub", {"repl", "string", "count"}, 2, false},
    {"subn", {"repl", "string", "count"}, 2, false},
    {"split", {"string", "maxsplit", NULL}, 1, false},
};

bool udf_re_pattern_call(udf_arena *a, udf_expr *e, udf_expr *p, const char *name,
                         udf_re_err *er) {
  const udf_expr *pat;
  int flags;
  if (!compile_args(p, &pat, &flags, er)) return false;
  const pattern_method *pm = NULL;
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp(methods[i].name, name) == 0) pm = &methods[i];
  udf_loc floc = e->u.call.func->loc;
  if (!pm) {
    if (strcmp(name, "scanner") == 0)
      return fail(er, NRT_EUNSUPPORTED, floc, "unsupported: Pattern.scanner()");
    return fail(er, NRT_ETYPE, floc, "'re.Pattern' object has no attribute '%s'", name);
  }
  int np = pm->params[2] ? 3 : 2, nargs = e->u.call.nargs;
  if (nargs > np)
    return fail(er, NRT_ETYPE, e->loc, "%s() takes at most %d arguments (%d given)", name, np,
                nargs + e->u.call.nkeywords);
  bool given[3] = {false, false, false};
  for (int i = 0; i < nargs; i++) given[i] = true;
  for (int k = 0; k < e->u.call.nkeywords; k++) {
    const udf_keyword *kw = &e->u.call.keywords[k];
    int i = -1;
    for (int j = 0; j < np; j++)
      if (strcmp(pm->params[j], kw->name) == 0) i = j;
    if (i < 0)
      return fail(er, NRT_ETYPE, kw->loc, "'%s' is an invalid keyword argument for %s()",
                  kw->name, name);
    if (given[i])
      return fail(er, NRT_ETYPE, kw->loc,
                  "argument for %s() given by name ('%s') and position (%d)", name, kw->name,
                  i + 1);
    given[i] = true;
  }
  for (int i = 0; i < pm->required; i++)
    if (!given[i])
      return fail(er, NRT_ETYPE, e->loc, "%s() missing required argument '%s' (pos %d)", name,
                  pm->params[i], i + 1);
  bool anchors = strcmp(name, "match") == 0 || strcmp(name, "search") == 0 ||
                 strcmp(name, "fullmatch") == 0;
  if (pm->has_pos && (given[1] || given[2]) && !anchors)
    return fail(er, NRT_EUNSUPPORTED, e->loc,
                "unsupported: the pos and endpos arguments of Pattern.%s", name);
  /* pos and endpos of match/search/fullmatch: keywords of their own (types_re.h) */
  int npos = pm->has_pos && nargs > 1 ? nargs - 1 : 0;
  if (npos) nargs = 1;
  /* re.<name>(pattern, <the arguments>, flags=<flags>): the same parameters after pattern */
  udf_expr **args = udf_arena_alloc(a, (size_t)(nargs + 1) * sizeof *args);
  udf_keyword *kws = udf_arena_alloc(a, (size_t)(e->u.call.nkeywords + 3) * sizeof *kws);
  udf_expr *fn = node(a, UDF_E_NAME, floc);
  char qualified[32];
  snprintf(qualified, sizeof qualified, "re.%s", name);
  const char *id = udf_arena_strndup(a, qualified, strlen(qualified));
  if (!args || !kws || !fn || !id || !(args[0] = udf_const_copy(a, pat, pat->loc)))
    return oom(er, e->loc);
  for (int i = 0; i < nargs; i++) args[i + 1] = e->u.call.args[i];
  int nk = e->u.call.nkeywords;
  if (nk) memcpy(kws, e->u.call.keywords, (size_t)nk * sizeof *kws);
  for (int k = 0; k < nk; k++)
    if (pm->has_pos && (strcmp(kws[k].name, "pos") == 0 || strcmp(kws[k].name, "endpos") == 0))
      kws[k].name = kws[k].name[0] == 'p' ? UDF_RE_POS : UDF_RE_ENDPOS;
  for (int i = 0; i < npos; i++)
    kws[nk++] = (udf_keyword){i == 0 ? UDF_RE_POS : UDF_RE_ENDPOS, e->u.call.args[i + 1],
                              e->u.call.args[i + 1]->loc, NULL};
  if (flags) {
    udf_expr *fv = node(a, UDF_E_INT, floc);
    if (!fv) return oom(er, e->loc);
    fv->u.ival = flags;
    kws[nk++] = (udf_keyword){"flags", fv, floc, NULL};
  }
  fn->u.name.id = id;
  e->u.call.func = fn;
  e->u.call.args = args;
  e->u.call.nargs = nargs + 1;
  e->u.call.keywords = kws;
  e->u.call.nkeywords = nk;
  return true;
}

bool udf_re_pattern_attr(udf_module *m, udf_expr *e, udf_expr *p, udf_re_err *er) {
  const udf_expr *pat;
  int flags;
  if (!compile_args(p, &pat, &flags, er)) return false;
  const char *name = e->u.attribute.attr;
  udf_loc loc = e->loc;
  if (strcmp(name, "pattern") == 0) {
    e->kind = UDF_E_STR;
    memset(&e->u, 0, sizeof e->u);
    e->u.str = pat->u.str;
    return true;
  }
  if (strcmp(name, "flags") == 0 || strcmp(name, "groups") == 0) {
    char msg[300];
    int idx = udf_re_set_add(&m->res, pat->u.str.data, (size_t)pat->u.str.len, flags, msg,
                             sizeof msg);
    if (idx < 0)
      return fail(er, udf_re_set_error_code(msg),
                  pat->loc, "%s", msg);
    const udf_re *re = udf_re_set_get(m->res, idx);
    int64_t v = re->ngroups;
    if (name[0] == 'f') /* a str pattern is re.UNICODE unless re.ASCII */
      v = (re->all_flags & 256) ? re->all_flags : re->all_flags | 32;
    e->kind = UDF_E_INT;
    memset(&e->u, 0, sizeof e->u);
    e->u.ival = v;
    return true;
  }
  if (strcmp(name, "groupindex") == 0)
    return fail(er, NRT_EUNSUPPORTED, loc,
                "unsupported: Pattern.groupindex (a mapping; use the group names in "
                "m.group('name'))");
  return fail(er, NRT_ETYPE, loc, "'re.Pattern' object has no attribute '%s'", name);
}

bool udf_re_pattern_arg(udf_arena *a, udf_expr *e, udf_expr **slot, udf_expr *p, int flags_index,
                        udf_re_err *er) {
  const udf_expr *pat;
  int flags;
  if (!compile_args(p, &pat, &flags, er)) return false;
  udf_expr **given = NULL;
  if (flags_index >= 0 && flags_index < e->u.call.nargs) given = &e->u.call.args[flags_index];
  for (int k = 0; k < e->u.call.nkeywords; k++)
    if (strcmp(e->u.call.keywords[k].name, "flags") == 0) given = &e->u.call.keywords[k].value;
  if (given && !udf_re_fold_flags(*given))
    return fail(er, NRT_EUNSUPPORTED, (*given)->loc,
                "unsupported: re flags that are not constants (write re.I | re.M ...)");
  if (given && (*given)->u.ival != 0)
    return fail(er, NRT_EVALUE, (*given)->loc,
                "ValueError: cannot process flags argument with a compiled pattern");
  udf_expr *copy = udf_const_copy(a, pat, (*slot)->loc);
  if (!copy) return oom(er, e->loc);
  *slot = copy;
  if (!flags) return true;
  if (given) {
    (*given)->u.ival = flags;
    return true;
  }
  udf_keyword *kws = udf_arena_alloc(a, (size_t)(e->u.call.nkeywords + 1) * sizeof *kws);
  udf_expr *fv = node(a, UDF_E_INT, copy->loc);
  if (!kws || !fv) return oom(er, e->loc);
  if (e->u.call.nkeywords)
    memcpy(kws, e->u.call.keywords, (size_t)e->u.call.nkeywords * sizeof *kws);
  fv->u.ival = flags;
  kws[e->u.call.nkeywords] = (udf_keyword){"flags", fv, copy->loc, NULL};
  e->u.call.keywords = kws;
  e->u.call.nkeywords++;
  return true;
}

bool udf_re_match_attr(const char *attr, char *why, size_t size) {
  static const char *const known[][2] = {
      {"lastindex", "unsupported: m.lastindex (the number of the last group that took part)"},
      {"lastgroup", "unsupported: m.lastgroup (the name of the last group that took part)"},
      {"string", "unsupported: m.string (use the string searched)"},
      {"re", "unsupported: m.re (use the pattern)"},
      {"pos", "unsupported: m.pos and m.endpos"},
      {"endpos", "unsupported: m.pos and m.endpos"},
      {"regs", "unsupported: m.regs"},
  };
  static const char *const match_methods[] = {"group", "groups", "groupdict", "start",
                                              "end",   "span",   "expand",    NULL};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strcmp(known[i][0], attr) == 0) {
      snprintf(why, size, "%s", known[i][1]);
      return true;
    }
  for (int i = 0; match_methods[i]; i++)
    if (strcmp(match_methods[i], attr) == 0) return false;
  snprintf(why, size, "'re.Match' object has no attribute '%s'", attr);
  return true;
}

bool udf_re_pattern_constants(udf_module *m, udf_re_err *er) {
  for (int i = 0; i < m->nliteral_consts; i++) {
    const udf_const *k = &m->literal_consts[i];
    if (!udf_re_is_compile(k->value) || strchr(k->name, '#')) continue; /* a function's own */
    const udf_expr *pat;
    int flags;
    if (!compile_args(k->value, &pat, &flags, er)) return false;
    char msg[300];
    if (udf_re_set_add(&m->res, pat->u.str.data, (size_t)pat->u.str.len, flags, msg,
                       sizeof msg) < 0)
      return fail(er, udf_re_set_error_code(msg), pat->loc, "%s", msg);
  }
  return true;
}

/* The UDF parser: recursive descent over Python 3.11's grammar (see parse.h). */
#include <stdio.h>
#include <string.h>

#include "nrt/unicode.h"
#include "udf/imports.h"
#include "udf/lex.h"
#include "udf/parse.h"
#include "udf/parse_consts.h"
#include "udf/re_compiled_locals.h"

enum { MAX_NESTING = 200 };

typedef struct parser {
  udf_diagctx *dc;
  udf_arena *a;
  udf_token *t;
  int n, pos;
  int loop_depth;
  int try_depth; /* try statements around the one parsed (bounded: finally blocks are copied
                  * once per way out of their try, so nesting multiplies code size) */
  bool in_func;
  bool names_exceptions; /* some except clause binds `as name` (udf_module) */
  int nesting; /* recursion guard */
  udf_imports im; /* import bindings in scope (imports.h) */
  udf_func *cur_func; /* the def whose body is parsed */
  udf_func **nested;  /* nested defs and named lambdas, inner ones first (types_funcs.h) */
  int nnested, capnested;
  /* body_loc cache: fields of an f-string are located left to right, each from the last */
  const udf_token *bl_tok;
  const char *bl_pos;
  udf_loc bl_loc;
} parser;

#define P_OOM(p) udf_diag_error((p)->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory")

static udf_token *cur(parser *p) { return &p->t[p->pos]; }
static udf_token *peek_at(parser *p, int k) {
  int i = p->pos + k;
  return &p->t[i < p->n ? i : p->n - 1];
}
static void advance(parser *p) {
  if (p->pos < p->n - 1) p->pos++;
}
static bool is_op(parser *p, udf_opk op) { return cur(p)->kind == UDF_T_OP && cur(p)->op == op; }
static bool is_kw(parser *p, udf_kw kw) { return cur(p)->kind == UDF_T_NAME && cur(p)->kw == kw; }
static bool failed(parser *p) { return udf_diag_failed(p->dc); }

static void *syntax_error(parser *p, udf_token *t) {
  if (t->kind == UDF_T_INDENT)
    udf_diag_error(p->dc, NRT_EPARSE, t->loc, "unexpected indent");
  else if (t->kind == UDF_T_DEDENT && t->loc.col > 1)
    udf_diag_error(p->dc, NRT_EPARSE, t->loc, "unexpected unindent");
  else
    udf_diag_error(p->dc, NRT_EPARSE, t->loc, "invalid syntax");
  return NULL;
}

static void *unsupported(parser *p, udf_loc loc, const char *what) {
  udf_diag_error(p->dc, NRT_EUNSUPPORTED, loc, "unsupported: %s", what);
  return NULL;
}

static bool expect_op(parser *p, udf_opk op, const char *text) {
  if (is_op(p, op)) {
    advance(p);
    return true;
  }
  if (failed(p)) return false;
  if (op == UDF_O_COLON || op == UDF_O_RPAR || op == UDF_O_RSQB || op == UDF_O_EQUAL) {
    udf_token *t = cur(p);
    udf_loc l = t->loc;
    /* CPython points just after the previous token for a missing ':' */
    if (op == UDF_O_COLON && p->pos > 0) l = p->t[p->pos - 1].end.line ? p->t[p->pos - 1].end : l;
    udf_diag_error(p->dc, NRT_EPARSE, l, "expected '%s'", text);
    return false;
  }
  syntax_error(p, cur(p));
  return false;
}

static udf_expr *new_expr(parser *p, udf_expr_kind k, udf_loc loc) {
  udf_expr *e = udf_arena_alloc(p->a, sizeof *e);
  if (!e) {
    P_OOM(p);
    return NULL;
  }
  e->kind = k;
  e->loc = loc;
  return e;
}

static udf_stmt *new_stmt(parser *p, udf_stmt_kind k, udf_loc loc) {
  udf_stmt *s = udf_arena_alloc(p->a, sizeof *s);
  if (!s) {
    P_OOM(p);
    return NULL;
  }
  s->kind = k;
  s->loc = loc;
  return s;
}

static bool push_ptr(parser *p, void *arr, int *n, int *cap, void *item) {
  if (!udf_arena_push(p->a, (void ***)arr, n, cap, item)) {
    P_OOM(p);
    return false;
  }
  return true;
}

static udf_var *new_var(parser *p, const char *name, size_t len, udf_loc loc) {
  if (udf_import_find(&p->im, name, len)) {
    udf_diag_error(p->dc, NRT_EUNSUPPORTED, loc,
                   "unsupported: a variable named as an imported name ('%.*s')", (int)len, name);
    return NULL;
  }
  udf_var *v = udf_arena_alloc(p->a, sizeof *v);
  if (!v) {
    P_OOM(p);
    return NULL;
  }
  v->name = udf_arena_strndup(p->a, name, len);
  if (!v->name) {
    P_OOM(p);
    return NULL;
  }
  v->loc = loc;
  v->index = -1;
  return v;
}

static udf_expr *parse_expression(parser *p);
static udf_expr *parse_disjunction(parser *p);
static udf_expr *parse_bitor(parser *p);
static udf_expr *parse_factor(parser *p);
static udf_expr *parse_star_expressions(parser *p);
static bool parse_block(parser *p, udf_block *b, const char *what, int header_line);

/* ---------------------------------------------------------------------------------------
 * f-strings */

/* Location of `q` inside the body of string token t (bodies may span lines), counted on from
 * the previous call for the same token so that a long f-string is scanned once. */
static udf_loc body_loc(parser *p, const udf_token *t, const char *q) {
  if (p->bl_tok != t || p->bl_pos > q) {
    p->bl_tok = t;
    p->bl_pos = t->body;
    p->bl_loc = t->body_loc;
  }
  udf_loc l = p->bl_loc;
  const char *seg = p->bl_pos;
  for (const char *c = p->bl_pos; c < q; c++) {
    if (*c == '\n' || (*c == '\r' && !(c + 1 < q && c[1] == '\n'))) {
      l.line++;
      l.col = 1;
      seg = c + 1;
    }
  }
  l.col += (int)nrt_utf8_count(seg, (size_t)(q - seg));
  p->bl_pos = q;
  p->bl_loc = l;
  return l;
}

typedef struct fparts {
  udf_fpart *items;
  int n, cap;
  char *lit_buf;  /* the last part's text buffer when it is ours to extend, else NULL */
  size_t lit_cap; /* its capacity */
} fparts;

static bool fpart_push(parser *p, fparts *f, udf_fpart part) {
  if (!part.is_field && f->n > 0 && !f->items[f->n - 1].is_field) {
    /* merge adjacent literal text */
    udf_fpart *last = &f->items[f->n - 1];
    int64_t n = last->text.len + part.text.len;
    if (f->lit_buf && (size_t)n + 1 <= f->lit_cap) { /* room left: append in place */
      char *buf = f->lit_buf;
      memcpy(buf + last->text.len, part.text.data, (size_t)part.text.len);
      buf[n] = '\0';
      last->text.len = n;
      return true;
    }
    size_t cap = ((size_t)n + 1) * 2; /* doubling: many pieces ({{, adjacent literals) stay linear */
    char *buf = udf_arena_alloc(p->a, cap);
    if (!buf) {
      P_OOM(p);
      return false;
    }
    memcpy(buf, last->text.data, (size_t)last->text.len);
    memcpy(buf + last->text.len, part.text.data, (size_t)part.text.len);
    buf[n] = '\0';
    last->text.data = buf;
    last->text.len = n;
    f->lit_buf = buf;
    f->lit_cap = cap;
    return true;
  }
  if (!part.is_field && part.text.len == 0) return true;
  if (f->n == f->cap) {
    int ncap = f->cap ? f->cap * 2 : 4;
    udf_fpart *grown = udf_arena_alloc(p->a, (size_t)ncap * sizeof *grown);
    if (!grown) {
      P_OOM(p);
      return false;
    }
    if (f->n) memcpy(grown, f->items, (size_t)f->n * sizeof *grown);
    f->items = grown;
    f->cap = ncap;
  }
  f->items[f->n++] = part;
  f->lit_buf = NULL; /* the new part's text belongs to someone else: copy before extending */
  return true;
}

static bool literal_part(parser *p, fparts *f, const udf_token *t, const char *s, size_t n) {
  udf_fpart part;
  memset(&part, 0, sizeof part);
  if (udf_lex_decode_string(p->dc, p->a, s, n, t->is_raw, t->loc, &part.text)) return false;
  return fpart_push(p, f, part);
}

static bool ferr(parser *p, const udf_token *t, const char *q, const char *msg) {
  udf_diag_error(p->dc, NRT_EPARSE, body_loc(p, t, q), "%s", msg);
  return false;
}

/* Parses the expression text s[0..n) of a replacement field. */
static udf_expr *field_expr(parser *p, const udf_token *t, const char *s, size_t n) {
  udf_token *toks;
  int ntoks;
  if (udf_lex(p->dc, p->a, s, n, body_loc(p, t, s), true, &toks, &ntoks)) return NULL;
  parser sub = *p;
  sub.t = toks;
  sub.n = ntoks;
  sub.pos = 0;
  udf_expr *e = parse_star_expressions(&sub);
  if (!e) return NULL;
  if (sub.t[sub.pos].kind != UDF_T_END) {
    udf_diag_error(p->dc, NRT_EPARSE, sub.t[sub.pos].loc, "f-string: invalid syntax");
    return NULL;
  }
  return e;
}

static bool parse_fstring_token(parser *p, fparts *f, const udf_token *t) {
  const char *s = t->body, *end = t->body + t->blen;
  const char *lit = s;
  while (s < end) {
    char c = *s;
    if (c == '\\' && !t->is_raw && s + 1 < end) {
      s += 2;
      continue;
    }
    if (c == '}') {
      if (s + 1 < end && s[1] == '}') {
        if (!literal_part(p, f, t, lit, (size_t)(s + 1 - lit))) return false;
        s += 2;
        lit = s;
        continue;
      }
      return ferr(p, t, s, "f-string: single '}' is not allowed");
    }
    if (c != '{') {
      s++;
      continue;
    }
    if (s + 1 < end && s[1] == '{') {
      if (!literal_part(p, f, t, lit, (size_t)(s + 1 - lit))) return false;
      s += 2;
      lit = s;
      continue;
    }
    if (!literal_part(p, f, t, lit, (size_t)(s - lit))) return false;
    /* a replacement field */
    const char *open = s;
    const char *es = ++s;
    int depth = 0;
    char quote = 0;
    const char *ee = NULL, *debug_eq = NULL;
    for (; s < end; s++) {
      char d = *s;
      if (quote) {
        if (d == quote) quote = 0;
        continue;
      }
      if (d == '\\') return ferr(p, t, s, "f-string expression part cannot include a backslash");
      if (d == '#') return ferr(p, t, s, "f-string expression part cannot include '#'");
      if (d == '\'' || d == '"') {
        quote = d;
      } else if (d == '(' || d == '[' || d == '{') {
        depth++;
      } else if ((d == ')' || d == ']' || d == '}') && depth > 0) {
        depth--;
      } else if (depth == 0 && (d == '}' || d == ':')) {
        ee = s;
        break;
      } else if (depth == 0 && d == '!' && !(s + 1 < end && s[1] == '=')) {
        ee = s;
        break;
      } else if (depth == 0 && d == '=' && s + 1 < end && s[1] != '=' &&
                 !(s > es && strchr("=!<>", s[-1]))) {
        debug_eq = s;
        const char *q = s + 1;
        while (q < end && (*q == ' ' || *q == '\t')) q++;
        if (q < end && (*q == '}' || *q == '!' || *q == ':')) {
          ee = q;
          s = q;
          break;
        }
        debug_eq = NULL;
      }
    }
    if (!ee) return ferr(p, t, open, "f-string: expecting '}'");
    const char *xend = debug_eq ? debug_eq : ee;
    const char *xs = es;
    while (xs < xend && (*xs == ' ' || *xs == '\t' || *xs == '\n' || *xs == '\r')) xs++;
    if (xs == xend) return ferr(p, t, ee, "f-string: empty expression not allowed");
    udf_fpart part;
    memset(&part, 0, sizeof part);
    part.is_field = true;
    part.spec.data = "";
    if (debug_eq) { /* {x=} : the text "x=" (with its spaces) is literal */
      udf_fpart text;
      memset(&text, 0, sizeof text);
      text.text.data = udf_arena_strndup(p->a, es, (size_t)(ee - es));
      if (!text.text.data) return P_OOM(p), false;
      text.text.len = ee - es;
      if (!fpart_push(p, f, text)) return false;
    }
    part.expr = field_expr(p, t, es, (size_t)(xend - es));
    if (!part.expr) return false;
    s = ee;
    if (*s == '!') {
      s++;
      if (s >= end || !(*s == 's' || *s == 'r' || *s == 'a'))
        return ferr(p, t, s,
                    "f-string: invalid conversion character: expected 's', 'r', or 'a'");
      part.conversion = *s;
      s++;
      if (s >= end || (*s != '}' && *s != ':')) return ferr(p, t, s, "f-string: expecting '}'");
    }
    if (*s == ':') {
      const char *ss = ++s;
      while (s < end && *s != '}') {
        if (*s == '{')
          return udf_diag_error(p->dc, NRT_EUNSUPPORTED, body_loc(p, t, s),
                                "unsupported: nested replacement fields in a format spec"),
                 false;
        s++;
      }
      if (s >= end) return ferr(p, t, open, "f-string: expecting '}'");
      if (udf_lex_decode_string(p->dc, p->a, ss, (size_t)(s - ss), t->is_raw, t->loc,
                                &part.spec))
        return false;
    }
    if (s >= end || *s != '}') return ferr(p, t, open, "f-string: expecting '}'");
    if (debug_eq && !part.conversion && part.spec.len == 0) part.conversion = 'r';
    if (!fpart_push(p, f, part)) return false;
    s++;
    lit = s;
  }
  return literal_part(p, f, t, lit, (size_t)(end - lit));
}

/* One or more adjacent string tokens -> E_STR or E_FSTRING. */
static udf_expr *parse_strings(parser *p) {
  udf_token *first = cur(p);
  int start = p->pos;
  bool any_f = false;
  int64_t total = 0;
  while (cur(p)->kind == UDF_T_STRING) {
    any_f |= cur(p)->is_f;
    total += (int64_t)cur(p)->value.len;
    advance(p);
  }
  int end = p->pos;
  udf_expr *e = new_expr(p, any_f ? UDF_E_FSTRING : UDF_E_STR, first->loc);
  if (!e) return NULL;
  if (!any_f) {
    char *buf = udf_arena_alloc(p->a, (size_t)total + 1);
    if (!buf) return P_OOM(p), NULL;
    int64_t k = 0;
    for (int i = start; i < end; i++) {
      memcpy(buf + k, p->t[i].value.data, (size_t)p->t[i].value.len);
      k += p->t[i].value.len;
    }
    buf[k] = '\0';
    e->u.str.data = buf;
    e->u.str.len = k;
    return e;
  }
  fparts f = {NULL, 0, 0, NULL, 0};
  for (int i = start; i < end; i++) {
    udf_token *t = &p->t[i];
    if (t->is_f) {
      if (!parse_fstring_token(p, &f, t)) return NULL;
    } else {
      udf_fpart part;
      memset(&part, 0, sizeof part);
      part.text = t->value;
      if (!fpart_push(p, &f, part)) return NULL;
    }
  }
  e->u.fstring.parts = f.items;
  e->u.fstring.nparts = f.n;
  return e;
}

/* ---------------------------------------------------------------------------------------
 * Expressions */

static bool check_target(parser *p, udf_expr *e, bool eq, bool allow_tuple);

/* The names of a tuple target of a for loop or comprehension, nested tuples included;
 * comprehension names get variables of their own scope here. */
static bool check_for_unpack(parser *p, udf_expr *e, bool comp, int depth) {
  if (e->kind != UDF_E_TUPLE && e->kind != UDF_E_LIST) {
    if (!check_target(p, e, false, false)) return false;
    if (comp) {
      e->u.name.var = new_var(p, e->u.name.id, strlen(e->u.name.id), e->loc);
      if (!e->u.name.var) return false;
      e->u.name.var->is_comp_var = true;
    }
    return true;
  }
  if (depth >= 8) {
    unsupported(p, e->loc, "unpacking nested more than 8 deep");
    return false;
  }
  if (e->u.seq.n == 0) {
    unsupported(p, e->loc, "unpacking into an empty tuple");
    return false;
  }
  for (int i = 0; i < e->u.seq.n; i++)
    if (!check_for_unpack(p, e->u.seq.items[i], comp, depth + 1)) return false;
  e->kind = UDF_E_TUPLE;
  return true;
}

/* A for target up to `in`: a name (*var) or a tuple of names, nested or not (*unpack). */
static bool parse_for_target(parser *p, udf_var **var, udf_expr **unpack, bool comp) {
  udf_token *tt = cur(p);
  if (tt->kind == UDF_T_NAME && tt->kw == UDF_KW_NONE && peek_at(p, 1)->kind == UDF_T_NAME &&
      peek_at(p, 1)->kw == UDF_KW_IN) {
    *var = new_var(p, tt->text, tt->tlen, tt->loc);
    if (!*var) return false;
    (*var)->is_comp_var = comp;
    advance(p);
    return true;
  }
  /* star_targets: or-level expressions separated by commas (no comparisons, so the `in` is
   * not swallowed) */
  if (is_op(p, UDF_O_STAR)) return unsupported(p, cur(p)->loc, "starred for targets (*name)"), false;
  udf_expr *target = parse_bitor(p);
  if (!target) return false;
  if (is_op(p, UDF_O_COMMA)) {
    udf_expr *tup = new_expr(p, UDF_E_TUPLE, target->loc);
    if (!tup) return false;
    int cap = 0;
    if (!push_ptr(p, &tup->u.seq.items, &tup->u.seq.n, &cap, target)) return false;
    while (is_op(p, UDF_O_COMMA)) {
      advance(p);
      if (is_kw(p, UDF_KW_IN)) break;
      if (is_op(p, UDF_O_STAR))
        return unsupported(p, cur(p)->loc, "starred for targets (*name)"), false;
      udf_expr *x = parse_bitor(p);
      if (!x || !push_ptr(p, &tup->u.seq.items, &tup->u.seq.n, &cap, x)) return false;
    }
    target = tup;
  }
  if (target->kind == UDF_E_NAME) {
    if (!check_target(p, target, false, false)) return false;
    *var = new_var(p, target->u.name.id, strlen(target->u.name.id), target->loc);
    if (!*var) return false;
    (*var)->is_comp_var = comp;
    return true;
  }
  if (target->kind != UDF_E_TUPLE && target->kind != UDF_E_LIST)
    return check_target(p, target, false, false);
  if (!check_for_unpack(p, target, comp, 0)) return false;
  *unpack = target;
  return true;
}

/* `for x in it if c ...` clauses after the element (cur is 'for'). */
static udf_expr *parse_comprehension(parser *p, udf_expr_kind kind, udf_expr *elt, udf_loc loc) {
  udf_expr *e = new_expr(p, kind, loc);
  if (!e) return NULL;
  e->u.comp.elt = elt;
  int cap = 0;
  udf_comp_for *gens = NULL;
  while (is_kw(p, UDF_KW_FOR) || is_kw(p, UDF_KW_ASYNC)) {
    if (is_kw(p, UDF_KW_ASYNC)) return unsupported(p, cur(p)->loc, "async comprehensions");
    advance(p);
    udf_var *tvar = NULL;
    udf_expr *unpack = NULL;
    udf_loc tloc = cur(p)->loc;
    if (!parse_for_target(p, &tvar, &unpack, true)) return NULL;
    if (!is_kw(p, UDF_KW_IN)) return syntax_error(p, cur(p));
    advance(p);
    if (e->u.comp.ngens == cap) {
      int ncap = cap ? cap * 2 : 2;
      udf_comp_for *grown = udf_arena_alloc(p->a, (size_t)ncap * sizeof *grown);
      if (!grown) return P_OOM(p), NULL;
      if (cap) memcpy(grown, gens, (size_t)cap * sizeof *grown);
      gens = grown;
      cap = ncap;
    }
    udf_comp_for *g = &gens[e->u.comp.ngens++];
    memset(g, 0, sizeof *g);
    g->target = tvar;
    g->unpack = unpack;
    g->target_loc = tloc;
    g->iter = parse_disjunction(p);
    if (!g->iter) return NULL;
    int icap = 0;
    while (is_kw(p, UDF_KW_IF)) {
      advance(p);
      udf_expr *c = parse_disjunction(p);
      if (!c) return NULL;
      if (!push_ptr(p, &g->ifs, &g->nifs, &icap, c)) return NULL;
    }
  }
  e->u.comp.gens = gens;
  return e;
}

static udf_expr *parse_named_expression(parser *p);

/* key=lambda p: body (sorted, min, max, list.sort): the body, evaluated per item with its
 * parameter p bound like a comprehension variable (own scope; the enclosing function's
 * variables are read where it runs, which is when the lambda would be called). */
static udf_expr *parse_key_lambda(parser *p, udf_var **param) {
  udf_loc loc = cur(p)->loc;
  advance(p); /* lambda */
  udf_token *t = cur(p);
  if (t->kind != UDF_T_NAME || t->kw != UDF_KW_NONE || peek_at(p, 1)->kind != UDF_T_OP ||
      peek_at(p, 1)->op != UDF_O_COLON)
    return unsupported(p, loc, "a key lambda that does not take exactly one parameter");
  *param = new_var(p, t->text, t->tlen, t->loc);
  if (!*param) return NULL;
  (*param)->is_comp_var = true;
  advance(p);
  advance(p); /* : */
  return parse_expression(p);
}

/* re.sub(p, lambda m: ..., s) (or P.sub / subn): the lambda becomes a nested function of its
 * own, as `name = lambda ...` does, under a name no source can spell; the argument names it
 * (types_re.c calls it once per match). */
static bool takes_repl_lambda(const udf_expr *func) {
  const char *n = func->kind == UDF_E_NAME        ? func->u.name.id
                  : func->kind == UDF_E_ATTRIBUTE ? func->u.attribute.attr
                                                  : "";
  if (func->kind == UDF_E_NAME && strncmp(n, "re.", 3) != 0) return false;
  if (func->kind == UDF_E_NAME) n += 3;
  return strcmp(n, "sub") == 0 || strcmp(n, "subn") == 0;
}

static udf_func *parse_lambda_until(parser *p, const char *name, size_t len, bool line);

static udf_expr *parse_repl_lambda(parser *p) {
  udf_loc loc = cur(p)->loc;
  if (!p->in_func || !p->cur_func) return unsupported(p, loc, "lambda inside an expression");
  char name[64];
  snprintf(name, sizeof name, "<lambda>@%d:%d", loc.line, loc.col);
  int loops = p->loop_depth, tries = p->try_depth;
  p->loop_depth = p->try_depth = 0;
  udf_func *f = parse_lambda_until(p, name, strlen(name), false);
  p->loop_depth = loops;
  p->try_depth = tries;
  if (!f) return NULL;
  f->parent = p->cur_func;
  if (!push_ptr(p, &p->nested, &p->nnested, &p->capnested, f)) return NULL;
  udf_expr *e = new_expr(p, UDF_E_NAME, loc);
  if (e) e->u.name.id = f->name;
  return e;
}

static udf_expr *parse_call(parser *p, udf_expr *func) {
  udf_loc loc = func->loc;
  advance(p); /* ( */
  udf_expr *e = new_expr(p, UDF_E_CALL, loc);
  if (!e) return NULL;
  e->u.call.func = func;
  int acap = 0, kcap = 0;
  while (!is_op(p, UDF_O_RPAR)) {
    if (is_op(p, UDF_O_STAR) || is_op(p, UDF_O_DSTAR))
      return unsupported(p, cur(p)->loc, "argument unpacking (* and **)");
    udf_token *t = cur(p);
    if (t->kind == UDF_T_NAME && t->kw == UDF_KW_NONE && peek_at(p, 1)->kind == UDF_T_OP &&
        peek_at(p, 1)->op == UDF_O_EQUAL) {
      advance(p);
      advance(p);
      udf_var *lambda_param = NULL;
      bool repl = is_kw(p, UDF_KW_LAMBDA) && t->tlen == 4 && memcmp(t->text, "repl", 4) == 0 &&
                  takes_repl_lambda(func);
      udf_expr *v = is_kw(p, UDF_KW_LAMBDA) && t->tlen == 3 && memcmp(t->text, "key", 3) == 0
                        ? parse_key_lambda(p, &lambda_param)
                    : repl ? parse_repl_lambda(p)
                           : parse_expression(p);
      if (!v) return NULL;
      for (int i = 0; i < e->u.call.nkeywords; i++)
        if (strlen(e->u.call.keywords[i].name) == t->tlen &&
            memcmp(e->u.call.keywords[i].name, t->text, t->tlen) == 0) {
          udf_diag_error(p->dc, NRT_EPARSE, t->loc, "keyword argument repeated: %.*s",
                         (int)t->tlen, t->text);
          return NULL;
        }
      if (e->u.call.nkeywords == kcap) {
        int ncap = kcap ? kcap * 2 : 2;
        udf_keyword *grown = udf_arena_alloc(p->a, (size_t)ncap * sizeof *grown);
        if (!grown) return P_OOM(p), NULL;
        if (kcap) memcpy(grown, e->u.call.keywords, (size_t)kcap * sizeof *grown);
        e->u.call.keywords = grown;
        kcap = ncap;
      }
      udf_keyword *k = &e->u.call.keywords[e->u.call.nkeywords++];
      k->name = udf_arena_strndup(p->a, t->text, t->tlen);
      if (!k->name) return P_OOM(p), NULL;
      k->value = v;
      k->loc = t->loc;
      k->lambda_param = lambda_param;
    } else {
      udf_expr *v = is_kw(p, UDF_KW_LAMBDA) && takes_repl_lambda(func)
                        ? parse_repl_lambda(p)
                        : parse_named_expression(p); /* f(x := 1) is a positional argument */
      if (!v) return NULL;
      if (is_kw(p, UDF_KW_FOR)) {
        v = parse_comprehension(p, UDF_E_GENEXP, v, v->loc);
        if (!v) return NULL;
        if (e->u.call.nargs > 0 || !is_op(p, UDF_O_RPAR)) {
          udf_diag_error(p->dc, NRT_EPARSE, v->loc,
                         "Generator expression must be parenthesized");
          return NULL;
        }
      }
      if (e->u.call.nkeywords > 0) {
        udf_diag_error(p->dc, NRT_EPARSE, v->loc,
                       "positional argument follows keyword argument");
        return NULL;
      }
      if (!push_ptr(p, &e->u.call.args, &e->u.call.nargs, &acap, v)) return NULL;
    }
    if (is_op(p, UDF_O_COMMA)) {
      advance(p);
      continue;
    }
    if (!is_op(p, UDF_O_RPAR)) return syntax_error(p, cur(p));
  }
  advance(p);
  return e;
}

static udf_expr *parse_subscript(parser *p, udf_expr *value) {
  advance(p); /* [ */
  udf_expr *parts[3] = {NULL, NULL, NULL};
  int nparts = 0;
  bool is_slice = false;
  if (!is_op(p, UDF_O_COLON)) {
    parts[0] = parse_expression(p);
    if (!parts[0]) return NULL;
  }
  while (is_op(p, UDF_O_COLON) && nparts < 2) {
    is_slice = true;
    advance(p);
    nparts++;
    if (!is_op(p, UDF_O_COLON) && !is_op(p, UDF_O_RSQB) && !is_op(p, UDF_O_COMMA)) {
      parts[nparts] = parse_expression(p);
      if (!parts[nparts]) return NULL;
    }
  }
  if (is_op(p, UDF_O_COMMA)) return unsupported(p, cur(p)->loc, "tuple indices and extended slices");
  if (!expect_op(p, UDF_O_RSQB, "]")) return NULL;
  udf_expr *e = new_expr(p, is_slice ? UDF_E_SLICE : UDF_E_SUBSCRIPT, value->loc);
  if (!e) return NULL;
  if (is_slice) {
    e->u.slice.value = value;
    e->u.slice.lower = parts[0];
    e->u.slice.upper = parts[1];
    e->u.slice.step = parts[2];
  } else {
    e->u.subscript.value = value;
    e->u.subscript.index = parts[0];
  }
  return e;
}

/* ( ... ) : group, tuple, generator expression. */
static const char *target_kind_name(const udf_expr *e);

/* `name := value` (cur is the name, the next token ':='): an assignment expression. */
static udf_expr *parse_named(parser *p) {
  udf_token *t = cur(p);
  if (t->kind != UDF_T_NAME || t->kw != UDF_KW_NONE) return syntax_error(p, t);
  udf_expr *e = new_expr(p, UDF_E_NAMED, t->loc), *name = new_expr(p, UDF_E_NAME, t->loc);
  if (!e || !name) return NULL;
  name->u.name.id = udf_arena_strndup(p->a, t->text, t->tlen);
  if (!name->u.name.id) return P_OOM(p), NULL;
  if (udf_import_find(&p->im, t->text, t->tlen))
    return unsupported(p, t->loc, "assignment to an imported name");
  advance(p);
  advance(p); /* := */
  e->u.named.target = name;
  e->u.named.value = parse_expression(p);
  return e->u.named.value ? e : NULL;
}

/* A condition or parenthesized item: an expression or `name := expression`. */
static udf_expr *parse_named_expression(parser *p) {
  if (cur(p)->kind == UDF_T_NAME && peek_at(p, 1)->kind == UDF_T_OP &&
      peek_at(p, 1)->op == UDF_O_WALRUS)
    return parse_named(p);
  udf_expr *e = parse_expression(p);
  if (e && is_op(p, UDF_O_WALRUS)) {
    udf_diag_error(p->dc, NRT_EPARSE, e->loc, "cannot use assignment expressions with %s",
                   e->kind == UDF_E_ATTRIBUTE   ? "attribute"
                   : e->kind == UDF_E_SUBSCRIPT ? "subscript"
                                                : target_kind_name(e));
    return NULL;
  }
  return e;
}

static udf_expr *parse_paren(parser *p) {
  udf_loc loc = cur(p)->loc;
  advance(p);
  if (is_op(p, UDF_O_RPAR)) {
    advance(p);
    return new_expr(p, UDF_E_TUPLE, loc);
  }
  if (is_kw(p, UDF_KW_YIELD)) return unsupported(p, cur(p)->loc, "generators (yield)");
  udf_expr *first = parse_named_expression(p);
  if (!first) return NULL;
  if (is_kw(p, UDF_KW_FOR)) {
    udf_expr *g = parse_comprehension(p, UDF_E_GENEXP, first, loc);
    if (!g) return NULL;
    if (!expect_op(p, UDF_O_RPAR, ")")) return NULL;
    return g;
  }
  if (is_op(p, UDF_O_RPAR)) {
    advance(p);
    return first;
  }
  if (!is_op(p, UDF_O_COMMA)) return syntax_error(p, cur(p));
  udf_expr *t = new_expr(p, UDF_E_TUPLE, loc);
  if (!t) return NULL;
  int cap = 0;
  if (!push_ptr(p, &t->u.seq.items, &t->u.seq.n, &cap, first)) return NULL;
  while (is_op(p, UDF_O_COMMA)) {
    advance(p);
    if (is_op(p, UDF_O_RPAR)) break;
    udf_expr *x = parse_expression(p);
    if (!x) return NULL;
    if (!push_ptr(p, &t->u.seq.items, &t->u.seq.n, &cap, x)) return NULL;
  }
  if (!expect_op(p, UDF_O_RPAR, ")")) return NULL;
  return t;
}

static udf_expr *parse_list(parser *p) {
  udf_loc loc = cur(p)->loc;
  advance(p);
  udf_expr *l = new_expr(p, UDF_E_LIST, loc);
  if (!l) return NULL;
  if (is_op(p, UDF_O_RSQB)) {
    advance(p);
    return l;
  }
  udf_expr *first = parse_expression(p);
  if (!first) return NULL;
  if (is_kw(p, UDF_KW_FOR)) {
    udf_expr *c = parse_comprehension(p, UDF_E_LISTCOMP, first, loc);
    if (!c) return NULL;
    if (!expect_op(p, UDF_O_RSQB, "]")) return NULL;
    return c;
  }
  int cap = 0;
  if (!push_ptr(p, &l->u.seq.items, &l->u.seq.n, &cap, first)) return NULL;
  while (is_op(p, UDF_O_COMMA)) {
    advance(p);
    if (is_op(p, UDF_O_RSQB)) break;
    udf_expr *x = parse_expression(p);
    if (!x) return NULL;
    if (!push_ptr(p, &l->u.seq.items, &l->u.seq.n, &cap, x)) return NULL;
  }
  if (!expect_op(p, UDF_O_RSQB, "]")) return NULL;
  return l;
}

/* {k: v, ...}, {a, b, ...} and their comprehensions (dict and set values, types_dict.c). */
static udf_expr *parse_brace(parser *p) {
  udf_loc loc = cur(p)->loc;
  advance(p);
  udf_expr *d = new_expr(p, UDF_E_DICT, loc);
  if (!d) return NULL;
  d->u.dict.const_index = -1;
  if (is_op(p, UDF_O_RBRACE)) {
    advance(p);
    return d;
  }
  if (is_op(p, UDF_O_STAR) || is_op(p, UDF_O_DSTAR))
    return unsupported(p, cur(p)->loc, "unpacking (* or **) in a dict or set display");
  udf_expr *k = parse_expression(p);
  if (!k) return NULL;
  udf_expr *v = NULL;
  if (is_op(p, UDF_O_COLON)) {
    advance(p);
    if (!(v = parse_expression(p))) return NULL;
  } else {
    d->kind = UDF_E_SET;
  }
  if (is_kw(p, UDF_KW_FOR)) {
    udf_expr *c = parse_comprehension(p, v ? UDF_E_DICTCOMP : UDF_E_SETCOMP, k, loc);
    if (!c) return NULL;
    c->u.comp.value = v;
    if (!expect_op(p, UDF_O_RBRACE, "}")) return NULL;
    return c;
  }
  int kcap = 0, vcap = 0, n = 0;
  for (;;) {
    if (!push_ptr(p, &d->u.dict.keys, &n, &kcap, k)) return NULL;
    if (v) {
      n--;
      if (!push_ptr(p, &d->u.dict.values, &n, &vcap, v)) return NULL;
    }
    if (!is_op(p, UDF_O_COMMA)) break;
    advance(p);
    if (is_op(p, UDF_O_RBRACE)) break;
    if (is_op(p, UDF_O_STAR) || is_op(p, UDF_O_DSTAR))
      return unsupported(p, cur(p)->loc, "unpacking (* or **) in a dict or set display");
    if (!(k = parse_expression(p))) return NULL;
    if (d->kind == UDF_E_DICT) {
      if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
      if (!(v = parse_expression(p))) return NULL;
    }
  }
  d->u.dict.n = n;
  if (!expect_op(p, UDF_O_RBRACE, "}")) return NULL;
  return d;
}

static udf_expr *parse_atom(parser *p) {
  udf_token *t = cur(p);
  switch (t->kind) {
  case UDF_T_NAME:
    switch (t->kw) {
    case UDF_KW_NONE: {
      udf_expr *e = new_expr(p, UDF_E_NAME, t->loc);
      if (!e) return NULL;
      e->u.name.id = udf_arena_strndup(p->a, t->text, t->tlen);
      if (!e->u.name.id) return P_OOM(p), NULL;
      advance(p);
      const udf_import *b = udf_import_find(&p->im, t->text, t->tlen);
      if (b && b->member) {
        char buf[96];
        const char *bad = udf_import_resolve(e, b->module, b->member, buf, sizeof buf);
        if (bad) return unsupported(p, t->loc, bad);
      } else if (b && !is_op(p, UDF_O_DOT)) {
        udf_diag_error(p->dc, NRT_EUNSUPPORTED, t->loc,
                       "unsupported: a module as a value ('%s')", e->u.name.id);
        return NULL;
      }
      return e;
    }
    case UDF_KW_TRUE:
    case UDF_KW_FALSE: {
      udf_expr *e = new_expr(p, UDF_E_BOOL, t->loc);
      if (!e) return NULL;
      e->u.bval = t->kw == UDF_KW_TRUE;
      advance(p);
      return e;
    }
    case UDF_KW_NONE_LIT: {
      advance(p);
      return new_expr(p, UDF_E_NONE, t->loc);
    }
    case UDF_KW_LAMBDA: return unsupported(p, t->loc, "lambda inside an expression");
    case UDF_KW_YIELD: return unsupported(p, t->loc, "generators (yield)");
    case UDF_KW_AWAIT: return unsupported(p, t->loc, "await");
    default: return syntax_error(p, t);
    }
  case UDF_T_INT: {
    if (t->big)
      return unsupported(p, t->loc, "integer literal out of the 64-bit range");
    udf_expr *e = new_expr(p, UDF_E_INT, t->loc);
    if (!e) return NULL;
    e->u.ival = (int64_t)t->ival;
    advance(p);
    return e;
  }
  case UDF_T_FLOAT: {
    udf_expr *e = new_expr(p, UDF_E_FLOAT, t->loc);
    if (!e) return NULL;
    e->u.fval = t->fval;
    advance(p);
    return e;
  }
  case UDF_T_STRING: return parse_strings(p);
  case UDF_T_OP:
    switch (t->op) {
    case UDF_O_LPAR: return parse_paren(p);
    case UDF_O_LSQB: return parse_list(p);
    case UDF_O_LBRACE: return parse_brace(p);
    case UDF_O_ELLIPSIS: return unsupported(p, t->loc, "Ellipsis (...)");
    default: return syntax_error(p, t);
    }
  default: return syntax_error(p, t);
  }
}

static udf_expr *parse_primary(parser *p) {
  udf_expr *e = parse_atom(p);
  while (e) {
    if (is_op(p, UDF_O_LPAR)) {
      e = parse_call(p, e);
    } else if (is_op(p, UDF_O_LSQB)) {
      e = parse_subscript(p, e);
    } else if (is_op(p, UDF_O_DOT)) {
      advance(p);
      udf_token *t = cur(p);
      if (t->kind != UDF_T_NAME || t->kw != UDF_KW_NONE) return syntax_error(p, t);
      const udf_import *b = e->kind == UDF_E_NAME
                                ? udf_import_find(&p->im, e->u.name.id, strlen(e->u.name.id))
                                : NULL;
      if (b && !b->member) { /* module.member */
        char buf[96], member[64];
        snprintf(member, sizeof member, "%.*s", (int)t->tlen, t->text);
        const char *bad = udf_import_resolve(e, b->module, member, buf, sizeof buf);
        if (bad) return unsupported(p, t->loc, bad);
        advance(p);
        continue;
      }
      udf_expr *a = new_expr(p, UDF_E_ATTRIBUTE, e->loc);
      if (!a) return NULL;
      a->u.attribute.value = e;
      a->u.attribute.attr = udf_arena_strndup(p->a, t->text, t->tlen);
      if (!a->u.attribute.attr) return P_OOM(p), NULL;
      advance(p);
      e = a;
    } else {
      break;
    }
  }
  return e;
}

static udf_expr *make_binary(parser *p, udf_binop op, udf_expr *l, udf_expr *r) {
  udf_expr *e = new_expr(p, UDF_E_BINARY, l->loc);
  if (!e) return NULL;
  e->u.binary.op = op;
  e->u.binary.left = l;
  e->u.binary.right = r;
  return e;
}

static udf_expr *parse_power(parser *p) {
  if (is_kw(p, UDF_KW_AWAIT)) return unsupported(p, cur(p)->loc, "await");
  udf_expr *base = parse_primary(p);
  if (!base) return NULL;
  if (is_op(p, UDF_O_DSTAR)) {
    advance(p);
    udf_expr *ex = parse_factor(p);
    if (!ex) return NULL;
    return make_binary(p, UDF_OP_POW, base, ex);
  }
  return base;
}

static udf_expr *parse_factor(parser *p) {
  udf_token *t = cur(p);
  if (t->kind == UDF_T_OP && (t->op == UDF_O_MINUS || t->op == UDF_O_PLUS || t->op == UDF_O_TILDE)) {
    if (++p->nesting > MAX_NESTING) {
      udf_diag_error(p->dc, NRT_EPARSE, t->loc, "too many nested parentheses");
      return NULL;
    }
    advance(p);
    udf_token *n = cur(p);
    /* -9223372036854775808 is the literal INT64_MIN (2**63 alone is out of range) */
    if (t->op == UDF_O_MINUS && n->kind == UDF_T_INT && n->big) {
      udf_token *after = peek_at(p, 1);
      if (!(after->kind == UDF_T_OP && (after->op == UDF_O_DSTAR || after->op == UDF_O_DOT ||
                                        after->op == UDF_O_LPAR || after->op == UDF_O_LSQB))) {
        advance(p);
        p->nesting--;
        udf_expr *e = new_expr(p, UDF_E_INT, t->loc);
        if (e) e->u.ival = INT64_MIN;
        return e;
      }
    }
    udf_expr *operand = parse_factor(p);
    p->nesting--;
    if (!operand) return NULL;
    udf_expr *e = new_expr(p, UDF_E_UNARY, t->loc);
    if (!e) return NULL;
    e->u.unary.op = t->op == UDF_O_MINUS ? UDF_UOP_NEG
                    : t->op == UDF_O_PLUS ? UDF_UOP_POS
                                          : UDF_UOP_INVERT;
    e->u.unary.operand = operand;
    return e;
  }
  return parse_power(p);
}

static udf_expr *parse_term(parser *p) {
  udf_expr *e = parse_factor(p);
  while (e && cur(p)->kind == UDF_T_OP) {
    udf_binop op;
    switch (cur(p)->op) {
    case UDF_O_STAR: op = UDF_OP_MUL; break;
    case UDF_O_SLASH: op = UDF_OP_DIV; break;
    case UDF_O_DSLASH: op = UDF_OP_FLOORDIV; break;
    case UDF_O_PERCENT: op = UDF_OP_MOD; break;
    case UDF_O_AT: op = UDF_OP_MATMUL; break;
    default: return e;
    }
    advance(p);
    udf_expr *r = parse_factor(p);
    if (!r) return NULL;
    e = make_binary(p, op, e, r);
  }
  return e;
}

static udf_expr *parse_sum(parser *p) {
  udf_expr *e = parse_term(p);
  while (e && (is_op(p, UDF_O_PLUS) || is_op(p, UDF_O_MINUS))) {
    udf_binop op = is_op(p, UDF_O_PLUS) ? UDF_OP_ADD : UDF_OP_SUB;
    advance(p);
    udf_expr *r = parse_term(p);
    if (!r) return NULL;
    e = make_binary(p, op, e, r);
  }
  return e;
}

static udf_expr *parse_shift(parser *p) {
  udf_expr *e = parse_sum(p);
  while (e && (is_op(p, UDF_O_LSHIFT) || is_op(p, UDF_O_RSHIFT))) {
    udf_binop op = is_op(p, UDF_O_LSHIFT) ? UDF_OP_LSHIFT : UDF_OP_RSHIFT;
    advance(p);
    udf_expr *r = parse_sum(p);
    if (!r) return NULL;
    e = make_binary(p, op, e, r);
  }
  return e;
}

static udf_expr *parse_bitand(parser *p) {
  udf_expr *e = parse_shift(p);
  while (e && is_op(p, UDF_O_AMPER)) {
    advance(p);
    udf_expr *r = parse_shift(p);
    if (!r) return NULL;
    e = make_binary(p, UDF_OP_BITAND, e, r);
  }
  return e;
}

static udf_expr *parse_bitxor(parser *p) {
  udf_expr *e = parse_bitand(p);
  while (e && is_op(p, UDF_O_CIRCUM)) {
    advance(p);
    udf_expr *r = parse_bitand(p);
    if (!r) return NULL;
    e = make_binary(p, UDF_OP_BITXOR, e, r);
  }
  return e;
}

static udf_expr *parse_bitor(parser *p) {
  udf_expr *e = parse_bitxor(p);
  while (e && is_op(p, UDF_O_VBAR)) {
    advance(p);
    udf_expr *r = parse_bitxor(p);
    if (!r) return NULL;
    e = make_binary(p, UDF_OP_BITOR, e, r);
  }
  return e;
}

/* Reads a comparison operator at cur; returns false when there is none. */
static bool compare_op(parser *p, udf_cmpop *op) {
  udf_token *t = cur(p);
  if (t->kind == UDF_T_OP) {
    switch (t->op) {
    case UDF_O_EQEQ: *op = UDF_CMP_EQ; break;
    case UDF_O_NOTEQ: *op = UDF_CMP_NE; break;
    case UDF_O_LT: *op = UDF_CMP_LT; break;
    case UDF_O_LE: *op = UDF_CMP_LE; break;
    case UDF_O_GT: *op = UDF_CMP_GT; break;
    case UDF_O_GE: *op = UDF_CMP_GE; break;
    default: return false;
    }
    advance(p);
    return true;
  }
  if (t->kind != UDF_T_NAME) return false;
  if (t->kw == UDF_KW_IN) {
    *op = UDF_CMP_IN;
    advance(p);
    return true;
  }
  if (t->kw == UDF_KW_NOT && peek_at(p, 1)->kind == UDF_T_NAME && peek_at(p, 1)->kw == UDF_KW_IN) {
    *op = UDF_CMP_NOT_IN;
    advance(p);
    advance(p);
    return true;
  }
  if (t->kw == UDF_KW_IS) {
    advance(p);
    *op = UDF_CMP_IS;
    if (is_kw(p, UDF_KW_NOT)) {
      advance(p);
      *op = UDF_CMP_IS_NOT;
    }
    return true;
  }
  return false;
}

static udf_expr *parse_comparison(parser *p) {
  udf_expr *first = parse_bitor(p);
  if (!first) return NULL;
  udf_cmpop op;
  if (!compare_op(p, &op)) return first;
  udf_expr *e = new_expr(p, UDF_E_COMPARE, first->loc);
  if (!e) return NULL;
  int ocap = 0, cap = 0;
  if (!push_ptr(p, &e->u.compare.operands, &e->u.compare.n, &ocap, first)) return NULL;
  int nops = 0;
  udf_cmpop *ops = NULL;
  do {
    udf_expr *r = parse_bitor(p);
    if (!r) return NULL;
    if (nops == cap) {
      int ncap = cap ? cap * 2 : 2;
      udf_cmpop *grown = udf_arena_alloc(p->a, (size_t)ncap * sizeof *grown);
      if (!grown) return P_OOM(p), NULL;
      if (cap) memcpy(grown, ops, (size_t)cap * sizeof *grown);
      ops = grown;
      cap = ncap;
    }
    ops[nops++] = op;
    if (!push_ptr(p, &e->u.compare.operands, &e->u.compare.n, &ocap, r)) return NULL;
  } while (compare_op(p, &op));
  e->u.compare.ops = ops;
  e->u.compare.n = nops;
  return e;
}

static udf_expr *parse_inversion(parser *p) {
  if (is_kw(p, UDF_KW_NOT)) {
    udf_loc loc = cur(p)->loc;
    if (++p->nesting > MAX_NESTING) {
      udf_diag_error(p->dc, NRT_EPARSE, loc, "too many nested parentheses");
      return NULL;
    }
    advance(p);
    udf_expr *o = parse_inversion(p);
    p->nesting--;
    if (!o) return NULL;
    udf_expr *e = new_expr(p, UDF_E_UNARY, loc);
    if (!e) return NULL;
    e->u.unary.op = UDF_UOP_NOT;
    e->u.unary.operand = o;
    return e;
  }
  return parse_comparison(p);
}

static udf_expr *parse_boolop(parser *p, udf_kw kw) {
  udf_expr *first = kw == UDF_KW_AND ? parse_inversion(p) : parse_boolop(p, UDF_KW_AND);
  if (!first || !is_kw(p, kw)) return first;
  udf_expr *e = new_expr(p, UDF_E_BOOLOP, first->loc);
  if (!e) return NULL;
  e->u.boolop.op = kw == UDF_KW_AND ? UDF_BOOL_AND : UDF_BOOL_OR;
  int cap = 0;
  if (!push_ptr(p, &e->u.boolop.values, &e->u.boolop.n, &cap, first)) return NULL;
  while (is_kw(p, kw)) {
    advance(p);
    udf_expr *r = kw == UDF_KW_AND ? parse_inversion(p) : parse_boolop(p, UDF_KW_AND);
    if (!r) return NULL;
    if (!push_ptr(p, &e->u.boolop.values, &e->u.boolop.n, &cap, r)) return NULL;
  }
  return e;
}

static udf_expr *parse_disjunction(parser *p) { return parse_boolop(p, UDF_KW_OR); }

static udf_expr *parse_expression(parser *p) {
  if (++p->nesting > MAX_NESTING) {
    udf_diag_error(p->dc, NRT_EPARSE, cur(p)->loc, "too many nested parentheses");
    return NULL;
  }
  udf_expr *e;
  if (is_kw(p, UDF_KW_LAMBDA)) {
    e = unsupported(p, cur(p)->loc, "lambda inside an expression");
  } else {
    e = parse_disjunction(p);
    if (e && is_kw(p, UDF_KW_IF)) {
      udf_loc l = e->loc;
      advance(p);
      udf_expr *test = parse_disjunction(p);
      if (!test) {
        e = NULL;
      } else if (!is_kw(p, UDF_KW_ELSE)) {
        udf_diag_error(p->dc, NRT_EPARSE, l, "expected 'else' after 'if' expression");
        e = NULL;
      } else {
        advance(p);
        udf_expr *orelse = parse_expression(p);
        udf_expr *x = orelse ? new_expr(p, UDF_E_IFEXP, l) : NULL;
        if (x) {
          x->u.ifexp.test = test;
          x->u.ifexp.body = e;
          x->u.ifexp.orelse = orelse;
        }
        e = x;
      }
    }
  }
  p->nesting--;
  return e;
}

/* expression (',' expression)* [','] : a tuple when there is a comma. */
static udf_expr *parse_star_expressions(parser *p) {
  if (is_op(p, UDF_O_STAR)) return unsupported(p, cur(p)->loc, "starred expressions");
  udf_expr *first = parse_expression(p);
  if (!first || !is_op(p, UDF_O_COMMA)) return first;
  udf_expr *t = new_expr(p, UDF_E_TUPLE, first->loc);
  if (!t) return NULL;
  int cap = 0;
  if (!push_ptr(p, &t->u.seq.items, &t->u.seq.n, &cap, first)) return NULL;
  while (is_op(p, UDF_O_COMMA)) {
    advance(p);
    udf_token *c = cur(p);
    if (c->kind == UDF_T_NEWLINE || c->kind == UDF_T_END || (c->kind == UDF_T_OP &&
        (c->op == UDF_O_EQUAL || c->op == UDF_O_RPAR || c->op == UDF_O_SEMI ||
         c->op == UDF_O_COLON || (c->op >= UDF_O_PLUSEQ && c->op <= UDF_O_RSHIFTEQ))))
      break;
    if (is_kw(p, UDF_KW_IN)) break;
    if (is_op(p, UDF_O_STAR)) return unsupported(p, cur(p)->loc, "starred expressions");
    udf_expr *x = parse_expression(p);
    if (!x) return NULL;
    if (!push_ptr(p, &t->u.seq.items, &t->u.seq.n, &cap, x)) return NULL;
  }
  return t;
}

/* ---------------------------------------------------------------------------------------
 * Statements */

static const char *target_kind_name(const udf_expr *e) {
  switch (e->kind) {
  case UDF_E_NONE: return "None";
  case UDF_E_BOOL: return e->u.bval ? "True" : "False";
  case UDF_E_INT: case UDF_E_FLOAT: case UDF_E_STR: return "literal";
  case UDF_E_FSTRING: return "f-string expression";
  case UDF_E_CALL: return "function call";
  case UDF_E_COMPARE: return "comparison";
  case UDF_E_IFEXP: return "conditional expression";
  case UDF_E_LISTCOMP: return "list comprehension";
  case UDF_E_GENEXP: return "generator expression";
  default: return "expression";
  }
}

/* Checks an assignment target: a name, or a tuple/list of names. `eq` selects CPython's
 * "Maybe you meant '=='" wording for plain assignments. */
static bool check_target(parser *p, udf_expr *e, bool eq, bool allow_tuple) {
  switch (e->kind) {
  case UDF_E_NAME:
    if (!strchr(e->u.name.id, '.')) return true;
    unsupported(p, e->loc, "assignment to an imported name");
    return false;
  case UDF_E_ATTRIBUTE:
    unsupported(p, e->loc, "assignment to an attribute");
    return false;
  case UDF_E_SUBSCRIPT:
  case UDF_E_SLICE:
    unsupported(p, e->loc, "assignment to a subscript here (only xs[i] = value)");
    return false;
  case UDF_E_TUPLE:
  case UDF_E_LIST:
    if (!allow_tuple) {
      unsupported(p, e->loc, "nested unpacking");
      return false;
    }
    for (int i = 0; i < e->u.seq.n; i++)
      if (!check_target(p, e->u.seq.items[i], eq, false)) return false;
    e->kind = UDF_E_TUPLE;
    return true;
  default: {
    const char *what = target_kind_name(e);
    if (e->kind == UDF_E_NONE || e->kind == UDF_E_BOOL)
      udf_diag_error(p->dc, NRT_EPARSE, e->loc, "cannot assign to %s", what);
    else if (eq)
      udf_diag_error(p->dc, NRT_EPARSE, e->loc,
                     "cannot assign to %s here. Maybe you meant '==' instead of '='?", what);
    else
      udf_diag_error(p->dc, NRT_EPARSE, e->loc, "cannot assign to %s", what);
    return false;
  }
  }
}

static bool end_simple(parser *p) {
  if (is_op(p, UDF_O_SEMI) || cur(p)->kind == UDF_T_NEWLINE) return true;
  syntax_error(p, cur(p));
  return false;
}

/* The module named at the cursor (a supported one), or NULL after a diagnostic. */
static const char *import_module_name(parser *p) {
  udf_token *t = cur(p);
  if (t->kind != UDF_T_NAME || t->kw != UDF_KW_NONE) return syntax_error(p, t);
  const char *m = udf_import_module(t->text, t->tlen);
  bool dotted = peek_at(p, 1)->kind == UDF_T_OP && peek_at(p, 1)->op == UDF_O_DOT;
  if (!m || dotted) {
    udf_diag_error(p->dc, NRT_EUNSUPPORTED, t->loc,
                   "unsupported: import %.*s%s (the importable modules are math, re, string and "
                   "unicodedata)",
                   (int)t->tlen, t->text, dotted ? "..." : "");
    return NULL;
  }
  advance(p);
  return m;
}

/* import m [as a], ... | from m import n [as a], ... : bindings in the parser's import table,
 * resolved where they are used (imports.h); the statement does nothing at run time. */
static udf_stmt *parse_import(parser *p) {
  udf_token *kw = cur(p);
  bool from = kw->kw == UDF_KW_FROM;
  advance(p);
  const char *module = NULL;
  bool paren = false;
  if (from) {
    if (!(module = import_module_name(p))) return NULL;
    if (!is_kw(p, UDF_KW_IMPORT)) return syntax_error(p, cur(p));
    advance(p);
    if (is_op(p, UDF_O_STAR)) return unsupported(p, cur(p)->loc, "from ... import *");
    if ((paren = is_op(p, UDF_O_LPAR))) advance(p);
  }
  for (;;) {
    udf_token *t = cur(p);
    udf_import b = {NULL, module, NULL};
    if (from) {
      if (t->kind != UDF_T_NAME || t->kw != UDF_KW_NONE) return syntax_error(p, t);
      b.member = udf_arena_strndup(p->a, t->text, t->tlen);
      if (!b.member) return P_OOM(p), NULL;
      udf_expr probe = {0};
      char buf[96];
      const char *bad = udf_import_resolve(&probe, module, b.member, buf, sizeof buf);
      if (bad) return unsupported(p, t->loc, bad);
      b.alias = b.member;
      advance(p);
    } else {
      if (!(b.module = import_module_name(p))) return NULL;
      b.alias = b.module;
    }
    if (is_kw(p, UDF_KW_AS)) {
      advance(p);
      udf_token *a = cur(p);
      if (a->kind != UDF_T_NAME || a->kw != UDF_KW_NONE) return syntax_error(p, a);
      b.alias = udf_arena_strndup(p->a, a->text, a->tlen);
      if (!b.alias) return P_OOM(p), NULL;
      advance(p);
    }
    if (p->im.n == p->im.cap) {
      int cap = p->im.cap ? 2 * p->im.cap : 8;
      udf_import *v = udf_arena_alloc(p->a, (size_t)cap * sizeof *v);
      if (!v) return P_OOM(p), NULL;
      if (p->im.n) memcpy(v, p->im.v, (size_t)p->im.n * sizeof *v);
      p->im.v = v;
      p->im.cap = cap;
    }
    p->im.v[p->im.n++] = b;
    if (!is_op(p, UDF_O_COMMA)) break;
    advance(p);
    if (paren && is_op(p, UDF_O_RPAR)) break;
  }
  if (paren && !expect_op(p, UDF_O_RPAR, ")")) return NULL;
  if (!end_simple(p)) return NULL;
  return new_stmt(p, UDF_S_PASS, kw->loc);
}

/* raise [E | E(arg)]; the class is resolved by the checker. */
static udf_stmt *parse_raise(parser *p) {
  udf_loc loc = cur(p)->loc;
  advance(p);
  udf_expr *e = NULL;
  if (cur(p)->kind != UDF_T_NEWLINE && !is_op(p, UDF_O_SEMI)) {
    e = parse_expression(p);
    if (!e) return NULL;
    if (is_kw(p, UDF_KW_FROM)) return unsupported(p, cur(p)->loc, "raise ... from ...");
  }
  if (!end_simple(p)) return NULL;
  udf_stmt *s = new_stmt(p, UDF_S_RAISE, loc);
  if (s) s->u.raise.exc = e;
  return s;
}

static udf_stmt *parse_simple(parser *p) {
  udf_token *t = cur(p);
  udf_loc loc = t->loc;
  if (t->kind == UDF_T_NAME) {
    switch (t->kw) {
    case UDF_KW_PASS:
      advance(p);
      return end_simple(p) ? new_stmt(p, UDF_S_PASS, loc) : NULL;
    case UDF_KW_BREAK:
    case UDF_KW_CONTINUE:
      advance(p);
      if (p->loop_depth == 0) {
        udf_diag_error(p->dc, NRT_EPARSE, loc,
                       t->kw == UDF_KW_BREAK ? "'break' outside loop"
                                             : "'continue' not properly in loop");
        return NULL;
      }
      return end_simple(p) ? new_stmt(p, t->kw == UDF_KW_BREAK ? UDF_S_BREAK : UDF_S_CONTINUE, loc)
                           : NULL;
    case UDF_KW_RETURN: {
      advance(p);
      if (!p->in_func) {
        udf_diag_error(p->dc, NRT_EPARSE, loc, "'return' outside function");
        return NULL;
      }
      udf_expr *v = NULL;
      if (cur(p)->kind != UDF_T_NEWLINE && !is_op(p, UDF_O_SEMI)) {
        v = parse_star_expressions(p);
        if (!v) return NULL;
      }
      if (!end_simple(p)) return NULL;
      udf_stmt *s = new_stmt(p, UDF_S_RETURN, loc);
      if (s) s->u.ret.value = v;
      return s;
    }
    case UDF_KW_IMPORT:
    case UDF_KW_FROM: return parse_import(p);
    case UDF_KW_GLOBAL:
      return unsupported(p, loc, "global statements (a UDF keeps no state across rows)");
    case UDF_KW_NONLOCAL: return unsupported(p, loc, "nonlocal statements");
    case UDF_KW_DEL: {
      advance(p);
      udf_expr *e = parse_star_expressions(p);
      if (!e) return NULL;
      if (e->kind != UDF_E_SUBSCRIPT)
        return unsupported(p, loc, "del statements (only del xs[i] and del d[k])");
      if (!end_simple(p)) return NULL;
      udf_stmt *s = new_stmt(p, UDF_S_DELITEM, loc);
      if (s) s->u.setitem.target = e;
      return s;
    }
    case UDF_KW_RAISE: return parse_raise(p);
    case UDF_KW_ASSERT: return unsupported(p, loc, "assert statements");
    case UDF_KW_YIELD: return unsupported(p, loc, "generators (yield)");
    default: break;
    }
    if (t->kw == UDF_KW_NONE && t->tlen == 5 && memcmp(t->text, "print", 5) == 0 &&
        peek_at(p, 1)->kind == UDF_T_STRING) {
      udf_diag_error(p->dc, NRT_EPARSE, loc,
                     "Missing parentheses in call to 'print'. Did you mean print(...)?");
      return NULL;
    }
  }
  udf_expr *e = parse_star_expressions(p);
  if (!e) return NULL;
  if (is_op(p, UDF_O_WALRUS)) return syntax_error(p, cur(p)); /* unparenthesized, as CPython */
  if (is_op(p, UDF_O_COLON)) { /* annotated assignment: annotations are ignored, as in Python */
    if (e->kind != UDF_E_NAME) {
      if (e->kind == UDF_E_TUPLE) {
        udf_diag_error(p->dc, NRT_EPARSE, e->loc, "only single target (not tuple) can be annotated");
        return NULL;
      }
      if (!check_target(p, e, false, false)) return NULL;
    }
    advance(p);
    if (!parse_expression(p)) return NULL;
    if (!is_op(p, UDF_O_EQUAL)) return end_simple(p) ? new_stmt(p, UDF_S_PASS, loc) : NULL;
    advance(p);
    udf_expr *v = parse_star_expressions(p);
    if (!v || !end_simple(p)) return NULL;
    udf_stmt *s = new_stmt(p, UDF_S_ASSIGN, loc);
    if (!s) return NULL;
    int cap = 0;
    if (!push_ptr(p, &s->u.assign.targets, &s->u.assign.ntargets, &cap, e)) return NULL;
    s->u.assign.value = v;
    return s;
  }
  if (cur(p)->kind == UDF_T_OP && cur(p)->op >= UDF_O_PLUSEQ && cur(p)->op <= UDF_O_RSHIFTEQ) {
    static const udf_binop augops[] = {UDF_OP_ADD,    UDF_OP_SUB,    UDF_OP_MUL,
                                       UDF_OP_DIV,    UDF_OP_FLOORDIV, UDF_OP_MOD,
                                       UDF_OP_POW,    UDF_OP_MATMUL, UDF_OP_BITOR,
                                       UDF_OP_BITXOR, UDF_OP_BITAND, UDF_OP_LSHIFT,
                                       UDF_OP_RSHIFT};
    udf_binop op = augops[cur(p)->op - UDF_O_PLUSEQ];
    if (e->kind != UDF_E_NAME) {
      if (e->kind == UDF_E_SUBSCRIPT)
        return unsupported(p, e->loc, "augmented assignment to an item (write x[k] = x[k] + v)");
      if (e->kind == UDF_E_ATTRIBUTE || e->kind == UDF_E_SLICE)
        return check_target(p, e, false, false), NULL;
      udf_diag_error(p->dc, NRT_EPARSE, e->loc,
                     "'%s' is an illegal expression for augmented assignment",
                     e->kind == UDF_E_TUPLE ? "tuple" : target_kind_name(e));
      return NULL;
    }
    advance(p);
    udf_expr *v = parse_star_expressions(p);
    if (!v || !end_simple(p)) return NULL;
    udf_stmt *s = new_stmt(p, UDF_S_AUGASSIGN, loc);
    if (!s) return NULL;
    s->u.augassign.target = e;
    s->u.augassign.op = op;
    s->u.augassign.value = v;
    return s;
  }
  if (is_op(p, UDF_O_EQUAL) && e->kind == UDF_E_SUBSCRIPT) {
    advance(p); /* d[k] = v, xs[i] = v: checked by the container's type (types.c) */
    udf_expr *v = parse_star_expressions(p);
    if (!v) return NULL;
    if (is_op(p, UDF_O_EQUAL)) return unsupported(p, cur(p)->loc, "chained assignment to a subscript");
    if (!end_simple(p)) return NULL;
    udf_stmt *s = new_stmt(p, UDF_S_SETITEM, loc);
    if (s) s->u.setitem.target = e, s->u.setitem.value = v;
    return s;
  }
  if (is_op(p, UDF_O_EQUAL)) {
    udf_stmt *s = new_stmt(p, UDF_S_ASSIGN, loc);
    if (!s) return NULL;
    int cap = 0;
    while (is_op(p, UDF_O_EQUAL)) {
      if (!check_target(p, e, true, true)) return NULL;
      if (!push_ptr(p, &s->u.assign.targets, &s->u.assign.ntargets, &cap, e)) return NULL;
      advance(p);
      if (is_kw(p, UDF_KW_YIELD)) return unsupported(p, cur(p)->loc, "generators (yield)");
      e = parse_star_expressions(p);
      if (!e) return NULL;
    }
    if (!end_simple(p)) return NULL;
    s->u.assign.value = e;
    return s;
  }
  if (!end_simple(p)) return NULL;
  udf_stmt *s = new_stmt(p, UDF_S_EXPR, loc);
  if (s) s->u.expr = e;
  return s;
}

/* simple_stmt (';' simple_stmt)* [';'] NEWLINE, appended to b */
static bool parse_simple_line(parser *p, udf_block *b, int *cap) {
  for (;;) {
    udf_stmt *s = parse_simple(p);
    if (!s) return false;
    if (!push_ptr(p, &b->items, &b->n, cap, s)) return false;
    if (is_op(p, UDF_O_SEMI)) {
      advance(p);
      if (cur(p)->kind == UDF_T_NEWLINE) break;
      continue;
    }
    break;
  }
  if (cur(p)->kind != UDF_T_NEWLINE) {
    syntax_error(p, cur(p));
    return false;
  }
  advance(p);
  return true;
}

static udf_stmt *parse_statement_into(parser *p, udf_block *b, int *cap);

static udf_func *parse_def(parser *p);
static udf_stmt *parse_nested(parser *p, udf_token *lambda_name);
static udf_func *parse_lambda(parser *p, const char *name, size_t len);

static udf_stmt *parse_if(parser *p, const char *what) {
  udf_token *kw = cur(p);
  udf_stmt *s = new_stmt(p, UDF_S_IF, kw->loc);
  if (!s) return NULL;
  advance(p);
  s->u.if_.test = parse_named_expression(p);
  if (!s->u.if_.test) return NULL;
  if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
  if (!parse_block(p, &s->u.if_.body, what, kw->loc.line)) return NULL;
  if (is_kw(p, UDF_KW_ELIF)) {
    udf_stmt *inner = parse_if(p, "'elif' statement");
    if (!inner) return NULL;
    int cap = 0;
    if (!push_ptr(p, &s->u.if_.orelse.items, &s->u.if_.orelse.n, &cap, inner)) return NULL;
  } else if (is_kw(p, UDF_KW_ELSE)) {
    int line = cur(p)->loc.line;
    advance(p);
    if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
    if (!parse_block(p, &s->u.if_.orelse, "'else' statement", line)) return NULL;
  }
  return s;
}

static bool parse_loop_else(parser *p, udf_block *orelse) {
  if (!is_kw(p, UDF_KW_ELSE)) return true;
  int line = cur(p)->loc.line;
  advance(p);
  if (!expect_op(p, UDF_O_COLON, ":")) return false;
  return parse_block(p, orelse, "'else' statement", line);
}

/* 'except' [expression ['as' NAME]] ':' block */
static udf_handler *parse_handler(parser *p) {
  udf_token *kw = cur(p);
  udf_handler *h = udf_arena_alloc(p->a, sizeof *h);
  if (!h) {
    P_OOM(p);
    return NULL;
  }
  memset(h, 0, sizeof *h);
  h->loc = kw->loc;
  advance(p);
  if (is_op(p, UDF_O_STAR)) return unsupported(p, cur(p)->loc, "exception groups (except*)");
  if (!is_op(p, UDF_O_COLON)) {
    h->type = parse_expression(p);
    if (!h->type) return NULL;
    if (is_kw(p, UDF_KW_AS)) {
      advance(p);
      udf_token *n = cur(p);
      if (n->kind != UDF_T_NAME || n->kw != UDF_KW_NONE) return syntax_error(p, n);
      h->name = new_var(p, n->text, n->tlen, n->loc);
      if (!h->name) return NULL;
      h->name_loc = n->loc;
      p->names_exceptions = true;
      advance(p);
    }
  }
  if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
  if (!parse_block(p, &h->body, "'except' statement", kw->loc.line)) return NULL;
  return h;
}

/* 'try' ':' block (handlers [else] [finally] | finally) */
#define MAX_TRY_DEPTH 8

static udf_stmt *parse_try_inner(parser *p);

static udf_stmt *parse_try(parser *p) {
  if (p->try_depth >= MAX_TRY_DEPTH)
    return unsupported(p, cur(p)->loc, "try statements nested more than 8 deep");
  p->try_depth++;
  udf_stmt *s = parse_try_inner(p);
  p->try_depth--;
  return s;
}

static udf_stmt *parse_try_inner(parser *p) {
  udf_token *kw = cur(p);
  udf_stmt *s = new_stmt(p, UDF_S_TRY, kw->loc);
  if (!s) return NULL;
  advance(p);
  if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
  if (!parse_block(p, &s->u.try_.body, "'try' statement", kw->loc.line)) return NULL;
  int cap = 0;
  while (is_kw(p, UDF_KW_EXCEPT)) {
    if (s->u.try_.nhandlers > 0 && !s->u.try_.handlers[s->u.try_.nhandlers - 1]->type) {
      udf_diag_error(p->dc, NRT_EPARSE, s->u.try_.handlers[s->u.try_.nhandlers - 1]->loc,
                     "default 'except:' must be last");
      return NULL;
    }
    udf_handler *h = parse_handler(p);
    if (!h || !push_ptr(p, &s->u.try_.handlers, &s->u.try_.nhandlers, &cap, h)) return NULL;
  }
  if (s->u.try_.nhandlers > 0 && is_kw(p, UDF_KW_ELSE)) {
    int line = cur(p)->loc.line;
    advance(p);
    if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
    if (!parse_block(p, &s->u.try_.orelse, "'else' statement", line)) return NULL;
  }
  if (is_kw(p, UDF_KW_FINALLY)) {
    int line = cur(p)->loc.line;
    advance(p);
    if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
    if (!parse_block(p, &s->u.try_.finalbody, "'finally' statement", line)) return NULL;
    if (s->u.try_.finalbody.n == 0) return syntax_error(p, cur(p));
  } else if (s->u.try_.nhandlers == 0) {
    udf_diag_error(p->dc, NRT_EPARSE, cur(p)->loc, "expected 'except' or 'finally' block");
    return NULL;
  }
  return s;
}

static udf_stmt *parse_compound(parser *p, bool *handled) {
  udf_token *t = cur(p);
  *handled = true;
  if (t->kind == UDF_T_OP && t->op == UDF_O_AT) return unsupported(p, t->loc, "decorators");
  if (t->kind != UDF_T_NAME) {
    *handled = false;
    return NULL;
  }
  switch (t->kw) {
  case UDF_KW_IF: return parse_if(p, "'if' statement");
  case UDF_KW_WHILE: {
    udf_stmt *s = new_stmt(p, UDF_S_WHILE, t->loc);
    if (!s) return NULL;
    advance(p);
    s->u.while_.test = parse_named_expression(p);
    if (!s->u.while_.test) return NULL;
    if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
    p->loop_depth++;
    bool ok = parse_block(p, &s->u.while_.body, "'while' statement", t->loc.line);
    p->loop_depth--;
    if (!ok || !parse_loop_else(p, &s->u.while_.orelse)) return NULL;
    return s;
  }
  case UDF_KW_FOR: {
    udf_stmt *s = new_stmt(p, UDF_S_FOR, t->loc);
    if (!s) return NULL;
    advance(p);
    s->u.for_.target_loc = cur(p)->loc;
    if (!parse_for_target(p, &s->u.for_.target, &s->u.for_.unpack, false)) return NULL;
    if (!is_kw(p, UDF_KW_IN)) return syntax_error(p, cur(p));
    advance(p); /* in */
    s->u.for_.iter = parse_star_expressions(p);
    if (!s->u.for_.iter) return NULL;
    if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
    p->loop_depth++;
    bool ok = parse_block(p, &s->u.for_.body, "'for' statement", t->loc.line);
    p->loop_depth--;
    if (!ok || !parse_loop_else(p, &s->u.for_.orelse)) return NULL;
    return s;
  }
  case UDF_KW_DEF:
    if (p->in_func) return parse_nested(p, NULL);
    *handled = false;
    return NULL;
  case UDF_KW_CLASS: return unsupported(p, t->loc, "class definitions");
  case UDF_KW_TRY: return parse_try(p);
  case UDF_KW_WITH: return unsupported(p, t->loc, "with statements");
  case UDF_KW_ASYNC: return unsupported(p, t->loc, "async statements");
  default:
    if (t->kw == UDF_KW_NONE && t->tlen == 5 && memcmp(t->text, "match", 5) == 0 &&
        peek_at(p, 1)->kind != UDF_T_OP)
      return unsupported(p, t->loc, "match statements");
    *handled = false;
    return NULL;
  }
}

/* One statement (a compound one, or a line of simple ones) appended to b. */
static udf_stmt *parse_statement_into(parser *p, udf_block *b, int *cap) {
  bool handled;
  udf_stmt *s = parse_compound(p, &handled);
  if (handled) {
    if (s && !push_ptr(p, &b->items, &b->n, cap, s)) return NULL;
    return s;
  }
  if (failed(p)) return NULL;
  if (cur(p)->kind == UDF_T_INDENT) return syntax_error(p, cur(p));
  udf_token *t = cur(p);
  if (p->in_func && t->kind == UDF_T_NAME && t->kw == UDF_KW_NONE &&
      peek_at(p, 1)->kind == UDF_T_OP && peek_at(p, 1)->op == UDF_O_EQUAL &&
      peek_at(p, 2)->kind == UDF_T_NAME && peek_at(p, 2)->kw == UDF_KW_LAMBDA) {
    s = parse_nested(p, t); /* name = lambda ...: a nested function */
    if (s && !push_ptr(p, &b->items, &b->n, cap, s)) return NULL;
    return s;
  }
  int before = b->n;
  if (!parse_simple_line(p, b, cap)) return NULL;
  return b->items[before];
}

static bool parse_block(parser *p, udf_block *b, const char *what, int header_line) {
  int cap = 0;
  if (cur(p)->kind != UDF_T_NEWLINE) { /* if x: return 1 */
    if (cur(p)->kind == UDF_T_NAME && (cur(p)->kw == UDF_KW_IF || cur(p)->kw == UDF_KW_WHILE ||
                                       cur(p)->kw == UDF_KW_FOR || cur(p)->kw == UDF_KW_DEF)) {
      syntax_error(p, cur(p));
      return false;
    }
    return parse_simple_line(p, b, &cap);
  }
  advance(p);
  if (cur(p)->kind != UDF_T_INDENT) {
    udf_diag_error(p->dc, NRT_EPARSE, cur(p)->loc, "expected an indented block after %s on line %d",
                   what, header_line);
    return false;
  }
  advance(p);
  while (cur(p)->kind != UDF_T_DEDENT && cur(p)->kind != UDF_T_END) {
    if (!parse_statement_into(p, b, &cap)) return false;
  }
  if (cur(p)->kind == UDF_T_DEDENT) advance(p);
  return true;
}

static udf_func *new_func(parser *p, const char *name, size_t len, udf_loc loc) {
  udf_func *f = udf_arena_alloc(p->a, sizeof *f);
  if (!f) return P_OOM(p), NULL;
  f->name = udf_arena_strndup(p->a, name, len);
  if (!f->name) return P_OOM(p), NULL;
  f->loc = loc;
  return f;
}

/* Parameters up to the closing token (')' for def, ':' for lambda). */
static bool parse_params(parser *p, udf_func *f, udf_opk close) {
  int pcap = 0, dcap = 0, ndefaults = 0;
  while (!is_op(p, close)) {
    udf_token *t = cur(p);
    if (t->kind == UDF_T_OP && (t->op == UDF_O_STAR || t->op == UDF_O_DSTAR || t->op == UDF_O_SLASH)) {
      unsupported(p, t->loc, "*args, **kwargs and positional-only or keyword-only markers");
      return false;
    }
    if (t->kind != UDF_T_NAME || t->kw != UDF_KW_NONE) {
      syntax_error(p, t);
      return false;
    }
    for (int i = 0; i < f->nparams; i++)
      if (strlen(f->params[i]->name) == t->tlen && memcmp(f->params[i]->name, t->text, t->tlen) == 0) {
        udf_diag_error(p->dc, NRT_EPARSE, t->loc, "duplicate argument '%.*s' in function definition",
                       (int)t->tlen, t->text);
        return false;
      }
    udf_var *v = new_var(p, t->text, t->tlen, t->loc);
    if (!v) return false;
    v->is_param = true;
    advance(p);
    if (close == UDF_O_RPAR && is_op(p, UDF_O_COLON)) { /* annotation: ignored, as in Python */
      advance(p);
      if (!parse_expression(p)) return false;
    }
    udf_expr *def = NULL;
    if (is_op(p, UDF_O_EQUAL)) {
      advance(p);
      def = parse_expression(p);
      if (!def) return false;
      ndefaults++;
    } else if (ndefaults > 0) {
      udf_diag_error(p->dc, NRT_EPARSE, t->loc, "non-default argument follows default argument");
      return false;
    }
    int n0 = f->nparams;
    if (!push_ptr(p, &f->params, &f->nparams, &pcap, v)) return false;
    int nd = n0;
    if (!push_ptr(p, &f->defaults, &nd, &dcap, def)) return false;
    if (is_op(p, UDF_O_COMMA)) {
      advance(p);
      continue;
    }
    if (!is_op(p, close)) {
      syntax_error(p, cur(p));
      return false;
    }
  }
  advance(p);
  return true;
}

static udf_func *parse_def(parser *p) {
  udf_token *kw = cur(p);
  advance(p);
  udf_token *name = cur(p);
  if (name->kind != UDF_T_NAME || name->kw != UDF_KW_NONE) return syntax_error(p, name);
  advance(p);
  udf_func *f = new_func(p, name->text, name->tlen, kw->loc);
  if (!f) return NULL;
  if (!is_op(p, UDF_O_LPAR)) {
    udf_diag_error(p->dc, NRT_EPARSE, cur(p)->loc, "expected '('");
    return NULL;
  }
  advance(p);
  if (!parse_params(p, f, UDF_O_RPAR)) return NULL;
  if (is_op(p, UDF_O_ARROW)) {
    advance(p);
    if (!parse_expression(p)) return NULL;
  }
  if (!expect_op(p, UDF_O_COLON, ":")) return NULL;
  p->in_func = true;
  udf_func *outer = p->cur_func;
  p->cur_func = f;
  int nimports = p->im.n; /* a body's imports are its own */
  bool ok = parse_block(p, &f->body, "function definition", kw->loc.line);
  p->in_func = false;
  p->cur_func = outer;
  p->im.n = nimports;
  return ok ? f : NULL;
}

/* A def, or `name = lambda ...` (lambda_name), inside a function: a function of its own,
 * called with the variables it reads from around it (types_funcs.h); the statement itself
 * does nothing at runtime. */
static udf_stmt *parse_nested(parser *p, udf_token *lambda_name) {
  udf_loc loc = cur(p)->loc;
  udf_func *outer = p->cur_func;
  int loops = p->loop_depth, tries = p->try_depth;
  p->loop_depth = p->try_depth = 0;
  udf_func *f;
  if (lambda_name) {
    advance(p); /* name */
    advance(p); /* = */
    f = parse_lambda(p, lambda_name->text, lambda_name->tlen);
  } else {
    f = parse_def(p);
  }
  p->loop_depth = loops;
  p->try_depth = tries;
  p->in_func = true;
  if (!f) return NULL;
  f->parent = outer;
  if (!push_ptr(p, &p->nested, &p->nnested, &p->capnested, f)) return NULL;
  return new_stmt(p, UDF_S_PASS, loc);
}

/* `lambda params: expr` NEWLINE, as a function named `name`. */
static udf_func *parse_lambda(parser *p, const char *name, size_t len) {
  return parse_lambda_until(p, name, len, true);
}

/* `lambda params: expr`, then a NEWLINE when `line` (else the expression ends it). */
static udf_func *parse_lambda_until(parser *p, const char *name, size_t len, bool line) {
  udf_token *kw = cur(p);
  advance(p);
  udf_func *f = new_func(p, name, len, kw->loc);
  if (!f) return NULL;
  f->is_lambda = true;
  if (!parse_params(p, f, UDF_O_COLON)) return NULL;
  udf_func *outer = p->cur_func; /* a lambda replacement in the body is nested in this one */
  p->cur_func = f;
  udf_expr *body = parse_expression(p);
  p->cur_func = outer;
  if (!body) return NULL;
  if (line && cur(p)->kind != UDF_T_NEWLINE) return syntax_error(p, cur(p));
  if (line) advance(p);
  udf_stmt *r = new_stmt(p, UDF_S_RETURN, body->loc);
  if (!r) return NULL;
  r->u.ret.value = body;
  int cap = 0;
  if (!push_ptr(p, &f->body.items, &f->body.n, &cap, r)) return NULL;
  return f;
}

/* ---------------------------------------------------------------------------------------
 * Depth limit. Chains like `a + a + ... + a` or `s.strip().strip()...` parse iteratively but
 * make trees as deep as they are long, and every later pass (checker, flow, code generation)
 * recurses over expressions; so the depth of each expression tree is measured here, without
 * recursion, and bounded as CPython bounds its compiler's recursion. */

enum { MAX_EXPR_DEPTH = 1000 };

typedef struct depth_item {
  udf_expr *e;
  int depth;
} depth_item;

typedef struct depth_stack {
  depth_item *items;
  int n, cap;
} depth_stack;

static bool depth_push(parser *p, depth_stack *st, udf_expr *e, int depth) {
  if (!e) return true;
  if (st->n == st->cap) {
    int ncap = st->cap ? st->cap * 2 : 64;
    depth_item *grown = udf_arena_alloc(p->a, (size_t)ncap * sizeof *grown);
    if (!grown) {
      P_OOM(p);
      return false;
    }
    if (st->n) memcpy(grown, st->items, (size_t)st->n * sizeof *grown);
    st->items = grown;
    st->cap = ncap;
  }
  st->items[st->n].e = e;
  st->items[st->n].depth = depth;
  st->n++;
  return true;
}

/* The code generator's fixed limits, checked here where the source location is known: the
 * error points at the first item past the limit. */
enum { MAX_BOOL_OPERANDS = 64, MAX_COMPARISONS = 63, MAX_FSTRING_PARTS = 256,
       MAX_DISPLAY_ITEMS = 256, MAX_MINMAX_ARGS = 64, MAX_UNPACK_TARGETS = 64,
       MAX_PARAMS = 64 };

/* False after reporting "unsupported: WHAT of more than LIMIT ITEMS" at the first item past
 * the limit (items[limit]; loc when there is no such item). */
static bool within(parser *p, int n, int limit, udf_expr *const *items, udf_loc loc,
                   const char *what, const char *noun) {
  if (n <= limit) return true;
  udf_diag_error(p->dc, NRT_EUNSUPPORTED, items ? items[limit]->loc : loc,
                 "unsupported: %s of more than %d %s", what, limit, noun);
  return false;
}

static bool check_limits(parser *p, const udf_expr *e) {
  switch (e->kind) {
  case UDF_E_BOOLOP:
    return within(p, e->u.boolop.n, MAX_BOOL_OPERANDS, e->u.boolop.values, e->loc,
                  "a boolean expression", "operands");
  case UDF_E_COMPARE:
    return within(p, e->u.compare.n, MAX_COMPARISONS, e->u.compare.operands + 1, e->loc,
                  "a comparison chain", "comparisons");
  case UDF_E_FSTRING:
    return within(p, e->u.fstring.nparts, MAX_FSTRING_PARTS, NULL, e->loc, "an f-string",
                  "parts");
  case UDF_E_LIST:
  case UDF_E_TUPLE:
    return within(p, e->u.seq.n, MAX_DISPLAY_ITEMS, e->u.seq.items, e->loc,
                  "a list or tuple display", "items");
  case UDF_E_CALL: {
    const udf_expr *f = e->u.call.func;
    if (f->kind != UDF_E_NAME) return true;
    bool is_min = strcmp(f->u.name.id, "min") == 0;
    if (!is_min && strcmp(f->u.name.id, "max") != 0) return true;
    return within(p, e->u.call.nargs, MAX_MINMAX_ARGS, e->u.call.args, e->loc,
                  is_min ? "a call of min()" : "a call of max()", "arguments");
  }
  default: return true;
  }
}

static bool check_depth(parser *p, depth_stack *st, udf_expr *root) {
  if (!root) return true;
  st->n = 0;
  if (!depth_push(p, st, root, 1)) return false;
  while (st->n > 0) {
    depth_item it = st->items[--st->n];
    udf_expr *e = it.e;
    int d = it.depth + 1;
    if (it.depth > MAX_EXPR_DEPTH) {
      udf_diag_error(p->dc, NRT_EUNSUPPORTED, root->loc,
                     "unsupported: an expression nested more than %d levels deep",
                     MAX_EXPR_DEPTH);
      return false;
    }
    if (!check_limits(p, e)) return false;
    bool ok = true;
    switch (e->kind) {
    case UDF_E_FSTRING:
      for (int i = 0; ok && i < e->u.fstring.nparts; i++)
        if (e->u.fstring.parts[i].is_field) ok = depth_push(p, st, e->u.fstring.parts[i].expr, d);
      break;
    case UDF_E_UNARY: ok = depth_push(p, st, e->u.unary.operand, d); break;
    case UDF_E_BINARY:
      ok = depth_push(p, st, e->u.binary.left, d) && depth_push(p, st, e->u.binary.right, d);
      break;
    case UDF_E_BOOLOP:
      for (int i = 0; ok && i < e->u.boolop.n; i++) ok = depth_push(p, st, e->u.boolop.values[i], d);
      break;
    case UDF_E_COMPARE:
      for (int i = 0; ok && i <= e->u.compare.n; i++)
        ok = depth_push(p, st, e->u.compare.operands[i], d);
      break;
    case UDF_E_IFEXP:
      ok = depth_push(p, st, e->u.ifexp.test, d) && depth_push(p, st, e->u.ifexp.body, d) &&
           depth_push(p, st, e->u.ifexp.orelse, d);
      break;
    case UDF_E_CALL:
      ok = depth_push(p, st, e->u.call.func, d);
      for (int i = 0; ok && i < e->u.call.nargs; i++) ok = depth_push(p, st, e->u.call.args[i], d);
      for (int i = 0; ok && i < e->u.call.nkeywords; i++)
        ok = depth_push(p, st, e->u.call.keywords[i].value, d);
      break;
    case UDF_E_ATTRIBUTE: ok = depth_push(p, st, e->u.attribute.value, d); break;
    case UDF_E_SUBSCRIPT:
      ok = depth_push(p, st, e->u.subscript.value, d) && depth_push(p, st, e->u.subscript.index, d);
      break;
    case UDF_E_SLICE:
      ok = depth_push(p, st, e->u.slice.value, d) && depth_push(p, st, e->u.slice.lower, d) &&
           depth_push(p, st, e->u.slice.upper, d) && depth_push(p, st, e->u.slice.step, d);
      break;
    case UDF_E_LIST:
    case UDF_E_TUPLE:
      for (int i = 0; ok && i < e->u.seq.n; i++) ok = depth_push(p, st, e->u.seq.items[i], d);
      break;
    case UDF_E_LISTCOMP:
    case UDF_E_GENEXP:
      ok = depth_push(p, st, e->u.comp.elt, d);
      for (int g = 0; ok && g < e->u.comp.ngens; g++) {
        ok = depth_push(p, st, e->u.comp.gens[g].iter, d);
        for (int k = 0; ok && k < e->u.comp.gens[g].nifs; k++)
          ok = depth_push(p, st, e->u.comp.gens[g].ifs[k], d);
      }
      break;
    default: break;
    }
    if (!ok) return false;
  }
  return true;
}

/* Statements nest at most as deep as the indentation stack allows, so this recursion is
 * bounded. */
static bool check_block_depth(parser *p, depth_stack *st, const udf_block *b) {
  for (int i = 0; i < b->n; i++) {
    udf_stmt *s = b->items[i];
    bool ok = true;
    switch (s->kind) {
    case UDF_S_EXPR: ok = check_depth(p, st, s->u.expr); break;
    case UDF_S_ASSIGN:
      ok = check_depth(p, st, s->u.assign.value);
      for (int k = 0; ok && k < s->u.assign.ntargets; k++) {
        const udf_expr *t = s->u.assign.targets[k];
        bool seq = t->kind == UDF_E_TUPLE || t->kind == UDF_E_LIST;
        if (seq && t->u.seq.n > MAX_UNPACK_TARGETS) {
          udf_diag_error(p->dc, NRT_EUNSUPPORTED, t->u.seq.items[MAX_UNPACK_TARGETS]->loc,
                         "unsupported: unpacking into more than %d names", MAX_UNPACK_TARGETS);
          return false;
        }
        ok = check_depth(p, st, s->u.assign.targets[k]);
      }
      break;
    case UDF_S_AUGASSIGN: ok = check_depth(p, st, s->u.augassign.value); break;
    case UDF_S_IF:
      ok = check_depth(p, st, s->u.if_.test) && check_block_depth(p, st, &s->u.if_.body) &&
           check_block_depth(p, st, &s->u.if_.orelse);
      break;
    case UDF_S_WHILE:
      ok = check_depth(p, st, s->u.while_.test) && check_block_depth(p, st, &s->u.while_.body) &&
           check_block_depth(p, st, &s->u.while_.orelse);
      break;
    case UDF_S_FOR:
      ok = check_depth(p, st, s->u.for_.iter) && check_block_depth(p, st, &s->u.for_.body) &&
           check_block_depth(p, st, &s->u.for_.orelse);
      break;
    case UDF_S_RETURN: ok = check_depth(p, st, s->u.ret.value); break;
    case UDF_S_RAISE: ok = !s->u.raise.exc || check_depth(p, st, s->u.raise.exc); break;
    case UDF_S_TRY:
      ok = check_block_depth(p, st, &s->u.try_.body) &&
           check_block_depth(p, st, &s->u.try_.orelse) &&
           check_block_depth(p, st, &s->u.try_.finalbody);
      for (int k = 0; ok && k < s->u.try_.nhandlers; k++) {
        const udf_handler *h = s->u.try_.handlers[k];
        ok = (!h->type || check_depth(p, st, h->type)) && check_block_depth(p, st, &h->body);
      }
      break;
    default: break;
    }
    if (!ok) return false;
  }
  return true;
}

/* `if __name__ == "__main__":` at module level: a script's own test code, never run when the
 * file is used as a UDF, so it is ignored (as importing the file in Python would). */
static bool is_main_guard(const udf_stmt *s) {
  if (s->kind != UDF_S_IF || s->u.if_.orelse.n != 0) return false;
  const udf_expr *t = s->u.if_.test;
  if (t->kind != UDF_E_COMPARE || t->u.compare.n != 1 || t->u.compare.ops[0] != UDF_CMP_EQ)
    return false;
  const udf_expr *l = t->u.compare.operands[0], *r = t->u.compare.operands[1];
  if (l->kind == UDF_E_STR) {
    const udf_expr *tmp = l;
    l = r;
    r = tmp;
  }
  return l->kind == UDF_E_NAME && strcmp(l->u.name.id, "__name__") == 0 && r->kind == UDF_E_STR &&
         r->u.str.len == 8 && memcmp(r->u.str.data, "__main__", 8) == 0;
}

/* `NAME = {...}` at module level: a dict or set constant (types_dict.c). */
static bool is_module_const(const udf_stmt *s) {
  if (s->kind != UDF_S_ASSIGN || s->u.assign.ntargets != 1) return false;
  const udf_expr *t = s->u.assign.targets[0], *v = s->u.assign.value;
  if (t->kind == UDF_E_NAME && v->kind == UDF_E_CALL && v->u.call.func->kind == UDF_E_ATTRIBUTE &&
      strcmp(v->u.call.func->u.attribute.attr, "maketrans") == 0)
    return true; /* a translate table (types_formatting.inc) */
  return t->kind == UDF_E_NAME && (v->kind == UDF_E_DICT || v->kind == UDF_E_SET);
}

int udf_parse_module(udf_diagctx *dc, udf_arena *a, const char *src, size_t len,
                     udf_module **out) {
  *out = NULL;
  /* A UTF-8 byte order mark opening the source is skipped, as CPython does; columns (and the
   * quoted line of a diagnostic) count from after it. */
  if (len >= 3 && memcmp(src, "\xEF\xBB\xBF", 3) == 0) {
    src += 3;
    len -= 3;
    if (dc->src == src - 3) {
      dc->src = src;
      dc->len = len;
    }
  }
  /* CPython refuses a NUL byte anywhere, in a string literal or a comment too. */
  const char *nul = memchr(src, '\0', len);
  if (nul) {
    udf_loc at = {1, 1};
    for (const char *q = src; q < nul; q++) {
      if (*q == '\n') {
        at.line++;
        at.col = 1;
      } else if (((unsigned char)*q & 0xC0) != 0x80) {
        at.col++;
      }
    }
    return udf_diag_error(dc, NRT_EPARSE, at, "source code cannot contain null bytes");
  }
  parser P;
  memset(&P, 0, sizeof P);
  P.dc = dc;
  P.a = a;
  udf_loc start = {1, 1};
  if (udf_lex(dc, a, src, len, start, false, &P.t, &P.n)) return dc->code;
  parser *p = &P;
  udf_module *m = udf_arena_alloc(a, sizeof *m);
  if (!m) return P_OOM(p);
  m->arena = a;
  int fcap = 0, ccap = 0, vcap = 0;
  bool lambda = false;
  udf_loc other = {0, 0};
  while (cur(p)->kind != UDF_T_END) {
    udf_token *t = cur(p);
    if (t->kind == UDF_T_NEWLINE) {
      advance(p);
      continue;
    }
    udf_func *f = NULL;
    if (t->kind == UDF_T_NAME && t->kw == UDF_KW_DEF) {
      f = parse_def(p);
      if (!f) return dc->code;
    } else if (t->kind == UDF_T_NAME && t->kw == UDF_KW_LAMBDA) {
      f = parse_lambda(p, "<lambda>", 8);
      if (!f) return dc->code;
    } else if (t->kind == UDF_T_NAME && t->kw == UDF_KW_NONE && peek_at(p, 1)->kind == UDF_T_OP &&
               peek_at(p, 1)->op == UDF_O_EQUAL && peek_at(p, 2)->kind == UDF_T_NAME &&
               peek_at(p, 2)->kw == UDF_KW_LAMBDA) {
      advance(p);
      advance(p);
      f = parse_lambda(p, t->text, t->tlen);
      if (!f) return dc->code;
    } else {
      udf_block junk = {NULL, 0};
      int cap = 0;
      udf_stmt *s = parse_statement_into(p, &junk, &cap);
      if (!s) return dc->code;
      for (int i = 0; i < junk.n; i++) {
        udf_stmt *x = junk.items[i];
        bool docstring = x->kind == UDF_S_EXPR && x->u.expr->kind == UDF_E_STR;
        bool inert = x->kind == UDF_S_PASS; /* an import, or pass */
        if (is_module_const(x)) {
          udf_expr *v = x->u.assign.value;
          if (v->kind != UDF_E_CALL)
            v->u.dict.readonly = true; /* a module's dict or set is only looked up */
          if (!push_ptr(p, &m->const_names, &m->nconsts, &ccap, x->u.assign.targets[0]))
            return dc->code;
          m->nconsts--;
          if (!push_ptr(p, &m->const_values, &m->nconsts, &vcap, v)) return dc->code;
          continue;
        }
        int bound = udf_const_assign(dc, a, m, x); /* a literal constant (parse_consts.h) */
        if (bound < 0) return dc->code;
        if (bound) continue;
        if (!docstring && !inert && !is_main_guard(x) && other.line == 0) other = x->loc;
      }
      continue;
    }
    if (!udf_const_defaults(dc, a, m, f)) return dc->code;
    /* a bare lambda is a module of its own; `name = lambda ...` may be a helper of defs */
    if (f->is_lambda && strcmp(f->name, "<lambda>") == 0) lambda = true;
    for (int i = 0; i < p->nnested; i++) { /* inner functions first: the entry is last */
      udf_func *g = p->nested[i];
      if (!udf_const_defaults(dc, a, m, g)) return dc->code;
      g->index = m->nfuncs;
      if (!push_ptr(p, &m->funcs, &m->nfuncs, &fcap, g)) return dc->code;
    }
    p->nnested = 0;
    f->index = m->nfuncs;
    if (!push_ptr(p, &m->funcs, &m->nfuncs, &fcap, f)) return dc->code;
  }
  if (other.line)
    return udf_diag_error(dc, NRT_EUNSUPPORTED, other,
                          "unsupported: statements outside a function (a UDF module holds "
                          "only defs, or a single lambda)");
  if (m->nfuncs == 0)
    return udf_diag_error(dc, NRT_EPARSE, cur(p)->loc,
                          "no function: a UDF module needs a def or a lambda");
  int ntop = 0;
  for (int i = 0; i < m->nfuncs; i++) ntop += !m->funcs[i]->parent;
  if (lambda && ntop > 1) {
    for (int i = 0; i < m->nfuncs; i++)
      if (m->funcs[i]->is_lambda && strcmp(m->funcs[i]->name, "<lambda>") == 0)
        return udf_diag_error(dc, NRT_EUNSUPPORTED, m->funcs[i]->loc,
                              "unsupported: a lambda next to other functions (a module is "
                              "defs, or a single lambda)");
  }
  for (int i = 0; i < m->nfuncs; i++)
    for (int j = 0; j < i; j++)
      if (m->funcs[i]->parent == m->funcs[j]->parent &&
          strcmp(m->funcs[i]->name, m->funcs[j]->name) == 0)
        return udf_diag_error(dc, NRT_EUNSUPPORTED, m->funcs[i]->loc,
                              "unsupported: function '%s' defined twice", m->funcs[i]->name);
  depth_stack st = {NULL, 0, 0};
  for (int i = 0; i < m->nfuncs; i++) {
    udf_func *f = m->funcs[i];
    if (f->nparams > MAX_PARAMS)
      return udf_diag_error(dc, NRT_EUNSUPPORTED, f->loc,
                            "unsupported: a function of more than %d parameters", MAX_PARAMS);
    for (int k = 0; k < f->nparams; k++)
      if (f->defaults[k] && !check_depth(p, &st, f->defaults[k])) return dc->code;
    if (!check_block_depth(p, &st, &f->body)) return dc->code;
  }
  if (udf_re_compiled_locals(dc, a, m)) return dc->code; /* pat = re.compile(...) */
  m->names_exceptions = p->names_exceptions;
  *out = m;
  return NRT_OK;
}

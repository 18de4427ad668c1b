/* str.format and %-formatting of a literal format string -> an f-string node (see
 * parse_format.h). The field grammar and the error messages follow CPython 3.11's. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "udf/parse_format.h"

typedef struct fmt {
  udf_diagctx *dc;
  udf_arena *a;
  udf_loc loc;    /* the format string's, for every error */
  udf_fpart *parts;
  int n, cap;
  /* the arguments: positional first, then keywords, in the order written (and evaluated) */
  udf_expr **argv;
  const char **names; /* keyword name per argument, NULL for a positional one */
  int nargs, npos;
  int *refs; /* the argument of each field, in field order */
  int nrefs, caprefs;
  int numbering; /* 0 not yet, 1 automatic, 2 manual */
  int next_auto;
  /* %(key) conversions: 1 over a dict display (argv its values), 2 over a dict variable
   * (argv the lookups made, one per conversion) */
  int mapping;
  const udf_expr *map; /* the display or the variable */
  int capargs;
} fmt;

static bool fail(fmt *f, int code, const char *fmtstr, const char *arg) NRT_PRINTF(3, 0);
static bool fail(fmt *f, int code, const char *fmtstr, const char *arg) {
  char msg[sizeof f->dc->d.message];
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  snprintf(msg, sizeof msg, fmtstr, arg); /* every caller's format takes one %s */
#pragma GCC diagnostic pop
  udf_diag_error(f->dc, code, f->loc, "%s", msg);
  return false;
}

static bool oom(fmt *f) {
  udf_diag_error(f->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  return false;
}

static bool push(fmt *f, udf_fpart part) {
  if (!part.is_field && part.text.len == 0) return true;
  if (f->n == f->cap) {
    int ncap = f->cap ? f->cap * 2 : 8;
    udf_fpart *grown = udf_arena_alloc(f->a, (size_t)ncap * sizeof *grown);
    if (!grown) return oom(f);
    if (f->n) memcpy(grown, f->parts, (size_t)f->n * sizeof *grown);
    f->parts = grown;
    f->cap = ncap;
  }
  f->parts[f->n++] = part;
  return true;
}

static bool push_text(fmt *f, const char *s, int64_t len) {
  if (len == 0) return true;
  if (f->n && !f->parts[f->n - 1].is_field) { /* after literal text: join the two */
    udf_strlit *t = &f->parts[f->n - 1].text;
    char *joined = udf_arena_alloc(f->a, (size_t)(t->len + len + 1));
    if (!joined) return oom(f);
    memcpy(joined, t->data, (size_t)t->len);
    memcpy(joined + t->len, s, (size_t)len);
    t->data = joined;
    t->len += len;
    return true;
  }
  udf_fpart part;
  memset(&part, 0, sizeof part);
  part.text.data = udf_arena_strndup(f->a, s, (size_t)len);
  if (!part.text.data) return oom(f);
  part.text.len = len;
  return push(f, part);
}

/* An argument whose evaluation can be repeated, moved or dropped without a visible change. */
static bool is_trivial(const udf_expr *e) {
  switch (e->kind) {
  case UDF_E_NAME: case UDF_E_STR: case UDF_E_INT: case UDF_E_FLOAT: case UDF_E_BOOL:
  case UDF_E_NONE: return true;
  default: return false;
  }
}

static udf_expr *copy_expr(fmt *f, udf_expr *e) {
  if (!is_trivial(e)) return e;
  udf_expr *c = udf_arena_alloc(f->a, sizeof *c);
  if (!c) return oom(f), NULL;
  *c = *e;
  return c;
}

static udf_fpart field_part(fmt *f, int arg, char conversion, const char *spec, int64_t speclen) {
  udf_fpart part;
  memset(&part, 0, sizeof part);
  part.is_field = true;
  part.expr = copy_expr(f, f->argv[arg]);
  part.conversion = conversion;
  if (part.expr && part.expr->kind == UDF_E_NONE) { /* None: its str() and repr() are 'None' */
    if (!conversion && speclen) {
      fail(f, NRT_ETYPE, "formatting raises TypeError: %s",
           "unsupported format string passed to NoneType.__format__");
      part.expr = NULL;
      return part;
    }
    part.expr->kind = UDF_E_STR;
    part.expr->u.str.data = "None";
    part.expr->u.str.len = 4;
    part.conversion = 0;
  }
  part.spec.data = udf_arena_strndup(f->a, spec, (size_t)speclen);
  part.spec.len = speclen;
  if (!part.spec.data) part.expr = NULL, oom(f);
  return part;
}

/* ------------------------------------------------------------------ str.format */

/* The argument a field name denotes, or -1 with the error set. */
static int resolve_name(fmt *f, const char *name, int64_t len) {
  char shown[128]; /* the name for messages (cut: the message has a bounded size anyway) */
  snprintf(shown, sizeof shown, "%.*s", (int)(len < 120 ? len : 120), name);
  for (int64_t i = 0; i < len; i++)
    if (name[i] == '.' || name[i] == '[')
      return fail(f, NRT_EUNSUPPORTED,
                  "unsupported: attribute or index lookup in a str.format field ('%s')",
                  shown),
             -1;
  if (len == 0) {
    if (f->numbering == 2)
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "cannot switch from manual field specification to automatic field numbering"),
             -1;
    f->numbering = 1;
    int k = f->next_auto++;
    if (k >= f->npos) {
      char msg[96];
      snprintf(msg, sizeof msg, "Replacement index %d out of range for positional args tuple", k);
      return fail(f, NRT_EINDEX, "str.format raises IndexError: %s", msg), -1;
    }
    return k;
  }
  bool digits = true;
  for (int64_t i = 0; i < len; i++)
    if (name[i] < '0' || name[i] > '9') digits = false;
  if (digits) {
    if (f->numbering == 1)
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "cannot switch from automatic field numbering to manual field specification"),
             -1;
    f->numbering = 2;
    int64_t k = 0;
    for (int64_t i = 0; i < len && k <= INT32_MAX; i++) k = k * 10 + (name[i] - '0');
    if (k > INT32_MAX)
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "Too many decimal digits in format string"),
             -1;
    if (k >= f->npos) {
      char msg[96];
      snprintf(msg, sizeof msg, "Replacement index %" PRId64 " out of range for positional args tuple",
               k);
      return fail(f, NRT_EINDEX, "str.format raises IndexError: %s", msg), -1;
    }
    return (int)k;
  }
  for (int i = f->npos; i < f->nargs; i++)
    if ((int64_t)strlen(f->names[i]) == len && memcmp(f->names[i], name, (size_t)len) == 0)
      return i;
  return fail(f, NRT_EINDEX, "str.format raises KeyError: '%s'", shown),
         -1;
}

/* Splits a field's text into name, conversion and spec (CPython's parse_field). */
static bool split_field(fmt *f, const char *s, int64_t n, int64_t *namelen, char *conv,
                        int64_t *specat) {
  int64_t k = 0;
  while (k < n && s[k] != ':' && s[k] != '!') {
    if (s[k] == '{')
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "unexpected '{' in field name");
    if (s[k] == '[')
      while (k < n && s[k] != ']') k++;
    if (k < n) k++;
  }
  *namelen = k;
  *conv = 0;
  if (k < n && s[k] == '!') {
    if (k + 1 >= n)
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "end of string while looking for conversion specifier");
    *conv = s[k + 1];
    k += 2;
    if (k < n && s[k] != ':')
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "expected ':' after conversion specifier");
  }
  *specat = k < n ? k + 1 : n;
  return true;
}

static bool format_text(fmt *f, const char *s, int64_t len, int depth, char *out, int64_t *outlen,
                        int64_t outcap);
static bool push_ref(fmt *f, int arg);

/* A nested spec ("{:{w}}"): its fields must denote literal arguments, whose text is put in. */
static bool expand_spec(fmt *f, const char *s, int64_t n, int depth, char **spec, int64_t *len) {
  if (!memchr(s, '{', (size_t)n)) {
    *spec = udf_arena_strndup(f->a, s, (size_t)n);
    *len = n;
    if (!*spec) return oom(f);
    return true;
  }
  if (depth >= 1) /* CPython expands a spec's fields two levels deep at most */
    return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                "Max string recursion exceeded");
  int64_t cap = n + 256;
  char *buf = udf_arena_alloc(f->a, (size_t)cap);
  if (!buf) return oom(f);
  *spec = buf;
  return format_text(f, s, n, depth + 1, buf, len, cap);
}

/* Parses the format text s[0..len): at depth 0 into parts, deeper (a nested spec) into out. */
static bool format_text(fmt *f, const char *s, int64_t len, int depth, char *out, int64_t *outlen,
                        int64_t outcap) {
  int64_t i = 0, lit = 0, o = 0;
#define TEXT(from, to)                                                                       \
  do {                                                                                       \
    if (depth == 0) {                                                                        \
      if (!push_text(f, s + (from), (to) - (from))) return false;                            \
    } else {                                                                                 \
      if (o + ((to) - (from)) > outcap)                                                      \
        return fail(f, NRT_EUNSUPPORTED, "unsupported: %s", "a nested format spec this long"); \
      memcpy(out + o, s + (from), (size_t)((to) - (from)));                                  \
      o += (to) - (from);                                                                    \
    }                                                                                        \
  } while (0)
  while (i < len) {
    char c = s[i];
    if (c != '{' && c != '}') {
      i++;
      continue;
    }
    if (i + 1 < len && s[i + 1] == c) { /* {{ or }} */
      TEXT(lit, i + 1);
      i += 2;
      lit = i;
      continue;
    }
    if (c == '}')
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "Single '}' encountered in format string");
    if (i + 1 == len)
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "Single '{' encountered in format string");
    TEXT(lit, i);
    int64_t j = i + 1, count = 1;
    for (; j < len; j++) {
      if (s[j] == '{') count++;
      else if (s[j] == '}' && --count == 0) break;
    }
    if (j >= len)
      return fail(f, NRT_EVALUE, "str.format raises ValueError: %s",
                  "expected '}' before end of string");
    const char *field = s + i + 1;
    int64_t n = j - i - 1, namelen, specat;
    char conv;
    if (!split_field(f, field, n, &namelen, &conv, &specat)) return false;
    int arg = resolve_name(f, field, namelen);
    if (arg < 0) return false;
    char *spec;
    int64_t speclen;
    if (!expand_spec(f, field + specat, n - specat, depth, &spec, &speclen)) return false;
    if (conv && conv != 'r' && conv != 's' && conv != 'a') {
      char cs[8];
      size_t k;
      nrt_utf8_decode(field + namelen + 1, (size_t)(n - namelen - 1), &k);
      snprintf(cs, sizeof cs, "%.*s", (int)k, field + namelen + 1);
      return fail(f, NRT_EVALUE, "str.format raises ValueError: Unknown conversion specifier %s",
                  cs);
    }
    if (depth == 0) {
      udf_fpart part = field_part(f, arg, conv, spec, speclen);
      if (!part.expr || !push(f, part)) return false;
      if (!push_ref(f, arg)) return false;
    } else { /* a nested field: a literal argument's str(), unconverted */
      const udf_expr *e = f->argv[arg];
      char num[32];
      const char *t = NULL;
      int64_t tl = 0;
      if (e->kind == UDF_E_INT) {
        tl = snprintf(num, sizeof num, "%" PRId64, e->u.ival);
        t = num;
      } else if (e->kind == UDF_E_STR) {
        t = e->u.str.data;
        tl = e->u.str.len;
      }
      if (!t || conv || speclen)
        return fail(f, NRT_EUNSUPPORTED, "unsupported: %s",
                    "a nested replacement field in a format spec whose argument is not an int "
                    "or str literal");
      if (o + tl > outcap)
        return fail(f, NRT_EUNSUPPORTED, "unsupported: %s", "a nested format spec this long");
      memcpy(out + o, t, (size_t)tl);
      o += tl;
    }
    i = j + 1;
    lit = i;
  }
  TEXT(lit, len);
#undef TEXT
  if (outlen) *outlen = o;
  return true;
}

static bool push_ref(fmt *f, int arg) {
  if (f->nrefs == f->caprefs) {
    int ncap = f->caprefs ? f->caprefs * 2 : 8;
    int *grown = udf_arena_alloc(f->a, (size_t)ncap * sizeof *grown);
    if (!grown) return oom(f);
    if (f->nrefs) memcpy(grown, f->refs, (size_t)f->nrefs * sizeof *grown);
    f->refs = grown;
    f->caprefs = ncap;
  }
  f->refs[f->nrefs++] = arg;
  return true;
}

/* True when the fields use each argument that is not trivial once, in the order of
 * evaluation: then the f-string's own order of evaluation is CPython's. */
static bool in_order(const fmt *f) {
  int want = 0;
  for (int r = 0; r < f->nrefs; r++) {
    int k = f->refs[r];
    if (is_trivial(f->argv[k])) continue;
    while (want < f->nargs && is_trivial(f->argv[want])) want++;
    if (k != want) return false;
    want++;
  }
  while (want < f->nargs && is_trivial(f->argv[want])) want++;
  return want == f->nargs;
}

static udf_expr *finish(fmt *f) {
  if (f->n > 256) /* the f-string's own limit (parse.c) */
    return udf_diag_error(f->dc, NRT_EUNSUPPORTED, f->loc,
                          "unsupported: a format string of more than 256 parts"),
           NULL;
  udf_expr *e = udf_arena_alloc(f->a, sizeof *e);
  if (!e) return oom(f), NULL;
  e->kind = UDF_E_FSTRING;
  e->loc = f->loc;
  e->u.fstring.parts = f->parts;
  e->u.fstring.nparts = f->n;
  return e;
}

/* Otherwise the arguments are passed to a hidden helper, `def <str.format>(arg0, arg1, ...):
 * return f'...'` over its parameters, so a call evaluates each once and in order. */
static udf_expr *through_helper(fmt *f, udf_module *m, udf_expr *call, const udf_expr *lit) {
  udf_func *fn = udf_arena_alloc(f->a, sizeof *fn);
  udf_var **params = udf_arena_alloc(f->a, (size_t)(f->nargs + 1) * sizeof *params);
  udf_expr **names = udf_arena_alloc(f->a, (size_t)(f->nargs + 1) * sizeof *names);
  udf_expr **args = udf_arena_alloc(f->a, (size_t)(f->nargs + 1) * sizeof *args);
  udf_func **funcs = udf_arena_alloc(f->a, (size_t)(m->nfuncs + 1) * sizeof *funcs);
  udf_stmt *ret = udf_arena_alloc(f->a, sizeof *ret);
  udf_stmt **body = udf_arena_alloc(f->a, sizeof *body);
  udf_expr *callee = udf_arena_alloc(f->a, sizeof *callee);
  char name[64];
  snprintf(name, sizeof name, "<str.format at %d:%d>", (int)f->loc.line, (int)f->loc.col);
  if (!fn || !params || !names || !args || !funcs || !ret || !body || !callee) return oom(f), NULL;
  fn->name = udf_arena_strndup(f->a, name, strlen(name));
  if (!fn->name) return oom(f), NULL;
  for (int k = 0; k < f->nargs; k++) {
    char pn[24];
    snprintf(pn, sizeof pn, "arg%d", k);
    params[k] = udf_arena_alloc(f->a, sizeof *params[k]);
    names[k] = udf_arena_alloc(f->a, sizeof *names[k]);
    if (!params[k] || !names[k]) return oom(f), NULL;
    params[k]->name = names[k]->u.name.id = udf_arena_strndup(f->a, pn, strlen(pn));
    if (!params[k]->name) return oom(f), NULL;
    params[k]->index = k;
    params[k]->is_param = true;
    params[k]->loc = f->argv[k]->loc;
    names[k]->kind = UDF_E_NAME;
    names[k]->loc = f->argv[k]->loc;
    args[k] = f->argv[k];
    if (is_trivial(args[k]) && args[k]->kind != UDF_E_NAME)
      names[k] = args[k]; /* a literal stays one (nested specs need its value) */
  }
  /* the same fields over the parameters (every one trivial now) */
  f->argv = names;
  if (lit) {
    f->n = f->nrefs = 0;
    f->numbering = f->next_auto = 0;
    if (!format_text(f, lit->u.str.data, lit->u.str.len, 0, NULL, NULL, 0)) return NULL;
  } else { /* %-formatting: its fields in order, refs[r] the argument of the r-th */
    for (int i = 0, r = 0; i < f->n; i++)
      if (f->parts[i].is_field && !(f->parts[i].expr = copy_expr(f, names[f->refs[r++]])))
        return NULL;
  }
  udf_expr *fs = finish(f);
  if (!fs) return NULL;
  fn->loc = f->loc;
  fn->params = params;
  fn->nparams = f->nargs;
  fn->locals = params;
  fn->nlocals = f->nargs;
  ret->kind = UDF_S_RETURN;
  ret->loc = f->loc;
  ret->u.ret.value = fs;
  body[0] = ret;
  fn->body.items = body;
  fn->body.n = 1;
  fn->index = m->nfuncs;
  if (m->nfuncs) memcpy(funcs, m->funcs, (size_t)m->nfuncs * sizeof *funcs);
  funcs[m->nfuncs] = fn;
  m->funcs = funcs;
  m->nfuncs++;
  callee->kind = UDF_E_NAME;
  callee->loc = call->loc;
  callee->u.name.id = fn->name;
  udf_expr *e = udf_arena_alloc(f->a, sizeof *e);
  if (!e) return oom(f), NULL;
  e->kind = UDF_E_CALL;
  e->loc = call->loc;
  e->u.call.func = callee;
  e->u.call.args = args;
  e->u.call.nargs = f->nargs;
  return e;
}

udf_expr *udf_format_call(udf_diagctx *dc, udf_arena *a, udf_module *m, udf_expr *call) {
  const udf_expr *lit = call->u.call.func->u.attribute.value;
  fmt f;
  memset(&f, 0, sizeof f);
  f.dc = dc;
  f.a = a;
  f.loc = lit->loc;
  f.npos = call->u.call.nargs;
  f.nargs = f.npos + call->u.call.nkeywords;
  f.argv = udf_arena_alloc(a, (size_t)(f.nargs + 1) * sizeof *f.argv);
  f.names = udf_arena_alloc(a, (size_t)(f.nargs + 1) * sizeof *f.names);
  if (!f.argv || !f.names) return oom(&f), NULL;
  for (int i = 0; i < f.npos; i++) f.argv[i] = call->u.call.args[i];
  for (int i = 0; i < call->u.call.nkeywords; i++) {
    f.argv[f.npos + i] = call->u.call.keywords[i].value;
    f.names[f.npos + i] = call->u.call.keywords[i].name;
  }
  if (!format_text(&f, lit->u.str.data, lit->u.str.len, 0, NULL, NULL, 0)) return NULL;
  if (!in_order(&f)) return through_helper(&f, m, call, lit);
  return finish(&f);
}

/* ------------------------------------------------------------------ %-formatting */

/* A literal int argument of a '*' width or precision (negative: a '-' sign). */
static bool star_value(fmt *f, const udf_expr *e, int64_t *v) {
  if (e->kind == UDF_E_INT) {
    *v = e->u.ival;
    return true;
  }
  if (e->kind == UDF_E_UNARY && e->u.unary.op == UDF_UOP_NEG &&
      e->u.unary.operand->kind == UDF_E_INT && e->u.unary.operand->u.ival > 0) {
    *v = -e->u.unary.operand->u.ival;
    return true;
  }
  if (e->kind == UDF_E_STR || e->kind == UDF_E_FLOAT || e->kind == UDF_E_NONE)
    return fail(f, NRT_ETYPE, "%%-formatting raises TypeError: %s", "* wants int");
  return fail(f, NRT_EUNSUPPORTED, "unsupported: %s",
              "a '*' width or precision in %-formatting whose argument is not an int literal");
}

static bool not_enough(fmt *f) {
  return fail(f, NRT_ETYPE, "%%-formatting raises TypeError: %s",
              "not enough arguments for format string");
}

/* %c of a literal: the character, put in as text. */
static bool char_literal(fmt *f, const udf_expr *e, bool left, int64_t width) {
  char buf[8];
  int64_t n = 0;
  if (e->kind == UDF_E_INT) {
    if (e->u.ival < 0 || e->u.ival > 0x10ffff)
      return fail(f, NRT_EOVERFLOW, "%%-formatting raises OverflowError: %s",
                  "%c arg not in range(0x110000)");
    if (e->u.ival >= 0xd800 && e->u.ival <= 0xdfff)
      return fail(f, NRT_EUNSUPPORTED, "unsupported: %s", "%c of a surrogate code point");
    n = (int64_t)nrt_utf8_encode((uint32_t)e->u.ival, buf);
  } else if (e->kind == UDF_E_STR && nrt_str_len(e->u.str.data, e->u.str.len) == 1) {
    n = e->u.str.len;
    memcpy(buf, e->u.str.data, (size_t)n);
  } else if (e->kind == UDF_E_STR || e->kind == UDF_E_FLOAT) {
    return fail(f, NRT_ETYPE, "%%-formatting raises TypeError: %s", "%c requires int or char");
  } else {
    return fail(f, NRT_EUNSUPPORTED, "unsupported: %s",
                "%c of a value that is not a literal (use chr() and %s)");
  }
  int64_t pad = width > 1 ? width - 1 : 0; /* width <= 2**20 (checked by the caller) */
  char *text = udf_arena_alloc(f->a, (size_t)(pad + n));
  if (!text) return oom(f);
  memset(text, ' ', (size_t)pad);
  memcpy(left ? text : text + pad, buf, (size_t)n);
  if (left) memset(text + n, ' ', (size_t)pad);
  return push_text(f, text, pad + n);
}

/* The argument of %(key) (key[0..len)), or -1 with the error set. */
static int key_arg(fmt *f, const char *key, int64_t len) {
  if (f->mapping == 1) {
    const udf_expr *d = f->map;
    for (int i = d->u.dict.n - 1; i >= 0; i--) {
      const udf_expr *k = d->u.dict.keys[i];
      if (k->u.str.len == len && memcmp(k->u.str.data, key, (size_t)len) == 0) return i;
    }
    char shown[128];
    snprintf(shown, sizeof shown, "%.*s", (int)(len < 120 ? len : 120), key);
    return fail(f, NRT_EKEY, "%%-formatting raises KeyError: '%s'", shown), -1;
  }
  if (f->nargs == f->capargs) {
    int ncap = f->capargs ? f->capargs * 2 : 8;
    udf_expr **grown = udf_arena_alloc(f->a, (size_t)ncap * sizeof *grown);
    if (!grown) return oom(f), -1;
    if (f->nargs) memcpy(grown, f->argv, (size_t)f->nargs * sizeof *grown);
    f->argv = grown;
    f->capargs = ncap;
  }
  udf_expr *var = udf_arena_alloc(f->a, sizeof *var), *k = udf_arena_alloc(f->a, sizeof *k);
  udf_expr *sub = udf_arena_alloc(f->a, sizeof *sub);
  char *text = udf_arena_strndup(f->a, key, (size_t)len);
  if (!var || !k || !sub || !text) return oom(f), -1;
  *var = *f->map;
  memset(k, 0, sizeof *k);
  k->kind = UDF_E_STR;
  k->loc = f->loc;
  k->u.str.data = text;
  k->u.str.len = len;
  memset(sub, 0, sizeof *sub);
  sub->kind = UDF_E_SUBSCRIPT;
  sub->loc = f->map->loc;
  sub->u.subscript.value = var;
  sub->u.subscript.index = k;
  f->argv[f->nargs] = sub;
  return f->nargs++;
}

bool udf_format_percent_has_keys(const udf_expr *fmte) {
  const char *s = fmte->u.str.data;
  for (int64_t i = 0, len = fmte->u.str.len; i + 1 < len; i++)
    if (s[i] == '%') {
      int64_t j = i + 1;
      if (s[j] == '(') return true;
      if (s[j] == '%') i = j;
    }
  return false;
}

static udf_expr *percent(fmt *f, udf_module *mod, udf_expr *fmte, udf_expr *right);

udf_expr *udf_format_percent_keys(udf_diagctx *dc, udf_arena *a, udf_module *m, udf_expr *fmte,
                                  udf_expr *right, bool is_var) {
  fmt f;
  memset(&f, 0, sizeof f);
  f.dc = dc;
  f.a = a;
  f.loc = fmte->loc;
  f.map = right;
  f.mapping = is_var ? 2 : 1;
  if (!is_var) {
    for (int i = 0; i < right->u.dict.n; i++)
      if (!right->u.dict.keys[i] || right->u.dict.keys[i]->kind != UDF_E_STR)
        return udf_diag_error(dc, NRT_EUNSUPPORTED, right->loc,
                              "unsupported: %%(name) formatting with a dict display whose keys "
                              "are not all str literals"),
               NULL;
    f.argv = right->u.dict.values;
    f.nargs = right->u.dict.n;
  }
  return percent(&f, m, fmte, right);
}

udf_expr *udf_format_percent(udf_diagctx *dc, udf_arena *a, udf_expr *fmte, udf_expr *right) {
  fmt f;
  memset(&f, 0, sizeof f);
  f.dc = dc;
  f.a = a;
  f.loc = fmte->loc;
  return percent(&f, NULL, fmte, right);
}

static udf_expr *percent(fmt *fp, udf_module *mod, udf_expr *fmte, udf_expr *right) {
  fmt f = *fp;
  if (f.mapping) {
  } else if (right->kind == UDF_E_TUPLE) {
    f.argv = right->u.seq.items;
    f.nargs = right->u.seq.n;
  } else {
    f.argv = &right;
    f.nargs = 1;
  }
  const char *s = fmte->u.str.data;
  int64_t len = fmte->u.str.len, i = 0, lit = 0;
  int argi = 0;
  while (i < len) {
    if (s[i] != '%') {
      i++;
      continue;
    }
    if (!push_text(&f, s + lit, i - lit)) return NULL;
    int64_t pct = i, j = i + 1;
    const char *key = NULL;
    int64_t keylen = 0;
    if (j < len && s[j] == '(') {
      if (!f.mapping)
        return fail(&f, NRT_ETYPE, "%%-formatting raises TypeError: %s",
                    "format requires a mapping"),
               NULL;
      int depth = 1;
      key = s + ++j;
      for (; j < len && depth; j++) depth += s[j] == '(' ? 1 : s[j] == ')' ? -1 : 0;
      if (depth)
        return fail(&f, NRT_EVALUE, "%%-formatting raises ValueError: %s",
                    "incomplete format key"),
               NULL;
      keylen = s + j - 1 - key;
    }
    bool left = false, plus = false, space = false, alt = false, zero = false;
    for (; j < len && strchr("-+ #0", s[j]); j++) {
      left |= s[j] == '-';
      plus |= s[j] == '+';
      space |= s[j] == ' ';
      alt |= s[j] == '#';
      zero |= s[j] == '0';
    }
    int64_t width = -1, prec = -1;
    if (j < len && s[j] == '*') {
      if (f.mapping || argi >= f.nargs) return not_enough(&f), NULL;
      if (!star_value(&f, f.argv[argi++], &width)) return NULL;
      if (width < 0) {
        left = true;
        width = -width;
      }
      j++;
    } else {
      for (; j < len && s[j] >= '0' && s[j] <= '9'; j++) /* saturates past the limit below */
        width = width > 1 << 21 ? width : (width < 0 ? 0 : width) * 10 + (s[j] - '0');
    }
    if (j < len && s[j] == '.') {
      j++;
      prec = 0;
      if (j < len && s[j] == '*') {
        if (f.mapping || argi >= f.nargs) return not_enough(&f), NULL;
        if (!star_value(&f, f.argv[argi++], &prec)) return NULL;
        if (prec < 0) prec = 0;
        j++;
      } else {
        for (; j < len && s[j] >= '0' && s[j] <= '9'; j++)
          prec = prec > 1 << 21 ? prec : prec * 10 + (s[j] - '0');
      }
    }
    if (width > 1 << 20 || prec > 1 << 20)
      return fail(&f, NRT_EUNSUPPORTED, "unsupported: %s",
                  "a %-formatting width or precision this large"),
             NULL;
    while (j < len && (s[j] == 'h' || s[j] == 'l' || s[j] == 'L')) j++;
    if (j >= len)
      return fail(&f, NRT_EVALUE, "%%-formatting raises ValueError: %s", "incomplete format"),
             NULL;
    char type = s[j];
    i = j + 1;
    lit = i;
    if (type == '%' && j == pct + 1) { /* "%%" (anything between makes '%' a bad conversion) */
      if (!push_text(&f, "%", 1)) return NULL;
      continue;
    }
    if (f.mapping && !key)
      return fail(&f, NRT_EUNSUPPORTED, "unsupported: %s",
                  "a conversion without a (key) when the argument is a mapping (CPython "
                  "would format the whole dict)"),
             NULL;
    if (!key && argi >= f.nargs) return not_enough(&f), NULL; /* CPython takes it first */
    if (!strchr("sradiuoxXeEfFgGc", type) || type == 0) {
      size_t k;
      uint32_t cp = nrt_utf8_decode(s + j, (size_t)(len - j), &k);
      char msg[128];
      /* CPython shows a character outside printable ASCII as '?' */
      snprintf(msg, sizeof msg, "unsupported format character '%c' (0x%x) at index %" PRId64,
               cp >= 32 && cp <= 126 ? (char)cp : '?', cp, nrt_str_len(s, j));
      return fail(&f, NRT_EVALUE, "%%-formatting raises ValueError: %s", msg), NULL;
    }
    int arg = key ? key_arg(&f, key, keylen) : argi++;
    if (arg < 0) return NULL;
    if (type == 'c') {
      if (!char_literal(&f, f.argv[arg], left, width)) return NULL;
      continue;
    }
    char spec[64];
    int m = 0;
    char conv = 0;
    if (strchr("sra", type)) {
      conv = type;
      if (width >= 0) spec[m++] = left ? '<' : '>';
      if (width >= 0) m += snprintf(spec + m, sizeof spec - (size_t)m, "%" PRId64, width);
      if (prec >= 0) m += snprintf(spec + m, sizeof spec - (size_t)m, ".%" PRId64, prec);
    } else {
      bool is_int = strchr("diuoxX", type) != NULL;
      if (is_int && prec >= 0)
        return fail(&f, NRT_EUNSUPPORTED, "unsupported: %s",
                    "a precision with an integer conversion in %-formatting"),
               NULL;
      if (left && width >= 0) spec[m++] = '<';
      if (plus) spec[m++] = '+';
      else if (space) spec[m++] = ' ';
      if (alt && type != 'd' && type != 'i' && type != 'u') spec[m++] = '#';
      if (zero && !left && width >= 0) spec[m++] = '0';
      if (width >= 0) m += snprintf(spec + m, sizeof spec - (size_t)m, "%" PRId64, width);
      if (prec >= 0) m += snprintf(spec + m, sizeof spec - (size_t)m, ".%" PRId64, prec);
      spec[m++] = type == 'i' || type == 'u' ? 'd' : type;
    }
    if (!conv && f.argv[arg]->kind == UDF_E_NONE) {
      char msg[96];
      if (strchr("diu", type))
        snprintf(msg, sizeof msg, "%%%c format: a real number is required, not NoneType", type);
      else if (strchr("oxX", type))
        snprintf(msg, sizeof msg, "%%%c format: an integer is required, not NoneType", type);
      else
        snprintf(msg, sizeof msg, "must be real number, not NoneType");
      return fail(&f, NRT_ETYPE, "%%-formatting raises TypeError: %s", msg), NULL;
    }
    udf_fpart part = field_part(&f, arg, conv, spec, m);
    if (!part.expr) return NULL;
    part.percent = type == 'i' || type == 'u' ? 'd' : type;
    part.percent_single = !f.mapping && right->kind != UDF_E_TUPLE;
    if (!push(&f, part) || !push_ref(&f, arg)) return NULL;
  }
  if (!push_text(&f, s + lit, len - lit)) return NULL;
  if (f.mapping == 1 && !in_order(&f)) return through_helper(&f, mod, right, NULL);
  if (!f.mapping && argi < f.nargs)
    return fail(&f, NRT_ETYPE, "%%-formatting raises TypeError: %s",
                "not all arguments converted during string formatting"),
           NULL;
  return finish(&f);
}

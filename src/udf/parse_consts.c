/* Module-level constants and default values (parse_consts.h): folded with Python's rules for
 * the operators of literals (int64 ints: a result beyond it is refused, as the runtime would
 * raise OverflowError). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "udf/parse_consts.h"

typedef struct fold {
  udf_diagctx *dc;
  udf_arena *a;
  const udf_module *m;
  const char *what; /* "module-level constant 'N'" or "default value of 'n'" */
} fold;

static udf_expr *fail(fold *f, udf_loc loc, const char *why) {
  udf_diag_error(f->dc, NRT_EUNSUPPORTED, loc, "unsupported: %s %s", f->what, why);
  return NULL;
}

static udf_expr *oom(fold *f) {
  udf_diag_error(f->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  return NULL;
}

static udf_expr *lit(fold *f, udf_expr_kind k, udf_loc loc) {
  udf_expr *e = udf_arena_alloc(f->a, sizeof *e);
  if (!e) return oom(f);
  memset(e, 0, sizeof *e);
  e->kind = k;
  e->loc = loc;
  return e;
}

udf_expr *udf_const_copy(udf_arena *a, const udf_expr *value, udf_loc loc) {
  udf_expr *e = udf_arena_alloc(a, sizeof *e);
  if (!e) return NULL;
  *e = *value;
  e->loc = loc;
  e->type = UDF_TY_UNKNOWN;
  if (value->kind == UDF_E_TUPLE) {
    int n = value->u.seq.n;
    e->u.seq.items = udf_arena_alloc(a, (size_t)(n ? n : 1) * sizeof *e->u.seq.items);
    if (!e->u.seq.items) return NULL;
    for (int i = 0; i < n; i++)
      if (!(e->u.seq.items[i] = udf_const_copy(a, value->u.seq.items[i], loc))) return NULL;
  }
  return e;
}

const udf_const *udf_const_find(const udf_module *m, const char *name) {
  for (int i = m->nliteral_consts - 1; i >= 0; i--)
    if (strcmp(m->literal_consts[i].name, name) == 0) return &m->literal_consts[i];
  return NULL;
}

static bool is_num(const udf_expr *e) {
  return e->kind == UDF_E_INT || e->kind == UDF_E_FLOAT || e->kind == UDF_E_BOOL;
}
static bool is_int(const udf_expr *e) { return e->kind == UDF_E_INT || e->kind == UDF_E_BOOL; }
static int64_t ival(const udf_expr *e) { return e->kind == UDF_E_BOOL ? e->u.bval : e->u.ival; }
static double fval(const udf_expr *e) {
  return e->kind == UDF_E_FLOAT ? e->u.fval : (double)ival(e);
}

static udf_expr *make_int(fold *f, udf_loc loc, int64_t v) {
  udf_expr *e = lit(f, UDF_E_INT, loc);
  if (e) e->u.ival = v;
  return e;
}
static udf_expr *make_float(fold *f, udf_loc loc, double v) {
  udf_expr *e = lit(f, UDF_E_FLOAT, loc);
  if (e) e->u.fval = v;
  return e;
}

static udf_expr *concat(fold *f, udf_loc loc, const udf_expr *l, const udf_expr *r,
                        int64_t times) {
  int64_t n = l->u.str.len + (r ? r->u.str.len : 0);
  if (times < 0) times = 0;
  if (n && times > (int64_t)(1 << 20) / n) return fail(f, loc, "of more than 1 MiB");
  char *buf = udf_arena_alloc(f->a, (size_t)(n * times) + 1);
  if (!buf) return oom(f);
  int64_t k = 0;
  for (int64_t t = 0; t < times; t++) {
    memcpy(buf + k, l->u.str.data, (size_t)l->u.str.len);
    k += l->u.str.len;
    if (r) memcpy(buf + k, r->u.str.data, (size_t)r->u.str.len);
    if (r) k += r->u.str.len;
  }
  buf[k] = 0;
  udf_expr *e = lit(f, UDF_E_STR, loc);
  if (e) {
    e->u.str.data = buf;
    e->u.str.len = k;
  }
  return e;
}

static udf_expr *fold_expr(fold *f, const udf_expr *e);

/* re flags are combined with `|`, which constants otherwise refuse. */
static udf_expr *fold_flags_or_expr(fold *f, const udf_expr *e) {
  if (e->kind != UDF_E_BINARY || e->u.binary.op != UDF_OP_BITOR) return fold_expr(f, e);
  udf_expr *l = fold_flags_or_expr(f, e->u.binary.left);
  if (!l) return NULL;
  udf_expr *r = fold_flags_or_expr(f, e->u.binary.right);
  if (!r) return NULL;
  if (!is_int(l) || !is_int(r)) return fail(f, e->loc, "with a bitwise operator");
  return make_int(f, e->loc, ival(l) | ival(r));
}

/* Python's float floor division and modulo. */
static void float_divmod(double x, double y, double *div, double *mod) {
  double m = fmod(x, y), d = (x - m) / y;
  if (m != 0.0) {
    if ((y < 0) != (m < 0)) {
      m += y;
      d -= 1.0;
    }
  } else {
    m = copysign(0.0, y);
  }
  if (d != 0.0) {
    double fl = floor(d);
    if (d - fl > 0.5) fl += 1.0;
    d = fl;
  } else {
    d = copysign(0.0, x / y);
  }
  *div = d;
  *mod = m;
}

static udf_expr *fold_int_binary(fold *f, udf_loc loc, udf_binop op, int64_t x, int64_t y) {
  int64_t r = 0;
  bool ovf = false;
  switch (op) {
  case UDF_OP_ADD: ovf = __builtin_add_overflow(x, y, &r); break;
  case UDF_OP_SUB: ovf = __builtin_sub_overflow(x, y, &r); break;
  case UDF_OP_MUL: ovf = __builtin_mul_overflow(x, y, &r); break;
  case UDF_OP_FLOORDIV:
  case UDF_OP_MOD:
    if (y == 0) return fail(f, loc, "that divides by zero");
    if (x == INT64_MIN && y == -1) {
      ovf = op == UDF_OP_FLOORDIV;
      break;
    }
    r = op == UDF_OP_FLOORDIV ? x / y : x % y;
    if ((x % y != 0) && ((x < 0) != (y < 0))) r = op == UDF_OP_FLOORDIV ? r - 1 : r + y;
    break;
  case UDF_OP_DIV:
    if (y == 0) return fail(f, loc, "that divides by zero");
    return make_float(f, loc, (double)x / (double)y);
  case UDF_OP_POW:
    if (y < 0) return make_float(f, loc, pow((double)x, (double)y));
    r = 1;
    for (int64_t i = 0; i < y && !ovf; i++) {
      ovf = __builtin_mul_overflow(r, x, &r);
      if (r == 0 || r == 1) break;
      if (r == -1 && i + 1 < y) { /* (-1) ** y */
        r = ((y - i - 1) % 2) ? 1 : -1;
        break;
      }
    }
    break;
  default: return fail(f, loc, "with a bitwise operator");
  }
  if (ovf) return fail(f, loc, "beyond the int64 range");
  return make_int(f, loc, r);
}

static udf_expr *fold_binary(fold *f, const udf_expr *e) {
  udf_expr *l = fold_expr(f, e->u.binary.left);
  if (!l) return NULL;
  udf_expr *r = fold_expr(f, e->u.binary.right);
  if (!r) return NULL;
  udf_binop op = e->u.binary.op;
  if (l->kind == UDF_E_STR && r->kind == UDF_E_STR && op == UDF_OP_ADD)
    return concat(f, e->loc, l, r, 1);
  if (op == UDF_OP_MUL && l->kind == UDF_E_STR && is_int(r))
    return concat(f, e->loc, l, NULL, ival(r));
  if (op == UDF_OP_MUL && r->kind == UDF_E_STR && is_int(l))
    return concat(f, e->loc, r, NULL, ival(l));
  if (!is_num(l) || !is_num(r))
    return fail(f, e->loc, "that is not an expression of numbers or strings");
  if (is_int(l) && is_int(r)) return fold_int_binary(f, e->loc, op, ival(l), ival(r));
  double x = fval(l), y = fval(r), d, m;
  switch (op) {
  case UDF_OP_ADD: return make_float(f, e->loc, x + y);
  case UDF_OP_SUB: return make_float(f, e->loc, x - y);
  case UDF_OP_MUL: return make_float(f, e->loc, x * y);
  case UDF_OP_DIV:
    if (y == 0) return fail(f, e->loc, "that divides by zero");
    return make_float(f, e->loc, x / y);
  case UDF_OP_FLOORDIV:
  case UDF_OP_MOD:
    if (y == 0) return fail(f, e->loc, "that divides by zero");
    float_divmod(x, y, &d, &m);
    return make_float(f, e->loc, op == UDF_OP_FLOORDIV ? d : m);
  case UDF_OP_POW:
    if (x < 0 && y != floor(y)) return fail(f, e->loc, "that is a complex number");
    if (x == 0 && y < 0) return fail(f, e->loc, "that divides by zero");
    return make_float(f, e->loc, pow(x, y));
  default: return fail(f, e->loc, "with a bitwise operator");
  }
}

/* re.compile(...) with its arguments folded (their meaning is checked where it is used). */
static udf_expr *fold_re_compile(fold *f, const udf_expr *e) {
  udf_expr *c = lit(f, UDF_E_CALL, e->loc);
  if (!c) return NULL;
  c->u.call = e->u.call;
  int n = e->u.call.nargs, nk = e->u.call.nkeywords;
  c->u.call.args = udf_arena_alloc(f->a, (size_t)(n ? n : 1) * sizeof *c->u.call.args);
  c->u.call.keywords = udf_arena_alloc(f->a, (size_t)(nk ? nk : 1) * sizeof *c->u.call.keywords);
  if (!c->u.call.args || !c->u.call.keywords) return oom(f);
  for (int i = 0; i < n; i++)
    if (!(c->u.call.args[i] = fold_flags_or_expr(f, e->u.call.args[i]))) return NULL;
  for (int i = 0; i < nk; i++) {
    c->u.call.keywords[i] = e->u.call.keywords[i];
    if (!(c->u.call.keywords[i].value = fold_flags_or_expr(f, e->u.call.keywords[i].value)))
      return NULL;
  }
  return c;
}

static udf_expr *fold_expr(fold *f, const udf_expr *e) {
  switch (e->kind) {
  case UDF_E_NONE: case UDF_E_BOOL: case UDF_E_INT: case UDF_E_FLOAT: case UDF_E_STR:
  {
    udf_expr *c = udf_const_copy(f->a, e, e->loc);
    return c ? c : oom(f);
  }
  case UDF_E_NAME: {
    const udf_const *k = udf_const_find(f->m, e->u.name.id);
    if (!k) return fail(f, e->loc, "that names something other than a constant");
    udf_expr *c = udf_const_copy(f->a, k->value, e->loc);
    return c ? c : oom(f);
  }
  case UDF_E_UNARY: {
    udf_expr *o = fold_expr(f, e->u.unary.operand);
    if (!o) return NULL;
    if (e->u.unary.op == UDF_UOP_NOT) {
      if (o->kind == UDF_E_TUPLE) return fail(f, e->loc, "that applies 'not' to a tuple");
      udf_expr *b = lit(f, UDF_E_BOOL, e->loc);
      if (!b) return NULL;
      b->u.bval = o->kind == UDF_E_NONE  ? true
                  : o->kind == UDF_E_STR ? o->u.str.len == 0
                  : is_int(o)            ? ival(o) == 0
                                         : o->u.fval == 0.0;
      return b;
    }
    if (!is_num(o) || e->u.unary.op == UDF_UOP_INVERT)
      return fail(f, e->loc, "that is not an expression of numbers or strings");
    if (o->kind == UDF_E_FLOAT)
      return make_float(f, e->loc, e->u.unary.op == UDF_UOP_NEG ? -o->u.fval : o->u.fval);
    if (e->u.unary.op == UDF_UOP_POS) return make_int(f, e->loc, ival(o));
    if (ival(o) == INT64_MIN) return fail(f, e->loc, "beyond the int64 range");
    return make_int(f, e->loc, -ival(o));
  }
  case UDF_E_BINARY: return fold_binary(f, e);
  case UDF_E_TUPLE: {
    udf_expr *t = lit(f, UDF_E_TUPLE, e->loc);
    if (!t) return NULL;
    int n = e->u.seq.n;
    t->u.seq.n = n;
    t->u.seq.items = udf_arena_alloc(f->a, (size_t)(n ? n : 1) * sizeof *t->u.seq.items);
    if (!t->u.seq.items) return oom(f);
    for (int i = 0; i < n; i++) {
      if (e->u.seq.items[i]->kind == UDF_E_TUPLE)
        return fail(f, e->u.seq.items[i]->loc, "that nests tuples");
      if (!(t->u.seq.items[i] = fold_expr(f, e->u.seq.items[i]))) return NULL;
    }
    return t;
  }
  case UDF_E_CALL: /* re.compile(<constants>): a pattern object (types_re_pattern.h) */
    if (e->u.call.func->kind == UDF_E_NAME && strcmp(e->u.call.func->u.name.id, "re.compile") == 0)
      return fold_re_compile(f, e);
    return fail(f, e->loc, "that is not a literal, a tuple of literals or an expression of them");
  case UDF_E_LIST:
  case UDF_E_LISTCOMP:
    return fail(f, e->loc, "that is a list (mutable; write a tuple)");
  default:
    return fail(f, e->loc, "that is not a literal, a tuple of literals or an expression of them");
  }
}

int udf_const_assign(udf_diagctx *dc, udf_arena *a, udf_module *m, const udf_stmt *s) {
  if (s->kind == UDF_S_AUGASSIGN && s->u.augassign.target->kind == UDF_E_NAME) {
    udf_stmt as = *s;
    as.kind = UDF_S_ASSIGN;
    udf_expr bin;
    memset(&bin, 0, sizeof bin);
    bin.kind = UDF_E_BINARY;
    bin.loc = s->loc;
    bin.u.binary.op = s->u.augassign.op;
    bin.u.binary.left = s->u.augassign.target;
    bin.u.binary.right = s->u.augassign.value;
    udf_expr *t = s->u.augassign.target;
    as.u.assign.targets = &t;
    as.u.assign.ntargets = 1;
    as.u.assign.value = &bin;
    return udf_const_assign(dc, a, m, &as);
  }
  if (s->kind != UDF_S_ASSIGN) return 0;
  for (int i = 0; i < s->u.assign.ntargets; i++)
    if (s->u.assign.targets[i]->kind != UDF_E_NAME) return 0;
  char what[300];
  snprintf(what, sizeof what, "module-level constant '%s'", s->u.assign.targets[0]->u.name.id);
  fold f = {dc, a, m, what};
  udf_expr *v = fold_expr(&f, s->u.assign.value);
  if (!v) return -1;
  for (int i = 0; i < s->u.assign.ntargets; i++) {
    udf_const k = {s->u.assign.targets[i]->u.name.id, v, s->u.assign.targets[i]->loc};
    udf_const *grown = udf_arena_alloc(a, (size_t)(m->nliteral_consts + 1) * sizeof *grown);
    if (!grown) return oom(&f), -1;
    if (m->nliteral_consts) memcpy(grown, m->literal_consts, (size_t)m->nliteral_consts * sizeof *grown);
    grown[m->nliteral_consts] = k;
    m->literal_consts = grown;
    m->nliteral_consts++;
  }
  return 1;
}

bool udf_const_defaults(udf_diagctx *dc, udf_arena *a, const udf_module *m, udf_func *fn) {
  for (int i = 0; i < fn->nparams; i++) {
    if (!fn->defaults || !fn->defaults[i]) continue;
    char what[300];
    snprintf(what, sizeof what, "default value of '%s'", fn->params[i]->name);
    fold f = {dc, a, m, what};
    udf_expr *v = fold_expr(&f, fn->defaults[i]);
    if (!v) return false;
    fn->defaults[i] = v;
  }
  return true;
}

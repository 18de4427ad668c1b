#define _POSIX_C_SOURCE 200809L
/* Parser tests: the untyped AST of many programs, printed in the format of Python's
 * ast.dump(), must equal what CPython's own parser gives (the `python3` on the machine, run
 * once over the whole corpus); a few precedence cases are also checked against fixed dumps so
 * the test means something without Python. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nrt/unicode.h"
#include "support/check.h"
#include "udf/ast_arena.h"
#include "udf/parse.h"

/* ---- a growable text buffer (plain malloc: test-side only) ---- */
typedef struct sb {
  char *s;
  size_t n, cap;
} sb;

static void sb_putn(sb *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->s = realloc(b->s, b->cap);
    if (!b->s) abort();
  }
  memcpy(b->s + b->n, s, n);
  b->n += n;
  b->s[b->n] = '\0';
}
static void sb_put(sb *b, const char *s) { sb_putn(b, s, strlen(s)); }
static void sb_printf(sb *b, const char *fmt, ...) NRT_PRINTF(2, 3);
static void sb_printf(sb *b, const char *fmt, ...) {
  char tmp[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(tmp, sizeof tmp, fmt, ap);
  va_end(ap);
  sb_put(b, tmp);
}

/* Python's repr() of a str. */
static void py_repr_str(sb *b, const char *s, int64_t len) {
  bool has_sq = memchr(s, '\'', (size_t)len) != NULL, has_dq = memchr(s, '"', (size_t)len) != NULL;
  char q = (has_sq && !has_dq) ? '"' : '\'';
  sb_putn(b, &q, 1);
  for (int64_t i = 0; i < len;) {
    size_t n;
    uint32_t c = nrt_utf8_decode(s + i, (size_t)(len - i), &n);
    if (c == '\\') sb_put(b, "\\\\");
    else if (c == (uint32_t)q) sb_printf(b, "\\%c", q);
    else if (c == '\n') sb_put(b, "\\n");
    else if (c == '\r') sb_put(b, "\\r");
    else if (c == '\t') sb_put(b, "\\t");
    else if (c < 0x20 || c == 0x7f) sb_printf(b, "\\x%02x", c);
    else if (c < 0x80 || nrt_uc_is_printable(c)) sb_putn(b, s + i, n);
    else if (c < 0x100) sb_printf(b, "\\x%02x", c);
    else if (c < 0x10000) sb_printf(b, "\\u%04x", c);
    else sb_printf(b, "\\U%08x", c);
    i += (int64_t)n;
  }
  sb_putn(b, &q, 1);
}

/* Python's repr() of a float (shortest round trip, Python's choice of notation). */
static void py_repr_float(sb *b, double v) {
  char buf[64];
  int p;
  for (p = 1; p <= 17; p++) {
    snprintf(buf, sizeof buf, "%.*e", p - 1, v);
    if (strtod(buf, NULL) == v) break;
  }
  char digits[32];
  int nd = 0;
  const char *q = buf;
  bool neg = *q == '-';
  if (neg) q++;
  for (; *q && *q != 'e'; q++)
    if (*q >= '0' && *q <= '9') digits[nd++] = *q;
  digits[nd] = '\0';
  int exp = atoi(q + 1);
  if (neg) sb_put(b, "-");
  if (exp >= -4 && exp < 16) {
    if (exp >= nd - 1) {
      sb_put(b, digits);
      for (int i = 0; i < exp - (nd - 1); i++) sb_put(b, "0");
      sb_put(b, ".0");
    } else if (exp >= 0) {
      sb_putn(b, digits, (size_t)exp + 1);
      sb_put(b, ".");
      sb_put(b, digits + exp + 1);
    } else {
      sb_put(b, "0.");
      for (int i = 0; i < -exp - 1; i++) sb_put(b, "0");
      sb_put(b, digits);
    }
  } else {
    sb_putn(b, digits, 1);
    if (nd > 1) {
      sb_put(b, ".");
      sb_put(b, digits + 1);
    }
    sb_printf(b, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
  }
}

static void dump_expr(sb *b, const udf_expr *e, const char *ctx);

static void dump_list(sb *b, udf_expr *const *items, int n, const char *ctx) {
  sb_put(b, "[");
  for (int i = 0; i < n; i++) {
    if (i) sb_put(b, ", ");
    dump_expr(b, items[i], ctx);
  }
  sb_put(b, "]");
}

static const char *binop_name(udf_binop op) {
  static const char *const n[] = {"Add", "Sub", "Mult", "Div", "FloorDiv", "Mod", "Pow",
                                  "MatMult", "BitOr", "BitXor", "BitAnd", "LShift", "RShift"};
  return n[op];
}
static const char *cmpop_name(udf_cmpop op) {
  static const char *const n[] = {"Eq", "NotEq", "Lt", "LtE", "Gt", "GtE", "In", "NotIn",
                                  "Is", "IsNot"};
  return n[op];
}

static void dump_const_str(sb *b, udf_strlit s) {
  sb_put(b, "Constant(value=");
  py_repr_str(b, s.data, s.len);
  sb_put(b, ")");
}

static void dump_comp(sb *b, const udf_expr *e) {
  sb_put(b, e->kind == UDF_E_LISTCOMP   ? "ListComp(elt="
            : e->kind == UDF_E_DICTCOMP ? "DictComp(key="
            : e->kind == UDF_E_SETCOMP  ? "SetComp(elt="
                                        : "GeneratorExp(elt=");
  dump_expr(b, e->u.comp.elt, "Load");
  if (e->u.comp.value) {
    sb_put(b, ", value=");
    dump_expr(b, e->u.comp.value, "Load");
  }
  sb_put(b, ", generators=[");
  for (int g = 0; g < e->u.comp.ngens; g++) {
    const udf_comp_for *gen = &e->u.comp.gens[g];
    if (g) sb_put(b, ", ");
    if (gen->unpack) {
      sb_put(b, "comprehension(target=");
      dump_expr(b, gen->unpack, "Store");
      sb_put(b, ", iter=");
    } else {
      sb_printf(b, "comprehension(target=Name(id='%s', ctx=Store()), iter=", gen->target->name);
    }
    dump_expr(b, gen->iter, "Load");
    sb_put(b, ", ifs=");
    dump_list(b, gen->ifs, gen->nifs, "Load");
    sb_put(b, ", is_async=0)");
  }
  sb_put(b, "])");
}

static void dump_expr(sb *b, const udf_expr *e, const char *ctx) {
  switch (e->kind) {
  case UDF_E_NONE: sb_put(b, "Constant(value=None)"); break;
  case UDF_E_BOOL: sb_printf(b, "Constant(value=%s)", e->u.bval ? "True" : "False"); break;
  case UDF_E_INT:
    if (e->u.ival == INT64_MIN) /* the folded literal -9223372036854775808 */
      sb_put(b, "UnaryOp(op=USub(), operand=Constant(value=9223372036854775808))");
    else
      sb_printf(b, "Constant(value=%lld)", (long long)e->u.ival);
    break;
  case UDF_E_FLOAT:
    sb_put(b, "Constant(value=");
    py_repr_float(b, e->u.fval);
    sb_put(b, ")");
    break;
  case UDF_E_STR: dump_const_str(b, e->u.str); break;
  case UDF_E_FSTRING:
    sb_put(b, "JoinedStr(values=[");
    for (int i = 0; i < e->u.fstring.nparts; i++) {
      const udf_fpart *p = &e->u.fstring.parts[i];
      if (i) sb_put(b, ", ");
      if (!p->is_field) {
        dump_const_str(b, p->text);
        continue;
      }
      sb_put(b, "FormattedValue(value=");
      dump_expr(b, p->expr, "Load");
      sb_printf(b, ", conversion=%d", p->conversion ? p->conversion : -1);
      if (p->spec.len) {
        sb_put(b, ", format_spec=JoinedStr(values=[");
        dump_const_str(b, p->spec);
        sb_put(b, "])");
      }
      sb_put(b, ")");
    }
    sb_put(b, "])");
    break;
  case UDF_E_NAME: sb_printf(b, "Name(id='%s', ctx=%s())", e->u.name.id, ctx); break;
  case UDF_E_UNARY: {
    static const char *const n[] = {"USub", "UAdd", "Not", "Invert"};
    sb_printf(b, "UnaryOp(op=%s(), operand=", n[e->u.unary.op]);
    dump_expr(b, e->u.unary.operand, "Load");
    sb_put(b, ")");
    break;
  }
  case UDF_E_BINARY:
    sb_put(b, "BinOp(left=");
    dump_expr(b, e->u.binary.left, "Load");
    sb_printf(b, ", op=%s(), right=", binop_name(e->u.binary.op));
    dump_expr(b, e->u.binary.right, "Load");
    sb_put(b, ")");
    break;
  case UDF_E_BOOLOP:
    sb_printf(b, "BoolOp(op=%s(), values=", e->u.boolop.op == UDF_BOOL_AND ? "And" : "Or");
    dump_list(b, e->u.boolop.values, e->u.boolop.n, "Load");
    sb_put(b, ")");
    break;
  case UDF_E_COMPARE:
    sb_put(b, "Compare(left=");
    dump_expr(b, e->u.compare.operands[0], "Load");
    sb_put(b, ", ops=[");
    for (int i = 0; i < e->u.compare.n; i++)
      sb_printf(b, "%s%s()", i ? ", " : "", cmpop_name(e->u.compare.ops[i]));
    sb_put(b, "], comparators=");
    dump_list(b, e->u.compare.operands + 1, e->u.compare.n, "Load");
    sb_put(b, ")");
    break;
  case UDF_E_IFEXP:
    sb_put(b, "IfExp(test=");
    dump_expr(b, e->u.ifexp.test, "Load");
    sb_put(b, ", body=");
    dump_expr(b, e->u.ifexp.body, "Load");
    sb_put(b, ", orelse=");
    dump_expr(b, e->u.ifexp.orelse, "Load");
    sb_put(b, ")");
    break;
  case UDF_E_CALL:
    sb_put(b, "Call(func=");
    dump_expr(b, e->u.call.func, "Load");
    sb_put(b, ", args=");
    dump_list(b, e->u.call.args, e->u.call.nargs, "Load");
    sb_put(b, ", keywords=[");
    for (int i = 0; i < e->u.call.nkeywords; i++) {
      sb_printf(b, "%skeyword(arg='%s', value=", i ? ", " : "", e->u.call.keywords[i].name);
      dump_expr(b, e->u.call.keywords[i].value, "Load");
      sb_put(b, ")");
    }
    sb_put(b, "])");
    break;
  case UDF_E_ATTRIBUTE:
    sb_put(b, "Attribute(value=");
    dump_expr(b, e->u.attribute.value, "Load");
    sb_printf(b, ", attr='%s', ctx=%s())", e->u.attribute.attr, ctx);
    break;
  case UDF_E_SUBSCRIPT:
    sb_put(b, "Subscript(value=");
    dump_expr(b, e->u.subscript.value, "Load");
    sb_put(b, ", slice=");
    dump_expr(b, e->u.subscript.index, "Load");
    sb_printf(b, ", ctx=%s())", ctx);
    break;
  case UDF_E_SLICE: {
    sb_put(b, "Subscript(value=");
    dump_expr(b, e->u.slice.value, "Load");
    sb_put(b, ", slice=Slice(");
    const char *sep = "";
    if (e->u.slice.lower) {
      sb_put(b, "lower=");
      dump_expr(b, e->u.slice.lower, "Load");
      sep = ", ";
    }
    if (e->u.slice.upper) {
      sb_printf(b, "%supper=", sep);
      dump_expr(b, e->u.slice.upper, "Load");
      sep = ", ";
    }
    if (e->u.slice.step) {
      sb_printf(b, "%sstep=", sep);
      dump_expr(b, e->u.slice.step, "Load");
    }
    sb_printf(b, "), ctx=%s())", ctx);
    break;
  }
  case UDF_E_LIST:
  case UDF_E_TUPLE:
    sb_put(b, e->kind == UDF_E_LIST ? "List(elts=" : "Tuple(elts=");
    dump_list(b, e->u.seq.items, e->u.seq.n, ctx);
    sb_printf(b, ", ctx=%s())", ctx);
    break;
  case UDF_E_LISTCOMP:
  case UDF_E_GENEXP:
  case UDF_E_DICTCOMP:
  case UDF_E_SETCOMP: dump_comp(b, e); break;
  case UDF_E_DICT:
    sb_put(b, "Dict(keys=");
    dump_list(b, e->u.dict.keys, e->u.dict.n, "Load");
    sb_put(b, ", values=");
    dump_list(b, e->u.dict.values, e->u.dict.n, "Load");
    sb_put(b, ")");
    break;
  case UDF_E_SET:
    sb_put(b, "Set(elts=");
    dump_list(b, e->u.dict.keys, e->u.dict.n, "Load");
    sb_put(b, ")");
    break;
  case UDF_E_CAST:
  case UDF_E_TRUTH: sb_put(b, "<checker node>"); break;
  case UDF_E_NAMED:
    sb_printf(b, "NamedExpr(target=Name(id='%s', ctx=Store()), value=",
              e->u.named.target->u.name.id);
    dump_expr(b, e->u.named.value, "Load");
    sb_put(b, ")");
    break;
  }
}

static void dump_block(sb *b, const udf_block *blk);

static void dump_stmt(sb *b, const udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_EXPR:
    sb_put(b, "Expr(value=");
    dump_expr(b, s->u.expr, "Load");
    sb_put(b, ")");
    break;
  case UDF_S_ASSIGN:
    sb_put(b, "Assign(targets=");
    dump_list(b, s->u.assign.targets, s->u.assign.ntargets, "Store");
    sb_put(b, ", value=");
    dump_expr(b, s->u.assign.value, "Load");
    sb_put(b, ")");
    break;
  case UDF_S_AUGASSIGN:
    sb_put(b, "AugAssign(target=");
    dump_expr(b, s->u.augassign.target, "Store");
    sb_printf(b, ", op=%s(), value=", binop_name(s->u.augassign.op));
    dump_expr(b, s->u.augassign.value, "Load");
    sb_put(b, ")");
    break;
  case UDF_S_IF:
    sb_put(b, "If(test=");
    dump_expr(b, s->u.if_.test, "Load");
    sb_put(b, ", body=");
    dump_block(b, &s->u.if_.body);
    sb_put(b, ", orelse=");
    dump_block(b, &s->u.if_.orelse);
    sb_put(b, ")");
    break;
  case UDF_S_WHILE:
    sb_put(b, "While(test=");
    dump_expr(b, s->u.while_.test, "Load");
    sb_put(b, ", body=");
    dump_block(b, &s->u.while_.body);
    sb_put(b, ", orelse=");
    dump_block(b, &s->u.while_.orelse);
    sb_put(b, ")");
    break;
  case UDF_S_FOR:
    if (s->u.for_.unpack) {
      sb_put(b, "For(target=");
      dump_expr(b, s->u.for_.unpack, "Store");
      sb_put(b, ", iter=");
    } else {
      sb_printf(b, "For(target=Name(id='%s', ctx=Store()), iter=", s->u.for_.target->name);
    }
    dump_expr(b, s->u.for_.iter, "Load");
    sb_put(b, ", body=");
    dump_block(b, &s->u.for_.body);
    sb_put(b, ", orelse=");
    dump_block(b, &s->u.for_.orelse);
    sb_put(b, ")");
    break;
  case UDF_S_BREAK: sb_put(b, "Break()"); break;
  case UDF_S_CONTINUE: sb_put(b, "Continue()"); break;
  case UDF_S_PASS: sb_put(b, "Pass()"); break;
  case UDF_S_RETURN:
    if (!s->u.ret.value) {
      sb_put(b, "Return()");
    } else {
      sb_put(b, "Return(value=");
      dump_expr(b, s->u.ret.value, "Load");
      sb_put(b, ")");
    }
    break;
  case UDF_S_SETITEM:
    sb_put(b, "Assign(targets=[");
    dump_expr(b, s->u.setitem.target, "Store");
    sb_put(b, "], value=");
    dump_expr(b, s->u.setitem.value, "Load");
    sb_put(b, ")");
    break;
  case UDF_S_DELITEM:
    sb_put(b, "Delete(targets=[");
    dump_expr(b, s->u.setitem.target, "Del");
    sb_put(b, "])");
    break;
  case UDF_S_RAISE:
    if (!s->u.raise.exc) {
      sb_put(b, "Raise()");
    } else {
      sb_put(b, "Raise(exc=");
      dump_expr(b, s->u.raise.exc, "Load");
      sb_put(b, ")");
    }
    break;
  case UDF_S_TRY:
    sb_put(b, "Try(body=");
    dump_block(b, &s->u.try_.body);
    sb_put(b, ", handlers=[");
    for (int k = 0; k < s->u.try_.nhandlers; k++) {
      const udf_handler *h = s->u.try_.handlers[k];
      sb_put(b, k ? ", ExceptHandler(" : "ExceptHandler(");
      if (h->type) {
        sb_put(b, "type=");
        dump_expr(b, h->type, "Load");
        sb_put(b, ", ");
      }
      if (h->name) sb_printf(b, "name='%s', ", h->name->name);
      sb_put(b, "body=");
      dump_block(b, &h->body);
      sb_put(b, ")");
    }
    sb_put(b, "], orelse=");
    dump_block(b, &s->u.try_.orelse);
    sb_put(b, ", finalbody=");
    dump_block(b, &s->u.try_.finalbody);
    sb_put(b, ")");
    break;
  }
}

static void dump_block(sb *b, const udf_block *blk) {
  sb_put(b, "[");
  for (int i = 0; i < blk->n; i++) {
    if (i) sb_put(b, ", ");
    dump_stmt(b, blk->items[i]);
  }
  sb_put(b, "]");
}

static void dump_module(sb *b, const udf_module *m) {
  sb_put(b, "Module(body=[");
  for (int i = 0; i < m->nfuncs; i++) {
    const udf_func *f = m->funcs[i];
    if (i) sb_put(b, ", ");
    sb_printf(b, "FunctionDef(name='%s', args=arguments(posonlyargs=[], args=[", f->name);
    for (int k = 0; k < f->nparams; k++)
      sb_printf(b, "%sarg(arg='%s')", k ? ", " : "", f->params[k]->name);
    sb_put(b, "], kwonlyargs=[], kw_defaults=[], defaults=[");
    const char *sep = "";
    for (int k = 0; k < f->nparams; k++)
      if (f->defaults[k]) {
        sb_put(b, sep);
        dump_expr(b, f->defaults[k], "Load");
        sep = ", ";
      }
    sb_put(b, "]), body=");
    dump_block(b, &f->body);
    sb_put(b, ", decorator_list=[])");
  }
  sb_put(b, "], type_ignores=[])");
}

/* Parses src and returns its dump (malloc'd), or NULL with the diagnostic printed. */
static char *parse_dump_src(const char *src, bool quiet) {
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  dc.src = src;
  dc.len = strlen(src);
  dc.file = "t.py";
  udf_arena *a = udf_arena_create(NULL);
  if (!a) return NULL;
  udf_module *m = NULL;
  char *out = NULL;
  if (udf_parse_module(&dc, a, src, strlen(src), &m) == NRT_OK) {
    sb b = {NULL, 0, 0};
    dump_module(&b, m);
    out = b.s;
  } else if (!quiet || dc.code != NRT_EPARSE) {
    fprintf(stderr, "parse error %d:%d: %s\n--- in:\n%s\n", dc.d.line, dc.d.col, dc.d.message, src);
  }
  udf_arena_destroy(a);
  return out;
}

static char *parse_dump(const char *src) { return parse_dump_src(src, false); }
static char *parse_dump_quiet(const char *src) { return parse_dump_src(src, true); }

/* Programs for the comparison with CPython: every construct and the precedence table. */
static const char *const corpus[] = {
    "def f(s):\n    return s\n",
    "def f(s):\n    try:\n        x = int(s)\n    except (ValueError, TypeError) as e:\n"
    "        raise\n    except IndexError:\n        raise ValueError('m')\n    except:\n"
    "        raise ValueError\n    else:\n        pass\n    finally:\n        return 1\n",
    "def f(s):\n    try: return 1\n    finally: pass\n",
    "def f(s):\n    for i, (a, b) in enumerate(zip(s, s), 1):\n        pass\n",
    "def f(s):\n    return [c for j, (c, d) in x if (n := j)] + (y := 2, z)\n",
    "def f(s):\n    return g(a := 1, b, c=(d := 2))\n",
    "def f(s):\n    while (a := s) and (b := a):\n        return (x := 1)\n    if c := d: pass\n",
    "def f(a, b=1, c='x'):\n    return a + b * c - d / e // f % g ** h ** i\n",
    "def f():\n    return -x ** 2, (-x) ** 2, not a == b, not a and b or c\n",
    "def f():\n    return a or b and not c or d\n",
    "def f():\n    return a < b <= c != d == e > f >= g\n",
    "def f():\n    return a in b, a not in b, a is None, a is not None\n",
    "def f():\n    return x if a else y if b else z\n",
    "def f():\n    return (x if a else y) + 1, lambda_ + 1\n",
    "def f():\n    return a | b ^ c & d << e >> f + g\n",
    "def f():\n    return ~a + -b - +c\n",
    "def f():\n    return s[1], s[1:], s[:2], s[::3], s[1:2:3], s[-1:], s[:], s[::]\n",
    "def f():\n    return s.upper().strip('x')[0].split(sep=',', maxsplit=1)\n",
    "def f():\n    return len(s), int(s, 16), str(1.5), float('1e5'), min(a, b), max([a])\n",
    "def f():\n    return [c for c in s if c if d for d in t], (c for c in s)\n",
    "def f():\n    return ''.join(c.upper() for c in s if c.isalpha())\n",
    "def f():\n    return [], [a], [a, b,], (), (a,), (a, b), a, b\n",
    "def f():\n    return 1, 0, 0x1F, 0o17, 0b101, 1_000_000, 0_0, 9223372036854775807\n",
    "def f():\n    return 1.5, 1., .5, 1e10, 1E-3, 1_0.2_5, 0.1, 1e16, 1e-5, 2.5e-7, 3e300\n",
    "def f():\n    return True, False, None\n",
    "def f():\n    return 'a', \"b\", '''c''', \"\"\"d\"\"\", r'\\n', R\"\\t\", U'y'\n",
    "def f():\n    return 'a' 'b' \"c\", 'x' r'\\y' 'z'\n",
    "def f():\n    return '\\n\\t\\\\\\'\\\"\\a\\b\\f\\v\\r\\0\\7\\101\\x41\\u00e9\\U0001F600\\d'\n",
    "def f():\n    return 'é漢字😀', '\\\nx'\n",
    "def f():\n    return f'a{x}b', f\"{x!r}\", f'{x!s:>10}', f'{x:08.3f}', f'{{}}{x}{{', F'{x=}'\n",
    "def f():\n    return f'{x + 1:d} and {s.upper()!a}', 'p' f'{x}' 'q', rf'\\n{x}'\n",
    "def f():\n    return f'{x = }', f'{a[1]}{b[\"k\"]}', f'{ (1, 2)[1] }'\n",
    "def f():\n    return f(a)(b)[c].d(e=1)\n",
    "def f():\n    return -9223372036854775808\n",
    "def f(s):\n    x = 1\n    x += 2\n    x -= 3\n    x *= 4\n    x /= 5\n    x //= 6\n    x %= 7\n    x **= 8\n    return x\n",
    "def f(s):\n    a = b = c = s\n    a, b = b, a\n    (a, b) = s.split()\n    (h, sep, t) = s.partition(':')\n    x, = s,\n",
    "def f(s):\n    if a:\n        pass\n    elif b:\n        return 1\n    elif c:\n        return 2\n    else:\n        return 3\n",
    "def f(s):\n    while a:\n        break\n    else:\n        continue_ = 1\n    for c in s:\n        continue\n    else:\n        pass\n",
    "def f(s):\n    for i in range(10):\n        if i: break\n    return\n",
    "def f(s):\n    \"\"\"doc\"\"\"\n    s; t; u\n    x = 1; y = 2;\n    if x: return y\n    return (1 +\n            2)\n",
    "def f(s):\n\tif s:\n\t\treturn 1\n\treturn 2\n",
    "def f(s):\n    # comment\n\n    x = 1  # trailing\n        # odd comment\n    return x \\\n        + 1\n",
    "def g(x):\n    return x\n\ndef f(s):\n    return g(s)\n",
    "def f(s):\n    return a if b else c, not not a, - - a, a ** -b, a * -b\n",
    "def f(s):\n    return a[b][c], a.b.c, a(b)(c), a[b:c][d], 'x'[0], [1][0], (1)[0]\n",
    "def f(s):\n    return 1 if a else 2 if b else 3, (lambda_ for lambda_ in s)\n",
    "def f(s):\n    return [x for x in range(3)], s.startswith(('a', 'b')), s.count('a', 1, -1)\n",
    "def f(s):\n    return a < b < c, a == b in c, a is not b is c, not a < b\n",
    "def f(s):\n    return s * 2 + 3 * s, s % 2, 2 ** 3 ** 2, -2 ** 2, (-2) ** 2\n",
};

/* Precedence facts that hold without Python. */
static const struct {
  const char *expr, *dump;
} fixed[] = {
    {"a + b * c", "BinOp(left=Name(id='a', ctx=Load()), op=Add(), right=BinOp(left=Name(id='b', ctx=Load()), op=Mult(), right=Name(id='c', ctx=Load())))"},
    {"-a ** b", "UnaryOp(op=USub(), operand=BinOp(left=Name(id='a', ctx=Load()), op=Pow(), right=Name(id='b', ctx=Load())))"},
    {"a ** b ** c", "BinOp(left=Name(id='a', ctx=Load()), op=Pow(), right=BinOp(left=Name(id='b', ctx=Load()), op=Pow(), right=Name(id='c', ctx=Load())))"},
    {"a - b - c", "BinOp(left=BinOp(left=Name(id='a', ctx=Load()), op=Sub(), right=Name(id='b', ctx=Load())), op=Sub(), right=Name(id='c', ctx=Load()))"},
    {"not a == b", "UnaryOp(op=Not(), operand=Compare(left=Name(id='a', ctx=Load()), ops=[Eq()], comparators=[Name(id='b', ctx=Load())]))"},
    {"a or b and c", "BoolOp(op=Or(), values=[Name(id='a', ctx=Load()), BoolOp(op=And(), values=[Name(id='b', ctx=Load()), Name(id='c', ctx=Load())])])"},
    {"x if a or b else y", "IfExp(test=BoolOp(op=Or(), values=[Name(id='a', ctx=Load()), Name(id='b', ctx=Load())]), body=Name(id='x', ctx=Load()), orelse=Name(id='y', ctx=Load()))"},
    {"a < b < c", "Compare(left=Name(id='a', ctx=Load()), ops=[Lt(), Lt()], comparators=[Name(id='b', ctx=Load()), Name(id='c', ctx=Load())])"},
    {"a not in b", "Compare(left=Name(id='a', ctx=Load()), ops=[NotIn()], comparators=[Name(id='b', ctx=Load())])"},
    {"'a' 'b'", "Constant(value='ab')"},
    {"0x_1f + 0o17 + 0b1_0", "BinOp(left=BinOp(left=Constant(value=31), op=Add(), right=Constant(value=15)), op=Add(), right=Constant(value=2))"},
};

static char *expr_dump(const char *expr) {
  char src[512];
  snprintf(src, sizeof src, "def f():\n    return %s\n", expr);
  char *d = parse_dump(src);
  if (!d) return NULL;
  /* cut "Module(body=[FunctionDef(... body=[Return(value=" ... ")], decorator_list=[])], ...)" */
  char *start = strstr(d, "body=[Return(value=");
  char *end = strstr(d, ")], decorator_list");
  if (!start || !end) {
    free(d);
    return NULL;
  }
  start += strlen("body=[Return(value=");
  size_t n = (size_t)(end - start);
  memmove(d, start, n);
  d[n] = '\0';
  return d;
}

static void test_fixed(void) {
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
    char *d = expr_dump(fixed[i].expr);
    CHECK_EQ_STR(d, fixed[i].dump);
    free(d);
  }
}

static void test_against_cpython(void) {
  const char *py = "/usr/bin/python3";
  if (access(py, X_OK) != 0) {
    printf("test_front_parse: %s not found, CPython comparison skipped\n", py);
    return;
  }
  char dir[] = "/tmp/nrt_front_parse_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(!"mkdtemp");
    return;
  }
  char path[256], script[256], outp[256];
  snprintf(path, sizeof path, "%s/corpus.txt", dir);
  snprintf(script, sizeof script, "%s/dump.py", dir);
  snprintf(outp, sizeof outp, "%s/out.txt", dir);
  FILE *f = fopen(path, "w");
  size_t n = 0;
  for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
    if (!corpus[i]) continue;
    fputs(corpus[i], f);
    fputs("\x1e", f); /* record separator */
    n++;
  }
  fclose(f);
  f = fopen(script, "w");
  fputs("import ast, sys\n"
        "data = open(sys.argv[1], encoding='utf-8').read().split('\\x1e')[:-1]\n"
        "with open(sys.argv[2], 'w', encoding='utf-8') as out:\n"
        "    for src in data:\n"
        "        out.write(ast.dump(ast.parse(src)) + '\\n')\n",
        f);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s %s %s %s", py, script, path, outp);
  CHECK_EQ_INT(system(cmd), 0);
  f = fopen(outp, "r");
  CHECK(f != NULL);
  if (f) {
    static char line[1 << 16];
    size_t k = 0, compared = 0;
    for (size_t i = 0; i < sizeof corpus / sizeof corpus[0]; i++) {
      if (!corpus[i]) continue;
      if (!fgets(line, sizeof line, f)) break;
      line[strcspn(line, "\n")] = '\0';
      char *d = parse_dump(corpus[i]);
      CHECK(d != NULL);
      if (d && strcmp(d, line) != 0) {
        printf("corpus %zu differs:\n  src: %s\n  nrt: %s\n  py:  %s\n", i, corpus[i], d, line);
      }
      CHECK(d && strcmp(d, line) == 0);
      compared++;
      free(d);
      k++;
    }
    CHECK_EQ_INT(compared, n);
    fclose(f);
  }
  remove(path);
  remove(script);
  remove(outp);
  rmdir(dir);
}


/* ---- random expressions: precedence and associativity against CPython ---- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static unsigned rnd(unsigned n) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (unsigned)((rng_state >> 33) % n);
}

static void gen_expr(sb *b, int depth);

static void gen_atom(sb *b) {
  static const char *const atoms[] = {"a", "b", "x", "y", "1", "0", "2.5", "1e3", "\"s\"",
                                      "True", "None", "7", "0x1f", "\"t\" \"u\""};
  sb_put(b, atoms[rnd(sizeof atoms / sizeof atoms[0])]);
}

static void gen_sub(sb *b, int depth) {
  if (rnd(10) < 3) {
    sb_put(b, "(");
    gen_expr(b, depth);
    sb_put(b, ")");
  } else {
    gen_expr(b, depth);
  }
}

static void gen_expr(sb *b, int depth) {
  if (depth <= 0) {
    gen_atom(b);
    return;
  }
  static const char *const binops[] = {" + ", " - ", " * ", " / ", " // ", " % ", " ** ",
                                       " | ", " ^ ", " & ", " << ", " >> ", " @ "};
  static const char *const cmps[] = {" < ", " > ", " == ", " != ", " <= ", " >= ", " in ",
                                     " not in ", " is ", " is not "};
  static const char *const unops[] = {"-", "+", "~", "not "};
  switch (rnd(11)) {
  case 0: case 1: case 2:
    gen_sub(b, depth - 1);
    sb_put(b, binops[rnd(sizeof binops / sizeof binops[0])]);
    gen_sub(b, depth - 1);
    break;
  case 3:
    sb_put(b, unops[rnd(4)]);
    gen_sub(b, depth - 1);
    break;
  case 4: {
    gen_sub(b, depth - 1);
    unsigned n = 1 + rnd(3);
    for (unsigned i = 0; i < n; i++) {
      sb_put(b, cmps[rnd(sizeof cmps / sizeof cmps[0])]);
      gen_sub(b, depth - 1);
    }
    break;
  }
  case 5:
    gen_sub(b, depth - 1);
    sb_put(b, rnd(2) ? " and " : " or ");
    gen_sub(b, depth - 1);
    break;
  case 6:
    gen_sub(b, depth - 1);
    sb_put(b, " if ");
    gen_sub(b, depth - 1);
    sb_put(b, " else ");
    gen_sub(b, depth - 1);
    break;
  case 7:
    sb_put(b, rnd(2) ? "f(" : "a.m(");
    gen_expr(b, depth - 1);
    if (rnd(2)) {
      sb_put(b, ", k=");
      gen_expr(b, depth - 1);
    }
    sb_put(b, ")");
    break;
  case 8:
    gen_atom(b);
    sb_put(b, "[");
    if (rnd(2)) {
      gen_expr(b, depth - 1);
    } else {
      if (rnd(2)) gen_expr(b, depth - 1);
      sb_put(b, ":");
      if (rnd(2)) gen_expr(b, depth - 1);
      if (rnd(2)) {
        sb_put(b, ":");
        gen_expr(b, depth - 1);
      }
    }
    sb_put(b, "]");
    break;
  case 9:
    sb_put(b, "[");
    gen_expr(b, depth - 1);
    if (rnd(2)) {
      sb_put(b, " for c in ");
      gen_sub(b, depth - 1);
      if (rnd(2)) {
        sb_put(b, " if ");
        gen_sub(b, depth - 1);
      }
    } else {
      sb_put(b, ", ");
      gen_expr(b, depth - 1);
    }
    sb_put(b, "]");
    break;
  default:
    gen_sub(b, depth - 1);
    break;
  }
}

enum { NRANDOM = 1000 };

static void test_random_against_cpython(void) {
  const char *py = "/usr/bin/python3";
  if (access(py, X_OK) != 0) return;
  char dir[] = "/tmp/nrt_front_rand_XXXXXX";
  if (!mkdtemp(dir)) {
    CHECK(!"mkdtemp");
    return;
  }
  char path[256], script[256], outp[256];
  snprintf(path, sizeof path, "%s/corpus.txt", dir);
  snprintf(script, sizeof script, "%s/dump.py", dir);
  snprintf(outp, sizeof outp, "%s/out.txt", dir);
  static char *srcs[NRANDOM];
  FILE *f = fopen(path, "w");
  for (int i = 0; i < NRANDOM; i++) {
    sb b = {NULL, 0, 0};
    sb_put(&b, "def f():\n    return ");
    gen_expr(&b, 1 + (int)rnd(5));
    sb_put(&b, "\n");
    srcs[i] = b.s;
    fputs(b.s, f);
    fputs("\x1e", f);
  }
  fclose(f);
  f = fopen(script, "w");
  fputs("import ast, sys\n"
        "data = open(sys.argv[1], encoding='utf-8').read().split('\\x1e')[:-1]\n"
        "with open(sys.argv[2], 'w', encoding='utf-8') as out:\n"
        "    for src in data:\n"
        "        try:\n"
        "            out.write(ast.dump(ast.parse(src)) + '\\n')\n"
        "        except SyntaxError:\n"
        "            out.write('SyntaxError\\n')\n",
        f);
  fclose(f);
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "%s %s %s %s", py, script, path, outp);
  CHECK_EQ_INT(system(cmd), 0);
  f = fopen(outp, "r");
  CHECK(f != NULL);
  int same = 0, valid = 0;
  static char line[1 << 16];
  for (int i = 0; f && i < NRANDOM; i++) {
    if (!fgets(line, sizeof line, f)) break;
    line[strcspn(line, "\n")] = '\0';
    char *d = parse_dump_quiet(srcs[i]);
    const char *mine = d ? d : "SyntaxError";
    if (strcmp(mine, line) == 0) same++;
    else printf("random %d differs:\n  src: %s  nrt: %s\n  py:  %s\n", i, srcs[i], mine, line);
    if (d) valid++;
    free(d);
  }
  if (f) fclose(f);
  for (int i = 0; i < NRANDOM; i++) free(srcs[i]);
  printf("test_front_parse: %d random expressions (%d valid) parse as in CPython\n", same, valid);
  CHECK_EQ_INT(same, NRANDOM);
  CHECK(valid > NRANDOM / 2);
  remove(path);
  remove(script);
  remove(outp);
  rmdir(dir);
}

int main(void) {
  struct check_live before = check_live_now();
  test_fixed();
  test_against_cpython();
  test_random_against_cpython();
  CHECK_NO_LEAK(before);
  return check_finish("test_front_parse");
}

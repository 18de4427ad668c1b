/* Type inference tests: inferred types of locals and results, inserted casts and truth tests,
 * call resolution (builtins, methods with their argument slots, helpers with defaults),
 * nullable results and None narrowing, definite assignment and reachability. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"

static udf_module *compile(const char *src, const char *entry, const udf_type *pt, int np) {
  udf_diag d;
  udf_module *m = NULL;
  int rc = udf_front_compile(src, strlen(src), "t.py", entry, pt, np, &m, &d, NULL);
  if (rc != NRT_OK) printf("compile failed %d:%d: %s\n--\n%s\n", d.line, d.col, d.message, src);
  CHECK_EQ_INT(rc, NRT_OK);
  return m;
}

static udf_module *compile_str(const char *src) {
  udf_type pt[1] = {UDF_TY_STR};
  return compile(src, NULL, pt, 1);
}

static udf_var *local(const udf_func *f, const char *name) {
  for (int i = 0; i < f->nlocals; i++)
    if (!f->locals[i]->is_comp_var && strcmp(f->locals[i]->name, name) == 0) return f->locals[i];
  return NULL;
}

static udf_type type_of(const udf_func *f, const char *name) {
  udf_var *v = local(f, name);
  CHECK(v != NULL);
  return v ? v->type : UDF_TY_UNKNOWN;
}

static udf_stmt *stmt(const udf_func *f, int i) { return f->body.items[i]; }

static void test_seed(void) {
  udf_module *m = compile_str("def udf(string):\n"
                              "    if len(string) > 2:\n"
                              "        result = string.upper()      # new allocation\n"
                              "    else:\n"
                              "        result = string + string     # new allocation\n"
                              "    return result + 'abc'\n");
  if (!m) return;
  udf_func *f = m->entry;
  CHECK_EQ_STR(f->name, "udf");
  CHECK(f->checked);
  CHECK_EQ_INT(f->result, UDF_TY_STR);
  CHECK(!f->falls_off_end);
  CHECK_EQ_INT(f->nparams, 1);
  CHECK_EQ_INT(type_of(f, "string"), UDF_TY_STR);
  CHECK_EQ_INT(type_of(f, "result"), UDF_TY_STR);
  CHECK(!local(f, "result")->needs_bound_flag);
  udf_stmt *s = stmt(f, 0);
  CHECK_EQ_INT(s->kind, UDF_S_IF);
  udf_expr *t = s->u.if_.test;
  CHECK_EQ_INT(t->kind, UDF_E_COMPARE);
  CHECK_EQ_INT(t->type, UDF_TY_BOOL);
  udf_expr *len = t->u.compare.operands[0];
  CHECK_EQ_INT(len->kind, UDF_E_CALL);
  CHECK_EQ_INT(len->u.call.ckind, UDF_CALL_BUILTIN);
  CHECK_EQ_INT(len->u.call.builtin, UDF_BI_LEN);
  CHECK_EQ_INT(len->type, UDF_TY_INT);
  udf_expr *up = s->u.if_.body.items[0]->u.assign.value;
  CHECK_EQ_INT(up->u.call.ckind, UDF_CALL_METHOD);
  CHECK_EQ_INT(up->u.call.method, UDF_M_UPPER);
  CHECK_EQ_INT(up->u.call.receiver->kind, UDF_E_NAME);
  CHECK(up->u.call.receiver->u.name.var == f->params[0]);
  CHECK_EQ_INT(up->u.call.ncargs, 0);
  udf_expr *cat = stmt(f, 1)->u.ret.value;
  CHECK_EQ_INT(cat->kind, UDF_E_BINARY);
  CHECK_EQ_INT(cat->type, UDF_TY_STR);
  CHECK_EQ_INT(cat->loc.line, 6);
  CHECK_EQ_INT(cat->loc.col, 12);
  udf_module_free(m);
}

static void test_numeric(void) {
  udf_type pt[3] = {UDF_TY_INT, UDF_TY_FLOAT, UDF_TY_BOOL};
  udf_module *m = compile("def f(i, x, b):\n"
                          "    a = i + x\n"       /* 0: int + float -> float, cast left */
                          "    c = i / 2\n"       /* 1: true division -> float */
                          "    d = i // 2 + b\n"  /* 2: int, bool cast */
                          "    e = 2 ** -1\n"     /* 3: negative literal exponent -> float */
                          "    g = 2 ** i\n"      /* 4: int */
                          "    h = -b\n"          /* 5: unary minus of bool -> int */
                          "    k = 1 < i < 2.5\n" /* 6: chain, all float */
                          "    s = 'ab' * b\n"    /* 7: repetition, bool cast to int */
                          "    t = abs(b) + abs(x)\n" /* 8 */
                          "    u = int('12', base=8) + int(x) + int(b)\n" /* 9 */
                          "    i += 1\n"          /* 10 */
                          "    x += i\n"          /* 11: value cast to float */
                          "    return a + c + d + e + g + h + k + t + u + x + len(s)\n",
                          NULL, pt, 3);
  if (!m) return;
  udf_func *f = m->entry;
  CHECK_EQ_INT(f->result, UDF_TY_FLOAT);
  CHECK_EQ_INT(type_of(f, "a"), UDF_TY_FLOAT);
  CHECK_EQ_INT(type_of(f, "c"), UDF_TY_FLOAT);
  CHECK_EQ_INT(type_of(f, "d"), UDF_TY_INT);
  CHECK_EQ_INT(type_of(f, "e"), UDF_TY_FLOAT);
  CHECK_EQ_INT(type_of(f, "g"), UDF_TY_INT);
  CHECK_EQ_INT(type_of(f, "h"), UDF_TY_INT);
  CHECK_EQ_INT(type_of(f, "k"), UDF_TY_BOOL);
  CHECK_EQ_INT(type_of(f, "s"), UDF_TY_STR);
  CHECK_EQ_INT(type_of(f, "t"), UDF_TY_FLOAT);
  CHECK_EQ_INT(type_of(f, "u"), UDF_TY_INT);
  udf_expr *a = stmt(f, 0)->u.assign.value;
  CHECK_EQ_INT(a->u.binary.left->kind, UDF_E_CAST);
  CHECK_EQ_INT(a->u.binary.left->type, UDF_TY_FLOAT);
  CHECK_EQ_INT(a->u.binary.left->u.cast.operand->type, UDF_TY_INT);
  CHECK_EQ_INT(a->u.binary.right->kind, UDF_E_NAME);
  udf_expr *c = stmt(f, 1)->u.assign.value;
  CHECK_EQ_INT(c->u.binary.left->kind, UDF_E_CAST);
  CHECK_EQ_INT(c->u.binary.right->kind, UDF_E_CAST);
  CHECK_EQ_INT(c->u.binary.right->u.cast.operand->kind, UDF_E_INT);
  udf_expr *d = stmt(f, 2)->u.assign.value;
  CHECK_EQ_INT(d->u.binary.right->kind, UDF_E_CAST);
  CHECK_EQ_INT(d->u.binary.right->type, UDF_TY_INT);
  udf_expr *e = stmt(f, 3)->u.assign.value;
  CHECK_EQ_INT(e->u.binary.op, UDF_OP_POW);
  CHECK_EQ_INT(e->u.binary.left->kind, UDF_E_CAST);
  udf_expr *h = stmt(f, 5)->u.assign.value;
  CHECK_EQ_INT(h->u.unary.operand->kind, UDF_E_CAST);
  udf_expr *k = stmt(f, 6)->u.assign.value;
  CHECK_EQ_INT(k->u.compare.n, 2);
  for (int i = 0; i < 3; i++) CHECK_EQ_INT(k->u.compare.operands[i]->type, UDF_TY_FLOAT);
  udf_expr *s = stmt(f, 7)->u.assign.value;
  CHECK_EQ_INT(s->u.binary.op, UDF_OP_MUL);
  CHECK_EQ_INT(s->u.binary.left->type, UDF_TY_STR);
  CHECK_EQ_INT(s->u.binary.right->type, UDF_TY_INT);
  udf_expr *u = stmt(f, 9)->u.assign.value->u.binary.left->u.binary.left;
  CHECK_EQ_INT(u->u.call.builtin, UDF_BI_INT);
  CHECK_EQ_INT(u->u.call.ncargs, 2);
  CHECK_EQ_INT(u->u.call.cargs[1]->kind, UDF_E_INT);
  udf_stmt *aug = stmt(f, 11);
  CHECK_EQ_INT(aug->kind, UDF_S_AUGASSIGN);
  CHECK_EQ_INT(aug->u.augassign.value->kind, UDF_E_CAST);
  udf_module_free(m);
}

static void test_truth_and_boolops(void) {
  udf_module *m = compile_str("def f(s):\n"
                              "    n = 0\n"
                              "    if s and n:\n"           /* 1: condition context */
                              "        pass\n"
                              "    while not s:\n"          /* 2 */
                              "        break\n"
                              "    t = s or 'x'\n"           /* 3: value context */
                              "    u = s.split() or ['y']\n" /* 4 */
                              "    b = bool(s) and bool(n)\n" /* 5 */
                              "    return t if u else s\n");
  if (!m) return;
  udf_func *f = m->entry;
  udf_expr *c = stmt(f, 1)->u.if_.test;
  CHECK_EQ_INT(c->kind, UDF_E_BOOLOP);
  CHECK_EQ_INT(c->type, UDF_TY_BOOL);
  CHECK_EQ_INT(c->u.boolop.values[0]->kind, UDF_E_TRUTH);
  CHECK_EQ_INT(c->u.boolop.values[1]->kind, UDF_E_TRUTH);
  CHECK_EQ_INT(c->u.boolop.values[1]->u.truth.operand->type, UDF_TY_INT);
  udf_expr *w = stmt(f, 2)->u.while_.test;
  CHECK_EQ_INT(w->kind, UDF_E_UNARY);
  CHECK_EQ_INT(w->u.unary.operand->kind, UDF_E_TRUTH);
  CHECK_EQ_INT(type_of(f, "t"), UDF_TY_STR);
  udf_expr *t = stmt(f, 3)->u.assign.value;
  CHECK_EQ_INT(t->kind, UDF_E_BOOLOP);
  CHECK_EQ_INT(t->u.boolop.values[0]->kind, UDF_E_NAME); /* value semantics: no truth node */
  CHECK_EQ_INT(type_of(f, "u"), UDF_TY_LIST_STR);
  CHECK_EQ_INT(type_of(f, "b"), UDF_TY_BOOL);
  udf_expr *b = stmt(f, 5)->u.assign.value;
  CHECK_EQ_INT(b->u.boolop.values[0]->kind, UDF_E_TRUTH);
  udf_expr *r = stmt(f, 6)->u.ret.value;
  CHECK_EQ_INT(r->kind, UDF_E_IFEXP);
  CHECK_EQ_INT(r->u.ifexp.test->kind, UDF_E_TRUTH);
  udf_module_free(m);
}

static void test_methods(void) {
  udf_module *m = compile_str("def f(s):\n"
                              "    a = s.split(maxsplit=1)\n"         /* 0 */
                              "    b = s.strip(None)\n"               /* 1 */
                              "    c = s.find('a', None, True)\n"     /* 2 */
                              "    d = s.startswith(('a', 'b'), 1)\n" /* 3 */
                              "    e = s.splitlines(1)\n"             /* 4 */
                              "    g = ','.join(a)\n"                 /* 5 */
                              "    h, sep, t = s.rpartition('=')\n"   /* 6 */
                              "    k = s.center(10, '*').zfill(12).expandtabs(tabsize=4)\n"
                              "    l = '-'.join(c for c in s if c.isalnum())\n"
                              "    p = s.replace('a', 'b', 2).removeprefix('x')[1:-1:2]\n"
                              "    return g + h + sep + t + k + l + p + str(c) + str(d) + a[0] + e[-1]\n");
  if (!m) return;
  udf_func *f = m->entry;
  udf_expr *a = stmt(f, 0)->u.assign.value;
  CHECK_EQ_INT(a->u.call.method, UDF_M_SPLIT);
  CHECK_EQ_INT(a->u.call.ncargs, 2);
  CHECK(a->u.call.cargs[0] == NULL);
  CHECK(a->u.call.cargs[1] != NULL && a->u.call.cargs[1]->kind == UDF_E_INT);
  CHECK_EQ_INT(a->type, UDF_TY_LIST_STR);
  udf_expr *b = stmt(f, 1)->u.assign.value;
  CHECK_EQ_INT(b->u.call.method, UDF_M_STRIP);
  CHECK(b->u.call.cargs[0] == NULL); /* None means "not given" */
  udf_expr *c = stmt(f, 2)->u.assign.value;
  CHECK_EQ_INT(c->u.call.ncargs, 3);
  CHECK(c->u.call.cargs[1] == NULL);
  CHECK(c->u.call.cargs[2] && c->u.call.cargs[2]->kind == UDF_E_CAST);
  CHECK_EQ_INT(c->type, UDF_TY_INT);
  udf_expr *d = stmt(f, 3)->u.assign.value;
  CHECK_EQ_INT(d->u.call.cargs[0]->type, UDF_TY_TUPLE_STR);
  CHECK_EQ_INT(d->u.call.cargs[0]->u.seq.n, 2);
  CHECK(d->u.call.cargs[2] == NULL);
  CHECK_EQ_INT(d->type, UDF_TY_BOOL);
  udf_expr *e = stmt(f, 4)->u.assign.value;
  CHECK_EQ_INT(e->u.call.cargs[0]->kind, UDF_E_TRUTH);
  CHECK_EQ_INT(type_of(f, "h"), UDF_TY_STR);
  CHECK_EQ_INT(type_of(f, "sep"), UDF_TY_STR);
  udf_stmt *un = stmt(f, 6);
  CHECK_EQ_INT(un->u.assign.targets[0]->kind, UDF_E_TUPLE);
  CHECK_EQ_INT(un->u.assign.value->type, UDF_TY_TUPLE_STR);
  udf_expr *l = stmt(f, 8)->u.assign.value;
  udf_expr *gen = l->u.call.cargs[0];
  CHECK_EQ_INT(gen->kind, UDF_E_GENEXP);
  CHECK_EQ_INT(gen->type, UDF_TY_LIST_STR);
  CHECK(gen->u.comp.gens[0].target->is_comp_var);
  CHECK_EQ_INT(gen->u.comp.gens[0].target->type, UDF_TY_STR);
  CHECK_EQ_INT(gen->u.comp.gens[0].ifs[0]->type, UDF_TY_BOOL);
  udf_expr *p = stmt(f, 9)->u.assign.value;
  CHECK_EQ_INT(p->kind, UDF_E_SLICE);
  CHECK(p->u.slice.lower && p->u.slice.upper && p->u.slice.step);
  udf_module_free(m);
}

static void test_builtins(void) {
  udf_module *m = compile_str("def f(s):\n"
                              "    a = str()\n"
                              "    b = int()\n"
                              "    c = float()\n"
                              "    d = bool()\n"
                              "    e = bool(s)\n"
                              "    g = min(s, 'a', 'b') + max(s) + min(s.split())\n"
                              "    h = ord(s) + len(s.split()) + len(('a', 'b'))\n"
                              "    k = chr(h) + str(1.5) + str(True)\n"
                              "    x = float(s) + float(h)\n"
                              "    return f'{a}{b}{c}{d}{e}{g}{h}{k}{x}'\n");
  if (!m) return;
  udf_func *f = m->entry;
  CHECK_EQ_INT(stmt(f, 0)->u.assign.value->kind, UDF_E_STR);
  CHECK_EQ_INT(stmt(f, 0)->u.assign.value->u.str.len, 0);
  CHECK_EQ_INT(stmt(f, 1)->u.assign.value->kind, UDF_E_INT);
  CHECK_EQ_INT(stmt(f, 2)->u.assign.value->kind, UDF_E_FLOAT);
  CHECK_EQ_INT(stmt(f, 3)->u.assign.value->kind, UDF_E_BOOL);
  CHECK_EQ_INT(stmt(f, 4)->u.assign.value->kind, UDF_E_TRUTH);
  CHECK_EQ_INT(type_of(f, "g"), UDF_TY_STR);
  CHECK_EQ_INT(type_of(f, "h"), UDF_TY_INT);
  CHECK_EQ_INT(type_of(f, "k"), UDF_TY_STR);
  CHECK_EQ_INT(type_of(f, "x"), UDF_TY_FLOAT);
  udf_expr *fs = stmt(f, 9)->u.ret.value;
  CHECK_EQ_INT(fs->kind, UDF_E_FSTRING);
  CHECK_EQ_INT(fs->u.fstring.nparts, 9);
  udf_module_free(m);
}

static void test_helpers(void) {
  udf_module *m = compile_str("def unused(q):\n"
                              "    return q.nothing()\n"
                              "def pick(x, sep=',', n=1):\n"
                              "    head, s, tail = x.partition(sep)\n"
                              "    if s:\n"
                              "        return head * n\n"
                              "def count(s, c='a'):\n"
                              "    return s.count(c)\n"
                              "def f(s):\n"
                              "    r = pick(s, n=2)\n"
                              "    k = count(s) + count(s, c='b')\n"
                              "    if r is None:\n"
                              "        return None\n"
                              "    return r + str(k)\n");
  if (!m) return;
  CHECK_EQ_INT(m->nfuncs, 4);
  udf_func *unused = m->funcs[0], *pick = m->funcs[1], *count = m->funcs[2], *f = m->funcs[3];
  CHECK(m->entry == f);
  CHECK(!unused->checked); /* never called: never typed, never compiled */
  CHECK(pick->checked && count->checked);
  CHECK_EQ_INT(pick->result, UDF_TY_STR | UDF_TY_NULLABLE);
  CHECK(pick->falls_off_end);
  CHECK_EQ_INT(pick->params[0]->type, UDF_TY_STR);
  CHECK_EQ_INT(pick->params[1]->type, UDF_TY_STR);
  CHECK_EQ_INT(pick->params[2]->type, UDF_TY_INT);
  CHECK_EQ_INT(count->result, UDF_TY_INT);
  CHECK_EQ_INT(f->result, UDF_TY_STR | UDF_TY_NULLABLE);
  CHECK_EQ_INT(type_of(f, "r"), UDF_TY_STR | UDF_TY_NULLABLE);
  udf_expr *call = stmt(f, 0)->u.assign.value;
  CHECK_EQ_INT(call->u.call.ckind, UDF_CALL_FUNC);
  CHECK(call->u.call.callee == pick);
  CHECK_EQ_INT(call->u.call.ncargs, 3);
  CHECK_EQ_INT(call->u.call.cargs[1]->kind, UDF_E_STR); /* the default */
  CHECK_EQ_INT(call->u.call.cargs[2]->kind, UDF_E_INT); /* the keyword */
  CHECK_EQ_INT(call->u.call.cargs[2]->u.ival, 2);
  /* after `if r is None: return None`, r is read through a cast to str */
  udf_expr *ret = stmt(f, 3)->u.ret.value;
  CHECK_EQ_INT(ret->u.binary.left->kind, UDF_E_CAST);
  CHECK_EQ_INT(ret->u.binary.left->type, UDF_TY_STR);
  CHECK_EQ_INT(ret->u.binary.left->u.cast.operand->type, UDF_TY_STR | UDF_TY_NULLABLE);
  udf_module_free(m);

  /* a helper first called while the caller's variable types are still being inferred gets
   * the settled types: x is None on the first iteration but str | None in the end */
  m = compile_str("def g(a):\n    return a\n"
                  "def f(s):\n"
                  "    x = None\n"
                  "    y = None\n"
                  "    for c in s:\n"
                  "        y = g(x)\n"
                  "        x = c\n"
                  "    return y\n");
  if (m) {
    CHECK_EQ_INT(m->funcs[0]->params[0]->type, UDF_TY_STR | UDF_TY_NULLABLE);
    CHECK_EQ_INT(m->funcs[0]->result, UDF_TY_STR | UDF_TY_NULLABLE);
    CHECK_EQ_INT(type_of(m->entry, "y"), UDF_TY_STR | UDF_TY_NULLABLE);
    udf_module_free(m);
  }

  /* entry chosen by name; the last def is the default */
  udf_type pt[1] = {UDF_TY_INT};
  m = compile("def a(x):\n    return x + 1\ndef b(x):\n    return str(x)\n", "a", pt, 1);
  if (m) {
    CHECK_EQ_STR(m->entry->name, "a");
    CHECK_EQ_INT(m->entry->result, UDF_TY_INT);
    CHECK(!m->funcs[1]->checked);
    udf_module_free(m);
  }
  m = compile("def a(x):\n    return x + 1\ndef b(x):\n    return str(x)\n", NULL, pt, 1);
  if (m) {
    CHECK_EQ_STR(m->entry->name, "b");
    CHECK_EQ_INT(m->entry->result, UDF_TY_STR);
    udf_module_free(m);
  }
  /* a lambda module */
  m = compile_str("lambda s: s.upper() if s else None\n");
  if (m) {
    CHECK(m->entry->is_lambda);
    CHECK_EQ_STR(m->entry->name, "<lambda>");
    CHECK_EQ_INT(m->entry->result, UDF_TY_STR | UDF_TY_NULLABLE);
    udf_module_free(m);
  }
  m = compile_str("def f(s):\n    return s\n\nif __name__ == '__main__':\n    print(f('x'))\n");
  if (m) {
    CHECK_EQ_INT(m->nfuncs, 1);
    udf_module_free(m);
  }
  m = compile_str("upper = lambda s: s.upper()\n");
  if (m) {
    CHECK_EQ_STR(m->entry->name, "upper");
    CHECK_EQ_INT(m->entry->result, UDF_TY_STR);
    udf_module_free(m);
  }
}

static void test_flow(void) {
  udf_module *m = compile_str("def f(s):\n"
                              "    for w in s.split():\n"
                              "        last = w\n"
                              "    if s:\n"
                              "        y = 1\n"
                              "    else:\n"
                              "        y = 2\n"
                              "    z = y\n"
                              "    return last + w + str(z)\n");
  if (!m) return;
  udf_func *f = m->entry;
  CHECK(local(f, "last")->needs_bound_flag);
  CHECK(local(f, "w")->needs_bound_flag);
  CHECK(!local(f, "y")->needs_bound_flag);
  CHECK(!local(f, "z")->needs_bound_flag);
  udf_expr *r = stmt(f, 3)->u.ret.value; /* ((last + w) + str(z)) */
  udf_expr *lw = r->u.binary.left;
  CHECK(lw->u.binary.left->u.name.check_bound);
  CHECK(lw->u.binary.right->u.name.check_bound);
  CHECK(!f->falls_off_end);
  udf_module_free(m);

  m = compile_str("def f(s):\n"
                  "    i = 0\n"
                  "    while True:\n"
                  "        i += 1\n"
                  "        if i > len(s):\n"
                  "            return i\n");
  if (m) {
    CHECK(!m->entry->falls_off_end);
    CHECK_EQ_INT(m->entry->result, UDF_TY_INT);
    udf_module_free(m);
  }
  m = compile_str("def f(s):\n"
                  "    while True:\n"
                  "        if s:\n"
                  "            break\n"
                  "    return 1\n");
  if (m) {
    CHECK(!m->entry->falls_off_end);
    udf_module_free(m);
  }
  m = compile_str("def f(s):\n    if s:\n        return 1\n");
  if (m) {
    CHECK(m->entry->falls_off_end);
    CHECK_EQ_INT(m->entry->result, UDF_TY_INT | UDF_TY_NULLABLE);
    udf_module_free(m);
  }
  m = compile_str("def f(s):\n    pass\n");
  if (m) {
    CHECK_EQ_INT(m->entry->result, UDF_TY_NONE);
    udf_module_free(m);
  }
  /* a variable assigned None and str is nullable; loops see later assignments */
  m = compile_str("def f(s):\n"
                  "    best = None\n"
                  "    prev = ''\n"
                  "    for c in s:\n"
                  "        if c == prev:\n"
                  "            best = c\n"
                  "        prev = c\n"
                  "    if best is not None:\n"
                  "        return best.upper()\n"
                  "    return best\n");
  if (m) {
    udf_func *g = m->entry;
    CHECK_EQ_INT(type_of(g, "best"), UDF_TY_STR | UDF_TY_NULLABLE);
    CHECK_EQ_INT(type_of(g, "prev"), UDF_TY_STR);
    CHECK_EQ_INT(type_of(g, "c"), UDF_TY_STR);
    CHECK_EQ_INT(g->result, UDF_TY_STR | UDF_TY_NULLABLE);
    udf_module_free(m);
  }
  /* narrowing ends at reassignment */
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *bad = NULL;
  const char *src = "def f(s):\n"
                    "    r = s if s else None\n"
                    "    if r is None:\n"
                    "        return ''\n"
                    "    r = None\n"
                    "    return r.upper()\n";
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "t", NULL, pt, 1, &bad, NULL, NULL), NRT_ETYPE);
}

static void test_ranges_and_comprehensions(void) {
  udf_module *m = compile_str("def f(s):\n"
                              "    total = 0\n"
                              "    for i in range(len(s)):\n"
                              "        total += i\n"
                              "    for j in range(1, 10, 2):\n"
                              "        total -= j\n"
                              "    xs = [s[i] for i in range(len(s)) if i % 2 == 0]\n"
                              "    ys = [w.upper() for w in s.split() for c in w]\n"
                              "    zs = [c for c in s]\n"
                              "    return str(total) + ''.join(xs) + ''.join(ys) + str(len(zs))\n");
  if (!m) return;
  udf_func *f = m->entry;
  CHECK_EQ_INT(type_of(f, "i"), UDF_TY_INT);
  CHECK_EQ_INT(type_of(f, "j"), UDF_TY_INT);
  CHECK_EQ_INT(type_of(f, "xs"), UDF_TY_LIST_STR);
  CHECK_EQ_INT(type_of(f, "ys"), UDF_TY_LIST_STR);
  CHECK_EQ_INT(stmt(f, 1)->u.for_.iter->type, UDF_TY_RANGE);
  udf_expr *xs = stmt(f, 3)->u.assign.value;
  CHECK_EQ_INT(xs->kind, UDF_E_LISTCOMP);
  udf_var *ci = xs->u.comp.gens[0].target;
  CHECK(ci->is_comp_var);
  CHECK(ci != local(f, "i")); /* comprehension variables have their own scope */
  CHECK_EQ_INT(ci->type, UDF_TY_INT);
  CHECK_EQ_INT(xs->u.comp.elt->u.subscript.index->u.name.var->index, ci->index);
  udf_expr *ys = stmt(f, 4)->u.assign.value;
  CHECK_EQ_INT(ys->u.comp.ngens, 2);
  udf_module_free(m);
}

static void test_fstrings(void) {
  udf_type pt[2] = {UDF_TY_STR, UDF_TY_FLOAT};
  udf_module *m = compile("def f(s, x):\n"
                          "    return f'<{s!r:>10}|{x:.2f}|{len(s):05d}|{x=}|{{}}>'\n",
                          NULL, pt, 2);
  if (!m) return;
  udf_expr *fs = stmt(m->entry, 0)->u.ret.value;
  CHECK_EQ_INT(fs->type, UDF_TY_STR);
  udf_fpart *p = fs->u.fstring.parts;
  CHECK_EQ_INT(fs->u.fstring.nparts, 9);
  CHECK(!p[0].is_field);
  CHECK_EQ_STR(p[0].text.data, "<");
  CHECK(p[1].is_field);
  CHECK_EQ_INT(p[1].conversion, 'r');
  CHECK_EQ_STR(p[1].spec.data, ">10");
  CHECK_EQ_STR(p[3].spec.data, ".2f");
  CHECK_EQ_INT(p[3].conversion, 0);
  CHECK_EQ_STR(p[5].spec.data, "05d");
  CHECK_EQ_INT(p[5].expr->type, UDF_TY_INT);
  CHECK_EQ_STR(p[6].text.data, "|x=");
  CHECK_EQ_INT(p[7].conversion, 'r');
  CHECK_EQ_STR(p[8].text.data, "|{}>");
  CHECK_EQ_INT(p[1].expr->loc.line, 2);
  CHECK_EQ_INT(p[1].expr->loc.col, 16);
  udf_module_free(m);
}

int main(void) {
  struct check_live before = check_live_now();
  test_seed();
  test_numeric();
  test_truth_and_boolops();
  test_methods();
  test_builtins();
  test_helpers();
  test_flow();
  test_ranges_and_comprehensions();
  test_fstrings();
  CHECK_NO_LEAK(before);
  return check_finish("test_front_types");
}

/* libFuzzer harness over the UDF front end: any bytes as a source file. The front end must
 * never crash or leak, must fail with a located diagnostic, and on success must produce a tree
 * meeting the guarantees of ast.h (checked here by a walk over every checked function). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "udf/front.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define REQUIRE(c)                                                                           \
  do {                                                                                       \
    if (!(c)) {                                                                              \
      fprintf(stderr, "fuzz_front: invariant failed: %s (line %d)\n", #c, __LINE__);          \
      __builtin_trap();                                                                      \
    }                                                                                        \
  } while (0)

static void walk_expr(const udf_expr *e);

static void walk_cond(const udf_expr *e) {
  walk_expr(e);
  REQUIRE(e->type == UDF_TY_BOOL);
}

static bool numeric(udf_type t) {
  return t == UDF_TY_INT || t == UDF_TY_FLOAT || t == UDF_TY_BOOL;
}

static void walk_expr(const udf_expr *e) {
  REQUIRE(e != NULL);
  REQUIRE(e->type != UDF_TY_UNKNOWN);
  REQUIRE(e->loc.line >= 1 && e->loc.col >= 1);
  switch (e->kind) {
  case UDF_E_FSTRING:
    for (int i = 0; i < e->u.fstring.nparts; i++)
      if (e->u.fstring.parts[i].is_field) walk_expr(e->u.fstring.parts[i].expr);
    break;
  case UDF_E_NAME: REQUIRE(e->u.name.var != NULL); break;
  case UDF_E_UNARY:
    if (e->u.unary.op == UDF_UOP_NOT) walk_cond(e->u.unary.operand);
    else walk_expr(e->u.unary.operand);
    REQUIRE(e->u.unary.op != UDF_UOP_INVERT);
    break;
  case UDF_E_BINARY:
    walk_expr(e->u.binary.left);
    walk_expr(e->u.binary.right);
    if (e->u.binary.op >= UDF_OP_MATMUL) /* set operators, dict | */
      REQUIRE(udf_type_base(e->type) == UDF_TY_SET || udf_type_base(e->type) == UDF_TY_DICT);
    if (numeric(e->u.binary.left->type) && numeric(e->u.binary.right->type))
      REQUIRE(e->u.binary.left->type == e->u.binary.right->type);
    break;
  case UDF_E_BOOLOP:
    for (int i = 0; i < e->u.boolop.n; i++) walk_expr(e->u.boolop.values[i]);
    break;
  case UDF_E_COMPARE:
    for (int i = 0; i <= e->u.compare.n; i++) walk_expr(e->u.compare.operands[i]);
    REQUIRE(e->type == UDF_TY_BOOL);
    break;
  case UDF_E_IFEXP:
    walk_cond(e->u.ifexp.test);
    walk_expr(e->u.ifexp.body);
    walk_expr(e->u.ifexp.orelse);
    break;
  case UDF_E_CALL:
    REQUIRE(e->u.call.ckind != UDF_CALL_UNRESOLVED);
    if (e->u.call.ckind == UDF_CALL_METHOD) walk_expr(e->u.call.receiver);
    if (e->u.call.ckind == UDF_CALL_FUNC) REQUIRE(e->u.call.callee && e->u.call.callee->checked);
    for (int i = 0; i < e->u.call.ncargs; i++) /* NULL: an absent optional argument */
      if (e->u.call.cargs[i]) walk_expr(e->u.call.cargs[i]);
      else REQUIRE(e->u.call.ckind != UDF_CALL_FUNC); /* defaults are filled in */
    break;
  case UDF_E_ATTRIBUTE: REQUIRE(!"a bare attribute survived the checker"); break;
  case UDF_E_SUBSCRIPT:
    walk_expr(e->u.subscript.value);
    walk_expr(e->u.subscript.index);
    if (udf_type_base(e->u.subscript.value->type) == UDF_TY_DICT) /* d[k]: a key */
      REQUIRE(e->u.subscript.index->type == udf_type_param1(e->u.subscript.value->type));
    else if (udf_type_base(e->u.subscript.value->type) != UDF_TY_MATCH) /* m['name'] too */
      REQUIRE(e->u.subscript.index->type == UDF_TY_INT);
    break;
  case UDF_E_SLICE:
    walk_expr(e->u.slice.value);
    if (e->u.slice.lower) walk_expr(e->u.slice.lower);
    if (e->u.slice.upper) walk_expr(e->u.slice.upper);
    if (e->u.slice.step) walk_expr(e->u.slice.step);
    break;
  case UDF_E_LIST:
  case UDF_E_TUPLE:
    for (int i = 0; i < e->u.seq.n; i++) walk_expr(e->u.seq.items[i]);
    break;
  case UDF_E_LISTCOMP:
  case UDF_E_GENEXP:
    for (int g = 0; g < e->u.comp.ngens; g++) {
      walk_expr(e->u.comp.gens[g].iter);
      for (int k = 0; k < e->u.comp.gens[g].nifs; k++) walk_cond(e->u.comp.gens[g].ifs[k]);
    }
    walk_expr(e->u.comp.elt);
    if (e->kind == UDF_E_LISTCOMP) /* a list of str, or of the numbers of its parameter */
      REQUIRE(e->u.comp.elt->type == (udf_type_base(e->type) == UDF_TY_LIST
                                          ? udf_type_param1(e->type)
                                          : (udf_type)UDF_TY_STR));
    break;
  case UDF_E_CAST: walk_expr(e->u.cast.operand); break;
  case UDF_E_TRUTH: walk_expr(e->u.truth.operand); break;
  case UDF_E_NAMED:
    walk_expr(e->u.named.value);
    REQUIRE(e->u.named.target->u.name.var && e->u.named.target->u.name.var->index >= 0 &&
            !e->u.named.target->u.name.var->is_comp_var);
    break;
  default: break;
  }
}

static void walk_block(const udf_block *b);

static void require_local(void *ctx, udf_var *v) {
  (void)ctx;
  REQUIRE(v->index >= 0 && v->type != UDF_TY_UNKNOWN);
}

static void walk_stmt(const udf_stmt *s) {
  switch (s->kind) {
  case UDF_S_EXPR: walk_expr(s->u.expr); break;
  case UDF_S_ASSIGN:
    walk_expr(s->u.assign.value);
    for (int i = 0; i < s->u.assign.ntargets; i++)
      REQUIRE(s->u.assign.targets[i]->kind == UDF_E_NAME ||
              s->u.assign.targets[i]->kind == UDF_E_TUPLE);
    break;
  case UDF_S_AUGASSIGN: walk_expr(s->u.augassign.value); break;
  case UDF_S_IF:
    walk_cond(s->u.if_.test);
    walk_block(&s->u.if_.body);
    walk_block(&s->u.if_.orelse);
    break;
  case UDF_S_WHILE:
    walk_cond(s->u.while_.test);
    walk_block(&s->u.while_.body);
    walk_block(&s->u.while_.orelse);
    break;
  case UDF_S_FOR:
    walk_expr(s->u.for_.iter);
    REQUIRE((s->u.for_.target == NULL) != (s->u.for_.unpack == NULL));
    udf_target_each_var(s->u.for_.target, s->u.for_.unpack, require_local, NULL);
    walk_block(&s->u.for_.body);
    walk_block(&s->u.for_.orelse);
    break;
  case UDF_S_RETURN:
    if (s->u.ret.value) walk_expr(s->u.ret.value);
    break;
  case UDF_S_TRY:
    walk_block(&s->u.try_.body);
    for (int k = 0; k < s->u.try_.nhandlers; k++) {
      const udf_handler *h = s->u.try_.handlers[k];
      REQUIRE(h->type || k == s->u.try_.nhandlers - 1); /* a bare except is last */
      if (h->name) REQUIRE(h->name->index >= 0 && h->name->type == UDF_TY_STR);
      walk_block(&h->body);
    }
    walk_block(&s->u.try_.orelse);
    walk_block(&s->u.try_.finalbody);
    REQUIRE(s->u.try_.nhandlers > 0 || s->u.try_.finalbody.n > 0);
    break;
  case UDF_S_RAISE:
    if (s->u.raise.exc) REQUIRE(s->u.raise.code != 0);
    if (s->u.raise.msg) {
      walk_expr(s->u.raise.msg);
      REQUIRE(s->u.raise.msg->type == UDF_TY_STR);
    }
    break;
  default: break;
  }
}

static void walk_block(const udf_block *b) {
  for (int i = 0; i < b->n; i++) walk_stmt(b->items[i]);
}

static void check_module(const udf_module *m) {
  REQUIRE(m->entry && m->entry->checked);
  for (int i = 0; i < m->nfuncs; i++) {
    const udf_func *f = m->funcs[i];
    if (!f->checked) continue;
    REQUIRE(f->result != UDF_TY_UNKNOWN);
    for (int k = 0; k < f->nlocals; k++) REQUIRE(f->locals[k]->index == k);
    walk_block(&f->body);
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const udf_type kinds[2][4] = {
      {UDF_TY_STR, UDF_TY_STR, UDF_TY_STR, UDF_TY_STR},
      {UDF_TY_INT, UDF_TY_FLOAT, UDF_TY_BOOL, UDF_TY_STR},
  };
  for (int n = 0; n <= 4; n++) {
    for (int k = 0; k < 2; k++) {
      udf_module *m = NULL;
      udf_diag d;
      struct nrt_error err;
      int rc = udf_front_compile((const char *)data, size, "fuzz.py", NULL, kinds[k], n, &m, &d,
                                 &err);
      if (rc == NRT_OK) {
        check_module(m);
        udf_module_free(m);
        continue;
      }
      REQUIRE(m == NULL);
      REQUIRE(err.code == rc && d.message[0] != '\0');
      REQUIRE(strlen(err.message) < sizeof err.message);
      if (rc != NRT_EINVAL) REQUIRE(d.line >= 1 && d.col >= 1);
      if (rc != NRT_EINVAL) return 0; /* the program itself is bad: same for any columns */
    }
  }
  return 0;
}

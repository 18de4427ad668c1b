/* The module arena, type and method names, and udf_module_free. */
#include <stdalign.h>
#include <string.h>

#include "udf/ast.h"
#include "udf/ast_arena.h"
#include "udf/re_compile.h"

size_t udf_arena_chunk_size = 16384;

struct udf_chunk {
  struct udf_chunk *next;
  size_t size; /* bytes of the whole chunk including this header */
  size_t used;
  alignas(16) unsigned char data[];
};

struct udf_arena {
  struct udf_chunk *head;
  bool failed;
};

udf_arena *udf_arena_create(struct nrt_error *err) {
  udf_arena *a = nrt_allocate(sizeof *a, err);
  if (a) {
    a->head = NULL;
    a->failed = false;
  }
  return a;
}

void udf_arena_destroy(udf_arena *a) {
  if (!a) return;
  struct udf_chunk *c = a->head;
  while (c) {
    struct udf_chunk *next = c->next;
    nrt_free(c, c->size);
    c = next;
  }
  nrt_free(a, sizeof *a);
}

void *udf_arena_alloc(udf_arena *a, size_t n) {
  if (a->failed) return NULL;
  n = (n + 15) & ~(size_t)15;
  if (n == 0) n = 16;
  struct udf_chunk *c = a->head;
  if (!c || c->size - sizeof *c - c->used < n) {
    size_t size = sizeof *c + (n > udf_arena_chunk_size ? n : udf_arena_chunk_size);
    c = nrt_allocate(size, NULL);
    if (!c) {
      a->failed = true;
      return NULL;
    }
    c->size = size;
    c->used = 0;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->data + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

char *udf_arena_strndup(udf_arena *a, const char *s, size_t n) {
  char *p = udf_arena_alloc(a, n + 1);
  if (!p) return NULL;
  if (n) memcpy(p, s, n);
  p[n] = '\0';
  return p;
}

bool udf_arena_failed(const udf_arena *a) { return a->failed; }

bool udf_arena_push(udf_arena *a, void ***items, int *n, int *cap, void *item) {
  if (*n == *cap) {
    int ncap = *cap ? *cap * 2 : 4;
    void **grown = udf_arena_alloc(a, (size_t)ncap * sizeof *grown);
    if (!grown) return false;
    if (*n) memcpy(grown, *items, (size_t)*n * sizeof *grown);
    *items = grown;
    *cap = ncap;
  }
  (*items)[(*n)++] = item;
  return true;
}

void udf_module_free(udf_module *m) {
  if (!m) return;
  udf_re_set_free(m->res);
  udf_arena_destroy(m->arena); /* the module itself lives in its arena */
}

const char *udf_type_name(udf_type t) {
  if (udf_type_is_nullable(t)) {
    switch (udf_type_base(t)) {
    case UDF_TY_BOOL: return "bool | None";
    case UDF_TY_INT: return "int | None";
    case UDF_TY_FLOAT: return "float | None";
    case UDF_TY_STR: return "str | None";
    case UDF_TY_LIST_STR: return "list | None";
    case UDF_TY_LIST: return "list | None";
    case UDF_TY_TUPLE_STR: return "tuple | None";
    case UDF_TY_MATCH: return "re.Match | None";
    default: return "NoneType";
    }
  }
  switch (udf_type_base(t)) {
  case UDF_TY_NONE: return "NoneType";
  case UDF_TY_BOOL: return "bool";
  case UDF_TY_INT: return "int";
  case UDF_TY_FLOAT: return "float";
  case UDF_TY_STR: return "str";
  case UDF_TY_LIST_STR: return "list";
  case UDF_TY_LIST: return "list";
  case UDF_TY_TUPLE_STR: return "tuple";
  case UDF_TY_TUPLE: return "tuple";
  case UDF_TY_RANGE: return "range";
  case UDF_TY_ITER: return "iterator";
  case UDF_TY_DICT: return "dict";
  case UDF_TY_SET: return "set";
  case UDF_TY_MATCH: return "re.Match";
  default: return "unknown";
  }
}

static void visit_all(udf_expr *const *items, int n, void (*visit)(void *, const udf_expr *),
                      void *ctx) {
  for (int i = 0; i < n; i++)
    if (items[i])
      visit(ctx, items[i]);
}

void udf_expr_each_child(const udf_expr *e, void (*visit)(void *ctx, const udf_expr *child),
                         void *ctx) {
  const udf_expr *one[4] = {NULL, NULL, NULL, NULL};
  switch (e->kind) {
  case UDF_E_FSTRING:
    for (int i = 0; i < e->u.fstring.nparts; i++)
      if (e->u.fstring.parts[i].expr)
        visit(ctx, e->u.fstring.parts[i].expr);
    return;
  case UDF_E_UNARY: one[0] = e->u.unary.operand; break;
  case UDF_E_BINARY: one[0] = e->u.binary.left, one[1] = e->u.binary.right; break;
  case UDF_E_BOOLOP: visit_all(e->u.boolop.values, e->u.boolop.n, visit, ctx); return;
  case UDF_E_COMPARE: visit_all(e->u.compare.operands, e->u.compare.n + 1, visit, ctx); return;
  case UDF_E_IFEXP:
    one[0] = e->u.ifexp.test, one[1] = e->u.ifexp.body, one[2] = e->u.ifexp.orelse;
    break;
  case UDF_E_CALL:
    /* A checked call is visited through its normalised form only: its arguments as written
     * are (or are wrapped by) its cargs, and its receiver is its func's value. Visiting both
     * would double the work at each nesting level. */
    if (e->u.call.ckind != UDF_CALL_UNRESOLVED) {
      if (e->u.call.receiver)
        visit(ctx, e->u.call.receiver);
      visit_all(e->u.call.cargs, e->u.call.ncargs, visit, ctx);
      return;
    }
    if (e->u.call.func)
      visit(ctx, e->u.call.func);
    visit_all(e->u.call.args, e->u.call.nargs, visit, ctx);
    for (int i = 0; i < e->u.call.nkeywords; i++)
      if (e->u.call.keywords[i].value)
        visit(ctx, e->u.call.keywords[i].value);
    return;
  case UDF_E_ATTRIBUTE: one[0] = e->u.attribute.value; break;
  case UDF_E_SUBSCRIPT: one[0] = e->u.subscript.value, one[1] = e->u.subscript.index; break;
  case UDF_E_SLICE:
    one[0] = e->u.slice.value, one[1] = e->u.slice.lower, one[2] = e->u.slice.upper;
    one[3] = e->u.slice.step;
    break;
  case UDF_E_LIST:
  case UDF_E_TUPLE: visit_all(e->u.seq.items, e->u.seq.n, visit, ctx); return;
  case UDF_E_LISTCOMP:
  case UDF_E_GENEXP:
  case UDF_E_DICTCOMP:
  case UDF_E_SETCOMP:
    for (int g = 0; g < e->u.comp.ngens; g++) {
      visit(ctx, e->u.comp.gens[g].iter);
      visit_all(e->u.comp.gens[g].ifs, e->u.comp.gens[g].nifs, visit, ctx);
    }
    visit(ctx, e->u.comp.elt);
    if (e->u.comp.value)
      visit(ctx, e->u.comp.value);
    return;
  case UDF_E_DICT:
  case UDF_E_SET:
    for (int i = 0; i < e->u.dict.n; i++) {
      visit(ctx, e->u.dict.keys[i]);
      if (e->u.dict.values)
        visit(ctx, e->u.dict.values[i]);
    }
    return;
  case UDF_E_CAST: one[0] = e->u.cast.operand; break;
  case UDF_E_TRUTH: one[0] = e->u.truth.operand; break;
  case UDF_E_NAMED: one[0] = e->u.named.value; break; /* the target is a store, not a use */
  default: return; /* names and literals */
  }
  for (int i = 0; i < 4; i++)
    if (one[i])
      visit(ctx, one[i]);
}

void udf_target_each_var(udf_var *var, const udf_expr *unpack,
                         void (*visit)(void *ctx, udf_var *v), void *ctx) {
  if (var)
    visit(ctx, var);
  if (!unpack)
    return;
  if (unpack->kind == UDF_E_NAME) {
    if (unpack->u.name.var)
      visit(ctx, unpack->u.name.var);
    return;
  }
  for (int i = 0; unpack->kind == UDF_E_TUPLE && i < unpack->u.seq.n; i++)
    udf_target_each_var(NULL, unpack->u.seq.items[i], visit, ctx);
}

/* Folding str.maketrans(...) and dict displays into translate tables (translate_table.h), with
 * CPython 3.11's checks and messages for maketrans. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "udf/runtime_translate.h"
#include "udf/translate_table.h"

enum { V_STR, V_INT, V_NONE, V_BAD };

typedef struct item {
  int64_t key;
  int kind;
  const char *data; /* V_STR */
  int64_t len;      /* V_STR: bytes; V_INT: the value */
} item;

typedef struct builder {
  udf_diagctx *dc;
  udf_arena *a;
  udf_loc loc;
  item *v;
  int n, cap;
} builder;

static bool oom(builder *b) {
  udf_diag_error(b->dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  return false;
}

static bool int_literal(const udf_expr *e, int64_t *v) {
  if (e->kind == UDF_E_INT || e->kind == UDF_E_BOOL) {
    *v = e->kind == UDF_E_INT ? e->u.ival : e->u.bval;
    return true;
  }
  if (e->kind == UDF_E_UNARY && e->u.unary.op == UDF_UOP_NEG &&
      e->u.unary.operand->kind == UDF_E_INT && e->u.unary.operand->u.ival > 0) {
    *v = -e->u.unary.operand->u.ival;
    return true;
  }
  return false;
}

static bool scalar_literal(const udf_expr *e) {
  int64_t v;
  return e->kind == UDF_E_STR || e->kind == UDF_E_FLOAT || e->kind == UDF_E_NONE ||
         int_literal(e, &v);
}

bool udf_trans_is_literal(const udf_expr *e) {
  if (e->kind != UDF_E_DICT)
    return scalar_literal(e);
  for (int i = 0; i < e->u.dict.n; i++)
    if (!e->u.dict.keys[i] || !scalar_literal(e->u.dict.keys[i]) ||
        !scalar_literal(e->u.dict.values[i]))
      return false;
  return true;
}

/* Python's type name of a literal, for messages. */
static const char *type_name(const udf_expr *e) {
  switch (e->kind) {
  case UDF_E_STR: return "str";
  case UDF_E_FLOAT: return "float";
  case UDF_E_NONE: return "None"; /* CPython's argument messages say None */
  case UDF_E_BOOL: return "bool";
  case UDF_E_DICT: return "dict";
  default: return "int";
  }
}

/* Sets key to v (a later key replaces an earlier equal one, as in a dict). */
static bool put(builder *b, int64_t key, const udf_expr *v) {
  item it = {key, V_BAD, NULL, 0};
  int64_t iv;
  if (v->kind == UDF_E_STR) {
    it.kind = V_STR;
    it.data = v->u.str.data;
    it.len = v->u.str.len;
  } else if (v->kind == UDF_E_NONE) {
    it.kind = V_NONE;
  } else if (int_literal(v, &iv)) {
    it.kind = V_INT;
    it.len = iv;
  }
  for (int i = 0; i < b->n; i++)
    if (b->v[i].key == key) {
      b->v[i] = it;
      return true;
    }
  if (b->n == b->cap) {
    int ncap = b->cap ? b->cap * 2 : 64;
    item *grown = udf_arena_alloc(b->a, (size_t)ncap * sizeof *grown);
    if (!grown)
      return oom(b);
    if (b->n)
      memcpy(grown, b->v, (size_t)b->n * sizeof *grown);
    b->v = grown;
    b->cap = ncap;
  }
  b->v[b->n++] = it;
  return true;
}

static bool put_cp(builder *b, int64_t key, uint32_t cp) {
  udf_expr v;
  memset(&v, 0, sizeof v);
  v.kind = UDF_E_INT;
  v.u.ival = cp;
  return put(b, key, &v);
}

static int by_key(const void *x, const void *y) {
  const item *a = x, *b = y;
  return a->key < b->key ? -1 : a->key > b->key;
}

/* The table's bytes: head, the entries >= 128 sorted, the replacement pool. */
static bool emit(builder *b, char **table, int64_t *size) {
  if (b->n)
    qsort(b->v, (size_t)b->n, sizeof *b->v, by_key);
  int64_t pool = 0;
  uint32_t nbig = 0;
  for (int i = 0; i < b->n; i++) {
    item *it = &b->v[i];
    if (it->key < 0 || it->key >= 0x110000)
      continue; /* no code point looks it up */
    if (it->key >= 128)
      nbig++;
    if (it->kind == V_STR)
      pool += it->len;
    else if (it->kind == V_INT)
      pool += 4;
    if (it->kind == V_INT && it->len >= 0xd800 && it->len <= 0xdfff)
      return udf_diag_error(b->dc, NRT_EUNSUPPORTED, b->loc,
                            "unsupported: a translate table mapping to a surrogate code point"),
             false;
  }
  if (pool > INT32_MAX)
    return udf_diag_error(b->dc, NRT_EUNSUPPORTED, b->loc,
                          "unsupported: a translate table this large"),
           false;
  nrt_udf_trans_head h;
  memset(&h, 0, sizeof h);
  for (int c = 0; c < 128; c++) {
    h.ascii_len[c] = NRT_UDF_TRANS_KEEP;
    h.ascii_size[c] = 1;
    h.ascii_bytes[c] = (uint32_t)c;
  }
  h.short_ascii = 1;
  h.nbig = nbig;
  size_t bigat = sizeof h, poolat = bigat + (size_t)nbig * sizeof(nrt_udf_trans_entry);
  char *t = udf_arena_alloc(b->a, poolat + (size_t)pool + 1);
  if (!t)
    return oom(b);
  uint32_t off = 0, k = 0;
  for (int i = 0; i < b->n; i++) {
    item *it = &b->v[i];
    if (it->key < 0 || it->key >= 0x110000)
      continue;
    nrt_udf_trans_entry e = {(uint32_t)it->key, 0, off};
    if (it->kind == V_STR) {
      memcpy(t + poolat + off, it->data, (size_t)it->len);
      e.len = (int32_t)it->len;
    } else if (it->kind == V_INT && (it->len < 0 || it->len >= 0x110000)) {
      e.len = NRT_UDF_TRANS_RANGE;
    } else if (it->kind == V_INT) {
      e.len = (int32_t)nrt_utf8_encode((uint32_t)it->len, t + poolat + off);
    } else if (it->kind == V_BAD) {
      e.len = NRT_UDF_TRANS_BAD_TYPE;
    }
    off += e.len > 0 ? (uint32_t)e.len : 0;
    if (it->key < 128) {
      h.ascii_len[it->key] = e.len;
      h.ascii_off[it->key] = e.off;
      h.ascii_size[it->key] = e.len < 0 ? NRT_UDF_TRANS_RAISES
                                        : (e.len & 0xff) | NRT_UDF_TRANS_MAPPED;
      h.ascii_bytes[it->key] = 0;
      if (e.len > 4 || e.len < 0)
        h.short_ascii = 0;
      else
        memcpy(&h.ascii_bytes[it->key], t + poolat + off - e.len, (size_t)e.len);
    } else {
      memcpy(t + bigat + (size_t)k++ * sizeof e, &e, sizeof e);
    }
  }
  memcpy(t, &h, sizeof h);
  *table = t;
  *size = (int64_t)(poolat + off);
  return true;
}

static bool fail(builder *b, int code, const char *exc, const char *msg) {
  udf_diag_error(b->dc, code, b->loc, "str.maketrans raises %s: %s", exc, msg);
  return false;
}

bool udf_trans_fold_maketrans(udf_diagctx *dc, udf_arena *a, udf_loc loc, udf_expr *const *args,
                              int nargs, char **table, int64_t *size) {
  builder b = {dc, a, loc, NULL, 0, 0};
  char msg[96];
  if (nargs == 1) {
    const udf_expr *d = args[0];
    if (d->kind != UDF_E_DICT)
      return fail(&b, NRT_ETYPE, "TypeError",
                  "if you give only one argument to maketrans it must be a dict");
    for (int i = 0; i < d->u.dict.n; i++) {
      const udf_expr *k = d->u.dict.keys[i];
      int64_t key;
      if (k->kind == UDF_E_STR) {
        size_t used = 0;
        uint32_t cp = k->u.str.len ? nrt_utf8_decode(k->u.str.data, (size_t)k->u.str.len, &used)
                                   : 0;
        if (k->u.str.len == 0 || (int64_t)used != k->u.str.len)
          return fail(&b, NRT_EVALUE, "ValueError",
                      "string keys in translate table must be of length 1");
        key = cp;
      } else if (!int_literal(k, &key)) {
        return fail(&b, NRT_ETYPE, "TypeError",
                    "keys in translate table must be strings or integers");
      }
      if (!put(&b, key, d->u.dict.values[i]))
        return false;
    }
    return emit(&b, table, size);
  }
  if (args[0]->kind != UDF_E_STR)
    return fail(&b, NRT_ETYPE, "TypeError",
                "first maketrans argument must be a string if there is a second argument");
  for (int i = 1; i < nargs; i++)
    if (args[i]->kind != UDF_E_STR) {
      snprintf(msg, sizeof msg, "maketrans() argument %d must be str, not %s", i + 1,
               type_name(args[i]));
      return fail(&b, NRT_ETYPE, "TypeError", msg);
    }
  const udf_strlit *x = &args[0]->u.str, *y = &args[1]->u.str;
  if (nrt_str_len(x->data, x->len) != nrt_str_len(y->data, y->len))
    return fail(&b, NRT_EVALUE, "ValueError",
                "the first two maketrans arguments must have equal length");
  for (int64_t i = 0, j = 0; i < x->len;) {
    size_t ki, kj;
    uint32_t from = nrt_utf8_decode(x->data + i, (size_t)(x->len - i), &ki);
    uint32_t to = nrt_utf8_decode(y->data + j, (size_t)(y->len - j), &kj);
    if (!put_cp(&b, from, to))
      return false;
    i += (int64_t)ki;
    j += (int64_t)kj;
  }
  if (nargs == 3) {
    const udf_strlit *z = &args[2]->u.str;
    udf_expr none;
    memset(&none, 0, sizeof none);
    none.kind = UDF_E_NONE;
    for (int64_t i = 0; i < z->len;) {
      size_t k;
      uint32_t cp = nrt_utf8_decode(z->data + i, (size_t)(z->len - i), &k);
      if (!put(&b, cp, &none))
        return false;
      i += (int64_t)k;
    }
  }
  return emit(&b, table, size);
}

bool udf_trans_fold_dict(udf_diagctx *dc, udf_arena *a, const udf_expr *dict, char **table,
                         int64_t *size) {
  builder b = {dc, a, dict->loc, NULL, 0, 0};
  for (int i = 0; i < dict->u.dict.n; i++) {
    int64_t key;
    if (!int_literal(dict->u.dict.keys[i], &key))
      continue; /* a str or float key: translate looks up ints only */
    if (!put(&b, key, dict->u.dict.values[i]))
      return false;
  }
  return emit(&b, table, size);
}

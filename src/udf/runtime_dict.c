/* dict and set values of compiled UDF code (runtime_dict.h). Written by hand: the keys are
 * refcounted nrt_str slots compared by their bytes, and iteration must follow insertion order
 * as CPython's dict does, which no C hash table packaged in Debian offers over such keys. */
#include <stdio.h>
#include <string.h>

#include "nrt/str_convert.h"
#include "str/str_short.h"

#include "str/str_copy.h"
#include "udf/ast.h"
#include "udf/runtime.h"
#include "udf/runtime_dict.h"

/* String keys: the bytes are read as (overlapping) words and folded by 64x64->128-bit
 * multiplies, whose high and low halves are xored: a key of up to 16 bytes costs two loads
 * and two multiplies, where a word-at-a-time chain of dependent multiplies costs one per
 * word. Ints go through a 64-bit finaliser, so the low bits used as the index mix every
 * bit. Neither needs to resist collision attacks: a UDF's keys are its own constants and
 * the row's strings, and a collision costs probe steps, never a wrong answer. */
static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  h ^= h >> 33;
  h *= 0xc4ceb9fe1a85ec53ULL;
  return h ^ (h >> 33);
}

static uint64_t fold_mul(uint64_t a, uint64_t b) {
  unsigned __int128 r = (unsigned __int128)a * b;
  return (uint64_t)r ^ (uint64_t)(r >> 64);
}

#define HASH_K0 0xa0761d6478bd642fULL
#define HASH_K1 0xe7037ed1a0b428dbULL
#define HASH_K2 0x8ebc6af09c88c6e3ULL

static uint64_t str_hash(const unsigned char *p, int64_t n) {
  uint64_t a, b, h = HASH_K0 ^ (uint64_t)n;
  if (n <= 16) {
    if (n >= 8) {
      a = nrt_short_load64(p);
      b = nrt_short_load64(p + n - 8);
    } else if (n >= 4) {
      a = nrt_short_load32(p);
      b = nrt_short_load32(p + n - 4);
    } else if (n > 0) {
      a = (uint64_t)p[0] << 16 | (uint64_t)p[n >> 1] << 8 | p[n - 1];
      b = 0;
    } else {
      a = b = 0;
    }
  } else {
    int64_t i = 0;
    for (; n - i > 16; i += 16)
      h = fold_mul(nrt_short_load64(p + i) ^ HASH_K1, nrt_short_load64(p + i + 8) ^ h);
    a = nrt_short_load64(p + n - 16);
    b = nrt_short_load64(p + n - 8);
  }
  return fold_mul(a ^ HASH_K1, b ^ h ^ HASH_K2) ^ h;
}

static uint64_t key_hash(const nrt_udf_dict *d, const nrt_str *k) {
  if (d->key_kind != UDF_TY_STR) return mix((uint64_t)k->len);
  return str_hash((const unsigned char *)k->data, k->len);
}

static bool key_eq(const nrt_udf_dict *d, const nrt_str *a, const nrt_str *b) {
  if (a->len != b->len) return false;
  return d->key_kind != UDF_TY_STR || a->len == 0 || memcmp(a->data, b->data, (size_t)a->len) == 0;
}

static void dict_dtor(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  nrt_udf_dict *d = data;
  for (int64_t i = 0; i < d->nent; i++)
    if (d->ent[i].live) {
      nrt_mi_decref_local(d->ent[i].key.mi);
      nrt_mi_decref_local(d->ent[i].value.mi);
    }
  nrt_free(d->ent, (size_t)d->capent * sizeof *d->ent);
  nrt_free(d->index, (size_t)d->nindex * sizeof *d->index);
  nrt_free(d->pool, (size_t)d->poolsize);
}

int32_t nrt_udf_rt_dict_new(struct nrt_error *err, int32_t key_kind, int32_t value_kind,
                            int64_t hint, nrt_udf_dict **out) {
  (void)hint;
  *out = NULL;
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc_dtor(sizeof(nrt_udf_dict), dict_dtor, NULL, &mi, err);
  if (rc) return rc;
  nrt_udf_dict *d = nrt_mi_data(mi);
  memset(d, 0, sizeof *d);
  d->mi = mi;
  d->owner = mi;
  d->key_kind = key_kind;
  d->value_kind = value_kind;
  *out = d;
  return NRT_OK;
}

/* The index slot of k: its entry's, or (not found) the empty or deleted slot to insert at. */
static int64_t probe(const nrt_udf_dict *d, const nrt_str *k, uint64_t h, bool *found) {
  uint64_t mask = (uint64_t)d->nindex - 1;
  int64_t tomb = -1;
  *found = false;
  for (uint64_t i = h & mask, step = 1;; i = (i + step++) & mask) {
    int64_t e = d->index[i];
    if (e == -1) return tomb >= 0 ? tomb : (int64_t)i;
    if (e == -2) {
      if (tomb < 0) tomb = (int64_t)i;
      continue;
    }
    if (d->ent[e].hash == h && key_eq(d, &d->ent[e].key, k)) {
      *found = true;
      return (int64_t)i;
    }
  }
}

static uint64_t key_len_bit(const nrt_str *k) { return 1ULL << ((uint64_t)k->len & 63); }

static int64_t find_entry(const nrt_udf_dict *d, const nrt_str *k) {
  if (!(d->key_lens & key_len_bit(k))) return -1;
  bool found;
  int64_t i = probe(d, k, key_hash(d, k), &found);
  return found ? d->index[i] : -1;
}

/* Room for one more entry: the entries compacted and the index rebuilt when needed. */
static int grow(struct nrt_error *err, nrt_udf_dict *d) {
  if (d->nent < d->capent && 2 * (d->nent + 1) < d->nindex) return NRT_OK;
  int64_t live = d->len, cap = live < 4 ? 8 : 2 * live + 2;
  nrt_udf_dict_entry *ent = nrt_allocate((size_t)cap * sizeof *ent, err);
  if (!ent) return err ? err->code : NRT_ENOMEM;
  int64_t nindex = 16;
  while (nindex <= 2 * cap) nindex *= 2;
  int64_t *index = nrt_allocate((size_t)nindex * sizeof *index, err);
  if (!index) {
    nrt_free(ent, (size_t)cap * sizeof *ent);
    return err ? err->code : NRT_ENOMEM;
  }
  int64_t n = 0;
  for (int64_t i = 0; i < d->nent; i++)
    if (d->ent[i].live) ent[n++] = d->ent[i];
  nrt_free(d->ent, (size_t)d->capent * sizeof *d->ent);
  nrt_free(d->index, (size_t)d->nindex * sizeof *d->index);
  d->ent = ent;
  d->capent = cap;
  d->nent = n;
  d->index = index;
  d->nindex = nindex;
  memset(index, 0xff, (size_t)nindex * sizeof *index); /* -1: empty */
  uint64_t mask = (uint64_t)nindex - 1;
  for (int64_t e = 0; e < n; e++) {
    uint64_t i = ent[e].hash & mask;
    for (uint64_t step = 1; index[i] != -1; i = (i + step++) & mask) {
    }
    index[i] = e;
  }
  return NRT_OK;
}

int32_t nrt_udf_rt_dict_set(struct nrt_error *err, nrt_udf_dict *d, const nrt_str *k,
                            const nrt_str *v) {
  if (d->key_kind == UDF_TY_UNKNOWN) /* an empty display whose type the checker left open */
    d->key_kind = k->data ? UDF_TY_STR : UDF_TY_INT;
  uint64_t h = key_hash(d, k); /* hashed once: the probe is redone only after a rebuild */
  bool found = false;
  int64_t i = d->nindex ? probe(d, k, h, &found) : -1;
  if (found) {
    int64_t e = d->index[i];
    nrt_mi_incref_local(v->mi);
    nrt_mi_decref_local(d->ent[e].value.mi);
    d->ent[e].value = *v;
    return NRT_OK;
  }
  int64_t nindex = d->nindex;
  nrt_udf_dict_entry *ent = d->ent;
  int rc = grow(err, d);
  if (rc) return rc;
  if (d->nindex != nindex || d->ent != ent || i < 0) i = probe(d, k, h, &found);
  int64_t e = d->nent++;
  d->ent[e] = (nrt_udf_dict_entry){*k, *v, h, true};
  d->index[i] = e;
  d->len++;
  d->key_lens |= key_len_bit(k);
  nrt_mi_incref_local(k->mi);
  nrt_mi_incref_local(v->mi);
  return NRT_OK;
}

bool nrt_udf_rt_dict_find(const nrt_udf_dict *d, const nrt_str *k, nrt_str *out) {
  int64_t e = find_entry(d, k);
  if (e >= 0 && out) *out = d->ent[e].value;
  return e >= 0;
}

/* KeyError: its message is repr(key), what str(e) gives in CPython. */
static int32_t key_error(struct nrt_error *err, const nrt_udf_dict *d, const nrt_str *k) {
  if (!err) return NRT_EKEY;
  if (d->key_kind != UDF_TY_STR)
    return nrt_error_set(err, NRT_EKEY, "%lld", (long long)k->len);
  /* A key too long for the message: the repr of its first characters, as much as fits. */
  char buf[NRT_ERROR_MESSAGE_SIZE];
  int64_t n = k->len;
  if (nrt_str_repr_size(k->data, n) >= (int64_t)sizeof buf) {
    n = (int64_t)sizeof buf / 4 - 2;
    while (n > 0 && ((unsigned char)k->data[n] & 0xC0) == 0x80) n--;
  }
  buf[nrt_str_repr_into(k->data, n, buf)] = '\0';
  return nrt_error_set(err, NRT_EKEY, "%s", buf);
}

int32_t nrt_udf_rt_dict_getitem(struct nrt_error *err, const nrt_udf_dict *d, const nrt_str *k,
                                nrt_str *out) {
  if (nrt_udf_rt_dict_find(d, k, out)) return NRT_OK;
  return key_error(err, d, k);
}

static void remove_at(nrt_udf_dict *d, const nrt_str *k, nrt_str *value) {
  bool found;
  int64_t i = probe(d, k, key_hash(d, k), &found);
  int64_t e = d->index[i];
  d->index[i] = -2;
  d->ent[e].live = false;
  d->len--;
  nrt_mi_decref_local(d->ent[e].key.mi);
  *value = d->ent[e].value; /* the table's reference moves to the caller */
}

int32_t nrt_udf_rt_dict_pop(struct nrt_error *err, nrt_udf_dict *d, const nrt_str *k,
                            const nrt_str *dflt, nrt_str *out) {
  if (find_entry(d, k) < 0) {
    if (!dflt) return key_error(err, d, k);
    if (out) {
      nrt_str_copy(out, dflt);
      nrt_mi_incref_local(dflt->mi);
    }
    return NRT_OK;
  }
  nrt_str v;
  remove_at(d, k, &v);
  if (out)
    *out = v;
  else
    nrt_mi_decref_local(v.mi);
  return NRT_OK;
}

int32_t nrt_udf_rt_dict_setdefault(struct nrt_error *err, nrt_udf_dict *d, const nrt_str *k,
                                   const nrt_str *v, nrt_str *out) {
  if (nrt_udf_rt_dict_find(d, k, out)) return NRT_OK;
  int rc = nrt_udf_rt_dict_set(err, d, k, v);
  if (rc == NRT_OK) nrt_str_copy(out, v);
  return rc;
}

int64_t nrt_udf_rt_dict_len(const nrt_udf_dict *d) { return d->len; }

int32_t nrt_udf_rt_dict_next(struct nrt_error *err, const nrt_udf_dict *d, int64_t *pos,
                             int64_t len_at_start, nrt_str *key, nrt_str *value, bool *more) {
  if (d->len != len_at_start) {
    *more = false;
    return nrt_error_set(err, NRT_ERUNTIME, "%s changed size during iteration",
                         d->value_kind == UDF_TY_NONE ? "Set" : "dictionary");
  }
  int64_t i = *pos;
  while (i < d->nent && !d->ent[i].live) i++;
  *more = i < d->nent;
  if (*more) {
    *key = d->ent[i].key;
    if (value) *value = d->ent[i].value;
    i++;
  }
  *pos = i;
  return NRT_OK;
}

void nrt_udf_rt_dict_freeze(nrt_udf_dict *d) { d->mi = NULL; }

void nrt_udf_rt_dict_const_free(nrt_udf_dict *d) {
  if (d) nrt_mi_decref_local(d->owner);
}

int32_t nrt_udf_rt_set_of_list(struct nrt_error *err, nrt_meminfo *list, nrt_udf_dict **out) {
  const nrt_str_list *l = nrt_mi_data(list);
  int rc = nrt_udf_rt_dict_new(err, UDF_TY_STR, UDF_TY_NONE, l->len, out);
  nrt_str none = {NULL, NULL, 0};
  for (int64_t i = 0; rc == NRT_OK && i < l->len; i++)
    rc = nrt_udf_rt_dict_set(err, *out, &l->items[i], &none);
  if (rc && *out) {
    nrt_mi_decref_local((*out)->owner);
    *out = NULL;
  }
  return rc;
}

/* A literal key or value of a constant display as a slot (a str copied: the tree is freed
 * after compiling). */
static int literal_slot(const udf_expr *e, nrt_str *out, char **pool, struct nrt_error *err) {
  *out = (nrt_str){NULL, NULL, 0};
  double sign = 1;
  if (e->kind == UDF_E_UNARY) {
    sign = e->u.unary.op == UDF_UOP_NEG ? -1 : 1;
    e = e->u.unary.operand;
  }
  switch (e->kind) {
  case UDF_E_STR:
    if (e->u.str.len) memcpy(*pool, e->u.str.data, (size_t)e->u.str.len);
    *out = (nrt_str){NULL, *pool, e->u.str.len};
    *pool += e->u.str.len;
    return NRT_OK;
  case UDF_E_INT: out->len = sign < 0 ? -e->u.ival : e->u.ival; return NRT_OK;
  case UDF_E_BOOL: out->len = e->u.bval; return NRT_OK;
  case UDF_E_FLOAT: {
    double d = sign * e->u.fval;
    memcpy(&out->len, &d, sizeof d);
    return NRT_OK;
  }
  default: return nrt_error_set(err, NRT_EINVAL, "internal error: a constant display item");
  }
}

/* An int literal item of a float dict was cast by the checker: the cast is read through. */
static const udf_expr *uncast(const udf_expr *e, bool *to_float) {
  *to_float = false;
  if (e->kind == UDF_E_CAST) {
    *to_float = udf_type_base(e->type) == UDF_TY_FLOAT;
    return e->u.cast.operand;
  }
  return e;
}

static int64_t str_bytes(const udf_expr *e) {
  return e && e->kind == UDF_E_STR ? e->u.str.len : 0;
}

static int build_one(const udf_expr *e, nrt_udf_dict **out, struct nrt_error *err) {
  bool set = e->kind == UDF_E_SET;
  int rc = nrt_udf_rt_dict_new(err, (int32_t)udf_type_param1(e->type),
                               set ? UDF_TY_NONE : (int32_t)udf_type_param2(e->type),
                               e->u.dict.n, out);
  int64_t bytes = 1;
  for (int i = 0; i < e->u.dict.n; i++)
    bytes += str_bytes(e->u.dict.keys[i]) + (set ? 0 : str_bytes(e->u.dict.values[i]));
  char *pool = NULL;
  if (rc == NRT_OK) {
    pool = (*out)->pool = nrt_allocate((size_t)bytes, err);
    if (pool)
      (*out)->poolsize = bytes;
    else
      rc = err ? err->code : NRT_ENOMEM;
  }
  for (int i = 0; rc == NRT_OK && i < e->u.dict.n; i++) {
    nrt_str k, v = {NULL, NULL, 0};
    bool kf, vf = false;
    rc = literal_slot(uncast(e->u.dict.keys[i], &kf), &k, &pool, err);
    const udf_expr *ve = set ? NULL : uncast(e->u.dict.values[i], &vf);
    if (rc == NRT_OK && ve) rc = literal_slot(ve, &v, &pool, err);
    if (rc == NRT_OK && vf && ve->kind != UDF_E_FLOAT &&
        !(ve->kind == UDF_E_UNARY && ve->u.unary.operand->kind == UDF_E_FLOAT)) {
      double d = (double)v.len; /* an int (or bool) stored in a float dict */
      memcpy(&v.len, &d, sizeof d);
    }
    if (rc == NRT_OK) rc = nrt_udf_rt_dict_set(err, *out, &k, &v);
  }
  if (rc == NRT_OK) nrt_udf_rt_dict_freeze(*out);
  return rc;
}

int udf_dict_consts_build(udf_module *m, void ***out, struct nrt_error *err) {
  *out = NULL;
  if (m->nconst_displays == 0) return NRT_OK;
  void **built = nrt_allocate((size_t)m->nconst_displays * sizeof *built, err);
  if (!built) return err ? err->code : NRT_ENOMEM;
  memset(built, 0, (size_t)m->nconst_displays * sizeof *built);
  *out = built;
  for (int i = 0; i < m->nconst_displays; i++) {
    nrt_udf_dict *d = NULL;
    int rc = build_one(m->const_displays[i], &d, err);
    if (rc) {
      if (d) nrt_mi_decref_local(d->owner);
      return rc;
    }
    built[i] = d;
  }
  m->const_built = built;
  return NRT_OK;
}

void udf_dict_consts_free(void **built, int n) {
  if (!built) return;
  for (int i = 0; i < n; i++) nrt_udf_rt_dict_const_free(built[i]);
  nrt_free(built, (size_t)n * sizeof *built);
}

int32_t nrt_udf_rt_dict_update(struct nrt_error *err, nrt_udf_dict *d, const nrt_udf_dict *other) {
  int rc = NRT_OK;
  for (int64_t i = 0, n = other->nent; rc == NRT_OK && i < n; i++)
    if (other->ent[i].live)
      rc = nrt_udf_rt_dict_set(err, d, &other->ent[i].key, &other->ent[i].value);
  return rc;
}

int32_t nrt_udf_rt_dict_copy(struct nrt_error *err, const nrt_udf_dict *d, nrt_udf_dict **out) {
  int rc = nrt_udf_rt_dict_new(err, d->key_kind, d->value_kind, d->len, out);
  if (rc == NRT_OK) rc = nrt_udf_rt_dict_update(err, *out, d);
  if (rc && *out) {
    nrt_mi_decref_local((*out)->owner);
    *out = NULL;
  }
  return rc;
}

void nrt_udf_rt_dict_clear(nrt_udf_dict *d) {
  for (int64_t i = 0; i < d->nent; i++)
    if (d->ent[i].live) {
      d->ent[i].live = false;
      nrt_mi_decref_local(d->ent[i].key.mi);
      nrt_mi_decref_local(d->ent[i].value.mi);
    }
  d->nent = 0;
  d->len = 0;
  d->key_lens = 0;
  if (d->index) memset(d->index, 0xff, (size_t)d->nindex * sizeof *d->index);
}

int32_t nrt_udf_rt_set_binop(struct nrt_error *err, const nrt_udf_dict *a, const nrt_udf_dict *b,
                             int32_t op, nrt_udf_dict **out) {
  /* op: '|' union (also a dict merge: b's values win), '&' intersection, '-' difference,
   * '^' symmetric difference */
  int rc = nrt_udf_rt_dict_new(err, a->key_kind ? a->key_kind : b->key_kind, a->value_kind,
                               a->len, out);
  for (int64_t i = 0; rc == NRT_OK && i < a->nent; i++) {
    const nrt_udf_dict_entry *e = &a->ent[i];
    if (!e->live) continue;
    bool in_b = nrt_udf_rt_dict_find(b, &e->key, NULL);
    if (op == '|' || (op == '&' && in_b) || ((op == '-' || op == '^') && !in_b))
      rc = nrt_udf_rt_dict_set(err, *out, &e->key, &e->value);
  }
  for (int64_t i = 0; rc == NRT_OK && (op == '|' || op == '^') && i < b->nent; i++) {
    const nrt_udf_dict_entry *e = &b->ent[i];
    if (e->live && (op == '|' || !nrt_udf_rt_dict_find(a, &e->key, NULL)))
      rc = nrt_udf_rt_dict_set(err, *out, &e->key, &e->value);
  }
  if (rc && *out) {
    nrt_mi_decref_local((*out)->owner);
    *out = NULL;
  }
  return rc;
}

int32_t nrt_udf_rt_dict_list(struct nrt_error *err, const nrt_udf_dict *d, int32_t values,
                             nrt_meminfo **out) {
  int rc = nrt_udf_rt_list_new(err, d->len, out);
  for (int64_t i = 0; rc == NRT_OK && i < d->nent; i++)
    if (d->ent[i].live)
      rc = nrt_udf_rt_list_append(err, *out, values ? &d->ent[i].value : &d->ent[i].key);
  if (rc && *out) {
    nrt_mi_decref_local(*out);
    *out = NULL;
  }
  return rc;
}

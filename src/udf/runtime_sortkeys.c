/* Keys for sort(key=), sorted(key=), min(key=) and max(key=): the compiled code computes one
 * key per item (the key function runs as compiled code, never called back from C) into a
 * refcounted key array, then these functions order or pick by it. Comparisons use only `<`,
 * as CPython's, so ties keep their order: sorting is a stable merge sort, reverse=True keeps
 * equal items in their original order (CPython's reverse-sort-reverse), min and max return
 * the first of the smallest or largest. */
#include <string.h>

#include "nrt/str.h"
#include "str/str_copy.h"
#include "udf/runtime.h"

typedef union key_item {
  int64_t i;
  double f;
  nrt_str s;
} key_item;

typedef struct keys {
  int64_t cap, n;    /* room, keys set */
  int32_t kind;      /* NRT_UDF_KEY_* of the keys set */
  key_item *items;
  nrt_meminfo *next; /* a tuple key's next items (compared on ties), owned; or NULL */
} keys;

static void keys_dtor(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  keys *k = data;
  if (k->kind == NRT_UDF_KEY_STR)
    for (int64_t i = 0; i < k->n; i++)
      nrt_str_release(&k->items[i].s);
  if (k->next)
    nrt_mi_decref(k->next);
}

/* A tuple key: next holds its following items, compared when these are equal. */
void nrt_udf_rt_keys_chain(nrt_meminfo *mi, nrt_meminfo *next) {
  keys *k = mi->data;
  while (k->next)
    k = k->next->data;
  nrt_mi_incref(next);
  k->next = next;
}

int32_t nrt_udf_rt_keys_new(struct nrt_error *err, int64_t cap, int32_t kind,
                            nrt_meminfo **out) {
  *out = NULL;
  if (cap < 0 || (uint64_t)cap > (SIZE_MAX / 4) / sizeof(key_item))
    return nrt_error_set(err, NRT_EOVERFLOW, "too many keys");
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc_dtor(sizeof(keys) + (size_t)cap * sizeof(key_item), keys_dtor, NULL,
                             &mi, err);
  if (rc != NRT_OK)
    return rc;
  keys *k = mi->data;
  k->cap = cap;
  k->n = 0;
  k->kind = kind;
  k->items = (key_item *)(k + 1);
  k->next = NULL;
  *out = mi;
  return NRT_OK;
}

/* Appends the next key (the compiled loop never sets more than cap). */
void nrt_udf_rt_keys_add_int(nrt_meminfo *mi, int64_t v) {
  keys *k = mi->data;
  if (k->n < k->cap)
    k->items[k->n++].i = v;
}
void nrt_udf_rt_keys_add_float(nrt_meminfo *mi, double v) {
  keys *k = mi->data;
  if (k->n < k->cap)
    k->items[k->n++].f = v;
}
void nrt_udf_rt_keys_add_str(nrt_meminfo *mi, const nrt_str *v) {
  keys *k = mi->data;
  if (k->n < k->cap) {
    nrt_str_retain(v);
    k->items[k->n++].s = *v;
  }
}

/* The ordering: keys when given, else the list's items. */
typedef struct order {
  const keys *k;
  const nrt_str *items;
  bool reverse;
} order;

static bool one_lt(const keys *k, int64_t a, int64_t b) {
  const key_item *x = &k->items[a], *y = &k->items[b];
  switch (k->kind) {
  case NRT_UDF_KEY_INT: return x->i < y->i;
  case NRT_UDF_KEY_FLOAT: return x->f < y->f;
  default: return nrt_str_compare(x->s.data, x->s.len, y->s.data, y->s.len) < 0;
  }
}

static bool key_lt(const order *o, int64_t a, int64_t b) {
  if (!o->k)
    return nrt_str_compare(o->items[a].data, o->items[a].len, o->items[b].data,
                           o->items[b].len) < 0;
  /* A tuple key compares item by item: the first that differs decides. */
  for (const keys *k = o->k;; k = k->next->data) {
    if (one_lt(k, a, b))
      return true;
    if (!k->next || one_lt(k, b, a))
      return false;
  }
}

/* Whether item b goes before item a (stable: ties never do). */
static bool before(const order *o, int64_t b, int64_t a) {
  return o->reverse ? key_lt(o, a, b) : key_lt(o, b, a);
}

/* Bottom-up merge sort of the permutation idx[0..n) (tmp: n more). */
static void merge_sort(const order *o, int64_t *idx, int64_t *tmp, int64_t n) {
  for (int64_t w = 1; w < n; w *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * w) {
      int64_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
      int64_t i = lo, j = mid, k = lo;
      while (i < mid && j < hi)
        tmp[k++] = before(o, idx[j], idx[i]) ? idx[j++] : idx[i++];
      while (i < mid)
        tmp[k++] = idx[i++];
      while (j < hi)
        tmp[k++] = idx[j++];
    }
    memcpy(idx, tmp, (size_t)n * sizeof *idx);
  }
}

/* Stable insertion sort of idx[0..n): fewer comparisons and no copying passes for the few
 * items of a row's short lists. */
static void insertion_sort(const order *o, int64_t *idx, int64_t n) {
  for (int64_t i = 1; i < n; i++) {
    int64_t x = idx[i], j = i;
    for (; j > 0 && before(o, x, idx[j - 1]); j--)
      idx[j] = idx[j - 1];
    idx[j] = x;
  }
}

/* xs.sort(key=..., reverse=...) in place; keys_mi NULL: by the items. The keys were computed
 * for the items the list had: a list changed meanwhile is CPython's ValueError. */
int32_t nrt_udf_rt_mlist_sort(struct nrt_error *err, nrt_meminfo *list, nrt_meminfo *keys_mi,
                              int32_t reverse) {
  nrt_str_list *l = (nrt_str_list *)list->data;
  const keys *k = keys_mi ? keys_mi->data : NULL;
  if (k && (k->n != l->len || k->cap != l->len))
    return nrt_error_set(err, NRT_EVALUE, "list modified during sort");
  int64_t n = l->len;
  if (n < 2)
    return NRT_OK;
  /* a row's short lists (words of a field) sort in a stack buffer: no allocation per row */
  enum { SMALL = 16 };
  int64_t small[SMALL * (2 + sizeof(nrt_str) / sizeof(int64_t))];
  size_t bytes = (size_t)n * (2 * sizeof(int64_t) + sizeof(nrt_str));
  int64_t *idx = n <= SMALL ? small : nrt_allocate(bytes, err);
  if (!idx)
    return NRT_ENOMEM;
  int64_t *tmp = idx + n;
  nrt_str *moved = (nrt_str *)(tmp + n);
  for (int64_t i = 0; i < n; i++)
    idx[i] = i;
  order o = {k, l->items, reverse != 0};
  if (n <= SMALL)
    insertion_sort(&o, idx, n);
  else
    merge_sort(&o, idx, tmp, n);
  for (int64_t i = 0; i < n; i++)
    moved[i] = l->items[idx[i]];
  memcpy(l->items, moved, (size_t)n * sizeof(nrt_str));
  if (idx != small)
    nrt_free(idx, bytes);
  return NRT_OK;
}

/* len() of a str: an item of up to 16 bytes without a byte >= 0x80 (the usual word) is its
 * byte count, seen from overlapping loads of its bytes; anything else is counted. */
static int64_t item_len(const char *s, int64_t n) {
  uint64_t a, b;
  if (n >= 8 && n <= 16) {
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
  } else if (n >= 4 && n < 8) {
    uint32_t x, y;
    memcpy(&x, s, 4);
    memcpy(&y, s + n - 4, 4);
    a = x;
    b = y;
  } else if (n > 0 && n < 4) {
    a = (unsigned char)s[0] | (unsigned char)s[n / 2];
    b = (unsigned char)s[n - 1];
  } else {
    return n == 0 ? 0 : nrt_str_len(s, n);
  }
  return ((a | b) & 0x8080808080808080ULL) ? nrt_str_len(s, n) : n;
}

/* xs.sort(key=len, reverse=...) of a list of str in place: the lengths computed here, once
 * per item (len cannot fail or change the list), no key array for the compiled code to fill;
 * a short list is sorted by a stable insertion sort moving items and keys together. */
int32_t nrt_udf_rt_mlist_sort_len(struct nrt_error *err, nrt_meminfo *list, int32_t reverse) {
  nrt_str_list *l = (nrt_str_list *)list->data;
  int64_t n = l->len;
  if (n < 2)
    return NRT_OK;
  enum { SMALL = 16 };
  if (n > SMALL) { /* the general sort over a key array of the lengths */
    keys k = {n, n, NRT_UDF_KEY_INT, NULL, NULL};
    k.items = nrt_allocate((size_t)n * sizeof(key_item), err);
    if (!k.items)
      return NRT_ENOMEM;
    for (int64_t i = 0; i < n; i++)
      k.items[i].i = nrt_str_len(l->items[i].data, l->items[i].len);
    nrt_meminfo fake; /* mlist_sort reads the keys through a MemInfo's data */
    memset(&fake, 0, sizeof fake);
    fake.data = &k;
    int32_t rc = nrt_udf_rt_mlist_sort(err, list, &fake, reverse);
    nrt_free(k.items, (size_t)n * sizeof(key_item));
    return rc;
  }
  int64_t key[SMALL];
  nrt_str *it = l->items;
  for (int64_t i = 0; i < n; i++)
    key[i] = item_len(it[i].data, it[i].len);
  for (int64_t i = 1; i < n; i++) {
    int64_t kx = key[i], j = i;
    nrt_str x = it[i];
    /* Only a strictly smaller (reverse: larger) key moves before: ties keep their order. */
    for (; j > 0 && (reverse ? key[j - 1] < kx : kx < key[j - 1]); j--) {
      key[j] = key[j - 1];
      it[j] = it[j - 1];
    }
    key[j] = kx;
    it[j] = x;
  }
  return NRT_OK;
}

/* min/max(xs, key=..., default=...): the first smallest (largest) item of list as a new
 * reference; keys_mi NULL: by the items. Empty: a new reference to *dflt, or CPython's
 * ValueError when dflt is NULL. */
int32_t nrt_udf_rt_mlist_pick(struct nrt_error *err, nrt_meminfo *list, nrt_meminfo *keys_mi,
                              int32_t is_max, const nrt_str *dflt, nrt_str *out) {
  nrt_str_list *l = (nrt_str_list *)list->data;
  const keys *k = keys_mi ? keys_mi->data : NULL;
  int64_t n = k ? (k->n < l->len ? k->n : l->len) : l->len;
  if (n == 0) {
    if (!dflt)
      return nrt_error_set(err, NRT_EVALUE, "%s() arg is an empty sequence",
                           is_max ? "max" : "min");
    nrt_str_retain(dflt);
    nrt_str_copy(out, dflt);
    return NRT_OK;
  }
  order o = {k, l->items, false};
  int64_t best = 0;
  for (int64_t i = 1; i < n; i++)
    if (is_max ? key_lt(&o, best, i) : key_lt(&o, i, best))
      best = i;
  nrt_str_retain(&l->items[best]);
  *out = l->items[best];
  return NRT_OK;
}

/* ---- lists of int or float (runtime_nlist.c): each item's bits in its nrt_str's len */

/* The items of list as keys of kind (a temporary key array viewing no strings). */
static key_item *number_keys(const nrt_str_list *l, int32_t kind, keys *k,
                             struct nrt_error *err) {
  key_item *items = nrt_allocate((size_t)(l->len ? l->len : 1) * sizeof(key_item), err);
  if (!items)
    return NULL;
  for (int64_t i = 0; i < l->len; i++)
    memcpy(&items[i], &l->items[i].len, sizeof(int64_t)); /* .i or .f, bit for bit */
  k->cap = k->n = l->len;
  k->kind = kind;
  k->items = items;
  k->next = NULL;
  return items;
}

int32_t nrt_udf_rt_nlist_sort(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                              int32_t reverse) {
  nrt_str_list *l = (nrt_str_list *)list->data;
  keys k;
  if (!number_keys(l, kind, &k, err))
    return NRT_ENOMEM;
  nrt_meminfo fake; /* mlist_sort reads the keys through a MemInfo's data */
  memset(&fake, 0, sizeof fake);
  fake.data = &k;
  int32_t rc = nrt_udf_rt_mlist_sort(err, list, &fake, reverse);
  nrt_free(k.items, (size_t)(k.cap ? k.cap : 1) * sizeof(key_item));
  return rc;
}

/* min/max of a list of numbers: the bits of the first smallest (largest) item, or of *dflt
 * when empty (NULL: ValueError). */
int32_t nrt_udf_rt_nlist_pick(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                              int32_t is_max, const int64_t *dflt, int64_t *out) {
  nrt_str_list *l = (nrt_str_list *)list->data;
  if (l->len == 0) {
    if (!dflt)
      return nrt_error_set(err, NRT_EVALUE, "%s() arg is an empty sequence",
                           is_max ? "max" : "min");
    *out = *dflt;
    return NRT_OK;
  }
  keys k;
  if (!number_keys(l, kind, &k, err))
    return NRT_ENOMEM;
  order o = {&k, l->items, false};
  int64_t best = 0;
  for (int64_t i = 1; i < l->len; i++)
    if (is_max ? key_lt(&o, best, i) : key_lt(&o, i, best))
      best = i;
  *out = l->items[best].len;
  nrt_free(k.items, (size_t)(k.cap ? k.cap : 1) * sizeof(key_item));
  return NRT_OK;
}

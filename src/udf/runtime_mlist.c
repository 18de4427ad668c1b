/* Mutable lists of str (types_mlist.inc, codegen_mlist.c): the list methods, item
 * assignment and deletion, and sorting / min / max by key, with CPython's results and
 * messages. A list is the MemInfo of an nrt_str_list, shared by reference (aliasing as in
 * Python); every function leaves the list valid when it fails. */
#include <string.h>

#include "nrt/str.h"
#include "udf/runtime.h"

static nrt_str_list *list_of(nrt_meminfo *mi) { return (nrt_str_list *)mi->data; }

/* Python's index normalisation: i counted from the end when negative; false when outside
 * [0, len). */
static bool norm_index(int64_t len, int64_t *i) {
  if (*i < 0)
    *i += len;
  return *i >= 0 && *i < len;
}

int32_t nrt_udf_rt_mlist_insert(struct nrt_error *err, nrt_meminfo *mi, int64_t i,
                                const nrt_str *x) {
  nrt_str_list *l = list_of(mi);
  int64_t n = l->len;
  if (i < 0)
    i = i + n < 0 ? 0 : i + n;
  if (i > n)
    i = n;
  int rc = nrt_str_list_append_copy(l, x, err);
  if (rc != NRT_OK)
    return rc;
  nrt_str s = l->items[n];
  memmove(&l->items[i + 1], &l->items[i], (size_t)(n - i) * sizeof(nrt_str));
  l->items[i] = s;
  return NRT_OK;
}

/* xs.extend(src) (src may be xs itself: its items at the call are appended once). */
int32_t nrt_udf_rt_mlist_extend(struct nrt_error *err, nrt_meminfo *mi, nrt_meminfo *src) {
  nrt_str_list *l = list_of(mi), *s = list_of(src);
  int64_t n = s->len;
  for (int64_t i = 0; i < n; i++) {
    nrt_str item = s->items[i]; /* a copy: appending may move the items */
    int rc = nrt_str_list_append_copy(l, &item, err);
    if (rc != NRT_OK)
      return rc;
  }
  return NRT_OK;
}

int32_t nrt_udf_rt_mlist_pop(struct nrt_error *err, nrt_meminfo *mi, int64_t i,
                             int32_t has_index, nrt_str *out) {
  nrt_str_list *l = list_of(mi);
  if (l->len == 0)
    return nrt_error_set(err, NRT_EINDEX, "pop from empty list");
  if (!has_index)
    i = -1;
  if (!norm_index(l->len, &i))
    return nrt_error_set(err, NRT_EINDEX, "pop index out of range");
  *out = l->items[i]; /* the list's reference moves to the caller */
  memmove(&l->items[i], &l->items[i + 1], (size_t)(l->len - i - 1) * sizeof(nrt_str));
  l->len--;
  return NRT_OK;
}

static int64_t find(const nrt_str_list *l, const nrt_str *x) {
  for (int64_t i = 0; i < l->len; i++)
    if (nrt_str_eq(l->items[i].data, l->items[i].len, x->data, x->len))
      return i;
  return -1;
}

static void delete_at(nrt_str_list *l, int64_t i) {
  nrt_str old = l->items[i];
  memmove(&l->items[i], &l->items[i + 1], (size_t)(l->len - i - 1) * sizeof(nrt_str));
  l->len--;
  nrt_str_release(&old);
}

int32_t nrt_udf_rt_mlist_remove(struct nrt_error *err, nrt_meminfo *mi, const nrt_str *x) {
  nrt_str_list *l = list_of(mi);
  int64_t i = find(l, x);
  if (i < 0)
    return nrt_error_set(err, NRT_EVALUE, "list.remove(x): x not in list");
  delete_at(l, i);
  return NRT_OK;
}

int32_t nrt_udf_rt_mlist_index(struct nrt_error *err, nrt_meminfo *mi, const nrt_str *x,
                               int64_t *out) {
  *out = find(list_of(mi), x);
  if (*out >= 0)
    return NRT_OK;
  nrt_str r = {0};
  int rc = nrt_udf_rt_repr(err, x, 0, &r); /* ValueError: 'x' is not in list */
  if (rc != NRT_OK)
    return rc;
  rc = nrt_error_set(err, NRT_EVALUE, "%.*s is not in list", (int)(r.len > 200 ? 200 : r.len),
                     r.data);
  nrt_str_release(&r);
  return rc;
}

int64_t nrt_udf_rt_mlist_count(nrt_meminfo *mi, const nrt_str *x) {
  nrt_str_list *l = list_of(mi);
  int64_t n = 0;
  for (int64_t i = 0; i < l->len; i++)
    n += nrt_str_eq(l->items[i].data, l->items[i].len, x->data, x->len);
  return n;
}

void nrt_udf_rt_mlist_reverse(nrt_meminfo *mi) {
  nrt_str_list *l = list_of(mi);
  for (int64_t i = 0, j = l->len - 1; i < j; i++, j--) {
    nrt_str t = l->items[i];
    l->items[i] = l->items[j];
    l->items[j] = t;
  }
}

void nrt_udf_rt_mlist_clear(nrt_meminfo *mi) {
  nrt_str_list *l = list_of(mi);
  while (l->len > 0) /* one at a time: the list stays valid */
    nrt_str_release(&l->items[--l->len]);
}

int32_t nrt_udf_rt_mlist_setitem(struct nrt_error *err, nrt_meminfo *mi, int64_t i,
                                 const nrt_str *x) {
  nrt_str_list *l = list_of(mi);
  if (!norm_index(l->len, &i))
    return nrt_error_set(err, NRT_EINDEX, "list assignment index out of range");
  nrt_str old = l->items[i];
  nrt_str_retain(x);
  l->items[i] = *x;
  nrt_str_release(&old);
  return NRT_OK;
}

int32_t nrt_udf_rt_mlist_delitem(struct nrt_error *err, nrt_meminfo *mi, int64_t i) {
  nrt_str_list *l = list_of(mi);
  if (!norm_index(l->len, &i))
    return nrt_error_set(err, NRT_EINDEX, "list assignment index out of range");
  delete_at(l, i);
  return NRT_OK;
}

/* A new list with the items of src (list(xs), xs.copy(), sorted(xs)). */
int32_t nrt_udf_rt_mlist_copy(struct nrt_error *err, nrt_meminfo *src, nrt_meminfo **out) {
  *out = NULL;
  nrt_str_list *s = list_of(src), *l;
  int rc = nrt_str_list_new(s->len, &l, err);
  if (rc != NRT_OK)
    return rc;
  for (int64_t i = 0; i < s->len; i++)
    nrt_str_list_append_copy(l, &s->items[i], err); /* within the capacity: cannot fail */
  *out = l->mi;
  return NRT_OK;
}

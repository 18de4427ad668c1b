/* The managed list of strings: header and initial items in the payload of one MemInfo; the
 * items move to their own block when the list first outgrows its initial capacity. */
#include "str/str_internal.h"

static nrt_str *inline_items(nrt_str_list *list) {
  return (nrt_str *)(list + 1);
}

static void list_dtor(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  nrt_str_list *list = (nrt_str_list *)data;
  for (int64_t i = 0; i < list->len; i++)
    if (list->items[i].mi) /* views (pieces of a borrowed string) hold nothing */
      nrt_mi_decref(list->items[i].mi);
  if (list->items != inline_items(list))
    nrt_free(list->items, (size_t)list->cap * sizeof(nrt_str));
}

int nrt_str_list_new(int64_t capacity, nrt_str_list **out, struct nrt_error *err) {
  *out = NULL;
  if (capacity < 0)
    return nrt_error_set(err, NRT_EINVAL, "negative list capacity %lld", (long long)capacity);
  if ((uint64_t)capacity > (SIZE_MAX / 2) / sizeof(nrt_str))
    return nrt_error_set(err, NRT_EOVERFLOW, "list of %lld strings is too long",
                         (long long)capacity);
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc_dtor(sizeof(nrt_str_list) + (size_t)capacity * sizeof(nrt_str),
                             list_dtor, NULL, &mi, err);
  if (rc != NRT_OK)
    return rc;
  nrt_str_list *list = (nrt_str_list *)mi->data;
  list->mi = mi;
  list->len = 0;
  list->cap = capacity;
  list->items = inline_items(list);
  *out = list;
  return NRT_OK;
}

void nrt_str_list_retain(nrt_str_list *list) {
  if (list)
    nrt_mi_incref(list->mi);
}

void nrt_str_list_release(nrt_str_list *list) {
  if (list)
    nrt_mi_decref(list->mi);
}

static int grow(nrt_str_list *list, struct nrt_error *err) {
  int64_t cap = list->cap < 4 ? 8 : list->cap * 2;
  if ((uint64_t)cap > (SIZE_MAX / 2) / sizeof(nrt_str))
    return nrt_error_set(err, NRT_EOVERFLOW, "list of strings is too long");
  nrt_str *items = (nrt_str *)nrt_allocate((size_t)cap * sizeof(nrt_str), err);
  if (!items)
    return NRT_ENOMEM;
  if (list->len)
    memcpy(items, list->items, (size_t)list->len * sizeof(nrt_str));
  if (list->items != inline_items(list))
    nrt_free(list->items, (size_t)list->cap * sizeof(nrt_str));
  list->items = items;
  list->cap = cap;
  return NRT_OK;
}

int nrt_str_list_append(nrt_str_list *list, nrt_str s, struct nrt_error *err) {
  if (list->len == list->cap) {
    int rc = grow(list, err);
    if (rc != NRT_OK) {
      nrt_str_release(&s);
      return rc;
    }
  }
  list->items[list->len++] = s;
  return NRT_OK;
}

int nrt_str_list_append_copy(nrt_str_list *list, const nrt_str *s, struct nrt_error *err) {
  nrt_str_retain(s);
  return nrt_str_list_append(list, *s, err);
}

int64_t nrt_str_list_len(const nrt_str_list *list) {
  return list->len;
}

int nrt_str_list_get(const nrt_str_list *list, int64_t i, nrt_str *out, struct nrt_error *err) {
  if (i < 0)
    i += list->len;
  if (i < 0 || i >= list->len) {
    *out = nrt_str_empty();
    return nrt_error_set(err, NRT_EINDEX, "list index out of range");
  }
  *out = list->items[i];
  nrt_str_retain(out);
  return NRT_OK;
}

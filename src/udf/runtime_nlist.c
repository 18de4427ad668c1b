/* Lists of int or float (ast.h UDF_TY_LIST): the storage of a list of str (nrt_str_list, so
 * append, insert, pop, slicing, +, * and the rest are shared), each item an nrt_str with no
 * owner and no data whose len holds the number's bits (an int64, or a double bit for bit).
 * Here: what compares numbers (count, index, remove, `in`), sum() and list(range(...)). */
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "udf/runtime.h"

static nrt_str_list *list_of(nrt_meminfo *mi) { return (nrt_str_list *)mi->data; }

static double as_float(int64_t bits) {
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static bool item_eq(int32_t kind, int64_t a, int64_t b) {
  return kind == NRT_UDF_KEY_INT ? a == b : as_float(a) == as_float(b);
}

static int64_t find(const nrt_str_list *l, int32_t kind, int64_t bits) {
  for (int64_t i = 0; i < l->len; i++)
    if (item_eq(kind, l->items[i].len, bits))
      return i;
  return -1;
}

int64_t nrt_udf_rt_nlist_count(nrt_meminfo *list, int32_t kind, int64_t bits) {
  nrt_str_list *l = list_of(list);
  int64_t n = 0;
  for (int64_t i = 0; i < l->len; i++)
    n += item_eq(kind, l->items[i].len, bits);
  return n;
}

int32_t nrt_udf_rt_nlist_index(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                               int64_t bits, int64_t *out) {
  *out = find(list_of(list), kind == NRT_UDF_KEY_BOOL ? NRT_UDF_KEY_INT : kind, bits);
  if (*out >= 0)
    return NRT_OK;
  char buf[64];
  if (kind == NRT_UDF_KEY_BOOL)
    snprintf(buf, sizeof buf, "%s", bits ? "True" : "False");
  else if (kind == NRT_UDF_KEY_INT)
    buf[nrt_str_from_int64_into(bits, buf)] = '\0';
  else
    buf[nrt_str_from_double_into(as_float(bits), buf)] = '\0';
  return nrt_error_set(err, NRT_EVALUE, "%s is not in list", buf);
}

int32_t nrt_udf_rt_nlist_remove(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                                int64_t bits) {
  nrt_str_list *l = list_of(list);
  int64_t i = find(l, kind, bits);
  if (i < 0)
    return nrt_error_set(err, NRT_EVALUE, "list.remove(x): x not in list");
  memmove(&l->items[i], &l->items[i + 1], (size_t)(l->len - i - 1) * sizeof(nrt_str));
  l->len--;
  return NRT_OK;
}

/* sum(list): left to right, as CPython 3.11 (ints: OverflowError past 64 bits). */
int32_t nrt_udf_rt_nlist_sum(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                             int64_t *out) {
  nrt_str_list *l = list_of(list);
  if (kind == NRT_UDF_KEY_INT) {
    int64_t s = 0;
    for (int64_t i = 0; i < l->len; i++)
      if (__builtin_add_overflow(s, l->items[i].len, &s))
        return nrt_error_set(err, NRT_EOVERFLOW, "integer overflow in sum() (nrt ints are 64-bit)");
    *out = s;
    return NRT_OK;
  }
  double s = 0.0;
  for (int64_t i = 0; i < l->len; i++)
    s += as_float(l->items[i].len);
  memcpy(out, &s, sizeof s);
  return NRT_OK;
}

/* list(range(start, stop, step)). */
int32_t nrt_udf_rt_nlist_range(struct nrt_error *err, int64_t start, int64_t stop, int64_t step,
                               nrt_meminfo **out) {
  *out = NULL;
  if (step == 0)
    return nrt_error_set(err, NRT_EVALUE, "range() arg 3 must not be zero");
  __int128 lo = start, hi = stop, st = step, n = 0;
  if (st > 0 && lo < hi)
    n = (hi - lo + st - 1) / st;
  else if (st < 0 && lo > hi)
    n = (lo - hi - st - 1) / -st;
  if (n > (__int128)1 << 40)
    return nrt_error_set(err, NRT_ENOMEM, "range() of %lld items is too long for a list",
                         (long long)n);
  nrt_str_list *l;
  int rc = nrt_str_list_new((int64_t)n, &l, err);
  if (rc != NRT_OK)
    return rc;
  for (int64_t i = 0; i < (int64_t)n; i++) {
    nrt_str item = {NULL, NULL, (int64_t)(lo + (__int128)i * st)};
    nrt_str_list_append(l, item, err); /* within the capacity: cannot fail */
  }
  *out = l->mi;
  return NRT_OK;
}

/* a == b for two lists of numbers of one kind. */
bool nrt_udf_rt_nlist_eq(nrt_meminfo *a, nrt_meminfo *b, int32_t kind) {
  nrt_str_list *la = list_of(a), *lb = list_of(b);
  if (la->len != lb->len)
    return false;
  for (int64_t i = 0; i < la->len; i++)
    if (!item_eq(kind, la->items[i].len, lb->items[i].len))
      return false;
  return true;
}

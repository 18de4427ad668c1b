/* String entry points of compiled UDF code that the str layer does not offer in a form the
 * compiler can call directly: views of borrowed strings, list values (passed as the list's
 * MemInfo), and small checks with Python's messages (see runtime.h). */
#include <string.h>

#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "nrt/unicode.h"
#include "str/str_copy.h"
#include "str/str_internal.h"
#include "udf/runtime.h"

static nrt_str mk(nrt_meminfo *mi, const char *data, int64_t len) {
  nrt_str s = {mi, data, len};
  return s;
}

static nrt_str_list *list_of(nrt_meminfo *mi) { return (nrt_str_list *)mi->data; }

/* A string of the bytes [off, off+n) of s: a view when s is borrowed (its bytes outlive the
 * call), else a new reference (the static table for an ASCII character). */
static int sub(const nrt_str *s, int64_t off, int64_t n, nrt_str *out, struct nrt_error *err) {
  if (!s->mi) {
    *out = mk(NULL, s->data + off, n);
    return NRT_OK;
  }
  if (off == 0 && n == s->len) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  /* One character: chr() of its code point (the static table for ASCII, else a new string).
   * Not nrt_str_getitem of a one-character view: that returns the view itself, which would
   * point into s's bytes without holding s. */
  size_t used;
  uint32_t cp = nrt_utf8_decode(s->data + off, (size_t)n, &used);
  if ((int64_t)used == n)
    return nrt_str_chr((int64_t)cp, out, err);
  return nrt_str_new(s->data + off, n, out, err);
}

int32_t nrt_udf_rt_char_at(struct nrt_error *err, nrt_meminfo *mi, const char *data,
                           int64_t len, int64_t pos, int64_t *nbytes, nrt_str *out) {
  unsigned char b = (unsigned char)data[pos];
  int64_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
  if (n > len - pos)
    n = len - pos;
  *nbytes = n;
  nrt_str s = mk(mi, data, len);
  return sub(&s, pos, n, out, err);
}

int32_t nrt_udf_rt_strip(struct nrt_error *err, const nrt_str *s, const nrt_str *chars,
                         int32_t side, nrt_str *out) {
  int64_t b, e;
  nrt_str_strip_range(s->data, s->len, chars ? chars->data : NULL, chars ? chars->len : 0,
                      (enum nrt_str_strip_side)side, &b, &e);
  return sub(s, b, e - b, out, err);
}

int32_t nrt_udf_rt_str_getitem(struct nrt_error *err, nrt_meminfo *mi, const char *data,
                               int64_t len, int64_t i, nrt_str *out) {
  int64_t off, n;
  int rc = nrt_str_char_range(data, len, i, &off, &n, err);
  if (rc)
    return rc;
  nrt_str s = mk(mi, data, len);
  return sub(&s, off, n, out, err);
}

int32_t nrt_udf_rt_str_slice(struct nrt_error *err, nrt_meminfo *mi, const char *data,
                             int64_t len, int64_t start, int64_t stop, int64_t step,
                             nrt_str *out) {
  nrt_str s = mk(mi, data, len);
  if (mi || (step != 1 && step != NRT_STR_NONE))
    return nrt_str_slice(&s, start, stop, step, out, err);
  /* A step-1 slice of a borrowed string: a view (its bytes outlive the call). */
  int64_t b0, b1;
  nrt_str_slice_range(data, len, start, stop, &b0, &b1);
  *out = mk(NULL, data + b0, b1 - b0);
  return NRT_OK;
}

int32_t nrt_udf_rt_unpack_check(struct nrt_error *err, int64_t got, int64_t expected) {
  if (got == expected)
    return NRT_OK;
  if (got < expected)
    return nrt_error_set(err, NRT_EVALUE, "not enough values to unpack (expected %lld, got %lld)",
                         (long long)expected, (long long)got);
  return nrt_error_set(err, NRT_EVALUE, "too many values to unpack (expected %lld)",
                       (long long)expected);
}

int32_t nrt_udf_rt_check_base(struct nrt_error *err, int64_t base) {
  if (base == 0 || (base >= 2 && base <= 36))
    return NRT_OK;
  return nrt_error_set(err, NRT_EVALUE, "int() base must be >= 2 and <= 36, or 0");
}

/* ------------------------------------------------------------------ lists */

int32_t nrt_udf_rt_list_new(struct nrt_error *err, int64_t cap, nrt_meminfo **out) {
  nrt_str_list *l;
  int rc = nrt_str_list_new(cap, &l, err);
  *out = rc ? NULL : l->mi;
  return rc;
}

int32_t nrt_udf_rt_list_chars(struct nrt_error *err, const nrt_str *s, nrt_meminfo **out) {
  nrt_str_list *l;
  *out = NULL;
  int rc = nrt_str_list_new(nrt_str_len(s->data, s->len), &l, err);
  for (int64_t pos = 0, n; rc == NRT_OK && pos < s->len; pos += n) {
    unsigned char b = (unsigned char)s->data[pos];
    n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    nrt_str ch;
    rc = sub(s, pos, n, &ch, err);
    if (rc == NRT_OK)
      rc = nrt_str_list_append(l, ch, err); /* within the capacity: cannot fail */
  }
  if (rc) {
    nrt_str_list_release(l);
    return rc;
  }
  *out = l->mi;
  return NRT_OK;
}

int32_t nrt_udf_rt_list_append(struct nrt_error *err, nrt_meminfo *list, const nrt_str *s) {
  return nrt_str_list_append_copy(list_of(list), s, err);
}

int32_t nrt_udf_rt_list_getitem(struct nrt_error *err, nrt_meminfo *list, int64_t i,
                                nrt_str *out) {
  return nrt_str_list_get(list_of(list), i, out, err);
}

/* Python's PySlice_AdjustIndices, with NRT_STR_NONE for an omitted bound. Returns the count. */
static void adjust_one(int64_t len, int64_t *b, int64_t step, int64_t dflt) {
  if (*b == NRT_STR_NONE) {
    *b = dflt;
  } else if (*b < 0) {
    *b += len;
    if (*b < 0)
      *b = step < 0 ? -1 : 0;
  } else if (*b >= len) {
    *b = step < 0 ? len - 1 : len;
  }
}

static int64_t adjust(int64_t len, int64_t *start, int64_t *stop, int64_t step) {
  adjust_one(len, start, step, step < 0 ? len - 1 : 0);
  adjust_one(len, stop, step, step < 0 ? -1 : len);
  if (step < 0)
    return *stop < *start ? (*start - *stop - 1) / (-step) + 1 : 0;
  return *start < *stop ? (*stop - *start - 1) / step + 1 : 0;
}

int32_t nrt_udf_rt_list_slice(struct nrt_error *err, nrt_meminfo *list, int64_t start,
                              int64_t stop, int64_t step, nrt_meminfo **out) {
  *out = NULL;
  if (step == 0)
    return nrt_error_set(err, NRT_EVALUE, "slice step cannot be zero");
  nrt_str_list *src = list_of(list);
  int64_t n = adjust(src->len, &start, &stop, step);
  nrt_str_list *l;
  int rc = nrt_str_list_new(n, &l, err);
  for (int64_t i = 0; rc == NRT_OK && i < n; i++)
    rc = nrt_str_list_append_copy(l, &src->items[start + i * step], err);
  if (rc) {
    if (l && l->mi)
      nrt_str_list_release(l);
    return rc;
  }
  *out = l->mi;
  return NRT_OK;
}

int32_t nrt_udf_rt_list_concat(struct nrt_error *err, nrt_meminfo *a, nrt_meminfo *b,
                               nrt_meminfo **out) {
  *out = NULL;
  nrt_str_list *la = list_of(a), *lb = list_of(b), *l;
  int rc = nrt_str_list_new(la->len + lb->len, &l, err);
  if (rc)
    return rc;
  for (int64_t i = 0; rc == NRT_OK && i < la->len; i++)
    rc = nrt_str_list_append_copy(l, &la->items[i], err);
  for (int64_t i = 0; rc == NRT_OK && i < lb->len; i++)
    rc = nrt_str_list_append_copy(l, &lb->items[i], err);
  if (rc) {
    nrt_str_list_release(l);
    return rc;
  }
  *out = l->mi;
  return NRT_OK;
}

int32_t nrt_udf_rt_list_repeat(struct nrt_error *err, nrt_meminfo *a, int64_t n,
                               nrt_meminfo **out) {
  *out = NULL;
  nrt_str_list *la = list_of(a), *l;
  if (n < 0)
    n = 0;
  if (la->len && n > (INT64_MAX / 4) / (int64_t)sizeof(nrt_str) / la->len)
    return nrt_error_set(err, NRT_EOVERFLOW, "repeated list is too long");
  int rc = nrt_str_list_new(la->len * n, &l, err);
  if (rc)
    return rc;
  for (int64_t k = 0; rc == NRT_OK && k < n; k++)
    for (int64_t i = 0; rc == NRT_OK && i < la->len; i++)
      rc = nrt_str_list_append_copy(l, &la->items[i], err);
  if (rc) {
    nrt_str_list_release(l);
    return rc;
  }
  *out = l->mi;
  return NRT_OK;
}

bool nrt_udf_rt_list_contains(nrt_meminfo *list, const char *data, int64_t len) {
  nrt_str_list *l = list_of(list);
  for (int64_t i = 0; i < l->len; i++)
    if (nrt_str_eq(l->items[i].data, l->items[i].len, data, len))
      return true;
  return false;
}

bool nrt_udf_rt_list_eq(nrt_meminfo *a, nrt_meminfo *b) {
  nrt_str_list *la = list_of(a), *lb = list_of(b);
  if (la->len != lb->len)
    return false;
  for (int64_t i = 0; i < la->len; i++)
    if (!nrt_str_eq(la->items[i].data, la->items[i].len, lb->items[i].data, lb->items[i].len))
      return false;
  return true;
}

bool nrt_udf_rt_startswith_list(nrt_meminfo *list, const char *s, int64_t len, int64_t start,
                                int64_t end) {
  nrt_str_list *l = list_of(list);
  return nrt_str_startswith_any(s, len, l->items, l->len, start, end);
}

bool nrt_udf_rt_endswith_list(nrt_meminfo *list, const char *s, int64_t len, int64_t start,
                              int64_t end) {
  nrt_str_list *l = list_of(list);
  return nrt_str_endswith_any(s, len, l->items, l->len, start, end);
}

static int32_t list_result(int rc, nrt_str_list *l, nrt_meminfo **out) {
  *out = rc == NRT_OK && l ? l->mi : NULL;
  return rc;
}

int32_t nrt_udf_rt_split(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                         int64_t maxsplit, nrt_meminfo **out) {
  nrt_str_list *l = NULL;
  int rc = nrt_str_split(s, sep, maxsplit, &l, err);
  return list_result(rc, l, out);
}

int32_t nrt_udf_rt_rsplit(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                          int64_t maxsplit, nrt_meminfo **out) {
  nrt_str_list *l = NULL;
  int rc = nrt_str_rsplit(s, sep, maxsplit, &l, err);
  return list_result(rc, l, out);
}

int32_t nrt_udf_rt_splitlines(struct nrt_error *err, const nrt_str *s, int32_t keepends,
                              nrt_meminfo **out) {
  nrt_str_list *l = NULL;
  int rc = nrt_str_splitlines(s, keepends != 0, &l, err);
  return list_result(rc, l, out);
}

int32_t nrt_udf_rt_partition(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                             int32_t reverse, nrt_meminfo **out) {
  nrt_str_list *l = NULL;
  int rc = reverse ? nrt_str_rpartition(s, sep, &l, err) : nrt_str_partition(s, sep, &l, err);
  return list_result(rc, l, out);
}

int32_t nrt_udf_rt_join_words(struct nrt_error *err, const nrt_str *sep, const nrt_str *s,
                              nrt_str *out) {
  return nrt_str_join_words(sep, s, out, err);
}

int32_t nrt_udf_rt_partition_item(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                                  int32_t reverse, int32_t item, nrt_str *out) {
  return nrt_str_partition_item(s, sep, reverse != 0, item, out, err);
}

int32_t nrt_udf_rt_partition_range(struct nrt_error *err, const char *data, int64_t len,
                                   const char *sep, int64_t seplen, int32_t reverse, int32_t item,
                                   int64_t *from, int64_t *to) {
  *from = *to = 0;
  if (seplen == 0)
    return nrt_error_set(err, NRT_EVALUE, "empty separator");
  const char *p = reverse ? nrt_str_rfind_bytes(data, len, sep, seplen)
                          : nrt_str_find_bytes(data, len, sep, seplen);
  if (!p) { /* (s, '', '') from the left, ('', '', s) from the right */
    if (item == (reverse ? 2 : 0))
      *to = len;
    return NRT_OK;
  }
  int64_t at = p - data;
  *from = item == 0 ? 0 : item == 1 ? at : at + seplen;
  *to = item == 0 ? at : item == 1 ? at + seplen : len;
  return NRT_OK;
}

int32_t nrt_udf_rt_join(struct nrt_error *err, const nrt_str *sep, nrt_meminfo *list,
                        nrt_str *out) {
  return nrt_str_join(sep, list_of(list), out, err);
}

int32_t nrt_udf_rt_join_chars(struct nrt_error *err, const nrt_str *sep, const nrt_str *s,
                              nrt_str *out) {
  if (s->len <= 1 || sep->len == 0) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  int64_t n = nrt_str_len(s->data, s->len);
  int64_t total = s->len + (n - 1) * sep->len;
  char *p;
  int rc = nrt_str_alloc(total, out, &p, err);
  if (rc)
    return rc;
  for (int64_t i = 0; i < s->len;) {
    unsigned char b = (unsigned char)s->data[i];
    int64_t k = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    if (i) {
      memcpy(p, sep->data, (size_t)sep->len);
      p += sep->len;
    }
    memcpy(p, s->data + i, (size_t)k);
    p += k;
    i += k;
  }
  return NRT_OK;
}

int32_t nrt_udf_rt_str_minmax(struct nrt_error *err, const nrt_str *s, int32_t is_max,
                              nrt_str *out) {
  if (s->len == 0)
    return nrt_error_set(err, NRT_EVALUE, "%s() arg is an empty sequence",
                         is_max ? "max" : "min");
  int64_t best_off = 0;
  size_t best_n = 0;
  uint32_t best = 0;
  for (int64_t i = 0; i < s->len;) {
    size_t n;
    uint32_t cp = nrt_utf8_decode(s->data + i, (size_t)(s->len - i), &n);
    if (i == 0 || (is_max ? cp > best : cp < best)) {
      best = cp;
      best_off = i;
      best_n = n;
    }
    i += (int64_t)n;
  }
  return sub(s, best_off, (int64_t)best_n, out, err);
}

int32_t nrt_udf_rt_list_minmax(struct nrt_error *err, nrt_meminfo *list, int32_t is_max,
                               nrt_str *out) {
  nrt_str_list *l = list_of(list);
  if (l->len == 0)
    return nrt_error_set(err, NRT_EVALUE, "%s() arg is an empty sequence",
                         is_max ? "max" : "min");
  int64_t best = 0;
  for (int64_t i = 1; i < l->len; i++) {
    int c = nrt_str_compare(l->items[i].data, l->items[i].len, l->items[best].data,
                            l->items[best].len);
    if (is_max ? c > 0 : c < 0)
      best = i;
  }
  nrt_str_retain(&l->items[best]);
  *out = l->items[best];
  return NRT_OK;
}

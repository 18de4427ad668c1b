/* repr() / ascii() / str() of lists, tuples and dicts (ast.h: UDF_BI_REPR_VALUE) with
 * CPython's rendering: items by their repr (str quoted as repr(s) quotes it, floats as
 * repr(x)), ', ' between items, ': ' after keys, a 1-tuple's trailing comma. ascii() is the
 * repr with every non-ASCII character escaped, as CPython defines it. Two passes: measure,
 * then write into one new string. */
#include <stdio.h>
#include <string.h>

#include "nrt/str_convert.h"
#include "nrt/unicode.h"
#include "udf/ast.h"
#include "udf/runtime.h"
#include "udf/runtime_dict.h"

typedef struct sink {
  char *p;    /* NULL while measuring */
  int64_t n;  /* bytes so far */
  bool bound; /* measuring an upper bound only (no scan of the strs) */
} sink;

static void put(sink *o, const char *s, int64_t len) {
  if (o->p)
    memcpy(o->p + o->n, s, (size_t)len);
  o->n += len;
}

static void put_list(sink *o, const nrt_meminfo *mi, udf_type item, bool tuple);

#define ONES 0x0101010101010101ULL
#define HIGH 0x8080808080808080ULL

static uint64_t load64(const char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

static uint64_t load32(const char *p) {
  uint32_t w;
  memcpy(&w, p, 4);
  return w;
}

/* 0x80 in each byte of w that repr() does not copy as it is: below 0x20, 0x7f and above
 * (escapes, non-ASCII), ' and \. Exact for every byte (the additions work on the low 7 bits
 * and cannot carry between bytes). */
static uint64_t repr_special(uint64_t w) {
  uint64_t x = w & ~HIGH;
  uint64_t quote = w ^ (ONES * '\''), bslash = w ^ (ONES * '\\');
  uint64_t zero_q = ~(((quote & ~HIGH) + ~HIGH) | quote) & HIGH;
  uint64_t zero_b = ~(((bslash & ~HIGH) + ~HIGH) | bslash) & HIGH;
  return (~(x + ONES * 0x60) & HIGH) | ((x + ONES) & HIGH) | (w & HIGH) | zero_q | zero_b;
}

/* True when repr(s) is s in single quotes: printable ASCII without ' or \ (the usual item).
 * Eight bytes at a time; the last word, and a string under 8 bytes, read by overlapping loads
 * (a byte read twice is checked twice), never past s[len). */
static bool plain_ascii(const char *s, int64_t len) {
  if (len >= 8) {
    for (int64_t i = 0; i + 8 <= len; i += 8)
      if (repr_special(load64(s + i)))
        return false;
    return repr_special(load64(s + len - 8)) == 0;
  }
  uint64_t w;
  if (len >= 4)
    w = load32(s) | (load32(s + len - 4) << 32);
  else if (len > 0)
    w = (unsigned char)s[0] | ((uint64_t)(unsigned char)s[len / 2] << 8) |
        ((uint64_t)(unsigned char)s[len - 1] << 16) | (ONES * 'a' << 24);
  else
    return true;
  return repr_special(w) == 0;
}

/* One item of kind k held in its nrt_str slot (runtime_dict.h: numbers in len). */
static void put_item(sink *o, udf_type k, const nrt_str *v) {
  switch (k) {
  case UDF_TY_STR:
    if (!o->bound && plain_ascii(v->data, v->len)) {
      put(o, "'", 1);
      put(o, v->data, v->len);
      put(o, "'", 1);
      return;
    }
    o->n += o->p      ? nrt_str_repr_into(v->data, v->len, o->p + o->n)
            : o->bound ? 4 * v->len + 2 /* nrt_str_repr_size's bound */
                       : nrt_str_repr_size(v->data, v->len);
    return;
  case UDF_TY_INT:
    o->n += o->p ? nrt_str_from_int64_into(v->len, o->p + o->n) : nrt_str_from_int64_size(v->len);
    return;
  case UDF_TY_FLOAT: {
    double x;
    memcpy(&x, &v->len, sizeof x);
    o->n += o->p ? nrt_str_from_double_into(x, o->p + o->n) : nrt_str_from_double_size(x);
    return;
  }
  case UDF_TY_BOOL: put(o, v->len ? "True" : "False", v->len ? 4 : 5); return;
  case UDF_TY_LIST_STR: put_list(o, v->mi, UDF_TY_STR, false); return;
  default: put(o, "?", 1); return; /* the checker admits no other kind */
  }
}

static void put_list(sink *o, const nrt_meminfo *mi, udf_type item, bool tuple) {
  const nrt_str_list *l = (const nrt_str_list *)mi->data;
  put(o, tuple ? "(" : "[", 1);
  for (int64_t i = 0; i < l->len; i++) {
    if (i)
      put(o, ", ", 2);
    put_item(o, item, &l->items[i]);
  }
  if (tuple && l->len == 1)
    put(o, ",", 1);
  put(o, tuple ? ")" : "]", 1);
}

static void put_dict(sink *o, const nrt_udf_dict *d) {
  put(o, "{", 1);
  bool first = true;
  for (int64_t i = 0; i < d->nent; i++) {
    if (!d->ent[i].live)
      continue;
    if (!first)
      put(o, ", ", 2);
    first = false;
    put_item(o, (udf_type)d->key_kind, &d->ent[i].key);
    put(o, ": ", 2);
    put_item(o, (udf_type)d->value_kind, &d->ent[i].value);
  }
  put(o, "}", 1);
}

static void put_value(sink *o, const void *x, udf_type t) {
  switch (udf_type_base(t)) {
  case UDF_TY_LIST_STR: put_list(o, (const nrt_meminfo *)x, UDF_TY_STR, false); return;
  case UDF_TY_TUPLE_STR: put_list(o, (const nrt_meminfo *)x, UDF_TY_STR, true); return;
  case UDF_TY_LIST: put_list(o, (const nrt_meminfo *)x, udf_type_param1(t), false); return;
  default: put_dict(o, x); return;
  }
}

/* Bytes of s[0..len) with each non-ASCII character escaped as ascii() escapes it (into out
 * when not NULL). */
static int64_t ascii_escape(const char *s, int64_t len, char *out) {
  int64_t n = 0;
  for (int64_t i = 0; i < len;) {
    if ((unsigned char)s[i] < 0x80) {
      if (out)
        out[n] = s[i];
      n++;
      i++;
      continue;
    }
    size_t k;
    uint32_t cp = nrt_utf8_decode(s + i, (size_t)(len - i), &k);
    char esc[12];
    int m = cp < 0x100 ? snprintf(esc, sizeof esc, "\\x%02x", cp)
            : cp < 0x10000 ? snprintf(esc, sizeof esc, "\\u%04x", cp)
                           : snprintf(esc, sizeof esc, "\\U%08x", cp);
    if (out)
      memcpy(out + n, esc, (size_t)m);
    n += m;
    i += (int64_t)k;
  }
  return n;
}

/* repr() of a list or tuple of str written into the row in one pass: room for the bound (4
 * bytes per byte of text, quotes and separators), then each item copied in quotes when it is
 * plain, else escaped by nrt_str_repr_into. */
static int32_t write_str_list(struct nrt_error *err, nrt_col_row_writer *w,
                              const nrt_str_list *l, bool tuple) {
  int64_t n = l->len, text = 0;
  for (int64_t i = 0; i < n; i++)
    text += l->items[i].len;
  if (text > INT64_MAX / 8 || n > INT64_MAX / 8)
    return nrt_error_set(err, NRT_EOVERFLOW, "repr() result is too long");
  char *o = nrt_col_row_room(w, (size_t)(4 * text + 4 * n + 3), err);
  if (!o)
    return nrt_udf_room_failed(err);
  *o++ = tuple ? '(' : '[';
  for (int64_t i = 0; i < n; i++) {
    const nrt_str *v = &l->items[i];
    if (i) {
      o[0] = ',';
      o[1] = ' ';
      o += 2;
    }
    if (plain_ascii(v->data, v->len)) {
      *o++ = '\'';
      nrt_udf_copy_bytes(o, v->data, v->len);
      o += v->len;
      *o++ = '\'';
    } else {
      o += nrt_str_repr_into(v->data, v->len, o);
    }
  }
  if (tuple && n == 1)
    *o++ = ',';
  *o++ = tuple ? ')' : ']';
  w->pos = o;
  return NRT_OK;
}

int32_t nrt_udf_rt_write_repr_value(struct nrt_error *err, nrt_col_row_writer *w, const void *x,
                                    int32_t type) {
  udf_type base = udf_type_base((udf_type)type);
  if (base == UDF_TY_LIST_STR || base == UDF_TY_TUPLE_STR)
    return write_str_list(err, w, (const nrt_str_list *)((const nrt_meminfo *)x)->data,
                          base == UDF_TY_TUPLE_STR);
  sink o = {NULL, 0, true}; /* room for the bound, then one pass writing */
  put_value(&o, x, (udf_type)type);
  char *room = nrt_col_row_room(w, (size_t)o.n, err);
  if (!room)
    return nrt_udf_room_failed(err);
  o = (sink){room, 0, false};
  put_value(&o, x, (udf_type)type);
  w->pos = room + o.n;
  return NRT_OK;
}

int32_t nrt_udf_rt_repr_value(struct nrt_error *err, const void *x, int32_t type, int32_t ascii,
                              nrt_str *out) {
  sink o = {NULL, 0, false};
  put_value(&o, x, (udf_type)type);
  char *p;
  int rc = nrt_str_alloc(o.n, out, &p, err);
  if (rc)
    return rc;
  o.p = p;
  o.n = 0;
  put_value(&o, x, (udf_type)type);
  if (!ascii)
    return NRT_OK;
  int64_t size = ascii_escape(p, o.n, NULL);
  if (size == o.n)
    return NRT_OK;
  nrt_str escaped;
  char *q;
  rc = nrt_str_alloc(size, &escaped, &q, err);
  if (rc == NRT_OK)
    ascii_escape(p, o.n, q);
  nrt_str_release(out);
  *out = escaped;
  return rc;
}

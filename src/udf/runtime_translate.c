/* s.translate(table) with CPython's results and errors (see runtime_translate.h). Two passes
 * over s: measure, then write; ASCII bytes go through the table's direct entries. */
#include <stddef.h>
#include <string.h>

#include "nrt/unicode.h"
#include "str/str_copy.h"
#include "udf/ast.h"
#include "udf/runtime.h"
#include "udf/runtime_dict.h"
#include "udf/runtime_translate.h"

static int32_t bad_mapping(struct nrt_error *err, int32_t kind) {
  if (kind == NRT_UDF_TRANS_RANGE)
    return nrt_error_set(err, NRT_EVALUE, "character mapping must be in range(0x110000)");
  return nrt_error_set(err, NRT_ETYPE, "character mapping must return integer, None or str");
}

/* The entry of a code point >= 128: len KEEP when absent. */
static nrt_udf_trans_entry find_big(const char *big, uint32_t n, uint32_t cp) {
  uint32_t lo = 0, hi = n;
  nrt_udf_trans_entry e = {cp, NRT_UDF_TRANS_KEEP, 0};
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    nrt_udf_trans_entry m;
    memcpy(&m, big + (size_t)mid * sizeof m, sizeof m);
    if (m.cp == cp)
      return m;
    if (m.cp < cp)
      lo = mid + 1;
    else
      hi = mid;
  }
  return e;
}

/* The table's parts (its bytes have no alignment: fields are read with memcpy, which is a
 * plain load on the targets nrt runs on). */
typedef struct table {
  const char *len, *off, *size, *bytes, *big, *pool;
  uint32_t nbig, short_ascii;
} table;

static void open_table(table *t, const char *bytes) {
  t->len = bytes + offsetof(nrt_udf_trans_head, ascii_len);
  t->off = bytes + offsetof(nrt_udf_trans_head, ascii_off);
  t->size = bytes + offsetof(nrt_udf_trans_head, ascii_size);
  t->bytes = bytes + offsetof(nrt_udf_trans_head, ascii_bytes);
  memcpy(&t->short_ascii, bytes + offsetof(nrt_udf_trans_head, short_ascii),
         sizeof t->short_ascii);
  memcpy(&t->nbig, bytes + offsetof(nrt_udf_trans_head, nbig), sizeof t->nbig);
  t->big = bytes + sizeof(nrt_udf_trans_head);
  t->pool = t->big + (size_t)t->nbig * sizeof(nrt_udf_trans_entry);
}

static int32_t ascii_len(const table *t, unsigned char c) {
  int32_t v;
  memcpy(&v, t->len + (size_t)c * sizeof v, sizeof v);
  return v;
}

static int32_t ascii_size(const table *t, unsigned char c) {
  int32_t v;
  memcpy(&v, t->size + (size_t)c * sizeof v, sizeof v);
  return v;
}

static uint32_t ascii_off(const table *t, unsigned char c) {
  uint32_t v;
  memcpy(&v, t->off + (size_t)c * sizeof v, sizeof v);
  return v;
}

/* Bytes of s.translate(t) in *total, *changed whether any character maps; the error of the
 * first bad mapping met. */
static int32_t measure(struct nrt_error *err, const table *t, const unsigned char *p, int64_t n,
                       int64_t *total, bool *changed) {
  int64_t size = 0;
  bool any = false;
  int32_t flags = 0;
  for (int64_t i = 0; i < n;) {
    int32_t len;
    int64_t k = 1;
    if (p[i] < 0x80 && t->short_ascii) { /* no branch on the entry: its size and flags */
      int32_t e = ascii_size(t, p[i++]);
      size += e & 0xff;
      flags |= e;
      continue;
    }
    if (p[i] < 0x80) {
      len = ascii_len(t, p[i]);
    } else {
      size_t used;
      uint32_t cp = nrt_utf8_decode((const char *)p + i, (size_t)(n - i), &used);
      k = (int64_t)used;
      len = t->nbig ? find_big(t->big, t->nbig, cp).len : NRT_UDF_TRANS_KEEP;
    }
    if (len == NRT_UDF_TRANS_KEEP) {
      size += k;
    } else if (len < 0) {
      return bad_mapping(err, len);
    } else {
      size += len;
      any = true;
    }
    i += k;
  }
  *total = size;
  *changed = any || (flags & NRT_UDF_TRANS_MAPPED);
  return NRT_OK;
}

/* write_into for a short_ascii table, ASCII entries stored 4 bytes at a time: w needs 3
 * bytes of room past the result. */
static void write_short(const table *t, const unsigned char *p, int64_t n, char *w) {
  for (int64_t i = 0; i < n;) {
    if (p[i] < 0x80) {
      memcpy(w, t->bytes + (size_t)p[i] * 4, 4);
      w += ascii_size(t, p[i++]) & 0xff;
      continue;
    }
    size_t used;
    nrt_udf_trans_entry e = find_big(
        t->big, t->nbig, nrt_utf8_decode((const char *)p + i, (size_t)(n - i), &used));
    if (e.len < 0) {
      memcpy(w, p + i, used);
      w += used;
    } else {
      memcpy(w, t->pool + e.off, (size_t)e.len);
      w += e.len;
    }
    i += (int64_t)used;
  }
}

/* Writes s.translate(t) (measured: no bad mapping) into w. */
static void write_into(const table *t, const unsigned char *p, int64_t n, char *w) {
  for (int64_t i = 0; i < n;) {
    int32_t len;
    uint32_t off;
    int64_t k = 1;
    if (p[i] < 0x80) {
      len = ascii_len(t, p[i]);
      off = ascii_off(t, p[i]);
      if (len == NRT_UDF_TRANS_KEEP) {
        *w++ = (char)p[i++];
        continue;
      }
    } else {
      size_t used;
      nrt_udf_trans_entry e = find_big(
          t->big, t->nbig, nrt_utf8_decode((const char *)p + i, (size_t)(n - i), &used));
      k = (int64_t)used;
      len = e.len;
      off = e.off;
    }
    if (len < 0) {
      memcpy(w, p + i, (size_t)k);
      w += k;
    } else {
      memcpy(w, t->pool + off, (size_t)len);
      w += len;
    }
    i += k;
  }
}

int32_t nrt_udf_rt_translate(struct nrt_error *err, const nrt_str *s, const char *bytes,
                             int64_t size, nrt_str *out) {
  (void)size;
  table t;
  open_table(&t, bytes);
  const unsigned char *p = (const unsigned char *)s->data;
  int64_t total;
  bool changed;
  int32_t rc = measure(err, &t, p, s->len, &total, &changed);
  if (rc)
    return rc;
  if (!changed) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  char *w;
  rc = nrt_str_alloc(total, out, &w, err);
  if (rc == NRT_OK)
    write_into(&t, p, s->len, w);
  return rc;
}

int32_t nrt_udf_rt_write_translate(struct nrt_error *err, nrt_col_row_writer *w,
                                   const nrt_str *s, const char *bytes, int64_t size) {
  (void)size;
  table t;
  open_table(&t, bytes);
  const unsigned char *p = (const unsigned char *)s->data;
  int64_t total;
  bool changed;
  int32_t rc = measure(err, &t, p, s->len, &total, &changed);
  if (rc)
    return rc;
  char *room = nrt_col_row_room(w, (size_t)total + 3, err); /* write_short's slack */
  if (!room)
    return nrt_udf_room_failed(err);
  if (changed && t.short_ascii)
    write_short(&t, p, s->len, room);
  else if (changed)
    write_into(&t, p, s->len, room);
  else if (total)
    memcpy(room, p, (size_t)total);
  w->pos = room + total;
  return NRT_OK;
}

/* The replacement of one code point by a dict table: *len KEEP when absent. */
static int32_t dict_lookup(struct nrt_error *err, const nrt_udf_dict *d, uint32_t cp, char *buf,
                           const char **rep, int64_t *len) {
  nrt_str key = {NULL, NULL, (int64_t)cp}, v;
  *len = NRT_UDF_TRANS_KEEP;
  if (d->key_kind != UDF_TY_INT || !nrt_udf_rt_dict_find(d, &key, &v))
    return NRT_OK;
  switch (d->value_kind) {
  case UDF_TY_STR:
    *rep = v.data;
    *len = v.len;
    return NRT_OK;
  case UDF_TY_INT:
  case UDF_TY_BOOL:
    if (v.len < 0 || v.len >= 0x110000)
      return bad_mapping(err, NRT_UDF_TRANS_RANGE);
    if (v.len >= 0xd800 && v.len <= 0xdfff)
      return nrt_error_set(err, NRT_EUNSUPPORTED,
                           "unsupported: a translate table mapping to a surrogate code point");
    *len = (int64_t)nrt_utf8_encode((uint32_t)v.len, buf);
    *rep = buf;
    return NRT_OK;
  default: return bad_mapping(err, NRT_UDF_TRANS_BAD_TYPE);
  }
}

int32_t nrt_udf_rt_translate_dict(struct nrt_error *err, const nrt_str *s, const void *dict,
                                  nrt_str *out) {
  const nrt_udf_dict *d = dict;
  const char *p = s->data;
  int64_t n = s->len, total = 0;
  bool changed = false;
  char buf[4];
  for (int pass = 0; pass < 2; pass++) {
    char *w = NULL;
    if (pass) {
      if (!changed) {
        nrt_str_retain(s);
        nrt_str_copy(out, s);
        return NRT_OK;
      }
      int rc = nrt_str_alloc(total, out, &w, err);
      if (rc)
        return rc;
    }
    for (int64_t i = 0; i < n;) {
      size_t used;
      uint32_t cp = nrt_utf8_decode(p + i, (size_t)(n - i), &used);
      const char *rep = NULL;
      int64_t len;
      int32_t rc = dict_lookup(err, d, cp, buf, &rep, &len);
      if (rc) {
        if (pass)
          nrt_str_release(out); /* cannot happen: pass 0 met every mapping */
        return rc;
      }
      if (len == NRT_UDF_TRANS_KEEP) {
        rep = p + i;
        len = (int64_t)used;
      } else {
        changed = true;
      }
      if (pass) {
        memcpy(w, rep, (size_t)len);
        w += len;
      } else {
        total += len;
      }
      i += (int64_t)used;
    }
  }
  return NRT_OK;
}

/* Column builders: append rows into memblock-owned buffers with a sticky error, record the
 * managed strings appended until the free pass, and turn the buffers into a column without
 * copying them (finish only finalizes the blocks and points the column at them). */
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "column/builder_internal.h"

size_t nrt_col_view_block_limit = (size_t)512 << 20;

int colb_fail(nrt_col_builder *b, int code, const char *fmt, ...) {
  if (b->status)
    return b->status;
  va_list ap;
  va_start(ap, fmt);
  char msg[NRT_ERROR_MESSAGE_SIZE];
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  b->status = code;
  nrt_error_set(&b->error, code, "%s", msg);
  return code;
}

/* Records an error that a callee already described in `e`. */
int colb_fail_with(nrt_col_builder *b, const struct nrt_error *e) {
  return colb_fail(b, e->code ? e->code : NRT_ENOMEM, "row %lld: %s", (long long)b->length,
              e->message);
}

/* Makes room for `extra` more bytes in g (doubling), creating its block on first use. */
int colb_grow(nrt_col_builder *b, struct growbuf *g, size_t extra, size_t min_cap,
                int zeroed) {
  if (extra <= g->cap - g->used)
    return NRT_OK;
  struct nrt_error e = {0};
  if (extra > SIZE_MAX / 4 - g->used)
    return colb_fail(b, NRT_ERANGE, "row %lld: column buffer too large", (long long)b->length);
  size_t cap = g->cap * 2;
  if (cap < g->used + extra)
    cap = g->used + extra;
  if (cap < min_cap)
    cap = min_cap;
  if (!g->blk && nrt_memblock_pod_new(cap + NRT_COL_BUFFER_ALIGN, zeroed, &g->blk, &e))
    return colb_fail_with(b, &e);
  char *begin = g->data, *end = g->data ? g->data + g->cap : NULL;
  int rc = g->data ? nrt_memblock_pod_resize(g->blk, cap, &begin, &end, &e)
                   : nrt_memblock_pod_allocate(g->blk, cap, NRT_COL_BUFFER_ALIGN, &begin, &end, &e);
  if (rc)
    return colb_fail_with(b, &e);
  g->data = begin;
  g->cap = cap;
  return NRT_OK;
}

size_t colb_value_width(enum nrt_col_type t) {
  switch (t) {
  case NRT_COL_UTF8:
  case NRT_COL_LIST: return 4;
  case NRT_COL_LARGE_UTF8:
  case NRT_COL_INT64:
  case NRT_COL_FLOAT64: return 8;
  case NRT_COL_UTF8_VIEW: return sizeof(nrt_col_view);
  default: return 0; /* bool: bits */
  }
}

/* A builder of any type (a list builder still without its child). */
static int make_builder(enum nrt_col_type type, int64_t expected_rows, nrt_col_builder **out,
                        struct nrt_error *err) {
  *out = NULL;
  if (expected_rows < 0)
    return nrt_error_set(err, NRT_EINVAL, "builder: negative expected_rows %lld",
                         (long long)expected_rows);
  nrt_col_builder *b = (nrt_col_builder *)nrt_allocate(sizeof *b, err);
  if (!b)
    return NRT_ENOMEM;
  memset(b, 0, sizeof *b);
  b->type = type;
  b->expected = expected_rows < 16 ? 16 : expected_rows;
  if (type == NRT_COL_UTF8 || type == NRT_COL_LARGE_UTF8 || type == NRT_COL_LIST) {
    /* The first offset, 0; and one to spare, as row_end's fast path wants room for the
     * next row's offset too (the expected last row would double the buffer for no row). */
    size_t w = colb_value_width(type);
    if (colb_grow(b, &b->values, w, (size_t)(b->expected + 2) * w, 0)) {
      nrt_error_set(err, b->error.code, "builder: %s", b->error.message);
      int rc = b->status;
      nrt_col_builder_abort(b);
      return rc;
    }
    memset(b->values.data, 0, w);
    b->values.used = w;
  }
  *out = b;
  return NRT_OK;
}

int nrt_col_builder_new(enum nrt_col_type type, int64_t expected_rows, nrt_col_builder **out,
                        struct nrt_error *err) {
  *out = NULL;
  if (type == NRT_COL_LIST)
    return nrt_error_set(err, NRT_EINVAL,
                         "builder: a list builder needs its child layout "
                         "(nrt_col_builder_new_list)");
  if (type < NRT_COL_UTF8 || type > NRT_COL_BOOL)
    return nrt_error_set(err, NRT_EINVAL, "builder: unknown column type %d", (int)type);
  return make_builder(type, expected_rows, out, err);
}

int nrt_col_builder_new_list(enum nrt_col_type child_type, int64_t expected_rows,
                             nrt_col_builder **out, struct nrt_error *err) {
  *out = NULL;
  if (!nrt_col_list_item_type(child_type))
    return nrt_error_set(err, NRT_EINVAL,
                         "builder: a list's child must be a string layout, int64, float64 or "
                         "bool, not %s",
                         nrt_col_type_name(child_type));
  nrt_col_builder *b;
  int rc = make_builder(NRT_COL_LIST, expected_rows, &b, err);
  if (rc)
    return rc;
  rc = nrt_col_builder_new(child_type, expected_rows, &b->child, err);
  if (rc) {
    nrt_col_builder_abort(b);
    return rc;
  }
  *out = b;
  return NRT_OK;
}

/* ---------------------------------------------------------------- validity */

static int validity_room(nrt_col_builder *b, int64_t bits) {
  size_t need = (size_t)(bits + 7) / 8;
  if (need > b->validity.used) {
    if (colb_grow(b, &b->validity, need - b->validity.used, (size_t)(b->expected + 7) / 8, 1))
      return b->status;
    b->validity.used = need;
  }
  return NRT_OK;
}

int colb_mark_null(nrt_col_builder *b) {
  bool first = !b->validity.data;
  if (validity_room(b, b->length + 1))
    return b->status;
  if (first) /* every earlier row is valid */
    nrt_col_set_bits((uint8_t *)b->validity.data, 0, b->length);
  b->null_count++;
  return NRT_OK;
}

/* Marks the row being appended (index b->length) valid when a bitmap exists. */
int colb_mark_valid(nrt_col_builder *b) {
  if (!b->validity.data)
    return NRT_OK;
  if (validity_room(b, b->length + 1))
    return b->status;
  b->validity.data[b->length >> 3] |= (char)(1u << (b->length & 7));
  return NRT_OK;
}

/* ---------------------------------------------------------------- strings */

static void decref_elem(void *elem, void *info) {
  (void)info;
  nrt_mi_decref(*(nrt_meminfo **)elem);
}

/* Grows the reference array (doubling from REF_BATCH). */
static int grow_refs(nrt_col_builder *b) {
  struct nrt_error e = {0};
  size_t cap = b->ref_cap ? 2 * b->ref_cap : REF_BATCH;
  if (cap > SIZE_MAX / (2 * sizeof *b->refs))
    return colb_fail(b, NRT_ERANGE, "row %lld: too many managed strings", (long long)b->length);
  void *p = nrt_reallocate(b->refs, b->ref_cap * sizeof *b->refs, cap * sizeof *b->refs, &e);
  if (!p)
    return colb_fail_with(b, &e);
  b->refs = (nrt_meminfo **)p;
  b->ref_cap = cap;
  return NRT_OK;
}

/* Records one reference to mi (already taken by the caller) for the free pass. */
static inline int record_ref(nrt_col_builder *b, nrt_meminfo *mi) {
  if (b->n_refs == b->ref_cap && grow_refs(b))
    return b->status;
  b->refs[b->n_refs++] = mi;
  return NRT_OK;
}

static int append_offsets_row(nrt_col_builder *b, const char *s, int64_t len) {
  if (b->type == NRT_COL_UTF8 && b->data.used + (uint64_t)len > INT32_MAX)
    return colb_fail(b, NRT_ERANGE,
                "row %lld: utf8 column data would exceed %d bytes (int32 offsets); "
                "use large_utf8",
                (long long)b->length, INT32_MAX);
  size_t w = colb_value_width(b->type);
  if (colb_grow(b, &b->values, w, 0, 0) ||
      colb_grow(b, &b->data, (size_t)len, (size_t)b->expected * 16, 0) || colb_mark_valid(b))
    return b->status;
  if (len)
    memcpy(b->data.data + b->data.used, s, (size_t)len);
  b->data.used += (size_t)len;
  if (b->type == NRT_COL_UTF8) {
    int32_t o = (int32_t)b->data.used;
    memcpy(b->values.data + b->values.used, &o, 4);
  } else {
    int64_t o = (int64_t)b->data.used;
    memcpy(b->values.data + b->values.used, &o, 8);
  }
  b->values.used += w;
  b->length++;
  return NRT_OK;
}

/* Ends the current region of long-string bytes: shrinks that allocation (the block's most
 * recent, so shrinking stays in place) to the bytes used, so the chunk's size counts only
 * real string bytes. */
void colb_close_region(nrt_col_builder *b) {
  if (!b->reg_begin)
    return;
  char *begin = b->reg_begin, *end = b->reg_end;
  (void)nrt_memblock_pod_resize(b->view_blocks[b->n_view_blocks - 1],
                                (size_t)(b->reg_cur - b->reg_begin), &begin, &end, NULL);
  b->reg_begin = b->reg_cur = b->reg_end = NULL;
}

/* Opens a region of at least `len` bytes in the current view data block (a new block once
 * the current one reached VIEW_BLOCK_LIMIT). Regions double from 1 KiB to 1 MiB, so a
 * string costs a bump of a pointer, not a call into the block. */
int colb_open_region(nrt_col_builder *b, int64_t len) {
  struct nrt_error e = {0};
  colb_close_region(b);
  nrt_memblock *cur = b->n_view_blocks ? b->view_blocks[b->n_view_blocks - 1] : NULL;
  if (!cur || b->cur_full) {
    if (b->n_view_blocks == VIEW_MAX_BLOCKS)
      return colb_fail(b, NRT_ERANGE, "row %lld: utf8_view column data too large",
                  (long long)b->length);
    size_t later = VIEW_BLOCK_LIMIT / 4 < ((size_t)64 << 20) ? VIEW_BLOCK_LIMIT / 4
                                                                : ((size_t)64 << 20);
    size_t initial = cur ? later : (size_t)4096;
    if (nrt_memblock_pod_new(initial, 0, &b->view_blocks[b->n_view_blocks], &e))
      return colb_fail_with(b, &e);
    if (cur)
      b->chunks_before += (int32_t)b->cur_chunks;
    b->n_view_blocks++;
    cur = b->view_blocks[b->n_view_blocks - 1];
    b->cur_chunks = 0;
    b->cur_full = false;
  }
  size_t size = b->reg_size < 1024 ? 1024 : b->reg_size;
  if ((size_t)len > size)
    size = (size_t)len;
  char *p, *end;
  if (nrt_memblock_pod_allocate(cur, size, 1, &p, &end, &e))
    return colb_fail_with(b, &e);
  if (b->reg_size < ((size_t)1 << 20))
    b->reg_size = b->reg_size < 1024 ? 2048 : 2 * b->reg_size;
  size_t chunks = nrt_memblock_pod_chunk_count(cur);
  if (chunks != b->cur_chunks) {
    size_t used;
    nrt_memblock_pod_chunk(cur, chunks - 1, &b->cur_base, &used);
    b->cur_chunks = chunks;
    b->cur_full = nrt_memblock_pod_capacity(cur) >= VIEW_BLOCK_LIMIT;
  }
  b->reg_begin = b->reg_cur = p;
  b->reg_end = end;
  b->reg_index = b->chunks_before + (int32_t)(chunks - 1);
  return NRT_OK;
}

/* Copies a long string into the current region; returns its buffer index and offset. */
static int place_long(nrt_col_builder *b, const char *s, int64_t len, int32_t *index,
                      int32_t *offset) {
  if ((!b->reg_cur || len > b->reg_end - b->reg_cur) && colb_open_region(b, len))
    return b->status;
  memcpy(b->reg_cur, s, (size_t)len);
  *index = b->reg_index;
  *offset = (int32_t)(b->reg_cur - b->cur_base);
  b->reg_cur += len;
  return NRT_OK;
}

static int append_view_row(nrt_col_builder *b, const char *s, int64_t len) {
  if (len > INT32_MAX)
    return colb_fail(b, NRT_ERANGE, "row %lld: a string of %lld bytes does not fit a utf8_view",
                (long long)b->length, (long long)len);
  if (colb_grow(b, &b->values, sizeof(nrt_col_view), (size_t)b->expected * sizeof(nrt_col_view), 0))
    return b->status;
  nrt_col_view v;
  memset(&v, 0, sizeof v);
  v.length = (int32_t)len;
  if (len <= NRT_COL_VIEW_INLINE) {
    if (len)
      memcpy(v.u.inlined, s, (size_t)len);
  } else {
    memcpy(v.u.ref.prefix, s, 4);
    if (place_long(b, s, len, &v.u.ref.buffer_index, &v.u.ref.offset))
      return b->status;
  }
  if (colb_mark_valid(b))
    return b->status;
  memcpy(b->values.data + b->values.used, &v, sizeof v);
  b->values.used += sizeof v;
  b->length++;
  return NRT_OK;
}

static int append_bytes(nrt_col_builder *b, const char *s, int64_t len) {
  if (b->status)
    return b->status;
  if (len < 0)
    return colb_fail(b, NRT_EINVAL, "row %lld: negative string length", (long long)b->length);
  switch (b->type) {
  case NRT_COL_UTF8:
  case NRT_COL_LARGE_UTF8: return append_offsets_row(b, s, len);
  case NRT_COL_UTF8_VIEW: return append_view_row(b, s, len);
  default:
    return colb_fail(b, NRT_EINVAL, "row %lld: string appended to a %s builder", (long long)b->length,
                nrt_col_type_name(b->type));
  }
}

/* Copies n bytes: strings of up to 32 bytes (most rows) with a few overlapping fixed-size
 * moves instead of a call into libc's memcpy, which costs more than the copy itself. */
static inline void copy_bytes(char *dst, const char *src, size_t n) {
  if (n > 32) {
    memcpy(dst, src, n);
  } else if (n >= 16) {
    char a[16], z[16];
    memcpy(a, src, 16);
    memcpy(z, src + n - 16, 16);
    memcpy(dst, a, 16);
    memcpy(dst + n - 16, z, 16);
  } else if (n >= 8) {
    uint64_t a, z;
    memcpy(&a, src, 8);
    memcpy(&z, src + n - 8, 8);
    memcpy(dst, &a, 8);
    memcpy(dst + n - 8, &z, 8);
  } else if (n >= 4) {
    uint32_t a, z;
    memcpy(&a, src, 4);
    memcpy(&z, src + n - 4, 4);
    memcpy(dst, &a, 4);
    memcpy(dst + n - 4, &z, 4);
  } else if (n) {
    dst[0] = src[0];
    dst[n / 2] = src[n / 2];
    dst[n - 1] = src[n - 1];
  }
}

/* The append fast paths: no sticky error, no bitmap, room in the buffers. Each returns true
 * when it appended the row; false leaves everything unchanged for the general path. */
static inline bool append_fast(nrt_col_builder *b, const char *s, int64_t len) {
  if (b->status || b->validity.data || len < 0)
    return false;
  switch (b->type) {
  case NRT_COL_UTF8: {
    size_t used = b->data.used;
    if ((uint64_t)len > b->data.cap - used || b->values.cap - b->values.used < 4 ||
        used + (uint64_t)len > INT32_MAX || !b->data.data)
      return false;
    copy_bytes(b->data.data + used, s, (size_t)len); /* s may be NULL when len is 0 */
    int32_t o = (int32_t)(used + (size_t)len);
    b->data.used = (size_t)o;
    memcpy(b->values.data + b->values.used, &o, 4);
    b->values.used += 4;
    break;
  }
  case NRT_COL_LARGE_UTF8: {
    size_t used = b->data.used;
    if ((uint64_t)len > b->data.cap - used || b->values.cap - b->values.used < 8 ||
        !b->data.data)
      return false;
    copy_bytes(b->data.data + used, s, (size_t)len);
    int64_t o = (int64_t)(used + (size_t)len);
    b->data.used = (size_t)o;
    memcpy(b->values.data + b->values.used, &o, 8);
    b->values.used += 8;
    break;
  }
  case NRT_COL_UTF8_VIEW: {
    if (b->values.cap - b->values.used < sizeof(nrt_col_view))
      return false;
    nrt_col_view v;
    memset(&v, 0, sizeof v);
    v.length = (int32_t)len;
    if (len <= NRT_COL_VIEW_INLINE) {
      copy_bytes(v.u.inlined, s, (size_t)len);
    } else {
      if (!b->reg_cur || len > b->reg_end - b->reg_cur)
        return false;
      memcpy(v.u.ref.prefix, s, 4);
      copy_bytes(b->reg_cur, s, (size_t)len);
      v.u.ref.buffer_index = b->reg_index;
      v.u.ref.offset = (int32_t)(b->reg_cur - b->cur_base);
      b->reg_cur += len;
    }
    memcpy(b->values.data + b->values.used, &v, sizeof v);
    b->values.used += sizeof v;
    break;
  }
  default:
    return false;
  }
  b->length++;
  return true;
}

int nrt_col_builder_append_view(nrt_col_builder *b, const char *s, int64_t len) {
  if (append_fast(b, s, len))
    return NRT_OK;
  return append_bytes(b, s, len);
}

/* Records a managed string's new reference (none for a borrowed view). */
static int record_str(nrt_col_builder *b, nrt_meminfo *mi) {
  if (!mi)
    return NRT_OK;
  if (record_ref(b, mi))
    return b->status;
  nrt_mi_incref_inline(mi); /* nrt_str_retain, without the call */
  return NRT_OK;
}

static int append_str_slow(nrt_col_builder *b, const nrt_str *s) {
  if (append_bytes(b, s->data, s->len))
    return b->status;
  return record_str(b, s->mi);
}

int nrt_col_builder_append_str(nrt_col_builder *b, const nrt_str *s) {
  /* The slow paths are tail calls, so the fast one saves no registers. */
  if (!append_fast(b, s->data, s->len))
    return append_str_slow(b, s);
  nrt_meminfo *mi = s->mi;
  if (!mi || b->n_refs == b->ref_cap)
    return record_str(b, mi);
  b->refs[b->n_refs++] = mi;
  nrt_mi_incref_inline(mi);
  return NRT_OK;
}

int nrt_col_builder_append_str_move(nrt_col_builder *b, nrt_str *s) {
  if ((!append_fast(b, s->data, s->len) && append_bytes(b, s->data, s->len)) || !s->mi ||
      record_ref(b, s->mi)) {
    nrt_str_release(s); /* not recorded (failure or a borrowed view): drop it now */
    return b->status;
  }
  *s = nrt_str_view("", 0); /* the reference now belongs to the builder */
  return NRT_OK;
}

/* ---------------------------------------------------------------- lists */

nrt_col_builder *nrt_col_builder_list_items(nrt_col_builder *b) {
  return b && b->type == NRT_COL_LIST ? b->child : NULL;
}

int nrt_col_builder_end_list(nrt_col_builder *b) {
  if (b->status)
    return b->status;
  if (b->type != NRT_COL_LIST)
    return colb_fail(b, NRT_EINVAL, "row %lld: a list row ended in a %s builder",
                     (long long)b->length, nrt_col_type_name(b->type));
  nrt_col_builder *items = b->child;
  if (items->status)
    return colb_fail(b, items->status, "row %lld: the list's items: %s", (long long)b->length,
                     items->error.message);
  if (items->length > INT32_MAX)
    return colb_fail(b, NRT_ERANGE, "row %lld: a list column holds at most %d items (int32 "
                     "offsets)", (long long)b->length, INT32_MAX);
  if (colb_grow(b, &b->values, 4, 0, 0) || colb_mark_valid(b))
    return b->status;
  int32_t o = (int32_t)items->length;
  memcpy(b->values.data + b->values.used, &o, 4);
  b->values.used += 4;
  b->length++;
  return NRT_OK;
}

int nrt_col_builder_append_list(nrt_col_builder *b, const nrt_str_list *list) {
  if (b->status)
    return b->status;
  if (b->type != NRT_COL_LIST)
    return colb_fail(b, NRT_EINVAL, "row %lld: a list appended to a %s builder",
                     (long long)b->length, nrt_col_type_name(b->type));
  if (!nrt_col_type_is_string(b->child->type))
    return colb_fail(b, NRT_EINVAL, "row %lld: a list of str appended to a list of %s builder "
                     "(append the items to nrt_col_builder_list_items)",
                     (long long)b->length, nrt_col_type_name(b->child->type));
  if (!list)
    return colb_fail(b, NRT_EINVAL, "row %lld: NULL list (a null row is append_null)",
                     (long long)b->length);
  nrt_col_builder *items = b->child;
  if (list->len > INT32_MAX - items->length) /* before copying anything */
    return colb_fail(b, NRT_ERANGE, "row %lld: a list column holds at most %d items (int32 "
                     "offsets)", (long long)b->length, INT32_MAX);
  for (int64_t k = 0; k < list->len; k++)
    if (nrt_col_builder_append_view(items, list->items[k].data, list->items[k].len))
      break; /* end_list reports the items' error */
  return nrt_col_builder_end_list(b);
}

/* ---------------------------------------------------------------- numbers */

static int append_fixed(nrt_col_builder *b, enum nrt_col_type t, const void *v) {
  if (b->status == NRT_OK && b->type == t && !b->validity.data &&
      b->values.cap - b->values.used >= 8) { /* the common case: no call out */
    memcpy(b->values.data + b->values.used, v, 8);
    b->values.used += 8;
    b->length++;
    return NRT_OK;
  }
  if (b->status)
    return b->status;
  if (b->type != t)
    return colb_fail(b, NRT_EINVAL, "row %lld: %s value appended to a %s builder",
                (long long)b->length, nrt_col_type_name(t), nrt_col_type_name(b->type));
  if (colb_grow(b, &b->values, 8, (size_t)b->expected * 8, 0) || colb_mark_valid(b))
    return b->status;
  memcpy(b->values.data + b->values.used, v, 8);
  b->values.used += 8;
  b->length++;
  return NRT_OK;
}

int nrt_col_builder_append_int64(nrt_col_builder *b, int64_t v) {
  return append_fixed(b, NRT_COL_INT64, &v);
}

int nrt_col_builder_append_float64(nrt_col_builder *b, double v) {
  return append_fixed(b, NRT_COL_FLOAT64, &v);
}

/* Makes room for the bit of row b->length in a bool builder's (zeroed) value bits. */
static int bool_room(nrt_col_builder *b) {
  size_t need = (size_t)(b->length + 1 + 7) / 8;
  if (need > b->values.used) {
    if (colb_grow(b, &b->values, need - b->values.used, (size_t)(b->expected + 7) / 8, 1))
      return b->status;
    b->values.used = need;
  }
  return NRT_OK;
}

int nrt_col_builder_append_bool(nrt_col_builder *b, bool v) {
  if (b->status)
    return b->status;
  if (b->type != NRT_COL_BOOL)
    return colb_fail(b, NRT_EINVAL, "row %lld: bool value appended to a %s builder",
                (long long)b->length, nrt_col_type_name(b->type));
  if (bool_room(b) || colb_mark_valid(b))
    return b->status;
  if (v)
    b->values.data[b->length >> 3] |= (char)(1u << (b->length & 7));
  b->length++;
  return NRT_OK;
}

/* append_null's common case once a bitmap exists: room for the row's bit (the bitmap is
 * zeroed past its used bytes, so the bit is clear already) and for its slot. False when the
 * general path must run. */
static inline bool append_null_fast(nrt_col_builder *b) {
  size_t byte = (size_t)(b->length >> 3), room = b->values.cap - b->values.used;
  if (b->status || !b->validity.data || byte >= b->validity.cap)
    return false;
  char *slot = b->values.data + b->values.used;
  switch (b->type) {
  case NRT_COL_UTF8:
    if (room < 4)
      return false;
    memcpy(slot, slot - 4, 4); /* an empty string: the previous offset again */
    b->values.used += 4;
    break;
  case NRT_COL_UTF8_VIEW:
    if (room < sizeof(nrt_col_view))
      return false;
    memset(slot, 0, sizeof(nrt_col_view));
    b->values.used += sizeof(nrt_col_view);
    break;
  default:
    return false;
  }
  if (byte >= b->validity.used)
    b->validity.used = byte + 1;
  b->null_count++;
  b->length++;
  return true;
}

int nrt_col_builder_append_null(nrt_col_builder *b) {
  if (append_null_fast(b))
    return NRT_OK;
  if (b->status || colb_mark_null(b))
    return b->status;
  /* The slot: an empty string, a zero view, a zero value or a clear bit. */
  switch (b->type) {
  case NRT_COL_UTF8:
  case NRT_COL_LARGE_UTF8:
  case NRT_COL_LIST: {
    size_t w = colb_value_width(b->type);
    if (colb_grow(b, &b->values, w, 0, 0))
      return b->status;
    memcpy(b->values.data + b->values.used, b->values.data + b->values.used - w, w);
    b->values.used += w;
    break;
  }
  case NRT_COL_UTF8_VIEW:
  case NRT_COL_INT64:
  case NRT_COL_FLOAT64: {
    size_t w = colb_value_width(b->type);
    if (colb_grow(b, &b->values, w, (size_t)b->expected * w, 0))
      return b->status;
    memset(b->values.data + b->values.used, 0, w);
    b->values.used += w;
    break;
  }
  case NRT_COL_BOOL:
    if (bool_room(b))
      return b->status;
    break;
  }
  b->length++;
  return NRT_OK;
}

/* ---------------------------------------------------------------- state */

int nrt_col_builder_set_error(nrt_col_builder *b, int code, const char *message) {
  if (!b->status && code)
    colb_fail(b, code, "%s", message ? message : nrt_status_name(code));
  return b->status;
}

int nrt_col_builder_status(const nrt_col_builder *b) {
  return b->status;
}

int64_t nrt_col_builder_length(const nrt_col_builder *b) {
  return b->length;
}

enum nrt_col_type nrt_col_builder_type(const nrt_col_builder *b) {
  return b->type;
}

size_t nrt_col_builder_ref_count(const nrt_col_builder *b) {
  return b->n_refs + (b->child ? b->child->n_refs : 0); /* a list's items count too */
}

void nrt_col_builder_free_pass(nrt_col_builder *b) {
  if (!b)
    return;
  nrt_col_builder_free_pass(b->child); /* managed strings appended to a list's items */
  nrt_meminfo **refs = b->refs;
  size_t n = b->n_refs;
  b->n_refs = 0; /* the array is kept for the next batch */
  for (size_t i = 0; i < n; i++)
    nrt_mi_decref(refs[i]);
}

static void destroy(nrt_col_builder *b) {
  nrt_col_builder_abort(b->child);
  b->child = NULL;
  nrt_col_builder_free_pass(b);
  nrt_free(b->refs, b->ref_cap * sizeof *b->refs);
  nrt_memblock_release(b->values.blk);
  nrt_memblock_release(b->validity.blk);
  nrt_memblock_release(b->data.blk);
  for (int i = 0; i < b->n_view_blocks; i++)
    nrt_memblock_release(b->view_blocks[i]);
  nrt_free(b, sizeof *b);
}

void nrt_col_builder_abort(nrt_col_builder *b) {
  if (b)
    destroy(b);
}

/* Builds the column from the builder's buffers (no copy). */
static int make_column(nrt_col_builder *b, nrt_column **out, struct nrt_error *err) {
  colb_close_region(b);
  int32_t n_variadic = 0;
  for (int i = 0; i < b->n_view_blocks; i++)
    n_variadic += (int32_t)nrt_memblock_pod_chunk_count(b->view_blocks[i]);
  nrt_column *col;
  int rc = nrt_col_new(b->type, n_variadic, &col, err);
  if (rc)
    return rc;
  col->length = b->length;
  col->null_count = b->null_count;
  static const int64_t empty_values[2]; /* a 0-row fixed-width column's values */
  struct growbuf *bufs[3] = {&b->validity, &b->values, &b->data};
  int slots[3] = {NRT_COL_SLOT_VALIDITY, NRT_COL_SLOT_VALUES, NRT_COL_SLOT_DATA};
  for (int k = 0; k < 3; k++) {
    struct growbuf *g = bufs[k];
    if (g->blk)
      nrt_memblock_pod_finalize(g->blk, NULL);
    if (k == 0 && !b->null_count)
      continue;
    if (g->data)
      nrt_col_set_buffer(col, slots[k], g->data, (int64_t)g->used, g->blk);
    else if (k == 1 || (k == 2 && (b->type == NRT_COL_UTF8 || b->type == NRT_COL_LARGE_UTF8)))
      nrt_col_set_buffer(col, slots[k], empty_values, 0, NULL);
  }
  int32_t v = 0;
  for (int i = 0; i < b->n_view_blocks; i++) {
    nrt_memblock *blk = b->view_blocks[i];
    nrt_memblock_pod_finalize(blk, NULL);
    size_t n = nrt_memblock_pod_chunk_count(blk);
    for (size_t c = 0; c < n; c++, v++) {
      const char *base;
      size_t used;
      nrt_memblock_pod_chunk(blk, c, &base, &used);
      nrt_col_set_buffer(col, NRT_COL_SLOT_VARIADIC + v, base, (int64_t)used, blk);
    }
  }
  *out = col;
  return NRT_OK;
}

static int finish(nrt_col_builder *b, nrt_column **out, nrt_memblock **refs,
                  struct nrt_error *err) {
  *out = NULL;
  if (refs)
    *refs = NULL;
  int rc = b->status;
  nrt_memblock *list = NULL;
  void *slots = NULL;
  if (rc) {
    nrt_error_set(err, rc, "%s", b->error.message);
  } else if (refs && b->n_refs) {
    /* The hand-over list: zeroed slots first (a zero slot is skipped by the element
     * destructor), filled once the column exists, so a failure leaves the references with
     * the builder, whose destruction releases them. */
    rc = nrt_memblock_objectarray_new(sizeof(nrt_meminfo *), sizeof(nrt_meminfo *), b->n_refs,
                                      decref_elem, NULL, &list, err);
    if (rc == NRT_OK)
      rc = nrt_memblock_objectarray_allocate(list, b->n_refs, &slots, err);
  }
  nrt_column *child = NULL;
  if (rc == NRT_OK && b->child) { /* a list's items first: the column holds them */
    rc = nrt_col_builder_finish(b->child, &child, err);
    b->child = NULL;
  }
  if (rc == NRT_OK)
    rc = make_column(b, out, err);
  if (rc == NRT_OK && child)
    nrt_col_set_child(*out, child);
  nrt_col_release(child);
  if (rc == NRT_OK && list) {
    memcpy(slots, b->refs, b->n_refs * sizeof *b->refs);
    b->n_refs = 0;
    nrt_memblock_pod_finalize(list, NULL);
    *refs = list;
    list = NULL;
  }
  nrt_memblock_release(list);
  destroy(b);
  return rc;
}

int nrt_col_builder_finish(nrt_col_builder *b, nrt_column **out, struct nrt_error *err) {
  return finish(b, out, NULL, err);
}

int nrt_col_builder_finish_keep_refs(nrt_col_builder *b, nrt_column **out, nrt_memblock **refs,
                                     struct nrt_error *err) {
  return finish(b, out, refs, err);
}

void nrt_col_free_pass(nrt_memblock *refs) {
  nrt_memblock_release(refs);
}

/* Writing a string row in place (nrt_col_row_writer, nrt/column.h): the row's bytes go
 * straight to where an append would copy them. utf8 / large_utf8: the end of the data buffer.
 * utf8_view: the open long-string region; a row of <= 12 bytes is then copied into its view
 * and the region's bytes are reused by the next row. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "column/builder_internal.h"

/* The builder's sticky error into err; returns its status. */
static int report(const nrt_col_builder *b, struct nrt_error *err) {
  if (err)
    *err = b->error;
  return b->status;
}

/* Points an empty writer at the builder's next row (room prepared by prepare()). The room
 * never reaches past the string limit (nrt_str_max_bytes), so a longer row always asks
 * nrt_col_row_grow, which refuses it: the inline room check stays one comparison. */
static void set_cursor(nrt_col_builder *b, nrt_col_row_writer *w) {
  if (b->type == NRT_COL_UTF8_VIEW) {
    w->row = b->reg_cur;
    w->end = b->reg_end;
  } else {
    w->row = b->data.data + b->data.used;
    w->end = b->data.data + b->data.cap;
  }
  int64_t limit = nrt_str_max_bytes();
  if (w->end - w->row > limit)
    w->end = w->row + limit;
  w->pos = w->row;
}

/* Room for the next row's slot in the values buffer, and somewhere to write its bytes. */
static int prepare(nrt_col_builder *b) {
  switch (b->type) {
  case NRT_COL_UTF8:
  case NRT_COL_LARGE_UTF8:
    if (b->values.cap - b->values.used < colb_value_width(b->type) &&
        colb_grow(b, &b->values, colb_value_width(b->type), 0, 0))
      return b->status;
    if (!b->data.data && colb_grow(b, &b->data, 64, (size_t)b->expected * 16, 0))
      return b->status;
    return NRT_OK;
  case NRT_COL_UTF8_VIEW:
    /* one view to spare: row_end's fast path wants room for the next row's too, so the
     * expected last row takes it instead of doubling the buffer (a copy) for no row */
    if (b->values.cap - b->values.used < sizeof(nrt_col_view) &&
        colb_grow(b, &b->values, sizeof(nrt_col_view),
                  (size_t)(b->expected + 1) * sizeof(nrt_col_view), 0))
      return b->status;
    if (!b->reg_cur && colb_open_region(b, 0))
      return b->status;
    return NRT_OK;
  default:
    return colb_fail(b, NRT_EINVAL, "row %lld: a string row written to a %s builder",
                     (long long)b->length, nrt_col_type_name(b->type));
  }
}

int nrt_col_builder_row_begin(nrt_col_builder *b, nrt_col_row_writer *w,
                              struct nrt_error *err) {
  w->builder = b;
  w->pos = w->end = w->row = NULL;
  if (b->status || prepare(b))
    return report(b, err);
  set_cursor(b, w);
  return NRT_OK;
}

char *nrt_col_row_grow(nrt_col_row_writer *w, size_t n, struct nrt_error *err) {
  nrt_col_builder *b = w->builder;
  if (b->status || !w->row) {
    report(b, err);
    return NULL;
  }
  size_t used = (size_t)(w->pos - w->row);
  if (n > SIZE_MAX / 4 - used) {
    colb_fail(b, NRT_ERANGE, "row %lld: string too large", (long long)b->length);
    report(b, err);
    return NULL;
  }
  /* A row over the string limit is that row's error, refused before growing: the builder
   * stays usable (the row is dropped by beginning again). */
  if (used + n > (uint64_t)nrt_str_max_bytes()) {
    nrt_error_set(err, NRT_ELIMIT, "a row asking for %llu bytes is over the limit of %lld bytes",
                  (unsigned long long)(used + n), (long long)nrt_str_max_bytes());
    return NULL;
  }
  if (b->type == NRT_COL_UTF8_VIEW) {
    /* A new region; the row's bytes so far move to its start. The old region is shrunk to
     * the bytes before the row, which stay where they are (memblock chunks never move), so
     * the copy reads intact bytes even when the new region starts where the row did. */
    const char *old = w->row;
    if (colb_open_region(b, (int64_t)(used + n))) {
      report(b, err);
      return NULL;
    }
    memmove(b->reg_cur, old, used);
  } else if (colb_grow(b, &b->data, used + n, (size_t)b->expected * 16, 0)) {
    report(b, err);
    return NULL;
  }
  set_cursor(b, w);
  w->pos = w->row + used;
  return w->pos;
}

/* The view of a long row (> 12 bytes) whose bytes start at `row` in the open region. */
static nrt_col_view ref_view(const nrt_col_builder *b, const char *row, int64_t len) {
  nrt_col_view v;
  v.length = (int32_t)len;
  memcpy(v.u.ref.prefix, row, 4);
  v.u.ref.buffer_index = b->reg_index;
  v.u.ref.offset = (int32_t)(row - b->cur_base);
  return v;
}

/* Every case: errors, a validity bitmap, buffers to grow. */
static int row_end_general(nrt_col_builder *b, nrt_col_row_writer *w, struct nrt_error *err) {
  if (b->status || !w->row)
    return report(b, err);
  int64_t len = w->pos - w->row;
  if (b->validity.data && colb_mark_valid(b))
    return report(b, err);
  switch (b->type) {
  case NRT_COL_UTF8: {
    if (b->data.used + (uint64_t)len > INT32_MAX) {
      colb_fail(b, NRT_ERANGE,
                "row %lld: utf8 column data would exceed %d bytes (int32 offsets); "
                "use large_utf8",
                (long long)b->length, INT32_MAX);
      return report(b, err);
    }
    b->data.used += (size_t)len;
    int32_t o = (int32_t)b->data.used;
    memcpy(b->values.data + b->values.used, &o, 4);
    b->values.used += 4;
    break;
  }
  case NRT_COL_LARGE_UTF8: {
    b->data.used += (size_t)len;
    int64_t o = (int64_t)b->data.used;
    memcpy(b->values.data + b->values.used, &o, 8);
    b->values.used += 8;
    break;
  }
  default: { /* NRT_COL_UTF8_VIEW (prepare() admits no other type) */
    if (len > INT32_MAX) {
      colb_fail(b, NRT_ERANGE, "row %lld: a string of %lld bytes does not fit a utf8_view",
                (long long)b->length, (long long)len);
      return report(b, err);
    }
    nrt_col_view v;
    memset(&v, 0, sizeof v);
    v.length = (int32_t)len;
    if (len <= NRT_COL_VIEW_INLINE) {
      memcpy(v.u.inlined, w->row, (size_t)len);
    } else {
      v = ref_view(b, w->row, len);
      b->reg_cur = w->pos;
    }
    memcpy(b->values.data + b->values.used, &v, sizeof v);
    b->values.used += sizeof v;
    break;
  }
  }
  b->length++;
  if (prepare(b))
    return report(b, err);
  set_cursor(b, w);
  return NRT_OK;
}

/* Inline views are assembled from little-endian words (elsewhere the general path does it). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define WORD_VIEWS 1
#else
#define WORD_VIEWS 0
#endif

/* The low n (0..8) bytes of a little-endian word. */
static inline uint64_t low_bytes(uint64_t x, int64_t n) {
  return n >= 8 ? x : x & ((UINT64_C(1) << (8 * n)) - 1);
}

/* The common case without a call out: no error, no bitmap, room in the values buffer for
 * this row and the next (so the next row is begun by moving the cursor); an inline view's
 * bytes are read as two words, which the region's room (16 bytes past the row) allows. */
int nrt_col_builder_row_end(nrt_col_builder *b, nrt_col_row_writer *w, struct nrt_error *err) {
  if (__builtin_expect(b->status != NRT_OK || !w->row, 0))
    return row_end_general(b, w, err);
  if (b->validity.data) { /* after a null: the row's bit, in the zeroed bitmap's room */
    size_t byte = (size_t)(b->length >> 3);
    if (byte >= b->validity.cap)
      return row_end_general(b, w, err);
    b->validity.data[byte] |= (char)(1u << (b->length & 7));
    if (byte >= b->validity.used)
      b->validity.used = byte + 1;
  }
  int64_t len = w->pos - w->row;
  size_t room = b->values.cap - b->values.used;
  switch (b->type) {
  case NRT_COL_UTF8: {
    size_t used = b->data.used + (size_t)len;
    if (used > INT32_MAX || room < 8)
      break;
    int32_t o = (int32_t)used;
    memcpy(b->values.data + b->values.used, &o, 4);
    b->values.used += 4;
    b->data.used = used;
    b->length++;
    w->row = w->pos;
    return NRT_OK;
  }
  case NRT_COL_UTF8_VIEW: {
    if (room < 2 * sizeof(nrt_col_view) || len > INT32_MAX)
      break;
    uint64_t word[2];
    if (len <= NRT_COL_VIEW_INLINE) {
      if (!WORD_VIEWS || w->end - w->row < 16)
        break;
      uint64_t a, z;
      memcpy(&a, w->row, 8);
      memcpy(&z, w->row + 8, 8);
      a = low_bytes(a, len);
      z = len > 8 ? low_bytes(z, len - 8) : 0;
      word[0] = (uint64_t)(uint32_t)len | (a << 32); /* length, then 12 inline bytes */
      word[1] = (a >> 32) | (z << 32);
      w->pos = w->row; /* the region's bytes are reused by the next row */
    } else if (WORD_VIEWS) {
      /* The view's words made in registers: a view built in memory field by field and then
       * read back as words stalls on the failed store-to-load forwarding every row. */
      uint32_t prefix;
      memcpy(&prefix, w->row, 4);
      word[0] = (uint64_t)(uint32_t)len | ((uint64_t)prefix << 32);
      word[1] = (uint64_t)(uint32_t)b->reg_index |
                ((uint64_t)(uint32_t)(w->row - b->cur_base) << 32);
      b->reg_cur = w->pos;
      w->row = w->pos;
    } else {
      nrt_col_view v = ref_view(b, w->row, len);
      memcpy(word, &v, sizeof v);
      b->reg_cur = w->pos;
      w->row = w->pos;
    }
    memcpy(b->values.data + b->values.used, word, sizeof word);
    b->values.used += sizeof word;
    b->length++;
    return NRT_OK;
  }
  default:
    break;
  }
  return row_end_general(b, w, err);
}

int nrt_col_builder_row_null(nrt_col_builder *b, nrt_col_row_writer *w) {
  int rc = nrt_col_builder_append_null(b);
  if (rc)
    return rc;
  /* The null took no bytes, so the row begins again where the dropped one began, when there
   * is room for its slot (what row_begin's prepare() would make). */
  size_t width = b->type == NRT_COL_UTF8         ? 4
                 : b->type == NRT_COL_LARGE_UTF8 ? 8
                                                 : sizeof(nrt_col_view); /* w->row: a string type */
  if (w->row && w->builder == b && b->values.cap - b->values.used >= width) {
    w->pos = w->row;
    return NRT_OK;
  }
  return nrt_col_builder_row_begin(b, w, NULL);
}

int nrt_col_builder_rows_begin(nrt_col_builder *b, nrt_col_row_writer *w, int64_t n,
                               nrt_col_rows *r, struct nrt_error *err) {
  memset(r, 0, sizeof *r);
  w->builder = b;
  w->pos = w->end = w->row = NULL;
  if (b->status)
    return report(b, err);
  if (!nrt_col_type_is_string(b->type) || n < 0) {
    colb_fail(b, NRT_EINVAL, "row %lld: %lld rows at once written to a %s builder",
              (long long)b->length, (long long)n, nrt_col_type_name(b->type));
    return report(b, err);
  }
  size_t width = colb_value_width(b->type);
  if ((uint64_t)n > (SIZE_MAX / 4) / width - 1) {
    colb_fail(b, NRT_ERANGE, "row %lld: %lld rows at once", (long long)b->length, (long long)n);
    return report(b, err);
  }
  /* Room for the n rows' slots and one to spare (prepare()'s slot for the row after them).
   * The ends go where the slots will: a utf8_view's 8-byte ends take half of its views'
   * room, and rows_end makes the views from the last to the first. */
  if (colb_grow(b, &b->values, ((size_t)n + 1) * width, 0, 0) || prepare(b))
    return report(b, err);
  set_cursor(b, w);
  r->ends = b->values.data + b->values.used;
  bool views = b->type == NRT_COL_UTF8_VIEW;
  r->base = views ? 0 : (int64_t)b->data.used;
  r->wide = b->type != NRT_COL_UTF8;
  return NRT_OK;
}

/* The two words of the view of a row of len bytes at `row` in the open region (WORD_VIEWS),
 * made in registers as row_end's are; an inline view's bytes are read as two words when the
 * region's room allows it. */
static inline void view_words(const nrt_col_builder *b, const char *row, int64_t len,
                              const char *room_end, uint64_t word[2]) {
  if (len <= NRT_COL_VIEW_INLINE) {
    uint64_t a = 0, z = 0;
    if (room_end - row >= 16) {
      memcpy(&a, row, 8);
      memcpy(&z, row + 8, 8);
      a = low_bytes(a, len);
      z = len > 8 ? low_bytes(z, len - 8) : 0;
    } else {
      for (int64_t i = 0; i < len; i++) /* the region's last bytes */
        *(i < 8 ? &a : &z) |= (uint64_t)(unsigned char)row[i] << (8 * (i & 7));
    }
    word[0] = (uint64_t)(uint32_t)len | (a << 32); /* length, then 12 inline bytes */
    word[1] = (a >> 32) | (z << 32);
  } else {
    uint32_t prefix;
    memcpy(&prefix, row, 4);
    word[0] = (uint64_t)(uint32_t)len | ((uint64_t)prefix << 32);
    word[1] = (uint64_t)(uint32_t)b->reg_index | ((uint64_t)(uint32_t)(row - b->cur_base) << 32);
  }
}

/* The views of k rows written one after another from w->row in the open region, their ends
 * (counted from w->row) where the views go: the last view first, so that each view only
 * overwrites the ends of rows after it. A short row is copied into its view; its bytes stay
 * in the region unused. */
static int make_views(nrt_col_builder *b, const nrt_col_row_writer *w, int64_t k) {
  char *slots = b->values.data + b->values.used;
  for (int64_t j = k - 1; j >= 0; j--) {
    int64_t end, start = 0;
    memcpy(&end, slots + 8 * j, 8);
    if (j > 0)
      memcpy(&start, slots + 8 * (j - 1), 8);
    int64_t len = end - start;
    if (len > INT32_MAX)
      return colb_fail(b, NRT_ERANGE, "row %lld: a string of %lld bytes does not fit a utf8_view",
                       (long long)(b->length - k + j), (long long)len);
    uint64_t word[2];
    if (WORD_VIEWS) {
      view_words(b, w->row + start, len, w->end, word);
    } else {
      nrt_col_view v;
      memset(&v, 0, sizeof v);
      v.length = (int32_t)len;
      if (len <= NRT_COL_VIEW_INLINE)
        memcpy(v.u.inlined, w->row + start, (size_t)len);
      else
        v = ref_view(b, w->row + start, len);
      memcpy(word, &v, sizeof v);
    }
    memcpy(slots + 16 * j, word, sizeof word);
  }
  return NRT_OK;
}

/* The validity of rows [b->length, b->length + k), those in nulls null (indexes relative to
 * the first, increasing). */
static int mark_rows(nrt_col_builder *b, int64_t k, const int32_t *nulls, int64_t n_nulls) {
  int64_t next = 0; /* the next entry of nulls */
  for (int64_t j = 0; j < k; j++, b->length++) {
    bool null = next < n_nulls && nulls[next] == j;
    next += null;
    if (null ? colb_mark_null(b) : colb_mark_valid(b))
      return b->status;
  }
  if (next != n_nulls)
    return colb_fail(b, NRT_EINVAL, "row %lld: %lld null rows listed out of order",
                     (long long)b->length, (long long)n_nulls);
  return NRT_OK;
}

int nrt_col_builder_rows_end(nrt_col_builder *b, nrt_col_row_writer *w, const nrt_col_rows *r,
                             int64_t k, const int32_t *nulls, int64_t n_nulls,
                             struct nrt_error *err) {
  if (b->status || !w->row)
    return report(b, err);
  if (k > 0) {
    int64_t last;
    if (r->wide) {
      memcpy(&last, (const char *)r->ends + (k - 1) * 8, 8);
    } else {
      int32_t narrow;
      memcpy(&narrow, (const char *)r->ends + (k - 1) * 4, 4);
      last = narrow;
    }
    bool views = b->type == NRT_COL_UTF8_VIEW;
    int64_t base = views ? 0 : (int64_t)b->data.used;
    if (r->base != base || last < base || last - base > w->pos - w->row) {
      colb_fail(b, NRT_EINVAL, "row %lld: the ends of %lld rows do not match the bytes written",
                (long long)b->length, (long long)k);
      return report(b, err);
    }
    if (n_nulls > 0 || b->validity.data) { /* a bit per row */
      if (mark_rows(b, k, nulls, n_nulls))
        return report(b, err);
    } else {
      b->length += k;
    }
    if (views) {
      if (make_views(b, w, k))
        return report(b, err);
      b->reg_cur = w->row + last;
    } else {
      b->data.used = (size_t)last;
    }
    b->values.used += (size_t)k * colb_value_width(b->type);
  }
  if (prepare(b))
    return report(b, err);
  set_cursor(b, w);
  return NRT_OK;
}

/* Conversions between the string layouts and concatenation of columns. Bytes are shared by
 * reference wherever the target layout can point at the source's buffer. */
#include <string.h>

#include "column/column_internal.h"

static int64_t offset_at(const nrt_column *col, int64_t p) {
  if (!col->values.data)
    return 0; /* an empty imported array may have no offsets buffer */
  return col->type == NRT_COL_UTF8 ? ((const int32_t *)col->values.data)[p]
                                   : ((const int64_t *)col->values.data)[p];
}

static void put_offset(char *offsets, enum nrt_col_type t, int64_t i, int64_t v) {
  if (t == NRT_COL_UTF8) {
    int32_t x = (int32_t)v;
    memcpy(offsets + 4 * i, &x, 4);
  } else {
    memcpy(offsets + 8 * i, &v, 8);
  }
}

static int too_large_for_utf8(int64_t bytes, struct nrt_error *err) {
  return nrt_error_set(err, NRT_ERANGE,
                       "%lld bytes of string data do not fit utf8 (int32 offsets, at most %d "
                       "bytes); use large_utf8",
                       (long long)bytes, INT32_MAX);
}

/* The byte range [first, last) of an offsets column's rows. */
static void offsets_range(const nrt_column *col, int64_t *first, int64_t *last) {
  if (!col->values.data) {
    *first = *last = 0;
    return;
  }
  *first = offset_at(col, col->offset);
  *last = offset_at(col, col->offset + col->length);
}

/* utf8 <-> large_utf8: new offsets rebased to the rows' first byte, the data shared. */
static int offsets_to_offsets(nrt_column *col, enum nrt_col_type target, nrt_column **out,
                              struct nrt_error *err) {
  int64_t first, last;
  offsets_range(col, &first, &last);
  if (target == NRT_COL_UTF8 && last - first > INT32_MAX)
    return too_large_for_utf8(last - first, err);
  nrt_column *dst;
  int rc = nrt_col_new(target, 0, &dst, err);
  if (rc)
    return rc;
  nrt_col_share_validity(dst, col);
  dst->length = col->length;
  int64_t d = dst->offset, w = target == NRT_COL_UTF8 ? 4 : 8;
  nrt_memblock *blk;
  char *offs;
  rc = nrt_col_alloc_buffer((size_t)((d + col->length + 1) * w), &blk, &offs, err);
  if (rc) {
    nrt_col_release(dst);
    return rc;
  }
  for (int64_t i = 0; i < d; i++)
    put_offset(offs, target, i, 0);
  for (int64_t i = 0; i <= col->length; i++)
    put_offset(offs, target, d + i, offset_at(col, col->offset + i) - first);
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, offs, (d + col->length + 1) * w, blk);
  nrt_memblock_release(blk);
  nrt_col_set_buffer(dst, NRT_COL_SLOT_DATA, col->data.data ? (const char *)col->data.data + first : "",
                     last - first, nrt_col_owner(col, NRT_COL_SLOT_DATA));
  *out = dst;
  return NRT_OK;
}

/* utf8 / large_utf8 -> utf8_view: views into windows of the shared data buffer. */
static int offsets_to_view(nrt_column *col, nrt_column **out, struct nrt_error *err) {
  int64_t first, last;
  offsets_range(col, &first, &last);
  int64_t size = last - first;
  int32_t windows = size == 0 ? 0
                  : size <= INT32_MAX ? 1
                                      : (int32_t)((size + NRT_COL_VIEW_WINDOW - 1) / NRT_COL_VIEW_WINDOW);
  nrt_column *dst;
  int rc = nrt_col_new(NRT_COL_UTF8_VIEW, windows, &dst, err);
  if (rc)
    return rc;
  nrt_col_share_validity(dst, col);
  dst->length = col->length;
  int64_t d = dst->offset;
  nrt_memblock *blk;
  char *mem;
  rc = nrt_col_alloc_buffer((size_t)(d + col->length) * sizeof(nrt_col_view), &blk, &mem, err);
  if (rc) {
    nrt_col_release(dst);
    return rc;
  }
  nrt_col_view *views = (nrt_col_view *)mem;
  memset(views, 0, (size_t)(d + col->length) * sizeof(nrt_col_view));
  const char *base = col->data.data ? (const char *)col->data.data + first : "";
  for (int64_t i = 0; i < col->length; i++) {
    if (!nrt_col_is_valid(col, i))
      continue;
    int64_t s = offset_at(col, col->offset + i) - first;
    int64_t len = offset_at(col, col->offset + i + 1) - first - s;
    nrt_col_view *v = &views[d + i];
    if (len > INT32_MAX) {
      nrt_memblock_release(blk);
      nrt_col_release(dst);
      return nrt_error_set(err, NRT_ERANGE, "row %lld: a string of %lld bytes does not fit a utf8_view",
                           (long long)i, (long long)len);
    }
    v->length = (int32_t)len;
    if (len <= NRT_COL_VIEW_INLINE) {
      if (len)
        memcpy(v->u.inlined, base + s, (size_t)len);
      continue;
    }
    memcpy(v->u.ref.prefix, base + s, 4);
    int64_t k = windows == 1 ? 0 : s / NRT_COL_VIEW_WINDOW;
    v->u.ref.buffer_index = (int32_t)k;
    v->u.ref.offset = (int32_t)(s - k * NRT_COL_VIEW_WINDOW);
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, views,
                     (d + col->length) * (int64_t)sizeof(nrt_col_view), blk);
  nrt_memblock_release(blk);
  for (int32_t k = 0; k < windows; k++)
    nrt_col_set_buffer(dst, NRT_COL_SLOT_VARIADIC + k, base + (int64_t)k * NRT_COL_VIEW_WINDOW,
                       size - (int64_t)k * NRT_COL_VIEW_WINDOW,
                       nrt_col_owner(col, NRT_COL_SLOT_DATA));
  *out = dst;
  return NRT_OK;
}

/* utf8_view -> utf8 / large_utf8: the bytes are gathered into a new data buffer. */
static int view_to_offsets(nrt_column *col, enum nrt_col_type target, nrt_column **out,
                           struct nrt_error *err) {
  int64_t total = 0;
  for (int64_t i = 0; i < col->length; i++)
    if (nrt_col_is_valid(col, i))
      total += nrt_col_str(col, i).len;
  if (target == NRT_COL_UTF8 && total > INT32_MAX)
    return too_large_for_utf8(total, err);
  nrt_column *dst;
  int rc = nrt_col_new(target, 0, &dst, err);
  if (rc)
    return rc;
  nrt_col_share_validity(dst, col);
  dst->length = col->length;
  int64_t d = dst->offset, w = target == NRT_COL_UTF8 ? 4 : 8;
  nrt_memblock *oblk, *dblk;
  char *offs, *data;
  rc = nrt_col_alloc_buffer((size_t)((d + col->length + 1) * w), &oblk, &offs, err);
  if (rc) {
    nrt_col_release(dst);
    return rc;
  }
  rc = nrt_col_alloc_buffer((size_t)total, &dblk, &data, err);
  if (rc) {
    nrt_memblock_release(oblk);
    nrt_col_release(dst);
    return rc;
  }
  for (int64_t i = 0; i <= d; i++)
    put_offset(offs, target, i, 0);
  int64_t at = 0;
  for (int64_t i = 0; i < col->length; i++) {
    if (nrt_col_is_valid(col, i)) {
      nrt_str s = nrt_col_str(col, i);
      if (s.len)
        memcpy(data + at, s.data, (size_t)s.len);
      at += s.len;
    }
    put_offset(offs, target, d + i + 1, at);
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, offs, (d + col->length + 1) * w, oblk);
  nrt_col_set_buffer(dst, NRT_COL_SLOT_DATA, data, total, dblk);
  nrt_memblock_release(oblk);
  nrt_memblock_release(dblk);
  *out = dst;
  return NRT_OK;
}

int nrt_col_convert(nrt_column *col, enum nrt_col_type target, nrt_column **out,
                    struct nrt_error *err) {
  *out = NULL;
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "convert: NULL column");
  if (col->type == target) {
    nrt_col_retain(col);
    *out = col;
    return NRT_OK;
  }
  if (!nrt_col_type_is_string(col->type) || !nrt_col_type_is_string(target))
    return nrt_error_set(err, NRT_EINVAL, "cannot convert a %s column to %s",
                         nrt_col_type_name(col->type), nrt_col_type_name(target));
  if (col->type == NRT_COL_UTF8_VIEW)
    return view_to_offsets(col, target, out, err);
  if (target == NRT_COL_UTF8_VIEW)
    return offsets_to_view(col, out, err);
  return offsets_to_offsets(col, target, out, err);
}

/* ------------------------------------------------------------------- concat */

/* Fills dst's validity for the concatenation of cols (dst->null_count already set > 0). */
static int concat_validity(nrt_column *dst, nrt_column *const *cols, size_t n,
                           struct nrt_error *err) {
  nrt_memblock *blk;
  char *bits;
  int64_t bytes = (dst->length + 7) / 8;
  int rc = nrt_col_alloc_buffer((size_t)bytes, &blk, &bits, err);
  if (rc)
    return rc;
  memset(bits, 0, (size_t)bytes);
  int64_t at = 0;
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = cols[k];
    if (c->validity.data)
      nrt_col_copy_bits((uint8_t *)bits, at, (const uint8_t *)c->validity.data, c->offset,
                        c->length);
    else
      nrt_col_set_bits((uint8_t *)bits, at, c->length);
    at += c->length;
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALIDITY, bits, bytes, blk);
  nrt_memblock_release(blk);
  return NRT_OK;
}

static int concat_fixed(nrt_column *dst, nrt_column *const *cols, size_t n,
                        struct nrt_error *err) {
  bool is_bool = dst->type == NRT_COL_BOOL;
  int64_t bytes = is_bool ? (dst->length + 7) / 8 : dst->length * 8;
  nrt_memblock *blk;
  char *vals;
  int rc = nrt_col_alloc_buffer((size_t)bytes, &blk, &vals, err);
  if (rc)
    return rc;
  if (is_bool)
    memset(vals, 0, (size_t)bytes);
  int64_t at = 0;
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = cols[k];
    if (!c->length)
      continue;
    if (is_bool)
      nrt_col_copy_bits((uint8_t *)vals, at, (const uint8_t *)c->values.data, c->offset,
                        c->length);
    else
      memcpy(vals + at * 8, (const char *)c->values.data + c->offset * 8, (size_t)c->length * 8);
    at += c->length;
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, vals, bytes, blk);
  nrt_memblock_release(blk);
  return NRT_OK;
}

static int concat_offsets(nrt_column *dst, nrt_column *const *cols, size_t n,
                          struct nrt_error *err) {
  int64_t total = 0;
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = cols[k];
    if (c->type == NRT_COL_UTF8_VIEW) {
      for (int64_t i = 0; i < c->length; i++)
        if (nrt_col_is_valid(c, i))
          total += nrt_col_str(c, i).len;
    } else {
      int64_t first, last;
      offsets_range(c, &first, &last);
      total += last - first;
    }
  }
  if (dst->type == NRT_COL_UTF8 && total > INT32_MAX)
    return too_large_for_utf8(total, err);
  int64_t w = dst->type == NRT_COL_UTF8 ? 4 : 8;
  nrt_memblock *oblk, *dblk;
  char *offs, *data;
  int rc = nrt_col_alloc_buffer((size_t)((dst->length + 1) * w), &oblk, &offs, err);
  if (rc)
    return rc;
  rc = nrt_col_alloc_buffer((size_t)total, &dblk, &data, err);
  if (rc) {
    nrt_memblock_release(oblk);
    return rc;
  }
  int64_t row = 0, at = 0;
  put_offset(offs, dst->type, 0, 0);
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = cols[k];
    if (c->type == NRT_COL_UTF8_VIEW) {
      for (int64_t i = 0; i < c->length; i++) {
        if (nrt_col_is_valid(c, i)) {
          nrt_str s = nrt_col_str(c, i);
          if (s.len)
            memcpy(data + at, s.data, (size_t)s.len);
          at += s.len;
        }
        put_offset(offs, dst->type, ++row, at);
      }
      continue;
    }
    int64_t first, last;
    offsets_range(c, &first, &last);
    if (last > first)
      memcpy(data + at, (const char *)c->data.data + first, (size_t)(last - first));
    if (c->type == dst->type && c->values.data) {
      /* Same offset width (the exec layer's stitching): a plain rebasing loop. */
      if (c->type == NRT_COL_UTF8) {
        const int32_t *src = (const int32_t *)c->values.data + c->offset;
        int32_t *d = (int32_t *)(void *)offs + row;
        int32_t delta = (int32_t)(at - first); /* total <= INT32_MAX was checked */
        for (int64_t i = 1; i <= c->length; i++)
          d[i] = src[i] + delta;
      } else {
        const int64_t *src = (const int64_t *)c->values.data + c->offset;
        int64_t *d = (int64_t *)(void *)offs + row;
        int64_t delta = at - first;
        for (int64_t i = 1; i <= c->length; i++)
          d[i] = src[i] + delta;
      }
      row += c->length;
    } else {
      for (int64_t i = 1; i <= c->length; i++)
        put_offset(offs, dst->type, ++row, at + offset_at(c, c->offset + i) - first);
    }
    at += last - first;
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, offs, (dst->length + 1) * w, oblk);
  nrt_col_set_buffer(dst, NRT_COL_SLOT_DATA, data, total, dblk);
  nrt_memblock_release(oblk);
  nrt_memblock_release(dblk);
  return NRT_OK;
}

/* Views of every source (all utf8_view) copied and rebased; data buffers shared. */
static int concat_views(nrt_column **out, nrt_column *const *views, size_t n, int64_t length,
                        int64_t nulls, struct nrt_error *err) {
  int64_t n_variadic = 0;
  for (size_t k = 0; k < n; k++)
    n_variadic += views[k]->n_variadic;
  if (n_variadic > INT32_MAX)
    return nrt_error_set(err, NRT_ERANGE, "concat: too many data buffers");
  nrt_column *dst;
  int rc = nrt_col_new(NRT_COL_UTF8_VIEW, (int32_t)n_variadic, &dst, err);
  if (rc)
    return rc;
  dst->length = length;
  dst->null_count = nulls;
  if (nulls && (rc = concat_validity(dst, views, n, err))) {
    nrt_col_release(dst);
    return rc;
  }
  nrt_memblock *blk;
  char *mem;
  rc = nrt_col_alloc_buffer((size_t)length * sizeof(nrt_col_view), &blk, &mem, err);
  if (rc) {
    nrt_col_release(dst);
    return rc;
  }
  nrt_col_view *out_views = (nrt_col_view *)mem;
  int64_t row = 0;
  int32_t base = 0;
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = views[k];
    const nrt_col_view *src =
        c->length ? (const nrt_col_view *)c->values.data + c->offset : NULL;
    for (int64_t i = 0; i < c->length; i++, row++) {
      nrt_col_view v = src[i];
      if (!nrt_col_is_valid(c, i))
        memset(&v, 0, sizeof v);
      else if (v.length > NRT_COL_VIEW_INLINE)
        v.u.ref.buffer_index += base;
      out_views[row] = v;
    }
    for (int32_t j = 0; j < c->n_variadic; j++)
      nrt_col_set_buffer(dst, NRT_COL_SLOT_VARIADIC + base + j, c->variadic[j].data,
                         c->variadic[j].size, nrt_col_owner(c, NRT_COL_SLOT_VARIADIC + j));
    base += c->n_variadic;
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, mem, length * (int64_t)sizeof(nrt_col_view), blk);
  nrt_memblock_release(blk);
  *out = dst;
  return NRT_OK;
}

static int concat_to_view(nrt_column *const *cols, size_t n, int64_t length, int64_t nulls,
                          nrt_column **out, struct nrt_error *err) {
  nrt_column **views = (nrt_column **)nrt_allocate((n ? n : 1) * sizeof *views, err);
  if (!views)
    return NRT_ENOMEM;
  int rc = NRT_OK;
  size_t made = 0;
  for (; made < n && rc == NRT_OK; made++)
    rc = nrt_col_convert(cols[made], NRT_COL_UTF8_VIEW, &views[made], err);
  if (rc)
    made--; /* the failed conversion produced nothing */
  if (rc == NRT_OK)
    rc = concat_views(out, views, n, length, nulls, err);
  for (size_t k = 0; k < made; k++)
    nrt_col_release(views[k]);
  nrt_free(views, (n ? n : 1) * sizeof *views);
  return rc;
}

/* The child rows [first, last) that a list column's rows cover. */
static void list_bounds(const nrt_column *col, int64_t *first, int64_t *last) {
  const int32_t *o = (const int32_t *)col->values.data;
  *first = o ? o[col->offset] : 0; /* an empty imported array may have no offsets */
  *last = o ? o[col->offset + col->length] : 0;
}

/* Lists: offsets rebased; the items covered by each source's rows (slices of its child)
 * concatenated into one child of the first source's child layout. */
static int concat_lists(nrt_column *dst, nrt_column *const *cols, size_t n,
                        struct nrt_error *err) {
  int64_t items = 0;
  for (size_t k = 0; k < n; k++) {
    int64_t first, last;
    list_bounds(cols[k], &first, &last);
    items += last - first;
  }
  if (items > INT32_MAX)
    return nrt_error_set(err, NRT_ERANGE, "concat: %lld list items do not fit int32 offsets",
                         (long long)items);
  size_t parts_size = (n ? n : 1) * sizeof(nrt_column *);
  nrt_column **parts = (nrt_column **)nrt_allocate(parts_size, err);
  if (!parts)
    return NRT_ENOMEM;
  memset(parts, 0, parts_size);
  nrt_memblock *oblk = NULL;
  char *offs;
  nrt_column *child = NULL;
  int rc = nrt_col_alloc_buffer((size_t)(dst->length + 1) * 4, &oblk, &offs, err);
  for (size_t k = 0; k < n && rc == NRT_OK; k++) {
    int64_t first, last;
    list_bounds(cols[k], &first, &last);
    rc = nrt_col_slice(nrt_col_list_child(cols[k]), first, last - first, &parts[k], err);
  }
  if (rc == NRT_OK)
    rc = nrt_col_concat(parts, n, n ? parts[0]->type : NRT_COL_UTF8, &child, err);
  if (rc == NRT_OK) {
    int32_t *d = (int32_t *)(void *)offs;
    int64_t row = 0, at = 0;
    d[0] = 0;
    for (size_t k = 0; k < n; k++) {
      const nrt_column *c = cols[k];
      int64_t first, last;
      list_bounds(c, &first, &last);
      for (int64_t i = 1; i <= c->length; i++) /* length 0: maybe no offsets buffer */
        d[row + i] = (int32_t)(at + ((const int32_t *)c->values.data)[c->offset + i] - first);
      row += c->length;
      at += last - first;
    }
    nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, offs, (dst->length + 1) * 4, oblk);
    nrt_col_set_child(dst, child);
  }
  for (size_t k = 0; k < n; k++)
    nrt_col_release(parts[k]);
  nrt_free(parts, parts_size);
  nrt_col_release(child);
  nrt_memblock_release(oblk);
  return rc;
}

int nrt_col_concat(nrt_column *const *cols, size_t n, enum nrt_col_type target,
                   nrt_column **out, struct nrt_error *err) {
  *out = NULL;
  if (target < NRT_COL_UTF8 || target > NRT_COL_LIST)
    return nrt_error_set(err, NRT_EINVAL, "concat: unknown column type %d", (int)target);
  int64_t length = 0, nulls = 0;
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = cols[k];
    if (!c)
      return nrt_error_set(err, NRT_EINVAL, "concat: column %zu is NULL", k);
    bool ok = nrt_col_type_is_string(target) ? nrt_col_type_is_string(c->type) : c->type == target;
    if (!ok)
      return nrt_error_set(err, NRT_EINVAL, "concat: column %zu is %s, not compatible with %s", k,
                           nrt_col_type_name(c->type), nrt_col_type_name(target));
    length += c->length;
    nulls += c->null_count;
  }
  if (target == NRT_COL_UTF8_VIEW)
    return concat_to_view(cols, n, length, nulls, out, err);
  nrt_column *dst;
  int rc = nrt_col_new(target, 0, &dst, err);
  if (rc)
    return rc;
  dst->length = length;
  dst->null_count = nulls;
  if (nulls)
    rc = concat_validity(dst, cols, n, err);
  if (rc == NRT_OK)
    rc = nrt_col_type_is_string(target) ? concat_offsets(dst, cols, n, err)
       : target == NRT_COL_LIST         ? concat_lists(dst, cols, n, err)
                                        : concat_fixed(dst, cols, n, err);
  if (rc) {
    nrt_col_release(dst);
    return rc;
  }
  *out = dst;
  return NRT_OK;
}

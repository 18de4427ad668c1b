/* Conversions between the string layouts. Bytes are shared by reference wherever the target
 * layout can point at the source's buffer. */
#include <string.h>

#include "column/column_internal.h"
#include "column/offsets.h"

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

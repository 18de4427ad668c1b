/* Concatenation of columns: the exec layer's stitching of chunk results into one column. The
 * bytes (or views) of each source are copied by a task of their own, so a caller with threads
 * can run the copies at once (nrt_col_concat_run); the plan (sizes, where each part goes) and
 * the validity bitmap are made before, on the calling thread. */
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "column/column_internal.h"
#include "column/offsets.h"

/* Runs the n tasks in order on this thread: nrt_col_concat's runner. */
static void run_in_order(void *run_arg, int64_t n, nrt_col_task_fn task, void *task_arg) {
  (void)run_arg;
  for (int64_t k = 0; k < n; k++)
    task(task_arg, k);
}

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

/* Where each source goes in the destination: its first row, and its first byte (offsets
 * targets) or the index of its first data buffer (views). */
struct concat_part {
  int64_t row;
  int64_t at;
};

/* One offsets concatenation: every part's task writes its rows' offsets and bytes. */
struct offsets_job {
  nrt_column *const *cols;
  const struct concat_part *parts;
  enum nrt_col_type type; /* the destination's offsets layout */
  char *offs;
  char *data;
};

/* Copies a chunk's bytes into the stitched column. Above STREAM_MIN bytes with stores that
 * bypass the cache: the destination is written once and not read back by the stitching, so
 * a cached store would first read every line of it from memory (a third of the copy's
 * traffic, which on two threads is what bounds a cheap UDF's apply). */
#define STREAM_MIN 65536
static void copy_part_bytes(char *dst, const char *src, size_t n) {
#if defined(__SSE2__)
  if (n >= STREAM_MIN) {
    size_t i = (16 - ((uintptr_t)dst & 15)) & 15; /* the stores must be 16-byte aligned */
    memcpy(dst, src, i);
    for (; i + 64 <= n; i += 64)
      for (int q = 0; q < 64; q += 16)
        _mm_stream_si128((__m128i *)(void *)(dst + i + q),
                         _mm_loadu_si128((const __m128i *)(const void *)(src + i + q)));
    memcpy(dst + i, src + i, n - i);
    _mm_sfence(); /* ordered before the pool reports the task done */
    return;
  }
#endif
  memcpy(dst, src, n);
}

static void copy_offsets_part(void *arg, int64_t k) {
  const struct offsets_job *j = arg;
  const nrt_column *c = j->cols[k];
  int64_t row = j->parts[k].row, at = j->parts[k].at;
  char *data = j->data;
  if (c->type == NRT_COL_UTF8_VIEW) {
    for (int64_t i = 0; i < c->length; i++) {
      if (nrt_col_is_valid(c, i)) {
        nrt_str s = nrt_col_str(c, i);
        if (s.len)
          memcpy(data + at, s.data, (size_t)s.len);
        at += s.len;
      }
      put_offset(j->offs, j->type, ++row, at);
    }
    return;
  }
  int64_t first, last;
  offsets_range(c, &first, &last);
  if (last > first)
    copy_part_bytes(data + at, (const char *)c->data.data + first, (size_t)(last - first));
  if (c->type == j->type && c->values.data) {
    /* Same offset width (the exec layer's stitching): a plain rebasing loop. */
    if (c->type == NRT_COL_UTF8) {
      const int32_t *src = (const int32_t *)c->values.data + c->offset;
      int32_t *d = (int32_t *)(void *)j->offs + row;
      int32_t delta = (int32_t)(at - first); /* total <= INT32_MAX was checked */
      for (int64_t i = 1; i <= c->length; i++)
        d[i] = src[i] + delta;
    } else {
      const int64_t *src = (const int64_t *)c->values.data + c->offset;
      int64_t *d = (int64_t *)(void *)j->offs + row;
      int64_t delta = at - first;
      for (int64_t i = 1; i <= c->length; i++)
        d[i] = src[i] + delta;
    }
  } else {
    for (int64_t i = 1; i <= c->length; i++)
      put_offset(j->offs, j->type, ++row, at + offset_at(c, c->offset + i) - first);
  }
}

/* The bytes of a source's valid rows. */
static int64_t source_bytes(const nrt_column *c) {
  if (c->type != NRT_COL_UTF8_VIEW) {
    int64_t first, last;
    offsets_range(c, &first, &last);
    return last - first;
  }
  int64_t total = 0;
  for (int64_t i = 0; i < c->length; i++)
    if (nrt_col_is_valid(c, i))
      total += nrt_col_str(c, i).len;
  return total;
}

static int concat_offsets(nrt_column *dst, nrt_column *const *cols, size_t n,
                          struct concat_part *parts, nrt_col_runner run, void *run_arg,
                          struct nrt_error *err) {
  int64_t total = 0, row = 0;
  for (size_t k = 0; k < n; k++) {
    parts[k].row = row;
    parts[k].at = total;
    row += cols[k]->length;
    total += source_bytes(cols[k]);
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
  put_offset(offs, dst->type, 0, 0);
  struct offsets_job job = {cols, parts, dst->type, offs, data};
  run(run_arg, (int64_t)n, copy_offsets_part, &job);
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, offs, (dst->length + 1) * w, oblk);
  nrt_col_set_buffer(dst, NRT_COL_SLOT_DATA, data, total, dblk);
  nrt_memblock_release(oblk);
  nrt_memblock_release(dblk);
  return NRT_OK;
}

/* One views concatenation: every part's task copies and rebases its views. */
struct views_job {
  nrt_column *const *views;
  const struct concat_part *parts;
  nrt_col_view *out;
};

static void copy_views_part(void *arg, int64_t k) {
  const struct views_job *j = arg;
  const nrt_column *c = j->views[k];
  const nrt_col_view *src = c->length ? (const nrt_col_view *)c->values.data + c->offset : NULL;
  nrt_col_view *out = j->out + j->parts[k].row;
  int32_t base = (int32_t)j->parts[k].at;
  for (int64_t i = 0; i < c->length; i++) {
    nrt_col_view v = src[i];
    if (!nrt_col_is_valid(c, i))
      memset(&v, 0, sizeof v);
    else if (v.length > NRT_COL_VIEW_INLINE)
      v.u.ref.buffer_index += base;
    out[i] = v;
  }
}

/* Views of every source (all utf8_view) copied and rebased; data buffers shared. */
static int concat_views(nrt_column **out, nrt_column *const *views, size_t n, int64_t length,
                        int64_t nulls, struct concat_part *parts, nrt_col_runner run,
                        void *run_arg, struct nrt_error *err) {
  int64_t n_variadic = 0, row = 0;
  for (size_t k = 0; k < n; k++) {
    parts[k].row = row;
    parts[k].at = n_variadic;
    row += views[k]->length;
    n_variadic += views[k]->n_variadic;
  }
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
  struct views_job job = {views, parts, (nrt_col_view *)mem};
  run(run_arg, (int64_t)n, copy_views_part, &job);
  for (size_t k = 0; k < n; k++) {
    const nrt_column *c = views[k];
    int32_t base = (int32_t)parts[k].at;
    for (int32_t j = 0; j < c->n_variadic; j++)
      nrt_col_set_buffer(dst, NRT_COL_SLOT_VARIADIC + base + j, c->variadic[j].data,
                         c->variadic[j].size, nrt_col_owner(c, NRT_COL_SLOT_VARIADIC + j));
  }
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALUES, mem, length * (int64_t)sizeof(nrt_col_view), blk);
  nrt_memblock_release(blk);
  *out = dst;
  return NRT_OK;
}

static int concat_to_view(nrt_column *const *cols, size_t n, int64_t length, int64_t nulls,
                          struct concat_part *parts, nrt_col_runner run, void *run_arg,
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
    rc = concat_views(out, views, n, length, nulls, parts, run, run_arg, err);
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

int nrt_col_concat_run(nrt_column *const *cols, size_t n, enum nrt_col_type target,
                       nrt_col_runner run, void *run_arg, nrt_column **out,
                       struct nrt_error *err) {
  *out = NULL;
  if (!run)
    run = run_in_order;
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
  size_t parts_size = (n ? n : 1) * sizeof(struct concat_part);
  struct concat_part *parts = NULL;
  if (nrt_col_type_is_string(target) && !(parts = nrt_allocate(parts_size, err)))
    return NRT_ENOMEM;
  nrt_column *dst = NULL;
  int rc;
  if (target == NRT_COL_UTF8_VIEW) {
    rc = concat_to_view(cols, n, length, nulls, parts, run, run_arg, &dst, err);
  } else if ((rc = nrt_col_new(target, 0, &dst, err)) == NRT_OK) {
    dst->length = length;
    dst->null_count = nulls;
    if (nulls)
      rc = concat_validity(dst, cols, n, err);
    if (rc == NRT_OK)
      rc = nrt_col_type_is_string(target) ? concat_offsets(dst, cols, n, parts, run, run_arg, err)
         : target == NRT_COL_LIST         ? concat_lists(dst, cols, n, err)
                                          : concat_fixed(dst, cols, n, err);
  }
  if (parts)
    nrt_free(parts, parts_size);
  if (rc) {
    nrt_col_release(dst);
    return rc;
  }
  *out = dst;
  return NRT_OK;
}

int nrt_col_concat(nrt_column *const *cols, size_t n, enum nrt_col_type target,
                   nrt_column **out, struct nrt_error *err) {
  return nrt_col_concat_run(cols, n, target, NULL, NULL, out, err);
}

/* libFuzzer harness for the Arrow import: builds an ArrowArray of any supported format from
 * the input (lengths, offset, null count, bitmap, offsets, views, bytes all fuzzed), sized
 * the way the C Data Interface guarantees (buffers as long as length + offset require, data
 * up to the last offset, variadic buffers of their stated sizes), and imports it. A list
 * array gets a fuzzed child array of utf8, int64, float64 or bool (its own length, offset,
 * nulls, offsets and bytes or values).
 * A rejected array must leave no trace; an accepted one is read row by row, converted,
 * concatenated and exported again, so every defect validation lets through shows up under
 * ASan. */
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/column_arrow.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

struct reader {
  const uint8_t *p;
  size_t n;
};

static uint8_t next_byte(struct reader *r) {
  if (!r->n)
    return 0;
  r->n--;
  return *r->p++;
}

/* Fills `n` bytes from the input (zeros once it runs out). */
static void fill(struct reader *r, void *dst, size_t n) {
  size_t k = n < r->n ? n : r->n;
  memcpy(dst, r->p, k);
  memset((char *)dst + k, 0, n - k);
  r->p += k;
  r->n -= k;
}

static int released;
static void release_noop(struct ArrowArray *a) {
  released++;
  a->release = NULL;
}

static void schema_noop(struct ArrowSchema *s) {
  (void)s;
}

/* Reads every row and runs the column through the other operations. */
static void exercise(nrt_column *col) {
  int64_t total = 0;
  for (int64_t i = 0; i < col->length; i++) {
    if (!nrt_col_is_valid(col, i))
      continue;
    if (col->type == NRT_COL_LIST) {
      const nrt_column *items = nrt_col_list_child(col);
      int64_t start, end;
      nrt_col_list_range(col, i, &start, &end);
      for (int64_t k = start; k < end; k++) {
        if (!nrt_col_type_is_string(items->type)) {
          total += items->type == NRT_COL_BOOL ? nrt_col_bool(items, k)
                                               : nrt_col_int64(items, k) & 1;
          continue;
        }
        nrt_str s = nrt_col_str(items, k);
        for (int64_t b = 0; b < s.len; b++)
          total += (unsigned char)s.data[b];
      }
    } else if (nrt_col_type_is_string(col->type)) {
      nrt_str s = nrt_col_str(col, i);
      for (int64_t k = 0; k < s.len; k++)
        total += (unsigned char)s.data[k];
    } else if (col->type == NRT_COL_BOOL) {
      total += nrt_col_bool(col, i);
    } else {
      total += nrt_col_int64(col, i) & 1;
    }
  }
  if (nrt_col_validate(col, NULL) != NRT_OK)
    abort(); /* import accepted what validation rejects */
  if (nrt_col_type_is_string(col->type)) {
    for (int t = NRT_COL_UTF8; t <= NRT_COL_UTF8_VIEW; t++) {
      nrt_column *c;
      if (nrt_col_convert(col, (enum nrt_col_type)t, &c, NULL) == NRT_OK) {
        if (!nrt_col_equal(c, col) || nrt_col_validate(c, NULL) != NRT_OK)
          abort();
        nrt_col_release(c);
      }
    }
  }
  nrt_column *pair[2] = {col, col}, *cat;
  if (nrt_col_concat(pair, 2, col->type, &cat, NULL) == NRT_OK) {
    if (cat->length != 2 * col->length || nrt_col_validate(cat, NULL) != NRT_OK)
      abort();
    nrt_col_release(cat);
  }
  struct ArrowArray again;
  struct ArrowSchema schema;
  if (nrt_col_export_arrow(col, &again, &schema, NULL) == NRT_OK) {
    nrt_column *back;
    if (nrt_col_import_arrow_schema(&again, &schema, 0, &back, NULL) != NRT_OK)
      abort(); /* what nrt exports, nrt imports */
    if (!nrt_col_equal(back, col))
      abort();
    nrt_col_release(back);
    schema.release(&schema);
  }
  (void)total;
}

/* Small offsets (one byte each, sign-extended, so that the data stays small) for `end`
 * rows of width w (4 or 8) into a new buffer. */
static void *fuzz_offsets(struct reader *r, int64_t end, size_t w) {
  void *values = malloc((size_t)(end + 1) * w);
  for (int64_t i = 0; i <= end; i++) {
    int64_t o = (int8_t)next_byte(r);
    if (w == 4) {
      int32_t v = (int32_t)o;
      memcpy((char *)values + i * 4, &v, 4);
    } else {
      memcpy((char *)values + i * 8, &o, 8);
    }
  }
  return values;
}

/* A list array's child: a fuzzed utf8, int64, float64 or bool array over the buffers in *c
 * (freed by the caller). */
struct child {
  enum nrt_col_type type;
  struct ArrowArray arr;
  const void *buffers[3];
  uint8_t validity[8];
  void *offsets, *bytes;
};

static void fuzz_child(struct reader *r, struct child *c) {
  static const enum nrt_col_type types[4] = {NRT_COL_UTF8, NRT_COL_INT64, NRT_COL_FLOAT64,
                                             NRT_COL_BOOL};
  memset(c, 0, sizeof *c);
  c->type = types[next_byte(r) % 4];
  int64_t length = next_byte(r) % 60, offset = next_byte(r) % 4, end = length + offset;
  fill(r, c->validity, sizeof c->validity);
  c->arr.length = length;
  c->arr.offset = offset;
  c->arr.null_count = -1;
  c->arr.buffers = c->buffers;
  c->arr.release = release_noop;
  c->buffers[0] = next_byte(r) & 1 ? c->validity : NULL;
  if (c->type != NRT_COL_UTF8) { /* numbers: the values are all there is */
    size_t n = c->type == NRT_COL_BOOL ? (size_t)(end + 7) / 8 : (size_t)end * 8;
    c->bytes = malloc(n ? n : 1);
    fill(r, c->bytes, n);
    c->buffers[1] = c->bytes;
    c->arr.n_buffers = 2;
    return;
  }
  c->offsets = fuzz_offsets(r, end, 4);
  int32_t last = ((int32_t *)c->offsets)[end];
  c->bytes = malloc(last > 0 ? (size_t)last : 1);
  fill(r, c->bytes, last > 0 ? (size_t)last : 0);
  c->buffers[1] = c->offsets;
  c->buffers[2] = c->bytes;
  c->arr.n_buffers = 3;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct reader r = {data, size};
  enum nrt_col_type type = (enum nrt_col_type)(NRT_COL_UTF8 + next_byte(&r) % 7);
  int64_t length = next_byte(&r) % 40;
  int64_t offset = next_byte(&r) % 10;
  int64_t null_count = (int64_t)next_byte(&r) % 12 - 1;
  int has_validity = next_byte(&r) & 1;
  int64_t end = offset + length;
  uint8_t validity[8];
  fill(&r, validity, sizeof validity);
  const void *buffers[8] = {0};
  buffers[0] = has_validity ? validity : NULL;
  int64_t n_buffers = 2;
  void *values = NULL, *bytes = NULL;
  void *variadic[3] = {0};
  int64_t sizes[3] = {0};
  size_t values_size = 0;
  struct child child = {0};
  struct ArrowArray *children[1] = {&child.arr};
  switch (type) {
  case NRT_COL_LIST:
    values = fuzz_offsets(&r, end, 4);
    buffers[1] = values;
    fuzz_child(&r, &child);
    break;
  case NRT_COL_UTF8:
  case NRT_COL_LARGE_UTF8: {
    size_t w = type == NRT_COL_UTF8 ? 4 : 8;
    values = fuzz_offsets(&r, end, w);
    int64_t last = w == 4 ? ((int32_t *)values)[end] : ((int64_t *)values)[end];
    size_t dsize = last > 0 ? (size_t)last : 0;
    bytes = malloc(dsize ? dsize : 1);
    fill(&r, bytes, dsize);
    buffers[1] = values;
    buffers[2] = next_byte(&r) == 255 ? NULL : bytes;
    n_buffers = 3;
    break;
  }
  case NRT_COL_UTF8_VIEW: {
    int nv = next_byte(&r) % 4;
    for (int k = 0; k < nv; k++) {
      sizes[k] = next_byte(&r) % 64;
      variadic[k] = malloc((size_t)sizes[k] + 1);
      fill(&r, variadic[k], (size_t)sizes[k]);
      buffers[2 + k] = variadic[k];
    }
    values_size = (size_t)end * 16;
    values = malloc(values_size ? values_size : 1);
    for (int64_t i = 0; i < end; i++) {
      nrt_col_view v;
      fill(&r, &v, sizeof v);
      /* Keep lengths, indices and offsets mostly in a plausible range. */
      v.length = (int32_t)((uint32_t)v.length % 80) - (v.length < 0 && (v.length & 64) ? 3 : 0);
      if (v.length > NRT_COL_VIEW_INLINE) {
        v.u.ref.buffer_index = (int32_t)((uint32_t)v.u.ref.buffer_index % 5) - 1;
        v.u.ref.offset = (int32_t)((uint32_t)v.u.ref.offset % 70) - 2;
        if (v.u.ref.buffer_index >= 0 && v.u.ref.buffer_index < nv && v.u.ref.offset >= 0 &&
            v.u.ref.offset + 4 <= sizes[v.u.ref.buffer_index] && (i & 1))
          memcpy(v.u.ref.prefix, (char *)variadic[v.u.ref.buffer_index] + v.u.ref.offset, 4);
      }
      memcpy((char *)values + i * 16, &v, 16);
    }
    buffers[1] = values;
    buffers[2 + nv] = sizes;
    n_buffers = 3 + nv;
    break;
  }
  default:
    values_size = type == NRT_COL_BOOL ? (size_t)(end + 7) / 8 : (size_t)end * 8;
    values = malloc(values_size ? values_size : 1);
    fill(&r, values, values_size);
    buffers[1] = values;
    break;
  }
  if (length == 0 && (next_byte(&r) & 1))
    buffers[1] = NULL;
  struct ArrowArray arr;
  memset(&arr, 0, sizeof arr);
  arr.length = length;
  arr.offset = offset;
  arr.null_count = null_count;
  arr.n_buffers = n_buffers;
  arr.buffers = buffers;
  arr.release = release_noop;
  if (type == NRT_COL_LIST) {
    arr.n_children = 1;
    arr.children = children;
  }
  /* The schema: a list's items have the child's type. */
  struct ArrowSchema item = {.format = nrt_col_arrow_format(child.type ? child.type : NRT_COL_UTF8),
                             .release = schema_noop};
  struct ArrowSchema *items[1] = {&item};
  struct ArrowSchema schema = {.format = nrt_col_arrow_format(type), .release = schema_noop};
  if (type == NRT_COL_LIST) {
    schema.n_children = 1;
    schema.children = items;
  }
  released = 0;
  struct nrt_stats before, after;
  nrt_stats_get(&before);
  nrt_column *col;
  unsigned flags = 0;
  if (nrt_col_import_arrow_schema(&arr, &schema, flags, &col, NULL) == NRT_OK) {
    if (arr.release != NULL)
      abort(); /* must be moved */
    exercise(col);
    nrt_col_release(col);
    if (released != 1)
      abort(); /* the producer's release runs once, when nrt's last reference goes */
  } else if (arr.release != release_noop || released != 0) {
    abort(); /* a rejected array stays the caller's */
  }
  nrt_stats_get(&after);
  if (nrt_stats_enabled() && (after.alloc - after.free != before.alloc - before.free ||
                              after.mi_alloc - after.mi_free != before.mi_alloc - before.mi_free))
    abort(); /* leak */
  free(values);
  free(bytes);
  free(child.offsets);
  free(child.bytes);
  for (int k = 0; k < 3; k++)
    free(variadic[k]);
  return 0;
}

/* Columns: construction of headers inside ARRAY blocks, refcounting, checked row access,
 * slicing, equality and the bitmap helpers. */
#include <string.h>

#include "column/column_internal.h"

const char *nrt_col_type_name(enum nrt_col_type type) {
  switch (type) {
  case NRT_COL_UTF8: return "utf8";
  case NRT_COL_LARGE_UTF8: return "large_utf8";
  case NRT_COL_UTF8_VIEW: return "utf8_view";
  case NRT_COL_INT64: return "int64";
  case NRT_COL_FLOAT64: return "float64";
  case NRT_COL_BOOL: return "bool";
  case NRT_COL_LIST: return "list";
  }
  return "?";
}

static struct nrt_col_buffer *variadic_slots(nrt_column *col) {
  return (struct nrt_col_buffer *)((char *)col + sizeof(nrt_column));
}

int nrt_col_new(enum nrt_col_type type, int32_t n_variadic, nrt_column **out,
                struct nrt_error *err) {
  *out = NULL;
  if (n_variadic < 0)
    return nrt_error_set(err, NRT_EINVAL, "negative number of variadic buffers");
  nrt_memblock *blk;
  size_t header = sizeof(nrt_column) + (size_t)n_variadic * sizeof(struct nrt_col_buffer);
  int rc = nrt_memblock_array_new((uint32_t)type, header,
                                  NRT_COL_SLOT_VARIADIC + (size_t)n_variadic, &blk, err);
  if (rc)
    return rc;
  nrt_column *col = (nrt_column *)nrt_memblock_array_header(blk);
  col->type = type;
  col->n_variadic = n_variadic;
  col->variadic = n_variadic ? variadic_slots(col) : NULL;
  col->block = blk;
  *out = col;
  return NRT_OK;
}

void nrt_col_set_buffer(nrt_column *col, int slot, const void *data, int64_t size,
                        nrt_memblock *owner) {
  struct nrt_col_buffer buf = {data, size};
  if (slot == NRT_COL_SLOT_VALIDITY)
    col->validity = buf;
  else if (slot == NRT_COL_SLOT_VALUES)
    col->values = buf;
  else if (slot == NRT_COL_SLOT_DATA)
    col->data = buf;
  else
    variadic_slots(col)[slot - NRT_COL_SLOT_VARIADIC] = buf;
  /* The slot exists by construction, so this cannot fail. */
  (void)nrt_memblock_array_set_ref(col->block, (size_t)slot, owner, NULL);
}

nrt_memblock *nrt_col_owner(const nrt_column *col, int slot) {
  return nrt_memblock_array_ref(col->block, (size_t)slot);
}

void nrt_col_set_child(nrt_column *col, nrt_column *child) {
  /* The slot exists by construction, so this cannot fail. */
  (void)nrt_memblock_array_set_ref(col->block, NRT_COL_SLOT_CHILD, child->block, NULL);
}

nrt_column *nrt_col_list_child(const nrt_column *col) {
  if (!col || col->type != NRT_COL_LIST)
    return NULL;
  return (nrt_column *)nrt_memblock_array_header(nrt_col_owner(col, NRT_COL_SLOT_CHILD));
}

void nrt_col_retain(nrt_column *col) {
  if (col)
    nrt_memblock_retain(col->block);
}

void nrt_col_release(nrt_column *col) {
  if (col)
    nrt_memblock_release(col->block);
}

int nrt_col_get_str(const nrt_column *col, int64_t i, nrt_str *out, bool *is_null,
                    struct nrt_error *err) {
  *out = nrt_str_view("", 0);
  if (is_null)
    *is_null = false;
  if (!col || !nrt_col_type_is_string(col->type))
    return nrt_error_set(err, NRT_EINVAL, "get_str on a %s column",
                         col ? nrt_col_type_name(col->type) : "NULL");
  if (i < 0 || i >= col->length)
    return nrt_error_set(err, NRT_EINDEX, "row %lld out of range (%lld rows)", (long long)i,
                         (long long)col->length);
  if (is_null)
    *is_null = !nrt_col_is_valid(col, i);
  *out = nrt_col_str(col, i);
  return NRT_OK;
}

/* ------------------------------------------------------------------- bitmaps */

int64_t nrt_col_count_nulls(const uint8_t *bits, int64_t offset, int64_t length) {
  int64_t set = 0, i = offset, end = offset + length;
  for (; i < end && (i & 7); i++)
    set += (bits[i >> 3] >> (i & 7)) & 1;
  for (; i + 64 <= end; i += 64) {
    uint64_t w;
    memcpy(&w, bits + (i >> 3), 8);
    set += __builtin_popcountll(w);
  }
  for (; i < end; i++)
    set += (bits[i >> 3] >> (i & 7)) & 1;
  return length - set;
}

void nrt_col_copy_bits(uint8_t *dst, int64_t dst_off, const uint8_t *src, int64_t src_off,
                       int64_t n) {
  if (!((dst_off | src_off) & 7)) {
    memcpy(dst + (dst_off >> 3), src + (src_off >> 3), (size_t)(n >> 3));
    dst_off += n & ~(int64_t)7;
    src_off += n & ~(int64_t)7;
    n &= 7;
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t s = src_off + k, d = dst_off + k;
    if ((src[s >> 3] >> (s & 7)) & 1)
      dst[d >> 3] = (uint8_t)(dst[d >> 3] | (1u << (d & 7)));
    else
      dst[d >> 3] = (uint8_t)(dst[d >> 3] & ~(1u << (d & 7)));
  }
}

void nrt_col_set_bits(uint8_t *dst, int64_t off, int64_t n) {
  int64_t i = off, end = off + n;
  for (; i < end && (i & 7); i++)
    dst[i >> 3] = (uint8_t)(dst[i >> 3] | (1u << (i & 7)));
  if (end - i >= 8) {
    memset(dst + (i >> 3), 0xFF, (size_t)((end - i) >> 3));
    i += (end - i) & ~(int64_t)7;
  }
  for (; i < end; i++)
    dst[i >> 3] = (uint8_t)(dst[i >> 3] | (1u << (i & 7)));
}

void nrt_col_share_validity(nrt_column *dst, const nrt_column *src) {
  dst->offset = src->offset & 7;
  dst->null_count = src->null_count;
  if (!src->validity.data)
    return;
  int64_t skip = src->offset >> 3;
  nrt_col_set_buffer(dst, NRT_COL_SLOT_VALIDITY, (const uint8_t *)src->validity.data + skip,
                     src->validity.size - skip, nrt_col_owner(src, NRT_COL_SLOT_VALIDITY));
}

int nrt_col_alloc_buffer(size_t size, nrt_memblock **blk, char **data, struct nrt_error *err) {
  *data = NULL;
  int rc = nrt_memblock_pod_new(size + NRT_COL_BUFFER_ALIGN, 0, blk, err);
  if (rc)
    return rc;
  char *end;
  rc = nrt_memblock_pod_allocate(*blk, size, NRT_COL_BUFFER_ALIGN, data, &end, err);
  if (rc == NRT_OK)
    rc = nrt_memblock_pod_finalize(*blk, err);
  if (rc) {
    nrt_memblock_release(*blk);
    *blk = NULL;
  }
  return rc;
}

/* ------------------------------------------------------------------- slicing */

int nrt_col_slice(nrt_column *col, int64_t start, int64_t length, nrt_column **out,
                  struct nrt_error *err) {
  *out = NULL;
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "slice of a NULL column");
  if (start < 0 || length < 0 || start > col->length || length > col->length - start)
    return nrt_error_set(err, NRT_EINDEX, "slice [%lld, %lld) outside a column of %lld rows",
                         (long long)start, (long long)start + (long long)length,
                         (long long)col->length);
  nrt_column *s;
  int rc = nrt_col_new(col->type, col->n_variadic, &s, err);
  if (rc)
    return rc;
  s->length = length;
  s->offset = col->offset + start;
  nrt_col_set_buffer(s, NRT_COL_SLOT_VALIDITY, col->validity.data, col->validity.size,
                     nrt_col_owner(col, NRT_COL_SLOT_VALIDITY));
  nrt_col_set_buffer(s, NRT_COL_SLOT_VALUES, col->values.data, col->values.size,
                     nrt_col_owner(col, NRT_COL_SLOT_VALUES));
  nrt_col_set_buffer(s, NRT_COL_SLOT_DATA, col->data.data, col->data.size,
                     nrt_col_owner(col, NRT_COL_SLOT_DATA));
  for (int32_t i = 0; i < col->n_variadic; i++)
    nrt_col_set_buffer(s, NRT_COL_SLOT_VARIADIC + i, col->variadic[i].data,
                       col->variadic[i].size, nrt_col_owner(col, NRT_COL_SLOT_VARIADIC + i));
  if (!col->validity.data || col->null_count == 0)
    s->null_count = 0;
  else if (length == col->length)
    s->null_count = col->null_count;
  else
    s->null_count =
        nrt_col_count_nulls((const uint8_t *)col->validity.data, s->offset, length);
  *out = s;
  return NRT_OK;
}

/* ------------------------------------------------------------------ equality */

static bool list_rows_equal(const nrt_column *a, int64_t i, const nrt_column *b, int64_t j);

/* Whether two columns' types hold comparable values (strings across layouts). */
static bool same_family(const nrt_column *a, const nrt_column *b) {
  bool strings = nrt_col_type_is_string(a->type);
  return strings ? nrt_col_type_is_string(b->type) : a->type == b->type;
}

/* Row i of a equals row j of b (same family; nulls equal nulls; floats bitwise or equal). */
static bool cells_equal(const nrt_column *a, int64_t i, const nrt_column *b, int64_t j) {
  bool va = nrt_col_is_valid(a, i), vb = nrt_col_is_valid(b, j);
  if (va != vb)
    return false;
  if (!va)
    return true;
  switch (a->type) {
  case NRT_COL_INT64: return nrt_col_int64(a, i) == nrt_col_int64(b, j);
  case NRT_COL_FLOAT64: {
    double x = nrt_col_float64(a, i), y = nrt_col_float64(b, j);
    return x == y || memcmp(&x, &y, sizeof x) == 0;
  }
  case NRT_COL_BOOL: return nrt_col_bool(a, i) == nrt_col_bool(b, j);
  case NRT_COL_LIST: return list_rows_equal(a, i, b, j);
  default: {
    nrt_str x = nrt_col_str(a, i), y = nrt_col_str(b, j);
    return x.len == y.len && (!x.len || memcmp(x.data, y.data, (size_t)x.len) == 0);
  }
  }
}

/* Row i of list column a holds the same items as row j of list column b. */
static bool list_rows_equal(const nrt_column *a, int64_t i, const nrt_column *b, int64_t j) {
  const nrt_column *ca = nrt_col_list_child(a), *cb = nrt_col_list_child(b);
  int64_t sa, ea, sb, eb;
  nrt_col_list_range(a, i, &sa, &ea);
  nrt_col_list_range(b, j, &sb, &eb);
  if (ea - sa != eb - sb)
    return false;
  if (ea > sa && !same_family(ca, cb))
    return false;
  for (int64_t k = 0; k < ea - sa; k++)
    if (!cells_equal(ca, sa + k, cb, sb + k))
      return false;
  return true;
}

bool nrt_col_equal(const nrt_column *a, const nrt_column *b) {
  if (!a || !b)
    return a == b;
  if (!same_family(a, b) || a->length != b->length || a->null_count != b->null_count)
    return false;
  for (int64_t i = 0; i < a->length; i++)
    if (!cells_equal(a, i, b, i))
      return false;
  return true;
}

/* Arrow C Data Interface: zero-copy export and validated zero-copy import of columns. */
#include <string.h>

#include "column/column_internal.h"
#include "nrt/column_arrow.h"

const char *nrt_col_arrow_format(enum nrt_col_type type) {
  switch (type) {
  case NRT_COL_UTF8: return "u";
  case NRT_COL_LARGE_UTF8: return "U";
  case NRT_COL_UTF8_VIEW: return "vu";
  case NRT_COL_INT64: return "l";
  case NRT_COL_FLOAT64: return "g";
  case NRT_COL_BOOL: return "b";
  case NRT_COL_LIST: return "+l";
  }
  return NULL;
}

int nrt_col_type_from_arrow_format(const char *format, enum nrt_col_type *type,
                                   struct nrt_error *err) {
  if (!format)
    return nrt_error_set(err, NRT_EINVAL, "NULL Arrow format");
  for (int t = NRT_COL_UTF8; t <= NRT_COL_LIST; t++)
    if (strcmp(format, nrt_col_arrow_format((enum nrt_col_type)t)) == 0) {
      *type = (enum nrt_col_type)t;
      return NRT_OK;
    }
  return nrt_error_set(err, NRT_EUNSUPPORTED, "Arrow format \"%.40s\" is not supported", format);
}

/* ------------------------------------------------------------------- schema */

struct schema_private {
  const struct nrt_allocator *allocator; /* frees this at release, whatever the default is then */
  size_t size;
  struct ArrowSchema child;          /* a list's item schema (released unless moved out) */
  struct ArrowSchema *children[1];
  char name[]; /* NUL-terminated copy */
};

static void release_schema(struct ArrowSchema *s) {
  struct schema_private *p = (struct schema_private *)s->private_data;
  if (p->child.release)
    p->child.release(&p->child);
  nrt_free_with(p->allocator, p, p->size);
  s->release = NULL;
}

/* The schema of `type` (a list's items of layout child_type, named "item"). */
static int export_schema(enum nrt_col_type type, enum nrt_col_type child_type,
                         const char *name, struct ArrowSchema *out, struct nrt_error *err) {
  const char *format = nrt_col_arrow_format(type);
  if (!format)
    return nrt_error_set(err, NRT_EINVAL, "export_schema: unknown column type %d", (int)type);
  if (type == NRT_COL_LIST && !nrt_col_list_item_type(child_type))
    return nrt_error_set(err, NRT_EINVAL, "export_schema: a list's child must be a string "
                         "layout, int64, float64 or bool, not %s",
                         nrt_col_type_name(child_type));
  size_t len = name ? strlen(name) : 0;
  size_t size = sizeof(struct schema_private) + len + 1;
  const struct nrt_allocator *a = nrt_default_allocator();
  struct schema_private *p = (struct schema_private *)nrt_allocate_with(a, size, err);
  if (!p)
    return NRT_ENOMEM;
  memset(p, 0, sizeof *p);
  p->allocator = a;
  p->size = size;
  if (len)
    memcpy(p->name, name, len);
  p->name[len] = 0;
  if (type == NRT_COL_LIST && export_schema(child_type, 0, "item", &p->child, err)) {
    nrt_free_with(a, p, size);
    return NRT_ENOMEM;
  }
  memset(out, 0, sizeof *out);
  out->format = format;
  out->name = name ? p->name : NULL;
  out->flags = ARROW_FLAG_NULLABLE;
  if (type == NRT_COL_LIST) {
    p->children[0] = &p->child;
    out->n_children = 1;
    out->children = p->children;
  }
  out->release = release_schema;
  out->private_data = p;
  return NRT_OK;
}

int nrt_col_export_schema(enum nrt_col_type type, const char *name, struct ArrowSchema *out,
                          struct nrt_error *err) {
  return export_schema(type, NRT_COL_UTF8, name, out, err);
}

int nrt_col_export_list_schema(enum nrt_col_type child_type, const char *name,
                               struct ArrowSchema *out, struct nrt_error *err) {
  return export_schema(NRT_COL_LIST, child_type, name, out, err);
}

/* ------------------------------------------------------------------- export */

struct array_private {
  const struct nrt_allocator *allocator;
  nrt_column *col; /* one reference */
  size_t size;
  struct ArrowArray child; /* a list's child column, exported (released unless moved out) */
  struct ArrowArray *children[1];
  const void *buffers[3]; /* validity, values, data; more follow for utf8_view */
};

static void release_array(struct ArrowArray *a) {
  struct array_private *p = (struct array_private *)a->private_data;
  if (p->child.release)
    p->child.release(&p->child);
  nrt_col_release(p->col);
  nrt_free_with(p->allocator, p, p->size);
  a->release = NULL;
}

int nrt_col_export_arrow(nrt_column *col, struct ArrowArray *out, struct ArrowSchema *schema,
                         struct nrt_error *err) {
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "export: NULL column");
  int64_t n_buffers = col->type == NRT_COL_UTF8_VIEW ? 3 + col->n_variadic
                    : nrt_col_type_is_string(col->type) ? 3
                                                        : 2;
  nrt_column *child = nrt_col_list_child(col);
  /* utf8_view: the variadic sizes (int64) follow the buffer pointers. */
  size_t extra = col->type == NRT_COL_UTF8_VIEW
                     ? (size_t)col->n_variadic * (sizeof(void *) + sizeof(int64_t))
                     : 0;
  size_t size = sizeof(struct array_private) + extra;
  const struct nrt_allocator *a = nrt_default_allocator();
  struct array_private *p = (struct array_private *)nrt_allocate_with(a, size, err);
  if (!p)
    return NRT_ENOMEM;
  memset(p, 0, sizeof *p);
  if (schema && export_schema(col->type, child ? child->type : 0, NULL, schema, err)) {
    nrt_free_with(a, p, size);
    return NRT_ENOMEM;
  }
  if (child && nrt_col_export_arrow(child, &p->child, NULL, err)) {
    if (schema)
      schema->release(schema);
    nrt_free_with(a, p, size);
    return NRT_ENOMEM;
  }
  p->allocator = a;
  p->size = size;
  p->col = col;
  nrt_col_retain(col);
  const void **bufs = p->buffers;
  bufs[0] = col->null_count ? col->validity.data : NULL;
  bufs[1] = col->values.data;
  if (col->type == NRT_COL_UTF8_VIEW) {
    int64_t *sizes = (int64_t *)(void *)(bufs + 2 + col->n_variadic + 1);
    for (int32_t i = 0; i < col->n_variadic; i++) {
      bufs[2 + i] = col->variadic[i].data;
      sizes[i] = col->variadic[i].size;
    }
    bufs[2 + col->n_variadic] = sizes;
  } else if (n_buffers == 3) {
    bufs[2] = col->data.data;
  }
  memset(out, 0, sizeof *out);
  out->length = col->length;
  out->null_count = col->null_count;
  out->offset = col->offset;
  out->n_buffers = n_buffers;
  out->buffers = bufs;
  if (child) {
    p->children[0] = &p->child;
    out->n_children = 1;
    out->children = p->children;
  }
  out->release = release_array;
  out->private_data = p;
  return NRT_OK;
}

/* ------------------------------------------------------------------- import */

/* The producer's array, moved into nrt; freed by the EXTERNAL block's destructor, which runs
 * the producer's release first. */
struct moved_array {
  struct ArrowArray array;
  const struct nrt_allocator *allocator;
};

static void release_moved(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  struct moved_array *m = (struct moved_array *)data;
  if (m->array.release)
    m->array.release(&m->array);
  nrt_free_with(m->allocator, m, sizeof *m);
}

#define BAD(err, ...) nrt_error_set(err, NRT_EVALUE, __VA_ARGS__)

/* Checks what can be checked before touching any buffer content. */
static int check_shape(const struct ArrowArray *a, enum nrt_col_type type,
                       struct nrt_error *err) {
  if (type == NRT_COL_LIST) {
    if (a->n_children != 1 || !a->children || !a->children[0])
      return BAD(err, "a list array must have one child array (has %lld%s)",
                 (long long)a->n_children, a->n_children == 1 ? ", NULL" : "");
    if (!a->children[0]->release)
      return BAD(err, "the child array is released");
  } else if (a->n_children != 0) { /* children may be non-NULL when n_children is 0 (Polars) */
    return BAD(err, "a %s array must have no children (has %lld)", nrt_col_type_name(type),
               (long long)a->n_children);
  }
  if (a->dictionary)
    return BAD(err, "a %s array must have no dictionary", nrt_col_type_name(type));
  if (a->length < 0 || a->offset < 0)
    return BAD(err, "negative length %lld or offset %lld", (long long)a->length,
               (long long)a->offset);
  if (a->length > INT64_MAX / 16 - a->offset - 1)
    return BAD(err, "length %lld and offset %lld overflow", (long long)a->length,
               (long long)a->offset);
  if (a->null_count < -1 || a->null_count > a->length)
    return BAD(err, "null_count %lld is outside [-1, length %lld]", (long long)a->null_count,
               (long long)a->length);
  int64_t want = type == NRT_COL_UTF8 || type == NRT_COL_LARGE_UTF8 ? 3 : 2;
  if (type == NRT_COL_UTF8_VIEW ? a->n_buffers < 3 : a->n_buffers != want)
    return BAD(err, "a %s array needs %s%lld buffers, has %lld", nrt_col_type_name(type),
               type == NRT_COL_UTF8_VIEW ? "at least " : "", (long long)(type == NRT_COL_UTF8_VIEW ? 3 : want),
               (long long)a->n_buffers);
  if (!a->buffers)
    return BAD(err, "the buffers array is NULL");
  if (!a->buffers[0] && a->null_count > 0)
    return BAD(err, "null_count %lld but no validity bitmap", (long long)a->null_count);
  if (!a->buffers[1] && a->length > 0)
    return BAD(err, "row 0: the %s buffer is NULL",
               type == NRT_COL_UTF8 || type == NRT_COL_LARGE_UTF8 || type == NRT_COL_LIST
                   ? "offsets"
                   : "values");
  if (type == NRT_COL_UTF8_VIEW) {
    int64_t nv = a->n_buffers - 3;
    if (nv > INT32_MAX)
      return BAD(err, "too many variadic buffers (%lld)", (long long)nv);
    const int64_t *sizes = (const int64_t *)a->buffers[a->n_buffers - 1];
    if (nv > 0 && !sizes)
      return BAD(err, "the variadic buffer sizes buffer is NULL");
    for (int64_t i = 0; i < nv; i++) {
      if (sizes[i] < 0)
        return BAD(err, "variadic buffer %lld has negative size %lld", (long long)i,
                   (long long)sizes[i]);
      if (sizes[i] > 0 && !a->buffers[2 + i])
        return BAD(err, "variadic buffer %lld of %lld bytes is NULL", (long long)i,
                   (long long)sizes[i]);
    }
  }
  return NRT_OK;
}

/* Points col's buffers at the producer's, sizes derived from length/offset (and the last
 * offset for the data), owned by `owner`. */
static void adopt_buffers(nrt_column *col, const struct ArrowArray *a, nrt_memblock *owner) {
  int64_t end = a->offset + a->length;
  const void *const *b = a->buffers;
  if (b[0])
    nrt_col_set_buffer(col, NRT_COL_SLOT_VALIDITY, b[0], (end + 7) / 8, owner);
  int64_t values = 0;
  switch (col->type) {
  case NRT_COL_UTF8:
  case NRT_COL_LIST: values = (end + 1) * 4; break;
  case NRT_COL_LARGE_UTF8: values = (end + 1) * 8; break;
  case NRT_COL_UTF8_VIEW: values = end * 16; break;
  case NRT_COL_INT64:
  case NRT_COL_FLOAT64: values = end * 8; break;
  case NRT_COL_BOOL: values = (end + 7) / 8; break;
  }
  if (b[1])
    nrt_col_set_buffer(col, NRT_COL_SLOT_VALUES, b[1], values, owner);
  if (col->type == NRT_COL_UTF8 || col->type == NRT_COL_LARGE_UTF8) {
    /* Arrow gives no data size: the last offset is where the data ends. */
    int64_t last = !b[1] ? 0
                 : col->type == NRT_COL_UTF8 ? ((const int32_t *)b[1])[end]
                                             : ((const int64_t *)b[1])[end];
    if (b[2])
      nrt_col_set_buffer(col, NRT_COL_SLOT_DATA, b[2], last > 0 ? last : 0, owner);
    else
      nrt_col_set_buffer(col, NRT_COL_SLOT_DATA, "", 0, NULL);
  }
  if (col->type == NRT_COL_UTF8_VIEW) {
    const int64_t *sizes = (const int64_t *)b[a->n_buffers - 1];
    for (int32_t i = 0; i < col->n_variadic; i++)
      nrt_col_set_buffer(col, NRT_COL_SLOT_VARIADIC + i, b[2 + i], sizes[i], owner);
  }
}

/* The shapes of a (and of its child for a list): the checks that read no buffer content. */
static int check_tree(const struct ArrowArray *a, enum nrt_col_type type,
                      enum nrt_col_type child_type, struct nrt_error *err) {
  int rc = check_shape(a, type, err);
  if (rc || type != NRT_COL_LIST)
    return rc;
  struct nrt_error e = {0};
  if ((rc = check_shape(a->children[0], child_type, &e)))
    return nrt_error_set(err, rc, "child: %s", e.message);
  return NRT_OK;
}

/* A column over a's buffers (shapes checked), owned by `owner`; a list's child column is made
 * the same way from its child array. */
static int make_column(const struct ArrowArray *a, enum nrt_col_type type,
                       enum nrt_col_type child_type, nrt_memblock *owner, nrt_column **out,
                       struct nrt_error *err) {
  nrt_column *col;
  int32_t nv = type == NRT_COL_UTF8_VIEW ? (int32_t)(a->n_buffers - 3) : 0;
  int rc = nrt_col_new(type, nv, &col, err);
  if (rc)
    return rc;
  col->length = a->length;
  col->offset = a->offset;
  adopt_buffers(col, a, owner);
  if (a->null_count >= 0)
    col->null_count = a->null_count;
  else if (col->validity.data)
    col->null_count = nrt_col_count_nulls((const uint8_t *)col->validity.data, col->offset,
                                          col->length);
  if (type == NRT_COL_LIST) {
    nrt_column *child;
    rc = make_column(a->children[0], child_type, 0, owner, &child, err);
    if (rc) {
      nrt_col_release(col);
      return rc;
    }
    nrt_col_set_child(col, child);
    nrt_col_release(child);
  }
  *out = col;
  return NRT_OK;
}

int nrt_col_import_typed(struct ArrowArray *array, enum nrt_col_type type,
                         enum nrt_col_type child_type, unsigned flags, nrt_column **out,
                         struct nrt_error *err) {
  *out = NULL;
  if (!array)
    return nrt_error_set(err, NRT_EINVAL, "import: NULL array");
  if (!array->release)
    return nrt_error_set(err, NRT_EINVAL, "import: the array is already released");
  const char *name = type == NRT_COL_LIST ? "list" : nrt_col_type_name(type);
  struct nrt_error shape = {0};
  int rc = check_tree(array, type, child_type, &shape);
  if (rc)
    return nrt_error_set(err, rc, "invalid %s array: %s", name, shape.message);
  const struct nrt_allocator *alloc = nrt_default_allocator();
  struct moved_array *m = (struct moved_array *)nrt_allocate_with(alloc, sizeof *m, err);
  if (!m)
    return NRT_ENOMEM;
  m->array = *array;
  m->allocator = alloc;
  nrt_memblock *owner;
  rc = nrt_memblock_external_new(m, sizeof *m, release_moved, NULL, &owner, err);
  if (rc) {
    nrt_free_with(alloc, m, sizeof *m);
    return rc;
  }
  nrt_column *col = NULL;
  rc = make_column(array, type, child_type, owner, &col, err);
  if (rc == NRT_OK && !(flags & NRT_COL_IMPORT_TRUSTED)) {
    struct nrt_error bad = {0};
    rc = flags & NRT_COL_IMPORT_ROWS_UNCHECKED ? nrt_col_validate_shape(col, &bad)
                                               : nrt_col_validate(col, &bad);
    if (rc) {
      nrt_error_set(err, rc, "invalid %s array: %s", name, bad.message);
      nrt_col_release(col);
      col = NULL;
    }
  }
  if (rc) {
    /* The caller keeps the array: do not run the producer's release. */
    m->array.release = NULL;
    nrt_memblock_release(owner);
    return rc;
  }
  nrt_memblock_release(owner); /* the column's buffers hold it now */
  array->release = NULL;       /* moved */
  *out = col;
  return NRT_OK;
}

int nrt_col_import_arrow(struct ArrowArray *array, const char *format, nrt_column **out,
                         struct nrt_error *err) {
  return nrt_col_import_arrow_flags(array, format, 0, out, err);
}

int nrt_col_import_arrow_flags(struct ArrowArray *array, const char *format, unsigned flags,
                               nrt_column **out, struct nrt_error *err) {
  *out = NULL;
  if (!array)
    return nrt_error_set(err, NRT_EINVAL, "import: NULL array");
  if (!array->release)
    return nrt_error_set(err, NRT_EINVAL, "import: the array is already released");
  enum nrt_col_type type;
  int rc = nrt_col_type_from_arrow_format(format, &type, err);
  if (rc)
    return rc;
  if (type == NRT_COL_LIST)
    return nrt_error_set(err, NRT_EINVAL, "import: a list array's item type is in its schema; "
                         "import it with nrt_col_import_arrow_schema");
  return nrt_col_import_typed(array, type, 0, flags, out, err);
}

int nrt_col_schema_types(const struct ArrowSchema *schema, enum nrt_col_type *type,
                         enum nrt_col_type *child_type, struct nrt_error *err) {
  *type = *child_type = 0;
  if (!schema || !schema->release)
    return nrt_error_set(err, NRT_EINVAL, "import: the schema is NULL or released");
  if (schema->dictionary)
    return nrt_error_set(err, NRT_EUNSUPPORTED, "dictionary-encoded arrays are not supported");
  int rc = nrt_col_type_from_arrow_format(schema->format, type, err);
  if (rc || *type != NRT_COL_LIST)
    return rc;
  const struct ArrowSchema *item =
      schema->n_children == 1 && schema->children ? schema->children[0] : NULL;
  if (!item)
    return nrt_error_set(err, NRT_EINVAL, "a list schema must have one child schema (has %lld)",
                         (long long)schema->n_children);
  if (item->dictionary)
    return nrt_error_set(err, NRT_EUNSUPPORTED, "dictionary-encoded arrays are not supported");
  struct nrt_error e = {0};
  if (nrt_col_type_from_arrow_format(item->format, child_type, &e) ||
      !nrt_col_list_item_type(*child_type))
    return nrt_error_set(err, NRT_EUNSUPPORTED,
                         "a list of \"%.40s\" is not supported (only lists of strings \"u\", "
                         "\"U\", \"vu\", of int64 \"l\", of double \"g\" and of bool \"b\")",
                         item->format ? item->format : "(null)");
  return NRT_OK;
}

int nrt_col_import_arrow_schema(struct ArrowArray *array, const struct ArrowSchema *schema,
                                unsigned flags, nrt_column **out, struct nrt_error *err) {
  *out = NULL;
  enum nrt_col_type type, child_type;
  int rc = nrt_col_schema_types(schema, &type, &child_type, err);
  return rc ? rc : nrt_col_import_typed(array, type, child_type, flags, out, err);
}

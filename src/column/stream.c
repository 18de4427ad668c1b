/* Arrow C Stream Interface: a list of columns exported as a stream, a stream imported into a
 * chunked column. */
#include <stdio.h>
#include <string.h>

#include "column/column_internal.h"
#include "nrt/column_arrow.h"

struct stream_private {
  const struct nrt_allocator *allocator;
  size_t size;
  enum nrt_col_type type;
  enum nrt_col_type child_type; /* a list's item layout */
  size_t n, next;
  char last_error[NRT_ERROR_MESSAGE_SIZE];
  nrt_column *cols[]; /* one reference each */
};

static int stream_get_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
  struct stream_private *p = (struct stream_private *)s->private_data;
  struct nrt_error e = {0};
  int rc = p->type == NRT_COL_LIST ? nrt_col_export_list_schema(p->child_type, NULL, out, &e)
                                   : nrt_col_export_schema(p->type, NULL, out, &e);
  if (rc)
    snprintf(p->last_error, sizeof p->last_error, "%s", e.message);
  return rc;
}

static int stream_get_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  struct stream_private *p = (struct stream_private *)s->private_data;
  if (p->next == p->n) {
    memset(out, 0, sizeof *out); /* released: the end of the stream */
    return 0;
  }
  struct nrt_error e = {0};
  int rc = nrt_col_export_arrow(p->cols[p->next], out, NULL, &e);
  if (rc) {
    snprintf(p->last_error, sizeof p->last_error, "%s", e.message);
    return rc;
  }
  p->next++;
  return 0;
}

static const char *stream_get_last_error(struct ArrowArrayStream *s) {
  struct stream_private *p = (struct stream_private *)s->private_data;
  return p->last_error[0] ? p->last_error : NULL;
}

static void stream_release(struct ArrowArrayStream *s) {
  struct stream_private *p = (struct stream_private *)s->private_data;
  for (size_t i = 0; i < p->n; i++)
    nrt_col_release(p->cols[i]);
  nrt_free_with(p->allocator, p, p->size);
  s->release = NULL;
}

int nrt_col_export_stream(nrt_column *const *cols, size_t n, enum nrt_col_type type,
                          struct ArrowArrayStream *out, struct nrt_error *err) {
  if (!nrt_col_arrow_format(type))
    return nrt_error_set(err, NRT_EINVAL, "export_stream: unknown column type %d", (int)type);
  for (size_t i = 0; i < n; i++)
    if (!cols[i] || cols[i]->type != type)
      return nrt_error_set(err, NRT_EINVAL, "export_stream: column %zu is not %s", i,
                           nrt_col_type_name(type));
  enum nrt_col_type child_type = n && type == NRT_COL_LIST ? nrt_col_list_child(cols[0])->type
                                                           : NRT_COL_UTF8;
  for (size_t i = 1; i < n && type == NRT_COL_LIST; i++)
    if (nrt_col_list_child(cols[i])->type != child_type)
      return nrt_error_set(err, NRT_EINVAL,
                           "export_stream: column %zu is a list of %s, column 0 a list of %s",
                           i, nrt_col_type_name(nrt_col_list_child(cols[i])->type),
                           nrt_col_type_name(child_type));
  if (n > (SIZE_MAX / 2) / sizeof(nrt_column *))
    return nrt_error_set(err, NRT_ERANGE, "export_stream: too many columns");
  const struct nrt_allocator *a = nrt_default_allocator();
  size_t size = sizeof(struct stream_private) + n * sizeof(nrt_column *);
  struct stream_private *p = (struct stream_private *)nrt_allocate_with(a, size, err);
  if (!p)
    return NRT_ENOMEM;
  memset(p, 0, sizeof *p);
  p->allocator = a;
  p->size = size;
  p->type = type;
  p->child_type = child_type;
  p->n = n;
  for (size_t i = 0; i < n; i++) {
    p->cols[i] = cols[i];
    nrt_col_retain(cols[i]);
  }
  out->get_schema = stream_get_schema;
  out->get_next = stream_get_next;
  out->get_last_error = stream_get_last_error;
  out->release = stream_release;
  out->private_data = p;
  return NRT_OK;
}

/* ------------------------------------------------------------------- import */

void nrt_col_chunked_release(struct nrt_col_chunked *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->n_chunks; i++)
    nrt_col_release(c->chunks[i]);
  nrt_memblock_release(c->storage);
  memset(c, 0, sizeof *c);
}

static int stream_error(struct ArrowArrayStream *s, int rc, const char *what,
                        struct nrt_error *err) {
  const char *msg = s->get_last_error ? s->get_last_error(s) : NULL;
  return nrt_error_set(err, NRT_EIO, "stream %s failed with code %d: %s", what, rc,
                       msg ? msg : "(no message)");
}

/* Appends col (owned) to the chunk list, growing its storage block by doubling. */
static int push_chunk(struct nrt_col_chunked *c, size_t *cap, nrt_column *col,
                      struct nrt_error *err) {
  if (c->n_chunks == *cap) {
    size_t ncap = *cap ? 2 * *cap : 8;
    char *begin = (char *)c->chunks, *end = begin ? begin + *cap * sizeof(nrt_column *) : NULL;
    int rc = NRT_OK;
    if (!c->storage)
      rc = nrt_memblock_pod_new(ncap * sizeof(nrt_column *), 0, &c->storage, err);
    if (rc == NRT_OK)
      rc = c->chunks ? nrt_memblock_pod_resize(c->storage, ncap * sizeof(nrt_column *), &begin,
                                               &end, err)
                     : nrt_memblock_pod_allocate(c->storage, ncap * sizeof(nrt_column *),
                                                 sizeof(nrt_column *), &begin, &end, err);
    if (rc) {
      nrt_col_release(col);
      return rc;
    }
    c->chunks = (nrt_column **)(void *)begin;
    *cap = ncap;
  }
  c->chunks[c->n_chunks++] = col;
  c->length += col->length;
  return NRT_OK;
}

int nrt_col_import_stream(struct ArrowArrayStream *stream, struct nrt_col_chunked *out,
                          struct nrt_error *err) {
  memset(out, 0, sizeof *out);
  if (!stream || !stream->release)
    return nrt_error_set(err, NRT_EINVAL, "import_stream: the stream is NULL or released");
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = stream->get_schema(stream, &schema);
  if (rc) {
    rc = stream_error(stream, rc, "get_schema", err);
    stream->release(stream);
    return rc;
  }
  enum nrt_col_type type = NRT_COL_UTF8, child_type = 0;
  rc = schema.release ? nrt_col_schema_types(&schema, &type, &child_type, err)
                      : nrt_error_set(err, NRT_EINVAL, "import_stream: released schema");
  if (rc)
    type = NRT_COL_UTF8;
  if (schema.release)
    schema.release(&schema);
  out->type = type;
  size_t cap = 0;
  while (rc == NRT_OK) {
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    int src = stream->get_next(stream, &a);
    if (src) {
      rc = stream_error(stream, src, "get_next", err);
      break;
    }
    if (!a.release)
      break; /* end of stream */
    nrt_column *col;
    struct nrt_error e = {0};
    rc = nrt_col_import_typed(&a, type, child_type, 0, &col, &e);
    if (rc) {
      nrt_error_set(err, rc, "chunk %zu: %s", out->n_chunks, e.message);
      a.release(&a); /* not moved: still ours */
      break;
    }
    rc = push_chunk(out, &cap, col, err);
  }
  stream->release(stream);
  if (rc) {
    nrt_col_chunked_release(out);
    out->type = type;
  } else if (out->storage) {
    nrt_memblock_pod_finalize(out->storage, NULL);
  }
  return rc;
}

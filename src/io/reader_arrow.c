/* A batch reader as an Arrow C stream of record batches (nrt/io.h): each batch is a struct
 * array ("+s") whose children are the batch's columns, exported zero-copy. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "nrt/column_arrow.h"
#include "io/reader.h"
#include "nrt/io.h"

struct io_stream {
  nrt_io_reader *r;
  size_t n;                   /* columns */
  const char *const *names;   /* the reader's column names (borrowed), NULL: "value" */
  nrt_column *first[64];      /* the first batch, read early by get_schema */
  bool first_pending;
  bool started;               /* the first batch has been read */
  enum nrt_col_type types[64];
  char last_error[NRT_ERROR_MESSAGE_SIZE];
};

/* errno-style codes, as the stream interface wants. */
static int errno_of(int rc) {
  switch (rc) {
  case NRT_ENOMEM: return ENOMEM;
  case NRT_EIO: return EIO;
  default: return EINVAL;
  }
}

static int fail(struct io_stream *s, const struct nrt_error *err, int rc) {
  snprintf(s->last_error, sizeof s->last_error, "%s", err->message);
  return errno_of(rc);
}

static int read_first(struct io_stream *s) {
  if (s->started)
    return 0;
  struct nrt_error err = {0};
  int rc = nrt_io_reader_next(s->r, s->first, &err);
  if (rc)
    return fail(s, &err, rc);
  s->started = true;
  s->first_pending = true;
  for (size_t i = 0; i < s->n; i++)
    s->types[i] = s->first[i]->type;
  return 0;
}

/* A struct schema or array owns its children arrays and the pointer table. */
static void release_schema(struct ArrowSchema *schema) {
  for (int64_t i = 0; i < schema->n_children; i++) {
    struct ArrowSchema *c = schema->children[i];
    if (c->release)
      c->release(c);
    nrt_free(c, sizeof *c);
  }
  nrt_free(schema->children, (size_t)schema->n_children * sizeof *schema->children);
  schema->release = NULL;
}

static void release_array(struct ArrowArray *array) {
  for (int64_t i = 0; i < array->n_children; i++) {
    struct ArrowArray *c = array->children[i];
    if (c->release)
      c->release(c);
    nrt_free(c, sizeof *c);
  }
  nrt_free(array->children, (size_t)array->n_children * sizeof *array->children);
  nrt_free(array->buffers, sizeof(void *));
  array->release = NULL;
}

static int get_schema(struct ArrowArrayStream *stream, struct ArrowSchema *out) {
  struct io_stream *s = stream->private_data;
  int rc = read_first(s);
  if (rc)
    return rc;
  struct nrt_error err = {0};
  struct ArrowSchema **children = nrt_allocate(s->n * sizeof *children, &err);
  if (!children)
    return fail(s, &err, NRT_ENOMEM);
  size_t made = 0;
  for (; made < s->n; made++) {
    children[made] = nrt_allocate(sizeof **children, &err);
    if (!children[made])
      break;
    const char *name = s->names ? s->names[made] : "value";
    if (nrt_col_export_schema(s->types[made], name, children[made], &err)) {
      nrt_free(children[made], sizeof **children);
      break;
    }
  }
  if (made < s->n) {
    struct ArrowSchema partial = {.n_children = (int64_t)made, .children = children};
    release_schema(&partial);
    return fail(s, &err, err.code ? err.code : NRT_ENOMEM);
  }
  memset(out, 0, sizeof *out);
  out->format = "+s";
  out->name = "";
  out->n_children = (int64_t)s->n;
  out->children = children;
  out->release = release_schema;
  return 0;
}

static int get_next(struct ArrowArrayStream *stream, struct ArrowArray *out) {
  struct io_stream *s = stream->private_data;
  int rc = read_first(s);
  if (rc)
    return rc;
  nrt_column *cols[64] = {0};
  struct nrt_error err = {0};
  if (s->first_pending) {
    memcpy(cols, s->first, sizeof cols);
    memset(s->first, 0, sizeof s->first);
    s->first_pending = false;
  } else if ((rc = nrt_io_reader_next(s->r, cols, &err)) != NRT_OK) {
    return fail(s, &err, rc);
  }
  memset(out, 0, sizeof *out);
  if (!cols[0])
    return 0; /* the end: a released array */
  rc = NRT_OK;
  for (size_t i = 0; i < s->n && rc == NRT_OK; i++)
    if (cols[i]->type != s->types[i]) /* a batch's strings past 2 GiB: large_utf8 */
      rc = nrt_error_set(&err, NRT_EINVAL,
                         "column %zu of a batch is %s, the stream's schema says %s (a "
                         "batch_bytes below 2 GiB keeps it)",
                         i, nrt_col_type_name(cols[i]->type), nrt_col_type_name(s->types[i]));
  struct ArrowArray **children = NULL;
  const void **buffers = NULL;
  size_t made = 0;
  if (rc == NRT_OK) {
    children = nrt_allocate(s->n * sizeof *children, &err);
    buffers = children ? nrt_allocate(sizeof *buffers, &err) : NULL;
    rc = buffers ? NRT_OK : NRT_ENOMEM;
  }
  while (rc == NRT_OK && made < s->n) {
    struct ArrowArray *c = nrt_allocate(sizeof *c, &err);
    rc = c ? nrt_col_export_arrow(cols[made], c, NULL, &err) : NRT_ENOMEM;
    if (rc)
      nrt_free(c, sizeof *c);
    else
      children[made++] = c;
  }
  int64_t length = cols[0]->length;
  for (size_t i = 0; i < s->n; i++)
    nrt_col_release(cols[i]); /* the children hold their own references */
  if (rc) {
    for (size_t i = 0; i < made; i++) {
      children[i]->release(children[i]);
      nrt_free(children[i], sizeof **children);
    }
    nrt_free(children, s->n * sizeof *children);
    nrt_free(buffers, sizeof *buffers);
    return fail(s, &err, rc);
  }
  buffers[0] = NULL; /* no validity bitmap: every record is there */
  out->length = length;
  out->n_buffers = 1;
  out->buffers = buffers;
  out->n_children = (int64_t)s->n;
  out->children = children;
  out->release = release_array;
  return 0;
}

static const char *get_last_error(struct ArrowArrayStream *stream) {
  struct io_stream *s = stream->private_data;
  return s->last_error[0] ? s->last_error : NULL;
}

static void release_stream(struct ArrowArrayStream *stream) {
  struct io_stream *s = stream->private_data;
  for (size_t i = 0; i < s->n; i++)
    nrt_col_release(s->first[i]);
  nrt_io_reader_free(s->r);
  nrt_free(s, sizeof *s);
  stream->release = NULL;
}

int nrt_io_reader_export_stream(nrt_io_reader *r, struct ArrowArrayStream *out,
                                struct nrt_error *err) {
  if (!r || !out)
    return nrt_error_set(err, NRT_EINVAL, "export: %s is NULL", r ? "out" : "the reader");
  const char *const *names;
  size_t n;
  io_reader_columns(r, &names, &n);
  if (n > 64)
    return nrt_error_set(err, NRT_EINVAL, "export: more than 64 columns");
  struct io_stream *s = nrt_allocate(sizeof *s, err);
  if (!s)
    return NRT_ENOMEM;
  memset(s, 0, sizeof *s);
  s->r = r;
  s->n = n;
  s->names = names;
  memset(out, 0, sizeof *out);
  out->get_schema = get_schema;
  out->get_next = get_next;
  out->get_last_error = get_last_error;
  out->release = release_stream;
  out->private_data = s;
  return NRT_OK;
}

/* Column sinks of the readers (see io/sink.h). */
#include "io/sink.h"

#include <string.h>

int64_t io_utf8_segment_limit = INT32_MAX;

void io_sink_init(struct io_sink *s, bool strings_only, enum nrt_col_type string_type) {
  memset(s, 0, sizeof *s);
  s->strings_only = strings_only;
  s->string_type = string_type ? string_type : NRT_COL_UTF8;
  if (strings_only)
    s->kind = IO_STR;
}

void io_sink_init_fixed(struct io_sink *s, enum io_kind kind, enum nrt_col_type string_type) {
  io_sink_init(s, false, string_type);
  s->kind = kind == IO_NONE ? IO_STR : kind;
  s->fixed = true;
}

const char *io_kind_name(enum io_kind kind) {
  switch (kind) {
  case IO_STR: return "strings";
  case IO_INT: return "integers";
  case IO_REAL: return "numbers";
  case IO_BOOL: return "booleans";
  default: return "nulls";
  }
}

/* A failed append: finishing the builder reports its sticky error with its message. */
static int builder_failed(struct io_sink *s, struct nrt_error *err) {
  nrt_column *dropped = NULL;
  int rc = nrt_col_builder_finish(s->b, &dropped, err);
  s->b = NULL;
  nrt_col_release(dropped);
  return rc ? rc : nrt_error_set(err, NRT_EINVAL, "column builder failed");
}

static int check(struct io_sink *s, int rc, struct nrt_error *err) {
  return rc == NRT_OK ? NRT_OK : builder_failed(s, err);
}

/* Makes the builder for the sink's kind and appends the nulls seen before it. */
static int start_builder(struct io_sink *s, struct nrt_error *err) {
  enum nrt_col_type t;
  switch (s->kind) {
  case IO_INT: t = NRT_COL_INT64; break;
  case IO_REAL: t = NRT_COL_FLOAT64; break;
  case IO_BOOL: t = NRT_COL_BOOL; break;
  default: t = s->string_type; break;
  }
  int rc = nrt_col_builder_new(t, 0, &s->b, err);
  if (rc) {
    s->b = NULL;
    return rc;
  }
  for (; s->pending_nulls > 0; s->pending_nulls--) {
    rc = nrt_col_builder_append_null(s->b);
    if (rc)
      return builder_failed(s, err);
  }
  return NRT_OK;
}

static int ensure_kind(struct io_sink *s, enum io_kind kind, struct nrt_error *err) {
  if (s->kind == IO_NONE)
    s->kind = kind;
  if (!s->b)
    return start_builder(s, err);
  return NRT_OK;
}

/* Closes the current utf8 segment so the next string starts a new one. */
static int next_segment(struct io_sink *s, struct nrt_error *err) {
  if (s->n_segments + 1 >= s->cap_segments) { /* keeps a slot free for io_sink_finish */
    size_t cap = s->cap_segments ? s->cap_segments * 2 : 4;
    nrt_column **bigger = nrt_reallocate(s->segments, s->cap_segments * sizeof *bigger,
                                         cap * sizeof *bigger, err);
    if (!bigger)
      return NRT_ENOMEM;
    s->segments = bigger;
    s->cap_segments = cap;
  }
  nrt_column *col = NULL;
  int rc = nrt_col_builder_finish(s->b, &col, err);
  s->b = NULL;
  if (rc)
    return rc;
  s->segments[s->n_segments++] = col;
  s->segment_bytes = 0;
  return start_builder(s, err);
}

int io_sink_str(struct io_sink *s, const char *p, size_t len, struct nrt_error *err) {
  if (s->kind != IO_NONE && s->kind != IO_STR)
    return NRT_ETYPE;
  int rc = ensure_kind(s, IO_STR, err);
  if (rc)
    return rc;
  if (s->string_type == NRT_COL_UTF8 && s->segment_bytes > 0 &&
      s->segment_bytes + (int64_t)len > io_utf8_segment_limit) {
    rc = next_segment(s, err);
    if (rc)
      return rc;
  }
  s->segment_bytes += (int64_t)len;
  return check(s, nrt_col_builder_append_view(s->b, p, (int64_t)len), err);
}

int io_sink_int(struct io_sink *s, int64_t v, struct nrt_error *err) {
  if (s->kind == IO_REAL)
    return io_sink_real(s, (double)v, err);
  if (s->kind != IO_NONE && s->kind != IO_INT)
    return NRT_ETYPE;
  int rc = ensure_kind(s, IO_INT, err);
  return rc ? rc : check(s, nrt_col_builder_append_int64(s->b, v), err);
}

/* The column's integers so far become floats: a float64 builder replaces the int64 one. */
static int promote_to_real(struct io_sink *s, struct nrt_error *err) {
  nrt_column *ints = NULL;
  int rc = nrt_col_builder_finish(s->b, &ints, err);
  s->b = NULL;
  if (rc)
    return rc;
  rc = nrt_col_builder_new(NRT_COL_FLOAT64, ints->length, &s->b, err);
  if (rc) {
    s->b = NULL;
    nrt_col_release(ints);
    return rc;
  }
  s->kind = IO_REAL;
  for (int64_t i = 0; i < ints->length && rc == NRT_OK; i++)
    rc = nrt_col_is_valid(ints, i) ? nrt_col_builder_append_float64(s->b, (double)nrt_col_int64(ints, i))
                                   : nrt_col_builder_append_null(s->b);
  nrt_col_release(ints);
  return check(s, rc, err);
}

int io_sink_real(struct io_sink *s, double v, struct nrt_error *err) {
  if (s->kind == IO_INT && s->fixed)
    return NRT_ETYPE;
  if (s->kind == IO_INT && s->b) {
    int rc = promote_to_real(s, err);
    if (rc)
      return rc;
  }
  if (s->kind != IO_NONE && s->kind != IO_REAL)
    return NRT_ETYPE;
  int rc = ensure_kind(s, IO_REAL, err);
  return rc ? rc : check(s, nrt_col_builder_append_float64(s->b, v), err);
}

int io_sink_bool(struct io_sink *s, bool v, struct nrt_error *err) {
  if (s->kind != IO_NONE && s->kind != IO_BOOL)
    return NRT_ETYPE;
  int rc = ensure_kind(s, IO_BOOL, err);
  return rc ? rc : check(s, nrt_col_builder_append_bool(s->b, v), err);
}

int io_sink_null(struct io_sink *s, struct nrt_error *err) {
  if (!s->b) {
    if (s->kind == IO_NONE) {
      s->pending_nulls++;
      return NRT_OK;
    }
    int rc = start_builder(s, err);
    if (rc)
      return rc;
  }
  return check(s, nrt_col_builder_append_null(s->b), err);
}

int io_sink_finish(struct io_sink *s, nrt_column **out, struct nrt_error *err) {
  *out = NULL;
  int rc = NRT_OK;
  if (!s->b)
    rc = start_builder(s, err); /* only nulls (or nothing): a string column */
  nrt_column *last = NULL;
  if (rc == NRT_OK) {
    rc = nrt_col_builder_finish(s->b, &last, err);
    s->b = NULL;
  }
  if (rc == NRT_OK && s->n_segments == 0) {
    *out = last;
    last = NULL;
  } else if (rc == NRT_OK) {
    s->segments[s->n_segments++] = last; /* next_segment left a slot free */
    last = NULL;
    rc = nrt_col_concat(s->segments, s->n_segments, NRT_COL_LARGE_UTF8, out, err);
  }
  nrt_col_release(last);
  io_sink_free(s);
  return rc;
}

void io_sink_free(struct io_sink *s) {
  nrt_col_builder_abort(s->b);
  s->b = NULL;
  for (size_t i = 0; i < s->n_segments; i++)
    nrt_col_release(s->segments[i]);
  if (s->segments)
    nrt_free(s->segments, s->cap_segments * sizeof *s->segments);
  s->segments = NULL;
  s->n_segments = s->cap_segments = 0;
}

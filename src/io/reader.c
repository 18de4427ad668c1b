/* The batch reader (nrt/io.h): an input read a batch of rows at a time, the readers' state
 * (line numbers, byte offsets, the CSV header and parser, the JSON columns' types) kept from one
 * batch to the next so every batch reads as that part of the whole input would. */
#define _POSIX_C_SOURCE 200809L /* close */
#include "io/reader.h"

#include <string.h>
#include <unistd.h>

#include "io/read.h"

struct nrt_io_reader {
  struct io_lines lines;
  enum nrt_io_format format;
  const char *const *columns; /* borrowed */
  size_t n_columns, n_out;
  enum nrt_col_type string_type;
  bool whole;
  int64_t max_rows;
  uint64_t max_bytes;
  int fd;                /* a descriptor the reader opened (closed by it), or -1 */
  struct io_csv *csv;    /* csv only */
  struct io_sink *sinks; /* n_out, one batch's */
  enum io_kind *kinds;   /* n_out: the first batch's column kinds (jsonl) */
  int64_t rows;          /* rows in the batches given */
  int64_t batches;
  bool at_end;
  struct nrt_error error; /* sticky: the first error ends the stream */
};

static int check_options(const struct nrt_io_read_options *o, enum nrt_io_format format,
                         struct nrt_error *err) {
  if (format != NRT_IO_TEXT && format != NRT_IO_CSV && format != NRT_IO_JSONL)
    return nrt_error_set(err, NRT_EINVAL, "read: unknown format %d", (int)format);
  if (format == NRT_IO_TEXT && o->n_columns > 0)
    return nrt_error_set(err, NRT_EINVAL, "read: the text format has no named columns");
  if (o->n_columns > 0 && !o->columns)
    return nrt_error_set(err, NRT_EINVAL, "read: n_columns without column names");
  for (size_t i = 0; i < o->n_columns; i++)
    if (!o->columns[i])
      return nrt_error_set(err, NRT_EINVAL, "read: column name %zu is NULL", i);
  if (o->string_type && !nrt_col_type_is_string(o->string_type))
    return nrt_error_set(err, NRT_EINVAL, "read: string_type %s is not a string layout",
                         nrt_col_type_name(o->string_type));
  if (o->batch_rows < 0)
    return nrt_error_set(err, NRT_EINVAL, "read: batch_rows %lld is negative",
                         (long long)o->batch_rows);
  return NRT_OK;
}

int io_reader_open(const struct io_source *src, const struct nrt_io_read_options *options,
                   bool whole, nrt_io_reader **out, struct nrt_error *err) {
  static const struct nrt_io_read_options defaults = {0};
  const struct nrt_io_read_options *o = options ? options : &defaults;
  enum nrt_io_format format = o->format ? o->format : NRT_IO_TEXT;
  *out = NULL;
  int rc = check_options(o, format, err);
  if (rc)
    return rc;
  nrt_io_reader *r = nrt_allocate(sizeof *r, err);
  if (!r)
    return NRT_ENOMEM;
  memset(r, 0, sizeof *r);
  r->format = format;
  r->columns = o->columns;
  r->n_columns = o->n_columns;
  r->n_out = o->n_columns ? o->n_columns : 1;
  r->string_type = o->string_type;
  r->whole = whole;
  r->max_rows = o->batch_rows ? o->batch_rows : NRT_IO_DEFAULT_BATCH_ROWS;
  r->max_bytes = o->batch_bytes ? o->batch_bytes : NRT_IO_DEFAULT_BATCH_BYTES;
  r->fd = -1;
  io_lines_init(&r->lines, src);
  r->sinks = nrt_allocate(r->n_out * sizeof *r->sinks, err);
  r->kinds = r->sinks ? nrt_allocate(r->n_out * sizeof *r->kinds, err) : NULL;
  rc = r->kinds ? NRT_OK : NRT_ENOMEM;
  if (rc == NRT_OK) {
    memset(r->kinds, 0, r->n_out * sizeof *r->kinds);
    if (format == NRT_IO_CSV)
      rc = io_csv_new(&r->lines, r->columns, r->n_columns, &r->csv, err);
  }
  if (rc) {
    nrt_io_reader_free(r);
    return rc;
  }
  *out = r;
  return NRT_OK;
}

int nrt_io_reader_open_fd(int fd, const struct nrt_io_read_options *options,
                          nrt_io_reader **out, struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "read: out is NULL");
  *out = NULL;
  if (fd < 0)
    return nrt_error_set(err, NRT_EINVAL, "read: bad file descriptor %d", fd);
  struct io_source src = {.fd = fd};
  return io_reader_open(&src, options, false, out, err);
}

int nrt_io_reader_open_path(const char *path, const struct nrt_io_read_options *options,
                            nrt_io_reader **out, struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "read: out is NULL");
  *out = NULL;
  if (!path)
    return nrt_error_set(err, NRT_EINVAL, "read: path is NULL");
  int fd;
  if (io_open_read(path, &fd, err))
    return NRT_EIO;
  int rc = nrt_io_reader_open_fd(fd, options, out, err);
  if (rc)
    close(fd);
  else
    (*out)->fd = fd;
  return rc;
}

int nrt_io_reader_open_buffer(const char *data, size_t len,
                              const struct nrt_io_read_options *options, nrt_io_reader **out,
                              struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "read: out is NULL");
  *out = NULL;
  if (!data && len > 0)
    return nrt_error_set(err, NRT_EINVAL, "read: data is NULL");
  struct io_source src = {.fd = -1, .mem = data ? data : "", .mem_len = len};
  return io_reader_open(&src, options, false, out, err);
}

/* Reads one batch into the sinks. */
static int read_batch(nrt_io_reader *r, struct io_batch *b, struct nrt_error *err) {
  for (size_t i = 0; i < r->n_out; i++) {
    if (r->format == NRT_IO_JSONL && r->batches > 0)
      io_sink_init_fixed(&r->sinks[i], r->kinds[i], r->string_type);
    else
      io_sink_init(&r->sinks[i], r->format != NRT_IO_JSONL, r->string_type);
  }
  if (r->format == NRT_IO_TEXT)
    return io_read_text(&r->lines, r->sinks, b, err);
  if (r->format == NRT_IO_CSV)
    return io_csv_read(r->csv, r->sinks, b, err);
  return io_read_jsonl(&r->lines, r->columns, r->n_columns, r->sinks, b, err);
}

int nrt_io_reader_next(nrt_io_reader *r, nrt_column **out, struct nrt_error *err) {
  if (!r || !out)
    return nrt_error_set(err, NRT_EINVAL, "read: %s is NULL", r ? "out" : "the reader");
  for (size_t i = 0; i < r->n_out; i++)
    out[i] = NULL;
  if (r->error.code) {
    if (err)
      *err = r->error;
    return r->error.code;
  }
  if (r->at_end && r->batches > 0)
    return NRT_OK;
  struct io_batch b = {.max_rows = r->whole ? INT64_MAX : r->max_rows, .stop_at = UINT64_MAX};
  if (!r->whole && r->lines.consumed < UINT64_MAX - r->max_bytes)
    b.stop_at = r->lines.consumed + r->max_bytes;
  struct nrt_error e = {0};
  int rc = read_batch(r, &b, &e);
  bool end = rc == NRT_OK && b.rows == 0 && b.at_end && r->batches > 0;
  for (size_t i = 0; i < r->n_out; i++) {
    if (r->batches == 0)
      r->kinds[i] = r->sinks[i].kind;
    if (rc == NRT_OK && !end)
      rc = io_sink_finish(&r->sinks[i], &out[i], &e);
    else
      io_sink_free(&r->sinks[i]);
  }
  if (rc) {
    for (size_t i = 0; i < r->n_out; i++) {
      nrt_col_release(out[i]);
      out[i] = NULL;
    }
    r->error = e;
    r->error.code = rc;
    if (err)
      *err = r->error;
    return rc;
  }
  r->at_end = b.at_end;
  if (!end) {
    r->rows += b.rows;
    r->batches++;
  }
  return NRT_OK;
}

void nrt_io_reader_info(const nrt_io_reader *r, struct nrt_io_read_info *info) {
  if (!info)
    return;
  memset(info, 0, sizeof *info);
  if (!r)
    return;
  info->rows = r->rows;
  info->lines = r->lines.line;
  info->bytes = r->lines.consumed;
}

void io_reader_columns(const nrt_io_reader *r, const char *const **names, size_t *n) {
  *names = r->n_columns ? r->columns : NULL;
  *n = r->n_out;
}

void nrt_io_reader_free(nrt_io_reader *r) {
  if (!r)
    return;
  io_csv_free(r->csv);
  io_lines_free(&r->lines);
  if (r->sinks)
    nrt_free(r->sinks, r->n_out * sizeof *r->sinks);
  if (r->kinds)
    nrt_free(r->kinds, r->n_out * sizeof *r->kinds);
  if (r->fd >= 0)
    close(r->fd);
  nrt_free(r, sizeof *r);
}

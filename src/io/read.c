/* Public entry points of the readers (see nrt/io.h): options, sources, sinks to columns. */
#define _POSIX_C_SOURCE 200809L /* open */
#include "nrt/io.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "io/read.h"

int nrt_io_format_parse(const char *name, enum nrt_io_format *out, struct nrt_error *err) {
  static const struct {
    const char *name;
    enum nrt_io_format format;
  } formats[] = {{"text", NRT_IO_TEXT}, {"csv", NRT_IO_CSV}, {"jsonl", NRT_IO_JSONL}};
  for (size_t i = 0; name && i < sizeof formats / sizeof formats[0]; i++)
    if (strcmp(name, formats[i].name) == 0) {
      *out = formats[i].format;
      return NRT_OK;
    }
  return nrt_error_set(err, NRT_EINVAL, "unknown format \"%s\" (expected text, csv or jsonl)",
                       name ? name : "(null)");
}

const char *nrt_io_format_name(enum nrt_io_format format) {
  switch (format) {
  case NRT_IO_TEXT: return "text";
  case NRT_IO_CSV: return "csv";
  case NRT_IO_JSONL: return "jsonl";
  default: return "?";
  }
}

static int check_options(const struct nrt_io_read_options *o, enum nrt_io_format format,
                         nrt_column **out, struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "read: out is NULL");
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
  return NRT_OK;
}

static int read_source(const struct io_source *src, const struct nrt_io_read_options *options,
                       nrt_column **out, struct nrt_io_read_info *info, struct nrt_error *err) {
  static const struct nrt_io_read_options defaults = {0};
  const struct nrt_io_read_options *o = options ? options : &defaults;
  enum nrt_io_format format = o->format ? o->format : NRT_IO_TEXT;
  size_t n_out = o->n_columns ? o->n_columns : 1;
  if (info)
    memset(info, 0, sizeof *info);
  for (size_t i = 0; out && i < n_out; i++)
    out[i] = NULL;
  int rc = check_options(o, format, out, err);
  if (rc)
    return rc;
  size_t sinks_size = n_out * sizeof(struct io_sink);
  struct io_sink *sinks = nrt_allocate(sinks_size, err);
  if (!sinks)
    return NRT_ENOMEM;
  for (size_t i = 0; i < n_out; i++)
    io_sink_init(&sinks[i], format != NRT_IO_JSONL, o->string_type);

  struct io_lines lines;
  io_lines_init(&lines, src);
  int64_t rows = 0;
  if (format == NRT_IO_TEXT)
    rc = io_read_text(&lines, sinks, &rows, err);
  else if (format == NRT_IO_CSV)
    rc = io_read_csv(&lines, o->columns, o->n_columns, sinks, &rows, err);
  else
    rc = io_read_jsonl(&lines, o->columns, o->n_columns, sinks, &rows, err);
  if (info) {
    info->rows = rows;
    info->lines = lines.line;
    info->bytes = lines.consumed;
  }
  io_lines_free(&lines);

  for (size_t i = 0; i < n_out; i++) {
    if (rc == NRT_OK)
      rc = io_sink_finish(&sinks[i], &out[i], err);
    else
      io_sink_free(&sinks[i]);
  }
  if (rc) {
    for (size_t i = 0; i < n_out; i++) {
      nrt_col_release(out[i]);
      out[i] = NULL;
    }
  }
  nrt_free(sinks, sinks_size);
  return rc;
}

int nrt_io_read_stream(FILE *file, const struct nrt_io_read_options *options, nrt_column **out,
                       struct nrt_io_read_info *info, struct nrt_error *err) {
  if (!file)
    return nrt_error_set(err, NRT_EINVAL, "read: file is NULL");
  struct io_source src = {.file = file, .fd = -1};
  return read_source(&src, options, out, info, err);
}

int nrt_io_read_fd(int fd, const struct nrt_io_read_options *options, nrt_column **out,
                   struct nrt_io_read_info *info, struct nrt_error *err) {
  if (fd < 0)
    return nrt_error_set(err, NRT_EINVAL, "read: bad file descriptor %d", fd);
  struct io_source src = {.fd = fd};
  return read_source(&src, options, out, info, err);
}

int nrt_io_read_path(const char *path, const struct nrt_io_read_options *options,
                     nrt_column **out, struct nrt_io_read_info *info, struct nrt_error *err) {
  if (out)
    for (size_t i = 0; i < (options && options->n_columns ? options->n_columns : 1); i++)
      out[i] = NULL;
  if (!path)
    return nrt_error_set(err, NRT_EINVAL, "read: path is NULL");
  int fd;
  do
    fd = open(path, O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  if (fd < 0)
    return nrt_error_set(err, NRT_EIO, "%s: %s", path, strerror(errno));
  int rc = nrt_io_read_fd(fd, options, out, info, err);
  close(fd);
  return rc;
}

int nrt_io_read_buffer(const char *data, size_t len, const struct nrt_io_read_options *options,
                       nrt_column **out, struct nrt_io_read_info *info, struct nrt_error *err) {
  if (!data && len > 0)
    return nrt_error_set(err, NRT_EINVAL, "read: data is NULL");
  struct io_source src = {.fd = -1, .mem = data ? data : "", .mem_len = len};
  return read_source(&src, options, out, info, err);
}

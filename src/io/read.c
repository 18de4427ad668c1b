/* Public entry points of the readers (see nrt/io.h): options, sources, sinks to columns. */
#define _POSIX_C_SOURCE 200809L /* open */
#include "nrt/io.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "io/read.h"
#include "io/reader.h"

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

/* The whole input as one batch without limits. */
static int read_source(const struct io_source *src, const struct nrt_io_read_options *options,
                       nrt_column **out, struct nrt_io_read_info *info, struct nrt_error *err) {
  size_t n_out = options && options->n_columns ? options->n_columns : 1;
  if (info)
    memset(info, 0, sizeof *info);
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "read: out is NULL");
  for (size_t i = 0; i < n_out; i++)
    out[i] = NULL;
  nrt_io_reader *r;
  int rc = io_reader_open(src, options, true, &r, err);
  if (rc)
    return rc;
  rc = nrt_io_reader_next(r, out, err);
  if (info)
    nrt_io_reader_info(r, info);
  nrt_io_reader_free(r);
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

int io_open_read(const char *path, int *fd, struct nrt_error *err) {
  do
    *fd = open(path, O_RDONLY | O_CLOEXEC);
  while (*fd < 0 && errno == EINTR);
  if (*fd < 0)
    return nrt_error_set(err, NRT_EIO, "%s: %s", path, strerror(errno));
  return NRT_OK;
}

int nrt_io_read_path(const char *path, const struct nrt_io_read_options *options,
                     nrt_column **out, struct nrt_io_read_info *info, struct nrt_error *err) {
  if (out)
    for (size_t i = 0; i < (options && options->n_columns ? options->n_columns : 1); i++)
      out[i] = NULL;
  if (!path)
    return nrt_error_set(err, NRT_EINVAL, "read: path is NULL");
  int fd;
  if (io_open_read(path, &fd, err))
    return NRT_EIO;
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

/* The writers (formats in nrt/io.h): one column, or a column in batches, through a 64 KiB
 * buffer. */
#define _POSIX_C_SOURCE 200809L /* open, write */
#include "nrt/io.h"
#include "nrt/io_output.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "nrt/str_convert.h"

#define IO_WRITE_BLOCK ((size_t)1 << 16)

struct io_out {
  FILE *file; /* or NULL: fd */
  int fd;
  char *buf;
  size_t len;
  int rc; /* first error; later writes do nothing */
  struct nrt_error *err;
  char *scratch; /* a list row's repr, for text and csv */
  size_t scratch_len, scratch_cap;
};

static void out_raw(struct io_out *o, const char *p, size_t n) {
  while (n > 0 && o->rc == NRT_OK) {
    if (o->file) {
      size_t put = fwrite(p, 1, n, o->file);
      if (put < n) {
        o->rc = nrt_error_set(o->err, NRT_EIO, "write error: %s", strerror(errno));
        return;
      }
      return;
    }
    ssize_t put = write(o->fd, p, n);
    if (put < 0) {
      if (errno == EINTR)
        continue;
      o->rc = nrt_error_set(o->err, NRT_EIO, "write error: %s", strerror(errno));
      return;
    }
    p += put;
    n -= (size_t)put;
  }
}

static void out_flush(struct io_out *o) {
  out_raw(o, o->buf, o->len);
  o->len = 0;
}

static void out_put(struct io_out *o, const char *p, size_t n) {
  if (o->len + n > IO_WRITE_BLOCK) {
    out_flush(o);
    if (n > IO_WRITE_BLOCK) {
      out_raw(o, p, n);
      return;
    }
  }
  memcpy(o->buf + o->len, p, n);
  o->len += n;
}

static void out_char(struct io_out *o, char c) {
  if (o->len == IO_WRITE_BLOCK)
    out_flush(o);
  o->buf[o->len++] = c;
}

/* A CSV string field: quoted when empty (so it differs from null) or when it holds a
 * delimiter, a quote or a line break; quotes inside are doubled. */
static void put_csv_string(struct io_out *o, const char *s, size_t n) {
  int quote = n == 0;
  for (size_t i = 0; i < n && !quote; i++)
    quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
  if (!quote) {
    out_put(o, s, n);
    return;
  }
  out_char(o, '"');
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    if (s[i] == '"') {
      out_put(o, s + run, i + 1 - run); /* the quote, then its double below */
      out_char(o, '"');
      run = i + 1;
    }
  }
  out_put(o, s + run, n - run);
  out_char(o, '"');
}

/* A JSON string: UTF-8 kept, quotes, backslashes and control characters escaped. */
static void put_json_string(struct io_out *o, const char *s, size_t n) {
  static const char hex[] = "0123456789abcdef";
  out_char(o, '"');
  size_t run = 0;
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\')
      continue;
    out_put(o, s + run, i - run);
    run = i + 1;
    char esc[6] = {'\\', 0, 0, 0, 0, 0};
    size_t len = 2;
    switch (c) {
    case '"': esc[1] = '"'; break;
    case '\\': esc[1] = '\\'; break;
    case '\b': esc[1] = 'b'; break;
    case '\f': esc[1] = 'f'; break;
    case '\n': esc[1] = 'n'; break;
    case '\r': esc[1] = 'r'; break;
    case '\t': esc[1] = 't'; break;
    default:
      memcpy(esc + 1, "u00", 3);
      esc[4] = hex[c >> 4];
      esc[5] = hex[c & 15];
      len = 6;
    }
    out_put(o, esc, len);
  }
  out_put(o, s + run, n - run);
  out_char(o, '"');
}

/* Python's repr(v) (the str layer's shortest round-trip conversion). */
static void put_float(struct io_out *o, double v, enum nrt_io_format format) {
  char buf[NRT_STR_DOUBLE_MAX_BYTES];
  if (format == NRT_IO_JSONL && (v != v || v - v != 0)) { /* nan, inf: Python json's names */
    const char *name = v != v ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
    out_put(o, name, strlen(name));
    return;
  }
  out_put(o, buf, (size_t)nrt_str_from_double_into(v, buf));
}

/* Room for n more bytes at the end of the scratch text (NULL on allocation failure, with
 * o->rc set). */
static char *scratch_room(struct io_out *o, size_t n) {
  if (o->scratch_cap - o->scratch_len < n) {
    size_t cap = o->scratch_cap ? o->scratch_cap : 256;
    while (cap - o->scratch_len < n)
      cap *= 2;
    char *p = nrt_reallocate(o->scratch, o->scratch_cap, cap, o->err);
    if (!p) {
      o->rc = NRT_ENOMEM;
      return NULL;
    }
    o->scratch = p;
    o->scratch_cap = cap;
  }
  return o->scratch + o->scratch_len;
}

static void scratch_put(struct io_out *o, const char *p, size_t n) {
  char *at = scratch_room(o, n);
  if (at) {
    memcpy(at, p, n);
    o->scratch_len += n;
  }
}

/* Item k of a list's int64, float64 or bool child as text in buf (at least
 * NRT_STR_DOUBLE_MAX_BYTES and 24 bytes): Python's repr (1, 2.5, 1e+16, inf, True) for text
 * and csv; for jsonl the same numbers (a float's repr is a JSON number), true / false, and null
 * for nan and infinities, which JSON cannot write. Returns its length. */
static size_t number_text(const nrt_column *items, int64_t k, bool json, char *buf) {
  switch (items->type) {
  case NRT_COL_INT64:
    return (size_t)snprintf(buf, 24, "%" PRId64, nrt_col_int64(items, k));
  case NRT_COL_FLOAT64: {
    double v = nrt_col_float64(items, k);
    if (json && (v != v || v - v != 0)) {
      memcpy(buf, "null", 4);
      return 4;
    }
    return (size_t)nrt_str_from_double_into(v, buf);
  }
  default: {
    bool b = nrt_col_bool(items, k);
    const char *t = json ? (b ? "true" : "false") : (b ? "True" : "False");
    size_t n = strlen(t);
    memcpy(buf, t, n);
    return n;
  }
  }
}

#define NUMBER_TEXT_BYTES (NRT_STR_DOUBLE_MAX_BYTES > 24 ? NRT_STR_DOUBLE_MAX_BYTES : 24)

/* Python's str() of a list row into the scratch text: ['a', 'b'], [1, 2.5, True] (None for a
 * null item). */
static void list_repr(struct io_out *o, const nrt_column *col, int64_t i) {
  const nrt_column *items = nrt_col_list_child(col);
  bool strings = nrt_col_type_is_string(items->type);
  int64_t start, end;
  nrt_col_list_range(col, i, &start, &end);
  o->scratch_len = 0;
  scratch_put(o, "[", 1);
  for (int64_t k = start; k < end && o->rc == NRT_OK; k++) {
    if (k > start)
      scratch_put(o, ", ", 2);
    if (!nrt_col_is_valid(items, k)) {
      scratch_put(o, "None", 4);
    } else if (strings) {
      nrt_str s = nrt_col_str(items, k);
      char *at = scratch_room(o, (size_t)nrt_str_repr_size(s.data, s.len));
      if (at)
        o->scratch_len += (size_t)nrt_str_repr_into(s.data, s.len, at);
    } else {
      char buf[NUMBER_TEXT_BYTES];
      scratch_put(o, buf, number_text(items, k, false, buf));
    }
  }
  scratch_put(o, "]", 1);
}

/* A list row: a JSON array (null for a null item), or its str() (a CSV field). */
static void put_list(struct io_out *o, const nrt_column *col, int64_t i,
                     enum nrt_io_format format) {
  if (format == NRT_IO_JSONL) {
    const nrt_column *items = nrt_col_list_child(col);
    bool strings = nrt_col_type_is_string(items->type);
    int64_t start, end;
    nrt_col_list_range(col, i, &start, &end);
    out_char(o, '[');
    for (int64_t k = start; k < end; k++) {
      if (k > start)
        out_put(o, ", ", 2);
      if (!nrt_col_is_valid(items, k)) {
        out_put(o, "null", 4);
      } else if (strings) {
        nrt_str s = nrt_col_str(items, k);
        put_json_string(o, s.data, (size_t)s.len);
      } else {
        char buf[NUMBER_TEXT_BYTES];
        out_put(o, buf, number_text(items, k, true, buf));
      }
    }
    out_char(o, ']');
    return;
  }
  list_repr(o, col, i);
  if (o->rc)
    return;
  if (format == NRT_IO_CSV)
    put_csv_string(o, o->scratch, o->scratch_len);
  else
    out_put(o, o->scratch, o->scratch_len);
}

static void put_row(struct io_out *o, const nrt_column *col, int64_t i,
                    enum nrt_io_format format) {
  if (!nrt_col_is_valid(col, i)) {
    if (format == NRT_IO_JSONL)
      out_put(o, "null", 4);
    return;
  }
  switch (col->type) {
  case NRT_COL_INT64: {
    char buf[24];
    int n = snprintf(buf, sizeof buf, "%" PRId64, nrt_col_int64(col, i));
    out_put(o, buf, (size_t)n);
    return;
  }
  case NRT_COL_FLOAT64: put_float(o, nrt_col_float64(col, i), format); return;
  case NRT_COL_LIST: put_list(o, col, i, format); return;
  case NRT_COL_BOOL: {
    bool b = nrt_col_bool(col, i);
    const char *s = format == NRT_IO_JSONL ? (b ? "true" : "false") : (b ? "True" : "False");
    out_put(o, s, strlen(s));
    return;
  }
  default: {
    nrt_str s = nrt_col_str(col, i);
    if (format == NRT_IO_CSV)
      put_csv_string(o, s.data, (size_t)s.len);
    else if (format == NRT_IO_JSONL)
      put_json_string(o, s.data, (size_t)s.len);
    else
      out_put(o, s.data, (size_t)s.len);
  }
  }
}

/* The first row of a string column that text output cannot write as one line: one holding
 * "\n" (it would read back as two rows) or ending with "\r" (reading drops it with the line
 * end); -1 when none. A contiguous layout is searched whole first: such rows are rare. */
static int64_t first_multiline_row(const nrt_column *col, bool *ends_cr) {
  if (col->type != NRT_COL_UTF8 && col->type != NRT_COL_LARGE_UTF8 &&
      col->type != NRT_COL_UTF8_VIEW)
    return -1;
  if (col->length == 0)
    return -1;
  if (col->type != NRT_COL_UTF8_VIEW) { /* the rows' bytes, from the offsets (a null row's
                                           * nrt_col_str points elsewhere) */
    int64_t from, to;
    if (col->type == NRT_COL_UTF8) {
      const int32_t *o = (const int32_t *)col->values.data + col->offset;
      from = o[0];
      to = o[col->length];
    } else {
      const int64_t *o = (const int64_t *)col->values.data + col->offset;
      from = o[0];
      to = o[col->length];
    }
    const char *first = (const char *)col->data.data + from;
    size_t span = (size_t)(to - from);
    if (span == 0 || (!memchr(first, '\n', span) && !memchr(first, '\r', span)))
      return -1;
  }
  for (int64_t i = 0; i < col->length; i++) {
    if (!nrt_col_is_valid(col, i))
      continue;
    nrt_str s = nrt_col_str(col, i);
    *ends_cr = s.len > 0 && s.data[s.len - 1] == '\r';
    if (*ends_cr || memchr(s.data, '\n', (size_t)s.len))
      return i;
  }
  return -1;
}

/* A writer: the output, its format, the rows written so far (batches number on). */
struct nrt_io_writer {
  struct io_out o;
  enum nrt_io_format format;
  const char *name; /* the options' column name (borrowed) */
  int64_t rows;
  bool header_done;
  int refused; /* a batch refused before any of its rows was written (sticky; the rows of
                * earlier batches are still flushed) */
};

static int writer_init(struct nrt_io_writer *w, const struct nrt_io_write_options *options,
                       struct nrt_error *err) {
  static const struct nrt_io_write_options defaults = {0};
  const struct nrt_io_write_options *opt = options ? options : &defaults;
  w->format = opt->format ? opt->format : NRT_IO_TEXT;
  w->name = opt->column_name;
  if (w->format != NRT_IO_TEXT && w->format != NRT_IO_CSV && w->format != NRT_IO_JSONL)
    return nrt_error_set(err, NRT_EINVAL, "write: unknown format %d", (int)w->format);
  w->o.buf = nrt_allocate(IO_WRITE_BLOCK, err);
  return w->o.buf ? NRT_OK : NRT_ENOMEM;
}

static void put_header(struct nrt_io_writer *w) {
  if (w->header_done)
    return;
  w->header_done = true;
  if (w->format == NRT_IO_CSV) {
    const char *header = w->name ? w->name : "value";
    put_csv_string(&w->o, header, strlen(header));
    out_char(&w->o, '\n');
  }
}

static int writer_rows(struct nrt_io_writer *w, const nrt_column *col, struct nrt_error *err) {
  struct io_out *o = &w->o;
  o->err = err;
  if (o->rc || w->refused)
    return nrt_error_set(err, o->rc ? o->rc : w->refused, "write: an earlier batch failed");
  if (!col)
    return nrt_error_set(err, NRT_EINVAL, "write: column is NULL");
  bool ends_cr = false;
  int64_t bad = w->format == NRT_IO_TEXT ? first_multiline_row(col, &ends_cr) : -1;
  if (bad >= 0) /* refused before any row of the batch is written */
    return w->refused = nrt_error_set(
               err, NRT_EINVAL,
               "row %lld: the value %s, which text output (one row per line) cannot write; use "
               "csv or jsonl",
               (long long)(w->rows + bad + 1),
               ends_cr ? "ends with a carriage return" : "holds a line break");
  put_header(w);
  enum nrt_io_format format = w->format;
  const char *name = w->name;
  for (int64_t i = 0; i < col->length && o->rc == NRT_OK; i++) {
    if (format == NRT_IO_JSONL && name) {
      out_char(o, '{');
      put_json_string(o, name, strlen(name));
      out_put(o, ": ", 2);
      put_row(o, col, i, format);
      out_char(o, '}');
    } else {
      put_row(o, col, i, format);
    }
    out_char(o, '\n');
  }
  w->rows += col->length;
  return o->rc;
}

/* Flushes (unless an error came first) and frees the buffers; the writer's first error. */
static int writer_finish(struct nrt_io_writer *w, struct nrt_error *err) {
  struct io_out *o = &w->o;
  o->err = err;
  if (o->rc == NRT_OK) {
    put_header(w);
    out_flush(o);
  }
  nrt_free(o->buf, IO_WRITE_BLOCK);
  o->buf = NULL;
  nrt_free(o->scratch, o->scratch_cap);
  o->scratch = NULL;
  return o->rc ? o->rc : w->refused;
}

static int write_column(struct io_out *o, const nrt_column *col,
                        const struct nrt_io_write_options *options) {
  struct nrt_io_writer w = {.o = *o};
  int rc = writer_init(&w, options, o->err);
  if (rc)
    return rc;
  if (!col) {
    writer_finish(&w, o->err);
    return nrt_error_set(o->err, NRT_EINVAL, "write: column is NULL");
  }
  rc = writer_rows(&w, col, o->err);
  int frc = writer_finish(&w, o->err);
  return rc ? rc : frc;
}

int nrt_io_writer_open(int fd, const struct nrt_io_write_options *options, nrt_io_writer **out,
                       struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "write: out is NULL");
  *out = NULL;
  if (fd < 0)
    return nrt_error_set(err, NRT_EINVAL, "write: bad file descriptor %d", fd);
  nrt_io_writer *w = nrt_allocate(sizeof *w, err);
  if (!w)
    return NRT_ENOMEM;
  memset(w, 0, sizeof *w);
  w->o.fd = fd;
  int rc = writer_init(w, options, err);
  if (rc) {
    nrt_free(w, sizeof *w);
    return rc;
  }
  *out = w;
  return NRT_OK;
}

int nrt_io_writer_write(nrt_io_writer *w, const nrt_column *col, struct nrt_error *err) {
  if (!w)
    return nrt_error_set(err, NRT_EINVAL, "write: the writer is NULL");
  return writer_rows(w, col, err);
}

int nrt_io_writer_close(nrt_io_writer *w, struct nrt_error *err) {
  if (!w)
    return NRT_OK;
  int rc = writer_finish(w, err);
  nrt_free(w, sizeof *w);
  return rc;
}

int nrt_io_write_stream(FILE *file, const nrt_column *col,
                        const struct nrt_io_write_options *options, struct nrt_error *err) {
  if (!file)
    return nrt_error_set(err, NRT_EINVAL, "write: file is NULL");
  struct io_out o = {.file = file, .fd = -1, .err = err};
  int rc = write_column(&o, col, options);
  if (rc == NRT_OK && (fflush(file) != 0 || ferror(file)))
    rc = nrt_error_set(err, NRT_EIO, "write error: %s", strerror(errno));
  return rc;
}

int nrt_io_write_fd(int fd, const nrt_column *col, const struct nrt_io_write_options *options,
                    struct nrt_error *err) {
  if (fd < 0)
    return nrt_error_set(err, NRT_EINVAL, "write: bad file descriptor %d", fd);
  struct io_out o = {.fd = fd, .err = err};
  return write_column(&o, col, options);
}

int nrt_io_write_path(const char *path, const nrt_column *col,
                      const struct nrt_io_write_options *options, struct nrt_error *err) {
  nrt_io_output *o;
  int rc = nrt_io_output_open(path, &o, err);
  if (rc)
    return rc;
  rc = nrt_io_write_fd(nrt_io_output_fd(o), col, options, err);
  if (rc) {
    nrt_io_output_discard(o);
    return rc;
  }
  return nrt_io_output_commit(o, err);
}

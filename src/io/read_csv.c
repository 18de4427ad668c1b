/* The CSV reader: libcsv (Debian's libcsv-dev) in strict mode, fed one physical line at a time
 * so every callback knows its line, with UTF-8 checked on the raw lines before libcsv sees
 * them (quotes are ASCII, so raw text is valid exactly when every field is). */
#include "io/read.h"

#include <csv.h>
#include <string.h>

/* Pieces of a long line fed to libcsv at a time; between pieces its buffer growth step is set
 * to its current size, so a huge field grows its buffer by doubling, not by 128 bytes. */
#define CSV_PIECE ((size_t)1 << 16)
#define CSV_HEADER_TEXT 160

/* libcsv's allocation hooks take no context and retry a failed realloc with a smaller size;
 * a refused allocation is remembered here so the read still fails (failure injection must
 * see the refusal reported). Sizes are kept in a 16-byte prefix because nrt's allocator wants
 * the old size back. */
static _Thread_local int csv_alloc_refused;

static void *csv_mem_realloc(void *p, size_t n) {
  size_t *h = p ? (size_t *)p - 2 : NULL;
  if (n > SIZE_MAX - 16) {
    csv_alloc_refused = 1;
    return NULL;
  }
  size_t *bigger = nrt_reallocate(h, h ? h[0] + 16 : 0, n + 16, NULL);
  if (!bigger) {
    csv_alloc_refused = 1;
    return NULL;
  }
  bigger[0] = n;
  return bigger + 2;
}

static void csv_mem_free(void *p) {
  if (p) {
    size_t *h = (size_t *)p - 2;
    nrt_free(h, h[0] + 16);
  }
}

/* RFC 4180: spaces are data. */
static int csv_no_space(unsigned char c) {
  (void)c;
  return 0;
}

struct io_csv {
  struct io_lines *l;
  struct csv_parser parser;
  int in_quotes;      /* the lines fed so far end inside a quoted field */
  struct io_batch *batch; /* the batch being read */
  const char *const *names;
  size_t n_names;     /* requested names (0: the only column) */
  struct io_sink *sinks;
  size_t n_sinks;
  int in_header;
  size_t n_header;    /* fields in the header */
  char header_text[CSV_HEADER_TEXT]; /* "a, b, c" for messages */
  size_t field;       /* fields seen in the current record */
  uint64_t rec_line, rec_offset; /* where the current record began */
  int64_t rows;
  int rc;             /* first error from a callback */
  struct nrt_error *err;
  int64_t selected[]; /* per sink: the header field it reads, -1 until found */
};

static void add_header_name(struct io_csv *r, const char *name, size_t len) {
  size_t used = strlen(r->header_text);
  int n = snprintf(r->header_text + used, sizeof r->header_text - used, "%s%.*s",
                   r->n_header ? ", " : "", (int)(len > 40 ? 40 : len), name);
  if (n < 0 || (size_t)n >= sizeof r->header_text - used)
    memcpy(r->header_text + sizeof r->header_text - 4, "...", 4);
}

static void header_field(struct io_csv *r, const char *name, size_t len) {
  for (size_t i = 0; i < r->n_names; i++) {
    if (strlen(r->names[i]) != len || memcmp(r->names[i], name, len) != 0)
      continue;
    if (r->selected[i] >= 0) {
      r->rc = io_error_at(r->err, NRT_EPARSE, r->rec_line, r->rec_offset,
                          "column \"%s\" appears twice in the header", r->names[i]);
      return;
    }
    r->selected[i] = (int64_t)r->field;
  }
  add_header_name(r, name, len);
  r->n_header++;
}

static void on_field(void *field, size_t len, void *data) {
  struct io_csv *r = data;
  if (r->rc)
    return;
  if (r->in_header) {
    header_field(r, field ? field : "", field ? len : 0);
  } else if (r->field >= r->n_header) {
    r->rc = io_error_at(r->err, NRT_EPARSE, r->rec_line, r->rec_offset,
                        "record has more fields than the header (%zu)", r->n_header);
    return;
  } else {
    for (size_t i = 0; i < r->n_sinks && !r->rc; i++) {
      if (r->selected[i] != (int64_t)r->field)
        continue;
      r->rc = field ? io_sink_str(&r->sinks[i], field, len, r->err)
                    : io_sink_null(&r->sinks[i], r->err);
    }
  }
  r->field++;
}

static void resolve_header(struct io_csv *r) {
  if (r->n_names == 0) {
    if (r->n_header != 1) {
      r->rc = io_error_at(r->err, NRT_EPARSE, r->rec_line, r->rec_offset,
                          "the header has %zu columns (%s): choose one by name", r->n_header,
                          r->header_text);
      return;
    }
    r->selected[0] = 0;
    return;
  }
  for (size_t i = 0; i < r->n_names; i++)
    if (r->selected[i] < 0) {
      r->rc = io_error_at(r->err, NRT_EPARSE, r->rec_line, r->rec_offset,
                          "missing column \"%s\" (the header has: %s)", r->names[i],
                          r->header_text);
      return;
    }
}

static void on_record(int c, void *data) {
  (void)c;
  struct io_csv *r = data;
  if (r->rc)
    return;
  if (r->in_header) {
    r->in_header = 0;
    resolve_header(r);
  } else if (r->field != r->n_header) {
    r->rc = io_error_at(r->err, NRT_EPARSE, r->rec_line, r->rec_offset,
                        "record has %zu field%s, the header has %zu", r->field,
                        r->field == 1 ? "" : "s", r->n_header);
  } else {
    r->rows++;
    r->batch->rows++;
  }
  r->field = 0;
}

/* The end of the input: the last record without its "\n", the header's presence. */
static int finish_input(struct io_csv *r, struct io_batch *b) {
  struct csv_parser *p = &r->parser;
  b->at_end = 1;
  if (csv_fini(p, on_field, on_record, r) != 0) {
    if (csv_alloc_refused || csv_error(p) == CSV_ENOMEM)
      return nrt_error_set(r->err, NRT_ENOMEM, "out of memory parsing CSV");
    return io_error_at(r->err, NRT_EPARSE, r->rec_line, r->rec_offset,
                       "unterminated quoted field in the record starting here");
  }
  if (csv_alloc_refused)
    return nrt_error_set(r->err, NRT_ENOMEM, "out of memory parsing CSV");
  if (r->rc)
    return r->rc;
  if (r->in_header)
    return io_error_at(r->err, NRT_EPARSE, 1, 0, "empty input: the CSV header is missing");
  return NRT_OK;
}

/* Feeds bytes to libcsv and turns its failure into an error at the byte it stopped on. */
static int feed(struct io_csv *r, struct csv_parser *p, const char *s, size_t len,
                uint64_t offset) {
  csv_set_blk_size(p, csv_get_buffer_size(p) > 4096 ? csv_get_buffer_size(p) : 4096);
  size_t done = csv_parse(p, s, len, on_field, on_record, r);
  if (csv_alloc_refused)
    return nrt_error_set(r->err, NRT_ENOMEM, "out of memory parsing CSV");
  if (r->rc)
    return r->rc;
  if (done < len) {
    if (csv_error(p) == CSV_ENOMEM)
      return nrt_error_set(r->err, NRT_ENOMEM, "out of memory parsing CSV");
    return io_error_at(r->err, NRT_EPARSE, r->l->line, offset + done,
                       "malformed quoted field (a quote must end its field, and a quote "
                       "inside a quoted field is written \"\")");
  }
  return NRT_OK;
}

static int parse_lines(struct io_csv *r, struct io_batch *b) {
  struct io_lines *l = r->l;
  struct csv_parser *p = &r->parser;
  /* A batch ends only between records: after a line that ends outside quotes (libcsv has then
   * seen the record's "\n" and reported it). */
  while (r->in_quotes || r->field != 0 || r->in_header || !io_batch_full(b, l)) {
    const char *line;
    size_t len;
    int terminated;
    int rc = io_lines_next(l, &line, &len, &terminated, r->err);
    if (rc)
      return rc;
    if (!line)
      return finish_input(r, b);
    int at_record_start = !r->in_quotes && r->field == 0;
    if (at_record_start) {
      r->rec_line = l->line;
      r->rec_offset = l->offset;
    }
    size_t content = terminated && len > 0 && line[len - 1] == '\r' ? len - 1 : len;
    if (at_record_start && content == 0) { /* an empty line: one null field */
      on_field(NULL, 0, r);
      on_record('\n', r);
      if (r->rc)
        return r->rc;
      continue;
    }
    for (size_t i = 0; i < len; i++)
      r->in_quotes ^= line[i] == '"';
    size_t total = len + (size_t)terminated; /* the "\n" follows the line in the buffer */
    for (size_t at = 0; at < total; at += CSV_PIECE) {
      size_t n = total - at < CSV_PIECE ? total - at : CSV_PIECE;
      rc = feed(r, p, line + at, n, l->offset + at);
      if (rc)
        return rc;
    }
  }
  return NRT_OK;
}

int io_csv_new(struct io_lines *l, const char *const *names, size_t n_names,
               struct io_csv **out, struct nrt_error *err) {
  *out = NULL;
  size_t n_sinks = n_names ? n_names : 1;
  size_t size = sizeof(struct io_csv) + n_sinks * sizeof(int64_t);
  struct io_csv *r = nrt_allocate(size, err);
  if (!r)
    return NRT_ENOMEM;
  memset(r, 0, size);
  r->l = l;
  r->names = names;
  r->n_names = n_names;
  r->n_sinks = n_sinks;
  r->in_header = 1;
  r->rec_line = 1;
  for (size_t i = 0; i < n_sinks; i++)
    r->selected[i] = -1;
  if (csv_init(&r->parser, CSV_STRICT | CSV_STRICT_FINI | CSV_EMPTY_IS_NULL) != 0) {
    nrt_free(r, size);
    return nrt_error_set(err, NRT_ENOMEM, "out of memory starting the CSV parser");
  }
  csv_set_realloc_func(&r->parser, csv_mem_realloc);
  csv_set_free_func(&r->parser, csv_mem_free);
  csv_set_space_func(&r->parser, csv_no_space);
  *out = r;
  return NRT_OK;
}

int io_csv_read(struct io_csv *r, struct io_sink *sinks, struct io_batch *b,
                struct nrt_error *err) {
  r->sinks = sinks;
  r->batch = b;
  r->err = err;
  csv_alloc_refused = 0;
  int rc = parse_lines(r, b);
  csv_alloc_refused = 0;
  r->sinks = NULL;
  r->batch = NULL;
  return rc;
}

void io_csv_free(struct io_csv *r) {
  if (!r)
    return;
  csv_free(&r->parser);
  nrt_free(r, sizeof(struct io_csv) + r->n_sinks * sizeof(int64_t));
}

/* Internal: the three readers, each turning the lines of an input into column sinks, one batch
 * at a time (a batch ends at a record boundary once it holds max_rows rows or the input has
 * reached stop_at bytes; the whole-input read is one batch without limits). */
#ifndef NRT_IO_READ_H
#define NRT_IO_READ_H

#include <stddef.h>
#include <stdint.h>

#include "io/lines.h"
#include "io/sink.h"

/* One batch being read: its limits in, what was read out. */
struct io_batch {
  int64_t max_rows;  /* at most this many rows (>= 1) */
  uint64_t stop_at;  /* end the batch once the input offset reaches this byte */
  int64_t rows;      /* rows put in the sinks so far (set to 0 by the caller) */
  int at_end;        /* set when the input has no more rows */
};

/* True when the batch is full (the reader stops before the next record); a batch holds at
 * least one row unless the input ends. */
static inline int io_batch_full(const struct io_batch *b, const struct io_lines *l) {
  return b->rows >= b->max_rows || (b->rows > 0 && l->consumed >= b->stop_at);
}

/* One row per line into sinks[0]. */
int io_read_text(struct io_lines *l, struct io_sink *sinks, struct io_batch *b,
                 struct nrt_error *err);

/* JSON Lines: bare values (n_names == 0) or the members `names` of one object per line. */
int io_read_jsonl(struct io_lines *l, const char *const *names, size_t n_names,
                  struct io_sink *sinks, struct io_batch *b, struct nrt_error *err);

/* RFC 4180 with a header: the columns `names` (n_names of them; 0: the only column) into
 * sinks[0..max(1, n_names)). The parser's state (the header, a record cut by nothing: batches
 * end only between records) lives from io_csv_new to io_csv_free; `names` is borrowed. */
struct io_csv;
int io_csv_new(struct io_lines *l, const char *const *names, size_t n_names,
               struct io_csv **out, struct nrt_error *err);
int io_csv_read(struct io_csv *c, struct io_sink *sinks, struct io_batch *b,
                struct nrt_error *err);
void io_csv_free(struct io_csv *c);

/* Opens `path` for reading (retrying on EINTR) into *fd; NRT_EIO "path: why" on failure. */
int io_open_read(const char *path, int *fd, struct nrt_error *err);

#endif

/* Internal: the three readers, each turning the lines of an input into column sinks. */
#ifndef NRT_IO_READ_H
#define NRT_IO_READ_H

#include <stddef.h>
#include <stdint.h>

#include "io/lines.h"
#include "io/sink.h"

/* One row per line into sinks[0]. */
int io_read_text(struct io_lines *l, struct io_sink *sinks, int64_t *rows, struct nrt_error *err);

/* RFC 4180 with a header: the columns `names` (n_names of them; 0: the only column) into
 * sinks[0..max(1, n_names)). */
int io_read_csv(struct io_lines *l, const char *const *names, size_t n_names,
                struct io_sink *sinks, int64_t *rows, struct nrt_error *err);

/* JSON Lines: bare values (n_names == 0) or the members `names` of one object per line. */
int io_read_jsonl(struct io_lines *l, const char *const *names, size_t n_names,
                  struct io_sink *sinks, int64_t *rows, struct nrt_error *err);

#endif

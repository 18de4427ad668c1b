/* The text reader: one row per line (rules in nrt/io.h). */
#include "io/read.h"

int io_read_text(struct io_lines *l, struct io_sink *sinks, struct io_batch *b,
                 struct nrt_error *err) {
  while (!io_batch_full(b, l)) {
    const char *line;
    size_t len;
    int terminated;
    int rc = io_lines_next(l, &line, &len, &terminated, err);
    if (rc)
      return rc;
    if (!line) {
      b->at_end = 1;
      return NRT_OK;
    }
    if (terminated && len > 0 && line[len - 1] == '\r')
      len--; /* "\r\n" ends the line */
    rc = io_sink_str(&sinks[0], line, len, err);
    if (rc)
      return rc;
    b->rows++;
  }
  return NRT_OK;
}

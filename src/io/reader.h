/* Internal: opening a batch reader (nrt/io.h) on any source. */
#ifndef NRT_IO_READER_H
#define NRT_IO_READER_H

#include <stdbool.h>

#include "io/lines.h"
#include "nrt/io.h"

/* Opens a reader of `src` (a descriptor source is borrowed). `whole`: one batch holding the
 * whole input (the batch limits of the options are ignored). Errors: NRT_EINVAL for bad options,
 * NRT_ENOMEM. */
int io_reader_open(const struct io_source *src, const struct nrt_io_read_options *options,
                   bool whole, nrt_io_reader **out, struct nrt_error *err);

/* The reader's column names (NULL when it reads one unnamed column) and their count
 * (max(1, n_columns)). */
void io_reader_columns(const nrt_io_reader *r, const char *const **names, size_t *n);

#endif

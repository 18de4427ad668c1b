/* Helpers shared by the io tests: building columns, reading a buffer, writing to a string. */
#ifndef NRT_TESTS_IO_UTIL_H
#define NRT_TESTS_IO_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/io.h"
#include "support/check.h"

/* A string column from NUL-terminated values; NULL entries are null rows. */
static inline nrt_column *strings_column(const char *const *values, size_t n,
                                         enum nrt_col_type type) {
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK(nrt_col_builder_new(type, (int64_t)n, &b, NULL) == NRT_OK);
  for (size_t i = 0; i < n; i++) {
    if (values[i])
      nrt_col_builder_append_view(b, values[i], (int64_t)strlen(values[i]));
    else
      nrt_col_builder_append_null(b);
  }
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  return col;
}

/* Reads `text` with one column selected (name may be NULL); returns the column or NULL, with
 * the status in *rc and the message in err. */
static inline nrt_column *read_one(const char *text, size_t len, enum nrt_io_format format,
                                   const char *name, int *rc, struct nrt_error *err) {
  struct nrt_io_read_options o = {.format = format, .columns = &name, .n_columns = name ? 1 : 0};
  nrt_column *col = NULL;
  *rc = nrt_io_read_buffer(text, len, &o, &col, NULL, err);
  return col;
}

/* Writes `col` to a temporary file and returns its contents (malloc'ed, NUL-terminated). */
static inline char *write_to_string(const nrt_column *col, enum nrt_io_format format,
                                    const char *name, int *rc, struct nrt_error *err) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  if (!f)
    return NULL;
  struct nrt_io_write_options o = {.format = format, .column_name = name};
  *rc = nrt_io_write_stream(f, col, &o, err);
  long size = ftell(f);
  rewind(f);
  char *text = malloc((size_t)size + 1);
  size_t got = fread(text, 1, (size_t)size, f);
  text[got] = '\0';
  fclose(f);
  return text;
}

#endif

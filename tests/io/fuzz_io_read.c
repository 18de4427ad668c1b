/* libFuzzer harness for the readers: any bytes, read as text, csv (only column, a named one,
 * two named) and jsonl (bare values, a named member), must give a valid column or an error,
 * never a crash, and must leave nothing allocated. Columns read from csv and jsonl must also
 * survive a round trip through the writer of their format. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nrt/io.h"

/* Writes `col` as `format` and reads it back: the same rows, or abort. */
static void round_trip(nrt_column *col, enum nrt_io_format format) {
  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  if (!f)
    return;
  struct nrt_io_write_options w = {.format = format};
  int rc = nrt_io_write_stream(f, col, &w, NULL);
  fclose(f);
  if (rc != NRT_OK)
    abort();
  struct nrt_io_read_options r = {.format = format};
  nrt_column *back = NULL;
  struct nrt_error err = {0};
  if (nrt_io_read_buffer(text, len, &r, &back, NULL, &err) != NRT_OK ||
      !nrt_col_equal(col, back)) {
    fprintf(stderr, "round trip through %s failed: %s\n", nrt_io_format_name(format),
            err.message);
    abort();
  }
  nrt_col_release(back);
  free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static const char *const one[] = {"a"};
  static const char *const two[] = {"b", "a"};
  static const struct nrt_io_read_options ways[] = {
      {.format = NRT_IO_TEXT},
      {.format = NRT_IO_CSV},
      {.format = NRT_IO_CSV, .columns = one, .n_columns = 1},
      {.format = NRT_IO_CSV, .columns = two, .n_columns = 2, .string_type = NRT_COL_UTF8_VIEW},
      {.format = NRT_IO_JSONL},
      {.format = NRT_IO_JSONL, .columns = two, .n_columns = 2},
  };
  uint64_t live = nrt_stats_live_meminfos();
  for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
    nrt_column *cols[2] = {NULL, NULL};
    struct nrt_error err = {0};
    int rc = nrt_io_read_buffer((const char *)data, size, &ways[w], cols, NULL, &err);
    if (rc == NRT_OK && nrt_col_validate(cols[0], NULL) != NRT_OK)
      abort(); /* a reader made an invalid column */
    if (rc != NRT_OK && (cols[0] || err.message[0] == '\0'))
      abort(); /* an error must leave no column and say why */
    if (rc == NRT_OK && (w == 1 || w == 4))
      round_trip(cols[0], ways[w].format);
    nrt_col_release(cols[0]);
    nrt_col_release(cols[1]);
  }
  if (nrt_stats_live_meminfos() != live)
    abort();
  return 0;
}

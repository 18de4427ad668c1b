/* libFuzzer harness for the readers: any bytes, read as text, csv (only column, a named one,
 * two named) and jsonl (bare values, a named member), must give a column or an error, never
 * a crash, and must leave nothing allocated. */
#include <stdint.h>
#include <stdlib.h>

#include "nrt/io.h"

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
    nrt_col_release(cols[0]);
    nrt_col_release(cols[1]);
  }
  if (nrt_stats_live_meminfos() != live)
    abort();
  return 0;
}

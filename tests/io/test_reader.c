/* The batch reader and writer (nrt_io_reader, nrt_io_writer): batches of any size hold the
 * whole read's rows in order (text, csv with quoted line breaks, jsonl), their writes
 * concatenate to the whole write, errors in a later batch name the global line and byte and
 * stay sticky, jsonl types are fixed by the first batch, and every allocation failure is an
 * error without a leak. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "io_test_util.h"
#include "nrt/column_arrow.h"

/* Reads `text` in batches of `rows` rows (or `bytes` bytes) and checks each batch is the
 * matching slice of the whole read; returns the number of batches. */
static int64_t check_batches(const char *text, enum nrt_io_format format, const char *name,
                             int64_t rows, uint64_t bytes) {
  int rc;
  struct nrt_error err;
  nrt_column *whole = read_one(text, strlen(text), format, name, &rc, &err);
  CHECK_EQ_INT(rc, NRT_OK);
  if (!whole)
    return 0;
  struct nrt_io_read_options o = {.format = format, .columns = &name, .n_columns = name ? 1 : 0,
                                  .batch_rows = rows, .batch_bytes = bytes};
  nrt_io_reader *r = NULL;
  CHECK_EQ_INT(nrt_io_reader_open_buffer(text, strlen(text), &o, &r, &err), NRT_OK);
  int64_t at = 0, batches = 0;
  for (;;) {
    nrt_column *b = NULL;
    CHECK_EQ_INT(nrt_io_reader_next(r, &b, &err), NRT_OK);
    if (!b)
      break;
    CHECK(batches == 0 || b->length > 0);
    CHECK(rows == 0 || b->length <= rows);
    CHECK_EQ_INT(b->type, whole->type);
    for (int64_t i = 0; i < b->length && at + i < whole->length; i++) {
      CHECK_EQ_INT(nrt_col_is_valid(b, i), nrt_col_is_valid(whole, at + i));
      if (nrt_col_type_is_string(b->type) && nrt_col_is_valid(b, i)) {
        nrt_str x = nrt_col_str(b, i), y = nrt_col_str(whole, at + i);
        CHECK(x.len == y.len && memcmp(x.data, y.data, (size_t)x.len) == 0);
      } else if (b->type == NRT_COL_INT64 && nrt_col_is_valid(b, i)) {
        CHECK_EQ_INT(nrt_col_int64(b, i), nrt_col_int64(whole, at + i));
      }
    }
    at += b->length;
    batches++;
    struct nrt_io_read_info info;
    nrt_io_reader_info(r, &info);
    CHECK_EQ_INT(info.rows, at);
    nrt_col_release(b);
  }
  CHECK_EQ_INT(at, whole->length);
  nrt_col_release(whole);
  nrt_io_reader_free(r);
  return batches;
}

static void test_batches(void) {
  const char *text = "a\r\nb\n\nc caf\xc3\xa9\nlast";
  CHECK_EQ_INT(check_batches(text, NRT_IO_TEXT, NULL, 1, 0), 5);
  CHECK_EQ_INT(check_batches(text, NRT_IO_TEXT, NULL, 2, 0), 3);
  CHECK_EQ_INT(check_batches(text, NRT_IO_TEXT, NULL, 0, 0), 1);
  CHECK_EQ_INT(check_batches(text, NRT_IO_TEXT, NULL, 100, 1), 5); /* one line per batch */
  CHECK_EQ_INT(check_batches("", NRT_IO_TEXT, NULL, 1, 0), 1);      /* one empty batch */
  const char *csv = "x,y\n1,\"two\nlines\"\n,\"\"\n3,\"a,\"\"b\"\"\"\r\n4,end";
  for (int64_t rows = 1; rows <= 7; rows++)
    check_batches(csv, NRT_IO_CSV, "y", rows, 0);
  CHECK_EQ_INT(check_batches(csv, NRT_IO_CSV, "y", 0, 3), 4);
  CHECK_EQ_INT(check_batches("x\n", NRT_IO_CSV, NULL, 1, 0), 1);
  const char *jsonl = "{\"v\": 1}\n  \n{\"v\": null}\n{\"v\": -7}\n{\"v\": 12}\n";
  for (int64_t rows = 1; rows <= 5; rows++)
    check_batches(jsonl, NRT_IO_JSONL, "v", rows, 0);
  check_batches("1.5\n2\n3\n", NRT_IO_JSONL, NULL, 1, 0); /* an integer in a float column */
}

/* Reads in batches of `rows` until an error; checks its code and message. */
static void check_error(const char *text, enum nrt_io_format format, const char *name,
                        int64_t rows, int code, const char *message) {
  struct nrt_io_read_options o = {.format = format, .columns = &name, .n_columns = name ? 1 : 0,
                                  .batch_rows = rows};
  nrt_io_reader *r = NULL;
  struct nrt_error err;
  CHECK_EQ_INT(nrt_io_reader_open_buffer(text, strlen(text), &o, &r, &err), NRT_OK);
  int rc;
  nrt_column *b;
  int64_t batches = 0;
  while ((rc = nrt_io_reader_next(r, &b, &err)) == NRT_OK && b) {
    nrt_col_release(b);
    batches++;
  }
  CHECK(batches > 0);
  CHECK_EQ_INT(rc, code);
  if (!strstr(err.message, message))
    fprintf(stderr, "expected \"%s\" in \"%s\"\n", message, err.message);
  CHECK(strstr(err.message, message) != NULL);
  CHECK(b == NULL);
  /* sticky */
  memset(&err, 0, sizeof err);
  CHECK_EQ_INT(nrt_io_reader_next(r, &b, &err), code);
  CHECK(strstr(err.message, message) != NULL);
  nrt_io_reader_free(r);
}

static void test_errors(void) {
  check_error("a\nb\nc\n\xc3\n", NRT_IO_TEXT, NULL, 1, NRT_EILSEQ, "line 4, byte 6: invalid");
  check_error("x\n1\n\"2\n3\n", NRT_IO_CSV, NULL, 1, NRT_EPARSE,
              "line 3, byte 4: unterminated quoted field");
  check_error("1\n2\n3\n4.5\n", NRT_IO_JSONL, NULL, 2, NRT_EPARSE,
              "line 4, byte 6: value: found a real number in a column of integers (the "
              "stream's first batch fixed the column's type)");
  check_error("null\n2\n", NRT_IO_JSONL, NULL, 1, NRT_EPARSE,
              "line 2, byte 5: value: found an integer in a column of strings");
  check_error("1\n2\n{\n", NRT_IO_JSONL, NULL, 1, NRT_EPARSE, "line 3, byte");

  nrt_io_reader *r = (nrt_io_reader *)1;
  struct nrt_error err;
  struct nrt_io_read_options o = {.batch_rows = -1};
  CHECK_EQ_INT(nrt_io_reader_open_buffer("a", 1, &o, &r, &err), NRT_EINVAL);
  CHECK(r == NULL);
  CHECK_EQ_INT(nrt_io_reader_open_path("/nonexistent/nrt/in.txt", NULL, &r, &err), NRT_EIO);
  CHECK_EQ_INT(nrt_io_reader_open_fd(-1, NULL, &r, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_reader_next(NULL, NULL, &err), NRT_EINVAL);
  nrt_io_reader_free(NULL);
}

/* Writes `col` in batches of `rows` through a writer into a temporary file. */
static char *write_batches(nrt_column *col, enum nrt_io_format format, int64_t rows,
                           int *rc, struct nrt_error *err) {
  FILE *f = tmpfile();
  CHECK(f != NULL);
  struct nrt_io_write_options o = {.format = format, .column_name = "r"};
  nrt_io_writer *w = NULL;
  *rc = nrt_io_writer_open(fileno(f), &o, &w, err);
  for (int64_t at = 0; at < col->length && *rc == NRT_OK; at += rows) {
    int64_t n = col->length - at < rows ? col->length - at : rows;
    nrt_column *part = NULL;
    *rc = nrt_col_slice(col, at, n, &part, err);
    if (*rc == NRT_OK)
      *rc = nrt_io_writer_write(w, part, err);
    nrt_col_release(part);
  }
  int crc = nrt_io_writer_close(w, *rc ? NULL : err);
  if (*rc == NRT_OK)
    *rc = crc;
  long size = lseek(fileno(f), 0, SEEK_END);
  char *text = malloc((size_t)size + 1);
  size_t got = (size_t)pread(fileno(f), text, (size_t)size, 0);
  text[got] = '\0';
  fclose(f);
  return text;
}

static void test_writer(void) {
  const char *vals[] = {"a", NULL, "q\"uote", "", "é", "x,y", "z"};
  nrt_column *col = strings_column(vals, 7, NRT_COL_UTF8);
  static const enum nrt_io_format formats[] = {NRT_IO_TEXT, NRT_IO_CSV, NRT_IO_JSONL};
  for (size_t f = 0; f < 3; f++) {
    int rc = -1;
    struct nrt_error err;
    char *whole = write_to_string(col, formats[f], "r", &rc, &err);
    CHECK_EQ_INT(rc, NRT_OK);
    for (int64_t rows = 1; rows <= 8; rows++) {
      char *parts = write_batches(col, formats[f], rows, &rc, &err);
      CHECK_EQ_INT(rc, NRT_OK);
      CHECK_EQ_STR(parts, whole);
      free(parts);
    }
    free(whole);
  }
  nrt_col_release(col);
  /* no batch: a CSV file is its header alone */
  FILE *f = tmpfile();
  struct nrt_io_write_options o = {.format = NRT_IO_CSV};
  nrt_io_writer *w = NULL;
  CHECK_EQ_INT(nrt_io_writer_open(fileno(f), &o, &w, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_io_writer_close(w, NULL), NRT_OK);
  char buf[16] = {0};
  CHECK_EQ_INT(pread(fileno(f), buf, sizeof buf - 1, 0), 6);
  CHECK_EQ_STR(buf, "value\n");
  fclose(f);
  /* a line break in a later batch names its row of the whole output */
  const char *lines[] = {"a", "b", "c", "d\ne"};
  col = strings_column(lines, 4, NRT_COL_UTF8);
  int rc;
  struct nrt_error err;
  char *text = write_batches(col, NRT_IO_TEXT, 2, &rc, &err);
  CHECK_EQ_INT(rc, NRT_EINVAL);
  CHECK(strstr(err.message, "row 4: the value holds a line break") != NULL);
  CHECK_EQ_STR(text, "a\nb\n"); /* the first batch was written, nothing of the second */
  free(text);
  nrt_col_release(col);
  CHECK_EQ_INT(nrt_io_writer_open(-1, NULL, &w, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_writer_write(NULL, NULL, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_writer_close(NULL, &err), NRT_OK);
}

/* The reader as an Arrow stream: a struct schema, record batches whose children import back to
 * the rows read, a released array at the end, errors through get_last_error. */
static void test_arrow_stream(void) {
  const char *text = "{\"a\": \"x\", \"n\": 1}\n{\"a\": null, \"n\": 2}\n"
                     "{\"a\": \"z\", \"n\": 3}\n";
  const char *names[] = {"n", "a"};
  struct nrt_io_read_options o = {.format = NRT_IO_JSONL, .columns = names, .n_columns = 2,
                                  .batch_rows = 2};
  nrt_io_reader *r = NULL;
  CHECK_EQ_INT(nrt_io_reader_open_buffer(text, strlen(text), &o, &r, NULL), NRT_OK);
  struct ArrowArrayStream stream;
  CHECK_EQ_INT(nrt_io_reader_export_stream(r, &stream, NULL), NRT_OK);
  struct ArrowSchema schema;
  CHECK_EQ_INT(stream.get_schema(&stream, &schema), 0);
  CHECK_EQ_STR(schema.format, "+s");
  CHECK_EQ_INT(schema.n_children, 2);
  CHECK_EQ_STR(schema.children[0]->name, "n");
  CHECK_EQ_STR(schema.children[0]->format, "l");
  CHECK_EQ_STR(schema.children[1]->name, "a");
  CHECK_EQ_STR(schema.children[1]->format, "u");
  int64_t rows = 0, batches = 0;
  for (;;) {
    struct ArrowArray batch;
    CHECK_EQ_INT(stream.get_next(&stream, &batch), 0);
    if (!batch.release)
      break;
    CHECK_EQ_INT(batch.n_children, 2);
    nrt_column *n = NULL, *a = NULL;
    CHECK_EQ_INT(nrt_col_import_arrow(batch.children[0], "l", &n, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_import_arrow(batch.children[1], "u", &a, NULL), NRT_OK);
    for (int64_t i = 0; n && a && i < batch.length; i++) {
      CHECK_EQ_INT(nrt_col_int64(n, i), rows + i + 1);
      CHECK_EQ_INT(nrt_col_is_valid(a, i), rows + i != 1);
    }
    rows += batch.length;
    batches++;
    batch.release(&batch);
    nrt_col_release(n);
    nrt_col_release(a);
  }
  CHECK_EQ_INT(rows, 3);
  CHECK_EQ_INT(batches, 2);
  CHECK(stream.get_last_error(&stream) == NULL);
  schema.release(&schema);
  stream.release(&stream);

  CHECK_EQ_INT(nrt_io_reader_open_buffer("x\n1\n\"2\n", 7, &(struct nrt_io_read_options){
                                             .format = NRT_IO_CSV, .batch_rows = 1},
                                         &r, NULL),
               NRT_OK);
  CHECK_EQ_INT(nrt_io_reader_export_stream(r, &stream, NULL), NRT_OK);
  struct ArrowArray batch;
  CHECK_EQ_INT(stream.get_next(&stream, &batch), 0);
  CHECK(batch.release != NULL);
  batch.release(&batch);
  CHECK(stream.get_next(&stream, &batch) != 0);
  CHECK(strstr(stream.get_last_error(&stream), "unterminated quoted field") != NULL);
  stream.release(&stream);
}

struct trial {
  const char *text;
  enum nrt_io_format format;
  const char *name;
};

static int reader_trial(void *ctx) {
  const struct trial *t = ctx;
  struct nrt_io_read_options o = {.format = t->format, .columns = &t->name,
                                  .n_columns = t->name ? 1 : 0, .batch_rows = 2};
  nrt_io_reader *r = NULL;
  int rc = nrt_io_reader_open_buffer(t->text, strlen(t->text), &o, &r, NULL);
  nrt_column *b = NULL;
  while (rc == NRT_OK && (rc = nrt_io_reader_next(r, &b, NULL)) == NRT_OK && b)
    nrt_col_release(b);
  nrt_io_reader_free(r);
  return rc;
}

static int writer_trial(void *ctx) {
  nrt_column *col = ctx;
  int rc;
  char *text = write_batches(col, NRT_IO_CSV, 2, &rc, NULL);
  free(text);
  return rc;
}

static int stream_trial(void *ctx) {
  (void)ctx;
  const char *text = "{\"a\": \"x\", \"n\": 1}\n{\"a\": null, \"n\": 2}\n"
                     "{\"a\": \"z\", \"n\": 3}\n";
  const char *names[] = {"n", "a"};
  struct nrt_io_read_options o = {.format = NRT_IO_JSONL, .columns = names, .n_columns = 2,
                                  .batch_rows = 2};
  nrt_io_reader *r = NULL;
  int rc = nrt_io_reader_open_buffer(text, strlen(text), &o, &r, NULL);
  if (rc)
    return rc;
  struct ArrowArrayStream stream;
  rc = nrt_io_reader_export_stream(r, &stream, NULL);
  if (rc) {
    nrt_io_reader_free(r);
    return rc;
  }
  struct ArrowSchema schema;
  rc = stream.get_schema(&stream, &schema) ? NRT_ENOMEM : NRT_OK;
  if (rc == NRT_OK)
    schema.release(&schema);
  while (rc == NRT_OK) {
    struct ArrowArray batch;
    if (stream.get_next(&stream, &batch)) {
      rc = NRT_ENOMEM;
      break;
    }
    if (!batch.release)
      break;
    batch.release(&batch);
  }
  stream.release(&stream);
  return rc;
}

static void test_failure_injection(void) {
  CHECK(check_every_allocation_failure("stream", stream_trial, NULL) > 0);
  struct trial trials[] = {
      {"a\nb\nc\nd\ne\n", NRT_IO_TEXT, NULL},
      {"x,y\n1,\"a\nb\"\n2,c\n3,d\n", NRT_IO_CSV, "y"},
      {"{\"v\": 1}\n{\"v\": 2}\n{\"v\": null}\n", NRT_IO_JSONL, "v"},
  };
  for (size_t i = 0; i < sizeof trials / sizeof trials[0]; i++)
    CHECK(check_every_allocation_failure("reader", reader_trial, &trials[i]) > 0);
  const char *vals[] = {"a", NULL, "b", "c"};
  nrt_column *col = strings_column(vals, 4, NRT_COL_UTF8);
  CHECK(check_every_allocation_failure("writer", writer_trial, col) > 0);
  nrt_col_release(col);
}

int main(void) {
  struct check_live before = check_live_now();
  test_batches();
  test_errors();
  test_writer();
  test_arrow_stream();
  test_failure_injection();
  CHECK_NO_LEAK(before);
  return check_finish("test_io_reader");
}

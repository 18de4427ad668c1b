/* io: every kind of bad input gives its error with line and byte offset; bad options, missing
 * files and failing writes are errors; failure injection over every reader and writer. */
#include <unistd.h>

#include "io_test_util.h"

static void expect_error(const char *text, size_t len, enum nrt_io_format format,
                         const char *name, int code, const char *message) {
  int rc;
  struct nrt_error err = {0};
  struct check_live before = check_live_now();
  nrt_column *col = read_one(text, len, format, name, &rc, &err);
  CHECK_EQ_INT(rc, code);
  CHECK(col == NULL);
  CHECK_EQ_STR(err.message, message);
  CHECK_NO_LEAK(before);
}
#define EXPECT_ERROR(text, format, name, code, message)                                      \
  expect_error(text, sizeof(text) - 1, format, name, code, message)

static void test_bad_utf8(void) {
  EXPECT_ERROR("ab\nc\xff" "d\n", NRT_IO_TEXT, NULL, NRT_EILSEQ, "line 2, byte 4: invalid UTF-8 (byte 0xff: invalid start byte)");
  EXPECT_ERROR("ok\n\xc0\x80\n", NRT_IO_TEXT, NULL, NRT_EILSEQ, "line 2, byte 3: invalid UTF-8 (byte 0xc0: invalid start byte)");
  EXPECT_ERROR("\xed\xa0\x80", NRT_IO_TEXT, NULL, NRT_EILSEQ, "line 1, byte 0: invalid UTF-8 (byte 0xed: invalid continuation byte)");
  EXPECT_ERROR("abc\ndef\xe6\xbc", NRT_IO_TEXT, NULL, NRT_EILSEQ, "line 2, byte 7: invalid UTF-8 (byte 0xe6: unexpected end of data)");
  EXPECT_ERROR("h\n\"multi\nline \xf8 field\"\n", NRT_IO_CSV, NULL, NRT_EILSEQ,
               "line 3, byte 14: invalid UTF-8 (byte 0xf8: invalid start byte)");
  EXPECT_ERROR("{\"a\": \"x\"}\n{\"a\": \"\xc3\"}\n", NRT_IO_JSONL, "a", NRT_EILSEQ,
               "line 2, byte 18: invalid UTF-8 (byte 0xc3: invalid continuation byte)");
}

static void test_bad_csv(void) {
  EXPECT_ERROR("a\n\"unterminated\nstill open\n", NRT_IO_CSV, NULL, NRT_EPARSE,
               "line 2, byte 2: unterminated quoted field in the record starting here");
  EXPECT_ERROR("a\nok\n\"ab\"c\n", NRT_IO_CSV, NULL, NRT_EPARSE,
               "line 3, byte 9: malformed quoted field (a quote must end its field, and a quote "
               "inside a quoted field is written \"\")");
  EXPECT_ERROR("a\nx\"y\n", NRT_IO_CSV, NULL, NRT_EPARSE,
               "line 2, byte 3: malformed quoted field (a quote must end its field, and a quote "
               "inside a quoted field is written \"\")");
  EXPECT_ERROR("a,b\n1,2\n1,2,3\n", NRT_IO_CSV, "a", NRT_EPARSE,
               "line 3, byte 8: record has more fields than the header (2)");
  EXPECT_ERROR("a,b\n1,2\n1\n", NRT_IO_CSV, "b", NRT_EPARSE,
               "line 3, byte 8: record has 1 field, the header has 2");
  EXPECT_ERROR("a,b\n1,2\n", NRT_IO_CSV, "z", NRT_EPARSE,
               "line 1, byte 0: missing column \"z\" (the header has: a, b)");
  EXPECT_ERROR("a,b\n1,2\n", NRT_IO_CSV, NULL, NRT_EPARSE,
               "line 1, byte 0: the header has 2 columns (a, b): choose one by name");
  EXPECT_ERROR("a,b,a\n1,2,3\n", NRT_IO_CSV, "a", NRT_EPARSE,
               "line 1, byte 0: column \"a\" appears twice in the header");
  EXPECT_ERROR("", NRT_IO_CSV, NULL, NRT_EPARSE,
               "line 1, byte 0: empty input: the CSV header is missing");
}

static void test_bad_jsonl(void) {
  EXPECT_ERROR("{\"a\": 1}\n{\"a\": }\n", NRT_IO_JSONL, "a", NRT_EPARSE,
               "line 2, byte 16: invalid JSON: unexpected token near '}'");
  EXPECT_ERROR("1\n2 3\n", NRT_IO_JSONL, NULL, NRT_EPARSE,
               "line 2, byte 5: invalid JSON: end of file expected near '3'");
  EXPECT_ERROR("{\"a\": 1}\n{\"b\": 2}\n", NRT_IO_JSONL, "a", NRT_EPARSE,
               "line 2, byte 9: missing column \"a\"");
  EXPECT_ERROR("1\n", NRT_IO_JSONL, "a", NRT_EPARSE,
               "line 1, byte 0: expected an object with member \"a\", found an integer");
  EXPECT_ERROR("1\n[1, 2]\n", NRT_IO_JSONL, NULL, NRT_EPARSE,
               "line 2, byte 2: value: found an array; only strings, numbers, booleans and null "
               "are supported");
  EXPECT_ERROR("{\"a\": 1}\n", NRT_IO_JSONL, NULL, NRT_EPARSE,
               "line 1, byte 0: value: found an object; only strings, numbers, booleans and "
               "null are supported (name a column to read objects)");
  EXPECT_ERROR("{\"a\": {\"b\": 1}}\n", NRT_IO_JSONL, "a", NRT_EPARSE,
               "line 1, byte 0: column \"a\": found an object; only strings, numbers, booleans "
               "and null are supported");
  EXPECT_ERROR("\"x\"\nnull\n3\n", NRT_IO_JSONL, NULL, NRT_EPARSE,
               "line 3, byte 9: value: found an integer in a column of strings");
  EXPECT_ERROR("{\"a\": 1}\n{\"a\": true}\n", NRT_IO_JSONL, "a", NRT_EPARSE,
               "line 2, byte 9: column \"a\": found a boolean in a column of integers");
  EXPECT_ERROR("1.5\n\"s\"\n", NRT_IO_JSONL, NULL, NRT_EPARSE,
               "line 2, byte 4: value: found a string in a column of numbers");
  EXPECT_ERROR("99999999999999999999\n", NRT_IO_JSONL, NULL, NRT_EPARSE,
               "line 1, byte 20: invalid JSON: too big integer near '99999999999999999999'");
}

static void test_bad_options_and_files(void) {
  struct nrt_error err = {0};
  nrt_column *col = (nrt_column *)1;
  const char *name = "x";
  struct nrt_io_read_options o = {.format = NRT_IO_TEXT, .columns = &name, .n_columns = 1};
  CHECK_EQ_INT(nrt_io_read_buffer("a\n", 2, &o, &col, NULL, &err), NRT_EINVAL);
  CHECK(col == NULL);
  o = (struct nrt_io_read_options){.format = (enum nrt_io_format)9};
  CHECK_EQ_INT(nrt_io_read_buffer("a\n", 2, &o, &col, NULL, &err), NRT_EINVAL);
  o = (struct nrt_io_read_options){.string_type = NRT_COL_INT64};
  CHECK_EQ_INT(nrt_io_read_buffer("a\n", 2, &o, &col, NULL, &err), NRT_EINVAL);
  col = (nrt_column *)1;
  CHECK_EQ_INT(nrt_io_read_path("/nonexistent/nrt/input.txt", NULL, &col, NULL, &err), NRT_EIO);
  CHECK(col == NULL);
  CHECK_EQ_STR(err.message, "/nonexistent/nrt/input.txt: No such file or directory");

  enum nrt_io_format f;
  CHECK(nrt_io_format_parse("jsonl", &f, NULL) == NRT_OK && f == NRT_IO_JSONL);
  CHECK(nrt_io_format_parse("csv", &f, NULL) == NRT_OK && f == NRT_IO_CSV);
  CHECK_EQ_INT(nrt_io_format_parse("xml", &f, &err), NRT_EINVAL);
  CHECK_EQ_STR(err.message, "unknown format \"xml\" (expected text, csv or jsonl)");
  CHECK_EQ_STR(nrt_io_format_name(NRT_IO_TEXT), "text");

  /* Writes that fail: a full device, a directory, a NULL column. */
  const char *vals[] = {"a", "b"};
  nrt_column *s = strings_column(vals, 2, NRT_COL_UTF8);
  CHECK_EQ_INT(nrt_io_write_path("/dev/full", s, NULL, &err), NRT_EIO);
  CHECK_EQ_STR(err.message, "write error: No space left on device");
  CHECK_EQ_INT(nrt_io_write_path("/", s, NULL, &err), NRT_EIO);
  CHECK_EQ_INT(nrt_io_write_path("/tmp/x", NULL, NULL, &err), NRT_EINVAL);
  FILE *full = fopen("/dev/full", "w");
  if (full) {
    CHECK_EQ_INT(nrt_io_write_stream(full, s, NULL, &err), NRT_EIO);
    fclose(full);
  }
  nrt_col_release(s);
}

/* Failure injection: every allocation of every reader and writer may fail. */
struct read_trial {
  const char *text;
  enum nrt_io_format format;
  const char *name;
};

static int read_trial(void *arg) {
  const struct read_trial *t = arg;
  int rc;
  nrt_column *col = read_one(t->text, strlen(t->text), t->format, t->name, &rc, NULL);
  nrt_col_release(col);
  return rc;
}

static int write_trial(void *arg) {
  nrt_column *col = arg;
  enum nrt_io_format formats[] = {NRT_IO_TEXT, NRT_IO_CSV, NRT_IO_JSONL};
  for (int k = 0; k < 3; k++) {
    struct nrt_io_write_options o = {.format = formats[k], .column_name = "c"};
    int rc = nrt_io_write_path("/dev/null", col, &o, NULL);
    if (rc)
      return rc;
  }
  return NRT_OK;
}

static void test_failure_injection(void) {
  struct read_trial trials[] = {
      {"one\ntwo\n\nthree é\n", NRT_IO_TEXT, NULL},
      {"a,b\n1,\"long quoted field with\nnewline and \"\"quotes\"\"\"\n,x\n", NRT_IO_CSV, "b"},
      {"{\"v\": \"s\"}\n{\"v\": null}\n{\"v\": \"t\"}\n", NRT_IO_JSONL, "v"},
      {"null\n1\n2.5\n3\n", NRT_IO_JSONL, NULL},
  };
  for (size_t i = 0; i < sizeof trials / sizeof trials[0]; i++)
    CHECK(check_every_allocation_failure("read", read_trial, &trials[i]) > 0);
  const char *vals[] = {"a", NULL, "q\"uote", "é"};
  nrt_column *col = strings_column(vals, 4, NRT_COL_UTF8);
  CHECK(check_every_allocation_failure("write", write_trial, col) > 0);
  nrt_col_release(col);
}

int main(void) {
  struct check_live before = check_live_now();
  test_bad_utf8();
  test_bad_csv();
  test_bad_jsonl();
  test_bad_options_and_files();
  test_failure_injection();
  CHECK_NO_LEAK(before);
  return check_finish("test_io_errors");
}

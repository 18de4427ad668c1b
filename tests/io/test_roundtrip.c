/* io: the format rules of nrt/io.h and round trips through every format (nulls, embedded
 * newlines and quotes, unicode), every source (buffer, FILE*, fd, path), every string layout,
 * long lines and fields (streaming), and the utf8 -> large_utf8 segment switch. */
#define _POSIX_C_SOURCE 200809L /* mkstemp, pipe */
#include <pthread.h>
#include <unistd.h>

#include "io/sink.h"
#include "io_test_util.h"

static const char *const tricky[] = {
    "plain", "", NULL, "with,comma", "say \"hi\"", "multi\nline", "crlf\r\ninside",
    "unicode é 漢字 ß 🎉", " spaces kept ", "tab\there", "back\\slash", "ctrl \x01\x1f end",
    "\"", ",", NULL, "trailing cr\r", "ü"};
#define N_TRICKY (sizeof tricky / sizeof tricky[0])

/* Checks that `text` read as `format` gives exactly `want` (string values, NULL = null). */
static void expect_rows(const char *text, enum nrt_io_format format, const char *name,
                        const char *const *want, size_t n) {
  int rc;
  struct nrt_error err = {0};
  nrt_column *col = read_one(text, strlen(text), format, name, &rc, &err);
  CHECK_EQ_INT(rc, NRT_OK);
  if (rc) {
    fprintf(stderr, "  reading %s: %s\n", text, err.message);
    return;
  }
  nrt_column *expect = strings_column(want, n, NRT_COL_UTF8);
  CHECK(nrt_col_equal(col, expect));
  if (!nrt_col_equal(col, expect))
    fprintf(stderr, "  unexpected rows reading \"%s\" (%lld rows)\n", text, (long long)col->length);
  nrt_col_release(expect);
  nrt_col_release(col);
}

static void test_text_rules(void) {
  const char *ab[] = {"a", "b"}, *a_empty_b[] = {"a", "", "b"}, *empty[] = {""},
             *cr[] = {"a\rb", "c"};
  expect_rows("a\nb\n", NRT_IO_TEXT, NULL, ab, 2);
  expect_rows("a\nb", NRT_IO_TEXT, NULL, ab, 2);
  expect_rows("a\r\nb\r\n", NRT_IO_TEXT, NULL, ab, 2);
  expect_rows("a\n\nb\n", NRT_IO_TEXT, NULL, a_empty_b, 3);
  expect_rows("\n", NRT_IO_TEXT, NULL, empty, 1);
  expect_rows("", NRT_IO_TEXT, NULL, NULL, 0);
  expect_rows("a\rb\nc", NRT_IO_TEXT, NULL, cr, 2);
}

static void test_csv_rules(void) {
  const char *nulls[] = {"x", NULL, "", "y"};
  expect_rows("col\nx\n\n\"\"\ny\n", NRT_IO_CSV, NULL, nulls, 4);
  expect_rows("col\r\nx\r\n\r\n\"\"\r\ny", NRT_IO_CSV, "col", nulls, 4);
  const char *spaces[] = {" a ", "b c"};
  expect_rows("h\n a \nb c\n", NRT_IO_CSV, NULL, spaces, 2);
  const char *quoted[] = {"1,2", "say \"x\"", "two\nlines", "cr\r\nlf", "blank\n\nline"};
  expect_rows("v\n\"1,2\"\n\"say \"\"x\"\"\"\n\"two\nlines\"\n\"cr\r\nlf\"\n\"blank\n\nline\"\n",
              NRT_IO_CSV, "v", quoted, 5);
  const char *second[] = {"2", NULL, "6"};
  expect_rows("a,b,c\n1,2,3\n4,,5\n,6,\n", NRT_IO_CSV, "b", second, 3);

  /* Several columns, in the requested order, one of them twice. */
  const char *names[] = {"c", "a", "c"};
  struct nrt_io_read_options o = {.format = NRT_IO_CSV, .columns = names, .n_columns = 3};
  nrt_column *cols[3];
  const char *text = "a,b,c\n1,2,3\n4,5,\n";
  struct nrt_io_read_info info;
  CHECK(nrt_io_read_buffer(text, strlen(text), &o, cols, &info, NULL) == NRT_OK);
  CHECK_EQ_INT(info.rows, 2);
  CHECK_EQ_INT(info.lines, 3);
  CHECK_EQ_INT(info.bytes, strlen(text));
  const char *c[] = {"3", NULL}, *a[] = {"1", "4"};
  nrt_column *wc = strings_column(c, 2, NRT_COL_UTF8), *wa = strings_column(a, 2, NRT_COL_UTF8);
  CHECK(nrt_col_equal(cols[0], wc) && nrt_col_equal(cols[1], wa) && nrt_col_equal(cols[2], wc));
  nrt_col_release(wc);
  nrt_col_release(wa);
  for (int i = 0; i < 3; i++)
    nrt_col_release(cols[i]);
}

/* A jsonl column's type follows its values. */
static void test_jsonl_typing(void) {
  struct {
    const char *text;
    enum nrt_col_type type;
    int64_t nulls;
  } cases[] = {
      {"1\n-2\nnull\n9223372036854775807\n", NRT_COL_INT64, 1},
      {"1\n2.5\nnull\n", NRT_COL_FLOAT64, 1},
      {"null\n1e3\n7\n", NRT_COL_FLOAT64, 1},
      {"true\nnull\nfalse\n", NRT_COL_BOOL, 1},
      {"null\nnull\n", NRT_COL_UTF8, 2},
      {"\"a\"\n\n  \nnull\n\"\\u00e9\\n\"\n", NRT_COL_UTF8, 1},
  };
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    int rc;
    struct nrt_error err = {0};
    nrt_column *col = read_one(cases[k].text, strlen(cases[k].text), NRT_IO_JSONL, NULL, &rc, &err);
    CHECK_EQ_INT(rc, NRT_OK);
    if (!col)
      continue;
    CHECK_EQ_INT(col->type, cases[k].type);
    CHECK_EQ_INT(col->null_count, cases[k].nulls);
    if (k == 1)
      CHECK(nrt_col_float64(col, 0) == 1.0 && nrt_col_float64(col, 1) == 2.5);
    if (k == 0)
      CHECK(nrt_col_int64(col, 3) == INT64_MAX && nrt_col_int64(col, 1) == -2);
    if (k == 5) {
      nrt_str s = nrt_col_str(col, 2);
      CHECK(s.len == 3 && memcmp(s.data, "\xc3\xa9\n", 3) == 0);
    }
    nrt_col_release(col);
  }
  const char *names[] = {"s", "n"};
  struct nrt_io_read_options o = {.format = NRT_IO_JSONL, .columns = names, .n_columns = 2};
  nrt_column *cols[2];
  const char *text = "{\"n\": 1, \"s\": \"x\", \"other\": [1]}\n{\"s\": null, \"n\": 2.5}\n";
  CHECK(nrt_io_read_buffer(text, strlen(text), &o, cols, NULL, NULL) == NRT_OK);
  CHECK(cols[0]->type == NRT_COL_UTF8 && cols[0]->null_count == 1);
  CHECK(cols[1]->type == NRT_COL_FLOAT64 && nrt_col_float64(cols[1], 0) == 1.0);
  nrt_col_release(cols[0]);
  nrt_col_release(cols[1]);
}

/* Round trip of the tricky strings through csv and jsonl (objects and bare values), in every
 * string layout. */
static void test_string_round_trips(void) {
  enum nrt_col_type layouts[] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8, NRT_COL_UTF8_VIEW};
  for (size_t l = 0; l < 3; l++) {
    nrt_column *col = strings_column(tricky, N_TRICKY, layouts[l]);
    struct {
      enum nrt_io_format format;
      const char *name;
    } ways[] = {{NRT_IO_CSV, "col"}, {NRT_IO_CSV, NULL}, {NRT_IO_JSONL, "col"}, {NRT_IO_JSONL, NULL}};
    for (size_t w = 0; w < 4; w++) {
      char path[] = "/tmp/nrt_io_rt_XXXXXX";
      int fd = mkstemp(path);
      CHECK(fd >= 0);
      close(fd);
      struct nrt_io_write_options wo = {.format = ways[w].format, .column_name = ways[w].name};
      struct nrt_error err = {0};
      CHECK(nrt_io_write_path(path, col, &wo, &err) == NRT_OK);
      const char *name = ways[w].name;
      struct nrt_io_read_options ro = {.format = ways[w].format, .columns = &name,
                                       .n_columns = name ? 1 : 0, .string_type = layouts[l]};
      nrt_column *back = NULL;
      int rc = nrt_io_read_path(path, &ro, &back, NULL, &err);
      CHECK_EQ_INT(rc, NRT_OK);
      if (rc)
        fprintf(stderr, "  %s: %s\n", nrt_io_format_name(ways[w].format), err.message);
      CHECK(back && back->type == layouts[l] && nrt_col_equal(back, col));
      nrt_col_release(back);
      unlink(path);
    }
    nrt_col_release(col);
  }
  /* Text: no nulls and no line breaks, so only values without them survive. */
  const char *lines[] = {"plain", "", "with,comma", "say \"hi\"", "unicode é 漢字 ß 🎉", "\ttab"};
  nrt_column *col = strings_column(lines, 6, NRT_COL_UTF8);
  int rc;
  char *text = write_to_string(col, NRT_IO_TEXT, NULL, &rc, NULL);
  CHECK_EQ_INT(rc, NRT_OK);
  expect_rows(text, NRT_IO_TEXT, NULL, lines, 6);
  free(text);
  nrt_col_release(col);
}

/* The exact text written for every column type. */
static void test_written_text(void) {
  int rc;
  const char *vals[] = {"a\"b", NULL, "", "x,y", "line\nbreak", "é\x01"};
  nrt_column *s = strings_column(vals, 6, NRT_COL_UTF8_VIEW);
  char *t = write_to_string(s, NRT_IO_CSV, "name", &rc, NULL);
  CHECK_EQ_STR(t, "name\n\"a\"\"b\"\n\n\"\"\n\"x,y\"\n\"line\nbreak\"\né\x01\n");
  free(t);
  t = write_to_string(s, NRT_IO_JSONL, "name", &rc, NULL);
  CHECK_EQ_STR(t, "{\"name\": \"a\\\"b\"}\n{\"name\": null}\n{\"name\": \"\"}\n{\"name\": \"x,y\"}\n"
                  "{\"name\": \"line\\nbreak\"}\n{\"name\": \"é\\u0001\"}\n");
  free(t);
  /* Text cannot hold a line break in a value: an error naming the row, nothing written. */
  struct nrt_error err = {0};
  t = write_to_string(s, NRT_IO_TEXT, NULL, &rc, &err);
  CHECK_EQ_INT(rc, NRT_EINVAL);
  CHECK(strstr(err.message, "row 5: the value holds a line break") != NULL);
  CHECK_EQ_STR(t, "");
  free(t);
  nrt_col_release(s);
  const char *one_line[] = {"a\"b", NULL, "", "x,y", "a\rb", "é\x01"};
  for (int type = NRT_COL_UTF8; type <= NRT_COL_UTF8_VIEW; type++) {
    s = strings_column(one_line, 6, (enum nrt_col_type)type);
    t = write_to_string(s, NRT_IO_TEXT, NULL, &rc, NULL);
    CHECK_EQ_STR(t, "a\"b\n\n\nx,y\na\rb\né\x01\n");
    free(t);
    nrt_col_release(s);
  }
  /* A value ending with "\r" would lose it on reading (the reader takes "\r\n" as the line
   * end); the contiguous layouts are searched whole first, then row by row. */
  const char *cr_end[] = {"ok", "a\r", "b\nc"};
  for (int type = NRT_COL_UTF8; type <= NRT_COL_UTF8_VIEW; type++) {
    s = strings_column(cr_end, 3, (enum nrt_col_type)type);
    t = write_to_string(s, NRT_IO_TEXT, NULL, &rc, &err);
    CHECK_EQ_INT(rc, NRT_EINVAL);
    CHECK(strstr(err.message, "row 2: the value ends with a carriage return") != NULL);
    free(t);
    nrt_col_release(s);
  }

  nrt_col_builder *b;
  nrt_column *col;
  CHECK(nrt_col_builder_new(NRT_COL_FLOAT64, 0, &b, NULL) == NRT_OK);
  double fs[] = {1.0, 0.1, 1e16, -0.0, 1e-5, 0.0001, 123456789012345.6, 1.0 / 3, 5e-324,
                 1.7976931348623157e308, 2.5e-7, 1e22, 100.0};
  for (size_t i = 0; i < sizeof fs / sizeof fs[0]; i++)
    nrt_col_builder_append_float64(b, fs[i]);
  nrt_col_builder_append_null(b);
  nrt_col_builder_append_float64(b, 1.0 / 0.0);
  nrt_col_builder_append_float64(b, -1.0 / 0.0);
  nrt_col_builder_append_float64(b, 0.0 / 0.0);
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  /* Python: print(*map(repr, [...]), sep="\n") */
  const char *py = "1.0\n0.1\n1e+16\n-0.0\n1e-05\n0.0001\n123456789012345.6\n0.3333333333333333\n"
                   "5e-324\n1.7976931348623157e+308\n2.5e-07\n1e+22\n100.0\n";
  char want[512];
  snprintf(want, sizeof want, "%s\ninf\n-inf\nnan\n", py);
  t = write_to_string(col, NRT_IO_TEXT, NULL, &rc, NULL);
  CHECK_EQ_STR(t, want);
  free(t);
  snprintf(want, sizeof want, "%snull\nInfinity\n-Infinity\nNaN\n", py);
  t = write_to_string(col, NRT_IO_JSONL, NULL, &rc, NULL);
  CHECK_EQ_STR(t, want);
  free(t);
  nrt_col_release(col);

  CHECK(nrt_col_builder_new(NRT_COL_BOOL, 0, &b, NULL) == NRT_OK);
  nrt_col_builder_append_bool(b, true);
  nrt_col_builder_append_null(b);
  nrt_col_builder_append_bool(b, false);
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  t = write_to_string(col, NRT_IO_CSV, NULL, &rc, NULL);
  CHECK_EQ_STR(t, "value\nTrue\n\nFalse\n");
  free(t);
  t = write_to_string(col, NRT_IO_JSONL, "ok", &rc, NULL);
  CHECK_EQ_STR(t, "{\"ok\": true}\n{\"ok\": null}\n{\"ok\": false}\n");
  free(t);
  nrt_col_release(col);

  CHECK(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL) == NRT_OK);
  nrt_col_builder_append_int64(b, INT64_MIN);
  nrt_col_builder_append_int64(b, 0);
  nrt_col_builder_append_null(b);
  nrt_col_builder_append_int64(b, 42);
  CHECK(nrt_col_builder_finish(b, &col, NULL) == NRT_OK);
  t = write_to_string(col, NRT_IO_TEXT, NULL, &rc, NULL);
  CHECK_EQ_STR(t, "-9223372036854775808\n0\n\n42\n");
  free(t);
  /* Numbers round-trip through jsonl with their type. */
  t = write_to_string(col, NRT_IO_JSONL, NULL, &rc, NULL);
  nrt_column *back = read_one(t, strlen(t), NRT_IO_JSONL, NULL, &rc, NULL);
  CHECK(back && back->type == NRT_COL_INT64 && nrt_col_equal(back, col));
  nrt_col_release(back);
  free(t);
  nrt_col_release(col);
}

struct pipe_writer {
  int fd;
  const char *text;
  size_t len;
};

static void *write_pipe(void *arg) {
  struct pipe_writer *w = arg;
  size_t done = 0;
  while (done < w->len) {
    ssize_t n = write(w->fd, w->text + done, w->len - done);
    if (n <= 0)
      break;
    done += (size_t)n;
  }
  close(w->fd);
  return NULL;
}

/* Big inputs through a pipe (more than one read block), with a line and a quoted field longer
 * than the read block and than libcsv's piece size. */
static void test_streaming(void) {
  size_t rows = 20000, big = 300000;
  size_t cap = rows * 16 + big + 64;
  char *text = malloc(cap);
  size_t n = (size_t)snprintf(text, cap, "h\n");
  for (size_t i = 0; i < rows; i++) {
    if (i == rows / 2) {
      text[n++] = '"';
      for (size_t k = 0; k < big; k++)
        text[n++] = k % 1000 == 999 ? '\n' : (char)('a' + k % 26);
      text[n++] = '"';
      text[n++] = '\n';
      continue;
    }
    n += (size_t)snprintf(text + n, cap - n, "row %zu\n", i);
  }
  for (int format = NRT_IO_TEXT; format <= NRT_IO_CSV; format++) {
    int fds[2];
    CHECK(pipe(fds) == 0);
    struct pipe_writer w = {fds[1], text, n};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, write_pipe, &w) == 0);
    struct nrt_io_read_options o = {.format = format};
    nrt_column *col = NULL;
    struct nrt_error err = {0};
    int rc = nrt_io_read_fd(fds[0], &o, &col, NULL, &err);
    pthread_join(t, NULL);
    close(fds[0]);
    CHECK_EQ_INT(rc, NRT_OK);
    if (rc) {
      fprintf(stderr, "  streaming %d: %s\n", format, err.message);
      continue;
    }
    if (format == NRT_IO_CSV) {
      CHECK_EQ_INT(col->length, rows);
      nrt_str s = nrt_col_str(col, (int64_t)rows / 2);
      CHECK_EQ_INT(s.len, big);
      CHECK(s.len == (int64_t)big && s.data[998] == 'a' + 998 % 26 && s.data[999] == '\n');
      s = nrt_col_str(col, 7);
      CHECK(s.len == 5 && memcmp(s.data, "row 7", 5) == 0);
    } else {
      CHECK_EQ_INT(col->length, rows + 1 + big / 1000);
    }
    nrt_col_release(col);
  }
  /* FILE* source. */
  FILE *f = tmpfile();
  fwrite(text, 1, n, f);
  rewind(f);
  struct nrt_io_read_options o = {.format = NRT_IO_CSV, .string_type = NRT_COL_UTF8_VIEW};
  nrt_column *col = NULL;
  CHECK(nrt_io_read_stream(f, &o, &col, NULL, NULL) == NRT_OK);
  CHECK(col && col->length == (int64_t)rows && col->type == NRT_COL_UTF8_VIEW);
  nrt_col_release(col);
  fclose(f);

  /* A utf8 column that would pass its offset limit continues as large_utf8. */
  nrt_column *whole = NULL, *segmented = NULL;
  o.string_type = NRT_COL_UTF8;
  CHECK(nrt_io_read_buffer(text, n, &o, &whole, NULL, NULL) == NRT_OK);
  io_utf8_segment_limit = 10000;
  CHECK(nrt_io_read_buffer(text, n, &o, &segmented, NULL, NULL) == NRT_OK);
  io_utf8_segment_limit = INT32_MAX;
  CHECK(whole && whole->type == NRT_COL_UTF8);
  CHECK(segmented && segmented->type == NRT_COL_LARGE_UTF8);
  CHECK(whole && segmented && nrt_col_equal(whole, segmented));
  nrt_col_release(whole);
  nrt_col_release(segmented);
  free(text);
}

int main(void) {
  struct check_live before = check_live_now();
  test_text_rules();
  test_csv_rules();
  test_jsonl_typing();
  test_string_round_trips();
  test_written_text();
  test_streaming();
  CHECK_NO_LEAK(before);
  return check_finish("test_io_roundtrip");
}

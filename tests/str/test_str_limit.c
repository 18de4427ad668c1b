/* The string size limit (nrt_str_set_max_bytes): every way of making a string refuses one
 * longer than the limit with NRT_ELIMIT ("MemoryError") before allocating, a string of exactly
 * the limit is made, a row written in place is refused without spoiling its builder, and an
 * apply with errors_as_null turns the refused row into a null and goes on. */
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "support/check.h"

#define LIMIT 100

static void expect_limit(int rc, const nrt_str *out, const struct nrt_error *err, int line) {
  if (rc != NRT_ELIMIT || out->len != 0 || !strstr(err->message, "over the limit of 100 bytes"))
    check_failf(__FILE__, line, "expected NRT_ELIMIT, got %d (%s)", rc, err->message);
  else
    check_pass();
}
#define EXPECT_LIMIT(rc) expect_limit(rc, &out, &err, __LINE__)

static void test_operations(void) {
  struct nrt_error err = {0};
  nrt_str out, ten = nrt_str_view("0123456789", 10), x = nrt_str_view("x", 1);
  char big[LIMIT + 1];
  memset(big, 'a', sizeof big);
  CHECK_EQ_STR(nrt_status_name(NRT_ELIMIT), "MemoryError");
  /* exactly the limit is made, one more byte is not */
  CHECK_EQ_INT(nrt_str_new(big, LIMIT, &out, &err), NRT_OK);
  nrt_str_release(&out);
  EXPECT_LIMIT(nrt_str_new(big, LIMIT + 1, &out, &err));
  char *bytes;
  EXPECT_LIMIT(nrt_str_alloc(LIMIT + 1, &out, &bytes, &err));
  CHECK_EQ_INT(nrt_str_repeat(&ten, 10, &out, &err), NRT_OK);
  nrt_str_release(&out);
  EXPECT_LIMIT(nrt_str_repeat(&ten, 11, &out, &err));
  nrt_str hundred;
  CHECK_EQ_INT(nrt_str_new(big, LIMIT, &hundred, &err), NRT_OK);
  EXPECT_LIMIT(nrt_str_concat(&hundred, &x, &out, &err));
  char sharp_s[120]; /* 60 x "ß": 120 bytes upper-cased as well ("SS") */
  for (int i = 0; i < 60; i++)
    memcpy(sharp_s + 2 * i, "\xc3\x9f", 2);
  nrt_str eszett = nrt_str_view(sharp_s, 120);
  EXPECT_LIMIT(nrt_str_upper(&eszett, &out, &err));
  EXPECT_LIMIT(nrt_str_ljust(&ten, LIMIT + 1, NULL, &out, &err));
  EXPECT_LIMIT(nrt_str_zfill(&ten, 1000000000000LL, &out, &err));
  /* appending grows in place up to the limit, never past it */
  nrt_str s;
  CHECK_EQ_INT(nrt_str_new("0123456789", 10, &s, &err), NRT_OK);
  for (int i = 0; i < 9; i++) {
    nrt_str grown;
    CHECK_EQ_INT(nrt_str_append(&s, &ten, &grown, &err), NRT_OK);
    nrt_str_release(&s);
    s = grown;
  }
  CHECK_EQ_INT(s.len, LIMIT);
  EXPECT_LIMIT(nrt_str_append(&s, &x, &out, &err));
  nrt_str_release(&s);
  nrt_str_release(&hundred);
}

/* A row written in place past the limit: refused, the builder goes on. */
static void test_row_writer(void) {
  struct nrt_error err = {0};
  for (int type = NRT_COL_UTF8; type <= NRT_COL_UTF8_VIEW; type++) {
    nrt_col_builder *b;
    CHECK_EQ_INT(nrt_col_builder_new((enum nrt_col_type)type, 0, &b, &err), NRT_OK);
    nrt_col_row_writer w;
    CHECK_EQ_INT(nrt_col_builder_row_begin(b, &w, &err), NRT_OK);
    char *p = nrt_col_row_room(&w, 60, &err);
    CHECK(p != NULL);
    memset(p, 'b', 60);
    w.pos = p + 60;
    CHECK(nrt_col_row_room(&w, 41, &err) == NULL); /* 101 bytes in the row */
    CHECK_EQ_INT(err.code, NRT_ELIMIT);
    CHECK_EQ_INT(nrt_col_builder_status(b), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_row_begin(b, &w, &err), NRT_OK); /* drop the row */
    p = nrt_col_row_room(&w, LIMIT, &err);
    CHECK(p != NULL);
    memset(p, 'c', LIMIT);
    w.pos = p + LIMIT;
    CHECK_EQ_INT(nrt_col_builder_row_end(b, &w, &err), NRT_OK);
    nrt_column *col = NULL;
    CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_OK);
    CHECK(col && col->length == 1 && nrt_col_str(col, 0).len == LIMIT);
    nrt_col_release(col);
  }
}

/* Each row written n times, n its length: "ab" twice, the 11-byte row past the limit. */
static int write_repeat(void *ctx, const nrt_value *args, nrt_col_row_writer *out,
                        struct nrt_error *err) {
  (void)ctx;
  const nrt_str *s = &args[0].as.str;
  size_t n = (size_t)(s->len * s->len);
  char *p = nrt_col_row_room(out, n, err);
  if (!p)
    return err->code;
  for (int64_t i = 0; i < s->len; i++)
    memcpy(p + i * s->len, s->data, (size_t)s->len);
  out->pos = p + n;
  return NRT_OK;
}

static void test_apply(void) {
  struct nrt_error err = {0};
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 3, &b, &err), NRT_OK);
  nrt_col_builder_append_view(b, "ab", 2);
  nrt_col_builder_append_view(b, "0123456789a", 11);
  nrt_col_builder_append_view(b, "xyz", 3);
  nrt_column *in = NULL, *out = NULL;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &in, &err), NRT_OK);
  struct nrt_exec_options o = {0};
  struct nrt_exec_info info;
  CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, write_repeat, NULL, &o, &out, &info, &err),
               NRT_ELIMIT);
  CHECK(strstr(err.message, "row 2: MemoryError: ") != NULL);
  CHECK(out == NULL);
  o.errors_as_null = true;
  CHECK_EQ_INT(nrt_exec_apply_write(&in, 1, write_repeat, NULL, &o, &out, &info, &err), NRT_OK);
  CHECK_EQ_INT(info.failed_rows, 1);
  CHECK(out && out->length == 3 && !nrt_col_is_valid(out, 1));
  CHECK(out && nrt_col_str(out, 2).len == 9);
  nrt_col_release(out);
  nrt_col_release(in);
}

int main(void) {
  struct check_live before = check_live_now();
  CHECK_EQ_INT(nrt_str_max_bytes(), NRT_STR_DEFAULT_MAX_BYTES);
  CHECK_EQ_INT(nrt_str_set_max_bytes(LIMIT), NRT_STR_DEFAULT_MAX_BYTES);
  CHECK_EQ_INT(nrt_str_max_bytes(), LIMIT);
  test_operations();
  test_row_writer();
  test_apply();
  CHECK_EQ_INT(nrt_str_set_max_bytes(0), LIMIT); /* back to the default */
  CHECK_EQ_INT(nrt_str_max_bytes(), NRT_STR_DEFAULT_MAX_BYTES);
  nrt_exec_shutdown();
  CHECK_NO_LEAK(before);
  return check_finish("test_str_limit");
}

/* Input checks deferred to the apply: nrt_col_validate_rows over row ranges (absolute row
 * names, every layout, bad ranges), Arrow imports with NRT_COL_IMPORT_ROWS_UNCHECKED (buffer
 * sizes and the null count still checked at import), and nrt_exec_options.validate_inputs: a
 * defect in any chunk stops the apply whatever the thread count and errors_as_null, a failing
 * call in an earlier chunk is reported first, and sound inputs give the same column as an
 * apply of the fully validated input. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "support/check.h"

#define ROWS 1000
#define BAD_ROW 777 /* holds a byte that is no UTF-8 */

static void producer_release(struct ArrowArray *a) {
  a->release = NULL;
}

/* ROWS rows "r<i>é" in a utf8 array (offsets and data owned by the caller), row BAD_ROW's
 * last byte replaced by 0xFF when `bad`. */
struct strings {
  int32_t offsets[ROWS + 1];
  char data[ROWS * 16];
  const void *buffers[3];
  struct ArrowArray arr;
};

static void strings_init(struct strings *s, int bad) {
  memset(s, 0, sizeof *s);
  int32_t n = 0;
  for (int i = 0; i < ROWS; i++) {
    s->offsets[i] = n;
    n += (int32_t)snprintf(s->data + n, sizeof s->data - (size_t)n, "r%d\xc3\xa9", i);
    if (bad && i == BAD_ROW)
      s->data[n - 1] = (char)0xFF;
  }
  s->offsets[ROWS] = n;
  s->buffers[1] = s->offsets;
  s->buffers[2] = s->data;
  s->arr.length = ROWS;
  s->arr.n_buffers = 3;
  s->arr.buffers = s->buffers;
  s->arr.release = producer_release;
}

static nrt_column *import_unchecked(struct strings *s) {
  nrt_column *col = NULL;
  CHECK_EQ_INT(nrt_col_import_arrow_flags(&s->arr, "u", NRT_COL_IMPORT_ROWS_UNCHECKED, &col,
                                          NULL),
               NRT_OK);
  return col;
}

static void test_validate_rows(void) {
  struct check_live before = check_live_now();
  struct strings *s = malloc(sizeof *s);
  strings_init(s, 1);
  nrt_column *col = import_unchecked(s);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_validate_rows(col, 0, BAD_ROW, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(col, BAD_ROW + 1, ROWS - BAD_ROW - 1, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(col, 700, 100, &err), NRT_EILSEQ);
  CHECK(strstr(err.message, "row 777: invalid UTF-8") != NULL); /* named in the column */
  CHECK_EQ_INT(nrt_col_validate_rows(col, BAD_ROW, 1, &err), NRT_EILSEQ);
  CHECK_EQ_INT(nrt_col_validate(col, &err), NRT_EILSEQ);
  CHECK(strstr(err.message, "row 777:") != NULL);
  /* Ranges outside the column; an empty range anywhere inside it. */
  CHECK_EQ_INT(nrt_col_validate_rows(col, -1, 2, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_validate_rows(col, ROWS - 1, 2, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_validate_rows(col, 3, -1, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_validate_rows(col, ROWS, 0, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(NULL, 0, 0, &err), NRT_EINVAL);
  /* Slices, and the same rows in the other layouts (the views of the utf8_view copy). */
  nrt_column *slice, *large, *views;
  CHECK_EQ_INT(nrt_col_slice(col, 700, 200, &slice, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(slice, 0, 77, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(slice, 70, 10, &err), NRT_EILSEQ);
  CHECK(strstr(err.message, "row 77:") != NULL);
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_LARGE_UTF8, &large, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(large, 500, 300, &err), NRT_EILSEQ);
  CHECK(strstr(err.message, "row 777:") != NULL);
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_UTF8_VIEW, &views, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(views, 0, 700, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(views, 776, 2, &err), NRT_EILSEQ);
  CHECK(strstr(err.message, "row 777:") != NULL);
  nrt_col_release(slice);
  nrt_col_release(large);
  nrt_col_release(views);
  nrt_col_release(col);
  /* Offsets going down, and a row start inside a character, inside a range. */
  strings_init(s, 0);
  s->offsets[500] = s->offsets[499] - 1;
  col = import_unchecked(s);
  CHECK_EQ_INT(nrt_col_validate_rows(col, 0, 499, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(col, 490, 20, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "row 499: end offset") != NULL);
  nrt_col_release(col);
  strings_init(s, 0);
  s->offsets[300] -= 1; /* row 300 starts on the second byte of row 299's é */
  col = import_unchecked(s);
  CHECK_EQ_INT(nrt_col_validate_rows(col, 0, 299, &err), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate_rows(col, 300, 10, &err), NRT_EILSEQ);
  CHECK(strstr(err.message, "row 300:") != NULL);
  nrt_col_release(col);
  free(s);
  CHECK_NO_LEAK(before);
}

/* The import still checks what reads no row: the null count against the bitmap. */
static void test_unchecked_import_checks_the_shape(void) {
  struct strings *s = malloc(sizeof *s);
  strings_init(s, 0);
  static uint8_t bits[(ROWS + 7) / 8];
  memset(bits, 0xFF, sizeof bits);
  bits[0] = 0xFE; /* row 0 null */
  s->buffers[0] = bits;
  s->arr.null_count = 2;
  nrt_column *col = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_import_arrow_flags(&s->arr, "u", NRT_COL_IMPORT_ROWS_UNCHECKED, &col,
                                          &err),
               NRT_EVALUE);
  CHECK(col == NULL && strstr(err.message, "null_count 2") != NULL);
  CHECK(s->arr.release != NULL); /* left to the caller */
  free(s);
}

static int fn_upper(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  result->kind = NRT_VALUE_STR;
  return nrt_str_upper(&args[0].as.str, &result->as.str, err);
}

/* Fails on row `*ctx` (a row-number suffix "r<N>é" is read back from the text). */
static int fn_fail_on(void *ctx, const nrt_value *args, nrt_value *result,
                      struct nrt_error *err) {
  int row = atoi(args[0].as.str.data + 1);
  if (row == *(const int *)ctx)
    return nrt_error_set(err, NRT_EVALUE, "row %d refused", row);
  result->kind = NRT_VALUE_STR;
  return nrt_str_upper(&args[0].as.str, &result->as.str, err);
}

static void test_apply_validates_inputs(void) {
  struct check_live before = check_live_now();
  struct strings *s = malloc(sizeof *s);
  strings_init(s, 1);
  nrt_column *bad = import_unchecked(s);
  for (int threads = 1; threads <= 3; threads++)
    for (int as_null = 0; as_null < 2; as_null++) {
      struct nrt_exec_options o = {.threads = threads, .chunk_rows = 64,
                                   .validate_inputs = true, .errors_as_null = as_null};
      nrt_column *out = (nrt_column *)1;
      struct nrt_exec_info info;
      struct nrt_error err = {0};
      CHECK_EQ_INT(nrt_exec_apply(&bad, 1, fn_upper, NULL, &o, &out, &info, &err), NRT_EILSEQ);
      CHECK(out == NULL && info.invalid_input && info.error_row == -1);
      CHECK(strstr(err.message, "input column 0: row 777: invalid UTF-8") != NULL);
      /* No row of the defect's chunk (rows 768..831) is called; one thread calls exactly
       * the rows before it. */
      CHECK(threads == 1 ? info.calls == 768 : info.calls <= ROWS - 64);
      /* A call failing in an earlier chunk is the error, as rows run in order. */
      int fail = 100;
      CHECK_EQ_INT(nrt_exec_apply(&bad, 1, fn_fail_on, &fail, &o, &out, &info, &err),
                   as_null ? NRT_EILSEQ : NRT_EVALUE);
      CHECK(as_null ? info.invalid_input : !info.invalid_input && info.error_row == 100);
      /* One in the defect's chunk, before the defect: no call there happens. */
      fail = 770;
      CHECK_EQ_INT(nrt_exec_apply(&bad, 1, fn_fail_on, &fail, &o, &out, &info, &err),
                   NRT_EILSEQ);
    }
  nrt_col_release(bad);
  /* Sound input: the same column as an apply of the validated import. */
  strings_init(s, 0);
  nrt_column *unchecked = import_unchecked(s);
  struct strings *s2 = malloc(sizeof *s2);
  strings_init(s2, 0);
  nrt_column *checked = NULL;
  CHECK_EQ_INT(nrt_col_import_arrow(&s2->arr, "u", &checked, NULL), NRT_OK);
  struct nrt_exec_options o = {.threads = 2, .chunk_rows = 64, .validate_inputs = true,
                               .string_type = NRT_COL_UTF8};
  nrt_column *a = NULL, *b = NULL;
  CHECK_EQ_INT(nrt_exec_apply(&unchecked, 1, fn_upper, NULL, &o, &a, NULL, NULL), NRT_OK);
  o.validate_inputs = false;
  CHECK_EQ_INT(nrt_exec_apply(&checked, 1, fn_upper, NULL, &o, &b, NULL, NULL), NRT_OK);
  CHECK(a && b && nrt_col_equal(a, b) && a->length == ROWS);
  nrt_col_release(a);
  nrt_col_release(b);
  nrt_col_release(unchecked);
  nrt_col_release(checked);
  free(s);
  free(s2);
  CHECK_NO_LEAK(before);
}

int main(void) {
  test_validate_rows();
  test_unchecked_import_checks_the_shape();
  test_apply_validates_inputs();
  nrt_exec_shutdown();
  return check_finish("test_exec_apply_validate");
}

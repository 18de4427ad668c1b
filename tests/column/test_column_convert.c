/* Conversions between the string layouts (with slices and nulls, bytes shared where the
 * target allows), concatenation, overflow errors, and failure injection over the builders,
 * slicing, conversion and concatenation. */
#define _GNU_SOURCE /* MAP_ANONYMOUS and MAP_NORESERVE for the sparse mapping */
#include "column/colgen.h"
#include "column/column_internal.h"
#include "nrt/column.h"
#include "nrt/str.h"
#include "support/check.h"

#include <pthread.h>
#include <sys/mman.h>

static const enum nrt_col_type string_types[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                                  NRT_COL_UTF8_VIEW};

static void test_conversions(void) {
  struct check_live before = check_live_now();
  for (int from = 0; from < 3; from++) {
    nrt_column *col = gen_column(string_types[from], 400, 3, 1);
    for (int64_t start = 0; start < 20; start += 7) {
      nrt_column *s;
      CHECK_EQ_INT(nrt_col_slice(col, start, 350, &s, NULL), NRT_OK);
      for (int to = 0; to < 3; to++) {
        nrt_column *c, *back;
        CHECK_EQ_INT(nrt_col_convert(s, string_types[to], &c, NULL), NRT_OK);
        CHECK_EQ_INT(c->type, string_types[to]);
        check_generated(c, start, 350, 3, 1);
        CHECK(nrt_col_equal(c, s));
        /* Bytes shared: offsets layouts keep the data buffer; views point into it. */
        if (from != 2 && to != 2 && from != to) {
          CHECK((const char *)c->data.data >= (const char *)col->data.data &&
                (const char *)c->data.data <= (const char *)col->data.data + col->data.size);
        }
        if (from != 2 && to == 2)
          CHECK(c->n_variadic <= 1 && (c->n_variadic == 0 ||
                (const char *)c->variadic[0].data >= (const char *)col->data.data));
        /* Converting back gives the same rows. */
        CHECK_EQ_INT(nrt_col_convert(c, string_types[from], &back, NULL), NRT_OK);
        check_generated(back, start, 350, 3, 1);
        nrt_col_release(c); /* back may share c's buffers and must keep them alive */
        check_generated(back, start, 350, 3, 1);
        nrt_col_release(back);
      }
      nrt_col_release(s);
    }
    nrt_col_release(col);
  }
  /* The identity conversion retains; non-string conversions are errors. */
  nrt_col_builder *b;
  nrt_column *ints, *out;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  nrt_col_builder_append_int64(b, 5);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &ints, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_convert(ints, NRT_COL_INT64, &out, NULL), NRT_OK);
  CHECK(out == ints);
  nrt_col_release(out);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_convert(ints, NRT_COL_UTF8, &out, &err), NRT_EINVAL);
  CHECK(out == NULL && strstr(err.message, "int64") != NULL);
  nrt_col_release(ints);
  CHECK_NO_LEAK(before);
}

/* Columns whose byte counts exceed int32: built by hand over a small buffer, since the
 * conversions reject them before reading any byte. */
static void test_overflow_to_utf8(void) {
  struct check_live before = check_live_now();
  static const char bytes[16] = "abcdefghijklmnop";
  /* large_utf8 with offsets 0, 3e9. */
  nrt_column *big;
  CHECK_EQ_INT(nrt_col_new(NRT_COL_LARGE_UTF8, 0, &big, NULL), NRT_OK);
  static const int64_t offs[2] = {0, 3000000000LL};
  big->length = 1;
  nrt_col_set_buffer(big, NRT_COL_SLOT_VALUES, offs, sizeof offs, NULL);
  nrt_col_set_buffer(big, NRT_COL_SLOT_DATA, bytes, 3000000000LL, NULL);
  struct nrt_error err = {0};
  nrt_column *out;
  CHECK_EQ_INT(nrt_col_convert(big, NRT_COL_UTF8, &out, &err), NRT_ERANGE);
  CHECK(out == NULL && strstr(err.message, "large_utf8") != NULL);
  CHECK_EQ_INT(nrt_col_concat(&big, 1, NRT_COL_UTF8, &out, &err), NRT_ERANGE);
  CHECK_EQ_INT(nrt_col_convert(big, NRT_COL_UTF8_VIEW, &out, &err), NRT_ERANGE);
  CHECK(strstr(err.message, "utf8_view") != NULL);
  /* A view column of two 1.5 GB strings. */
  nrt_column *views;
  CHECK_EQ_INT(nrt_col_new(NRT_COL_UTF8_VIEW, 1, &views, NULL), NRT_OK);
  static nrt_col_view v[2];
  for (int i = 0; i < 2; i++) {
    v[i].length = 1500000000;
    memcpy(v[i].u.ref.prefix, "abcd", 4);
  }
  views->length = 2;
  nrt_col_set_buffer(views, NRT_COL_SLOT_VALUES, v, sizeof v, NULL);
  nrt_col_set_buffer(views, NRT_COL_SLOT_VARIADIC, bytes, 1500000000, NULL);
  CHECK_EQ_INT(nrt_col_convert(views, NRT_COL_UTF8, &out, &err), NRT_ERANGE);
  CHECK(strstr(err.message, "large_utf8") != NULL);
  nrt_column *pair[2] = {views, big};
  CHECK_EQ_INT(nrt_col_concat(pair, 2, NRT_COL_UTF8, &out, &err), NRT_ERANGE);
  nrt_col_release(views);
  nrt_col_release(big);
  CHECK_NO_LEAK(before);
}

/* A data buffer over 2 GiB becomes several windows when viewed. The buffer is a sparse
 * anonymous mapping: only the pages holding the two valid rows are ever touched. */
static void test_view_windows(void) {
  struct check_live before = check_live_now();
  if (getenv("NRT_UNDER_VALGRIND")) {
    printf("test_view_windows: skipped under valgrind (3 GiB of shadowed address space)\n");
    return;
  }
  const int64_t far = 3LL << 30;
  size_t total = (size_t)far + 4096;
  char *base = (char *)mmap(NULL, total, PROT_READ | PROT_WRITE,
                            MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) {
    printf("test_view_windows: skipped (no 3 GiB of address space)\n");
    return;
  }
  static const char tail[] = "the last string, far away";
  memcpy(base, "hello", 5);
  memcpy(base + far, tail, sizeof tail - 1);
  int64_t offs[4] = {0, 5, far, far + (int64_t)sizeof tail - 1};
  uint8_t validity[1] = {0x5}; /* rows 0 and 2 valid; null row 1 spans the gap */
  nrt_column *big;
  CHECK_EQ_INT(nrt_col_new(NRT_COL_LARGE_UTF8, 0, &big, NULL), NRT_OK);
  big->length = 3;
  big->null_count = 1;
  nrt_col_set_buffer(big, NRT_COL_SLOT_VALIDITY, validity, 1, NULL);
  nrt_col_set_buffer(big, NRT_COL_SLOT_VALUES, offs, sizeof offs, NULL);
  nrt_col_set_buffer(big, NRT_COL_SLOT_DATA, base, offs[3], NULL);
  CHECK_EQ_INT(nrt_col_validate(big, NULL), NRT_OK);
  nrt_column *v, *back;
  CHECK_EQ_INT(nrt_col_convert(big, NRT_COL_UTF8_VIEW, &v, NULL), NRT_OK);
  CHECK_EQ_INT(v->n_variadic, 4);
  CHECK_EQ_INT(nrt_col_validate(v, NULL), NRT_OK);
  nrt_str r = nrt_col_str(v, 2);
  CHECK(r.len == (int64_t)sizeof tail - 1 && r.data == base + far);
  const nrt_col_view *views = (const nrt_col_view *)v->values.data + v->offset;
  CHECK_EQ_INT(views[2].u.ref.buffer_index, 3);
  CHECK_EQ_INT(views[2].u.ref.offset, 0);
  r = nrt_col_str(v, 0);
  CHECK(r.len == 5 && memcmp(r.data, "hello", 5) == 0);
  CHECK(nrt_col_equal(v, big));
  /* Back to offsets: only the valid rows' 30 bytes are copied. */
  CHECK_EQ_INT(nrt_col_convert(v, NRT_COL_UTF8, &back, NULL), NRT_OK);
  CHECK_EQ_INT(back->data.size, 5 + (int64_t)sizeof tail - 1);
  CHECK(nrt_col_equal(back, big));
  nrt_col_release(back);
  nrt_col_release(v);
  nrt_col_release(big);
  munmap(base, total);
  CHECK_NO_LEAK(before);
}

/* nrt_col_validate on hand-made columns: the rules that only apply when buffer sizes are
 * known (nrt's own columns), plus the bitmap/null_count rules. */
static void test_validate_sizes(void) {
  struct check_live before = check_live_now();
  static const int64_t vals[4] = {1, 2, 3, 4};
  static const uint8_t bits[1] = {0x0B}; /* rows 0, 1, 3 valid */
  struct nrt_error err = {0};
  nrt_column *c;
  CHECK_EQ_INT(nrt_col_new(NRT_COL_INT64, 0, &c, NULL), NRT_OK);
  c->length = 4;
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALUES, vals, 24, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "values buffer has 24 bytes") != NULL);
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALUES, vals, 32, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, NULL), NRT_OK);
  c->null_count = 1;
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "without a validity bitmap") != NULL);
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALIDITY, bits, 0, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "validity bitmap has 0 bytes") != NULL);
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALIDITY, bits, 1, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, NULL), NRT_OK);
  c->length = -1;
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  c->length = 4;
  c->offset = 1; /* physical rows 1..3: one null (bit 2), 32 bytes of values */
  c->length = 3;
  CHECK_EQ_INT(nrt_col_validate(c, NULL), NRT_OK);
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALUES, vals, 31, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "3 rows at offset 1 need 32") != NULL);
  c->null_count = 0;
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALUES, vals, 32, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "null_count 0 does not match the 1 nulls") != NULL);
  nrt_col_release(c);
  /* Offsets past the real data buffer. */
  static const int32_t offs[3] = {0, 2, 6};
  CHECK_EQ_INT(nrt_col_new(NRT_COL_UTF8, 0, &c, NULL), NRT_OK);
  c->length = 2;
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALUES, offs, sizeof offs, NULL);
  nrt_col_set_buffer(c, NRT_COL_SLOT_DATA, "abcde", 5, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "row 1: end offset 6 is beyond the data buffer of 5 bytes") != NULL);
  nrt_col_set_buffer(c, NRT_COL_SLOT_VALUES, offs, 8, NULL);
  CHECK_EQ_INT(nrt_col_validate(c, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "offsets buffer has 8 bytes") != NULL);
  nrt_col_release(c);
  CHECK_EQ_INT(nrt_col_validate(NULL, NULL), NRT_EINVAL);
  CHECK_NO_LEAK(before);
}

static void test_concat(void) {
  struct check_live before = check_live_now();
  nrt_column *parts[6];
  for (int k = 0; k < 6; k++) {
    nrt_column *c = gen_column(string_types[k % 3], 100 + k * 37, 11, k != 2);
    /* Slices of generated columns, at varied offsets, all from the same seed: the row of
     * part k, index i, is generated row start_k + i. */
    CHECK_EQ_INT(nrt_col_slice(c, k * 5, 100, &parts[k], NULL), NRT_OK);
    nrt_col_release(c);
  }
  for (int to = 0; to < 3; to++) {
    nrt_column *all;
    CHECK_EQ_INT(nrt_col_concat(parts, 6, string_types[to], &all, NULL), NRT_OK);
    CHECK_EQ_INT(all->length, 600);
    CHECK_EQ_INT(nrt_col_validate(all, NULL), NRT_OK);
    for (int k = 0; k < 6; k++) {
      nrt_column *piece;
      CHECK_EQ_INT(nrt_col_slice(all, k * 100, 100, &piece, NULL), NRT_OK);
      CHECK(nrt_col_equal(piece, parts[k]));
      nrt_col_release(piece);
    }
    if (to == 2) {
      /* Long strings' bytes were not copied: the views point into the parts' buffers. */
      CHECK(all->n_variadic >= 6);
    }
    nrt_col_release(all);
  }
  nrt_column *empty;
  CHECK_EQ_INT(nrt_col_concat(NULL, 0, NRT_COL_UTF8, &empty, NULL), NRT_OK);
  CHECK_EQ_INT(empty->length, 0);
  CHECK_EQ_INT(nrt_col_validate(empty, NULL), NRT_OK);
  nrt_col_release(empty);
  /* Numbers and bools, with nulls and bit offsets. */
  nrt_column *nums[3], *bools[3];
  for (int k = 0; k < 3; k++) {
    nrt_col_builder *bi, *bb;
    nrt_col_builder_new(NRT_COL_INT64, 0, &bi, NULL);
    nrt_col_builder_new(NRT_COL_BOOL, 0, &bb, NULL);
    for (int i = 0; i < 29; i++) {
      if (i % 4 == k) {
        nrt_col_builder_append_null(bi);
        nrt_col_builder_append_null(bb);
      } else {
        nrt_col_builder_append_int64(bi, k * 100 + i);
        nrt_col_builder_append_bool(bb, (i + k) % 3 == 0);
      }
    }
    nrt_column *ci, *cb;
    nrt_col_builder_finish(bi, &ci, NULL);
    nrt_col_builder_finish(bb, &cb, NULL);
    nrt_col_slice(ci, 3, 21, &nums[k], NULL);
    nrt_col_slice(cb, 3, 21, &bools[k], NULL);
    nrt_col_release(ci);
    nrt_col_release(cb);
  }
  nrt_column *ai, *ab;
  CHECK_EQ_INT(nrt_col_concat(nums, 3, NRT_COL_INT64, &ai, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_concat(bools, 3, NRT_COL_BOOL, &ab, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate(ai, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate(ab, NULL), NRT_OK);
  for (int k = 0; k < 3; k++) {
    nrt_column *pi, *pb;
    nrt_col_slice(ai, k * 21, 21, &pi, NULL);
    nrt_col_slice(ab, k * 21, 21, &pb, NULL);
    CHECK(nrt_col_equal(pi, nums[k]));
    CHECK(nrt_col_equal(pb, bools[k]));
    nrt_col_release(pi);
    nrt_col_release(pb);
  }
  struct nrt_error err = {0};
  nrt_column *bad;
  CHECK_EQ_INT(nrt_col_concat(nums, 3, NRT_COL_BOOL, &bad, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_concat(parts, 2, NRT_COL_INT64, &bad, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_concat(nums, 1, NRT_COL_UTF8, &bad, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_concat(nums, 1, (enum nrt_col_type)0, &bad, &err), NRT_EINVAL);
  CHECK(bad == NULL);
  nrt_col_release(ai);
  nrt_col_release(ab);
  for (int k = 0; k < 3; k++) {
    nrt_col_release(nums[k]);
    nrt_col_release(bools[k]);
  }
  for (int k = 0; k < 6; k++)
    nrt_col_release(parts[k]);
  CHECK_NO_LEAK(before);
}

/* A runner of nrt_col_concat_run's tasks on two threads, each taking every other task from
 * the last one down: an order unlike the sequential one, and copies that run at once. */
struct two_threads {
  int64_t n;
  nrt_col_task_fn task;
  void *task_arg;
  int64_t parity;
  int *ran;
};

static void *run_every_other(void *arg) {
  struct two_threads *t = arg;
  for (int64_t k = t->n - 1; k >= 0; k--)
    if (k % 2 == t->parity)
      t->task(t->task_arg, k);
  return NULL;
}

static void run_on_two_threads(void *ran, int64_t n, nrt_col_task_fn task, void *task_arg) {
  struct two_threads t[2] = {{n, task, task_arg, 0, ran}, {n, task, task_arg, 1, ran}};
  pthread_t th;
  CHECK_EQ_INT(pthread_create(&th, NULL, run_every_other, &t[1]), 0);
  run_every_other(&t[0]);
  pthread_join(th, NULL);
  ++*(int *)ran;
}

static void test_concat_run(void) {
  struct check_live before = check_live_now();
  nrt_column *parts[7];
  for (int k = 0; k < 7; k++) /* every layout, nulls in most, one empty part */
    parts[k] = gen_column(string_types[k % 3], k == 4 ? 0 : 50 + k * 41, 23 + k, k != 1);
  for (int to = 0; to < 3; to++) {
    nrt_column *want, *got;
    int ran = 0;
    CHECK_EQ_INT(nrt_col_concat(parts, 7, string_types[to], &want, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_concat_run(parts, 7, string_types[to], run_on_two_threads, &ran, &got,
                                    NULL), NRT_OK);
    CHECK_EQ_INT(ran, 1);
    CHECK_EQ_INT(nrt_col_validate(got, NULL), NRT_OK);
    CHECK(nrt_col_equal(got, want));
    nrt_col_release(want);
    nrt_col_release(got);
  }
  /* Parts of more than 64 KiB of bytes (copied with streaming stores), at destinations of
   * every alignment: each part's rows come out as generated. */
  nrt_column *big[3];
  int64_t rows[3] = {15001, 12003, 18007};
  for (int k = 0; k < 3; k++)
    big[k] = gen_column(NRT_COL_UTF8, rows[k], 91 + k, k == 1);
  for (int to = 0; to < 2; to++) { /* utf8, large_utf8 */
    nrt_column *got;
    int ran = 0;
    CHECK_EQ_INT(nrt_col_concat_run(big, 3, string_types[to], run_on_two_threads, &ran, &got,
                                    NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_validate(got, NULL), NRT_OK);
    int64_t row = 0;
    for (int k = 0; k < 3; k++) {
      CHECK(big[k]->data.size > 65536);
      nrt_column *part;
      CHECK_EQ_INT(nrt_col_slice(got, row, rows[k], &part, NULL), NRT_OK);
      check_generated(part, 0, rows[k], 91 + k, k == 1);
      nrt_col_release(part);
      row += rows[k];
    }
    nrt_col_release(got);
  }
  for (int k = 0; k < 3; k++)
    nrt_col_release(big[k]);
  /* Fixed-width targets ignore the runner. */
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  for (int i = 0; i < 77; i++)
    nrt_col_builder_append_int64(b, i * 5);
  nrt_column *nums, *got;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &nums, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_concat_run(&nums, 1, NRT_COL_INT64, run_on_two_threads, NULL, &got, NULL),
               NRT_OK);
  CHECK(nrt_col_equal(got, nums));
  nrt_col_release(got);
  nrt_col_release(nums);
  for (int k = 0; k < 7; k++)
    nrt_col_release(parts[k]);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------ failure injection */

struct build_ctx {
  enum nrt_col_type type;
};

/* Builds a column (managed strings, views, nulls), then slices, converts and concatenates it;
 * releases everything. */
static int trial_build(void *vctx) {
  struct build_ctx *ctx = (struct build_ctx *)vctx;
  nrt_col_builder *b;
  int rc = nrt_col_builder_new(ctx->type, 4, &b, NULL);
  if (rc)
    return rc;
  char buf[64];
  for (int i = 0; i < 150; i++) {
    if (i % 9 == 4) {
      nrt_col_builder_append_null(b);
    } else if (ctx->type == NRT_COL_INT64) {
      nrt_col_builder_append_int64(b, i);
    } else if (ctx->type == NRT_COL_FLOAT64) {
      nrt_col_builder_append_float64(b, i * 0.5);
    } else if (ctx->type == NRT_COL_BOOL) {
      nrt_col_builder_append_bool(b, i % 2);
    } else if (i % 3 == 0) {
      int len = snprintf(buf, sizeof buf, "managed string %d", i);
      nrt_str s;
      if (nrt_str_new(buf, len, &s, NULL) != NRT_OK) {
        nrt_col_builder_abort(b);
        return NRT_ENOMEM;
      }
      nrt_col_builder_append_str(b, &s);
      nrt_str_release(&s);
    } else if (i % 3 == 1) {
      int len = snprintf(buf, sizeof buf, "moved %d", i * 1000);
      nrt_str s;
      if (nrt_str_new(buf, len, &s, NULL) != NRT_OK) {
        nrt_col_builder_abort(b);
        return NRT_ENOMEM;
      }
      nrt_col_builder_append_str_move(b, &s);
    } else {
      int len = snprintf(buf, sizeof buf, "v%d", i);
      nrt_col_builder_append_view(b, buf, len);
    }
  }
  nrt_column *col;
  rc = nrt_col_builder_finish(b, &col, NULL);
  if (rc)
    return rc;
  nrt_column *s = NULL, *c = NULL, *cat = NULL;
  rc = nrt_col_slice(col, 3, 100, &s, NULL);
  if (rc == NRT_OK && nrt_col_type_is_string(ctx->type))
    rc = nrt_col_convert(s, ctx->type == NRT_COL_UTF8_VIEW ? NRT_COL_LARGE_UTF8 : NRT_COL_UTF8_VIEW,
                         &c, NULL);
  if (rc == NRT_OK) {
    nrt_column *parts[2] = {col, c ? c : s};
    rc = nrt_col_concat(parts, 2, ctx->type, &cat, NULL);
  }
  if (rc == NRT_OK && cat->length != 150 + 100)
    rc = NRT_EINVAL;
  nrt_col_release(cat);
  nrt_col_release(c);
  nrt_col_release(s);
  nrt_col_release(col);
  return rc;
}

static int trial_keep_refs(void *vctx) {
  (void)vctx;
  nrt_col_builder *b;
  int rc = nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL);
  if (rc)
    return rc;
  for (int i = 0; i < 100; i++) {
    nrt_str s;
    if (nrt_str_new("abcdefghijklmnop", 16, &s, NULL) != NRT_OK) {
      nrt_col_builder_abort(b);
      return NRT_ENOMEM;
    }
    nrt_col_builder_append_str_move(b, &s);
  }
  nrt_column *col;
  nrt_memblock *refs;
  rc = nrt_col_builder_finish_keep_refs(b, &col, &refs, NULL);
  if (rc)
    return rc;
  nrt_col_free_pass(refs);
  nrt_col_release(col);
  return NRT_OK;
}

static void test_failure_injection(void) {
  for (int t = NRT_COL_UTF8; t <= NRT_COL_BOOL; t++) {
    struct build_ctx ctx = {(enum nrt_col_type)t};
    CHECK(check_every_allocation_failure(nrt_col_type_name(ctx.type), trial_build, &ctx) > 3);
  }
  CHECK(check_every_allocation_failure("keep_refs", trial_keep_refs, NULL) > 3);
}

int main(void) {
  test_conversions();
  test_overflow_to_utf8();
  test_view_windows();
  test_validate_sizes();
  test_concat();
  test_concat_run();
  test_failure_injection();
  struct nrt_stats s;
  nrt_stats_get(&s);
  if (nrt_stats_enabled()) {
    CHECK_EQ_INT(s.alloc, s.free);
    CHECK_EQ_INT(s.mi_alloc, s.mi_free);
  }
  return check_finish("test_column_convert");
}

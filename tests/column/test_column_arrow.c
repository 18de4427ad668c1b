/* Arrow C Data / Stream Interface: zero-copy round trips of every layout (slices, nulls),
 * producer lifetimes, one malformed-array test per validation rule, streams, and failure
 * injection. */
#include "column/colgen.h"
#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "support/check.h"

static const enum nrt_col_type all_types[6] = {NRT_COL_UTF8,  NRT_COL_LARGE_UTF8,
                                               NRT_COL_UTF8_VIEW, NRT_COL_INT64,
                                               NRT_COL_FLOAT64, NRT_COL_BOOL};

/* A column of any type with n rows (every 7th null when with_nulls). */
static nrt_column *make_column(enum nrt_col_type t, int64_t n, int with_nulls) {
  if (nrt_col_type_is_string(t))
    return gen_column(t, n, 5, with_nulls);
  nrt_col_builder *b;
  if (nrt_col_builder_new(t, n, &b, NULL))
    return NULL;
  for (int64_t i = 0; i < n; i++) {
    if (with_nulls && i % 7 == 3)
      nrt_col_builder_append_null(b);
    else if (t == NRT_COL_INT64)
      nrt_col_builder_append_int64(b, i * i - 1000);
    else if (t == NRT_COL_FLOAT64)
      nrt_col_builder_append_float64(b, (double)i * 0.25);
    else
      nrt_col_builder_append_bool(b, i % 3 == 1);
  }
  nrt_column *col = NULL;
  nrt_col_builder_finish(b, &col, NULL);
  return col;
}

static void test_round_trips(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 6; t++) {
    for (int nulls = 0; nulls < 2; nulls++) {
      nrt_column *col = make_column(all_types[t], 300, nulls);
      for (int64_t start = 0; start <= 21; start += 7) {
        nrt_column *s;
        CHECK_EQ_INT(nrt_col_slice(col, start, 250 - start, &s, NULL), NRT_OK);
        struct ArrowArray arr;
        struct ArrowSchema schema;
        CHECK_EQ_INT(nrt_col_export_arrow(s, &arr, &schema, NULL), NRT_OK);
        CHECK_EQ_STR(schema.format, nrt_col_arrow_format(all_types[t]));
        CHECK(schema.name == NULL && schema.n_children == 0 && schema.flags == ARROW_FLAG_NULLABLE);
        CHECK_EQ_INT(arr.length, 250 - start);
        CHECK_EQ_INT(arr.offset, start);
        CHECK_EQ_INT(arr.null_count, s->null_count);
        CHECK_EQ_INT(arr.n_children, 0);
        /* Zero-copy: the array's buffers are the column's. */
        CHECK(arr.buffers[1] == s->values.data);
        CHECK(arr.buffers[0] == (s->null_count ? s->validity.data : NULL));
        if (all_types[t] == NRT_COL_UTF8 || all_types[t] == NRT_COL_LARGE_UTF8)
          CHECK(arr.n_buffers == 3 && arr.buffers[2] == s->data.data);
        if (all_types[t] == NRT_COL_UTF8_VIEW) {
          CHECK_EQ_INT(arr.n_buffers, 3 + s->n_variadic);
          const int64_t *sizes = (const int64_t *)arr.buffers[arr.n_buffers - 1];
          for (int32_t i = 0; i < s->n_variadic; i++)
            CHECK(arr.buffers[2 + i] == s->variadic[i].data && sizes[i] == s->variadic[i].size);
        }
        /* The consumer's array outlives the producer's column reference. */
        nrt_col_release(s);
        nrt_column *back;
        struct nrt_error err = {0};
        CHECK_EQ_INT(nrt_col_import_arrow(&arr, schema.format, &back, &err), NRT_OK);
        CHECK(arr.release == NULL); /* moved */
        schema.release(&schema);
        CHECK(schema.release == NULL);
        CHECK(back->values.data == col->values.data); /* zero-copy back */
        CHECK_EQ_INT(back->offset, start);
        nrt_column *expect;
        nrt_col_slice(col, start, 250 - start, &expect, NULL);
        CHECK(nrt_col_equal(back, expect));
        nrt_col_release(expect);
        /* Export an imported column again (its buffers are still the original's). */
        struct ArrowArray again;
        CHECK_EQ_INT(nrt_col_export_arrow(back, &again, NULL, NULL), NRT_OK);
        nrt_col_release(back);
        nrt_column *twice;
        CHECK_EQ_INT(nrt_col_import_arrow(&again, nrt_col_arrow_format(all_types[t]), &twice, NULL), NRT_OK);
        CHECK_EQ_INT(twice->length, 250 - start);
        CHECK(twice->values.data == col->values.data);
        nrt_col_release(twice);
      }
      nrt_col_release(col);
    }
  }
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------- a hand-made producer */

static int producer_releases;

static void producer_release(struct ArrowArray *a) {
  producer_releases++;
  a->release = NULL;
}

struct producer {
  struct ArrowArray arr;
  const void *buffers[8];
};

static void producer_init(struct producer *p, int64_t length, int64_t n_buffers) {
  memset(p, 0, sizeof *p);
  p->arr.length = length;
  p->arr.null_count = 0;
  p->arr.n_buffers = n_buffers;
  p->arr.buffers = p->buffers;
  p->arr.release = producer_release;
}

static void test_producer_lifetime(void) {
  struct check_live before = check_live_now();
  static const int32_t offs[4] = {0, 3, 3, 21};
  static const char data[] = "abcdefghijklmnopqrstu";
  struct producer p;
  producer_init(&p, 3, 3);
  p.buffers[1] = offs;
  p.buffers[2] = data;
  producer_releases = 0;
  nrt_column *col, *slice, *large, *view;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "u", &col, NULL), NRT_OK);
  CHECK(p.arr.release == NULL);
  CHECK(col->data.data == data && col->data.size == 21);
  CHECK_EQ_INT(nrt_col_slice(col, 1, 2, &slice, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_LARGE_UTF8, &large, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_UTF8_VIEW, &view, NULL), NRT_OK);
  CHECK(large->data.data == data); /* shares the producer's data */
  nrt_col_release(col);
  nrt_col_release(slice);
  CHECK_EQ_INT(producer_releases, 0);
  nrt_col_release(large);
  CHECK_EQ_INT(producer_releases, 0); /* the view column still points into the data */
  nrt_str r = nrt_col_str(view, 2);
  CHECK(r.len == 18 && r.data == data + 3);
  nrt_col_release(view);
  CHECK_EQ_INT(producer_releases, 1);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------- malformed arrays */

/* Imports p with `format`, expects `code` and a message containing `want` (and `row` when
 * not NULL); the producer's array must be left untouched and unreleased. */
static void expect_bad(struct producer *p, const char *format, int code, const char *want,
                       const char *row, int line) {
  struct check_live before = check_live_now();
  int released = producer_releases;
  nrt_column *col = (nrt_column *)p;
  struct nrt_error err = {0};
  int rc = nrt_col_import_arrow(&p->arr, format, &col, &err);
  if (rc != code || col != NULL || !strstr(err.message, want) || (row && !strstr(err.message, row)))
    check_failf(__FILE__, line, "import gave %d \"%s\", expected %d with \"%s\"", rc,
                err.message, code, want);
  else
    check_pass();
  CHECK(p->arr.release == producer_release);
  CHECK_EQ_INT(producer_releases, released);
  CHECK_NO_LEAK(before);
}
#define EXPECT_BAD(p, fmt, code, want, row) expect_bad(p, fmt, code, want, row, __LINE__)

static void test_malformed_shapes(void) {
  static const int32_t offs[4] = {0, 1, 2, 3};
  static const char data[] = "abc";
  static const int64_t ints[4] = {1, 2, 3, 4};
  struct producer p;
  nrt_column *col;
  struct nrt_error err = {0};
  producer_releases = 0;

  producer_init(&p, 3, 3);
  p.buffers[1] = offs;
  p.buffers[2] = data;
  EXPECT_BAD(&p, "i", NRT_EUNSUPPORTED, "\"i\" is not supported", NULL);
  EXPECT_BAD(&p, "+L", NRT_EUNSUPPORTED, "not supported", NULL);
  /* A list's item type is in its schema: the format alone cannot import it. */
  EXPECT_BAD(&p, "+l", NRT_EINVAL, "nrt_col_import_arrow_schema", NULL);
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, NULL, &col, &err), NRT_EINVAL);
  /* An already released array. */
  p.arr.release = NULL;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "u", &col, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "released") != NULL);
  p.arr.release = producer_release;
  /* Children, dictionary. */
  struct ArrowArray child, *children[1] = {&child};
  p.arr.n_children = 1;
  p.arr.children = children;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "no children", NULL);
  p.arr.n_children = 0;
  p.arr.children = NULL;
  p.arr.dictionary = &child;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "no dictionary", NULL);
  p.arr.dictionary = NULL;
  /* Lengths, offsets, null counts. */
  p.arr.length = -1;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "negative length", NULL);
  p.arr.length = 3;
  p.arr.offset = -2;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "offset -2", NULL);
  p.arr.offset = INT64_MAX - 1;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "overflow", NULL);
  p.arr.offset = 0;
  p.arr.null_count = -2;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "null_count -2", NULL);
  p.arr.null_count = 4;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "null_count 4", NULL);
  p.arr.null_count = 1;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "no validity bitmap", NULL);
  p.arr.null_count = 0;
  /* Buffer counts per format. */
  p.arr.n_buffers = 2;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "needs 3 buffers, has 2", NULL);
  EXPECT_BAD(&p, "U", NRT_EVALUE, "needs 3 buffers, has 2", NULL);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "needs at least 3 buffers, has 2", NULL);
  p.arr.n_buffers = 3;
  EXPECT_BAD(&p, "l", NRT_EVALUE, "needs 2 buffers, has 3", NULL);
  EXPECT_BAD(&p, "g", NRT_EVALUE, "needs 2 buffers, has 3", NULL);
  EXPECT_BAD(&p, "b", NRT_EVALUE, "needs 2 buffers, has 3", NULL);
  p.arr.buffers = NULL;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "buffers array is NULL", NULL);
  p.arr.buffers = p.buffers;
  /* A missing values / offsets buffer. */
  p.buffers[1] = NULL;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "offsets buffer is NULL", "row 0");
  p.arr.n_buffers = 2;
  EXPECT_BAD(&p, "l", NRT_EVALUE, "values buffer is NULL", "row 0");
  /* ... which is fine for an empty array. */
  p.arr.length = 0;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "l", &col, NULL), NRT_OK);
  CHECK_EQ_INT(col->length, 0);
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 1);
  producer_releases = 0;
  producer_init(&p, 4, 2);
  p.buffers[1] = ints;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "l", &col, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_int64(col, 3), 4);
  nrt_col_release(col);
  producer_releases = 0;
}

static void test_malformed_offsets(void) {
  struct producer p;
  /* First offset negative. */
  static const int32_t neg[3] = {-1, 1, 2};
  producer_init(&p, 2, 3);
  p.buffers[1] = neg;
  p.buffers[2] = "ab";
  EXPECT_BAD(&p, "u", NRT_EVALUE, "first offset -1 is negative", "row 0");
  /* Decreasing offsets, naming the row (the row is relative to the array's offset). */
  static const int32_t dec[5] = {0, 2, 4, 3, 5};
  producer_init(&p, 4, 3);
  p.buffers[1] = dec;
  p.buffers[2] = "abcde";
  EXPECT_BAD(&p, "u", NRT_EVALUE, "end offset 3 is less than the start offset 4", "row 2");
  p.arr.offset = 1;
  p.arr.length = 3;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "less than the start offset", "row 1:");
  /* The same for large_utf8. */
  static const int64_t dec64[4] = {0, 2, 1, 3};
  producer_init(&p, 3, 3);
  p.buffers[1] = dec64;
  p.buffers[2] = "abc";
  EXPECT_BAD(&p, "U", NRT_EVALUE, "end offset 1 is less than the start offset 2", "row 1");
  static const int64_t neg64[2] = {-5, 0};
  producer_init(&p, 1, 3);
  p.buffers[1] = neg64;
  p.buffers[2] = "abc";
  EXPECT_BAD(&p, "U", NRT_EVALUE, "first offset -5", "row 0");
  /* Offsets addressing bytes of a missing data buffer. */
  static const int32_t two[2] = {0, 2};
  producer_init(&p, 1, 3);
  p.buffers[1] = two;
  p.buffers[2] = NULL;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "beyond the data buffer of 0 bytes", "row 0");
  /* Invalid UTF-8 in a row; a row boundary inside a character. */
  static const int32_t three[4] = {0, 1, 3, 4};
  producer_init(&p, 3, 3);
  p.buffers[1] = three;
  p.buffers[2] = "a\xc3\x28z";
  EXPECT_BAD(&p, "u", NRT_EILSEQ, "invalid UTF-8 at byte 0", "row 1");
  static const int32_t split[3] = {0, 1, 2};
  producer_init(&p, 2, 3);
  p.buffers[1] = split;
  p.buffers[2] = "\xc3\xa9"; /* é cut in two rows */
  EXPECT_BAD(&p, "u", NRT_EILSEQ, "invalid UTF-8", "row 0");
  static const int64_t split64[3] = {0, 3, 5};
  producer_init(&p, 2, 3);
  p.buffers[1] = split64;
  p.buffers[2] = "ab\xc3\xa9x"; /* row 0 = "ab\xc3", row 1 = "\xa9x" */
  EXPECT_BAD(&p, "U", NRT_EILSEQ, "invalid UTF-8 at byte 2", "row 0");
  /* Invalid bytes in a null row are not the consumer's business. */
  static const uint8_t valid_0_2[1] = {0x5};
  producer_init(&p, 3, 3);
  p.buffers[0] = valid_0_2;
  p.arr.null_count = 1;
  p.buffers[1] = three;
  p.buffers[2] = "a\xc3\x28z";
  nrt_column *col;
  producer_releases = 0;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "u", &col, NULL), NRT_OK);
  CHECK_EQ_INT(col->null_count, 1);
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 1);
  /* A null_count that disagrees with the bitmap; -1 means "compute it". */
  producer_init(&p, 3, 3);
  p.buffers[0] = valid_0_2;
  p.arr.null_count = 2;
  p.buffers[1] = three;
  p.buffers[2] = "a\xc3\xa9z";
  EXPECT_BAD(&p, "u", NRT_EVALUE, "null_count 2 does not match the 1 nulls", NULL);
  p.arr.null_count = 0;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "null_count 0 does not match the 1 nulls", NULL);
  p.arr.null_count = -1;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "u", &col, NULL), NRT_OK);
  CHECK_EQ_INT(col->null_count, 1);
  CHECK(!nrt_col_is_valid(col, 1) && nrt_col_is_valid(col, 2));
  nrt_col_release(col);
  /* Bitmap counted from the array's offset. */
  producer_init(&p, 2, 2);
  static const int64_t vals[3] = {7, 8, 9};
  p.buffers[0] = valid_0_2; /* bits 1 0 1: with offset 1, rows are null, valid */
  p.buffers[1] = vals;
  p.arr.offset = 1;
  p.arr.null_count = 0;
  EXPECT_BAD(&p, "l", NRT_EVALUE, "null_count 0 does not match the 1 nulls", NULL);
  /* A trusted import skips the per-row checks but keeps the O(1) ones. */
  producer_releases = 0;
  CHECK_EQ_INT(nrt_col_import_arrow_flags(&p.arr, "l", NRT_COL_IMPORT_TRUSTED, &col, NULL),
               NRT_OK);
  CHECK_EQ_INT(col->null_count, 0);
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 1);
  producer_init(&p, 2, 3);
  p.buffers[1] = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_import_arrow_flags(&p.arr, "u", NRT_COL_IMPORT_TRUSTED, &col, &err),
               NRT_EVALUE);
  CHECK(strstr(err.message, "offsets buffer is NULL") != NULL && p.arr.release != NULL);
  producer_releases = 0;
}

/* A utf8_view producer: views plus up to 2 variadic buffers and the sizes buffer. */
static void view_init(struct producer *p, nrt_col_view *views, int64_t n, const char *b0,
                      int64_t *sizes, int64_t n_variadic) {
  producer_init(p, n, 3 + n_variadic);
  p->buffers[1] = views;
  if (n_variadic > 0)
    p->buffers[2] = b0;
  p->buffers[2 + n_variadic] = sizes;
}

static nrt_col_view inline_view(const char *s) {
  nrt_col_view v;
  memset(&v, 0, sizeof v);
  v.length = (int32_t)strlen(s);
  memcpy(v.u.inlined, s, strlen(s));
  return v;
}

static nrt_col_view ref_view(const char *prefix, int32_t len, int32_t index, int32_t offset) {
  nrt_col_view v;
  memset(&v, 0, sizeof v);
  v.length = len;
  memcpy(v.u.ref.prefix, prefix, 4);
  v.u.ref.buffer_index = index;
  v.u.ref.offset = offset;
  return v;
}

static void test_malformed_views(void) {
  static const char buf[] = "0123456789abcdefghij\xc3\x28xxxxxxxxxxxxxxxx";
  int64_t sizes[1] = {(int64_t)sizeof buf - 1};
  nrt_col_view v[2];
  struct producer p;
  nrt_column *col;
  /* A good one first. */
  v[0] = inline_view("short");
  v[1] = ref_view("0123", 15, 0, 0);
  view_init(&p, v, 2, buf, sizes, 1);
  producer_releases = 0;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "vu", &col, NULL), NRT_OK);
  nrt_str r = nrt_col_str(col, 1);
  CHECK(r.len == 15 && r.data == buf);
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 1);
  /* Negative length. */
  v[1] = ref_view("0123", -3, 0, 0);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "view length -3 is negative", "row 1");
  /* Nonzero padding after an inline string. */
  v[1] = inline_view("abc");
  v[1].u.inlined[7] = 'x';
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "nonzero padding at byte 7", "row 1");
  /* Buffer index out of range, negative. */
  v[1] = ref_view("0123", 15, 1, 0);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "buffer index 1 is outside the 1 data buffers", "row 1");
  v[1] = ref_view("0123", 15, -1, 0);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "buffer index -1", "row 1");
  /* Range outside the buffer: past its end, negative offset. */
  v[1] = ref_view("cdef", 30, 0, 12);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "view [12, 42) is outside data buffer 0", "row 1");
  v[1] = ref_view("0123", 15, 0, -4);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "is outside data buffer 0", "row 1");
  /* Prefix that disagrees with the bytes. */
  v[1] = ref_view("0124", 15, 0, 0);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "prefix does not match", "row 1");
  /* Invalid UTF-8, out of line and inline. */
  v[1] = ref_view("ghij", 14, 0, 16);
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EILSEQ, "invalid UTF-8 at byte 4", "row 1");
  v[0] = inline_view("ok");
  v[1] = inline_view("a\xff");
  view_init(&p, v, 2, buf, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EILSEQ, "invalid UTF-8 at byte 1", "row 1");
  /* The sizes buffer: missing, negative size, NULL buffer with bytes. */
  v[1] = ref_view("0123", 15, 0, 0);
  view_init(&p, v, 2, buf, sizes, 1);
  p.buffers[3] = NULL;
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "sizes buffer is NULL", NULL);
  int64_t neg[1] = {-1};
  view_init(&p, v, 2, buf, neg, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "negative size -1", NULL);
  view_init(&p, v, 2, NULL, sizes, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "variadic buffer 0 of", NULL);
  /* A view into a zero-size buffer. */
  int64_t zero[1] = {0};
  view_init(&p, v, 2, buf, zero, 1);
  EXPECT_BAD(&p, "vu", NRT_EVALUE, "outside data buffer 0 of 0 bytes", "row 1");
  /* Garbage in a null row's view is ignored. */
  static const uint8_t first_only[1] = {0x1};
  v[1] = ref_view("zzzz", -7, 99, -1);
  view_init(&p, v, 2, buf, sizes, 1);
  p.buffers[0] = first_only;
  p.arr.null_count = 1;
  producer_releases = 0;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "vu", &col, NULL), NRT_OK);
  CHECK(!nrt_col_is_valid(col, 1) && nrt_col_str(col, 1).len == 0);
  /* ... and exports/concats as a clean null. */
  nrt_column *cat;
  CHECK_EQ_INT(nrt_col_concat(&col, 1, NRT_COL_UTF8_VIEW, &cat, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate(cat, NULL), NRT_OK);
  nrt_col_release(cat);
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 1);
  producer_releases = 0;
}

/* Fixed-width arrays: bitmaps and values need no content checks beyond null counts. */
static void test_malformed_fixed(void) {
  static const uint8_t bits[1] = {0xF0};
  struct producer p;
  producer_init(&p, 8, 2);
  p.buffers[0] = bits;
  p.buffers[1] = bits;
  p.arr.null_count = 3;
  EXPECT_BAD(&p, "b", NRT_EVALUE, "null_count 3 does not match the 4 nulls", NULL);
  nrt_column *col;
  p.arr.null_count = 4;
  producer_releases = 0;
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "b", &col, NULL), NRT_OK);
  CHECK(!nrt_col_is_valid(col, 0) && nrt_col_is_valid(col, 4) && nrt_col_bool(col, 4));
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 1);
  producer_releases = 0;
}

/* ------------------------------------------------------------------- streams */

static void test_streams(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 6; t++) {
    nrt_column *col = make_column(all_types[t], 200, 1);
    nrt_column *chunks[3];
    nrt_col_slice(col, 0, 50, &chunks[0], NULL);
    nrt_col_slice(col, 50, 0, &chunks[1], NULL);
    nrt_col_slice(col, 50, 150, &chunks[2], NULL);
    struct ArrowArrayStream stream;
    CHECK_EQ_INT(nrt_col_export_stream(chunks, 3, all_types[t], &stream, NULL), NRT_OK);
    for (int k = 0; k < 3; k++)
      nrt_col_release(chunks[k]); /* the stream holds its own references */
    struct nrt_col_chunked got;
    CHECK_EQ_INT(nrt_col_import_stream(&stream, &got, NULL), NRT_OK);
    CHECK(stream.release == NULL);
    CHECK_EQ_INT(got.type, all_types[t]);
    CHECK_EQ_INT(got.n_chunks, 3);
    CHECK_EQ_INT(got.length, 200);
    nrt_column *all;
    CHECK_EQ_INT(nrt_col_concat(got.chunks, got.n_chunks, all_types[t], &all, NULL), NRT_OK);
    CHECK(nrt_col_equal(all, col));
    CHECK(got.chunks[2]->values.data == col->values.data); /* zero-copy */
    nrt_col_release(all);
    nrt_col_chunked_release(&got);
    CHECK(got.chunks == NULL && got.n_chunks == 0);
    nrt_col_release(col);
  }
  /* An empty stream still has a schema. */
  struct ArrowArrayStream stream;
  CHECK_EQ_INT(nrt_col_export_stream(NULL, 0, NRT_COL_FLOAT64, &stream, NULL), NRT_OK);
  struct ArrowSchema schema;
  CHECK_EQ_INT(stream.get_schema(&stream, &schema), 0);
  CHECK_EQ_STR(schema.format, "g");
  schema.release(&schema);
  struct ArrowArray end;
  CHECK_EQ_INT(stream.get_next(&stream, &end), 0);
  CHECK(end.release == NULL);
  CHECK_EQ_INT(stream.get_next(&stream, &end), 0);
  CHECK(end.release == NULL);
  CHECK(stream.get_last_error(&stream) == NULL);
  struct nrt_col_chunked got;
  CHECK_EQ_INT(nrt_col_import_stream(&stream, &got, NULL), NRT_OK);
  CHECK_EQ_INT(got.n_chunks, 0);
  CHECK_EQ_INT(got.type, NRT_COL_FLOAT64);
  nrt_col_chunked_release(&got);
  /* Mixed types are refused. */
  nrt_column *a = make_column(NRT_COL_INT64, 3, 0), *b = make_column(NRT_COL_BOOL, 3, 0);
  nrt_column *mixed[2] = {a, b};
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_export_stream(mixed, 2, NRT_COL_INT64, &stream, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "column 1") != NULL);
  nrt_col_release(a);
  nrt_col_release(b);
  nrt_col_chunked_release(NULL);
  CHECK_NO_LEAK(before);
}

/* A foreign stream: chunk 0 good, then either an error or a malformed chunk. */
struct foreign_stream {
  int next;
  int mode; /* 0: error at chunk 1; 1: malformed chunk 1; 2: schema error */
  struct producer chunks[2];
};

static int fs_schema(struct ArrowArrayStream *s, struct ArrowSchema *out) {
  struct foreign_stream *f = (struct foreign_stream *)s->private_data;
  if (f->mode == 2)
    return NRT_EIO;
  return nrt_col_export_schema(NRT_COL_UTF8, "text", out, NULL);
}

static int fs_next(struct ArrowArrayStream *s, struct ArrowArray *out) {
  struct foreign_stream *f = (struct foreign_stream *)s->private_data;
  if (f->next == 1 && f->mode == 0)
    return NRT_EIO;
  if (f->next == 2) {
    memset(out, 0, sizeof *out);
    return 0;
  }
  *out = f->chunks[f->next++].arr;
  return 0;
}

static const char *fs_error(struct ArrowArrayStream *s) {
  (void)s;
  return "the disk caught fire";
}

static int fs_released;
static void fs_release(struct ArrowArrayStream *s) {
  fs_released++;
  s->release = NULL;
}

static void test_foreign_streams(void) {
  struct check_live before = check_live_now();
  static const int32_t good[3] = {0, 2, 3};
  static const int32_t bad[3] = {0, 2, 1};
  for (int mode = 0; mode < 3; mode++) {
    struct foreign_stream f;
    memset(&f, 0, sizeof f);
    f.mode = mode;
    for (int k = 0; k < 2; k++) {
      producer_init(&f.chunks[k], 2, 3);
      f.chunks[k].buffers[1] = k ? bad : good;
      f.chunks[k].buffers[2] = "abc";
    }
    struct ArrowArrayStream s = {fs_schema, fs_next, fs_error, fs_release, &f};
    producer_releases = 0;
    fs_released = 0;
    struct nrt_col_chunked got;
    struct nrt_error err = {0};
    int rc = nrt_col_import_stream(&s, &got, &err);
    CHECK(rc != NRT_OK);
    CHECK_EQ_INT(got.n_chunks, 0);
    CHECK_EQ_INT(fs_released, 1);
    if (mode == 0) {
      CHECK(strstr(err.message, "the disk caught fire") != NULL);
      CHECK_EQ_INT(producer_releases, 1); /* chunk 0 was imported, then released */
    } else if (mode == 1) {
      CHECK(strstr(err.message, "chunk 1") && strstr(err.message, "row 1"));
      if (!strstr(err.message, "row 1"))
        fprintf(stderr, "message: %s\n", err.message);
      CHECK_EQ_INT(producer_releases, 2); /* the bad chunk released by the importer too */
    } else {
      CHECK(strstr(err.message, "get_schema") != NULL);
      CHECK_EQ_INT(producer_releases, 0);
    }
  }
  producer_releases = 0;
  CHECK_NO_LEAK(before);
}

static void test_schema(void) {
  struct check_live before = check_live_now();
  struct ArrowSchema s;
  CHECK_EQ_INT(nrt_col_export_schema(NRT_COL_UTF8_VIEW, "city", &s, NULL), NRT_OK);
  CHECK_EQ_STR(s.format, "vu");
  CHECK_EQ_STR(s.name, "city");
  CHECK(s.metadata == NULL && s.dictionary == NULL && s.children == NULL);
  s.release(&s);
  CHECK(s.release == NULL);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_export_schema((enum nrt_col_type)9, NULL, &s, &err), NRT_EINVAL);
  enum nrt_col_type t;
  for (int k = 0; k < 6; k++) {
    CHECK_EQ_INT(nrt_col_type_from_arrow_format(nrt_col_arrow_format(all_types[k]), &t, NULL), NRT_OK);
    CHECK_EQ_INT(t, all_types[k]);
  }
  CHECK_EQ_INT(nrt_col_type_from_arrow_format("vz", &t, &err), NRT_EUNSUPPORTED);
  CHECK(nrt_col_arrow_format((enum nrt_col_type)0) == NULL);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------ failure injection */

static int trial_round_trip(void *vctx) {
  enum nrt_col_type t = *(enum nrt_col_type *)vctx;
  nrt_column *col = make_column(t, 40, 1);
  if (!col)
    return NRT_ENOMEM;
  struct ArrowArray arr;
  struct ArrowSchema schema;
  int rc = nrt_col_export_arrow(col, &arr, &schema, NULL);
  nrt_col_release(col);
  if (rc)
    return rc;
  nrt_column *back;
  rc = nrt_col_import_arrow(&arr, schema.format, &back, NULL);
  schema.release(&schema);
  if (rc) {
    arr.release(&arr); /* not moved */
    return rc;
  }
  nrt_col_release(back);
  return NRT_OK;
}

static int trial_stream(void *vctx) {
  (void)vctx;
  nrt_column *col = make_column(NRT_COL_UTF8_VIEW, 60, 1);
  if (!col)
    return NRT_ENOMEM;
  nrt_column *parts[12];
  for (int k = 0; k < 12; k++)
    parts[k] = col;
  struct ArrowArrayStream s;
  int rc = nrt_col_export_stream(parts, 12, NRT_COL_UTF8_VIEW, &s, NULL);
  nrt_col_release(col);
  if (rc)
    return rc;
  struct nrt_col_chunked got;
  rc = nrt_col_import_stream(&s, &got, NULL);
  nrt_col_chunked_release(&got);
  return rc;
}

static void test_failure_injection(void) {
  for (int t = 0; t < 6; t++) {
    enum nrt_col_type type = all_types[t];
    CHECK(check_every_allocation_failure("round trip", trial_round_trip, &type) > 5);
  }
  CHECK(check_every_allocation_failure("stream", trial_stream, NULL) > 20);
}

int main(void) {
  test_round_trips();
  test_producer_lifetime();
  test_malformed_shapes();
  test_malformed_offsets();
  test_malformed_views();
  test_malformed_fixed();
  test_streams();
  test_foreign_streams();
  test_schema();
  test_failure_injection();
  struct nrt_stats s;
  nrt_stats_get(&s);
  if (nrt_stats_enabled()) {
    CHECK_EQ_INT(s.alloc, s.free);
    CHECK_EQ_INT(s.mi_alloc, s.mi_free);
  }
  return check_finish("test_column_arrow");
}

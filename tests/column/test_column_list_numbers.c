/* List columns of numbers (list<int64>, list<double>, list<bool>): building item by item
 * (nrt_col_builder_list_items / nrt_col_builder_end_list) with null rows and null items, row
 * access, slices, concatenation, equality, Arrow export and import with the child formats
 * "l", "g", "b" (zero-copy both ways), streams, validation of malformed imported arrays (bad
 * child offsets, a child of the wrong shape), builder errors, and failure injection. */
#include <math.h>

#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "support/check.h"

static const enum nrt_col_type kinds[3] = {NRT_COL_INT64, NRT_COL_FLOAT64, NRT_COL_BOOL};

/* Row i of the test data: a null row every 7th, else (i % 5) items; item k of row i is null
 * when (i + k) % 11 == 10. */
static bool row_null(int64_t i) { return i % 7 == 3; }
static int64_t row_len(int64_t i) { return i % 5; }
static bool item_null(int64_t i, int64_t k) { return (i + k) % 11 == 10; }
static int64_t item_int(int64_t i, int64_t k) { return (i * 1000003 + k) * (k % 2 ? -1 : 1); }
static double item_float(int64_t i, int64_t k) {
  static const double special[4] = {-0.0, 1e16, 0.1, 2.5};
  return k == 3 && i % 3 == 0 ? INFINITY : k < 4 ? special[k] * (double)(i + 1) : NAN;
}
static bool item_bool(int64_t i, int64_t k) { return (i + k) % 3 == 0; }

/* Appends row i's items to b's item builder (of `child` type) and ends the row. */
static int append_row(nrt_col_builder *b, enum nrt_col_type child, int64_t i) {
  if (row_null(i))
    return nrt_col_builder_append_null(b);
  nrt_col_builder *items = nrt_col_builder_list_items(b);
  for (int64_t k = 0; k < row_len(i); k++) {
    if (item_null(i, k))
      nrt_col_builder_append_null(items);
    else if (child == NRT_COL_INT64)
      nrt_col_builder_append_int64(items, item_int(i, k));
    else if (child == NRT_COL_FLOAT64)
      nrt_col_builder_append_float64(items, item_float(i, k));
    else
      nrt_col_builder_append_bool(items, item_bool(i, k));
  }
  return nrt_col_builder_end_list(b);
}

static nrt_column *make_list(enum nrt_col_type child, int64_t first, int64_t n) {
  nrt_col_builder *b = NULL;
  if (nrt_col_builder_new_list(child, n, &b, NULL))
    return NULL;
  for (int64_t i = first; i < first + n; i++)
    append_row(b, child, i);
  nrt_column *col = NULL;
  nrt_col_builder_finish(b, &col, NULL);
  return col;
}

/* Row i of col holds exactly row `want` of the test data. */
static bool row_is(const nrt_column *col, int64_t i, int64_t want) {
  if (nrt_col_is_valid(col, i) == row_null(want))
    return false;
  if (row_null(want))
    return true;
  const nrt_column *items = nrt_col_list_child(col);
  int64_t start, end;
  nrt_col_list_range(col, i, &start, &end);
  if (end - start != row_len(want))
    return false;
  for (int64_t k = 0; k < row_len(want); k++) {
    int64_t at = start + k;
    if (nrt_col_is_valid(items, at) == item_null(want, k))
      return false;
    if (item_null(want, k))
      continue;
    bool same = items->type == NRT_COL_INT64 ? nrt_col_int64(items, at) == item_int(want, k)
              : items->type == NRT_COL_BOOL  ? nrt_col_bool(items, at) == item_bool(want, k)
                                             : false;
    if (items->type == NRT_COL_FLOAT64) {
      double x = nrt_col_float64(items, at), y = item_float(want, k);
      same = memcmp(&x, &y, sizeof x) == 0;
    }
    if (!same)
      return false;
  }
  return true;
}

static void check_rows(const nrt_column *col, int64_t first) {
  bool all = true;
  for (int64_t i = 0; i < col->length; i++)
    all = all && row_is(col, i, first + i);
  CHECK(all);
}

static void test_build_slice_concat(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 3; t++) {
    nrt_column *col = make_list(kinds[t], 0, 70);
    CHECK(col != NULL && col->type == NRT_COL_LIST && col->length == 70);
    CHECK_EQ_INT(col->null_count, 10);
    CHECK_EQ_INT(nrt_col_list_child(col)->type, kinds[t]);
    CHECK(nrt_col_list_child(col)->null_count > 0);
    CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
    check_rows(col, 0);
    nrt_column *a = NULL, *b = NULL, *cat = NULL, *again = make_list(kinds[t], 0, 70);
    CHECK_EQ_INT(nrt_col_slice(col, 0, 33, &a, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_slice(col, 33, 37, &b, NULL), NRT_OK);
    check_rows(b, 33);
    nrt_column *parts[2] = {a, b};
    CHECK_EQ_INT(nrt_col_concat(parts, 2, NRT_COL_LIST, &cat, NULL), NRT_OK);
    CHECK(nrt_col_equal(cat, col) && nrt_col_equal(again, col));
    CHECK(!nrt_col_equal(a, b));
    CHECK_EQ_INT(nrt_col_validate(cat, NULL), NRT_OK);
    check_rows(cat, 0);
    /* Lists of another item type are never equal, nor concatenated together. */
    nrt_column *other = make_list(kinds[(t + 1) % 3], 0, 70), *bad = NULL;
    CHECK(!nrt_col_equal(other, col));
    nrt_column *mixed[2] = {col, other};
    CHECK_EQ_INT(nrt_col_concat(mixed, 2, NRT_COL_LIST, &bad, NULL), NRT_EINVAL);
    CHECK(bad == NULL);
    nrt_col_release(other);
    nrt_col_release(again);
    nrt_col_release(cat);
    nrt_col_release(a);
    nrt_col_release(b);
    nrt_col_release(col);
  }
  CHECK_NO_LEAK(before);
}

static void test_builder_errors(void) {
  struct check_live before = check_live_now();
  struct nrt_error err = {0};
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_LIST, 0, &b, &err), NRT_EINVAL);
  CHECK(b == NULL && strstr(err.message, "not list") != NULL);
  /* Not a list builder: no item builder, no row end. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  CHECK(nrt_col_builder_list_items(b) == NULL);
  CHECK(nrt_col_builder_list_items(NULL) == NULL);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EINVAL);
  CHECK(col == NULL && strstr(err.message, "row 0: a list row ended in a int64 builder"));
  /* A list of str into a list of numbers. */
  nrt_str words[2] = {nrt_str_view("a", 1), nrt_str_view("b", 1)};
  nrt_str_list list = {NULL, 2, 2, words};
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_list(b, &list), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "a list of str appended to a list of int64 builder") != NULL);
  /* An item of the wrong type: the item builder's error becomes the list's at the row end. */
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_FLOAT64, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_float64(nrt_col_builder_list_items(b), 1.5), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_int64(nrt_col_builder_list_items(b), 1), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "row 1: the list's items: ") != NULL);
  /* Empty lists, a null row, and items pending at a null row go to the next row. */
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_BOOL, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_bool(nrt_col_builder_list_items(b), true), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_null(b), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_length(b), 3);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  int64_t s, e;
  nrt_col_list_range(col, 0, &s, &e);
  CHECK(s == 0 && e == 0 && !nrt_col_is_valid(col, 1));
  nrt_col_list_range(col, 2, &s, &e);
  CHECK(s == 0 && e == 1 && nrt_col_bool(nrt_col_list_child(col), 0));
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
  nrt_col_release(col);
  /* Managed strings appended item by item to a list<utf8_view>: recorded, counted by the list
   * builder, released by its free pass; the column keeps the bytes. */
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  nrt_str m;
  CHECK_EQ_INT(nrt_str_new("a managed string of 30 bytes..", 30, &m, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_str(nrt_col_builder_list_items(b), &m), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_str(nrt_col_builder_list_items(b), &m), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_ref_count(b), 2);
  CHECK_EQ_INT(m.mi->refct, 3);
  nrt_col_builder_free_pass(b);
  CHECK_EQ_INT(nrt_col_builder_ref_count(b), 0);
  CHECK_EQ_INT(m.mi->refct, 1);
  CHECK_EQ_INT(nrt_col_builder_append_str(nrt_col_builder_list_items(b), &m), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_end_list(b), NRT_OK);
  nrt_memblock *refs = NULL;
  CHECK_EQ_INT(nrt_col_builder_finish_keep_refs(b, &col, &refs, NULL), NRT_OK);
  CHECK(refs == NULL && m.mi->refct == 1); /* the items' references went at finish */
  nrt_str_release(&m);
  nrt_str x = nrt_col_str(nrt_col_list_child(col), 2);
  CHECK(x.len == 30 && memcmp(x.data, "a managed string", 16) == 0);
  nrt_col_release(col);
  /* An aborted list builder releases its items' references too. */
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_str_new("another managed one", 19, &m, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_str(nrt_col_builder_list_items(b), &m), NRT_OK);
  nrt_col_builder_abort(b);
  CHECK_EQ_INT(m.mi->refct, 1);
  nrt_str_release(&m);
  CHECK_NO_LEAK(before);
}

static void test_arrow_round_trips(void) {
  struct check_live before = check_live_now();
  static const char *const formats[3] = {"l", "g", "b"};
  for (int t = 0; t < 3; t++) {
    nrt_column *col = make_list(kinds[t], 0, 90);
    for (int64_t start = 0; start <= 10; start += 5) {
      nrt_column *s = NULL;
      CHECK_EQ_INT(nrt_col_slice(col, start, 70, &s, NULL), NRT_OK);
      struct ArrowArray arr;
      struct ArrowSchema schema;
      CHECK_EQ_INT(nrt_col_export_arrow(s, &arr, &schema, NULL), NRT_OK);
      CHECK_EQ_STR(schema.format, "+l");
      CHECK(schema.n_children == 1 && schema.children && schema.children[0]);
      CHECK_EQ_STR(schema.children[0]->format, formats[t]);
      CHECK_EQ_STR(schema.children[0]->name, "item");
      CHECK(arr.n_buffers == 2 && arr.n_children == 1 && arr.offset == start);
      CHECK(arr.children[0]->n_buffers == 2);
      CHECK(arr.children[0]->buffers[1] == nrt_col_list_child(s)->values.data);
      CHECK(arr.children[0]->null_count > 0 && arr.children[0]->buffers[0] != NULL);
      nrt_column *back = NULL;
      CHECK_EQ_INT(nrt_col_import_arrow_schema(&arr, &schema, 0, &back, NULL), NRT_OK);
      CHECK(arr.release == NULL);
      CHECK(back->values.data == s->values.data); /* zero-copy both ways */
      CHECK(nrt_col_list_child(back)->values.data == nrt_col_list_child(s)->values.data);
      CHECK_EQ_INT(nrt_col_list_child(back)->type, kinds[t]);
      CHECK(nrt_col_equal(back, s));
      check_rows(back, start);
      schema.release(&schema);
      nrt_col_release(s);
      nrt_col_release(back);
    }
    struct ArrowSchema schema;
    CHECK_EQ_INT(nrt_col_export_list_schema(kinds[t], "n", &schema, NULL), NRT_OK);
    CHECK_EQ_STR(schema.children[0]->format, formats[t]);
    schema.release(&schema);
    /* Streams of lists of numbers. */
    nrt_column *chunks[2];
    CHECK_EQ_INT(nrt_col_slice(col, 0, 40, &chunks[0], NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_slice(col, 40, 50, &chunks[1], NULL), NRT_OK);
    struct ArrowArrayStream stream;
    CHECK_EQ_INT(nrt_col_export_stream(chunks, 2, NRT_COL_LIST, &stream, NULL), NRT_OK);
    struct nrt_col_chunked got;
    CHECK_EQ_INT(nrt_col_import_stream(&stream, &got, NULL), NRT_OK);
    CHECK(got.n_chunks == 2 && got.length == 90);
    for (size_t k = 0; k < got.n_chunks && k < 2; k++)
      CHECK(nrt_col_equal(got.chunks[k], chunks[k]));
    nrt_col_chunked_release(&got);
    nrt_col_release(chunks[0]);
    nrt_col_release(chunks[1]);
    nrt_col_release(col);
  }
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------- malformed imported arrays */

static void schema_noop(struct ArrowSchema *s) { (void)s; }
static void producer_release(struct ArrowArray *a) { a->release = NULL; }

/* A producer's list<int64> array: rows [1, 2], [], [3, null] over a child of 4 items. */
struct producer {
  struct ArrowArray arr, child;
  struct ArrowArray *children[1];
  const void *buffers[2], *child_buffers[3];
  int32_t offsets[4];
  int64_t values[4];
  uint8_t child_validity[1];
};

static void producer_init(struct producer *p) {
  memset(p, 0, sizeof *p);
  static const int32_t offs[4] = {0, 2, 2, 4};
  static const int64_t vals[4] = {1, 2, 3, 0};
  memcpy(p->offsets, offs, sizeof offs);
  memcpy(p->values, vals, sizeof vals);
  p->child_validity[0] = 0x7;
  p->child_buffers[0] = p->child_validity;
  p->child_buffers[1] = p->values;
  p->child.length = 4;
  p->child.null_count = 1;
  p->child.n_buffers = 2;
  p->child.buffers = p->child_buffers;
  p->child.release = producer_release;
  p->buffers[1] = p->offsets;
  p->children[0] = &p->child;
  p->arr.length = 3;
  p->arr.n_buffers = 2;
  p->arr.buffers = p->buffers;
  p->arr.n_children = 1;
  p->arr.children = p->children;
  p->arr.release = producer_release;
}

static int import_as(struct producer *p, const char *child_format, nrt_column **out,
                     struct nrt_error *err) {
  struct ArrowSchema item = {.format = child_format, .release = schema_noop};
  struct ArrowSchema *items[1] = {&item};
  struct ArrowSchema schema = {.format = "+l", .n_children = 1, .children = items,
                               .release = schema_noop};
  return nrt_col_import_arrow_schema(&p->arr, &schema, 0, out, err);
}

static void expect_bad(struct producer *p, int code, const char *want, int line) {
  struct check_live before = check_live_now();
  nrt_column *col = NULL;
  struct nrt_error err = {0};
  int rc = import_as(p, "l", &col, &err);
  if (rc != code || col != NULL || !strstr(err.message, want))
    check_failf(__FILE__, line, "import gave %d \"%s\", expected %d with \"%s\"", rc,
                err.message, code, want);
  else
    check_pass();
  CHECK(p->arr.release == producer_release); /* left with the caller */
  CHECK_NO_LEAK(before);
}
#define EXPECT_BAD(p, code, want) expect_bad(p, code, want, __LINE__)

static void test_malformed(void) {
  struct check_live before = check_live_now();
  struct producer p;
  producer_init(&p);
  nrt_column *col = NULL;
  CHECK_EQ_INT(import_as(&p, "l", &col, NULL), NRT_OK);
  CHECK(col && nrt_col_list_child(col)->values.data == p.values);
  int64_t s, e;
  nrt_col_list_range(col, 2, &s, &e);
  CHECK(s == 2 && e == 4 && nrt_col_int64(nrt_col_list_child(col), 2) == 3 &&
        !nrt_col_is_valid(nrt_col_list_child(col), 3));
  nrt_col_release(col);
  producer_init(&p);
  p.offsets[3] = 5;
  EXPECT_BAD(&p, NRT_EVALUE, "row 2: end offset 5 is beyond the child column of 4 rows");
  producer_init(&p);
  p.offsets[2] = 1;
  EXPECT_BAD(&p, NRT_EVALUE, "row 1: end offset 1 is less than the start offset 2");
  producer_init(&p);
  p.offsets[0] = -1;
  EXPECT_BAD(&p, NRT_EVALUE, "row 0: first offset -1 is negative");
  producer_init(&p);
  p.child.n_buffers = 3; /* a string child's shape under an int64 format */
  EXPECT_BAD(&p, NRT_EVALUE, "child: a int64 array needs 2 buffers, has 3");
  producer_init(&p);
  p.child.null_count = 2;
  EXPECT_BAD(&p, NRT_EVALUE, "child: null_count 2 does not match the 1 nulls");
  producer_init(&p);
  p.child.buffers = NULL;
  EXPECT_BAD(&p, NRT_EVALUE, "child: the buffers array is NULL");
  /* A child format nrt does not hold in lists. */
  producer_init(&p);
  struct nrt_error err = {0};
  CHECK_EQ_INT(import_as(&p, "i", &col, &err), NRT_EUNSUPPORTED);
  CHECK(strstr(err.message, "a list of \"i\" is not supported") != NULL);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------------ failure injection */

/* Build, slice, concatenate, export and import again: every allocation may fail. */
static int trial(void *ctx) {
  enum nrt_col_type child = *(const enum nrt_col_type *)ctx;
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL, *s = NULL, *cat = NULL, *back = NULL;
  struct ArrowArray arr;
  struct ArrowSchema schema;
  int rc = nrt_col_builder_new_list(child, 4, &b, NULL);
  for (int64_t i = 0; rc == NRT_OK && i < 40; i++)
    append_row(b, child, i);
  if (rc == NRT_OK)
    rc = nrt_col_builder_finish(b, &col, NULL);
  if (rc == NRT_OK)
    rc = nrt_col_slice(col, 3, 30, &s, NULL);
  nrt_column *parts[2] = {s, col};
  if (rc == NRT_OK)
    rc = nrt_col_concat(parts, 2, NRT_COL_LIST, &cat, NULL);
  if (rc == NRT_OK)
    rc = nrt_col_export_arrow(cat, &arr, &schema, NULL);
  if (rc == NRT_OK) {
    rc = nrt_col_import_arrow_schema(&arr, &schema, 0, &back, NULL);
    if (rc)
      arr.release(&arr);
    schema.release(&schema);
  }
  if (rc == NRT_OK && (!nrt_col_equal(back, cat) || back->length != 70))
    rc = NRT_EINVAL;
  nrt_col_release(back);
  nrt_col_release(cat);
  nrt_col_release(s);
  nrt_col_release(col);
  return rc;
}

static void test_failure_injection(void) {
  for (int t = 0; t < 3; t++) {
    enum nrt_col_type child = kinds[t];
    CHECK(check_every_allocation_failure(nrt_col_type_name(child), trial, &child) > 0);
  }
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  test_build_slice_concat();
  test_builder_errors();
  test_arrow_round_trips();
  test_malformed();
  test_failure_injection();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_column_list_numbers");
}

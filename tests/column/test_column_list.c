/* List columns (list<utf8 | large_utf8 | utf8_view>): building, row access, zero-copy
 * slices, concatenation, equality, validation, Arrow export/import (zero-copy both ways, with
 * nulls and slices, the child moved out by a consumer), one malformed imported array per
 * validation rule, streams, and failure injection. */
#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "support/check.h"

static const enum nrt_col_type layouts[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                             NRT_COL_UTF8_VIEW};

/* Row i of the test data: NULL (a null row) or whitespace-separated items, multilingual and
 * sometimes longer than a view's 12 inline bytes; "" and "  " are empty lists. */
static const char *row_text(int64_t i) {
  static const char *const rows[] = {
      "alpha beta", NULL, "", "один два три", "漢字 かな カナ", "straße ǅemal İstanbul",
      "emoji😀x a-rather-long-item-past-twelve-bytes", "single", "  ", "Ελληνικά κείμενα εδώ",
      "x y z w v u", NULL, "café"};
  return rows[i % 13];
}

/* The items of row i as a list (caller releases it), or NULL for a null row. */
static nrt_str_list *row_list(int64_t i) {
  const char *t = row_text(i);
  if (!t)
    return NULL;
  nrt_str s = nrt_str_view(t, (int64_t)strlen(t));
  nrt_str_list *l = NULL;
  CHECK_EQ_INT(nrt_str_split(&s, NULL, -1, &l, NULL), NRT_OK);
  return l;
}

/* A list column of rows [first, first + n) of the test data with items of `child` layout. */
static nrt_column *make_list(enum nrt_col_type child, int64_t first, int64_t n) {
  nrt_col_builder *b = NULL;
  if (nrt_col_builder_new_list(child, n, &b, NULL))
    return NULL;
  for (int64_t i = first; i < first + n; i++) {
    nrt_str_list *l = row_list(i);
    if (l)
      nrt_col_builder_append_list(b, l);
    else
      nrt_col_builder_append_null(b);
    nrt_str_list_release(l);
  }
  nrt_column *col = NULL;
  nrt_col_builder_finish(b, &col, NULL);
  return col;
}

/* Row i of col holds exactly row `want` of the test data. */
static bool row_is(const nrt_column *col, int64_t i, int64_t want) {
  nrt_str_list *l = row_list(want);
  bool ok = nrt_col_is_valid(col, i) == (l != NULL);
  if (ok && l) {
    const nrt_column *items = nrt_col_list_child(col);
    int64_t start, end;
    nrt_col_list_range(col, i, &start, &end);
    ok = end - start == l->len;
    for (int64_t k = 0; ok && k < l->len; k++) {
      nrt_str s = nrt_col_str(items, start + k);
      ok = nrt_col_is_valid(items, start + k) && s.len == l->items[k].len &&
           memcmp(s.data, l->items[k].data, (size_t)s.len) == 0;
    }
  }
  nrt_str_list_release(l);
  return ok;
}

static void check_rows(const nrt_column *col, int64_t first) {
  bool all = true;
  for (int64_t i = 0; i < col->length; i++)
    all = all && row_is(col, i, first + i);
  CHECK(all);
}

static void test_build(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 3; t++) {
    nrt_column *col = make_list(layouts[t], 0, 40);
    CHECK(col != NULL);
    CHECK_EQ_INT(col->type, NRT_COL_LIST);
    CHECK_EQ_STR(nrt_col_type_name(col->type), "list");
    CHECK_EQ_INT(col->length, 40);
    CHECK_EQ_INT(col->null_count, 6);
    CHECK_EQ_INT(nrt_col_list_child(col)->type, layouts[t]);
    CHECK_EQ_INT(nrt_col_list_child(col)->null_count, 0);
    CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
    check_rows(col, 0);
    /* A null row has an empty range (the builder repeats the offset). */
    int64_t s, e;
    nrt_col_list_range(col, 1, &s, &e);
    CHECK(s == e);
    nrt_col_release(col);
  }
  /* An empty list column, and one of only nulls. */
  nrt_col_builder *b;
  nrt_column *col;
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_type(b), NRT_COL_LIST);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  CHECK(col->length == 0 && nrt_col_list_child(col)->length == 0);
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
  nrt_col_release(col);
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  for (int i = 0; i < 20; i++)
    nrt_col_builder_append_null(b);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  CHECK(col->null_count == 20 && nrt_col_validate(col, NULL) == NRT_OK);
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

static void test_builder_errors(void) {
  struct check_live before = check_live_now();
  struct nrt_error err = {0};
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_LIST, 0, &b, &err), NRT_EINVAL);
  CHECK(b == NULL && strstr(err.message, "nrt_col_builder_new_list") != NULL);
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_LIST, 0, &b, &err), NRT_EINVAL);
  CHECK(b == NULL && strstr(err.message, "not list") != NULL);
  nrt_str_list *l = row_list(0);
  /* A list into a string builder, a string into a list builder, a NULL list. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_list(b, l), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EINVAL);
  CHECK(col == NULL && strstr(err.message, "a list appended to a utf8 builder") != NULL);
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_list(b, l), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "x", 1), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_append_list(b, l), NRT_EINVAL); /* sticky */
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "row 1: string appended to a list builder") != NULL);
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_list(b, NULL), NRT_EINVAL);
  nrt_col_builder_abort(b);
  /* The builder copies the items: the caller's list keeps its one reference. */
  CHECK_EQ_INT(nrt_col_builder_new_list(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_list(b, l), NRT_OK);
  CHECK_EQ_INT(l->mi->refct, 1);
  CHECK_EQ_INT(nrt_col_builder_ref_count(b), 0);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  nrt_str_list_release(l);
  CHECK(row_is(col, 0, 0)); /* the items outlive the list */
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

static void test_slice_concat_equal(void) {
  struct check_live before = check_live_now();
  nrt_column *col = make_list(NRT_COL_UTF8, 0, 60);
  /* Slices share the offsets and the child. */
  nrt_column *s = NULL;
  CHECK_EQ_INT(nrt_col_slice(col, 5, 30, &s, NULL), NRT_OK);
  CHECK(s->values.data == col->values.data);
  CHECK(nrt_col_list_child(s) == nrt_col_list_child(col));
  CHECK_EQ_INT(s->offset, 5);
  check_rows(s, 5);
  nrt_column *rebuilt = make_list(NRT_COL_UTF8_VIEW, 5, 30);
  CHECK(nrt_col_equal(s, rebuilt)); /* across child layouts and offsets */
  CHECK_EQ_INT(nrt_col_validate(s, NULL), NRT_OK);
  nrt_column *other = make_list(NRT_COL_UTF8, 6, 30);
  CHECK(!nrt_col_equal(s, other));
  /* A slice of a slice; then slices' concatenations into each child layout. */
  nrt_column *ss = NULL, *tail = NULL;
  CHECK_EQ_INT(nrt_col_slice(s, 3, 10, &ss, NULL), NRT_OK);
  check_rows(ss, 8);
  CHECK_EQ_INT(nrt_col_slice(col, 35, 25, &tail, NULL), NRT_OK);
  nrt_column *parts[3] = {ss, tail, rebuilt};
  nrt_column *cat = NULL;
  CHECK_EQ_INT(nrt_col_concat(parts, 3, NRT_COL_LIST, &cat, NULL), NRT_OK);
  CHECK_EQ_INT(cat->length, 65);
  CHECK_EQ_INT(cat->null_count, ss->null_count + tail->null_count + rebuilt->null_count);
  CHECK_EQ_INT(nrt_col_list_child(cat)->type, NRT_COL_UTF8); /* the first source's layout */
  CHECK_EQ_INT(nrt_col_validate(cat, NULL), NRT_OK);
  bool all = true;
  for (int64_t i = 0; i < 65; i++)
    all = all && row_is(cat, i, i < 10 ? 8 + i : i < 35 ? 35 + i - 10 : 5 + i - 35);
  CHECK(all);
  nrt_col_release(cat);
  parts[0] = rebuilt;
  parts[2] = ss;
  CHECK_EQ_INT(nrt_col_concat(parts, 3, NRT_COL_LIST, &cat, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_list_child(cat)->type, NRT_COL_UTF8_VIEW);
  CHECK_EQ_INT(nrt_col_validate(cat, NULL), NRT_OK);
  nrt_col_release(cat);
  CHECK_EQ_INT(nrt_col_concat(parts, 0, NRT_COL_LIST, &cat, NULL), NRT_OK);
  CHECK(cat->length == 0 && nrt_col_validate(cat, NULL) == NRT_OK);
  nrt_col_release(cat);
  /* Lists mix with nothing else; they convert only to themselves. */
  nrt_column *strings = NULL;
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  nrt_col_builder_append_view(b, "a", 1);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &strings, NULL), NRT_OK);
  parts[1] = strings;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_concat(parts, 2, NRT_COL_LIST, &cat, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "column 1 is utf8") != NULL);
  CHECK_EQ_INT(nrt_col_concat(parts, 1, NRT_COL_UTF8, &cat, &err), NRT_EINVAL);
  CHECK(!nrt_col_equal(strings, col));
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_UTF8, &cat, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_LIST, &cat, NULL), NRT_OK);
  CHECK(cat == col);
  nrt_col_release(cat);
  nrt_col_release(strings);
  nrt_col_release(tail);
  nrt_col_release(ss);
  nrt_col_release(other);
  nrt_col_release(rebuilt);
  nrt_col_release(s);
  /* The slice holds the child: released last, it still reads its rows. */
  CHECK_EQ_INT(nrt_col_slice(col, 10, 5, &s, NULL), NRT_OK);
  nrt_col_release(col);
  check_rows(s, 10);
  nrt_col_release(s);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------------ Arrow */

static void test_arrow_round_trips(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 3; t++) {
    nrt_column *col = make_list(layouts[t], 0, 80);
    for (int64_t start = 0; start <= 14; start += 7) {
      nrt_column *s = NULL;
      CHECK_EQ_INT(nrt_col_slice(col, start, 60, &s, NULL), NRT_OK);
      struct ArrowArray arr;
      struct ArrowSchema schema;
      CHECK_EQ_INT(nrt_col_export_arrow(s, &arr, &schema, NULL), NRT_OK);
      CHECK_EQ_STR(schema.format, "+l");
      CHECK(schema.n_children == 1 && schema.children && schema.children[0]);
      CHECK_EQ_STR(schema.children[0]->format, nrt_col_arrow_format(layouts[t]));
      CHECK_EQ_STR(schema.children[0]->name, "item");
      CHECK(arr.n_buffers == 2 && arr.n_children == 1 && arr.offset == start);
      CHECK(arr.buffers[1] == s->values.data); /* zero-copy export */
      CHECK_EQ_INT(arr.null_count, s->null_count);
      CHECK(arr.children[0]->buffers[1] == nrt_col_list_child(s)->values.data);
      nrt_column *back = NULL;
      CHECK_EQ_INT(nrt_col_import_arrow_schema(&arr, &schema, 0, &back, NULL), NRT_OK);
      CHECK(arr.release == NULL); /* moved */
      CHECK(back->values.data == s->values.data); /* zero-copy import */
      CHECK_EQ_INT(nrt_col_list_child(back)->type, layouts[t]);
      CHECK(nrt_col_equal(back, s));
      check_rows(back, start);
      schema.release(&schema);
      nrt_col_release(s);
      nrt_col_release(back);
    }
    nrt_col_release(col);
  }
  /* A consumer may move the child array out and release the parent first. */
  nrt_column *col = make_list(NRT_COL_UTF8, 0, 13);
  int64_t n_items = nrt_col_list_child(col)->length;
  struct ArrowArray arr, child;
  CHECK_EQ_INT(nrt_col_export_arrow(col, &arr, NULL, NULL), NRT_OK);
  child = *arr.children[0];
  arr.children[0]->release = NULL;
  arr.release(&arr);
  nrt_col_release(col);
  nrt_column *items = NULL;
  CHECK_EQ_INT(nrt_col_import_arrow(&child, "u", &items, NULL), NRT_OK);
  CHECK_EQ_INT(items->length, n_items);
  nrt_str first = nrt_col_str(items, 0);
  CHECK(first.len == 5 && memcmp(first.data, "alpha", 5) == 0);
  nrt_col_release(items);
  /* The schema functions: list<utf8> by default, another item layout on request. */
  struct ArrowSchema schema;
  CHECK_EQ_INT(nrt_col_export_schema(NRT_COL_LIST, "words", &schema, NULL), NRT_OK);
  CHECK(schema.n_children == 1 && strcmp(schema.children[0]->format, "u") == 0);
  CHECK_EQ_STR(schema.name, "words");
  schema.release(&schema);
  CHECK_EQ_INT(nrt_col_export_list_schema(NRT_COL_UTF8_VIEW, NULL, &schema, NULL), NRT_OK);
  CHECK_EQ_STR(schema.children[0]->format, "vu");
  schema.release(&schema);
  CHECK_EQ_INT(nrt_col_export_list_schema(NRT_COL_LIST, NULL, &schema, NULL), NRT_EINVAL);
  enum nrt_col_type type;
  CHECK_EQ_INT(nrt_col_type_from_arrow_format("+l", &type, NULL), NRT_OK);
  CHECK_EQ_INT(type, NRT_COL_LIST);
  CHECK_NO_LEAK(before);
}

/* A producer's list array over static buffers: a utf8 child of 4 items "a" "bb" "ccc" "é". */
struct producer {
  struct ArrowArray arr, child;
  struct ArrowArray *children[1];
  const void *buffers[2], *child_buffers[3];
  int32_t offsets[4];
  int32_t child_offsets[5];
  char data[16];
  uint8_t validity[1];
};

static void schema_noop(struct ArrowSchema *s) {
  (void)s;
}

static int producer_releases;
static void producer_release(struct ArrowArray *a) {
  producer_releases++;
  a->release = NULL;
}

/* Rows [a, bb], null, [ccc, é] (item offsets 0, 2, 2, 4). */
static void producer_init(struct producer *p) {
  memset(p, 0, sizeof *p);
  static const int32_t offs[4] = {0, 2, 2, 4}, child_offs[5] = {0, 1, 3, 6, 8};
  memcpy(p->offsets, offs, sizeof offs);
  memcpy(p->child_offsets, child_offs, sizeof child_offs);
  memcpy(p->data, "abbccc\xc3\xa9", 8);
  p->validity[0] = 0x5; /* rows 0 and 2 valid */
  p->child_buffers[1] = p->child_offsets;
  p->child_buffers[2] = p->data;
  p->child.length = 4;
  p->child.n_buffers = 3;
  p->child.buffers = p->child_buffers;
  p->child.release = producer_release;
  p->buffers[0] = p->validity;
  p->buffers[1] = p->offsets;
  p->children[0] = &p->child;
  p->arr.length = 3;
  p->arr.null_count = 1;
  p->arr.n_buffers = 2;
  p->arr.buffers = p->buffers;
  p->arr.n_children = 1;
  p->arr.children = p->children;
  p->arr.release = producer_release;
}

/* Imports p as list<child_format>; expects `code` and a message containing `want`, and the
 * array left with the caller (unreleased). */
static void expect_bad(struct producer *p, const char *child_format, int code, const char *want,
                       int line) {
  struct check_live before = check_live_now();
  struct ArrowSchema item = {.format = child_format, .release = schema_noop};
  struct ArrowSchema *items[1] = {&item};
  struct ArrowSchema schema = {.format = "+l", .n_children = 1, .children = items,
                               .release = schema_noop};
  nrt_column *col = (nrt_column *)p;
  struct nrt_error err = {0};
  int released = producer_releases;
  int rc = nrt_col_import_arrow_schema(&p->arr, &schema, 0, &col, &err);
  if (rc != code || col != NULL || !strstr(err.message, want))
    check_failf(__FILE__, line, "import gave %d \"%s\", expected %d with \"%s\"", rc,
                err.message, code, want);
  else
    check_pass();
  CHECK(p->arr.release == producer_release && producer_releases == released);
  CHECK_NO_LEAK(before);
}
#define EXPECT_BAD(p, fmt, code, want) expect_bad(p, fmt, code, want, __LINE__)

static void test_malformed(void) {
  struct check_live before = check_live_now();
  struct producer p;
  producer_init(&p);
  /* The well-formed array imports, zero-copy, and the producer's release runs once. */
  struct ArrowSchema schema;
  CHECK_EQ_INT(nrt_col_export_list_schema(NRT_COL_UTF8, NULL, &schema, NULL), NRT_OK);
  nrt_column *col = NULL;
  producer_releases = 0;
  CHECK_EQ_INT(nrt_col_import_arrow_schema(&p.arr, &schema, 0, &col, NULL), NRT_OK);
  CHECK(col->values.data == p.offsets && nrt_col_list_child(col)->data.data == p.data);
  CHECK(col->length == 3 && col->null_count == 1 && !nrt_col_is_valid(col, 1));
  int64_t s, e;
  nrt_col_list_range(col, 2, &s, &e);
  CHECK(s == 2 && e == 4);
  nrt_str item = nrt_col_str(nrt_col_list_child(col), 3);
  CHECK(item.len == 2 && memcmp(item.data, "\xc3\xa9", 2) == 0);
  nrt_column *sl = NULL;
  CHECK_EQ_INT(nrt_col_slice(col, 2, 1, &sl, NULL), NRT_OK);
  nrt_col_release(col);
  CHECK_EQ_INT(producer_releases, 0); /* the slice still uses the buffers */
  nrt_col_release(sl);
  CHECK_EQ_INT(producer_releases, 1);
  schema.release(&schema);

  /* One defect at a time, each named with its row. */
  producer_init(&p);
  p.offsets[2] = 1;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "row 1: end offset 1 is less than the start offset 2");
  producer_init(&p);
  p.offsets[3] = 5;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "row 2: end offset 5 is beyond the child column of 4 rows");
  producer_init(&p);
  p.offsets[0] = -1;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "row 0: first offset -1 is negative");
  producer_init(&p);
  p.data[6] = '\xff';
  EXPECT_BAD(&p, "u", NRT_EILSEQ, "invalid list array: child: row 3: invalid UTF-8");
  producer_init(&p);
  p.child_offsets[3] = 9;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "child: row 3: end offset 8 is less than the start offset 9");
  producer_init(&p);
  p.arr.null_count = 0;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "null_count 0 does not match the 1 nulls");
  producer_init(&p);
  p.buffers[1] = NULL;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "row 0: the offsets buffer is NULL");
  producer_init(&p);
  p.arr.n_buffers = 3;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "a list array needs 2 buffers, has 3");
  producer_init(&p);
  p.arr.n_children = 0;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "a list array must have one child array (has 0)");
  producer_init(&p);
  p.children[0] = NULL;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "must have one child array (has 1, NULL)");
  producer_init(&p);
  p.child.release = NULL;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "the child array is released");
  producer_init(&p);
  p.child.n_children = 1;
  EXPECT_BAD(&p, "u", NRT_EVALUE, "child: a utf8 array must have no children");
  /* Schemas nrt does not read. */
  producer_init(&p);
  EXPECT_BAD(&p, "i", NRT_EUNSUPPORTED, "a list of \"i\" is not supported");
  EXPECT_BAD(&p, "+l", NRT_EUNSUPPORTED, "a list of \"+l\" is not supported");
  struct ArrowSchema bare = {.format = "+l", .release = schema_noop};
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_import_arrow_schema(&p.arr, &bare, 0, &col, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "one child schema") != NULL);
  CHECK_EQ_INT(nrt_col_import_arrow_schema(&p.arr, NULL, 0, &col, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_import_arrow(&p.arr, "+l", &col, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "nrt_col_import_arrow_schema") != NULL);
  CHECK(p.arr.release == producer_release);
  /* Trusted imports skip the per-row checks only. */
  p.offsets[2] = 1;
  CHECK_EQ_INT(nrt_col_export_list_schema(NRT_COL_UTF8, NULL, &schema, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_import_arrow_schema(&p.arr, &schema, NRT_COL_IMPORT_TRUSTED, &col, NULL),
               NRT_OK);
  CHECK_EQ_INT(nrt_col_validate(col, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "row 1: end offset 1 is less") != NULL);
  nrt_col_release(col);
  producer_init(&p);
  p.arr.n_children = 0;
  CHECK_EQ_INT(nrt_col_import_arrow_schema(&p.arr, &schema, NRT_COL_IMPORT_TRUSTED, &col, &err),
               NRT_EVALUE);
  schema.release(&schema);
  CHECK_NO_LEAK(before);
}

static void test_streams(void) {
  struct check_live before = check_live_now();
  nrt_column *whole = make_list(NRT_COL_LARGE_UTF8, 0, 50);
  nrt_column *chunks[3];
  for (int k = 0; k < 3; k++)
    CHECK_EQ_INT(nrt_col_slice(whole, 10 * k, 10 + 5 * k, &chunks[k], NULL), NRT_OK);
  struct ArrowArrayStream stream;
  CHECK_EQ_INT(nrt_col_export_stream(chunks, 3, NRT_COL_LIST, &stream, NULL), NRT_OK);
  struct nrt_col_chunked got;
  CHECK_EQ_INT(nrt_col_import_stream(&stream, &got, NULL), NRT_OK);
  CHECK(got.type == NRT_COL_LIST && got.n_chunks == 3 && got.length == 45);
  for (size_t k = 0; k < got.n_chunks && k < 3; k++) {
    CHECK(nrt_col_equal(got.chunks[k], chunks[k]));
    CHECK_EQ_INT(nrt_col_list_child(got.chunks[k])->type, NRT_COL_LARGE_UTF8);
  }
  nrt_col_chunked_release(&got);
  /* Chunks whose items differ in layout cannot share one schema. */
  nrt_column *views = make_list(NRT_COL_UTF8_VIEW, 0, 5);
  nrt_column *mixed[2] = {chunks[0], views};
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_col_export_stream(mixed, 2, NRT_COL_LIST, &stream, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "column 1 is a list of utf8_view") != NULL);
  /* An empty stream of lists has the list<utf8> schema. */
  CHECK_EQ_INT(nrt_col_export_stream(NULL, 0, NRT_COL_LIST, &stream, NULL), NRT_OK);
  struct ArrowSchema schema;
  CHECK_EQ_INT(stream.get_schema(&stream, &schema), 0);
  CHECK(strcmp(schema.format, "+l") == 0 && strcmp(schema.children[0]->format, "u") == 0);
  schema.release(&schema);
  CHECK_EQ_INT(nrt_col_import_stream(&stream, &got, NULL), NRT_OK);
  CHECK(got.n_chunks == 0 && got.type == NRT_COL_LIST);
  nrt_col_chunked_release(&got);
  nrt_col_release(views);
  for (int k = 0; k < 3; k++)
    nrt_col_release(chunks[k]);
  nrt_col_release(whole);
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
  for (int64_t i = 0; rc == NRT_OK && i < 26; i++) {
    const char *t = row_text(i);
    if (!t) {
      nrt_col_builder_append_null(b);
      continue;
    }
    /* Lists made outside the trial's allocator count: a fixed one of static views. */
    nrt_str items[2] = {nrt_str_view(t, (int64_t)strlen(t)), nrt_str_view("é", 2)};
    nrt_str_list list = {NULL, 2, 2, items};
    nrt_col_builder_append_list(b, &list);
  }
  if (rc == NRT_OK)
    rc = nrt_col_builder_finish(b, &col, NULL);
  if (rc == NRT_OK)
    rc = nrt_col_slice(col, 3, 20, &s, NULL);
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
  if (rc == NRT_OK && (!nrt_col_equal(back, cat) || back->length != 46))
    rc = NRT_EINVAL; /* a wrong result is a failure of the driver's check */
  nrt_col_release(back);
  nrt_col_release(cat);
  nrt_col_release(s);
  nrt_col_release(col);
  return rc;
}

static void test_failure_injection(void) {
  for (int t = 0; t < 3; t++) {
    enum nrt_col_type child = layouts[t];
    CHECK(check_every_allocation_failure(nrt_col_type_name(child), trial, &child) > 0);
  }
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  test_build();
  test_builder_errors();
  test_slice_concat_equal();
  test_arrow_round_trips();
  test_malformed();
  test_streams();
  test_failure_injection();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_column_list");
}

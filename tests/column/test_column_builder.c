/* Column builders: every type, nulls, managed strings and the free pass, sticky errors,
 * slicing, conversions, concatenation, validation of nrt-made columns, failure injection. */
#include "column/colgen.h"
#include "column/column_internal.h"
#include "nrt/column.h"
#include "nrt/str.h"
#include "support/check.h"

static const enum nrt_col_type string_types[3] = {NRT_COL_UTF8, NRT_COL_LARGE_UTF8,
                                                  NRT_COL_UTF8_VIEW};

static void check_stats_balanced(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  if (nrt_stats_enabled()) {
    CHECK_EQ_INT(s.alloc, s.free);
    CHECK_EQ_INT(s.mi_alloc, s.mi_free);
  }
}

static void test_string_builders(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 3; t++) {
    for (int nulls = 0; nulls < 2; nulls++) {
      for (int64_t n = 0; n < 3000; n = n * 3 + 1) {
        nrt_column *col = gen_column(string_types[t], n, (unsigned)t + 1, nulls);
        CHECK(col != NULL);
        if (!col)
          continue;
        CHECK_EQ_INT(col->type, string_types[t]);
        CHECK_EQ_INT(col->offset, 0);
        check_generated(col, 0, n, (unsigned)t + 1, nulls);
        CHECK(nulls || col->validity.data == NULL);
        nrt_col_release(col);
      }
    }
  }
  /* utf8_view: strings of <= 12 bytes are inline, longer ones in variadic buffers. */
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  nrt_col_builder_append_view(b, "twelve bytes", 12);
  nrt_col_builder_append_view(b, "thirteen byte", 13);
  nrt_col_builder_append_view(b, "", 0);
  nrt_column *col;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  const nrt_col_view *v = (const nrt_col_view *)col->values.data;
  CHECK(v[0].length == 12 && memcmp(v[0].u.inlined, "twelve bytes", 12) == 0);
  CHECK(v[1].length == 13 && memcmp(v[1].u.ref.prefix, "thir", 4) == 0);
  CHECK(v[1].u.ref.buffer_index == 0 && col->n_variadic == 1);
  CHECK(v[2].length == 0);
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
  nrt_col_release(col);
  /* An empty string may come as (NULL, 0) in every layout. */
  for (int t = 0; t < 3; t++) {
    CHECK_EQ_INT(nrt_col_builder_new(string_types[t], 0, &b, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_append_view(b, NULL, 0), NRT_OK);
    nrt_col_builder_append_view(b, "x", 1);
    CHECK_EQ_INT(nrt_col_builder_append_view(b, NULL, 0), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
    CHECK(col->length == 3 && nrt_col_str(col, 2).len == 0 && nrt_col_str(col, 1).len == 1);
    nrt_col_release(col);
  }
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  nrt_col_builder_append_view(b, "", 0);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

static void test_many_view_chunks(void) {
  /* Enough long strings for several chunks: each chunk a variadic buffer, none copied. */
  struct check_live before = check_live_now();
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  char s[64];
  for (int i = 0; i < 20000; i++) {
    int len = snprintf(s, sizeof s, "string number %d with a tail", i);
    nrt_col_builder_append_view(b, s, len);
  }
  nrt_column *col;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  CHECK(col->n_variadic >= 5);
  int ok = 1;
  for (int i = 0; i < 20000; i++) {
    int len = snprintf(s, sizeof s, "string number %d with a tail", i);
    nrt_str r = nrt_col_str(col, i);
    ok &= r.len == len && memcmp(r.data, s, (size_t)len) == 0;
  }
  CHECK(ok);
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

/* A utf8_view builder moves to a new data block once one is full (512 MiB normally; lowered
 * here): buffer indices keep counting across blocks. */
static void test_view_block_switch(void) {
  struct check_live before = check_live_now();
  size_t saved = nrt_col_view_block_limit;
  nrt_col_view_block_limit = 16 << 10;
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  char s[96];
  for (int i = 0; i < 6000; i++) {
    if (i % 11 == 5) {
      nrt_col_builder_append_null(b);
      continue;
    }
    int len = snprintf(s, sizeof s, "row %d of a column spread over many blocks %s", i,
                       i % 3 ? "\xe6\xbc\xa2\xe5\xad\x97" : "");
    nrt_col_builder_append_view(b, s, len);
  }
  nrt_column *col;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
  nrt_col_view_block_limit = saved;
  CHECK(col->n_variadic > 5); /* regions of 1 KiB doubling, blocks of 16 KiB */
  CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
  int ok = 1;
  for (int i = 0; i < 6000; i++) {
    if (i % 11 == 5) {
      ok &= !nrt_col_is_valid(col, i);
      continue;
    }
    int len = snprintf(s, sizeof s, "row %d of a column spread over many blocks %s", i,
                       i % 3 ? "\xe6\xbc\xa2\xe5\xad\x97" : "");
    nrt_str r = nrt_col_str(col, i);
    ok &= r.len == len && memcmp(r.data, s, (size_t)len) == 0;
  }
  CHECK(ok);
  /* No variadic buffer holds unused bytes: their sizes add up to the long strings. */
  int64_t sum = 0, want = 0;
  for (int32_t k = 0; k < col->n_variadic; k++)
    sum += col->variadic[k].size;
  for (int i = 0; i < 6000; i++) {
    nrt_str r = nrt_col_str(col, i);
    if (r.len > NRT_COL_VIEW_INLINE)
      want += r.len;
  }
  CHECK_EQ_INT(sum, want);
  nrt_column *u;
  CHECK_EQ_INT(nrt_col_convert(col, NRT_COL_UTF8, &u, NULL), NRT_OK);
  CHECK(nrt_col_equal(u, col));
  nrt_col_release(u);
  nrt_col_release(col);
  CHECK_NO_LEAK(before);
}

static void test_fixed_builders(void) {
  struct check_live before = check_live_now();
  for (int nulls = 0; nulls < 2; nulls++) {
    nrt_col_builder *bi, *bf, *bb;
    CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 10, &bi, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_FLOAT64, 0, &bf, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_BOOL, 0, &bb, NULL), NRT_OK);
    for (int64_t i = 0; i < 1000; i++) {
      if (nulls && i % 5 == 2) {
        nrt_col_builder_append_null(bi);
        nrt_col_builder_append_null(bf);
        nrt_col_builder_append_null(bb);
        continue;
      }
      nrt_col_builder_append_int64(bi, i * 1000003 - 7);
      nrt_col_builder_append_float64(bf, (double)i / 3.0);
      nrt_col_builder_append_bool(bb, (i * 7) % 3 == 0);
    }
    CHECK_EQ_INT(nrt_col_builder_length(bi), 1000);
    CHECK_EQ_INT(nrt_col_builder_type(bf), NRT_COL_FLOAT64);
    nrt_column *ci, *cf, *cb;
    CHECK_EQ_INT(nrt_col_builder_finish(bi, &ci, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_finish(bf, &cf, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_finish(bb, &cb, NULL), NRT_OK);
    int ok = 1;
    for (int64_t i = 0; i < 1000; i++) {
      bool valid = !(nulls && i % 5 == 2);
      ok &= nrt_col_is_valid(ci, i) == valid && nrt_col_is_valid(cf, i) == valid &&
            nrt_col_is_valid(cb, i) == valid;
      if (valid)
        ok &= nrt_col_int64(ci, i) == i * 1000003 - 7 && nrt_col_float64(cf, i) == (double)i / 3.0 &&
              nrt_col_bool(cb, i) == ((i * 7) % 3 == 0);
    }
    CHECK(ok);
    CHECK_EQ_INT(ci->null_count, nulls ? 200 : 0);
    CHECK_EQ_INT(nrt_col_validate(ci, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_validate(cf, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_validate(cb, NULL), NRT_OK);
    /* Slices of every type, at bit offsets that are not multiples of 8. */
    nrt_column *s;
    CHECK_EQ_INT(nrt_col_slice(cb, 13, 100, &s, NULL), NRT_OK);
    ok = 1;
    for (int64_t i = 0; i < 100; i++)
      ok &= nrt_col_is_valid(s, i) == nrt_col_is_valid(cb, i + 13) &&
            (!nrt_col_is_valid(s, i) || nrt_col_bool(s, i) == nrt_col_bool(cb, i + 13));
    CHECK(ok);
    CHECK_EQ_INT(s->null_count, nulls ? 20 : 0);
    CHECK(s->values.data == cb->values.data); /* zero-copy */
    nrt_col_release(s);
    nrt_col_release(ci);
    nrt_col_release(cf);
    nrt_col_release(cb);
  }
  /* Empty columns of every type are valid. */
  for (int t = NRT_COL_UTF8; t <= NRT_COL_BOOL; t++) {
    nrt_col_builder *b;
    nrt_column *c;
    CHECK_EQ_INT(nrt_col_builder_new((enum nrt_col_type)t, 0, &b, NULL), NRT_OK);
    CHECK_EQ_INT(nrt_col_builder_finish(b, &c, NULL), NRT_OK);
    CHECK_EQ_INT(c->length, 0);
    CHECK(c->values.data != NULL);
    CHECK_EQ_INT(nrt_col_validate(c, NULL), NRT_OK);
    nrt_col_release(c);
  }
  CHECK_NO_LEAK(before);
}

static void test_sticky_errors(void) {
  struct check_live before = check_live_now();
  struct nrt_error err = {0};
  nrt_col_builder *b;
  CHECK_EQ_INT(nrt_col_builder_new((enum nrt_col_type)99, 0, &b, &err), NRT_EINVAL);
  CHECK(b == NULL);
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, -1, &b, NULL), NRT_EINVAL);
  /* A value of the wrong type: sticky, later appends ignored, reported at finish. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_int64(b, 1), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "x", 1), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_append_int64(b, 2), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_status(b), NRT_EINVAL);
  CHECK_EQ_INT(nrt_col_builder_length(b), 1);
  nrt_column *col = (nrt_column *)&err;
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EINVAL);
  CHECK(col == NULL);
  CHECK(strstr(err.message, "row 1") && strstr(err.message, "int64 builder"));
  /* Each append rejects the other types. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_float64(b, 1.0), NRT_EINVAL);
  nrt_col_builder_abort(b);
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_FLOAT64, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_bool(b, true), NRT_EINVAL);
  nrt_col_builder_abort(b);
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_BOOL, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_int64(b, 1), NRT_EINVAL);
  nrt_col_builder_abort(b);
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "x", -1), NRT_EINVAL);
  nrt_col_builder_abort(b);
  /* A producer's own error. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_set_error(b, NRT_EVALUE, "row 3: ValueError: bad"), NRT_EVALUE);
  CHECK_EQ_INT(nrt_col_builder_set_error(b, NRT_EINDEX, "later"), NRT_EVALUE);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_EVALUE);
  CHECK(strstr(err.message, "ValueError: bad") != NULL);
  /* utf8 data past INT32_MAX bytes: sticky ERANGE suggesting large_utf8. The length check
   * comes before any byte is read, so a short buffer stands for the huge string. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "a", 1), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "b", INT32_MAX), NRT_ERANGE);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "c", 1), NRT_ERANGE);
  CHECK_EQ_INT(nrt_col_builder_finish(b, &col, &err), NRT_ERANGE);
  CHECK(strstr(err.message, "large_utf8") != NULL && strstr(err.message, "row 1") != NULL);
  /* utf8_view: one string longer than INT32_MAX cannot be a view. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8_VIEW, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_view(b, "b", (int64_t)INT32_MAX + 1), NRT_ERANGE);
  nrt_col_builder_abort(b);
  nrt_col_builder_abort(NULL);
  CHECK_NO_LEAK(before);
}

/* Managed strings: retained when stored, released by the free pass (finish, abort, explicit,
 * or the handed-over reference list). */
static void test_managed_strings_lifecycle(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 3; t++) {
    for (int mode = 0; mode < 4; mode++) {
      nrt_col_builder *b;
      CHECK_EQ_INT(nrt_col_builder_new(string_types[t], 0, &b, NULL), NRT_OK);
      nrt_str keep;
      CHECK_EQ_INT(nrt_str_new("a managed string, long enough", 29, &keep, NULL), NRT_OK);
      for (int i = 0; i < 300; i++) {
        nrt_str s;
        char buf[32];
        int len = snprintf(buf, sizeof buf, "result %d \xc3\xa9", i);
        CHECK_EQ_INT(nrt_str_new(buf, len, &s, NULL), NRT_OK);
        if (i % 2) {
          CHECK_EQ_INT(nrt_col_builder_append_str(b, &s), NRT_OK);
          CHECK_EQ_INT(nrt_mi_refcount(s.mi), 2); /* the builder's reference */
          nrt_str_release(&s);                    /* the producer's */
        } else {
          CHECK_EQ_INT(nrt_col_builder_append_str_move(b, &s), NRT_OK);
          CHECK(s.mi == NULL && s.len == 0);
        }
      }
      CHECK_EQ_INT(nrt_col_builder_append_str(b, &keep), NRT_OK);
      CHECK_EQ_INT(nrt_mi_refcount(keep.mi), 2);
      nrt_str view = nrt_str_view("borrowed", 8);
      CHECK_EQ_INT(nrt_col_builder_append_str(b, &view), NRT_OK);
      CHECK_EQ_INT(nrt_col_builder_append_str_move(b, &view), NRT_OK);
      CHECK_EQ_INT(nrt_col_builder_ref_count(b), 301);
      nrt_column *col = NULL;
      nrt_memblock *refs = NULL;
      if (mode == 0) {
        CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
        CHECK_EQ_INT(nrt_mi_refcount(keep.mi), 1); /* finish ran the free pass */
      } else if (mode == 1) {
        nrt_col_builder_free_pass(b);
        CHECK_EQ_INT(nrt_col_builder_ref_count(b), 0);
        CHECK_EQ_INT(nrt_mi_refcount(keep.mi), 1);
        nrt_col_builder_free_pass(b); /* idempotent */
        CHECK_EQ_INT(nrt_col_builder_finish(b, &col, NULL), NRT_OK);
      } else if (mode == 2) {
        CHECK_EQ_INT(nrt_col_builder_finish_keep_refs(b, &col, &refs, NULL), NRT_OK);
        CHECK(refs != NULL);
        CHECK_EQ_INT(nrt_memblock_kind(refs), NRT_MEMBLOCK_OBJECTARRAY);
        CHECK_EQ_INT(nrt_mi_refcount(keep.mi), 2); /* held until the free pass */
        nrt_col_free_pass(refs);
        CHECK_EQ_INT(nrt_mi_refcount(keep.mi), 1);
      } else {
        nrt_col_builder_abort(b);
        CHECK_EQ_INT(nrt_mi_refcount(keep.mi), 1);
      }
      if (col) {
        /* The bytes were copied: the column outlives every managed string. */
        nrt_str_release(&keep);
        CHECK_EQ_INT(col->length, 303);
        nrt_str r = nrt_col_str(col, 7);
        CHECK(r.len == 11 && memcmp(r.data, "result 7 \xc3\xa9", 11) == 0 && r.mi == NULL);
        r = nrt_col_str(col, 300);
        CHECK(r.len == 29 && memcmp(r.data, "a managed string", 16) == 0);
        CHECK_EQ_INT(nrt_col_validate(col, NULL), NRT_OK);
        nrt_col_release(col);
      } else {
        nrt_str_release(&keep);
      }
      check_stats_balanced();
    }
  }
  /* Without managed strings there is no reference list. */
  nrt_col_builder *b;
  nrt_column *col;
  nrt_memblock *refs = (nrt_memblock *)&b;
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_UTF8, 0, &b, NULL), NRT_OK);
  nrt_col_builder_append_view(b, "x", 1);
  CHECK_EQ_INT(nrt_col_builder_finish_keep_refs(b, &col, &refs, NULL), NRT_OK);
  CHECK(refs == NULL);
  nrt_col_release(col);
  /* A failed move append releases the string. */
  CHECK_EQ_INT(nrt_col_builder_new(NRT_COL_INT64, 0, &b, NULL), NRT_OK);
  nrt_str s;
  CHECK_EQ_INT(nrt_str_new("abc", 3, &s, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_str_move(b, &s), NRT_EINVAL);
  CHECK(s.mi == NULL);
  CHECK_EQ_INT(nrt_str_new("abc", 3, &s, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_col_builder_append_str(b, &s), NRT_EINVAL);
  CHECK_EQ_INT(nrt_mi_refcount(s.mi), 1); /* not retained */
  nrt_str_release(&s);
  nrt_col_builder_abort(b);
  CHECK_NO_LEAK(before);
  check_stats_balanced();
}

static void test_row_access_and_slices(void) {
  struct check_live before = check_live_now();
  for (int t = 0; t < 3; t++) {
    nrt_column *col = gen_column(string_types[t], 500, 9, 1);
    struct nrt_error err = {0};
    nrt_str v;
    bool is_null;
    CHECK_EQ_INT(nrt_col_get_str(col, 500, &v, &is_null, &err), NRT_EINDEX);
    CHECK_EQ_INT(nrt_col_get_str(col, -1, &v, NULL, NULL), NRT_EINDEX);
    CHECK_EQ_INT(nrt_col_get_str(col, 3, &v, &is_null, NULL), NRT_OK);
    CHECK_EQ_INT(is_null, !nrt_col_is_valid(col, 3));
    /* Slices share the buffers; slices of slices too. */
    for (int64_t start = 0; start < 40; start += 13) {
      nrt_column *s, *ss;
      CHECK_EQ_INT(nrt_col_slice(col, start, 300, &s, NULL), NRT_OK);
      CHECK(s->values.data == col->values.data && s->offset == start);
      check_generated(s, start, 300, 9, 1);
      CHECK_EQ_INT(nrt_col_slice(s, 5, 100, &ss, NULL), NRT_OK);
      CHECK_EQ_INT(ss->offset, start + 5);
      check_generated(ss, start + 5, 100, 9, 1);
      nrt_col_release(s); /* the slice of the slice keeps the buffers alive */
      check_generated(ss, start + 5, 100, 9, 1);
      nrt_col_release(ss);
    }
    nrt_column *s;
    CHECK_EQ_INT(nrt_col_slice(col, 0, 501, &s, &err), NRT_EINDEX);
    CHECK(s == NULL && strstr(err.message, "outside") != NULL);
    CHECK_EQ_INT(nrt_col_slice(col, 501, 0, &s, NULL), NRT_EINDEX);
    CHECK_EQ_INT(nrt_col_slice(col, -1, 2, &s, NULL), NRT_EINDEX);
    CHECK_EQ_INT(nrt_col_slice(col, 500, 0, &s, NULL), NRT_OK);
    CHECK_EQ_INT(s->length, 0);
    CHECK_EQ_INT(nrt_col_validate(s, NULL), NRT_OK);
    nrt_col_release(s);
    nrt_col_release(col);
  }
  CHECK_NO_LEAK(before);
}

int main(void) {
  test_string_builders();
  test_many_view_chunks();
  test_view_block_switch();
  test_fixed_builders();
  test_sticky_errors();
  test_managed_strings_lifecycle();
  test_row_access_and_slices();
  check_stats_balanced();
  return check_finish("test_column_builder");
}

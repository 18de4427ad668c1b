/* UDFs returning a list or a tuple of int, float or bool through the public API: the result
 * and item kinds, per-row calls (the result owns its list, items encoded as nrt/exec.h says),
 * applies giving list<int64> / list<double> / list<bool> columns (1 vs 2 threads identical,
 * value form equal, None and raising rows as nulls), the exec layer's own checks (a list of
 * another item kind is a TypeError of its row; a bad item_kind is NRT_EINVAL), the Arrow
 * export of the result, and failure injection through compiled code. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static nrt_udf *compile(const char *src) {
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  if (nrt_udf_compile(src, strlen(src), &o, &u, &err))
    fprintf(stderr, "compile failed: %s\n", err.message);
  return u;
}

/* Rows of several scripts; row 3 is null. */
static nrt_column *input(void) {
  static const char *const rows[] = {"alpha beta gamma", "один два", "", NULL, "漢字 かな カナ",
                                     "straße ǅemal", "x y", "3 1 4 1 5", "😀 😀", "   ",
                                     "Ελληνικά κείμενα", "ABC"};
  return udf_trial_column(rows, 12);
}

/* Row i of list column out equals what the UDF's call gives for row i of in (null for None,
 * a raise or a null input), item by item through nrt_value_list_item. */
static bool matches_calls(const nrt_udf *u, const nrt_column *in, const nrt_column *out) {
  bool ok = out->length == in->length && out->type == NRT_COL_LIST;
  const nrt_column *items = ok ? nrt_col_list_child(out) : NULL;
  for (int64_t i = 0; ok && i < in->length; i++) {
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = nrt_col_str(in, i);
    int rc = nrt_col_is_valid(in, i) ? nrt_udf_call(u, &arg, &r, NULL) : NRT_EVALUE;
    bool list = rc == NRT_OK && r.kind == NRT_VALUE_LIST;
    ok = nrt_col_is_valid(out, i) == list;
    if (ok && list) {
      ok = r.item_kind == (int32_t)nrt_udf_item_kind(u);
      int64_t start, end;
      nrt_col_list_range(out, i, &start, &end);
      ok = ok && end - start == r.as.list->len;
      for (int64_t k = 0; ok && k < r.as.list->len; k++) {
        nrt_value v = nrt_value_list_item(r.as.list, r.item_kind, k);
        ok = nrt_col_is_valid(items, start + k) &&
             (items->type == NRT_COL_INT64   ? v.as.i64 == nrt_col_int64(items, start + k)
              : items->type == NRT_COL_BOOL  ? v.as.b == nrt_col_bool(items, start + k)
                                             : memcmp(&v.as.f64, &((const double *)
                                                   items->values.data)[items->offset + start + k],
                                                      8) == 0);
      }
    }
    if (list)
      nrt_str_list_release(r.as.list);
  }
  return ok;
}

static void test_calls(void) {
  struct check_live before = check_live_now();
  struct {
    const char *src;
    nrt_value_kind item;
  } cases[] = {{"lambda s: [len(w) for w in s.split()]", NRT_VALUE_INT64},
               {"lambda s: (len(s), s.count(' '))", NRT_VALUE_INT64},
               {"lambda s: [len(w) / 2 for w in s.split()]", NRT_VALUE_FLOAT64},
               {"lambda s: [c.isalpha() for c in s]", NRT_VALUE_BOOL},
               {"lambda s: s.split()", NRT_VALUE_STR}};
  for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    nrt_udf *u = compile(cases[k].src);
    CHECK(u != NULL);
    if (!u)
      continue;
    CHECK_EQ_INT(nrt_udf_result_kind(u), NRT_VALUE_LIST);
    CHECK_EQ_INT(nrt_udf_item_kind(u), cases[k].item);
    CHECK(nrt_udf_write_function(u) == NULL);
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = nrt_str_view("ab c", 4);
    CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, NULL), NRT_OK);
    CHECK_EQ_INT(r.kind, NRT_VALUE_LIST);
    CHECK_EQ_INT(r.item_kind, cases[k].item == NRT_VALUE_STR ? 0 : (int)cases[k].item);
    CHECK_EQ_INT(r.as.list->mi->refct, 1); /* the caller's one reference */
    if (cases[k].item == NRT_VALUE_INT64 && k == 0) {
      CHECK(r.as.list->len == 2 && nrt_value_list_item(r.as.list, r.item_kind, 0).as.i64 == 2);
      CHECK(r.as.list->items[1].data == NULL && r.as.list->items[1].mi == NULL);
    }
    if (cases[k].item == NRT_VALUE_FLOAT64)
      CHECK(nrt_value_list_item(r.as.list, r.item_kind, 1).as.f64 == 0.5);
    if (cases[k].item == NRT_VALUE_BOOL)
      CHECK(r.as.list->len == 4 && !nrt_value_list_item(r.as.list, r.item_kind, 2).as.b);
    nrt_str_list_release(r.as.list);
    nrt_udf_free(u);
  }
  /* Python's messages for items of a list of bool or int that are not there. */
  static const char *const missing[][2] = {
      {"lambda s: [c.isdigit() for c in s].index(True)", "True is not in list"},
      {"lambda s: [c.isdigit() for c in s].index(False)", "False is not in list"},
      {"lambda s: [len(w) for w in s.split()].index(-3)", "-3 is not in list"}};
  for (int k = 0; k < 3; k++) {
    nrt_udf *u = compile(missing[k][0]);
    CHECK(u != NULL);
    if (!u)
      continue;
    nrt_value arg = {.kind = NRT_VALUE_STR}, r;
    arg.as.str = nrt_str_view(k == 1 ? "12" : "ab", 2);
    struct nrt_error err = {0};
    CHECK_EQ_INT(nrt_udf_call(u, &arg, &r, &err), NRT_EVALUE);
    CHECK_EQ_STR(err.message, missing[k][1]);
    nrt_udf_free(u);
  }
  /* The encoding's two helpers are inverses. */
  nrt_value f = {.kind = NRT_VALUE_FLOAT64, .as.f64 = -0.0};
  nrt_str item = nrt_value_list_number(&f);
  nrt_str_list l = {NULL, 1, 1, &item};
  nrt_value back = nrt_value_list_item(&l, NRT_VALUE_FLOAT64, 0);
  CHECK(memcmp(&back.as.f64, &f.as.f64, 8) == 0);
  CHECK_NO_LEAK(before);
}

static void test_applies(void) {
  struct check_live before = check_live_now();
  static const char *const srcs[] = {
      "lambda s: [len(w) for w in s.split()] if s.strip() else None",
      ("def f(s):\n    out = []\n    for w in s.split():\n        out.append(int(w))\n"
       "    return sorted(out)\n"),
      "lambda s: [len(w) / 4 for w in s.split()] + [1e16, -0.0]",
      "lambda s: (s.isalpha(), s.isupper(), s == '')"};
  static const enum nrt_col_type child[] = {NRT_COL_INT64, NRT_COL_INT64, NRT_COL_FLOAT64,
                                            NRT_COL_BOOL};
  nrt_column *in = input();
  for (int k = 0; k < 4; k++) {
    nrt_udf *u = compile(srcs[k]);
    CHECK(u != NULL);
    if (!u)
      continue;
    struct nrt_udf_apply_options ao;
    memset(&ao, 0, sizeof ao);
    ao.errors_as_null = true;
    ao.threads = 1;
    nrt_column *one = NULL, *two = NULL, *value = NULL;
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &one, NULL, NULL), NRT_OK);
    ao.threads = 2;
    ao.chunk_rows = 2;
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &two, NULL, NULL), NRT_OK);
    ao.value_form = true;
    CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &value, NULL, NULL), NRT_OK);
    CHECK(one && two && value);
    if (one && two && value) {
      CHECK_EQ_INT(nrt_col_list_child(one)->type, child[k]);
      CHECK(nrt_col_equal(one, two) && nrt_col_equal(one, value));
      CHECK_EQ_INT(nrt_col_validate(two, NULL), NRT_OK);
      CHECK(matches_calls(u, in, two));
      CHECK(!nrt_col_is_valid(two, 3)); /* the null input */
      /* The result exports as an Arrow list with the child's format. */
      struct ArrowArray arr;
      struct ArrowSchema schema;
      CHECK_EQ_INT(nrt_col_export_arrow(two, &arr, &schema, NULL), NRT_OK);
      CHECK_EQ_STR(schema.children[0]->format, nrt_col_arrow_format(child[k]));
      arr.release(&arr);
      schema.release(&schema);
    }
    /* Without errors as nulls, the raising row stops the apply (int('alpha') in UDF 1). */
    struct nrt_error err = {0};
    nrt_column *none = NULL;
    ao.errors_as_null = false;
    int rc = nrt_udf_apply(u, &in, 1, &ao, &none, NULL, &err);
    CHECK_EQ_INT(rc, k == 1 ? NRT_EVALUE : NRT_OK);
    if (k == 1)
      CHECK(strstr(err.message, "row 1: ValueError: invalid literal for int() with base 10: "
                                "'alpha'") != NULL);
    nrt_col_release(none);
    nrt_col_release(one);
    nrt_col_release(two);
    nrt_col_release(value);
    nrt_udf_free(u);
  }
  nrt_col_release(in);
  CHECK_NO_LEAK(before);
}

/* A hand-written row function returning a list of int for even rows, of float for odd ones. */
static int mixed_lists(void *ctx, const nrt_value *args, nrt_value *result,
                       struct nrt_error *err) {
  (void)ctx;
  nrt_str_list *l = NULL;
  int rc = nrt_str_list_new(1, &l, err);
  if (rc)
    return rc;
  bool odd = args[0].as.str.len % 2 == 1;
  nrt_value v = {.kind = odd ? NRT_VALUE_FLOAT64 : NRT_VALUE_INT64};
  if (odd)
    v.as.f64 = 0.5;
  else
    v.as.i64 = 7;
  nrt_str_list_append(l, nrt_value_list_number(&v), NULL); /* room for 1: cannot fail */
  result->kind = NRT_VALUE_LIST;
  result->item_kind = v.kind;
  result->as.list = l;
  return NRT_OK;
}

static void test_exec_checks(void) {
  struct check_live before = check_live_now();
  static const char *const rows[] = {"ab", "abcd", "abc", "x"};
  nrt_column *in = udf_trial_column(rows, 4);
  struct nrt_exec_options o;
  memset(&o, 0, sizeof o);
  o.result_kind = NRT_VALUE_LIST;
  o.item_kind = NRT_VALUE_INT64;
  o.threads = 1;
  nrt_column *out = NULL;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, mixed_lists, NULL, &o, &out, NULL, &err), NRT_ETYPE);
  CHECK(out == NULL && strstr(err.message, "row 3: TypeError: the row function returned a list "
                                           "of float, expected a list of int") != NULL);
  o.errors_as_null = true; /* a wrong type always stops */
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, mixed_lists, NULL, &o, &out, NULL, &err), NRT_ETYPE);
  o.item_kind = NRT_VALUE_LIST;
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, mixed_lists, NULL, &o, &out, NULL, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "item_kind 5 is not a list item type") != NULL);
  nrt_col_release(in);
  static const char *const even[] = {"ab", "", "abcd"};
  in = udf_trial_column(even, 3);
  o.item_kind = NRT_VALUE_INT64;
  CHECK_EQ_INT(nrt_exec_apply(&in, 1, mixed_lists, NULL, &o, &out, NULL, &err), NRT_OK);
  CHECK(out && out->length == 3 && nrt_col_list_child(out)->length == 3 &&
        nrt_col_int64(nrt_col_list_child(out), 2) == 7);
  nrt_col_release(out);
  nrt_col_release(in);
  CHECK_NO_LEAK(before);
}

static void test_failure_injection(void) {
  static const char *const srcs[] = {
      "lambda s: [len(w) for w in s.split()] + [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]",
      "lambda s: [len(w) / 3 for w in s.split()]",
      "lambda s: [c.isalpha() for c in s]"};
  for (int k = 0; k < 3; k++) {
    struct udf_trial t = {compile(srcs[k]), input(), 2, 3, 12};
    udf_trial_every_failure(&t, srcs[k]);
  }
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  test_calls();
  test_applies();
  test_exec_checks();
  test_failure_injection();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_results");
}

/* Runs UDF cases for the CPython oracle (e2e_oracle.py): reads JSON lines
 *   {"src": "...", "func": null|"name", "types": ["str", "int", ...], "rows": [[arg, ...], ...]}
 * and writes one JSON line per case:
 *   {"compile_error": "...", "code": "ParseError"}                         or
 *   {"results": [["ok", value] | ["err", "ValueError", "message"], ...],
 *    (a list or tuple result is a JSON array of its items, numbers as scalars are)
 *    "apply": [value|null, ...], "balanced": true|false, "leaked": "..."}
 * Each row is run through nrt_udf_call (exceptions per row), then the whole column through
 * nrt_udf_apply with --errors null semantics on 2 threads (a str UDF in its write form, and
 * again in its value form, which must agree); the statistics must be balanced
 * after every case (alloc == free, mi_alloc == mi_free), raising rows included. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/udf.h"

static nrt_value_kind kind_of(const char *t) {
  if (strcmp(t, "int") == 0)
    return NRT_VALUE_INT64;
  if (strcmp(t, "float") == 0)
    return NRT_VALUE_FLOAT64;
  if (strcmp(t, "bool") == 0)
    return NRT_VALUE_BOOL;
  return NRT_VALUE_STR;
}

static json_t *value_json(const nrt_value *v);

/* Row k of a column as a value (borrowed; a null row gives kind NULL). */
static nrt_value cell_value(const nrt_column *c, int64_t k) {
  nrt_value v;
  memset(&v, 0, sizeof v);
  if (!nrt_col_is_valid(c, k))
    return v;
  if (nrt_col_type_is_string(c->type)) {
    v.kind = NRT_VALUE_STR;
    v.as.str = nrt_col_str(c, k);
  } else if (c->type == NRT_COL_INT64) {
    v.kind = NRT_VALUE_INT64;
    v.as.i64 = nrt_col_int64(c, k);
  } else if (c->type == NRT_COL_FLOAT64) {
    v.kind = NRT_VALUE_FLOAT64;
    v.as.f64 = nrt_col_float64(c, k);
  } else if (c->type == NRT_COL_BOOL) {
    v.kind = NRT_VALUE_BOOL;
    v.as.b = nrt_col_bool(c, k);
  }
  return v;
}

static json_t *value_json(const nrt_value *v) {
  switch (v->kind) {
  case NRT_VALUE_STR: return json_stringn(v->as.str.data, (size_t)v->as.str.len);
  case NRT_VALUE_INT64: return json_integer(v->as.i64);
  case NRT_VALUE_FLOAT64: {
    /* Floats travel as repr-exact strings tagged "f:" (JSON has no inf/nan). */
    char buf[64];
    snprintf(buf, sizeof buf, "f:%.17g", v->as.f64);
    return json_string(buf);
  }
  case NRT_VALUE_BOOL: return json_boolean(v->as.b);
  case NRT_VALUE_LIST: {
    json_t *arr = json_array();
    bool strings = v->item_kind == 0 || v->item_kind == NRT_VALUE_STR;
    for (int64_t i = 0; i < v->as.list->len; i++) {
      if (strings) {
        json_array_append_new(arr, json_stringn(v->as.list->items[i].data,
                                                (size_t)v->as.list->items[i].len));
      } else {
        nrt_value item = nrt_value_list_item(v->as.list, v->item_kind, i);
        json_array_append_new(arr, value_json(&item));
      }
    }
    return arr;
  }
  default: return json_null();
  }
}

/* Row i of a list column as a JSON array of its items. */
static json_t *list_row_json(const nrt_column *c, int64_t i) {
  const nrt_column *items = nrt_col_list_child(c);
  int64_t start, end;
  nrt_col_list_range(c, i, &start, &end);
  json_t *arr = json_array();
  for (int64_t k = start; k < end; k++) {
    nrt_value v = cell_value(items, k);
    json_array_append_new(arr, value_json(&v));
  }
  return arr;
}

static void set_arg(nrt_value *a, nrt_value_kind k, json_t *j) {
  memset(a, 0, sizeof *a);
  a->kind = k;
  switch (k) {
  case NRT_VALUE_STR:
    a->as.str = nrt_str_view(json_string_value(j), (int64_t)json_string_length(j));
    break;
  case NRT_VALUE_INT64: a->as.i64 = json_integer_value(j); break;
  case NRT_VALUE_FLOAT64: /* floats travel as repr strings (JSON has no inf/nan) */
    a->as.f64 = json_is_string(j) ? strtod(json_string_value(j), NULL) : json_number_value(j);
    break;
  case NRT_VALUE_BOOL: a->as.b = json_is_true(j); break;
  default: break;
  }
}

static nrt_column *column_of(json_t *rows, size_t col, nrt_value_kind k) {
  enum nrt_col_type t = k == NRT_VALUE_STR     ? NRT_COL_UTF8
                        : k == NRT_VALUE_INT64 ? NRT_COL_INT64
                        : k == NRT_VALUE_FLOAT64 ? NRT_COL_FLOAT64
                                                 : NRT_COL_BOOL;
  nrt_col_builder *b;
  if (nrt_col_builder_new(t, (int64_t)json_array_size(rows), &b, NULL))
    return NULL;
  size_t i;
  json_t *row;
  json_array_foreach(rows, i, row) {
    nrt_value a;
    set_arg(&a, k, json_array_get(row, col));
    if (k == NRT_VALUE_STR)
      nrt_col_builder_append_view(b, a.as.str.data, a.as.str.len);
    else if (k == NRT_VALUE_INT64)
      nrt_col_builder_append_int64(b, a.as.i64);
    else if (k == NRT_VALUE_FLOAT64)
      nrt_col_builder_append_float64(b, a.as.f64);
    else
      nrt_col_builder_append_bool(b, a.as.b);
  }
  nrt_column *c = NULL;
  nrt_col_builder_finish(b, &c, NULL);
  return c;
}

static json_t *column_json(const nrt_column *c) {
  json_t *arr = json_array();
  for (int64_t i = 0; i < c->length; i++) {
    if (c->type == NRT_COL_LIST) {
      json_array_append_new(arr, nrt_col_is_valid(c, i) ? list_row_json(c, i) : json_null());
      continue;
    }
    nrt_value v = cell_value(c, i);
    json_array_append_new(arr, value_json(&v));
  }
  return arr;
}

static json_t *run_case(json_t *c) {
  json_t *out = json_object();
  json_t *types = json_object_get(c, "types");
  json_t *rows = json_object_get(c, "rows");
  const char *src = json_string_value(json_object_get(c, "src"));
  size_t np = json_array_size(types);
  nrt_value_kind kinds[64];
  for (size_t i = 0; i < np && i < 64; i++)
    kinds[i] = kind_of(json_string_value(json_array_get(types, i)));
  struct nrt_stats before, after;
  nrt_stats_get(&before);
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.func = json_string_value(json_object_get(c, "func"));
  o.param_kinds = kinds;
  o.nparams = (int)np;
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  nrt_udf *u = NULL;
  int rc = nrt_udf_compile(src, strlen(src), &o, &u, &err);
  if (rc) {
    json_object_set_new(out, "compile_error", json_string(err.message));
    json_object_set_new(out, "code", json_string(nrt_status_name(rc)));
  } else {
    json_t *res = json_array();
    size_t i;
    json_t *row;
    json_array_foreach(rows, i, row) {
      nrt_value args[64], r;
      for (size_t k = 0; k < np; k++)
        set_arg(&args[k], kinds[k], json_array_get(row, k));
      memset(&err, 0, sizeof err);
      rc = nrt_udf_call(u, args, &r, &err);
      json_t *item = json_array();
      if (rc) {
        json_array_append_new(item, json_string("err"));
        json_array_append_new(item, json_string(nrt_status_name(rc)));
        json_array_append_new(item, json_string(err.message));
      } else {
        json_array_append_new(item, json_string("ok"));
        json_array_append_new(item, value_json(&r));
        if (r.kind == NRT_VALUE_STR)
          nrt_str_release(&r.as.str);
        else if (r.kind == NRT_VALUE_LIST)
          nrt_str_list_release(r.as.list);
      }
      json_array_append_new(res, item);
    }
    json_object_set_new(out, "results", res);
    /* The same rows through the parallel apply, failing rows as nulls. */
    nrt_column *cols[64];
    for (size_t k = 0; k < np; k++)
      cols[k] = column_of(rows, k, kinds[k]);
    struct nrt_udf_apply_options ao;
    memset(&ao, 0, sizeof ao);
    ao.threads = 2;
    ao.chunk_rows = 3;
    ao.errors_as_null = true;
    nrt_column *col = NULL;
    rc = nrt_udf_apply(u, cols, np, &ao, &col, NULL, &err);
    if (rc == NRT_OK) {
      json_object_set_new(out, "apply", column_json(col));
      /* A str UDF ran in its write form: its value form must give the same column. */
      nrt_column *value_col = NULL;
      ao.value_form = true;
      if (nrt_udf_write_function(u) &&
          (nrt_udf_apply(u, cols, np, &ao, &value_col, NULL, &err) != NRT_OK ||
           !nrt_col_equal(col, value_col)))
        json_object_set_new(out, "apply_error",
                            json_string("the write form and the value form differ"));
      nrt_col_release(value_col);
      nrt_col_release(col);
    } else {
      json_object_set_new(out, "apply_error", json_string(err.message));
    }
    for (size_t k = 0; k < np; k++)
      nrt_col_release(cols[k]);
    nrt_udf_free(u);
  }
  nrt_stats_get(&after);
  bool balanced = after.alloc - before.alloc == after.free - before.free &&
                  after.mi_alloc - before.mi_alloc == after.mi_free - before.mi_free;
  json_object_set_new(out, "balanced", json_boolean(balanced));
  if (!balanced) {
    char buf[200];
    snprintf(buf, sizeof buf, "alloc %llu free %llu mi_alloc %llu mi_free %llu",
             (unsigned long long)(after.alloc - before.alloc),
             (unsigned long long)(after.free - before.free),
             (unsigned long long)(after.mi_alloc - before.mi_alloc),
             (unsigned long long)(after.mi_free - before.mi_free));
    json_object_set_new(out, "leaked", json_string(buf));
  }
  return out;
}

int main(void) {
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;
  while ((n = getline(&line, &cap, stdin)) > 0) {
    json_error_t jerr;
    json_t *c = json_loadb(line, (size_t)n, 0, &jerr);
    if (!c) {
      fprintf(stderr, "udf_oracle_runner: bad case: %s\n", jerr.text);
      free(line);
      return 2;
    }
    json_t *r = run_case(c);
    char *text = json_dumps(r, JSON_COMPACT | JSON_ENSURE_ASCII);
    puts(text);
    free(text);
    json_decref(r);
    json_decref(c);
  }
  free(line);
  return 0;
}

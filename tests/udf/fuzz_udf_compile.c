/* libFuzzer harness for the whole compiler: any source the front end accepts must lower to
 * valid IR, prune, optimise and JIT without a crash, and running it on a few rows (raising or
 * not) must leave the runtime statistics balanced. A str result is also produced in its write
 * form (the rows applied as a column, failures as nulls), which must agree with the value
 * form row by row; so must a list result's column. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/str.h"
#include "nrt/udf.h"

/* Programs that may legitimately run for ever or allocate gigabytes (loops over huge ranges,
 * `while`, repetition, padding to a huge width) are compiled but not run. A format spec's
 * width or precision is a literal, so a run of 7 or more digits stands for a huge one. */
static const char *const slow[] = {"while", "range", "*", "zfill", "just", "center", "expandtabs"};

static bool may_be_slow(const uint8_t *data, size_t size) {
  for (size_t k = 0; k < sizeof slow / sizeof slow[0]; k++) {
    size_t n = strlen(slow[k]);
    for (size_t i = 0; i + n <= size; i++)
      if (memcmp(data + i, slow[k], n) == 0)
        return true;
  }
  size_t digit_run = 0;
  for (size_t i = 0; i < size; i++) {
    digit_run = data[i] >= '0' && data[i] <= '9' ? digit_run + 1 : 0;
    if (digit_run >= 7)
      return true;
  }
  return false;
}

static const char *const rows[] = {"", "a", "héllo, wörld", "12", "x=y", " 漢字 ß "};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096)
    return 0;
  struct nrt_stats before, after;
  nrt_stats_get(&before);
  nrt_udf *u = NULL;
  struct nrt_error err;
  if (nrt_udf_compile((const char *)data, size, NULL, &u, &err) == NRT_OK) {
    const size_t nrows = sizeof rows / sizeof rows[0];
    nrt_column *in = NULL, *out = NULL;
    bool run = !may_be_slow(data, size) && nrt_udf_nparams(u) == 1;
    bool lists = nrt_udf_result_kind(u) == NRT_VALUE_LIST;
    if (run && (nrt_udf_write_function(u) || lists)) {
      nrt_col_builder *b = NULL;
      if (nrt_col_builder_new(NRT_COL_UTF8, (int64_t)nrows, &b, NULL) == NRT_OK) {
        for (size_t i = 0; i < nrows; i++)
          nrt_col_builder_append_view(b, rows[i], (int64_t)strlen(rows[i]));
        nrt_col_builder_finish(b, &in, NULL);
      }
      struct nrt_udf_apply_options ao;
      memset(&ao, 0, sizeof ao);
      ao.threads = 1;
      ao.errors_as_null = true;
      if (in && nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err) != NRT_OK)
        abort(); /* only an allocation failure could stop it */
    }
    for (size_t i = 0; run && i < nrows; i++) {
      nrt_value arg, r;
      memset(&arg, 0, sizeof arg);
      arg.kind = NRT_VALUE_STR;
      arg.as.str = nrt_str_view(rows[i], (int64_t)strlen(rows[i]));
      int rc = nrt_udf_call(u, &arg, &r, &err);
      if (out && lists) { /* the list column's row: null for a raise or None, else the items */
        bool valid = nrt_col_is_valid(out, (int64_t)i);
        bool list = rc == NRT_OK && r.kind == NRT_VALUE_LIST;
        int64_t start = 0, end = 0;
        if (valid)
          nrt_col_list_range(out, (int64_t)i, &start, &end);
        if (valid != list || (list && end - start != r.as.list->len))
          abort();
        for (int64_t k = 0; list && k < end - start; k++) {
          nrt_str w = nrt_col_str(nrt_col_list_child(out), start + k), v = r.as.list->items[k];
          if (w.len != v.len || memcmp(w.data, v.data, (size_t)w.len))
            abort();
        }
      } else if (out) { /* the write form's row: null for a raise or None, else the string */
        bool valid = nrt_col_is_valid(out, (int64_t)i);
        bool str = rc == NRT_OK && r.kind == NRT_VALUE_STR;
        nrt_str w = valid ? nrt_col_str(out, (int64_t)i) : nrt_str_view("", 0);
        if (valid != str ||
            (str && (w.len != r.as.str.len || memcmp(w.data, r.as.str.data, (size_t)w.len))))
          abort();
      }
      if (rc == NRT_OK && r.kind == NRT_VALUE_STR)
        nrt_str_release(&r.as.str);
      else if (rc == NRT_OK && r.kind == NRT_VALUE_LIST)
        nrt_str_list_release(r.as.list);
    }
    nrt_col_release(out);
    nrt_col_release(in);
    nrt_udf_free(u);
  }
  nrt_stats_get(&after);
  if (after.alloc - before.alloc != after.free - before.free ||
      after.mi_alloc - before.mi_alloc != after.mi_free - before.mi_free)
    abort(); /* a leak (or a double free) through compiled code */
  return 0;
}

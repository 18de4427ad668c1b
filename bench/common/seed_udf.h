/* DESIGN.md's seed UDF hand-written in C against the string API, for the benchmarks that
 * compare with it (bench/exec: the apply benchmark; bench/udf: compiled vs hand-written):
 *   def udf(string):
 *       if len(string) > 2:
 *           result = string.upper()      # new allocation
 *       else:
 *           result = string + string     # new allocation
 *       return result + 'abc'
 * in both row-function forms of nrt/exec.h. */
#ifndef NRT_BENCH_SEED_UDF_H
#define NRT_BENCH_SEED_UDF_H

#include <string.h>

#include "nrt/exec.h"
#include "nrt/str.h"

/* The value form, written as the compiler does: every temporary is a managed string released
 * after its last use; the result's reference is handed to apply. */
static int seed_udf(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  static const nrt_str abc = {NULL, "abc", 3};
  const nrt_str *s = &args[0].as.str;
  nrt_str tmp;
  int rc = nrt_str_len(s->data, s->len) > 2 ? nrt_str_upper(s, &tmp, err)
                                            : nrt_str_concat(s, s, &tmp, err);
  if (rc)
    return rc;
  rc = nrt_str_concat(&tmp, &abc, &result->as.str, err);
  nrt_str_release(&tmp);
  if (rc)
    return rc;
  result->kind = NRT_VALUE_STR;
  return NRT_OK;
}

/* The write form (nrt_exec_apply_write): the result's bytes go straight into the output
 * column, so a row makes no string at all. A case mapping writes at most
 * NRT_STR_CASE_MAX_GROWTH bytes per input byte, s + s two, so one room request covers either
 * branch. */
static int seed_write(void *ctx, const nrt_value *args, nrt_col_row_writer *out,
                      struct nrt_error *err) {
  (void)ctx;
  const nrt_str *s = &args[0].as.str;
  char *p = nrt_col_row_room(out, NRT_STR_CASE_MAX_GROWTH * (size_t)s->len + 3, err);
  if (!p)
    return err->code;
  if (nrt_str_len(s->data, s->len) > 2) {
    p += nrt_str_upper_into(s->data, s->len, p);
  } else {
    memcpy(p, s->data, (size_t)s->len);
    memcpy(p + s->len, s->data, (size_t)s->len);
    p += 2 * s->len;
  }
  memcpy(p, "abc", 3);
  out->pos = p + 3;
  return NRT_OK;
}

#endif

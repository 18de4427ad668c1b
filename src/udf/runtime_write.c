/* Runtime of the write form of string results (see runtime.h and codegen_write.c). */
#include <string.h>

#include "udf/runtime.h"

/* The output's error: nrt_col_row_room filled err. */
static int32_t room_failed(struct nrt_error *err) {
  return err && err->code ? err->code : NRT_ENOMEM;
}

int32_t nrt_udf_rt_write(struct nrt_error *err, nrt_col_row_writer *w, const char *data,
                         int64_t len) {
  char *p = nrt_col_row_room(w, (size_t)len, err);
  if (!p)
    return room_failed(err);
  if (len) /* an empty str may have no bytes at all */
    memcpy(p, data, (size_t)len);
  w->pos = p + len;
  return NRT_OK;
}

int32_t nrt_udf_rt_write_case(struct nrt_error *err, nrt_col_row_writer *w, int32_t op,
                              const char *data, int64_t len) {
  char *p = nrt_col_row_room(w, NRT_STR_CASE_MAX_GROWTH * (size_t)len, err);
  if (!p)
    return room_failed(err);
  int64_t n;
  switch (op) {
  case NRT_UDF_CASE_UPPER: n = nrt_str_upper_into(data, len, p); break;
  case NRT_UDF_CASE_LOWER: n = nrt_str_lower_into(data, len, p); break;
  case NRT_UDF_CASE_CASEFOLD: n = nrt_str_casefold_into(data, len, p); break;
  case NRT_UDF_CASE_CAPITALIZE: n = nrt_str_capitalize_into(data, len, p); break;
  case NRT_UDF_CASE_TITLE: n = nrt_str_title_into(data, len, p); break;
  default: n = nrt_str_swapcase_into(data, len, p); break;
  }
  w->pos = p + n;
  return NRT_OK;
}

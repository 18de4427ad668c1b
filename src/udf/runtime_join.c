/* sep.join(xs) in the write form (codegen_write.c): the lengths summed first, then the items
 * and separators written once, straight into the output row; no result string. */
#include <string.h>

#include "nrt/str.h"
#include "udf/runtime.h"

/* Copies n bytes: a short piece (the usual word or field) by overlapping word moves, no
 * library call. */
static void copy_bytes(char *o, const char *s, int64_t n) {
  uint64_t a, b;
  if (n > 16) {
    memcpy(o, s, (size_t)n);
  } else if (n >= 8) {
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(o, &a, 8);
    memcpy(o + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t x, y;
    memcpy(&x, s, 4);
    memcpy(&y, s + n - 4, 4);
    memcpy(o, &x, 4);
    memcpy(o + n - 4, &y, 4);
  } else if (n > 0) {
    o[0] = s[0];
    o[n / 2] = s[n / 2];
    o[n - 1] = s[n - 1];
  }
}

int32_t nrt_udf_rt_write_join(struct nrt_error *err, nrt_col_row_writer *w, const nrt_str *sep,
                              nrt_meminfo *list) {
  const nrt_str_list *l = (const nrt_str_list *)list->data;
  int64_t n = l->len, total = 0;
  const nrt_str *it = l->items;
  for (int64_t i = 0; i < n; i++) {
    int64_t add = it[i].len + (i ? sep->len : 0);
    if (add > INT64_MAX / 4 - total) /* as nrt_str_join; the row's room checks the limit */
      return nrt_error_set(err, NRT_EOVERFLOW, "join() result is too long for a Python string");
    total += add;
  }
  char *p = nrt_col_row_room(w, (size_t)total, err);
  if (!p)
    return nrt_udf_room_failed(err);
  for (int64_t i = 0; i < n; i++) {
    if (i) {
      copy_bytes(p, sep->data, sep->len);
      p += sep->len;
    }
    copy_bytes(p, it[i].data, it[i].len);
    p += it[i].len;
  }
  w->pos = p;
  return NRT_OK;
}

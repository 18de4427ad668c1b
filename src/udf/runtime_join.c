/* sep.join(xs) in the write form (codegen_write.c): the lengths summed first, then the items
 * and separators written once, straight into the output row; no result string. */
#include <string.h>

#include "nrt/str.h"
#include "udf/runtime.h"

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
      nrt_udf_copy_bytes(p, sep->data, sep->len);
      p += sep->len;
    }
    nrt_udf_copy_bytes(p, it[i].data, it[i].len);
    p += it[i].len;
  }
  w->pos = p;
  return NRT_OK;
}

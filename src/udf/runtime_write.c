/* Runtime of the write form of string results (see runtime.h and codegen_write.c). */
#include <stdbool.h>
#include <string.h>

#include "nrt/str_convert.h"
#include "udf/runtime.h"

int32_t nrt_udf_rt_write_room(struct nrt_error *err, nrt_col_row_writer *w, int64_t size,
                              int32_t shift) {
  if (size < 0 || (uint64_t)size > (SIZE_MAX >> 2) >> shift)
    return nrt_error_set(err, NRT_ERANGE, "string too large");
  return nrt_col_row_room(w, (size_t)size << shift, err) ? NRT_OK : nrt_udf_room_failed(err);
}

/* The common decimal specs ('04d', '>6', '<3d': an ASCII fill, no sign option, grouping or
 * '#', a width up to 64) straight from the digits: *n the bytes written, false for another
 * spec. */
static bool decimal_padded(int64_t v, const nrt_format_spec *f, char *out, int64_t *n) {
  if ((f->type != 0 && f->type != 'd') || f->empty || f->thousands || f->alternate ||
      (f->sign && f->sign != '-') || f->fill >= 0x80 || f->width > 64)
    return false;
  char digits[24];
  int64_t len = nrt_str_from_int64_into(v, digits), pad = f->width > len ? f->width - len : 0;
  int64_t left = f->align == '<' ? 0 : f->align == '^' ? pad / 2 : pad, sign = 0;
  char *p = out;
  if (f->align == '=' && v < 0) { /* the sign before the padding */
    *p++ = '-';
    sign = 1;
  }
  memset(p, (int)f->fill, (size_t)left);
  p += left;
  memcpy(p, digits + sign, (size_t)(len - sign));
  p += len - sign;
  memset(p, (int)f->fill, (size_t)(pad - left));
  *n = p + (pad - left) - out;
  return true;
}

int32_t nrt_udf_rt_write_int_spec(struct nrt_error *err, nrt_col_row_writer *w, int64_t v,
                                  const nrt_format_spec *f) {
  if (nrt_udf_write_int_fast(w, v, f))
    return NRT_OK;
  /* One pass when the width is modest (the empty spec, str(v), included): an int64 takes at
   * most 64 binary digits, a sign, a prefix and 16 separators (< 96 bytes), plus the padding,
   * at most 4 bytes a fill character. Other types ('c' may fail; e, f, g, % format a float)
   * are measured first. */
  bool digits = f->type == 0 || f->type == 'd' || f->type == 'b' || f->type == 'n' ||
                f->type == 'o' || f->type == 'x' || f->type == 'X';
  if (digits && f->width >= -1 && f->width <= 4096) {
    size_t bound = 96 + 4 * (size_t)(f->width > 0 ? f->width : 0);
    char *p = nrt_col_row_room(w, bound, err);
    if (!p)
      return nrt_udf_room_failed(err);
    int64_t n;
    w->pos = p + (decimal_padded(v, f, p, &n) ? n : nrt_str_format_int_into(v, f, p));
    return NRT_OK;
  }
  int64_t size;
  int rc = nrt_str_format_int_size(v, f, &size, err);
  if (rc)
    return rc;
  char *p = nrt_col_row_room(w, (size_t)size, err);
  if (!p)
    return nrt_udf_room_failed(err);
  w->pos = p + nrt_str_format_int_into(v, f, p);
  return NRT_OK;
}

int32_t nrt_udf_rt_write_float_spec(struct nrt_error *err, nrt_col_row_writer *w, double v,
                                    const nrt_format_spec *f) {
  int64_t size = nrt_str_format_float_size(v, f);
  char *p = nrt_col_row_room(w, (size_t)size, err);
  if (!p)
    return nrt_udf_room_failed(err);
  w->pos = p + nrt_str_format_float_into(v, f, p);
  return NRT_OK;
}

int32_t nrt_udf_rt_write_int(struct nrt_error *err, nrt_col_row_writer *w, int64_t v,
                             const char *spec, int64_t speclen) {
  nrt_format_spec f;
  int rc = nrt_format_spec_parse(spec, speclen, NRT_FORMAT_INT, &f, err);
  return rc ? rc : nrt_udf_rt_write_int_spec(err, w, v, &f);
}

int32_t nrt_udf_rt_write_float(struct nrt_error *err, nrt_col_row_writer *w, double v,
                               const char *spec, int64_t speclen) {
  nrt_format_spec f;
  int rc = nrt_format_spec_parse(spec, speclen, NRT_FORMAT_FLOAT, &f, err);
  return rc ? rc : nrt_udf_rt_write_float_spec(err, w, v, &f);
}

int32_t nrt_udf_rt_write_replace(struct nrt_error *err, nrt_col_row_writer *w,
                                 const nrt_str *s, const nrt_str *old_s, const nrt_str *new_s,
                                 int64_t count, int32_t split_join) {
  if (split_join && old_s->len == 0)
    return nrt_error_set(err, NRT_EVALUE, "empty separator");
  /* Without growth the result fits in len bytes: no measuring pass. */
  int64_t size = new_s->len <= old_s->len
                     ? s->len
                     : nrt_str_replace_size(s->data, s->len, old_s->data, old_s->len,
                                            new_s->data, new_s->len, count);
  if (size < 0)
    return nrt_error_set(err, NRT_EOVERFLOW, "replace string is too long");
  char *p = nrt_col_row_room(w, (size_t)size, err);
  if (!p)
    return nrt_udf_room_failed(err);
  w->pos = p + nrt_str_replace_into(s->data, s->len, old_s->data, old_s->len, new_s->data,
                                    new_s->len, count, p);
  return NRT_OK;
}

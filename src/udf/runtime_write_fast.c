/* Fast paths of the write form's padded f-string fields (runtime.h): a string of up to
 * NRT_SHORT_MAX bytes, or an int64 in decimal, padded with a one-byte fill to a width of at
 * most FAST_WIDTH. Used only when the row already has FAST_ROOM bytes of room, so the
 * padding and the bytes are written with fixed-size stores that may run past the field's end
 * (the later fill, the next field or the next row overwrites them): no memset or memcpy call,
 * no branch on the string's length. The general paths (runtime_format.c, runtime_write.c)
 * write the same bytes; tests/udf/test_udf_fmtfast.c compares them. */
#include <string.h>

#include "nrt/str.h"
#include "str/str_short.h"
#include "udf/runtime.h"

#define FAST_WIDTH 64
/* the most a fast write touches: 64 bytes of fill on each side of a field of up to 32 bytes */
#define FAST_ROOM (2 * FAST_WIDTH + NRT_SHORT_MAX + 32)

/* 64 bytes of the fill byte at p (four 16-byte stores once compiled). */
static inline void fill64(char *p, uint64_t pattern) {
  for (int k = 0; k < 8; k++)
    memcpy(p + 8 * k, &pattern, 8);
}

static inline bool has_room(const nrt_col_row_writer *w) {
  return w->end - w->pos >= FAST_ROOM;
}

/* Bytes of padding before the field for Python's format(): '<' none, '^' the smaller half
 * (the odd fill goes right), '>' and '=' all of it. */
static inline int64_t left_pad(char align, int64_t pad) {
  return align == '<' ? 0 : align == '^' ? pad / 2 : pad;
}

bool nrt_udf_write_str_fast(nrt_col_row_writer *w, const char *s, int64_t len, int64_t *chars,
                            const struct nrt_udf_str_spec *f) {
  if (len > NRT_SHORT_MAX || f->filllen != 1 || f->prec >= 0 || f->width > FAST_WIDTH ||
      !has_room(w))
    return false;
  struct nrt_short_cover c;
  nrt_short_cover_read(s, len, &c);
  /* the code points: the bytes that are not continuation bytes (10xxxxxx) */
  uint64_t cont = nrt_short_cont_ones(c.w[0]) + nrt_short_cont_ones(c.w[1]) +
                  nrt_short_cont_ones(c.w[2]) + nrt_short_cont_ones(c.w[3]) +
                  nrt_short_cont_ones(c.tail);
  int64_t n = len - nrt_short_byte_sum(cont);
  if (chars)
    *chars = n;
  int64_t pad = f->width > n ? f->width - n : 0, left = left_pad(f->align, pad);
  uint64_t pattern = NRT_SHORT_ONES * (unsigned char)f->fill[0];
  int64_t t = len >> 3; /* the word the tail belongs to (4: none) */
  char *p = w->pos;
  fill64(p, pattern);
  for (int k = 0; k < 4; k++) {
    uint64_t word = c.w[k] | (c.tail & nrt_short_mask(k == t));
    memcpy(p + left + 8 * k, &word, 8);
  }
  fill64(p + left + len, pattern);
  w->pos = p + len + pad;
  return true;
}

static const char digit_pairs[201] = "00010203040506070809101112131415161718192021222324"
                                     "25262728293031323334353637383940414243444546474849"
                                     "50515253545556575859606162636465666768697071727374"
                                     "75767778798081828384858687888990919293949596979899";

bool nrt_udf_write_int_fast(nrt_col_row_writer *w, int64_t v, const nrt_format_spec *f) {
  /* the decimal specs without sign option, grouping or '#' ('04d', '>6', '<3d') */
  if ((f->type != 0 && f->type != 'd') || f->empty || f->thousands || f->alternate ||
      (f->sign && f->sign != '-') || f->fill >= 0x80 || f->width > FAST_WIDTH || !has_room(w))
    return false;
  char buf[48] = {0}; /* the digits end at buf + 24; 24 bytes are copied from their start */
  char *end = buf + 24, *d = end;
  uint64_t m = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
  while (m >= 100) {
    d -= 2;
    memcpy(d, digit_pairs + 2 * (m % 100), 2);
    m /= 100;
  }
  if (m >= 10) {
    d -= 2;
    memcpy(d, digit_pairs + 2 * m, 2);
  } else {
    *--d = (char)('0' + m);
  }
  char *p = w->pos;
  int64_t digits = end - d, pad = f->width > digits + (v < 0) ? f->width - digits - (v < 0) : 0;
  if (v < 0) {
    if (f->align == '=') /* the sign before the padding */
      *p++ = '-';
    else
      *--d = '-';
  }
  int64_t n = end - d, left = left_pad(f->align, pad);
  uint64_t pattern = NRT_SHORT_ONES * (unsigned char)f->fill;
  fill64(p, pattern);
  memcpy(p + left, d, 24);
  fill64(p + left + n, pattern);
  w->pos = p + n + pad;
  return true;
}

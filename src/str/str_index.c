/* Indexing s[i] and slicing s[start:stop:step] with Python's rules (see nrt/str.h). */
#include "str/str_internal.h"
#include "str/str_short.h"

int nrt_str_char_range(const char *s, int64_t len, int64_t i, int64_t *off, int64_t *nbytes,
                       struct nrt_error *err) {
  int64_t p;
  if (i >= 0) {
    p = nrt_str_cp_offset(s, len, i);
    if (p < 0 || p == len)
      goto out_of_range;
  } else {
    /* Walk back -i code points from the end. */
    p = len;
    for (int64_t k = i; k < 0; k++) {
      if (p == 0)
        goto out_of_range;
      p--;
      while (p > 0 && !nrt_u8_is_lead((unsigned char)s[p]))
        p--;
    }
  }
  *off = p;
  *nbytes = nrt_u8_seqlen((unsigned char)s[p]);
  return NRT_OK;
out_of_range:
  *off = 0;
  *nbytes = 0;
  return nrt_error_set(err, NRT_EINDEX, "string index out of range");
}

int nrt_str_getitem(const nrt_str *s, int64_t i, nrt_str *out, struct nrt_error *err) {
  int64_t off, nb;
  int rc = nrt_str_char_range(s->data, s->len, i, &off, &nb, err);
  if (rc != NRT_OK) {
    *out = nrt_str_empty();
    return rc;
  }
  return nrt_str_result_sub(s, s->data + off, nb, out, err);
}

/* Python's slice.indices(n): resolved start and the number of selected code points. */
static int64_t slice_indices(int64_t n, int64_t *start, int64_t stop, int64_t *step) {
  if (*step == NRT_STR_NONE)
    *step = 1;
  int64_t st = *step;
  int64_t lower = st > 0 ? 0 : -1, upper = st > 0 ? n : n - 1;
  int64_t b = *start, e = stop;
  if (b == NRT_STR_NONE) {
    b = st < 0 ? upper : lower;
  } else if (b < 0) {
    b += n;
    if (b < lower)
      b = lower;
  } else if (b > upper) {
    b = upper;
  }
  if (e == NRT_STR_NONE) {
    e = st < 0 ? lower : upper;
  } else if (e < 0) {
    e += n;
    if (e < lower)
      e = lower;
  } else if (e > upper) {
    e = upper;
  }
  *start = b;
  if (st > 0)
    return b < e ? (e - b - 1) / st + 1 : 0;
  /* -st cannot overflow: st == INT64_MIN would need -st; use unsigned arithmetic. */
  uint64_t ast = (uint64_t)0 - (uint64_t)st;
  return e < b ? (int64_t)((uint64_t)(b - e - 1) / ast + 1) : 0;
}

/* Walks the slice; copies into out when not NULL. Returns the byte count. */
static int64_t slice_walk(const char *s, int64_t len, int64_t n, int64_t start, int64_t count,
                          int64_t step, char *out) {
  if (count <= 0)
    return 0;
  if (n == len) { /* ASCII: bytes are code points */
    if (out) {
      if (step == 1)
        memcpy(out, s + start, (size_t)count);
      else
        for (int64_t k = 0; k < count; k++) /* start + k * step stays inside s */
          out[k] = s[start + k * step];
    }
    return count;
  }
  int64_t pos = nrt_str_cp_offset(s, len, start);
  if (step == 1) {
    int64_t end = pos + nrt_str_cp_offset(s + pos, len - pos, count);
    if (out)
      memcpy(out, s + pos, (size_t)(end - pos));
    return end - pos;
  }
  if (step == -1) { /* reversal: code points from pos backwards */
    int64_t end = pos + nrt_u8_seqlen((unsigned char)s[pos]);
    if (!out) {
      int64_t low = nrt_str_cp_offset(s, len, start - count + 1);
      return end - low;
    }
    int64_t w = 0;
    for (int64_t k = 0; k < count; k++) {
      int64_t p = end - 1;
      while (!nrt_u8_is_lead((unsigned char)s[p]))
        p--;
      for (int64_t q = p; q < end; q++)
        out[w++] = s[q];
      end = p;
    }
    return w;
  }
  int64_t w = 0;
  for (int64_t k = 0;; k++) {
    int nb = nrt_u8_seqlen((unsigned char)s[pos]);
    if (out)
      for (int q = 0; q < nb; q++)
        out[w + q] = s[pos + q];
    w += nb;
    if (k + 1 == count)
      break;
    if (step > 0) {
      pos += nrt_str_cp_offset(s + pos, len - pos, step);
    } else {
      for (int64_t back = step; back < 0; back++) {
        pos--;
        while (!nrt_u8_is_lead((unsigned char)s[pos]))
          pos--;
      }
    }
  }
  return w;
}

int64_t nrt_str_slice_size(const char *s, int64_t len, int64_t start, int64_t stop,
                           int64_t step) {
  if (step == 0)
    return -1;
  int64_t n = nrt_str_len(s, len);
  int64_t count = slice_indices(n, &start, stop, &step);
  return slice_walk(s, len, n, start, count, step, NULL);
}

int64_t nrt_str_slice_into(const char *s, int64_t len, int64_t start, int64_t stop,
                           int64_t step, char *out) {
  if (step == 0)
    return -1;
  int64_t n = nrt_str_len(s, len);
  int64_t count = slice_indices(n, &start, stop, &step);
  return slice_walk(s, len, n, start, count, step, out);
}

/* ---- Short strings (at most NRT_SHORT_MAX bytes), steps 1 and -1: code point positions
 * come from a bit mask of the lead bytes of the cover, so there is no walk over the bytes. */

/* s[lo..hi) with its code points in reverse order written to out: the 32-byte block of the
 * cover byte-reversed, then each multi-byte sequence (now lead byte last) turned back. */
static void reverse_short(const struct nrt_short_cover *c, int64_t len, int64_t lo, int64_t hi,
                          char *out) {
  unsigned char r[2 * NRT_SHORT_MAX]; /* the block in the first half (room for copies) */
  uint64_t at_tail = (uint64_t)(len >> 3);
  for (int j = 0; j < 4; j++) { /* r[i] = block[31 - i] */
    uint64_t w = c->w[j] | (c->tail & nrt_short_mask(at_tail == (uint64_t)j));
    w = __builtin_bswap64(w);
    memcpy(r + 8 * (3 - j), &w, 8);
  }
  /* s[hi - 1 - i] is r[32 - hi + i]: the result is r[32 - hi .. 32 - lo). */
  uint64_t m0 = nrt_short_load64(r), m1 = nrt_short_load64(r + 8);
  uint64_t m2 = nrt_short_load64(r + 16), m3 = nrt_short_load64(r + 24);
  uint64_t multi = nrt_short_bits(m0 & (m0 << 1) & NRT_SHORT_HIGH) | /* lead bytes 11xxxxxx */
                   (nrt_short_bits(m1 & (m1 << 1) & NRT_SHORT_HIGH) << 8) |
                   (nrt_short_bits(m2 & (m2 << 1) & NRT_SHORT_HIGH) << 16) |
                   (nrt_short_bits(m3 & (m3 << 1) & NRT_SHORT_HIGH) << 24);
  multi &= ~(((uint64_t)1 << (NRT_SHORT_MAX - hi)) - 1) & (((uint64_t)1 << (NRT_SHORT_MAX - lo)) - 1);
  while (multi) {
    int p = __builtin_ctzll(multi);
    multi &= multi - 1;
    int n = nrt_u8_seqlen(r[p]); /* its continuation bytes sit just before it */
    unsigned char *q = r + p - n + 1;
    unsigned char t = q[0];
    q[0] = q[n - 1];
    q[n - 1] = t;
    if (n == 4) {
      t = q[1];
      q[1] = q[2];
      q[2] = t;
    }
  }
  nrt_copy_short(out, (const char *)r + NRT_SHORT_MAX - hi, hi - lo);
}

/* The managed slice of a short string with step 1 or -1 (step already resolved). */
static int slice_short(const nrt_str *s, int64_t start, int64_t stop, int64_t step, nrt_str *out,
                       struct nrt_error *err) {
  int64_t len = s->len;
  struct nrt_short_cover c;
  nrt_short_cover_read(s->data, len, &c);
  uint64_t leads = nrt_short_leads(&c, len);
  int64_t n = nrt_short_popcount(leads);
  int64_t count = slice_indices(n, &start, stop, &step);
  if (count == 0)
    return NRT_OK;
  if (step == 1) {
    int64_t b0 = nrt_short_offset(leads, n, len, start);
    int64_t b1 = nrt_short_offset(leads, n, len, start + count);
    return nrt_str_result_sub(s, s->data + b0, b1 - b0, out, err);
  }
  /* step -1: code points start, start - 1, ..., start - count + 1 */
  int64_t lo = nrt_short_offset(leads, n, len, start - count + 1);
  int64_t hi = nrt_short_offset(leads, n, len, start + 1);
  if (count == 1) /* one code point: maybe a static one-character string */
    return nrt_str_result_sub(s, s->data + lo, hi - lo, out, err);
  char *p;
  int rc = nrt_str_alloc_nonempty(hi - lo, out, &p, err);
  if (rc == NRT_OK)
    reverse_short(&c, len, lo, hi, p);
  return rc;
}

/* Byte length of the first k (>= 0) code points of s, or len when it has fewer. */
static int64_t prefix_bytes(const char *s, int64_t len, int64_t k) {
  if (k == 0)
    return 0; /* s[:n] and s[0:n] */
  if (k >= len)
    return len; /* at most len code points */
  int64_t off = nrt_str_cp_offset(s, len, k);
  return off < 0 ? len : off;
}

void nrt_str_slice_range(const char *s, int64_t len, int64_t start, int64_t stop, int64_t *b0,
                         int64_t *b1) {
  if (start == NRT_STR_NONE)
    start = 0;
  if (start >= 0 && (stop == NRT_STR_NONE || stop >= 0)) {
    *b0 = prefix_bytes(s, len, start);
    *b1 = stop == NRT_STR_NONE ? len
          : stop <= start      ? *b0
                               : *b0 + prefix_bytes(s + *b0, len - *b0, stop - start);
    return;
  }
  int64_t n = nrt_str_len(s, len), step = 1;
  int64_t count = slice_indices(n, &start, stop, &step);
  *b0 = n == len ? start : prefix_bytes(s, len, start);
  *b1 = *b0 + (n == len ? count : prefix_bytes(s + *b0, len - *b0, count));
}

int nrt_str_slice(const nrt_str *s, int64_t start, int64_t stop, int64_t step, nrt_str *out,
                  struct nrt_error *err) {
  *out = nrt_str_empty();
  if (step == 0)
    return nrt_error_set(err, NRT_EVALUE, "slice step cannot be zero");
  if (s->len <= NRT_SHORT_MAX && (step == NRT_STR_NONE || step == 1 || step == -1))
    return slice_short(s, start, stop, step, out, err);
  if (step == NRT_STR_NONE || step == 1) {
    int64_t b0, b1;
    nrt_str_slice_range(s->data, s->len, start, stop, &b0, &b1);
    return nrt_str_result_sub(s, s->data + b0, b1 - b0, out, err);
  }
  int64_t n = nrt_str_len(s->data, s->len);
  int64_t count = slice_indices(n, &start, stop, &step);
  if (count == 0)
    return NRT_OK;
  if (count == 1) { /* one code point: maybe a static one-character string */
    int64_t b0 = n == s->len ? start : nrt_str_cp_offset(s->data, s->len, start);
    return nrt_str_result_sub(s, s->data + b0, nrt_u8_seqlen((unsigned char)s->data[b0]), out,
                              err);
  }
  int64_t size = slice_walk(s->data, s->len, n, start, count, step, NULL);
  char *p;
  int rc = nrt_str_alloc(size, out, &p, err);
  if (rc != NRT_OK)
    return rc;
  slice_walk(s->data, s->len, n, start, count, step, p);
  return NRT_OK;
}

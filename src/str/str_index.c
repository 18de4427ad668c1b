/* Indexing s[i] and slicing s[start:stop:step] with Python's rules (see nrt/str.h). */
#include "str/str_internal.h"

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

int nrt_str_slice(const nrt_str *s, int64_t start, int64_t stop, int64_t step, nrt_str *out,
                  struct nrt_error *err) {
  *out = nrt_str_empty();
  if (step == 0)
    return nrt_error_set(err, NRT_EVALUE, "slice step cannot be zero");
  int64_t n = nrt_str_len(s->data, s->len);
  int64_t count = slice_indices(n, &start, stop, &step);
  if (count == 0)
    return NRT_OK;
  if (step == 1) {
    int64_t b0 = n == s->len ? start : nrt_str_cp_offset(s->data, s->len, start);
    int64_t b1 = b0 + (n == s->len ? count
                                    : nrt_str_cp_offset(s->data + b0, s->len - b0, count));
    return nrt_str_result_sub(s, s->data + b0, b1 - b0, out, err);
  }
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

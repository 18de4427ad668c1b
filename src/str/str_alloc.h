/* Internal: the inlined allocation of a managed string, for the hot str kernels. Compiles as
 * C and as C++ (case.c is also built as C++), so the payload is addressed by offsets here
 * rather than through str_internal.h's struct with its flexible array member. */
#ifndef NRT_STR_ALLOC_H
#define NRT_STR_ALLOC_H

#include <string.h>

#include "nrt/str.h"
#include "str/str_short.h"

/* Copies n bytes; dst and src do not overlap. Up to NRT_SHORT_MAX bytes without a library
 * call (which costs more than the copy) and with one branch, on n >= 8: the lengths of a
 * column's rows vary at random, so finer branches on them mispredict. 8..32 bytes: words at
 * clamped, overlapping offsets; 1..7: the moves a length does not need read the static zeros
 * and write a scratch buffer instead. */
static inline void nrt_copy_short(char *dst, const char *src, int64_t n) {
  if (n > NRT_SHORT_MAX) {
    memcpy(dst, src, (size_t)n);
    return;
  }
  if (n >= 8) { /* words at 0, min(8, n - 8), min(16, n - 8) and n - 8 */
    int64_t last = n - 8, o1 = last < 8 ? last : 8, o2 = last < 16 ? last : 16;
    uint64_t w0, w1, w2, w3;
    memcpy(&w0, src, 8);
    memcpy(&w1, src + o1, 8);
    memcpy(&w2, src + o2, 8);
    memcpy(&w3, src + last, 8);
    memcpy(dst, &w0, 8);
    memcpy(dst + o1, &w1, 8);
    memcpy(dst + o2, &w2, 8);
    memcpy(dst + last, &w3, 8);
    return;
  }
  unsigned char sink[8];
  const unsigned char *z = nrt_short_zeros();
  uintptr_t s = (uintptr_t)src, d = (uintptr_t)dst;
  /* 4..7 bytes: 4 at 0 and 4 at n - 4 */
  bool mid = n >= 4;
  const unsigned char *sm = nrt_short_sel(mid, s, z);
  const unsigned char *sm2 = nrt_short_sel(mid, s + (uintptr_t)n - 4, z);
  unsigned char *dm = nrt_short_sel_dst(mid, d, sink);
  unsigned char *dm2 = nrt_short_sel_dst(mid, d + (uintptr_t)n - 4, sink);
  uint32_t h0, h1;
  memcpy(&h0, sm, 4);
  memcpy(&h1, sm2, 4);
  /* 1..3 bytes: the first, middle and last */
  bool low = (uint64_t)(n - 1) < 3;
  const unsigned char *sl = nrt_short_sel(low, s, z);
  unsigned char *dl = nrt_short_sel_dst(low, d, sink);
  unsigned mi = ((unsigned)n & 3) >> 1, li = (unsigned)(n - 1) & 3;
  unsigned char b0 = sl[0], b1 = sl[mi], b2 = sl[li];
  memcpy(dm, &h0, 4);
  memcpy(dm2, &h1, 4);
  dl[0] = b0;
  dl[mi] = b1;
  dl[li] = b2;
}

/* Bytes before a managed string's characters in its MemInfo payload: the int64_t length
 * (struct nrt_str_payload in str_internal.h). */
#define NRT_STR_PAYLOAD_HEAD 8

/* nrt_str_max_bytes's limit (read relaxed: it is set before the work starts). */
extern int64_t nrt_str_max_bytes_limit;

/* NRT_ELIMIT for a string of len bytes, over the limit. */
int nrt_str_limit_error(int64_t len, struct nrt_error *err);

/* nrt_str_alloc for 0 < len <= the largest string length: one new string of len bytes (the
 * NUL written after them), *bytes pointing at them; on failure out is the empty string and
 * err is filled by nrt_mi_alloc, or NRT_ELIMIT when len is over nrt_str_max_bytes. */
static inline int nrt_str_alloc_nonempty(int64_t len, nrt_str *out, char **bytes,
                                         struct nrt_error *err) {
  if (__builtin_expect(len > __atomic_load_n(&nrt_str_max_bytes_limit, __ATOMIC_RELAXED), 0)) {
    *out = nrt_str_empty();
    nrt_str_limit_error(len, err);
    return NRT_ELIMIT; /* a constant: callers' compilers see *bytes is set on success */
  }
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc(NRT_STR_PAYLOAD_HEAD + (size_t)len + 1, &mi, err);
  if (__builtin_expect(rc != NRT_OK, 0)) {
    *out = nrt_str_empty();
    return rc;
  }
  char *payload = (char *)mi->data;
  memcpy(payload, &len, sizeof len);
  char *b = payload + NRT_STR_PAYLOAD_HEAD;
  b[len] = '\0';
  out->mi = mi;
  out->data = b;
  out->len = len;
  *bytes = b;
  return NRT_OK;
}

#endif

/* Internal: the inlined allocation of a managed string, for the hot str kernels. Compiles as
 * C and as C++ (case.c is also built as C++), so the payload is addressed by offsets here
 * rather than through str_internal.h's struct with its flexible array member. */
#ifndef NRT_STR_ALLOC_H
#define NRT_STR_ALLOC_H

#include <string.h>

#include "nrt/str.h"

/* Copies n bytes with a few fixed-size, overlapping moves when n <= 32 (on short strings a
 * library call costs more than the copy). dst and src do not overlap. */
static inline void nrt_copy_short(char *dst, const char *src, int64_t n) {
  if (n > 32) {
    memcpy(dst, src, (size_t)n);
  } else if (n >= 16) {
    memcpy(dst, src, 16);
    memcpy(dst + n - 16, src + n - 16, 16);
  } else if (n >= 8) {
    memcpy(dst, src, 8);
    memcpy(dst + n - 8, src + n - 8, 8);
  } else if (n >= 4) {
    memcpy(dst, src, 4);
    memcpy(dst + n - 4, src + n - 4, 4);
  } else if (n > 0) {
    dst[0] = src[0];
    dst[n >> 1] = src[n >> 1];
    dst[n - 1] = src[n - 1];
  }
}

/* Bytes before a managed string's characters in its MemInfo payload: the int64_t length
 * (struct nrt_str_payload in str_internal.h). */
#define NRT_STR_PAYLOAD_HEAD 8

/* nrt_str_alloc for 0 < len <= the largest string length: one new string of len bytes (the
 * NUL written after them), *bytes pointing at them; on failure out is the empty string and
 * err is filled by nrt_mi_alloc. */
static inline int nrt_str_alloc_nonempty(int64_t len, nrt_str *out, char **bytes,
                                         struct nrt_error *err) {
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

/* nrt str: string views, managed strings and every Python str operation.
 *
 * (Contract shared with the column, exec and udf layers; the str module extends this header
 * with the operations.)
 *
 * Value representation, used by the C API and by compiled UDF code alike:
 *   struct nrt_str { nrt_meminfo *mi; const char *data; int64_t len; }
 * - mi == NULL: a borrowed view (a column row, a literal): no refcount traffic, the bytes
 *   belong to someone else and outlive the view by contract.
 * - mi != NULL: a managed string. One allocation holds the MemInfo, the string header and the
 *   bytes followed by a NUL; data points at the bytes; the value owns one reference.
 * data is valid UTF-8 of len bytes in both cases. */
#ifndef NRT_STR_H
#define NRT_STR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct nrt_str {
  nrt_meminfo *mi;  /* owner, or NULL for a borrowed view */
  const char *data; /* UTF-8 bytes */
  int64_t len;      /* length in bytes */
} nrt_str;

/* A borrowed view of s[0..len) (no copy, no validation: the caller guarantees valid UTF-8). */
static inline nrt_str nrt_str_view(const char *s, int64_t len) {
  nrt_str v = {NULL, s, len};
  return v;
}

/* Makes a managed copy of s[0..len) (valid UTF-8, not checked) with refcount 1. On failure
 * *out is the empty view and NRT_ENOMEM is returned. len == 0 gives the shared empty string,
 * which allocates nothing. */
NRT_API int nrt_str_new(const char *s, int64_t len, nrt_str *out, struct nrt_error *err);

/* Allocates a managed string of len bytes for the caller to fill through *bytes (the NUL at
 * bytes[len] is already written). The bytes must be valid UTF-8 before the string is used. */
NRT_API int nrt_str_alloc(int64_t len, nrt_str *out, char **bytes, struct nrt_error *err);

/* Takes one more reference (atomic; nothing for a borrowed view). */
NRT_API void nrt_str_retain(const nrt_str *s);

/* Drops the value's reference (atomic; nothing for a borrowed view) and empties *s. */
NRT_API void nrt_str_release(nrt_str *s);

#ifdef __cplusplus
}
#endif

#endif /* NRT_STR_H */

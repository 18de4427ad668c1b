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

/* ---------------------------------------------------------------------------------------
 * Conventions for operations (every section below follows them):
 * - Pure kernels work on (const char *s, int64_t len) valid UTF-8 and never allocate. An
 *   operation producing a string has `nrt_str_X_size(...)` (exact output bytes) and
 *   `nrt_str_X_into(..., char *out)` (writes them, returns the byte count).
 * - Managed wrappers take `const nrt_str *` inputs and an `nrt_str *out` that receives a new
 *   reference: the input itself (retained) when the result equals it, the shared empty
 *   string, or one new allocation. They return NRT_OK or an error code (NRT_ENOMEM, or the
 *   Python exception's code with Python's message in err).
 * --------------------------------------------------------------------------------------- */

/* ---------------------------------------------------------------- case mapping
 * Python's str.upper/lower/casefold/capitalize/title/swapcase with full case mappings
 * (SpecialCasing), Final_Sigma in lower/swapcase/capitalize/title, Python's title rules. */
NRT_API int64_t nrt_str_upper_size(const char *s, int64_t len);
NRT_API int64_t nrt_str_upper_into(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_lower_size(const char *s, int64_t len);
NRT_API int64_t nrt_str_lower_into(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_casefold_size(const char *s, int64_t len);
NRT_API int64_t nrt_str_casefold_into(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_capitalize_size(const char *s, int64_t len);
NRT_API int64_t nrt_str_capitalize_into(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_title_size(const char *s, int64_t len);
NRT_API int64_t nrt_str_title_into(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_swapcase_size(const char *s, int64_t len);
NRT_API int64_t nrt_str_swapcase_into(const char *s, int64_t len, char *out);

NRT_API int nrt_str_upper(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_lower(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_casefold(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_capitalize(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_title(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_swapcase(const nrt_str *s, nrt_str *out, struct nrt_error *err);

/* ---------------------------------------------------------------- predicates
 * Python's str.isX(): false for the empty string except isascii (true) and isidentifier
 * (false), as in Python. */
NRT_API bool nrt_str_isalpha(const char *s, int64_t len);
NRT_API bool nrt_str_isalnum(const char *s, int64_t len);
NRT_API bool nrt_str_isdecimal(const char *s, int64_t len);
NRT_API bool nrt_str_isdigit(const char *s, int64_t len);
NRT_API bool nrt_str_isnumeric(const char *s, int64_t len);
NRT_API bool nrt_str_isspace(const char *s, int64_t len);
NRT_API bool nrt_str_isupper(const char *s, int64_t len);
NRT_API bool nrt_str_islower(const char *s, int64_t len);
NRT_API bool nrt_str_istitle(const char *s, int64_t len);
NRT_API bool nrt_str_isascii(const char *s, int64_t len);
NRT_API bool nrt_str_isidentifier(const char *s, int64_t len);
NRT_API bool nrt_str_isprintable(const char *s, int64_t len);


/* =========================================================================================
 * Managed strings and the value representation (str_core.c)
 *
 * Value representation for compiled code and for C callers: struct nrt_str above, passed
 * by value or by pointer, 24 bytes {mi at offset 0, data at 8, len at 16}.
 * - Borrowed (mi == NULL): the bytes belong to someone else (a column row, a literal, the
 *   shared empty string) and outlive every use of the view by contract. Retain/release do
 *   nothing. A borrowed value must not be stored beyond its owner's lifetime; to keep it,
 *   copy it with nrt_str_new.
 * - Managed (mi != NULL): one block from nrt_mi_alloc laid out as
 *     [nrt_meminfo 48 bytes][int64 len][len bytes][NUL]
 *   mi->data points at the int64 length (struct nrt_str_payload in the implementation),
 *   data == (char *)mi->data + 8, mi->size == len + 9. Refcount 1 at birth. The value owns
 *   one reference; compiled code may incref/decref mi inline (offset 0 of the MemInfo).
 * - The empty string: every operation producing "" returns nrt_str_empty(), a borrowed view
 *   of a static "" with mi == NULL: it costs no allocation and no refcount traffic, and is
 *   never freed. Code must test emptiness with len == 0, never by comparing data pointers.
 * - Identity: an operation whose result equals one of its inputs returns that input (a new
 *   reference for a managed input, the same view for a borrowed one).
 * ======================================================================================= */

/* The shared empty string: a borrowed view of a static "" (needs no release, never fails). */
static inline nrt_str nrt_str_empty(void) {
  nrt_str v = {NULL, "", 0};
  return v;
}

/* Details of nrt_str_new / nrt_str_alloc: len == 0 gives nrt_str_empty() (nrt_str_alloc then
 * sets *bytes to a static buffer that must not be written); len < 0 gives NRT_EINVAL; a len
 * above INT64_MAX / 4 gives NRT_EOVERFLOW; a refused allocation gives NRT_ENOMEM. In every
 * failure *out is the empty view. */

/* The managed string owning `mi` (a MemInfo made by nrt_str_new/nrt_str_alloc), without
 * touching the refcount: for compiled code and containers that keep only the MemInfo. */
NRT_API nrt_str nrt_str_from_meminfo(nrt_meminfo *mi);

#ifdef __cplusplus
}
#endif

#endif /* NRT_STR_H */

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

/* The longest string nrt makes, in bytes: process-wide, NRT_STR_DEFAULT_MAX_BYTES unless
 * set. Making a longer string (any operation: s * n, padding, formatting, joining, ...) and
 * asking for room past it in a row written in place (nrt_col_row_room) fail with NRT_ELIMIT
 * ("MemoryError") before anything is allocated; an apply reports that as the row's error,
 * so with errors_as_null the row becomes null and the apply goes on. A room request is an
 * upper bound of the bytes written (a case mapping asks for up to 4 bytes per input byte), so
 * a row close to the limit may be refused. nrt_str_set_max_bytes sets the limit (n < 1: the
 * default) and returns the previous one; set it before other threads make strings. */
#define NRT_STR_DEFAULT_MAX_BYTES ((int64_t)INT32_MAX) /* 2 GiB - 1: a utf8 column's row */
NRT_API int64_t nrt_str_set_max_bytes(int64_t n);
NRT_API int64_t nrt_str_max_bytes(void);

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
 *   string, or one new allocation. They return NRT_OK or an error code (NRT_ENOMEM,
 *   NRT_ELIMIT for a result longer than nrt_str_max_bytes, or the Python exception's code
 *   with Python's message in err).
 * --------------------------------------------------------------------------------------- */

/* ---------------------------------------------------------------- case mapping
 * Python's str.upper/lower/casefold/capitalize/title/swapcase with full case mappings
 * (SpecialCasing), Final_Sigma in lower/swapcase/capitalize/title, Python's title rules. */

/* No case mapping (upper, lower, casefold, capitalize, title, swapcase) produces more than
 * this many UTF-8 bytes per input byte (U+0390 'ΐ', 2 bytes, upper-cases to 6), so a buffer
 * of NRT_STR_CASE_MAX_GROWTH * len bytes is room enough for nrt_str_X_into without measuring
 * with nrt_str_X_size first. */
#define NRT_STR_CASE_MAX_GROWTH 3

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

/* The same, for an out with room for NRT_STR_CASE_MAX_GROWTH * len + 8 bytes: the bytes past
 * the result may be overwritten, so runs of ASCII are stored a whole word at a time (faster
 * on short strings). */
#define NRT_STR_CASE_PADDING 8
NRT_API int64_t nrt_str_upper_into_padded(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_lower_into_padded(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_casefold_into_padded(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_capitalize_into_padded(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_title_into_padded(const char *s, int64_t len, char *out);
NRT_API int64_t nrt_str_swapcase_into_padded(const char *s, int64_t len, char *out);

NRT_API int nrt_str_upper(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_lower(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_casefold(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_capitalize(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_title(const nrt_str *s, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_swapcase(const nrt_str *s, nrt_str *out, struct nrt_error *err);

/* ---------------------------------------------------------------- predicates
 * Python's str.isX(): false for the empty string except isascii and isprintable (true), as
 * in Python. */
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
 *   data == (char *)mi->data + 8, mi->size >= len + 9: more for a result of nrt_str_append,
 *   which keeps room to grow after the NUL, and for one of nrt_str_replace made shorter
 *   than its first estimate (a few bytes). Refcount 1 at birth. The value owns one
 *   reference; compiled code may incref/decref mi inline (offset 0 of the MemInfo).
 * - The empty string: every operation producing "" returns nrt_str_empty(), a borrowed view
 *   of a static "" with mi == NULL: it costs no allocation and no refcount traffic, and is
 *   never freed. Code must test emptiness with len == 0, never by comparing data pointers.
 * - Identity: an operation whose result is all of one of its inputs (strip, slice, replace or
 *   split that change nothing, concatenation with "", repetition by 1, a one-element join,
 *   a partition that finds no separator) returns that input: a new reference for a managed
 *   input, the same view for a borrowed one. No copy, no allocation.
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

/* Validating constructors, for bytes from outside (files, columns, bindings): invalid UTF-8
 * never reaches an operation. Both check s[0..len) with nrt_utf8_validate and return
 * NRT_EILSEQ with *error_offset (if not NULL) set to the byte offset of the first invalid
 * sequence, and err naming it; *out is then the empty view.
 * nrt_str_view_utf8 makes a borrowed view (no copy); nrt_str_new_utf8 a managed copy as
 * nrt_str_new (NRT_ENOMEM possible). */
NRT_API int nrt_str_view_utf8(const char *s, int64_t len, nrt_str *out, int64_t *error_offset,
                              struct nrt_error *err);
NRT_API int nrt_str_new_utf8(const char *s, int64_t len, nrt_str *out, int64_t *error_offset,
                             struct nrt_error *err);

/* The managed string owning `mi` (a MemInfo made by nrt_str_new/nrt_str_alloc), without
 * touching the refcount: for compiled code and containers that keep only the MemInfo. */
NRT_API nrt_str nrt_str_from_meminfo(nrt_meminfo *mi);


/* =========================================================================================
 * Operations (Python's str semantics)
 *
 * Indices are code-point indices, as in Python. An int64 argument documented as "or None"
 * takes NRT_STR_NONE for Python's None (a default `end`, an omitted slice bound).
 * Every kernel below takes valid UTF-8; the managed wrappers follow the conventions block
 * above. Results that are new strings may also be borrowed views of static storage (the
 * empty string, and every one-character string of a code point below U+0800: ASCII, Latin,
 * Greek, Cyrillic, ...): they need no allocation, and release is a no-op for them.
 * ======================================================================================= */

/* Python's None for an optional index argument. */
#define NRT_STR_NONE INT64_MIN

/* ---------------------------------------------------------------- length, comparison */

/* len(s): number of code points (word-at-a-time count of non-continuation bytes). */
NRT_API int64_t nrt_str_len(const char *s, int64_t len);

/* True when every byte is ASCII (str.isascii; word at a time). */
NRT_API bool nrt_str_is_ascii_bytes(const char *s, int64_t len);

/* Three-way comparison by code point (UTF-8 byte order is code point order): <0, 0, >0.
 * a < b is nrt_str_compare(...) < 0, and so on for <=, >, >=. */
NRT_API int nrt_str_compare(const char *a, int64_t alen, const char *b, int64_t blen);

/* a == b (a != b is its negation). */
NRT_API bool nrt_str_eq(const char *a, int64_t alen, const char *b, int64_t blen);

/* `needle in hay`. The empty needle is in every string. */
NRT_API bool nrt_str_contains(const char *hay, int64_t hlen, const char *needle, int64_t nlen);

/* ---------------------------------------------------------------- concatenation, repetition */

/* a + b: a new string, or a (b) itself when the other is empty (a copy if that one is a
 * result of nrt_str_append with room left: such a buffer is never shared). NRT_EOVERFLOW when
 * the sum is too long ("strings are too large to concat"). */
NRT_API int nrt_str_concat(const nrt_str *a, const nrt_str *b, nrt_str *out,
                           struct nrt_error *err);

/* s + x made to be appended to again (Python's `s += x` loop): the result is a new reference
 * to a string with room after its bytes (about as many again), so that appending n bytes one
 * piece at a time costs O(n) in all. When s is such a string, its caller holds the only
 * reference (refcount 1) and x fits in its room, x is copied into the room and s's own
 * MemInfo returned with one more reference: the bytes of s never change, but the NUL after
 * them is overwritten, so the caller should release s next (as `s += x` does). x empty gives
 * s itself, s empty gives x itself (as nrt_str_concat). NRT_EOVERFLOW as nrt_str_concat.
 * Compiled UDF code calls it only for a local that no other value can share
 * (codegen_append.c), where a pruned refcount proves nothing. */
NRT_API int nrt_str_append(const nrt_str *s, const nrt_str *x, nrt_str *out,
                           struct nrt_error *err);

/* s as a string without room to grow: s itself (a new reference), or an exact copy of a
 * result of nrt_str_append that still has room. Compiled UDF code passes every str leaving a
 * function that appends through it, so no other value ever shares a buffer being grown. */
NRT_API int nrt_str_fit(const nrt_str *s, nrt_str *out, struct nrt_error *err);

/* s * n: n <= 0 gives the empty string, n == 1 gives s itself. NRT_EOVERFLOW ("repeated
 * string is too long") when the result would exceed the maximum string length. */
NRT_API int nrt_str_repeat(const nrt_str *s, int64_t n, nrt_str *out, struct nrt_error *err);

/* ---------------------------------------------------------------- indexing, slicing */

/* s[i]: the byte range [*off, *off + *nbytes) of the code point at index i (negative counts
 * from the end). NRT_EINDEX ("string index out of range") when i is outside the string. */
NRT_API int nrt_str_char_range(const char *s, int64_t len, int64_t i, int64_t *off,
                               int64_t *nbytes, struct nrt_error *err);

/* s[i] as a string (ASCII characters come from the static one-character table). */
NRT_API int nrt_str_getitem(const nrt_str *s, int64_t i, nrt_str *out, struct nrt_error *err);

/* s[start:stop:step] with Python's slice.indices rules (start/stop or None; step != 0).
 * _size returns the output bytes, or -1 for step == 0. */
NRT_API int64_t nrt_str_slice_size(const char *s, int64_t len, int64_t start, int64_t stop,
                                   int64_t step);
NRT_API int64_t nrt_str_slice_into(const char *s, int64_t len, int64_t start, int64_t stop,
                                   int64_t step, char *out);
/* The bytes [*b0, *b1) of s[start:stop] (step 1, the same rules): bounds >= 0 walk only the
 * code points up to them, negative ones count s first. */
NRT_API void nrt_str_slice_range(const char *s, int64_t len, int64_t start, int64_t stop,
                                 int64_t *b0, int64_t *b1);
/* Managed slice: s itself when the slice covers it in order; NRT_EVALUE ("slice step cannot
 * be zero") for step == 0. */
NRT_API int nrt_str_slice(const nrt_str *s, int64_t start, int64_t stop, int64_t step,
                          nrt_str *out, struct nrt_error *err);

/* ---------------------------------------------------------------- search
 * start/end (end may be None) select s[start:end] as Python's methods do: negative values
 * count from the end, then both are clamped at 0 and end at len(s); a start beyond the end
 * finds nothing (even the empty string). Results are code-point indices into s. */

/* s.find(sub, start, end): lowest index, or -1. */
NRT_API int64_t nrt_str_find(const char *s, int64_t len, const char *sub, int64_t sublen,
                             int64_t start, int64_t end);
/* s.rfind(sub, start, end): highest index, or -1. */
NRT_API int64_t nrt_str_rfind(const char *s, int64_t len, const char *sub, int64_t sublen,
                              int64_t start, int64_t end);
/* s.index / s.rindex: as find / rfind, but NRT_EVALUE ("substring not found") instead of -1. */
NRT_API int nrt_str_index(const char *s, int64_t len, const char *sub, int64_t sublen,
                          int64_t start, int64_t end, int64_t *result, struct nrt_error *err);
NRT_API int nrt_str_rindex(const char *s, int64_t len, const char *sub, int64_t sublen,
                           int64_t start, int64_t end, int64_t *result, struct nrt_error *err);
/* s.count(sub, start, end): non-overlapping occurrences; the empty sub counts
 * len(s[start:end]) + 1 (0 when start is beyond the end). */
NRT_API int64_t nrt_str_count(const char *s, int64_t len, const char *sub, int64_t sublen,
                              int64_t start, int64_t end);
/* s.startswith(prefix, start, end) / s.endswith(suffix, start, end). */
NRT_API bool nrt_str_startswith(const char *s, int64_t len, const char *prefix, int64_t plen,
                                int64_t start, int64_t end);
NRT_API bool nrt_str_endswith(const char *s, int64_t len, const char *suffix, int64_t slen,
                              int64_t start, int64_t end);
/* The tuple forms: true when any of the n strings matches (false for n == 0). */
NRT_API bool nrt_str_startswith_any(const char *s, int64_t len, const nrt_str *prefixes,
                                    int64_t n, int64_t start, int64_t end);
NRT_API bool nrt_str_endswith_any(const char *s, int64_t len, const nrt_str *suffixes,
                                  int64_t n, int64_t start, int64_t end);

/* ---------------------------------------------------------------- replace
 * s.replace(old, new, count): count < 0 replaces every occurrence. An empty old inserts new
 * before every character and at the end (at most count times). */
NRT_API int64_t nrt_str_replace_size(const char *s, int64_t len, const char *old_s,
                                     int64_t oldlen, const char *new_s, int64_t newlen,
                                     int64_t count);
NRT_API int64_t nrt_str_replace_into(const char *s, int64_t len, const char *old_s,
                                     int64_t oldlen, const char *new_s, int64_t newlen,
                                     int64_t count, char *out);
/* Managed: s itself when nothing is replaced; NRT_EOVERFLOW ("replace string is too long"). */
NRT_API int nrt_str_replace(const nrt_str *s, const nrt_str *old_s, const nrt_str *new_s,
                            int64_t count, nrt_str *out, struct nrt_error *err);

/* ---------------------------------------------------------------- strip
 * chars == NULL is Python's None (strip Unicode whitespace, str.isspace); otherwise strip any
 * code point of chars[0..clen) (clen == 0 strips nothing). */
enum nrt_str_strip_side { NRT_STRIP_LEFT = 1, NRT_STRIP_RIGHT = 2, NRT_STRIP_BOTH = 3 };

/* The kept byte range [*begin, *end) of s. */
NRT_API void nrt_str_strip_range(const char *s, int64_t len, const char *chars, int64_t clen,
                                 enum nrt_str_strip_side side, int64_t *begin, int64_t *end);
/* Managed s.strip/lstrip/rstrip(chars); chars NULL is None. s itself when nothing is
 * stripped. */
NRT_API int nrt_str_strip(const nrt_str *s, const nrt_str *chars, nrt_str *out,
                          struct nrt_error *err);
NRT_API int nrt_str_lstrip(const nrt_str *s, const nrt_str *chars, nrt_str *out,
                           struct nrt_error *err);
NRT_API int nrt_str_rstrip(const nrt_str *s, const nrt_str *chars, nrt_str *out,
                           struct nrt_error *err);

/* ---------------------------------------------------------------- list of strings
 * A managed, refcounted list: the struct lives in the payload of its own MemInfo (mi), so
 * compiled code increfs/decrefs list->mi. The list owns one reference to each element; its
 * destructor releases them. Elements may be borrowed views (a split of a borrowed string can
 * return that view itself). Fields are read-only for users. */
typedef struct nrt_str_list {
  nrt_meminfo *mi; /* the list's own MemInfo */
  int64_t len;     /* number of elements */
  int64_t cap;     /* capacity of items */
  nrt_str *items;  /* elements (inline after the header until the list first grows) */
} nrt_str_list;

/* A new empty list with room for `capacity` elements (allocated with the list: one
 * allocation), refcount 1. NRT_ENOMEM / NRT_EINVAL (negative capacity). */
NRT_API int nrt_str_list_new(int64_t capacity, nrt_str_list **out, struct nrt_error *err);
/* Reference counting of the list (NULL ignored). The last release releases every element. */
NRT_API void nrt_str_list_retain(nrt_str_list *list);
NRT_API void nrt_str_list_release(nrt_str_list *list);
/* Appends s, taking over the caller's reference (the caller must not release s afterwards).
 * On failure (NRT_ENOMEM) the list is unchanged and s is released. */
NRT_API int nrt_str_list_append(nrt_str_list *list, nrt_str s, struct nrt_error *err);
/* Appends a new reference to s (s stays the caller's). */
NRT_API int nrt_str_list_append_copy(nrt_str_list *list, const nrt_str *s,
                                     struct nrt_error *err);
/* len(list). */
NRT_API int64_t nrt_str_list_len(const nrt_str_list *list);
/* list[i] (negative counts from the end) as a new reference in *out; NRT_EINDEX ("list index
 * out of range"). */
NRT_API int nrt_str_list_get(const nrt_str_list *list, int64_t i, nrt_str *out,
                             struct nrt_error *err);

/* ---------------------------------------------------------------- split, partition, join
 * Kernels report pieces as byte ranges: ranges[2k] = begin, ranges[2k+1] = end, in the
 * order Python returns them. Call with ranges == NULL to get the number of pieces. */

/* s.split(sep, maxsplit) / s.rsplit(sep, maxsplit): sep == NULL is None (runs of Unicode
 * whitespace, no empty pieces); maxsplit < 0 is unlimited. An empty sep returns -1 (Python's
 * ValueError "empty separator"). */
NRT_API int64_t nrt_str_split_ranges(const char *s, int64_t len, const char *sep,
                                     int64_t seplen, int64_t maxsplit, int64_t *ranges);
NRT_API int64_t nrt_str_rsplit_ranges(const char *s, int64_t len, const char *sep,
                                      int64_t seplen, int64_t maxsplit, int64_t *ranges);
/* s.splitlines(keepends): boundaries \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029. */
NRT_API int64_t nrt_str_splitlines_ranges(const char *s, int64_t len, bool keepends,
                                          int64_t *ranges);

/* Managed forms: a new list in *out (refcount 1). sep NULL is None; an empty sep gives
 * NRT_EVALUE ("empty separator"). An element equal to all of s is s itself. The pieces of a
 * borrowed s are borrowed views of its bytes (no allocation per piece: they are valid as
 * long as s's bytes, which the borrowed-view contract makes outlive every use); the pieces
 * of a managed s are copies. The same holds for partition and partition_item below. */
NRT_API int nrt_str_split(const nrt_str *s, const nrt_str *sep, int64_t maxsplit,
                          nrt_str_list **out, struct nrt_error *err);
NRT_API int nrt_str_rsplit(const nrt_str *s, const nrt_str *sep, int64_t maxsplit,
                           nrt_str_list **out, struct nrt_error *err);
NRT_API int nrt_str_splitlines(const nrt_str *s, bool keepends, nrt_str_list **out,
                               struct nrt_error *err);
/* s.partition(sep) / s.rpartition(sep): a list of 3 (head, sep, tail); NRT_EVALUE ("empty
 * separator") for an empty sep. */
NRT_API int nrt_str_partition(const nrt_str *s, const nrt_str *sep, nrt_str_list **out,
                              struct nrt_error *err);
NRT_API int nrt_str_rpartition(const nrt_str *s, const nrt_str *sep, nrt_str_list **out,
                               struct nrt_error *err);
/* Item `item` (0, 1 or 2) of s.partition(sep), or of s.rpartition(sep) when `reverse`, into
 * *out, without making the other two (what `s.partition('@')[2]` needs); errors as
 * nrt_str_partition. */
NRT_API int nrt_str_partition_item(const nrt_str *s, const nrt_str *sep, bool reverse, int item,
                                   nrt_str *out, struct nrt_error *err);

/* sep.join(items): reads the list (borrowed: the caller keeps its reference). A list of one
 * element gives that element (retained); an empty list gives the empty string. */
NRT_API int nrt_str_join(const nrt_str *sep, const nrt_str_list *list, nrt_str *out,
                         struct nrt_error *err);
/* sep.join(s.split()): the words of s (runs of non-whitespace) joined by sep, made in one
 * allocation without the list, or s itself when that is the result. */
NRT_API int nrt_str_join_words(const nrt_str *sep, const nrt_str *s, nrt_str *out,
                               struct nrt_error *err);
/* The same over an array of n strings. */
NRT_API int nrt_str_join_array(const nrt_str *sep, const nrt_str *items, int64_t n,
                               nrt_str *out, struct nrt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NRT_STR_H */

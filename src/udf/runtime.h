/* Runtime entry points called by compiled UDF code (internal to libnrt).
 *
 * Convention: scalars and pointers only, never a struct by value. A function that can raise
 * takes `struct nrt_error *err` (the call's error slot) first, writes its result through an out
 * pointer and returns NRT_OK or the Python exception's status code with Python's message in
 * err; compiled code branches on the status to its cleanup path, which releases every live
 * reference before returning the status.
 *
 * The JIT binds these (and the str layer's functions compiled code calls directly) by name to
 * their addresses: nrt_udf_runtime_symbols() lists them all. */
#ifndef NRT_UDF_RUNTIME_H
#define NRT_UDF_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/core.h"
#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "udf/jit.h"

/* Sets err to (code, msg) and returns code: the raise of compiled code (msg is a literal). */
int32_t nrt_udf_rt_raise(struct nrt_error *err, int32_t code, const char *msg);

/* raise E(msg): sets err to (code, msg) and returns code. */
int32_t nrt_udf_rt_raise_str(struct nrt_error *err, int32_t code, const nrt_str *msg);
/* An except clause or finally block starts: copies err's message into buf
 * (NRT_ERROR_MESSAGE_SIZE bytes; NULL: not kept) and clears err. */
void nrt_udf_rt_exc_save(struct nrt_error *err, char *buf);
/* Raises a saved exception again: sets err to (code, buf) and returns code. */
int32_t nrt_udf_rt_exc_restore(struct nrt_error *err, int32_t code, const char *buf);
/* `except E as e`: e's str, the saved message. */
int32_t nrt_udf_rt_exc_str(const char *buf, nrt_str *out, struct nrt_error *err);

/* int ** int with OverflowError on int64 overflow; a negative exponent (a float result in
 * Python) is a ValueError. */
int32_t nrt_udf_rt_ipow(struct nrt_error *err, int64_t base, int64_t exp, int64_t *out);
/* Python's float floor division, modulo and power (ZeroDivisionError, OverflowError,
 * ValueError for a negative base with a fractional exponent). */
int32_t nrt_udf_rt_ffloordiv(struct nrt_error *err, double a, double b, double *out);
int32_t nrt_udf_rt_fmod(struct nrt_error *err, double a, double b, double *out);
int32_t nrt_udf_rt_fpow(struct nrt_error *err, double a, double b, double *out);
/* int(x) for a float: truncation; OverflowError for inf or out of range, ValueError for NaN. */
int32_t nrt_udf_rt_float_to_int(struct nrt_error *err, double x, int64_t *out);
/* Functions of the math module (runtime_mathmod.c), `op` one of these; y is used by LOG_BASE
 * (log(x, y)) and POW. ValueError "math domain error", OverflowError "math range error". */
enum {
  NRT_UDF_MATH_SQRT, NRT_UDF_MATH_EXP, NRT_UDF_MATH_LOG, NRT_UDF_MATH_LOG2, NRT_UDF_MATH_LOG10,
  NRT_UDF_MATH_LOG_BASE, NRT_UDF_MATH_POW
};
int32_t nrt_udf_rt_math(struct nrt_error *err, int32_t op, double x, double y, double *out);

/* Strings (runtime_str.c). A string argument is (mi, data, len) scalars or a const nrt_str *;
 * a string result goes to `nrt_str *out` as a new reference (a view when the input is
 * borrowed). Lists are passed as the MemInfo of an nrt_str_list. */
int32_t nrt_udf_rt_char_at(struct nrt_error *err, nrt_meminfo *mi, const char *data,
                           int64_t len, int64_t pos, int64_t *nbytes, nrt_str *out);
/* s.strip/lstrip/rstrip(chars) (side: enum nrt_str_strip_side; chars NULL: None): a view of
 * a borrowed s, so stripping a column's row copies nothing. */
int32_t nrt_udf_rt_strip(struct nrt_error *err, const nrt_str *s, const nrt_str *chars,
                         int32_t side, nrt_str *out);
int32_t nrt_udf_rt_str_getitem(struct nrt_error *err, nrt_meminfo *mi, const char *data,
                               int64_t len, int64_t i, nrt_str *out);
int32_t nrt_udf_rt_str_slice(struct nrt_error *err, nrt_meminfo *mi, const char *data,
                             int64_t len, int64_t start, int64_t stop, int64_t step,
                             nrt_str *out);
int32_t nrt_udf_rt_unpack_check(struct nrt_error *err, int64_t got, int64_t expected);
int32_t nrt_udf_rt_check_base(struct nrt_error *err, int64_t base);
int32_t nrt_udf_rt_list_new(struct nrt_error *err, int64_t cap, nrt_meminfo **out);
/* list(s): a new list of s's characters (views of a borrowed s, else new strings). */
int32_t nrt_udf_rt_list_chars(struct nrt_error *err, const nrt_str *s, nrt_meminfo **out);
int32_t nrt_udf_rt_list_append(struct nrt_error *err, nrt_meminfo *list, const nrt_str *s);
int32_t nrt_udf_rt_list_getitem(struct nrt_error *err, nrt_meminfo *list, int64_t i,
                                nrt_str *out);
int32_t nrt_udf_rt_list_slice(struct nrt_error *err, nrt_meminfo *list, int64_t start,
                              int64_t stop, int64_t step, nrt_meminfo **out);
int32_t nrt_udf_rt_list_concat(struct nrt_error *err, nrt_meminfo *a, nrt_meminfo *b,
                               nrt_meminfo **out);
int32_t nrt_udf_rt_list_repeat(struct nrt_error *err, nrt_meminfo *a, int64_t n,
                               nrt_meminfo **out);
bool nrt_udf_rt_list_contains(nrt_meminfo *list, const char *data, int64_t len);
bool nrt_udf_rt_list_eq(nrt_meminfo *a, nrt_meminfo *b);
bool nrt_udf_rt_startswith_list(nrt_meminfo *list, const char *s, int64_t len, int64_t start,
                                int64_t end);
bool nrt_udf_rt_endswith_list(nrt_meminfo *list, const char *s, int64_t len, int64_t start,
                              int64_t end);
int32_t nrt_udf_rt_split(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                         int64_t maxsplit, nrt_meminfo **out);
int32_t nrt_udf_rt_rsplit(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                          int64_t maxsplit, nrt_meminfo **out);
int32_t nrt_udf_rt_splitlines(struct nrt_error *err, const nrt_str *s, int32_t keepends,
                              nrt_meminfo **out);
int32_t nrt_udf_rt_partition(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                             int32_t reverse, nrt_meminfo **out);
/* sep.join(s.split()) in one string (nrt_str_join_words). */
int32_t nrt_udf_rt_join_words(struct nrt_error *err, const nrt_str *sep, const nrt_str *s,
                              nrt_str *out);
/* s.partition(sep)[item] / s.rpartition(sep)[item] (item 0 to 2): one new str, no tuple. */
int32_t nrt_udf_rt_partition_item(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                                  int32_t reverse, int32_t item, nrt_str *out);
/* The same item as the byte range [*from, *to) of s (item 1, sep's bytes, where s has them). */
int32_t nrt_udf_rt_partition_range(struct nrt_error *err, const char *data, int64_t len,
                                   const char *sep, int64_t seplen, int32_t reverse, int32_t item,
                                   int64_t *from, int64_t *to);
int32_t nrt_udf_rt_join(struct nrt_error *err, const nrt_str *sep, nrt_meminfo *list,
                        nrt_str *out);
int32_t nrt_udf_rt_join_chars(struct nrt_error *err, const nrt_str *sep, const nrt_str *s,
                              nrt_str *out);
int32_t nrt_udf_rt_str_minmax(struct nrt_error *err, const nrt_str *s, int32_t is_max,
                              nrt_str *out);
int32_t nrt_udf_rt_list_minmax(struct nrt_error *err, nrt_meminfo *list, int32_t is_max,
                               nrt_str *out);

/* Mutable lists of str (runtime_mlist.c): CPython's list methods and messages. */
int32_t nrt_udf_rt_mlist_insert(struct nrt_error *err, nrt_meminfo *list, int64_t i,
                                const nrt_str *x);
int32_t nrt_udf_rt_mlist_extend(struct nrt_error *err, nrt_meminfo *list, nrt_meminfo *src);
int32_t nrt_udf_rt_mlist_pop(struct nrt_error *err, nrt_meminfo *list, int64_t i,
                             int32_t has_index, nrt_str *out);
int32_t nrt_udf_rt_mlist_remove(struct nrt_error *err, nrt_meminfo *list, const nrt_str *x);
int32_t nrt_udf_rt_mlist_index(struct nrt_error *err, nrt_meminfo *list, const nrt_str *x,
                               int64_t *out);
int64_t nrt_udf_rt_mlist_count(nrt_meminfo *list, const nrt_str *x);
void nrt_udf_rt_mlist_reverse(nrt_meminfo *list);
void nrt_udf_rt_mlist_clear(nrt_meminfo *list);
int32_t nrt_udf_rt_mlist_setitem(struct nrt_error *err, nrt_meminfo *list, int64_t i,
                                 const nrt_str *x);
int32_t nrt_udf_rt_mlist_delitem(struct nrt_error *err, nrt_meminfo *list, int64_t i);
int32_t nrt_udf_rt_mlist_copy(struct nrt_error *err, nrt_meminfo *src, nrt_meminfo **out);
int32_t nrt_udf_rt_mlist_imul(struct nrt_error *err, nrt_meminfo *list, int64_t n);
/* Keys of sort/sorted/min/max (runtime_sortkeys.c): a refcounted array of up to cap keys of
 * one kind, filled in item order by the compiled key loop. */
enum { NRT_UDF_KEY_INT, NRT_UDF_KEY_FLOAT, NRT_UDF_KEY_STR,
       NRT_UDF_KEY_BOOL /* nrt_udf_rt_nlist_index of a list of bool only */ };
int32_t nrt_udf_rt_keys_new(struct nrt_error *err, int64_t cap, int32_t kind,
                            nrt_meminfo **out);
void nrt_udf_rt_keys_add_int(nrt_meminfo *keys, int64_t v);
void nrt_udf_rt_keys_add_float(nrt_meminfo *keys, double v);
void nrt_udf_rt_keys_add_str(nrt_meminfo *keys, const nrt_str *v);
/* A tuple key: `next` (a reference taken) holds the following items, compared on ties. */
void nrt_udf_rt_keys_chain(nrt_meminfo *keys, nrt_meminfo *next);
/* Sorts list in place by keys (NULL: by its items); ValueError "list modified during sort". */
int32_t nrt_udf_rt_mlist_sort(struct nrt_error *err, nrt_meminfo *list, nrt_meminfo *keys,
                              int32_t reverse);
/* xs.sort(key=len, reverse=...) of a list of str (runtime_sortkeys.c). */
int32_t nrt_udf_rt_mlist_sort_len(struct nrt_error *err, nrt_meminfo *list, int32_t reverse);
/* sorted(s.split(sep, maxsplit), key=len, reverse=...) as one call, and
 * sep.join(sorted(s.split(), key=len, reverse=...)) written into the row
 * (runtime_splitsort.c). */
int32_t nrt_udf_rt_split_sorted_len(struct nrt_error *err, const nrt_str *s, const nrt_str *sep,
                                    int64_t maxsplit, int32_t reverse, nrt_meminfo **out);
int32_t nrt_udf_rt_write_join_sorted_words(struct nrt_error *err, nrt_col_row_writer *w,
                                           const nrt_str *sep, const nrt_str *s,
                                           int32_t reverse);
/* min/max by keys (NULL: by the items): a new reference to the item, or to *dflt when empty
 * (NULL: ValueError "max() arg is an empty sequence"). */
int32_t nrt_udf_rt_mlist_pick(struct nrt_error *err, nrt_meminfo *list, nrt_meminfo *keys,
                              int32_t is_max, const nrt_str *dflt, nrt_str *out);

/* Lists of int or float (runtime_nlist.c): kind NRT_UDF_KEY_INT or _FLOAT, each item's
 * bits in its nrt_str's len (no owner, no data). */
int64_t nrt_udf_rt_nlist_count(nrt_meminfo *list, int32_t kind, int64_t bits);
int32_t nrt_udf_rt_nlist_index(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                               int64_t bits, int64_t *out);
int32_t nrt_udf_rt_nlist_remove(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                                int64_t bits);
int32_t nrt_udf_rt_nlist_sum(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                             int64_t *out);
int32_t nrt_udf_rt_nlist_range(struct nrt_error *err, int64_t start, int64_t stop, int64_t step,
                               nrt_meminfo **out);
bool nrt_udf_rt_nlist_eq(nrt_meminfo *a, nrt_meminfo *b, int32_t kind);
int32_t nrt_udf_rt_nlist_sort(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                              int32_t reverse);
int32_t nrt_udf_rt_nlist_pick(struct nrt_error *err, nrt_meminfo *list, int32_t kind,
                              int32_t is_max, const int64_t *dflt, int64_t *out);

/* f-strings (runtime_format.c): format(s, spec) for a str, and repr(s) / ascii(s). */
int32_t nrt_udf_rt_format_str(struct nrt_error *err, const nrt_str *s, const char *spec,
                              int64_t speclen, nrt_str *out);
int32_t nrt_udf_rt_repr(struct nrt_error *err, const nrt_str *s, int32_t ascii, nrt_str *out);
/* repr(x) (ascii: ascii(x)) of a list, tuple or dict x of udf_type `type` (runtime_repr.c):
 * the MemInfo of a list or tuple, the nrt_udf_dict of a dict. */
int32_t nrt_udf_rt_repr_value(struct nrt_error *err, const void *x, int32_t type, int32_t ascii,
                              nrt_str *out);
/* repr(x) of the same written into the row being written (the write form). */
int32_t nrt_udf_rt_write_repr_value(struct nrt_error *err, nrt_col_row_writer *w, const void *x,
                                    int32_t type);

/* The write form of a string result (runtime_write.c, codegen_write.c): room for
 * size << shift more bytes of the row being written (an nrt_col_row_writer), grown when the
 * compiled code's inline check found too little. The functions below write into that row too.
 * They return NRT_OK or the output's error (NRT_ENOMEM, NRT_ERANGE) with its message in err. */
int32_t nrt_udf_rt_write_room(struct nrt_error *err, nrt_col_row_writer *w, int64_t size,
                              int32_t shift);
/* The status of a failed nrt_col_row_room, which filled err (when there is one). */
static inline int32_t nrt_udf_room_failed(const struct nrt_error *err) {
  return err && err->code ? err->code : NRT_ENOMEM;
}
/* f-string fields: format(v, spec) of an int / float / str written into the row (the spec
 * parsed per call, with Python's errors). */
int32_t nrt_udf_rt_write_int(struct nrt_error *err, nrt_col_row_writer *w, int64_t v,
                             const char *spec, int64_t speclen);
int32_t nrt_udf_rt_write_float(struct nrt_error *err, nrt_col_row_writer *w, double v,
                               const char *spec, int64_t speclen);
int32_t nrt_udf_rt_write_format_str(struct nrt_error *err, nrt_col_row_writer *w,
                                    const char *data, int64_t len, const char *spec,
                                    int64_t speclen);
/* A parsed string format spec, [[fill]align][0][width][.precision][s] (plain data: the
 * compiler parses a literal spec once and embeds the bytes of this struct in the code). */
struct nrt_udf_str_spec {
  char fill[4];
  int64_t filllen;
  char align;
  int64_t width, prec; /* -1 when absent */
};
/* Parses a string format spec with Python's checks and messages (ValueError). */
int nrt_udf_parse_str_spec(const char *spec, int64_t speclen, struct nrt_udf_str_spec *f,
                           struct nrt_error *err);
/* The f-string fields above for a spec parsed at compile time. */
int32_t nrt_udf_rt_write_str_spec(struct nrt_error *err, nrt_col_row_writer *w,
                                  const char *data, int64_t len,
                                  const struct nrt_udf_str_spec *f);
int32_t nrt_udf_rt_write_int_spec(struct nrt_error *err, nrt_col_row_writer *w, int64_t v,
                                  const nrt_format_spec *f);
/* nrt_udf_rt_write_str_spec that also stores the string's code-point count in *chars when
 * chars is not NULL: the compiled code reuses it for a later len() of the same string in
 * the f-string. */
int32_t nrt_udf_rt_write_str_spec_n(struct nrt_error *err, nrt_col_row_writer *w,
                                    const char *data, int64_t len, int64_t *chars,
                                    const struct nrt_udf_str_spec *f);
/* Their fast paths (runtime_write_fast.c): a short string or an int in decimal padded with a
 * one-byte fill to a modest width, written when the row has room to spare; false (nothing
 * written) otherwise. The string's code-point count goes to *chars when chars is not NULL. */
bool nrt_udf_write_str_fast(nrt_col_row_writer *w, const char *s, int64_t len, int64_t *chars,
                            const struct nrt_udf_str_spec *f);
bool nrt_udf_write_int_fast(nrt_col_row_writer *w, int64_t v, const nrt_format_spec *f);
int32_t nrt_udf_rt_write_float_spec(struct nrt_error *err, nrt_col_row_writer *w, double v,
                                    const nrt_format_spec *f);
/* Copies n bytes (what the write form copies per list item): a short piece, the usual word or
 * field, by overlapping word moves instead of a library call. */
static inline void nrt_udf_copy_bytes(char *o, const char *s, int64_t n) {
  uint64_t a, b;
  if (n > 16) {
    memcpy(o, s, (size_t)n);
  } else if (n >= 8) {
    memcpy(&a, s, 8);
    memcpy(&b, s + n - 8, 8);
    memcpy(o, &a, 8);
    memcpy(o + n - 8, &b, 8);
  } else if (n >= 4) {
    uint32_t x, y;
    memcpy(&x, s, 4);
    memcpy(&y, s + n - 4, 4);
    memcpy(o, &x, 4);
    memcpy(o + n - 4, &y, 4);
  } else if (n > 0) {
    o[0] = s[0];
    o[n / 2] = s[n / 2];
    o[n - 1] = s[n - 1];
  }
}

/* sep.join(list of str) written into the row (runtime_join.c). */
int32_t nrt_udf_rt_write_join(struct nrt_error *err, nrt_col_row_writer *w, const nrt_str *sep,
                              nrt_meminfo *list);
/* s.replace(old, new, count) written into the row; with split_join, new.join(s.split(old))
 * (the same string; an empty old is split's ValueError "empty separator"). */
int32_t nrt_udf_rt_write_replace(struct nrt_error *err, nrt_col_row_writer *w,
                                 const nrt_str *s, const nrt_str *old_s, const nrt_str *new_s,
                                 int64_t count, int32_t split_join);

/* Counting wrappers of nrt_mi_incref_local / nrt_mi_decref_local, bound in their place when
 * a UDF is compiled with refcount counting on (for the benchmark's ops-per-row figure). */
void nrt_udf_rt_incref_counted(nrt_meminfo *mi);
void nrt_udf_rt_decref_counted(nrt_meminfo *mi);
/* The exit of a raising path: releases the non-NULL MemInfos frame[0..n) (the locals bound
 * when it raised) and returns *status. Its counting twin counts those releases. */
int32_t nrt_udf_rt_unwind(nrt_meminfo *const *frame, int64_t n, const int32_t *status);
int32_t nrt_udf_rt_unwind_counted(nrt_meminfo *const *frame, int64_t n, const int32_t *status);
/* Refcount operations on a MemInfo (not NULL) executed by counting code on all threads since
 * the last reset. */
uint64_t nrt_udf_rt_refops_count(void);
void nrt_udf_rt_refops_reset(void);

/* Every runtime symbol compiled code may call, for the JIT: writes up to `cap` entries to out
 * and returns how many there are. `counted` binds the refcount operations to their counting
 * wrappers. */
#define NRT_UDF_MAX_SYMBOLS 320
size_t nrt_udf_runtime_symbols(int counted, struct nrt_udf_symbol *out, size_t cap);

#endif /* NRT_UDF_RUNTIME_H */

/* Translation of a Python (3.11) `re` pattern over str into a PCRE2 pattern with the same
 * meaning, or a diagnostic: CPython's re.error message where CPython rejects the pattern, or an
 * "unsupported: ..." message where PCRE2 10.42 cannot express Python's meaning exactly. The
 * table of translations is in README.md ("import re"). Pure: no PCRE2 calls, no allocation. */
#ifndef NRT_UDF_RE_TRANSLATE_H
#define NRT_UDF_RE_TRANSLATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Python's flag values (re.I ...). */
enum {
  UDF_RE_T = 1, UDF_RE_I = 2, UDF_RE_L = 4, UDF_RE_M = 8, UDF_RE_S = 16, UDF_RE_U = 32,
  UDF_RE_X = 64, UDF_RE_DEBUG = 128, UDF_RE_A = 256
};

#define UDF_RE_MAX_GROUPS 200

typedef struct udf_re_translation {
  char *out;         /* caller's buffer, udf_re_out_size(len) bytes: the PCRE2 pattern, NUL */
  size_t out_len;
  int flags;         /* the flags given plus the global inline flags of the pattern */
  int ngroups;       /* capturing groups */
  /* optional[g] (1 <= g <= ngroups): group g may not take part in a match (it sits in an
   * alternative, under a quantifier allowing zero repeats, or in a lookaround), so CPython
   * would give None for it. */
  bool optional[UDF_RE_MAX_GROUPS + 1];
} udf_re_translation;

/* The size of the output buffer for a pattern of len bytes. */
static inline size_t udf_re_out_size(size_t len) { return len * 32 + 64; }

/* Translates pat[0..len) (valid UTF-8) with Python flags `flags`. Returns 0, or -1 with the
 * message in msg: "re.error: <CPython's message>" or "unsupported: ...". */
int udf_re_translate(const char *pat, size_t len, int flags, udf_re_translation *t, char *msg,
                     size_t msgsize);

#endif

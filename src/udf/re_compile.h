/* The regular expressions of one UDF: each distinct (pattern, flags) of its `re` calls,
 * translated (re_translate.h) and compiled by PCRE2 once, with its JIT where available. The
 * set is made by the checker, owned by the module and then by the compiled UDF, whose code
 * refers to the patterns by address; it is freed with the UDF. Matching (runtime_re.c) only
 * reads a pattern, so threads share it; each match has match data of its own. */
#ifndef NRT_UDF_RE_COMPILE_H
#define NRT_UDF_RE_COMPILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "udf/re_translate.h"

/* The limits that turn catastrophic backtracking into a row error (MemoryError "regular
 * expression match limit exceeded") instead of a hang. */
#define UDF_RE_MATCH_LIMIT 10000000u
#define UDF_RE_DEPTH_LIMIT 100000u

typedef struct udf_re {
  pcre2_code *code;
  pcre2_code *anchored, *full; /* compiled with PCRE2_ANCHORED (| ENDANCHORED), or NULL */
  bool jit; /* all three JIT-compiled: pcre2_jit_match may be called */
  pcre2_match_context *mctx;
  int ngroups;
  int flags; /* Python flags as given (the key of the set) */
  int all_flags; /* and with the pattern's global inline ones (Pattern.flags) */
  bool optional[UDF_RE_MAX_GROUPS + 1]; /* see udf_re_translation */
  char *src;  /* the Python pattern (for finding it again) */
  size_t src_len;
  int index;
  struct udf_re *next;
} udf_re;

typedef struct udf_re_set {
  udf_re *first, *last;
  int n;
} udf_re_set;

/* The pattern (pat, flags) of *setp (made on first use): its index in the set, or -1 with the
 * message in msg (a re.error of CPython's, or an unsupported construct; "out of memory"). */
int udf_re_set_add(udf_re_set **setp, const char *pat, size_t len, int flags, char *msg,
                   size_t msgsize);
/* The status of udf_re_set_add's message: NRT_EUNSUPPORTED, NRT_ENOMEM or NRT_EVALUE. */
int udf_re_set_error_code(const char *msg);
udf_re *udf_re_set_get(const udf_re_set *set, int index);
void udf_re_set_free(udf_re_set *set); /* NULL is a no-op */

#endif

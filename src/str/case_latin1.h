/* Internal: the fast path of case.c's upper, lower and casefold for text in U+0000..U+00FF
 * (ASCII and Latin-1, most of Western European text), on CPUs with AVX-512BW. */
#ifndef NRT_STR_CASE_LATIN1_H
#define NRT_STR_CASE_LATIN1_H

#include <stdbool.h>
#include <stdint.h>

/* x86-64 C builds with GNU C or clang; elsewhere (and in the C++ build of case.c) the general
 * kernel does all the work. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__cplusplus)
#define NRT_CASE_LATIN1 1
#else
#define NRT_CASE_LATIN1 0
#endif

enum { NRT_CASE_LATIN1_LOWER, NRT_CASE_LATIN1_UPPER, NRT_CASE_LATIN1_FOLD };

#if NRT_CASE_LATIN1
/* Maps the longest prefix of s (valid UTF-8) that the fast path can, in whole 64-byte blocks
 * and the string's end, to out (when not NULL; the same byte length), and returns its length:
 * 0 without AVX-512BW, len when it mapped everything. *changed: some byte of it changed. */
int64_t nrt_case_latin1_prefix(const char *s, int64_t len, int op, char *out, bool *changed);

/* The one-block path of each operation: AVX-512BW only (see nrt_case_latin1_short). */
int64_t nrt_case_latin1_short_lower(const char *s, int64_t len, char *out, bool *changed);
int64_t nrt_case_latin1_short_upper(const char *s, int64_t len, char *out, bool *changed);
int64_t nrt_case_latin1_short_fold(const char *s, int64_t len, char *out, bool *changed);

/* Whether the CPU has AVX-512BW: 0 not asked yet, 1 no, 2 yes (__atomic builtins); the probe
 * sets it and returns it == 2. */
extern int nrt_case_latin1_cpu;
bool nrt_case_latin1_probe(void);

/* The whole of s (valid UTF-8, 1 <= len <= 64 bytes) in one step: maps it to out (when not
 * NULL; the same byte length) and returns len, with *changed (when not NULL) saying whether
 * some byte changed; or returns -1, writing nothing, when s holds a character the fast path
 * does not map or the CPU lacks AVX-512BW. Inline, so that a constant op calls its instance
 * directly: the per-row calls of a short string's mapping are most of its cost. */
static inline int64_t nrt_case_latin1_short(const char *s, int64_t len, int op, char *out,
                                             bool *changed) {
  int cpu = __atomic_load_n(&nrt_case_latin1_cpu, __ATOMIC_RELAXED);
  if (cpu != 2 && (cpu == 1 || !nrt_case_latin1_probe()))
    return -1;
  switch (op) {
  case NRT_CASE_LATIN1_UPPER: return nrt_case_latin1_short_upper(s, len, out, changed);
  case NRT_CASE_LATIN1_LOWER: return nrt_case_latin1_short_lower(s, len, out, changed);
  default: return nrt_case_latin1_short_fold(s, len, out, changed);
  }
}
#endif

#endif

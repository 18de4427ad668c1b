/* The runtime of the re module (runtime_re.c): the functions compiled UDF code calls for
 * re.match/search/fullmatch/sub/subn/split/findall/escape and match objects. A pattern is a
 * `const udf_re *` (re_compile.h) passed as i8*; a match is the MemInfo of a match object
 * (NULL for None). Every function returns a status: NRT_ELIMIT (MemoryError "regular
 * expression match limit exceeded") when PCRE2's match or depth limit is hit, NRT_ENOMEM,
 * NRT_EINDEX ("no such group"). */
#ifndef NRT_UDF_RUNTIME_RE_H
#define NRT_UDF_RUNTIME_RE_H

#include <stdint.h>

#include "nrt/core.h"
#include "nrt/str.h"

/* mode: 0 re.match, 1 re.search, 2 re.fullmatch. *out: a new match object or NULL. */
int32_t nrt_udf_rt_re_match(struct nrt_error *err, const void *re, const nrt_str *s,
                            int32_t mode, nrt_meminfo **out);
/* Pattern.match/search/fullmatch(s, pos, endpos): as nrt_udf_rt_re_match on s cut at code
 * point endpos, from code point pos (both clamped to s; endpos < pos: no match). */
int32_t nrt_udf_rt_re_match_at(struct nrt_error *err, const void *re, const nrt_str *s,
                               int32_t mode, int64_t pos, int64_t endpos, nrt_meminfo **out);
/* re.sub(re, repl, s, count) (repl a template checked when compiling); *nsubs gets the number
 * of replacements (re.subn). */
int32_t nrt_udf_rt_re_sub(const void *re, const nrt_str *repl, const nrt_str *s, int64_t count,
                          int64_t *nsubs, nrt_str *out, struct nrt_error *err);
int32_t nrt_udf_rt_re_split(struct nrt_error *err, const void *re, const nrt_str *s,
                            int64_t maxsplit, nrt_meminfo **out);
/* re.finditer(re, s): a list whose items' MemInfos are the match objects (data "", len 0). */
int32_t nrt_udf_rt_re_finditer(struct nrt_error *err, const void *re, const nrt_str *s,
                               nrt_meminfo **out);
/* As finditer, at most `count` matches when count > 0, none when count < 0 (re.sub's count). */
int32_t nrt_udf_rt_re_finditer_n(struct nrt_error *err, const void *re, const nrt_str *s,
                                 int64_t count, nrt_meminfo **out);
/* re.sub with a function: s with match k (of finditer's list) replaced by item k of repls. */
int32_t nrt_udf_rt_re_assemble(const nrt_str *s, nrt_meminfo *matches, nrt_meminfo *repls,
                               nrt_str *out, struct nrt_error *err);
int32_t nrt_udf_rt_re_findall(struct nrt_error *err, const void *re, const nrt_str *s,
                              nrt_meminfo **out);
int32_t nrt_udf_rt_re_escape(const nrt_str *s, nrt_str *out, struct nrt_error *err);
/* m.group(g): the str, or data NULL for a group that did not take part (None). */
int32_t nrt_udf_rt_re_group(nrt_meminfo *m, int64_t g, nrt_str *out, struct nrt_error *err);
/* m.start(g) (end 0) / m.end(g) (end 1) in code points, -1 for a group that did not take part. */
int32_t nrt_udf_rt_re_pos(struct nrt_error *err, nrt_meminfo *m, int64_t g, int32_t end,
                          int64_t *out);
/* m.groups() as a list of str (every group takes part: checked when compiling). */
int32_t nrt_udf_rt_re_groups(struct nrt_error *err, nrt_meminfo *m, nrt_meminfo **out);

/* A replacement template's check when compiling: 0, or -1 with CPython's message in msg. */
int udf_re_check_template(const void *re, const char *t, int64_t len, char *msg, size_t msgsize);

#endif

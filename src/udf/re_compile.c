/* Compiling a UDF's regular expressions with PCRE2 (see re_compile.h). */
#include "udf/re_compile.h"

#include <stdio.h>
#include <string.h>

#include "nrt/core.h"

udf_re *udf_re_set_get(const udf_re_set *set, int index) {
  for (udf_re *r = set ? set->first : NULL; r; r = r->next)
    if (r->index == index) return r;
  return NULL;
}

static void re_free(udf_re *r) {
  pcre2_match_context_free(r->mctx);
  pcre2_code_free(r->code);
  pcre2_code_free(r->anchored);
  pcre2_code_free(r->full);
  nrt_free(r->src, r->src_len + 1);
  nrt_free(r, sizeof *r);
}

void udf_re_set_free(udf_re_set *set) {
  if (!set) return;
  for (udf_re *r = set->first, *next; r; r = next) {
    next = r->next;
    re_free(r);
  }
  nrt_free(set, sizeof *set);
}

static uint32_t pcre2_options(int flags) {
  uint32_t o = PCRE2_UTF | PCRE2_NO_UTF_CHECK | PCRE2_ALT_CIRCUMFLEX;
  if (!(flags & UDF_RE_A)) o |= PCRE2_UCP;
  if (flags & UDF_RE_I) o |= PCRE2_CASELESS;
  if (flags & UDF_RE_M) o |= PCRE2_MULTILINE;
  if (flags & UDF_RE_S) o |= PCRE2_DOTALL;
  return o;
}

static int compile(udf_re *r, const udf_re_translation *t, char *msg, size_t msgsize) {
  pcre2_compile_context *cc = pcre2_compile_context_create(NULL);
  if (!cc) return snprintf(msg, msgsize, "out of memory"), -1;
  pcre2_set_newline(cc, PCRE2_NEWLINE_LF); /* Python's only line break */
  pcre2_set_bsr(cc, PCRE2_BSR_UNICODE);
  int code;
  PCRE2_SIZE off;
  r->code = pcre2_compile((PCRE2_SPTR)t->out, t->out_len, pcre2_options(t->flags), &code, &off,
                          cc);
  pcre2_compile_context_free(cc);
  if (!r->code) {
    if (code == PCRE2_ERROR_LOOKBEHIND_NOT_FIXED_LENGTH)
      snprintf(msg, msgsize, "re.error: look-behind requires fixed-width pattern");
    else if (code == PCRE2_ERROR_HEAP_FAILED)
      snprintf(msg, msgsize, "out of memory");
    else {
      PCRE2_UCHAR text[256];
      pcre2_get_error_message(code, text, sizeof text);
      snprintf(msg, msgsize, "unsupported: PCRE2 rejects the translated pattern: %s", text);
    }
    return -1;
  }
  /* match and fullmatch: compiled anchored too, since the JIT refuses anchoring options at
   * match time (same meaning, PCRE2 documents); NULL when that fails: the interpreter then */
  cc = pcre2_compile_context_create(NULL);
  if (cc) {
    pcre2_set_newline(cc, PCRE2_NEWLINE_LF);
    pcre2_set_bsr(cc, PCRE2_BSR_UNICODE);
    uint32_t o = pcre2_options(t->flags) | PCRE2_ANCHORED;
    r->anchored = pcre2_compile((PCRE2_SPTR)t->out, t->out_len, o, &code, &off, cc);
    r->full = pcre2_compile((PCRE2_SPTR)t->out, t->out_len, o | PCRE2_ENDANCHORED, &code, &off,
                            cc);
    pcre2_compile_context_free(cc);
  }
  /* without a JIT (or where it fails) pcre2_match interprets; else pcre2_jit_match directly */
  r->jit = pcre2_jit_compile(r->code, PCRE2_JIT_COMPLETE) == 0;
  if (r->anchored && pcre2_jit_compile(r->anchored, PCRE2_JIT_COMPLETE) != 0) r->jit = false;
  if (r->full && pcre2_jit_compile(r->full, PCRE2_JIT_COMPLETE) != 0) r->jit = false;
  r->mctx = pcre2_match_context_create(NULL);
  if (!r->mctx) return snprintf(msg, msgsize, "out of memory"), -1;
  pcre2_set_match_limit(r->mctx, UDF_RE_MATCH_LIMIT);
  pcre2_set_depth_limit(r->mctx, UDF_RE_DEPTH_LIMIT);
  return 0;
}

int udf_re_set_add(udf_re_set **setp, const char *pat, size_t len, int flags, char *msg,
                   size_t msgsize) {
  for (udf_re *r = *setp ? (*setp)->first : NULL; r; r = r->next)
    if (r->src_len == len && memcmp(r->src, pat, len) == 0 && r->flags == flags)
      return r->index;
  if (!*setp) {
    *setp = nrt_allocate(sizeof **setp, NULL);
    if (!*setp) return snprintf(msg, msgsize, "out of memory"), -1;
    memset(*setp, 0, sizeof **setp);
  }
  udf_re_set *set = *setp;
  udf_re_translation t;
  size_t cap = udf_re_out_size(len);
  t.out = nrt_allocate(cap, NULL);
  udf_re *r = nrt_allocate(sizeof *r, NULL);
  char *src = nrt_allocate(len + 1, NULL);
  if (!t.out || !r || !src) {
    nrt_free(t.out, cap);
    nrt_free(r, sizeof *r);
    nrt_free(src, len + 1);
    return snprintf(msg, msgsize, "out of memory"), -1;
  }
  memset(r, 0, sizeof *r);
  memcpy(src, pat, len);
  src[len] = 0;
  r->src = src;
  r->src_len = len;
  int rc = udf_re_translate(pat, len, flags, &t, msg, msgsize);
  if (rc == 0) rc = compile(r, &t, msg, msgsize);
  nrt_free(t.out, cap);
  if (rc) {
    re_free(r);
    return -1;
  }
  r->flags = flags; /* the key: the flags as given */
  r->all_flags = t.flags;
  r->ngroups = t.ngroups;
  memcpy(r->optional, t.optional, sizeof r->optional);
  r->index = set->n++;
  if (set->last) set->last->next = r;
  else set->first = r;
  set->last = r;
  return r->index;
}

int udf_re_set_error_code(const char *msg) {
  if (strncmp(msg, "unsupported", 11) == 0) return NRT_EUNSUPPORTED;
  return strcmp(msg, "out of memory") == 0 ? NRT_ENOMEM : NRT_EVALUE;
}

/* The runtime of the re module (see runtime_re.h): PCRE2 matching with Python's results. */
#include "udf/runtime_re.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "nrt/unicode.h"
#include "str/str_copy.h"
#include "udf/re_compile.h"

/* A match object: the payload of its MemInfo. */
typedef struct re_match {
  const udf_re *re;
  nrt_str subject; /* holds a reference to a managed subject */
  int64_t ngroups;
  int64_t off[];   /* 2 * (ngroups + 1) byte offsets, -1 for a group that did not take part */
} re_match;

static void match_dtor(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  nrt_str_release(&((re_match *)data)->subject);
}

static int piece(const nrt_str *s, int64_t a, int64_t b, nrt_str *out, struct nrt_error *err) {
  if (!s->mi) {
    out->mi = NULL;
    out->data = s->data + a;
    out->len = b - a;
    return NRT_OK;
  }
  if (a == 0 && b == s->len) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  return nrt_str_new(s->data + a, b - a, out, err);
}

/* Match data: one per thread is kept for the next call (creating and freeing it per call
 * was a tenth of a short re.sub), sized for the most groups a pattern may have; a call made
 * while it is taken (a replacement function or a finditer loop body calling re again) gets
 * one of its own. Freed when the thread ends. */
static pthread_key_t md_key;
static pthread_once_t md_once = PTHREAD_ONCE_INIT;
static bool md_key_ok;
static _Thread_local bool md_taken;

static void md_free(void *md) { pcre2_match_data_free(md); }
static void md_key_init(void) { md_key_ok = pthread_key_create(&md_key, md_free) == 0; }

static pcre2_match_data *new_md(const udf_re *re, struct nrt_error *err) {
  (void)re;
  pthread_once(&md_once, md_key_init);
  pcre2_match_data *md = NULL;
  if (md_key_ok && !md_taken) {
    md = pthread_getspecific(md_key);
    if (!md && (md = pcre2_match_data_create(UDF_RE_MAX_GROUPS + 1, NULL)) &&
        pthread_setspecific(md_key, md) != 0) {
      pcre2_match_data_free(md);
      md = NULL;
    }
    if (md) {
      md_taken = true;
      return md;
    }
  }
  md = pcre2_match_data_create(UDF_RE_MAX_GROUPS + 1, NULL);
  if (!md) nrt_error_set(err, NRT_ENOMEM, "out of memory");
  return md;
}

static void give_md(pcre2_match_data *md) {
  if (md_key_ok && md_taken && md == pthread_getspecific(md_key)) md_taken = false;
  else pcre2_match_data_free(md);
}

#define ENDS (PCRE2_ANCHORED | PCRE2_ENDANCHORED)

/* One pcre2_match from `start`: 1 found, 0 not, or a negative status. */
static int run(const udf_re *re, const nrt_str *s, size_t start, uint32_t opts,
               pcre2_match_data *md, struct nrt_error *err) {
  /* match and fullmatch use the pattern compiled anchored: PCRE2's JIT does not take
   * PCRE2_ANCHORED / PCRE2_ENDANCHORED at match time (the interpreter, 2x slower, would) */
  const pcre2_code *code = re->code;
  if ((opts & PCRE2_ENDANCHORED) && re->full) code = re->full, opts &= ~ENDS;
  else if ((opts & PCRE2_ANCHORED) && !(opts & PCRE2_ENDANCHORED) && re->anchored)
    code = re->anchored, opts &= ~ENDS;
  PCRE2_SPTR subject = (PCRE2_SPTR)(s->data ? s->data : "");
  int rc = re->jit && !(opts & ENDS)
               ? pcre2_jit_match(code, subject, (PCRE2_SIZE)s->len, start, opts, md, re->mctx)
               : pcre2_match(code, subject, (PCRE2_SIZE)s->len, start,
                             opts | PCRE2_NO_UTF_CHECK, md, re->mctx);
  if (rc >= 0) return 1;
  if (rc == PCRE2_ERROR_NOMATCH) return 0;
  if (rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT ||
      rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT)
    return -nrt_error_set(err, NRT_ELIMIT, "regular expression match limit exceeded");
  if (rc == PCRE2_ERROR_NOMEMORY) return -nrt_error_set(err, NRT_ENOMEM, "out of memory");
  return -nrt_error_set(err, NRT_EVALUE, "regular expression match failed (PCRE2 error %d)", rc);
}

/* A match object for the match in md. */
static int new_match(const udf_re *re, const nrt_str *s, pcre2_match_data *md, nrt_meminfo **out,
                     struct nrt_error *err) {
  size_t n = (size_t)re->ngroups + 1;
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc_dtor(sizeof(re_match) + 2 * n * sizeof(int64_t), match_dtor, NULL, &mi,
                             err);
  if (rc) return rc;
  re_match *m = mi->data;
  m->re = re;
  m->subject = *s;
  nrt_str_retain(s);
  m->ngroups = re->ngroups;
  PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
  uint32_t pairs = pcre2_get_ovector_count(md);
  for (size_t g = 0; g < n; g++) {
    bool set = g < pairs && ov[2 * g] != PCRE2_UNSET;
    m->off[2 * g] = set ? (int64_t)ov[2 * g] : -1;
    m->off[2 * g + 1] = set ? (int64_t)ov[2 * g + 1] : -1;
  }
  *out = mi;
  return NRT_OK;
}

int32_t nrt_udf_rt_re_match(struct nrt_error *err, const void *rep, const nrt_str *s,
                            int32_t mode, nrt_meminfo **out) {
  const udf_re *re = rep;
  *out = NULL;
  pcre2_match_data *md = new_md(re, err);
  if (!md) return NRT_ENOMEM;
  uint32_t opts = mode == 0 ? PCRE2_ANCHORED : mode == 2 ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
  int found = run(re, s, 0, opts, md, err);
  int rc = found < 0 ? -found : NRT_OK;
  if (found == 1) rc = new_match(re, s, md, out, err);
  give_md(md);
  return rc;
}

/* The byte offset of code point cp of s (clamped to 0 and the end). */
static size_t byte_at(const nrt_str *s, int64_t cp) {
  size_t i = 0, n = (size_t)s->len;
  for (int64_t k = 0; k < cp && i < n; k++) {
    i++;
    while (i < n && ((unsigned char)s->data[i] & 0xC0) == 0x80) i++;
  }
  return i;
}

int32_t nrt_udf_rt_re_match_at(struct nrt_error *err, const void *rep, const nrt_str *s,
                               int32_t mode, int64_t pos, int64_t endpos, nrt_meminfo **out) {
  const udf_re *re = rep;
  *out = NULL;
  size_t b = byte_at(s, pos), e = byte_at(s, endpos);
  if (e < b) return NRT_OK; /* CPython: no match */
  nrt_str t = *s; /* the string as if it ended at endpos (`$` matches there), same storage */
  t.len = (int64_t)e;
  pcre2_match_data *md = new_md(re, err);
  if (!md) return NRT_ENOMEM;
  uint32_t opts = mode == 0 ? PCRE2_ANCHORED : mode == 2 ? PCRE2_ANCHORED | PCRE2_ENDANCHORED : 0;
  int found = run(re, &t, b, opts, md, err);
  int rc = found < 0 ? -found : NRT_OK;
  if (found == 1) rc = new_match(re, &t, md, out, err);
  give_md(md);
  return rc;
}

static re_match *match_of(nrt_meminfo *mi) { return mi->data; }

/* ------------------------------------------------------------------ iterating the matches */

typedef struct re_iter {
  const udf_re *re;
  const nrt_str *s;
  pcre2_match_data *md;
  PCRE2_SIZE *ov;
  size_t pos;
  bool last_empty;
} re_iter;

/* The next match as CPython finds it: after an empty match at p the next one may not be
 * empty at p (PCRE2_NOTEMPTY_ATSTART), so every match advances. 1, 0 or a negative status. */
static int iter_next(re_iter *it, struct nrt_error *err) {
  if (it->pos > (size_t)it->s->len) return 0;
  int f = run(it->re, it->s, it->pos, it->last_empty ? PCRE2_NOTEMPTY_ATSTART : 0, it->md, err);
  if (f != 1) return f;
  it->ov = pcre2_get_ovector_pointer(it->md);
  it->last_empty = it->ov[0] == it->ov[1];
  it->pos = it->ov[1];
  return 1;
}

static bool group_set(const re_iter *it, int g) { return it->ov[2 * g] != PCRE2_UNSET; }

/* ------------------------------------------------------------------ a growing buffer */

typedef struct buf {
  char *p;
  size_t n, cap;
  int rc;
  struct nrt_error *err;
} buf;

static void put(buf *b, const char *s, size_t n) {
  if (b->rc || n == 0) return;
  if (b->n + n > b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 64;
    while (cap < b->n + n) cap *= 2;
    char *p = nrt_reallocate(b->p, b->cap, cap, b->err);
    if (!p) {
      b->rc = NRT_ENOMEM;
      return;
    }
    b->p = p;
    b->cap = cap;
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
}

static void put_cp(buf *b, uint32_t c) {
  char u[4];
  size_t n = nrt_utf8_encode(c, u);
  put(b, u, n);
}

/* ------------------------------------------------------------------ replacement templates */

static bool is_oct(char c) { return c >= '0' && c <= '7'; }
static bool is_dig(char c) { return c >= '0' && c <= '9'; }
static int cp_pos(const char *t, int64_t byte) {
  int n = 0;
  for (int64_t k = 0; k < byte; k++)
    if (((unsigned char)t[k] & 0xC0) != 0x80) n++;
  return n;
}

/* Walks template t: appends its expansion for the match in `it` to b when b is not NULL;
 * without b only checks it. 0, or -1 with CPython's message in msg. */
static int walk_template(const udf_re *re, const char *t, int64_t len, const re_iter *it,
                         buf *b, char *msg, size_t msgsize) {
  int64_t lit = 0;
  for (int64_t i = 0; i < len;) {
    if (t[i] != '\\') {
      i++;
      continue;
    }
    if (b) put(b, t + lit, (size_t)(i - lit));
    int64_t at = i++;
    if (i >= len) {
      snprintf(msg, msgsize, "re.error: bad escape (end of pattern) at position %d",
               cp_pos(t, at));
      return -1;
    }
    char c = t[i++];
    long group = -1;
    if (c == 'g') {
      if (i >= len || t[i] != '<') {
        snprintf(msg, msgsize, "re.error: missing < at position %d", cp_pos(t, i));
        return -1;
      }
      int64_t k = ++i;
      while (k < len && t[k] != '>') k++;
      if (k >= len) {
        snprintf(msg, msgsize, "re.error: missing >, unterminated name at position %d",
                 cp_pos(t, i));
        return -1;
      }
      int64_t n = k - i;
      if (n == 0) {
        snprintf(msg, msgsize, "re.error: missing group name at position %d", cp_pos(t, i));
        return -1;
      }
      bool digits = true, ident = !is_dig(t[i]);
      for (int64_t q = i; q < k; q++) {
        unsigned char u = (unsigned char)t[q];
        digits = digits && is_dig((char)u);
        ident = ident && (u == '_' || u >= 0x80 || is_dig((char)u) || (u >= 'a' && u <= 'z') ||
                          (u >= 'A' && u <= 'Z'));
      }
      if (digits) {
        group = 0;
        for (int64_t q = i; q < k && group < 1000000; q++) group = group * 10 + (t[q] - '0');
      } else if (ident && n < 64) {
        char name[64];
        memcpy(name, t + i, (size_t)n);
        name[n] = 0;
        int g = pcre2_substring_number_from_name(re->code, (PCRE2_SPTR)name);
        if (g < 0) {
          snprintf(msg, msgsize, "IndexError: unknown group name '%s'", name);
          return -1;
        }
        group = g;
      } else {
        snprintf(msg, msgsize, "re.error: bad character in group name '%.*s' at position %d",
                 (int)n, t + i, cp_pos(t, i));
        return -1;
      }
      if (group > re->ngroups) {
        snprintf(msg, msgsize, "re.error: invalid group reference %ld at position %d", group,
                 cp_pos(t, i));
        return -1;
      }
      i = k + 1;
    } else if (c == '0') {
      unsigned v = 0;
      for (int d = 0; d < 2 && i < len && is_oct(t[i]); d++) v = v * 8 + (unsigned)(t[i++] - '0');
      if (b) put_cp(b, v);
    } else if (is_dig(c)) {
      group = c - '0';
      if (i < len && is_dig(t[i])) {
        if (is_oct(c) && is_oct(t[i]) && i + 1 < len && is_oct(t[i + 1])) {
          unsigned v = (unsigned)((c - '0') * 64 + (t[i] - '0') * 8 + (t[i + 1] - '0'));
          if (v > 0377) {
            snprintf(msg, msgsize, "re.error: octal escape value \\%c%c%c outside of range "
                     "0-0o377 at position %d", c, t[i], t[i + 1], cp_pos(t, at));
            return -1;
          }
          i += 2;
          if (b) put_cp(b, v);
          group = -1;
        } else {
          group = group * 10 + (t[i++] - '0');
        }
      }
      if (group > re->ngroups) {
        snprintf(msg, msgsize, "re.error: invalid group reference %ld at position %d", group,
                 cp_pos(t, at + 1));
        return -1;
      }
    } else {
      const char *esc = strchr("a\ab\bf\fn\nr\rt\tv\v\\\\", c);
      if (esc && ((esc - "a\ab\bf\fn\nr\rt\tv\v\\\\") % 2) == 0) {
        if (b) put(b, esc + 1, 1);
      } else if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        snprintf(msg, msgsize, "re.error: bad escape \\%c at position %d", c, cp_pos(t, at));
        return -1;
      } else {
        if (b) put(b, t + at, 2); /* kept as written, backslash included */
        if ((unsigned char)c >= 0x80) { /* the rest of a non-ASCII character */
          int64_t k = i;
          while (k < len && ((unsigned char)t[k] & 0xC0) == 0x80) k++;
          if (b) put(b, t + i, (size_t)(k - i));
          i = k;
        }
      }
    }
    if (group >= 0 && b && group_set(it, (int)group))
      put(b, it->s->data + it->ov[2 * group], it->ov[2 * group + 1] - it->ov[2 * group]);
    lit = i;
  }
  if (b) put(b, t + lit, (size_t)(len - lit));
  return 0;
}

int udf_re_check_template(const void *re, const char *t, int64_t len, char *msg, size_t msgsize) {
  return walk_template(re, t, len, NULL, NULL, msg, msgsize);
}

int32_t nrt_udf_rt_re_sub(const void *rep, const nrt_str *repl, const nrt_str *s, int64_t count,
                          int64_t *nsubs, nrt_str *out, struct nrt_error *err) {
  const udf_re *re = rep;
  *nsubs = 0;
  re_iter it = {re, s, new_md(re, err), NULL, 0, false};
  if (!it.md) return NRT_ENOMEM;
  buf b = {NULL, 0, 0, NRT_OK, err};
  size_t last = 0;
  int f = 0;
  char msg[8];
  while (count >= 0 && (count == 0 || *nsubs < count) && (f = iter_next(&it, err)) == 1) {
    put(&b, s->data + last, it.ov[0] - last);
    walk_template(re, repl->data, repl->len, &it, &b, msg, sizeof msg);
    last = it.ov[1];
    ++*nsubs;
  }
  give_md(it.md);
  int rc = f < 0 ? -f : b.rc;
  if (rc == NRT_OK) {
    if (*nsubs == 0) {
      nrt_str_retain(s);
      nrt_str_copy(out, s);
    } else {
      put(&b, s->data + last, (size_t)s->len - last);
      rc = b.rc ? b.rc : nrt_str_new(b.p, (int64_t)b.n, out, err);
    }
  }
  nrt_free(b.p, b.cap);
  return rc;
}

/* A new list and an iteration of re's matches over s: the start of split, findall and
 * finditer. */
static int begin_list(const udf_re *re, const nrt_str *s, nrt_str_list **l, re_iter *it,
                      struct nrt_error *err) {
  int rc = nrt_str_list_new(4, l, err);
  if (rc) return rc;
  *it = (re_iter){re, s, new_md(re, err), NULL, 0, false};
  if (!it->md) {
    nrt_str_list_release(*l);
    return NRT_ENOMEM;
  }
  return NRT_OK;
}

/* The end of begin_list's iteration (f: the last iter_next, < 0 its error): the match data
 * freed, and the list handed out in *out, or released on an error. */
static int end_list(int rc, int f, re_iter *it, nrt_str_list *l, nrt_meminfo **out) {
  if (rc == NRT_OK && f < 0) rc = -f;
  give_md(it->md);
  if (rc) {
    nrt_str_list_release(l);
    return rc;
  }
  *out = l->mi;
  return NRT_OK;
}

static int append_piece(nrt_str_list *l, const nrt_str *s, int64_t a, int64_t b,
                        struct nrt_error *err) {
  nrt_str p;
  int rc = piece(s, a, b, &p, err);
  return rc ? rc : nrt_str_list_append(l, p, err);
}

int32_t nrt_udf_rt_re_split(struct nrt_error *err, const void *rep, const nrt_str *s,
                            int64_t maxsplit, nrt_meminfo **out) {
  const udf_re *re = rep;
  *out = NULL;
  nrt_str_list *l;
  re_iter it;
  int rc = begin_list(re, s, &l, &it, err);
  if (rc) return rc;
  size_t last = 0;
  int64_t n = 0;
  int f = 0;
  while (rc == NRT_OK && maxsplit >= 0 && (maxsplit == 0 || n < maxsplit) &&
         (f = iter_next(&it, err)) == 1) {
    rc = append_piece(l, s, (int64_t)last, (int64_t)it.ov[0], err);
    for (int g = 1; g <= re->ngroups && rc == NRT_OK; g++)
      rc = group_set(&it, g) ? append_piece(l, s, (int64_t)it.ov[2 * g],
                                            (int64_t)it.ov[2 * g + 1], err)
                             : append_piece(l, s, 0, 0, err);
    last = it.ov[1];
    n++;
  }
  if (rc == NRT_OK && f >= 0) rc = append_piece(l, s, (int64_t)last, s->len, err);
  return end_list(rc, f, &it, l, out);
}

int32_t nrt_udf_rt_re_finditer(struct nrt_error *err, const void *rep, const nrt_str *s,
                               nrt_meminfo **out) {
  return nrt_udf_rt_re_finditer_n(err, rep, s, 0, out);
}

int32_t nrt_udf_rt_re_finditer_n(struct nrt_error *err, const void *rep, const nrt_str *s,
                                 int64_t count, nrt_meminfo **out) {
  const udf_re *re = rep;
  *out = NULL;
  nrt_str_list *l;
  re_iter it;
  int rc = begin_list(re, s, &l, &it, err);
  if (rc) return rc;
  int f = 0;
  while (rc == NRT_OK && count >= 0 && (count == 0 || l->len < count) &&
         (f = iter_next(&it, err)) == 1) {
    nrt_meminfo *mi;
    rc = new_match(re, s, it.md, &mi, err);
    if (rc == NRT_OK) {
      nrt_str item = {mi, "", 0};
      rc = nrt_str_list_append(l, item, err); /* releases the match on failure */
    }
  }
  return end_list(rc, f, &it, l, out);
}

int32_t nrt_udf_rt_re_assemble(const nrt_str *s, nrt_meminfo *matches, nrt_meminfo *repls,
                               nrt_str *out, struct nrt_error *err) {
  const nrt_str_list *ml = matches->data, *rl = repls->data;
  if (ml->len == 0) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  buf b = {NULL, 0, 0, NRT_OK, err};
  int64_t last = 0;
  for (int64_t k = 0; k < ml->len && k < rl->len; k++) {
    const re_match *m = match_of(ml->items[k].mi);
    put(&b, s->data + last, (size_t)(m->off[0] - last));
    put(&b, rl->items[k].data, (size_t)rl->items[k].len);
    last = m->off[1];
  }
  put(&b, s->data + last, (size_t)(s->len - last));
  int rc = b.rc ? b.rc : nrt_str_new(b.p, (int64_t)b.n, out, err);
  nrt_free(b.p, b.cap);
  return rc;
}

int32_t nrt_udf_rt_re_findall(struct nrt_error *err, const void *rep, const nrt_str *s,
                              nrt_meminfo **out) {
  const udf_re *re = rep;
  *out = NULL;
  nrt_str_list *l;
  re_iter it;
  int rc = begin_list(re, s, &l, &it, err);
  if (rc) return rc;
  int f = 0;
  int g = re->ngroups >= 1 ? 1 : 0;
  while (rc == NRT_OK && (f = iter_next(&it, err)) == 1)
    rc = group_set(&it, g) ? append_piece(l, s, (int64_t)it.ov[2 * g],
                                          (int64_t)it.ov[2 * g + 1], err)
                           : append_piece(l, s, 0, 0, err);
  return end_list(rc, f, &it, l, out);
}

int32_t nrt_udf_rt_re_escape(const nrt_str *s, nrt_str *out, struct nrt_error *err) {
  static const char special[] = "()[]{}?*+-|^$\\.&~# \t\n\r\v\f";
  buf b = {NULL, 0, 0, NRT_OK, err};
  size_t last = 0;
  for (size_t i = 0; i < (size_t)s->len; i++) {
    char c = s->data[i];
    if (c && strchr(special, c)) {
      put(&b, s->data + last, i - last);
      put(&b, "\\", 1);
      last = i;
    }
  }
  int rc;
  if (b.n == 0 && b.rc == NRT_OK) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    rc = NRT_OK;
  } else {
    put(&b, s->data + last, (size_t)s->len - last);
    rc = b.rc ? b.rc : nrt_str_new(b.p, (int64_t)b.n, out, err);
  }
  nrt_free(b.p, b.cap);
  return rc;
}

/* ------------------------------------------------------------------ match objects */

int32_t nrt_udf_rt_re_group(nrt_meminfo *mi, int64_t g, nrt_str *out, struct nrt_error *err) {
  re_match *m = match_of(mi);
  if (g < 0 || g > m->ngroups) return nrt_error_set(err, NRT_EINDEX, "no such group");
  if (m->off[2 * g] < 0) {
    out->mi = NULL;
    out->data = NULL;
    out->len = 0;
    return NRT_OK;
  }
  return piece(&m->subject, m->off[2 * g], m->off[2 * g + 1], out, err);
}

int32_t nrt_udf_rt_re_pos(struct nrt_error *err, nrt_meminfo *mi, int64_t g, int32_t end,
                          int64_t *out) {
  re_match *m = match_of(mi);
  if (g < 0 || g > m->ngroups) return nrt_error_set(err, NRT_EINDEX, "no such group");
  int64_t off = m->off[2 * g + (end ? 1 : 0)];
  *out = off < 0 ? -1 : nrt_str_len(m->subject.data, off);
  return NRT_OK;
}

int32_t nrt_udf_rt_re_groups(struct nrt_error *err, nrt_meminfo *mi, nrt_meminfo **out) {
  re_match *m = match_of(mi);
  *out = NULL;
  nrt_str_list *l;
  int rc = nrt_str_list_new(m->ngroups, &l, err);
  for (int64_t g = 1; g <= m->ngroups && rc == NRT_OK; g++)
    rc = m->off[2 * g] < 0 ? append_piece(l, &m->subject, 0, 0, err)
                           : append_piece(l, &m->subject, m->off[2 * g], m->off[2 * g + 1], err);
  if (rc) {
    nrt_str_list_release(l);
    return rc;
  }
  *out = l->mi;
  return NRT_OK;
}

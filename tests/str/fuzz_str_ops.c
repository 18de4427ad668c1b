/* libFuzzer harness for the str operations. The input picks an operation and its arguments:
 *   byte 0: operation; bytes 1..6: small integers for start/end/step/count/maxsplit (value
 *   -128 means None); the rest: up to three strings separated by 0xFF (a byte UTF-8 never
 *   contains), each cut to its longest valid UTF-8 prefix.
 * Properties checked: results equal a slow reference computed over decoded code points,
 * _size == _into, outputs are valid UTF-8, kernels agree with the managed forms, and every
 * MemInfo made by an operation is released (live count unchanged). */
#include "nrt/str.h"
#include "nrt/unicode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXCP 4096

static void fail(const char *what) {
  fprintf(stderr, "fuzz_str_ops: %s\n", what);
  abort();
}
#define ASSERT(c)                                                                          \
  do {                                                                                     \
    if (!(c))                                                                              \
      fail(#c);                                                                            \
  } while (0)

struct cps {
  uint32_t c[MAXCP];
  int64_t n;
};

static void decode(const char *s, int64_t len, struct cps *out) {
  out->n = 0;
  size_t i = 0;
  while ((int64_t)i < len && out->n < MAXCP) {
    size_t k;
    out->c[out->n++] = nrt_utf8_decode(s + i, (size_t)len - i, &k);
    i += k;
  }
}

static int64_t encode(const uint32_t *c, int64_t n, char *out) {
  int64_t w = 0;
  for (int64_t i = 0; i < n; i++)
    w += (int64_t)nrt_utf8_encode(c[i], out + w);
  return w;
}

static int64_t arg(uint8_t b, int64_t n) {
  int8_t v = (int8_t)b;
  if (v == -128)
    return NRT_STR_NONE;
  if (v > 100)
    return (int64_t)1 << 62;
  if (v < -100)
    return -((int64_t)1 << 62);
  (void)n;
  return v;
}

/* Python's ADJUST_INDICES; false when start > end. */
static int adjust(int64_t *start, int64_t *end, int64_t n) {
  if (*start == NRT_STR_NONE)
    *start = 0;
  if (*end == NRT_STR_NONE || *end > n)
    *end = n;
  else if (*end < 0 && (*end += n) < 0)
    *end = 0;
  if (*start < 0 && (*start += n) < 0)
    *start = 0;
  return *start <= *end;
}

static int match_at(const struct cps *h, int64_t i, const struct cps *nd) {
  for (int64_t k = 0; k < nd->n; k++)
    if (h->c[i + k] != nd->c[k])
      return 0;
  return 1;
}

static int64_t ref_find(const struct cps *h, const struct cps *nd, int64_t st, int64_t en,
                        int rev) {
  if (!adjust(&st, &en, h->n) || en - st < nd->n)
    return -1;
  if (!rev) {
    for (int64_t i = st; i + nd->n <= en; i++)
      if (match_at(h, i, nd))
        return i;
  } else {
    for (int64_t i = en - nd->n; i >= st; i--)
      if (match_at(h, i, nd))
        return i;
  }
  return -1;
}

static int64_t ref_count(const struct cps *h, const struct cps *nd, int64_t st, int64_t en) {
  if (!adjust(&st, &en, h->n))
    return 0;
  if (nd->n == 0)
    return en - st + 1;
  int64_t c = 0;
  for (int64_t i = st; i + nd->n <= en;)
    if (match_at(h, i, nd)) {
      c++;
      i += nd->n;
    } else {
      i++;
    }
  return c;
}

static int is_linebreak_ref(uint32_t c) {
  return c == '\n' || c == '\r' || c == 0x0B || c == 0x0C || c == 0x1C || c == 0x1D ||
         c == 0x1E || c == 0x85 || c == 0x2028 || c == 0x2029;
}

static void check_utf8(const nrt_str *r) {
  ASSERT(nrt_utf8_validate(r->data, (size_t)r->len, NULL, NULL) == NRT_OK);
  if (r->mi)
    ASSERT(r->data[r->len] == '\0' && r->len > 0);
}

#define MAXOUT (MAXCP * 8) /* code points of a reference result */

static void expect_str(nrt_str *r, const uint32_t *c, int64_t n) {
  static char buf[4 * MAXOUT + 16];
  check_utf8(r);
  int64_t len = encode(c, n, buf);
  ASSERT(r->len == len && memcmp(r->data, buf, (size_t)len) == 0);
  nrt_str_release(r);
}

static uint32_t tmp[MAXOUT];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 7)
    return 0;
  int op = data[0] % 16;
  const uint8_t *a = data + 1;
  const char *rest = (const char *)data + 7;
  size_t rlen = size - 7;
  nrt_str f[3];
  for (int i = 0; i < 3; i++) { /* fields separated by 0xFF, cut to valid UTF-8 */
    const char *end = memchr(rest, 0xFF, rlen);
    size_t flen = end ? (size_t)(end - rest) : rlen;
    size_t bad;
    if (nrt_utf8_validate(rest, flen, &bad, NULL) != NRT_OK)
      flen = bad;
    f[i] = nrt_str_view(rest, (int64_t)flen);
    if (end) {
      rlen -= (size_t)(end - rest) + 1;
      rest = end + 1;
    } else {
      rest += rlen;
      rlen = 0;
    }
  }
  static struct cps s, t, u;
  decode(f[0].data, f[0].len, &s);
  decode(f[1].data, f[1].len, &t);
  decode(f[2].data, f[2].len, &u);
  if (s.n >= MAXCP || t.n >= MAXCP || u.n >= MAXCP)
    return 0;
  int64_t st = arg(a[0], s.n), en = arg(a[1], s.n), step = arg(a[2], s.n);
  int64_t count = (int8_t)a[3];
  uint64_t live = nrt_stats_live_meminfos();
  nrt_str r;
  nrt_str_list *l = NULL;
  struct nrt_error err = {0};
  const char *sd = f[0].data, *td = f[1].data;
  int64_t sl = f[0].len, tl = f[1].len;

  ASSERT(nrt_str_len(sd, sl) == s.n);
  switch (op) {
  case 0:
    ASSERT(nrt_str_find(sd, sl, td, tl, st, en) == ref_find(&s, &t, st, en, 0));
    ASSERT(nrt_str_find(sd, sl, td, tl, st, NRT_STR_NONE) == ref_find(&s, &t, st, NRT_STR_NONE, 0));
    break;
  case 1:
    ASSERT(nrt_str_rfind(sd, sl, td, tl, st, en) == ref_find(&s, &t, st, en, 1));
    break;
  case 2:
    ASSERT(nrt_str_count(sd, sl, td, tl, st, en) == ref_count(&s, &t, st, en));
    break;
  case 3: { /* startswith / endswith */
    int64_t b = st, e = en;
    int ok = adjust(&b, &e, s.n) && e - b >= t.n;
    ASSERT(nrt_str_startswith(sd, sl, td, tl, st, en) == (ok && match_at(&s, b, &t)));
    ASSERT(nrt_str_endswith(sd, sl, td, tl, st, en) == (ok && match_at(&s, e - t.n, &t)));
    ASSERT(nrt_str_contains(sd, sl, td, tl) == (ref_find(&s, &t, 0, NRT_STR_NONE, 0) >= 0));
    break;
  }
  case 4: { /* slice */
    if (step == 0) {
      ASSERT(nrt_str_slice(&f[0], st, en, step, &r, &err) == NRT_EVALUE);
      break;
    }
    int64_t stp = step == NRT_STR_NONE ? 1 : step;
    /* reference: Python's slice.indices, then a plain loop */
    int64_t lo = stp > 0 ? 0 : -1, hi = stp > 0 ? s.n : s.n - 1, b = st, e = en;
    if (b == NRT_STR_NONE) b = stp < 0 ? hi : lo;
    else if (b < 0) { b += s.n; if (b < lo) b = lo; }
    else if (b > hi) b = hi;
    if (e == NRT_STR_NONE) e = stp < 0 ? lo : hi;
    else if (e < 0) { e += s.n; if (e < lo) e = lo; }
    else if (e > hi) e = hi;
    int64_t n = 0;
    for (int64_t i = b; stp > 0 ? i < e : i > e; i += stp) {
      tmp[n++] = s.c[i];
      if ((stp > 0 && i > INT64_MAX - stp) || (stp < 0 && i < INT64_MIN - stp))
        break;
    }
    int64_t size = nrt_str_slice_size(sd, sl, st, en, step);
    ASSERT(nrt_str_slice(&f[0], st, en, step, &r, &err) == NRT_OK);
    ASSERT(size == r.len);
    expect_str(&r, tmp, n);
    break;
  }
  case 5: { /* getitem */
    int64_t i = st == NRT_STR_NONE ? 0 : st;
    int rc = nrt_str_getitem(&f[0], i, &r, &err);
    int64_t j = i < 0 ? i + s.n : i;
    if (j < 0 || j >= s.n) {
      ASSERT(rc == NRT_EINDEX);
    } else {
      ASSERT(rc == NRT_OK);
      expect_str(&r, &s.c[j], 1);
    }
    break;
  }
  case 6: { /* replace */
    int64_t n = 0, k = 0, limit = count < 0 ? INT64_MAX : count;
    if ((s.n + 1) * (u.n + 1) > MAXOUT) /* the reference result would not fit */
      break;
    if (t.n == 0) {
      for (int64_t i = 0; i <= s.n; i++) {
        if (k < limit) {
          memcpy(tmp + n, u.c, sizeof(uint32_t) * (size_t)u.n);
          n += u.n;
          k++;
        }
        if (i < s.n)
          tmp[n++] = s.c[i];
      }
    } else {
      for (int64_t i = 0; i < s.n;) {
        if (k < limit && i + t.n <= s.n && match_at(&s, i, &t)) {
          memcpy(tmp + n, u.c, sizeof(uint32_t) * (size_t)u.n);
          n += u.n;
          i += t.n;
          k++;
        } else {
          tmp[n++] = s.c[i++];
        }
      }
    }
    int64_t size = nrt_str_replace_size(sd, sl, td, tl, f[2].data, f[2].len, count);
    ASSERT(nrt_str_replace(&f[0], &f[1], &f[2], count, &r, &err) == NRT_OK);
    ASSERT(size == r.len);
    expect_str(&r, tmp, n);
    break;
  }
  case 7: { /* strip with chars */
    int64_t b = 0, e = s.n;
    for (int side = 1; side <= 2; side++) {
      for (;;) {
        int64_t at = side == 1 ? b : e - 1;
        if (b >= e)
          break;
        int in = 0;
        for (int64_t k = 0; k < t.n; k++)
          in |= t.c[k] == s.c[at];
        if (!in)
          break;
        if (side == 1) b++; else e--;
      }
    }
    ASSERT(nrt_str_strip(&f[0], &f[1], &r, &err) == NRT_OK);
    expect_str(&r, s.c + b, e - b);
    break;
  }
  case 8: { /* strip(None) */
    int64_t b = 0, e = s.n;
    while (b < e && nrt_uc_is_space(s.c[b])) b++;
    while (e > b && nrt_uc_is_space(s.c[e - 1])) e--;
    ASSERT(nrt_str_strip(&f[0], NULL, &r, &err) == NRT_OK);
    expect_str(&r, s.c + b, e - b);
    ASSERT(nrt_str_lstrip(&f[0], NULL, &r, &err) == NRT_OK);
    b = 0;
    while (b < s.n && nrt_uc_is_space(s.c[b])) b++;
    expect_str(&r, s.c + b, s.n - b);
    break;
  }
  case 9:
  case 10: { /* split / rsplit with a separator: pieces joined back give s */
    int rev = op == 10;
    int rc = rev ? nrt_str_rsplit(&f[0], &f[1], count, &l, &err)
                 : nrt_str_split(&f[0], &f[1], count, &l, &err);
    if (tl == 0) {
      ASSERT(rc == NRT_EVALUE && l == NULL);
      break;
    }
    ASSERT(rc == NRT_OK);
    int64_t seps = l->len - 1, expect_seps = ref_count(&s, &t, 0, NRT_STR_NONE);
    if (count >= 0 && expect_seps > count)
      expect_seps = count;
    if (!rev) /* the first split is at the first occurrence */
      ASSERT(l->len < 2 || nrt_str_len(l->items[0].data, l->items[0].len) ==
                               ref_find(&s, &t, 0, NRT_STR_NONE, 0));
    ASSERT(seps == expect_seps);
    ASSERT(nrt_str_join(&f[1], l, &r, &err) == NRT_OK);
    ASSERT(nrt_str_eq(r.data, r.len, sd, sl));
    check_utf8(&r);
    nrt_str_release(&r);
    int64_t n = rev ? nrt_str_rsplit_ranges(sd, sl, td, tl, count, NULL)
                    : nrt_str_split_ranges(sd, sl, td, tl, count, NULL);
    ASSERT(n == l->len);
    nrt_str_list_release(l);
    break;
  }
  case 11: { /* split(None): no piece is empty or has whitespace; pieces in order */
    ASSERT(nrt_str_split(&f[0], NULL, -1, &l, &err) == NRT_OK);
    int64_t words = 0;
    for (int64_t i = 0; i < s.n; i++)
      words += !nrt_uc_is_space(s.c[i]) && (i == 0 || nrt_uc_is_space(s.c[i - 1]));
    ASSERT(l->len == words);
    for (int64_t i = 0; i < l->len; i++) {
      check_utf8(&l->items[i]);
      ASSERT(l->items[i].len > 0);
    }
    nrt_str_list_release(l);
    ASSERT(nrt_str_rsplit(&f[0], NULL, -1, &l, &err) == NRT_OK);
    ASSERT(l->len == words);
    nrt_str_list_release(l);
    break;
  }
  case 12: { /* splitlines(keepends): concatenation gives s back; boundaries as documented */
    ASSERT(nrt_str_splitlines(&f[0], true, &l, &err) == NRT_OK);
    int64_t lines = 0;
    for (int64_t i = 0; i < s.n; i++) {
      if (is_linebreak_ref(s.c[i])) {
        lines++;
        if (s.c[i] == '\r' && i + 1 < s.n && s.c[i + 1] == '\n')
          i++;
      } else if (i == s.n - 1) {
        lines++;
      }
    }
    ASSERT(l->len == lines);
    ASSERT(nrt_str_join(&(nrt_str){NULL, "", 0}, l, &r, &err) == NRT_OK);
    ASSERT(nrt_str_eq(r.data, r.len, sd, sl));
    nrt_str_release(&r);
    nrt_str_list_release(l);
    break;
  }
  case 13: { /* partition / rpartition */
    int rc = nrt_str_partition(&f[0], &f[1], &l, &err);
    if (tl == 0) {
      ASSERT(rc == NRT_EVALUE);
      break;
    }
    ASSERT(rc == NRT_OK && l->len == 3);
    ASSERT(nrt_str_join(&(nrt_str){NULL, "", 0}, l, &r, &err) == NRT_OK);
    ASSERT(nrt_str_eq(r.data, r.len, sd, sl));
    nrt_str_release(&r);
    int64_t at = ref_find(&s, &t, 0, NRT_STR_NONE, 0);
    ASSERT(nrt_str_len(l->items[0].data, l->items[0].len) == (at < 0 ? s.n : at));
    nrt_str_list_release(l);
    ASSERT(nrt_str_rpartition(&f[0], &f[1], &l, &err) == NRT_OK);
    at = ref_find(&s, &t, 0, NRT_STR_NONE, 1);
    ASSERT(nrt_str_len(l->items[0].data, l->items[0].len) == (at < 0 ? 0 : at));
    nrt_str_list_release(l);
    break;
  }
  case 14: { /* compare / concat / append / repeat */
    int64_t k = 0;
    while (k < s.n && k < t.n && s.c[k] == t.c[k])
      k++;
    int want = k < s.n && k < t.n ? (s.c[k] < t.c[k] ? -1 : 1) : (s.n < t.n ? -1 : s.n > t.n);
    ASSERT(nrt_str_compare(sd, sl, td, tl) == want);
    ASSERT(nrt_str_concat(&f[0], &f[1], &r, &err) == NRT_OK);
    memcpy(tmp, s.c, sizeof(uint32_t) * (size_t)s.n);
    memcpy(tmp + s.n, t.c, sizeof(uint32_t) * (size_t)t.n);
    expect_str(&r, tmp, s.n + t.n);
    /* s += t twice: a buffer with room, then (held alone) in place, the old value dropped */
    nrt_str grown, seen;
    ASSERT(nrt_str_append(&f[0], &f[1], &grown, &err) == NRT_OK);
    seen = grown;
    nrt_str_retain(&seen);
    expect_str(&seen, tmp, s.n + t.n);
    ASSERT(nrt_str_append(&grown, &f[1], &r, &err) == NRT_OK);
    nrt_str_release(&grown);
    memcpy(tmp + s.n + t.n, t.c, sizeof(uint32_t) * (size_t)t.n);
    expect_str(&r, tmp, s.n + 2 * t.n);
    int64_t times = count % 5;
    ASSERT(nrt_str_repeat(&f[0], times, &r, &err) == NRT_OK);
    int64_t n = 0;
    for (int64_t i = 0; i < times; i++, n += s.n)
      memcpy(tmp + n, s.c, sizeof(uint32_t) * (size_t)s.n);
    expect_str(&r, tmp, n);
    break;
  }
  default: { /* case mappings: size == into, valid UTF-8, managed == kernel */
    int64_t (*sizes[])(const char *, int64_t) = {nrt_str_upper_size, nrt_str_lower_size,
                                                nrt_str_casefold_size, nrt_str_title_size,
                                                nrt_str_swapcase_size, nrt_str_capitalize_size};
    int64_t (*intos[])(const char *, int64_t, char *) = {
        nrt_str_upper_into, nrt_str_lower_into, nrt_str_casefold_into,
        nrt_str_title_into, nrt_str_swapcase_into, nrt_str_capitalize_into};
    int (*managed[])(const nrt_str *, nrt_str *, struct nrt_error *) = {
        nrt_str_upper, nrt_str_lower, nrt_str_casefold,
        nrt_str_title, nrt_str_swapcase, nrt_str_capitalize};
    static char buf[MAXCP * 4 * 3 + 16];
    for (int i = 0; i < 6; i++) {
      int64_t n = sizes[i](sd, sl);
      ASSERT(n >= 0 && n <= sl * 3);
      ASSERT(intos[i](sd, sl, buf) == n);
      ASSERT(managed[i](&f[0], &r, &err) == NRT_OK);
      ASSERT(r.len == n && memcmp(r.data, buf, (size_t)n) == 0);
      check_utf8(&r);
      nrt_str_release(&r);
    }
    break;
  }
  }
  ASSERT(nrt_stats_live_meminfos() == live);
  return 0;
}

/* str.replace(old, new, count) (see nrt/str.h). */
#include "str/str_alloc.h"
#include "str/str_copy.h"
#include "str/str_internal.h"

/* Number of replacements made (old non-empty: non-overlapping matches, at most count). */
static int64_t replacements(const char *s, int64_t len, const char *old_s, int64_t oldlen,
                            int64_t count) {
  if (oldlen == 0) {
    int64_t slots = nrt_str_len(s, len) + 1;
    return count < slots ? count : slots;
  }
  int64_t k = 0;
  const char *p = s, *e = s + len;
  while (k < count) {
    const char *m = nrt_str_find_bytes(p, e - p, old_s, oldlen);
    if (!m)
      break;
    k++;
    p = m + oldlen;
  }
  return k;
}

int64_t nrt_str_replace_size(const char *s, int64_t len, const char *old_s, int64_t oldlen,
                             const char *new_s, int64_t newlen, int64_t count) {
  (void)new_s;
  if (count < 0)
    count = INT64_MAX;
  int64_t k = replacements(s, len, old_s, oldlen, count);
  int64_t grow = newlen - oldlen;
  if (k > 0 && grow > 0 && k > (NRT_STR_MAX_LEN - len) / grow)
    return -1;
  return len + k * grow;
}

/* nrt_str_replace_into with old non-empty and its first match in s at m (count >= 1). */
static int64_t replace_from(const char *s, int64_t len, const char *m, const char *old_s,
                            int64_t oldlen, const char *new_s, int64_t newlen, int64_t count,
                            char *out) {
  char *w = out;
  const char *p = s, *e = s + len;
  for (int64_t k = 0; k < count; k++) {
    if (k > 0) {
      m = nrt_str_find_bytes(p, e - p, old_s, oldlen);
      if (!m)
        break;
    }
    memcpy(w, p, (size_t)(m - p));
    w += m - p;
    memcpy(w, new_s, (size_t)newlen);
    w += newlen;
    p = m + oldlen;
  }
  memcpy(w, p, (size_t)(e - p));
  w += e - p;
  return w - out;
}

int64_t nrt_str_replace_into(const char *s, int64_t len, const char *old_s, int64_t oldlen,
                             const char *new_s, int64_t newlen, int64_t count, char *out) {
  if (count < 0)
    count = INT64_MAX;
  if (oldlen > 0) {
    const char *m = count > 0 ? nrt_str_find_bytes(s, len, old_s, oldlen) : NULL;
    if (m)
      return replace_from(s, len, m, old_s, oldlen, new_s, newlen, count, out);
    memcpy(out, s, (size_t)len);
    return len;
  }
  char *w = out;
  const char *p = s, *e = s + len;
  for (int64_t k = 0; k < count; k++) {
    memcpy(w, new_s, (size_t)newlen);
    w += newlen;
    if (p == e)
      break;
    int nb = nrt_u8_seqlen((unsigned char)*p);
    memcpy(w, p, (size_t)nb);
    w += nb;
    p += nb;
  }
  memcpy(w, p, (size_t)(e - p));
  w += e - p;
  return w - out;
}

/* nrt_str_replace when the result cannot be longer than s (old non-empty, new no longer,
 * count >= 1): one pass over s instead of one to count the matches and one to copy. The
 * string is allocated for the one match that is known and shortened after the copy; its
 * block keeps the few bytes of slack (nrt/str.h allows a larger block). */
static int replace_shrinking(const nrt_str *s, const nrt_str *old_s, const nrt_str *new_s,
                             int64_t count, nrt_str *out, struct nrt_error *err) {
  const char *m = nrt_str_find_bytes(s->data, s->len, old_s->data, old_s->len);
  if (!m || nrt_str_eq(old_s->data, old_s->len, new_s->data, new_s->len)) {
    nrt_str_retain(s); /* nothing replaced: the result is s */
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  const char *sd = s->data; /* read before the allocation: out may be s */
  int64_t sl = s->len, bound = sl - (old_s->len - new_s->len);
  char one[2];
  if (bound <= 2) { /* "" or one or two bytes: maybe a static string, no allocation */
    int64_t n = replace_from(sd, sl, m, old_s->data, old_s->len, new_s->data, new_s->len,
                             count, one);
    return nrt_str_make(one, n, out, err);
  }
  char *p;
  int rc = nrt_str_alloc_nonempty(bound, out, &p, err);
  if (rc != NRT_OK)
    return rc;
  int64_t n = replace_from(sd, sl, m, old_s->data, old_s->len, new_s->data, new_s->len, count, p);
  if (n < bound) {
    if (n <= 2) { /* as above: maybe a static string, and no block kept */
      memcpy(one, p, (size_t)n);
      nrt_str_release(out);
      return nrt_str_make(one, n, out, err);
    }
    p[n] = '\0';
    memcpy((char *)out->mi->data, &n, sizeof n);
    out->len = n;
  }
  return NRT_OK;
}

int nrt_str_replace(const nrt_str *s, const nrt_str *old_s, const nrt_str *new_s, int64_t count,
                    nrt_str *out, struct nrt_error *err) {
  if (count < 0)
    count = INT64_MAX;
  if (count > 0 && old_s->len > 0 && new_s->len <= old_s->len)
    return replace_shrinking(s, old_s, new_s, count, out, err);
  int64_t k = count == 0 ? 0 : replacements(s->data, s->len, old_s->data, old_s->len, count);
  if (k == 0 || nrt_str_eq(old_s->data, old_s->len, new_s->data, new_s->len)) {
    nrt_str_retain(s); /* nothing replaced: the result is s */
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  int64_t grow = new_s->len - old_s->len;
  if (grow > 0 && k > (NRT_STR_MAX_LEN - s->len) / grow) {
    *out = nrt_str_empty();
    return nrt_error_set(err, NRT_EOVERFLOW, "replace string is too long");
  }
  int64_t size = s->len + k * grow;
  if (size <= 1) { /* "" or one ASCII character: no allocation */
    char one[1];
    nrt_str_replace_into(s->data, s->len, old_s->data, old_s->len, new_s->data, new_s->len, k,
                         one);
    return nrt_str_make(one, size, out, err);
  }
  char *p;
  int rc = nrt_str_alloc(size, out, &p, err);
  if (rc != NRT_OK)
    return rc;
  nrt_str_replace_into(s->data, s->len, old_s->data, old_s->len, new_s->data, new_s->len, k, p);
  return NRT_OK;
}

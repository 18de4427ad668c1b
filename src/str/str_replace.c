/* str.replace(old, new, count) (see nrt/str.h). */
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

int64_t nrt_str_replace_into(const char *s, int64_t len, const char *old_s, int64_t oldlen,
                             const char *new_s, int64_t newlen, int64_t count, char *out) {
  if (count < 0)
    count = INT64_MAX;
  char *w = out;
  const char *p = s, *e = s + len;
  if (oldlen == 0) {
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
  } else {
    for (int64_t k = 0; k < count; k++) {
      const char *m = nrt_str_find_bytes(p, e - p, old_s, oldlen);
      if (!m)
        break;
      memcpy(w, p, (size_t)(m - p));
      w += m - p;
      memcpy(w, new_s, (size_t)newlen);
      w += newlen;
      p = m + oldlen;
    }
  }
  memcpy(w, p, (size_t)(e - p));
  w += e - p;
  return w - out;
}

int nrt_str_replace(const nrt_str *s, const nrt_str *old_s, const nrt_str *new_s, int64_t count,
                    nrt_str *out, struct nrt_error *err) {
  if (count < 0)
    count = INT64_MAX;
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

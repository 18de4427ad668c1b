/* find, rfind, index, rindex, count, startswith, endswith with Python's start/end rules (see
 * nrt/str.h). A byte match of valid UTF-8 in valid UTF-8 always starts at a code point
 * boundary, so the search runs on bytes (memchr/memmem) and only the result is converted to
 * a code point index. */
#define _GNU_SOURCE /* memmem, memrchr */
#include "str/str_internal.h"

static const char *forward_search(const char *hay, int64_t hlen, const char *sub,
                                  int64_t sublen) {
  if (sublen > hlen)
    return NULL;
  if (sublen == 1)
    return (const char *)memchr(hay, sub[0], (size_t)hlen);
  return (const char *)memmem(hay, (size_t)hlen, sub, (size_t)sublen);
}

/* Last occurrence of sub (sublen >= 1) in hay. */
static const char *reverse_search(const char *hay, int64_t hlen, const char *sub,
                                  int64_t sublen) {
  if (sublen > hlen)
    return NULL;
  if (sublen == 1)
    return (const char *)memrchr(hay, sub[0], (size_t)hlen);
  int64_t last = hlen - sublen; /* last possible start */
  while (last >= 0) {
    const char *p = (const char *)memrchr(hay, sub[0], (size_t)last + 1);
    if (!p)
      return NULL;
    if (memcmp(p + 1, sub + 1, (size_t)sublen - 1) == 0)
      return p;
    last = p - hay - 1;
  }
  return NULL;
}

int64_t nrt_str_find(const char *s, int64_t len, const char *sub, int64_t sublen,
                     int64_t start, int64_t end) {
  struct nrt_str_span sp;
  if (!nrt_str_adjust(s, len, start, end, &sp))
    return -1;
  if (sublen == 0)
    return sp.c0;
  const char *p = forward_search(s + sp.b0, sp.b1 - sp.b0, sub, sublen);
  if (!p)
    return -1;
  return sp.c0 + nrt_str_len(s + sp.b0, p - (s + sp.b0));
}

int64_t nrt_str_rfind(const char *s, int64_t len, const char *sub, int64_t sublen,
                      int64_t start, int64_t end) {
  struct nrt_str_span sp;
  if (!nrt_str_adjust(s, len, start, end, &sp))
    return -1;
  if (sublen == 0)
    return sp.c0 + nrt_str_len(s + sp.b0, sp.b1 - sp.b0);
  const char *p = reverse_search(s + sp.b0, sp.b1 - sp.b0, sub, sublen);
  if (!p)
    return -1;
  return sp.c0 + nrt_str_len(s + sp.b0, p - (s + sp.b0));
}

int nrt_str_index(const char *s, int64_t len, const char *sub, int64_t sublen, int64_t start,
                  int64_t end, int64_t *result, struct nrt_error *err) {
  *result = nrt_str_find(s, len, sub, sublen, start, end);
  if (*result < 0)
    return nrt_error_set(err, NRT_EVALUE, "substring not found");
  return NRT_OK;
}

int nrt_str_rindex(const char *s, int64_t len, const char *sub, int64_t sublen, int64_t start,
                   int64_t end, int64_t *result, struct nrt_error *err) {
  *result = nrt_str_rfind(s, len, sub, sublen, start, end);
  if (*result < 0)
    return nrt_error_set(err, NRT_EVALUE, "substring not found");
  return NRT_OK;
}

int64_t nrt_str_count(const char *s, int64_t len, const char *sub, int64_t sublen,
                      int64_t start, int64_t end) {
  struct nrt_str_span sp;
  if (!nrt_str_adjust(s, len, start, end, &sp))
    return 0;
  const char *hay = s + sp.b0;
  int64_t hlen = sp.b1 - sp.b0;
  if (sublen == 0)
    return nrt_str_len(hay, hlen) + 1;
  int64_t n = 0;
  for (;;) {
    const char *p = forward_search(hay, hlen, sub, sublen);
    if (!p)
      return n;
    n++;
    hlen -= (p - hay) + sublen;
    hay = p + sublen;
  }
}

bool nrt_str_startswith(const char *s, int64_t len, const char *prefix, int64_t plen,
                        int64_t start, int64_t end) {
  struct nrt_str_span sp;
  if (!nrt_str_adjust(s, len, start, end, &sp))
    return false;
  return plen <= sp.b1 - sp.b0 && (plen == 0 || memcmp(s + sp.b0, prefix, (size_t)plen) == 0);
}

bool nrt_str_endswith(const char *s, int64_t len, const char *suffix, int64_t slen,
                      int64_t start, int64_t end) {
  struct nrt_str_span sp;
  if (!nrt_str_adjust(s, len, start, end, &sp))
    return false;
  return slen <= sp.b1 - sp.b0 &&
         (slen == 0 || memcmp(s + sp.b1 - slen, suffix, (size_t)slen) == 0);
}

bool nrt_str_startswith_any(const char *s, int64_t len, const nrt_str *prefixes, int64_t n,
                            int64_t start, int64_t end) {
  for (int64_t i = 0; i < n; i++)
    if (nrt_str_startswith(s, len, prefixes[i].data, prefixes[i].len, start, end))
      return true;
  return false;
}

bool nrt_str_endswith_any(const char *s, int64_t len, const nrt_str *suffixes, int64_t n,
                          int64_t start, int64_t end) {
  for (int64_t i = 0; i < n; i++)
    if (nrt_str_endswith(s, len, suffixes[i].data, suffixes[i].len, start, end))
      return true;
  return false;
}

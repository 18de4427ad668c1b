/* find, rfind, index, rindex, count, startswith, endswith with Python's start/end rules (see
 * nrt/str.h). A byte match of valid UTF-8 in valid UTF-8 always starts at a code point
 * boundary, so the search runs on bytes (memchr/memmem) and only the result is converted to
 * a code point index. */
#define _GNU_SOURCE /* memmem, memrchr */
#include "str/str_internal.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Needles longer than this go to glibc's memmem (linear time whatever the input); shorter
 * ones use the first/last byte filter below, whose verification costs at most this much per
 * candidate position. */
#define FILTER_MAX_NEEDLE 32

/* Naive search over a short stretch: memchr on the first byte, then compare. */
static const char *scan_forward(const char *hay, int64_t hlen, const char *sub, int64_t sublen) {
  const char *p = hay, *last = hay + hlen - sublen;
  while (p <= last) {
    p = (const char *)memchr(p, sub[0], (size_t)(last - p) + 1);
    if (!p)
      return NULL;
    if (memcmp(p + 1, sub + 1, (size_t)sublen - 1) == 0)
      return p;
    p++;
  }
  return NULL;
}

static const char *scan_backward(const char *hay, int64_t hlen, const char *sub,
                                 int64_t sublen) {
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

const char *nrt_str_find_bytes(const char *hay, int64_t hlen, const char *sub, int64_t sublen) {
  if (sublen > hlen)
    return NULL;
  if (sublen == 1)
    return (const char *)memchr(hay, sub[0], (size_t)hlen);
  if (sublen == 0)
    return hay;
  if (sublen > FILTER_MAX_NEEDLE)
    return (const char *)memmem(hay, (size_t)hlen, sub, (size_t)sublen);
  int64_t i = 0;
#if defined(__SSE2__)
  /* 16 candidate positions at a time: first and last needle bytes both match. */
  const __m128i first = _mm_set1_epi8(sub[0]), lastb = _mm_set1_epi8(sub[sublen - 1]);
  for (; i + sublen - 1 + 16 <= hlen; i += 16) {
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(hay + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(hay + i + sublen - 1));
    unsigned mask = (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, lastb)));
    while (mask) {
      int bit = __builtin_ctz(mask);
      if (memcmp(hay + i + bit + 1, sub + 1, (size_t)sublen - 2) == 0)
        return hay + i + bit;
      mask &= mask - 1;
    }
  }
#endif
  return scan_forward(hay + i, hlen - i, sub, sublen);
}

const char *nrt_str_rfind_bytes(const char *hay, int64_t hlen, const char *sub,
                                int64_t sublen) {
  if (sublen > hlen)
    return NULL;
  if (sublen == 1)
    return (const char *)memrchr(hay, sub[0], (size_t)hlen);
  if (sublen == 0)
    return hay + hlen;
  if (sublen > FILTER_MAX_NEEDLE)
    return scan_backward(hay, hlen, sub, sublen);
  int64_t end = hlen - sublen + 1; /* candidate starts are [0, end) */
#if defined(__SSE2__)
  const __m128i first = _mm_set1_epi8(sub[0]), lastb = _mm_set1_epi8(sub[sublen - 1]);
  for (; end >= 16; end -= 16) {
    int64_t i = end - 16;
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)(hay + i));
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(hay + i + sublen - 1));
    unsigned mask = (unsigned)_mm_movemask_epi8(
        _mm_and_si128(_mm_cmpeq_epi8(a, first), _mm_cmpeq_epi8(b, lastb)));
    while (mask) {
      int bit = 31 - __builtin_clz(mask);
      if (memcmp(hay + i + bit + 1, sub + 1, (size_t)sublen - 2) == 0)
        return hay + i + bit;
      mask &= ~(1u << bit);
    }
  }
#endif
  return scan_backward(hay, end + sublen - 1, sub, sublen);
}

int64_t nrt_str_find(const char *s, int64_t len, const char *sub, int64_t sublen,
                     int64_t start, int64_t end) {
  struct nrt_str_span sp;
  if (!nrt_str_adjust(s, len, start, end, &sp))
    return -1;
  if (sublen == 0)
    return sp.c0;
  const char *p = nrt_str_find_bytes(s + sp.b0, sp.b1 - sp.b0, sub, sublen);
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
  const char *p = nrt_str_rfind_bytes(s + sp.b0, sp.b1 - sp.b0, sub, sublen);
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
    const char *p = nrt_str_find_bytes(hay, hlen, sub, sublen);
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

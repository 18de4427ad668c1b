/* len, ASCII check, comparisons, `in`, concatenation and repetition (see nrt/str.h), plus the
 * code point <-> byte offset helpers every indexed operation uses. */
#include "str/str_copy.h"
#include "str/str_internal.h"
#include "str/str_short.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Code points of a string of at most NRT_SHORT_MAX bytes: continuation bytes counted over
 * the branch-free cover (zero padding counts as nothing). */
static inline int64_t short_len(const char *s, int64_t len) {
  struct nrt_short_cover c;
  nrt_short_cover_read(s, len, &c);
  uint64_t cont = nrt_short_cont_ones(c.w[0]) + nrt_short_cont_ones(c.w[1]) +
                  nrt_short_cont_ones(c.w[2]) + nrt_short_cont_ones(c.w[3]) +
                  nrt_short_cont_ones(c.tail);
  return len - nrt_short_byte_sum(cont);
}

#if defined(__SSE2__)
/* 16 zero bytes then 16 0xFF bytes: loaded at offset r, the last r lanes are selected. */
static const unsigned char tail_select[32] = {
    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
    0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};

/* Code points of a string of 16..MEDIUM_LEN bytes: per-byte counters of continuation bytes
 * over 16-byte steps, the rest counted from one last overlapping load with the lanes already
 * counted masked off; one horizontal sum. No byte loop, no library call. */
#define MEDIUM_LEN 1024
static int64_t medium_len(const char *s, int64_t len) {
  const __m128i limit = _mm_set1_epi8(-64), zero = _mm_setzero_si128();
  __m128i acc = zero, acc1 = zero, acc2 = zero, acc3 = zero;
  int64_t i = 0;
  /* four independent counters (at most 16 steps each here, no overflow): the loop is not
   * bound by the latency of one accumulator */
  for (; i + 64 <= len; i += 64) {
    const __m128i *p = (const __m128i *)(const void *)(s + i);
    acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(_mm_loadu_si128(p), limit));
    acc1 = _mm_sub_epi8(acc1, _mm_cmplt_epi8(_mm_loadu_si128(p + 1), limit));
    acc2 = _mm_sub_epi8(acc2, _mm_cmplt_epi8(_mm_loadu_si128(p + 2), limit));
    acc3 = _mm_sub_epi8(acc3, _mm_cmplt_epi8(_mm_loadu_si128(p + 3), limit));
  }
  /* byte counters summed before they can pass 255: each holds at most 16 */
  acc = _mm_add_epi8(_mm_add_epi8(acc, acc1), _mm_add_epi8(acc2, acc3));
  for (; i + 16 <= len; i += 16) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
    acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(v, limit));
  }
  int64_t rem = len - i;
  if (rem) {
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + len - 16));
    __m128i sel = _mm_loadu_si128((const __m128i *)(const void *)(tail_select + rem));
    acc = _mm_sub_epi8(acc, _mm_and_si128(_mm_cmplt_epi8(v, limit), sel));
  }
  __m128i sums = _mm_sad_epu8(acc, zero);
  int64_t cont = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
  return len - cont;
}
#endif

int64_t nrt_str_len(const char *s, int64_t len) {
  if (len <= NRT_SHORT_MAX)
    return short_len(s, len);
#if defined(__SSE2__)
  if (len <= MEDIUM_LEN)
    return medium_len(s, len);
#endif
  int64_t i = 0, n = 0;
#if defined(__SSE2__)
  /* 16 bytes a step: continuation bytes (0x80..0xBF, below -64 as signed bytes) are counted
   * in per-byte counters, summed every 255 steps before they could overflow. */
  const __m128i limit = _mm_set1_epi8(-64), zero = _mm_setzero_si128();
  while (i + 16 <= len) {
    int64_t steps = (len - i) / 16;
    if (steps > 255)
      steps = 255;
    __m128i acc = zero;
    for (int64_t k = 0; k < steps; k++, i += 16) {
      __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
      acc = _mm_sub_epi8(acc, _mm_cmplt_epi8(v, limit));
    }
    __m128i sums = _mm_sad_epu8(acc, zero);
    int64_t cont = _mm_cvtsi128_si32(sums) + _mm_cvtsi128_si32(_mm_srli_si128(sums, 8));
    n += steps * 16 - cont;
  }
#endif
  for (; i + 32 <= len; i += 32) {
    uint64_t w0 = nrt_load64(s + i), w1 = nrt_load64(s + i + 8);
    uint64_t w2 = nrt_load64(s + i + 16), w3 = nrt_load64(s + i + 24);
    if (((w0 | w1 | w2 | w3) & NRT_HIGH_BITS) == 0)
      n += 32;
    else
      n += nrt_word_leads(w0) + nrt_word_leads(w1) + nrt_word_leads(w2) + nrt_word_leads(w3);
  }
  for (; i + 8 <= len; i += 8)
    n += nrt_word_leads(nrt_load64(s + i));
  int64_t rem = len - i;
  if (rem && len >= 8) {
    /* The last 8 bytes, shifted so only the rem uncounted ones remain; the zero bytes shifted
     * in count as leads and are taken off again. */
    uint64_t w = nrt_load64(s + len - 8) >> (8 * (8 - rem));
    return n + nrt_word_leads(w) - (8 - rem);
  }
  for (; i < len; i++)
    n += nrt_u8_is_lead((unsigned char)s[i]);
  return n;
}

bool nrt_str_is_ascii_bytes(const char *s, int64_t len) {
  if (len <= NRT_SHORT_MAX) {
    struct nrt_short_cover c;
    nrt_short_cover_read(s, len, &c);
    return ((c.w[0] | c.w[1] | c.w[2] | c.w[3] | c.tail) & NRT_HIGH_BITS) == 0;
  }
  int64_t i = 0;
  uint64_t acc = 0;
#if defined(__SSE2__)
  __m128i v = _mm_setzero_si128();
  for (; i + 64 <= len; i += 64) {
    const __m128i *p = (const __m128i *)(const void *)(s + i);
    v = _mm_or_si128(v, _mm_or_si128(_mm_or_si128(_mm_loadu_si128(p), _mm_loadu_si128(p + 1)),
                                     _mm_or_si128(_mm_loadu_si128(p + 2), _mm_loadu_si128(p + 3))));
  }
  if (_mm_movemask_epi8(v))
    return false;
#endif
  for (; i + 32 <= len; i += 32)
    acc |= nrt_load64(s + i) | nrt_load64(s + i + 8) | nrt_load64(s + i + 16) |
           nrt_load64(s + i + 24);
  for (; i + 8 <= len; i += 8)
    acc |= nrt_load64(s + i);
  acc |= nrt_load64(s + len - 8); /* the last bytes (len > 32; overlap is harmless) */
  return (acc & NRT_HIGH_BITS) == 0;
}

/* Byte index in w of its lead byte number k (0-based; w has more than k lead bytes, a zero
 * byte counting as one): the bytes where the running count of leads (a prefix sum by
 * multiplication) reaches k + 1 begin there. No branch on the bytes, which in text of mixed
 * scripts would mispredict about once per character. */
static inline int64_t word_lead_at(uint64_t w, int64_t k) {
  uint64_t leads = nrt_short_cont_ones(w) ^ NRT_SHORT_ONES;
  uint64_t upto = leads * NRT_SHORT_ONES; /* byte i: leads among bytes 0..i (at most 8) */
  uint64_t reached = ((upto | NRT_SHORT_HIGH) - NRT_SHORT_ONES * (uint64_t)(k + 1)) &
                     NRT_SHORT_HIGH;
  return __builtin_ctzll(reached) >> 3;
}

int64_t nrt_str_cp_offset(const char *s, int64_t len, int64_t idx) {
  int64_t i = 0, k = idx;
  for (; i + 8 <= len; i += 8) {
    uint64_t w = nrt_load64(s + i);
    if (!(w & NRT_HIGH_BITS)) { /* eight ASCII characters: the k-th is byte k */
      if (k < 8)
        return i + k;
      k -= 8;
      continue;
    }
    int leads = nrt_word_leads(w);
    if (leads > k)
      return i + word_lead_at(w, k);
    k -= leads;
  }
  /* The last len - i < 8 bytes as one zero-padded word: its padding bytes are no
   * continuation bytes, so they count as leads past the real ones. */
  int64_t r = len - i;
  if (r == 0)
    return k == 0 ? len : -1;
  uint64_t t = len >= 8 ? nrt_load64(s + len - 8) >> (64 - 8 * r)
                        : nrt_short_small((const unsigned char *)s, len);
  int64_t real = r - nrt_short_byte_sum(nrt_short_cont_ones(t)); /* leads among the r bytes */
  if (k < real)
    return i + word_lead_at(t, k);
  return k == real ? len : -1;
}

/* nrt_str_adjust when the code points must be counted (end given, or a negative start); out
 * of line, so the common forms need no stack frame. */
static __attribute__((noinline)) bool adjust_counted(const char *s, int64_t len, int64_t start,
                                                     int64_t end, struct nrt_str_span *sp) {
  /* A short string: the code points from the lead-byte mask of its cover, counted and
   * located without a walk. */
  const bool short_s = len <= NRT_SHORT_MAX;
  uint64_t leads = 0;
  int64_t n;
  if (short_s) {
    struct nrt_short_cover c;
    nrt_short_cover_read(s, len, &c);
    leads = nrt_short_leads(&c, len);
    n = nrt_short_popcount(leads);
  } else {
    n = nrt_str_len(s, len);
  }
  if (end == NRT_STR_NONE || end > n) {
    end = n;
  } else if (end < 0) {
    end += n;
    if (end < 0)
      end = 0;
  }
  if (start < 0) {
    start += n;
    if (start < 0)
      start = 0;
  }
  if (start > end)
    return false;
  if (n == len) {
    sp->b0 = start;
    sp->b1 = end;
  } else if (short_s) {
    sp->b0 = nrt_short_offset(leads, n, len, start);
    sp->b1 = nrt_short_offset(leads, n, len, end);
  } else {
    sp->b0 = nrt_str_cp_offset(s, len, start);
    sp->b1 = sp->b0 + nrt_str_cp_offset(s + sp->b0, len - sp->b0, end - start);
  }
  sp->c0 = start;
  return true;
}

bool nrt_str_adjust(const char *s, int64_t len, int64_t start, int64_t end,
                    struct nrt_str_span *sp) {
  if (start == NRT_STR_NONE)
    start = 0;
  if (end == NRT_STR_NONE && start >= 0) {
    /* The common forms s.find(x) and s.find(x, k): no need to count the whole string. */
    int64_t b0 = start == 0 ? 0 : nrt_str_cp_offset(s, len, start);
    if (b0 < 0)
      return false;
    sp->b0 = b0;
    sp->b1 = len;
    sp->c0 = start;
    return true;
  }
  return adjust_counted(s, len, start, end, sp);
}

int nrt_str_compare(const char *a, int64_t alen, const char *b, int64_t blen) {
  int64_t m = alen < blen ? alen : blen;
  int c = m ? memcmp(a, b, (size_t)m) : 0;
  if (c != 0)
    return c < 0 ? -1 : 1;
  return alen < blen ? -1 : alen > blen ? 1 : 0;
}

bool nrt_str_eq(const char *a, int64_t alen, const char *b, int64_t blen) {
  return alen == blen && (alen == 0 || memcmp(a, b, (size_t)alen) == 0);
}

bool nrt_str_contains(const char *hay, int64_t hlen, const char *needle, int64_t nlen) {
  if (nlen == 0)
    return true;
  if (nlen > hlen)
    return false;
  return nrt_str_find_bytes(hay, hlen, needle, nlen) != NULL;
}

/* The room of an append buffer: bytes it can hold past its length (0 for a string whose
 * block is exactly its length; a shortened result of replace has a few: see nrt/str.h). */
static int64_t append_room(const nrt_str *s) {
  if (!s->mi || s->data != (const char *)s->mi->data + NRT_STR_PAYLOAD_HEAD)
    return 0;
  int64_t used;
  memcpy(&used, s->mi->data, sizeof used);
  if (used != s->len)
    return 0; /* a shorter value of a buffer that has grown since: never append to it */
  return (int64_t)s->mi->size - NRT_STR_PAYLOAD_HEAD - 1 - used;
}

int nrt_str_concat(const nrt_str *a, const nrt_str *b, nrt_str *out, struct nrt_error *err) {
  if (b->len == 0 || a->len == 0) {
    const nrt_str *r = b->len == 0 ? a : b;
    if (append_room(r) > 0) /* a buffer still growing: never shared */
      return nrt_str_new(r->data, r->len, out, err);
    nrt_str_retain(r);
    nrt_str_copy(out, r);
    return NRT_OK;
  }
  if (a->len > NRT_STR_MAX_LEN - b->len) {
    *out = nrt_str_empty();
    return nrt_error_set(err, NRT_EOVERFLOW, "strings are too large to concat");
  }
  /* Read before the allocation: out may be a or b. */
  const char *ad = a->data, *bd = b->data;
  int64_t al = a->len, bl = b->len;
  char *p;
  int rc = nrt_str_alloc_nonempty(al + bl, out, &p, err);
  if (rc != NRT_OK)
    return rc;
  nrt_copy_short(p, ad, al);
  nrt_copy_short(p + al, bd, bl);
  return NRT_OK;
}

/* s + x into a new buffer with room for as much again, and a block of at least 128 bytes (a
 * typical row's string then needs one), rounded up to the allocator's 16-byte granule. Kept
 * out of line: the in-place path then needs few registers. */
static __attribute__((noinline)) int append_grow(const nrt_str *s, const nrt_str *x,
                                                 nrt_str *out, struct nrt_error *err) {
  if (s->len > NRT_STR_MAX_LEN - x->len) {
    *out = nrt_str_empty();
    return nrt_error_set(err, NRT_EOVERFLOW, "strings are too large to concat");
  }
  /* Read s and x first: out may be either. */
  const char *sd = s->data, *xd = x->data;
  int64_t sl = s->len, xl = x->len, total = sl + xl, limit = nrt_str_max_bytes();
  if (total > limit) {
    *out = nrt_str_empty();
    return nrt_str_limit_error(total, err);
  }
  size_t head = sizeof(nrt_meminfo) + NRT_STR_PAYLOAD_HEAD + 1;
  int64_t cap = total <= NRT_STR_MAX_LEN / 2 ? 2 * total : NRT_STR_MAX_LEN;
  if (cap < 128 - (int64_t)head)
    cap = 128 - (int64_t)head;
  cap = (int64_t)(((head + (size_t)cap + 15) & ~(size_t)15) - head);
  if (cap > limit) /* the room never passes the limit either */
    cap = limit;
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc(NRT_STR_PAYLOAD_HEAD + (size_t)cap + 1, &mi, err);
  if (rc != NRT_OK) {
    *out = nrt_str_empty();
    return rc;
  }
  char *b = (char *)mi->data + NRT_STR_PAYLOAD_HEAD;
  memcpy(mi->data, &total, sizeof total);
  memcpy(b, sd, (size_t)sl);
  memcpy(b + sl, xd, (size_t)xl);
  b[total] = '\0';
  out->mi = mi;
  out->data = b;
  out->len = total;
  return NRT_OK;
}

int nrt_str_append(const nrt_str *s, const nrt_str *x, nrt_str *out, struct nrt_error *err) {
  int64_t sl = s->len, xl = x->len;
  if (xl == 0 || sl == 0)
    return nrt_str_concat(s, x, out, err);
  /* In place (room implies no overflow); anything else grows out of line. */
  if (append_room(s) < xl || __atomic_load_n(&s->mi->refct, __ATOMIC_ACQUIRE) != 1)
    return append_grow(s, x, out, err);
  /* x lies before s's end if it is a view of s: the copy does not overlap it. */
  char *end = (char *)s->mi->data + NRT_STR_PAYLOAD_HEAD + sl; /* == s->data + sl */
  if (xl <= 8) { /* a character or a short piece: no library call */
    for (int64_t i = 0; i < xl; i++)
      end[i] = x->data[i];
  } else {
    memcpy(end, x->data, (size_t)xl);
  }
  end[xl] = '\0';
  int64_t total = sl + xl;
  memcpy(s->mi->data, &total, sizeof total);
  /* The new reference: the caller holds the only other one, so no thread can race. */
  __atomic_store_n(&s->mi->refct, 2, __ATOMIC_RELAXED);
  out->mi = s->mi;
  out->data = s->data;
  out->len = total;
  return NRT_OK;
}

int nrt_str_fit(const nrt_str *s, nrt_str *out, struct nrt_error *err) {
  if (append_room(s) > 0)
    return nrt_str_new(s->data, s->len, out, err);
  nrt_str_retain(s);
  nrt_str_copy(out, s);
  return NRT_OK;
}

int nrt_str_repeat(const nrt_str *s, int64_t n, nrt_str *out, struct nrt_error *err) {
  if (n <= 0 || s->len == 0) {
    *out = nrt_str_empty();
    return NRT_OK;
  }
  if (n == 1) {
    nrt_str_retain(s);
    nrt_str_copy(out, s);
    return NRT_OK;
  }
  if (s->len > NRT_STR_MAX_LEN / n) {
    *out = nrt_str_empty();
    return nrt_error_set(err, NRT_EOVERFLOW, "repeated string is too long");
  }
  int64_t total = s->len * n;
  char *p;
  int rc = nrt_str_alloc_nonempty(total, out, &p, err);
  if (rc != NRT_OK)
    return rc;
  if (s->len == 1) {
    memset(p, s->data[0], (size_t)total);
    return NRT_OK;
  }
  nrt_copy_short(p, s->data, s->len);
  int64_t done = s->len; /* doubling: log2(n) copies, never overlapping */
  while (done < total) {
    int64_t chunk = done < total - done ? done : total - done;
    nrt_copy_short(p + done, p, chunk);
    done += chunk;
  }
  return NRT_OK;
}

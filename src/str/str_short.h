/* Internal: branch-free reads of short strings for the str kernels (C and C++).
 *
 * The rows of a column have lengths that vary at random, so a kernel that branches on the
 * length (8 bytes or more? 4 or more?) mispredicts about once per row, which costs more than
 * the work on a 13-byte string. These helpers read s[0..n) as whole words and one zero-padded
 * tail word with fixed-size loads whose addresses are selected without branches: a load that
 * would fall outside the string reads eight static zero bytes instead. Nothing is ever read
 * outside s[0..n) (so sanitizers and valgrind see only valid reads). */
#ifndef NRT_STR_SHORT_H
#define NRT_STR_SHORT_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#if defined(__GNUC__)
#define NRT_SHORT_INLINE static inline __attribute__((always_inline))
#else
#define NRT_SHORT_INLINE static inline
#endif

/* Strings up to this many bytes are read by nrt_short_cover without any branch. */
#define NRT_SHORT_MAX 32

#define NRT_SHORT_ONES 0x0101010101010101ULL
#define NRT_SHORT_HIGH 0x8080808080808080ULL

/* Eight zero bytes: what a cover load outside the string reads instead. */
NRT_SHORT_INLINE const unsigned char *nrt_short_zeros(void) {
  static const unsigned char zeros[8] = {0, 0, 0, 0, 0, 0, 0, 0};
  return zeros;
}

/* c ? a : b for addresses, by mask arithmetic: compilers turn a plain conditional into a
 * branch here (the arms feed loads). a is an integer since it may lie outside the string when
 * c is false. */
NRT_SHORT_INLINE const unsigned char *nrt_short_sel(bool c, uintptr_t a, const unsigned char *b) {
  uintptr_t m = (uintptr_t)0 - (uintptr_t)c;
  return (const unsigned char *)((uintptr_t)b ^ ((a ^ (uintptr_t)b) & m));
}

/* The same for a destination: c ? a : b, where b is scratch memory. */
NRT_SHORT_INLINE unsigned char *nrt_short_sel_dst(bool c, uintptr_t a, unsigned char *b) {
  uintptr_t m = (uintptr_t)0 - (uintptr_t)c;
  return (unsigned char *)((uintptr_t)b ^ ((a ^ (uintptr_t)b) & m));
}

/* All ones when c, else 0. */
NRT_SHORT_INLINE uint64_t nrt_short_mask(bool c) {
  return (uint64_t)0 - (uint64_t)c;
}

NRT_SHORT_INLINE uint64_t nrt_short_load64(const unsigned char *p) {
  uint64_t w;
  memcpy(&w, p, 8);
  return w;
}

NRT_SHORT_INLINE uint64_t nrt_short_load32(const unsigned char *p) {
  uint32_t w;
  memcpy(&w, p, 4);
  return w;
}

/* The bytes s[0..n) for 0 <= n < 8 zero-extended into a word (0 for n >= 8): two
 * overlapping 4-byte loads for 4..7 bytes, the first, middle and last bytes for 1..3. */
NRT_SHORT_INLINE uint64_t nrt_short_small(const unsigned char *s, int64_t n) {
  const unsigned char *z = nrt_short_zeros();
  uintptr_t base = (uintptr_t)s;
  bool mid = (uint64_t)(n - 4) < 4, low = (uint64_t)(n - 1) < 3;
  const unsigned char *p4 = nrt_short_sel(mid, base, z);
  const unsigned char *q4 = nrt_short_sel(mid, base + (uintptr_t)n - 4, z);
  uint64_t b = nrt_short_load32(p4) | (nrt_short_load32(q4) << ((8 * (unsigned)(n - 4)) & 31));
  const unsigned char *p1 = nrt_short_sel(low, base, z); /* indexes below 4 fit the zeros */
  unsigned mid_i = ((unsigned)n & 3) >> 1, last_i = (unsigned)(n - 1) & 3;
  uint64_t c = (uint64_t)p1[0] | ((uint64_t)p1[mid_i] << (8 * mid_i)) |
               ((uint64_t)p1[last_i] << (8 * last_i));
  return b | c;
}

/* s[0..n) for 0 <= n <= NRT_SHORT_MAX as w[0..3] (the whole words at bytes 0, 8, 16, 24; 0
 * past the last whole word) and tail (the last n % 8 bytes zero-extended, at byte
 * 8 * (n / 8); 0 when n is a multiple of 8). Read without a branch. */
struct nrt_short_cover {
  uint64_t w[4];
  uint64_t tail;
};

NRT_SHORT_INLINE void nrt_short_cover_read(const char *s, int64_t n, struct nrt_short_cover *c) {
  const unsigned char *u = (const unsigned char *)s;
  bool big = n >= 8;
  /* n >= 8: every load at an offset up to n - 8, the ones past the whole words masked off;
   * n < 8: all of them read the zeros. */
  const unsigned char *p = nrt_short_sel(big, (uintptr_t)u, nrt_short_zeros());
  int64_t last = (n - 8) & (int64_t)nrt_short_mask(big);
  c->w[0] = nrt_short_load64(p);
  c->w[1] = nrt_short_load64(p + (last < 8 ? last : 8)) & nrt_short_mask(n >= 16);
  c->w[2] = nrt_short_load64(p + (last < 16 ? last : 16)) & nrt_short_mask(n >= 24);
  c->w[3] = nrt_short_load64(p + (last < 24 ? last : 24)) & nrt_short_mask(n >= 32);
  unsigned r = (unsigned)n & 7;
  uint64_t end = (nrt_short_load64(p + last) >> ((64 - 8 * r) & 63)) & nrt_short_mask(r != 0);
  c->tail = end | nrt_short_small(u, n);
}

/* 0x01 in each byte of w that is a UTF-8 continuation byte (10xxxxxx). */
NRT_SHORT_INLINE uint64_t nrt_short_cont_ones(uint64_t w) {
  return (w & ~(w << 1) & NRT_SHORT_HIGH) >> 7;
}

/* Sum of the bytes of w (each at most 31, so no carry leaves a byte). */
NRT_SHORT_INLINE int64_t nrt_short_byte_sum(uint64_t w) {
  return (int64_t)((w * NRT_SHORT_ONES) >> 56);
}

/* 0x80 in each byte of w equal to c, 0 elsewhere (exact for every byte). */
NRT_SHORT_INLINE uint64_t nrt_short_eq(uint64_t w, unsigned char c) {
  uint64_t v = w ^ (NRT_SHORT_ONES * c);
  return ~(((v & ~NRT_SHORT_HIGH) + ~NRT_SHORT_HIGH) | v) & NRT_SHORT_HIGH;
}

/* 0x80 in each byte of w within [lo, hi] (hi < 0x80), 0 elsewhere (exact for every byte: the
 * additions work on the low 7 bits and cannot carry between bytes). */
NRT_SHORT_INLINE uint64_t nrt_short_range(uint64_t w, unsigned lo, unsigned hi) {
  uint64_t x = w & ~NRT_SHORT_HIGH;
  return (x + NRT_SHORT_ONES * (0x80 - lo)) & ~(x + NRT_SHORT_ONES * (0x7F - hi)) & ~w &
         NRT_SHORT_HIGH;
}

/* The 0x80 bits of m (one per byte) gathered into bits 0..7 (byte i to bit i). */
NRT_SHORT_INLINE uint64_t nrt_short_bits(uint64_t m) {
  return ((m >> 7) * 0x0102040810204080ULL) >> 56;
}

/* Number of set bits (no popcount instruction in baseline x86-64). */
NRT_SHORT_INLINE int nrt_short_popcount(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ULL);
  x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
  return (int)((x * NRT_SHORT_ONES) >> 56);
}

/* Bit i set for each byte s[i] of a cover (n <= NRT_SHORT_MAX) where the per-word predicate
 * results m0..m3 (whole words) and mt (tail) have 0x80; the predicate must not match the
 * zero padding. */
NRT_SHORT_INLINE uint64_t nrt_short_byte_mask(int64_t n, uint64_t m0, uint64_t m1, uint64_t m2,
                                              uint64_t m3, uint64_t mt) {
  return nrt_short_bits(m0) | (nrt_short_bits(m1) << 8) | (nrt_short_bits(m2) << 16) |
         (nrt_short_bits(m3) << 24) | (nrt_short_bits(mt) << (8 * (n >> 3)));
}

/* Bit i set for each byte s[i] of the cover c of s[0..n) that starts a code point. */
NRT_SHORT_INLINE uint64_t nrt_short_leads(const struct nrt_short_cover *c, int64_t n) {
#define NRT_SHORT_CONT(w) ((w) & ~((w) << 1) & NRT_SHORT_HIGH)
  uint64_t cont = nrt_short_byte_mask(n, NRT_SHORT_CONT(c->w[0]), NRT_SHORT_CONT(c->w[1]),
                                      NRT_SHORT_CONT(c->w[2]), NRT_SHORT_CONT(c->w[3]),
                                      NRT_SHORT_CONT(c->tail));
#undef NRT_SHORT_CONT
  return ~cont & (((uint64_t)1 << n) - 1);
}

/* Byte offset of code point k (0 <= k < n) of a short string whose lead bytes are the n set
 * bits of `leads`: clears bits from the nearer end (one step for s[1:], s[:-1] and the like). */
NRT_SHORT_INLINE int64_t nrt_short_select_lead(uint64_t leads, int64_t n, int64_t k) {
  if (2 * k <= n) {
    for (int64_t j = 0; j < k; j++)
      leads &= leads - 1;
    return __builtin_ctzll(leads);
  }
  for (int64_t j = k + 1; j < n; j++)
    leads ^= (uint64_t)1 << (63 - __builtin_clzll(leads));
  return 63 - __builtin_clzll(leads);
}

/* Byte offset of code point k (0 <= k <= n). */
NRT_SHORT_INLINE int64_t nrt_short_offset(uint64_t leads, int64_t n, int64_t len, int64_t k) {
  if (n == len) /* ASCII */
    return k;
  return k == n ? len : nrt_short_select_lead(leads, n, k);
}

/* Stores the first k bytes (0 <= k <= 8) of the little-endian word w at dst, writing nothing
 * past dst + k: an 8-, 4-, 2- and 1-byte store whose addresses are selected without a branch
 * (the unneeded ones go to a scratch sink). A variable-size memcpy would be a library call. */
NRT_SHORT_INLINE void nrt_short_store_upto8(char *dst, uint64_t w, unsigned k) {
  unsigned char sink[8];
  uintptr_t at = (uintptr_t)dst;
  memcpy(nrt_short_sel_dst(k == 8, at, sink), &w, 8);
  unsigned r = k & 7;
  uint32_t t4 = (uint32_t)w;
  memcpy(nrt_short_sel_dst((r & 4) != 0, at, sink), &t4, 4);
  w >>= 8 * (r & 4);
  at += r & 4;
  uint16_t t2 = (uint16_t)w;
  memcpy(nrt_short_sel_dst((r & 2) != 0, at, sink), &t2, 2);
  w >>= 8 * (r & 2);
  at += r & 2;
  unsigned char t1 = (unsigned char)w;
  memcpy(nrt_short_sel_dst((r & 1) != 0, at, sink), &t1, 1);
}

#endif

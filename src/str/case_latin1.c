/* The Latin-1 fast path of upper, lower and casefold (case_latin1.h): 64 bytes per step with
 * AVX-512BW masked loads and stores, chosen at run time.
 *
 * In a block, every non-ASCII byte must belong to a two-byte character of U+0080..U+00FF
 * (lead byte 0xC2 or 0xC3). Their mappings keep the length and touch only the second byte:
 *   upper: U+00E0..U+00FE but U+00F7 (÷) lose 0x20 (é -> É); ß, ÿ (to Ÿ, U+0178) and µ (to
 *          Greek Μ) map elsewhere, so they stop the fast path;
 *   lower: U+00C0..U+00DE but U+00D7 (×) gain 0x20 (É -> é);
 *   casefold: lower, but ß (to "ss") and µ (to μ) stop the fast path.
 * The masked loads read only the string's bytes (a masked-off lane never faults), so short
 * rows need no padding. A string of at most 64 bytes (most rows) is one block: its own entry
 * point, without the loop or the block-end check, is a third of the cost of the prefix's
 * (measured on word lists). */
#include "str/case_latin1.h"

#if NRT_CASE_LATIN1

#include <immintrin.h>

#define TARGET __attribute__((target("avx512bw,avx512vl,avx512f,bmi2")))

/* Lanes of v whose unsigned byte lies in [lo, hi]. */
TARGET static inline __mmask64 in_range(__m512i v, unsigned char lo, unsigned char hi) {
  __m512i shifted = _mm512_sub_epi8(v, _mm512_set1_epi8((char)lo));
  return _mm512_cmple_epu8_mask(shifted, _mm512_set1_epi8((char)(hi - lo)));
}

TARGET static inline __mmask64 equal(__m512i v, unsigned char b) {
  return _mm512_cmpeq_epi8_mask(v, _mm512_set1_epi8((char)b));
}

/* The lanes of block v (those in keep) that the fast path cannot map, with the letters to
 * change by 0x20 in *flip. */
TARGET static inline __attribute__((always_inline)) __mmask64
block_masks(__m512i v, __mmask64 keep, int op, __mmask64 *flip) {
  /* Letters to change by 0x20: ASCII first. The non-ASCII part is computed for every block,
   * ASCII or not: a branch on it would be mispredicted on text that mixes ASCII and accented
   * rows. */
  __mmask64 f = op == NRT_CASE_LATIN1_UPPER ? in_range(v, 'a', 'z') : in_range(v, 'A', 'Z');
  __mmask64 high = _mm512_movepi8_mask(v) & keep;
  __mmask64 lead2 = equal(v, 0xC2) & keep, lead3 = equal(v, 0xC3) & keep;
  __mmask64 second2 = lead2 << 1, second3 = lead3 << 1;
  __mmask64 special;
  if (op == NRT_CASE_LATIN1_UPPER) {
    special = (second3 & (equal(v, 0x9F) | equal(v, 0xBF))) | (second2 & equal(v, 0xB5));
    f |= second3 & in_range(v, 0xA0, 0xBE) & ~equal(v, 0xB7);
  } else {
    special = op == NRT_CASE_LATIN1_FOLD
                  ? (second3 & equal(v, 0x9F)) | (second2 & equal(v, 0xB5))
                  : 0;
    f |= second3 & in_range(v, 0x80, 0x9E) & ~equal(v, 0x97);
  }
  *flip = f & keep;
  /* A character beyond U+00FF, or one whose mapping is not a byte's change. */
  return special | (high ^ (lead2 | lead3 | second2 | second3));
}

/* Block v with its letters in flip changed by 0x20. */
TARGET static inline __attribute__((always_inline)) __m512i mapped(__m512i v, __mmask64 flip,
                                                                   int op) {
  return op == NRT_CASE_LATIN1_UPPER ? _mm512_mask_sub_epi8(v, flip, v, _mm512_set1_epi8(0x20))
                                     : _mm512_mask_add_epi8(v, flip, v, _mm512_set1_epi8(0x20));
}

/* nrt_case_latin1_prefix for one operation (op a constant). */
TARGET static inline __attribute__((always_inline)) int64_t
latin1_prefix(const char *s, int64_t len, int op, char *out, bool *changed) {
  int64_t i = 0;
  __mmask64 any = 0;
  while (i < len) {
    int64_t n = len - i < 64 ? len - i : 64;
    __mmask64 m = _bzhi_u64(~0ull, (unsigned)n);
    __m512i v = _mm512_maskz_loadu_epi8(m, s + i);
    if ((equal(v, 0xC2) | equal(v, 0xC3)) >> 63) { /* a character across the block's end: */
      n = 63;                                       /* leave it to the next */
      m >>= 1;
    }
    __mmask64 flip;
    if (block_masks(v, m, op, &flip))
      break;
    any |= flip;
    if (out)
      _mm512_mask_storeu_epi8(out + i, m, mapped(v, flip, op));
    i += n;
  }
  *changed = any != 0;
  return i;
}

/* nrt_case_latin1_short for one operation: a single block, which ends a character. */
TARGET static inline __attribute__((always_inline)) int64_t
latin1_short(const char *s, int64_t len, int op, char *out, bool *changed) {
  __mmask64 m = _bzhi_u64(~0ull, (unsigned)len);
  __m512i v = _mm512_maskz_loadu_epi8(m, s);
  __mmask64 flip;
  if (block_masks(v, m, op, &flip))
    return -1;
  if (changed)
    *changed = flip != 0;
  if (out)
    _mm512_mask_storeu_epi8(out, m, mapped(v, flip, op));
  return len;
}

int nrt_case_latin1_cpu;

bool nrt_case_latin1_probe(void) {
  __builtin_cpu_init();
  int state = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("bmi2")
                  ? 2
                  : 1;
  __atomic_store_n(&nrt_case_latin1_cpu, state, __ATOMIC_RELAXED);
  return state == 2;
}

static bool cpu_has_avx512bw(void) {
  int state = __atomic_load_n(&nrt_case_latin1_cpu, __ATOMIC_RELAXED);
  return state ? state == 2 : nrt_case_latin1_probe();
}

/* One instance of each function per operation. */
#define LATIN1_OPS(name, op)                                                                  \
  TARGET static int64_t prefix_##name(const char *s, int64_t len, char *out, bool *changed) { \
    return latin1_prefix(s, len, op, out, changed);                                           \
  }                                                                                           \
  TARGET int64_t nrt_case_latin1_short_##name(const char *s, int64_t len, char *out,          \
                                              bool *changed) {                                \
    return latin1_short(s, len, op, out, changed);                                            \
  }
LATIN1_OPS(lower, NRT_CASE_LATIN1_LOWER)
LATIN1_OPS(upper, NRT_CASE_LATIN1_UPPER)
LATIN1_OPS(fold, NRT_CASE_LATIN1_FOLD)

int64_t nrt_case_latin1_prefix(const char *s, int64_t len, int op, char *out, bool *changed) {
  *changed = false;
  if (len <= 0 || !cpu_has_avx512bw())
    return 0;
  switch (op) {
  case NRT_CASE_LATIN1_UPPER: return prefix_upper(s, len, out, changed);
  case NRT_CASE_LATIN1_LOWER: return prefix_lower(s, len, out, changed);
  default: return prefix_fold(s, len, out, changed);
  }
}

#endif

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
 * rows need no padding. */
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

TARGET static int64_t latin1_prefix(const char *s, int64_t len, int op, char *out,
                                    bool *changed) {
  int64_t i = 0;
  __mmask64 any = 0;
  while (i < len) {
    int64_t n = len - i < 64 ? len - i : 64;
    __mmask64 m = _bzhi_u64(~0ull, (unsigned)n);
    __m512i v = _mm512_maskz_loadu_epi8(m, s + i);
    /* Letters to change by 0x20: ASCII first. */
    __mmask64 flip = op == NRT_CASE_LATIN1_UPPER ? in_range(v, 'a', 'z') : in_range(v, 'A', 'Z');
    /* The non-ASCII part is computed for every block, ASCII or not: a branch on it would be
     * mispredicted on text that mixes ASCII and accented rows. */
    __mmask64 high = _mm512_movepi8_mask(v);
    __mmask64 lead2 = equal(v, 0xC2), lead3 = equal(v, 0xC3);
    if ((lead2 | lead3) >> 63) { /* a character across the block's end: leave it to the next */
      n = 63;
      m >>= 1;
      high &= m;
      lead2 &= m;
      lead3 &= m;
      flip &= m;
    }
    __mmask64 second2 = lead2 << 1, second3 = lead3 << 1;
    __mmask64 special;
    if (op == NRT_CASE_LATIN1_UPPER) {
      special = (second3 & (equal(v, 0x9F) | equal(v, 0xBF))) | (second2 & equal(v, 0xB5));
      flip |= second3 & in_range(v, 0xA0, 0xBE) & ~equal(v, 0xB7);
    } else {
      special = op == NRT_CASE_LATIN1_FOLD
                    ? (second3 & equal(v, 0x9F)) | (second2 & equal(v, 0xB5))
                    : 0;
      flip |= second3 & in_range(v, 0x80, 0x9E) & ~equal(v, 0x97);
    }
    /* A character beyond U+00FF, or one whose mapping is not a byte's change. */
    if (special | (high ^ (lead2 | lead3 | second2 | second3)))
      break;
    any |= flip;
    if (out) {
      __m512i mapped = op == NRT_CASE_LATIN1_UPPER
                           ? _mm512_mask_sub_epi8(v, flip, v, _mm512_set1_epi8(0x20))
                           : _mm512_mask_add_epi8(v, flip, v, _mm512_set1_epi8(0x20));
      _mm512_mask_storeu_epi8(out + i, m, mapped);
    }
    i += n;
  }
  *changed = any != 0;
  return i;
}

static int cpu_state; /* 0 unknown, 1 without AVX-512BW, 2 with: __atomic builtins */

static bool cpu_has_avx512bw(void) {
  int state = __atomic_load_n(&cpu_state, __ATOMIC_RELAXED);
  if (state == 0) {
    __builtin_cpu_init();
    state = __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl") &&
                    __builtin_cpu_supports("bmi2")
                ? 2
                : 1;
    __atomic_store_n(&cpu_state, state, __ATOMIC_RELAXED);
  }
  return state == 2;
}

int64_t nrt_case_latin1_prefix(const char *s, int64_t len, int op, char *out, bool *changed) {
  *changed = false;
  if (len <= 0 || !cpu_has_avx512bw())
    return 0;
  return latin1_prefix(s, len, op, out, changed);
}

#endif

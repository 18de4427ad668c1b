/* float(str) and the decimal digits of doubles (shortest, significant, fixed).
 *
 * Why the C library and not a hand-written big-number algorithm: glibc's strtod is correctly
 * rounded for any input length (it uses exact multi-precision arithmetic), and glibc's printf
 * prints the exact decimal expansion of a double correctly rounded to any precision
 * (round-half-even on the exact value, as David Gay's dtoa that CPython uses). Debian ships no
 * C library for shortest round-trip digits (double-conversion and dragonbox are C++, Ryu is
 * packaged for Rust only), so the shortest digits are computed here, in layers that are
 * each exact (argued where they are defined): integers below 2^53 directly; for v in
 * [1e-8, 1e36) a 15-digit candidate checked with one exact IEEE operation (Clinger), then
 * the 16- and 17-digit roundings computed and checked with 128-bit integers; everything
 * else (subnormals, huge and tiny values) by the shortest precision p whose correctly
 * rounded printf digits read back through strtod. Parsing uses Clinger's fast path for up to
 * 15 digits and |exponent| <= 22, strtod otherwise.
 * Locale: every text handed to strtod is built here without a decimal point ("DDDDe-N"), and
 * printf output is read skipping whatever decimal point the locale prints, so LC_NUMERIC
 * never matters. */
#include "str/convert_internal.h"

#include "nrt/unicode.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* ------------------------------------------------------------------ digits of a double */

/* 10^0 .. 10^22: every one exactly representable as a double. */
static const double pow10_exact[23] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                       1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                       1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/* m * 10^k correctly rounded, when m < 2^53 and |k| <= 22 (Clinger's fast path: both
 * operands are exact doubles, so the one IEEE multiplication or division rounds once). */
static double scale_exact(uint64_t m, int k) {
  return k >= 0 ? (double)m * pow10_exact[k] : (double)m / pow10_exact[-k];
}


/* Reads "%.*e" output: [-]D[.DDD]e[+-]X (any decimal point bytes) into digits and decpt,
 * trailing zeros removed. */
static void read_e_output(const char *buf, struct nrt_conv_digits *out) {
  const char *p = buf;
  int n = 0;
  if (*p == '-')
    p++;
  while (*p && *p != 'e') {
    if (*p >= '0' && *p <= '9' && n < NRT_CONV_MAX_DIGITS)
      out->d[n++] = *p;
    p++;
  }
  int exp10 = *p == 'e' ? atoi(p + 1) : 0;
  while (n > 1 && out->d[n - 1] == '0')
    n--;
  out->n = n;
  out->decpt = exp10 + 1;
  if (n == 1 && out->d[0] == '0')
    out->decpt = 1;
}

/* v (finite, >= 0) correctly rounded to p significant digits (1 <= p). */
static void digits_e(double v, int p, struct nrt_conv_digits *out) {
  char buf[NRT_CONV_MAX_DIGITS + 32];
  snprintf(buf, sizeof buf, "%.*e", p - 1, v);
  read_e_output(buf, out);
}

/* Reads digits d[0..n) * 10^(decpt - n) with strtod (no decimal point: locale-proof). */
static double read_back(const char *d, int n, int decpt) {
  char buf[64];
  memcpy(buf, d, (size_t)n);
  snprintf(buf + n, sizeof buf - (size_t)n, "e%d", decpt - n);
  return strtod(buf, NULL);
}

static bool same_double(double a, double b) {
  return memcmp(&a, &b, sizeof a) == 0;
}

/* The next p-digit decimal above d (d[0..n) padded to p digits, plus one unit in the last
 * place). Written into up; returns its digit count (trailing zeros removed) and decpt. */
static int next_up(const struct nrt_conv_digits *d, int p, struct nrt_conv_digits *up) {
  int n = p;
  for (int i = 0; i < p; i++)
    up->d[i] = i < d->n ? d->d[i] : '0';
  up->decpt = d->decpt;
  int i = p - 1;
  while (i >= 0 && up->d[i] == '9') {
    up->d[i] = '0';
    i--;
  }
  if (i < 0) {
    up->d[0] = '1';
    n = 1;
    up->decpt++;
  } else {
    up->d[i]++;
  }
  while (n > 1 && up->d[n - 1] == '0')
    n--;
  up->n = n;
  return n;
}

/* Does some p-digit decimal read back as v? (the nearest one, or for a power of two, whose
 * rounding interval is twice as wide above as below, the next one up) */
static bool shortest_try(double v, int p, bool pow2, struct nrt_conv_digits *out) {
  digits_e(v, p, out);
  double back = read_back(out->d, out->n, out->decpt);
  if (same_double(back, v))
    return true;
  if (pow2 && back < v) {
    struct nrt_conv_digits up;
    next_up(out, p, &up);
    if (same_double(read_back(up.d, up.n, up.decpt), v)) {
      memcpy(out->d, up.d, (size_t)up.n);
      out->n = up.n;
      out->decpt = up.decpt;
      return true;
    }
  }
  return false;
}

/* The fast path of the 15-digit step below, without printf or strtod: a decimal M * 10^k
 * with M < 10^15 that reads back as v (checked exactly with scale_exact) is the only
 * decimal of at most 15 digits that does (DBL_DIG, see below), hence the shortest once its
 * trailing zeros go. M is found by scaling v to 15 integer digits (inexactly, so its two
 * neighbours are tried too). Covers v in [1e-8, 1e36), where |k| <= 22. Returns 1 when
 * found, 0 when no decimal of 15 digits or fewer reads back as v, -1 when undecided. */
static int shortest_fast15(double v, struct nrt_conv_digits *out) {
  int e = (int)floor(log10(v)); /* decimal exponent, maybe off by one */
  for (int attempt = 0; attempt < 2; attempt++) {
    int k = e - 14; /* v ~ M * 10^k with M of 15 digits */
    if (k < -22 || k > 22)
      return -1;
    double scaled = k >= 0 ? v / pow10_exact[k] : v * pow10_exact[-k];
    if (scaled >= 1e15) {
      e++;
      continue;
    }
    if (scaled < 1e14) {
      e--;
      continue;
    }
    /* The exact v * 10^-k is within 0.11 of scaled. Only when it is surely inside
     * [1e14, 1e15 - 0.5) is k the decade of v's 15-digit rounding; else undecided. */
    if (scaled < 1e14 + 0.5 || scaled >= 1e15 - 0.5)
      return -1;
    uint64_t m0 = (uint64_t)(scaled + 0.5);
    for (uint64_t m = m0 - 1; m <= m0 + 1; m++) {
      if (m == 0 || m >= 1000000000000000ULL || scale_exact(m, k) != v)
        continue;
      char tmp[16];
      int n = 0;
      for (uint64_t r = m; r; r /= 10)
        tmp[n++] = (char)('0' + r % 10);
      out->decpt = n + k;
      for (int i = 0; i < n; i++)
        out->d[i] = tmp[n - 1 - i];
      while (n > 1 && out->d[n - 1] == '0')
        n--;
      out->n = n;
      return 1;
    }
    return 0;
  }
  return -1;
}

/* ---- exact 16- and 17-digit steps with 128-bit integers (no printf, no strtod)
 * v = m * 2^q. For p digits, X = v * 10^s with s = p - 1 - E (E the decimal exponent) is
 * computed exactly as m * 5^s * 2^(q+s) (s >= 0) or m * 2^(q-|s|) / 5^|s| (s < 0) and
 * rounded half-even to the integer M; M * 10^-s reads back as v exactly when it lies in
 * v's rounding interval [(2m-1) 2^(q-1), (2m+1) 2^(q-1)] (lower end (4m-1) 2^(q-2) for a
 * power of two; ends included when m is even, as round-half-even then picks v), which is
 * compared exactly too. 5^27 < 2^63 and m < 2^53 keep every product below 2^127; values
 * that would need more (|s| > 27) take the printf path. */
__extension__ typedef unsigned __int128 u128; /* GCC and Clang, C and C++ */

static u128 pow5(int s) {
  static const uint64_t table[28] = {
      1ULL, 5ULL, 25ULL, 125ULL, 625ULL, 3125ULL, 15625ULL, 78125ULL, 390625ULL, 1953125ULL,
      9765625ULL, 48828125ULL, 244140625ULL, 1220703125ULL, 6103515625ULL, 30517578125ULL,
      152587890625ULL, 762939453125ULL, 3814697265625ULL, 19073486328125ULL,
      95367431640625ULL, 476837158203125ULL, 2384185791015625ULL, 11920928955078125ULL,
      59604644775390625ULL, 298023223876953125ULL, 1490116119384765625ULL,
      7450580596923828125ULL};
  return table[s];
}

static int clz128(u128 x) {
  uint64_t hi = (uint64_t)(x >> 64), lo = (uint64_t)x;
  return hi ? __builtin_clzll(hi) : lo ? 64 + __builtin_clzll(lo) : 128;
}

/* Sign of a * 2^ea - b * 2^eb (a, b < 2^127). */
static int cmp_scaled(u128 a, int ea, u128 b, int eb) {
  if (a == 0 || b == 0)
    return a == b ? 0 : a ? 1 : -1;
  int d = ea - eb;
  if (d > 0) {
    if (d >= clz128(a))
      return 1; /* a * 2^d >= 2^128 > b */
    a <<= d;
  } else if (d < 0) {
    if (-d >= clz128(b))
      return -1;
    b <<= -d;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/* n / 2^k (k >= 0) or n / den rounded half-even. */
static u128 round_shift(u128 n, int k) {
  if (k == 0)
    return n;
  if (k >= 128)
    return 0;
  u128 q = n >> k, r = n - (q << k), half = (u128)1 << (k - 1);
  if (r > half || (r == half && (q & 1)))
    q++;
  return q;
}

static u128 round_div(u128 n, u128 den) {
  u128 q = n / den, r = n % den;
  if (2 * r > den || (2 * r == den && (q & 1)))
    q++;
  return q;
}

/* X = v * 10^s rounded half-even; false when out of the exact range. */
static bool scaled_round(uint64_t m, int q, int s, u128 *out) {
  if (s > 27 || s < -27)
    return false;
  if (s >= 0) {
    u128 n = (u128)m * pow5(s);
    int sh = q + s;
    if (sh >= 0) {
      if (sh >= clz128(n))
        return false;
      *out = n << sh;
    } else {
      *out = round_shift(n, -sh);
    }
    return true;
  }
  u128 den = pow5(-s);
  int sh = q + s; /* q - |s| */
  if (sh >= 0) {
    if (sh >= clz128((u128)m))
      return false;
    *out = round_div((u128)m << sh, den);
  } else {
    if (-sh >= clz128(den))
      return false;
    *out = round_div((u128)m, den << -sh);
  }
  return true;
}

/* Does M * 10^-s read back as v = m * 2^q? */
static bool reads_back(u128 M, int s, uint64_t m, int q, bool pow2) {
  /* Compare in the space multiplied by 10^s (s >= 0) or 10^|s| on M's side (s < 0). */
  u128 lo = pow2 ? 4 * (u128)m - 1 : 2 * (u128)m - 1, hi = 2 * (u128)m + 1;
  int elo = pow2 ? q - 2 : q - 1, ehi = q - 1;
  u128 lhs = M;
  int elhs = 0;
  if (s >= 0) {
    u128 p5 = pow5(s);
    lo *= p5;
    hi *= p5;
    elo += s;
    ehi += s;
  } else {
    lhs = M * pow5(-s);
    elhs = -s;
  }
  bool even = (m & 1) == 0;
  int c_lo = cmp_scaled(lhs, elhs, lo, elo), c_hi = cmp_scaled(lhs, elhs, hi, ehi);
  return (c_lo > 0 || (c_lo == 0 && even)) && (c_hi < 0 || (c_hi == 0 && even));
}

static void digits_of(u128 M, int s, struct nrt_conv_digits *out) {
  char tmp[40];
  int n = 0;
  for (; M; M /= 10)
    tmp[n++] = (char)('0' + (int)(M % 10));
  out->decpt = n - s;
  for (int i = 0; i < n; i++)
    out->d[i] = tmp[n - 1 - i];
  while (n > 1 && out->d[n - 1] == '0')
    n--;
  out->n = n;
}

/* v = m * 2^q (normal or subnormal, v > 0). */
static void decompose(double v, uint64_t *m, int *q) {
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  int biased = (int)(bits >> 52) & 0x7FF;
  *m = bits & 0xFFFFFFFFFFFFFULL;
  if (biased == 0) {
    *q = -1074;
  } else {
    *m |= 1ULL << 52;
    *q = biased - 1075;
  }
}

/* v rounded half-even to p significant digits (1 <= p <= 19) as M * 10^-s with
 * 10^(p-1) <= M < 10^p; false when out of the exact range. */
static bool round_sig(double v, int p, u128 *Mout, int *sout) {
  uint64_t m;
  int q;
  decompose(v, &m, &q);
  u128 lo_p = 1, hi_p;
  for (int i = 1; i < p; i++)
    lo_p *= 10;
  hi_p = lo_p * 10;
  int e = (int)floor(log10(v));
  for (int attempt = 0; attempt < 3; attempt++) {
    int s = p - 1 - e;
    u128 M;
    if (!scaled_round(m, q, s, &M))
      return false;
    if (M > hi_p) {
      e++;
      continue;
    }
    if (M < lo_p) {
      e--;
      continue;
    }
    if (M == hi_p) { /* 10^p at this scale is 10^(p-1) one decade up, in either case */
      M = lo_p;
      s--;
    } else if (M == lo_p) {
      /* Maybe v * 10^s < 10^(p-1) and v's decade is the one below: there the rounding is
       * M2 < 10^p, unless it rounds up to 10^p, which is this M again. */
      u128 M2;
      if (!scaled_round(m, q, s + 1, &M2))
        return false;
      if (M2 < hi_p) {
        M = M2;
        s++;
      }
    }
    *Mout = M;
    *sout = s;
    return true;
  }
  return false;
}

/* The nearest p-digit decimal (p = 16 or 17), or for a power of two the next one up, when
 * it reads back as v: 1 found, 0 none does, -1 out of the exact range. */
static int shortest_exact(double v, int p, bool pow2, struct nrt_conv_digits *out) {
  uint64_t m;
  int q, s;
  u128 M, hi_p = 1;
  decompose(v, &m, &q);
  for (int i = 0; i < p; i++)
    hi_p *= 10;
  if (!round_sig(v, p, &M, &s))
    return -1;
  if (reads_back(M, s, m, q, pow2)) {
    digits_of(M, s, out);
    return 1;
  }
  if (pow2 && M + 1 <= hi_p && reads_back(M + 1, s, m, q, pow2)) {
    digits_of(M + 1, s, out);
    return 1;
  }
  return 0;
}

/* The shortest digits in at most three printf/strtod steps:
 * - 15 digits (DBL_DIG): every decimal of at most 15 significant digits survives
 *   decimal -> double -> 15-digit decimal. So if some decimal of k <= 15 digits reads back as
 *   v, the 15-digit rounding of v is that decimal padded with zeros: when the 15-digit
 *   rounding reads back as v, its digits without trailing zeros are the shortest (and the
 *   only one of that length); when it does not, no decimal of 15 digits or fewer does.
 * - 16 digits: several may read back as v; dtoa's mode 0 takes the one nearest to v, the
 *   correctly rounded one. It reads back whenever any 16-digit decimal does, because the
 *   set of decimals reading back as v is an interval around v, symmetric except for powers
 *   of two, whose interval is twice as wide above v: there the next 16-digit decimal up is
 *   tried as well.
 * - 17 digits (DBL_DECIMAL_DIG): the correctly rounded 17 digits always read back. */
void nrt_conv_digits_shortest(double v, struct nrt_conv_digits *out) {
  if (v < 0)
    v = -v;
  if (v == 0) {
    out->d[0] = '0';
    out->n = 1;
    out->decpt = 1;
    return;
  }
  if (v < 9007199254740992.0 && v == floor(v)) {
    /* An integer below 2^53: its own digits are shortest (every other candidate with fewer
     * significant digits is an integer at distance >= 1 > half an ulp). */
    uint64_t m = (uint64_t)v;
    char tmp[24];
    int n = 0;
    while (m) {
      tmp[n++] = (char)('0' + m % 10);
      m /= 10;
    }
    out->decpt = n;
    for (int i = 0; i < n; i++)
      out->d[i] = tmp[n - 1 - i];
    while (n > 1 && out->d[n - 1] == '0')
      n--;
    out->n = n;
    return;
  }
  uint64_t bits;
  memcpy(&bits, &v, sizeof bits);
  bool pow2 = (bits & 0xFFFFFFFFFFFFFULL) == 0 && (bits >> 52) > 1;
  int fast = v >= 1e-8 && v < 1e36 ? shortest_fast15(v, out) : -1;
  if (fast == 1)
    return;
  if (fast == 0 && (bits >> 52) != 0) {
    /* No decimal of 15 digits or fewer: 16 or 17 digits, exactly, when in range. */
    int r = shortest_exact(v, 16, pow2, out);
    if (r == 0)
      r = shortest_exact(v, 17, false, out);
    if (r == 1)
      return;
  }
  if ((bits >> 52) == 0) {
    /* A subnormal has fewer than 53 bits, so the 15-digit argument does not hold; its
     * interval is symmetric, and "some p-digit decimal reads back" is monotone in p (if a
     * k-digit one does, one of the two p-digit decimals around v does for p >= k, and the
     * nearer one then too): binary search. */
    int lo = 1, hi = 17;
    while (lo < hi) {
      int mid = (lo + hi) / 2;
      struct nrt_conv_digits t;
      if (shortest_try(v, mid, false, &t))
        hi = mid;
      else
        lo = mid + 1;
    }
    shortest_try(v, lo, false, out);
    return;
  }
  if (shortest_try(v, 15, false, out) || shortest_try(v, 16, pow2, out))
    return;
  digits_e(v, 17, out);
}

void nrt_conv_digits_sig(double v, int64_t ndigits, struct nrt_conv_digits *out) {
  if (v < 0)
    v = -v;
  if (ndigits < 1)
    ndigits = 1;
  u128 M;
  int s;
  if (v > 0 && ndigits <= 19 && round_sig(v, (int)ndigits, &M, &s)) {
    digits_of(M, s, out);
    return;
  }
  /* A double's exact decimal expansion has at most 767 significant digits: printing more
   * only adds zeros, which are dropped anyway. */
  if (ndigits > 800)
    ndigits = 800;
  digits_e(v, (int)ndigits, out);
}

void nrt_conv_digits_fixed(double v, int64_t ndigits, struct nrt_conv_digits *out) {
  if (v < 0)
    v = -v;
  if (ndigits <= 27) { /* v * 10^ndigits rounded half-even, exactly */
    uint64_t m;
    int q;
    u128 M;
    decompose(v, &m, &q);
    if (scaled_round(m, q, (int)ndigits, &M)) {
      if (M == 0) { /* zero, or rounded to zero: dtoa's "0" at decpt 1 formats the same */
        out->d[0] = '0';
        out->n = 1;
        out->decpt = 1;
      } else {
        digits_of(M, (int)ndigits, out);
      }
      return;
    }
  }
  /* The exact expansion has at most 1074 digits after the point. */
  if (ndigits > 1080)
    ndigits = 1080;
  char buf[NRT_CONV_MAX_DIGITS + 340];
  snprintf(buf, sizeof buf, "%.*f", (int)ndigits, v);
  /* integer digits, then (after the locale's decimal point) the fraction digits */
  const char *p = buf;
  int n = 0;
  bool leading = true;
  int decpt = 0;
  while (*p >= '0' && *p <= '9') {
    if (!(leading && *p == '0')) {
      leading = false;
      out->d[n++] = *p;
    }
    p++;
  }
  decpt = n; /* integer digits after leading zeros */
  while (*p && !(*p >= '0' && *p <= '9'))
    p++;
  while (*p >= '0' && *p <= '9') {
    if (leading && *p == '0') {
      decpt--;
    } else {
      leading = false;
      if (n < NRT_CONV_MAX_DIGITS)
        out->d[n++] = *p;
    }
    p++;
  }
  while (n > 0 && out->d[n - 1] == '0')
    n--;
  if (n == 0) { /* zero, or rounded to zero: dtoa's "0" at decpt 1 formats the same */
    out->d[0] = '0';
    n = 1;
    decpt = 1;
  }
  out->n = n;
  out->decpt = decpt;
}

/* M * 10^k correctly rounded (half-even) for M < 10^19 and |k| <= 27, with 128-bit integers:
 * M * 5^k (k >= 0) or (M << sh) / 5^-k with its remainder as a sticky bit (k < 0) holds the
 * exact value to at least 64 bits, rounded once to 53. Every result is a normal double. */
static double decimal_exact(uint64_t M, int k) {
  if (M == 0)
    return 0.0;
  u128 n;
  int e2;
  bool sticky = false;
  if (k >= 0) {
    n = (u128)M * pow5(k);
    e2 = k;
  } else {
    int sh = clz128((u128)M) - 1; /* M << sh < 2^127 */
    u128 den = pow5(-k), num = (u128)M << sh;
    n = num / den;
    sticky = num % den != 0;
    e2 = k - sh; /* value = (n + sticky part) * 2^(k - sh): 10^k = 5^k * 2^k */
  }
  int bl = 128 - clz128(n);
  if (bl > 53) {
    int shift = bl - 53;
    u128 mant = n >> shift, rem = n - (mant << shift), half = (u128)1 << (shift - 1);
    if (rem > half || (rem == half && (sticky || (mant & 1))))
      mant++;
    n = mant;
    e2 += shift;
  }
  return ldexp((double)(uint64_t)n, e2);
}

/* ------------------------------------------------------------------ float(str) */

/* The text after CPython's ASCII mapping and underscore removal, read one character at a
 * time without a copy: mapped characters as in int() ('?' ends the text), underscores
 * skipped (their placement is checked separately). */
struct fcursor {
  const char *s;
  int64_t len;
  int64_t pos;
};

static int fmapped(const char *s, int64_t len, int64_t pos, int64_t *next) {
  if (pos >= len) {
    *next = pos;
    return -1;
  }
  unsigned char b = (unsigned char)s[pos];
  if (b < 0x7f) {
    *next = pos + 1;
    return b;
  }
  int k;
  uint32_t cp = nrt_u8_dec(s + pos, &k);
  *next = pos + k;
  if (nrt_str_is_space_cp(cp)) /* U+007F is none */
    return ' ';
  int d = cp == 0x7f ? -1 : nrt_uc_decimal_value(cp);
  return d >= 0 ? '0' + d : '?';
}

static bool is_digit(int ch) {
  return ch >= '0' && ch <= '9';
}

static bool float_is_space(int ch) {
  return ch == ' ' || (ch >= '\t' && ch <= '\r');
}

/* _Py_string_to_number_with_underscores: an underscore only between two digits. */
static bool underscores_ok(const char *s, int64_t len) {
  int prev = 0;
  for (int64_t pos = 0, next; pos < len; pos = next) {
    int ch = fmapped(s, len, pos, &next);
    if (ch == '_') {
      if (!is_digit(prev))
        return false;
    } else if (prev == '_' && !is_digit(ch)) {
      return false;
    }
    if (ch == '?')
      return prev != '_';
    prev = ch;
  }
  return prev != '_';
}

/* Next mapped character other than '_' at or after *pos. */
static int fpeek(const struct fcursor *c, int64_t *next) {
  int64_t pos = c->pos;
  for (;;) {
    int ch = fmapped(c->s, c->len, pos, next);
    if (ch != '_')
      return ch;
    pos = *next;
  }
}

static int fnext(struct fcursor *c) {
  int64_t next;
  int ch = fpeek(c, &next);
  c->pos = next;
  return ch;
}

static int lower(int ch) {
  return ch >= 'A' && ch <= 'Z' ? ch + 32 : ch;
}

/* Matches the word w (lower case) case-insensitively at the cursor; advances on success. */
static bool match_word(struct fcursor *c, const char *w) {
  struct fcursor t = *c;
  for (; *w; w++)
    if (lower(fnext(&t)) != *w)
      return false;
  *c = t;
  return true;
}

static bool at_end_after_space(struct fcursor *c) {
  int64_t next;
  while (float_is_space(fpeek(c, &next)))
    c->pos = next;
  return fpeek(c, &next) == -1;
}

/* Up to this many significant digits are kept; beyond them only "is anything nonzero"
 * matters (a sticky digit), since every rounding boundary between doubles has fewer than
 * 800 significant digits. */
#define KEEP_DIGITS 800

static int float_error(const char *s, int64_t len, struct nrt_error *err) {
  return nrt_conv_error_repr(err, NRT_EVALUE, "could not convert string to float: ", s, len,
                             -1);
}

/* The common case without the general machinery: ASCII only, [ws][sign]digits[.digits]
 * [e[sign]digits][ws] with at most 19 significant digits and a small exponent, converted
 * exactly. Anything else (underscores, non-ASCII, inf/nan, errors, long or extreme
 * numbers) returns false and takes the general path, which is the reference. */
static bool fast_ascii_float(const char *s, int64_t len, double *out) {
  int64_t i = 0;
  while (i < len && float_is_space((unsigned char)s[i]))
    i++;
  bool negative = false;
  if (i < len && (s[i] == '+' || s[i] == '-'))
    negative = s[i++] == '-';
  uint64_t m = 0;
  int sig = 0, any = 0, adj = 0;
  bool point = false;
  for (; i < len; i++) {
    char c = s[i];
    if (c >= '0' && c <= '9') {
      any = 1;
      if (sig == 0 && c == '0') {
        adj -= point;
        continue;
      }
      if (sig == 19)
        return false;
      m = m * 10 + (uint64_t)(c - '0');
      sig++;
      adj -= point;
    } else if (c == '.' && !point) {
      point = true;
    } else {
      break;
    }
  }
  if (!any)
    return false;
  int exp10 = 0;
  if (i < len && (s[i] == 'e' || s[i] == 'E')) {
    i++;
    bool eneg = false;
    if (i < len && (s[i] == '+' || s[i] == '-'))
      eneg = s[i++] == '-';
    int64_t e0 = i;
    while (i < len && s[i] >= '0' && s[i] <= '9' && i - e0 < 4)
      exp10 = exp10 * 10 + (s[i++] - '0');
    if (i == e0)
      return false;
    if (eneg)
      exp10 = -exp10;
  }
  while (i < len && float_is_space((unsigned char)s[i]))
    i++;
  int k = exp10 + adj;
  if (i != len || k < -27 || k > 27)
    return false;
  double r = m == 0 ? 0.0 : sig <= 15 && k >= -22 && k <= 22 ? scale_exact(m, k) : decimal_exact(m, k);
  *out = negative ? -r : r;
  return true;
}

int nrt_str_to_double(const char *s, int64_t len, double *out, struct nrt_error *err) {
  if (len < 0)
    return nrt_error_set(err, NRT_EINVAL, "float(): negative length");
  if (!s)
    s = "";
  if (fast_ascii_float(s, len, out))
    return NRT_OK;
  if (memchr(s, '_', (size_t)len) && !underscores_ok(s, len))
    return float_error(s, len, err);
  struct fcursor c = {s, len, 0};
  int64_t next;
  while (float_is_space(fpeek(&c, &next)))
    c.pos = next;
  bool negative = false;
  int ch = fpeek(&c, &next);
  if (ch == '+' || ch == '-') {
    negative = ch == '-';
    c.pos = next;
  }
  ch = fpeek(&c, &next);
  if (lower(ch) == 'i' || lower(ch) == 'n') {
    double r;
    if (match_word(&c, "inf")) {
      match_word(&c, "inity");
      r = INFINITY;
    } else if (match_word(&c, "nan")) {
      r = NAN;
    } else {
      return float_error(s, len, err);
    }
    if (!at_end_after_space(&c))
      return float_error(s, len, err);
    *out = negative ? -r : r;
    return NRT_OK;
  }

  /* [digits][.digits][(e|E)[sign]digits], at least one mantissa digit. The value is
   * D * 10^(exp10 + adj) with D the kept significant digits. */
  char buf[KEEP_DIGITS + 48];
  int kept = 0;
  bool sticky = false, any_digit = false, seen_point = false;
  int64_t adj = 0;
  for (;;) {
    ch = fpeek(&c, &next);
    if (is_digit(ch)) {
      any_digit = true;
      if (ch == '0' && kept == 0) { /* leading zero */
        if (seen_point)
          adj--;
      } else if (kept < KEEP_DIGITS) {
        buf[kept++] = (char)ch;
        if (seen_point)
          adj--;
      } else { /* dropped digit */
        sticky |= ch != '0';
        if (!seen_point)
          adj++;
      }
      c.pos = next;
    } else if (ch == '.' && !seen_point) {
      seen_point = true;
      c.pos = next;
    } else {
      break;
    }
  }
  if (!any_digit)
    return float_error(s, len, err);
  /* Exponent: optional; "1e" or "1e+" leave the 'e' unread, which then fails the end test. */
  int64_t exp10 = 0;
  ch = fpeek(&c, &next);
  if (ch == 'e' || ch == 'E') {
    struct fcursor t = c;
    t.pos = next;
    bool eneg = false;
    int sc = fpeek(&t, &next);
    if (sc == '+' || sc == '-') {
      eneg = sc == '-';
      t.pos = next;
    }
    if (is_digit(fpeek(&t, &next))) {
      while (is_digit(ch = fpeek(&t, &next))) {
        if (exp10 < 1000000000000LL)
          exp10 = exp10 * 10 + (ch - '0');
        t.pos = next;
      }
      if (eneg)
        exp10 = -exp10;
      c = t;
    }
  }
  if (!at_end_after_space(&c))
    return float_error(s, len, err);
  if (kept == 0) {
    *out = negative ? -0.0 : 0.0;
    return NRT_OK;
  }
  if (!sticky && kept <= 19 && exp10 + adj >= -27 && exp10 + adj <= 27) {
    uint64_t m = 0; /* < 10^19 < 2^64 */
    for (int i = 0; i < kept; i++)
      m = m * 10 + (uint64_t)(buf[i] - '0');
    int k = (int)(exp10 + adj);
    double r = kept <= 15 && k >= -22 && k <= 22 ? scale_exact(m, k) : decimal_exact(m, k);
    *out = negative ? -r : r;
    return NRT_OK;
  }
  if (sticky) {
    buf[kept++] = '1';
    adj--;
  }
  snprintf(buf + kept, sizeof buf - (size_t)kept, "e%lld", (long long)(exp10 + adj));
  double r = strtod(buf, NULL); /* correctly rounded; ERANGE gives inf or 0/subnormal */
  *out = negative ? -r : r;
  return NRT_OK;
}

/* ------------------------------------------------------------------ repr(float) */

int64_t nrt_str_from_double_size(double v) {
  struct nrt_cw w = {NULL, 0};
  struct nrt_conv_float_flags flags = {true, false, false, false, false};
  nrt_conv_double_to_string(&w, v, 'r', 0, &flags);
  return w.n;
}

int64_t nrt_str_from_double_into(double v, char *out) {
  struct nrt_cw w = {out, 0};
  struct nrt_conv_float_flags flags = {true, false, false, false, false};
  nrt_conv_double_to_string(&w, v, 'r', 0, &flags);
  return w.n;
}

int nrt_str_from_double(double v, nrt_str *out, struct nrt_error *err) {
  char tmp[NRT_STR_DOUBLE_MAX_BYTES];
  int64_t n = nrt_str_from_double_into(v, tmp);
  return nrt_str_new(tmp, n, out, err);
}

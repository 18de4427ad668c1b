/* Unicode normalization (UAX #15) over the generated tables: NFD/NFKD by recursive
 * decomposition and canonical ordering, NFC/NFKC by canonical composition of that; Hangul
 * syllables are decomposed and composed algorithmically. */
#include <string.h>

#include "nrt/ucd.h"
#include "nrt/unicode.h"
#include "unicode/ucd_lookup.h"

NRT_API int nrt_uc_form_of(const char *s, size_t len) {
  static const char *const names[] = {"NFC", "NFD", "NFKC", "NFKD"};
  for (int i = 0; i < 4; i++)
    if (strlen(names[i]) == len && memcmp(names[i], s, len) == 0) return i;
  return -1;
}

NRT_API bool nrt_uc_quick_check(enum nrt_uc_form form, const char *s, size_t len) {
  static const unsigned not_yes[] = {
      NRT_UCD_F_NFC_QC_NO | NRT_UCD_F_NFC_QC_MAYBE, NRT_UCD_F_NFD_QC_NO,
      NRT_UCD_F_NFKC_QC_NO | NRT_UCD_F_NFKC_QC_MAYBE, NRT_UCD_F_NFKD_QC_NO};
  unsigned mask = not_yes[form], last = 0;
  size_t i = 0;
  while (i < len) {
    if ((unsigned char)s[i] < 0x80) { /* ASCII: Yes in every form, class 0 */
      last = 0;
      i++;
      continue;
    }
    size_t used;
    uint32_t cp = nrt_utf8_decode(s + i, len - i, &used);
    i += used;
    const struct nrt_ucd_record *r = nrt_ucd_record_of(cp);
    if ((r->flags & mask) || (r->combining && last > r->combining)) return false;
    last = r->combining;
  }
  return true;
}

/* Appends the full decomposition of cp to out (counting past cap without writing). */
static void decompose(uint32_t cp, bool compat, uint32_t *out, size_t cap, size_t *k) {
  if (nrt_ucd_is_hangul(cp)) {
    uint32_t s = cp - NRT_UCD_SBASE, t = s % NRT_UCD_TCOUNT;
    uint32_t parts[3] = {NRT_UCD_LBASE + s / NRT_UCD_NCOUNT,
                         NRT_UCD_VBASE + (s % NRT_UCD_NCOUNT) / NRT_UCD_TCOUNT,
                         NRT_UCD_TBASE + t};
    for (int i = 0; i < (t ? 3 : 2); i++, (*k)++)
      if (*k < cap) out[*k] = parts[i];
    return;
  }
  const uint32_t *d = nrt_ucd_decomp_of(cp);
  if (!d || ((d[0] >> 8) != 0 && !compat)) {
    if (*k < cap) out[*k] = cp;
    (*k)++;
    return;
  }
  for (uint32_t i = 0; i < (d[0] & 0xFF); i++) decompose(d[1 + i], compat, out, cap, k);
}

/* Canonical ordering: a stable sort of each run of non-starters by combining class. */
static void reorder(uint32_t *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    unsigned cc = nrt_ucd_record_of(v[i])->combining;
    if (cc == 0) continue;
    size_t j = i;
    uint32_t x = v[i];
    while (j > 0) {
      unsigned prev = nrt_ucd_record_of(v[j - 1])->combining;
      if (prev <= cc) break;
      v[j] = v[j - 1];
      j--;
    }
    v[j] = x;
  }
}

/* The primary composite of a + b, or 0. */
static uint32_t compose_pair(uint32_t a, uint32_t b) {
  if (a >= NRT_UCD_LBASE && a < NRT_UCD_LBASE + NRT_UCD_LCOUNT && b >= NRT_UCD_VBASE &&
      b < NRT_UCD_VBASE + NRT_UCD_VCOUNT)
    return NRT_UCD_SBASE +
           ((a - NRT_UCD_LBASE) * NRT_UCD_VCOUNT + (b - NRT_UCD_VBASE)) * NRT_UCD_TCOUNT;
  if (nrt_ucd_is_hangul(a) && (a - NRT_UCD_SBASE) % NRT_UCD_TCOUNT == 0 &&
      b > NRT_UCD_TBASE && b < NRT_UCD_TBASE + NRT_UCD_TCOUNT)
    return a + (b - NRT_UCD_TBASE);
  size_t lo = 0, hi = NRT_UCD_COMPOSITION_COUNT;
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    const uint32_t *p = nrt_ucd_compositions[mid];
    if (p[0] < a || (p[0] == a && p[1] < b)) lo = mid + 1;
    else hi = mid;
  }
  if (lo < NRT_UCD_COMPOSITION_COUNT && nrt_ucd_compositions[lo][0] == a &&
      nrt_ucd_compositions[lo][1] == b)
    return nrt_ucd_compositions[lo][2];
  return 0;
}

/* Canonical composition in place; returns the new length. */
static size_t compose(uint32_t *v, size_t n) {
  if (n == 0) return 0;
  size_t starter = 0, w = 1;
  unsigned last = nrt_ucd_record_of(v[0])->combining;
  if (last != 0) last = 256; /* a leading mark blocks everything after it */
  for (size_t i = 1; i < n; i++) {
    uint32_t ch = v[i];
    unsigned cc = nrt_ucd_record_of(ch)->combining;
    uint32_t comp = compose_pair(v[starter], ch);
    if (comp && (last < cc || last == 0)) {
      v[starter] = comp;
      continue;
    }
    if (cc == 0) starter = w;
    last = cc;
    v[w++] = ch;
  }
  return w;
}

NRT_API size_t nrt_uc_normalize(enum nrt_uc_form form, const uint32_t *in, size_t n,
                                uint32_t *out, size_t cap) {
  bool compat = form == NRT_UC_NFKC || form == NRT_UC_NFKD;
  size_t k = 0;
  for (size_t i = 0; i < n; i++) decompose(in[i], compat, out, cap, &k);
  if (k > cap) return k;
  reorder(out, k);
  if (form == NRT_UC_NFC || form == NRT_UC_NFKC) k = compose(out, k);
  return k;
}

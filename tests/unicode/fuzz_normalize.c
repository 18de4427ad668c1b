/* libFuzzer harness: the laws of normalization (UAX #15) on code point sequences drawn from
 * the ranges where decomposition and composition happen (Latin, Greek, combining marks,
 * Hangul jamo and syllables, compatibility characters): every form is idempotent,
 * NFC(NFD(x)) == NFC(x), NFD(NFC(x)) == NFD(x), NFKC(NFKD(x)) == NFKC(x), and text the quick
 * check passes is unchanged. */
#include <stdlib.h>
#include <string.h>

#include "nrt/ucd.h"
#include "nrt/unicode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAXN 64
#define CAP (MAXN * NRT_UC_MAX_EXPANSION * NRT_UC_MAX_EXPANSION)

static const uint32_t bases[16] = {0x0041, 0x00C0, 0x0300, 0x0390, 0x1100, 0x1161, 0x11A8,
                                   0xAC00, 0xD700, 0x1E00, 0x1F00, 0x2100, 0x3300, 0xFB00,
                                   0x1D15E, 0x0F70};

static size_t norm(enum nrt_uc_form f, const uint32_t *in, size_t n, uint32_t *out) {
  size_t k = nrt_uc_normalize(f, in, n, out, CAP);
  if (k > CAP) abort();
  return k;
}

static void same(const uint32_t *a, size_t na, const uint32_t *b, size_t nb) {
  if (na != nb || memcmp(a, b, na * sizeof a[0]) != 0) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static uint32_t x[MAXN], y[CAP], z[CAP], w[CAP];
  size_t n = 0;
  for (size_t i = 0; i + 1 < size && n < MAXN; i += 2)
    x[n++] = bases[data[i] & 15] + (uint32_t)(data[i + 1] & ((data[i] & 16) ? 0xFF : 0x3F));
  static const enum nrt_uc_form forms[4] = {NRT_UC_NFC, NRT_UC_NFD, NRT_UC_NFKC, NRT_UC_NFKD};
  char utf8[MAXN * 4];
  size_t len = 0;
  for (size_t i = 0; i < n; i++) len += nrt_utf8_encode(x[i], utf8 + len);
  for (int f = 0; f < 4; f++) {
    size_t ny = norm(forms[f], x, n, y);
    size_t nz = norm(forms[f], y, ny, z);
    same(y, ny, z, nz);
    if (nrt_uc_quick_check(forms[f], utf8, len)) same(x, n, y, ny);
  }
  size_t nd = norm(NRT_UC_NFD, x, n, y), nc = norm(NRT_UC_NFC, x, n, z);
  same(z, nc, w, norm(NRT_UC_NFC, y, nd, w)); /* NFC(NFD(x)) == NFC(x) */
  same(y, nd, w, norm(NRT_UC_NFD, z, nc, w)); /* NFD(NFC(x)) == NFD(x) */
  size_t nkd = norm(NRT_UC_NFKD, x, n, y), nkc = norm(NRT_UC_NFKC, x, n, z);
  same(z, nkc, w, norm(NRT_UC_NFKC, y, nkd, w)); /* NFKC(NFKD(x)) == NFKC(x) */
  return 0;
}

/* libFuzzer harness: nrt_utf8_validate against a deliberately simple reference decoder
 * (decode the code point bit by bit, then reject overlongs, surrogates and values above
 * U+10FFFF), plus count / decode / decode_last / offset / encode on the valid prefix. */
#include <stdlib.h>
#include <string.h>

#include "nrt/unicode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Length of the valid sequence at p, or 0 when it is invalid (reference version). */
static size_t reference_sequence(const uint8_t *p, size_t n, uint32_t *cp) {
  size_t need;
  uint32_t v;
  if (p[0] < 0x80) {
    *cp = p[0];
    return 1;
  } else if ((p[0] & 0xE0) == 0xC0) {
    need = 2;
    v = p[0] & 0x1F;
  } else if ((p[0] & 0xF0) == 0xE0) {
    need = 3;
    v = p[0] & 0x0F;
  } else if ((p[0] & 0xF8) == 0xF0) {
    need = 4;
    v = p[0] & 0x07;
  } else {
    return 0;
  }
  if (n < need)
    return 0;
  for (size_t i = 1; i < need; i++) {
    if ((p[i] & 0xC0) != 0x80)
      return 0;
    v = (v << 6) | (p[i] & 0x3F);
  }
  static const uint32_t min_for_length[5] = {0, 0, 0x80, 0x800, 0x10000};
  if (v < min_for_length[need] || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF))
    return 0;
  *cp = v;
  return need;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *s = (const char *)data;
  /* reference: offset of the first invalid sequence, and the code points before it */
  uint32_t *cps = malloc((size + 1) * sizeof *cps);
  size_t *starts = malloc((size + 1) * sizeof *starts);
  size_t i = 0, n = 0;
  while (i < size) {
    uint32_t cp;
    size_t len = reference_sequence(data + i, size - i, &cp);
    if (len == 0)
      break;
    starts[n] = i;
    cps[n++] = cp;
    i += len;
  }
  size_t at = (size_t)-1;
  int rc = nrt_utf8_validate(s, size, &at, NULL);
  if ((rc == NRT_OK) != (i == size))
    abort();
  if (rc != NRT_OK && (rc != NRT_EILSEQ || at != i))
    abort();
  /* the valid prefix */
  size_t valid = i;
  if (nrt_utf8_validate(s, valid, NULL, NULL) != NRT_OK || nrt_utf8_count(s, valid) != n)
    abort();
  for (size_t k = 0; k < n; k++) {
    size_t used, used_last;
    size_t end = k + 1 < n ? starts[k + 1] : valid;
    if (nrt_utf8_decode(s + starts[k], valid - starts[k], &used) != cps[k] ||
        used != end - starts[k])
      abort();
    if (nrt_utf8_decode_last(s, end, &used_last) != cps[k] || used_last != used)
      abort();
    if (nrt_utf8_offset(s, valid, k) != starts[k])
      abort();
    char enc[4];
    if (nrt_utf8_encode(cps[k], enc) != used || memcmp(enc, s + starts[k], used) != 0)
      abort();
  }
  if (nrt_utf8_offset(s, valid, n) != valid)
    abort();
  free(cps);
  free(starts);
  return 0;
}

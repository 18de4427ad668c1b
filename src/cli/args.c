/* Numeric options of the nrt command, parsed strictly. */
#include <stdint.h>

#include "cli.h"

bool cli_parse_int(const char *text, int64_t min, int64_t max, bool suffixes, int64_t *out) {
  const char *p = text;
  if (!p || *p < '0' || *p > '9') /* no sign, no blank, not empty */
    return false;
  uint64_t v = 0;
  for (; *p >= '0' && *p <= '9'; p++) {
    unsigned d = (unsigned)(*p - '0');
    if (v > (UINT64_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  if (suffixes && *p) {
    unsigned shift = *p == 'K' ? 10 : *p == 'M' ? 20 : *p == 'G' ? 30 : 0;
    if (!shift)
      return false;
    p++;
    if (v > UINT64_MAX >> shift)
      return false;
    v <<= shift;
  }
  if (*p || v > (uint64_t)INT64_MAX || (int64_t)v < min || (int64_t)v > max)
    return false;
  *out = (int64_t)v;
  return true;
}

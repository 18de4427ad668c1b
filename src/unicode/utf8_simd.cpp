// Whole-buffer UTF-8 validation with SIMD, through simdjson (Debian's libsimdjson-dev): its
// validator (Keiser and Lemire's lookup algorithm, picked at run time for the CPU: SSE4.2,
// AVX2 or AVX-512) checks a column's bytes at several bytes per cycle, where a scalar walk
// takes several cycles per non-ASCII character. It only answers valid or not;
// nrt_utf8_validate walks an invalid buffer again to name the first bad byte.
#include <simdjson.h>

#include "unicode/utf8_simd.h"

extern "C" bool nrt_utf8_valid_simd(const char *s, size_t len) noexcept {
  return simdjson::validate_utf8(s, len);
}

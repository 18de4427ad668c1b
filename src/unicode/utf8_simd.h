/* SIMD validation of UTF-8 (utf8_simd.cpp, through simdjson). Internal. */
#ifndef NRT_UNICODE_UTF8_SIMD_H
#define NRT_UNICODE_UTF8_SIMD_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* True when s[0..len) is valid UTF-8 by the rules of nrt_utf8_validate (Python's strict
 * decoder: no overlong forms, surrogates or code points above U+10FFFF). */
bool nrt_utf8_valid_simd(const char *s, size_t len)
#ifdef __cplusplus
    noexcept
#endif
    ;

#ifdef __cplusplus
}
#endif

#endif

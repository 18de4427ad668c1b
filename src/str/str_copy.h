/* Internal: copying a string header (nrt_str) that compiled code wrote.
 *
 * Compiled UDF code stores a header's fields with one 8-byte store each. A struct copy
 * (`*out = *s`) compiles to one 16-byte load of mi and data, which the processor cannot
 * forward from two 8-byte stores still in flight: it waits for them to reach the cache, about
 * a dozen cycles, on every call that hands back its argument (replace() replacing nothing,
 * strip() of a string without spaces). Field loads are forwarded at once. */
#ifndef NRT_STR_COPY_H
#define NRT_STR_COPY_H

#include "nrt/str.h"

/* *out = *s with three 8-byte loads; the empty asm keeps the compiler from merging the
 * first two into one vector load. */
static inline void nrt_str_copy(nrt_str *out, const nrt_str *s) {
  nrt_meminfo *mi = s->mi;
  const char *data = s->data;
  int64_t len = s->len;
#if defined(__GNUC__)
  __asm__("" : "+r"(mi), "+r"(data));
#endif
  out->mi = mi;
  out->data = data;
  out->len = len;
}

#endif

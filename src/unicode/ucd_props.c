/* unicodedata's per-character properties over the generated tables (gen_ucd_props.py). */
#include <stdio.h>
#include <string.h>

#include "nrt/ucd.h"
#include "unicode/ucd_lookup.h"

NRT_API unsigned nrt_uc_combining(uint32_t cp) {
  return nrt_ucd_record_of(cp)->combining;
}

NRT_API const char *nrt_uc_bidirectional(uint32_t cp) {
  return nrt_ucd_bidi_names[nrt_ucd_record_of(cp)->bidi];
}

NRT_API const char *nrt_uc_east_asian_width(uint32_t cp) {
  return nrt_ucd_width_names[nrt_ucd_record_of(cp)->width];
}

NRT_API bool nrt_uc_mirrored(uint32_t cp) {
  return (nrt_ucd_record_of(cp)->flags & NRT_UCD_F_MIRRORED) != 0;
}

NRT_API size_t nrt_uc_decomposition(uint32_t cp, char out[NRT_UC_DECOMPOSITION_MAX]) {
  const uint32_t *d = nrt_ucd_decomp_of(cp);
  size_t n = 0;
  out[0] = '\0';
  if (!d) return 0;
  const char *tag = nrt_ucd_decomp_tags[d[0] >> 8];
  size_t len = d[0] & 0xFF;
  if (*tag) n = (size_t)snprintf(out, NRT_UC_DECOMPOSITION_MAX, "%s", tag);
  for (size_t i = 0; i < len && n < NRT_UC_DECOMPOSITION_MAX; i++)
    n += (size_t)snprintf(out + n, NRT_UC_DECOMPOSITION_MAX - n, "%s%04X", n ? " " : "",
                          (unsigned)d[1 + i]);
  return n < NRT_UC_DECOMPOSITION_MAX ? n : NRT_UC_DECOMPOSITION_MAX - 1;
}

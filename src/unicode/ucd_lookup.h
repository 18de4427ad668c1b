/* Internal: inline access to the generated unicodedata tables (ucd_tables.h). */
#ifndef NRT_UNICODE_UCD_LOOKUP_H
#define NRT_UNICODE_UCD_LOOKUP_H

#include <stdint.h>

#include "unicode/ucd_tables.h"

/* Hangul syllables (UAX #15, "Hangul"): S = SBASE + (L * VCOUNT + V) * TCOUNT + T. */
enum {
  NRT_UCD_SBASE = 0xAC00, NRT_UCD_LBASE = 0x1100, NRT_UCD_VBASE = 0x1161,
  NRT_UCD_TBASE = 0x11A7, NRT_UCD_LCOUNT = 19, NRT_UCD_VCOUNT = 21, NRT_UCD_TCOUNT = 28,
  NRT_UCD_NCOUNT = 21 * 28, NRT_UCD_SCOUNT = 19 * 21 * 28
};

static inline const struct nrt_ucd_record *nrt_ucd_record_of(uint32_t cp) {
  if (cp >= 0x110000u) return &nrt_ucd_records[0];
  uint32_t block = nrt_ucd_stage1[cp >> NRT_UCD_SHIFT];
  return &nrt_ucd_records[nrt_ucd_stage2[(block << NRT_UCD_SHIFT) | (cp & NRT_UCD_MASK)]];
}

/* cp's decomposition: (tag << 8) | length followed by the code points, or NULL for none. */
static inline const uint32_t *nrt_ucd_decomp_of(uint32_t cp) {
  if (cp >= 0x110000u) return 0;
  uint32_t block = nrt_ucd_decomp_stage1[cp >> NRT_UCD_DECOMP_SHIFT];
  uint32_t off =
      nrt_ucd_decomp_stage2[(block << NRT_UCD_DECOMP_SHIFT) | (cp & NRT_UCD_DECOMP_MASK)];
  return off ? &nrt_ucd_decomp[off] : 0;
}

static inline int nrt_ucd_is_hangul(uint32_t cp) {
  return cp >= NRT_UCD_SBASE && cp < NRT_UCD_SBASE + NRT_UCD_SCOUNT;
}

#endif /* NRT_UNICODE_UCD_LOOKUP_H */

/* Internal: inline access to the generated Unicode tables, for the unicode and str layers.
 * Compiles as C and as C++ (the kernels built on it are reused by a CUDA build). */
#ifndef NRT_UNICODE_UC_LOOKUP_H
#define NRT_UNICODE_UC_LOOKUP_H

#include <stddef.h>
#include <stdint.h>

#include "unicode/unicode_tables.h"

/* Encodes cp (a scalar value <= U+10FFFF) at out (room for 4 bytes); returns the byte count.
 * The one UTF-8 encoder of nrt: nrt_utf8_encode and the str kernels inline it. */
static inline int nrt_uc_encode_utf8(uint32_t cp, char *out) {
  if (cp < 0x80) {
    out[0] = (char)cp;
    return 1;
  }
  if (cp < 0x800) {
    out[0] = (char)(0xC0 | (cp >> 6));
    out[1] = (char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if (cp < 0x10000) {
    out[0] = (char)(0xE0 | (cp >> 12));
    out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[2] = (char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (char)(0xF0 | (cp >> 18));
  out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
  out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
  out[3] = (char)(0x80 | (cp & 0x3F));
  return 4;
}

/* The property record of cp; code points above U+10FFFF get record 0 (unassigned). */
static inline const struct nrt_uc_record *nrt_uc_record_of(uint32_t cp) {
  if (cp >= 0x110000u)
    return &nrt_uc_records[0];
  uint32_t block = nrt_uc_stage1[cp >> NRT_UC_SHIFT];
  return &nrt_uc_records[nrt_uc_stage2[(block << NRT_UC_SHIFT) | (cp & NRT_UC_MASK)]];
}

/* Property flags (NRT_UC_F_*) of cp. */
static inline unsigned nrt_uc_flags_of(uint32_t cp) {
  return nrt_uc_record_of(cp)->flags;
}

/* Case mapping `kind` (NRT_UC_CASE_*) of cp given its record: writes 1..3 code points. */
static inline size_t nrt_uc_case_of(const struct nrt_uc_record *r, uint32_t cp, int kind,
                                    uint32_t out[3]) {
  int32_t v = r->cases[kind];
  if (!(r->ext & (1u << kind))) {
    out[0] = (uint32_t)((int32_t)cp + v);
    return 1;
  }
  size_t n = (size_t)((uint32_t)v >> 24);
  const uint32_t *seq = &nrt_uc_case_extended[(uint32_t)v & 0xFFFFFFu];
  for (size_t i = 0; i < n; i++)
    out[i] = seq[i];
  return n;
}

/* The same without copying: returns the count and points *seq at the code points (at *single
 * for a one-code-point mapping). */
static inline size_t nrt_uc_case_seq(const struct nrt_uc_record *r, uint32_t cp, int kind,
                                     uint32_t *single, const uint32_t **seq) {
  int32_t v = r->cases[kind];
  if (!(r->ext & (1u << kind))) {
    *single = (uint32_t)((int32_t)cp + v);
    *seq = single;
    return 1;
  }
  *seq = &nrt_uc_case_extended[(uint32_t)v & 0xFFFFFFu];
  return (size_t)((uint32_t)v >> 24);
}

#endif /* NRT_UNICODE_UC_LOOKUP_H */

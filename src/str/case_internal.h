/* Internal: the case operations without their direct tables, for the test that checks the
 * tables against the full mapping (tests/str/test_case_tables.c), and what case.c shares
 * with the rest of the str layer. */
#ifndef NRT_STR_CASE_INTERNAL_H
#define NRT_STR_CASE_INTERNAL_H

#include <stdint.h>

/* Operations of nrt_str_case_reference, in case.c's mode order. */
enum nrt_case_ref_op {
  NRT_CASE_REF_LOWER, NRT_CASE_REF_UPPER, NRT_CASE_REF_CASEFOLD, NRT_CASE_REF_SWAPCASE,
  NRT_CASE_REF_TITLE, NRT_CASE_REF_CAPITALIZE
};

#ifdef __cplusplus
extern "C" {
#endif

/* op(s) written at out (room for NRT_STR_CASE_MAX_GROWTH * len bytes) by the full mapping,
 * without the direct tables; returns the bytes written. */
int64_t nrt_str_case_reference(int op, const char *s, int64_t len, char *out);

/* Every ASCII character followed by a NUL (str_core.c): the one-character results. */
extern __attribute__((visibility("hidden"))) const char nrt_str_ascii_table[256];

#ifdef __cplusplus
}
#endif

#endif

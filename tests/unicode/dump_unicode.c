/* Prints every property and case mapping of every assigned code point, one line each, for
 * oracle_unicode.py to compare with CPython:
 *   HEX CATEGORY FLAGS DECIMAL DIGIT NUMERIC LOWER UPPER TITLE FOLD
 * FLAGS is a 0/1 string (alpha decimal digit numeric alnum space linebreak lowercase uppercase
 * titlecase cased case_ignorable xid_start xid_continue printable); NUMERIC is %.17g or "-";
 * each mapping is dot-separated hex code points. */
#include <stdio.h>

#include "nrt/unicode.h"

static void print_mapping(size_t (*map)(uint32_t, uint32_t[3]), uint32_t cp) {
  uint32_t out[3];
  size_t n = map(cp, out);
  for (size_t i = 0; i < n; i++)
    printf(i ? ".%X" : " %X", (unsigned)out[i]);
}

int main(void) {
  static bool (*const preds[])(uint32_t) = {
      nrt_uc_is_alpha,     nrt_uc_is_decimal,   nrt_uc_is_digit,          nrt_uc_is_numeric,
      nrt_uc_is_alnum,     nrt_uc_is_space,     nrt_uc_is_linebreak,      nrt_uc_is_lowercase,
      nrt_uc_is_uppercase, nrt_uc_is_titlecase, nrt_uc_is_cased,          nrt_uc_is_case_ignorable,
      nrt_uc_is_xid_start, nrt_uc_is_xid_continue, nrt_uc_is_printable};
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    enum nrt_uc_category cat = nrt_uc_category(cp);
    if (cat == NRT_UC_Cn)
      continue;
    char flags[sizeof preds / sizeof preds[0] + 1];
    for (size_t i = 0; i < sizeof preds / sizeof preds[0]; i++)
      flags[i] = preds[i](cp) ? '1' : '0';
    flags[sizeof preds / sizeof preds[0]] = 0;
    printf("%X %s %s %d %d", (unsigned)cp, nrt_uc_category_name(cat), flags,
           nrt_uc_decimal_value(cp), nrt_uc_digit_value(cp));
    double v;
    if (nrt_uc_numeric_value(cp, &v))
      printf(" %.17g", v);
    else
      printf(" -");
    print_mapping(nrt_uc_lower_full, cp);
    print_mapping(nrt_uc_upper_full, cp);
    print_mapping(nrt_uc_title_full, cp);
    print_mapping(nrt_uc_fold_full, cp);
    putchar('\n');
  }
  /* Beyond the last plane: unassigned, no properties, maps to itself. */
  uint32_t out[3];
  if (nrt_uc_category(0x110000) != NRT_UC_Cn || nrt_uc_is_alpha(0xFFFFFFFF) ||
      nrt_uc_upper_full(0x110000, out) != 1 || out[0] != 0x110000) {
    fprintf(stderr, "code points above U+10FFFF are not treated as unassigned\n");
    return 1;
  }
  return fflush(stdout) == 0 ? 0 : 1;
}

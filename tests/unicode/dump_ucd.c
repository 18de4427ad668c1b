/* Prints nrt's unicodedata properties of every assigned code point (and a few unassigned
 * ones), one tab-separated line each, for oracle_ucd.py to compare with CPython: code point,
 * combining, bidirectional, east_asian_width, mirrored, decomposition, name, NFC, NFD, NFKC,
 * NFKD (code points in hex); of the private-use planes 15 and 16 only their ends. Also
 * checks lookup(name(cp)) == cp on every 8th named code point and prints "lookup mismatches
 * N" last. */
#include <stdio.h>

#include "nrt/ucd.h"
#include "nrt/unicode.h"

static void print_form(enum nrt_uc_form form, uint32_t cp) {
  uint32_t out[NRT_UC_MAX_EXPANSION];
  size_t n = nrt_uc_normalize(form, &cp, 1, out, NRT_UC_MAX_EXPANSION);
  putchar('\t');
  for (size_t i = 0; i < n; i++) printf(i ? " %X" : "%X", (unsigned)out[i]);
}

int main(void) {
  static const uint32_t unassigned[] = {0x0378, 0x0379, 0x2FFFD, 0x3FFFD, 0xE0000, 0x10FFFF};
  size_t u = 0;
  int named = 0, mismatches = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    bool listed = u < sizeof unassigned / sizeof unassigned[0] && unassigned[u] == cp;
    u += listed;
    if (nrt_uc_category(cp) == NRT_UC_Cn && !listed) continue;
    if (cp >= 0xF0010 && cp < 0x10FFF0) continue; /* planes 15-16: private use, all alike */
    char decomposition[NRT_UC_DECOMPOSITION_MAX], name[NRT_UC_NAME_MAX];
    nrt_uc_decomposition(cp, decomposition);
    size_t len = nrt_uc_name(cp, name);
    if (len && named++ % 8 == 0) {
      uint32_t found[4];
      if (nrt_uc_lookup(name, len, found) != 1 || found[0] != cp) {
        if (mismatches++ < 10) fprintf(stderr, "lookup(%s) is not U+%04X\n", name, cp);
      }
    }
    printf("%X\t%u\t%s\t%s\t%d\t%s\t%s", (unsigned)cp, nrt_uc_combining(cp),
           nrt_uc_bidirectional(cp), nrt_uc_east_asian_width(cp), nrt_uc_mirrored(cp),
           decomposition, name);
    for (int form = 0; form < 4; form++) print_form((enum nrt_uc_form)form, cp);
    putchar('\n');
  }
  printf("lookup mismatches %d\n", mismatches);
  return 0;
}

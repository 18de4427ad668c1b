/* Conformance of nrt_uc_normalize with the Unicode 15.0.0 NormalizationTest.txt (read at test
 * time from /usr/share/unicode, Debian's unicode-data, bzip2-compressed there), every line of
 * every part, plus part 1's rule that every code point it does not list is unchanged by all
 * four forms; and the quick check never says Yes for text a form changes. */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/ucd.h"
#include "nrt/unicode.h"

#define MAXCP 64

static int failures;

static size_t parse_cps(const char *field, uint32_t *out) {
  size_t n = 0;
  char *end;
  while (n < MAXCP) {
    unsigned long v = strtoul(field, &end, 16);
    if (end == field) break;
    out[n++] = (uint32_t)v;
    field = end;
  }
  return n;
}

static size_t to_utf8(const uint32_t *v, size_t n, char *out) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) k += nrt_utf8_encode(v[i], out + k);
  return k;
}

/* form(src) must equal want; the quick check must not call src normalized unless it is. */
static void expect(int line, enum nrt_uc_form form, const uint32_t *src, size_t n,
                   const uint32_t *want, size_t nwant) {
  static const char *const names[] = {"NFC", "NFD", "NFKC", "NFKD"};
  uint32_t out[MAXCP * NRT_UC_MAX_EXPANSION];
  size_t k = nrt_uc_normalize(form, src, n, out, sizeof out / sizeof out[0]);
  bool same = k == nwant && memcmp(out, want, k * sizeof out[0]) == 0;
  char utf8[MAXCP * 4];
  size_t len = to_utf8(src, n, utf8);
  bool unchanged = k == n && memcmp(out, src, n * sizeof out[0]) == 0;
  if (!same || (nrt_uc_quick_check(form, utf8, len) && !unchanged)) {
    if (failures++ < 20)
      fprintf(stderr, "line %d: %s wrong (%zu code points, want %zu; first %04X)\n", line,
              names[form], k, nwant, k ? (unsigned)out[0] : 0u);
  }
}

static FILE *open_test_file(bool *piped) {
  const char *plain = "/usr/share/unicode/NormalizationTest.txt";
  FILE *f = fopen(plain, "r");
  *piped = false;
  if (f) return f;
  FILE *probe = fopen("/usr/share/unicode/NormalizationTest.txt.bz2", "r");
  if (!probe) return NULL;
  fclose(probe);
  *piped = true;
  return popen("bzip2 -dc /usr/share/unicode/NormalizationTest.txt.bz2", "r");
}

int main(void) {
  bool piped;
  FILE *f = open_test_file(&piped);
  if (!f) {
    printf("SKIP: /usr/share/unicode/NormalizationTest.txt(.bz2) not found (install Debian's "
           "unicode-data: scripts/install-deps.sh)\n");
    return 0;
  }
  static bool in_part1[0x110000];
  char line[4096];
  int lineno = 0, part = -1, cases = 0;
  bool version_ok = false;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    if (strstr(line, "NormalizationTest-15.0.0.txt")) version_ok = true;
    if (line[0] == '@') {
      part = atoi(line + 5);
      continue;
    }
    if (line[0] == '#' || line[0] == '\n') continue;
    uint32_t c[5][MAXCP];
    size_t n[5];
    char *field = line;
    for (int i = 0; i < 5; i++) {
      char *semi = strchr(field, ';');
      if (!semi) {
        fprintf(stderr, "line %d: malformed\n", lineno);
        return 1;
      }
      *semi = '\0';
      n[i] = parse_cps(field, c[i]);
      field = semi + 1;
    }
    if (part == 1) in_part1[c[0][0]] = true;
    for (int i = 0; i < 5; i++) {
      expect(lineno, NRT_UC_NFC, c[i], n[i], c[i < 3 ? 1 : 3], n[i < 3 ? 1 : 3]);
      expect(lineno, NRT_UC_NFD, c[i], n[i], c[i < 3 ? 2 : 4], n[i < 3 ? 2 : 4]);
      expect(lineno, NRT_UC_NFKC, c[i], n[i], c[3], n[3]);
      expect(lineno, NRT_UC_NFKD, c[i], n[i], c[4], n[4]);
    }
    cases++;
  }
  if (piped) pclose(f);
  else fclose(f);
  if (!version_ok || cases < 19000) {
    fprintf(stderr, "NormalizationTest.txt is not 15.0.0 or is truncated (%d cases)\n", cases);
    return 1;
  }
  int others = 0;
  for (uint32_t cp = 0; cp < 0x110000; cp++) {
    if (in_part1[cp] || (cp >= 0xD800 && cp <= 0xDFFF)) continue;
    for (int form = 0; form < 4; form++) expect(0, (enum nrt_uc_form)form, &cp, 1, &cp, 1);
    others++;
  }
  printf("%d NormalizationTest.txt cases and %d other code points: %d failures\n", cases,
         others, failures);
  return failures != 0;
}

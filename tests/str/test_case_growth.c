/* NRT_STR_CASE_MAX_GROWTH holds for every code point and every case operation: callers size
 * buffers for nrt_str_X_into from it (the UDF compiler writes case mappings in place). The
 * operations map each character on its own (Final_Sigma changes one 2-byte sigma into another),
 * so the per-character bound is the bound for any string. */
#include "nrt/str.h"
#include "nrt/unicode.h"
#include "support/check.h"

typedef int64_t (*size_fn)(const char *s, int64_t len);

int main(void) {
  static const struct {
    const char *name;
    size_fn size;
  } ops[] = {{"upper", nrt_str_upper_size},           {"lower", nrt_str_lower_size},
             {"casefold", nrt_str_casefold_size},     {"capitalize", nrt_str_capitalize_size},
             {"title", nrt_str_title_size},           {"swapcase", nrt_str_swapcase_size}};
  int64_t worst[6] = {0};
  for (uint32_t cp = 0; cp <= 0x10FFFF; cp++) {
    if (cp >= 0xD800 && cp <= 0xDFFF)
      continue;
    char buf[4];
    int64_t n = (int64_t)nrt_utf8_encode(cp, buf);
    for (int k = 0; k < 6; k++) {
      int64_t out = ops[k].size(buf, n);
      if (out > NRT_STR_CASE_MAX_GROWTH * n)
        check_failf(__FILE__, __LINE__, "%s(U+%04X): %lld bytes from %lld", ops[k].name,
                    (unsigned)cp, (long long)out, (long long)n);
      if (out * 100 / n > worst[k])
        worst[k] = out * 100 / n;
    }
  }
  /* The bound is tight: every operation but lower reaches it (CPython gives the same). */
  static const int64_t expect[6] = {300, 150, 300, 300, 300, 300};
  for (int k = 0; k < 6; k++)
    CHECK_EQ_INT(worst[k], expect[k]);
  return check_finish("test_str_case_growth");
}

/* The case kernels' direct tables (two-byte characters, three-byte lead bytes) against the
 * full mapping they were derived from (nrt_str_case_reference): every code point of two and
 * three bytes, every operation, alone and in contexts that matter (after a cased letter for
 * title, around capital sigma for Final_Sigma, mixed with ASCII and four-byte characters),
 * through the _into, _size and managed forms. */
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"
#include "str/case_internal.h"
#include "support/check.h"

typedef int64_t (*into_fn)(const char *s, int64_t len, char *out);
typedef int64_t (*size_fn)(const char *s, int64_t len);
typedef int (*managed_fn)(const nrt_str *s, nrt_str *out, struct nrt_error *err);

static const struct {
  int op;
  const char *name;
  into_fn into;
  size_fn size;
  managed_fn managed;
} ops[] = {{NRT_CASE_REF_LOWER, "lower", nrt_str_lower_into, nrt_str_lower_size, nrt_str_lower},
           {NRT_CASE_REF_UPPER, "upper", nrt_str_upper_into, nrt_str_upper_size, nrt_str_upper},
           {NRT_CASE_REF_CASEFOLD, "casefold", nrt_str_casefold_into, nrt_str_casefold_size,
            nrt_str_casefold},
           {NRT_CASE_REF_SWAPCASE, "swapcase", nrt_str_swapcase_into, nrt_str_swapcase_size,
            nrt_str_swapcase},
           {NRT_CASE_REF_TITLE, "title", nrt_str_title_into, nrt_str_title_size, nrt_str_title},
           {NRT_CASE_REF_CAPITALIZE, "capitalize", nrt_str_capitalize_into,
            nrt_str_capitalize_size, nrt_str_capitalize}};

/* Contexts: %s is replaced by the character (its UTF-8 bytes). */
static const char *const contexts[] = {"%s", "A%s", "a%sb", "%s%s", "\xce\xa3%s",
                                       "a\xce\xa3%s", "%s\xce\xa3", "x%s\xf0\x90\x90\x80"};

static size_t fill(char *buf, const char *ctx, const char *ch, size_t chn) {
  size_t n = 0;
  for (const char *p = ctx; *p; p++) {
    if (p[0] == '%' && p[1] == 's') {
      memcpy(buf + n, ch, chn);
      n += chn;
      p++;
    } else {
      buf[n++] = *p;
    }
  }
  return n;
}

int main(void) {
  uint64_t bad = 0, checked = 0;
  for (uint32_t cp = 0x80; cp < 0x10000; cp++) {
    if (cp >= 0xD800 && cp < 0xE000)
      continue;
#if defined(NRT_UNDER_SANITIZER)
    if (cp >= 0x800 && cp % 7 != 0) /* the three-byte range sampled under the sanitizers */
      continue;
#endif
    char ch[4];
    size_t chn = nrt_utf8_encode(cp, ch);
    size_t nctx = cp < 0x800 ? sizeof contexts / sizeof contexts[0] : 2;
    for (size_t c = 0; c < nctx; c++) {
      char in[32], want[128], got[128];
      int64_t len = (int64_t)fill(in, contexts[c], ch, chn);
      for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        int64_t wn = nrt_str_case_reference(ops[k].op, in, len, want);
        int64_t gn = ops[k].into(in, len, got);
        bool ok = wn == gn && memcmp(want, got, (size_t)wn) == 0 && ops[k].size(in, len) == wn;
        nrt_str s = nrt_str_view(in, len), r;
        if (ops[k].managed(&s, &r, NULL) == NRT_OK) {
          ok = ok && r.len == wn && memcmp(r.data, want, (size_t)wn) == 0;
          nrt_str_release(&r);
        } else {
          ok = false;
        }
        checked++;
        if (!ok && bad++ < 10)
          check_failf(__FILE__, __LINE__, "%s of U+%04X in context %zu differs from the full "
                      "mapping", ops[k].name, (unsigned)cp, c);
      }
    }
  }
  CHECK_EQ_INT(bad, 0);
  CHECK(checked > 100000);
  return check_finish("test_str_case_tables");
}

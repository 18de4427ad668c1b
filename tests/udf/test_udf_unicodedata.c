/* The unicodedata module through the public API, for what the CPython oracle
 * (e2e_oracle_unicodedata.py) cannot show: nrt's own data version (15.0.0, CPython 3.11 has
 * 14.0.0) and a character new in 15.0; normalize() of text already in the form returns the
 * argument itself (no allocation, same bytes); and every allocation failing in turn during an
 * apply leaks nothing. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

/* u(arg) must give the str `want`; returns the result's data pointer (released). */
static const char *call_str(const nrt_udf *u, const char *arg, const char *want) {
  nrt_value a = {.kind = NRT_VALUE_STR}, r;
  a.as.str = nrt_str_view(arg, (int64_t)strlen(arg));
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_udf_call(u, &a, &r, &err), NRT_OK);
  CHECK_EQ_INT(r.kind, NRT_VALUE_STR);
  if (r.kind != NRT_VALUE_STR) return NULL;
  bool same = (size_t)r.as.str.len == strlen(want) && memcmp(r.as.str.data, want, strlen(want)) == 0;
  if (!same) printf("got \"%.*s\", want \"%s\"\n", (int)r.as.str.len, r.as.str.data, want);
  CHECK(same);
  const char *data = r.as.str.data;
  nrt_str_release(&r.as.str);
  return data;
}

static void test_version_and_unicode_15(void) {
  struct check_live before = check_live_now();
  nrt_udf *u = udf_trial_compile("import unicodedata\ndef f(s):\n"
                       "    return unicodedata.unidata_version + ' ' + unicodedata.name(s[0]) + "
                       "' ' + unicodedata.category(s[1])\n");
  CHECK(u != NULL);
  if (u) /* U+1E030 and U+1E08F are new in Unicode 15.0 */
    call_str(u, "\U0001E030\U0001E08F", "15.0.0 MODIFIER LETTER CYRILLIC SMALL A Mn");
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

static void test_normalized_text_is_not_copied(void) {
  struct check_live before = check_live_now();
  nrt_udf *u = udf_trial_compile("import unicodedata\ndef f(s):\n    return unicodedata.normalize('NFC', s)\n");
  CHECK(u != NULL);
  if (u) {
    static const char *const texts[] = {"plain ascii text", "café 日本語 한국어", ""};
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
      struct nrt_stats s0, s1;
      nrt_stats_get(&s0);
      const char *data = call_str(u, texts[i], texts[i]);
      nrt_stats_get(&s1);
      CHECK(i == 2 || data == texts[i]); /* the argument itself */
      CHECK_EQ_INT((int)(s1.alloc - s0.alloc), 0);
    }
    call_str(u, "cafe\xcc\x81", "caf\xc3\xa9"); /* e + U+0301 composes */
  }
  nrt_udf_free(u);
  CHECK_NO_LEAK(before);
}

static void test_failure_injection(void) {
  static const char *const rows[] = {"e\xcc\x81t\xc3\xa9", "\xea\xb0\x80\xea\xb0\x81", "ascii",
                                     "\xef\xac\x81x\xe2\x91\xa0", "", "\xe2\x98\x83"};
  struct udf_trial t = {
      udf_trial_compile("import unicodedata as u\ndef f(s):\n"
              "    t = u.normalize('NFKD', s) + u.normalize('NFC', s)\n"
              "    names = [u.name(c, '?') for c in t]\n"
              "    return '|'.join(names) + u.lookup(u.name(s[0], 'SNOWMAN') if s else 'BOM') + "
              "u.decomposition(t[0] if t else 'a') + str(u.is_normalized('NFD', s))\n"),
      udf_trial_column(rows, 6), 2, 2, 6};
  CHECK(t.udf != NULL);
  udf_trial_every_failure(&t, "unicodedata UDF apply");
}

int main(void) {
  test_version_and_unicode_15();
  test_normalized_text_is_not_copied();
  test_failure_injection();
  return check_finish("test_udf_unicodedata");
}

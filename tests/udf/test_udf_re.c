/* `import re` through the public API: catastrophic backtracking ends in a row error
 * (MemoryError "regular expression match limit exceeded": PCRE2's match and depth limits)
 * instead of a hang, also when caught; the 2-thread apply of a UDF matching with groups gives
 * what one thread gives; and every allocation of an apply fails in turn without a leak. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static nrt_udf *compile(const char *src) {
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  struct nrt_error err = {0};
  nrt_udf *u = NULL;
  int rc = nrt_udf_compile(src, strlen(src), &o, &u, &err);
  if (rc != NRT_OK) fprintf(stderr, "compile failed: %s\n", err.message);
  CHECK_EQ_INT(rc, NRT_OK);
  return u;
}

static int call(nrt_udf *u, const char *arg, nrt_value *res, struct nrt_error *err) {
  nrt_value a;
  memset(&a, 0, sizeof a);
  a.kind = NRT_VALUE_STR;
  a.as.str.data = arg;
  a.as.str.len = (int64_t)strlen(arg);
  return nrt_udf_call(u, &a, res, err);
}

static void limits(void) {
  char evil[80];
  memset(evil, 'a', 60);
  strcpy(evil + 60, "b");
  nrt_udf *u = compile("import re\ndef f(s):\n    return re.sub(r'(a+)+$', 'x', s)\n");
  nrt_value r;
  struct nrt_error err = {0};
  CHECK_EQ_INT(call(u, "aaab", &r, &err), NRT_OK);
  nrt_str_release(&r.as.str);
  CHECK_EQ_INT(call(u, evil, &r, &err), NRT_ELIMIT);
  CHECK(strcmp(err.message, "regular expression match limit exceeded") == 0);
  /* through an apply: the row's error */
  const char *rows[] = {"aaa", evil, "b"};
  nrt_column *in = udf_trial_column(rows, 3);
  nrt_column *out = NULL;
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = 2;
  CHECK_EQ_INT(nrt_udf_apply(u, &in, 1, &ao, &out, NULL, &err), NRT_ELIMIT);
  if (!strstr(err.message, "row 2: MemoryError: regular expression match limit exceeded"))
    fprintf(stderr, "apply: %s\n", err.message);
  CHECK(strstr(err.message, "row 2: MemoryError: regular expression match limit exceeded") != NULL);
  nrt_udf_free(u);
  /* caught as MemoryError */
  u = compile("import re\ndef f(s):\n    try:\n        return str(re.search(r'(a+)+$', s) is None)\n"
              "    except MemoryError as e:\n        return 'limit: ' + str(e)\n");
  CHECK_EQ_INT(call(u, evil, &r, &err), NRT_OK);
  CHECK(r.kind == NRT_VALUE_STR && r.as.str.len == 46 &&
        memcmp(r.as.str.data, "limit: regular expression match limit exceeded", 46) == 0);
  nrt_str_release(&r.as.str);
  nrt_udf_free(u);
  nrt_col_release(in);
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  limits();
  static const char *const rows[] = {
      "alpha 2026-11-25 beta", "один два 1999-01-02", "", NULL, "漢字 かな 2001-02-03 カナ",
      "straße ǅemal", "x y", "😀 2020-12-31 😀", "no date here", "   ", "Ελληνικά 1234-56-78"};
  const char *src =
      "import re\n"
      "def up(m):\n"
      "    return m.group().upper() + str(m.end())\n"
      "def f(s):\n"
      "    m = re.search(r'(?P<y>\\d{4})-(\\d\\d)-(\\d\\d)', s)\n"
      "    words = re.split(r'\\s+', s.strip())\n"
      "    out = re.sub(r'(\\w)(\\w*)', r'\\2\\1', s, count=2)\n"
      "    if m:\n"
      "        out += m['y'] + m.group(3) + str(m.start()) + '/'.join(m.groups())\n"
      "    for w in re.finditer(r'(?i)[a-zß]+', s):\n"
      "        a, b = w.span()\n"
      "        out += w[0][:1] + str(b - a)\n"
      "    return (out + '|' + ','.join(re.findall(r'\\w+', s)) + re.sub(r'\\w\\b', up, s) +\n"
      "        str(len(words)))\n";
  struct udf_trial t = {compile(src), udf_trial_column(rows, 11), 2, 3, 11};
  udf_trial_every_failure(&t, "re UDF apply");
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_re");
}

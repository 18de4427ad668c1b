/* Pattern objects, lambda and closure replacements and m.groupdict() through the public API:
 * every allocation of the front end and of an apply (1 and 2 threads) fails in turn without a
 * leak, and the statistics balance at the end. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/ast_arena.h"
#include "udf/front.h"
#include "udf/front_cases.h"
#include "udf/udf_trial.h"

static const char *const program =
    "import re\n"
    "WORD = re.compile(r'(?P<w>\\w)(?P<rest>\\w*)', re.I)\n"
    "def f(s):\n"
    "    digits = re.compile(r'\\d+')\n"
    "    n = len(s)\n"
    "    def tag(m):\n"
    "        return '<' + m.group().lower() + str(n) + '>'\n"
    "    out = digits.sub(lambda m: str(int(m.group()) + n), s)\n"
    "    m = WORD.search(s)\n"
    "    if m:\n"
    "        d = m.groupdict()\n"
    "        out += d['rest'] + d.get('w', '-') + str(len(d))\n"
    "        for k, v in d.items():\n"
    "            out += k + v\n"
    "    g = re.match(r'(?P<a>[a-z])?(?P<b>\\w)', s)\n"
    "    if g:\n"
    "        x = g.groupdict().get('a', 'none')\n"
    "        out += (x if x is not None else '?') + g.groupdict()['b']\n"
    "    m2 = WORD.search(s, 1, 6)\n"
    "    if m2:\n"
    "        out += m2.group() + str(m2.end())\n"
    "    new, cnt = WORD.subn(tag, s, count=2)\n"
    "    return out + new + str(cnt) + WORD.pattern + str(WORD.flags) + '|'.join(digits.split(s))\n";

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

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  /* the front end: chunks of 1 byte make every arena allocation one that can fail (256 under
   * valgrind, as test_front_failures does) */
  udf_arena_chunk_size = getenv("NRT_UNDER_VALGRIND") ? 256 : 1;
  const char *src = program;
  CHECK(check_every_allocation_failure("re2 front end", front_compile_trial, &src) > 1);
  udf_arena_chunk_size = 16384;
  static const char *const rows[] = {"alpha 12 beta", "один 7 два", "", NULL, "漢字 42 かな",
                                     "Straße 2026", "x", "😀 9 😀", "   ", "Ελληνικά 3"};
  struct udf_trial t = {compile(program), udf_trial_column(rows, 10), 2, 3, 10};
  udf_trial_every_failure(&t, "re2 UDF apply");
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_re2");
}

/* enumerate/zip/reversed loops with tuple targets and assignment expressions through the
 * public API, under failure injection: every allocation of an apply (compiled code included:
 * the characters of managed strings, the concatenations, the list a comprehension builds)
 * fails in turn, and each failure is an error with nothing leaked. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static const char *const src =
    "def f(s):\n"
    "    t = s.upper()\n"
    "    out = ''\n"
    "    for i, (a, b) in enumerate(zip(t, reversed(t)), 1):\n"
    "        if (n := i % 3) and a != b:\n"
    "            out += a * n\n"
    "    w = [c + d for j, (c, d) in enumerate(zip(t.split(), reversed(t.split()))) if j % 2 == 0]\n"
    "    for p in zip(t.split(), s.split(), reversed(s)):\n"
    "        out += p[0] + p[2]\n"
    "    return out + '|'.join(w) + str(len(out))\n";

static nrt_column *input(void) {
  static const char *const rows[] = {"alpha beta,gamma", "один два", "", NULL, "漢字,かな,カナ",
                                     "straße ǅemal", "x y", "a-long-item-over-12-bytes, y",
                                     "😀 😀", "no comma here", "   ", "Ελληνικά,κείμενα"};
  return udf_trial_column(rows, 12);
}

int main(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  struct nrt_error err = {0};
  struct udf_trial t = {NULL, input(), 2, 4, 12};
  int rc = nrt_udf_compile(src, strlen(src), &o, &t.udf, &err);
  if (rc != NRT_OK)
    fprintf(stderr, "compile failed: %s\n", err.message);
  CHECK_EQ_INT(rc, NRT_OK);
  udf_trial_every_failure(&t, "unpacking UDF apply");
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_unpack");
}

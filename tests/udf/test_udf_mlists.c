/* Mutable lists and key functions through the public API (issue 14, item 3): a UDF that
 * appends, inserts, sorts by key and keeps lists of ints, applied with every allocation made
 * to fail in turn (ENOMEM reported, nothing leaked), and statistics balanced. The semantics
 * are covered by e2e_oracle_mlists.py. */
#include <stdio.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/udf.h"
#include "support/check.h"
#include "udf/udf_trial.h"

static const char src[] =
    "def f(s):\n"
    "    out = []\n"
    "    for w in s.split():\n"
    "        out.append(w.upper())\n"
    "        out.insert(0, w)\n"
    "    nums = []\n"
    "    for w in out:\n"
    "        nums.append(len(w))\n"
    "    nums.sort(reverse=True)\n"
    "    out.sort(key=lambda w: (len(w), w))\n"
    "    best = max(out, key=str.lower, default='')\n"
    "    return sorted(out + [best], key=len, reverse=True)[:3] + [str(sum(nums))]\n";

static nrt_column *input(void) {
  static const char *const rows[] = {"alpha beta,gamma", "один два", "", NULL, "漢字 かな カナ",
                                     "straße ǅemal", "x y", "a-long-item-over-12-bytes y",
                                     "😀 😀", "no comma here", "   ", "Ελληνικά κείμενα"};
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
  CHECK_EQ_INT(nrt_udf_compile(src, strlen(src), &o, &t.udf, &err), NRT_OK);
  udf_trial_every_failure(&t, "mutable list UDF apply");
  nrt_exec_shutdown();
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, s1.free - s0.free);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, s1.mi_free - s0.mi_free);
  return check_finish("test_udf_mlists");
}

/* The split / sorted / join / repr fast paths of issue 14's benchmark under failure
 * injection: each allocation of an apply fails in turn (the split list, the key array of a
 * long list, the output column's growth) and the apply reports it with nothing leaked, in
 * both the write form (join and repr written into the row) and the value form. */
#include <stdio.h>
#include <string.h>

#include "nrt/udf.h"
#include "support/check.h"
#include "udf_trial.h"

/* Rows with few and many pieces (past the 16 items sorted on the stack and the 63 separators
 * the one-byte split keeps), ASCII and not, quotes and escapes for repr. */
static const char *const ROWS[] = {
    "  bob  alice carol ", "a,b,,c", "", ",", "zeta Alpha beta", "é,ü,ß,漢字", "it's,a\\b",
    "w w ww www wwww w ww www wwww w ww www wwww w ww www wwww w ww www wwww",
    "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31,32,"
    "33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50,51,52,53,54,55,56,57,58,59,60,61,62,"
    "63,64,65,66"};
#define NROWS ((int)(sizeof ROWS / sizeof ROWS[0]))

static void trial(const char *src, const char *what) {
  struct udf_trial t = {udf_trial_compile(src), udf_trial_column(ROWS, NROWS), 1, 0, NROWS};
  CHECK(t.udf != NULL);
  udf_trial_every_failure(&t, what);
}

int main(void) {
  struct check_live before = check_live_now();
  trial("def f(s):\n    return ' '.join(sorted(s.split(), key=len))\n", "sort_key");
  trial("def f(s):\n    return repr(s.split(','))\n", "repr_list");
  trial("def f(s):\n    return '-'.join(sorted(s.split(','), key=len, reverse=True))\n",
        "sorted by len, reversed");
  trial("def f(s):\n    return len(sorted(s.strip().split(','), key=len))\n",
        "sorted by len of a managed row's pieces");
  trial("def f(s):\n    return str(s.rsplit(',', 3)) + ''.join(s.partition(','))\n",
        "str of an rsplit, join of a partition");
  CHECK_NO_LEAK(before);
  return check_finish("test_udf_splitview");
}

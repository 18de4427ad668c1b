/* Failure injection: parse + check of a nontrivial program with allocation 1, 2, 3, ...
 * failing; every run must report NRT_ENOMEM (never another error, never a crash) and leave
 * nothing allocated. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "udf/ast_arena.h"
#include "udf/front.h"
#include "udf/front_cases.h"

static const char program[] =
    "def helper(x, sep=','):\n"
    "    head, s, tail = x.partition(sep)\n"
    "    return head.strip() if s else None\n"
    "\n"
    "def count_upper(s):\n"
    "    n = 0\n"
    "    for c in s:\n"
    "        if c.isupper():\n"
    "            n += 1\n"
    "    return n\n"
    "\n"
    "def udf(s):\n"
    "    \"\"\"A UDF using most of the language.\"\"\"\n"
    "    words = s.split()\n"
    "    total = 0.0\n"
    "    i = 0\n"
    "    while i < len(words):\n"
    "        w = words[i]\n"
    "        if w in ('a', 'b') or not w:\n"
    "            i += 1\n"
    "            continue\n"
    "        total += len(w) / 2\n"
    "        i += 1\n"
    "    else:\n"
    "        pass\n"
    "    parts = [w.title() for w in words if len(w) > 1]\n"
    "    caps = ''.join(c for c in s if c.isupper())\n"
    "    r = helper(s)\n"
    "    if r is None:\n"
    "        return None\n"
    "    x = 0x_ff + 0o17 + 0b1_0 + 1_000 + count_upper(s)\n"
    "    z = 2 ** 10 // 3 % 7\n"
    "    f = f'{r!r:>10} {x:5d} {total:.2f} {z=}'\n"
    "    for k in range(0, 10, 2):\n"
    "        x = x + k\n"
    "    t = s[1:-1:2] + s[::-1] + s[0] + ','.join(parts) + caps + '\\u00e9\\n'\n"
    "    return f + t + str(x) + str(1 < x <= 100) + r'\\n' + 'a' 'b' + '''tri\n"
    "ple'''\n";

/* A program failing with a syntax error late in the file, and one with a type error: the error
 * paths under allocation failure too. */
static const char *bad_src;
static int bad_trial(void *ctx) {
  int want = *(const int *)ctx;
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *m = NULL;
  int rc = udf_front_compile(bad_src, strlen(bad_src), "t.py", NULL, pt, 1, &m, NULL, NULL);
  CHECK(rc == want || rc == NRT_ENOMEM);
  CHECK(m == NULL);
  return rc == want ? NRT_OK : rc; /* the driver expects success when nothing was refused */
}

int main(void) {
  /* One allocation per node, so failure injection reaches every allocation site; valgrind
   * (10x slower, and ASan covers the same paths) takes chunks of 256 bytes. */
  udf_arena_chunk_size = getenv("NRT_UNDER_VALGRIND") ? 256 : 1;
  const char *src = program;
  uint64_t n = check_every_allocation_failure("udf_front_compile", front_compile_trial, &src);
  printf("test_front_failures: the program needs %llu allocations\n", (unsigned long long)n);
  CHECK(n > 1);
  int want = NRT_EPARSE;
  bad_src = "def f(s):\n    x = [c for c in s]\n    y = f'{x[0]:>3}'\n    return (y +\n";
  check_every_allocation_failure("syntax error", bad_trial, &want);
  want = NRT_ETYPE;
  bad_src = "def g(a):\n    return a.upper()\ndef f(s):\n    y = [g(c) for c in s]\n"
            "    return y + 1\n";
  check_every_allocation_failure("type error", bad_trial, &want);
  return check_finish("test_front_failures");
}

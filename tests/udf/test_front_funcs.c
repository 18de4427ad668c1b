/* Diagnostics of helper functions: CPython's TypeErrors for a wrong call (as compile errors,
 * with CPython's text), default values and module-level constants that are no constants,
 * nested functions used as values, recursion whose result type cannot be inferred; each with
 * its line and column and without a leak. The supported forms are covered by
 * e2e_oracle_funcs.py. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "udf/ast_arena.h"
#include "udf/front.h"
#include "udf/front_cases.h"

#define PAD "def pad(s, n=8, fill='0'):\n    return s.rjust(n, fill)\n"
#define ABC "def g(a, b, c):\n    return a + b + c\n"

static const bad cases[] = {
    {PAD "def f(s):\n    return pad()\n", TYP, 4, 12,
     "pad() missing 1 required positional argument: 's'"},
    {PAD "def f(s):\n    return pad(s, 1, 'x', 2)\n", TYP, 4, 12,
     "pad() takes from 1 to 3 positional arguments but 4 were given"},
    {PAD "def f(s):\n    return pad(s, width=3)\n", TYP, 4, 19,
     "pad() got an unexpected keyword argument 'width'"},
    {PAD "def f(s):\n    return pad(s, s=s)\n", TYP, 4, 19,
     "pad() got multiple values for argument 's'"},
    {PAD "def f(s):\n    return pad(s, 1, 'x', 2, s=s)\n", TYP, 4, 30,
     "pad() got multiple values for argument 's'"},
    {PAD "def f(s):\n    return pad(n=3)\n", TYP, 4, 12,
     "pad() missing 1 required positional argument: 's'"},
    {ABC "def f(s):\n    return g()\n", TYP, 4, 12,
     "g() missing 3 required positional arguments: 'a', 'b', and 'c'"},
    {ABC "def f(s):\n    return g(s)\n", TYP, 4, 12,
     "g() missing 2 required positional arguments: 'b' and 'c'"},
    {ABC "def f(s):\n    return g(s, s, s, s)\n", TYP, 4, 12,
     "g() takes 3 positional arguments but 4 were given"},
    {"def h():\n    return 'x'\ndef f(s):\n    return h(s)\n", TYP, 4, 12,
     "h() takes 0 positional arguments but 1 was given"},
    {"def f(s):\n    g = lambda w, k=1: w * k\n    return g(s, 2, 3)\n", TYP, 3, 12,
     "f.<locals>.<lambda>() takes from 1 to 2 positional arguments but 3 were given"},
    {"def g(s, acc=[]):\n    return s\ndef f(s):\n    return g(s)\n", UNS, 1, 14,
     "unsupported: default value of 'acc' that is a list (mutable; write a tuple)"},
    {"def g(s, n=k):\n    return s\ndef f(s):\n    return g(s)\n", UNS, 1, 12,
     "unsupported: default value of 'n' that names something other than a constant"},
    {"def f(s):\n    k = 2\n    def g(w, n=k):\n        return w * n\n    return g(s)\n", UNS, 3, 16,
     "unsupported: default value of 'n' that names something other than a constant"},
    {"L = ['a', 'b']\ndef f(s):\n    return s\n", UNS, 1, 5,
     "unsupported: module-level constant 'L' that is a list (mutable; write a tuple)"},
    {"N = len('abc')\ndef f(s):\n    return s\n", UNS, 1, 5,
     "unsupported: module-level constant 'N' that is not a literal, a tuple of literals or an "
     "expression of them"},
    {"N = 1 // 0\ndef f(s):\n    return s\n", UNS, 1, 5,
     "unsupported: module-level constant 'N' that divides by zero"},
    {"N = 2 ** 64\ndef f(s):\n    return s\n", UNS, 1, 5,
     "unsupported: module-level constant 'N' beyond the int64 range"},
    {"N = M + 1\nM = 2\ndef f(s):\n    return s\n", UNS, 1, 5,
     "unsupported: module-level constant 'N' that names something other than a constant"},
    {"def f(s):\n    def g(w):\n        return w\n    h = g\n    return h(s)\n", UNS, 4, 9,
     "unsupported: functions as values ('g')"},
    {"def k(x):\n    return x\ndef f(s):\n    t = s\n    g = lambda: t\n    return k(g)\n", UNS, 6, 14,
     "unsupported: functions as values ('g')"},
    {"def f(s):\n    x = 1\n    def g():\n        nonlocal x\n        x = 2\n    return s\n", UNS, 4, 9,
     "unsupported: nonlocal statements"},
    {"def f(s):\n    def g():\n        return 1\n    return g() + s\n", TYP, 4, 12,
     "unsupported operand type(s) for +: 'int' and 'str'"},
    {"def r(s):\n    return r(s) + 'x'\ndef f(s):\n    return r(s)\n", UNS, 2, 12,
     "unsupported: recursive call to 'r' before its result type is known (return a value in a "
     "base case first)"},
    {"def r(n):\n    if n == 0:\n        return 1\n    return r(n - 1.5)\ndef f(s):\n    return str(r(3))\n",
     TYP, 4, 14, "argument 'n' of r() is float here but int at its first call (a parameter keeps one type)"},
    {"def f(s):\n    r = g(s)\n    def g(w):\n        return w\n    return r\n", UNS, 2, 9,
     "unsupported: calling 'g' above its definition (in Python an UnboundLocalError until the "
     "definition has run)"},
    {PAD "def f(s):\n    return pad(s, n=1, n=2)\n", SYN, 4, 24, "keyword argument repeated: n"},
    {"def f(s):\n    g = lambda: x\n    return g()\n", TYP, 2, 17, "name 'x' is not defined"},
    {"def f(s):\n    x = s\n    g = lambda: x\n    return g(x=1)\n", TYP, 4, 14,
     "f.<locals>.<lambda>() got an unexpected keyword argument 'x'"},
    {"def f(s):\n    def g(w):\n        def h(k=1):\n            return w * k\n        return h(1, 2)\n    return g(s)\n",
     TYP, 5, 16, "f.<locals>.g.<locals>.h() takes from 0 to 1 positional arguments but 2 were given"},
    {"h = lambda w: w\ndef f(s):\n    return h()\n", TYP, 3, 12,
     "<lambda>() missing 1 required positional argument: 'w'"},
    {"def f(s, *args):\n    return s\n", UNS, 1, 10,
     "unsupported: *args, **kwargs and positional-only or keyword-only markers"},
};

/* Constants, defaults, recursion and closures compiled with allocation 1, 2, 3, ... failing:
 * every run reports NRT_ENOMEM (or succeeds) and leaves nothing allocated. */
static const char program[] =
    "SEP = ','\n"
    "N = 2 ** 3 + 1\n"
    "PRE = ('a', 'b' * 2)\n"
    "clean = lambda t, chars=SEP + ' ': t.strip(chars)\n"
    "def rev(t):\n"
    "    return '' if not t else rev(t[1:]) + t[0]\n"
    "def is_even(n):\n"
    "    return n == 0 or is_odd(n - 1)\n"
    "def is_odd(n):\n"
    "    return n != 0 and is_even(n - 1)\n"
    "def f(s, k=N):\n"
    "    mark = s[:1]\n"
    "    def tag(w, times=2):\n"
    "        def inner(c):\n"
    "            return c + mark\n"
    "        return inner(w) * times\n"
    "    h = lambda w: tag(w) + mark\n"
    "    r = SEP.join(h(clean(w)) for w in s.split() if not w.startswith(PRE))\n"
    "    return rev(r) + str(is_even(len(s))) + str(k)\n"
    "def udf(s):\n"
    "    return f(s) + f(s, k=3)\n";

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_funcs: %d bad programs diagnosed exactly\n", n);
  udf_arena_chunk_size = getenv("NRT_UNDER_VALGRIND") ? 256 : 1;
  const char *src = program;
  uint64_t k = check_every_allocation_failure("udf_front_compile", front_compile_trial, &src);
  printf("test_front_funcs: the program needs %llu allocations\n", (unsigned long long)k);
  CHECK(k > 1);
  return check_finish("test_front_funcs");
}

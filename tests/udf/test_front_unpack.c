/* Diagnostics of for targets and their iterables: unpacking that stays unsupported (str
 * items, mismatched counts known at compile time, starred targets), enumerate/zip/reversed
 * outside a for loop's iterable, their argument errors; and of assignment expressions
 * (CPython's SyntaxErrors, imported and except names); each with its line and column and
 * without a leak. The supported forms are covered by e2e_oracle_unpack.py. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

static const bad cases[] = {
    {"def f(s):\n    for a, (b, c) in s.split():\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking the str items of a list in a for target (only the items of enumerate() and zip())"},
    {"def f(s):\n    for a, b, c in enumerate(s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking 2 items into 3 names (ValueError: not enough values to unpack (expected 3, got 2))"},
    {"def f(s):\n    for a in zip(s, range(3)):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: a tuple of mixed types from zip() as a value (unpack it: for a, b in zip(...))"},
    {"def f(s):\n    return ''.join([a for a, b in zip(s)])\n", UNS, 2, 27,
     "unsupported: unpacking 1 item into 2 names (ValueError: not enough values to unpack (expected 2, got 1))"},
    {"def f(s):\n    x = enumerate(s)\n    return s\n", UNS, 2, 9,
     "unsupported: enumerate() outside the iterable of a for loop or comprehension"},
    {"def f(s):\n    for (i, j), c in enumerate(s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking enumerate()'s index (TypeError: cannot unpack non-iterable int object)"},
    {"def f(s):\n    for i, c in enumerate(s, 'a'):\n        pass\n    return s\n", TYP, 2, 30,
     "'str' object cannot be interpreted as an integer"},
    {"def f(s):\n    for i, c in enumerate(s, step=1):\n        pass\n    return s\n", TYP, 2, 30,
     "'step' is an invalid keyword argument for enumerate()"},
    {"def f(s):\n    for a.b, c in zip(s, s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: assignment to an attribute"},
    {"def f(s):\n    for *a, b in zip(s, s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: starred for targets (*name)"},
    {"def f(s):\n    for i, c in enumerate(5):\n        pass\n    return s\n", TYP, 2, 27,
     "'int' object is not iterable"},
    {"def f(s):\n    for (), c in enumerate(s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking into an empty tuple"},
    {"def f(s):\n    return reversed(s) + s\n", UNS, 2, 12,
     "unsupported: reversed() outside the iterable of a for loop or comprehension"},
    {"def f(s):\n    for i, c in enumerate():\n        pass\n    return s\n", TYP, 2, 17,
     "enumerate() missing required argument 'iterable'"},
    {"def f(s):\n    for i, c in zip():\n        pass\n    return s\n", UNS, 2, 17,
     "unsupported: zip() without arguments"},
    {"def f(s):\n    for a, b in reversed(range(3)):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking the str items of a reversed() in a for target (only the items of enumerate() and zip())"},
    {"def f(s):\n    for a, b in range(3):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking the int items of a range in a for target (only the items of enumerate() and zip())"},
    {"def f(s):\n    for i, c in enumerate(s, 1, 2):\n        pass\n    return s\n", TYP, 2, 17,
     "enumerate() takes at most 2 arguments (3 given)"},
    {"def f(s):\n    for c in reversed(s, s):\n        pass\n    return s\n", TYP, 2, 14,
     "reversed expected 1 argument, got 2"},
    {"def f(s):\n    for c in reversed(5):\n        pass\n    return s\n", TYP, 2, 23,
     "'int' object is not reversible"},
    {"def f(s):\n    for a, b in zip(s, 5):\n        pass\n    return s\n", TYP, 2, 24,
     "'int' object is not iterable"},
    {"def f(s):\n    for a, b, c in zip(s, s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: unpacking 2 items into 3 names (ValueError: not enough values to unpack (expected 3, got 2))"},
    {"def f(s):\n    for a, s[0] in zip(s, s):\n        pass\n    return s\n", UNS, 2, 12,
     "unsupported: assignment to a subscript here (only xs[i] = value)"},
    {"def f(s):\n    return [x for x, in enumerate(s)]\n", UNS, 2, 19,
     "unsupported: unpacking 2 items into 1 name (ValueError: too many values to unpack (expected 1))"},
    {"def f(s):\n    n := len(s)\n    return s\n", SYN, 2, 7,
     "invalid syntax"},
    {"def f(s):\n    return ''.join([x for x in s if (x := 'a')])\n", SYN, 2, 38,
     "assignment expression cannot rebind comprehension iteration variable 'x'"},
    {"def f(s):\n    return ''.join([y for y in (z := s)])\n", SYN, 2, 33,
     "assignment expression cannot be used in a comprehension iterable expression"},
    {"def f(s):\n    if (s.upper := 1):\n        pass\n    return s\n", SYN, 2, 9,
     "cannot use assignment expressions with attribute"},
    {"def f(s):\n    if (s[0] := 'a'):\n        pass\n    return s\n", SYN, 2, 9,
     "cannot use assignment expressions with subscript"},
    {"def f(s):\n    if (1 := 2):\n        pass\n    return s\n", SYN, 2, 9,
     "cannot use assignment expressions with literal"},
    {"import math\ndef f(s):\n    if (math := 1):\n        pass\n    return s\n", UNS, 3, 9,
     "unsupported: assignment to an imported name"},
    {"def f(s):\n    if (n := len(s)) > 1:\n        n = 'a'\n    return s\n", TYP, 3, 9,
     "variable 'n' has type int; cannot assign a value of type str (a variable keeps one type)"},
    {"def f(s):\n    try:\n        pass\n    except ValueError as e:\n        if (e := 'x'):\n            pass\n    return s\n", UNS, 5, 13,
     "unsupported: assigning to 'e', the name of an except clause"},
    {"def f(s):\n    return [i for i, c in enumerate(s) if (i := 1)]\n", SYN, 2, 44,
     "assignment expression cannot rebind comprehension iteration variable 'i'"},
    {"def f(s):\n    for t in enumerate(s):\n        pass\n    return s\n", UNS, 2, 9,
     "unsupported: a tuple of mixed types from enumerate() as a value (unpack it: for a, b in enumerate(...))"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_unpack: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_unpack");
}

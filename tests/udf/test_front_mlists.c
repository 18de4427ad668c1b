/* Diagnostics of mutable lists and key functions (issue 14, item 3): what stays unsupported
 * (lists of other types, slice assignment, del of names, keys that are not a function name,
 * str.method or a one-parameter lambda) and CPython's TypeErrors known at compile time, each
 * with its line and column and without a leak. The supported forms are covered by
 * e2e_oracle_mlists.py. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

#define XS "def f(s):\n    xs = s.split()\n"

static const bad cases[] = {
    {XS "    xs.append(1)\n    return s\n", UNS, 3, 15,
     "unsupported: a value of type int in a list of str (a list holds one type)"},
    {"def f(s):\n    s[0] = 'a'\n    return s\n", TYP, 2, 5,
     "'str' object does not support item assignment"},
    {"def f(s):\n    del s[0]\n    return s\n", TYP, 2, 9,
     "'str' object doesn't support item deletion"},
    {"def f(s):\n    del s\n    return 'x'\n", UNS, 2, 5,
     "unsupported: del statements (only del xs[i] and del d[k])"},
    {XS "    xs[0:1] = ['a']\n    return s\n", UNS, 3, 5,
     "unsupported: assignment to a subscript here (only xs[i] = value)"},
    {XS "    xs[0] = xs[1] = 'a'\n    return s\n", UNS, 3, 19,
     "unsupported: chained assignment to a subscript"},
    {XS "    return sorted(xs, key=lambda a, b: a)\n", UNS, 3, 27,
     "unsupported: a key lambda that does not take exactly one parameter"},
    {XS "    k = len(s)\n    return sorted(xs, key=k)\n", UNS, 4, 27,
     "unsupported: a key function held in a variable ('k')"},
    {XS "    return sorted(xs, key=s.lower)\n", UNS, 3, 27,
     "unsupported: a key that is not a function name, a str method (key=str.lower) or a lambda"},
    {XS "    return sorted(xs, cmp=len)\n", TYP, 3, 23,
     "'cmp' is an invalid keyword argument for sorted()"},
    {XS "    return max(xs, default=None)\n", UNS, 3, 28,
     "unsupported: max() with a default of type NoneType (only str, the items' type)"},
    {XS "    return max(s, 1, key=len)\n", UNS, 3, 19,
     "unsupported: a list mixing str and int (lists hold one type)"},
    {XS "    return max(s, s, default='')\n", TYP, 3, 12,
     "Cannot specify a default for max() with multiple positional arguments"},
    {XS "    return sorted(enumerate(s))\n", UNS, 3, 19,
     "unsupported: enumerate() outside the iterable of a for loop or comprehension"},
    {XS "    return [1, 2.5]\n", UNS, 3, 16,
     "unsupported: a list mixing int and float (lists hold one type)"},
    /* A list result shows an item's type: Python would keep [1, True] and [0.5, 1]. */
    {XS "    ns = [1]\n    ns.append(True)\n    return s\n", UNS, 4, 15,
     "unsupported: storing a value of type bool in a list of int (lists hold one type; convert "
     "it first)"},
    {XS "    fs = [0.5]\n    fs[0] = 1\n    return s\n", UNS, 4, 13,
     "unsupported: storing a value of type int in a list of float (lists hold one type; convert "
     "it first)"},
    {XS "    ns = [1]\n    ns.insert(0, 2.5)\n    return s\n", UNS, 4, 18,
     "unsupported: storing a value of type float in a list of int (lists hold one type; convert "
     "it first)"},
    {XS "    return [[1]]\n", UNS, 3, 13,
     "unsupported: lists of list (only lists of str, int, float or bool)"},
    {XS "    ns = [1]\n    ns.append('a')\n    return s\n", UNS, 4, 15,
     "unsupported: a value of type str in a list of int (lists hold one type)"},
    {XS "    ns = [1]\n    ns.extend(xs)\n    return s\n", UNS, 4, 15,
     "unsupported: extending a list of int with a list (lists hold one type)"},
    {XS "    return str(sum(xs))\n", TYP, 3, 16,
     "sum() can't sum strings [use ''.join(seq) instead]"},
    {XS "    return str(max([1], default='x'))\n", UNS, 3, 33,
     "unsupported: max() with a default of type str (only int, the items' type)"},
    {XS "    return str(sum([1], 5))\n", UNS, 3, 16,
     "unsupported: sum() with a start value"},
    {XS "    return xs.foo()\n", TYP, 3, 12,
     "'list' object has no attribute 'foo'"},
    {XS "    xs.append()\n    return s\n", TYP, 3, 5,
     "list.append() takes exactly one argument (0 given)"},
    {XS "    xs.insert(1)\n    return s\n", TYP, 3, 5,
     "insert expected 2 arguments, got 1"},
    {XS "    return xs.pop('a')\n", TYP, 3, 19,
     "'str' object cannot be interpreted as an integer"},
    {XS "    xs['a'] = 'b'\n    return s\n", TYP, 3, 8,
     "list indices must be integers or slices, not str"},
    {XS "    xs.sort(len)\n    return s\n", TYP, 3, 5,
     "sort() takes no positional arguments"},
    {"def g(key):\n    return key\n\ndef f(s):\n    return g(key=lambda w: w)\n", UNS, 5, 14,
     "unsupported: lambda inside an expression (only as key= of sorted, min, max and list.sort)"},
    {XS "    return sorted(xs, key=lambda w: w.split())\n", UNS, 3, 37,
     "unsupported: a key function returning list (only str, int, float or bool keys)"},
    {XS "    xs.sort(reverse='x')\n    return s\n", TYP, 3, 21,
     "'str' object cannot be interpreted as an integer"},
    {XS "    return sorted(xs, key=nothing)\n", TYP, 3, 27,
     "name 'nothing' is not defined"},
    {XS "    return sorted(s, xs)\n", TYP, 3, 12,
     "sorted expected 1 argument, got 2"},
    {XS "    return min(5, key=len)\n", TYP, 3, 16,
     "'int' object is not iterable"},
    {XS "    return xs.count(1)\n", UNS, 3, 21,
     "unsupported: a value of type int in a list of str (a list holds one type)"},
    {XS "    xs[0] += 'a'\n    return s\n", UNS, 3, 5,
     "unsupported: augmented assignment to an item (write x[k] = x[k] + v)"},
    {XS "    return sorted(xs, key=lambda w: (len(w), w.split()))\n", UNS, 3, 46,
     "unsupported: a tuple key holding a list (only str, int, float or bool items)"},
    {XS "    return sorted(xs, key=lambda w: [w])\n", UNS, 3, 37,
     "unsupported: a key function returning list (only str, int, float or bool keys)"},
    {XS "    xs.sort(key=lambda w: xs.index(w), cmp=None)\n    return s\n", TYP, 3, 40,
     "'cmp' is an invalid keyword argument for sort()"},
    {XS "    return sorted(xs, key=lambda w: undefined_name)\n", TYP, 3, 37,
     "name 'undefined_name' is not defined"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_mlists: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_mlists");
}

/* dict and set features that stay compile errors (issue 14, item 2): mixed key or value types,
 * other key and value types, nested dicts, dict and set methods not supported, in-place set
 * operators, iterating a set (its CPython order depends on the hash seed), mutating or
 * aliasing a module-level dict, dict and set results; each with its line and column and
 * without a leak. The supported forms are covered by e2e_oracle_dicts.py. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

static const bad cases[] = {
    {"def f(s):\n    d = {'a': 1, 'b': 'x'}\n    return s\n", UNS, 2, 23,
     "unsupported: a value of type str with a dict of int values (a dict holds one value type)"},
    {"def f(s):\n    d = {'a': 1.5, 'b': 2}\n    return s\n", UNS, 2, 25,
     "unsupported: a value of type int with a dict of float values (a dict holds one value type)"},
    {"def f(s):\n    d = {1: 'a', 'b': 'x'}\n    return s\n", UNS, 2, 18,
     "unsupported: a dict mixing int and str keys (one key type)"},
    {"def f(s):\n    d = {True: 'a'}\n    return s\n", UNS, 2, 10,
     "unsupported: bool keys (use int or str keys)"},
    {"def f(s):\n    d = {1.5: 'a'}\n    return s\n", UNS, 2, 10,
     "unsupported: keys of type float (only str and int)"},
    {"def f(s):\n    d = {'a': {'b': 'c'}}\n    return s\n", UNS, 2, 15,
     "unsupported: dict values of type dict (only str, int, float, bool and list of str)"},
    {"def f(s):\n    d = {'a': None}\n    return s\n", UNS, 2, 15,
     "unsupported: None as a dict value"},
    {"def f(s):\n    d = {'a': 'x'}\n    d.popitem()\n    return s\n", UNS, 3, 5,
     "unsupported: dict method 'popitem'"},
    {"def f(s):\n    x = {'a'}\n    x |= {'b'}\n    return s\n", UNS, 3, 5,
     "unsupported: '|=' on a set (write x = x | ...)"},
    {"def f(s):\n    x = {'a', 'b'}\n    y = x | {1}\n    return s\n", UNS, 3, 9,
     "unsupported: '|' of sets of different item types"},
    {"def f(s):\n    for c in {'a', 'b'}:\n        pass\n    return s\n", UNS, 2, 14,
     "unsupported: iterating over a set (CPython's order depends on the string hash seed; keep the items in a dict or a list)"},
    {"def f(s):\n    return ''.join([c for c in set(s)])\n", UNS, 2, 32,
     "unsupported: iterating over a set (CPython's order depends on the string hash seed; keep the items in a dict or a list)"},
    {"M = {'a': 'x'}\ndef f(s):\n    M['b'] = s\n    return s\n", UNS, 3, 5,
     "unsupported: the module-level dict 'M' used other than by lookups (d[k], d.get, in, len, iteration): changing it would carry state from row to row"},
    {"M = {'a': 'x'}\ndef f(s):\n    d = M\n    return s\n", UNS, 3, 9,
     "unsupported: the module-level dict 'M' used other than by lookups (d[k], d.get, in, len, iteration): changing it would carry state from row to row"},
    {"M = {'a': 'x'}\ndef f(s):\n    return M.pop('a')\n", UNS, 3, 12,
     "unsupported: the module-level dict 'M' used other than by lookups (d[k], d.get, in, len, iteration): changing it would carry state from row to row"},
    {"def f(s):\n    return {'a': 'x'}\n", UNS, 2, 5,
     "unsupported: returning a dict (a UDF returns str, int, float, bool, a list or a tuple)"},
    {"def f(s):\n    return {'a', 'b'}\n", UNS, 2, 5,
     "unsupported: returning a set (a UDF returns str, int, float, bool, a list or a tuple)"},
    {"def f(s):\n    d = {'a': 'x'}\n    return d.get(5, 'y')\n", UNS, 3, 18,
     "unsupported: a key of type int in a dict of str keys (never found in Python)"},
    {"def f(s):\n    d = {'a': 1}\n    return d.get(s, 'y')\n", UNS, 3, 21,
     "unsupported: a value of type str with a dict of int values (a dict holds one value type)"},
    {"def f(s):\n    d = {'a': 1}\n    return d.get(s, True)\n", UNS, 3, 21,
     "unsupported: a value of type bool with a dict of int values (a dict holds one value type)"},
    {"def f(s):\n    x = {'a'}\n    return x[0]\n", TYP, 3, 12,
     "'set' object is not subscriptable"},
    {"def f(s):\n    d = dict(a=1)\n    return s\n", UNS, 2, 9,
     "unsupported: dict() with arguments (write a display or a comprehension)"},
    {"def f(s):\n    d = {**{'a': 1}}\n    return s\n", UNS, 2, 10,
     "unsupported: unpacking (* or **) in a dict or set display"},
    {"def f(s):\n    d = {}\n    return len(d.get(s, 'x'))\n", TYP, 3, 16,
     "cannot infer the type of the items of this dict"},
    {"def f(s):\n    d = {'a': 'x'}\n    for k, v in d:\n        pass\n    return s\n", UNS, 3, 9,
     "unsupported: unpacking the str items of a dict in a for target (only the items of enumerate() and zip())"},
    {"def f(s):\n    d = {'a', s}\n    return str(d)\n", UNS, 3, 16,
     "unsupported: formatting a set (CPython's order depends on the string hash seed; sort it "
     "first: sorted(s))"},
    {"def f(s):\n    d = {'a': 'x'}\n    del s[0]\n    return s\n", TYP, 3, 9,
     "'str' object doesn't support item deletion"},
    {"def f(s):\n    d = {'a': 'x'}\n    d['a'] += 'y'\n    return s\n", UNS, 3, 5,
     "unsupported: augmented assignment to an item (write x[k] = x[k] + v)"},
    {"def f(s):\n    d = {'a': 'x'}\n    x = d.keys()\n    return s\n", UNS, 3, 9,
     "unsupported: d.keys(), d.values() or d.items() stored in a variable (use them directly, or list(d.keys()))"},
    {"def f(s):\n    d = {'a': 'x'}\n    x = d.items()\n    return s\n", UNS, 3, 5,
     "unsupported: d.keys(), d.values() or d.items() stored in a variable (use them directly, or list(d.keys()))"},
    {"def f(s):\n    d = {'a': 1}\n    return ','.join(d.values())\n", UNS, 3, 21,
     "unsupported: d.values() of int items other than as the iterable of a for loop"},
    {"def f(s):\n    return len(list({'a'}))\n", UNS, 2, 16,
     "unsupported: list() of a set (only of a dict of str keys; a set's order differs between CPython runs)"},
    {"def f(s):\n    d = {'a': 'x'}\n    d.pop('a', None)\n    return s\n", UNS, 3, 16,
     "unsupported: d.pop(k, None)"},
    {"def f(s):\n    x = {'a'}\n    return len(x.union({'b'}))\n", UNS, 3, 16,
     "unsupported: set method 'union'"},
    {"def f(s):\n    x = set([1, 2])\n    return s\n", UNS, 2, 9,
     "unsupported: set() of a list (only of a str, or a list or tuple of str)"},
    {"def f(s):\n    x = set()\n    x['a'] = 1\n    return s\n", TYP, 3, 5,
     "'set' object does not support item assignment"},
    {"def f(s):\n    d = {'a': 1}\n    d.update({1: 2})\n    return s\n", UNS, 3, 14,
     "unsupported: d.update() of a dict (only of a dict of the same types)"},
    {"def f(s):\n    x = {'a'} - {'a': 1}\n    return s\n", TYP, 2, 9,
     "unsupported operand type(s) for -: 'set' and 'dict'"},
    {"def f(s):\n    raise LookupError('x')\n", UNS, 2, 11,
     "unsupported: raising LookupError (raise ValueError, TypeError, IndexError, KeyError, ZeroDivisionError, OverflowError, RuntimeError, MemoryError or UnboundLocalError)"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_dicts: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_dicts");
}

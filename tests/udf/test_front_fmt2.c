/* Compile errors of str.maketrans / translate, %(name) formatting and repr() of containers:
 * CPython's errors for literal arguments (reported when compiling, with CPython's exception
 * and message) and "unsupported: ..." for the forms nrt does not run. Exact message, line,
 * column and status; nothing leaks; every allocation failure of the front end is NRT_ENOMEM. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "udf/ast_arena.h"
#include "udf/front.h"
#include "udf/front_cases.h"

#define VAL NRT_EVALUE
#define KEY NRT_EKEY

#define F(body) "def f(s):\n    return " body "\n"

static const bad cases[] = {
    /* str.maketrans of literals: CPython's errors */
    {F("s.translate(str.maketrans('ab', 'x'))"), VAL, 2, 24,
     "str.maketrans raises ValueError: the first two maketrans arguments must have equal "
     "length"},
    {F("s.translate(str.maketrans({'ab': 'x'}))"), VAL, 2, 24,
     "str.maketrans raises ValueError: string keys in translate table must be of length 1"},
    {F("s.translate(str.maketrans({1.5: 'x'}))"), TYP, 2, 24,
     "str.maketrans raises TypeError: keys in translate table must be strings or integers"},
    {F("s.translate(str.maketrans('abc'))"), TYP, 2, 24,
     "str.maketrans raises TypeError: if you give only one argument to maketrans it must be a "
     "dict"},
    {F("s.translate(str.maketrans('a', 1))"), TYP, 2, 24,
     "str.maketrans raises TypeError: maketrans() argument 2 must be str, not int"},
    {F("s.translate(str.maketrans('a', 'b', None))"), TYP, 2, 24,
     "str.maketrans raises TypeError: maketrans() argument 3 must be str, not None"},
    {F("s.translate(str.maketrans(1, 'a'))"), TYP, 2, 24,
     "str.maketrans raises TypeError: first maketrans argument must be a string if there is a "
     "second argument"},
    {F("s.translate(str.maketrans())"), TYP, 2, 24, "maketrans expected at least 1 argument, got 0"},
    {F("s.translate(str.maketrans('a', 'b', 'c', 'd'))"), TYP, 2, 24,
     "maketrans expected at most 3 arguments, got 4"},
    {F("s.translate(str.maketrans(x='a'))"), TYP, 2, 24,
     "str.maketrans() takes no keyword arguments"},
    {F("s.translate()"), TYP, 2, 12, "str.translate() takes exactly one argument (0 given)"},
    {F("s.translate({}, {})"), TYP, 2, 12, "str.translate() takes exactly one argument (2 given)"},
    {F("s.translate(table={})"), TYP, 2, 12, "str.translate() takes no keyword arguments"},
    /* what nrt does not run */
    {F("s.translate(str.maketrans(s, s))"), UNS, 2, 38,
     "unsupported: a str.maketrans argument that is not a literal or a module-level constant"},
    {"def f(s):\n    t = str.maketrans('a', 'b')\n    return s.translate(t)\n", UNS, 2, 9,
     "unsupported: a str.maketrans table used other than as the argument of s.translate(...) "
     "(pass it there directly, or bind it to a module-level name)"},
    {F("s.translate(len(s))"), UNS, 2, 24,
     "unsupported: str.translate with a table of type int (a dict or a str.maketrans table)"},
    {F("s.translate(str.maketrans({'a': 0xd800}))"), UNS, 2, 24,
     "unsupported: a translate table mapping to a surrogate code point"},
    /* %(name) formatting */
    {F("'%(a)s' % s"), TYP, 2, 12, "%-formatting raises TypeError: format requires a mapping"},
    {F("'%(a)s' % (s,)"), TYP, 2, 12, "%-formatting raises TypeError: format requires a mapping"},
    {F("'%(a)s' % {'b': s}"), KEY, 2, 12, "%-formatting raises KeyError: 'a'"},
    {F("'%(a' % {'a': s}"), VAL, 2, 12, "%-formatting raises ValueError: incomplete format key"},
    {F("'%(a)*d' % {'a': s}"), TYP, 2, 12,
     "%-formatting raises TypeError: not enough arguments for format string"},
    {F("'%(a)s %s' % {'a': s}"), UNS, 2, 12,
     "unsupported: a conversion without a (key) when the argument is a mapping (CPython would "
     "format the whole dict)"},
    {F("'%(a)s' % {s: s}"), UNS, 2, 22,
     "unsupported: %(name) formatting with a dict display whose keys are not all str literals"},
    {F("'%(a)s' % s.split()"), UNS, 2, 22,
     "unsupported: %(name) formatting of a mapping that is not a dict display or a variable"},
    {"def f(s):\n    d = {1: s}\n    return '%(a)s' % d\n", UNS, 3, 22,
     "unsupported: %(name) formatting of a dict whose keys are not str"},
    {"def f(s):\n    d = s.split()\n    return '%(a)s' % d\n", TYP, 3, 12,
     "%-formatting raises TypeError: list indices must be integers or slices, not str"},
    {F("'%(a)d' % {'a': s}"), TYP, 2, 28,
     "%-formatting raises TypeError: %d format: a real number is required, not str"},
    /* repr() / str() of containers */
    {F("f'{s.split():>10}'"), TYP, 2, 15, "unsupported format string passed to list.__format__"},
    {F("'%d' % (s.split(),)"), TYP, 2, 20,
     "%-formatting raises TypeError: %d format: a real number is required, not list"},
    {F("'%x' % (s.partition(','),)"), TYP, 2, 20,
     "%-formatting raises TypeError: %x format: an integer is required, not tuple"},
    {F("'%f' % ({s: 1},)"), TYP, 2, 20,
     "%-formatting raises TypeError: must be real number, not dict"},
    {F("'%s' % s.partition(',')"), UNS, 2, 19,
     "unsupported: %-formatting with a tuple value as the right operand (CPython takes its "
     "items as the arguments; write a tuple display)"},
    {F("repr({s, 'a'})"), UNS, 2, 17,
     "unsupported: formatting a set (CPython's order depends on the string hash seed; sort it "
     "first: sorted(s))"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_fmt2: %d bad programs diagnosed exactly\n", n);
  udf_arena_chunk_size = getenv("NRT_UNDER_VALGRIND") ? 256 : 1;
  const char *src = "T = str.maketrans({'a': 'xyz', 'é': None, 98: 0x263A})\n"
                    "def f(s):\n    u = s.translate(str.maketrans('abc', 'xyz', 'q'))\n"
                    "    v = s.translate({97: 'b', 0x65e5: None})\n"
                    "    w = '%(a)s|%(b)5d|%(a)r' % {'a': s.upper(), 'b': len(s)}\n"
                    "    x = {w: len(w) for w in s.split()}\n"
                    "    return u + v + w + s.translate(T) + repr(s.split()) + f'{x!a}' + str(x)\n";
  check_every_allocation_failure("fmt2 program", front_compile_trial, &src);
  return check_finish("test_front_fmt2");
}

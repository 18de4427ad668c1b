/* Compile errors of re.compile's pattern objects, re.sub's lambda replacements and
 * m.groupdict() (issue 14 item 7): CPython's TypeError/ValueError messages for the calls, and
 * what stays unsupported, each with its exact diagnostic and location; nothing leaks. */
#include <stdio.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

#define VAL NRT_EVALUE

static const bad cases[] = {
    {"import re\nP = re.compile('a')\ndef f(s):\n    return str(P)\n", UNS, 4, 16,
     "unsupported: a re.compile pattern object used as a value (bind it once, at module level "
     "or at the top of the function, and call its methods: P.search(s), P.sub(r, s), ...)"},
    {"import re\ndef f(s):\n    p = re.compile('a')\n    p = re.compile('b')\n"
     "    return p.search(s) is None\n", UNS, 3, 9,
     "unsupported: a re.compile pattern object used as a value (bind it once, at module level "
     "or at the top of the function, and call its methods: P.search(s), P.sub(r, s), ...)"},
    {"import re\ndef f(s):\n    if s:\n        p = re.compile('a')\n"
     "        return p.sub('', s)\n    return s\n", UNS, 4, 13,
     "unsupported: a re.compile pattern object used as a value (bind it once, at module level "
     "or at the top of the function, and call its methods: P.search(s), P.sub(r, s), ...)"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.search(s, 'x') is None\n", TYP, 4,
     24, "'str' object cannot be interpreted as an integer"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.findall(s, endpos=2)\n", UNS, 4, 12,
     "unsupported: the pos and endpos arguments of Pattern.findall"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.search(s, 1, 2, 3) is None\n", TYP, 4,
     12, "search() takes at most 3 arguments (4 given)"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.sub('a')\n", TYP, 4, 12,
     "sub() missing required argument 'string' (pos 2)"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.sub('a', s, flags=2)\n", TYP, 4, 26,
     "'flags' is an invalid keyword argument for sub()"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.split(s, 1, maxsplit=2)\n", TYP, 4,
     26, "argument for split() given by name ('maxsplit') and position (2)"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return re.sub(P, 'b', s, flags=re.I)\n", VAL,
     4, 36, "ValueError: cannot process flags argument with a compiled pattern"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.scanner(s)\n", UNS, 4, 12,
     "unsupported: Pattern.scanner()"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.foo(s)\n", TYP, 4, 12,
     "'re.Pattern' object has no attribute 'foo'"},
    {"import re\nP = re.compile('a')\ndef f(s):\n    return P.foo\n", TYP, 4, 12,
     "'re.Pattern' object has no attribute 'foo'"},
    {"import re\nP = re.compile('(?P<a>x)')\ndef f(s):\n    return P.groupindex['a']\n", UNS, 4,
     12, "unsupported: Pattern.groupindex (a mapping; use the group names in m.group('name'))"},
    {"import re\ndef f(s):\n    p = re.compile('a', len(s))\n    return p.sub('', s)\n", UNS, 3,
     25, "unsupported: re flags that are not constants (write re.I | re.M ...)"},
    {"import re\nP = re.compile('(a')\ndef f(s):\n    return P.sub('', s)\n", VAL, 2, 16,
     "re.error: missing ), unterminated subpattern at position 0"},
    {"import re\nP = re.compile('[a')\ndef f(s):\n    return s\n", VAL, 2, 16,
     "re.error: unterminated character set at position 0"},
    {"import re\nP = re.compile('a', 'b', 'c')\ndef f(s):\n    return P.sub('', s)\n", TYP, 2, 5,
     "compile() takes from 1 to 2 positional arguments but 3 were given"},
    {"import re\nP = re.compile(str(1))\ndef f(s):\n    return s\n", UNS, 2, 16,
     "unsupported: module-level constant 'P' that is not a literal, a tuple of literals or an "
     "expression of them"},
    /* lambda replacements */
    {"import re\ndef f(s):\n    return re.sub('a', lambda m: m.start(), s)\n", UNS, 3, 24,
     "unsupported: a replacement function returning int (it must return str)"},
    {"import re\ndef f(s):\n    return re.sub('a', lambda: 'x', s)\n", TYP, 3, 24,
     "f.<locals>.<lambda>() takes 0 positional arguments but 1 was given"},
    {"import re\ndef f(s):\n    return re.search('a', lambda m: 'x') is None\n", UNS, 3, 27,
     "unsupported: lambda inside an expression"},
    {"import re\nlambda s: re.sub('a', lambda m: 'b', s)\n", UNS, 2, 23,
     "unsupported: lambda inside an expression"},
    /* match objects */
    {"import re\ndef f(s):\n    m = re.search('(?P<x>a)', s)\n    if m:\n"
     "        return m.groupdict('a', 'b')['x']\n    return ''\n", TYP, 5, 16,
     "groupdict() takes at most 1 argument (2 given)"},
    {"import re\ndef f(s):\n    m = re.search('(a)', s)\n    if m:\n"
     "        return m.expand(r'\\1')\n    return ''\n", UNS, 5, 16, "unsupported: m.expand()"},
    {"import re\ndef f(s):\n    m = re.search('(a)', s)\n    if m:\n"
     "        return m.lastindex\n    return 0\n", UNS, 5, 16,
     "unsupported: m.lastindex (the number of the last group that took part)"},
    {"import re\ndef f(s):\n    m = re.search('(?P<x>a)', s)\n    if m:\n"
     "        return m.lastgroup\n    return ''\n", UNS, 5, 16,
     "unsupported: m.lastgroup (the name of the last group that took part)"},
    {"import re\ndef f(s):\n    m = re.search('(a)', s)\n    if m:\n"
     "        return m.string\n    return ''\n", UNS, 5, 16,
     "unsupported: m.string (use the string searched)"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_re2: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_re2");
}

/* Compile errors of `import re` (issue 14 item 7): patterns CPython's re rejects (its re.error
 * message and position, generated from CPython 3.11), constructs PCRE2 cannot match the way
 * Python does, and the parts of the re module that are not supported, each with its exact
 * diagnostic; nothing leaks (the compiled patterns are freed with the failed module). */
#include <stdio.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

static const bad cases[] = {
    /* CPython's re.error, position in code points */
    {"import re\ndef f(s):\n    return re.search('*a', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: nothing to repeat at position 0"},
    {"import re\ndef f(s):\n    return re.search('a**', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: multiple repeat at position 2"},
    {"import re\ndef f(s):\n    return re.search('a{3,2}', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: min repeat greater than max repeat at position 2"},
    {"import re\ndef f(s):\n    return re.search('(a', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: missing ), unterminated subpattern at position 0"},
    {"import re\ndef f(s):\n    return re.search('a)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unbalanced parenthesis at position 1"},
    {"import re\ndef f(s):\n    return re.search('[a', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unterminated character set at position 0"},
    {"import re\ndef f(s):\n    return re.search('\\\\q', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad escape \\q at position 0"},
    {"import re\ndef f(s):\n    return re.search('\\\\x4', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: incomplete escape \\x4 at position 0"},
    {"import re\ndef f(s):\n    return re.search('a(?i)b', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: global flags not at the start of the expression at position 1"},
    {"import re\ndef f(s):\n    return re.search('(?P<1>a)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad character in group name '1' at position 4"},
    {"import re\ndef f(s):\n    return re.search('(?P<a>x)(?P<a>y)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: redefinition of group name 'a' as group 2; was group 1 at position 12"},
    {"import re\ndef f(s):\n    return re.search('(?P=b)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unknown group name 'b' at position 4"},
    {"import re\ndef f(s):\n    return re.search('(a\\\\1)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: cannot refer to an open group at position 2"},
    {"import re\ndef f(s):\n    return re.search('\\\\2(a)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: invalid group reference 2 at position 1"},
    {"import re\ndef f(s):\n    return re.search('(?<=a|bc)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: look-behind requires fixed-width pattern"},
    {"import re\ndef f(s):\n    return re.search('(?<n>a)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unknown extension ?<n at position 1"},
    {"import re\ndef f(s):\n    return re.search('[b-a]', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad character range b-a at position 1"},
    {"import re\ndef f(s):\n    return re.search('[\\\\d-z]', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad character range \\d-z at position 1"},
    {"import re\ndef f(s):\n    return re.search('\\\\U00110000', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad escape \\U00110000 at position 0"},
    {"import re\ndef f(s):\n    return re.search('\\\\8', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: invalid group reference 8 at position 1"},
    {"import re\ndef f(s):\n    return re.search('[\\\\8]', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad escape \\8 at position 1"},
    {"import re\ndef f(s):\n    return re.search('\\\\400', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: octal escape value \\400 outside of range 0-0o377 at position 0"},
    {"import re\ndef f(s):\n    return re.search('(?L)a', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad inline flags: cannot use 'L' flag with a str pattern at position 3"},
    {"import re\ndef f(s):\n    return re.search('(?au)a', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad inline flags: flags 'a', 'u' and 'L' are incompatible at position 4"},
    {"import re\ndef f(s):\n    return re.search('(?z)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unknown extension ?z at position 1"},
    {"import re\ndef f(s):\n    return re.search('(?Px)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unknown extension ?Px at position 1"},
    {"import re\ndef f(s):\n    return re.search('(?#abc', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: missing ), unterminated comment at position 0"},
    {"import re\ndef f(s):\n    return re.search('(?(1)a|b|c)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: conditional backref with more than two branches at position 8"},
    {"import re\ndef f(s):\n    return re.search('(?(2)a)(b)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: invalid group reference 2 at position 3"},
    {"import re\ndef f(s):\n    return re.search('(?(x)a)', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: unknown group name 'x' at position 3"},
    {"import re\ndef f(s):\n    return re.search('^*', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: nothing to repeat at position 1"},
    {"import re\ndef f(s):\n    return re.search('a{1}{2}', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: multiple repeat at position 4"},
    {"import re\ndef f(s):\n    return re.search('a*?+', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: multiple repeat at position 3"},
    {"import re\ndef f(s):\n    return re.search('[\\\\A]', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: bad escape \\A at position 1"},
    {"import re\ndef f(s):\n    return re.search('(?<=a+)b', s) is None\n", NRT_EVALUE, 3, 22,
     "re.error: look-behind requires fixed-width pattern"},
    /* not translatable exactly: refused */
    {"import re\ndef f(s):\n    return re.search(r'\\N{DIGIT ONE}', s) is None\n", UNS, 3, 22,
     "unsupported: \\N{...} named characters in a pattern (write the character or \\uXXXX)"},
    {"import re\ndef f(s):\n    return re.search(r'[\\S]', s) is None\n", UNS, 3, 22,
     "unsupported: \\S inside a character class (PCRE2's \\S differs from Python's on "
     "\\x1c-\\x1f; use re.ASCII or list the characters)"},
    {"import re\ndef f(s):\n    return re.search('é', s, re.A | re.I) is None\n", UNS, 3, 22,
     "unsupported: re.ASCII with re.IGNORECASE and a non-ASCII character in the pattern (PCRE2 "
     "would match its other cases)"},
    {"import re\ndef f(s):\n    return re.search('(?a:x)', s) is None\n", UNS, 3, 22,
     "unsupported: a scoped ASCII flag (?a:...) (use re.A for the whole pattern)"},
    {"import re\ndef f(s):\n    return re.search('(?P<ü>x)', s) is None\n", UNS, 3, 22,
     "unsupported: a non-ASCII group name 'ü' (PCRE2 10.42 allows ASCII names only)"},
    {"import re\ndef f(s):\n    return re.search(r'\\ud800', s) is None\n", UNS, 3, 22,
     "unsupported: a surrogate code point (\\ud800) in a pattern"},
    /* the module's API */
    {"import re\ndef f(s):\n    p = 'a+'\n    return re.search(p, s) is None\n", UNS, 4, 22,
     "unsupported: a pattern that is not a string literal in re.search (patterns are compiled "
     "once, when the UDF is compiled)"},
    {"import re\ndef f(s):\n    p = re.compile(s)\n    return p.search(s) is None\n", UNS, 3, 20,
     "unsupported: a pattern that is not a string literal in re.compile (patterns are compiled "
     "once, when the UDF is compiled)"},
    {"import re\ndef f(s):\n    t = re.subn('a', 'b', s)\n    return s\n", UNS, 3, 5,
     "unsupported: a tuple of mixed types stored in a variable (only tuples of str)"},
    {"import re\ndef f(s):\n    a, b = re.subn('a', s)\n    return s\n", TYP, 3, 12,
     "subn() missing 1 required positional argument: 'string'"},
    {"import re\ndef f(s):\n    it = re.finditer('a', s)\n    return s\n", UNS, 3, 10,
     "unsupported: re.finditer outside the iterable of a for loop or comprehension (an "
     "iterator as a value)"},
    {"import re\ndef r(m):\n    return None\ndef f(s):\n    return re.sub('a', r, s)\n", UNS, 5,
     24, "unsupported: a replacement function returning NoneType (it must return str)"},
    {"import re\ndef r(m, n):\n    return ''\ndef f(s):\n    return re.sub('a', r, s)\n", TYP, 5,
     24, "r() missing 1 required positional argument: 'n'"},
    {"import re\ndef f(s):\n    return re.sub('a', s, s)\n", UNS, 3, 24,
     "unsupported: a replacement that is not a string literal in re.sub"},
    {"import re\ndef f(s):\n    return re.sub('(a)', r'\\2', s)\n", NRT_EVALUE, 3, 26,
     "re.error: invalid group reference 2 at position 1"},
    {"import re\ndef f(s):\n    return re.sub('(a)', r'\\g<x>', s)\n", NRT_EINDEX, 3, 26,
     "IndexError: unknown group name 'x'"},
    {"import re\ndef f(s):\n    return re.sub('(a)', r'\\q', s)\n", NRT_EVALUE, 3, 26,
     "re.error: bad escape \\q at position 0"},
    {"import re\ndef f(s):\n    return re.sub('(a)', r'\\g<1', s)\n", NRT_EVALUE, 3, 26,
     "re.error: missing >, unterminated name at position 3"},
    {"import re\ndef f(s):\n    return re.findall('(a)(b)', s)\n", UNS, 3, 23,
     "unsupported: re.findall with 2 groups (a list of tuples; use one group, (?:...) for the "
     "others)"},
    {"import re\ndef f(s):\n    return re.split('(a)|b', s)\n", UNS, 3, 21,
     "unsupported: re.split with a group that may not take part in a match (group 1: CPython "
     "puts None in the list; lists here hold str only)"},
    {"import re\ndef f(s):\n    return re.search('a', s, flags=len(s))\n", UNS, 3, 36,
     "unsupported: re flags that are not constants (write re.I | re.M ...)"},
    {"import re\ndef f(s):\n    return re.search('a', 5) is None\n", TYP, 3, 27,
     "expected string or bytes-like object, got 'int'"},
    {"import re\ndef f(s):\n    return re.search('a') is None\n", TYP, 3, 12,
     "search() missing 1 required positional argument: 'string'"},
    {"import re\ndef f(s):\n    return re.search('a', s, foo=1) is None\n", TYP, 3, 30,
     "search() got an unexpected keyword argument 'foo'"},
    {"import re\ndef f(s):\n    return re.search('a', s)\n", UNS, 3, 5,
     "unsupported: returning a re.Match object (return m.group(), m.start(), ...)"},
    {"import re\ndef f(s):\n    m = re.search('a', s)\n    return m.group()\n", TYP, 4, 12,
     "calling a method of a value of type re.Match | None that may be None; such a value can "
     "only be returned, assigned or tested with 'is None'"},
    {"import re\ndef f(s):\n    m = re.search('(a)', s)\n    if m:\n        return m.group(2)\n"
     "    return ''\n", NRT_EINDEX, 5, 24, "IndexError: no such group"},
    {"import re\ndef f(s):\n    m = re.search('(?P<x>a)', s)\n    if m:\n        return m['y']\n"
     "    return ''\n", NRT_EINDEX, 5, 18, "IndexError: no such group"},
    {"import re\ndef f(s):\n    m = re.search('(?P<x>a)?', s)\n    if m:\n"
     "        d = m.groupdict()\n        return d['x']\n    return ''\n", UNS, 5, 13,
     "unsupported: m.groupdict() of a pattern whose group 'x' may not take part (a None "
     "value; use m.group('x'), which may be None)"},
    {"import re\ndef f(s):\n    m = re.search('(a)', s)\n    if m:\n        t = m.span()\n"
     "    return ''\n", UNS, 5, 9,
     "unsupported: a tuple of mixed types stored in a variable (only tuples of str)"},
    {"import re\ndef f(s):\n    m = re.search('(a)|b', s)\n    if m:\n"
     "        return ''.join(m.groups())\n    return ''\n", UNS, 5, 24,
     "unsupported: m.groups() of a pattern whose group 1 may not take part (a None item; use "
     "m.group(1), which may be None)"},
    {"import re\ndef f(s):\n    m = re.search('(a)?', s)\n    if m:\n"
     "        return m.group(1).upper()\n    return ''\n", TYP, 5, 16,
     "calling a method of a value of type str | None that may be None; such a value can only "
     "be returned, assigned or tested with 'is None'"},
    {"import re\ndef f(s):\n    m = re.search('(?P<x>a)', s)\n    if m:\n        return m[s]\n"
     "    return ''\n", UNS, 5, 18,
     "unsupported: a group name that is not a string literal (names are resolved when "
     "compiling)"},
    {"import re\ndef f(s):\n    m = re.search('(a)', s)\n    n = re.search('(b)', s)\n"
     "    if n:\n        m = n\n    return ''\n", TYP, 6, 9,
     "variable 'm' has type re.Match | None; cannot assign a value of type re.Match (a "
     "variable keeps one type)"},
    {"import re\ndef f(s):\n    g = re.sub\n    return s\n", UNS, 3, 9,
     "unsupported: functions as values ('re.sub')"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_re: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_re");
}

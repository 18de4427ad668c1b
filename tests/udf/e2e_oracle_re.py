#!/usr/bin/python3
"""CPython oracle for `import re` in UDFs (PCRE2 underneath): re.match/search/fullmatch/sub/
split/findall/escape, match objects (group, [], groups, start, end, `if m:`), flags, verbose
patterns, Unicode classes and case-insensitive matching over multilingual rows, and errors.

The cases run through e2e_oracle.py's machinery (same runner and checks: per-row results and
exception types equal to CPython's, the 2-thread apply equal, statistics balanced).

usage: e2e_oracle_re.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά 3.5 κείμενα ΣΊΣΥΦΟΣ", "日本語 の テキスト 42", "emoji😀here!? 👍🏽",
    "a\u2003b\tc\n", "Straße #1 (Zürich) STRASSE", "", "   ", "it's \"quoted\" \\ back",
    "İstanbul ıi Iİ", "e\u0301 café cafe\u0301", "x1c\x1cy\x1fz", "tel: 555-1234, 555-9876",
    "user@example.com; other.name@mail.co.uk", "٣٤٥ arabic digits ١٢", "KELVIN \u212a k K",
    "ſ long s", "line1\nline2\n", "aaa", "abcabc", "2026-11-25 and 1999-01-02"]]

# --- re.search / re.match / re.fullmatch and match objects
case("""import re

def f(s):
    m = re.search(r'(\\w+)\\s+(\\w+)', s)
    if m:
        return m.group(2) + '|' + m.group(1) + '|' + m.group()
    return '-'
""", rows=ROWS, name="search two words, m.group(i)")
case("""import re

def f(s):
    m = re.match(r'\\d+', s)
    if m is not None:
        return m.group(0)
    return None
""", rows=ROWS, name="match digits (Unicode Nd), nullable result")
case("""import re

def f(s):
    m = re.fullmatch(r'[\\w ]+', s)
    return m is not None
""", rows=ROWS, name="fullmatch bool")
case("""import re

def f(s):
    m = re.search(r'(?P<year>\\d{4})-(?P<month>\\d\\d)-(?P<day>\\d\\d)', s)
    if not m:
        return ''
    return m.group('day') + '.' + m['month'] + '.' + m[1] + ' @' + str(m.start()) + ':' + str(m.end('year'))
""", rows=ROWS, name="named groups, m['name'], start/end")
case("""import re

def f(s):
    m = re.search(r'(a)|(b)', s)
    if m is None:
        return 'none'
    g1 = m.group(1)
    g2 = m.group(2)
    r = ''
    if g1 is None:
        r += 'no1 '
    else:
        r += g1
    if g2 is not None:
        r += g2
    return r + str(m.start(2)) + str(m.end(1))
""", rows=ROWS, name="groups that do not take part: None, start -1")
case("""import re

def f(s):
    m = re.search(r'(\\S+)@(\\S+?)\\.(\\w+)', s)
    if m:
        a, b, c = m.groups()
        return c + '/' + b + '/' + a + '/' + '-'.join(m.groups())
    return ''
""", rows=ROWS, name="m.groups() unpacked and joined")
case("""import re

def f(s):
    m = re.search('😀|日本|ß|Σ', s)
    return -1 if m is None else m.start() * 100 + m.end()
""", rows=ROWS, name="positions in code points (emoji, CJK)")
case("""import re

def f(s):
    n = 0
    for w in s.split():
        if re.match('[a-zà-ÿ]+$', w):
            n += 1
    return n
""", rows=ROWS, name="match in a loop, class with a non-ASCII range")

case("""import re

def f(s):
    if (m := re.search(r'(\\d)(\\d)?', s)) and (g := m.group(2)) is not None:
        return g + m[1]
    if (m2 := re.match('[a-z]', s)) is not None:
        return m2.group() + str(m2.end())
    m3 = re.search('é|ß', s)
    return 'none' if m3 is None or m3.start() > 3 else m3.group()
""", rows=ROWS, name="walrus, and/or chains narrowing a match")

case("""import re

def f(s):
    out = ''
    m = re.search(r'\\w+', s)
    while m:
        out += m.group()[::-1] + '.'
        s = s[m.end():]
        m = re.search(r'\\w+', s)
    while (m2 := re.match('.', s)) is not None and len(out) < 40:
        out += m2[0]
        s = s[1:]
    return out
""", rows=ROWS, name="while m: / while (m := ...) is not None")

case("""import re

def f(s):
    a = re.findall('(x)', s)
    m = re.search(r'(?P<w>\\w)(?P<rest>\\w+)?', s)
    if m is None:
        return str(len(a))
    r = m.group('rest')
    return m['w'] + ('-' if r is None else r) + str(m.end('w')) + str(len(a))
""", rows=ROWS, name="a narrowed match keeps its pattern (names, optional groups)")

# --- re.sub
case("""import re

def f(s):
    return re.sub(r'\\s+', ' ', s)
""", rows=ROWS, name="sub whitespace (Unicode \\s, \\x1c-\\x1f included)")
case("""import re

def f(s):
    return re.sub(r'(\\w)(\\w*)', r'\\2\\1ay', s)
""", rows=ROWS, name="sub with \\1 \\2")
case("""import re

def f(s):
    return re.sub(r'(?P<d>\\d)', r'<\\g<d>\\g<1>\\g<0>>', s, count=3)
""", rows=ROWS, name="sub with \\g<name> \\g<1> and count=")
case("""import re

def f(s):
    return re.sub('x*', '-', s)
""", rows=ROWS, name="sub with empty matches (CPython 3.7 rules)")
case("""import re

def f(s):
    return re.sub('', '.', s)
""", rows=ROWS, name="sub of the empty pattern")
case("""import re

def f(s):
    return re.sub('(a)|b', r'[\\1]\\n\\t', s)
""", rows=ROWS, name="sub: unmatched group gives '', escapes in the template")
case("""import re

def f(s):
    return re.sub('a', 'b', s, 1, re.I) + re.sub('A', 'b', s, -1)
""", rows=ROWS, name="sub count positional, negative count")
case("""import re

def f(s):
    return re.sub(r'[^\\W\\d_]+', lambda_free(s), s)

def lambda_free(s):
    return '*'
""", rows=ROWS, name="sub with a replacement computed by a helper (a str)")

case("""import re

def f(s):
    new, n = re.subn(r'(\\w)\\w*', r'\\1.', s, flags=re.I)
    a, b = re.subn('x*', '-', s, 3)
    return new + str(n) + a + str(b)
""", rows=ROWS, name="new, n = re.subn(...)")

case("""import re

def swap(m):
    rest = m.group(2)
    if rest is None:
        return m[1].upper()
    return rest + m.group(1) + str(m.start())

def f(s):
    return re.sub(r'(\\w)(\\w+)?', swap, s, count=4)
""", rows=ROWS, name="re.sub with a replacement function")
case("""import re

def rep(m):
    return '<' + m.group() * 2 + '>'

def empty(m):
    return '<' + m.group() + str(m.end()) + '>'

def f(s):
    a, n = re.subn('[aeiouäöüé]', rep, s, flags=re.I)
    return a + str(n) + re.sub('x*', empty, s)
""", rows=ROWS, name="re.subn with a function, empty matches")
case("""import re

def rep(m):
    return str(10 // (m.end() - m.start() - 1))

def f(s):
    try:
        return re.sub(r'\\w+', rep, s)
    except ZeroDivisionError as e:
        return 'caught ' + str(e)
""", rows=ROWS, name="an exception raised by the replacement function")

# --- re.split / re.findall / re.escape
case("""import re

def f(s):
    return re.split(r'[\\s,;]+', s)
""", rows=ROWS, name="split on separators")
case("""import re

def f(s):
    return re.split(r'(\\d)', s, maxsplit=2)
""", rows=ROWS, name="split keeps the group, maxsplit")
case("""import re

def f(s):
    return re.split('x*', s)
""", rows=ROWS, name="split on empty matches")
case("""import re

def f(s):
    return re.findall(r'\\w+', s)
""", rows=ROWS, name="findall words")
case("""import re

def f(s):
    return re.findall(r'(\\d)\\d*', s)
""", rows=ROWS, name="findall one group")
case("""import re

def f(s):
    return len(re.findall('', s))
""", rows=ROWS, name="findall empty pattern count")
case("""import re

def f(s):
    return re.escape(s)
""", rows=ROWS, name="escape")
case("""import re

def f(s):
    return [w.upper() for w in re.findall(r'\\b\\w', s) if w.isalpha()]
""", rows=ROWS, name="findall in a comprehension, \\b")

# --- flags
case("""import re

def f(s):
    return re.findall('straße|σίσυφος|i', s, re.I)
""", rows=ROWS, name="IGNORECASE over Unicode")
case("""import re

def f(s):
    return re.findall('[a-z]+|k|s|ß|σ', s, re.I) + re.findall('[^a-hj-z ]', s, re.I)
""", rows=ROWS, name="IGNORECASE classes: Turkish i, Kelvin sign, long s, final sigma")
case("""import re

def f(s):
    return re.findall('ΐ|ﬅ|[ΰ]|[ά-ώ]', s, re.I)
""", rows=ROWS + [["ΐ ΐ ΰ ΰ ﬅ ﬆ ΆΈΉ"]], name="IGNORECASE: the equivalences PCRE2 lacks")
case("""import re

def f(s):
    return re.findall('^\\\\w+$', s, flags=re.M | re.IGNORECASE)
""", rows=ROWS, name="MULTILINE | IGNORECASE")
case("""import re

def f(s):
    return re.findall('(?m)^', s)
""", rows=ROWS, name="(?m)^ matches after a final newline")
case("""import re

def f(s):
    return re.sub('.', '*', s, flags=re.S)
""", rows=ROWS, name="DOTALL")
case("""import re

def f(s):
    return re.findall(r'\\w+', s, re.A)
""", rows=ROWS, name="ASCII \\w")
case("""import re

def f(s):
    return re.findall(r'''(?x)
        \\d+      # digits
        (?: [.] \\d+ )?   # a fraction
    ''', s)
""", rows=ROWS, name="verbose pattern with comments")
case("""import re

def f(s):
    m = re.search('(?i:straße) (\\#\\d)', s)
    return m.group(1) if m else ''
""", rows=ROWS, name="scoped inline flag, escaped #")
case("""import re

def f(s):
    return re.sub(r'\\u00df|\\U0001F600|\\x41', '?', s)
""", rows=ROWS, name="\\u \\U \\x escapes")
case("""import re

def f(s):
    return re.findall(r'a{,2}|b{2,}|c{1}', s)
""", rows=ROWS, name="{,n} repeats")
case("""import re

def f(s):
    return re.sub(r'(?<=a)b|(?<!x)c(?=a)|(?<=ab|cd|\\d\\w)[a-z]', '_', s) + str(bool(re.search(r'\\Aab|c\\Z|\\n$', s)))
""", rows=ROWS, name="lookarounds, \\A \\Z $")
case("""import re

def f(s):
    return re.sub(r'(\\w)\\1|(?P<q>[\\'"]).*?(?P=q)', '#', s)
""", rows=ROWS, name="back references")
case("""import re

def f(s):
    return re.findall(r'\\w++|[^\\w\\s]', s) + re.findall(r'(?>a+)b', s)
""", rows=ROWS, name="possessive and atomic")
case("""import re

def f(s):
    return re.findall(r'[\\s]|\\S[\\d\\w-]', s)
""", rows=ROWS, name="class escapes")

case("""import re

def f(s):
    m = re.search(r'(\\d+)(x)?', s)
    if m is None:
        return ''
    a, b = m.span()
    c, d = m.span(1)
    e, g = m.span(2)
    return s[a:b] + '|' + s[c:d] + str(e) + str(g)
""", rows=ROWS, name="a, b = m.span(g)")

# --- re.finditer as an iterable
case("""import re

def f(s):
    out = ''
    for m in re.finditer(r'(\\w)(\\w*)', s):
        out += m.group(2) + m[1] + str(m.start()) + '-' + str(m.end(1)) + ' '
    return out
""", rows=ROWS, name="for m in re.finditer")
case("""import re

def f(s):
    return [m.group() + str(i) for i, m in enumerate(re.finditer('[^ ]+', s), 1) if m.end() > 2]
""", rows=ROWS, name="finditer in a comprehension with enumerate")
case("""import re

def f(s):
    n = 0
    for m in re.finditer('x*', s):
        if m.group() == '':
            n += 1
    return n
""", rows=ROWS, name="finditer empty matches")

# --- errors at run time, caught and uncaught
case("""import re

def f(s):
    m = re.search('[a-z]+', s)
    if m:
        try:
            return m[0] + m.group(int(len(s) > 5))
        except IndexError as e:
            return 'IndexError: ' + str(e)
    return ''
""", rows=ROWS, name="IndexError from group() caught")
case("""import re

def f(s):
    return re.sub('(a)', r'\\1\\1', s, count=len(s) % 3 == 0)
""", rows=ROWS, name="sub count from a bool")
case("""import re

def f(s, n):
    m = re.search('(a)(b)?', s)
    if m:
        return m.group(n)
    return 'none'
""", types=("str", "int"), rows=[["ab", 0], ["ab", 1], ["ab", 2], ["a", 2], ["ab", 3], ["x", 1],
                                 ["ab", -1]], name="group(n) with n at run time: IndexError")

if __name__ == "__main__":
    sys.exit(o.main())

#!/usr/bin/python3
"""CPython oracle for the rest of `import re` in UDFs: pattern objects of re.compile (a module
constant or a function's, their methods and attributes, as re functions' pattern), re.sub with
a lambda or a nested def (closure) as the replacement, and m.groupdict().

The cases run through e2e_oracle.py's machinery (same runner and checks: per-row results and
exception types equal to CPython's, the 2-thread apply equal, statistics balanced).

usage: e2e_oracle_re2.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά 3.5 κείμενα ΣΊΣΥΦΟΣ", "日本語 の テキスト 42", "emoji😀here!? 👍🏽",
    "a\u2003b\tc\n", "Straße #1 (Zürich) STRASSE", "", "   ", "it's \"quoted\" \\ back",
    "İstanbul ıi Iİ", "e\u0301 café cafe\u0301", "tel: 555-1234, 555-9876",
    "user@example.com; other.name@mail.co.uk", "٣٤٥ arabic digits ١٢", "KELVIN \u212a k K",
    "line1\nline2\n", "2026-11-25 and 1999-01-02", "Hello, World! 123 -- ok"]]

# --- re.compile: module-level constants
case("""import re

WORD = re.compile(r'\\w+')

def f(s):
    m = WORD.search(s)
    if m:
        return m.group() + '|' + str(m.start()) + '|' + str(len(WORD.findall(s)))
    return '-'
""", rows=ROWS, name="module constant: search, findall")
case("""import re

SLUG = re.compile(r'[^a-z0-9]+')

def f(s):
    return SLUG.sub('-', s.lower()).strip('-')
""", rows=ROWS, name="module constant: sub slug")
case("""import re

DATE = re.compile(r'(?P<y>\\d{4})-(?P<m>\\d\\d)-(?P<d>\\d\\d)')

def f(s):
    out = []
    for m in DATE.finditer(s):
        out.append(m.group('d') + '.' + m['m'] + '.' + m[1])
    return ','.join(out) + ';' + DATE.sub(r'\\g<d>/\\g<m>/\\g<y>', s, count=1)
""", rows=ROWS, name="module constant: finditer, sub count=, named groups")
case("""import re

CI = re.compile('straße|zürich|σίσυφος', re.I)

def f(s):
    m = CI.search(s)
    return [CI.sub('#', s), str(m is not None), CI.pattern, str(CI.flags), str(CI.groups)]
""", rows=ROWS, name="module constant with re.I: pattern, flags, groups")
case("""import re

SEP = re.compile(r'\\s*[,;]\\s*|\\s+', re.M | re.S)

def f(s):
    return SEP.split(s) + SEP.split(s, 1) + SEP.split(s, maxsplit=2)
""", rows=ROWS, name="module constant: split, maxsplit")
case("""import re

NUM = re.compile(r'\\d+')

def f(s):
    new, n = NUM.subn('<N>', s)
    return new + '|' + str(n) + '|' + str(NUM.fullmatch(s) is not None) + str(NUM.match(s) is not None)
""", rows=ROWS, name="module constant: subn, fullmatch, match")
case("""import re

NUM = re.compile(r'(\\d)\\d')

def f(s):
    return re.sub(NUM, r'<\\1>', s) + '|' + str(len(re.split(NUM, s))) + '/'.join(re.findall(NUM, s, 0))
""", rows=ROWS, name="module constant as the pattern of re.sub / re.split")
case("""import re

P = re.compile('(?i)[aeiouäöü]')

def f(s):
    return str(P.flags) + str(re.compile('x', re.A).flags) + P.sub(lambda m: m.group().upper(), s)
""", rows=ROWS, name="inline flags in P.flags, re.compile(...).flags inline, lambda repl")

# --- re.compile in the function
case("""import re

def f(s):
    pat = re.compile(r'(\\w)(\\w*)')
    out = ''
    for m in pat.finditer(s):
        out += m.group(2) + m.group(1)
    return out + str(pat.groups)
""", rows=ROWS, name="local pattern: finditer")
case("""import re

def f(s):
    ws = re.compile(r'\\s+')
    words = ws.split(s.strip())
    if ws.search(s) is None:
        return 'one'
    return ' '.join(sorted(words, key=len))
""", rows=ROWS, name="local pattern: split, search")
case("""import re

def f(s):
    return re.compile(r'[aeiou]', re.I).sub('', s)
""", rows=ROWS, name="re.compile(...).sub inline")
case("""import re

def f(s):
    email = re.compile(r'([\\w.]+)@([\\w.]+)')
    def host(t):
        m = email.search(t)
        return m.group(2) if m else ''
    return host(s) + '|' + email.sub(lambda m: m.group(1).upper(), s)
""", rows=ROWS, name="local pattern read by a nested def and a lambda")

# --- re.sub with a lambda or a closure
case("""import re

def f(s):
    return re.sub(r'\\d+', lambda m: str(int(m.group()) * 2), s)
""", rows=ROWS, name="re.sub with a lambda")
case("""import re

def f(s):
    sep = '<' + str(len(s)) + '>'
    return re.sub(r'(\\w)(\\w*)', lambda m: m.group(2) + sep + m.group(1), s, count=3)
""", rows=ROWS, name="re.sub with a lambda capturing a local")
case("""import re

def f(s):
    n = len(s)
    def repl(m):
        return m.group().upper() + str(n - m.start())
    new, k = re.subn(r'[^\\W\\d_]+', repl, s)
    return new + '|' + str(k)
""", rows=ROWS, name="re.subn with a nested def capturing a local")
case("""import re

def f(s):
    table = {'a': '1', 'e': '2', 'o': '3'}
    return re.sub('[aeo]', lambda m: table[m.group()], s, flags=re.I)
""", rows=ROWS, name="lambda replacement reading a dict: KeyError on upper case")
case("""import re

def f(s):
    return re.sub(r'\\w+', repl=lambda m: m.group()[::-1], string=s)
""", rows=ROWS, name="repl= keyword lambda")

# --- m.groupdict()
case("""import re

def f(s):
    m = re.search(r'(?P<y>\\d{4})-(?P<m>\\d\\d)-(\\d\\d)', s)
    if not m:
        return '-'
    d = m.groupdict()
    out = d['y'] + d.get('m', '?') + d.get('x', '?') + str(len(d)) + str('y' in d)
    for k in d:
        out += ',' + k
    return out
""", rows=ROWS, name="groupdict: [k], get, iteration, len")
case("""import re

def f(s):
    out = []
    for m in re.finditer(r'(?P<word>\\w+)(?P<sp>\\s*)', s):
        for k, v in m.groupdict().items():
            out.append(k + '=' + v)
    return out
""", rows=ROWS, name="groupdict items in finditer")
case("""import re

def f(s):
    m = re.match(r'(?P<first>\\S+)', s)
    if m:
        try:
            return m.groupdict()['nope']
        except KeyError as e:
            return 'KeyError ' + str(e)
    return ''
""", rows=ROWS, name="groupdict KeyError caught")

# --- errors raised in a replacement function, caught and uncaught
case("""import re

def f(s):
    try:
        return re.sub(r'\\S+', lambda m: str(int(m.group()) + 1), s)
    except ValueError as e:
        return 'ValueError: ' + str(e)
""", rows=ROWS + [["1 2 3"], ["٣٤ 5"]], name="lambda raising ValueError, caught with its message")
case("""import re

def f(s):
    return re.sub(r'\\w+', lambda m: m.group()[5], s)
""", rows=ROWS, name="lambda raising IndexError, uncaught: a row error")
case("""import re

NUM = re.compile(r'\\d')

def f(s):
    out = ''
    for i, w in enumerate(s.split()):
        out += NUM.sub(lambda m: str(i) + m.group(), w) + ' '
    return out
""", rows=ROWS, name="lambda reading a loop variable, per iteration")
case("""import re

def f(s, k):
    def shout(m, mark='!'):
        return m.group().upper() + mark * k
    return re.sub(r'[aeiouäöüé]', shout, s, count=k)
""", types=("str", "int"), rows=[["héllo wörld", 2], ["aaa", 0], ["", 3], ["Ελληνικά ae", 1],
                                 ["xyz", -1]], name="nested def with a default, count from a parameter")
case("""import re

def f(s):
    return [m.groupdict()['w'] + str(m.start()) for m in re.finditer(r'(?P<w>\\w)\\w*', s)]
""", rows=ROWS, name="groupdict in a comprehension over finditer")
case("""import re

def f(s):
    m = re.search(r'(?P<sign>[-+])?(?P<num>\\d+)(?P<unit>[a-zA-Zа-я]+)?', s)
    if m is None:
        return 'none'
    sign = m.groupdict()['sign']
    unit = m.groupdict().get('unit')
    other = m.groupdict().get('nope', 'dflt')
    none = m.groupdict().get('nope')
    u = unit if unit is not None else '-'
    return (sign if sign is not None else '+') + m.groupdict(0)['num'] + u + other + str(none is None)
""", rows=ROWS + [["-12kg"], ["+5"], ["x 7 м"], ["42Ω"]],
     name="groupdict()[k] and .get(k, d) with groups that may not take part")

# --- scopes: a parameter shadowing a pattern constant, patterns and lambdas in nested defs and
# comprehensions, lambdas inside lambdas, keyword arguments of pattern methods
case("""import re

P = re.compile(r'\\d')

def g(P):
    return P + '!'

def f(s):
    return g(s) + P.sub('#', s)
""", rows=ROWS, name="module pattern shadowed by a parameter")
case("""import re

def f(s):
    def inner(t):
        p = re.compile(r'[a-z]')
        return p.sub(lambda m: m.group().upper(), t)
    return inner(s) + inner(s[::-1])
""", rows=ROWS, name="re.compile in a nested def, lambda inside")
case("""import re

def f(s):
    p = re.compile(r'\\w')
    out = [p.sub('.', w) for w in s.split()]
    q = [len(p.findall(w)) for w in s.split()]
    return ' '.join(out) + str(sum(q))
""", rows=ROWS, name="local pattern used in comprehensions")
case("""import re

def f(s):
    n = 0
    for w in s.split():
        n += 1
        s2 = re.sub(r'\\d', lambda m: str(n) + m.group(), w)
        if s2 != w:
            return s2
    return 'none'
""", rows=ROWS, name="lambda capturing a variable changed in a loop")
case("""import re

def f(s):
    return re.sub(r'(\\w)', lambda m: re.sub('[a-z]', lambda k: k.group().upper() + m.group(), m.group()), s)
""", rows=ROWS, name="nested lambdas, re inside a replacement")
case("""import re
P = re.compile('a')
def f(s):
    return P.sub(repl='b', string=s, count=1) + str(P.search(string=s) is None)
""", rows=ROWS, name="pattern methods with keyword arguments")
case("""import re
def f(s):
    it = 0
    for m in re.compile(r'\\w+').finditer(s):
        it += len(re.compile(r'\\w').findall(m.group()))
    return it
""", rows=ROWS, name="inline compile in for and nested")

# --- pos and endpos of Pattern.match/search/fullmatch (code points, clamped; ^ only at 0)
case("""import re

P = re.compile(r'\\w+')
A = re.compile(r'^\\w|(?<=é)\\w|\\w$')

def f(s, p, e):
    out = []
    m = P.search(s, p)
    out.append('-' if m is None else m.group() + str(m.start()) + ':' + str(m.end()))
    m = P.match(s, p, e)
    out.append('-' if m is None else m.group() + str(m.start()) + ':' + str(m.end()))
    m = P.fullmatch(s, pos=p, endpos=e)
    out.append('-' if m is None else m.group() + str(m.start()) + ':' + str(m.end()))
    m = P.search(s, endpos=e)
    out.append('-' if m is None else m.group() + str(m.start()) + ':' + str(m.end()))
    a = A.search(s, p, endpos=e)
    out.append('-' if a is None else a.group() + str(a.start()) + ':' + str(a.end()))
    a = A.match(s, p)
    out.append('-' if a is None else a.group() + str(a.start()) + ':' + str(a.end()))
    return out
""", types=("str", "int", "int"), rows=[[s, p, e] for s in ["héllo wörld", "", "ab", "日本 語x", "é!ab"]
    for p, e in [(0, 100), (1, 3), (2, 1), (-5, -1), (3, 3), (7, 8), (100, 200), (1, 100)]],
    name="pos and endpos")

if __name__ == "__main__":
    sys.exit(o.main())

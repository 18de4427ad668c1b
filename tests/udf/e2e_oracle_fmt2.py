#!/usr/bin/python3
"""CPython oracle for str.maketrans / str.translate, %(name) formatting over dicts, and
repr() / ascii() / str() of lists, tuples and dicts: multilingual rows, value and write forms,
errors with CPython's messages (caught and returned as str(e)).

usage: e2e_oracle_fmt2.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

WORDS = o.S + ["один", "Ελληνικά", "日本語", "😀 ok", "it's", 'say "hi"', "back\\slash",
               "\x7f\x01", "\u200b", "ǅ", "a-b_c d", "Hello, World!"]
ROWS = [[s] for s in WORDS]
NI = [[s, n] for s, n in zip(WORDS, o.NUMS * 5)]

# --- str.maketrans / str.translate
case("lambda s: s.translate(str.maketrans('abc', 'xyz'))", rows=ROWS)
case("lambda s: s.translate(str.maketrans('aeiou', 'AEIOU', ' ,!'))", rows=ROWS,
     name="maketrans with deletions")
case("lambda s: s.translate(str.maketrans({'a': 'αβ', 'é': None, 'ö': 'oe', 'Σ': 's'}))",
     rows=ROWS, name="maketrans of a dict: multi-char, deletion, non-ASCII keys")
case("lambda s: s.translate({97: 'A', 98: None, 0x3a3: 0x3c3, 'c': 'never'})", rows=ROWS,
     name="dict display table: int keys, str keys never match")
case("lambda s: s.translate({ord('e'): 'E'}) if len(s) > 2 else s.translate({})", rows=ROWS,
     name="non-literal display: a dict value looked up per character")
case("""import string
TABLE = str.maketrans('', '', string.punctuation)
def f(s):
    return s.translate(TABLE).lower()
""", rows=ROWS, name="module-level maketrans constant, value form")
case("""LEET = {'a': '4', 'e': '3', 'o': '0'}
T2 = str.maketrans(LEET)
def f(s):
    return s.translate(T2)
""", rows=ROWS, name="maketrans of a module-level dict constant (write form)")
case("""SWAP = {104: 'H', 0x1F600: ':)', 26085: 'sun'}
def f(s):
    return s.translate(SWAP) + '|' + s.translate(str.maketrans('日😀', 'Dx'))
""", rows=ROWS, name="module-level dict table, astral and CJK keys")
case("lambda s: s.translate(s.maketrans('lo', 'LO'))", rows=ROWS,
     name="s.maketrans through an instance")
case("""def f(s):
    try:
        return s.translate({97: 0x110000})
    except ValueError as e:
        return 'ValueError: ' + str(e)
""", rows=ROWS, name="mapping out of range: ValueError when met")
case("""def f(s):
    try:
        return s.translate({97: 1.5, 98: 'B'})
    except TypeError as e:
        return 'TypeError: ' + str(e)
""", rows=ROWS, name="float mapping: TypeError when met")
case("""def f(s):
    d = {}
    for i, c in enumerate('abcdef'):
        d[ord(c)] = i + 0x41
    try:
        return s.translate(d)
    except ValueError as e:
        return str(e)
""", rows=ROWS, name="dict[int, int] built at runtime")
case("""def f(s):
    d = {ord('l'): 'L', ord('o'): ''}
    d[0x3a3] = '$'
    return s.translate(d) + s.translate(d)
""", rows=ROWS, name="dict[int, str] variable")
case("""def f(s):
    d = {ord('a'): -1}
    try:
        return s.translate(d)
    except ValueError as e:
        return str(e)
""", rows=ROWS, name="negative mapping from a dict variable")
case("lambda s: len(s.translate(str.maketrans('abc', 'xyz', 'lo'))) + s.count('a')", rows=ROWS,
     name="translate in an expression")

# --- %(name) formatting
case("lambda s, n: '%(a)s-%(b)05d' % {'a': s, 'b': n}", rows=NI, types=("str", "int"))
case("lambda s, n: '%(b)x|%(a)r|%(a)-12s|%(b)+.2e' % {'a': s.upper(), 'b': n}", rows=NI,
     types=("str", "int"), name="keys used twice and out of order: helper")
case("lambda s: '%(x)s %% %(y)s' % {'x': s, 'y': len(s), 'x': 'last'}", rows=ROWS,
     name="a repeated key: the last value wins")
case("""def f(s, n):
    d = {'name': s, 'n': str(n)}
    return '%(name)s=%(n)s' % d
""", rows=NI, types=("str", "int"), name="a dict variable")
case("""def f(s):
    d = {'w': s}
    if len(s) > 3:
        d['x'] = s[:2]
    try:
        return '<%(w)10s|%(x)s>' % d
    except KeyError as e:
        return 'KeyError ' + str(e)
""", rows=ROWS, name="a missing key in a dict variable: KeyError")
case("""def f(s, n):
    d = {'k': n}
    return '%(k)d%%|%(k)5.1f' % d if 0 < n < 100 else '%(k)o' % d
""", rows=NI, types=("str", "int"), name="%d %f %o from a dict[str, int]")
case("""M = {'greeting': 'hello', 'who': 'wörld'}
def f(s):
    return '%(greeting)s, %(who)s: %(greeting)r' % M + s
""", rows=ROWS, name="module-level dict constant")
case("lambda s: ('%(a(b))s' % {'a(b)': s}).upper()", rows=ROWS, name="nested parentheses in a key")

# --- repr() / ascii() / str() of lists, tuples and dicts
case("lambda s: repr(s.split()) + '|' + ascii(s.split()) + '|' + str(s.split(','))", rows=ROWS)
case("lambda s: f'{s.split()!r}/{s.split()}/{s.partition(\"o\")}/{s.split()!a}'", rows=ROWS,
     name="f-string fields of lists and tuples")
case("lambda s: str(s.partition(' ')) + repr(s.rpartition('x')) + str((s,))", rows=ROWS,
     name="tuples of str, a 1-tuple's comma")
case("lambda s: str([len(w) for w in s.split()]) + repr([len(s) / 3, -0.0, 1e300, 1e-7])",
     rows=ROWS, name="lists of int and float (floats by repr)")
case("""def f(s):
    d = {}
    for c in s:
        d[c] = d.get(c, 0) + 1
    return str(d) + ascii(d)
""", rows=ROWS, name="a dict[str, int] built per row: insertion order")
case("""def f(s):
    d = {len(w): w for w in s.split()}
    e = {w: w.split('l') for w in s.split()}
    g = {'x': len(s) / 7, 'y': 2.5}
    b = {'t': len(s) > 2, 'f': False}
    return f'{d} {e!r} {g} {b}'
""", rows=ROWS, name="dicts of int keys, list values, float and bool values")
case("lambda s: '%s|%r|%a|%-30s|' % (s.split(), s.split(), s.split(), s.split()[:1])",
     rows=ROWS, name="%s %r %a of lists")
case("lambda s: '{!r:>30}|{}|{!a:.6}'.format(s.split(), s.split(), s.split())", rows=ROWS,
     name="str.format of lists, a spec after !r")
case("""def f(s):
    xs = []
    for w in s.split():
        xs.append(w.upper())
    xs.append("it's")
    xs.append('say "hi"')
    return repr(xs) + str(len(repr(xs)))
""", rows=ROWS, name="a mutable list, quotes choice per item")
case("lambda s: str([]) + str({}) + repr(s.split('@@')) + str(list(s[:3]))", rows=ROWS,
     name="empty containers and list() of chars")
case("""def f(s):
    try:
        return '%d' % int(s)
    except ValueError as e:
        return repr(str(e).split(':'))
""", rows=[[v] for v in o.INTSTR if v != "9223372036854775808"],
     name="repr of a list built in an except clause")

# --- padded fields written in place (fast paths of the write form)
IN = [[n] for n in o.NUMS + [-2**63, 2**63 - 1, 255, -255, -5]]
case("lambda n: f'{n:*=8}|{n:<5}|{n:^7}|{n:07}|{n:>3d}|{n:04d}|{n:=+6}|{n:ü>9}|{n:0=12}'",
     rows=IN, types=("int",), name="int fields: fills, alignments, zero padding, signs")
case("lambda s: f'{s:>12}|{s:ü^9}|{s:<3}|{s:.2}|{s:>1}' + '%-8s|%8s' % (s, s)", rows=ROWS,
     name="str fields: one-byte and multi-byte fills, widths under the length")

if __name__ == "__main__":
    sys.exit(o.main())

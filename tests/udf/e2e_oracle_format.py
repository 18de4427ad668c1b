#!/usr/bin/python3
"""CPython oracle for str.format and %-formatting on literal format strings (desugared to
f-strings by the parser): fields, conversions, specs, escapes; %-conversions with flags,
width and precision; repr() and ascii(). Each in the write form (the result returned) and
the value form (the result used by another expression).

usage: e2e_oracle_format.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

WORDS = o.S + ["один", "Ελληνικά", "日本語", "😀", "it's", 'say "hi"', "back\\slash", "\x7f\x01",
               "\u200b", "ǅ"]
ROWS = [[s] for s in WORDS]
NI = [[s, n] for s, n in zip(WORDS, o.NUMS * 5)]
NF = [[s, x] for s, x in zip(WORDS, o.FLOATS * 5 + [float("inf"), float("nan"), -1e-300])]
FL = [[x] for x in o.FLOATS + [float("inf"), float("-inf"), float("nan"), 2.5e15, -0.5]]
IN = [[n] for n in o.NUMS + [-2**63, 2**63 - 1, 255, -255]]

# --- str.format
case("lambda s: '{}-{}'.format(s, len(s))", rows=ROWS)
case("lambda s: '[{0}|{1}|{0}]'.format(s, s.upper())", rows=ROWS,
     name="numbered fields, a name argument used twice")
case("lambda s: '{name!r:>20}/{n:05d}'.format(name=s, n=len(s))", rows=ROWS)
case("lambda s: '{{{}}} {{}}'.format(s)", rows=ROWS, name="brace escapes")
case("lambda s: '{!r} {!s} {!a}'.format(s, s, s)", rows=ROWS)
case("lambda s, n: '{:*^15}|{:+,d}|{:x}|{:#o}'.format(s, n, n * 3, n)", rows=NI,
     types=("str", "int"))
case("lambda s, x: '{:.3}|{:>12.3f}|{:e}|{:g}|{:%}'.format(s, x, x, x, x)", rows=NF,
     types=("str", "float"))
case("lambda s: '{:{w}}|{:>{}}'.format(s, s, 8, w=6)", rows=ROWS, name="nested specs from literals")
case("lambda s: '{:<5.2}'.format(s).upper() + '{}'.format(len(s) > 3)", rows=ROWS,
     name="value form: format results in expressions")
case("""def f(s):
    out = ''
    i = 0
    for w in s.split():
        out += '{}:{!r};'.format(i, w)
        i += 1
    return out
""", rows=ROWS, name="format in a loop (value form)")
case("""def f(s):
    t = '{0:>4}{1}'.format(len(s), s.strip())
    return t
""", rows=ROWS, name="format forwarded into the return (write form)")
case("lambda s: '{:d}'.format(s)", rows=ROWS[:3], name="bad spec for str: ValueError each row")
case("lambda s: '{0}{1}'.format(s, int(s))", rows=[[v] for v in o.INTSTR if v != "9223372036854775808"],
     name="argument that raises, used in order")

SMALL = [[v] for v in o.INTSTR if len(v) < 15] + [["12345"], ["x123456"]]
case("lambda s: '{1}|{0}|{1}'.format(s.upper(), int(s) * 2)", rows=SMALL,
     name="arguments out of order and twice: each evaluated once, in order (hidden helper)")
case("lambda s: '{1}{0}'.format(int(s), s[5])", rows=SMALL,
     name="out of order: the first argument's exception wins")
case("lambda s: '{}'.format(s.lower(), int(s))", rows=SMALL,
     name="an unused argument still raises")
case("lambda s: '{b:{w}}{a!r}'.format(a=s.strip(), b=len(s) // 1, w=6)", rows=ROWS,
     name="keywords out of order with a nested literal spec")
case("""def f(s):
    out = ''
    for w in s.split():
        out += '{1}{0}'.format(w.upper(), len(w))
    return '{0}<{0}>'.format(out.strip())
""", rows=ROWS, name="hidden helpers in a loop and in the return (write form)")

case("lambda s: ','.join(['{1}{0}'.format(c.upper(), c) for c in s])", rows=ROWS,
     name="hidden helper over a comprehension variable")
case("""def f(s):
    try:
        return '{0}:{0}'.format(int(s))
    except ValueError as e:
        return '{}|{!s:>5}'.format(e, 'bad') + '%s' % s
""", rows=SMALL, name="format in try and except, the exception's message")

# --- %-formatting
case("lambda s: '%s|%r|%a' % (s, s, s)", rows=ROWS)
case("lambda s: '<%10s|%-10s|%.2s|%5.1s>' % (s, s, s, s)", rows=ROWS)
case("lambda s: '%s' % s", rows=ROWS, name="single value")
case("lambda n: '%d %i %5d %-5d| %05d %+d % d %x %X %#x %o %#o' % (n, n, n, n, n, n, n, n, n, n, n, n)",
     rows=IN, types=("int",))
case("lambda x: '%f|%.2f|%10.3e|%-12g|%+G|%#.0f|%08.2f|%E|%F' % (x, x, x, x, x, x, x, x, x)",
     rows=FL, types=("float",))
case("lambda x: '%d|%i' % (x, x)", rows=[r for r in FL if abs(r[0]) < 1e18 or r[0] != r[0]], types=("float",), name="%d of a float truncates")
case("lambda s: '100%% %s %c%c|%5c|%-4c|' % (s, 65, 'é', 0x1F600, 'ü')", rows=ROWS, name="%% and %c of literals")
case("lambda s: '%*s|%-*s|%.*s' % (6, s, 6, s, 2, s)", rows=ROWS, name="* width and precision")
case("lambda s, n: ('%s=%d' % (s, n)).upper() + ('%x' % n)", rows=NI, types=("str", "int"),
     name="value form: % results in expressions")
case("""def f(s, n):
    if n > 0:
        return '%s has %d (%.1f%%)' % (s, n, n / 3)
    return '%r' % s
""", rows=NI, types=("str", "int"), name="% in returns (write form)")
case("lambda s: '%-3c|%e|%5.1s|%#5x|%+s|%-*d|%.*f' % (65, True, True, True, s, -3, 5, -2, 1.5)",
     rows=ROWS, name="flags on bool, negative * values")
case("lambda s: '%s|%r|%5s|' % (None, None, None) + '{}{!r}{!s:>6}'.format(None, None, None)",
     rows=ROWS[:2], name="None arguments")
case("lambda s: '%s' % True + '%d' % True + '%s' % 1.5", rows=ROWS[:2], name="bool and float args")

# --- repr() and ascii()
case("lambda s: repr(s) + ascii(s)", rows=ROWS)
case("lambda n: repr(n) + ascii(n) + repr(n > 0) + repr(-n)", rows=IN[:-4] + IN[-3:], types=("int",))
case("lambda x: repr(x) + '|' + ascii(x)", rows=FL, types=("float",))
case("lambda s: format(s, '*>8') + format(len(s), '04d') + format(len(s) / 3, '.2f') + "
     "format(True) + format(s) + format(None)", rows=ROWS, name="format() builtin")
case("lambda s: format(s, 'd')", rows=ROWS[:2], name="format() with a bad spec: ValueError")
case("lambda s: len(repr(s)) + len(ascii(s))", rows=ROWS, name="repr in the value form")

if __name__ == "__main__":
    sys.exit(o.main())

#!/usr/bin/python3
"""CPython oracle for the fast paths of padded f-string fields written in place
(src/udf/runtime_write_fast.c) and the code-point count shared between a padded field and a
later len() of the same variable (src/udf/codegen_write_len.c): every width below, at and
above the length, each alignment and fill, ASCII and non-ASCII strings (padding counts code
points), ints of every digit count and sign. The runner checks the write form (fast paths)
against CPython and against the value form (the general paths).

usage: e2e_oracle_fmtfast.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

WORDS = o.S + ["один", "Ελληνικά", "日本語", "😀", "é" * 16, "漢" * 11, "x" * 32, "y" * 33,
               "ab" * 31 + "é", "\u200b", "ǅ", "a\u0301"]
ROWS = [[s] for s in WORDS]
INTS = [0, 1, -1, 9, -9, 10, 99, -100, 12345, -98765, 10**9, -10**12, 2**53, 2**63 - 1, -2**63,
        10**18, -(10**18) + 1, 99999999999999999]
IN = [[n] for n in INTS]
SN = [[s, n] for s, n in zip(WORDS * 2, INTS * 3)]

# --- the benchmark's shapes: the count of s made once, in every spelling
case("lambda s: f'{s:>12}|{len(s):04d}'", rows=ROWS, name="f-string pad and len")
case("lambda s: '{:>12}|{:04d}'.format(s, len(s))", rows=ROWS, name="str.format pad and len")
case("lambda s: '%12s|%04d' % (s, len(s))", rows=ROWS, name="% pad and len")
case("lambda s: '%(s)12s|%(n)04d' % {'s': s, 'n': len(s)}", rows=ROWS, name="%(key) pad and len")
case("lambda s: f'{len(s)}:{s:*^9}:{len(s):>3}:{s:<2}:{len(s)}'", rows=ROWS,
     name="len before, between and after padded fields")

# --- widths below, at and above the length; every alignment; fills
for w in (0, 1, 3, 8, 16, 24, 31, 32, 33, 40, 64, 65, 80):
    case("lambda s: f'[{s:<%d}|{s:>%d}|{s:^%d}]'" % (w, w, w), rows=ROWS,
         name="width %d, every alignment" % w)
case("lambda s: f'{s:*<7}{s:->20}{s:0^13}{s:.<1}{s: >2}'", rows=ROWS, name="ASCII fills")
case("lambda s: f'{s:é<7}{s:漢>20}{s:😀^13}'", rows=ROWS, name="multi-byte fills (general path)")
case("lambda s: f'{s:>12.3}|{s:.0}|{s:<20.25}'", rows=ROWS, name="precision (general path)")
case("lambda s: f'{s:>5}{s:^64}{s:<63}'", rows=ROWS, name="widths near the fast path's limit")

# --- ints: digit counts, signs, '=' and '0' padding, widths
case("lambda n: f'{n:04d}|{n:>6}|{n:<3d}|{n:^7}|{n:=8}|{n:*^9}|{n}'", rows=IN, types=("int",),
     name="int decimal specs")
case("lambda n: f'{n:064d}|{n:>64}|{n:065d}|{n:x<70}'", rows=IN, types=("int",),
     name="int widths near the fast path's limit")
case("lambda n: f'{n:+05d}|{n: 6}|{n:,}|{n:_>9x}|{n:#o}'", rows=IN, types=("int",),
     name="int specs outside the fast path")
case("lambda n: f'{n:0=12}|{n:0<12}|{n:0^12}|{n:0>12}'", rows=IN, types=("int",),
     name="int with a '0' fill, every alignment")
case("lambda s, n: f'{s:>10}{n:>20}{s}{n:03}'", rows=SN, types=("str", "int"),
     name="str and int fields mixed")

# --- the shared count: where it must not be reused
case("""def f(s):
    return f'{s:>8}|{(s := s + "é")}|{len(s)}|{s:<9}|{len(s)}'
""", rows=ROWS, name="a walrus rebinds s between the padded field and len(s)")
case("""def f(s):
    t = s.upper()
    return f'{t:>10}{len(t)}{len(s)}{s:^12}{len(s):02d}'
""", rows=ROWS, name="two variables counted")
case("""def f(s):
    out = ''
    for w in s.split():
        out += f'{w:>6}:{len(w)};'
    return out
""", rows=ROWS, name="in a loop (value form)")
case("""def f(s):
    for w in s.split():
        s = w
    return f'{s:^10}|{len(s)}'
""", rows=ROWS, name="a variable bound in a loop (alloca) counted once")
case("""def f(s, n):
    if n > 0:
        return f'{s:>12}|{len(s):04d}'
    return f'{s:<3}|{len(s)}|' + s
""", rows=SN, types=("str", "int"), name="two returns, each its own count")
case("lambda s: f'{s:>12}|{len(s)!r}|{len(s):x}'", rows=ROWS, name="len with a conversion")
case("lambda s: f'{s:>5.2}|{len(s)}|{s:é^40}|{len(s):03}|{s:.0}{len(s)}'", rows=ROWS,
     name="the count from the general path (precision, multi-byte fill, wide strings)")
case("lambda s: f'{s:>3}{s:d}'", rows=ROWS[:2], name="a spec Python rejects: ValueError")

if __name__ == "__main__":
    sys.exit(o.main())

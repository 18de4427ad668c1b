#!/usr/bin/python3
"""CPython oracle for the modules a UDF may import: math and string.

The cases run through e2e_oracle.py's machinery (same runner and checks: per-row results and
exception types equal to CPython's, the 2-thread apply equal, statistics balanced). Every
feature has str-returning cases (the write form) and value-returning ones (int, float, bool).

usage: e2e_oracle_imports.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά 3.5 κείμενα", "日本語 の テキスト 42", "emoji😀here!?", "a\u2003b\tc\n",
    "Straße #1 (Zürich)", "", "   ", "it's \"quoted\" \\ back", "0123456789abcdefABCDEF~"]]
F = [[x] for x in [0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 0.1, 1e-300, 1e300, -1e300, 709.0, 710.0,
                   -745.0, -746.0, 4.0, 0.5, 123456.789, -7.25, 1e18, 9.3e18, -9.3e18,
                   float("inf"), float("-inf"), float("nan")]]
# A str of an int beyond int64 is an OverflowError in nrt (its ints are int64) but not in
# CPython: the write form of floor/ceil stays within int64.
F_INT64 = [r for r in F if not (abs(r[0]) > 2.0**62 and abs(r[0]) != float("inf"))]
I = [[x] for x in [0, 1, -1, 2, 7, -7, 10, 100, 1000, 2**40, -2**40, 2**62, -2**63, 2**63 - 1]]
PAIRS = [[x, y] for x in (0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, 10.0, float("inf"),
                          float("-inf"), float("nan"))
         for y in (0.0, -0.0, 1.0, -1.0, 2.0, 3.0, -3.0, 0.5, 1e300, float("inf"),
                   float("-inf"), float("nan"))]

# --- string's constants: module and from-imports, at module level and inside the UDF
case("""import string

def f(s):
    return ''.join(c for c in s if c in string.ascii_letters)
""", rows=ROWS, name="string.ascii_letters filter (write form)")
case("""def f(s):
    import string as st
    return sum_digits(s, st.digits)

def sum_digits(s, d):
    n = 0
    for c in s:
        if c in d:
            n = n + int(c)
    return n
""", rows=ROWS, func="f", name="import string as st inside the UDF, int result")
case("""from string import punctuation, whitespace as ws

def f(s):
    out = ''
    for c in s:
        if c in punctuation:
            out += '<' + c + '>'
        elif c in ws:
            out += '_'
        else:
            out += c
    return out
""", rows=ROWS, name="from string import punctuation, whitespace as ws")
case("""from string import (hexdigits, octdigits,)

def f(s):
    return len([c for c in s if c in hexdigits]) - len([c for c in s if c in octdigits])
""", rows=ROWS, name="from string import (hexdigits, octdigits,)")
case("""import string

def f(s):
    return len([c for c in s if c not in string.printable]) == 0 if s else False
""", rows=ROWS, name="string.printable, bool result")
case("""import string
def f(s):
    return s.strip(string.whitespace + string.punctuation).upper() + string.ascii_uppercase[:3] \\
        + string.ascii_lowercase[-3:]
""", rows=ROWS, name="string constants in an expression (write form)")

# --- math
case("""import math

def f(x):
    return math.floor(x)
""", rows=F, types=("float",), name="math.floor of floats: ints, ValueError, OverflowError")
case("""import math
def f(x):
    return str(math.ceil(x)) + '|' + str(math.trunc(x))
""", rows=F_INT64, types=("float",), name="math.ceil and math.trunc (write form)")
case("""from math import floor, ceil
def f(n):
    return floor(n) + ceil(n * 2) - floor(True)
""", rows=I, types=("int",), name="floor/ceil of ints stay ints")
case("""import math as m
def f(x):
    return m.sqrt(x)
""", rows=F, types=("float",), name="math.sqrt: math domain error on negatives")
case("""import math
def f(n):
    return math.sqrt(n)
""", rows=I, types=("int",), name="math.sqrt of ints")
case("""import math
def f(x):
    return f'{math.isnan(x)} {math.isinf(x)} {math.isfinite(x)} {math.fabs(x)}'
""", rows=F, types=("float",), name="isnan/isinf/isfinite/fabs (write form)")
case("""from math import isnan, isinf, isfinite
def f(n):
    return isnan(n) or isinf(n) or not isfinite(n)
""", rows=I, types=("int",), name="isnan/isinf/isfinite of ints")
case("""import math
def f(x):
    return math.exp(x)
""", rows=F, types=("float",), name="math.exp: OverflowError math range error")
case("""import math
def f(x):
    return math.log(x)
""", rows=F, types=("float",), name="math.log")
case("""import math
def f(x):
    return str(math.log2(x)) + ' ' + str(math.log10(x))
""", rows=F, types=("float",), name="math.log2 and math.log10 (write form)")
case("""import math
def f(n):
    return math.log(n) + math.log2(n) + math.log10(n)
""", rows=I, types=("int",), name="logs of ints: math domain error at 0 and below")
case("""import math
def f(x, y):
    return math.log(x, y)
""", rows=PAIRS, types=("float", "float"), name="math.log with a base: ZeroDivisionError")
case("""import math
def f(x, y):
    return math.pow(x, y)
""", rows=PAIRS, types=("float", "float"), name="math.pow special cases")
case("""import math
def f(s):
    return math.pi * len(s) + math.e - math.tau / 2 if s else math.inf
""", rows=ROWS, name="math constants")
case("""from math import nan, inf, pi as PI
def f(s):
    if not s:
        return str(nan) + str(-inf)
    x = float(len(s))
    return f'{x * PI:.3f} {x / inf} {nan == nan}'
""", rows=ROWS, name="from math import nan, inf, pi as PI (write form)")
case("""def f(s):
    from math import floor, sqrt
    n = len(s)
    return s[:floor(sqrt(n))] + '…' + s[floor(n / 2):]
""", rows=ROWS, name="from math import inside the UDF on multilingual rows")
case("""import math
def f(s):
    return math.floor(float(s))
""", rows=ROWS + [["nan"], ["-inf"], ["1e400"], ["2.5"], ["-2.5"]],
     name="math.floor of parsed floats: ValueError on some rows")

if __name__ == "__main__":
    sys.exit(o.main())

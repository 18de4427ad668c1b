#!/usr/bin/python3
"""CPython oracle for UDFs returning a list or a tuple of int, float or bool (list<int64>,
list<double> and list<bool> columns).

The cases run through e2e_oracle.py's machinery (same runner, same checks: per-row results
equal to CPython's item by item, floats bit for bit up to repr, bools as bools, exception types
equal, the 2-thread apply equal, statistics balanced); a tuple result is compared with the list
nrt gives (tuples become lists). A list result has no write form: both applies run the value
form.

usage: e2e_oracle_results.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

# nrt's ints are int64: an item CPython computes beyond it is an OverflowError in nrt, as for a
# scalar result (e2e_oracle.expected checks scalars only).
_expected = o.expected


def expected_int64_items(c):
    out = []
    for r in _expected(c):
        if r[0] == "ok" and isinstance(r[1], (list, tuple)) and any(
                isinstance(x, int) and not isinstance(x, bool) and not -2**63 <= x < 2**63
                for x in r[1]):
            r = ("err", "OverflowError")
        out.append(r)
    return out


o.expected = expected_int64_items

# Multilingual rows: several scripts, digits of other scripts, whitespace of every kind, case
# pairs that change length, numbers in text.
ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά κείμενα\tεδώ", "日本語 の テキスト", "emoji😀split😀here",
    "a\u2003b\u3000c\u00a0d", "3 1 4 1 5 9 2 6", "-7 12 0 ４２ 5", "1.5 2.25 -0.0 1e16",
    "İı ß ǅ ﬁ", "", "   ", "ABC abc 123", "x,y,,z"]]
NUM_ROWS = [[s] for s in ["3 1 4 1 5 9 2 6", "-7 12 0 ４２ 5", "10", "", "  8  -8 ", "٣ ٤",
                          "9223372036854775807 1", "1 x 2"]]
FLOAT_ROWS = [[s] for s in ["1.5 2.25 -0.0 1e16", "0.1 0.2", "", "inf -inf nan", "1e308 1e308",
                            "3", "1_0.5", "x 1.0", "１.５"]]

# --- lists of int
case("lambda s: [len(w) for w in s.split()]", rows=ROWS)
case("lambda s: [ord(c) for c in s]", rows=ROWS)
case("lambda s: sorted([ord(c) for c in s])", rows=ROWS, name="sorted code points")
case("lambda s: sorted([len(w) for w in s.split()], reverse=True)", rows=ROWS,
     name="sorted word lengths, reversed")
case("lambda s: [int(w) for w in s.split()]", rows=NUM_ROWS + ROWS,
     name="int() of each word: ValueError on some rows")
case("lambda s: [i for i, c in enumerate(s) if c.isupper()]", rows=ROWS)
case("lambda s: list(range(len(s)))", rows=ROWS)
case("lambda s: [1, 2, len(s)]", rows=ROWS)
case("lambda s: []", rows=ROWS, name="an empty display settles as a list of str")
case("""def f(s):
    out = []
    for w in s.split():
        out.append(len(w))
    out.sort()
    return out
""", rows=ROWS, name="append-built, sorted in place")
case("""def f(s):
    counts = [0] * 3
    for c in s:
        if c.isalpha():
            counts[0] = counts[0] + 1
        elif c.isdigit():
            counts[1] = counts[1] + 1
        else:
            counts[2] = counts[2] + 1
    return counts
""", rows=ROWS, name="counters in a list")
case("lambda s: (len(s), s.count('a'))", rows=ROWS, name="tuple of ints")
case("lambda s: (len(s), len(s.split()), s.find(' '))",
     rows=ROWS, name="tuple of three ints")
case("""def f(s):
    if not s.strip():
        return None
    return [len(w) for w in s.split()]
""", rows=ROWS, name="None on some paths: null rows")
case("lambda s: (len(s), s.count(' ')) if s.strip() else None", rows=ROWS,
     name="a tuple of ints or None in a conditional expression")
case("lambda s: (s.isupper(), True) if len(s) > 3 else ((False, s == '') if s else None)",
     rows=ROWS, name="nested conditional expressions of tuples of bools")
case("""import re

def f(s):
    m = re.search(r"\\w+", s)
    return (m.start(), m.end()) if m else None
""", rows=ROWS, name="a match's span or None (the branch sees m narrowed)")
case("""def f(s):
    m = s.find(' ')
    return (m, len(s) - m) if m >= 0 else [len(s)]
""", rows=ROWS, name="a tuple in one branch, a list in the other")
case("lambda s: [len(w) for w in s.split()] if s else None", rows=ROWS,
     name="conditional expression with None")
case("lambda s: [len(w) for w in s.split()][::-1] + [0]", rows=ROWS, name="slice and concatenation")
case("lambda s: [s.index('a')]", rows=ROWS, name="ValueError from index on rows without 'a'")
case("""def f(s, n):
    return [n * len(w) for w in s.split()]
""", rows=[[s, n] for s in ["a bb ccc", "日本 語", ""] for n in (0, -3, 2**62)],
     types=("str", "int"), name="int parameter, OverflowError on large products")
case("""def lengths(s):
    return [len(w) for w in s.split()]

def f(s):
    ls = lengths(s)
    return [x * x for x in ls if x > 1]
""", rows=ROWS, name="a helper's list of int")

# --- lists of float
case("lambda s: [float(w) for w in s.split()]", rows=FLOAT_ROWS + ROWS,
     name="float() of each word: ValueError on some rows")
case("lambda s: [len(w) / 2 for w in s.split()]", rows=ROWS)
case("lambda s: [len(s) / 3, -0.0, 1e16, 0.1 + 0.2]", rows=ROWS, name="float display")
case("lambda s: (len(s) / 7, len(s) ** 0.5)", rows=ROWS, name="tuple of floats")
case("lambda s: sorted([float(w) for w in s.split()])", rows=FLOAT_ROWS,
     name="sorted floats with inf and nan")
case("""def f(s):
    xs = [float(len(w)) for w in s.split()]
    if not xs:
        return None
    mean = sum(xs) / len(xs)
    return [x - mean for x in xs]
""", rows=ROWS, name="centred word lengths")

# --- lists of bool
case("lambda s: [c.isalpha() for c in s]", rows=ROWS)
case("lambda s: [w.istitle() for w in s.split()]", rows=ROWS)
case("lambda s: (s.isalpha(), s.isdigit(), s.isspace(), s == s.lower())", rows=ROWS,
     name="tuple of bools")
case("lambda s: [True, False, len(s) > 3]", rows=ROWS, name="bool display")
case("""def f(s):
    flags = []
    for w in s.split():
        flags.append(w.isupper())
    return sorted(flags) if flags else None
""", rows=ROWS, name="append-built bools, sorted, or None")
case("lambda s: str(sum([c.isupper() for c in s]))", rows=ROWS,
     name="sum of a list of bool is an int")
case("lambda s: max([c.isdigit() for c in s], default=False)", rows=ROWS,
     name="max of bools is a bool")

case("lambda s: [c.isdigit() for c in s].index(True)", rows=ROWS,
     name="index in a list of bool: ValueError 'True is not in list'")
case("""def f(s):
    flags = [c.isupper() for c in s]
    if True in flags:
        flags.remove(True)
    return (flags.count(False), len(flags), int(flags == [False] * len(flags)))
""", rows=ROWS, name="in, remove, count, == on a list of bool")
case("lambda s: [c.isspace() for c in s][-1] if s else False", rows=ROWS,
     name="an item of a list of bool is a bool")
case("lambda s: [len(w) for w in s.split()].index(3)", rows=ROWS,
     name="index in a list of int: ValueError '3 is not in list'")

# --- mixing stays a compile error (checked in test_front_errors); here the numeric params
case("""def f(a, b):
    return [a, b, a * b]
""", rows=[[x, y] for x in o.FLOATS[:5] for y in (0.5, -2.0)], types=("float", "float"),
     name="float parameters")
case("""def f(a, b):
    return (a, b, a and b)
""", rows=[[x, y] for x in (True, False) for y in (True, False)], types=("bool", "bool"),
     name="bool parameters")

if __name__ == "__main__":
    sys.exit(o.main())

#!/usr/bin/python3
"""CPython oracle for UDFs returning a list or a tuple of str (a list<string> column).

The cases run through e2e_oracle.py's machinery (same runner, same checks: per-row results
equal to CPython's, exception types equal, the 2-thread apply equal, statistics balanced); a
tuple result is compared item by item with the JSON array nrt gives (tuples become lists).

usage: e2e_oracle_lists.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

# Multilingual rows: separators, several scripts, case-changing characters, line breaks of
# every kind str.splitlines knows, runs of Unicode whitespace str.split() splits on.
ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά κείμενα\tεδώ", "日本語 の テキスト", "emoji😀split😀here",
    "a\u2003b\u3000c\u00a0d", "x\x1cy\x1dz\x1e", "line\u2028sep\u2029para\x85end\x0bv\x0cf",
    "trailing sep,", ",leading", "a@b@c", "no-at-sign", "@", "",
    "mixed ß=STRASSE=ǅ", "\r\n\r\n", "   ", "it's \"quoted\" \\ back"]]

case("lambda s: s.split()", rows=ROWS)
case("lambda s: s.split(',')", rows=ROWS)
case("lambda s: s.split(' ', 1)", rows=ROWS)
case("lambda s: s.split(maxsplit=1)", rows=ROWS)
case("lambda s: s.rsplit()", rows=ROWS)
case("lambda s: s.rsplit('=', 1)", rows=ROWS)
case("lambda s: s.rsplit(None, 2)", rows=ROWS)
case("lambda s: s.splitlines()", rows=ROWS)
case("lambda s: s.splitlines(True)", rows=ROWS)
case("lambda s: s.partition('@')", rows=ROWS)
case("lambda s: s.rpartition('@')", rows=ROWS)
case("lambda s: s.partition('')", rows=ROWS, name="partition with an empty separator raises")
case("lambda s: s.split('')", rows=ROWS, name="split with an empty separator raises")
case("lambda s: [w.upper() for w in s.split() if len(w) > 1]", rows=ROWS)
case("lambda s: [c for c in s if not c.isspace()]", rows=ROWS)
case("lambda s: [a + b for a in s.split(',') for b in ('1', '2')]", rows=ROWS)
case("lambda s: list(s)", rows=ROWS)
case("lambda s: list(s.casefold())", rows=ROWS)
case("lambda s: list(s.rpartition(' '))", rows=ROWS)
case("lambda s: list(w.title() for w in s.split())", rows=ROWS)
case("lambda s: list()", rows=ROWS)
case("lambda s: [s, s.upper(), s.lower(), '']", rows=ROWS)
case("lambda s: (s.strip(), s.swapcase())", rows=ROWS)
case("lambda s: ()", rows=ROWS)
case("lambda s: s.split()[::-1]", rows=ROWS)
case("lambda s: s.split(',')[1:]", rows=ROWS)
case("lambda s: s.split() + ['|'] + s.rsplit(',', 1)", rows=ROWS)
case("lambda s: s.split(',') * 2", rows=ROWS)
case("lambda s: s.split() if s.strip() else None", rows=ROWS,
     name="None on some paths: null rows")
case("""def f(s):
    if not s:
        return None
    head, sep, tail = s.partition(' ')
    if sep:
        return (tail, head)
    return (head, head[::-1])
""", rows=ROWS, name="tuple display or None")
case("""def f(s):
    parts = s.split(',')
    if len(parts) > 2:
        return parts[:2]
    if len(parts) == 2:
        return [p.strip() for p in parts]
    return [str(int(s))]
""", rows=ROWS, name="list on every path, ValueError on some rows")
case("""def words(s):
    return [w for w in s.split() if w.isalpha()]

def f(s):
    ws = words(s.lower())
    return ws if ws else s.splitlines()
""", rows=ROWS, name="a helper's list returned")
case("""def f(s, n):
    return s.split(None, n)
""", rows=[[s, n] for s in ["a b c d", "日本 語 の", "", " x  y "] for n in (-1, 0, 1, 2)],
     types=("str", "int"), name="split with an int parameter")
case("""def f(s):
    out = [s[i:i + 2] for i in range(0, len(s), 2)]
    return out
""", rows=ROWS, name="pairs of characters")
case("""def f(s):
    return [s[0]] + s.split(s[0]) if s else []
""", rows=ROWS, name="IndexError-free guard and split on the first character")
case("lambda s: [s[1]]", rows=ROWS, name="IndexError on short rows")

if __name__ == "__main__":
    sys.exit(o.main())

#!/usr/bin/python3
"""CPython oracle for chained comparisons: every operator kind in a chain, each operand evaluated
once and the chain stopping at its first false link, as CPython does (the calls with visible
effects here are ones that raise: a later link that would raise must not run).

usage: e2e_oracle_chains.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + ["один", "Ελληνικά", "日本語", "😀", "m", "n", "a", "z", "", "ab",
                            "MIXED case", "ǅ"]]

case("lambda s: 'a' <= s < 'n'", rows=ROWS)
case("lambda s: '' < s <= 'zzz' < s + 'z'", rows=ROWS)
case("lambda s: s == s.lower() != s.upper()", rows=ROWS)
case("lambda s: s.lower() == s.casefold() == s.lower().casefold()", rows=ROWS)
case("lambda s: 'a' in s not in ['abc', 'ab']", rows=ROWS)
case("lambda s: s[:1] in s not in ('один', '日本語')", rows=ROWS)
case("lambda s: 0 < len(s) <= 5 < 10", rows=ROWS)
case("lambda s: 1 < len(s) < 2.5 != len(s) / 2", rows=ROWS)
case("lambda s: 0 < len(s) > 2 == len(s.split())", rows=ROWS)
case("lambda s: len(s) > 3 < int(s)", rows=ROWS, name="short-circuit: int() only runs on long rows")
case("lambda s: s != '' < s[0] <= 'z'", rows=ROWS, name="short-circuit: s[0] only on non-empty")
case("""def f(s):
    if 'a' <= s[:1] <= 'z' != s[-1:] >= 'a':
        return s.upper()
    elif s is not None is not s[:0] == '':
        return s + '!'
    return s
""", rows=ROWS, name="chains in conditions, is not None links (write form)")
case("""def f(s):
    out = ''
    for c in s:
        out += '<' if 'a' <= c <= 'm' else '>' if 'n' <= c <= 'z' else c
    return out
""", rows=ROWS, name="chains per character (write form)")
case("""def f(s):
    n = 0
    for w in s.split():
        if 2 <= len(w) < 6 != len(s):
            n += 1
    return n
""", rows=ROWS, name="int chain counting words")

if __name__ == "__main__":
    sys.exit(o.main())

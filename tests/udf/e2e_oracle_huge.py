#!/usr/bin/python3
"""CPython oracle for huge UDFs: functions large enough for the huge tier (src/udf/udf.c: no
cheaper pipeline may change a result), with every kind of control flow repeated
through them: branches, loops with break and continue, try / except / finally, returns and
raises deep in the function, and variables live across all of it.

usage: e2e_oracle_huge.py RUNNER [--list] (--source N prints the program of N units)"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()

# One unit of the function body per template, in turn; {i} is the unit's number.
UNITS = [
    """    if len(s) > {k}:
        acc = acc + s[{k}:{k1}]
    elif s[:1] == '{ch}':
        acc = acc + '{ch}'
    else:
        n += {k}
""",
    """    for c in s[:{k3}]:
        if c == ' ':
            continue
        if c == '{ch}':
            break
        n += 1
""",
    """    try:
        n += int(s[{k}:{k1}])
    except ValueError:
        acc = acc + '?'
""",
    """    if s == 'stop{i}':
        return acc[-20:] + 'stop{i}' + str(n)
""",
    """    j = 0
    while j < len(s) and j < {k3}:
        j += 1
    n += j
""",
    """    t = acc[-3:]
    if t != '' and s == 'raise{i}':
        raise ValueError('raised at {i}: ' + t)
    n += len(t)
""",
    """    try:
        if s == 'fin{i}':
            return 'fin{i}:' + str(n)
    finally:
        n += 1
""",
]
CHARS = ["a", "é", "ß", "日", "z", "Σ", "1"]


def source(units):
    body = ["def f(s):\n    acc = ''\n    n = 0\n"]
    for i in range(units):
        k = i % 7
        body.append(UNITS[i % len(UNITS)].format(i=i, k=k, k1=k + 1, k3=1 + i % 3,
                                                 ch=CHARS[i % len(CHARS)]))
    body.append("    return acc[-40:] + ':' + str(n)\n")
    return "".join(body)


def exits(units, template, prefix):
    """Rows that leave the function at the first, a middle and the last unit of a template."""
    hits = [i for i in range(units) if i % len(UNITS) == template]
    return [prefix + str(i) for i in (hits[0], hits[len(hits) // 2], hits[-1])]


UNITS_COUNT = 300  # some 52,000 instructions after pruning: the huge tier
ROWS = [[s] for s in o.S + ["один два", "日本語 42", "😀!", "12345678", "a b c", "ééé", "9"]
        + exits(UNITS_COUNT, 3, "stop") + exits(UNITS_COUNT, 5, "raise")
        + exits(UNITS_COUNT, 6, "fin")]
o.case(source(UNITS_COUNT), rows=ROWS, name="huge: all control flow across the pieces")
o.case(source(UNITS_COUNT).replace("def f(s):", "def f(s):\n    s = s.strip()", 1), rows=ROWS,
       name="huge: the parameter rebound first")

if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--source":
        sys.stdout.write(source(int(sys.argv[2])))
        sys.exit(0)
    sys.exit(o.main())

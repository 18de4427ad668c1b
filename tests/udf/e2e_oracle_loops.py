#!/usr/bin/python3
"""CPython oracle for character loops and the counting idiom (src/udf/codegen.c: the ASCII
lead branch of char_at and emit_if_count; src/udf/codegen_expr.c: `x in LIT` of an ASCII
literal without a branch on the character), and for int() failures turned into nulls: loops
over ASCII, non-ASCII and mixed text (2-, 3- and 4-byte characters, combining marks,
emoji sequences), `c in` literals with '' and strings of several characters, `if t: x += K`
where the if-conversion applies and where it must not (unbound, float, else, overflow), and
int() messages caught and returned.

usage: e2e_oracle_loops.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

WORDS = o.S + ["Եր374-👨\u200d👩17-ﬓ922-i416", "ὀδυσσεύς ёлка\t👨\u200d👩\u200d👧", "１_４４",
               "Москва", "٥٦٣٠٩٤٥٤٦٣", "Z̵a̵339-ΐ578", "🇩🇪🇫🇷", "aé漢😀" * 9, "AEIOUaeiou",
               "ÀÉÎÕÜ àéîõü", "ǅǄǆ", "İıŞş", "x\u0301y\u0308", "e" * 70, "é" * 70,
               "a😀e😀i", "\U0010ffff" + "u"]
ROWS = [[s] for s in WORDS]
SN = [[s, n] for s, n in zip(WORDS, [0, 1, -1, 2**62, 2**63 - 1, -2**63, 5] * 7)]

# --- the benchmark's vowel count and its variants
case("""def f(s):
    n = 0
    for c in s:
        if c in 'aeiouAEIOU':
            n += 1
    return n
""", rows=ROWS, name="vowels")
case("""def f(s):
    n = 0
    for c in s:
        if c not in 'aeiouAEIOU':
            n -= 2
    return n
""", rows=ROWS, name="not in, -= 2")
case("""def f(s):
    n = 10
    for c in s:
        if c in 'aeiouéü漢😀':
            n += 3
    return n
""", rows=ROWS, name="a non-ASCII literal")
case("""def f(s):
    n = 0
    for c in reversed(s):
        if c in 'xyz ':
            n += 1
    return n
""", rows=ROWS, name="reversed loop")
case("""def f(s):
    n = 0
    for c in s:
        if c.isalpha() and c in 'aeiouAEIOU':
            n += 1
        elif c.isdigit():
            n += 100
    return n
""", rows=ROWS, name="elif: a branch, no if-conversion")
case("""def f(s):
    n = 0
    for c in s:
        if c in 'aeiou':
            n += 1
        else:
            n += 7
    return n
""", rows=ROWS, name="with else")
case("""def f(s):
    out = ''
    for c in s:
        if c in 'aeiouAEIOU':
            out += c.upper()
        else:
            out += c
    return out
""", rows=ROWS, name="characters kept (views of every width)")
case("""def f(s):
    k = 0
    for c in s:
        o = ord(c)
        k += 1 if o < 0x80 else 2 if o < 0x800 else 3 if o < 0x10000 else 4
    return k
""", rows=ROWS, name="every character's width")
case("""def f(s):
    return [c for c in s if c in 'aeiou \\t']
""", rows=ROWS, name="comprehension with an ASCII literal")

# --- `x in LIT` where x is not one character
case("lambda s: (s in 'aeiou', s[:2] in 'xaeiou', '' in s, s[-1:] in 'é漢a')", rows=ROWS,
     name="in of strings of any length")
case("lambda s: s in '' or s[1:3] in 'Hello, World'", rows=ROWS, name="in '' and a substring")
case("""def f(s):
    n = 0
    for w in s.split():
        if w in 'abc ab a Hello, World':
            n += 1
    return n
""", rows=ROWS, name="words in a literal")

# --- the counting idiom: where it must keep Python's semantics
case("""def f(s, m):
    n = m
    for c in s:
        if c in 'aeiou':
            n += 1
    return n
""", rows=SN, types=("str", "int"), name="overflow only when the test is true")
case("""def f(s, m):
    n = m
    for c in s:
        if c not in 'aeiou':
            n -= 1
    return n
""", rows=SN, types=("str", "int"), name="-= overflow")
case("""def f(s, m):
    n = m
    if len(s) > 3:
        n += 9223372036854775807
    return n
""", rows=SN, types=("str", "int"), name="a large step")
case("""def f(s):
    if len(s) > 5:
        n = 0
    for c in s:
        if c in 'aeiou':
            n += 1
    return 0
""", rows=ROWS, name="unbound counter: UnboundLocalError only when the test is true")
case("""def f(s):
    x = 0.5
    for c in s:
        if c in 'aeiou':
            x += 1
    return x
""", rows=ROWS, name="a float counter")
case("""def f(s):
    n = 0
    for c in s:
        if c == 'a' or c == 'é':
            n += 1
        if c > 'm':
            n += -1
    return n
""", rows=ROWS, name="comparisons as tests, a negative step")
case("""def f(s):
    n = 0
    for i in range(len(s)):
        if s[i] in 'aeiou':
            n += 1
    return n
""", rows=ROWS, name="indexing loop")
case("""def f(s):
    n = 0
    m = 0
    for c in s:
        if c in 'aeiou':
            n += 1
        if c in 'AEIOU':
            m += 1
            n += 1
    return (n * 1000 + m)
""", rows=ROWS, name="two counters, one body of two statements")
case("""def f(s):
    n = 0
    for c in s:
        if (t := c in 'aeiou'):
            n += 1
    return n
""", rows=ROWS, name="a walrus in the test")

# --- int() failures: the messages (errors as nulls: the runner's apply)
INTS = [[v] for v in o.INTSTR + ["abc", "12a", "é", "--1", "  ", "0b11", "٣٤", "1e5", "x" * 250]
        if v != "9223372036854775808"]  # CPython's int has no int64 limit
case("lambda s: f'{int(s):08d}'", rows=INTS, name="idfmt")
case("""def f(s):
    try:
        return f'{int(s):08d}'
    except ValueError as e:
        return str(e)
""", rows=INTS, name="idfmt's messages")
case("""def f(s):
    try:
        return str(int(s, 16))
    except ValueError as e:
        return str(e)
""", rows=[r for r in INTS if len(r[0]) < 12], name="base 16 messages")

if __name__ == "__main__":
    sys.exit(o.main())

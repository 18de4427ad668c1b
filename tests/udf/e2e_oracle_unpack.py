#!/usr/bin/python3
"""CPython oracle for unpacking in for targets and comprehension targets, enumerate(), zip()
and reversed() as iterables, and assignment expressions (:=) (issue 14, items 4 and 9).

The cases run through e2e_oracle.py's machinery (same runner, same checks: per-row results
equal to CPython's in the value and the write form, exception types equal, the 2-thread apply
equal, statistics balanced after every case).

usage: e2e_oracle_unpack.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά κείμενα\tεδώ", "日本語 の テキスト", "emoji😀split😀here",
    "k=v,x=y,z", "a=1", "=", "==", "key = value = more", "ǅ ß ﬁ", "", "  ", "x"]]

# ---- item 4: unpacking in for and comprehension targets, tuples as values
case("""def f(s):
    out = ''
    for i, c in enumerate(s):
        out += c * (i % 3)
    return out
""", rows=ROWS, name="for i, c in enumerate(s)")
case("""def f(s):
    for a, b in zip(s, s[1:]):
        if a == b:
            return a + b
    return s
""", rows=ROWS, name="for a, b in zip: the first doubled character")
case("""def f(s):
    words = s.split()
    r = ''
    for i, (a, b) in enumerate(zip(words, words[1:]), 1):
        r += str(i) + ':' + b + a + ';'
    return r
""", rows=ROWS, name="nested target: for i, (a, b) in enumerate(zip(...), 1)")
case("lambda s: ''.join([c + str(i) for i, c in enumerate(s) if i % 2 == 0])", rows=ROWS,
     name="comprehension target i, c")
case("lambda s: '|'.join(a + b for (a, b) in zip(s, reversed(s)))", rows=ROWS,
     name="generator target (a, b), parenthesized")
case("""def f(s):
    for i, c in enumerate(s):
        if c == ' ':
            break
    else:
        return 'no space'
    return str(i) + c
""", rows=ROWS, name="targets keep their values after break")
case("""def f(s):
    for k, v in zip(s.split(','), s.split('=')):
        pass
    return k + '/' + v
""", rows=ROWS, name="targets after the loop; UnboundLocalError when it never ran")
case("""def f(s):
    head, sep, tail = s.partition('=')
    t = (tail, head)
    a, b = t
    return b + sep + a
""", rows=ROWS, name="a tuple local unpacked")
case("""def f(s):
    r = [x for [i, x] in enumerate(s.split(), 10) if i > 10]
    return '-'.join(r)
""", rows=ROWS, name="list target [i, x] and a start")
case("""def f(s):
    a = b = ''
    for (i, a), b in zip(enumerate(s), reversed(s)):
        if i > 3:
            break
    return a + b
""", rows=ROWS, name="nested target in the first place")

case("""def f(s):
    out = ''
    for i, (a, b) in enumerate(zip(s.split(), reversed(s.split()))):
        if i == 1:
            continue
        try:
            out += str(int(a)) + b
        except ValueError as e:
            out += '!' + a
            if len(out) > 40:
                return out.upper()
    else:
        out += '#'
    r = [x + y for i, x in enumerate(s) for j, y in enumerate(out) if i == j and (k := i + j) >= 0]
    return out + '|'.join(r) + (str(k) if r else '')
""", rows=ROWS + [["héllo 12 wörld 7"], ["1 2 3 4 5 6 7 8 9 10 11 12"],
                         ["alpha beta gamma delta epsilon zeta eta theta iota kappa"]],
     name="continue, try/except, return inside a zip loop; nested enumerate comprehension")

case("""def f(s):
    r = ''
    for t in zip(s, reversed(s), s.upper()):
        r += ''.join(t) + str(len(t)) + t[1]
    return r + '|'.join([p[0] + p[-1] for p in zip(s.split(), s.split()[1:])])
""", rows=ROWS, name="zip of str items as tuple values")

case("""def f(s):
    r = ''
    for a, b in [w for w in s.split() if len(w) == 2] + ['cd']:
        r += b + a
    r += '|'.join([y + x for x, y in reversed(['pq', 'é日'])])
    if len(s) == 2:
        a, b = s
        r += b + a
    a, b = s
    return r
""", rows=ROWS, name="the characters of str items and of a str unpacked (ValueError on the count)")
case("""def f(s):
    r = ''
    for i, (a, b) in enumerate(s.split()):
        r += str(i) + b + a
    return r
""", rows=ROWS, name="enumerate of words unpacked into characters (ValueError unless two)")

# ---- item 2: enumerate, zip, reversed, range in every iterable position
case("lambda s: ''.join(a + b + c for a, b, c in zip(s, s.upper(), s[::-1]))", rows=ROWS,
     name="zip of three")
case("lambda s: ','.join(w + str(n) for n, w in zip(range(len(s), 0, -2), s.split()))",
     rows=ROWS, name="zip with a range, stops at the shortest")
case("lambda s: ''.join(reversed(s))", rows=ROWS, name="reversed(s) joined")
case("lambda s: ' '.join([w for w in reversed(s.split())])", rows=ROWS,
     name="reversed list in a comprehension")
case("""def f(s):
    out = ''
    for c in reversed(s.upper()):
        out += c
    for w in reversed(s.partition(' ')):
        out += '[' + w + ']'
    return out
""", rows=ROWS, name="reversed over a managed string and a tuple")
case("""def f(s):
    n = 0
    for i, j in enumerate(range(3, len(s) * 2, 3), start=-1):
        n += i * j
    return str(n)
""", rows=ROWS, name="enumerate(range) with start=")
case("""def f(s):
    best = ''
    for i, w in enumerate(s.split(','), len(s)):
        if len(w) > len(best):
            best = w + str(i)
    return best
""", rows=ROWS, name="enumerate with a computed start")
case("lambda s: ''.join(x for _, x in zip(s, 'abc'))", rows=ROWS,
     name="zip stops at the shorter second")
case("""def f(s):
    r = ''
    for i, c in enumerate(reversed(s)):
        for j, d in enumerate(s):
            if i == j:
                r += c + d
    return r
""", rows=ROWS, name="nested enumerate loops")
case("""def f(s):
    r = []
    for a, b in zip(s.split(), s.split()):
        r += [a.upper() + b]
    return '/'.join(r)
""", rows=ROWS, name="zip of two managed lists")

case("lambda s: ','.join(str(i) for i in reversed(range(len(s))))", rows=ROWS,
     name="reversed(range(n))")
case("""def f(s):
    r = ''
    for i, k in zip(reversed(range(-3, len(s) * 5, 4)), reversed(range(10, -len(s), -3))):
        r += str(i) + ':' + str(k) + ' '
    for i in reversed(range(9223372036854775806, -9223372036854775807 + len(s), -4611686018427387904)):
        r += str(i) + ','
    return r
""", rows=ROWS, name="reversed ranges with steps, up to the int64 limits")

# ---- item 9: assignment expressions
case("""def f(s):
    if (n := len(s)) > 3:
        return str(n) + s
    return s + str(n)
""", rows=ROWS, name="walrus in an if condition, parenthesized")
case("""def f(s):
    out = ''
    i = 0
    while (j := s.find(' ', i)) >= 0:
        out += s[i:j] + '|'
        i = j + 1
    return out + s[i:] + str(j)
""", rows=ROWS, name="walrus in a while condition")
case("""def f(s):
    r = [y for x in s.split() if (y := x.strip('.,=').upper())]
    return ','.join(r) + (y if r else '-')
""", rows=ROWS, name="walrus in a comprehension condition binds in the function")
case("""def f(s):
    if s and (m := s[0]) in 'aehk':
        pass
    return m
""", rows=ROWS, name="walrus after a short circuit: UnboundLocalError when skipped")
case("""def f(s):
    if w := s.strip():
        return w.title()
    return '<' + w + '>'
""", rows=ROWS, name="unparenthesized walrus as the whole if test")
case("""def f(s):
    total = 0
    for w in s.split():
        if (k := len(w)) > 2 and (c := w[0]).isalpha():
            total += k
            last = c
    return str(total) + (last if total else '')
""", rows=ROWS, name="two walruses in one condition")
case("""def f(s):
    parts = [p for q in s.split(',') if (p := q.partition('=')[2]) or q]
    return '/'.join(parts) + '#' + (p if parts else '')
""", rows=ROWS, name="walrus with partition in a comprehension")
case("lambda s: (t := s.strip()) + t[::-1]", rows=ROWS, name="walrus in a lambda")
case("""def f(s):
    if len(w := s.strip()) > 2:
        return w + str(len(w))
    return s.replace(c := ' ', '_') + c + w
""", rows=ROWS, name="walrus as a call argument")

if __name__ == "__main__":
    sys.exit(o.main())

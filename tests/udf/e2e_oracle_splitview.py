#!/usr/bin/python3
"""CPython oracle for the split / sort / join / repr fast paths (issue #14 benchmark):
pieces of a split (and partition) of a row as views of the row, sorted() of a fresh list
sorted in place, key=len sorted without a key array, sep.join(list) and repr(list of str)
written straight into the output row. Each case runs both compiled forms (value and write),
so every fast path is checked against CPython next to the general path of the other form;
rows cover ASCII, non-ASCII, empty pieces, separators at the ends, maxsplit and rows with
more pieces than the fast paths keep on the stack.

usage: e2e_oracle_splitview.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "", ",", ",,", "a,", ",a", "a,,b", ",a,b,", "one,two,,three", "x,y,z,w,v,u",
    "é,ü,ß,漢字", "Ελλη,νικά,", "😀,😁,😀", "a'b,c\\d,e\"f", "tab\there,new\nline,\x7f,\x01",
    "  padded  words  ", "b a c a b", "zeta Alpha beta gamma", "ǅ ǆ Ǆ", "ß SS ss",
    "один два  три", "日本語 の テキスト", "\u2003em\u2003space\u3000ideo", "a\x85b c",
    ",".join(str(i) for i in range(70)), " ".join("w" * (i % 7) for i in range(90)),
    "abcdefghijklmnopqrstuvwxyz0123456789,ABCDEFGHIJKLMNOPQRSTUVWXYZ", "x" * 40 + ",y",
    "'", "\"'\"", "mixed 'quote\" item,it's", "αβγδεζηθ,ικλμνξοπ,ρστυφχψω"]]

# --- split pieces (views of the row) returned, joined, stored, compared
case("lambda s: s.split(',')", rows=ROWS, name="split by a byte, the list returned")
case("lambda s: s.rsplit(',')", rows=ROWS, name="rsplit by a byte")
case("lambda s: s.split(',', 1)", rows=ROWS, name="split by a byte, maxsplit 1")
case("lambda s: s.rsplit(',', 2)", rows=ROWS, name="rsplit by a byte, maxsplit 2")
case("lambda s: s.split(',', 0)", rows=ROWS, name="maxsplit 0: the row itself")
case("lambda s: s.split(',', -1)", rows=ROWS, name="maxsplit -1")
case("lambda s: s.split()", rows=ROWS, name="split on whitespace")
case("lambda s: s.rsplit(None, 1)", rows=ROWS, name="rsplit on whitespace, maxsplit 1")
case("lambda s: s.split(', ')", rows=ROWS, name="split by two bytes")
case("lambda s: s.split('é')", rows=ROWS, name="split by a non-ASCII character")
case("lambda s: s.splitlines()", rows=ROWS, name="splitlines")
case("lambda s: s.partition(',')", rows=ROWS, name="partition pieces")
case("lambda s: s.rpartition(',')[0] + '|' + s.partition(' ')[2]", rows=ROWS,
     name="partition items")
case("""def f(s):
    d = {}
    for w in s.split(','):
        d[w] = d.get(w, 0) + 1
    return repr(sorted(d.keys()))
""", rows=ROWS, name="pieces stored as dict keys")
case("""def f(s):
    keep = []
    for w in s.split(','):
        if w:
            keep.append(w)
    return keep
""", rows=ROWS, name="pieces appended to a returned list")
case("""def f(s):
    parts = s.split(',')
    first = parts[0]
    parts = ['x']
    return first + first[::-1]
""", rows=ROWS, name="a piece outliving its list")
case("lambda s: [w.upper() for w in s.split(',') if w]", rows=ROWS,
     name="pieces in a comprehension")
case("lambda s: s.strip().split(',')", rows=ROWS, name="split of a made string (copies)")
case("lambda s: (s + ',end').split(',', 2)", rows=ROWS, name="split of a concatenation")

# --- sorted(): a fresh list sorted in place, key=len without a key array
case("lambda s: ' '.join(sorted(s.split(), key=len))", rows=ROWS,
     name="the benchmark: words sorted by length, joined")
case("lambda s: sorted(s.split(','), key=len, reverse=True)", rows=ROWS,
     name="key=len reverse keeps ties in order")
case("lambda s: sorted(s.split(','), key=lambda w: len(w))", rows=ROWS,
     name="key=lambda w: len(w)")
case("lambda s: sorted(s.split())", rows=ROWS, name="sorted of a fresh list, no key")
case("lambda s: sorted(s.split(','), reverse=True)", rows=ROWS, name="reverse, no key")
case("lambda s: sorted([w for w in s.split()], key=len)", rows=ROWS,
     name="sorted of a comprehension")
case("lambda s: sorted([s, s.upper(), s[:2], ''], key=len)", rows=ROWS,
     name="sorted of a list display")
case("lambda s: sorted(s, key=len)", rows=ROWS, name="sorted of the characters (a copy)")
case("""def f(s):
    xs = s.split()
    ys = sorted(xs, key=len)
    return ','.join(xs) + '|' + ','.join(ys)
""", rows=ROWS, name="sorted of a named list leaves it unchanged")
case("""def f(s):
    xs = s.split(',')
    xs.sort(key=len)
    ys = xs
    ys.sort(key=len, reverse=True)
    return xs
""", rows=ROWS, name="list.sort(key=len) in place, through an alias")
case("lambda s: sorted([len(w) for w in s.split()], reverse=True)", rows=ROWS,
     name="a fresh list of ints")
case("lambda s: max(s.split(','), key=len) + min(s.split(','), key=len)", rows=ROWS,
     name="min/max by len (the key-array path)")

# --- sep.join(list) written into the row; repr(list of str) written into the row
case("lambda s: '-'.join(s.split(','))", rows=ROWS, name="join of a split")
case("lambda s: ''.join(s.split(','))", rows=ROWS, name="join with an empty separator")
case("lambda s: ' / '.join(s.rsplit(',', 1)) + '!'", rows=ROWS,
     name="join then concatenation")
case("lambda s: 'é'.join(s.partition(','))", rows=ROWS, name="join of a tuple")
case("lambda s: s.join(['<', '>'])", rows=ROWS, name="join of a list display")
case("lambda s: repr(s.split(','))", rows=ROWS, name="repr of a split")
case("lambda s: repr(s.split())", rows=ROWS, name="repr of the words")
case("lambda s: str(s.split(',', 1))", rows=ROWS, name="str of a list")
case("lambda s: repr(s.partition(','))", rows=ROWS, name="repr of a tuple")
case("lambda s: repr(s.split(',', 0))", rows=ROWS, name="repr of a one-item list")
case("lambda s: repr([s, s * 3, 'it\\'s', '\\\\'])", rows=ROWS,
     name="repr of items with quotes, backslashes and escapes")
case("lambda s: ascii(s.split(','))", rows=ROWS, name="ascii of a list")
case("lambda s: f'{s.split(\",\")!r}|{len(s)}'", rows=ROWS, name="!r of a list in an f-string")

if __name__ == "__main__":
    sys.exit(o.main())

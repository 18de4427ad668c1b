#!/usr/bin/python3
"""CPython oracle for sorted(s.split(), key=len) made in one step (the split sorts its words as
it finds them) and sep.join(sorted(s.split(), key=len)) written into the row with no list
(issue #14 benchmark "sort_key"). Each case runs both compiled forms (value and write). Rows:
0, 1, 2, 3, 4, 5 and many words; equal lengths (stability, also reversed); ASCII and
non-ASCII words; Unicode whitespace (the general path); empty rows and rows of spaces; rows
just under and over 32 bytes (the short-row path and the general one).

usage: e2e_oracle_sortkey.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "", " ", "   ", "\t\n", "a", " a ", "bb a", "a bb", "ccc a bb", "  dd ccc a bb  ",
    "ee dd ccc a bb", "aa bb cc dd", "aa bb cc dd ee", "d c b a", "dd cc bb aa",
    "x yy x yy x", "one two three four five six seven", "w ww w ww w ww w ww w ww w ww w",
    "a b c d e f g h i j k l m n o p", "abcdefghijklmnopqrstuvwxyz abcde",
    "abcdefghijklmnopqrstuvwxyz abcdef", "abcdefghijklmnopqrstuvwxyz0123456",
    "abcdefghijklmnopqr stuvwxyz", "  aaaaaaaaaaaaaaaaaaa b  ", "x" * 32, "x" * 33 + " y",
    "é ü ßß", "naïve ab c", "日本語 の テキスト", "один два  три", "Ελλη νικά α",
    "a\u00a0b cc", "a\u2003bb\u3000c", "x\x85yy z", "a\x1cb\x1dc\x1ed\x1fe", "tab\tsep\nnew",
    "\u200bzero width  space", "😀 😀😀 a", "ǅ ǆ Ǆ ß",
    "mixed 'quote\" it's",
    " ".join("w" * (i % 7 + 1) for i in range(40))]]

BENCH = "def f(s):\n    return ' '.join(sorted(s.split(), key=len))\n"
case(BENCH, rows=ROWS, name="the benchmark")
case("lambda s: ' '.join(sorted(s.split(), key=len, reverse=True))", rows=ROWS,
     name="reversed: ties keep their order")
case("lambda s: ' '.join(sorted(s.split(), key=len, reverse=False))", rows=ROWS,
     name="reverse=False")
case("lambda s: '-'.join(sorted(s.split(None), key=len))", rows=ROWS, name="split(None)")
case("lambda s: ''.join(sorted(s.split(), key=len))", rows=ROWS, name="empty separator")
case("lambda s: ', '.join(sorted(s.split(), key=len))", rows=ROWS, name="two-byte separator")
case("lambda s: ' é '.join(sorted(s.split(), key=len))", rows=ROWS,
     name="non-ASCII separator")
case("lambda s: s.join(sorted(s.split(), key=len))", rows=ROWS, name="the row as separator")
case("lambda s: ' '.join(sorted(s.split(), key=lambda w: len(w)))", rows=ROWS,
     name="key=lambda w: len(w)")
case("lambda s: ' '.join(sorted(s.strip().split(), key=len))", rows=ROWS,
     name="split of a made string (managed pieces)")
case("lambda s: ' '.join(sorted((s + ' zz').split(), key=len))", rows=ROWS,
     name="split of a concatenation")
case("lambda s: ' '.join(sorted(s.split(' '), key=len))", rows=ROWS,
     name="split by a space: empty pieces")
case("lambda s: ' '.join(sorted(s.split(None, 1), key=len))", rows=ROWS,
     name="maxsplit 1")
case("lambda s: ' '.join(sorted(s.split(), key=len)) + '|'", rows=ROWS,
     name="joined, then concatenated")
case("lambda s: sorted(s.split(), key=len)", rows=ROWS, name="the sorted list returned")
case("lambda s: sorted(s.split(), key=len, reverse=True)", rows=ROWS,
     name="the reversed list returned")
case("lambda s: repr(sorted(s.split(), key=len))", rows=ROWS, name="repr of the sorted words")
case("lambda s: len(sorted(s.split(), key=len))", rows=ROWS, name="the number of words")
case("""def f(s):
    ws = sorted(s.split(), key=len)
    ws.append(s.upper())
    ws.append('x')
    return '/'.join(ws)
""", rows=ROWS, name="the sorted list grown by appends")
case("""def f(s):
    ws = sorted(s.split(), key=len)
    if not ws:
        return '-'
    ws[0] = ws[-1] + '!'
    return ' '.join(ws)
""", rows=ROWS, name="an item of the sorted list replaced")
case("""def f(s):
    ws = sorted(s.split(), key=len)
    return ws[0] if ws else ''
""", rows=ROWS, name="the shortest word")
case("""def f(s):
    return ' '.join(sorted(' '.join(sorted(s.split(), key=len)).split(), key=len,
                           reverse=True))
""", rows=ROWS, name="a fused sort inside another's split")
case("""def f(s):
    out = []
    for w in sorted(s.split(), key=len):
        out.append(w[::-1])
    return out
""", rows=ROWS, name="loop over the sorted words")
case("lambda s: ' '.join(sorted(s.split(), key=len)[1:])", rows=ROWS,
     name="a slice of the sorted words")
case("lambda s: ' '.join(sorted(s.split()))", rows=ROWS, name="sorted without a key")
case("lambda s: ' '.join(sorted([w for w in s.split()], key=len))", rows=ROWS,
     name="the general path (a comprehension)")
case("lambda s: ' '.join(sorted(s.split(), key=len, reverse=len(s) > 10))", rows=ROWS,
     name="reverse computed (not fused)")
case("lambda s: ' '.join(sorted(s.split(''), key=len))", rows=ROWS,
     name="ValueError: empty separator")
case("""def f(s):
    try:
        return ' '.join(sorted(s.split(s[:0]), key=len))
    except ValueError as e:
        return 'caught: ' + str(e)
""", rows=ROWS, name="the empty-separator error caught")

if __name__ == "__main__":
    sys.exit(o.main())

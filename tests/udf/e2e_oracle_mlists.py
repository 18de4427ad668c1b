#!/usr/bin/python3
"""CPython oracle for mutable lists of str and key functions (issue #14 item 3): lists a UDF
builds and changes (append, extend, insert, pop, remove, index, count, sort, reverse, clear,
copy, xs[i] = v, del xs[i]), aliasing, iteration over a list being changed, sorted(),
min() and max() with key= (a def, a builtin, str.method, a lambda capturing locals),
reverse= and default=, and CPython's exceptions (IndexError, ValueError) raised mid-loop.

The cases run through e2e_oracle.py's machinery (per-row results and exception types equal
to CPython's in both compiled forms, the 2-thread apply equal, statistics balanced).

usage: e2e_oracle_mlists.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά κείμενα εδώ", "日本語 の テキスト", "b a c a b", "zeta Alpha beta",
    "ǅ ǆ Ǆ", "ß SS ss", "a a a", "x", "", "   ", "😀 😁 😀", "one,two,,three", "Ünïcödé ünicode"]]

# --- building a list and returning it or joining it
case("""def f(s):
    out = []
    for w in s.split():
        out.append(w.title())
    return ' '.join(out)
""", rows=ROWS, name="append in a loop, joined")
case("""def f(s):
    out = []
    for w in s.split():
        if len(w) > 1:
            out.append(w.upper())
    return out
""", rows=ROWS, name="append in a loop, the list returned")
case("""def f(s):
    xs = s.split()
    xs.extend(s.split(','))
    xs.extend('ab')
    xs.extend(('t', 'u'))
    xs.extend(xs)
    return xs
""", rows=ROWS, name="extend with lists, a str, a tuple and itself")
case("""def f(s):
    xs = s.split()
    xs.insert(0, '<')
    xs.insert(len(xs), '>')
    xs.insert(-1, '-')
    xs.insert(100, 'end')
    xs.insert(-100, 'start')
    return xs
""", rows=ROWS, name="insert at clamped positions")
case("""def f(s):
    xs = s.split()
    last = xs.pop()
    first = xs.pop(0)
    return first + '|' + last + '|' + ','.join(xs)
""", rows=ROWS, name="pop and pop(0), IndexError on short rows")
case("""def f(s):
    xs = s.split()
    return xs.pop(2)
""", rows=ROWS, name="pop(2): pop index out of range")
case("""def f(s):
    xs = list(s)
    xs.remove('a')
    return xs
""", rows=ROWS, name="remove: ValueError when absent")
case("""def f(s):
    xs = s.split()
    return xs.index('a') + xs.count('a') * 100
""", rows=ROWS, name="index: ValueError 'a' is not in list")
case("""def f(s):
    xs = s.split()
    return str(xs.index(s.split()[-1])) if xs else 'empty'
""", rows=ROWS, name="index of a present item")
case("""def f(s):
    xs = s.split()
    w = xs[0] if xs else 'ключ'
    try:
        xs.index('ключ ' + w)
    except ValueError as e:
        return str(e)
    return 'found'
""", rows=ROWS, name="index's message carries the item's repr")
case("""def f(s):
    xs = list(s)
    xs.reverse()
    ys = xs.copy()
    ys.append('!')
    xs.clear()
    return ''.join(ys) + str(len(xs))
""", rows=ROWS, name="reverse, copy, clear")
case("""def f(s):
    xs = s.split()
    xs[0] = xs[-1].upper()
    xs[-1] = '*'
    return xs
""", rows=ROWS, name="item assignment, IndexError on an empty list")
case("""def f(s):
    xs = s.split()
    xs[3] = 'x'
    return xs
""", rows=ROWS, name="list assignment index out of range")
case("""def f(s):
    xs = list(s)
    del xs[0]
    del xs[-1]
    return xs
""", rows=ROWS, name="del xs[i], IndexError on short rows")
case("""def f(s):
    xs = s.split()
    ys = xs
    ys.append('tail')
    zs = list(xs)
    zs.append('copy only')
    return xs + ['/'] + zs
""", rows=ROWS, name="aliasing: ys = xs shares, list(xs) copies")
case("""def add(xs, w):
    xs.append(w)
    xs.append(w)

def f(s):
    out = []
    for w in s.split():
        add(out, w)
    return out
""", rows=ROWS, name="a helper appends to its argument")
case("""def f(s):
    xs = s.split()
    n = 0
    for w in xs:
        if len(xs) < 6:
            xs.append(w + '+')
        n += 1
    return str(n) + ':' + ' '.join(xs)
""", rows=ROWS, name="appending to the list being iterated")
case("""def f(s):
    xs = s.split()
    out = []
    for w in xs:
        out.append(w)
        if xs:
            xs.pop()
    return out
""", rows=ROWS, name="popping from the list being iterated")
case("""def f(s):
    xs = list(s)
    out = []
    for c in reversed(xs):
        out.append(c)
        if len(xs) > 2:
            del xs[0]
            del xs[0]
    return out
""", rows=ROWS, name="reversed() over a list that shrinks")
case("""def f(s):
    xs = s.split()
    out = []
    while xs:
        out.append(xs.pop(0).capitalize())
    return '-'.join(out)
""", rows=ROWS, name="a queue emptied with pop(0)")
case("""def f(s):
    xs = s.split()
    ys = xs + ['a'] * 2
    return [str(len(ys)), str('a' in ys), str(ys.count('a'))] + ys[1:3] + ys[::-2]
""", rows=ROWS, name="+, *, in, count, slicing")
# --- sort and sorted
case("lambda s: sorted(s)", rows=ROWS, name="sorted(str): its characters")
case("lambda s: sorted(s.split(), reverse=True)", rows=ROWS)
case("lambda s: sorted(s.split(), key=len)", rows=ROWS, name="sorted key=len, stable")
case("lambda s: sorted(s.split(), key=len, reverse=True)", rows=ROWS,
     name="sorted key=len reverse=True keeps ties in order")
case("lambda s: sorted(s.split(), key=str.lower)", rows=ROWS)
case("lambda s: sorted(s.split(), key=str.casefold, reverse=1)", rows=ROWS)
case("lambda s: sorted(s.split(), key=lambda w: len(w))", rows=ROWS)
case("lambda s: sorted(s.split(), key=lambda w: w[::-1])", rows=ROWS)
case("lambda s: sorted(s.split(), key=lambda w: -len(w) / 2)", rows=ROWS,
     name="float keys")
case("lambda s: sorted(s.split(), key=lambda w: w.isupper())", rows=ROWS, name="bool keys")
case("lambda s: sorted(s.partition(' '), key=None)", rows=ROWS)
case("""def weight(w):
    return sum_codes(w) % 7

def sum_codes(w):
    n = 0
    for ch in w:
        n += ord(ch)
    return n

def f(s):
    return sorted(s.split(), key=weight)
""", rows=ROWS, name="key= a module-level def")
case("""def f(s):
    first = s[:1]
    return sorted(s.split(), key=lambda w: (w.startswith(first), w))[0] if s.strip() else ''
""".replace("(w.startswith(first), w)", "str(w.startswith(first)) + w"), rows=ROWS,
     name="a lambda capturing a local")
case("""def f(s):
    xs = s.split()
    xs.sort()
    ys = list(s)
    ys.sort(key=str.upper, reverse=True)
    return xs + ys
""", rows=ROWS, name="list.sort with and without key")
case("""def f(s):
    xs = s.split()
    xs.sort(key=lambda w: int(w))
    return xs
""", rows=ROWS, name="a key raising ValueError mid-sort")
case("""def f(s):
    xs = s.split()
    try:
        xs.sort(key=lambda w: int(w))
    except ValueError:
        return ['bad'] + xs
    return xs
""", rows=ROWS, name="an exception in a key caught, the list unchanged")
# --- min and max with key= and default=
case("lambda s: max(s.split(), key=len)", rows=ROWS, name="max key=len: ValueError on empty")
case("lambda s: min(s.split(), key=len, default='-')", rows=ROWS)
case("lambda s: max(s.split(), default='none')", rows=ROWS)
case("lambda s: min(s.split(','), key=lambda w: w.strip().lower())", rows=ROWS)
case("lambda s: max((w for w in s.split() if w.isalpha()), key=str.lower, default='')",
     rows=ROWS, name="max of a generator with key and default")
case("""def f(s):
    words = s.split()
    longest = max(words, key=len) if words else ''
    shortest = min(words, key=lambda w: len(w), default='')
    return longest + '/' + shortest
""", rows=ROWS, name="longest and shortest word")
# --- lists of int and float
case("""def f(s):
    words = s.split()
    lens = [len(w) for w in words]
    return max(lens)
""", rows=ROWS, name="max of a list of lengths: ValueError on empty rows")
case("lambda s: sum([len(w) for w in s.split()])", rows=ROWS)
case("lambda s: sum(ord(c) for c in s) % 1000", rows=ROWS, name="sum of a generator of ints")
case("lambda s: max((len(w) for w in s.split()), default=-1)", rows=ROWS)
case("lambda s: min([len(w) / 2 for w in s.split()], default=0.5)", rows=ROWS)
case("lambda s: sum([len(w) * 0.5 for w in s.split(',')])", rows=ROWS, name="sum of floats")
case("""def f(s):
    nums = [1, 5, 3]
    nums.append(len(s))
    nums.insert(0, -len(s))
    nums.extend([7, 7])
    nums[1] = nums[-1] * 2
    del nums[2]
    last = nums.pop()
    nums.sort()
    out = ''
    for n in nums:
        out += str(n) + ' '
    return out + '/' + str(last) + '/' + str(nums.count(7)) + '/' + str(nums.index(7))
""", rows=ROWS, name="a list of ints built, changed and sorted")
case("""def f(s):
    xs = list(range(len(s)))
    ys = xs[::2] + xs[1::2] * 2
    ys.sort(reverse=True)
    ys.reverse()
    return ','.join([str(y) for y in ys]) + str(len(ys)) + str(3 in ys)
""", rows=ROWS, name="list(range()), slicing, +, *, in")
case("""def f(s):
    codes = [ord(c) for c in s]
    codes.remove(97)
    return sum(codes)
""", rows=ROWS, name="remove from a list of ints: ValueError when absent")
case("""def f(s):
    codes = [ord(c) for c in s]
    return codes.index(32)
""", rows=ROWS, name="index in a list of ints: ValueError '32 is not in list'")
case("""def f(s):
    xs = [len(w) for w in s.split()]
    return xs[5]
""", rows=ROWS, name="IndexError on a list of ints")
case("""def f(s):
    words = s.split()
    lens = [len(w) for w in words]
    return ' '.join(sorted(words, key=lambda w: lens.count(len(w))))
""", rows=ROWS, name="a key lambda reading a list of ints")
case("""def f(s):
    xs = [float(len(w)) for w in s.split()]
    ys = sorted(xs, reverse=True)
    return sum(ys[:2]) + max(xs, default=0.0) - min(xs, key=lambda x: -x, default=1.0)
""", rows=ROWS, name="floats: sorted, sum, max, min with key")
case("""def f(s):
    xs = [len(w) for w in s.split()]
    ys = xs
    ys.append(100)
    return xs == ys and xs == [len(w) for w in s.split()] + [100] and len(xs) > 0
""", rows=ROWS, name="aliasing and == of lists of ints")
case("""def f(s):
    words = s.split()
    order = sorted(range(len(words)), key=lambda i: words[i].lower())
    return ' '.join([str(i) + words[i] for i in order]) + str(max(range(len(s)), default=-1))
""", rows=ROWS, name="sorted(range(n), key=lambda i: words[i])")
case("""def f(s):
    nums = []
    for w in s.split():
        nums.append(len(w))
    total = 0
    for n in nums:
        total += n
    return str(total) + '/' + str(len(nums)) + '/' + str(sum(nums))
""", rows=ROWS, name="nums = [] typed by its appends (int)")
case("""def f(s):
    fs = []
    fs.insert(0, len(s) / 3)
    fs.extend([1.5, 2.5])
    return max(fs) - min(fs)
""", rows=ROWS, name="fs = [] typed by insert (float)")
case("""def f(s):
    out = []
    return out if s else [s]
""", rows=ROWS, name="an untouched [] is a list of str")
case("""def f(s):
    out = []
    for w in s.split():
        out.append(w.upper())
        out.insert(0, w)
    nums = []
    for w in out:
        nums.append(len(w))
    nums.sort(reverse=True)
    out.sort(key=lambda w: len(w))
    best = max(out, key=str.lower, default='')
    return sorted(out + [best], key=len, reverse=True)[:3] + [str(sum(nums))]
""", rows=ROWS, name="test_udf_mlists's program")

if __name__ == "__main__":
    sys.exit(o.main())

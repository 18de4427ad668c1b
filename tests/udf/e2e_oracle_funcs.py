#!/usr/bin/python3
"""CPython oracle for functions (issue 14, item 5): recursion (direct and mutual, with
RecursionError past the limit, caught and uncaught), default and keyword arguments of helper
defs, module-level constants, and nested defs and named lambdas reading the enclosing
function's variables (closures, with Python's late binding).

The cases run through e2e_oracle.py's machinery (same runner, same checks: per-row results
equal to CPython's in the value and the write form, exception types equal, the 2-thread apply
equal, statistics balanced after every case).

usage: e2e_oracle_funcs.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "один два  три", "Ελληνικά κείμενα\tεδώ", "日本語 の テキスト", "emoji😀split😀here",
    "k=v,x=y,z", "a=1", "ǅ ß ﬁ", "", "  ", "x", "racecar", "Abba", "12345", "9" * 40]]
INTS = [[n] for n in [0, 1, 2, 7, 10, 25, 100, 500, 900, -3]]

# ---- recursion
case("""def rev(t):
    if not t:
        return ''
    return rev(t[1:]) + t[0]

def f(s):
    return rev(s)
""", rows=ROWS, name="recursive reverse")
case("""def rev(t):
    return '' if not t else rev(t[1:]) + t[0]

def f(s):
    return rev(s) + '|' + rev(s[::2])
""", rows=ROWS, name="recursive reverse in a conditional expression")
case("""def digits(n):
    if n < 10:
        return n
    return n % 10 + digits(n // 10)

def f(s):
    return digits(len(s) * 12345 + sum_ords(s))

def sum_ords(s):
    t = 0
    for c in s:
        t += ord(c)
    return t
""", rows=ROWS, name="recursive digit sum")
case("""def is_even(n):
    if n == 0:
        return True
    return is_odd(n - 1)

def is_odd(n):
    if n == 0:
        return False
    return is_even(n - 1)

def f(n):
    return is_even(abs(n))
""", types=["int"], rows=INTS, name="mutual recursion is_even / is_odd")
case("""def f(n):
    if n <= 1:
        return 1
    return n * f(n - 1)
""", types=["int"], rows=[[n] for n in [0, 1, 5, 20, 21, 25, -2]],
     name="recursive entry: factorial (OverflowError past int64)")
case("""def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)

def f(n):
    return fib(n % 20)
""", types=["int"], rows=INTS, name="fibonacci, two recursive calls")
case("""def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)

def f(n):
    return depth(n)
""", types=["int"], rows=[[0], [1], [500], [900], [1500], [100000]],
     name="RecursionError uncaught past the limit")
case("""def depth(n):
    if n == 0:
        return 'bottom'
    return depth(n - 1)

def f(n):
    try:
        return depth(n)
    except RecursionError as e:
        return 'too deep: ' + str(e)
""", types=["int"], rows=[[0], [3], [800], [2000], [10**6]],
     name="RecursionError caught, its message")
case("""def depth(n):
    if n == 0:
        return 'bottom'
    return depth(n - 1)

def f(n):
    try:
        return depth(n)
    except RuntimeError:
        return 'runtime'
""", types=["int"], rows=[[5], [5000]], name="RecursionError is a RuntimeError")
case("""def pal(t):
    if len(t) < 2:
        return True
    if t[0] != t[-1]:
        return False
    return pal(t[1:-1])

def f(s):
    return pal(s.lower())
""", rows=ROWS, name="recursive palindrome test")
case("""def count(t, c):
    if t == '':
        return 0
    return (1 if t[0] == c else 0) + count(t[1:], c)

def f(s):
    return count(s, ' ') * 100 + count(s, 'a')
""", rows=ROWS, name="recursion with two parameters")
case("""def walk(words, i):
    if i >= len(words):
        return None
    if words[i].isdigit():
        return words[i]
    return walk(words, i + 1)

def f(s):
    r = walk(s.split(), 0)
    return 'none' if r is None else r
""", rows=ROWS + [["a b 12 c"], ["x 7"]], name="recursive search returning str | None")
case("""def collatz(n, steps):
    if n == 1:
        return steps
    if n % 2 == 0:
        return collatz(n // 2, steps + 1)
    return collatz(3 * n + 1, steps + 1)

def f(n):
    return collatz(abs(n) + 1, 0)
""", types=["int"], rows=INTS, name="collatz steps by tail recursion")

if __name__ == "__main__":
    sys.exit(o.main())

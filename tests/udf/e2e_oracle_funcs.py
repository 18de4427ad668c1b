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

# ---- module-level constants
case("""SEP = ','
N = 3
PREFIXES = ('http://', 'https://')
LIMIT = 2 ** 10

def f(s):
    if s.startswith(PREFIXES):
        return 'url'
    parts = s.split()[:N]
    return SEP.join(parts) + str(LIMIT - len(s))
""", rows=ROWS + [["http://x.y"], ["https://ü.de"]], name="module constants: str, int, tuple, 2 ** 10")
case("""WIDTH = 12
FILL = '·'
HALF = WIDTH // 2
RATIO = WIDTH / 8
NEG = -WIDTH % 5
GREETING = 'hé' * 2 + '!'
FLAG = not WIDTH
NOTHING = None

def f(s):
    r = s[:HALF].center(WIDTH, FILL) + GREETING + str(RATIO) + str(NEG) + str(FLAG)
    if NOTHING is None:
        r += '.'
    return r
""", rows=ROWS, name="constant expressions of constants")
case("""N = 2
N = N + 5

def f(s):
    return s[:N]
""", rows=ROWS, name="a constant rebound at module level: the last value")
case("""N = 4

def f(s):
    N = len(s)
    return s[:N - 1] + str(N)
""", rows=ROWS, name="a local shadows a constant")
case("""N = 4

def f(s):
    if s:
        return str(N)
    N = 1
    return str(N)
""", rows=ROWS, name="a local assigned later: UnboundLocalError, as in Python")
case("""VOWELS = 'aeiouyäöüéèàα'
SCALE = 1.5

def score(w):
    n = 0
    for c in w.lower():
        if c in VOWELS:
            n += 1
    return n * SCALE

def f(s):
    return ','.join([str(score(w)) for w in s.split() if w[0] not in VOWELS])
""", rows=ROWS, name="constants in helpers and comprehensions")

# ---- default and keyword arguments
case("""FILLER = '0'

def pad(s, n=8, fill=FILLER):
    return s.rjust(n, fill)

def f(s):
    return pad(s) + '|' + pad(s, 4) + '|' + pad(s, fill='x') + '|' + pad(s=s, n=3) + '|' + \
        pad(fill='é', s=s[:2], n=5)
""", rows=ROWS, name="defaults and keywords: pad(s), pad(s, 4), pad(s, fill='x'), pad(s=s, n=3)")
case("""def join(a, b='-', c=2, d=True):
    r = a * c
    if d:
        r = r.upper()
    return b.join([r, a])

def f(s):
    return join(s) + join(s, c=1) + join(s, '+', d=False) + join(a=s, d=0 == 1)
""", rows=ROWS, name="keyword arguments in any order, bool default")
case("""def tail(s, n=-1, neg=-2.5):
    return s[n:] + str(neg)

def f(s):
    return tail(s) + tail(s, 2) + tail(s, neg=1.0)
""", rows=ROWS, name="negative literal defaults")

# ---- nested defs and named lambdas (closures)
case("""def f(s):
    suffix = s[-1:]
    def g(w):
        return w + suffix
    return ' '.join(g(w) for w in s.split())
""", rows=ROWS, name="nested def reading the enclosing variable")
case("""def f(s):
    suffix = s[:1]
    h = lambda w: w.upper() + suffix
    return '|'.join([h(w) for w in s.split()])
""", rows=ROWS, name="named lambda capturing a variable")
case("""def f(s):
    x = 'a'
    g = lambda: x
    x = 'b'
    return g()
""", rows=ROWS, name="late binding: the value at call time")
case("""def f(s):
    n = 0
    def tag(w):
        return w + str(n)
    out = []
    for w in s.split():
        n += len(w)
        out = out + [tag(w)]
    return ','.join(out)
""", rows=ROWS, name="late binding in a loop: the loop's current value")
case("""def f(s):
    sep = '-'
    def inner(w, k=2):
        def innermost(c):
            return c * k + sep
        return ''.join(innermost(c) for c in w)
    return inner(s) + inner(s[:3], 1)
""", rows=ROWS, name="closure two levels deep, with a default")
case("""def f(s):
    mark = '*'
    def star(w):
        return mark + w
    def both(w):
        return star(w) + star(w[::-1])
    return both(s)
""", rows=ROWS, name="a nested def calling its sibling passes the sibling's captures")
case("""def f(s):
    stop = ' '
    def upto(t):
        if not t or t[0] == stop:
            return ''
        return t[0] + upto(t[1:])
    return upto(s) + '|' + upto(s[::-1])
""", rows=ROWS, name="recursive nested def with a capture")
case("""def f(s):
    low = s.lower()
    def count(c):
        return low.count(c)
    best = ''
    for c in low:
        if count(c) > count(best[:1] or ' '):
            best = c
    return best
""", rows=ROWS, name="closure in a loop condition")
case("""def f(s):
    words = s.split()
    key = lambda w: len(w)
    total = 0
    for w in words:
        total += key(w)
    shadow = lambda s: s * 2
    return str(total) + shadow(s[:2])
""", rows=ROWS, name="lambdas: one without captures, a parameter shadowing")
case("""def f(s):
    def local_only(w):
        s = w.strip()
        return s + '!'
    return local_only(s) + s
""", rows=ROWS, name="a nested def assigning a name makes it local (no capture)")
case("""def f(s):
    try:
        n = int(s)
    except ValueError:
        n = -1
    def half(d=2):
        return n // d
    return half() + half(3) + half(d=-4)
""", rows=ROWS, name="closure over a variable set in try/except; keyword call")
case("""def f(n):
    base = 10
    def digits(k):
        if k < base:
            return str(k)
        return digits(k // base) + '.' + str(k % base)
    return digits(abs(n))
""", types=["int"], rows=INTS, name="recursive closure over an int")
case("""def f(s):
    def rec(t):
        if t == '':
            return 0
        return 1 + rec(t)
    try:
        return str(rec(s))
    except RecursionError as e:
        return str(e)
""", rows=[["a"], ["ü"]], name="RecursionError from a nested def")
case("""def f(s):
    w = 'z'
    g = lambda: w
    return ''.join([g() + w for w in s])
""", rows=ROWS, name="a closure reads the function's variable, not a comprehension's")
case("""def f(s):
    return '' if not s else f(s[1:]) + s[0]
""", rows=ROWS, name="recursive entry returning str (value and write form)")
case("""def f(s):
    out = ''
    for w in s.split():
        first = w[0]
        def shout(t, times=2):
            return (t + first) * times
        out += shout(w, times=1) + shout(w[-1])
    return out
""", rows=ROWS, name="a def inside a loop sees the current iteration's variable")
case("""def f(n):
    limit = abs(n)
    def ping(k):
        if k >= limit:
            return 'ping'
        return pong(k + 1)
    def pong(k):
        if k >= limit:
            return 'pong'
        return ping(k + 1)
    return ping(0)
""", types=["int"], rows=INTS, name="mutual recursion of nested defs sharing a capture")
case("""def heavy(s, k):
    a = s.upper()
    b = s.lower() + a
    c = f'{a}{b}{k}'
    d = c.replace('A', 'é').split()
    e = '-'.join(d) if d else c
    if k == 0:
        return len(e)
    g = heavy(s, k - 1)
    return g + len(a) + len(b) - len(c) + len(e) % 3

def f(s):
    try:
        return str(heavy(s[:20], 940 if len(s) % 2 else 3000))
    except RecursionError:  # CPython says '... while calling a Python object' when a built-in
        return 'too deep'   # call is what passes the limit: nrt counts frames of defs only
""", rows=ROWS, name="deep recursion of a function with many locals: near the limit and past it")
case("""SEP = '/'
clean = lambda t, chars=SEP + ' .,': t.strip(chars).lower()

def f(s):
    return SEP.join(clean(w) for w in s.split()) + SEP + clean(s, chars='')
""", rows=ROWS, name="a module-level named lambda as a helper of a def, with a default")
case("""URLS = ('http://', 'https://')

def strip_scheme(u, schemes=URLS, keep=('ftp://',)):
    if u.startswith(keep):
        return u
    for p in schemes:
        if u.startswith(p):
            return u[len(p):]
    return u

def f(s):
    return strip_scheme(s) + '|' + strip_scheme(s, ('a', 'h')) + '|' + strip_scheme(s, keep=('x',))
""", rows=ROWS + [["http://example.com"], ["ftp://x"], ["https://δ.gr"]],
     name="tuple defaults from a module constant and a literal")
case("""def is_even(n):
    return n == 0 or is_odd(n - 1)

def is_odd(n):
    return n != 0 and is_even(n - 1)

def f(n):
    return str(is_even(abs(n))) + str(is_odd(abs(n) + 1))
""", types=["int"], rows=[[n] for n in [0, 1, 2, 7, 10, 25, 100, 400, -3]],
     name="mutual recursion through and/or values")
case("""SEP = ','
N = 2 ** 3 + 1
PRE = ('a', 'b' * 2)
clean = lambda t, chars=SEP + ' ': t.strip(chars)
def rev(t):
    return '' if not t else rev(t[1:]) + t[0]
def is_even(n):
    return n == 0 or is_odd(n - 1)
def is_odd(n):
    return n != 0 and is_even(n - 1)
def f(s, k=N):
    mark = s[:1]
    def tag(w, times=2):
        def inner(c):
            return c + mark
        return inner(w) * times
    h = lambda w: tag(w) + mark
    r = SEP.join(h(clean(w)) for w in s.split() if not w.startswith(PRE))
    return rev(r) + str(is_even(len(s))) + str(k)
def udf(s):
    return f(s) + f(s, k=3)
""", rows=ROWS, name="everything together (the program of test_front_funcs' failure injection)")
case("""N = 3
TAIL = '…'
f = lambda s: s[:N] + TAIL if len(s) > N else s
""", rows=ROWS, func="f", name="constants next to a named lambda")
case("""def f(s):
    found = ''
    def first_digit(t, i=0):
        if i >= len(t):
            return found
        if t[i].isdigit():
            return t[i]
        return first_digit(t, i + 1)
    found = '-'
    return first_digit(s) + first_digit(s[::-1])
""", rows=ROWS + [["a1b2"], ["٣x"]], name="recursive closure with a default, late-bound capture")

if __name__ == "__main__":
    sys.exit(o.main())

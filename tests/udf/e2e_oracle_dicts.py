#!/usr/bin/python3
"""CPython oracle for dict and set values in UDFs (issue 14, item 2): displays and
comprehensions, lookups (d[k] with KeyError, get, in), len, iteration in insertion order over
keys/values/items, d[k] = v, setdefault, pop, del, set add/discard/remove, module-level
constant tables and constant displays (built once per compile).

The cases run through e2e_oracle.py's machinery (same runner and checks: per-row results and
exception types and messages equal to CPython's, the 2-thread apply equal with raising rows
null, statistics balanced after every case). Cases returning str exercise the write form.

usage: e2e_oracle_dicts.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + [
    "yes", "y", "true", "no", "Off", "один два  три", "Ελληνικά κείμενα", "日本語 の テキスト",
    "emoji😀here", "a=1;b=x;c=3", "k=v;k=w;z=", "the cat the dog the end", "zz", "b", "c",
    "ÀÉÎ", "straße STRASSE", "x", "42", "-7"]]

case("""MAP = {'a': 'alpha', 'b': 'beta', 'straße': 'street', '漢字': 'kanji', '': 'empty'}

def f(s):
    return MAP.get(s, s)
""", rows=ROWS, name="module-level lookup table with get(k, default)")
case("""def f(s):
    return {'a': 'x', 'b': 'y', 'ΣΊΣΥΦΟΣ': 'greek'}.get(s, '?') + '|' + s
""", rows=ROWS, name="inline constant display get")
case("""TRUTHY = {'yes', 'y', 'true', '1'}

def f(s):
    return s.lower() in TRUTHY
""", rows=ROWS, name="module-level set membership")
case("""def f(s):
    return s in {'yes', 'y', 'true'} or s not in {'a', 'b', 'c', 'x'}
""", rows=ROWS, name="inline set in / not in")
case("""CODES = {'a': 1, 'b': 2, 'c': 3}

def f(s):
    return CODES[s]
""", rows=ROWS, name="d[k] raises KeyError with repr(key)")
case("""def f(s):
    d = {'a': 'x', 'é': 'y', '😀': 'z'}
    try:
        return d[s[:1]]
    except KeyError as e:
        return 'missing ' + str(e)
""", rows=ROWS, name="try/except KeyError as e: str(e) is repr(key)")
case("""def f(s):
    m = {'a': 1.5, 'b': -2.0, 'c': 0.1}
    return m.get(s[:1], 0.0) * 2 + m.get(s[-1:], -1e300)
""", rows=ROWS, name="float values and a float default")
case("""def f(s):
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    return ','.join([k + str(v) for k, v in counts.items()])
""", rows=ROWS, name="character counts, items in insertion order")
case("""def f(s):
    counts = {}
    for w in s.split():
        counts[w] = counts.get(w, 0) + 1
    best = ''
    n = 0
    for w in counts:
        if counts[w] > n:
            best = w
            n = counts[w]
    return best + ':' + str(n) + ':' + str(len(counts))
""", rows=ROWS, name="word counts, most common first seen")
case("""def f(s):
    d = {}
    for part in s.split(';'):
        k, _, v = part.partition('=')
        d[k] = v
    return '|'.join([k + '>' + v for k, v in d.items()]) + '#' + str(len(d))
""", rows=ROWS, name="parse key=value pairs, later keys overwrite in place")
case("""def f(s):
    d = {c: i for i, c in enumerate(s)}
    return ''.join([k for k in d.keys()]) + ','.join([str(v) for v in d.values()])
""", rows=ROWS, name="dict comprehension, keys() and values()")
case("""def f(s):
    d = {w: len(w) for w in s.split() if w}
    n = 0
    for k, v in d.items():
        n = n * 3 + v + len(k)
    return n + len(d)
""", rows=ROWS, name="dict comprehension with if (value form)")
case("""def f(s):
    seen = set()
    out = ''
    for c in s:
        if c not in seen:
            seen.add(c)
            out += c
    return out + str(len(seen))
""", rows=ROWS, name="set add: unique characters in order")
case("""def f(s):
    u = {c for c in s if c.isalpha()}
    return len(u) + len(set(s)) * 100 + len(set(s.split())) * 10000
""", rows=ROWS, name="set comprehension and set(iterable)")
case("""def f(s):
    s2 = set(s)
    s2.discard('a')
    s2.discard('zzz')
    s2.remove(s[0])
    return len(s2)
""", rows=ROWS, name="set discard and remove: KeyError with repr")
case("""def f(s):
    d = {'a': 'x'}
    v = d.setdefault(s, 'new')
    w = d.setdefault('a', 'other')
    return v + w + str(len(d))
""", rows=ROWS, name="setdefault")
case("""def f(s):
    d = {'a': 'x', 'b': 'y', 'c': 'z'}
    p = d.pop(s, 'none')
    q = d.pop('b')
    return p + q + ''.join([k for k in d])
""", rows=ROWS, name="pop with and without default")
case("""def f(s):
    d = {'a': 'x', 'b': 'y'}
    return d.pop(s)
""", rows=ROWS, name="pop of a missing key raises KeyError")
case("""def f(s):
    d = {'a': 1, 'b': 2, 'c': 3}
    del d[s[:1]]
    return ','.join([k + str(v) for k, v in d.items()])
""", rows=ROWS, name="del d[k], KeyError when missing")
case("""def f(s):
    d = {'a': 1}
    d2 = d
    d2[s] = 5
    d2['a'] = 7
    return d['a'] * 10 + d.get(s, -1) + len(d)
""", rows=ROWS, name="dicts are shared by reference")
case("""def f(s):
    d = {'a': 'x'}
    r = d.get(s)
    if r is None:
        return 'none'
    return r
""", rows=ROWS, name="get without default is None when missing")
case("""N = {1: 'one', 2: 'two', 3: 'three', -7: 'minus seven', 42: 'answer'}

def f(s):
    try:
        return N[int(s)]
    except ValueError:
        return 'not a number'
    except KeyError as e:
        return 'no name for ' + str(e)
""", rows=ROWS, name="int keys, KeyError message is the int")
case("""def f(s):
    d = {len(w): w for w in s.split()}
    return str(len(d)) + ''.join([str(k) + v for k, v in d.items()])
""", rows=ROWS, name="int keys from a comprehension")
case("""def f(s):
    groups = {}
    for w in s.split():
        groups.setdefault(w[:1], '')
        groups[w[:1]] = groups[w[:1]] + w
    return ';'.join([k + '=' + v for k, v in groups.items()])
""", rows=ROWS, name="grouping with setdefault and d[k] += through get")
case("""def f(s):
    d = {'a': ['x', 'y'], 'b': s.split()}
    return '-'.join(d['b']) + str(len(d.get('a', [])))
""", rows=ROWS, name="list of str values")
case("""def f(s):
    d = {'a': True, 'b': False}
    if d.get(s[:1], False):
        return 1
    return 0 if s[:1] in d else -1
""", rows=ROWS, name="bool values")
case("""def f(s):
    d = {}
    if not d:
        d['k'] = s
    return bool(d) and len(d) == 1
""", rows=ROWS, name="truth value of a dict")
case("""def f(s):
    d = {'a': 1, 'b': 2}
    try:
        for k in d:
            d[k + s] = 3
    except RuntimeError as e:
        return str(e)
    return 'done'
""", rows=ROWS, name="dict changed size during iteration: RuntimeError")
case("""TABLE = {'a': 'A', 'b': 'B', 'c': 'C', 'd': 'D', 'e': 'E', 'f': 'F', 'g': 'G', 'h': 'H',
         'i': 'I', 'j': 'J', 'k': 'K', 'l': 'L', 'm': 'M', 'n': 'N', 'o': 'O', 'p': 'P',
         'q': 'Q', 'r': 'R', 's': 'S', 't': 'T', 'u': 'U', 'v': 'V', 'w': 'W', 'x': 'X',
         'é': 'É', 'ß': 'SS', 'σ': 'Σ', '漢': '[kan]'}

def f(s):
    return ''.join([TABLE.get(c, c) for c in s])
""", rows=ROWS, name="character translation table in a comprehension")
case("""STOP = {'the', 'a', 'of', 'два'}

def f(s):
    return ' '.join([w for w in s.split() if w not in STOP])
""", rows=ROWS, name="stop words")
case("""def helper(d, k):
    return d.get(k, 0) + 1

def f(s):
    d = {'a': 10}
    d['b'] = helper(d, 'a')
    return helper(d, s) + d['b']
""", rows=ROWS, name="dict passed to a helper")
case("""def f(s):
    lookup = {'a': 'x', 'b': 'y'}
    out = ''
    for c in s:
        if c in lookup:
            out += lookup[c]
    return out + str(len(lookup))
""", rows=ROWS, name="local constant table only looked up")

case("""def f(s):
    d = {'a': 3, 'b': 4}
    r = d.get(s[:1])
    if r is None:
        return -1
    return r * 2
""", rows=ROWS, name="get without default on int values: int | None")
case("""def f(s):
    d = {}
    d[(k := s[:2])] = len(s)
    return k + str(d[k])
""", rows=ROWS, name="assignment expression inside d[k] = v")
case("""def f(s):
    try:
        if s in {'a', 'b'}:
            raise KeyError(s)
        return {'x': 'y'}[s]
    except LookupError as e:
        return 'lookup ' + str(e)
""", rows=ROWS, name="raise KeyError(s) and LookupError catching KeyError")
case("""def f(s):
    d = {w: i for i, w in enumerate(s.split())}
    return ';'.join([str(i) + k + str(v) for i, (k, v) in enumerate(d.items())])
""", rows=ROWS, name="enumerate(d.items()) with nested unpacking")
case("""def f(s):
    n = len(s)
    return str(n in {1, 3, 5, 7}) + str(True in {1, 2}) + str(n not in {0})
""", rows=ROWS, name="int set membership, bool looked up as int")
case("""def f(s):
    d = {'a': 'x'}
    if s:
        d = {}
    d[s] = 'v'
    return ''.join([k + v for k, v in d.items()])
""", rows=ROWS, name="variable rebound to an empty dict")
case("""def f(s):
    words = s.split()
    index = {}
    for i, w in enumerate(words):
        index.setdefault(w, 0)
        index[w] = index[w] + i
    total = 0
    for v in index.values():
        total += v
    return total
""", rows=ROWS, name="setdefault on an empty dict, values() sum")
case("""def g(s):
    if s:
        return len(s)
    return None

def f(s):
    r = g(s)
    if r is None:
        return -1
    return r * 2
""", rows=ROWS, name="an int | None narrowed by 'is None' (the cast reads the value)")

case("""def f(s):
    out = ''
    seen = set()
    d = {}
    for c in s:
        out += c
        seen.add(out)
        d.setdefault(out, out)
        d[c] = out
    return str(len(seen)) + '|'.join([k + '=' + v for k, v in d.items()])
""", rows=ROWS, name="a string grown in place stored as key and value: the dict keeps its own")

case("""def f(s):
    a = set(s)
    b = {'a', 'b', 'é', ' '}
    u = a | b
    i = a & b
    d = a - b
    x = a ^ b
    m = {'k': 'v', 'a': 'x'} | {c: c + '!' for c in s}
    m2 = m.copy()
    m2['new'] = 'n'
    m.update({'zz': s})
    e = m2.copy()
    e.clear()
    t = b.copy()
    t.add('q')
    return str(len(u)) + str(len(i)) + str(len(d)) + str(len(x)) + str('a' in u) + str('a' in d) + ','.join([k + v for k, v in m.items()]) + str(len(m2)) + str(len(e)) + str(len(b)) + str(len(t))
""", rows=ROWS, name="set operators | & - ^, dict merge |, copy, update, clear")
case("""M = {'a': 'x', 'b': 'y'}

def f(s):
    d = M.copy()
    d[s] = 'row'
    alias = d
    alias.update({'b': s})
    return ','.join([k + '=' + v for k, v in d.items()]) + '|' + str(len(M))
""", rows=ROWS, name="a copy of a module-level dict may change; update seen through an alias")
case("""M = {'a': 'first'}
M = {'a': 'second', 'b': 'b'}

def helper(k):
    return M.get(k, '-')

def f(s):
    return helper(s[:1]) + str(len(M))
""", rows=ROWS, name="a module-level name bound twice: the last binding, also in a helper")
case("""def f(s):
    d = {w: w.upper() for w in s.split()}
    return ','.join(d.keys()) + '|' + '-'.join(d.values()) + '|' + str(len(list(d))) + \\
        str('a' in d.keys()) + str(len(d.keys())) + ''.join([k for k in d.keys()]) + \\
        ''.join(list(d.values()))
""", rows=ROWS, name="d.keys() and d.values() as lists (join, len, in), list(d)")
case("""def f(s):
    words = s.split()
    index = {}
    for i, w in enumerate(words):
        words[i] = w.upper()
        index[w] = i
    if words:
        del words[0]
    if 'a' in index:
        del index['a']
    return ' '.join(words) + '|' + ','.join([k + str(v) for k, v in index.items()])
""", rows=ROWS, name="item assignment and del on a list and on a dict in one function")

case("""def f(s):
    groups = {'': ['']}
    for w in s.split():
        if w[:1] not in groups:
            groups[w[:1]] = []
        groups[w[:1]].append(w)
    return ';'.join([k + ':' + ','.join(v) for k, v in groups.items()])
""", rows=ROWS, name="a dict of lists: the list in the dict grows by append")

# Lookups skip the hash when no key of the probe's length (mod 64) was ever set: keys 64
# bytes apart in length share a bit, negative and large int keys too, and the filter must
# stay right across del, pop, clear and re-insertion.
case("""LONG = {'x' * 65: 'long', 'y': 'short', 'é' * 40: 'accented'}

def f(s):
    d = {-1: 'minus one', 63: 'sixty-three', -65: 'odd', 2 ** 40: 'big'}
    n = len(s) - 1
    k = ('x' * 65) if s[:1] == 'a' else s[:1] if s[:1] == 'y' else s
    got = LONG.get(k, '-') + LONG.get('x' * (65 - 64 * (n % 2)), '-')
    got += d.get(n, '-') + d.get(-n - 1, '-') + d.get(63 - 128 * (n % 2), '-')
    d.pop(-1, '')
    got += d.get(-1, 'gone')
    d.clear()
    got += d.get(63, 'cleared')
    d[len(s)] = 'again'
    return got + d.get(len(s), '?') + d.get(len(s) + 64, '!')
""", rows=ROWS + [["a"], ["y"], ["é" * 40], ["x" * 65], ["x"]],
     name="lookups of keys whose lengths or int values agree mod 64")

if __name__ == "__main__":
    sys.exit(o.main())

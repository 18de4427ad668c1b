TABLE = {'a': 'x', 'é': 'y', '漢': 'z'}
STOP = {'the', 'of'}

def f(s):
    counts = {}
    for c in s:
        counts[c] = counts.get(c, 0) + 1
    seen = set()
    for w in s.split():
        if w not in STOP:
            seen.add(w)
    d = {k: v for k, v in counts.items() if v > 1}
    d.setdefault('q', 0)
    n = d.pop('q', 0) + len(seen | {'x'})
    del counts[s[:1]]
    return TABLE.get(s, s) + str(n) + ''.join([k for k in d])

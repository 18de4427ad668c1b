CODES = {'a': 'x', 'é': 'e', '漢': 'k'}

def f(s):
    d = {}
    seen = set()
    for c in s:
        d[c] = d.get(c, '') + c
        if c in seen:
            seen.discard(c)
        else:
            seen.add(c)
    try:
        first = d[s[:1]]
    except KeyError as e:
        first = 'KeyError' + str(e)
    out = [k + ':' + v for k, v in d.items() if k not in CODES]
    n = d.pop('a', 'none')
    d.setdefault('z', 'zz')
    return first + '|' + ','.join(out) + '|' + n + str(len(seen)) + str('z' in d) + CODES.get(s, '?')

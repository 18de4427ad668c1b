def f(s):
    a = s.split(maxsplit=1)
    b = s.strip(None)
    c = s.find('a', None, True)
    d = s.startswith(('a', 'b'), 1)
    e = s.splitlines(1)
    g = ','.join(a)
    h, sep, t = s.rpartition('=')
    k = s.center(10, '*').zfill(12).expandtabs(tabsize=4)
    l = '-'.join(c for c in s if c.isalnum())
    p = s.replace('a', 'b', 2).removeprefix('x')[1:-1:2]
    q = f'<{s!r:>10}|{c:.2f}|{len(s):05d}|{d=}|{{}}>'
    return g + h + sep + t + k + l + p + str(c) + str(d) + a[0] + e[-1] + q

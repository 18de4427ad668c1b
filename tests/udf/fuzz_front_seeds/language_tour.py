def helper(x, sep=","):
    head, s, tail = x.partition(sep)
    return head.strip() if s else None

def count_upper(s):
    n = 0
    for c in s:
        if c.isupper():
            n += 1
    return n

def udf(s):
    """doc"""
    words = s.split()
    total = 0.0
    i = 0
    while i < len(words):
        w = words[i]
        if w in ("a", "b") or not w:
            i += 1
            continue
        total += len(w) / 2
        i += 1
    else:
        pass
    parts = [w.title() for w in words if len(w) > 1]
    caps = "".join(c for c in s if c.isupper())
    r = helper(s)
    if r is None:
        return None
    x = 0x_ff + 0o17 + 0b1_0 + 1_000 + count_upper(s)
    y = -9223372036854775808
    z = 2 ** 10 // 3 % 7
    f = f"{r!r:>10} {x:5d} {total:.2f} {z=}"
    for k in range(0, 10, 2):
        x = x + k
    t = s[1:-1:2] + s[::-1] + s[0] + ",".join(parts) + caps
    return f + t + str(x) + str(1 < x <= 100) + r'\n' + 'a' 'b' u"c" + """tri
ple"""

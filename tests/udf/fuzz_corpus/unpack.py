def f(s):
    out = ''
    for i, (a, b) in enumerate(zip(s, reversed(s)), 1):
        if (n := i % 3) and a != b:
            out += a * n
    return out + ''.join([c for j, c in enumerate(s) if j % 2]) + str(len(out))

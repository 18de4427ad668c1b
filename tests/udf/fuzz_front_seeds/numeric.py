def f(i, x, b):
    a = i + x
    c = i / 2
    d = i // 2 + b
    e = 2 ** -1
    g = 2 ** i
    h = -b
    k = 1 < i < 2.5
    s = 'ab' * b
    t = abs(b) + abs(x)
    u = int('12', base=8) + int(x) + int(b)
    i += 1
    x += i
    return a + c + d + e + g + h + k + t + u + x + len(s)

def pick(x, sep=',', n=1):
    head, s, tail = x.partition(sep)
    if s:
        return head * n

def count(s, c='a'):
    return s.count(c)

def f(s):
    r = pick(s, n=2)
    k = count(s) + count(s, c='b')
    if r is None:
        return None
    return r + str(k)

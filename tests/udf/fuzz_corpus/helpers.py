def g(a):
    b = a + a
    return b[10]

def f(s):
    t = s.title()
    return t + g(t) + t

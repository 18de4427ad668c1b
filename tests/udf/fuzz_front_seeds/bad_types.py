def g(a):
    return g(a) + 1
def f(s):
    x = 1
    x = 'a'
    return s + 1 if s < 1 else s.foo(x=1)

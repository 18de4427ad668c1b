def f(s):
    a = '{0}|{1!r:>{w}}|{n:.2f}|{{}}|{:x}'.format(s, s, w=5, n=len(s) / 3)
    b = '{}-{}'.format(s, len(s)) + '{name!a:*^9}'.format(name=s)
    c = '%-5s|%+05d|%.3e|%c|%*s|%%|%r|%#x|%o' % (s, len(s), 1.5, 65, 3, s, s, len(s), 8)
    d = '%s' % s + '%d' % (len(s) / 2) + '%5.1s' % None
    return a + b + c + d + repr(s) + ascii(len(s)) + format(s, '>3') + format(1.5)

def g(s):
    try:
        return s[int(s)]
    except IndexError:
        raise
    finally:
        if s == '':
            return 'e'

def f(s):
    try:
        if len(s) > 8:
            raise ValueError(s.upper())
        return g(s) + s
    except Exception as e:
        return f'{e}!'

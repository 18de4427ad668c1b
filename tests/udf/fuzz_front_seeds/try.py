def f(s):
    out = ''
    for w in s.split(','):
        try:
            if not w:
                continue
            out += str(10 // int(w))
        except (ValueError, ZeroDivisionError) as e:
            out += str(e)[:3]
        else:
            out += '+'
        finally:
            out += '.'
    return out

def parse(w):
    try:
        return int(w)
    except ValueError:
        raise KeyError(w)
    finally:
        w = w + '!'

def f(s):
    total = 0
    log = ''
    for w in s.split(','):
        try:
            total += parse(w)
        except KeyError as e:
            log += str(e)
            if len(log) > 10:
                raise ValueError('long ' + log)
        except Exception:
            log += '?'
        else:
            log += '+'
        finally:
            log += '.'
    return log + str(total)

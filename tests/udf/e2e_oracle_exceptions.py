#!/usr/bin/python3
"""CPython oracle for exceptions in UDFs: try / except / else / finally and raise.

The cases run through e2e_oracle.py's machinery (same runner and checks: per-row results and
exception types equal to CPython's, the 2-thread apply equal with raising rows null, statistics
balanced after every case, raising and caught rows included). Cases returning str exercise the
write form, the others the value form.

usage: e2e_oracle_exceptions.py RUNNER [--list]"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

ROWS = [[s] for s in o.S + o.INTSTR + [
    "один два  три", "Ελληνικά 3.5 κείμενα", "日本語 の テキスト 42", "emoji😀here!?",
    "12,x,-3,٣,7", "1,2,3", "9223372036854775807,1", "a=1;b=x;c=3", "0", "10"]
    # nrt's ints are int64: parsing beyond them is an OverflowError, not a bigger int
    if s != "9223372036854775808"]
# CPython's MemoryError for a huge repetition is an OverflowError in nrt
SMALL = [r for r in ROWS if r[0].strip() not in ("9223372036854775807", "-9223372036854775808")]

case("""def f(s):
    try:
        return int(s)
    except ValueError:
        return -1
""", rows=ROWS, name="int parse with a default")
case("""def f(s):
    try:
        n = int(s)
    except (ValueError, TypeError) as e:
        return 'bad: ' + str(e)
    else:
        return f'ok {n}'
""", rows=ROWS, name="except tuple as e, str(e) is CPython's message; else (write form)")
case("""def f(s):
    total = 0
    for part in s.split(','):
        try:
            total += int(part)
        except ValueError:
            continue
        if total > 1000:
            break
    return total
""", rows=ROWS, name="try in a loop with continue and break; OverflowError not caught")
case("""def f(s):
    out = ''
    for c in s:
        try:
            if c == ' ':
                break
            out += str(10 // int(c))
        except ZeroDivisionError:
            out += 'Z'
        except ArithmeticError:
            out += 'A'
        except ValueError as e:
            out += '?'
        finally:
            out += '.'
    return out
""", rows=ROWS, name="finally on every exit: normal, caught, break (write form)")
case("""def f(s):
    try:
        try:
            return s[int(s[0])] + s.upper()
        except IndexError:
            return 'index ' + s.lower()
        finally:
            s = s + '!'
    except LookupError:
        return 'never'
    except ValueError as e:
        return f'value {e} {s}'
""", rows=ROWS, name="nested try: inner IndexError, outer ValueError, finally rebinding")
case("""def g(s):
    try:
        return int(s)
    finally:
        s = 'changed'


def f(s):
    try:
        return g(s) * 2
    except ValueError:
        return -7
""", rows=ROWS, name="finally with a return through a helper")
case("""def f(s):
    try:
        return len(s)
    finally:
        if s.isdigit():
            return -1
""", rows=ROWS, name="a return in finally overrides the try's return")
case("""def f(s):
    try:
        x = int(s)
    except ValueError:
        if s == '':
            raise
        x = len(s)
    return x * 3
""", rows=ROWS, name="bare raise re-raises ValueError (empty rows are errors)")
case("""def f(s):
    if len(s) > 12:
        raise ValueError('too long: ' + s)
    if not s:
        raise IndexError
    return s.upper()
""", rows=ROWS, name="raise ValueError('msg') and raise IndexError uncaught (write form)")
case("""def f(s):
    try:
        if ',' in s:
            raise TypeError(f'comma in {s!r}')
        return s.strip()[0] + s[-1]
    except TypeError as e:
        return str(e)
    except IndexError as err:
        return 'empty: ' + str(err)
""", rows=ROWS, name="raise caught by its own try, messages from raise and IndexError")
case("""def f(s):
    n = 0
    while True:
        try:
            n += 1
            if n > 3:
                break
            int(s)
        except ValueError:
            continue
        finally:
            n += 10
    return n
""", rows=ROWS, name="while True with try/finally, continue and break through finally")
case("""def f(s):
    try:
        v = float(s)
    except ValueError:
        try:
            v = float(int(s.strip() or 'x', 16))
        except ValueError:
            v = -1.0
    except Exception:
        v = -2.0
    return v
""", rows=ROWS, name="try inside an except clause (float result)")
case("""def f(s):
    try:
        a, b = s.split(',', 1)
        return int(a) // int(b)
    except ZeroDivisionError as e:
        return -len(str(e))
    except (ValueError, OverflowError):
        return 0
""", rows=ROWS, name="unpacking ValueError, ZeroDivisionError message length")
case("""def f(s):
    try:
        x = int(s)
    except:
        return None
    return x + 1
""", rows=ROWS, name="bare except, nullable int result")
case("""def f(s):
    r = []
    try:
        for w in s.split():
            r = r + [w.upper()]
            if len(r) > 2:
                raise ValueError('three')
    except ValueError:
        r = r + ['!']
    finally:
        r = r + ['end']
    return r
""", rows=ROWS, name="list rebinding in try/except/finally (list result)")
case("""def f(s):
    try:
        try:
            return s[5]
        finally:
            x = int(s)
    except ValueError as e:
        return 'finally raised: ' + str(e)
    except IndexError:
        return 'short'
""", rows=ROWS, name="an exception in finally replaces the pending one")
case("""def f(s):
    try:
        return 'x' * int(s) + s[0]
    except (ValueError, IndexError):
        try:
            return s[1]
        except IndexError:
            return '-'
    finally:
        pass
""", rows=SMALL, name="temporaries live at the raise are released (write form)")

if __name__ == "__main__":
    sys.exit(o.main())

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
case("""def f(s):
    try:
        int(s)
    except ValueError:
        try:
            s[10]
        finally:
            raise
    return 'ok'
""", rows=ROWS, name="a bare raise in finally raises the pending exception, else the handled one")
case("""def f(s):
    msg = ''
    for w in s.split():
        try:
            msg += str(int(w))
        except ValueError as e:
            msg += f'[{e}]'
    if s.startswith('1'):
        return msg + str(e)
    return msg
""", rows=ROWS, name="the except name is unbound after its clause: UnboundLocalError (write form)")


def nested_finally(depth, ind):
    sp = " " * ind
    lines = [sp + "try:"] + [sp + " " + x for x in [
        "if c == 'a':", " break", "if c == 'b':", " continue", "if c == 'c':", " return s",
        "s = s + c + str(int(c))"]] + [sp + "finally:"]
    return lines + (nested_finally(depth - 1, ind + 1) if depth > 1 else [sp + " s = s + 'x'"])


case("def f(s):\n for c in s:\n" + "\n".join(nested_finally(3, 2)) + "\n return s\n",
     rows=[[v] for v in ["", "1", "12", "1a2", "1b2", "1c2", "x", "b1", "ccc", "9b9a"]],
     name="finally blocks nested in finally blocks: shared return, break and continue paths")

# --- random programs: nested try/except/else/finally, raise and re-raise, inside loops with
# break and continue, returns from anywhere (a grammar, seeded: the same programs every run)
class Gen:
    CLASSES = ["ValueError", "IndexError", "ZeroDivisionError", "ArithmeticError",
               "LookupError", "Exception", "(ValueError, IndexError)", "TypeError",
               "(ZeroDivisionError, ValueError)"]
    RAISING = ["int(c)", "int(s)", "s[n % 7]", "10 // (n % 3)", "s.index('a')", "int(out[-1:])"]

    def __init__(self, rng):
        self.rng = rng

    def str_expr(self, exc):
        r = self.rng.random()
        if exc and r < 0.25:
            return "str(%s)[:12]" % exc
        if r < 0.45:
            return "str(%s)" % self.rng.choice(self.RAISING)
        if r < 0.6:
            return "c.upper()"
        return repr(self.rng.choice(["a", "-", "é", "漢", "|"]))

    def block(self, ind, depth, loop, exc, in_except):
        out = []
        for _ in range(self.rng.randint(1, 3)):
            out += self.stmt(ind, depth, loop, exc, in_except)
        return out

    def stmt(self, ind, depth, loop, exc, in_except):
        sp = "    " * ind
        r = self.rng.random()
        if depth < 3 and r < 0.3:
            return self.try_stmt(ind, depth, loop, exc, in_except)
        if depth < 3 and r < 0.38 and not loop:
            return [sp + "for c in s[:4]:"] + self.block(ind + 1, depth + 1, True, exc, in_except)
        if depth < 3 and r < 0.46:
            return [sp + "if %s:" % self.rng.choice(["n % 2", "c in 'aeiou1'", "len(out) > 6"])] \
                + self.block(ind + 1, depth + 1, loop, exc, in_except) + [sp + "else:"] \
                + self.block(ind + 1, depth + 1, loop, exc, in_except)
        if loop and r < 0.52:
            return [sp + self.rng.choice(["break", "continue"])]
        if r < 0.57:
            return [sp + "return out + '%s' + str(n)" % self.rng.choice("RrQ")]
        if r < 0.63:
            return [sp + "raise %s(%s)" % (self.rng.choice(["ValueError", "IndexError",
                                                              "ZeroDivisionError", "TypeError"]),
                                            self.str_expr(exc))]
        if in_except and r < 0.68:
            return [sp + "raise"]
        if r < 0.8:
            return [sp + "n += %s" % self.rng.choice(["1", "len(c)", "int(c)", "n // 2 + 3"])]
        return [sp + "out += %s" % self.str_expr(exc)]

    def try_stmt(self, ind, depth, loop, exc, in_except):
        sp = "    " * ind
        lines = [sp + "try:"] + self.block(ind + 1, depth + 1, loop, exc, in_except)
        nh = self.rng.randint(0, 2)
        for k in range(nh):
            bare = k == nh - 1 and self.rng.random() < 0.15
            name = None if bare or self.rng.random() < 0.5 else "e%d" % depth
            head = "except:" if bare else "except %s%s:" % (
                self.rng.choice(self.CLASSES), " as " + name if name else "")
            lines += [sp + head] + self.block(ind + 1, depth + 1, loop, name or exc, True)
        if nh and self.rng.random() < 0.3:
            lines += [sp + "else:"] + self.block(ind + 1, depth + 1, loop, exc, in_except)
        if not nh or self.rng.random() < 0.4:
            lines += [sp + "finally:"] + self.block(ind + 1, depth + 1, loop, exc, in_except)
        return lines

    def program(self):
        body = self.block(1, 0, False, None, False)
        return "def f(s):\n    out = s[:3]\n    n = len(s)\n    c = 'x'\n" + \
            "\n".join(body) + "\n    return out + '|' + str(n)\n"


def random_cases(count, seed):
    import random
    g = Gen(random.Random(seed))
    rows = [[v] for v in ["", "a", "12", "x1", "héllo", "0", "9a5", "漢字01", "aei", "7"]]
    for i in range(count):
        case(g.program(), rows=rows, name="random exception program %d" % i)


random_cases(int(os.environ.get("NRT_EXC_PROGRAMS", "80")),
             int(os.environ.get("NRT_EXC_SEED", "14")))

if __name__ == "__main__":
    sys.exit(o.main())

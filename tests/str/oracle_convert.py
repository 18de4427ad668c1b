"""CPython oracle for nrt's conversion and padding operations (tests/str/test_convert_oracle.c).

Usage: oracle_convert.py SEED COUNT
Generates COUNT cases from SEED and prints one line per case:
    op <TAB> arg... <TAB> = <TAB> result
Strings are hex-encoded UTF-8, doubles are 16 hex digits of their IEEE bits, ints decimal.
A result is "ok:<value>" or "err:<ExceptionName>:<hex of the message>".

CPython 3.11 knows Unicode 14.0 and nrt's tables are 15.0, so every character drawn here is
one CPython considers assigned (its category is not Cn); characters new in 15.0 are never
drawn, so both sides agree on every property used (spaces, decimal digits, printable).
"""
import math
import random
import struct
import sys
import unicodedata

seed, count = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
out = sys.stdout

def hx(s):
    return s.encode("utf-8").hex()

def dbits(x):
    return "%016x" % struct.unpack("<Q", struct.pack("<d", x))[0]

def bits_to_double(b):
    return struct.unpack("<d", struct.pack("<Q", b))[0]

# ------------------------------------------------------------------ character pools
ASSIGNED_14 = [c for c in range(0x20000) if unicodedata.category(chr(c)) not in ("Cn", "Cs")]
DECIMALS = [c for c in range(0x110000) if unicodedata.category(chr(c)) == "Nd"]
DECIMALS_BY_VALUE = [[c for c in DECIMALS if unicodedata.decimal(chr(c)) == d] for d in range(10)]
SPACES = [c for c in range(0x110000) if chr(c).isspace()]
NON_PRINTABLE = [c for c in ASSIGNED_14 if not chr(c).isprintable()]
EMOJI = [0x1F600, 0x1F4A9, 0x1F680, 0x10348, 0x1D11E]
INTERESTING = ["'", '"', "\\", "\t", "\n", "\r", "\x00", "\x7f", "\x1c", "\x85", "\xa0",
               "é", "ß", "Σ", "ς", "ǅ", "ﬀ", "\u0301", "漢", "字", "\u200b", "\u2028",
               "\ufeff", "_", " ", "+", "-", ".", "e", "E", "x", "0"]

def rand_char():
    r = rng.random()
    if r < 0.45:
        return chr(rng.randrange(0x20, 0x7f))
    if r < 0.6:
        return rng.choice(INTERESTING)
    if r < 0.7:
        return chr(rng.choice(DECIMALS))
    if r < 0.78:
        return chr(rng.choice(SPACES))
    if r < 0.85:
        return chr(rng.choice(NON_PRINTABLE))
    if r < 0.9:
        return chr(rng.choice(EMOJI))
    return chr(rng.choice(ASSIGNED_14))

def rand_text(maxlen=12):
    return "".join(rand_char() for _ in range(rng.randrange(0, maxlen + 1)))

def rand_ws():
    r = rng.random()
    if r < 0.6:
        return ""
    pool = [" ", "\t", "\n", "\v", "\f", "\r", "\x1c", "\x1f"] + [chr(c) for c in SPACES]
    return "".join(rng.choice(pool) for _ in range(rng.randrange(1, 3)))

def err(e):
    return "err:%s:%s" % (type(e).__name__, hx(str(e)))

def emit(op, args, fn):
    try:
        res = "ok:" + fn()
    except UnicodeEncodeError:
        return  # a lone surrogate (format(0xD800, 'c')): not representable in UTF-8
    except (ValueError, TypeError, OverflowError) as e:
        res = err(e)
    out.write(op + "\t" + "\t".join(args) + "\t=\t" + res + "\n")

INT64_MIN, INT64_MAX = -(1 << 63), (1 << 63) - 1

# ------------------------------------------------------------------ values
def rand_int64():
    r = rng.random()
    if r < 0.1:
        return rng.choice([0, 1, -1, INT64_MIN, INT64_MAX, INT64_MIN + 1, INT64_MAX - 1, 10, -10,
                           999, 1000, -1000, 0x10FFFF, 0x110000, 0xD800, 65, 255])
    bits = rng.randrange(1, 64)
    v = rng.getrandbits(bits)
    return -v if rng.random() < 0.4 else v

def rand_double():
    r = rng.random()
    if r < 0.3:
        return bits_to_double(rng.getrandbits(64))
    if r < 0.4:
        return rng.choice([0.0, -0.0, math.inf, -math.inf, math.nan, 5e-324, -5e-324,
                           2.2250738585072014e-308, 2.225073858507201e-308, 1.7976931348623157e308,
                           1e16, 1e-4, 1e-5, 9999999999999998.0, 1e15, 0.1, 0.5, 1.5, 2.5,
                           123456789012345.0, 1234567890123456.0, 12345678901234567.0])
    if r < 0.55:  # near the repr thresholds 1e16 and 1e-4, and near other powers of ten
        base = rng.choice([1e16, 1e-4, 1e15, 1e17, 1e-5, 1e-3,
                           float("1e%d" % rng.randrange(-320, 309))])
        x = base
        for _ in range(rng.randrange(0, 4)):
            x = math.nextafter(x, math.inf if rng.random() < 0.5 else -math.inf)
        return -x if rng.random() < 0.3 else x
    if r < 0.7:  # short decimals
        digits = rng.randrange(1, 8)
        return float("%d.%de%d" % (rng.randrange(0, 10), rng.randrange(0, 10 ** digits),
                                   rng.randrange(-30, 30)))
    if r < 0.8:  # subnormals
        return bits_to_double(rng.getrandbits(52)) * (1 if rng.random() < 0.5 else -1)
    if r < 0.9:  # powers of two (asymmetric rounding intervals)
        return math.ldexp(1.0, rng.randrange(-1074, 1024))
    return rng.uniform(-1e6, 1e6)

# ------------------------------------------------------------------ literals
def digit_text(base, ndigits, unicode_digits=True):
    alphabet = "0123456789abcdefghijklmnopqrstuvwxyz"[:base]
    s = []
    for _ in range(ndigits):
        d = rng.randrange(base)
        ch = alphabet[d]
        if d < 10 and unicode_digits and rng.random() < 0.1:
            ch = chr(rng.choice(DECIMALS_BY_VALUE[d]))
        elif ch.isalpha() and rng.random() < 0.5:
            ch = ch.upper()
        s.append(ch)
    return s

def with_underscores(parts):
    s = ""
    for i, ch in enumerate(parts):
        if i and rng.random() < 0.15:
            s += "_" if rng.random() < 0.9 else "__"
        s += ch
    if rng.random() < 0.03:
        s += "_"
    if rng.random() < 0.03:
        s = "_" + s
    return s

def int_literal():
    r = rng.random()
    base = rng.choice([10, 10, 10, 0, 0, 16, 2, 8, 36, 3, 7, rng.randrange(2, 37)])
    if rng.random() < 0.02:
        base = rng.choice([1, -1, 37, 100])
    if r < 0.1:
        return rand_text(8), base
    eff = base if 2 <= base <= 36 else rng.choice([10, 16, 8, 2])
    prefix = ""
    if eff in (16, 8, 2) and rng.random() < (0.9 if base == 0 else 0.3):
        prefix = "0" + {16: "x", 8: "o", 2: "b"}[eff]
        if rng.random() < 0.3:
            prefix = prefix.upper()
        if rng.random() < 0.2:
            prefix += "_"
    n = rng.choice([1, 1, 2, 3, 5, 10, 18, 19, 20, 25, 64])
    body = with_underscores(digit_text(eff, n))
    if base == 0 and not prefix and rng.random() < 0.2:
        body = "0" + body
    sign = rng.choice(["", "", "", "-", "+", "--", "+-"])
    s = rand_ws() + sign + prefix + body + rand_ws()
    if rng.random() < 0.05:
        i = rng.randrange(len(s) + 1)
        s = s[:i] + rand_char() + s[i:]
    if rng.random() < 0.002:
        s = "1" * rng.choice([4300, 4301, 5000])
    if rng.random() < 0.01:  # messages quote at most 200 characters of the repr (%.200R)
        s = "".join(rand_char() for _ in range(rng.randrange(190, 215)))
    return s, base

def float_literal():
    r = rng.random()
    if r < 0.005:  # long messages: nrt's are cut at 511 bytes, at a character boundary
        return "".join(rand_char() for _ in range(rng.randrange(100, 300)))
    if r < 0.08:
        return rand_text(8)
    if r < 0.18:
        w = rng.choice(["inf", "infinity", "nan", "in", "infinit", "nanx", "infinityy", "iNf",
                        "INFINITY", "NaN", "0x1p3", "0x10", "1e", "1e+", ".", ".e1", "e1", "1.e1",
                        ".5", "5.", "1_000.0_1", "1__0", "1_.5", "1._5", "1e_5", "1_e5", "_1",
                        "1_", "1e1_0", "-.5e-3"])
        return rand_ws() + rng.choice(["", "-", "+"]) + w + rand_ws()
    if r < 0.25:  # exact halfway between two doubles: round-half-even
        x = bits_to_double(rng.getrandbits(63))
        if not math.isfinite(x) or x == 0:
            x = 1.0
        from decimal import Decimal, getcontext
        getcontext().prec = 1200
        y = math.nextafter(x, math.inf)
        if not math.isfinite(y):
            y = math.nextafter(x, -math.inf)
        mid = (Decimal(x) + Decimal(y)) / 2
        return str(mid)
    if r < 0.3:
        return repr(rand_double())
    ip = with_underscores(digit_text(10, rng.randrange(0, 25)))
    fp = with_underscores(digit_text(10, rng.randrange(0, 25)))
    s = ip
    if rng.random() < 0.7:
        s += "." + fp
    if rng.random() < 0.4:
        s += rng.choice("eE") + rng.choice(["", "+", "-"]) + with_underscores(
            digit_text(10, rng.randrange(1, 5)))
    s = rand_ws() + rng.choice(["", "", "-", "+"]) + s + rand_ws()
    if rng.random() < 0.04:
        i = rng.randrange(len(s) + 1)
        s = s[:i] + rand_char() + s[i:]
    return s

# ------------------------------------------------------------------ format specs
FILLS = ["", "", "", "*", "0", " ", "é", "漢", "\U0001F600", "_", ",", "<", "z", "#", "1"]
def rand_spec():
    if rng.random() < 0.04:
        return rand_text(5)
    s = ""
    if rng.random() < 0.35:
        s += rng.choice(FILLS) + rng.choice("<>=^")
    if rng.random() < 0.3:
        s += rng.choice("+- ")
    if rng.random() < 0.08:
        s += "z"
    if rng.random() < 0.15:
        s += "#"
    if rng.random() < 0.2:
        s += "0"
    if rng.random() < 0.5:
        s += str(rng.randrange(0, 30))
    if rng.random() < 0.25:
        s += rng.choice([",", "_", ",_", "_,", ",,"])
    if rng.random() < 0.4:
        s += "." + str(rng.choice([0, 1, 2, 3, 5, 6, 10, 16, 17, 20, 30, rng.randrange(0, 60)]))
    if rng.random() < 0.03:
        s += "."
    if rng.random() < 0.75:
        s += rng.choice("bcdoxXneEfFgG%%s ") if rng.random() < 0.97 else rng.choice(["é", "\x01", "dd"])
    return s

# ------------------------------------------------------------------ cases
def case():
    op = rng.randrange(16)
    if op == 0:
        v = rand_int64()
        emit("str_int", [str(v)], lambda: str(v))
    elif op in (1, 2):
        s, base = int_literal()
        def f():
            v = int(s, base)
            if v < INT64_MIN or v > INT64_MAX:
                raise OverflowError("int64")
            return str(v)
        emit("int", [hx(s), str(base)], f)
    elif op in (3, 4):
        s = float_literal()
        emit("float", [hx(s)], lambda: dbits(float(s)))
    elif op in (5, 6):
        x = rand_double()
        emit("repr", [dbits(x)], lambda: hx(repr(x)))
    elif op in (7, 8):
        v = rand_int64() if rng.random() < 0.8 else rng.randrange(-2000, 0x110000 + 10)
        spec = rand_spec()
        emit("fmt_int", [str(v), hx(spec)], lambda: hx(format(v, spec)))
    elif op in (9, 10):
        x = rand_double()
        spec = rand_spec()
        emit("fmt_float", [dbits(x), hx(spec)], lambda: hx(format(x, spec)))
    elif op == 11:
        s = rand_text(2) if rng.random() < 0.8 else rand_char()
        emit("ord", [hx(s)], lambda: str(ord(s)))
        v = rng.choice([rng.randrange(-5, 0x110005), rng.randrange(0, 0x80), rand_int64()])
        emit("chr", [str(v)], lambda: hx(chr(v)))
    elif op == 12:
        s = rand_text(10)
        width = rng.randrange(-3, 25)
        fill = rng.choice([" ", "*", "é", "漢", "\U0001F600", "", "ab", "\t"]) if rng.random() < 0.7 else rand_char()
        kind = rng.choice(["center", "ljust", "rjust"])
        emit(kind, [hx(s), str(width), hx(fill)], lambda: hx(getattr(s, kind)(width, fill)))
    elif op == 13:
        s = rand_text(8)
        if rng.random() < 0.5:
            s = rng.choice(["+", "-", ""]) + s
        width = rng.randrange(-3, 20)
        emit("zfill", [hx(s), str(width)], lambda: hx(s.zfill(width)))
    elif op == 14:
        s = "".join(rng.choice(["\t", "\t", "\n", "\r", "a", "é", "漢", "\U0001F600", " ", "bc"])
                    for _ in range(rng.randrange(0, 12)))
        tabsize = rng.randrange(-2, 12)
        emit("expandtabs", [hx(s), str(tabsize)], lambda: hx(s.expandtabs(tabsize)))
    else:
        s = rand_text(8)
        r = rng.random()
        affix = s[:rng.randrange(0, len(s) + 1)] if r < 0.4 else (
            s[rng.randrange(0, len(s) + 1):] if r < 0.8 else rand_text(3))
        kind = rng.choice(["removeprefix", "removesuffix"])
        emit(kind, [hx(s), hx(affix)], lambda: hx(getattr(s, kind)(affix)))

# Text that is no literal at its first byte (the quick rejection of failing rows) next to
# text that only looks like it: empty, blanks, signs, underscores, separators, Unicode
# spaces and digits after ASCII ones.
for s in ["", "  ", "+", "-", " - ", "+-5", "_5", "x", " x1", "\x1c5", "5\x1c", "\t\n7 ",
          "-\u0665", " \u3000 5", "\u00a012", "word", "٣٤", "0x1f", "1_000", "ab1",
          "é12", "-é", " Ω", "\x7f5", "١_٢", "+\u3000 5", "١٢\u00a0", "Ⅷ", "\U0001F642",
          "\u3000-\u0661", "²", " ١x"]:
    for base in (10, 0, 16):
        def f(s=s, base=base):
            return str(int(s, base))
        emit("int", [hx(s), str(base)], f)

for _ in range(count):
    case()
out.flush()

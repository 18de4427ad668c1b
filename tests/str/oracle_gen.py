#!/usr/bin/python3
"""Oracle generator for the str layer: writes generated strings, arguments and CPython's
results for every str operation to stdout (binary stream read by test_str_oracle.c).

The generator draws only code points that this CPython considers assigned
(unicodedata.category(c) != 'Cn'): CPython 3.11 knows Unicode 14.0, while nrt's tables are
generated from UCD 15.0, so characters new in 15.0 are left out on purpose, and so are the
few older ones whose category, simple case mapping or Lowercase/Uppercase property changed
in 15.0 (same_in_14_and_15).

Usage: oracle_gen.py COUNT SEED

Stream format (little endian):
  record  := 'R' str:s str:sub str:rep str:chars str:sep i64:a i64:b i64:step i64:count
             i64:maxsplit i64:k i64:float_bits results*  0xFF
  results := u8:op_id result
  result  := 'i' i64 | 's' str | 'l' u32:n str*n | 'x' u8:kind str:message
           | 'k' (skipped: a documented nrt difference, an int outside int64 or a surrogate)
  str     := u32:byte_length bytes
  None arguments are INT64_MIN. Error kinds: 1 ValueError, 2 IndexError, 3 OverflowError, 4 TypeError.
"""
import random
import struct
import sys
import unicodedata

NONE = -(1 << 63)

UCD = '/usr/share/unicode'

def load_ucd15():
    """The facts of the pinned UCD (15.0) that CPython's 14.0 must share for a code point to
    be drawn: general category, simple case mappings, Lowercase, Uppercase."""
    data = {}
    first = None
    with open(UCD + '/UnicodeData.txt', encoding='utf-8') as f:
        for line in f:
            fields = line.split(';')
            cp = int(fields[0], 16)
            row = (fields[2], fields[12], fields[13], fields[14])
            if fields[1].endswith(', First>'):
                first = cp
                continue
            if fields[1].endswith(', Last>'):
                for c in range(first, cp + 1):
                    data[c] = row
                continue
            data[cp] = row
    props = {'Lowercase': set(), 'Uppercase': set()}
    with open(UCD + '/DerivedCoreProperties.txt', encoding='utf-8') as f:
        for line in f:
            line = line.split('#')[0].strip()
            if not line:
                continue
            rng_, prop = [x.strip() for x in line.split(';')][:2]
            if prop in props:
                lo, _, hi = rng_.partition('..')
                props[prop].update(range(int(lo, 16), int(hi or lo, 16) + 1))
    return data, props

UCD15, PROPS15 = load_ucd15()

def same_in_14_and_15(cp):
    """True when CPython (Unicode 14.0) and the pinned UCD 15.0 agree on this code point.
    A few assigned code points changed properties in 15.0 (U+10FC became Lowercase, for
    example): nrt follows 15.0, so such code points are left out of the comparison."""
    c = chr(cp)
    row = UCD15.get(cp)
    if row is None or row[0] != unicodedata.category(c):
        return False
    if (cp in PROPS15['Lowercase']) != c.islower() or (cp in PROPS15['Uppercase']) != c.isupper():
        return False
    def simple(field):
        return chr(int(field, 16)) if field else c
    up, lo = c.upper(), c.lower()
    if len(up) == 1 and up != simple(row[1]):
        return False
    if len(lo) == 1 and lo != simple(row[2]):
        return False
    return True

def assigned(cps):
    out = []
    for cp in cps:
        c = chr(cp)
        if 0xD800 <= cp <= 0xDFFF:
            continue
        if unicodedata.category(c) != 'Cn' and same_in_14_and_15(cp):
            out.append(c)
    return out

def rng(a, b):
    return range(a, b + 1)

ASCII = [chr(c) for c in range(0x20, 0x7F)]
LETTERS = list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
WHITESPACE = [c for c in map(chr, range(0x110000)) if c.isspace()]
LINEBREAKS = ['\n', '\r', '\r\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029']
POOLS = {
    'latin1': assigned(rng(0xA0, 0xFF)) + assigned(rng(0x100, 0x17F)),
    'greek': assigned(rng(0x370, 0x3FF)) + assigned(rng(0x1F00, 0x1FFF)) + ['Σ', 'σ', 'ς'] * 8,
    'turkish': ['İ', 'ı', 'i', 'I', 'ş', 'Ş', 'ğ', 'Ğ'],
    'sharp_s': ['ß', 'ẞ', 's', 'S'],
    'ligatures': assigned(rng(0xFB00, 0xFB4F)),
    'cherokee': assigned(rng(0x13A0, 0x13FF)) + assigned(rng(0xAB70, 0xABBF)),
    'georgian': assigned(rng(0x10A0, 0x10FF)) + assigned(rng(0x1C90, 0x1CBF)) + assigned(rng(0x2D00, 0x2D2F)),
    'combining': assigned(rng(0x300, 0x36F)) + ['\u0345', '\u0307', '\u20dd'],
    'digraphs': assigned(rng(0x1C4, 0x1CC)) + assigned(rng(0x1F1, 0x1F3)) + ['ŉ', 'ǰ', 'ΐ'],
    'cjk': assigned(rng(0x4E00, 0x4E80)) + assigned(rng(0x3040, 0x30FF)) + ['漢', '字', '\u3000'],
    'astral': assigned(rng(0x1F600, 0x1F64F)) + assigned(rng(0x10400, 0x1044F)) +
              assigned(rng(0x1D400, 0x1D47F)) + assigned(rng(0x1E900, 0x1E95F)) +
              assigned(rng(0x20000, 0x20010)) + assigned(rng(0x1F1E6, 0x1F1FF)),
    'numbers': assigned(rng(0x660, 0x669)) + ['²', '³', '¹', '½', 'Ⅻ', 'ⅻ', '௰', '〇', '𝟘', '٣', '१'] +
               list('0123456789'),
    'space': WHITESPACE + LINEBREAKS,
    'other': assigned(rng(0x2000, 0x206F)) + assigned(rng(0x200B, 0x200F)) + ['\x00', '\x7f', '\x9f', '_', '\u00ad'],
    'ascii': ASCII, 'letters': LETTERS,
}
POOL_NAMES = list(POOLS)

def gen_string(r):
    roll = r.random()
    if roll < 0.05:
        return ''
    n = r.choice((1, 1, 2, 3, 4, 5, 6, 8, 10, 12, 16, 20, 24, 32, 48))
    if roll < 0.35:  # ASCII words with spaces
        return ''.join(r.choice(LETTERS) if r.random() < 0.8 else r.choice(' \t\n,.-') for _ in range(n))
    if roll < 0.42:  # repetitive text for count/replace/split
        unit = ''.join(r.choice('ab Σσ') for _ in range(r.randint(1, 3)))
        return (unit * n)[:n * 2]
    pools = [POOLS[r.choice(POOL_NAMES)] for _ in range(r.randint(1, 3))]
    return ''.join(r.choice(r.choice(pools)) for _ in range(n))

NUMBER_PARTS = ['0', '1', '7', '9', '_', '-', '+', ' ', '\t', '.', 'e', 'E', 'x', 'X', 'b', 'o',
                'a', 'f', 'F', 'inf', 'nan', 'Infinity', '٣', '१', '１', '\u3000', '0x', '0b', '0o',
                '00', '__', 'e-', 'e+', '\xa0', '\x1c', 'i', 'n']

def gen_number_text(r):
    """Text that int() and float() often accept: digits (ASCII and other Nd), signs, prefixes,
    underscores, exponents, inf/nan, surrounding whitespace."""
    core = ''.join(r.choice(NUMBER_PARTS[:5] * 4 + NUMBER_PARTS) for _ in range(r.randint(1, 12)))
    return r.choice(('', ' ', '\t', '\u2003')) + core + r.choice(('', ' ', '\n'))

def gen_float_bits(r):
    roll = r.random()
    if roll < 0.3:
        v = r.choice((0.0, -0.0, float('inf'), -float('inf'), float('nan'), 1e16, 1e-5, 1e-4,
                      0.1, 5e-324, 1.7976931348623157e308, 123456789012345.6, 1e15, 2.5, -3.0))
        return struct.unpack('<q', struct.pack('<d', v))[0]
    if roll < 0.6:
        return struct.unpack('<q', struct.pack('<d', r.uniform(-1e6, 1e6)))[0]
    return r.getrandbits(64) - (1 << 63)

def gen_sub(r, s):
    roll = r.random()
    if roll < 0.45 and s:
        i = r.randrange(len(s))
        j = r.randint(i, min(len(s), i + r.choice((1, 1, 2, 3, 5))))
        return s[i:j]
    if roll < 0.55:
        return ''
    if roll < 0.75:
        return ''.join(r.choice(POOLS[r.choice(('space', 'letters', 'greek', 'ascii'))]) for _ in range(r.randint(1, 2)))
    return gen_string(r)[:3]

def gen_index(r, n):
    roll = r.random()
    if roll < 0.15:
        return NONE
    if roll < 0.2:
        return r.choice((1 << 62, -(1 << 62), (1 << 63) - 1, -(1 << 63) + 1))
    return r.randint(-n - 3, n + 3)

def arg(v):
    return None if v == NONE else v

# Operation ids and names; test_str_oracle.c has the same table.
OPS = [
    'len', 'getitem', 'slice', 'slice2', 'slice_step', 'concat', 'repeat', 'compare', 'eq',
    'contains', 'find', 'find_default', 'find_start', 'rfind', 'rfind_default', 'index',
    'rindex', 'count', 'count_default', 'startswith', 'endswith', 'startswith_tuple',
    'endswith_tuple', 'replace', 'replace_all', 'strip', 'strip_none', 'lstrip', 'lstrip_none',
    'rstrip', 'rstrip_none', 'split', 'split_none', 'split_default', 'rsplit', 'rsplit_none',
    'splitlines', 'splitlines_keep', 'partition', 'rpartition', 'join',
    'upper', 'lower', 'casefold', 'capitalize', 'title', 'swapcase',
    'isalpha', 'isalnum', 'isdecimal', 'isdigit', 'isnumeric', 'isspace', 'isupper', 'islower',
    'istitle', 'isascii', 'isidentifier', 'isprintable',
    # nrt/str_convert.h
    'center', 'ljust', 'rjust', 'zfill', 'expandtabs', 'removeprefix', 'removesuffix', 'ord',
    'int10', 'int0', 'int16', 'float', 'str_int', 'chr', 'repr_float',
]
ERR = {ValueError: 1, IndexError: 2, OverflowError: 3, TypeError: 4}

class Skip(Exception):
    """A case where nrt documents a difference from Python (int64 range, surrogates)."""

def width_of(a):
    return 0 if a == NONE else max(-5, min(a, 60))

def chr_arg(a):
    if a == NONE:
        return 0x41
    return a * 4099 + 0x41 if -(1 << 20) < a < (1 << 20) else 0x110000

def float_of(bits):
    return struct.unpack('<d', struct.pack('<q', bits))[0]

def _int_in_range(v):
    if not -(1 << 63) <= v < (1 << 63):
        raise Skip()
    return v

def _chr(a):
    v = chr_arg(a)
    if 0xD800 <= v <= 0xDFFF:
        raise Skip()
    return chr(v)

PREDICATES = ('isalpha', 'isalnum', 'isdecimal', 'isdigit', 'isnumeric', 'isspace', 'isupper',
              'islower', 'istitle', 'isascii', 'isidentifier', 'isprintable')
CASE_OPS = ('upper', 'lower', 'casefold', 'capitalize', 'title', 'swapcase')

class Case:
    """One generated string and its arguments; A, B, STEP are a, b, step with None for NONE."""
    __slots__ = ('s', 'sub', 'rep', 'chars', 'sep', 'a', 'b', 'A', 'B', 'STEP', 'count',
                 'maxsplit', 'k', 'fbits')

# One function per operation, over a Case.
RUN = {
    'len': lambda c: len(c.s),
    'getitem': lambda c: c.s[c.a if c.a != NONE else 0],
    'slice': lambda c: c.s[c.A:c.B:c.STEP],
    'slice2': lambda c: c.s[c.A:c.B],
    'slice_step': lambda c: c.s[::c.STEP],
    'concat': lambda c: c.s + c.sub,
    'repeat': lambda c: c.s * c.k,
    'compare': lambda c: (c.s > c.sub) - (c.s < c.sub),
    'eq': lambda c: int(c.s == c.sub),
    'contains': lambda c: int(c.sub in c.s),
    'find': lambda c: c.s.find(c.sub, c.A, c.B),
    'find_default': lambda c: c.s.find(c.sub),
    'find_start': lambda c: c.s.find(c.sub, c.A),
    'rfind': lambda c: c.s.rfind(c.sub, c.A, c.B),
    'rfind_default': lambda c: c.s.rfind(c.sub),
    'index': lambda c: c.s.index(c.sub, c.A, c.B),
    'rindex': lambda c: c.s.rindex(c.sub, c.A, c.B),
    'count': lambda c: c.s.count(c.sub, c.A, c.B),
    'count_default': lambda c: c.s.count(c.sub),
    'startswith': lambda c: int(c.s.startswith(c.sub, c.A, c.B)),
    'endswith': lambda c: int(c.s.endswith(c.sub, c.A, c.B)),
    'startswith_tuple': lambda c: int(c.s.startswith((c.sub, c.chars, c.rep), c.A, c.B)),
    'endswith_tuple': lambda c: int(c.s.endswith((c.sub, c.chars, c.rep), c.A, c.B)),
    'replace': lambda c: c.s.replace(c.sub, c.rep, c.count),
    'replace_all': lambda c: c.s.replace(c.sub, c.rep),
    'strip': lambda c: c.s.strip(c.chars),
    'strip_none': lambda c: c.s.strip(),
    'lstrip': lambda c: c.s.lstrip(c.chars),
    'lstrip_none': lambda c: c.s.lstrip(None),
    'rstrip': lambda c: c.s.rstrip(c.chars),
    'rstrip_none': lambda c: c.s.rstrip(),
    'split': lambda c: c.s.split(c.sep, c.maxsplit),
    'split_none': lambda c: c.s.split(None, c.maxsplit),
    'split_default': lambda c: c.s.split(),
    'rsplit': lambda c: c.s.rsplit(c.sep, c.maxsplit),
    'rsplit_none': lambda c: c.s.rsplit(None, c.maxsplit),
    'splitlines': lambda c: c.s.splitlines(),
    'splitlines_keep': lambda c: c.s.splitlines(True),
    'partition': lambda c: list(c.s.partition(c.sep)),
    'rpartition': lambda c: list(c.s.rpartition(c.sep)),
    'join': lambda c: c.sub.join(c.s.split(c.sep) if c.sep else list(c.s)),
    'center': lambda c: c.s.center(width_of(c.a), c.chars[:1] or ' '),
    'ljust': lambda c: c.s.ljust(width_of(c.b), c.chars[:1] or ' '),
    'rjust': lambda c: c.s.rjust(width_of(c.a), c.chars),
    'zfill': lambda c: c.s.zfill(width_of(c.b)),
    'expandtabs': lambda c: c.s.expandtabs(c.k * 3 - 1),
    'removeprefix': lambda c: c.s.removeprefix(c.sub),
    'removesuffix': lambda c: c.s.removesuffix(c.sub),
    'ord': lambda c: ord(c.s),
    'float': lambda c: repr(float(c.s)),
    'str_int': lambda c: str(c.a if c.a != NONE else c.count),
    'repr_float': lambda c: repr(float_of(c.fbits)),
    'int10': lambda c: _int_in_range(int(c.s, 10)),
    'int0': lambda c: _int_in_range(int(c.s, 0)),
    'int16': lambda c: _int_in_range(int(c.s, 16)),
    'chr': lambda c: _chr(c.a),
}
for _name in PREDICATES:
    RUN[_name] = (lambda m: lambda c: int(m(c.s)))(getattr(str, _name))
for _name in CASE_OPS:
    RUN[_name] = (lambda m: lambda c: m(c.s))(getattr(str, _name))
assert set(RUN) == set(OPS), set(OPS) ^ set(RUN)
RUN_ORDER = [RUN[name] for name in OPS]

def put_str(out, v):
    b = v.encode('utf-8', 'surrogatepass')
    out += struct.pack('<I', len(b))
    out += b

def main():
    count, seed = int(sys.argv[1]), int(sys.argv[2])
    r = random.Random(seed)
    w = sys.stdout.buffer
    out = bytearray()
    pack_q = struct.Struct('<q').pack
    for _ in range(count):
        s = gen_string(r) if r.random() < 0.9 else gen_number_text(r)
        sub = gen_sub(r, s)
        rep = gen_sub(r, s) if r.random() < 0.7 else r.choice(('', 'x', 'ß', '漢字', 'ΣΣ'))
        chars = gen_sub(r, s) + (r.choice(WHITESPACE) if r.random() < 0.3 else '')
        sep = gen_sub(r, s) if r.random() < 0.9 else r.choice((' ', ',', '\n', 'Σ'))
        n = len(s)
        a, b = gen_index(r, n), gen_index(r, n)
        step = r.choice((NONE, 1, 1, -1, -1, 2, -2, 3, -3, n + 1, -n - 1, 0, (1 << 63) - 1, NONE + 1))
        cnt = r.choice((-1, 0, 1, 2, 3, -5, 1 << 40))
        maxsplit = r.choice((-1, -1, 0, 1, 2, 3, 1 << 40))
        k = r.choice((-2, 0, 1, 2, 3))
        fbits = gen_float_bits(r)
        out += b'R'
        for v in (s, sub, rep, chars, sep):
            put_str(out, v)
        for v in (a, b, step, cnt, maxsplit, k, fbits):
            out += pack_q(v)
        c = Case()
        c.s, c.sub, c.rep, c.chars, c.sep = s, sub, rep, chars, sep
        c.a, c.b, c.count, c.maxsplit, c.k, c.fbits = a, b, cnt, maxsplit, k, fbits
        c.A, c.B, c.STEP = arg(a), arg(b), arg(step)
        for op_id, run in enumerate(RUN_ORDER):
            try:
                res = run(c)
            except Skip:
                out += bytes((op_id,)) + b'k'
                continue
            except (ValueError, IndexError, OverflowError, TypeError) as e:
                msg = str(e)
                if len(msg.encode('utf-8', 'surrogatepass')) > 500:  # nrt cuts longer messages
                    out += bytes((op_id,)) + b'k'
                    continue
                out += bytes((op_id,)) + b'x' + bytes((ERR[type(e)],))
                put_str(out, msg)
                continue
            out.append(op_id)
            if isinstance(res, str):
                out += b's'
                put_str(out, res)
            elif isinstance(res, int):
                out += b'i' + pack_q(res)
            else:
                out += b'l' + struct.pack('<I', len(res))
                for item in res:
                    put_str(out, item)
        out += b'\xff'  # end of record (op ids stay below 0xFF)
        if len(out) > 1 << 20:
            w.write(out)
            out.clear()
    w.write(out)
    w.flush()

if __name__ == '__main__':
    main()

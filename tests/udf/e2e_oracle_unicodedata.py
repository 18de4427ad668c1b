#!/usr/bin/python3
"""CPython oracle for the unicodedata module in UDFs (types_ucd.c, runtime_ucd.c).

The cases run through e2e_oracle.py's machinery (same runner and checks: per-row results and
exception types equal to CPython's, the 2-thread apply equal, statistics balanced); exception
messages are compared through `except ... as e: return str(e)`. Both forms: str results (the
write form) and int / float / bool / list results (the value form).

nrt's tables are Unicode 15.0.0, CPython 3.11's 14.0.0: every character of the rows must be
assigned in CPython's data (checked below), and tests/unicode/oracle_ucd.py shows that no
property these functions return differs between the two for such characters.

usage: e2e_oracle_unicodedata.py RUNNER [--list]"""
import os
import sys
import unicodedata

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import e2e_oracle as o  # noqa: E402

o.CASES.clear()
case = o.case

TEXT = o.S + [
    "한국어 텍스트", "\u1100\u1161\u11a8 \u1112\u1161\u11ab", "e\u0301 a\u0300\u0323 o\u0308\u0304",
    "café CAFÉ cafe\u0301", "日本語 の テキスト 42", "😀👍🏽 ❤️ 🇫🇷", "Ελληνικά ά ΐ ϓ", "İıŞşĞğ Ç",
    "Straße ß ẞ", "ﬁ ﬂ ﬃ ① ⑳ ½ ¼ ⅞", "ＡＢＣ１２３ ｶﾀｶﾅ", "x² H₂O ㎏ ㈱ ™", "Å Ω K ℃",
    "\u1e9b\u0323 \u0344 \u0958", "Tiếng Việt có dấu", "٣٤ ๓ ५ Ⅻ ⅻ 〇 一二三", "مرحبا بالعالم",
    "שָׁלוֹם", "नमस्ते", "\u00a0\u2003\u3000\t", "«quotes» (paren) [br] {cu}", "\x01\x1f\x7f",
    "\ue000\U000f0000", "𝐀𝐁𝐂 𝟘𝟙", "\uac00\ud7a3\uac01", "\u0f73\u0f75\u0f81"]
for t in TEXT:
    for ch in t:
        assert unicodedata.category(ch) != "Cn", "U+%04X is not assigned in CPython's data" % ord(ch)
ROWS = [[t] for t in TEXT]
CHARS = [[c] for c in sorted(set("".join(TEXT)))]
NAMES = [[n] for n in [
    "LATIN SMALL LETTER A", "latin small letter a", "Latin Capital Letter E With Acute",
    "GREEK SMALL LETTER ALPHA", "HANGUL SYLLABLE GAG", "HANGUL SYLLABLE GA", "hangul syllable ga",
    "HANGUL SYLLABLE ", "CJK UNIFIED IDEOGRAPH-4E00", "CJK UNIFIED IDEOGRAPH-04E00",
    "CJK UNIFIED IDEOGRAPH-4e00", "CJK UNIFIED IDEOGRAPH-FFFF", "CJK UNIFIED IDEOGRAPH-20000",
    "CJK COMPATIBILITY IDEOGRAPH-F900", "cjk compatibility ideograph-f900", "GRINNING FACE",
    "SNOWMAN", "EURO SIGN", "NUL", "BOM", "LATIN SMALL LETTER GHA", "BYTE ORDER MARK",
    "LATIN CAPITAL LETTER A WITH MACRON AND GRAVE", "KHITAN SMALL SCRIPT CHARACTER-18B00",
    "NUSHU CHARACTER-1B170", "TANGUT IDEOGRAPH-17000", "TIBETAN MARK BSKA- SHOG GI MGO RGYAN",
    "HANGUL JUNGSEONG O-E", "NO SUCH CHARACTER", "", "SNOWMAN ", " SNOWMAN", "SNOW-MAN",
    "DIGIT ONE", "A" * 257, "LATIN SMALL LETTER \u00e9", "it's \"quoted\"", "ΑΛΦΑ",
    "bad\x01name\ttab", "quote'"]]

# --- character properties, str results (write form) and value results
case("""import unicodedata
def f(s):
    return ' '.join(unicodedata.category(c) for c in s)
""", rows=ROWS, name="category of each character (write form)")
case("""import unicodedata
def f(s):
    return [unicodedata.bidirectional(c) + '/' + unicodedata.east_asian_width(c) for c in s]
""", rows=ROWS, name="bidirectional and east_asian_width: list of str")
case("""from unicodedata import combining, mirrored
def f(s):
    return sum(combining(c) * 1000 + mirrored(c) for c in s)
""", rows=ROWS, name="from unicodedata import combining, mirrored: int result")
case("""import unicodedata
def f(c):
    return unicodedata.decomposition(c)
""", rows=CHARS, name="decomposition of every character of the rows")
case("""import unicodedata
def f(c):
    return unicodedata.name(c, '?')
""", rows=CHARS, name="name(c, default) of every character of the rows")
case("""import unicodedata as ud
def f(s):
    return '|'.join(ud.name(c, f'U+{ord(c):04X}') for c in s)
""", rows=ROWS, name="import unicodedata as ud; name with an f-string default")
case("""import unicodedata
def f(c):
    n = unicodedata.name(c, None)
    if n is None:
        return '<none>'
    return n.lower()
""", rows=CHARS, name="name(c, None): str | None tested with is None")
case("""import unicodedata
def f(c):
    return unicodedata.name(c, None)
""", rows=CHARS, name="name(c, None) returned: None for characters without a name")
case("""import unicodedata
def f(c):
    try:
        return unicodedata.name(c)
    except ValueError as e:
        return 'ValueError: ' + str(e)
""", rows=CHARS, name="name(c) without a default: ValueError no such name")
case("""import unicodedata
def f(s):
    return unicodedata.name(s)
""", rows=ROWS, name="name of a whole row: TypeError unless one character")
case("""import unicodedata
def f(s):
    try:
        return unicodedata.category(s)
    except TypeError as e:
        return str(e)
""", rows=ROWS, name="category(s) TypeError message")
case("""import unicodedata
def f(s):
    out = []
    for fn in ['name', 'decimal', 'digit', 'numeric', 'combining', 'mirrored', 'bidirectional',
               'east_asian_width', 'decomposition']:
        try:
            if fn == 'name':
                unicodedata.name(s)
            elif fn == 'decimal':
                unicodedata.decimal(s)
            elif fn == 'digit':
                unicodedata.digit(s)
            elif fn == 'numeric':
                unicodedata.numeric(s)
            elif fn == 'combining':
                unicodedata.combining(s)
            elif fn == 'mirrored':
                unicodedata.mirrored(s)
            elif fn == 'bidirectional':
                unicodedata.bidirectional(s)
            elif fn == 'east_asian_width':
                unicodedata.east_asian_width(s)
            else:
                unicodedata.decomposition(s)
            out.append('ok')
        except TypeError as e:
            out.append(str(e))
        except ValueError as e:
            out.append('V:' + str(e))
    return out
""", rows=[["ab"], [""], ["é"], ["e\u0301"], ["5"], ["\u00bd"], ["\U0001F600"]],
     name="every function's TypeError and ValueError messages")

# --- numeric values
case("""import unicodedata
def f(c):
    try:
        return unicodedata.decimal(c)
    except ValueError as e:
        return -1 if str(e) == 'not a decimal' else -2
""", rows=CHARS, name="decimal(c): int, ValueError not a decimal")
case("""import unicodedata
def f(c):
    return unicodedata.digit(c, -1) * 10 + unicodedata.decimal(c, -1)
""", rows=CHARS, name="digit(c, -1) and decimal(c, -1)")
case("""import unicodedata
def f(c):
    return unicodedata.numeric(c, -1.0)
""", rows=CHARS, name="numeric(c, -1.0): float")
case("""import unicodedata
def f(c):
    try:
        return str(unicodedata.numeric(c))
    except ValueError as e:
        return str(e)
""", rows=CHARS, name="numeric(c) as str, ValueError not a numeric character")
case("""import unicodedata
def f(s):
    total = 0.0
    for c in s:
        total += unicodedata.numeric(c, 0.0)
    return total
""", rows=ROWS, name="sum of numeric values of a row")
case("""from unicodedata import digit
def f(c):
    return digit(c)
""", rows=CHARS, name="digit(c) without a default: ValueError on most characters")

# --- normalization
for form in ("NFC", "NFD", "NFKC", "NFKD"):
    case("""import unicodedata
def f(s):
    return unicodedata.normalize('%s', s)
""" % form, rows=ROWS, name="normalize('%s', s) (write form)" % form)
case("""import unicodedata
def f(s):
    return [str(len(unicodedata.normalize(form, s))) + str(unicodedata.is_normalized(form, s))
            for form in ['NFC', 'NFD', 'NFKC', 'NFKD']]
""", rows=ROWS, name="lengths and is_normalized in the four forms")
case("""from unicodedata import normalize, is_normalized
def f(s):
    t = normalize('NFD', s)
    return is_normalized('NFC', normalize('NFC', t)) and normalize('NFC', t) == normalize('NFC', s)
""", rows=ROWS, name="from unicodedata import normalize, is_normalized: bool")
case("""import unicodedata
def f(s):
    return ''.join(c for c in unicodedata.normalize('NFKD', s) if not unicodedata.combining(c))
""", rows=ROWS, name="strip accents: NFKD without combining marks")
case("""import unicodedata
def f(s):
    form = s[:3] if s else 'NFC'
    try:
        return unicodedata.normalize(form, 'x' + s)
    except ValueError as e:
        return 'ValueError: ' + str(e)
""", rows=ROWS + [["NFKC"], ["NFD"], ["nfc"]], name="normalize with an invalid form: ValueError")
case("""import unicodedata
def f(s):
    return unicodedata.is_normalized(s, s)
""", rows=[["NFC"], ["NFKD"], ["x"]], name="is_normalized with an invalid form raises")

# --- names
case("""import unicodedata
def f(n):
    try:
        return unicodedata.lookup(n)
    except KeyError as e:
        return 'KeyError: ' + str(e)
""", rows=NAMES, name="lookup: names, aliases, named sequences, KeyError messages")
case("""import unicodedata
def f(s):
    return ''.join(unicodedata.lookup(unicodedata.name(c)) for c in s if unicodedata.name(c, ''))
""", rows=ROWS, name="lookup(name(c)) round trip")
case("""import unicodedata
def f(n):
    return unicodedata.lookup(n)
""", rows=NAMES, name="lookup without try: KeyError")
case("""import unicodedata
from unicodedata import lookup
def f(s):
    t = lookup('LEFT-POINTING DOUBLE ANGLE QUOTATION MARK') + s + unicodedata.lookup('bom')
    try:
        return t + lookup('LATIN CAPITAL LETTER A WITH MACRON AND GRAVE') + lookup('NO SUCH NAME')
    except KeyError as e:
        return t + str(e)
""", rows=ROWS, name="lookup of literals (found once at compile time) and of a missing one")
case("""import unicodedata
from unicodedata import unidata_version
def f(s):
    return len(unidata_version) + len(unicodedata.unidata_version)
""", rows=[["a"]], name="unidata_version (nrt's is 15.0.0, CPython 3.11's 14.0.0: same length)")

if __name__ == "__main__":
    sys.exit(o.main())

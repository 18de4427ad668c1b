#!/usr/bin/python3
"""Oracle for nrt's case mapping and predicate string operations against CPython.

Usage: oracle_case.py TEST_PROGRAM COUNT DATA_FILE [SEED]

Generates COUNT strings, writes each with CPython's results of upper, lower, casefold,
capitalize, title, swapcase and the twelve isX() predicates to DATA_FILE, then runs
TEST_PROGRAM (tests/str/test_case_oracle.c) on it, which recomputes everything with nrt and
reports every difference. Exits with the program's status.

The strings mix ASCII, Latin-1, Greek with capital sigma in every Final_Sigma context (cased
letters, case-ignorable characters before and after, string edges), Turkish dotted and dotless
i, German sharp s, ligatures (U+FB00..), Cherokee, Georgian (Mkhedruli, Mtavruli, Asomtavruli),
combining marks, titlecase digraphs (U+01C5...) and Greek letters with prosgegrammeni, CJK and
numeric ideographs, digits of many scripts, every whitespace and line-boundary character,
emoji and cased astral letters (Deseret, Adlam, ...), random assigned code points of every
plane, and empty strings.

CPython 3.11 knows Unicode 14.0 and nrt's tables are 15.0: only code points CPython considers
assigned (category != Cn) are drawn, minus the five whose Lowercase/Cased property Unicode 15.0
changed (U+10FC, U+A7F2..U+A7F4, U+AB69; see tests/unicode/oracle_unicode.py), since every
case operation depends on those properties.

Record format (little endian): u32 length + bytes for the input and each of the six mapped
strings, then a u16 bit set of the predicates in the order of PREDICATES.
"""
import random
import struct
import subprocess
import sys
import unicodedata

PREDICATES = ["isalpha", "isalnum", "isdecimal", "isdigit", "isnumeric", "isspace", "isupper",
              "islower", "istitle", "isascii", "isidentifier", "isprintable"]
MAPPINGS = ["upper", "lower", "casefold", "capitalize", "title", "swapcase"]

CHANGED_IN_15 = {0x10FC, 0xA7F2, 0xA7F3, 0xA7F4, 0xAB69}


def assigned(cp):
    return (unicodedata.category(chr(cp)) != "Cn" and not 0xD800 <= cp <= 0xDFFF
            and cp not in CHANGED_IN_15)


def chars(*ranges):
    out = []
    for r in ranges:
        if isinstance(r, str):
            out.extend(r)
        else:
            out.extend(chr(c) for c in range(r[0], r[1] + 1) if assigned(c))
    return out


POOLS = {
    "ascii": chars((0x20, 0x7E)),
    "ascii_letters": chars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_0123456789 "),
    "latin1": chars((0xA0, 0xFF), "aeiouAEIOU "),
    "latin_ext": chars((0x100, 0x24F)),
    "greek": chars((0x370, 0x3FF), (0x1F00, 0x1FFF), " ."),
    "sigma": chars("\u03a3\u03a3\u03a3\u03c3\u03c2\u0391\u03b1a' .:\u00ad\u0301\u0345\u2019"
                   "\u02b0\u1d2c\u00b7\u0308 -1\u01c5\U00010400\u1fbc\u0130"),
    "turkish": chars("\u0130\u0131iIi\u0307I\u0307 abc\u015f\u015e\u011f\u011e"),
    "sharp_s": chars("\u00df\u1e9e\u00dfsSss STRASSE stra\u00dfe "),
    "ligatures": chars((0xFB00, 0xFB06), (0xFB13, 0xFB17), "\u0149\u01f0\u0390\u03b0\u0587 a"),
    "cherokee": chars((0x13A0, 0x13FD), (0xAB70, 0xABBF), " "),
    "georgian": chars((0x10A0, 0x10FF), (0x1C90, 0x1CBF), (0x2D00, 0x2D2F), " "),
    "combining": chars((0x300, 0x36F), (0x483, 0x489), (0x1AB0, 0x1ACE), (0x20D0, 0x20F0),
                       "aAe \u03a3"),
    "digraphs": chars((0x1C4, 0x1CC), (0x1F1, 0x1F3), (0x1F80, 0x1FAF), "\u1fb3\u1fbc\u1fc3"
                      "\u1fcc\u1ff3\u1ffc\u0345 ab"),
    "cjk": chars((0x4E00, 0x4E20), "\u4e00\u4e8c\u4e09\u56db\u4e94\u516d\u4e03\u516b\u4e5d\u5341"
                 "\u767e\u5343\u4e07\u5104\u5146\u96f6\u3007\u58f1\u5f10\u53c2\u62fe\u5eff\u5345"
                 "\u6f22\u5b57", (0x3040, 0x30FF), (0xAC00, 0xAC40), (0xFF01, 0xFF5E)),
    "digits": chars((0x30, 0x39), (0x660, 0x669), (0x6F0, 0x6F9), (0x966, 0x96F),
                    (0xFF10, 0xFF19), (0x1D7CE, 0x1D7FF), (0x2070, 0x209C), (0x2150, 0x218B),
                    (0x2460, 0x24FF), (0x3248, 0x325F), (0x1F100, 0x1F10C), "\u00b2\u00b3"
                    "\u00b9\u00bc\u00bd\u00be\u0f33\u1369\u137c", (0x10107, 0x10133)),
    "space": [chr(c) for c in range(0x110000) if assigned(c) and (chr(c).isspace() or len(
        ("a" + chr(c) + "b").splitlines()) == 2)] + list("ab"),
    "ignorable": [chr(c) for c in range(0x2000) if assigned(c) and unicodedata.category(chr(c))
                  in ("Mn", "Me", "Cf", "Lm", "Sk")] + list("'.:^`\u2019\u00ad\u03a3Aa"),
    "astral": chars((0x10400, 0x1044F), (0x104B0, 0x104FB), (0x1E900, 0x1E95F),
                    (0x16E40, 0x16E9A), (0x1D400, 0x1D4FF), (0x1F600, 0x1F64F),
                    (0x1F1E6, 0x1F1FF), (0x10C80, 0x10CFF), (0x118A0, 0x118FF),
                    (0x20000, 0x20010), (0xE0000, 0xE007F), (0xF0000, 0xF0010)),
    "cased_symbols": chars((0x2160, 0x2188), (0x24B6, 0x24E9), (0x1F130, 0x1F189),
                           "\u00aa\u00ba\u02b0\u1d2c\u2071\u207f \u0130a"),
    "identifier": chars("_abcXYZ019\u00e9\u00b7\u0300\u2118\u212e\u309b\u0660\u1369"
                        "\u3005\u3007\uff3f\u2160\u00b2 ."),
}
ALL_ASSIGNED = [c for c in range(0x110000) if assigned(c)]

# Final_Sigma contexts: cased, uncased and both-cased-and-case-ignorable neighbours (U+02B0,
# U+0345), separated from the capital sigma by runs of case-ignorable characters.
SIGMA_SIDES = ["", "A", "a", "\u0391", "\u03c3", "1", " ", "\U00010400", "\u01c5", "\u24b6",
               "\u02b0", "\u0345", "\u2160", "\u00aa", "\u4e00", "\u0130"]
SIGMA_IGNORABLE = ["", "", "'", ".", "\u0301", "\u00ad", "\u2019", "\u0345", "\u02b0",
                   "\u0307\u0301", ":", "\U000e0001", "\u1d2c"]


def sigma_string(rng):
    parts = [rng.choice(SIGMA_SIDES), rng.choice(SIGMA_IGNORABLE)]
    for _ in range(rng.randint(1, 2)):
        parts += ["\u03a3", rng.choice(SIGMA_IGNORABLE)]
    parts.append(rng.choice(SIGMA_SIDES))
    if rng.random() < 0.3:
        parts.insert(0, rng.choice(SIGMA_SIDES))
    return "".join(parts)


def random_string(rng):
    roll = rng.random()
    if roll < 0.02:
        return ""
    if roll < 0.06:
        return "".join(chr(rng.choice(ALL_ASSIGNED)) for _ in range(rng.randint(1, 6)))
    if roll < 0.13:
        return sigma_string(rng)
    if roll < 0.16:  # long ASCII, to reach the word-at-a-time paths
        pool = POOLS["ascii_letters"] if rng.random() < 0.5 else POOLS["ascii"]
        s = "".join(rng.choice(pool) for _ in range(rng.randint(16, 80)))
        if rng.random() < 0.5:
            pos = rng.randint(0, len(s))
            s = s[:pos] + rng.choice(POOLS["sigma"] + POOLS["latin1"]) + s[pos:]
        return s
    names = rng.sample(sorted(POOLS), rng.randint(1, 3))
    pool = [c for n in names for c in POOLS[n]] if len(names) > 1 else POOLS[names[0]]
    length = rng.choice((1, 1, 2, 3, 4, 5, 6, 8, 12, 20))
    return "".join(rng.choice(pool) for _ in range(length))


def main():
    program, count, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    seed = int(sys.argv[4]) if len(sys.argv) > 4 else 20261121
    rng = random.Random(seed)
    with open(path, "wb") as f:
        f.write(struct.pack("<4sI", b"NRTC", count))
        for _ in range(count):
            s = random_string(rng)
            for t in [s] + [getattr(s, m)() for m in MAPPINGS]:
                b = t.encode("utf-8")
                f.write(struct.pack("<I", len(b)))
                f.write(b)
            bits = 0
            for i, p in enumerate(PREDICATES):
                if getattr(s, p)():
                    bits |= 1 << i
            f.write(struct.pack("<H", bits))
    print("oracle_case: %d strings from CPython %s (Unicode %s), seed %d"
          % (count, sys.version.split()[0], unicodedata.unidata_version, seed), flush=True)
    return subprocess.run([program, path]).returncode


if __name__ == "__main__":
    sys.exit(main())

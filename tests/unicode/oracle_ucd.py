#!/usr/bin/python3
"""Exhaustive oracle of nrt's unicodedata tables (include/nrt/ucd.h) against CPython.

Usage: oracle_ucd.py DUMP_PROGRAM

Runs DUMP_PROGRAM (tests/unicode/dump_ucd.c) and compares, for every code point CPython
considers assigned, combining(), bidirectional(), east_asian_width(), mirrored(),
decomposition(), name() and the four normalizations of the one-character string with
CPython's. CPython 3.11 knows Unicode 14.0 while nrt's tables are 15.0: code points first
assigned in 15.0 are skipped, and the fields of older code points that 15.0 changed are listed
in EXCLUDED with the reason (an entry that does not differ fails the test).
"""
import subprocess
import sys
import unicodedata

FIELDS = ["combining", "bidirectional", "east_asian_width", "mirrored", "decomposition",
          "name", "NFC", "NFD", "NFKC", "NFKD"]

EXCLUDED = {
}

# Unassigned in both versions: dump_ucd.c prints these too.
UNASSIGNED = {0x0378, 0x0379, 0x2FFFD, 0x3FFFD, 0xE0000, 0x10FFFF}


def expected(c):
    forms = [" ".join("%X" % ord(x) for x in unicodedata.normalize(f, c))
             for f in ("NFC", "NFD", "NFKC", "NFKD")]
    return [str(unicodedata.combining(c)), unicodedata.bidirectional(c),
            unicodedata.east_asian_width(c), str(unicodedata.mirrored(c)),
            unicodedata.decomposition(c), unicodedata.name(c, "")] + forms


def main():
    out = subprocess.run([sys.argv[1]], check=True, capture_output=True, text=True).stdout
    lines = out.splitlines()
    if lines[-1] != "lookup mismatches 0":
        sys.exit("oracle_ucd: " + lines[-1])
    got = {}
    for line in lines[:-1]:
        f = line.split("\t")
        got[int(f[0], 16)] = f[1:]
    mismatches = 0
    compared = 0
    seen = set()
    for cp in range(0x110000):
        c = chr(cp)
        if unicodedata.category(c) == "Cn" and cp not in UNASSIGNED:
            continue  # unassigned in 14.0 (perhaps assigned in 15.0)
        if 0xF0010 <= cp < 0x10FFF0:
            continue  # private use, all alike: dump_ucd.c prints only the planes' ends
        if cp not in got:
            print("U+%04X: assigned in CPython, missing from the dump" % cp)
            mismatches += 1
            continue
        want = expected(c)
        for field, w, g in zip(FIELDS, want, got[cp]):
            if w == g:
                continue
            if (cp, field) in EXCLUDED:
                seen.add((cp, field))
                continue
            mismatches += 1
            if mismatches <= 30:
                print("U+%04X %s: CPython %r, nrt %r" % (cp, field, w, g))
        compared += 1
    for key in EXCLUDED:
        if key not in seen:
            print("EXCLUDED entry U+%04X %s does not differ" % key)
            mismatches += 1
    print("%d code points compared, %d mismatches" % (compared, mismatches))
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()

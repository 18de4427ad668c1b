#!/usr/bin/python3
"""Exhaustive oracle: every property and case mapping of nrt's tables against CPython.

Usage: oracle_unicode.py DUMP_PROGRAM

Runs DUMP_PROGRAM (tests/unicode/dump_unicode.c) and compares each of its lines with what
CPython computes for the same code point through str methods and unicodedata, for EVERY code
point CPython considers assigned (category != Cn).

CPython 3.11 knows Unicode 14.0 while nrt's tables are 15.0: code points first assigned in 15.0
are skipped (CPython has nothing to say about them), and the few properties of code points
already assigned in 14.0 that Unicode 15.0 changed are listed in EXCLUDED below, each with the
reason; those fields are not compared for those code points. Every other field must match:
0 mismatches.

Properties CPython does not expose directly are observed through the str methods that use
them: Cased through str.title() (previous_is_cased), Case_Ignorable through the Final_Sigma
rule of str.lower(), XID_Start / XID_Continue through str.isidentifier(), line boundaries
through str.splitlines().
"""
import subprocess
import sys
import unicodedata

FIELDS = ["category", "alpha", "decimal", "digit", "numeric", "alnum", "space", "linebreak",
          "lowercase", "uppercase", "titlecase", "cased", "case_ignorable", "xid_start",
          "xid_continue", "printable", "decimal_value", "digit_value", "numeric_value",
          "lower", "upper", "title", "fold"]

# (code point, field): why Unicode 15.0 differs from 14.0 there. main() fails on an entry that
# does not differ from CPython, so the list cannot hide anything else. All ten come from one
# change: Unicode 15.0 added these Lm modifier letters to Other_Lowercase, which makes them
# Lowercase and Cased in DerivedCoreProperties.txt.
EXCLUDED = {
    (0x10FC, "lowercase"): "MODIFIER LETTER GEORGIAN NAR: Other_Lowercase in 15.0 (PropList.txt), so Lowercase",
    (0x10FC, "cased"): "MODIFIER LETTER GEORGIAN NAR: Other_Lowercase in 15.0 (PropList.txt), so Lowercase and Cased",
    (0xA7F2, "lowercase"): "MODIFIER LETTER CAPITAL C: Other_Lowercase in 15.0 (PropList.txt), so Lowercase",
    (0xA7F2, "cased"): "MODIFIER LETTER CAPITAL C: Other_Lowercase in 15.0 (PropList.txt), so Lowercase and Cased",
    (0xA7F3, "lowercase"): "MODIFIER LETTER CAPITAL F: Other_Lowercase in 15.0 (PropList.txt), so Lowercase",
    (0xA7F3, "cased"): "MODIFIER LETTER CAPITAL F: Other_Lowercase in 15.0 (PropList.txt), so Lowercase and Cased",
    (0xA7F4, "lowercase"): "MODIFIER LETTER CAPITAL Q: Other_Lowercase in 15.0 (PropList.txt), so Lowercase",
    (0xA7F4, "cased"): "MODIFIER LETTER CAPITAL Q: Other_Lowercase in 15.0 (PropList.txt), so Lowercase and Cased",
    (0xAB69, "lowercase"): "MODIFIER LETTER SMALL TURNED W: Other_Lowercase in 15.0 (PropList.txt), so Lowercase",
    (0xAB69, "cased"): "MODIFIER LETTER SMALL TURNED W: Other_Lowercase in 15.0 (PropList.txt), so Lowercase and Cased",
}


def expected(c):
    cp = ord(c)
    cased = (c + "a").title()[-1] == "a"
    if cased:
        ignorable = (c + "\u03a3").lower()[-1] != "\u03c2"
    else:
        ignorable = ("A" + c + "\u03a3").lower()[-1] == "\u03c2"
    flags = [c.isalpha(), c.isdecimal(), c.isdigit(), c.isnumeric(), c.isalnum(), c.isspace(),
             len(("a" + c + "b").splitlines()) == 2, c.islower(), c.isupper(),
             unicodedata.category(c) == "Lt", cased, ignorable,
             c.isidentifier() and c != "_", ("a" + c).isidentifier(), c.isprintable()]
    num = unicodedata.numeric(c, None)

    def mapping(s):
        return ".".join("%X" % ord(x) for x in s)

    return ["%X" % cp, unicodedata.category(c)] + ["1" if f else "0" for f in flags] + [
        str(unicodedata.decimal(c, -1)), str(unicodedata.digit(c, -1)),
        "-" if num is None else format(num, ".17g"),
        mapping(c.lower()), mapping(c.upper()), mapping(c.title()), mapping(c.casefold())]


def ours(line):
    parts = line.split()
    return parts[:2] + list(parts[2]) + parts[3:]


def main():
    dump = subprocess.run([sys.argv[1]], check=True, stdout=subprocess.PIPE,
                          text=True).stdout.splitlines()
    table = {}
    for line in dump:
        row = ours(line)
        table[int(row[0], 16)] = row
    print("oracle_unicode: CPython %s (Unicode %s) against nrt tables (Unicode 15.0.0)"
          % (sys.version.split()[0], unicodedata.unidata_version))
    mismatches = 0
    compared = 0
    used_exclusions = set()
    for cp in range(0x110000):
        c = chr(cp)
        if unicodedata.category(c) == "Cn":
            continue
        compared += 1
        want = expected(c)
        got = table.get(cp)
        if got is None:
            print("U+%04X: assigned in CPython, missing from nrt" % cp)
            mismatches += 1
            continue
        for i, name in enumerate(["cp"] + FIELDS):
            if got[i] == want[i]:
                continue
            if (cp, name) in EXCLUDED:
                used_exclusions.add((cp, name))
                continue
            mismatches += 1
            if mismatches <= 50:
                print("U+%04X %s: nrt %s, CPython %s" % (cp, name, got[i], want[i]))
    unused = set(EXCLUDED) - used_exclusions
    for cp, name in sorted(unused):
        print("exclusion U+%04X %s does not differ from CPython: remove it" % (cp, name))
    print("oracle_unicode: %d code points compared, %d fields each, %d excluded, %d mismatches"
          % (compared, len(FIELDS), len(used_exclusions), mismatches))
    return 1 if mismatches or unused else 0


if __name__ == "__main__":
    sys.exit(main())

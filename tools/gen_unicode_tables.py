#!/usr/bin/python3
"""Generates nrt's Unicode property tables from the Unicode Character Database.

Usage: gen_unicode_tables.py [--ucd DIR] [--out-dir DIR]

Reads the UCD pinned by Debian's unicode-data package (15.0.0, /usr/share/unicode) and writes
unicode_tables.h and unicode_tables.c (default: src/unicode/ next to this script's repository),
and ucd_tables.h and ucd_tables.c, the tables of the unicodedata module (gen_ucd_props.py).

Properties follow CPython's Tools/unicode/makeunicodedata.py, so that nrt's str methods agree
with Python's:
  alpha       general category Lu Ll Lt Lm Lo
  decimal     UnicodeData field 6; digit: field 7; numeric: field 8, plus the Unihan values
              kAccountingNumeric / kOtherNumeric / kPrimaryNumeric
  space       general category Zs or bidi class WS, B, S (not PropList's White_Space)
  linebreak   bidi class B or line-break class BK, CR, LF, NL (LineBreak.txt)
  printable   U+0020, or a general category outside C* and Z*
  lowercase, uppercase, cased, case_ignorable, xid_start, xid_continue: DerivedCoreProperties
  title       general category Lt
  case        simple mappings of UnicodeData (title defaults to upper) overridden by the
              unconditional entries of SpecialCasing.txt; folding: CaseFolding.txt status C+F
Unassigned code points have no property and map to themselves.

Layout: every code point maps to a deduplicated property record through a two-stage index
(stage1[cp >> SHIFT] selects a block of 2**SHIFT record numbers in stage2); SHIFT is chosen to
minimise the table size. Case mappings are stored as a delta (cp + delta) or, for multi-code
point mappings and large deltas, as (length, index) into a shared array of code points.
"""

import argparse
import bz2
import os
import sys
from fractions import Fraction

import gen_ucd_props

UCD_VERSION = "15.0.0"
NCP = 0x110000

CATEGORIES = ["Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No",
              "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm", "Sc", "Sk", "So",
              "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co"]

FLAGS = ["ALPHA", "DECIMAL", "DIGIT", "NUMERIC", "SPACE", "LINEBREAK", "LOWER", "UPPER",
         "TITLE", "CASED", "CASE_IGNORABLE", "XID_START", "XID_CONTINUE", "PRINTABLE"]
FLAG = {name: 1 << i for i, name in enumerate(FLAGS)}

CASE_KINDS = ["LOWER", "UPPER", "TITLE", "FOLD"]
# A delta outside this range is stored in the extended array instead.
DELTA_LIMIT = 1 << 23


def data_lines(path):
    """Yields the non-comment fields of a UCD file, split on ';' and stripped."""
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rt", encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                yield [field.strip() for field in line.split(";")]


def code_range(text):
    if ".." in text:
        a, b = text.split("..")
        return range(int(a, 16), int(b, 16) + 1)
    return range(int(text, 16), int(text, 16) + 1)


def load(ucd):
    unicode_data = [None] * NCP
    first = None
    for f in data_lines(os.path.join(ucd, "UnicodeData.txt")):
        cp = int(f[0], 16)
        if f[1].endswith(", First>"):
            first = (cp, f)
            continue
        if f[1].endswith(", Last>"):
            start, fields = first
            for c in range(start, cp + 1):
                unicode_data[c] = fields
            continue
        unicode_data[cp] = f

    props = [set() for _ in range(NCP)]
    wanted = {"Lowercase", "Uppercase", "Cased", "Case_Ignorable", "XID_Start", "XID_Continue"}
    for f in data_lines(os.path.join(ucd, "DerivedCoreProperties.txt")):
        if f[1] in wanted:
            for c in code_range(f[0]):
                props[c].add(f[1])
    for f in data_lines(os.path.join(ucd, "LineBreak.txt")):
        if f[1] in ("BK", "CR", "LF", "NL"):
            for c in code_range(f[0]):
                props[c].add("Line_Break")

    special = {}
    for f in data_lines(os.path.join(ucd, "SpecialCasing.txt")):
        # f: code; lower; title; upper; [condition;] -- conditional entries depend on
        # language or context; Python applies none of them except Final_Sigma, which the str
        # layer implements.
        if len(f) > 4 and f[4]:
            continue
        cp = int(f[0], 16)
        special[cp] = tuple([int(x, 16) for x in f[i].split()] for i in (1, 2, 3))

    folding = {}
    for f in data_lines(os.path.join(ucd, "CaseFolding.txt")):
        if f[1] in ("C", "F"):
            folding[int(f[0], 16)] = [int(x, 16) for x in f[2].split()]

    numeric = {}
    for cp in range(NCP):
        f = unicode_data[cp]
        if f is not None and f[8]:
            numeric[cp] = Fraction(f[8])
    unihan = os.path.join(ucd, "Unihan_NumericValues.txt.bz2")
    if not os.path.exists(unihan):
        unihan = os.path.join(ucd, "Unihan_NumericValues.txt")
    with (bz2.open if unihan.endswith(".bz2") else open)(unihan, "rt", encoding="utf-8") as fh:
        for line in fh:
            if not line.startswith("U+"):
                continue
            code, tag, value = line.split(None, 2)
            if tag not in ("kAccountingNumeric", "kOtherNumeric", "kPrimaryNumeric"):
                continue
            cp = int(code[2:], 16)
            if unicode_data[cp] is not None:
                numeric[cp] = Fraction(value.strip().replace(",", ""))
    return unicode_data, props, special, folding, numeric


def build_records(unicode_data, props, special, folding, numeric):
    """Returns (record index per code point, records, extended case array, numeric values)."""
    records = [(0, 0, 0, -1, -1, 0, (0, 0, 0, 0))]  # record 0: unassigned
    record_index = {records[0]: 0}
    extended = []
    extended_index = {}
    numeric_values = []
    numeric_index = {}
    per_cp = [0] * NCP

    def extended_ref(seq):
        key = tuple(seq)
        if key not in extended_index:
            extended_index[key] = len(extended)
            extended.extend(seq)
        return (len(seq) << 24) | extended_index[key]

    for cp in range(NCP):
        f = unicode_data[cp]
        if f is None:
            continue
        category = f[2]
        bidi = f[4]
        p = props[cp]
        flags = 0
        if category in ("Lu", "Ll", "Lt", "Lm", "Lo"):
            flags |= FLAG["ALPHA"]
        decimal = int(f[6]) if f[6] else -1
        digit = int(f[7]) if f[7] else -1
        if decimal >= 0:
            flags |= FLAG["DECIMAL"]
        if digit >= 0:
            flags |= FLAG["DIGIT"]
        num = 0
        if cp in numeric:
            flags |= FLAG["NUMERIC"]
            value = float(numeric[cp])
            if value not in numeric_index:
                numeric_index[value] = len(numeric_values)
                numeric_values.append(value)
            num = numeric_index[value] + 1
        if category == "Zs" or bidi in ("WS", "B", "S"):
            flags |= FLAG["SPACE"]
        if "Line_Break" in p or bidi == "B":
            flags |= FLAG["LINEBREAK"]
        if "Lowercase" in p:
            flags |= FLAG["LOWER"]
        if "Uppercase" in p:
            flags |= FLAG["UPPER"]
        if category == "Lt":
            flags |= FLAG["TITLE"]
        if "Cased" in p:
            flags |= FLAG["CASED"]
        if "Case_Ignorable" in p:
            flags |= FLAG["CASE_IGNORABLE"]
        if "XID_Start" in p:
            flags |= FLAG["XID_START"]
        if "XID_Continue" in p:
            flags |= FLAG["XID_CONTINUE"]
        if cp == 0x20 or category[0] not in ("C", "Z"):
            flags |= FLAG["PRINTABLE"]

        upper = int(f[12], 16) if f[12] else cp
        lower = int(f[13], 16) if f[13] else cp
        title = int(f[14], 16) if f[14] else upper
        if cp in special:
            sc_lower, sc_title, sc_upper = special[cp]
        else:
            sc_lower, sc_title, sc_upper = [lower], [title], [upper]
        fold = folding.get(cp, [cp])
        ext = 0
        cases = []
        for k, seq in enumerate((sc_lower, sc_upper, sc_title, fold)):
            if len(seq) == 1 and -DELTA_LIMIT < seq[0] - cp < DELTA_LIMIT:
                cases.append(seq[0] - cp)
            else:
                ext |= 1 << k
                cases.append(extended_ref(seq))
        record = (flags, CATEGORIES.index(category), ext, decimal, digit, num, tuple(cases))
        if record not in record_index:
            record_index[record] = len(records)
            records.append(record)
        per_cp[cp] = record_index[record]
    return per_cp, records, extended, numeric_values


def split_two_stage(values):
    """Finds the block shift minimising the size of a two-stage table of `values`."""
    best = None
    elem2 = 1 if max(values) < 256 else 2
    for shift in range(4, 11):
        size = 1 << shift
        blocks = {}
        stage1 = []
        stage2 = []
        for start in range(0, len(values), size):
            block = tuple(values[start:start + size])
            if block not in blocks:
                blocks[block] = len(blocks)
                stage2.extend(block)
            stage1.append(blocks[block])
        elem1 = 1 if len(blocks) <= 256 else 2
        total = len(stage1) * elem1 + len(stage2) * elem2
        if best is None or total < best[0]:
            best = (total, shift, stage1, stage2)
    return best[1], best[2], best[3]


def c_type(values):
    top = max(values)
    if top < 256:
        return "uint8_t"
    if top < 65536:
        return "uint16_t"
    return "uint32_t"


def c_array(name, ctype, values, per_line=16):
    lines = ["const %s %s[%d] = {" % (ctype, name, len(values))]
    for i in range(0, len(values), per_line):
        lines.append("  " + ", ".join(str(v) for v in values[i:i + per_line]) + ",")
    lines.append("};")
    return "\n".join(lines)


BANNER = ("/* generated by tools/gen_unicode_tables.py from UCD %s — do not edit.\n"
          " * Regenerate: /usr/bin/python3 tools/gen_unicode_tables.py */\n" % UCD_VERSION)


def write_header(path, shift, stage1, stage2, records, extended, numeric_values):
    t1, t2 = c_type(stage1), c_type(stage2)
    text = BANNER + """#ifndef NRT_UNICODE_TABLES_H
#define NRT_UNICODE_TABLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NRT_UC_UCD_VERSION "%(version)s"

/* Property flags of a record. */
%(flag_defines)s

/* Bit k of a record's `ext` says case mapping k (NRT_UC_CASE_*) is an extended reference:
 * (length << 24) | index into nrt_uc_case_extended; otherwise it is a delta (cp + delta). */
%(case_defines)s

/* One deduplicated set of properties. */
struct nrt_uc_record {
  int32_t cases[4];  /* lower, upper, title, fold */
  uint16_t flags;    /* NRT_UC_F_* */
  uint8_t category;  /* enum nrt_uc_category */
  uint8_t ext;       /* extended-reference bits of cases[] */
  int8_t decimal;    /* 0..9 or -1 */
  int8_t digit;      /* 0..9 or -1 */
  uint16_t numeric;  /* 1 + index into nrt_uc_numeric_values, or 0 for none */
};

/* Two-stage index: record = nrt_uc_records[nrt_uc_stage2[(nrt_uc_stage1[cp >> SHIFT] <<
 * SHIFT) | (cp & MASK)]]. */
#define NRT_UC_SHIFT %(shift)d
#define NRT_UC_MASK %(mask)d
#define NRT_UC_STAGE1_SIZE %(n1)d
#define NRT_UC_RECORD_COUNT %(nrec)d
#define NRT_UC_EXTENDED_SIZE %(next)d
#define NRT_UC_NUMERIC_COUNT %(nnum)d

extern const %(t1)s nrt_uc_stage1[%(n1)d];
extern const %(t2)s nrt_uc_stage2[%(n2)d];
extern const struct nrt_uc_record nrt_uc_records[%(nrec)d];
extern const uint32_t nrt_uc_case_extended[%(next)d];
extern const double nrt_uc_numeric_values[%(nnum)d];
/* Flags of U+0000..U+007F, one load away (the ASCII fast paths). */
extern const uint16_t nrt_uc_ascii_flags[128];

#ifdef __cplusplus
}
#endif

#endif /* NRT_UNICODE_TABLES_H */
""" % {
        "version": UCD_VERSION,
        "flag_defines": "\n".join("#define NRT_UC_F_%s 0x%04xu" % (n, FLAG[n]) for n in FLAGS),
        "case_defines": "\n".join("#define NRT_UC_CASE_%s %d" % (n, i)
                                  for i, n in enumerate(CASE_KINDS)),
        "shift": shift, "mask": (1 << shift) - 1, "n1": len(stage1), "n2": len(stage2),
        "nrec": len(records), "next": len(extended), "nnum": len(numeric_values),
        "t1": t1, "t2": t2,
    }
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def write_source(path, shift, stage1, stage2, records, extended, numeric_values):
    parts = [BANNER, '#include "unicode/unicode_tables.h"\n']
    parts.append(c_array("nrt_uc_stage1", c_type(stage1), stage1))
    parts.append("")
    parts.append(c_array("nrt_uc_stage2", c_type(stage2), stage2, per_line=24))
    parts.append("")
    lines = ["const struct nrt_uc_record nrt_uc_records[%d] = {" % len(records)]
    for flags, cat, ext, dec, dig, num, cases in records:
        lines.append("  {{%d, %d, %d, %d}, 0x%04x, %d, %d, %d, %d, %d}," %
                     (cases + (flags, cat, ext, dec, dig, num)))
    lines.append("};")
    parts.append("\n".join(lines))
    parts.append("")
    parts.append(c_array("nrt_uc_case_extended", "uint32_t",
                         ["0x%04x" % v for v in extended] if extended else ["0"], per_line=12))
    parts.append("")
    ascii_flags = ["0x%04x" % records[stage2[(stage1[cp >> shift] << shift) | (cp & ((1 << shift) - 1))]][0]
                   for cp in range(128)]
    parts.append(c_array("nrt_uc_ascii_flags", "uint16_t", ascii_flags, per_line=8))
    parts.append("")
    lines = ["const double nrt_uc_numeric_values[%d] = {" % len(numeric_values)]
    for v in numeric_values:
        lines.append("  %s, /* %r */" % (v.hex(), v))
    lines.append("};")
    parts.append("\n".join(lines))
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(parts) + "\n")


def main():
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ucd", default="/usr/share/unicode")
    ap.add_argument("--out-dir", default=os.path.join(repo, "src", "unicode"))
    args = ap.parse_args()
    with open(os.path.join(args.ucd, "DerivedCoreProperties.txt"), encoding="utf-8") as f:
        first_line = f.readline()
    if "-%s.txt" % UCD_VERSION not in first_line:
        sys.exit("gen_unicode_tables.py: %s is not UCD %s (%s)" % (args.ucd, UCD_VERSION,
                                                                first_line.strip()))
    unicode_data, props, special, folding, numeric = load(args.ucd)
    per_cp, records, extended, numeric_values = build_records(
        unicode_data, props, special, folding, numeric)
    shift, stage1, stage2 = split_two_stage(per_cp)
    os.makedirs(args.out_dir, exist_ok=True)
    write_header(os.path.join(args.out_dir, "unicode_tables.h"), shift, stage1, stage2, records,
                 extended, numeric_values)
    write_source(os.path.join(args.out_dir, "unicode_tables.c"), shift, stage1, stage2, records,
                 extended, numeric_values)
    size = len(stage1) * (1 if max(stage1) < 256 else 2) + \
        len(stage2) * (1 if max(stage2) < 256 else 2) + len(records) * 24 + len(extended) * 4
    ucd_data = gen_ucd_props.load(args.ucd, unicode_data, data_lines, code_range)
    ucd = gen_ucd_props.build(unicode_data, *ucd_data, split_two_stage)
    print(gen_ucd_props.write(args.out_dir, ucd, BANNER, c_type, c_array), file=sys.stderr)
    print("unicode tables: shift %d, %d blocks, %d records, %d extended, %d numeric, %d bytes"
          % (shift, len(stage2) >> shift, len(records), len(extended), len(numeric_values), size),
          file=sys.stderr)


if __name__ == "__main__":
    main()

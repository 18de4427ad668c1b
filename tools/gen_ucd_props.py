"""The unicodedata tables of nrt: normalization, bidi, widths and character names.

Imported by gen_unicode_tables.py, which writes ucd_tables.h and ucd_tables.c with it. Values
follow CPython's Tools/unicode/makeunicodedata.py, so that the UDF module `unicodedata` agrees
with Python's:
  combining, bidirectional, mirrored, decomposition   UnicodeData fields 3, 4, 9, 5
  east_asian_width   EastAsianWidth.txt for assigned code points; unassigned ones are 'F'
                     (CPython's record 0) and have bidirectional ''
  quick checks       NFD_QC, NFKD_QC, NFC_QC, NFKC_QC of DerivedNormalizationProps.txt
  composition        the canonical pairs of UnicodeData minus Full_Composition_Exclusion
  name               UnicodeData field 1; CJK unified ideographs and Hangul syllables are
                     algorithmic (not stored); range entries (<Tangut Ideograph, First>, ...)
                     and <control> have no name, as in CPython 3.11
  lookup             the names, NameAliases.txt and NamedSequences.txt

Layout: a two-stage index of deduplicated 4-byte records (combining, bidi, width, flags), a
two-stage index of decomposition offsets, a sorted composition table, and the names: each is
a list of word numbers into a lexicon of words sorted by frequency (a number below 128 is one
byte, others two), stored in code point order with the byte offset of the first name of each
block of 128 code points.
"""

import os
import re

BIDI = ["", "L", "LRE", "LRO", "R", "AL", "RLE", "RLO", "PDF", "EN", "ES", "ET", "AN", "CS",
        "NSM", "BN", "B", "S", "WS", "ON", "LRI", "RLI", "FSI", "PDI"]
WIDTHS = ["F", "H", "W", "Na", "A", "N"]
FLAGS = ["MIRRORED", "HAS_NAME", "NFD_QC_NO", "NFKD_QC_NO", "NFC_QC_NO", "NFC_QC_MAYBE",
         "NFKC_QC_NO", "NFKC_QC_MAYBE"]
FLAG = {name: 1 << i for i, name in enumerate(FLAGS)}
TAGS = ["", "<font>", "<noBreak>", "<initial>", "<medial>", "<final>", "<isolated>",
        "<circle>", "<super>", "<sub>", "<vertical>", "<wide>", "<narrow>", "<small>",
        "<square>", "<fraction>", "<compat>"]
NAME_BLOCK_SHIFT = 7
HYPHEN, HEX = 0, 1  # special word numbers: a '-' joining its neighbours; the code point in hex
SBASE, LCOUNT, VCOUNT, TCOUNT = 0xAC00, 19, 21, 28


def algorithmic_name(cp, fields):
    """CJK unified ideographs and Hangul syllables, whose names CPython computes."""
    return fields[1].startswith("<CJK Ideograph") or fields[1].startswith("<Hangul Syllable")


def load(ucd, unicode_data, data_lines, code_range):
    width = {}
    for f in data_lines(os.path.join(ucd, "EastAsianWidth.txt")):
        for c in code_range(f[0]):
            width[c] = f[1]
    qc = {}
    exclusions = set()
    for f in data_lines(os.path.join(ucd, "DerivedNormalizationProps.txt")):
        if f[1] in ("NFD_QC", "NFKD_QC", "NFC_QC", "NFKC_QC"):
            flag = f[1] + ("_NO" if f[2] == "N" else "_MAYBE")
            for c in code_range(f[0]):
                qc[c] = qc.get(c, 0) | FLAG[flag]
        elif f[1] == "Full_Composition_Exclusion":
            exclusions.update(code_range(f[0]))
    aliases = [(int(f[0], 16), f[1]) for f in
               data_lines(os.path.join(ucd, "NameAliases.txt"))]
    sequences = [(f[0], [int(x, 16) for x in f[1].split()]) for f in
                 data_lines(os.path.join(ucd, "NamedSequences.txt"))]
    jamo = {int(f[0], 16): f[1] for f in data_lines(os.path.join(ucd, "Jamo.txt"))}
    return width, qc, exclusions, aliases, sequences, jamo


def tokens(name):
    """The words of a name: split at spaces and hyphens when joining them back gives the name
    (a hyphen joins its neighbours without spaces), else at spaces only."""
    words = re.findall(r"[^ -]+|-", name)
    out = []
    for w in words:
        if out and out[-1] != "-" and w != "-":
            out.append(" ")
        out.append(w)
    if "".join(out) == name:
        return words
    return name.split(" ")


def build(unicode_data, width, qc, exclusions, aliases, sequences, jamo, split_two_stage):
    ncp = len(unicode_data)
    records = [(0, 0, 0, 0)]
    record_index = {records[0]: 0}
    per_cp = [0] * ncp
    decomp_data = [0]  # offset 0: no decomposition
    decomp_index = {}
    decomp_of = [0] * ncp
    canonical = {}
    names = {}
    for cp in range(ncp):
        f = unicode_data[cp]
        if f is None:
            continue
        flags = qc.get(cp, 0)
        if f[9] == "Y":
            flags |= FLAG["MIRRORED"]
        if not f[1].startswith("<"):
            flags |= FLAG["HAS_NAME"]
            names[cp] = f[1]
        record = (int(f[3]), BIDI.index(f[4]), WIDTHS.index(width.get(cp, "N")), flags)
        if record not in record_index:
            record_index[record] = len(records)
            records.append(record)
        per_cp[cp] = record_index[record]
        if f[5]:
            parts = f[5].split()
            tag = 0
            if parts[0].startswith("<"):
                tag = TAGS.index(parts[0])
                parts = parts[1:]
            seq = [int(x, 16) for x in parts]
            if tag == 0 and len(seq) == 2 and cp not in exclusions:
                canonical[(seq[0], seq[1])] = cp
            key = (tag, tuple(seq))
            if key not in decomp_index:
                decomp_index[key] = len(decomp_data)
                decomp_data.append((tag << 8) | len(seq))
                decomp_data.extend(seq)
            decomp_of[cp] = decomp_index[key]
    compositions = sorted((a, b, c) for (a, b), c in canonical.items())
    cjk = []
    for cp in range(ncp):
        f = unicode_data[cp]
        if f is not None and f[1].startswith("<CJK Ideograph"):
            if cjk and cjk[-1][1] == cp - 1:
                cjk[-1][1] = cp
            else:
                cjk.append([cp, cp])
    jamo_l = [jamo[0x1100 + i] for i in range(LCOUNT)]
    jamo_v = [jamo[0x1161 + i] for i in range(VCOUNT)]
    jamo_t = [""] + [jamo[0x11A8 + i] for i in range(TCOUNT - 1)]
    shift, stage1, stage2 = split_two_stage(per_cp)
    dshift, dstage1, dstage2 = split_two_stage(decomp_of)
    return {
        "records": records, "shift": shift, "stage1": stage1, "stage2": stage2,
        "dshift": dshift, "dstage1": dstage1, "dstage2": dstage2, "decomp": decomp_data,
        "compositions": compositions, "cjk": cjk, "jamo": (jamo_l, jamo_v, jamo_t),
        "names": build_names(names, aliases, sequences),
    }


def build_names(names, aliases, sequences):
    def words_of(cp, name):
        ws = tokens(name)
        if cp is not None and len(ws) >= 2 and ws[-2] == "-" and ws[-1] == "%04X" % cp:
            ws[-1] = None  # the code point in hex
        return ws

    all_words = {}
    split = {}
    entries = [(cp, n) for cp, n in sorted(names.items())]
    entries += [(None, n) for _, n in aliases] + [(None, n) for n, _ in sequences]
    for cp, name in entries:
        ws = words_of(cp, name)
        split[(cp, name)] = ws
        for w in ws:
            if w not in ("-", None):
                all_words[w] = all_words.get(w, 0) + 1
    lexicon = sorted(all_words, key=lambda w: (-all_words[w], w))
    number = {w: i + 2 for i, w in enumerate(lexicon)}
    number["-"] = HYPHEN
    number[None] = HEX
    assert len(number) < 128 + 32768

    def encode(cp, name):
        out = []
        for w in split[(cp, name)]:
            n = number[w]
            if n < 128:
                out.append(n)
            else:
                out += [0x80 | ((n - 128) >> 8), (n - 128) & 0xFF]
        assert len(out) < 256
        return [len(out)] + out

    data = []
    block_offsets = []
    top = max(names)
    for cp in range(0, (top >> NAME_BLOCK_SHIFT) + 1 << NAME_BLOCK_SHIFT):
        if cp & ((1 << NAME_BLOCK_SHIFT) - 1) == 0:
            block_offsets.append(len(data))
        if cp in names:
            data += encode(cp, names[cp])
    block_offsets.append(len(data))
    alias_data, alias_cps = [], []
    for cp, name in aliases:
        alias_cps.append(cp)
        alias_data += encode(None, name)
    seq_data, seq_cps = [], []
    for name, cps in sequences:
        seq_data += encode(None, name)
        seq_cps.append([len(cps)] + cps + [0] * (4 - len(cps)))
    text = []
    word_offsets = []
    for w in lexicon:
        word_offsets.append(len(text))
        text.extend(w)
    word_offsets.append(len(text))
    return {"lexicon": "".join(text), "word_offsets": word_offsets, "data": data,
            "block_offsets": block_offsets, "alias_data": alias_data, "alias_cps": alias_cps,
            "seq_data": seq_data, "seq_cps": seq_cps, "count": len(names)}


def c_string_lines(text, width=96):
    return ["  \"%s\"" % text[i:i + width] for i in range(0, len(text), width)]


def write(out_dir, t, banner, c_type, c_array):
    n = t["names"]
    header = banner + """#ifndef NRT_UNICODE_UCD_TABLES_H
#define NRT_UNICODE_UCD_TABLES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Flags of a unicodedata record. */
%(flags)s

/* Combining class, bidi class (index into nrt_ucd_bidi_names), East Asian width (index into
 * nrt_ucd_width_names) and NRT_UCD_F_* flags of a code point. */
struct nrt_ucd_record {
  uint8_t combining, bidi, width, flags;
};

/* record = nrt_ucd_records[nrt_ucd_stage2[(nrt_ucd_stage1[cp >> SHIFT] << SHIFT) | (cp & MASK)]];
 * decomposition offset (0: none) likewise through nrt_ucd_decomp_stage1/2: at the offset,
 * (tag << 8) | length, then the code points; tag indexes nrt_ucd_decomp_tags (0: canonical). */
#define NRT_UCD_SHIFT %(shift)d
#define NRT_UCD_MASK %(mask)d
#define NRT_UCD_DECOMP_SHIFT %(dshift)d
#define NRT_UCD_DECOMP_MASK %(dmask)d
#define NRT_UCD_COMPOSITION_COUNT %(ncomp)d
#define NRT_UCD_TAG_COUNT %(ntags)d

extern const %(t1)s nrt_ucd_stage1[%(n1)d];
extern const %(t2)s nrt_ucd_stage2[%(n2)d];
extern const struct nrt_ucd_record nrt_ucd_records[%(nrec)d];
extern const %(dt1)s nrt_ucd_decomp_stage1[%(dn1)d];
extern const %(dt2)s nrt_ucd_decomp_stage2[%(dn2)d];
extern const uint32_t nrt_ucd_decomp[%(ndec)d];
extern const char *const nrt_ucd_decomp_tags[%(ntags)d];
extern const char *const nrt_ucd_bidi_names[%(nbidi)d];
extern const char *const nrt_ucd_width_names[%(nwidth)d];
/* The ranges of CJK unified ideographs (first, last), named "CJK UNIFIED IDEOGRAPH-%%04X", and
 * the short names of the Hangul jamo that name a syllable SBASE + (L * 21 + V) * 28 + T. */
#define NRT_UCD_CJK_RANGES %(ncjk)d
extern const uint32_t nrt_ucd_cjk[%(ncjk)d][2];
extern const char *const nrt_ucd_jamo_l[19];
extern const char *const nrt_ucd_jamo_v[21];
extern const char *const nrt_ucd_jamo_t[28];

/* Canonical compositions (first, second, composite), sorted by (first, second); Hangul
 * syllables are composed algorithmically. */
extern const uint32_t nrt_ucd_compositions[%(ncomp)d][3];

/* Names. A name is a length byte and that many bytes of word numbers (n < 128: one byte n;
 * else two bytes 0x80 | (n - 128) >> 8, (n - 128) & 0xFF). Word 0 is a hyphen joining its
 * neighbours, word 1 the code point in hex (%%04X), word k >= 2 is nrt_ucd_lexicon[
 * nrt_ucd_word_offsets[k - 2] .. nrt_ucd_word_offsets[k - 1]); other words are separated by
 * one space. The names of the code points with NRT_UCD_F_HAS_NAME follow each other in code
 * point order, the first of block b (cp >> NRT_UCD_NAME_SHIFT) at nrt_ucd_name_blocks[b]. */
#define NRT_UCD_NAME_SHIFT %(nshift)d
#define NRT_UCD_NAME_BLOCKS %(nblocks)d
#define NRT_UCD_WORD_COUNT %(nwords)d
#define NRT_UCD_ALIAS_COUNT %(nalias)d
#define NRT_UCD_SEQUENCE_COUNT %(nseq)d

extern const char nrt_ucd_lexicon[%(nlex)d];
extern const %(wt)s nrt_ucd_word_offsets[%(nwords1)d];
extern const uint8_t nrt_ucd_names[%(ndata)d];
extern const uint32_t nrt_ucd_name_blocks[%(nblocks1)d];
/* NameAliases.txt (names only lookup() accepts): the names one after the other, the code
 * points in nrt_ucd_alias_cps. NamedSequences.txt likewise: {length, code points}. */
extern const uint8_t nrt_ucd_alias_names[%(nad)d];
extern const uint32_t nrt_ucd_alias_cps[%(nalias)d];
extern const uint8_t nrt_ucd_sequence_names[%(nsd)d];
extern const uint32_t nrt_ucd_sequence_cps[%(nseq)d][5];

#ifdef __cplusplus
}
#endif

#endif /* NRT_UNICODE_UCD_TABLES_H */
""" % {
        "flags": "\n".join("#define NRT_UCD_F_%s 0x%02xu" % (f, FLAG[f]) for f in FLAGS),
        "shift": t["shift"], "mask": (1 << t["shift"]) - 1,
        "dshift": t["dshift"], "dmask": (1 << t["dshift"]) - 1,
        "ncomp": len(t["compositions"]), "ntags": len(TAGS),
        "t1": c_type(t["stage1"]), "n1": len(t["stage1"]),
        "t2": c_type(t["stage2"]), "n2": len(t["stage2"]), "nrec": len(t["records"]),
        "dt1": c_type(t["dstage1"]), "dn1": len(t["dstage1"]),
        "dt2": c_type(t["dstage2"]), "dn2": len(t["dstage2"]), "ndec": len(t["decomp"]),
        "nbidi": len(BIDI), "ncjk": len(t["cjk"]), "nwidth": len(WIDTHS),
        "nshift": NAME_BLOCK_SHIFT, "nblocks": len(n["block_offsets"]) - 1,
        "nblocks1": len(n["block_offsets"]), "nwords": len(n["word_offsets"]) - 1,
        "nwords1": len(n["word_offsets"]), "wt": c_type(n["word_offsets"]),
        "nlex": len(n["lexicon"]) + 1,
        "ndata": len(n["data"]), "nalias": len(n["alias_cps"]), "nseq": len(n["seq_cps"]),
        "nad": len(n["alias_data"]), "nsd": len(n["seq_data"]),
    }
    with open(os.path.join(out_dir, "ucd_tables.h"), "w", encoding="utf-8") as f:
        f.write(header)

    def strings(name, values):
        return "const char *const %s[%d] = {%s};" % (
            name, len(values), ", ".join('"%s"' % v for v in values))

    parts = [banner, '#include "unicode/ucd_tables.h"\n']
    parts.append(c_array("nrt_ucd_stage1", c_type(t["stage1"]), t["stage1"]))
    parts.append(c_array("nrt_ucd_stage2", c_type(t["stage2"]), t["stage2"], per_line=24))
    lines = ["const struct nrt_ucd_record nrt_ucd_records[%d] = {" % len(t["records"])]
    for r in t["records"]:
        lines.append("  {%d, %d, %d, 0x%02x}," % r)
    lines.append("};")
    parts.append("\n".join(lines))
    parts.append(c_array("nrt_ucd_decomp_stage1", c_type(t["dstage1"]), t["dstage1"]))
    parts.append(c_array("nrt_ucd_decomp_stage2", c_type(t["dstage2"]), t["dstage2"],
                         per_line=16))
    parts.append(c_array("nrt_ucd_decomp", "uint32_t", ["0x%x" % v for v in t["decomp"]],
                         per_line=12))
    parts.append(strings("nrt_ucd_decomp_tags", TAGS))
    parts.append(strings("nrt_ucd_bidi_names", BIDI))
    parts.append(strings("nrt_ucd_width_names", WIDTHS))
    parts.append("const uint32_t nrt_ucd_cjk[%d][2] = {%s};" % (
        len(t["cjk"]), ", ".join("{0x%04x, 0x%04x}" % (a, b) for a, b in t["cjk"])))
    for name, values in zip(("nrt_ucd_jamo_l", "nrt_ucd_jamo_v", "nrt_ucd_jamo_t"), t["jamo"]):
        parts.append(strings(name, values))
    lines = ["const uint32_t nrt_ucd_compositions[%d][3] = {" % len(t["compositions"])]
    for a, b, c in t["compositions"]:
        lines.append("  {0x%04x, 0x%04x, 0x%04x}," % (a, b, c))
    lines.append("};")
    parts.append("\n".join(lines))
    parts.append("const char nrt_ucd_lexicon[%d] =\n%s;" % (
        len(n["lexicon"]) + 1, "\n".join(c_string_lines(n["lexicon"]))))
    parts.append(c_array("nrt_ucd_word_offsets", c_type(n["word_offsets"]), n["word_offsets"], per_line=12))
    parts.append(c_array("nrt_ucd_names", "uint8_t", n["data"], per_line=24))
    parts.append(c_array("nrt_ucd_name_blocks", "uint32_t", n["block_offsets"], per_line=12))
    parts.append(c_array("nrt_ucd_alias_names", "uint8_t", n["alias_data"], per_line=24))
    parts.append(c_array("nrt_ucd_alias_cps", "uint32_t", ["0x%04x" % c for c in n["alias_cps"]],
                         per_line=12))
    parts.append(c_array("nrt_ucd_sequence_names", "uint8_t", n["seq_data"], per_line=24))
    lines = ["const uint32_t nrt_ucd_sequence_cps[%d][5] = {" % len(n["seq_cps"])]
    for s in n["seq_cps"]:
        lines.append("  {%s}," % ", ".join("0x%04x" % v for v in s))
    lines.append("};")
    parts.append("\n".join(lines))
    with open(os.path.join(out_dir, "ucd_tables.c"), "w", encoding="utf-8") as f:
        f.write("\n\n".join(parts) + "\n")
    size = sum(len(t[k]) * (1 if c_type(t[k]) == "uint8_t" else 2 if c_type(t[k]) == "uint16_t"
                            else 4) for k in ("stage1", "stage2", "dstage1", "dstage2"))
    size += 4 * len(t["records"]) + 4 * len(t["decomp"]) + 12 * len(t["compositions"])
    size += len(n["lexicon"]) + 2 * len(n["word_offsets"]) + len(n["data"])
    size += 4 * len(n["block_offsets"]) + len(n["alias_data"]) + 4 * len(n["alias_cps"])
    size += len(n["seq_data"]) + 20 * len(n["seq_cps"])
    return ("unicodedata tables: %d records, %d decomposition words, %d compositions, "
            "%d names in %d bytes + %d-word lexicon of %d bytes, %d bytes in all"
            % (len(t["records"]), len(t["decomp"]), len(t["compositions"]), n["count"],
               len(n["data"]), len(n["word_offsets"]) - 1, len(n["lexicon"]), size))

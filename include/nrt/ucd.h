/* nrt ucd: the data of Python's unicodedata module: normalization (NFC, NFD, NFKC, NFKD),
 * combining class, bidi class, mirrored, East Asian width, decomposition mappings and
 * character names, from the tables tools/gen_unicode_tables.py generates from the Unicode
 * Character Database 15.0.0 (Debian's unicode-data). Values follow CPython's unicodedata:
 * an unassigned code point has bidi class "", width "F", combining class 0, no
 * decomposition and no name.
 *
 * Every function is pure (no allocation, no global state). A code point above U+10FFFF is
 * treated as unassigned. */
#ifndef NRT_UCD_H
#define NRT_UCD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Normalization forms. */
enum nrt_uc_form { NRT_UC_NFC, NRT_UC_NFD, NRT_UC_NFKC, NRT_UC_NFKD };

/* The most code points one code point decomposes into (U+FDFA under NFKD). An output buffer
 * of NRT_UC_MAX_EXPANSION * n code points holds any normalization of n code points. */
#define NRT_UC_MAX_EXPANSION 18
/* Buffer sizes that hold any name and any decomposition() text, with the NUL. */
#define NRT_UC_NAME_MAX 128
#define NRT_UC_DECOMPOSITION_MAX 160

/* The form named s[0..len) ("NFC", "NFD", "NFKC", "NFKD"), or -1. */
NRT_API int nrt_uc_form_of(const char *s, size_t len);

/* Quick check of valid UTF-8 s[0..len) (UAX #15): true when s is certainly in `form` (every
 * code point's quick-check value is Yes and combining classes are in canonical order); false
 * when it may not be (then nrt_uc_normalize decides). ASCII text is always true. */
NRT_API bool nrt_uc_quick_check(enum nrt_uc_form form, const char *s, size_t len);

/* Normalizes the n code points in[0..n) to `form` into out (room for cap code points; in and
 * out must not overlap; out may be NULL when cap is 0) and returns the result's length. When
 * the work does not fit in cap, writes nothing useful and returns a capacity that suffices
 * (the length of the full decomposition): call again with that. cap >= NRT_UC_MAX_EXPANSION * n
 * always suffices. */
NRT_API size_t nrt_uc_normalize(enum nrt_uc_form form, const uint32_t *in, size_t n,
                                uint32_t *out, size_t cap);

/* Canonical combining class of cp (0..254). */
NRT_API unsigned nrt_uc_combining(uint32_t cp);

/* Bidi class of cp ("L", "AL", "NSM", ...; "" for unassigned), a static string. */
NRT_API const char *nrt_uc_bidirectional(uint32_t cp);

/* East Asian width of cp ("F", "H", "W", "Na", "A", "N"), a static string. */
NRT_API const char *nrt_uc_east_asian_width(uint32_t cp);

/* Whether cp is a mirrored character in bidi text. */
NRT_API bool nrt_uc_mirrored(uint32_t cp);

/* Writes cp's decomposition mapping as unicodedata.decomposition() gives it ("<compat> 0066
 * 0069", "0065 0301", "" for none; Hangul syllables give "") with a NUL into out (room for
 * NRT_UC_DECOMPOSITION_MAX bytes) and returns its length. */
NRT_API size_t nrt_uc_decomposition(uint32_t cp, char out[NRT_UC_DECOMPOSITION_MAX]);

/* Writes cp's name ("LATIN SMALL LETTER A", "CJK UNIFIED IDEOGRAPH-4E00", "HANGUL SYLLABLE
 * GA") with a NUL into out and returns its length, or 0 when cp has no name (controls,
 * unassigned, private use, surrogates, Tangut ideographs as in CPython 3.11). */
NRT_API size_t nrt_uc_name(uint32_t cp, char out[NRT_UC_NAME_MAX]);

/* The code points named name[0..len), as unicodedata.lookup finds them: a character name
 * (case-insensitive, except the algorithmic "CJK UNIFIED IDEOGRAPH-XXXX" and "HANGUL SYLLABLE
 * ..."), a name alias (NameAliases.txt) or a named sequence (NamedSequences.txt, up to 4
 * code points). Returns the count written to out, or 0 when nothing has that name. */
NRT_API size_t nrt_uc_lookup(const char *name, size_t len, uint32_t out[4]);

#ifdef __cplusplus
}
#endif

#endif /* NRT_UCD_H */

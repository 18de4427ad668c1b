/* nrt str_convert: Python's conversions between str and numbers, format specs, ord/chr and
 * the padding operations (center, ljust, rjust, zfill, expandtabs, removeprefix,
 * removesuffix), with CPython 3.11's exact results and error messages.
 *
 * Follows the conventions block of nrt/str.h:
 * - Kernels take valid UTF-8 (const char *s, int64_t len), never allocate, and write into
 *   caller buffers sized by the matching `_size` query. They compile as C and as C++.
 * - Managed wrappers take `const nrt_str *` inputs and fill an `nrt_str *out` with a new
 *   reference: the input itself (retained) when the result equals it, a static borrowed
 *   view (the empty string, one ASCII character), or one new allocation.
 * - Errors are the Python exception's code from nrt/core.h (NRT_EVALUE, NRT_ETYPE,
 *   NRT_EOVERFLOW) with Python's message in err, or NRT_ENOMEM. Messages longer than
 *   NRT_ERROR_MESSAGE_SIZE - 1 bytes (a very long string quoted in one) are cut at a
 *   character boundary.
 *
 * The one deliberate difference from Python: nrt ints are int64, Python's are unbounded. A
 * valid literal whose value does not fit in int64 gives NRT_EOVERFLOW (OverflowError) where
 * Python would return a big int; chr() of a surrogate (U+D800..U+DFFF, which UTF-8 cannot
 * hold) gives NRT_EVALUE with an nrt message where Python returns a lone surrogate. */
#ifndef NRT_STR_CONVERT_H
#define NRT_STR_CONVERT_H

#include <stdbool.h>
#include <stdint.h>

#include "nrt/core.h"
#include "nrt/str.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ str(int) */

/* Largest output of nrt_str_from_int64_into: "-9223372036854775808". */
#define NRT_STR_INT64_MAX_BYTES 20

/* Bytes of str(v) (decimal, '-' for negatives). */
NRT_API int64_t nrt_str_from_int64_size(int64_t v);
/* Writes str(v) into out (room for nrt_str_from_int64_size(v) bytes, at most
 * NRT_STR_INT64_MAX_BYTES; no NUL) and returns the byte count. */
NRT_API int64_t nrt_str_from_int64_into(int64_t v, char *out);
/* str(v) as a string: a static view for 0..9, else one new allocation. NRT_ENOMEM only. */
NRT_API int nrt_str_from_int64(int64_t v, nrt_str *out, struct nrt_error *err);

/* ------------------------------------------------------------------ int(str) */

/* int(s, base) with Python's rules: surrounding whitespace (ASCII " \t\n\v\f\r" and every
 * non-ASCII str.isspace character, as CPython: U+001C..U+001F are not stripped), one sign,
 * any Unicode decimal digit (Nd) for 0..9, letters for 10..35, single underscores between
 * digits and after a 0x/0o/0b prefix (accepted when it matches the base; base 0 takes the
 * base from the prefix and rejects a nonzero number with a leading 0).
 * base: 0 or 2..36, else NRT_EVALUE "int() base must be >= 2 and <= 36, or 0".
 * On success *out holds the value. Errors (*out untouched):
 *  NRT_EVALUE "invalid literal for int() with base B: 'repr'" (Python's repr, cut to 200
 *  characters as CPython's %.200R), NRT_EVALUE for more than 4300 digits in a base that is
 *  not a power of two (CPython's int_max_str_digits message), NRT_EOVERFLOW for a valid
 *  literal outside int64. s may be NULL when len == 0. */
NRT_API int nrt_str_to_int64(const char *s, int64_t len, int base, int64_t *out,
                             struct nrt_error *err);

/* ------------------------------------------------------------------ float(str) */

/* float(s) with Python's rules: surrounding whitespace as for int(), Unicode decimal digits,
 * single underscores between digits, "inf", "infinity", "nan" in any case with an optional
 * sign; no hexadecimal. Correctly rounded (round-half-even); overflow gives +-inf and
 * underflow +-0 or a subnormal, as Python. NRT_EVALUE "could not convert string to float:
 * 'repr'" otherwise (*out untouched). s may be NULL when len == 0. */
NRT_API int nrt_str_to_double(const char *s, int64_t len, double *out, struct nrt_error *err);

/* ------------------------------------------------------------------ str(float), repr(float) */

/* Largest output of nrt_str_from_double_into: "-2.2250738585072014e-308". */
#define NRT_STR_DOUBLE_MAX_BYTES 24

/* Bytes of repr(v) (== str(v)): the shortest digits that read back as v, fixed notation for
 * decimal exponents -4..15 ("0.0001", "123456789012345.0"), else exponent notation ("1e+16",
 * "1e-05"); "inf", "-inf", "nan", "-0.0". */
NRT_API int64_t nrt_str_from_double_size(double v);
/* Writes repr(v) into out (room for NRT_STR_DOUBLE_MAX_BYTES; no NUL); returns the count. */
NRT_API int64_t nrt_str_from_double_into(double v, char *out);
/* repr(v) as a new string. NRT_ENOMEM only. */
NRT_API int nrt_str_from_double(double v, nrt_str *out, struct nrt_error *err);

/* ------------------------------------------------------------------ repr(str) */

/* Bytes of repr(s) for valid UTF-8 s[0..len) (s may be NULL when len == 0), as CPython 3.11
 * writes it: in ' quotes unless s holds ' and no ", with \\, the quote, \t, \n, \r escaped and
 * non-printable characters as \xXX, \uXXXX or \UXXXXXXXX. At most 4 * len + 2. */
NRT_API int64_t nrt_str_repr_size(const char *s, int64_t len);
/* Writes repr(s) into out (room for nrt_str_repr_size(s, len) bytes; no NUL) and returns the
 * byte count. */
NRT_API int64_t nrt_str_repr_into(const char *s, int64_t len, char *out);

/* ------------------------------------------------------------------ format(value, spec) */

/* The kind of object a format spec is applied to (Python's type name in messages). */
enum nrt_format_kind { NRT_FORMAT_INT = 0, NRT_FORMAT_FLOAT = 1 };

/* A parsed format spec: [[fill]align][sign][z][#][0][width][,|_][.precision][type].
 * Filled by nrt_format_spec_parse; read-only for callers. */
typedef struct nrt_format_spec {
  uint32_t fill;      /* fill code point (default ' ') */
  char align;         /* '<', '>', '^' or '=' */
  char sign;          /* 0, '+', '-' or ' ' */
  char thousands;     /* 0, ',' or '_' */
  char type;          /* 0 (none), or one of b c d n o x X e E f F g G % */
  bool alternate;     /* '#' */
  bool no_neg_0;      /* 'z' */
  bool empty;         /* the spec text was empty: format(x, '') == str(x) */
  int64_t width;      /* -1 when absent */
  int64_t precision;  /* -1 when absent */
} nrt_format_spec;

/* Parses spec[0..len) (valid UTF-8; NULL allowed when len == 0) for an object of `kind` and
 * checks everything Python checks before looking at the value, in Python's order. Errors
 * (NRT_EVALUE with Python's message): "Invalid format specifier 'S' for object of type
 * 'int'", "Format specifier missing precision", "Too many decimal digits in format string",
 * "Cannot specify both ',' and '_'.", "Cannot specify ',' with 'x'.", "Unknown format code
 * 'q' for object of type 'float'", "Precision not allowed in integer format specifier",
 * "Negative zero coercion (z) not allowed in integer format specifier", "Sign not allowed
 * with integer format specifier 'c'", "Alternate form (#) not allowed with integer format
 * specifier 'c'", "precision too big". */
NRT_API int nrt_format_spec_parse(const char *spec, int64_t len, enum nrt_format_kind kind,
                                  nrt_format_spec *out, struct nrt_error *err);

/* format(v, spec) for an int and a spec parsed with NRT_FORMAT_INT. Float presentation
 * types (e f g % ...) convert v to double first, as Python. Sets *size to the output bytes.
 * The only value-dependent error: type 'c' outside 0..0x10FFFF gives NRT_EOVERFLOW "%c arg
 * not in range(0x110000)", and a surrogate gives NRT_EVALUE (not representable in UTF-8). */
NRT_API int nrt_str_format_int_size(int64_t v, const nrt_format_spec *spec, int64_t *size,
                                    struct nrt_error *err);
/* Writes format(v, spec) (after a successful size query) into out; returns the bytes. */
NRT_API int64_t nrt_str_format_int_into(int64_t v, const nrt_format_spec *spec, char *out);

/* format(v, spec) for a float and a spec parsed with NRT_FORMAT_FLOAT (never fails). */
NRT_API int64_t nrt_str_format_float_size(double v, const nrt_format_spec *spec);
NRT_API int64_t nrt_str_format_float_into(double v, const nrt_format_spec *spec, char *out);

/* format(v, spec_text) / f"{v:spec_text}" in one call: parse, size, one allocation.
 * spec may be NULL when spec_len == 0. Errors as above, or NRT_ENOMEM. */
NRT_API int nrt_str_format_int(int64_t v, const char *spec, int64_t spec_len, nrt_str *out,
                               struct nrt_error *err);
NRT_API int nrt_str_format_float(double v, const char *spec, int64_t spec_len, nrt_str *out,
                                 struct nrt_error *err);

/* ------------------------------------------------------------------ ord, chr */

/* ord(s): the code point of a one-character string. NRT_ETYPE "ord() expected a character,
 * but string of length N found" otherwise. */
NRT_API int nrt_str_ord(const char *s, int64_t len, int64_t *out, struct nrt_error *err);

/* chr(cp) into out (room for 4 bytes); returns the byte count, or -1 when cp is not
 * representable (outside 0..0x10FFFF or a surrogate). */
NRT_API int64_t nrt_str_chr_into(int64_t cp, char *out);
/* chr(cp) as a string (a static view for ASCII, else one allocation). Errors: NRT_EOVERFLOW
 * "Python int too large to convert to C int" outside the C int range (as CPython),
 * NRT_EVALUE "chr() arg not in range(0x110000)", NRT_EVALUE "chr() arg is a surrogate
 * (U+D800), which nrt strings (UTF-8) cannot hold" (Python returns a lone surrogate). */
NRT_API int nrt_str_chr(int64_t cp, nrt_str *out, struct nrt_error *err);

/* ------------------------------------------------------------------ padding */

/* Checks a fillchar argument: exactly one character, else NRT_ETYPE "The fill character must
 * be exactly one character long". Stores its code point in *cp. */
NRT_API int nrt_str_fillchar(const char *fill, int64_t fill_len, uint32_t *cp,
                             struct nrt_error *err);

/* s.center(width, fill), s.ljust(...), s.rjust(...): width counts code points; width <= len(s)
 * gives s unchanged. center puts the odd pad character where CPython does
 * (left = marg / 2 + (marg & width & 1)). Size queries return -1 when the result would not
 * fit in int64 bytes. */
NRT_API int64_t nrt_str_center_size(const char *s, int64_t len, int64_t width, uint32_t fill);
NRT_API int64_t nrt_str_center_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                                    char *out);
NRT_API int64_t nrt_str_ljust_size(const char *s, int64_t len, int64_t width, uint32_t fill);
NRT_API int64_t nrt_str_ljust_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                                   char *out);
NRT_API int64_t nrt_str_rjust_size(const char *s, int64_t len, int64_t width, uint32_t fill);
NRT_API int64_t nrt_str_rjust_into(const char *s, int64_t len, int64_t width, uint32_t fill,
                                   char *out);
/* s.zfill(width): zeros on the left, after a leading '+' or '-'. */
NRT_API int64_t nrt_str_zfill_size(const char *s, int64_t len, int64_t width);
NRT_API int64_t nrt_str_zfill_into(const char *s, int64_t len, int64_t width, char *out);
/* s.expandtabs(tabsize): each tab becomes spaces up to the next multiple of tabsize (column
 * counted in code points, reset after '\n' and '\r'); tabsize <= 0 removes tabs. Returns -1
 * when the result would not fit in int64 bytes. */
NRT_API int64_t nrt_str_expandtabs_size(const char *s, int64_t len, int64_t tabsize);
NRT_API int64_t nrt_str_expandtabs_into(const char *s, int64_t len, int64_t tabsize,
                                        char *out);
/* s.removeprefix(p) / s.removesuffix(p): the byte length of the result, which is s without
 * the affix when s has it (a non-empty one), else s. removeprefix's result starts at
 * s + len - result; removesuffix's at s. */
NRT_API int64_t nrt_str_removeprefix_size(const char *s, int64_t len, const char *prefix,
                                          int64_t prefix_len);
NRT_API int64_t nrt_str_removesuffix_size(const char *s, int64_t len, const char *suffix,
                                          int64_t suffix_len);

/* Managed forms. fill == NULL means ' '. Errors: the fillchar TypeError, NRT_EOVERFLOW
 * "padded string is too long" / "result too long" when the size query fails, NRT_EOVERFLOW
 * "Python int too large to convert to C int" for a tabsize outside the C int range (as
 * CPython), NRT_ENOMEM. */
NRT_API int nrt_str_center(const nrt_str *s, int64_t width, const nrt_str *fill, nrt_str *out,
                           struct nrt_error *err);
NRT_API int nrt_str_ljust(const nrt_str *s, int64_t width, const nrt_str *fill, nrt_str *out,
                          struct nrt_error *err);
NRT_API int nrt_str_rjust(const nrt_str *s, int64_t width, const nrt_str *fill, nrt_str *out,
                          struct nrt_error *err);
NRT_API int nrt_str_zfill(const nrt_str *s, int64_t width, nrt_str *out, struct nrt_error *err);
NRT_API int nrt_str_expandtabs(const nrt_str *s, int64_t tabsize, nrt_str *out,
                               struct nrt_error *err);
NRT_API int nrt_str_removeprefix(const nrt_str *s, const nrt_str *prefix, nrt_str *out,
                                 struct nrt_error *err);
NRT_API int nrt_str_removesuffix(const nrt_str *s, const nrt_str *suffix, nrt_str *out,
                                 struct nrt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NRT_STR_CONVERT_H */

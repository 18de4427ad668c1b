/* Compile errors of str.format and %-formatting on a literal format string: the errors CPython
 * raises on every call for such a string are reported at compile time with CPython's exception
 * and message; the forms nrt cannot run are "unsupported: ..." errors. Exact message, line,
 * column and status; nothing leaks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/check.h"
#include "udf/ast_arena.h"
#include "udf/front.h"
#include "udf/front_cases.h"

#define VAL NRT_EVALUE
#define IDX NRT_EINDEX

#define F(body) "def f(s):\n    return " body "\n"

static const bad cases[] = {
    /* widths and precisions far beyond the limit (once an int64 overflow in the parser) */
    {F("'%88888888888888888888888s' % s"), UNS, 2, 12,
     "unsupported: a %-formatting width or precision this large"},
    {F("'%.99999999999999999999999s' % s"), UNS, 2, 12,
     "unsupported: a %-formatting width or precision this large"},
    /* str.format: CPython's run-time errors for the literal */
    {F("'{2}'.format(s)"), IDX, 2, 12,
     "str.format raises IndexError: Replacement index 2 out of range for positional args tuple"},
    {F("'{}{}'.format(s)"), IDX, 2, 12,
     "str.format raises IndexError: Replacement index 1 out of range for positional args tuple"},
    {F("'{x}'.format(s, y=s)"), IDX, 2, 12, "str.format raises KeyError: 'x'"},
    {F("'{0}{}'.format(s, s)"), VAL, 2, 12,
     "str.format raises ValueError: cannot switch from manual field specification to automatic "
     "field numbering"},
    {F("'{}{0}'.format(s, s)"), VAL, 2, 12,
     "str.format raises ValueError: cannot switch from automatic field numbering to manual "
     "field specification"},
    {F("'{'.format(s)"), VAL, 2, 12,
     "str.format raises ValueError: Single '{' encountered in format string"},
    {F("'a}b'.format(s)"), VAL, 2, 12,
     "str.format raises ValueError: Single '}' encountered in format string"},
    {F("'{0'.format(s)"), VAL, 2, 12,
     "str.format raises ValueError: expected '}' before end of string"},
    {F("'{!x}'.format(s)"), VAL, 2, 12,
     "str.format raises ValueError: Unknown conversion specifier x"},
    {F("'{!rr}'.format(s)"), VAL, 2, 12,
     "str.format raises ValueError: expected ':' after conversion specifier"},
    {F("'{:{:{}}}'.format(s, 1, 2)"), VAL, 2, 12,
     "str.format raises ValueError: Max string recursion exceeded"},
    /* str.format: what nrt does not run */
    {F("s.format(s)"), UNS, 2, 12,
     "unsupported: str.format on a format string that is not a literal"},
    {F("'{0.real}'.format(s)"), UNS, 2, 12,
     "unsupported: attribute or index lookup in a str.format field ('0.real')"},
    {F("'{0[1]}'.format(s)"), UNS, 2, 12,
     "unsupported: attribute or index lookup in a str.format field ('0[1]')"},
    {F("'{:{}}'.format(s, len(s))"), UNS, 2, 12,
     "unsupported: a nested replacement field in a format spec whose argument is not an int or "
     "str literal"},
    {F("'{}'.format({s})"), UNS, 2, 24,
     "unsupported: formatting a set (CPython's order depends on the string hash seed; sort it "
     "first: sorted(s))"},
    /* %-formatting: CPython's errors for the literal and the argument types */
    {F("'%s %s' % s"), TYP, 2, 12,
     "%-formatting raises TypeError: not enough arguments for format string"},
    {F("'%s' % (s, s)"), TYP, 2, 12,
     "%-formatting raises TypeError: not all arguments converted during string formatting"},
    {F("'abc' % s"), TYP, 2, 12,
     "%-formatting raises TypeError: not all arguments converted during string formatting"},
    {F("'%(a)s' % s"), TYP, 2, 12, "%-formatting raises TypeError: format requires a mapping"},
    {F("'%' % s"), VAL, 2, 12, "%-formatting raises ValueError: incomplete format"},
    {F("'%5' % s"), VAL, 2, 12, "%-formatting raises ValueError: incomplete format"},
    {F("'ab%q' % s"), VAL, 2, 12,
     "%-formatting raises ValueError: unsupported format character 'q' (0x71) at index 3"},
    {F("'é%ü' % s"), VAL, 2, 12,
     "%-formatting raises ValueError: unsupported format character '?' (0xfc) at index 2"},
    {F("'%5%' % s"), VAL, 2, 12,
     "%-formatting raises ValueError: unsupported format character '%' (0x25) at index 2"},
    {F("'%q' % ()"), TYP, 2, 12,
     "%-formatting raises TypeError: not enough arguments for format string"},
    {F("'%*d' % (1.5, 2)"), TYP, 2, 12, "%-formatting raises TypeError: * wants int"},
    {F("'%i' % None"), TYP, 2, 12,
     "%-formatting raises TypeError: %i format: a real number is required, not NoneType"},
    {F("'%g' % None"), TYP, 2, 12,
     "%-formatting raises TypeError: must be real number, not NoneType"},
    {F("'{:>5}'.format(None)"), TYP, 2, 12,
     "formatting raises TypeError: unsupported format string passed to NoneType.__format__"},
    {F("'%d' % s"), TYP, 2, 19,
     "%-formatting raises TypeError: %d format: a real number is required, not str"},
    {F("'%x' % s"), TYP, 2, 19,
     "%-formatting raises TypeError: %x format: an integer is required, not str"},
    {F("'%x' % (len(s) / 2)"), TYP, 2, 20,
     "%-formatting raises TypeError: %x format: an integer is required, not float"},
    {F("'%f' % s"), TYP, 2, 19, "%-formatting raises TypeError: must be real number, not str"},
    {F("'%c' % 'ab'"), TYP, 2, 12, "%-formatting raises TypeError: %c requires int or char"},
    {F("'%c' % 1114112"), NRT_EOVERFLOW, 2, 12,
     "%-formatting raises OverflowError: %c arg not in range(0x110000)"},
    /* %-formatting: what nrt does not run */
    {F("s % s"), UNS, 2, 12,
     "unsupported: %-formatting with a format string that is not a literal"},
    {F("'%c' % s"), UNS, 2, 12,
     "unsupported: %c of a value that is not a literal (use chr() and %s)"},
    {F("'%*s' % (len(s), s)"), UNS, 2, 12,
     "unsupported: a '*' width or precision in %-formatting whose argument is not an int "
     "literal"},
    {F("'%.3d' % len(s)"), UNS, 2, 12,
     "unsupported: a precision with an integer conversion in %-formatting"},
    {F("'%s' % {s}"), UNS, 2, 19,
     "unsupported: formatting a set (CPython's order depends on the string hash seed; sort it "
     "first: sorted(s))"},
    /* repr() and ascii() */
    {F("format()"), TYP, 2, 12, "format expected at least 1 argument, got 0"},
    {F("format(s, '', 1)"), TYP, 2, 12, "format expected at most 2 arguments, got 3"},
    {F("format(s, format_spec='x')"), TYP, 2, 12, "format() takes no keyword arguments"},
    {F("format(s, 5)"), TYP, 2, 22, "format() argument 2 must be str, not int"},
    {F("format(s, s)"), UNS, 2, 22, "unsupported: format() with a spec that is not a literal"},
    {F("format(None, 'x')"), TYP, 2, 12,
     "unsupported format string passed to NoneType.__format__"},
    {F("repr()"), TYP, 2, 12, "repr() takes exactly one argument (0 given)"},
    {F("ascii(s, s)"), TYP, 2, 12, "ascii() takes exactly one argument (2 given)"},
    {F("repr(obj=s)"), TYP, 2, 12, "repr() takes no keyword arguments"},
};

/* Allocation failure in the desugaring: every failing allocation gives NRT_ENOMEM (or the
 * program's own error), nothing leaks. */
static const char *trial_src;
static int trial_want;
static int trial(void *ctx) {
  (void)ctx;
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *m = NULL;
  int rc = udf_front_compile(trial_src, strlen(trial_src), "t.py", NULL, pt, 1, &m, NULL, NULL);
  CHECK(rc == trial_want || rc == NRT_ENOMEM);
  if (m) udf_module_free(m);
  CHECK(rc == NRT_OK || m == NULL);
  return rc == trial_want ? NRT_OK : rc;
}

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_format: %d bad programs diagnosed exactly\n", n);
  { /* 257 fields: past the f-string's limit */
    static char src[2048];
    int k = snprintf(src, sizeof src, "def f(s):\n    return '");
    for (int i = 0; i < 257; i++) k += snprintf(src + k, sizeof src - (size_t)k, "{0}");
    snprintf(src + k, sizeof src - (size_t)k, "'.format(s)\n");
    bad b = {src, UNS, 2, 12, "unsupported: a format string of more than 256 parts"};
    n += check_bad(&b, "case", 999);
  }
  udf_arena_chunk_size = getenv("NRT_UNDER_VALGRIND") ? 256 : 1;
  trial_src = "def f(s):\n    a = '{0}|{1!r:>{w}}|{n:.2f}|{{}}'.format(s, s, w=5, n=len(s) / 3)\n"
              "    b = '%-5s|%+05d|%.3e|%c|%*s|%%' % (s, len(s), 1.5, 65, 3, s)\n"
              "    c = '{1}{0}{1}'.format(s.upper(), len(s), s.strip())\n"
              "    return a + b + c + repr(s) + ascii(len(s)) + format(s, '>3') + '%s' % None\n";
  trial_want = NRT_OK;
  check_every_allocation_failure("format program", trial, NULL);
  trial_src = "def f(s):\n    return '{}-{x}'.format(s, y=1)\n";
  trial_want = NRT_EINDEX;
  check_every_allocation_failure("KeyError program", trial, NULL);
  trial_src = "def f(s):\n    return '%d %s' % (len(s), s, s)\n";
  trial_want = NRT_ETYPE;
  check_every_allocation_failure("% count program", trial, NULL);
  return check_finish("test_front_format");
}

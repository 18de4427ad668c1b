/* Diagnostics of the unicodedata module (imports.c, types_ucd.c): members nrt does not
 * support, CPython's TypeErrors for arguments of the wrong type or number (at compile time:
 * the types are static), and defaults whose type is not the result's. Nothing may leak on any
 * error path. What works is covered by e2e_oracle_unicodedata.py. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

#define PRE "import unicodedata\ndef f(s):\n    return "

static const bad cases[] = {
    {PRE "unicodedata.ucd_3_2_0.normalize('NFC', s)\n", UNS, 3, 24,
     "unsupported: unicodedata.ucd_3_2_0"},
    {"from unicodedata import normalize, UCD\ndef f(s):\n    return s\n", UNS, 1, 36,
     "unsupported: unicodedata.UCD"},
    {PRE "unicodedata.digit(s, None)\n", UNS, 3, 33,
     "unsupported: unicodedata.digit() with a default of type NoneType (the default must be an "
     "int, the type of the result)"},
    {PRE "unicodedata.name(s, 0)\n", UNS, 3, 32,
     "unsupported: unicodedata.name() with a default of type int (the default must be a str, "
     "the type of the result)"},
    {PRE "unicodedata.numeric(s, -1)\n", UNS, 3, 35,
     "unsupported: unicodedata.numeric() with a default of type int (the default must be a "
     "float, the type of the result, e.g. -1.0)"},
    {PRE "unicodedata.decimal(s, 0.5)\n", UNS, 3, 35,
     "unsupported: unicodedata.decimal() with a default of type float (the default must be an "
     "int, the type of the result)"},
    {PRE "unicodedata.category(1)\n", TYP, 3, 33,
     "category() argument must be a unicode character, not int"},
    {PRE "unicodedata.name(len(s))\n", TYP, 3, 29,
     "name() argument 1 must be a unicode character, not int"},
    {PRE "unicodedata.normalize('NFC', 5)\n", TYP, 3, 41,
     "normalize() argument 2 must be str, not int"},
    {PRE "unicodedata.is_normalized(1.5, s)\n", TYP, 3, 38,
     "is_normalized() argument 1 must be str, not float"},
    {PRE "unicodedata.lookup(5)\n", TYP, 3, 31, "a bytes-like object is required, not 'int'"},
    {PRE "unicodedata.category()\n", TYP, 3, 12,
     "unicodedata.category() takes exactly one argument (0 given)"},
    {PRE "unicodedata.lookup(s, s)\n", TYP, 3, 12,
     "unicodedata.lookup() takes exactly one argument (2 given)"},
    {PRE "unicodedata.name()\n", TYP, 3, 12, "name expected at least 1 argument, got 0"},
    {PRE "unicodedata.digit(s, 1, 2)\n", TYP, 3, 12, "digit expected at most 2 arguments, got 3"},
    {PRE "unicodedata.normalize('NFC')\n", TYP, 3, 12, "normalize expected 2 arguments, got 1"},
    {PRE "unicodedata.name(s, default='')\n", TYP, 3, 32,
     "unicodedata.name() takes no keyword arguments"},
    {"import unicodedata\ndef f(s):\n    g = unicodedata.normalize\n    return s\n", UNS, 3, 9,
     "unsupported: functions as values ('unicodedata.normalize')"},
    {"import unicodedata\ndef f(s):\n    return unicodedata\n", UNS, 3, 12,
     "unsupported: a module as a value ('unicodedata')"},
    {"import unicodedata.x\ndef f(s):\n    return s\n", UNS, 1, 8,
     "unsupported: import unicodedata... (the importable modules are math, re, string and "
     "unicodedata)"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_unicodedata: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_unicodedata");
}

/* Diagnostics of bad programs: exact message, line and column, status code, and the formatted
 * `file:line:column: message` text with the quoted line and caret. Syntax-error messages and
 * locations are CPython 3.11's (checked by hand against `compile()`); type errors use Python's
 * TypeError texts where Python has one. Nothing may leak on any error path. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

static const bad syntax[] = {
    {"def f(s)\n    return s\n", SYN, 1, 9, "expected ':'"},
    {"def f(s):\nreturn s\n", SYN, 2, 1,
     "expected an indented block after function definition on line 1"},
    {"def f(s):\n    if s\n        return s\n", SYN, 2, 9, "expected ':'"},
    {"def f(s):\n    x = (1 +\n    return x\n", SYN, 2, 9, "'(' was never closed"},
    {"def f(s):\n    return s +\n", SYN, 2, 15, "invalid syntax"},
    {"def f(s):\n    if s:\n        return 1\n      return 2\n", SYN, 4, 15,
     "unindent does not match any outer indentation level"},
    {"def f(s):\n    return 'abc\n", SYN, 2, 12, "unterminated string literal (detected at line 2)"},
    {"def f(s):\n    return s\n  x = 1\n", SYN, 3, 8,
     "unindent does not match any outer indentation level"},
    {"def f(s):\n    x ++\n", SYN, 2, 9, "invalid syntax"},
    {"def f(s):\n    1 = s\n", SYN, 2, 5,
     "cannot assign to literal here. Maybe you meant '==' instead of '='?"},
    {"def f(s):\n    f() = s\n", SYN, 2, 5,
     "cannot assign to function call here. Maybe you meant '==' instead of '='?"},
    {"def f(s):\n    None = s\n", SYN, 2, 5, "cannot assign to None"},
    {"def f(s):\n    x = 5 if s\n", SYN, 2, 9, "expected 'else' after 'if' expression"},
    {"def f(s):\n    return f'{}'\n", SYN, 2, 15, "f-string: empty expression not allowed"},
    {"def f(s):\n    return f'{s!z}'\n", SYN, 2, 17,
     "f-string: invalid conversion character: expected 's', 'r', or 'a'"},
    {"def f(s):\n    return f'}'\n", SYN, 2, 14, "f-string: single '}' is not allowed"},
    {"def f(s):\n    return f'{s'\n", SYN, 2, 14, "f-string: expecting '}'"},
    {"def f(s):\n    return f'{s#}'\n", SYN, 2, 16, "f-string expression part cannot include '#'"},
    {"def f(a=1, b):\n    return a\n", SYN, 1, 12, "non-default argument follows default argument"},
    {"def f(s):\n    return g(a=1, s)\n", SYN, 2, 19, "positional argument follows keyword argument"},
    {"def f(s):\n    print 'x'\n", SYN, 2, 5,
     "Missing parentheses in call to 'print'. Did you mean print(...)?"},
    {"def f(s):\n    for 1 in s:\n        pass\n", SYN, 2, 9, "cannot assign to literal"},
    {"def f(s):\n    s += 1 = 2\n", SYN, 2, 12, "invalid syntax"},
    {"def f(s):\n    1 += s\n", SYN, 2, 5,
     "'literal' is an illegal expression for augmented assignment"},
    {"def f(s):\n    return 0777\n", SYN, 2, 12,
     "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal "
     "integers"},
    {"def f(s):\n    while s:\n    pass\n", SYN, 3, 5,
     "expected an indented block after 'while' statement on line 2"},
    {"def f(s):\n    return s]\n", SYN, 2, 13, "unmatched ']'"},
    {"def f(s):\n    return (s]\n", SYN, 2, 14,
     "closing parenthesis ']' does not match opening parenthesis '('"},
    {"def f(s):\n    else:\n        pass\n", SYN, 2, 5, "invalid syntax"},
    {"def f(s):\n    x = [1, 2\n    return x\n", SYN, 2, 9, "'[' was never closed"},
    {"def f(s, s):\n    return s\n", SYN, 1, 10, "duplicate argument 's' in function definition"},
    {"def f(s):\n    break\n", SYN, 2, 5, "'break' outside loop"},
    {"def f(s):\n    continue\n", SYN, 2, 5, "'continue' not properly in loop"},
    {"  def f(s):\n    return s\n", SYN, 1, 3, "unexpected indent"},
    {"def f(s):\n    return s\n        x = 1\n", SYN, 3, 9, "unexpected indent"},
    {"def f(s):\n    if s:\n\treturn s\n        return s\n", SYN, 3, 1,
     "inconsistent use of tabs and spaces in indentation"},
    {"def f(s):\n    return '\\x4'\n", SYN, 2, 12,
     "(unicode error) 'unicodeescape' codec can't decode bytes in position 0-2: truncated \\xXX "
     "escape"},
    {"def f(s):\n    return '\xff'\n", SYN, 2, 13,
     "(unicode error) 'utf-8' codec can't decode byte 0xff in position 22"},
    {"\n", SYN, 2, 1, "no function: a UDF module needs a def or a lambda"},
};

static const bad semantic[] = {
    {"def f(s):\n    return t\n", TYP, 2, 12, "name 't' is not defined"},
    {"def f(s):\n    return s + 1\n", TYP, 2, 12, "can only concatenate str (not \"int\") to str"},
    {"def f(s):\n    return len(s) + s\n", TYP, 2, 12,
     "unsupported operand type(s) for +: 'int' and 'str'"},
    {"def f(s):\n    return s - s\n", TYP, 2, 12, "unsupported operand type(s) for -: 'str' and 'str'"},
    {"def f(s):\n    return s * 1.5\n", TYP, 2, 12, "can't multiply sequence by non-int of type 'float'"},
    {"def f(s):\n    return -s\n", TYP, 2, 12, "bad operand type for unary -: 'str'"},
    {"def f(s):\n    return s < 1\n", TYP, 2, 12, "'<' not supported between instances of 'str' and 'int'"},
    {"def f(s):\n    return 1 in s\n", TYP, 2, 12, "'in <string>' requires string as left operand, not int"},
    {"def f(s):\n    x = 1\n    x = 'a'\n    return x\n", TYP, 3, 5,
     "variable 'x' has type int; cannot assign a value of type str (a variable keeps one type)"},
    {"def f(s):\n    x = 1\n    x /= 2\n    return x\n", TYP, 3, 5,
     "variable 'x' has type int; '/=' would make it float (a variable keeps one type)"},
    {"def f(s):\n    return s.foo()\n", TYP, 2, 12, "'str' object has no attribute 'foo'"},
    {"def f(s):\n    return s.format(1)\n", UNS, 2, 12, "unsupported: str.format on a format string that is not a literal"},
    {"def f(s):\n    return s.find(1)\n", TYP, 2, 19, "find() argument 1 must be str, not int"},
    {"def f(s):\n    return s.upper(1)\n", TYP, 2, 12, "str.upper() takes no arguments (1 given)"},
    {"def f(s):\n    return s.replace('a')\n", TYP, 2, 12, "replace expected at least 2 arguments, got 1"},
    {"def f(s):\n    return s.zfill()\n", TYP, 2, 12, "str.zfill() takes exactly one argument (0 given)"},
    {"def f(s):\n    return s.split(x=1)\n", TYP, 2, 20, "'x' is an invalid keyword argument for split()"},
    {"def f(s):\n    return s.center('x')\n", TYP, 2, 21, "'str' object cannot be interpreted as an integer"},
    {"def f(s):\n    return s.startswith(1)\n", TYP, 2, 25,
     "startswith first arg must be str or a tuple of str, not int"},
    {"def f(s):\n    return s.find('a', 'b')\n", TYP, 2, 24,
     "slice indices must be integers or None or have an __index__ method"},
    {"def f(s):\n    return s.strip(1)\n", TYP, 2, 20, "strip arg must be None or str"},
    {"def f(s):\n    return s.upper(x=1)\n", TYP, 2, 20, "str.upper() takes no keyword arguments"},
    {"def f(s):\n    return f(s)\n", UNS, 2, 12,
     "unsupported: recursive call to 'f' before its result type is known (return a value in a "
     "base case first)"},
    {"def g(s):\n    return f(s)\ndef f(s):\n    return g(s)\n", UNS, 2, 12,
     "unsupported: recursive call to 'f' before its result type is known (return a value in a "
     "base case first)"},
    {"def f(s):\n    if s:\n        return 1\n    return 'a'\n", UNS, 4, 5,
     "unsupported: function 'f' returns int (line 3) and str here; a function returns one type "
     "(or None)"},
    {"def f(s):\n    return len(1)\n", TYP, 2, 12, "object of type 'int' has no len()"},
    {"def f(s):\n    return ord(1)\n", TYP, 2, 16, "ord() expected string of length 1, but int found"},
    {"def f(s):\n    return chr(s)\n", TYP, 2, 16, "'str' object cannot be interpreted as an integer"},
    {"def f(s):\n    return abs(s)\n", TYP, 2, 16, "bad operand type for abs(): 'str'"},
    {"def f(s):\n    return int(1.5, 2)\n", TYP, 2, 12, "int() can't convert non-string with explicit base"},
    {"def f(s):\n    return min()\n", TYP, 2, 12, "min expected at least 1 argument, got 0"},
    {"def f(s):\n    return min(1)\n", TYP, 2, 16, "'int' object is not iterable"},
    {"def f(s):\n    return min(1, 2.0)\n", UNS, 2, 19,
     "unsupported: min() of int and float (the result type would depend on the values)"},
    {"def f(s):\n    x = s if s else None\n    return x + 'a'\n", TYP, 3, 12,
     "unsupported operand type(s) for +: 'NoneType' and 'str'"},
    {"def f(s):\n    x = s if s else None\n    return x.upper()\n", TYP, 3, 12,
     "calling a method of a value of type str | None that may be None; such a value can only be "
     "returned, assigned or tested with 'is None'"},
    {"def f(s):\n    for c in 5:\n        pass\n    return s\n", TYP, 2, 14, "'int' object is not iterable"},
    {"def f(s):\n    x = [[1]]\n    return s\n", UNS, 2, 10,
     "unsupported: lists of list (only lists of str, int, float or bool)"},
    {"def f(s):\n    return ''.join([len(c) for c in s])\n", UNS, 2, 20,
     "unsupported: joining a list of int (TypeError: sequence item 0: expected str instance, "
     "int found)"},
    {"def g(a, b):\n    return a\ndef f(s):\n    return g(s)\n", TYP, 4, 12,
     "g() missing 1 required positional argument: 'b'"},
    {"def g(a):\n    return a\ndef f(s):\n    return g(s, s)\n", TYP, 4, 12,
     "g() takes 1 positional argument but 2 were given"},
    {"def g(a):\n    return a\ndef f(s):\n    return g(b=s)\n", TYP, 4, 14,
     "g() got an unexpected keyword argument 'b'"},
    {"def g(a):\n    return a\ndef f(s):\n    x = g(s)\n    return g(len(s))\n", TYP, 5, 14,
     "argument 'a' of g() is int here but str at its first call (a parameter keeps one type)"},
    {"def f(s):\n    print(s)\n", UNS, 2, 5, "unsupported: built-in function 'print'"},
    {"def f(s):\n    return s()\n", TYP, 2, 12, "'str' object is not callable"},
    {"def f(s):\n    a, b = s.partition(':')\n    return a\n", NRT_EVALUE, 2, 5,
     "too many values to unpack (expected 2)"},
    {"def f(s):\n    a, b = s, s, s\n    return a\n", NRT_EVALUE, 2, 5,
     "too many values to unpack (expected 2)"},
    {"class A:\n    pass\n", UNS, 1, 1, "unsupported: class definitions"},
    {"import json\ndef f(s):\n    return s\n", UNS, 1, 8,
     "unsupported: import json (the importable modules are math, re, string and unicodedata)"},
    {"print(1)\ndef f(s):\n    return s\n", UNS, 1, 1,
     "unsupported: statements outside a function (a UDF module holds only defs, or a single "
     "lambda)"},
    {"def f(s):\n    try:\n        pass\n    except* ValueError:\n        pass\n", UNS, 4, 11,
     "unsupported: exception groups (except*)"},
    {"def f(s):\n    raise ValueError('a') from None\n", UNS, 2, 27,
     "unsupported: raise ... from ..."},
    {"def f(s):\n    raise LookupError('k')\n", UNS, 2, 11,
     "unsupported: raising LookupError (raise ValueError, TypeError, IndexError, KeyError, "
     "ZeroDivisionError, OverflowError, RuntimeError, MemoryError or UnboundLocalError)"},
    {"def f(s):\n    try:\n        pass\n    except MyError:\n        pass\n", UNS, 4, 12,
     "unsupported: exception class 'MyError' (only built-in exceptions such as ValueError, "
     "TypeError, IndexError, ZeroDivisionError, OverflowError, Exception)"},
    {"def f(s):\n    try:\n        pass\n    except s.E:\n        pass\n", UNS, 4, 12,
     "unsupported: an except clause naming something other than a built-in exception class"},
    {"def f(s):\n    raise\n", UNS, 2, 5, "unsupported: a bare 'raise' outside an except clause"},
    {"def f(s):\n    raise MyError('x')\n", UNS, 2, 11,
     "unsupported: raising something other than a built-in exception class"},
    {"def f(s):\n    try:\n        return s\n    except ValueError as e:\n        return e\n", UNS,
     5, 16, "unsupported: using the exception 'e' other than as str(e) or in an f-string field {e}"},
    {"def f(s):\n    raise ValueError(1)\n", UNS, 2, 22,
     "unsupported: an exception argument of type int (pass a str, e.g. str(x) or an f-string)"},
    {"def f(s):\n try:\n  try:\n   try:\n    try:\n     try:\n      try:\n       try:\n        try:\n"
     "         try:\n          pass\n         finally:\n          pass\n"
     "        finally:\n         pass\n       finally:\n        pass\n      finally:\n       pass\n"
     "     finally:\n      pass\n    finally:\n     pass\n   finally:\n    pass\n  finally:\n   pass\n"
     " finally:\n  pass\n", UNS, 10, 10, "unsupported: try statements nested more than 8 deep"},
    {"def f(s):\n    raise ValueError('a', 'b')\n", UNS, 2, 11,
     "unsupported: an exception with keyword arguments or more than one argument"},
    {"def f(s):\n    try:\n        pass\n    except:\n        pass\n    except ValueError:\n"
     "        pass\n", SYN, 4, 5, "default 'except:' must be last"},
    {"def f(s):\n    with s:\n        pass\n", UNS, 2, 5, "unsupported: with statements"},
    {"def f(s):\n    global x\n", UNS, 2, 5,
     "unsupported: global statements (a UDF keeps no state across rows)"},
    {"def f(s):\n    return (lambda: 1)\n", UNS, 2, 13, "unsupported: lambda inside an expression"},
    {"def f(s):\n    return {}\n", UNS, 2, 5,
     "unsupported: returning a dict (a UDF returns str, int, float, bool, a list or a tuple)"},
    {"def f(s):\n    return 1 & 2\n", UNS, 2, 12, "unsupported: operator '&'"},
    {"def f(s):\n    return s % s\n", UNS, 2, 12, "unsupported: %-formatting with a format string that is not a literal"},
    {"def f(s):\n    return len(s)[0]\n", TYP, 2, 12, "'int' object is not subscriptable"},
    {"def f(s):\n    return s['a']\n", TYP, 2, 14, "string indices must be integers, not 'str'"},
    {"def f(s):\n    return s.split()['a']\n", TYP, 2, 22, "list indices must be integers or slices, not str"},
    {"def f(s):\n    x := 1\n    return s\n", SYN, 2, 7, "invalid syntax"}, /* := needs parentheses */
    {"def f(s):\n    def g(t):\n        return t\n    return g\n", UNS, 4, 12,
     "unsupported: functions as values ('g')"},
    {"@dec\ndef f(s):\n    return s\n", UNS, 1, 1, "unsupported: decorators"},
    {"def f(s):\n    return s.upper\n", UNS, 2, 12,
     "unsupported: attribute 'upper' used as a value (only method calls)"},
    {"def f(s):\n    return s.split().index('x', 1)\n", UNS, 2, 12,
     "unsupported: list.index() with start or stop"},
    {"def f(s):\n    x = range(3)\n    return s\n", UNS, 2, 5,
     "unsupported: a range stored in a variable (use range() directly in a for loop)"},
    {"def f(s):\n    return s == 1\n", UNS, 2, 12,
     "unsupported: comparing str with int using '==' (always False in Python)"},
    {"def f(s):\n    return s if s else 1\n", UNS, 2, 12,
     "unsupported: conditional expression with branches of types str and int (its value would be "
     "of either type)"},
    {"def f(s):\n    return s or 1\n", UNS, 2, 17,
     "unsupported: 'or' with operands of types str and int (its value would be of either type)"},
    {"def f(s):\n    return (s, len(s))\n", UNS, 2, 12,
     "unsupported: returning a tuple of mixed types (a function may return a tuple of str, "
     "the UDF itself also a tuple of int, of float or of bool)"},
    {"def f(s):\n    return (s, 1) if s else None\n", UNS, 2, 12,
     "unsupported: returning a tuple of mixed types (a function may return a tuple of str, "
     "the UDF itself also a tuple of int, of float or of bool)"},
    {"def f(s):\n    return None if s else (1, 2.5)\n", UNS, 2, 27,
     "unsupported: returning a tuple of mixed types (a function may return a tuple of str, "
     "the UDF itself also a tuple of int, of float or of bool)"},
    {"def f(s):\n    return list(s, s)\n", TYP, 2, 12, "list expected at most 1 argument, got 2"},
    {"def f(s):\n    return f'{s.split() if s else None}'\n", TYP, 2, 15,
     "formatting a value of type list | None that may be None; such a value can only be "
     "returned, assigned or tested with 'is None'"},
    {"def f(s):\n    return 9223372036854775808\n", UNS, 2, 12,
     "unsupported: integer literal out of the 64-bit range"},
    {"def f(s):\n    return map(s)\n", UNS, 2, 12, "unsupported: built-in function 'map'"},
    {"def f(s):\n    return len(c for c in s)\n", TYP, 2, 12, "object of type 'generator' has no len()"},
    {"def f(s):\n    return (c for c in s)[0]\n", TYP, 2, 12, "'generator' object is not subscriptable"},
    {"def f(s):\n    g = (c for c in s)\n    return s\n", UNS, 2, 9,
     "unsupported: storing a generator (use a list comprehension [...])"},
    {"def f(s):\n    return s if (c for c in s) else s\n", UNS, 2, 17,
     "unsupported: the truth value of a generator"},
    {"def f(s):\n    return str.upper(s)\n", UNS, 2, 12,
     "unsupported: calling a method through its type (write s.upper(...))"},
    {"def f(s):\n    return s is 'a'\n", UNS, 2, 12, "unsupported: 'is' comparisons other than with None"},
    {"lambda s: s\ndef f(s):\n    return s\n", UNS, 1, 1,
     "unsupported: a lambda next to other functions (a module is defs, or a single lambda)"},
    {"def f(s):\n    return s\ndef f(s):\n    return s\n", UNS, 3, 1,
     "unsupported: function 'f' defined twice"},
};

/* Chains parse iteratively but make deep trees: bounded, never a stack overflow. */
static void test_deep(void) {
  static char src[16384]; /* chains of 2,000 to 4,000 links */
  const char *parts[] = {" + a", ".upper()", "[0]", " if a else a"};
  for (int k = 0; k < 4; k++) {
    size_t n = (size_t)snprintf(src, sizeof src, "def f(a):\n    return a");
    while (n + 16 < sizeof src) {
      memcpy(src + n, parts[k], strlen(parts[k]));
      n += strlen(parts[k]);
    }
    src[n] = '\0';
    udf_type pt[1] = {UDF_TY_STR};
    udf_module *m;
    udf_diag d;
    struct check_live before = check_live_now();
    int rc = udf_front_compile(src, n, "t.py", NULL, pt, 1, &m, &d, NULL);
    /* a chain of `x if a else x if ...` nests through the parser's own recursion limit */
    CHECK(rc == NRT_EUNSUPPORTED || rc == NRT_EPARSE);
    CHECK(strstr(d.message, "nested") != NULL);
    CHECK_EQ_INT(d.line, 2);
    CHECK_NO_LEAK(before);
  }
  /* 900 levels are fine */
  size_t n = (size_t)snprintf(src, sizeof src, "def f(a):\n    return a");
  for (int i = 0; i < 900; i++) n += (size_t)snprintf(src + n, sizeof src - n, " + a");
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *m = NULL;
  CHECK_EQ_INT(udf_front_compile(src, n, "t.py", NULL, pt, 1, &m, NULL, NULL), NRT_OK);
  udf_module_free(m);
}

static void test_formatted(void) {
  const char *src = "def f(s):\n    return t\n";
  udf_type pt[1] = {UDF_TY_STR};
  udf_module *m;
  struct nrt_error err;
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "u.py", NULL, pt, 1, &m, NULL, &err), TYP);
  CHECK_EQ_STR(err.message,
               "u.py:2:12: name 't' is not defined\n        return t\n               ^");
  /* tabs in the quoted line are kept under the caret, so it lines up */
  src = "def f(s):\n\treturn\tt\n";
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), NULL, NULL, pt, 1, &m, NULL, &err), TYP);
  CHECK_EQ_STR(err.message, "<udf>:2:9: name 't' is not defined\n    \treturn\tt\n    \t      \t^");
  /* columns count code points */
  src = "def f(s):\n    return '\xc3\xa9\xc3\xa9' + u\n";
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "x", NULL, pt, 1, &m, NULL, &err), TYP);
  CHECK_EQ_STR(err.message,
               "x:2:19: name 'u' is not defined\n        return '\xc3\xa9\xc3\xa9' + u\n"
               "                      ^");
  /* a bad request: entry or column count */
  udf_diag d;
  src = "def f(s):\n    return s\n";
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "x", "g", pt, 1, &m, &d, &err), NRT_EINVAL);
  CHECK_EQ_STR(d.message, "no function named 'g' in the UDF");
  udf_type two[2] = {UDF_TY_STR, UDF_TY_STR};
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "x", NULL, two, 2, &m, &d, &err), NRT_EINVAL);
  CHECK_EQ_STR(d.message, "function 'f' takes 1 parameter but the input has 2 columns");
  CHECK_EQ_INT(d.line, 1);
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "x", NULL, NULL, 1, &m, &d, &err), NRT_EINVAL);
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "x", NULL, pt, 1, NULL, &d, &err), NRT_EINVAL);
  udf_type none[1] = {UDF_TY_LIST_STR};
  CHECK_EQ_INT(udf_front_compile(src, strlen(src), "x", NULL, none, 1, &m, &d, &err), NRT_EINVAL);
  /* NULL diag and err are allowed */
  CHECK_EQ_INT(udf_front_compile("def", 3, NULL, NULL, pt, 1, &m, NULL, NULL), SYN);
}

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof syntax / sizeof syntax[0]; i++) n += check_bad(&syntax[i], "syntax", i);
  for (size_t i = 0; i < sizeof semantic / sizeof semantic[0]; i++)
    n += check_bad(&semantic[i], "semantic", i);
  printf("test_front_errors: %d bad programs diagnosed exactly\n", n);
  test_formatted();
  test_deep();
  return check_finish("test_front_errors");
}

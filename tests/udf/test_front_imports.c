/* Diagnostics of imports (imports.h): every module or member outside the supported set is a
 * compile error naming it, with its line and column; misuses of imported names too. Nothing
 * may leak on any error path. The supported members are covered by e2e_oracle_imports.py. */
#include <stdio.h>
#include <string.h>

#include "support/check.h"
#include "udf/front.h"
#include "udf/front_cases.h"

static const bad cases[] = {
    {"import os\ndef f(s):\n    return s\n", UNS, 1, 8,
     "unsupported: import os (the importable modules are math, re, string and unicodedata)"},
    {"def f(s):\n    import os.path\n    return s\n", UNS, 2, 12,
     "unsupported: import os... (the importable modules are math, re, string and unicodedata)"},
    {"def f(s):\n    import math.x\n    return s\n", UNS, 2, 12,
     "unsupported: import math... (the importable modules are math, re, string and unicodedata)"},
    {"from json import loads\ndef f(s):\n    return s\n", UNS, 1, 6,
     "unsupported: import json (the importable modules are math, re, string and unicodedata)"},
    {"import math\ndef f(s):\n    return math.gamma(len(s))\n", UNS, 3, 17,
     "unsupported: math.gamma"},
    {"from math import floor, gamma\ndef f(s):\n    return s\n", UNS, 1, 25,
     "unsupported: math.gamma"},
    {"import string\ndef f(s):\n    return string.capwords(s)\n", UNS, 3, 19,
     "unsupported: string.capwords"},
    {"from math import *\ndef f(s):\n    return s\n", UNS, 1, 18,
     "unsupported: from ... import *"},
    {"import math\ndef f(s):\n    return math\n", UNS, 3, 12,
     "unsupported: a module as a value ('math')"},
    {"import math\ndef f(s):\n    g = math.floor\n    return s\n", UNS, 3, 9,
     "unsupported: functions as values ('math.floor')"},
    {"from math import floor\ndef f(s):\n    floor = 1\n    return s\n", UNS, 3, 5,
     "unsupported: assignment to an imported name"},
    {"from math import e\ndef f(e):\n    return e\n", UNS, 2, 7,
     "unsupported: a variable named as an imported name ('e')"},
    {"from math import pi\ndef f(s):\n    return [pi for pi in s]\n", UNS, 3, 20,
     "unsupported: a variable named as an imported name ('pi')"},
    {"import math\ndef f(s):\n    return math.sqrt(s)\n", TYP, 3, 22,
     "must be real number, not str"},
    {"import math\ndef f(s):\n    return math.floor(1, 2)\n", TYP, 3, 12,
     "math.floor() takes exactly one argument (2 given)"},
    {"import math\ndef f(s):\n    return math.pow(1.0)\n", TYP, 3, 12,
     "pow expected 2 arguments, got 1"},
    {"import math\ndef f(s):\n    return math.log(1.0, 2.0, 3.0)\n", TYP, 3, 12,
     "log expected at most 2 arguments, got 3"},
    {"import math\ndef f(s):\n    return math.sqrt(x=1.0)\n", TYP, 3, 22,
     "math.sqrt() takes no keyword arguments"},
    {"def g(s):\n    import math\n    return s\ndef f(s):\n    return math.floor(1.5)\n", TYP, 5,
     12, "name 'math' is not defined"},
    {"import math as\ndef f(s):\n    return s\n", SYN, 1, 15, "invalid syntax"},
};

int main(void) {
  int n = 0;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) n += check_bad(&cases[i], "case", i);
  printf("test_front_imports: %d bad programs diagnosed exactly\n", n);
  return check_finish("test_front_imports");
}

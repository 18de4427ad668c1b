/* Importable modules and their members (see imports.h). */
#include "udf/imports.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "unicode/unicode_tables.h" /* NRT_UC_UCD_VERSION */

static const char *const modules[] = {"math", "string", "re", "unicodedata", NULL};

/* unicodedata's functions (types_ucd.c) and its one constant: nrt's data version, which is
 * Unicode 15.0.0 (CPython 3.11's is 14.0.0). */
static const char *const ucd_funcs[] = {
    "unicodedata.category", "unicodedata.bidirectional", "unicodedata.east_asian_width",
    "unicodedata.decomposition", "unicodedata.name", "unicodedata.lookup",
    "unicodedata.normalize", "unicodedata.decimal", "unicodedata.digit",
    "unicodedata.combining", "unicodedata.mirrored", "unicodedata.is_normalized",
    "unicodedata.numeric", NULL};

/* string's constants, as CPython defines them. */
static const struct {
  const char *name, *value;
} string_consts[] = {
    {"ascii_lowercase", "abcdefghijklmnopqrstuvwxyz"},
    {"ascii_uppercase", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
    {"ascii_letters", "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"},
    {"digits", "0123456789"},
    {"hexdigits", "0123456789abcdefABCDEF"},
    {"octdigits", "01234567"},
    {"punctuation", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"},
    {"whitespace", " \t\n\r\v\f"},
    {"printable", "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                  "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \t\n\r\v\f"},
};

static const struct {
  const char *name;
  double value;
} math_consts[] = {
    {"pi", 3.141592653589793}, {"e", 2.718281828459045}, {"tau", 6.283185307179586},
    {"inf", INFINITY}, {"nan", NAN},
};

/* The math functions the checker knows (types.c, check_builtin), by their dotted name. */
static const char *const math_funcs[] = {
    "math.floor", "math.ceil", "math.trunc", "math.sqrt", "math.isnan", "math.isinf",
    "math.isfinite", "math.fabs", "math.exp", "math.log", "math.log2", "math.log10",
    "math.pow", NULL};

const char *udf_import_module(const char *text, size_t len) {
  for (int i = 0; modules[i]; i++)
    if (strlen(modules[i]) == len && memcmp(modules[i], text, len) == 0) return modules[i];
  return NULL;
}

const udf_import *udf_import_find(const udf_imports *im, const char *name, size_t len) {
  for (int i = im->n - 1; i >= 0; i--)
    if (strlen(im->v[i].alias) == len && memcmp(im->v[i].alias, name, len) == 0)
      return &im->v[i];
  return NULL;
}

/* re's flags (Python's values) and the functions the checker knows (types_re.c). */
static const struct {
  const char *name;
  int value;
} re_flags[] = {{"I", 2},        {"IGNORECASE", 2}, {"M", 8},       {"MULTILINE", 8},
                {"S", 16},       {"DOTALL", 16},    {"X", 64},      {"VERBOSE", 64},
                {"A", 256},      {"ASCII", 256},    {"U", 32},      {"UNICODE", 32},
                {"L", 4},        {"LOCALE", 4},     {"NOFLAG", 0}};
static const char *const re_funcs[] = {
    "re.match", "re.search", "re.fullmatch", "re.sub", "re.subn", "re.split", "re.findall",
    "re.finditer", "re.escape", "re.compile", "re.purge", "re.template", NULL};

const char *udf_import_resolve(udf_expr *e, const char *module, const char *member,
                               char *buf, size_t bufsize) {
  if (strcmp(module, "re") == 0) {
    for (size_t i = 0; i < sizeof re_flags / sizeof re_flags[0]; i++)
      if (strcmp(re_flags[i].name, member) == 0) {
        e->kind = UDF_E_INT;
        e->u.ival = re_flags[i].value;
        return NULL;
      }
    for (int i = 0; re_funcs[i]; i++)
      if (strcmp(re_funcs[i] + 3, member) == 0) {
        e->kind = UDF_E_NAME;
        e->u.name.id = re_funcs[i];
        return NULL;
      }
  } else if (strcmp(module, "unicodedata") == 0) {
    if (strcmp(member, "unidata_version") == 0) {
      e->kind = UDF_E_STR;
      e->u.str.data = NRT_UC_UCD_VERSION;
      e->u.str.len = (int64_t)strlen(NRT_UC_UCD_VERSION);
      return NULL;
    }
    for (int i = 0; ucd_funcs[i]; i++)
      if (strcmp(ucd_funcs[i] + 12, member) == 0) {
        e->kind = UDF_E_NAME;
        e->u.name.id = ucd_funcs[i];
        return NULL;
      }
  } else if (strcmp(module, "string") == 0) {
    for (size_t i = 0; i < sizeof string_consts / sizeof string_consts[0]; i++)
      if (strcmp(string_consts[i].name, member) == 0) {
        e->kind = UDF_E_STR;
        e->u.str.data = string_consts[i].value;
        e->u.str.len = (int64_t)strlen(string_consts[i].value);
        return NULL;
      }
  } else {
    for (size_t i = 0; i < sizeof math_consts / sizeof math_consts[0]; i++)
      if (strcmp(math_consts[i].name, member) == 0) {
        e->kind = UDF_E_FLOAT;
        e->u.fval = math_consts[i].value;
        return NULL;
      }
    for (int i = 0; math_funcs[i]; i++)
      if (strcmp(math_funcs[i] + 5, member) == 0) {
        e->kind = UDF_E_NAME;
        e->u.name.id = math_funcs[i];
        return NULL;
      }
  }
  snprintf(buf, bufsize, "%s.%s", module, member);
  return buf;
}

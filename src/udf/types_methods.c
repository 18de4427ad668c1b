/* The one table of str methods the UDF language supports, with their argument rules. */
#include <string.h>

#include "udf/types.h"

#define S UDF_SLOT_STR
#define SN UDF_SLOT_STR_OR_NONE
#define I UDF_SLOT_INT
#define IN UDF_SLOT_INT_OR_NONE

static const udf_method_info methods[] = {
    {"upper", UDF_M_UPPER, 0, 0, {0}, {0}, UDF_TY_STR},
    {"lower", UDF_M_LOWER, 0, 0, {0}, {0}, UDF_TY_STR},
    {"casefold", UDF_M_CASEFOLD, 0, 0, {0}, {0}, UDF_TY_STR},
    {"capitalize", UDF_M_CAPITALIZE, 0, 0, {0}, {0}, UDF_TY_STR},
    {"title", UDF_M_TITLE, 0, 0, {0}, {0}, UDF_TY_STR},
    {"swapcase", UDF_M_SWAPCASE, 0, 0, {0}, {0}, UDF_TY_STR},
    {"isalpha", UDF_M_ISALPHA, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isalnum", UDF_M_ISALNUM, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isdecimal", UDF_M_ISDECIMAL, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isdigit", UDF_M_ISDIGIT, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isnumeric", UDF_M_ISNUMERIC, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isspace", UDF_M_ISSPACE, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isupper", UDF_M_ISUPPER, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"islower", UDF_M_ISLOWER, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"istitle", UDF_M_ISTITLE, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isascii", UDF_M_ISASCII, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isidentifier", UDF_M_ISIDENTIFIER, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"isprintable", UDF_M_ISPRINTABLE, 0, 0, {0}, {0}, UDF_TY_BOOL},
    {"find", UDF_M_FIND, 1, 3, {S, IN, IN}, {0}, UDF_TY_INT},
    {"rfind", UDF_M_RFIND, 1, 3, {S, IN, IN}, {0}, UDF_TY_INT},
    {"index", UDF_M_INDEX, 1, 3, {S, IN, IN}, {0}, UDF_TY_INT},
    {"rindex", UDF_M_RINDEX, 1, 3, {S, IN, IN}, {0}, UDF_TY_INT},
    {"count", UDF_M_COUNT, 1, 3, {S, IN, IN}, {0}, UDF_TY_INT},
    {"startswith", UDF_M_STARTSWITH, 1, 3, {UDF_SLOT_PREFIX, IN, IN}, {0}, UDF_TY_BOOL},
    {"endswith", UDF_M_ENDSWITH, 1, 3, {UDF_SLOT_PREFIX, IN, IN}, {0}, UDF_TY_BOOL},
    {"replace", UDF_M_REPLACE, 2, 3, {S, S, I}, {0}, UDF_TY_STR},
    {"strip", UDF_M_STRIP, 0, 1, {SN}, {0}, UDF_TY_STR},
    {"lstrip", UDF_M_LSTRIP, 0, 1, {SN}, {0}, UDF_TY_STR},
    {"rstrip", UDF_M_RSTRIP, 0, 1, {SN}, {0}, UDF_TY_STR},
    {"split", UDF_M_SPLIT, 0, 2, {SN, I}, {"sep", "maxsplit"}, UDF_TY_LIST_STR},
    {"rsplit", UDF_M_RSPLIT, 0, 2, {SN, I}, {"sep", "maxsplit"}, UDF_TY_LIST_STR},
    {"splitlines", UDF_M_SPLITLINES, 0, 1, {UDF_SLOT_TRUTH}, {"keepends"}, UDF_TY_LIST_STR},
    {"partition", UDF_M_PARTITION, 1, 1, {S}, {0}, UDF_TY_TUPLE_STR},
    {"rpartition", UDF_M_RPARTITION, 1, 1, {S}, {0}, UDF_TY_TUPLE_STR},
    {"join", UDF_M_JOIN, 1, 1, {UDF_SLOT_ITERABLE}, {0}, UDF_TY_STR},
    {"center", UDF_M_CENTER, 1, 2, {I, S}, {0}, UDF_TY_STR},
    {"ljust", UDF_M_LJUST, 1, 2, {I, S}, {0}, UDF_TY_STR},
    {"rjust", UDF_M_RJUST, 1, 2, {I, S}, {0}, UDF_TY_STR},
    {"zfill", UDF_M_ZFILL, 1, 1, {I}, {0}, UDF_TY_STR},
    {"expandtabs", UDF_M_EXPANDTABS, 0, 1, {I}, {"tabsize"}, UDF_TY_STR},
    {"removeprefix", UDF_M_REMOVEPREFIX, 1, 1, {S}, {0}, UDF_TY_STR},
    {"removesuffix", UDF_M_REMOVESUFFIX, 1, 1, {S}, {0}, UDF_TY_STR},
};

const udf_method_info *udf_method_lookup(const char *name) {
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (strcmp(methods[i].name, name) == 0) return &methods[i];
  return NULL;
}

const char *udf_method_name(udf_method m) {
  for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++)
    if (methods[i].id == m) return methods[i].name;
  return NULL;
}

static bool in_list(const char *const *list, const char *name) {
  for (; *list; list++)
    if (strcmp(*list, name) == 0) return true;
  return false;
}

bool udf_method_is_unsupported_str_method(const char *name) {
  static const char *const others[] = {"encode", "format", "format_map", "maketrans",
                                       "translate", NULL};
  return in_list(others, name);
}

bool udf_builtin_is_unsupported(const char *name) {
  static const char *const others[] = {
      "print", "sorted", "reversed", "enumerate", "zip", "sum", "any", "all", "tuple",
      "dict", "set", "frozenset", "map", "filter", "round", "isinstance",
      "issubclass", "type", "hex", "oct", "bin", "divmod", "pow",
      "hash", "id", "input", "open", "iter", "next", "getattr", "setattr", "hasattr",
      "delattr", "vars", "dir", "callable", "super", "object", "bytes", "bytearray",
      "complex", "slice", "globals", "locals", "eval", "exec", "compile", "memoryview",
      "property", "staticmethod", "classmethod", "breakpoint", "help", "__import__",
      "aiter", "anext", NULL};
  return in_list(others, name);
}

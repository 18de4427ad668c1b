/* The exception classes of exceptions.h. */
#include <string.h>

#include "nrt/core.h"
#include "udf/exceptions.h"

static const int statuses[UDF_EXC_COUNT] = {NRT_EVALUE,    NRT_EILSEQ,   NRT_EINDEX,
                                            NRT_EOVERFLOW, NRT_EZERODIV, NRT_ETYPE,
                                            NRT_EUNBOUND,  NRT_ELIMIT,   NRT_EKEY,
                                            NRT_ERUNTIME,  NRT_ERECURSION};

static const struct {
  const char *name;
  uint32_t catches;
  int raise_code;
} classes[] = {
    {"BaseException", UDF_EXC_ALL, 0},
    {"Exception", UDF_EXC_ALL, 0},
    {"ArithmeticError", UDF_EXC_OVERFLOW | UDF_EXC_ZERODIV, 0},
    {"LookupError", UDF_EXC_INDEX | UDF_EXC_KEY, 0},
    {"ValueError", UDF_EXC_VALUE | UDF_EXC_UNICODE, NRT_EVALUE},
    {"UnicodeError", UDF_EXC_UNICODE, 0},
    {"UnicodeDecodeError", UDF_EXC_UNICODE, 0},
    {"UnicodeEncodeError", 0, 0},
    {"TypeError", UDF_EXC_TYPE, NRT_ETYPE},
    {"IndexError", UDF_EXC_INDEX, NRT_EINDEX},
    {"KeyError", UDF_EXC_KEY, NRT_EKEY},
    {"RuntimeError", UDF_EXC_RUNTIME | UDF_EXC_RECURSION, NRT_ERUNTIME},
    {"ZeroDivisionError", UDF_EXC_ZERODIV, NRT_EZERODIV},
    {"OverflowError", UDF_EXC_OVERFLOW, NRT_EOVERFLOW},
    {"NameError", UDF_EXC_UNBOUND, 0},
    {"UnboundLocalError", UDF_EXC_UNBOUND, NRT_EUNBOUND},
    {"MemoryError", UDF_EXC_MEMORY, NRT_ELIMIT},
    {"RecursionError", UDF_EXC_RECURSION, NRT_ERECURSION},
};

bool udf_exc_class(const char *name, uint32_t *catches, int *raise_code) {
  for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
    if (strcmp(classes[i].name, name) == 0) {
      *catches = classes[i].catches;
      *raise_code = classes[i].raise_code;
      return true;
    }
  return false;
}

int udf_exc_status(int i) { return i >= 0 && i < UDF_EXC_COUNT ? statuses[i] : 0; }

/* The built-in exception classes a UDF can name in `except` and `raise`, mapped onto the
 * status codes the runtime raises (nrt/core.h), with CPython's hierarchy. */
#ifndef NRT_UDF_EXCEPTIONS_H
#define NRT_UDF_EXCEPTIONS_H

#include <stdbool.h>
#include <stdint.h>

/* One bit per status code that is a Python exception. */
enum {
  UDF_EXC_VALUE = 1u << 0,    /* NRT_EVALUE: ValueError */
  UDF_EXC_UNICODE = 1u << 1,  /* NRT_EILSEQ: UnicodeDecodeError (a ValueError) */
  UDF_EXC_INDEX = 1u << 2,    /* NRT_EINDEX: IndexError */
  UDF_EXC_OVERFLOW = 1u << 3, /* NRT_EOVERFLOW: OverflowError */
  UDF_EXC_ZERODIV = 1u << 4,  /* NRT_EZERODIV: ZeroDivisionError */
  UDF_EXC_TYPE = 1u << 5,     /* NRT_ETYPE: TypeError */
  UDF_EXC_UNBOUND = 1u << 6,  /* NRT_EUNBOUND: UnboundLocalError */
  UDF_EXC_MEMORY = 1u << 7,   /* NRT_ELIMIT: MemoryError from a size limit */
  UDF_EXC_KEY = 1u << 8,      /* NRT_EKEY: KeyError */
  UDF_EXC_RUNTIME = 1u << 9,  /* NRT_ERUNTIME: RuntimeError */
  UDF_EXC_RECURSION = 1u << 10, /* NRT_ERECURSION: RecursionError (a RuntimeError) */
  UDF_EXC_COUNT = 11,
  UDF_EXC_ALL = (1u << 11) - 1
};

/* The class named `name`: the bits it catches (0 for a class nothing in a UDF raises, such
 * as UnicodeEncodeError) and in *raise_code the status `raise name(...)` gives (0: not raisable here,
 * e.g. an abstract base such as LookupError). False for a name that is no such class. */
bool udf_exc_class(const char *name, uint32_t *catches, int *raise_code);

/* The status code of bit index i (0 <= i < UDF_EXC_COUNT). */
int udf_exc_status(int i);

#endif

/* The CPython extension module nrt._nrt: shared declarations of its source files.
 *
 * Written against the limited API of CPython 3.11 (abi3), over libnrt's public headers only.
 * The Python layer (python/nrt/) turns inputs and outputs into the user's families (pandas,
 * Polars, pyarrow, lists); this module does everything that touches native memory. */
#ifndef PYNRT_H
#define PYNRT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include "nrt/column.h"
#include "nrt/column_arrow.h"
#include "nrt/core.h"
#include "nrt/udf.h"

/* Module state: the types and the exception this module made (heap types, abi3). */
typedef struct pynrt_state {
  PyTypeObject *column_type;
  PyTypeObject *buffer_type;
  PyTypeObject *compiled_type;
  PyObject *native_error; /* _nrt.NativeError(code, message[, row]) */
} pynrt_state;

/* The state of the imported module (set once at import). */
extern pynrt_state *pynrt_global;

/* A column held by Python: owns one reference to col. rows_unchecked: a UDF input imported
 * with its per-row checks left to the apply (input_column()); anything else that reads its
 * rows goes through pynrt_column_checked first. */
typedef struct pynrt_column {
  PyObject_HEAD
  nrt_column *col;
  int rows_unchecked;
} pynrt_column;

/* Raises NativeError(code, message) from an nrt error (MemoryError for NRT_ENOMEM). Returns
 * NULL. */
PyObject *pynrt_raise(const struct nrt_error *err);

/* Wraps a column (takes over the caller's reference; releases it on failure). */
PyObject *pynrt_column_wrap(nrt_column *col);

/* A column from any supported input (see column_import.c); *out owns a reference. Returns 0,
 * or -1 with a Python exception set. */
int pynrt_column_from_object(PyObject *obj, nrt_column **out);

/* The column of a Column object whose rows may be read: a column with rows_unchecked is
 * validated whole first (on every core). NULL with an exception (NativeError naming the bad
 * row) when it is not sound. */
nrt_column *pynrt_column_checked(PyObject *obj);

/* input_column(obj) -> Column: a UDF's input. A string array is imported with every check
 * but the per-row ones, which the apply runs chunk by chunk (validate_inputs) while the bytes
 * are in cache for the UDF; other inputs are imported as Column(obj). */
PyObject *pynrt_input_column(PyObject *self, PyObject *obj);

/* A column of n rows all holding the Python scalar `value` (str, int, float, bool, None). */
int pynrt_column_broadcast(PyObject *value, int64_t n, nrt_column **out);

/* Python objects for one row of a column (a new reference; None for a null row). */
PyObject *pynrt_row_object(const nrt_column *col, int64_t i);

/* Type specs and module-level functions of each file, registered by module.c. */
extern PyType_Spec pynrt_column_spec;
extern PyType_Spec pynrt_buffer_spec;
extern PyType_Spec pynrt_compiled_spec;
PyObject *pynrt_compile(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *pynrt_llvm_ir(PyObject *self, PyObject *args, PyObject *kwargs);

#endif

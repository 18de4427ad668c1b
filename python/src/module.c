/* nrt._nrt: module definition, errors and the runtime statistics. */
#include "pynrt.h"

pynrt_state *pynrt_global;
static pynrt_state state;

PyObject *pynrt_raise(const struct nrt_error *err) {
  if (err->code == NRT_ENOMEM)
    return PyErr_NoMemory();
  PyObject *args = Py_BuildValue("(is)", err->code, err->message);
  if (args) {
    PyErr_SetObject(pynrt_global->native_error, args);
    Py_DECREF(args);
  }
  return NULL;
}

static int put_u64(PyObject *d, const char *key, uint64_t v) {
  PyObject *o = PyLong_FromUnsignedLongLong(v);
  int rc = o ? PyDict_SetItemString(d, key, o) : -1;
  Py_XDECREF(o);
  return rc;
}

/* stats() -> dict: the runtime's counters since the process started. */
static PyObject *stats(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  struct nrt_stats s;
  nrt_stats_get(&s);
  PyObject *d = PyDict_New();
  if (!d)
    return NULL;
  if (put_u64(d, "alloc", s.alloc) || put_u64(d, "free", s.free) ||
      put_u64(d, "mi_alloc", s.mi_alloc) || put_u64(d, "mi_free", s.mi_free) ||
      put_u64(d, "bytes_alloc", s.bytes_alloc) || put_u64(d, "bytes_free", s.bytes_free) ||
      put_u64(d, "live_bytes", nrt_stats_live_bytes()) ||
      put_u64(d, "live_meminfos", nrt_stats_live_meminfos()) ||
      put_u64(d, "cached_bytes", nrt_memory_cached())) {
    Py_DECREF(d);
    return NULL;
  }
  return d;
}

/* release_memory(): frees the large freed blocks kept for reuse (nrt_memory_cached). */
static PyObject *release_memory(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  nrt_memory_release_cached();
  Py_RETURN_NONE;
}

static PyObject *cores(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyLong_FromLong(nrt_exec_cores());
}

/* status_name(code) -> the exception or error name nrt gives a status code. */
static PyObject *status_name(PyObject *self, PyObject *arg) {
  (void)self;
  long code = PyLong_AsLong(arg);
  if (code == -1 && PyErr_Occurred())
    return NULL;
  return PyUnicode_FromString(nrt_status_name((int)code));
}

/* broadcast(value, n) -> a Column of n rows all holding the scalar value. */
static PyObject *broadcast(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *value;
  long long n;
  if (!PyArg_ParseTuple(args, "OL:broadcast", &value, &n))
    return NULL;
  if (n < 0) {
    PyErr_SetString(PyExc_ValueError, "broadcast: negative length");
    return NULL;
  }
  nrt_column *col;
  if (pynrt_column_broadcast(value, n, &col) < 0)
    return NULL;
  return pynrt_column_wrap(col);
}

static PyMethodDef methods[] = {
    {"broadcast", broadcast, METH_VARARGS, "broadcast(value, n) -> Column"},
    {"input_column", pynrt_input_column, METH_O,
     "input_column(obj) -> Column: a UDF input, its strings' per-row checks left to apply"},
    {"stats", stats, METH_NOARGS, "Runtime statistics as a dict."},
    {"release_memory", release_memory, METH_NOARGS,
     "Frees the large freed buffers kept for reuse."},
    {"cores", cores, METH_NOARGS, "Cores this process may run on."},
    {"status_name", status_name, METH_O, "Name of an nrt status code."},
    {"compile", (PyCFunction)(void (*)(void))pynrt_compile, METH_VARARGS | METH_KEYWORDS,
     "compile(source, func, kinds, filename) -> Compiled"},
    {"llvm_ir", (PyCFunction)(void (*)(void))pynrt_llvm_ir, METH_VARARGS | METH_KEYWORDS,
     "llvm_ir(source, func, kinds, filename) -> str: the IR before and after pruning"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_nrt",
                                    "Native core of the nrt package.", -1, methods,
                                    NULL, NULL, NULL, NULL};

static int add_type(PyObject *m, PyType_Spec *spec, PyTypeObject **slot) {
  PyObject *t = PyType_FromSpec(spec);
  if (!t)
    return -1;
  *slot = (PyTypeObject *)t;
  const char *dot = strrchr(spec->name, '.');
  Py_INCREF(t);
  if (PyModule_AddObject(m, dot ? dot + 1 : spec->name, t) < 0) {
    Py_DECREF(t);
    return -1;
  }
  return 0;
}

PyMODINIT_FUNC PyInit__nrt(void);
PyMODINIT_FUNC PyInit__nrt(void) {
  PyObject *m = PyModule_Create(&module);
  if (!m)
    return NULL;
  pynrt_global = &state;
  if (add_type(m, &pynrt_column_spec, &state.column_type) ||
      add_type(m, &pynrt_buffer_spec, &state.buffer_type) ||
      add_type(m, &pynrt_compiled_spec, &state.compiled_type))
    goto fail;
  state.native_error = PyErr_NewException("nrt._nrt.NativeError", PyExc_Exception, NULL);
  if (!state.native_error)
    goto fail;
  Py_INCREF(state.native_error);
  if (PyModule_AddObject(m, "NativeError", state.native_error) < 0) {
    Py_DECREF(state.native_error);
    goto fail;
  }
  if (PyModule_AddStringConstant(m, "version", NRT_PY_VERSION) < 0)
    goto fail;
  return m;
fail:
  Py_DECREF(m);
  return NULL;
}

/* nrt._ipc: columns handed between processes through shared memory (nrt/ipc.h), for
 * python/nrt/ipc.py. A module of its own in the same shared object as nrt._nrt (PyInit__ipc;
 * ipc.py loads it with an ExtensionFileLoader on _nrt's file), so nothing in module.c needs to
 * know about it. Columns are nrt._nrt.Column objects, so _nrt must be imported first. */
#include "pynrt.h"

#include <stdlib.h>

#include "nrt/ipc.h"

static PyObject *raise(const struct nrt_error *err) {
  return pynrt_raise(err);
}

static nrt_column *column_of(PyObject *obj) {
  if (!pynrt_global || !PyObject_TypeCheck(obj, pynrt_global->column_type)) {
    PyErr_SetString(PyExc_TypeError, "nrt.ipc: expected an nrt.Column");
    return NULL;
  }
  return pynrt_column_checked(obj);
}

/* init(namespace=None, max_bytes=0, collect_interval_ms=0, transit_timeout_ms=0,
 *      segment_size=0) */
static PyObject *ipc_init(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kw[] = {"namespace", "max_bytes", "collect_interval_ms", "transit_timeout_ms",
                       "segment_size", NULL};
  const char *ns = NULL;
  unsigned long long max_bytes = 0, segment_size = 0;
  unsigned int interval = 0, timeout = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|zKIIK:init", kw, &ns, &max_bytes, &interval,
                                   &timeout, &segment_size))
    return NULL;
  struct nrt_ipc_options o = {ns, max_bytes, interval, timeout, segment_size};
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_ipc_init(&o, &err);
  Py_END_ALLOW_THREADS
  if (rc)
    return raise(&err);
  Py_RETURN_NONE;
}

static PyObject *ipc_shutdown(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  Py_BEGIN_ALLOW_THREADS
  nrt_ipc_shutdown();
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

/* export_column(col) -> bytes: a handle (buffers not yet shared are copied once). */
static PyObject *ipc_export_column(PyObject *self, PyObject *obj) {
  (void)self;
  nrt_column *col = column_of(obj);
  if (!col)
    return NULL;
  size_t cap = nrt_ipc_column_handle_size(col), len = 0;
  char *buf = malloc(cap);
  if (!buf)
    return PyErr_NoMemory();
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_ipc_export_column(col, buf, cap, &len, &err);
  Py_END_ALLOW_THREADS
  PyObject *out = rc ? raise(&err) : PyBytes_FromStringAndSize(buf, (Py_ssize_t)len);
  free(buf);
  return out;
}

/* import_column(handle, validate=False) -> Column. */
static PyObject *ipc_import_column(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  static char *kw[] = {"handle", "validate", NULL};
  Py_buffer h;
  int validate = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "y*|p:import_column", kw, &h, &validate))
    return NULL;
  nrt_column *col = NULL;
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_ipc_import_column(h.buf, (size_t)h.len, NULL, 0, validate ? NRT_IPC_VALIDATE : 0,
                             &col, &err);
  Py_END_ALLOW_THREADS
  PyBuffer_Release(&h);
  if (rc)
    return raise(&err);
  return pynrt_column_wrap(col);
}

/* drop(handle): releases a handle that will never be imported. */
static PyObject *ipc_drop(PyObject *self, PyObject *arg) {
  (void)self;
  Py_buffer h;
  if (PyObject_GetBuffer(arg, &h, PyBUF_SIMPLE) < 0)
    return NULL;
  struct nrt_error err = {0};
  int rc = nrt_ipc_handle_drop(h.buf, (size_t)h.len, &err);
  PyBuffer_Release(&h);
  if (rc)
    return raise(&err);
  Py_RETURN_NONE;
}

/* share(col) -> Column whose buffers are all in shared memory (col itself if they are). */
static PyObject *ipc_share(PyObject *self, PyObject *obj) {
  (void)self;
  nrt_column *col = column_of(obj);
  if (!col)
    return NULL;
  nrt_column *out = NULL;
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_ipc_share_column(col, &out, &err);
  Py_END_ALLOW_THREADS
  if (rc)
    return raise(&err);
  if (out == col) {
    nrt_col_release(out);
    return Py_NewRef(obj);
  }
  return pynrt_column_wrap(out);
}

static int put(PyObject *d, const char *key, uint64_t v) {
  PyObject *o = PyLong_FromUnsignedLongLong(v);
  int rc = o ? PyDict_SetItemString(d, key, o) : -1;
  Py_XDECREF(o);
  return rc;
}

/* collect() -> dict of what the collection did. */
static PyObject *ipc_collect(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  struct nrt_ipc_collect_result r;
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_ipc_collect(&r, &err);
  Py_END_ALLOW_THREADS
  if (rc)
    return raise(&err);
  PyObject *d = PyDict_New();
  if (d && (put(d, "holders_reaped", r.holders_reaped) ||
            put(d, "transits_released", r.transits_released) ||
            put(d, "blocks_freed", r.blocks_freed) ||
            put(d, "segments_destroyed", r.segments_destroyed) ||
            put(d, "objects_removed", r.objects_removed)))
    Py_CLEAR(d);
  return d;
}

/* stats() -> dict (nrt_ipc_stats). */
static PyObject *ipc_stats(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  struct nrt_ipc_stats s;
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_ipc_stats(&s, &err);
  Py_END_ALLOW_THREADS
  if (rc)
    return raise(&err);
  PyObject *d = PyDict_New();
  if (d && (put(d, "holders", s.holders) || put(d, "segments", s.segments) ||
            put(d, "segment_bytes", s.segment_bytes) || put(d, "blocks", s.blocks) ||
            put(d, "block_bytes", s.block_bytes) || put(d, "transits", s.transits) ||
            put(d, "blocks_made", s.blocks_made) || put(d, "blocks_freed", s.blocks_freed) ||
            put(d, "holders_reaped", s.holders_reaped) || put(d, "recoveries", s.recoveries) ||
            put(d, "local_blocks", s.local_blocks) ||
            put(d, "local_mappings", s.local_mappings)))
    Py_CLEAR(d);
  return d;
}

static PyObject *ipc_segments(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  uint64_t n;
  Py_BEGIN_ALLOW_THREADS
  n = nrt_ipc_segments();
  Py_END_ALLOW_THREADS
  return PyLong_FromUnsignedLongLong(n);
}

/* shm_objects(namespace=None) -> int: nrt's objects in /dev/shm. */
static PyObject *ipc_shm_objects(PyObject *self, PyObject *args) {
  (void)self;
  const char *ns = NULL;
  if (!PyArg_ParseTuple(args, "|z:shm_objects", &ns))
    return NULL;
  return PyLong_FromUnsignedLongLong(nrt_ipc_shm_objects(ns));
}

static PyObject *ipc_namespace(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  return PyUnicode_FromString(nrt_ipc_namespace());
}

static PyMethodDef methods[] = {
    {"init", (PyCFunction)(void (*)(void))ipc_init, METH_VARARGS | METH_KEYWORDS,
     "init(namespace=None, max_bytes=0, collect_interval_ms=0, transit_timeout_ms=0, "
     "segment_size=0)"},
    {"shutdown", ipc_shutdown, METH_NOARGS, "Leaves the namespace."},
    {"export_column", ipc_export_column, METH_O, "export_column(col) -> bytes"},
    {"import_column", (PyCFunction)(void (*)(void))ipc_import_column,
     METH_VARARGS | METH_KEYWORDS, "import_column(handle, validate=False) -> Column"},
    {"drop", ipc_drop, METH_O, "drop(handle): release a handle never imported"},
    {"share", ipc_share, METH_O, "share(col) -> Column in shared memory"},
    {"collect", ipc_collect, METH_NOARGS, "collect() -> dict"},
    {"stats", ipc_stats, METH_NOARGS, "stats() -> dict"},
    {"segments", ipc_segments, METH_NOARGS, "segments() -> int"},
    {"shm_objects", ipc_shm_objects, METH_VARARGS, "shm_objects(namespace=None) -> int"},
    {"namespace", ipc_namespace, METH_NOARGS, "namespace() -> str"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_ipc",
                                    "Shared-memory handles of nrt columns.", -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__ipc(void);
PyMODINIT_FUNC PyInit__ipc(void) {
  if (!pynrt_global) {
    PyErr_SetString(PyExc_ImportError, "nrt._ipc needs nrt._nrt imported first");
    return NULL;
  }
  return PyModule_Create(&module);
}

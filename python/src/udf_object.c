/* nrt._nrt.compile and the Compiled type: a UDF compiled for one tuple of parameter types,
 * applied to columns with the GIL released. */
#define _POSIX_C_SOURCE 200809L /* open_memstream */
#include "pynrt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct compiled_object {
  PyObject_HEAD
  nrt_udf *udf;
} compiled_object;

/* Reads the common compile arguments: source, func, kinds (a sequence of nrt_value_kind
 * ints), filename. kinds_out is PyMem-allocated. */
static int parse_compile_args(PyObject *args, PyObject *kwargs, const char *fname,
                              const char **src, Py_ssize_t *len,
                              struct nrt_udf_options *o, nrt_value_kind **kinds_out) {
  static char *kwlist[] = {"source", "func", "kinds", "filename", NULL};
  const char *func = NULL, *filename = NULL;
  PyObject *kinds = NULL;
  char format[64];
  snprintf(format, sizeof format, "s#|zOz:%s", fname);
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, format, kwlist, src, len, &func, &kinds,
                                   &filename))
    return -1;
  memset(o, 0, sizeof *o);
  o->file = filename;
  o->func = func;
  *kinds_out = NULL;
  if (kinds && kinds != Py_None) {
    PyObject *seq = PySequence_Tuple(kinds);
    if (!seq)
      return -1;
    Py_ssize_t n = PyTuple_Size(seq);
    nrt_value_kind *k = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *k);
    if (!k) {
      Py_DECREF(seq);
      PyErr_NoMemory();
      return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
      long v = PyLong_AsLong(PyTuple_GetItem(seq, i));
      if (v == -1 && PyErr_Occurred()) {
        PyMem_Free(k);
        Py_DECREF(seq);
        return -1;
      }
      k[i] = (nrt_value_kind)v;
    }
    Py_DECREF(seq);
    o->param_kinds = k;
    o->nparams = (int)n;
    *kinds_out = k;
  } else {
    o->nparams = 1;
  }
  return 0;
}

PyObject *pynrt_compile(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  const char *src;
  Py_ssize_t len;
  struct nrt_udf_options o;
  nrt_value_kind *kinds;
  if (parse_compile_args(args, kwargs, "compile", &src, &len, &o, &kinds) < 0)
    return NULL;
  nrt_udf *udf = NULL;
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_udf_compile(src, (size_t)len, &o, &udf, &err);
  Py_END_ALLOW_THREADS
  PyMem_Free(kinds);
  if (rc)
    return pynrt_raise(&err);
  PyTypeObject *t = pynrt_global->compiled_type;
  allocfunc alloc = (allocfunc)PyType_GetSlot(t, Py_tp_alloc);
  compiled_object *c = (compiled_object *)alloc(t, 0);
  if (!c) {
    nrt_udf_free(udf);
    return NULL;
  }
  c->udf = udf;
  return (PyObject *)c;
}

PyObject *pynrt_llvm_ir(PyObject *self, PyObject *args, PyObject *kwargs) {
  (void)self;
  const char *src;
  Py_ssize_t len;
  struct nrt_udf_options o;
  nrt_value_kind *kinds;
  if (parse_compile_args(args, kwargs, "llvm_ir", &src, &len, &o, &kinds) < 0)
    return NULL;
  char *text = NULL;
  size_t text_len = 0;
  FILE *f = open_memstream(&text, &text_len);
  if (!f) {
    PyMem_Free(kinds);
    return PyErr_NoMemory();
  }
  o.emit_llvm = true;
  o.emit_stream = f;
  nrt_udf *udf = NULL;
  struct nrt_error err = {0};
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_udf_compile(src, (size_t)len, &o, &udf, &err);
  nrt_udf_free(udf);
  Py_END_ALLOW_THREADS
  PyMem_Free(kinds);
  fclose(f);
  PyObject *result = rc ? pynrt_raise(&err)
                        : PyUnicode_DecodeUTF8(text ? text : "", (Py_ssize_t)text_len, "replace");
  free(text);
  return result;
}

static void compiled_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  compiled_object *c = (compiled_object *)self;
  Py_BEGIN_ALLOW_THREADS
  nrt_udf_free(c->udf);
  Py_END_ALLOW_THREADS
  freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  f(self);
  Py_DECREF(tp);
}

static int string_type_of(const char *name, enum nrt_col_type *t) {
  if (!name || !strcmp(name, "utf8_view"))
    *t = NRT_COL_UTF8_VIEW;
  else if (!strcmp(name, "utf8"))
    *t = NRT_COL_UTF8;
  else if (!strcmp(name, "large_utf8"))
    *t = NRT_COL_LARGE_UTF8;
  else {
    PyErr_Format(PyExc_ValueError, "string_type must be utf8, large_utf8 or utf8_view, not %s",
                 name);
    return -1;
  }
  return 0;
}

/* apply(columns, threads=0, errors_null=False, string_type=None) -> Column. A failing row
 * raises NativeError(code, message, row) with the 0-based row; a defect of an input made by
 * input_column() NativeError(code, message), as Column() would have. */
static PyObject *compiled_apply(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"columns", "threads", "errors_null", "string_type", NULL};
  PyObject *cols;
  int threads = 0, errors_null = 0;
  const char *string_type = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|ipz:apply", kwlist, &cols, &threads,
                                   &errors_null, &string_type))
    return NULL;
  struct nrt_udf_apply_options o;
  memset(&o, 0, sizeof o);
  o.threads = threads;
  o.errors_as_null = errors_null != 0;
  if (string_type_of(string_type, &o.string_type) < 0)
    return NULL;
  PyObject *seq = PySequence_Tuple(cols);
  if (!seq)
    return NULL;
  Py_ssize_t n = PyTuple_Size(seq);
  nrt_column **inputs = PyMem_Malloc((size_t)(n ? n : 1) * sizeof *inputs);
  if (!inputs) {
    Py_DECREF(seq);
    return PyErr_NoMemory();
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *o_i = PyTuple_GetItem(seq, i);
    if (!PyObject_TypeCheck(o_i, pynrt_global->column_type)) {
      PyMem_Free(inputs);
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError, "apply takes nrt.Column objects");
      return NULL;
    }
    inputs[i] = ((pynrt_column *)o_i)->col; /* kept alive by seq */
    if (((pynrt_column *)o_i)->rows_unchecked)
      o.validate_inputs = true; /* every chunk checks its rows of each input first */
  }
  nrt_column *out = NULL;
  struct nrt_exec_info info;
  memset(&info, 0, sizeof info);
  struct nrt_error err = {0};
  int rc;
  const nrt_udf *udf = ((compiled_object *)self)->udf;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_udf_apply(udf, inputs, (size_t)n, &o, &out, &info, &err);
  Py_END_ALLOW_THREADS
  if (rc == NRT_OK) /* every row was read, so every row was checked */
    for (Py_ssize_t i = 0; i < n; i++)
      ((pynrt_column *)PyTuple_GetItem(seq, i))->rows_unchecked = 0;
  PyMem_Free(inputs);
  Py_DECREF(seq);
  if (rc && info.invalid_input) { /* as Column(obj) reports a defect: NativeError(code, msg) */
    PyObject *e = Py_BuildValue("(is)", rc, err.message);
    if (e) {
      PyErr_SetObject(pynrt_global->native_error, e);
      Py_DECREF(e);
    }
    return NULL;
  }
  if (rc) {
    if (rc == NRT_ENOMEM && info.error_row < 0)
      return PyErr_NoMemory();
    PyObject *e = Py_BuildValue("(isL)", rc, err.message, (long long)info.error_row);
    if (e) {
      PyErr_SetObject(pynrt_global->native_error, e);
      Py_DECREF(e);
    }
    return NULL;
  }
  return pynrt_column_wrap(out);
}

static int put_f(PyObject *d, const char *k, double v) {
  PyObject *o = PyFloat_FromDouble(v);
  int rc = o ? PyDict_SetItemString(d, k, o) : -1;
  Py_XDECREF(o);
  return rc;
}

static int put_z(PyObject *d, const char *k, size_t v) {
  PyObject *o = PyLong_FromSize_t(v);
  int rc = o ? PyDict_SetItemString(d, k, o) : -1;
  Py_XDECREF(o);
  return rc;
}

static PyObject *compiled_get_info(PyObject *self, void *unused) {
  (void)unused;
  const struct nrt_udf_compile_info *i = nrt_udf_info(((compiled_object *)self)->udf);
  PyObject *d = PyDict_New();
  if (!d)
    return NULL;
  if (put_f(d, "compile_ms", i->compile_ms) || put_f(d, "front_ms", i->front_ms) ||
      put_f(d, "codegen_ms", i->codegen_ms) || put_f(d, "prune_ms", i->prune_ms) ||
      put_f(d, "optimize_ms", i->optimize_ms) || put_f(d, "jit_ms", i->jit_ms) ||
      put_z(d, "refops_before", i->refops_before) || put_z(d, "refops_after", i->refops_after) ||
      put_z(d, "pruned_null", i->pruned_null) || put_z(d, "pruned_per_bb", i->pruned_per_bb) ||
      put_z(d, "pruned_diamond", i->pruned_diamond) ||
      put_z(d, "pruned_fanout", i->pruned_fanout) ||
      put_z(d, "pruned_fanout_raise", i->pruned_fanout_raise) ||
      put_z(d, "normalized", i->normalized) || put_z(d, "instructions", i->instructions) ||
      PyDict_SetItemString(d, "quick", i->quick ? Py_True : Py_False) ||
      PyDict_SetItemString(d, "huge", i->huge ? Py_True : Py_False)) {
    Py_DECREF(d);
    return NULL;
  }
  return d;
}

static PyObject *compiled_get_nparams(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromLong(nrt_udf_nparams(((compiled_object *)self)->udf));
}

static PyObject *compiled_get_result_kind(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromLong(nrt_udf_result_kind(((compiled_object *)self)->udf));
}

static PyMethodDef compiled_methods[] = {
    {"apply", (PyCFunction)(void (*)(void))compiled_apply, METH_VARARGS | METH_KEYWORDS,
     "apply(columns, threads=0, errors_null=False, string_type=None) -> Column"},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef compiled_getset[] = {
    {"info", compiled_get_info, NULL, "Compile times (ms) and refcount operations.", NULL},
    {"nparams", compiled_get_nparams, NULL, "Number of parameters.", NULL},
    {"result_kind", compiled_get_result_kind, NULL, "nrt_value_kind of the result.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot compiled_slots[] = {
    {Py_tp_dealloc, compiled_dealloc},
    {Py_tp_methods, compiled_methods},
    {Py_tp_getset, compiled_getset},
    {Py_tp_doc, "A UDF compiled for one tuple of parameter types (made by compile())."},
    {0, NULL}};

PyType_Spec pynrt_compiled_spec = {"nrt._nrt.Compiled", sizeof(compiled_object), 0,
                                   Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, compiled_slots};

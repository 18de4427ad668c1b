/* nrt.Column and nrt.Buffer: a native column held by Python, its Arrow PyCapsule export, its
 * rows as Python objects, and its buffers (address, size, buffer protocol). */
#include "pynrt.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------------ rows */

PyObject *pynrt_row_object(const nrt_column *col, int64_t i) {
  if (!nrt_col_is_valid(col, i))
    Py_RETURN_NONE;
  switch (col->type) {
  case NRT_COL_UTF8:
  case NRT_COL_LARGE_UTF8:
  case NRT_COL_UTF8_VIEW: {
    nrt_str s = nrt_col_str(col, i);
    return PyUnicode_DecodeUTF8(s.data, (Py_ssize_t)s.len, "strict");
  }
  case NRT_COL_INT64: return PyLong_FromLongLong(nrt_col_int64(col, i));
  case NRT_COL_FLOAT64: return PyFloat_FromDouble(nrt_col_float64(col, i));
  case NRT_COL_BOOL: return PyBool_FromLong(nrt_col_bool(col, i));
  case NRT_COL_LIST: {
    const nrt_column *child = nrt_col_list_child(col);
    int64_t start, end;
    nrt_col_list_range(col, i, &start, &end);
    PyObject *list = PyList_New((Py_ssize_t)(end - start));
    if (!list)
      return NULL;
    for (int64_t k = start; k < end; k++) {
      PyObject *item = pynrt_row_object(child, k);
      if (!item) {
        Py_DECREF(list);
        return NULL;
      }
      PyList_SetItem(list, (Py_ssize_t)(k - start), item);
    }
    return list;
  }
  default:
    PyErr_Format(PyExc_TypeError, "nrt: rows of a %s column have no Python form",
                 nrt_col_type_name(col->type));
    return NULL;
  }
}

/* --------------------------------------------------------------- Column */

typedef struct column_object {
  pynrt_column base;
  Py_ssize_t shape[1]; /* for the buffer protocol of numeric columns */
  Py_ssize_t strides[1];
} column_object;

PyObject *pynrt_column_wrap(nrt_column *col) {
  PyTypeObject *t = pynrt_global->column_type;
  allocfunc alloc = (allocfunc)PyType_GetSlot(t, Py_tp_alloc);
  column_object *self = (column_object *)alloc(t, 0);
  if (!self) {
    nrt_col_release(col);
    return NULL;
  }
  self->base.col = col;
  return (PyObject *)self;
}

static PyObject *column_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"obj", NULL};
  PyObject *obj;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O:Column", kwlist, &obj))
    return NULL;
  nrt_column *col;
  if (pynrt_column_from_object(obj, &col) < 0)
    return NULL;
  allocfunc alloc = (allocfunc)PyType_GetSlot(type, Py_tp_alloc);
  column_object *self = (column_object *)alloc(type, 0);
  if (!self) {
    nrt_col_release(col);
    return NULL;
  }
  self->base.col = col;
  return (PyObject *)self;
}

static void column_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  nrt_col_release(((pynrt_column *)self)->col);
  freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  f(self);
  Py_DECREF(tp);
}

static nrt_column *col_of(PyObject *self) { return ((pynrt_column *)self)->col; }

/* The column, once its rows are known sound (see pynrt_column_checked); NULL with an
 * exception. */
static nrt_column *rows_of(PyObject *self) { return pynrt_column_checked(self); }

static Py_ssize_t column_len(PyObject *self) { return (Py_ssize_t)col_of(self)->length; }

static PyObject *column_item(PyObject *self, Py_ssize_t i) {
  nrt_column *c = rows_of(self);
  if (!c)
    return NULL;
  if (i < 0 || i >= c->length) {
    PyErr_SetString(PyExc_IndexError, "column index out of range");
    return NULL;
  }
  return pynrt_row_object(c, i);
}

static PyObject *column_to_pylist(PyObject *self, PyObject *unused) {
  (void)unused;
  nrt_column *c = rows_of(self);
  if (!c)
    return NULL;
  PyObject *list = PyList_New((Py_ssize_t)c->length);
  if (!list)
    return NULL;
  for (int64_t i = 0; i < c->length; i++) {
    PyObject *o = pynrt_row_object(c, i);
    if (!o) {
      Py_DECREF(list);
      return NULL;
    }
    PyList_SetItem(list, (Py_ssize_t)i, o);
  }
  return list;
}

static PyObject *column_repr(PyObject *self) {
  nrt_column *c = col_of(self);
  return PyUnicode_FromFormat("nrt.Column(type=%s, length=%lld, null_count=%lld)",
                              nrt_col_type_name(c->type), (long long)c->length,
                              (long long)c->null_count);
}

static PyObject *column_get_type(PyObject *self, void *unused) {
  (void)unused;
  return PyUnicode_FromString(nrt_col_type_name(col_of(self)->type));
}

static PyObject *column_get_null_count(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromLongLong(col_of(self)->null_count);
}

static PyObject *column_get_refcount(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromSize_t(nrt_memblock_refcount(col_of(self)->block));
}

static PyObject *column_validate(PyObject *self, PyObject *unused) {
  (void)unused;
  struct nrt_error err = {0};
  if (nrt_col_validate(col_of(self), &err))
    return pynrt_raise(&err);
  ((pynrt_column *)self)->rows_unchecked = 0;
  Py_RETURN_NONE;
}

/* ----------------------------------------------------- Arrow PyCapsules */

static void schema_capsule_free(PyObject *cap) {
  struct ArrowSchema *s = PyCapsule_GetPointer(cap, "arrow_schema");
  if (!s)
    return;
  if (s->release)
    s->release(s);
  free(s);
}

static void array_capsule_free(PyObject *cap) {
  struct ArrowArray *a = PyCapsule_GetPointer(cap, "arrow_array");
  if (!a)
    return;
  if (a->release)
    a->release(a);
  free(a);
}

static void stream_capsule_free(PyObject *cap) {
  struct ArrowArrayStream *s = PyCapsule_GetPointer(cap, "arrow_array_stream");
  if (!s)
    return;
  if (s->release)
    s->release(s);
  free(s);
}

/* The column to export for a consumer's requested schema: another string layout is made by
 * nrt_col_convert (sharing bytes where it can); anything else exports the column as it is
 * (the protocol lets a producer ignore a request it cannot meet). New reference. */
static nrt_column *column_for_request(nrt_column *col, PyObject *requested) {
  nrt_col_retain(col);
  if (!requested || requested == Py_None || !nrt_col_type_is_string(col->type))
    return col;
  struct ArrowSchema *s = PyCapsule_GetPointer(requested, "arrow_schema");
  if (!s) {
    PyErr_Clear();
    return col;
  }
  enum nrt_col_type want;
  struct nrt_error err = {0};
  if (!s->format || nrt_col_type_from_arrow_format(s->format, &want, &err) ||
      !nrt_col_type_is_string(want) || want == col->type)
    return col;
  nrt_column *conv;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_col_convert(col, want, &conv, &err);
  Py_END_ALLOW_THREADS
  nrt_col_release(col);
  if (rc) {
    pynrt_raise(&err);
    return NULL;
  }
  return conv;
}

/* Exports the column as a (schema, array) capsule pair; a non-NULL name is the field name
 * of the schema (not for list columns, whose schema describes their child too). */
static PyObject *export_capsules(PyObject *self, PyObject *requested, const char *name) {
  nrt_column *rows = rows_of(self);
  nrt_column *col = rows ? column_for_request(rows, requested) : NULL;
  if (!col)
    return NULL;
  struct ArrowSchema *schema = malloc(sizeof *schema);
  struct ArrowArray *array = malloc(sizeof *array);
  PyObject *sc = NULL, *ac = NULL, *result = NULL;
  struct nrt_error err = {0};
  if (!schema || !array) {
    free(schema);
    free(array);
    nrt_col_release(col);
    return PyErr_NoMemory();
  }
  bool named = name && col->type != NRT_COL_LIST;
  if (nrt_col_export_arrow(col, array, named ? NULL : schema, &err) ||
      (named && nrt_col_export_schema(col->type, name, schema, &err))) {
    if (named && array->release)
      array->release(array);
    free(schema);
    free(array);
    nrt_col_release(col);
    return pynrt_raise(&err);
  }
  nrt_col_release(col); /* the exported array holds its own reference */
  sc = PyCapsule_New(schema, "arrow_schema", schema_capsule_free);
  if (!sc) {
    schema->release(schema);
    free(schema);
  }
  ac = PyCapsule_New(array, "arrow_array", array_capsule_free);
  if (!ac) {
    array->release(array);
    free(array);
  }
  if (sc && ac)
    result = PyTuple_Pack(2, sc, ac);
  Py_XDECREF(sc);
  Py_XDECREF(ac);
  return result;
}

static PyObject *column_arrow_c_array(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"requested_schema", NULL};
  PyObject *requested = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:__arrow_c_array__", kwlist, &requested))
    return NULL;
  return export_capsules(self, requested, NULL);
}

/* _arrow_c_array_named(name) -> __arrow_c_array__'s capsules with a field name (consumers
 * such as Polars name their series after it). */
static PyObject *column_arrow_c_array_named(PyObject *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8AndSize(arg, NULL);
  if (!name)
    return NULL;
  return export_capsules(self, NULL, name);
}

static PyObject *column_arrow_c_stream(PyObject *self, PyObject *args, PyObject *kwargs) {
  static char *kwlist[] = {"requested_schema", NULL};
  PyObject *requested = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O:__arrow_c_stream__", kwlist, &requested))
    return NULL;
  nrt_column *rows = rows_of(self);
  nrt_column *col = rows ? column_for_request(rows, requested) : NULL;
  if (!col)
    return NULL;
  struct ArrowArrayStream *stream = malloc(sizeof *stream);
  struct nrt_error err = {0};
  if (!stream) {
    nrt_col_release(col);
    return PyErr_NoMemory();
  }
  int rc = nrt_col_export_stream(&col, 1, col->type, stream, &err);
  nrt_col_release(col);
  if (rc) {
    free(stream);
    return pynrt_raise(&err);
  }
  PyObject *cap = PyCapsule_New(stream, "arrow_array_stream", stream_capsule_free);
  if (!cap) {
    stream->release(stream);
    free(stream);
  }
  return cap;
}

/* --------------------------------------------------------------- Buffer */

typedef struct buffer_object {
  PyObject_HEAD
  PyObject *owner; /* the Column whose buffer this is */
  const void *data;
  Py_ssize_t size;
} buffer_object;

static PyObject *buffer_make(PyObject *owner, struct nrt_col_buffer b) {
  PyTypeObject *t = pynrt_global->buffer_type;
  allocfunc alloc = (allocfunc)PyType_GetSlot(t, Py_tp_alloc);
  buffer_object *self = (buffer_object *)alloc(t, 0);
  if (!self)
    return NULL;
  Py_INCREF(owner);
  self->owner = owner;
  self->data = b.data;
  self->size = (Py_ssize_t)b.size;
  return (PyObject *)self;
}

static void buffer_dealloc(PyObject *self) {
  PyTypeObject *tp = Py_TYPE(self);
  Py_XDECREF(((buffer_object *)self)->owner);
  freefunc f = (freefunc)PyType_GetSlot(tp, Py_tp_free);
  f(self);
  Py_DECREF(tp);
}

static PyObject *buffer_get_address(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromVoidPtr((void *)(uintptr_t)((buffer_object *)self)->data);
}

static PyObject *buffer_get_size(PyObject *self, void *unused) {
  (void)unused;
  return PyLong_FromSsize_t(((buffer_object *)self)->size);
}

static PyObject *buffer_repr(PyObject *self) {
  buffer_object *b = (buffer_object *)self;
  return PyUnicode_FromFormat("nrt.Buffer(address=%p, size=%zd)", b->data, b->size);
}

static int buffer_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  buffer_object *b = (buffer_object *)self;
  static char empty;
  return PyBuffer_FillInfo(view, self, b->data ? (void *)(uintptr_t)b->data : &empty,
                           b->size, 1, flags);
}

static void buffer_releasebuffer(PyObject *self, Py_buffer *view) {
  (void)self;
  (void)view;
}

static PyGetSetDef buffer_getset[] = {
    {"address", buffer_get_address, NULL, "Address of the buffer's first byte.", NULL},
    {"size", buffer_get_size, NULL, "Size of the buffer in bytes.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot buffer_slots[] = {
    {Py_tp_dealloc, buffer_dealloc},
    {Py_tp_repr, buffer_repr},
    {Py_tp_getset, buffer_getset},
    {Py_bf_getbuffer, buffer_getbuffer},
    {Py_bf_releasebuffer, buffer_releasebuffer},
    {Py_tp_doc, "One Arrow buffer of an nrt.Column: .address, .size and the (read-only) "
                "buffer protocol over its bytes. Keeps the column alive."},
    {0, NULL}};

PyType_Spec pynrt_buffer_spec = {"nrt.Buffer", sizeof(buffer_object), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, buffer_slots};

/* buffers() -> the column's Arrow buffers in the C Data Interface's order: validity (None
 * when the column has no nulls), then offsets and data, views and the variadic data buffers,
 * or values (for a list: its offsets; its items' buffers are those of the child column). */
static PyObject *column_buffers(PyObject *self, PyObject *unused) {
  (void)unused;
  nrt_column *c = rows_of(self);
  if (!c)
    return NULL;
  PyObject *list = PyList_New(0);
  if (!list)
    return NULL;
  PyObject *item;
  if (c->validity.data)
    item = buffer_make(self, c->validity);
  else
    item = Py_NewRef(Py_None);
  if (!item || PyList_Append(list, item) < 0)
    goto fail;
  Py_DECREF(item);
  struct nrt_col_buffer rest[2] = {c->values, c->data};
  int nrest = (c->type == NRT_COL_UTF8 || c->type == NRT_COL_LARGE_UTF8) ? 2 : 1;
  for (int i = 0; i < nrest; i++) {
    item = buffer_make(self, rest[i]);
    if (!item || PyList_Append(list, item) < 0)
      goto fail;
    Py_DECREF(item);
  }
  if (c->type == NRT_COL_UTF8_VIEW) {
    for (int32_t i = 0; i < c->n_variadic; i++) {
      item = buffer_make(self, c->variadic[i]);
      if (!item || PyList_Append(list, item) < 0)
        goto fail;
      Py_DECREF(item);
    }
  }
  return list;
fail:
  Py_XDECREF(item);
  Py_DECREF(list);
  return NULL;
}

/* The column's own buffer protocol: numeric columns expose their values, one item per row
 * (format 'q' or 'd'; a null row's slot holds whatever it holds), utf8 and large_utf8 columns
 * the bytes of their rows (format 'B'). Other layouts have no such contiguous form. */
static int column_getbuffer(PyObject *self, Py_buffer *view, int flags) {
  column_object *co = (column_object *)self;
  nrt_column *c = rows_of(self);
  if (!c)
    return -1;
  if (flags & PyBUF_WRITABLE) {
    PyErr_SetString(PyExc_BufferError, "nrt columns are immutable");
    return -1;
  }
  if (c->type == NRT_COL_UTF8 || c->type == NRT_COL_LARGE_UTF8) {
    int64_t first, last;
    if (c->type == NRT_COL_UTF8) {
      const int32_t *o = c->values.data;
      first = o[c->offset];
      last = o[c->offset + c->length];
    } else {
      const int64_t *o = c->values.data;
      first = o[c->offset];
      last = o[c->offset + c->length];
    }
    static char empty;
    void *p = c->data.data ? (char *)(uintptr_t)c->data.data + first : &empty;
    return PyBuffer_FillInfo(view, self, p, (Py_ssize_t)(last - first), 1, flags);
  }
  if (c->type != NRT_COL_INT64 && c->type != NRT_COL_FLOAT64) {
    PyErr_Format(PyExc_BufferError,
                 "a %s column has no contiguous buffer of its rows; use buffers()",
                 nrt_col_type_name(c->type));
    return -1;
  }
  co->shape[0] = (Py_ssize_t)c->length;
  co->strides[0] = 8;
  view->obj = Py_NewRef(self);
  view->buf = (char *)(uintptr_t)c->values.data + c->offset * 8;
  view->len = (Py_ssize_t)c->length * 8;
  view->readonly = 1;
  view->itemsize = 8;
  view->format = (flags & PyBUF_FORMAT) ? (c->type == NRT_COL_INT64 ? "q" : "d") : NULL;
  view->ndim = 1;
  view->shape = (flags & PyBUF_ND) ? co->shape : NULL;
  view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? co->strides : NULL;
  view->suboffsets = NULL;
  view->internal = NULL;
  return 0;
}

static void column_releasebuffer(PyObject *self, Py_buffer *view) {
  (void)self;
  (void)view;
}

static PyMethodDef column_methods[] = {
    {"to_pylist", column_to_pylist, METH_NOARGS, "The rows as a list of Python objects."},
    {"buffers", column_buffers, METH_NOARGS, "The column's Arrow buffers (nrt.Buffer)."},
    {"validate", column_validate, METH_NOARGS,
     "Checks every structural invariant (offsets, views, UTF-8, null count)."},
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))column_arrow_c_array,
     METH_VARARGS | METH_KEYWORDS, "Arrow PyCapsule interface: (schema, array) capsules."},
    {"_arrow_c_array_named", column_arrow_c_array_named, METH_O,
     "__arrow_c_array__ with a field name in the schema."},
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))column_arrow_c_stream,
     METH_VARARGS | METH_KEYWORDS, "Arrow PyCapsule interface: a stream capsule."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef column_getset[] = {
    {"type", column_get_type, NULL, "Layout: utf8, large_utf8, utf8_view, int64, ...", NULL},
    {"null_count", column_get_null_count, NULL, "Number of null rows.", NULL},
    {"refcount", column_get_refcount, NULL,
     "Reference count of the column's MemInfo (this object's reference included).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyType_Slot column_slots[] = {
    {Py_tp_new, column_new},
    {Py_tp_dealloc, column_dealloc},
    {Py_tp_repr, column_repr},
    {Py_tp_methods, column_methods},
    {Py_tp_getset, column_getset},
    {Py_sq_length, column_len},
    {Py_sq_item, column_item},
    {Py_bf_getbuffer, column_getbuffer},
    {Py_bf_releasebuffer, column_releasebuffer},
    {Py_tp_doc, "Column(obj): an immutable Arrow-layout column in nrt's memory. Zero-copy "
                "from Arrow data (PyCapsule interface: pyarrow, Polars, pandas), copied from "
                "lists and non-Arrow sequences."},
    {0, NULL}};

PyType_Spec pynrt_column_spec = {"nrt.Column", sizeof(column_object), 0,
                                 Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, column_slots};

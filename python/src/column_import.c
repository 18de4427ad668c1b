/* Python objects -> nrt columns.
 *
 * Arrow data (the PyCapsule interface: pyarrow, Polars, pandas, nanoarrow, ...) is imported
 * without copying when its layout is one of nrt's (utf8, large_utf8, utf8_view, int64,
 * float64, bool): the producer's ArrowArray moves into nrt and its release callback runs when
 * nrt's last reference to the buffers goes. Narrower integers, float32 and the null type are
 * widened into new buffers (nrt computes on int64 and float64). numpy arrays of int64 and
 * float64 are imported without copying too, through an ArrowArray whose release callback
 * drops the Python buffer (with the GIL): the numpy array lives as long as nrt uses it. Python
 * lists and other sequences are copied. */
#include "pynrt.h"

#include <stdlib.h>
#include <string.h>

/* --------------------------------------------- arrays owned by C or Python */

/* An ArrowArray whose buffers this module allocated (broadcast columns), or that borrows a
 * Python buffer (numpy). */
struct owned_array {
  const void *buffers[4];
  void *owned[4];   /* malloc'd buffers freed on release */
  Py_buffer view;   /* a Python buffer released on release (view.obj != NULL) */
};

static void owned_array_release(struct ArrowArray *a) {
  struct owned_array *p = a->private_data;
  for (int i = 0; i < 4; i++)
    free(p->owned[i]);
  if (p->view.obj) {
    /* nrt may drop its last reference on any thread, with or without the GIL. */
    PyGILState_STATE g = PyGILState_Ensure();
    PyBuffer_Release(&p->view);
    PyGILState_Release(g);
  }
  free(p);
  a->release = NULL;
}

static struct owned_array *owned_array_init(struct ArrowArray *a, int64_t length,
                                            int64_t n_buffers) {
  struct owned_array *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  memset(a, 0, sizeof *a);
  a->length = length;
  a->n_buffers = n_buffers;
  a->buffers = p->buffers;
  a->release = owned_array_release;
  a->private_data = p;
  return p;
}

/* Buffer i of p: `size` bytes, 64-byte aligned, zeroed. */
static void *owned_buffer(struct owned_array *p, int i, size_t size) {
  size_t rounded = (size + 63) / 64 * 64;
  void *b = aligned_alloc(64, rounded ? rounded : 64);
  if (b)
    memset(b, 0, rounded ? rounded : 64);
  p->owned[i] = b;
  p->buffers[i] = b;
  return b;
}

/* Imports an array this module made (trusted: its content is correct by construction). */
static int import_owned(struct ArrowArray *a, const char *format, nrt_column **out) {
  struct nrt_error err = {0};
  if (nrt_col_import_arrow_flags(a, format, NRT_COL_IMPORT_TRUSTED, out, &err)) {
    if (a->release)
      a->release(a);
    pynrt_raise(&err);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------ broadcast */

int pynrt_column_broadcast(PyObject *value, int64_t n, nrt_column **out) {
  struct ArrowArray a;
  struct owned_array *p = owned_array_init(&a, n, 2);
  if (!p) {
    PyErr_NoMemory();
    return -1;
  }
  const char *format;
  size_t bytes8 = (size_t)n * 8;
  if (value == Py_None) {
    /* A null str column: a zeroed validity bitmap and empty views. */
    format = "vu";
    a.n_buffers = 3;
    a.null_count = n;
    void *valid = owned_buffer(p, 0, ((size_t)n + 7) / 8);
    void *views = owned_buffer(p, 1, (size_t)n * 16);
    int64_t *sizes = owned_buffer(p, 2, 8);
    if (!valid || !views || !sizes)
      goto nomem;
  } else if (PyUnicode_Check(value)) {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(value, &len);
    if (!s) {
      a.release(&a);
      return -1;
    }
    if (len > INT32_MAX) {
      a.release(&a);
      PyErr_SetString(PyExc_OverflowError, "nrt: a string longer than 2 GiB cannot be a row");
      return -1;
    }
    /* Every view points at one copy of the string. */
    format = "vu";
    a.n_buffers = 4;
    nrt_col_view *views = owned_buffer(p, 1, (size_t)n * 16);
    char *data = owned_buffer(p, 2, (size_t)len);
    int64_t *sizes = owned_buffer(p, 3, 8);
    if (!views || !data || !sizes)
      goto nomem;
    memcpy(data, s, (size_t)len);
    sizes[0] = len;
    nrt_col_view v;
    memset(&v, 0, sizeof v);
    v.length = (int32_t)len;
    if (len <= NRT_COL_VIEW_INLINE) {
      memcpy(v.u.inlined, s, (size_t)len);
    } else {
      memcpy(v.u.ref.prefix, s, 4);
    }
    for (int64_t i = 0; i < n; i++)
      views[i] = v;
  } else if (PyBool_Check(value)) {
    format = "b";
    uint8_t *bits = owned_buffer(p, 1, ((size_t)n + 7) / 8);
    if (!bits)
      goto nomem;
    if (value == Py_True)
      memset(bits, 0xff, ((size_t)n + 7) / 8);
  } else if (PyLong_Check(value)) {
    long long v = PyLong_AsLongLong(value);
    if (v == -1 && PyErr_Occurred()) {
      a.release(&a);
      return -1;
    }
    format = "l";
    int64_t *vals = owned_buffer(p, 1, bytes8);
    if (!vals)
      goto nomem;
    for (int64_t i = 0; i < n; i++)
      vals[i] = v;
  } else if (PyFloat_Check(value)) {
    double v = PyFloat_AsDouble(value);
    format = "g";
    double *vals = owned_buffer(p, 1, bytes8);
    if (!vals)
      goto nomem;
    for (int64_t i = 0; i < n; i++)
      vals[i] = v;
  } else {
    a.release(&a);
    PyObject *tn = PyObject_GetAttrString((PyObject *)Py_TYPE(value), "__name__");
    PyErr_Format(PyExc_TypeError,
                 "nrt: cannot use a %S as a column or a scalar (str, int, float, bool, None)",
                 tn ? tn : Py_None);
    Py_XDECREF(tn);
    return -1;
  }
  return import_owned(&a, format, out);
nomem:
  a.release(&a);
  PyErr_NoMemory();
  return -1;
}

/* ------------------------------------------------------ Arrow conversion */

static bool arrow_valid(const struct ArrowArray *a, int64_t i) {
  const uint8_t *bits = a->null_count == 0 ? NULL : a->buffers[0];
  if (!bits)
    return true;
  int64_t p = a->offset + i;
  return (bits[p >> 3] >> (p & 7)) & 1;
}

/* Widens an integer or float32 array into a new int64 / float64 column (a copy). */
static int widen_array(const struct ArrowArray *a, char f, nrt_column **out) {
  enum nrt_col_type type = f == 'f' ? NRT_COL_FLOAT64 : NRT_COL_INT64;
  nrt_col_builder *b;
  struct nrt_error err = {0};
  if (nrt_col_builder_new(type, a->length, &b, &err)) {
    pynrt_raise(&err);
    return -1;
  }
  const void *vals = a->n_buffers > 1 ? a->buffers[1] : NULL;
  for (int64_t i = 0; i < a->length; i++) {
    if (!arrow_valid(a, i) || !vals) {
      nrt_col_builder_append_null(b);
      continue;
    }
    int64_t p = a->offset + i;
    switch (f) {
    case 'c': nrt_col_builder_append_int64(b, ((const int8_t *)vals)[p]); break;
    case 's': nrt_col_builder_append_int64(b, ((const int16_t *)vals)[p]); break;
    case 'i': nrt_col_builder_append_int64(b, ((const int32_t *)vals)[p]); break;
    case 'C': nrt_col_builder_append_int64(b, ((const uint8_t *)vals)[p]); break;
    case 'S': nrt_col_builder_append_int64(b, ((const uint16_t *)vals)[p]); break;
    case 'I': nrt_col_builder_append_int64(b, ((const uint32_t *)vals)[p]); break;
    case 'L': {
      uint64_t v = ((const uint64_t *)vals)[p];
      if (v > (uint64_t)INT64_MAX) {
        nrt_col_builder_abort(b);
        PyErr_Format(PyExc_OverflowError,
                     "nrt: row %lld: the uint64 value %llu does not fit nrt's int (int64)",
                     (long long)i, (unsigned long long)v);
        return -1;
      }
      nrt_col_builder_append_int64(b, (int64_t)v);
      break;
    }
    case 'f': nrt_col_builder_append_float64(b, ((const float *)vals)[p]); break;
    default: break;
    }
  }
  if (nrt_col_builder_finish(b, out, &err)) {
    pynrt_raise(&err);
    return -1;
  }
  return 0;
}

/* A column of `n` null rows (Arrow's null type), typed str. */
static int null_column(int64_t n, nrt_column **out) {
  return pynrt_column_broadcast(Py_None, n, out);
}

/* ------------------------------------------------- validation on all cores */

/* Rows from which an imported string column is validated on every core: the per-row checks
 * (offsets, views, UTF-8) would otherwise run on one thread before every apply. */
#define PARALLEL_VALIDATE_ROWS (1 << 15)

struct parallel_validate {
  const nrt_column *col;
  int64_t per_task;
  int *codes; /* each range's status */
};

static void validate_range(void *arg, int64_t t) {
  struct parallel_validate *p = arg;
  int64_t start = t * p->per_task;
  int64_t len = p->col->length - start < p->per_task ? p->col->length - start : p->per_task;
  struct nrt_error e = {0};
  p->codes[t] = nrt_col_validate_rows(p->col, start, len, &e);
}

/* The per-row checks of col (imported with NRT_COL_IMPORT_ROWS_UNCHECKED) over ranges of rows
 * in parallel. A defect is reported by a sequential validation of the whole column, which
 * names the first bad row. 0, or -1 with an exception. */
static int validate_parallel(const nrt_column *col) {
  struct nrt_error err = {0};
  int64_t n_tasks = 4 * (int64_t)nrt_exec_cores();
  struct parallel_validate p = {col, (col->length + n_tasks - 1) / n_tasks, NULL};
  n_tasks = p.per_task ? (col->length + p.per_task - 1) / p.per_task : 0;
  p.codes = PyMem_Calloc((size_t)(n_tasks ? n_tasks : 1), sizeof *p.codes);
  if (!p.codes) {
    PyErr_NoMemory();
    return -1;
  }
  int rc = 0;
  Py_BEGIN_ALLOW_THREADS
  nrt_exec_parallel_for(n_tasks, 0, validate_range, &p);
  for (int64_t t = 0; t < n_tasks; t++)
    if (p.codes[t])
      rc = p.codes[t];
  if (rc)
    rc = nrt_col_validate(col, &err);
  Py_END_ALLOW_THREADS
  PyMem_Free(p.codes);
  if (rc) {
    pynrt_raise(&err);
    return -1;
  }
  return 0;
}

/* Imports a string array (utf8, large_utf8, utf8_view) with every check of
 * nrt_col_import_arrow: all but the per-row ones at import (NRT_COL_IMPORT_ROWS_UNCHECKED),
 * then the per-row ones on every core (validate_parallel), or (`defer`) left to the apply.
 * Consumes the array in every case; 0 or -1 with an exception. */
static int import_strings(struct ArrowArray *a, const char *f, bool defer, nrt_column **out) {
  struct nrt_error err = {0};
  nrt_column *col;
  if (nrt_col_import_arrow_flags(a, f, NRT_COL_IMPORT_ROWS_UNCHECKED, &col, &err)) {
    pynrt_raise(&err);
    return -1;
  }
  if (!defer && validate_parallel(col) < 0) {
    nrt_col_release(col);
    return -1;
  }
  *out = col;
  return 0;
}

/* Imports one array of the given schema format. The array is consumed in every case (moved
 * into nrt, or released). */
static int import_array(struct ArrowArray *a, const struct ArrowSchema *schema, bool *defer,
                        nrt_column **out) {
  const char *f = schema->format ? schema->format : "";
  int rc = -1;
  struct nrt_error err = {0};
  bool strings = !strcmp(f, "u") || !strcmp(f, "U") || !strcmp(f, "vu");
  if (!strings || schema->dictionary)
    *defer = false;
  if (schema->dictionary) {
    PyErr_SetString(PyExc_TypeError,
                    "nrt: dictionary-encoded (categorical) columns are not supported; decode "
                    "them first (pandas: .astype(str), pyarrow: .dictionary_decode())");
  } else if (strings && (*defer || a->length >= PARALLEL_VALIDATE_ROWS)) {
    rc = import_strings(a, f, *defer, out);
  } else if (!strcmp(f, "u") || !strcmp(f, "U") || !strcmp(f, "vu") || !strcmp(f, "l") ||
             !strcmp(f, "g") || !strcmp(f, "b")) {
    if (nrt_col_import_arrow(a, f, out, &err))
      pynrt_raise(&err);
    else
      rc = 0;
  } else if (!strcmp(f, "+l")) {
    if (nrt_col_import_arrow_schema(a, schema, 0, out, &err))
      pynrt_raise(&err);
    else
      rc = 0;
  } else if (strlen(f) == 1 && strchr("csiCSILf", f[0])) {
    rc = widen_array(a, f[0], out);
  } else if (!strcmp(f, "n")) {
    rc = null_column(a->length, out);
  } else {
    PyErr_Format(PyExc_TypeError,
                 "nrt: a column of Arrow format '%s' is not supported (string, large_string, "
                 "string_view, integer, float, bool and list<string | int64 | double | bool> "
                 "columns are)",
                 f);
  }
  if (a->release)
    a->release(a);
  return rc;
}

static int import_array_capsules(PyObject *pair, bool *defer, nrt_column **out) {
  if (!PyTuple_Check(pair) || PyTuple_Size(pair) != 2) {
    PyErr_SetString(PyExc_TypeError, "__arrow_c_array__ must return a (schema, array) tuple");
    return -1;
  }
  struct ArrowSchema *schema =
      PyCapsule_GetPointer(PyTuple_GetItem(pair, 0), "arrow_schema");
  struct ArrowArray *array = PyCapsule_GetPointer(PyTuple_GetItem(pair, 1), "arrow_array");
  if (!schema || !array)
    return -1;
  if (!array->release) {
    PyErr_SetString(PyExc_ValueError, "nrt: the Arrow array was already released");
    return -1;
  }
  return import_array(array, schema, defer, out);
}

/* The column type a stream's chunks are gathered into. */
static enum nrt_col_type gather_type(enum nrt_col_type t) {
  return nrt_col_type_is_string(t) ? NRT_COL_UTF8_VIEW : t;
}

/* Joins the chunks of a stream into one column (taking over their references). Strings are
 * gathered as utf8_view, whose views point into the chunks' bytes: no string is copied. */
static int join_chunks(nrt_column **chunks, size_t n, nrt_column **out) {
  if (n == 1) {
    *out = chunks[0];
    return 0;
  }
  struct nrt_error err = {0};
  int rc;
  enum nrt_col_type target = gather_type(chunks[0]->type);
  Py_BEGIN_ALLOW_THREADS
  rc = nrt_col_concat(chunks, n, target, out, &err);
  Py_END_ALLOW_THREADS
  for (size_t i = 0; i < n; i++)
    nrt_col_release(chunks[i]);
  if (rc) {
    pynrt_raise(&err);
    return -1;
  }
  return 0;
}

static int import_stream_capsule(PyObject *cap, nrt_column **out) {
  struct ArrowArrayStream *stream = PyCapsule_GetPointer(cap, "arrow_array_stream");
  if (!stream)
    return -1;
  if (!stream->release) {
    PyErr_SetString(PyExc_ValueError, "nrt: the Arrow stream was already released");
    return -1;
  }
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = -1;
  size_t n = 0, cap_chunks = 0;
  nrt_column **chunks = NULL;
  if (stream->get_schema(stream, &schema)) {
    const char *m = stream->get_last_error ? stream->get_last_error(stream) : NULL;
    PyErr_Format(PyExc_ValueError, "nrt: the Arrow stream failed: %s", m ? m : "no schema");
    goto done;
  }
  for (;;) {
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    if (stream->get_next(stream, &a)) {
      const char *m = stream->get_last_error ? stream->get_last_error(stream) : NULL;
      PyErr_Format(PyExc_ValueError, "nrt: the Arrow stream failed at chunk %zu: %s", n,
                   m ? m : "no message");
      goto done;
    }
    if (!a.release)
      break;
    if (a.length == 0 && n > 0) { /* nothing to keep */
      a.release(&a);
      continue;
    }
    if (n == cap_chunks) {
      size_t c = cap_chunks ? cap_chunks * 2 : 8;
      nrt_column **grown = PyMem_Realloc(chunks, c * sizeof *grown);
      if (!grown) {
        a.release(&a);
        PyErr_NoMemory();
        goto done;
      }
      chunks = grown;
      cap_chunks = c;
    }
    bool eager = false;
    if (import_array(&a, &schema, &eager, &chunks[n]) < 0) {
      if (!PyErr_Occurred())
        PyErr_SetString(PyExc_ValueError, "nrt: bad Arrow chunk");
      goto done;
    }
    n++;
  }
  if (n == 0) {
    /* An empty stream: an empty column of the schema's type. */
    const char *f = schema.format ? schema.format : "";
    bool strings = !strcmp(f, "u") || !strcmp(f, "U") || !strcmp(f, "vu");
    struct ArrowArray empty;
    struct owned_array *p = owned_array_init(&empty, 0, strings ? 3 : 2);
    if (!p || !owned_buffer(p, 1, 16) || (strings && !owned_buffer(p, 2, 8))) {
      if (p)
        empty.release(&empty);
      PyErr_NoMemory();
      goto done;
    }
    bool eager = false;
    rc = import_array(&empty, &schema, &eager, out);
    goto done;
  }
  rc = join_chunks(chunks, n, out);
  n = 0;
done:
  for (size_t i = 0; i < n; i++)
    nrt_col_release(chunks[i]);
  PyMem_Free(chunks);
  if (schema.release)
    schema.release(&schema);
  stream->release(stream);
  return rc;
}

/* --------------------------------------------------------------- numpy */

/* The element of a buffer-protocol format ('<q', '=d', 'l', ...), without byte-order marks;
 * 0 for formats nrt cannot read. */
static char buffer_kind(const char *fmt, Py_ssize_t itemsize) {
  if (!fmt)
    return itemsize == 1 ? 'B' : 0;
  if (*fmt == '@' || *fmt == '=' || *fmt == '<')
    fmt++;
  if (!fmt[0] || fmt[1])
    return 0;
  return fmt[0];
}

/* Reads element i of a buffer of kind k as an int64. */
static int64_t buffer_int(const Py_buffer *v, char k, Py_ssize_t i) {
  const char *p = (const char *)v->buf + i * v->itemsize;
  switch (v->itemsize) {
  case 1: return k == 'b' ? (int64_t) * (const int8_t *)p : (int64_t) * (const uint8_t *)p;
  case 2: return k == 'h' ? (int64_t) * (const int16_t *)p : (int64_t) * (const uint16_t *)p;
  case 4:
    return (k == 'i' || k == 'l') ? (int64_t) * (const int32_t *)p : (int64_t) * (const uint32_t *)p;
  default: return *(const int64_t *)p;
  }
}

static int import_buffer(PyObject *obj, nrt_column **out) {
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
    return -1;
  char k = buffer_kind(view.format, view.itemsize);
  Py_ssize_t n = view.itemsize ? view.len / view.itemsize : 0;
  bool is_signed = k && strchr("bhilq", k);
  bool is_int = k && strchr("bhilqBHILQ", k);
  if (view.ndim > 1 || (!is_int && k != 'f' && k != 'd' && k != '?')) {
    PyErr_Format(PyExc_TypeError,
                 "nrt: a buffer of format '%s' and %d dimensions is not a column (1-D int, "
                 "float and bool buffers are)",
                 view.format ? view.format : "B", view.ndim);
    PyBuffer_Release(&view);
    return -1;
  }
  if ((is_int && view.itemsize == 8 && is_signed) || (k == 'd' && view.itemsize == 8)) {
    /* Zero-copy: nrt's column points into the Python buffer, which stays held until nrt's
     * last reference goes. */
    struct ArrowArray a;
    struct owned_array *p = owned_array_init(&a, n, 2);
    if (!p) {
      PyBuffer_Release(&view);
      PyErr_NoMemory();
      return -1;
    }
    p->view = view;
    p->buffers[1] = view.buf;
    return import_owned(&a, k == 'd' ? "g" : "l", out);
  }
  enum nrt_col_type type =
      k == '?' ? NRT_COL_BOOL : (k == 'f' || k == 'd') ? NRT_COL_FLOAT64 : NRT_COL_INT64;
  nrt_col_builder *b;
  struct nrt_error err = {0};
  if (nrt_col_builder_new(type, n, &b, &err)) {
    PyBuffer_Release(&view);
    pynrt_raise(&err);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    const char *p = (const char *)view.buf + i * view.itemsize;
    if (k == '?') {
      nrt_col_builder_append_bool(b, *p != 0);
    } else if (k == 'f') {
      float f;
      memcpy(&f, p, sizeof f);
      nrt_col_builder_append_float64(b, f);
    } else if (k == 'd') {
      double d;
      memcpy(&d, p, sizeof d);
      nrt_col_builder_append_float64(b, d);
    } else if (!is_signed && view.itemsize == 8 && *(const uint64_t *)p > (uint64_t)INT64_MAX) {
      nrt_col_builder_abort(b);
      PyErr_Format(PyExc_OverflowError,
                   "nrt: row %zd: the uint64 value %llu does not fit nrt's int (int64)", i,
                   (unsigned long long)*(const uint64_t *)p);
      PyBuffer_Release(&view);
      return -1;
    } else {
      nrt_col_builder_append_int64(b, buffer_int(&view, k, i));
    }
  }
  PyBuffer_Release(&view);
  if (nrt_col_builder_finish(b, out, &err)) {
    pynrt_raise(&err);
    return -1;
  }
  return 0;
}

/* ------------------------------------------------------------ sequences */

/* The column type of a Python value, or 0 for None; -1 for an unsupported type. */
static int value_type(PyObject *o) {
  if (o == Py_None)
    return 0;
  if (PyUnicode_Check(o))
    return NRT_COL_UTF8_VIEW;
  if (PyBool_Check(o))
    return NRT_COL_BOOL;
  if (PyLong_Check(o))
    return NRT_COL_INT64;
  if (PyFloat_Check(o))
    return NRT_COL_FLOAT64;
  return -1;
}

static const char *type_word(int t) {
  switch (t) {
  case NRT_COL_UTF8_VIEW: return "str";
  case NRT_COL_BOOL: return "bool";
  case NRT_COL_INT64: return "int";
  case NRT_COL_FLOAT64: return "float";
  default: return "?";
  }
}

static int append_value(nrt_col_builder *b, int type, PyObject *o, Py_ssize_t row) {
  if (o == Py_None)
    return nrt_col_builder_append_null(b), 0;
  int t = value_type(o);
  if (t == NRT_COL_INT64 && type == NRT_COL_FLOAT64)
    t = NRT_COL_FLOAT64; /* ints among floats are floats, as numpy and pyarrow read them */
  if (t != type) {
    PyObject *tn = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__name__");
    PyErr_Format(PyExc_TypeError, "nrt: row %zd holds a %S where the column's rows are %s",
                 row, tn ? tn : Py_None, type_word(type));
    Py_XDECREF(tn);
    return -1;
  }
  switch (type) {
  case NRT_COL_UTF8_VIEW: {
    Py_ssize_t len;
    const char *s = PyUnicode_AsUTF8AndSize(o, &len);
    if (!s) {
      /* Lone surrogates have no UTF-8 form: name the row. */
      PyObject *e = PyErr_Occurred() ? Py_NewRef(PyErr_Occurred()) : NULL;
      PyErr_Clear();
      PyErr_Format(e ? e : PyExc_UnicodeError,
                   "nrt: row %zd is not encodable as UTF-8 (it holds a lone surrogate)", row);
      Py_XDECREF(e);
      return -1;
    }
    nrt_col_builder_append_view(b, s, len);
    return 0;
  }
  case NRT_COL_BOOL: nrt_col_builder_append_bool(b, o == Py_True); return 0;
  case NRT_COL_INT64: {
    long long v = PyLong_AsLongLong(o);
    if (v == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(PyExc_OverflowError, "nrt: row %zd: the int %S does not fit nrt's int "
                   "(int64)", row, o);
      return -1;
    }
    nrt_col_builder_append_int64(b, v);
    return 0;
  }
  default: nrt_col_builder_append_float64(b, PyFloat_AsDouble(o)); return 0;
  }
}

static int import_sequence(PyObject *obj, nrt_column **out) {
  PyObject *seq = PySequence_Tuple(obj);
  if (!seq)
    return -1;
  Py_ssize_t n = PyTuple_Size(seq);
  int type = 0;
  for (Py_ssize_t i = 0; i < n && type <= 0; i++) {
    PyObject *o = PyTuple_GetItem(seq, i);
    type = value_type(o);
    if (type < 0) {
      PyObject *tn = PyObject_GetAttrString((PyObject *)Py_TYPE(o), "__name__");
      PyErr_Format(PyExc_TypeError,
                   "nrt: row %zd holds a %S; column rows must be str, int, float, bool or None",
                   i, tn ? tn : Py_None);
      Py_XDECREF(tn);
      Py_DECREF(seq);
      return -1;
    }
  }
  if (type == 0)
    type = NRT_COL_UTF8_VIEW; /* only Nones (or empty): a str column */
  /* A float anywhere makes an int-started column float. */
  if (type == NRT_COL_INT64)
    for (Py_ssize_t i = 0; i < n; i++)
      if (PyFloat_Check(PyTuple_GetItem(seq, i))) {
        type = NRT_COL_FLOAT64;
        break;
      }
  nrt_col_builder *b;
  struct nrt_error err = {0};
  if (nrt_col_builder_new((enum nrt_col_type)type, n, &b, &err)) {
    Py_DECREF(seq);
    pynrt_raise(&err);
    return -1;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (append_value(b, type, PyTuple_GetItem(seq, i), i) < 0) {
      nrt_col_builder_abort(b);
      Py_DECREF(seq);
      return -1;
    }
  Py_DECREF(seq);
  if (nrt_col_builder_finish(b, out, &err)) {
    pynrt_raise(&err);
    return -1;
  }
  return 0;
}

/* ----------------------------------------------------------------- entry */

/* A column from any supported input; *defer (in: allowed, out: done): a string array's
 * per-row checks left to the apply. */
static int column_from_object(PyObject *obj, bool *defer, nrt_column **out) {
  *out = NULL;
  if (PyObject_TypeCheck(obj, pynrt_global->column_type)) {
    *defer = false;
    if (!(*out = pynrt_column_checked(obj)))
      return -1;
    nrt_col_retain(*out);
    return 0;
  }
  if (PyUnicode_Check(obj) || PyBytes_Check(obj) || PyByteArray_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "nrt: a %s is not a column",
                 PyUnicode_Check(obj) ? "str" : "bytes object");
    return -1;
  }
  int rc;
  if (PyObject_HasAttrString(obj, "__arrow_c_array__")) {
    PyObject *pair = PyObject_CallMethod(obj, "__arrow_c_array__", NULL);
    if (!pair)
      return -1;
    rc = import_array_capsules(pair, defer, out);
    Py_DECREF(pair);
    return rc;
  }
  *defer = false;
  if (PyObject_HasAttrString(obj, "__arrow_c_stream__")) {
    PyObject *cap = PyObject_CallMethod(obj, "__arrow_c_stream__", NULL);
    if (!cap)
      return -1;
    rc = import_stream_capsule(cap, out);
    Py_DECREF(cap);
    return rc;
  }
  if (PyObject_CheckBuffer(obj)) {
    rc = import_buffer(obj, out);
    if (rc == 0 || !PyErr_ExceptionMatches(PyExc_TypeError) || !PySequence_Check(obj))
      return rc;
    PyErr_Clear(); /* e.g. a numpy object array: read it as a sequence */
  }
  if (PySequence_Check(obj) || PyIter_Check(obj))
    return import_sequence(obj, out);
  PyObject *tn = PyObject_GetAttrString((PyObject *)Py_TYPE(obj), "__name__");
  PyErr_Format(PyExc_TypeError,
               "nrt: cannot make a column of a %S (Arrow arrays, pandas and Polars series, "
               "numpy arrays and sequences can be columns)",
               tn ? tn : Py_None);
  Py_XDECREF(tn);
  return -1;
}

int pynrt_column_from_object(PyObject *obj, nrt_column **out) {
  bool defer = false;
  return column_from_object(obj, &defer, out);
}

PyObject *pynrt_input_column(PyObject *self, PyObject *obj) {
  (void)self;
  bool defer = true;
  nrt_column *col;
  if (column_from_object(obj, &defer, &col) < 0)
    return NULL;
  PyObject *wrapped = pynrt_column_wrap(col);
  if (wrapped)
    ((pynrt_column *)wrapped)->rows_unchecked = defer;
  return wrapped;
}

nrt_column *pynrt_column_checked(PyObject *obj) {
  pynrt_column *c = (pynrt_column *)obj;
  if (c->rows_unchecked) {
    if (validate_parallel(c->col) < 0)
      return NULL;
    c->rows_unchecked = 0;
  }
  return c->col;
}

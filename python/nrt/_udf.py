"""nrt.udf and nrt.UDF: Python functions compiled by nrt and applied to columns."""

import functools
import threading

from . import _errors, _families, _nrt, _source

_ERRORS = ("stop", "null")

# Compiled UDFs of this process, per (source, entry, parameter kinds, file name): every UDF
# object with the same source shares them, so an unpickled UDF (a Dask worker's) compiles
# once per process.
_cache = {}
_cache_lock = threading.Lock()


def _compile(source, func, kinds, origin):
    key = (source, func, kinds, origin.compiled_name)
    compiled = _cache.get(key)
    if compiled is not None:
        return compiled
    try:
        compiled = _nrt.compile(source, func, kinds, origin.compiled_name)
    except _nrt.NativeError as e:
        raise _errors.compile_error(e.args[0], e.args[1], origin) from None
    with _cache_lock:
        return _cache.setdefault(key, compiled)


class UDF:
    """A Python-syntax function compiled by nrt. Call it with one column per parameter
    (pyarrow, pandas, Polars, numpy, a list, any Arrow PyCapsule object, or a scalar
    broadcast to every row). A null in any argument gives a null result row without calling
    the function. Compilation happens on the first call for each tuple of parameter types
    (str, int, float, bool) and is cached."""

    def __init__(self, source, *, func=None, threads=0, errors="stop", origin=None,
                 pyfunc=None):
        if errors not in _ERRORS:
            raise ValueError(f"errors must be 'stop' or 'null', not {errors!r}")
        if not isinstance(threads, int) or threads < 0:
            raise ValueError(f"threads must be an int >= 0 (0: all cores), not {threads!r}")
        self.source = source
        self.func = func
        self.threads = threads
        self.errors = errors
        self._origin = origin or _source.Origin("<udf>")
        self._last = None
        self._by_kinds = {}
        if pyfunc is not None:
            functools.update_wrapper(self, pyfunc)

    def __repr__(self):
        name = self.func or "<lambda>"
        return f"<nrt.UDF {name} threads={self.threads} errors={self.errors!r}>"

    def __reduce__(self):
        return (_rebuild, (self.source, self.func, self.threads, self.errors, self._origin))

    # ---- compilation

    def _default_kinds(self):
        n = _source.entry_arity(self.source, self.func)
        return (1,) * (n if n is not None else 1)

    def compiled(self, kinds=None):
        """The native compiled form for parameter kinds (a tuple of nrt value kinds: 1 str,
        2 int, 3 float, 4 bool); default all str."""
        kinds = tuple(kinds) if kinds is not None else self._default_kinds()
        c = _compile(self.source, self.func, kinds, self._origin)
        self._last = self._by_kinds[kinds] = c
        return c

    @property
    def info(self):
        """Compile times (ms) and refcount operations before and after pruning, of the last
        compilation (compiling for str parameters when there was none)."""
        return (self._last or self.compiled()).info

    def llvm_ir(self, stage="both", kinds=None):
        """The LLVM IR before and after refcount pruning ('both', titled sections as
        `nrt apply --emit-llvm` prints them), or only 'before' or 'after'."""
        kinds = tuple(kinds) if kinds is not None else self._default_kinds()
        try:
            text = _nrt.llvm_ir(self.source, self.func, kinds, self._origin.compiled_name)
        except _nrt.NativeError as e:
            raise _errors.compile_error(e.args[0], e.args[1], self._origin) from None
        if stage == "both":
            return text
        parts = text.split("; ===== ")
        for p in parts:
            if p.startswith(stage):
                return "; ===== " + p
        raise ValueError("stage must be 'both', 'before' or 'after'")

    # ---- application

    def __call__(self, *cols):
        return self.apply(*cols)

    def apply(self, *cols, threads=None, errors=None):
        """Applies the UDF to the columns (one per parameter); the result has the family of
        the first column argument. Row errors raise CPython's exception class with ``.row``
        (0-based), unless errors='null' turns failing rows into nulls."""
        threads = self.threads if threads is None else threads
        errors = self.errors if errors is None else errors
        if errors not in _ERRORS:
            raise ValueError(f"errors must be 'stop' or 'null', not {errors!r}")
        columns = []
        first = fam = None
        n = -1
        for v in cols:
            if not isinstance(v, _families.SCALAR_TYPES):
                v = _families.as_scalar(v)
            if isinstance(v, _families.SCALAR_TYPES):
                columns.append(v)
                continue
            f = _families.family(v)
            c = _families.column_of(v, f, for_apply=True)
            if first is None:
                first, fam = v, f
            if n >= 0 and len(c) != n:
                raise ValueError(f"nrt: the columns have different lengths ({n} and {len(c)})")
            n = len(c)
            columns.append(c)
        if n < 0:
            n = 1
        for i, c in enumerate(columns):
            if not isinstance(c, _nrt.Column):
                columns[i] = _nrt.broadcast(c, n)
        kinds = tuple([_families.KIND_OF_TYPE.get(c.type) for c in columns])
        if None in kinds:
            bad = columns[kinds.index(None)].type
            raise TypeError(f"nrt: a {bad} column cannot be a UDF argument (arguments are "
                            "str, int, float or bool columns)")
        compiled = self._by_kinds.get(kinds) or self.compiled(kinds)
        layout = _families.string_layout(fam, columns[0]) if fam else "utf8_view"
        try:
            out = compiled.apply(columns, threads, errors == "null", layout)
        except _nrt.NativeError as e:
            if len(e.args) < 3:
                raise  # an input's defect, reported as nrt.Column reports it
            code, message = e.args[0], e.args[1]
            row = e.args[2]
            if row is None or row < 0:
                raise RuntimeError(f"nrt: {message}") from None
            raise _errors.row_error(code, message, row) from None
        if fam is None:
            return out.to_pylist()[0]
        return _families.to_family(out, fam, first)


def _rebuild(source, func, threads, errors, origin):
    return UDF(source, func=func, threads=threads, errors=errors, origin=origin)


def udf(fn_or_source=None, *, threads=0, errors="stop"):
    """Compiles a Python function (or a source string: a lambda or defs) with nrt.

    Forms: ``nrt.udf(fn)``, ``nrt.udf("lambda s: s.upper()")``, ``@nrt.udf`` and
    ``@nrt.udf(threads=2, errors="null")``. Returns an :class:`nrt.UDF`."""
    if fn_or_source is None:
        return lambda fn: udf(fn, threads=threads, errors=errors)
    if isinstance(fn_or_source, str):
        return UDF(fn_or_source, threads=threads, errors=errors)
    if isinstance(fn_or_source, UDF):
        u = fn_or_source
        return UDF(u.source, func=u.func, threads=threads, errors=errors, origin=u._origin)
    if not callable(fn_or_source) or not hasattr(fn_or_source, "__code__"):
        raise TypeError(f"nrt.udf takes a Python function or a source string, not "
                        f"{type(fn_or_source).__name__}")
    source, func, origin = _source.function_source(fn_or_source)
    return UDF(source, func=func, threads=threads, errors=errors, origin=origin,
               pyfunc=fn_or_source)

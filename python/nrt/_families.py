"""The families of inputs nrt accepts and the results it gives back: a UDF's result has the
family of its first column argument (list, pandas, Polars, pyarrow); anything else gives an
nrt.Column. Nothing here imports pandas, Polars or pyarrow unless the input came from it."""

from . import _nrt

# nrt_value_kind (include/nrt/exec.h) of each column layout.
KIND_OF_TYPE = {"utf8": 1, "large_utf8": 1, "utf8_view": 1, "int64": 2, "float64": 3,
                "bool": 4}
LIST_KIND = 5


_family_of_type = {list: "list", tuple: "list"}


def _classify(t):
    mod = t.__module__ or ""
    if mod.startswith("pandas") and t.__name__ == "Series":
        return "pandas"
    if mod.startswith("polars") and t.__name__ == "Series":
        return "polars"
    if mod.startswith("pyarrow"):
        if t.__name__ == "ChunkedArray":
            return "pyarrow_chunked"
        if hasattr(t, "__arrow_c_array__"):
            return "pyarrow"
    return "column"


def family(obj):
    """'list', 'pandas', 'polars', 'pyarrow', 'pyarrow_chunked' or 'column' (cached per
    type: this runs on every call)."""
    t = type(obj)
    f = _family_of_type.get(t)
    if f is None:
        f = _family_of_type[t] = _classify(t)
    return f


def string_layout(fam, col):
    """The string layout a result is built in, so the family takes it without a copy."""
    if fam == "pandas":
        return "large_utf8"  # pandas' pyarrow-backed str dtype stores large_string
    if fam in ("pyarrow", "pyarrow_chunked") and col.type in ("utf8", "large_utf8"):
        return col.type      # pyarrow in, the same string type out
    return "utf8_view"


SCALAR_TYPES = (str, int, float, bool, type(None))


def is_scalar(obj):
    return isinstance(obj, SCALAR_TYPES)


def as_scalar(obj):
    """A numpy scalar (or 0-d array) as its Python value; other objects unchanged. Only numpy
    objects are asked: a Polars Series answers an unknown attribute through a slow fallback,
    which would cost more than the rest of a one-row call."""
    if type(obj).__module__ != "numpy":
        return obj
    if getattr(obj, "ndim", None) == 0 and hasattr(obj, "item"):
        return obj.item()
    return obj


def _pandas_result(col, source):
    """A pandas Series of the result column, index and name of ``source``. Strings stay in
    Arrow memory (pandas' pyarrow-backed str dtype, or the ArrowDtype the input had);
    numbers without nulls become numpy arrays over nrt's buffer (no copy)."""
    import pandas as pd
    import pyarrow as pa
    arrow_in = isinstance(source.dtype, pd.ArrowDtype)
    if col.type == "list":
        values = pd.arrays.ArrowExtensionArray(pa.chunked_array([pa.array(col)]))
    elif col.type == "large_utf8" and not arrow_in:
        values = pd.arrays.ArrowStringArray(pa.chunked_array([pa.array(col)]))
    elif arrow_in:
        values = pd.arrays.ArrowExtensionArray(pa.chunked_array([pa.array(col)]))
    elif col.null_count == 0 and col.type in ("int64", "float64"):
        import numpy as np
        values = np.frombuffer(col, dtype=np.int64 if col.type == "int64" else np.float64)
    else:
        arr = pa.array(col)
        nullable = {"int64": "Int64", "float64": "Float64", "bool": "boolean"}[col.type]
        values = pd.array(arr, dtype=nullable if col.null_count else None)
    return pd.Series(values, index=source.index, name=source.name, copy=False)


def to_family(col, fam, source):
    """The result column ``col`` in the family of ``source`` (the first column argument)."""
    if fam == "list":
        return col.to_pylist()
    if fam == "column":
        return col
    if fam == "pandas":
        return _pandas_result(col, source)
    if fam == "polars":
        import polars as pl
        return pl.Series(_Named(col, source.name))
    import pyarrow as pa
    arr = pa.array(col)
    if fam == "pyarrow":
        return arr
    return pa.chunked_array([arr], type=arr.type)


class _Named:
    """A column exported under a field name (Polars names a series after it)."""

    __slots__ = ("col", "name")

    def __init__(self, col, name):
        self.col, self.name = col, name

    def __arrow_c_array__(self, requested_schema=None):
        if requested_schema is not None:
            return self.col.__arrow_c_array__(requested_schema)
        return self.col._arrow_c_array_named(self.name)


_polars_newest = None


def _polars_column(obj, make):
    """A Polars series as a column: its Arrow arrays in the newest layout (string_view, as
    Polars stores strings), without copying."""
    global _polars_newest
    if _polars_newest is None:
        import polars as pl
        _polars_newest = pl.CompatLevel.newest()
    return make(obj.to_arrow(compat_level=_polars_newest))


def _pandas_column(obj, make):
    """A pandas Series as a column: Arrow-backed arrays hand over their pyarrow data, numpy
    numbers their buffer (both without copying), object arrays their Python objects."""
    arr = obj.array
    to_arrow = getattr(arr, "__arrow_array__", None)
    if to_arrow is not None and type(arr).__name__.startswith("Arrow"):
        return make(to_arrow())
    if obj.dtype.kind in "iufb" or obj.dtype == object:
        return make(obj.to_numpy())
    return make(obj)


def column_of(obj, fam=None, for_apply=False):
    """obj as an nrt.Column. for_apply: the column is only a UDF's input, so a string array's
    per-row checks are left to the apply, which runs them chunk by chunk while the bytes are in
    cache for the UDF (input_column)."""
    if isinstance(obj, _nrt.Column):
        return obj
    make = _nrt.input_column if for_apply else _nrt.Column
    fam = fam or family(obj)
    if fam == "pandas":
        return _pandas_column(obj, make)
    if fam == "polars":
        return _polars_column(obj, make)
    return make(obj)

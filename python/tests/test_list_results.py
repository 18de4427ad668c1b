"""UDFs returning lists or tuples of int, float or bool through the Python package: the result
is an Arrow list<int64> / list<double> / list<bool> (a pyarrow ListArray, a pandas column of
lists, a Polars list series), exported zero-copy, and list columns of numbers import zero-copy
too."""
import math

import pyarrow as pa
import pytest

import nrt

ROWS = ["a bb  ccc", None, "", "ünï cödé", "日本語 の テキスト", "3 1 4"]

CASES = [
    ("lambda s: [len(w) for w in s.split()]", pa.int64()),
    ("lambda s: (len(s), s.count(' '))", pa.int64()),
    ("lambda s: [len(w) / 2 for w in s.split()] + [1e16, -0.0]", pa.float64()),
    ("lambda s: [c.isalpha() for c in s]", pa.bool_()),
    ("lambda s: (s.isalpha(), s == '')", pa.bool_()),
]


def python_result(src, rows):
    f = eval(src)
    return [None if r is None else list(f(r)) for r in rows]


def same(got, want):
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and \
            all(same(g, w) for g, w in zip(got, want))
    if isinstance(want, float):
        return isinstance(got, float) and (got == want or math.isnan(got) and math.isnan(want)) \
            and math.copysign(1, got) == math.copysign(1, want)
    return got == want and type(got) is type(want)


@pytest.mark.parametrize("src,item", CASES)
def test_results_are_arrow_lists_of_numbers(src, item, balanced):
    f = nrt.udf(src)
    want = python_result(src, ROWS)
    f(["warm"])
    balanced()
    assert same(f(ROWS), want)
    out = f(pa.array(ROWS))
    assert out.type == pa.list_(item)
    out.validate(full=True)
    assert same(out.to_pylist(), want)
    del out


@pytest.mark.parametrize("src,item", CASES[:1] + CASES[2:4])
def test_pandas_and_polars(src, item):
    import pandas as pd
    import polars as pl
    f = nrt.udf(src)
    want = python_result(src, ROWS)
    got = f(pd.Series(ROWS, index=range(10, 16)))
    assert list(got.index) == list(range(10, 16))
    assert same([None if v is None or v is pd.NA else list(v) for v in got], want)
    series = f(pl.Series("w", ROWS))
    assert series.dtype == pl.List(pl.from_arrow(pa.array([], type=item)).dtype)
    assert same(series.to_list(), want)


def test_export_is_zero_copy():
    col = nrt.udf("lambda s: [len(w) for w in s.split()]")(nrt.Column(["a bb", "ccc"]))
    assert col.type == "list"
    arr = pa.array(col)
    assert arr.buffers()[1].address == col.buffers()[1].address  # nrt's own offsets
    assert arr.type == pa.list_(pa.int64()) and arr.to_pylist() == [[1, 2], [3]]


@pytest.mark.parametrize("typ,values", [
    (pa.int64(), [[1, None, -3], None, [], [2**62]]),
    (pa.float64(), [[1.5, None], None, [], [float("inf"), -0.0]]),
    (pa.bool_(), [[True, None, False], None, [], [True]]),
])
def test_list_columns_of_numbers_import_and_export(typ, values):
    arr = pa.array(values, type=pa.list_(typ))
    col = nrt.Column(arr)
    col.validate()
    assert col.type == "list" and same(col.to_pylist(), arr.to_pylist())
    assert col.buffers()[1].address == arr.buffers()[1].address  # zero-copy offsets
    back = pa.array(col)
    back.validate(full=True)
    assert back.type == pa.list_(typ) and same(back.to_pylist(), arr.to_pylist())


def test_mixed_tuple_is_a_compile_error():
    with pytest.raises(Exception, match="returning a tuple of mixed types"):
        nrt.udf("lambda s: (s, len(s))")(["x"])

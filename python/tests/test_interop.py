"""Arrow interop: zero-copy imports of every string layout (sliced, chunked, with nulls,
string_view inline and out of line), widened numeric types, zero-copy exports that pyarrow
validates, and the Column API (buffers, buffer protocol, refcount)."""
import gc

import numpy as np
import pyarrow as pa
import pytest

import nrt

WORDS = ["alpha", "Straße", None, "ΣΊΣΥΦΟΣ", "", "日本語テキスト", "a" * 40, "x😀y"]
upper = nrt.udf(lambda s: s.upper())


def expected_upper(values):
    return [None if v is None else v.upper() for v in values]


def data_address(arr):
    return arr.buffers()[-1].address if arr.buffers()[-1] is not None else None


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.string_view()])
def test_import_string_layouts_zero_copy(typ):
    arr = pa.array(WORDS, type=typ)
    col = nrt.Column(arr)
    assert col.to_pylist() == WORDS
    assert col.null_count == 1
    # The column's buffers are pyarrow's own: same addresses, nothing copied.
    src = [b.address if b is not None else None for b in arr.buffers()]
    mine = [b.address if b is not None else None for b in col.buffers()]
    if typ == pa.string_view():
        assert mine[1] == src[1] and mine[2] == src[2]  # views and the long strings' data
    else:
        assert mine[1:3] == src[1:3]
    out = upper(arr)
    assert isinstance(out, pa.Array)
    out.validate(full=True)
    assert out.to_pylist() == expected_upper(WORDS)


def test_string_view_inline_and_out_of_line():
    short = ["abc", "0123456789ab"]                  # <= 12 bytes: inline views
    long = ["0123456789abc", "ü" * 30]               # out of line
    arr = pa.array(short + long, type=pa.string_view())
    assert upper(arr).to_pylist() == [s.upper() for s in short + long]


def test_sliced_and_chunked():
    arr = pa.array(WORDS)
    sl = arr.slice(2, 5)
    out = upper(sl)
    out.validate(full=True)
    assert out.to_pylist() == expected_upper(WORDS[2:7])
    chunked = pa.chunked_array([arr.slice(1, 3), pa.array(["q"]), arr.slice(5)])
    out = upper(chunked)
    assert isinstance(out, pa.ChunkedArray)
    out.validate(full=True)
    assert out.to_pylist() == expected_upper(WORDS[1:4] + ["q"] + WORDS[5:])
    # Chunks of long strings are gathered as views into the chunks' bytes: no copy.
    col = nrt.Column(pa.chunked_array([pa.array(["x" * 20]), pa.array(["y" * 20])]))
    assert col.type == "utf8_view"
    assert col.to_pylist() == ["x" * 20, "y" * 20]
    empty = nrt.Column(pa.chunked_array([], type=pa.string()))
    assert len(empty) == 0


@pytest.mark.parametrize("typ", [pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(),
                                 pa.uint16(), pa.uint32(), pa.uint64()])
def test_integer_types(typ):
    vals = [0, 1, None, 100]
    out = nrt.udf(lambda n: n * 2 + 1)(pa.array(vals, type=typ))
    assert out.type == pa.int64()
    assert out.to_pylist() == [1, 3, None, 201]


def test_uint64_overflow_names_the_row():
    with pytest.raises(OverflowError, match="row 1"):
        nrt.Column(pa.array([1, 2**63], type=pa.uint64()))


def test_floats_bools_and_null_type():
    f = nrt.udf(lambda x: x / 2)
    assert f(pa.array([1.0, None, 3.0], type=pa.float32())).to_pylist() == [0.5, None, 1.5]
    assert f(pa.array([5.0])).to_pylist() == [2.5]
    assert nrt.udf(lambda b: not b)(pa.array([True, None, False])).to_pylist() == \
        [False, None, True]
    assert nrt.udf(lambda s: s + "!")(pa.array([None, None])).to_pylist() == [None, None]


def test_unsupported_types_are_clear_errors():
    with pytest.raises(TypeError, match="format"):
        nrt.Column(pa.array([b"x"], type=pa.binary()))
    with pytest.raises(TypeError, match="dictionary"):
        nrt.Column(pa.array(["a", "b", "a"]).dictionary_encode())


def test_invalid_utf8_from_arrow_is_rejected_with_row():
    bad = pa.Array.from_buffers(pa.string(), 2, [None, pa.py_buffer(
        np.array([0, 1, 3], dtype=np.int32).tobytes()), pa.py_buffer(b"a\xff\xfe")])
    with pytest.raises(nrt._nrt.NativeError, match="row"):
        nrt.Column(bad)


def test_export_is_zero_copy_and_keeps_memory_alive():
    col = nrt.udf(lambda s: s * 3)(nrt.Column(["ab" * 10, "c"]))
    addrs = [b.address for b in col.buffers() if b is not None]
    arr = pa.array(col)
    arr.validate(full=True)
    assert [b.address for b in arr.buffers() if b is not None][:len(addrs)] == addrs
    refs = col.refcount
    del col
    gc.collect()
    assert arr.to_pylist() == ["ab" * 30, "ccc"]   # pyarrow's array keeps nrt's memory
    assert refs >= 2


def test_export_stream_and_requested_schema():
    import polars as pl
    col = nrt.Column(["a", None, "b"])
    assert pl.Series(col).to_list() == ["a", None, "b"]        # through __arrow_c_stream__
    # A consumer asking for another string layout gets it.
    arr = pa.array(col, type=pa.large_string())
    assert arr.type == pa.large_string() and arr.to_pylist() == ["a", None, "b"]


def test_output_layout_follows_pyarrow_input():
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        out = upper(pa.array(["a"], type=typ))
        assert out.type == typ


def test_buffers_and_buffer_protocol():
    col = nrt.Column(["héllo", "wörld"])
    for b in col.buffers():
        if b is not None:
            assert len(bytes(memoryview(b))) == b.size
    ints = nrt.Column(np.arange(5, dtype=np.int64))
    view = np.asarray(ints)
    assert view.tolist() == [0, 1, 2, 3, 4]
    flo = nrt.Column([1.5, 2.5])
    assert memoryview(flo).format == "d" and memoryview(flo).tolist() == [1.5, 2.5]
    utf8 = nrt.Column(pa.array(["ab", "cd"]))
    assert bytes(memoryview(utf8)) == b"abcd"
    with pytest.raises(BufferError):
        memoryview(nrt.Column([True]))


def test_numpy_zero_copy_and_owner_lifetime():
    a = np.arange(1000, dtype=np.int64)
    col = nrt.Column(a)
    assert col.buffers()[1].address == a.ctypes.data    # nrt reads numpy's memory
    del a
    gc.collect()
    assert col.to_pylist()[-1] == 999                   # the array lives as long as col
    narrow = nrt.Column(np.array([1, 2], dtype=np.int16))
    assert narrow.type == "int64" and narrow.to_pylist() == [1, 2]
    assert nrt.Column(np.array([True, False])).to_pylist() == [True, False]
    assert nrt.Column(np.array(["a", None], dtype=object)).to_pylist() == ["a", None]


def test_capsule_only_objects():
    class OnlyArray:
        def __init__(self, arr):
            self.arr = arr

        def __arrow_c_array__(self, requested_schema=None):
            return self.arr.__arrow_c_array__(requested_schema)

    class OnlyStream:
        def __init__(self, arr):
            self.arr = arr

        def __arrow_c_stream__(self, requested_schema=None):
            return self.arr.__arrow_c_stream__(requested_schema)

    out = upper(OnlyArray(pa.array(["a", None])))
    assert isinstance(out, nrt.Column) and out.to_pylist() == ["A", None]
    out = upper(OnlyStream(pa.chunked_array([["b"], ["c"]])))
    assert out.to_pylist() == ["B", "C"]


def test_column_validate_and_repr():
    col = nrt.Column(["a"])
    col.validate()
    assert "utf8_view" in repr(col) and col.type == "utf8_view"
    assert col[0] == "a" and list(col) == ["a"]
    with pytest.raises(IndexError):
        col[1]


def test_list_and_tuple_results_are_arrow_lists():
    import pandas as pd
    import polars as pl
    split = nrt.udf(lambda s: s.split())
    rows = ["a b  c", None, "", "ünï cödé"]
    want = [None if r is None else r.split() for r in rows]
    assert split(rows) == want
    out = split(pa.array(rows))
    assert pa.types.is_list(out.type)
    out.validate(full=True)
    assert out.to_pylist() == want
    assert split(pl.Series("w", rows)).to_list() == want
    got = split(pd.Series(rows, index=[3, 4, 5, 6]))
    assert list(got.index) == [3, 4, 5, 6]
    assert [None if v is None or v is pd.NA else list(v) for v in got] == want
    part = nrt.udf(lambda s: s.partition("@"))
    assert part(["me@x.org", "none"]) == [["me", "@", "x.org"], ["none", "", ""]]


def test_list_columns_import_and_export():
    arr = pa.array([["a", "b"], None, [], ["ß"]], type=pa.list_(pa.string()))
    col = nrt.Column(arr)
    assert col.type == "list" and col.to_pylist() == arr.to_pylist()
    back = pa.array(col)
    back.validate(full=True)
    assert back.to_pylist() == arr.to_pylist()
    with pytest.raises(TypeError, match="list column"):
        upper(col)


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_large_imports_are_validated_on_all_cores_and_name_the_bad_row(typ):
    n = 100_000
    good = pa.array([f"wörd{i}" for i in range(n)], type=typ)
    assert nrt.Column(good).to_pylist()[-1] == f"wörd{n - 1}"
    offsets, data = good.buffers()[1], bytearray(good.buffers()[2].to_pybytes())
    width = np.int32 if typ == pa.string() else np.int64
    bad_row = 70_001
    start = int(np.frombuffer(offsets, dtype=width)[bad_row])
    data[start + 1] = 0xFF                      # the second byte of 'wörd...' of that row
    bad = pa.Array.from_buffers(typ, n, [None, offsets, pa.py_buffer(bytes(data))])
    with pytest.raises(nrt._nrt.NativeError, match=f"row {bad_row}: invalid UTF-8"):
        nrt.Column(bad)
    # A producer whose null count disagrees with its bitmap is caught too.
    with_nulls = pa.array([None if i % 7 == 0 else "x" for i in range(n)], type=typ)
    lying = pa.Array.from_buffers(typ, n, with_nulls.buffers(), null_count=3)
    with pytest.raises(nrt._nrt.NativeError, match="null"):
        nrt.Column(lying)


def _corrupt(n, bad_row):
    """n rows 'wörd<i>' in a utf8 array whose row bad_row holds a byte that is no UTF-8."""
    good = pa.array([f"wörd{i}" for i in range(n)])
    offsets, data = good.buffers()[1], bytearray(good.buffers()[2].to_pybytes())
    data[int(np.frombuffer(offsets, dtype=np.int32)[bad_row]) + 1] = 0xFF
    return good, pa.Array.from_buffers(pa.string(), n, [None, offsets, pa.py_buffer(bytes(data))])


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("n,bad_row", [(3, 1), (100_000, 70_001)])
def test_udf_inputs_are_checked_by_the_apply_chunk_by_chunk(threads, n, bad_row):
    good, bad = _corrupt(n, bad_row)
    shout = nrt.udf("lambda s: s.upper()", threads=threads, errors="null")
    assert shout(good).to_pylist()[-1] == f"WÖRD{n - 1}"
    # The defect stops the apply even with errors='null', naming the column and row as
    # nrt.Column does.
    with pytest.raises(nrt._nrt.NativeError,
                       match=f"input column 0: row {bad_row}: invalid UTF-8 at byte 1"):
        shout(bad)
    # Rows are checked a chunk (at most 16,384 rows) at a time, before any call on them: a
    # row that raises in an earlier chunk is the error, as when rows run one by one.
    to_int = nrt.udf("lambda s: int(s)", threads=threads)
    if bad_row >= 16_384:
        with pytest.raises(ValueError, match="invalid literal") as e:
            to_int(bad)
        assert e.value.row == 0
    else:
        with pytest.raises(nrt._nrt.NativeError, match=f"row {bad_row}: invalid UTF-8"):
            to_int(bad)
    # pandas inputs take the same path.
    pd = pytest.importorskip("pandas")
    with pytest.raises(nrt._nrt.NativeError, match=f"row {bad_row}: invalid UTF-8"):
        shout(pd.Series(bad, dtype=pd.ArrowDtype(pa.string())))


def test_an_input_column_is_checked_before_anything_reads_its_rows():
    good, bad = _corrupt(5, 3)
    for read in (lambda c: c.to_pylist(), lambda c: c[0], lambda c: pa.array(c),
                 lambda c: c.buffers(), lambda c: nrt.Column(c)):
        with pytest.raises(nrt._nrt.NativeError, match="row 3: invalid UTF-8"):
            read(nrt._nrt.input_column(bad))
    c = nrt._nrt.input_column(good)
    assert c.to_pylist() == good.to_pylist() and pa.array(c).equals(good)

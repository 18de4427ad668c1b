"""The recipes of the README: pandas, Polars, DuckDB and Dask calling nrt UDFs."""
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest

import nrt

tag = nrt.udf(lambda s: s.upper() + "abc")
WORDS = ["straße", "x", None, "ǅungla", "ﬁx"]
EXPECTED = [None if w is None else w.upper() + "abc" for w in WORDS]


def test_pandas_pipe_and_assign():
    df = pd.DataFrame({"s": WORDS}, index=[10, 11, 12, 13, 14])
    out = df["s"].pipe(tag)
    assert isinstance(out, pd.Series)
    assert list(out.index) == [10, 11, 12, 13, 14] and out.name == "s"
    assert [None if pd.isna(v) else v for v in out] == EXPECTED
    df2 = df.assign(t=lambda d: tag(d["s"]))
    assert [None if pd.isna(v) else v for v in df2["t"]] == EXPECTED


def test_pandas_object_and_arrow_dtypes():
    obj = pd.Series(WORDS, dtype=object, name="o")
    assert [None if pd.isna(v) else v for v in tag(obj)] == EXPECTED
    arrow = pd.Series(WORDS, dtype=pd.ArrowDtype(pa.string()))
    out = tag(arrow)
    assert isinstance(out.dtype, pd.ArrowDtype)
    assert [None if pd.isna(v) else v for v in out] == EXPECTED
    lengths = nrt.udf(lambda s: len(s))(pd.Series(["ab", "c"]))
    assert lengths.dtype == "int64" and lengths.tolist() == [2, 1]
    with_nulls = nrt.udf(lambda s: len(s))(pd.Series(["ab", None]))
    assert with_nulls.isna().tolist() == [False, True]


def test_polars_map_batches_and_with_columns():
    df = pl.DataFrame({"s": WORDS})
    out = df.select(pl.col("s").map_batches(tag, return_dtype=pl.String))
    assert out["s"].to_list() == EXPECTED
    df2 = df.with_columns(t=pl.col("s").map_batches(tag, return_dtype=pl.String))
    assert df2["t"].to_list() == EXPECTED
    s = tag(pl.Series("name", WORDS))
    assert isinstance(s, pl.Series) and s.name == "name" and s.to_list() == EXPECTED


def test_duckdb_arrow_udf_from_sql():
    duckdb = pytest.importorskip("duckdb")
    con = duckdb.connect()
    con.create_function("nrt_tag", tag, [duckdb.sqltype("VARCHAR")],
                        duckdb.sqltype("VARCHAR"), type="arrow")
    con.create_function("nrt_len", nrt.udf(lambda s: len(s)), [duckdb.sqltype("VARCHAR")],
                        duckdb.sqltype("BIGINT"), type="arrow")
    con.execute("CREATE TABLE t AS SELECT * FROM (VALUES ('straße'), ('x'), (NULL)) v(s)")
    rows = con.execute("SELECT nrt_tag(s), nrt_len(s) FROM t").fetchall()
    assert rows == [("STRASSEabc", 6), ("Xabc", 1), (None, None)]
    # Many rows: DuckDB hands over vectors of 2,048 rows.
    n = con.execute("SELECT count(*) FROM range(10000) r(i) "
                    "WHERE nrt_tag(i::VARCHAR) = i::VARCHAR || 'abc'").fetchone()[0]
    assert n == 10000


def test_dask_map_partitions_on_a_local_cluster():
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    words = [f"w{i}ß" for i in range(400)]
    pdf = pd.DataFrame({"s": words})
    ddf = dd.from_pandas(pdf, npartitions=4)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        out = ddf["s"].map_partitions(tag, meta=("s", "str")).compute()
        assert list(out) == [w.upper() + "abc" for w in words]
        # Each worker compiled the UDF once, whatever the number of partitions.
        counts = client.run(lambda: len(nrt._udf._cache))
        assert all(c == 1 for c in counts.values())

"""The engines of bench_peers. Each takes a corpus (a pyarrow utf8 array) into its own
container before timing (`load`), gives a callable per UDF that runs the UDF once over that
container (`form`, None where the engine cannot say the UDF), and turns a result into a
pyarrow array for the check against CPython (`to_arrow`). `native`: compiled code of the
engine's own (the bar for nrt). `threaded` engines take the thread count; the others (no
thread knob, or Python per row under the GIL) are run once, at 1 thread, and their time
stands for both columns. `hook`: calls Python per row (timed in fewer runs, --hook-runs)."""
import warnings

import pyarrow as pa

# Polars warns that map_elements is slow, and suggests the native expression.
warnings.filterwarnings("ignore")


def _plain(arr):
    return arr.combine_chunks() if isinstance(arr, pa.ChunkedArray) else arr


class Nrt:
    name, native, threaded, hook = "nrt", False, True, False

    def __init__(self, threads):
        import nrt
        self.nrt, self.threads, self.compile_ms = nrt, threads, {}

    def load(self, arr):
        return arr

    def form(self, udf, data):
        errors = "null" if udf.null_errors else "stop"
        u = self.nrt.udf(udf.fn, threads=self.threads, errors=errors)
        u(data.slice(0, 8))  # compiles
        self.compile_ms[udf.name] = u.info["compile_ms"]
        return lambda: u(data)

    def to_arrow(self, res):
        return res


class Polars:
    name, native, threaded, hook = "polars", True, True, False

    def __init__(self, threads):
        import polars as pl
        self.pl = pl

    def load(self, arr):
        return self.pl.DataFrame({"s": arr})

    def form(self, udf, df):
        expr = udf.polars(self.pl.col("s"), self.pl).alias("r")
        return lambda: df.lazy().select(expr).collect(engine="streaming")

    def to_arrow(self, res):
        return res["r"].to_arrow()


class PolarsMap:
    # Python per row holds the GIL: a second thread cannot help, so it runs at 1 thread only.
    name, native, threaded, hook = "polars map_elem", False, False, True

    def __init__(self, threads):
        import polars as pl
        self.pl = pl

    def load(self, arr):
        return self.pl.Series("s", arr)

    def form(self, udf, ser):
        dtype = self.pl.String if udf.out == "str" else self.pl.Int64
        return lambda: ser.map_elements(udf.py, return_dtype=dtype)

    def to_arrow(self, res):
        return res.to_arrow()


class DuckDB:
    name, native, threaded, hook = "duckdb", True, True, False

    def __init__(self, threads):
        import duckdb
        self.con = duckdb.connect()
        self.con.execute(f"SET threads={threads}")

    def load(self, arr):
        # A table of DuckDB's own, as data already in the engine (reading a registered Arrow
        # table was slower); the result is fetched as an Arrow table, as nrt returns Arrow.
        self.con.register("corpus", pa.table({"s": arr}))
        self.con.execute("CREATE OR REPLACE TABLE t AS SELECT * FROM corpus")
        self.con.unregister("corpus")
        return "t"

    def form(self, udf, t):
        if udf.duckdb is None:
            return None
        query = f"SELECT {udf.duckdb} AS r FROM {t}"
        return lambda: self.con.execute(query).to_arrow_table()

    def to_arrow(self, res):
        return res.column(0)


class DuckDBUdf(DuckDB):
    # Python per row holds the GIL, as for map_elements: 1 thread only.
    name, native, threaded, hook = "duckdb py udf", False, False, True

    def form(self, udf, t):
        import duckdb
        py = udf.py
        out = pa.string() if udf.out == "str" else pa.int64()

        def batch(col):  # the arrow form: one call per vector, faster than one per row
            return pa.array([py(s) for s in col.to_pylist()], out)

        self.count = getattr(self, "count", 0) + 1
        name = f"py_{udf.name}_{self.count}"
        self.con.create_function(name, batch, [duckdb.sqltype("VARCHAR")],
                                 duckdb.sqltype("VARCHAR" if udf.out == "str" else "BIGINT"),
                                 type="arrow", side_effects=False,
                                 null_handling="special" if udf.null_errors else "default")
        query = f"SELECT {name}(s) AS r FROM {t}"
        return lambda: self.con.execute(query).to_arrow_table()


class PyArrow:
    name, native, threaded, hook = "pyarrow", True, False, False

    def __init__(self, threads):
        import pyarrow.compute as pc
        self.pc = pc

    def load(self, arr):
        return arr

    def form(self, udf, arr):
        if udf.pyarrow is None:
            return None
        return lambda: udf.pyarrow(arr, self.pc)

    def to_arrow(self, res):
        return res


class Pandas:
    name, native, threaded, hook = "pandas .str", True, False, False

    def __init__(self, threads):
        import pandas as pd
        self.pd = pd

    def load(self, arr):
        s = arr.to_pandas()  # pandas 3's default str dtype, stored in pyarrow
        assert str(s.dtype) == "str", s.dtype
        return s

    def form(self, udf, s):
        if udf.pandas is None:
            return None
        return lambda: udf.pandas(s, self.pd)

    def to_arrow(self, res):
        return _plain(pa.array(res, from_pandas=True))


class PandasApply(Pandas):
    name, native, threaded, hook = "pandas apply", False, False, True

    def form(self, udf, s):
        return lambda: s.apply(udf.py)


class Numba:
    """@njit over a numba.typed.List of str (built in compiled code: List(rows) costs ~15
    us/row), results appended to a typed List (str) or written into an int64 array."""
    name, native, threaded, hook = "numba", True, False, False

    def __init__(self, threads):
        import numba
        from numba.typed import List
        self.numba, self.compile_ms = numba, {}

        @numba.njit
        def to_typed(items):
            out = List()
            for s in items:
                out.append(s)
            return out

        @numba.njit
        def joined(items):
            return "\x00".join(items)

        self.to_typed, self.joined = to_typed, joined

    def load(self, arr):
        return self.to_typed(arr.to_pylist())

    def form(self, udf, items):
        import time

        import numpy as np
        from numba.typed import List
        if udf.numba is None:
            return None
        f = self.numba.njit(udf.numba)
        if udf.out == "str":
            def run(items):
                out = List()
                for s in items:
                    out.append(f(s))
                return out
        else:
            def run(items):
                out = np.empty(len(items), np.int64)
                for i in range(len(items)):
                    out[i] = f(items[i])
                return out
        run = self.numba.njit(run)
        t = time.perf_counter()
        run(items[:4])
        self.compile_ms[udf.name] = (time.perf_counter() - t) * 1000.0
        return lambda: run(items)

    def to_arrow(self, res):
        if isinstance(res, self.numba.typed.List):
            # one str out of compiled code, split here: list(res) costs ~7 s per 1M rows
            return pa.array(self.joined(res).split("\x00") if len(res) else [], pa.string())
        return pa.array(res)


class CPython:
    name, native, threaded, hook = "cpython", False, False, False

    def __init__(self, threads):
        pass

    def load(self, arr):
        return arr.to_pylist()

    def form(self, udf, rows):
        f = udf.py
        return lambda: [f(s) for s in rows]

    def to_arrow(self, res):
        return pa.array(res)


# Table order: nrt, the native peers, the engines that run Python per row, CPython.
ENGINES = (Nrt, Polars, DuckDB, PyArrow, Pandas, Numba, PolarsMap, DuckDBUdf, PandasApply,
           CPython)

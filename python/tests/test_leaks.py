"""No leak: nrt's statistics balance after applies, errors and exports, and RSS stays flat
over 1,000 applies."""
import gc
import os
import resource

import pyarrow as pa
import pytest

import nrt
from conftest import live


def rss_kb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() // 1024


def test_stats_balance_over_applies_errors_and_exports(balanced):
    f = nrt.udf(lambda s: s.upper() + s.lower() * 2)
    g = nrt.udf(lambda s: int(s))
    data = pa.array(["abc", "Straße", None, "x" * 100] * 100)
    f(data), g(["1"]), g.apply(["x"], errors="null")     # compile outside the measurement
    balanced()
    for _ in range(20):
        out = f(data)
        held = pa.chunked_array([pa.array(nrt.Column(out))])
        del out
        assert held.length() == 400
        del held
        try:
            g(["1", "2", "bad"])
        except ValueError:
            pass
        g.apply(["1", "bad"], errors="null")


def test_imported_arrow_memory_is_released(balanced):
    f = nrt.udf(lambda s: s + "!")
    f(["warm"])
    balanced()
    base = pa.total_allocated_bytes()
    arr = pa.array(["a" * 50] * 1000)
    col = nrt.Column(arr)
    del arr
    gc.collect()
    assert pa.total_allocated_bytes() >= base + 50_000   # nrt holds pyarrow's buffers alive
    assert col.to_pylist()[0] == "a" * 50
    del col
    gc.collect()
    assert pa.total_allocated_bytes() < base + 1_000     # ... and released them after


@pytest.mark.skipif(os.environ.get("NRT_UNDER_SANITIZER") == "1",
                    reason="ASan's quarantine holds freed memory on purpose")
def test_rss_flat_over_1000_applies():
    f = nrt.udf(lambda s: s.replace("a", "ß").upper())
    data = pa.array([f"word{i}a" for i in range(2000)])
    for _ in range(50):
        f(data)
    gc.collect()
    start = rss_kb()
    base = live()
    for _ in range(1000):
        f(data)
    gc.collect()
    assert live() == base
    assert rss_kb() - start < 8 * 1024, "RSS grew by more than 8 MiB over 1,000 applies"


def test_polars_and_pyarrow_consumers_keep_results_alive(balanced):
    import polars as pl
    f = nrt.udf(lambda s: s * 20)
    f(["warm"])
    balanced()
    out = f(nrt.Column(["ab", "ü", None]))
    addresses = {b.address for b in out.buffers() if b is not None}
    series = pl.Series(out)
    arr = pa.array(out)
    assert {b.address for b in arr.buffers() if b is not None} & addresses  # no copy
    del out
    gc.collect()
    assert series.to_list() == ["ab" * 20, "ü" * 20, None]
    assert arr.to_pylist() == ["ab" * 20, "ü" * 20, None]
    del series, arr     # the last consumers go: their release callbacks free nrt's memory


def test_large_output_buffers_are_kept_for_reuse_and_released():
    f = nrt.udf(lambda s: s + "-suffix")
    data = pa.array([f"row number {i}" for i in range(200_000)])   # output buffers > 1 MiB
    nrt.release_memory()
    assert nrt.stats()["cached_bytes"] == 0
    out = f(data)
    assert out[123].as_py() == "row number 123-suffix"
    del out
    gc.collect()
    keeps = os.environ.get("NRT_UNDER_SANITIZER") != "1" and os.environ.get("NRT_BLOCK_CACHE") != "0"
    cached = nrt.stats()["cached_bytes"]
    assert (cached >= 1 << 20) if keeps else cached == 0
    assert cached <= 96 << 20
    again = f(data)                          # served from the kept buffers
    assert again[199_999].as_py() == "row number 199999-suffix"
    del again
    nrt.release_memory()
    assert nrt.stats()["cached_bytes"] == 0

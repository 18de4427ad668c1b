"""Per-call cost of a compiled UDF from Python, next to Polars map_elements and pandas apply
running the same function, for 1, 100 and 10,000 rows (never a test: machines are noisy).

Run: .venv/bin/python bench/python/bench_overhead.py   (after scripts/python-package.sh)

Each cell is the median over 7 rounds of the mean time per call. nrt's fixed overhead is its
1-row time; the goal is <= 20 us, and faster than both peers from 1 row up, each engine
called on its own family (pyarrow, Polars and pandas series for nrt)."""
import statistics
import sys
import time
import warnings

import pandas as pd
import polars as pl
import pyarrow as pa

import nrt

warnings.filterwarnings("ignore")  # Polars' advice to use native expressions instead


def fn(s):
    return s.upper() + "abc"


def per_call_us(call, rows):
    call()
    reps = max(20, min(5000, 200000 // max(rows, 1)))
    rounds = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(reps):
            call()
        rounds.append((time.perf_counter() - t) / reps * 1e6)
    return statistics.median(rounds)


def main():
    udf = nrt.udf(fn)
    print(f"nrt {nrt.__version__}, pandas {pd.__version__}, polars {pl.__version__}, "
          f"pyarrow {pa.__version__}, python {sys.version.split()[0]}")
    header = (f"{'rows':>6} | {'nrt pyarrow':>11} {'nrt polars':>10} {'nrt pandas':>10} | "
              f"{'pl map_el':>9} {'pd apply':>9} | {'vs pl':>6} {'vs pd':>6}")
    print("microseconds per call (median of 7 rounds)")
    print(header)
    print("-" * len(header))
    results = []
    for rows in (1, 100, 10000):
        words = [f"word{i}ß" for i in range(rows)]
        arr, ps, pds = pa.array(words), pl.Series("s", words), pd.Series(words, name="s")
        t_pa = per_call_us(lambda: udf(arr), rows)
        t_pl = per_call_us(lambda: udf(ps), rows)
        t_pd = per_call_us(lambda: udf(pds), rows)
        p_pl = per_call_us(lambda: ps.map_elements(fn, return_dtype=pl.String), rows)
        p_pd = per_call_us(lambda: pds.apply(fn), rows)
        results.append((rows, t_pa, t_pl, t_pd, p_pl, p_pd))
        print(f"{rows:>6} | {t_pa:>11.1f} {t_pl:>10.1f} {t_pd:>10.1f} | {p_pl:>9.1f} "
              f"{p_pd:>9.1f} | {p_pl / t_pl:>5.1f}x {p_pd / t_pd:>5.1f}x")
    one = results[0]
    print()
    print(f"fixed overhead (1 row, pyarrow): {one[1]:.1f} us  goal <= 20 us: "
          f"{'met' if one[1] <= 20 else 'missed'}")
    faster = all(r[2] < r[4] and r[3] < r[5] for r in results)
    print(f"faster than Polars map_elements and pandas apply at every size: "
          f"{'met' if faster else 'missed'}")


if __name__ == "__main__":
    main()

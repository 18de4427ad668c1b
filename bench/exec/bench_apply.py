"""Baselines for bench_exec_apply: the seed UDF of DESIGN.md over the benchmark's corpus.

Usage: /usr/bin/python3 bench_apply.py CORPUS RESULTS RUNS
CORPUS holds one string per line (UTF-8). Prints one "name wall_ms cpu_ms" line per baseline
(medians of RUNS timed runs) and writes CPython's results to RESULTS, one per line, for the C side to
compare with its own.
"""
import statistics
import sys
import time


def udf(string):
    if len(string) > 2:
        result = string.upper()      # new allocation
    else:
        result = string + string     # new allocation
    return result + 'abc'


def median_ms(fn, runs):
    """Median wall and CPU (process) milliseconds of `runs` calls, as "wall cpu"."""
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return "%.1f %.1f" % (statistics.median(wall), statistics.median(cpu))


def main():
    corpus, results, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    with open(corpus, encoding="utf-8", newline="") as f:
        data = f.read().split("\n")
    if data and data[-1] == "":
        data.pop()

    out = [udf(s) for s in data]
    with open(results, "w", encoding="utf-8", newline="") as f:
        f.write("\n".join(out))
        f.write("\n")
    print("cpython %s" % median_ms(lambda: [udf(s) for s in data], runs), flush=True)

    try:
        import pandas as pd
        series = pd.Series(data)
        print("pandas %s" % median_ms(lambda: series.apply(udf), runs), flush=True)
    except ImportError:
        print("pandas -1 -1", flush=True)

    try:
        import numba
        from numba.typed import List
        nb_udf = numba.njit(udf)

        @numba.njit
        def run_all(items):
            res = List()
            for s in items:
                res.append(nb_udf(s))
            return res

        typed = List(data)
        t0 = time.perf_counter()
        run_all(typed[:10])  # compile
        compile_ms = (time.perf_counter() - t0) * 1000.0
        print("numba %s" % median_ms(lambda: run_all(typed), runs), flush=True)
        print("numba_compile %.1f %.1f" % (compile_ms, compile_ms), flush=True)
    except ImportError:
        print("numba -1 -1", flush=True)


if __name__ == "__main__":
    main()

"""Baselines for bench_udf: the same UDF sources run by CPython (list comprehension), pandas
(Series.apply) and Numba (@njit over a typed List) on the same corpora.

usage: /usr/bin/python3 bench_udf.py SPEC RUNS
SPEC is a file of lines "name<TAB>corpus-path<TAB>source with \\n escaped". Prints lines
    name baseline wall_ms cpu_ms
(medians of RUNS runs; -1 when a baseline cannot run the UDF, with a '# why' comment line),
and "name numba_compile ms ms" for Numba's compile time of the same source."""
import ast
import statistics
import sys
import time


def median_ms(fn, runs):
    wall, cpu = [], []
    for _ in range(runs):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append((time.perf_counter() - t0) * 1000.0)
        cpu.append((time.process_time() - c0) * 1000.0)
    return "%.1f %.1f" % (statistics.median(wall), statistics.median(cpu))


def load_function(src):
    tree = ast.parse(src)
    ns = {}
    if len(tree.body) == 1 and isinstance(tree.body[0], ast.Expr):
        return eval(src, ns)
    exec(src, ns)
    return ns[[n.name for n in tree.body if isinstance(n, ast.FunctionDef)][-1]]


def main():
    spec, runs = sys.argv[1], int(sys.argv[2])
    corpora = {}
    try:
        import pandas as pd
    except ImportError:
        pd = None
    try:
        import numba
        from numba.typed import List
    except ImportError:
        numba = None
    typed = {}
    for line in open(spec, encoding="utf-8"):
        name, path, src = line.rstrip("\n").split("\t")
        src = src.replace("\\n", "\n")
        if path not in corpora:
            with open(path, encoding="utf-8", newline="") as f:
                data = f.read().split("\n")
            if data and data[-1] == "":
                data.pop()
            corpora[path] = data
        data = corpora[path]
        f = load_function(src)
        print("%s cpython %s" % (name, median_ms(lambda: [f(s) for s in data], runs)), flush=True)
        if pd is not None:
            series = pd.Series(data)
            print("%s pandas %s" % (name, median_ms(lambda: series.apply(f), runs)), flush=True)
        else:
            print("%s pandas -1 -1" % name)
        if numba is None:
            print("%s numba -1 -1" % name)
            continue
        try:
            nb = numba.njit(f)

            @numba.njit
            def run_all(items):
                res = List()
                for s in items:
                    res.append(nb(s))
                return res

            if path not in typed:
                typed[path] = List(data)
            items = typed[path]
            t0 = time.perf_counter()
            run_all(items[:10])
            compile_ms = (time.perf_counter() - t0) * 1000.0
            print("%s numba %s" % (name, median_ms(lambda: run_all(items), runs)), flush=True)
            print("%s numba_compile %.1f %.1f" % (name, compile_ms, compile_ms), flush=True)
        except Exception as e:  # noqa: BLE001 - report why Numba cannot run this source
            print("# %s: numba cannot compile it: %s" % (name, str(e).splitlines()[0][:100]))
            print("%s numba -1 -1" % name, flush=True)


if __name__ == "__main__":
    main()

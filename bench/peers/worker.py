"""One thread count of bench_peers, in its own process (POLARS_MAX_THREADS is read when Polars
is imported, so the parent sets it in this process's environment). Times every engine on
every UDF and corpus, interleaving the engines run by run so that they share the machine's
noise, and checks each engine's last result against CPython's. At 1 thread CPython's results
are written to refs.arrow for the 2-thread worker; that worker runs the threaded engines only.
Writes result-<threads>.json into the work folder."""
import json
import os
import statistics
import sys
import time

import pyarrow as pa
import pyarrow.compute as pc

import engines
import idle
import udfs


def mismatches(ref, got):
    """Rows where `got` differs from CPython's `ref` (a null equals only a null)."""
    if isinstance(got, pa.ChunkedArray):
        got = got.combine_chunks()
    if len(got) != len(ref):
        return len(ref)
    if pa.types.is_integer(ref.type):
        got = pc.cast(got, pa.int64())
    else:
        ref, got = pc.cast(ref, pa.large_string()), pc.cast(got, pa.large_string())
    same = pc.or_kleene(pc.fill_null(pc.equal(ref, got), False),
                        pc.and_(pc.is_null(ref), pc.is_null(got)))
    return len(ref) - pc.sum(pc.cast(same, pa.int64())).as_py()


def per_call_us(threads):
    """nrt's cost of one call on a 1-row pyarrow array: median of 7 rounds of 500 calls."""
    import nrt
    u = nrt.udf(udfs.seed, threads=threads)
    one = pa.array(["word"])
    u(one)
    rounds = []
    for _ in range(7):
        t = time.perf_counter()
        for _ in range(500):
            u(one)
        rounds.append((time.perf_counter() - t) / 500 * 1e6)
    return statistics.median(rounds)


def main():
    workdir, threads, runs, hook_runs = (sys.argv[1], int(sys.argv[2]), int(sys.argv[3]),
                                         int(sys.argv[4]))
    names = sys.argv[5].split(",")
    wanted_udfs = sys.argv[6].split(",")
    corpora = pa.ipc.open_file(pa.memory_map(os.path.join(workdir, "corpora.arrow"))).read_all()
    pa.set_cpu_count(threads)
    kinds = [e for e in engines.ENGINES if e.name in names or e is engines.CPython]
    if threads > 1:
        kinds = [e for e in kinds if e.threaded]
        refs = pa.ipc.open_file(pa.memory_map(os.path.join(workdir, "refs.arrow"))).read_all()
    made = [k(threads) for k in kinds]
    chosen = [u for u in udfs.UDFS if u.name in wanted_udfs]
    results, ref_cols = {}, {}
    for corpus in corpora.column_names:
        arr = corpora.column(corpus).chunk(0)
        data = {e.name: e.load(arr) for e in made}
        waited = idle.settle()  # the engines' loading may leave work running on the cores
        print(f"  {threads} thread(s): {corpus} loaded, {waited:.1f} s for idle CPUs",
              file=sys.stderr, flush=True)
        for udf in chosen:
            forms = {e.name: e.form(udf, data[e.name]) for e in made}
            wall = {n: [] for n, f in forms.items() if f}
            cpu = {n: [] for n in wall}
            last = {}
            for r in range(max(runs, hook_runs)):
                for e in made:
                    f = forms[e.name]
                    n = hook_runs if e.hook else runs
                    if f is None or r >= n:
                        continue
                    w, c = time.perf_counter(), time.process_time()
                    res = f()
                    wall[e.name].append(time.perf_counter() - w)
                    cpu[e.name].append(time.process_time() - c)
                    if r == n - 1:
                        last[e.name] = res
                    del res
            key = f"{corpus}/{udf.name}"
            if threads == 1:
                ref = ref_cols[key] = pa.array(last["cpython"])
            else:
                ref = refs.column(key).chunk(0)
            out = results.setdefault(corpus, {}).setdefault(udf.name, {})
            for e in made:
                if forms[e.name] is None:
                    out[e.name] = None
                    continue
                out[e.name] = {"wall": statistics.median(wall[e.name]),
                               "cpu": statistics.median(cpu[e.name]),
                               "mism": mismatches(ref, e.to_arrow(last.pop(e.name)))}
            print(f"  {threads} thread(s): {corpus} {udf.name} done", file=sys.stderr,
                  flush=True)
        del data
    if threads == 1:
        table = pa.table(ref_cols)
        with pa.ipc.new_file(os.path.join(workdir, "refs.arrow"), table.schema) as w:
            w.write_table(table)
    compile_ms = {e.name: e.compile_ms for e in made if hasattr(e, "compile_ms")}
    report = {"threads": threads, "results": results, "compile_ms": compile_ms,
              "per_call_us": per_call_us(threads) if "nrt" in names else None}
    with open(os.path.join(workdir, f"result-{threads}.json"), "w") as f:
        json.dump(report, f)


if __name__ == "__main__":
    main()

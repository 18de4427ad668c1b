"""bench_peers: nrt against the engines people would use instead (Polars, DuckDB, pyarrow,
pandas, Numba, CPython) and against the memory floor, on six UDFs and two corpora, at 1 and 2
threads (issue 11). Never a test: the numbers depend on the machine and its load.

Run: .venv/bin/python bench/peers/bench_peers.py [--rows N] [--runs N] [--threads 1,2]
         [--hook-runs N] [--udfs seed,title,...] [--engines nrt,polars,...]
         [--corpora words,mix] [--clock wall|cpu] [--json FILE] [--from-json FILE]
See bench/peers/README.md for what each column means."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import pyarrow as pa

import corpora
import engines
import floor
import idle
import report
import udfs

HERE = os.path.dirname(os.path.abspath(__file__))


def _list(text, allowed, what):
    items = [x for x in text.split(",") if x]
    bad = [x for x in items if x not in allowed]
    if bad or not items:
        raise SystemExit(f"bench_peers: unknown {what} {bad or text!r}; one of "
                         f"{', '.join(allowed)}")
    return items


def _load():
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def measure(a, threads, names, chosen, which):
    """Builds the corpora, times the floor, runs one worker per thread count; returns
    everything render() prints (also what --json writes)."""
    run = {"rows": a.rows, "runs": a.runs, "hook_runs": a.hook_runs, "threads": threads,
           "engines": names, "udfs": chosen, "corpora": which, "cores": os.cpu_count(),
           "load_start": _load(), "corpus_lines": [], "floors": {}, "fresh_floor": {},
           "by_threads": {}}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="nrt-bench-peers-") as work:
        cols = {}
        for c in which:
            rows = corpora.word_rows(a.rows) if c == "words" else corpora.mix_rows(a.rows)
            cols[c] = pa.array(rows, pa.string())
            ascii_rows = sum(1 for s in rows if s.isascii())
            run["corpus_lines"].append(
                f"{c:<5}: {cols[c].buffers()[2].size / len(rows):.1f} bytes/row, "
                f"{100.0 * ascii_rows / len(rows):.0f}% ASCII rows"
                + (" (nrt demo's sample of Debian's word lists)" if c == "words" else
                   " (Greek, Turkish, German, ligatures, CJK, emoji, combining marks; names, "
                   "e-mails, ids, codes)"))
            del rows
        table = pa.table(cols)
        with pa.ipc.new_file(os.path.join(work, "corpora.arrow"), table.schema) as w:
            w.write_table(table)
        fl = floor.Floor(work)
        for c in which:
            run["floors"][c] = {t: fl.median_s(cols[c], t, a.runs) for t in threads}
            run["fresh_floor"][c] = fl.median_s(cols[c], 1, a.runs, fresh=True)
        del cols, table
        for t in threads:
            waited = idle.settle()
            print(f"bench_peers: {t} thread{'s' if t > 1 else ''} (after {waited:.1f} s for "
                  f"idle CPUs)...", file=sys.stderr, flush=True)
            # No engine here uses BLAS: numpy's OpenBLAS threads would only spin on the cores.
            env = dict(os.environ, POLARS_MAX_THREADS=str(t), NUMBA_NUM_THREADS=str(t),
                       OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
            subprocess.run([sys.executable, os.path.join(HERE, "worker.py"), work, str(t),
                            str(a.runs), str(a.hook_runs), ",".join(names),
                            ",".join(chosen)], env=env, check=True)
            with open(os.path.join(work, f"result-{t}.json")) as f:
                run["by_threads"][t] = json.load(f)
    run["load_end"] = _load()
    run["seconds"] = time.perf_counter() - started
    return run


def render(run, clock):
    rows, threads = run["rows"], run["threads"]
    print(f"bench_peers: {rows:,} rows per corpus, median of {run['runs']} runs "
          f"({run.get('hook_runs', run['runs'])} for map_elements, DuckDB's Python UDF and "
          f"pandas apply), threads "
          f"{', '.join(map(str, threads))}; {run['cores']} cores; {run['load_start']} at the "
          f"start, {run['load_end']} at the end; {run['seconds']:.0f} s in all")
    for line in run["corpus_lines"]:
        print(f"  corpus {line}")
    print("floor, copying each row and 'abc' into an output buffer (one memcpy per row, "
          "offsets precomputed, buffer reused), " + clock + " time:")
    for c in run["corpora"]:
        f = run["floors"][c]
        print(f"  {c:<5}: " + ", ".join(
            f"{f[t][clock] * 1e3:.2f} ms ({f[t][clock] / rows * 1e9:.1f} ns/row) at {t} "
            f"thread{'s' if t > 1 else ''}" for t in threads)
            + f"; a fresh buffer per run (page faults): "
              f"{run['fresh_floor'][c][clock] * 1e3:.2f} ms at 1 thread")
    for eng, per in run["by_threads"][1]["compile_ms"].items():
        print(f"compile ms, {eng}: " + ", ".join(f"{u} {ms:.0f}" for u, ms in per.items()))
    print()
    print(f"ns/row: {clock} time per row, the median of the runs; mism: rows that differ "
          "from CPython's; CPy/t: CPython's time / this; peer/t: the fastest native peer's "
          "time (marked *) / this; t/floor: this / the floor's; '=': no thread knob or Python "
          "per row under the GIL, the 1-thread time; gain: 1-thread / 2-thread time")
    res = report.Results(run["by_threads"], run["floors"], rows, clock)
    order = [e.name for e in engines.ENGINES if e.name in run["engines"]]
    print(report.table(res, order))
    for (u, e), why in udfs.NA_WHY.items():
        if u in run["udfs"] and e in run["engines"]:
            print(f"n/a: {u}, {e}: {why}")
    print("native peers (for peer/t): " + ", ".join(
        e.name for e in engines.ENGINES if e.native and e.name in run["engines"]))
    print()
    print(f"goals (issue 11), {clock} time")
    print(report.goals(res))


def _int_keys(run):
    """JSON turned the thread counts into strings."""
    run["by_threads"] = {int(k): v for k, v in run["by_threads"].items()}
    run["floors"] = {c: {int(k): v for k, v in f.items()} for c, f in run["floors"].items()}
    return run


def main():
    engine_names = [e.name for e in engines.ENGINES]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000, help="rows per corpus (1,000,000)")
    p.add_argument("--runs", type=int, default=5, help="timed runs per cell; the median (5)")
    p.add_argument("--hook-runs", type=int, default=3,
                   help="timed runs of the engines calling Python per row (map_elements, the "
                        "DuckDB Python UDF, pandas apply), the slowest and no goal's bar (3)")
    p.add_argument("--threads", default="1,2", help="thread counts, 1 among them (1,2)")
    p.add_argument("--udfs", default=",".join(u.name for u in udfs.UDFS))
    p.add_argument("--engines", default=",".join(engine_names),
                   help="engines to run (cpython always runs: it is the reference)")
    p.add_argument("--corpora", default="words,mix")
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="the time the table shows: wall (default) or the process's CPU time")
    p.add_argument("--json", help="also write the raw results (wall and CPU) to this file")
    p.add_argument("--from-json", help="print the tables of an earlier --json file, running "
                   "nothing")
    a = p.parse_args()
    if a.from_json:
        with open(a.from_json) as f:
            render(_int_keys(json.load(f)), a.clock)
        return
    if a.rows < 1 or a.runs < 1 or a.hook_runs < 1:
        raise SystemExit("bench_peers: --rows, --runs and --hook-runs take a number >= 1")
    try:
        threads = sorted({int(t) for t in a.threads.split(",")})
    except ValueError:
        raise SystemExit(f"bench_peers: --threads takes numbers like 1,2, not {a.threads!r}")
    if threads[0] != 1:
        raise SystemExit("bench_peers: --threads must include 1 (CPython's results at 1 thread "
                         "are the reference)")
    names = _list(a.engines, engine_names, "engine")
    if "cpython" not in names:
        names.append("cpython")
    chosen = _list(a.udfs, [u.name for u in udfs.UDFS], "UDF")
    which = _list(a.corpora, ["words", "mix"], "corpus")
    run = measure(a, threads, names, chosen, which)
    if a.json:
        with open(a.json, "w") as f:
            json.dump(run, f, indent=1)
    render(run, a.clock)


if __name__ == "__main__":
    main()

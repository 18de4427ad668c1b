"""The table and the goals of bench_peers, from the workers' results and the floor."""
import engines
import udfs

ENGINE = {e.name: e for e in engines.ENGINES}


class Results:
    """A run's results read on one clock: 'wall' (elapsed) or 'cpu' (the process's CPU time,
    all threads: steadier than wall on a loaded machine, but blind to parallel speed-up)."""

    def __init__(self, by_threads, floors, rows, clock="wall"):
        self.by_threads = by_threads  # threads -> worker report
        self.threads = sorted(by_threads)
        self.floors = {c: {t: f[t][clock] for t in f} for c, f in floors.items()}
        self.rows = rows
        self.clock = clock

    def cell(self, corpus, udf, engine, threads):
        """(result dict or None, measured at 1 thread only); None when not run at all."""
        one = self.by_threads[1]["results"][corpus][udf]
        if engine not in one:
            return None, False
        if threads == 1 or not ENGINE[engine].threaded:
            return one[engine], threads != 1
        return self.by_threads[threads]["results"][corpus][udf].get(engine), False

    def time(self, corpus, udf, engine, threads):
        c, _ = self.cell(corpus, udf, engine, threads)
        return c[self.clock] if c else None

    def peer(self, corpus, udf, threads):
        """(engine, seconds) of the fastest native peer, or (None, None)."""
        best = (None, None)
        for name, e in ENGINE.items():
            t = self.time(corpus, udf, name, threads) if e.native else None
            if t is not None and (best[1] is None or t < best[1]):
                best = (name, t)
        return best


def _ns(sec, rows):
    v = sec / rows * 1e9
    return f"{v:.1f}" if v < 1000 else f"{v:.0f}"


def _x(v):
    return f"{v:.2f}x" if v < 10 else f"{v:.1f}x" if v < 1000 else f"{v:.0f}x"


def table(res, engine_names):
    rows = res.rows
    cols = f"{'ns/row':>9} {'mism':>7} {'CPy/t':>7} {'peer/t':>7} {'t/floor':>8}"
    head = f"{'corpus':<6} {'udf':<7} {'engine':<15}"
    line = head + "".join(f" | {cols}" for _ in res.threads)
    if len(res.threads) > 1:
        line += f" | {'gain':>6}"
    tline = " " * len(head) + "".join(
        f" | {(str(t) + ' thread' + ('s' if t > 1 else '')).center(len(cols))}"
        for t in res.threads)
    out = [tline, line, "-" * len(line)]
    for corpus in res.floors:
        for u in udfs.UDFS:
            if u.name not in res.by_threads[1]["results"][corpus]:
                continue
            first = True
            peers = {t: res.peer(corpus, u.name, t) for t in res.threads}
            for name in engine_names:
                cells = []
                for t in res.threads:
                    c, same = res.cell(corpus, u.name, name, t)
                    if c is None:
                        why = "n/a" if name in res.by_threads[1]["results"][corpus][u.name] \
                            else "-"
                        cells.append(f"{why:>9} {'':>7} {'':>7} {'':>7} {'':>8}")
                        continue
                    w = c[res.clock]
                    mark = "*" if peers[t][0] == name else "=" if same else " "
                    cpy = res.time(corpus, u.name, "cpython", t)
                    pt = peers[t][1]
                    cells.append(f"{_ns(w, rows):>8}{mark} {c['mism']:>7} {_x(cpy / w):>7} "
                                 f"{_x(pt / w) if pt else '':>7} "
                                 f"{_x(w / res.floors[corpus][t]):>8}")
                text = f"{corpus if first else '':<6} {u.name if first else '':<7} {name:<15}"
                text += "".join(f" | {c}" for c in cells)
                if len(res.threads) > 1:
                    t1 = res.time(corpus, u.name, name, 1)
                    tn = res.time(corpus, u.name, name, res.threads[-1])
                    gain = (_x(t1 / tn) if t1 and tn and ENGINE[name].threaded
                            and res.clock == "wall" else "")
                    text += f" | {gain:>6}"
                out.append(text)
                first = False
        out.append("")
    return "\n".join(out)


def goals(res):
    """Lines of the goals of issue 11, each 'met' or 'missed'."""
    out = []
    ok_all = True
    misses = []
    lines = []
    for corpus in res.floors:
        for u in udfs.UDFS:
            if u.name not in res.by_threads[1]["results"][corpus]:
                continue
            for t in res.threads:
                c, _ = res.cell(corpus, u.name, "nrt", t)
                peer, pt = res.peer(corpus, u.name, t)
                if c is None or pt is None:
                    continue
                ratio = pt / c[res.clock]
                met = ratio >= 1.5 and c["mism"] == 0
                ok_all &= met
                tag = f"{corpus}/{u.name}/{t}t"
                if not met:
                    misses.append(tag)
                lines.append(f"    {tag:<18} {_x(ratio):>7} vs {peer:<12} {c['mism']:>7} mism  "
                             f"{'met' if met else 'MISSED'}")
    out.append(f"nrt >= 1.5x the fastest native peer, 0 mismatches, every UDF/corpus/thread "
               f"count: {'met' if ok_all else 'missed'}"
               + (f" ({len(misses)} of {len(lines)} missed)" if misses else ""))
    out += lines
    if "words" in res.floors and "seed" in res.by_threads[1]["results"]["words"]:
        c, _ = res.cell("words", "seed", "nrt", 1)
        if c:
            f = c[res.clock] / res.floors["words"][1]
            out.append(f"seed UDF, word lists, 1 thread, <= 2x the floor: {_x(f)} "
                       f"({c[res.clock] * 1e3:.1f} ms vs {res.floors['words'][1] * 1e3:.1f} ms): "
                       f"{'met' if f <= 2 else 'missed'}")
    if len(res.threads) > 1 and res.clock == "cpu":
        out.append("2 threads >= 1.8x 1 thread: not measured on the CPU clock (use wall)")
    elif len(res.threads) > 1:
        tn = res.threads[-1]
        lines, ok_all, n = [], True, 0
        for corpus in res.floors:
            for u in udfs.UDFS:
                if u.name not in res.by_threads[1]["results"][corpus]:
                    continue
                t1 = res.time(corpus, u.name, "nrt", 1)
                t2 = res.time(corpus, u.name, "nrt", tn)
                if t1 is None or t2 is None or t1 <= 0.020:
                    continue
                n += 1
                met = t1 / t2 >= 1.8
                ok_all &= met
                lines.append(f"    {corpus}/{u.name:<8} {t1 * 1e3:7.1f} ms -> {t2 * 1e3:7.1f} ms "
                             f"{_x(t1 / t2):>7}  {'met' if met else 'MISSED'}")
        verdict = ("met" if ok_all else "missed") if n else "not applicable (no apply > 20 ms)"
        out.append(f"{tn} threads >= 1.8x 1 thread where the 1-thread apply > 20 ms: {verdict}")
        out += lines
    us = res.by_threads[1].get("per_call_us")
    if us is not None:
        out.append(f"nrt per-call overhead (1-row pyarrow array) <= 20 us: {us:.1f} us: "
                   f"{'met' if us <= 20 else 'missed'}")
    return "\n".join(out)

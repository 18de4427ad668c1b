"""Waiting for idle CPUs before timing: a thread count's cells must not share the cores with
work left behind by what ran before them (memory being reclaimed after a process, an engine's
threads finishing background work after loading a table)."""
import os
import time


def _idle_fraction(window):
    """The share of the machine's CPU time spent idle over `window` seconds (/proc/stat)."""
    def sample():
        with open("/proc/stat") as f:
            ticks = [int(x) for x in f.readline().split()[1:]]
        return ticks[3] + ticks[4], sum(ticks)  # idle + iowait, all
    i0, t0 = sample()
    time.sleep(window)
    i1, t1 = sample()
    return (i1 - i0) / max(1, t1 - t0)


def settle(limit=20.0):
    """Waits until the CPUs are idle (90% over two quarter-second windows in a row), at most
    `limit` seconds; returns the seconds waited."""
    started = time.perf_counter()
    if not os.path.exists("/proc/stat"):
        time.sleep(1.0)
        return 1.0
    calm = 0
    while calm < 2 and time.perf_counter() - started < limit:
        calm = calm + 1 if _idle_fraction(0.25) >= 0.9 else 0
    return time.perf_counter() - started

"""ipc benchmark, Python side (never a test): a 1,000,000-row string column and a 100 MB buffer
handed from a producer to 1 and to 4 consumer processes through a multiprocessing Queue; each
consumer reads every byte. Compared in the same run:

  nrt.ipc        an nrt.Column pickled by nrt.ipc's reducer into a shared-memory handle
  pickle         the same data pickled through multiprocessing (a pyarrow array / bytes)
  arrow-shm      an Arrow IPC file written to /dev/shm, memory-mapped by each consumer
  torch          torch.multiprocessing with share_memory_() on a uint8 tensor of the bytes
                 (Debian's python3-torch under /usr/bin/python3, only when it is installed)

Prints per-handoff latency (until the last consumer holds the data) and throughput (until
every consumer has read every byte), ratios against plain pickling, and what each leaves in
/dev/shm after a consumer holding the data is killed with SIGKILL (nrt after a collect()).

    PYTHONPATH=build/python .venv/bin/python bench/ipc/bench_ipc.py [rows] [megabytes]

Each peer is measured when it can be imported: torch comes from Debian's python3-torch, for
/usr/bin/python3 (which has no pyarrow: run it there for the torch rows, after
`apt-get install python3-torch python3-numpy`, with PYTHONPATH=build/python).
"""
import multiprocessing as mp
import os
import signal
import statistics
import sys
import time

import numpy as np

import nrt
import nrt.ipc

try:
    import pyarrow as pa
    import pyarrow.ipc
except ImportError:
    pa = None

try:
    import torch
    import torch.multiprocessing  # noqa: F401  (registers torch's reducers)
except ImportError:
    torch = None

SHM = "/dev/shm"


def touch(obj):
    """Reads every byte of whatever a consumer received; returns a checksum."""
    if isinstance(obj, nrt.Column):
        return sum(int(np.frombuffer(b, dtype=np.uint8).sum()) for b in obj.buffers() if b)
    if isinstance(obj, list):
        return sum(len(w) for w in obj if w is not None)
    if pa is not None and isinstance(obj, (pa.Array, pa.ChunkedArray)):
        chunks = obj.chunks if isinstance(obj, pa.ChunkedArray) else [obj]
        return sum(int(np.frombuffer(b, dtype=np.uint8).sum())
                   for c in chunks for b in c.buffers() if b is not None)
    if isinstance(obj, str):  # an Arrow IPC file in /dev/shm
        with pa.memory_map(obj) as source:
            table = pa.ipc.open_file(source).read_all()
            return touch(table.column(0))
    if torch is not None and isinstance(obj, torch.Tensor):
        return int(obj.sum())
    return int(np.frombuffer(obj, dtype=np.uint8).sum())


def consumer(inbox, outbox, read):
    while True:
        obj = inbox.get()
        ready = time.monotonic()
        if obj is None:
            break
        total = touch(obj) if read else 0
        del obj
        outbox.put((ready, total))


def arrow_file(arr, tag):
    path = f"{SHM}/bench_ipc_{os.getpid()}_{tag}.arrow"
    with pa.OSFile(path, "wb") as sink:
        with pa.ipc.new_file(sink, pa.schema([("x", arr.type)])) as w:
            w.write_table(pa.table({"x": arr}))
    return path


def payloads(rows, mb):
    words = [f"w{i % 9973}" + "abcdefghijklmnop"[: 4 + i % 12] for i in range(rows)]
    raw = np.full(mb << 20, 0x61, dtype=np.uint8)
    column = {"nrt.ipc": nrt.ipc.share(nrt.Column(words)), "pickle": words,
              "bytes": sum(len(w) for w in words) + 4 * (rows + 1)}
    if pa is not None:
        arr = pa.array(words, pa.string())
        column.update({"pickle": arr, "arrow-shm": arr,
                       "bytes": sum(b.size for b in arr.buffers() if b is not None)})
    buffer = {"bytes": raw.nbytes, "nrt.ipc": nrt.ipc.share(nrt.Column(raw.view(np.int64))),
              "pickle": raw.tobytes(),
              "torch": torch.from_numpy(raw).clone().share_memory_() if torch else None,
              "arrow-shm": pa.array(raw.view(np.int64)) if pa is not None else None}
    return {"column": column, "buffer": buffer}


def run(ctx, n, how, data, reps):
    inboxes = [ctx.Queue() for _ in range(n)]
    outbox = ctx.Queue()
    lat, tot = [], []
    for read in (False, True):
        procs = [ctx.Process(target=consumer, args=(q, outbox, read)) for q in inboxes]
        for p in procs:
            p.start()
        for _ in range(reps):
            t0 = time.monotonic()
            sent = data[how]
            if how == "arrow-shm":
                sent = arrow_file(data[how], "x")
            for q in inboxes:
                q.put(sent)
            replies = [outbox.get() for _ in range(n)]
            (tot if read else lat).append((time.monotonic() if read else
                                           max(r[0] for r in replies)) - t0)
            if how == "arrow-shm":
                os.unlink(sent)
        for q in inboxes:
            q.put(None)
        for p in procs:
            p.join()
    return statistics.median(lat), statistics.median(tot)


def holder(inbox, ready):
    obj = inbox.get()
    touch(obj)
    ready.put(1)
    time.sleep(3600)


def residue(ctx, how, data):
    """Objects left in /dev/shm (and nrt's live segments) after a consumer holding the data is
    killed with SIGKILL, once the producer dropped its own reference."""
    before = set(os.listdir(SHM))
    inbox, ready = ctx.Queue(), ctx.Queue()
    p = ctx.Process(target=holder, args=(inbox, ready))
    p.start()
    sent = data[how]
    if how == "nrt.ipc":
        sent = nrt.ipc.share(nrt.Column(np.frombuffer(data["pickle"], np.int64)))  # victim's
    elif how == "arrow-shm":
        sent = arrow_file(data[how], "victim")  # the consumer would unlink it when done
    elif how == "torch":
        sent = data[how].clone().share_memory_()
    inbox.put(sent)
    ready.get()
    del sent
    os.kill(p.pid, signal.SIGKILL)
    p.join()
    nrt.ipc.collect()  # nrt's part of every victim (it forked from a process holding columns)
    left = set(os.listdir(SHM)) - before
    for name in left:  # clean up after the peers
        if name.startswith("bench_ipc_"):
            os.unlink(f"{SHM}/{name}")
    return len(left)


def main():
    rows = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
    mb = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    nrt.ipc.init(f"benchpy{os.getpid()}")
    ctx = mp.get_context("fork")
    data = payloads(rows, mb)
    ways = (["pickle", "nrt.ipc"] + (["arrow-shm"] if pa is not None else []) +
            (["torch"] if torch is not None else []))
    print(f"handoffs through a multiprocessing Queue ({rows}-row string column = "
          f"{data['column']['bytes'] / 1e6:.1f} MB; {mb} MB buffer); medians of 5")
    print(f"{'payload':8} {'n':>2} {'way':10} {'latency ms':>11} {'vs pickle':>10} "
          f"{'GB/s':>7} {'vs pickle':>10}")
    for what in ("column", "buffer"):
        for n in (1, 4):
            base = None
            for how in ways:
                if data[what].get(how) is None:
                    continue
                lat, tot = run(ctx, n, how, data[what], 5)
                gbs = data[what]["bytes"] * n / tot / 1e9
                if how == "pickle":
                    base = (lat, gbs)
                    ratio = ("", "")
                else:
                    ratio = (f"{base[0] / lat:9.0f}x", f"{gbs / base[1]:9.1f}x") if base else \
                        ("", "")
                print(f"{what:8} {n:2} {how:10} {lat * 1e3:11.3f} {ratio[0]:>10} {gbs:7.2f} "
                      f"{ratio[1]:>10}")
    print("(pickle is measured first in each group; ratios: how many times faster than it)")
    missing = [w for w, m in (("arrow-shm", pa), ("torch", torch)) if m is None]
    if missing:
        print(f"not measured here (module missing): {', '.join(missing)}")
    print("\n/dev/shm objects left after kill -9 of a consumer holding the buffer")
    for how in ways:
        if how != "pickle":
            print(f"  {how:10} {residue(ctx, how, data['buffer'])}")
    del data
    nrt.ipc.shutdown()


if __name__ == "__main__":
    main()

"""nrt.ipc: columns sent through multiprocessing (Queue, Pool, ProcessPoolExecutor; fork and
spawn) as shared-memory handles, UDFs applied by the receiver, a producer that exits first, a
worker killed with SIGKILL, and nothing left in /dev/shm afterwards."""
import concurrent.futures as cf
import multiprocessing as mp
import os
import signal

import pytest

import nrt
import nrt.ipc
from multiprocessing.reduction import ForkingPickler

WORDS = [f"word{i}-" + "x" * (i % 17) if i % 13 else None for i in range(5000)]


@pytest.fixture(scope="module", autouse=True)
def namespace():
    """A namespace of this test run's own, inherited by forked children and, through the
    environment, by spawned ones."""
    ns = f"py{os.getpid()}"
    os.environ["NRT_IPC_NAMESPACE"] = ns
    nrt.ipc.init(ns)
    yield ns
    nrt.ipc.shutdown()
    assert nrt.ipc.shm_objects(ns) == 0
    del os.environ["NRT_IPC_NAMESPACE"]


def settled(blocks=0):
    """Nothing but `blocks` blocks of this process left, once dead processes are collected
    (asserted, with the namespace's state in the message)."""
    nrt.ipc.collect()
    s = nrt.ipc.stats()
    assert (s["holders"], s["transits"], s["blocks"]) == (1, 0, blocks), s
    return True


# Run in the children (module level, so spawned children can import them).

def rows_and_copies(col):
    before = nrt.ipc.stats()["blocks_made"]
    rows = col.to_pylist()
    return rows, nrt.ipc.stats()["blocks_made"] - before


def apply_upper(col):
    return nrt.udf(lambda s: s.upper() + "!")(col)


def hold_and_die(col):
    held = [col, col.to_pylist()]
    os.kill(os.getpid(), signal.SIGKILL)
    return held


def produce(q):
    q.put(nrt.ipc.share(nrt.Column(WORDS)))
    q.close()
    q.join_thread()  # the handle is in the pipe; then this process exits


def test_put_get_in_one_process():
    col = nrt.Column(WORDS)
    back = ForkingPickler.loads(ForkingPickler.dumps(col))
    assert back.to_pylist() == WORDS
    handle = nrt.ipc.dumps(nrt.ipc.share(col))
    assert nrt.ipc.loads(handle, validate=True).to_pylist() == WORDS
    del back
    assert settled()


@pytest.mark.parametrize("method", ["fork", "spawn"])
def test_queue_and_pool(method):
    ctx = mp.get_context(method)
    col = nrt.ipc.share(nrt.Column(WORDS))
    with ctx.Pool(2) as pool:
        got = pool.map(rows_and_copies, [col, col, nrt.Column(["a", None])])
    assert got[0] == (WORDS, 0)  # received without a copy on the way in
    assert got[1] == (WORDS, 0)
    assert got[2] == (["a", None], 0)
    del col
    assert settled()


def test_process_pool_applies_udfs():
    col = nrt.ipc.share(nrt.Column(WORDS))
    with cf.ProcessPoolExecutor(2, mp_context=mp.get_context("fork")) as ex:
        results = list(ex.map(apply_upper, [col] * 4))
    expect = [w.upper() + "!" if w is not None else None for w in WORDS]
    for r in results:  # UDF results came back as shared handles too
        assert isinstance(r, nrt.Column) and r.to_pylist() == expect
    del col, results, r
    assert settled()


def test_producer_exits_first():
    ctx = mp.get_context("fork")
    q = ctx.Queue()
    p = ctx.Process(target=produce, args=(q,))
    p.start()
    p.join()
    assert p.exitcode == 0
    col = q.get(timeout=30)  # its producer is gone; the handle kept the column alive
    assert col.to_pylist() == WORDS
    del col
    assert settled()


def test_killed_worker_leaves_nothing(namespace):
    col = nrt.ipc.share(nrt.Column(WORDS))
    before = nrt.ipc.stats()
    with cf.ProcessPoolExecutor(1, mp_context=mp.get_context("fork")) as ex:
        with pytest.raises(cf.process.BrokenProcessPool):
            ex.submit(hold_and_die, col).result(timeout=60)
    done = nrt.ipc.collect()
    assert done["holders_reaped"] >= 1
    s = nrt.ipc.stats()
    assert s["blocks"] == before["blocks"] and s["transits"] == 0
    del col
    assert settled()
    assert nrt.ipc.segments() <= 1  # at most the empty segment this process allocates from

"""Several Python threads calling UDFs at once (the GIL is released during apply and
compile)."""
import threading

import pyarrow as pa

import nrt


def test_python_threads_share_udfs():
    f = nrt.udf(lambda s: s.upper() + str(len(s)))
    g = nrt.udf(lambda s: s[::-1])
    data = pa.array([f"row{i}ß" for i in range(20000)])
    want_f = [s.upper() + str(len(s)) for s in data.to_pylist()]
    want_g = [s[::-1] for s in data.to_pylist()]
    errors = []

    def work(k):
        try:
            for _ in range(5):
                if k % 2:
                    assert f.apply(data, threads=2).to_pylist() == want_f
                else:
                    assert g(data).to_pylist() == want_g
                # A fresh source per thread: compiles run concurrently too.
                h = nrt.udf(f"lambda s: s + '{k}'")
                assert h(["x"]) == [f"x{k}"]
        except Exception as e:  # reported on the main thread
            errors.append(e)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def test_apply_releases_the_gil():
    """Another Python thread runs while an apply is under way."""
    f = nrt.udf(lambda s: s.upper() * 3, threads=1)
    data = pa.array(["abcdefgh" * 4] * 400000)
    ticks = []
    stop = threading.Event()

    def ticker():
        while not stop.is_set():
            ticks.append(1)
            stop.wait(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    before = len(ticks)
    f(data)
    during = len(ticks) - before
    stop.set()
    t.join()
    assert during > 3

"""Builds floor.c with the system cc into a temporary folder and times it on a corpus."""
import ctypes
import os
import shutil
import statistics
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))


class Floor:
    def __init__(self, workdir):
        cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
        if not cc:
            raise SystemExit("bench_peers: no C compiler (cc) for the floor")
        lib = os.path.join(workdir, "floor.so")
        subprocess.run([cc, "-O2", "-shared", "-fPIC", "-pthread", "-Wall", "-Werror",
                        "-o", lib, os.path.join(HERE, "floor.c")], check=True)
        self.lib = ctypes.CDLL(lib)
        self.lib.floor_copy.restype = ctypes.c_int
        self.lib.floor_copy.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int64,
                                        ctypes.c_int, ctypes.c_int, ctypes.c_int,
                                        ctypes.POINTER(ctypes.c_double)]

    def median_s(self, arr, threads, runs, fresh=False):
        """{"wall": s, "cpu": s}: the medians of `runs` copies of a pyarrow utf8 array's rows
        plus 'abc' (CPU: the process's, all threads)."""
        _, offsets, data = arr.buffers()
        times = (ctypes.c_double * (2 * runs))()
        rc = self.lib.floor_copy(offsets.address + 4 * arr.offset, data.address, len(arr),
                                 threads, runs, 1 if fresh else 0, times)
        if rc:
            raise SystemExit("bench_peers: the floor could not get memory or a thread")
        return {"wall": statistics.median(times[0::2]), "cpu": statistics.median(times[1::2])}

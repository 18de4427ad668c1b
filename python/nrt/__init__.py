"""nrt: Python string UDFs compiled with LLVM and run over Arrow columns on every core,
with Python's exact semantics and no leak.

    import nrt

    @nrt.udf
    def tag(s):
        return s.upper() + "abc" if s else s

    tag(pyarrow_array)      # pyarrow in, pyarrow out; pandas, Polars and lists alike
"""

from . import _nrt, ipc  # ipc: columns pickle into shared-memory handles for multiprocessing
from ._errors import CompileError, CompileSyntaxError, CompileTypeError
from ._udf import UDF, udf

Column = _nrt.Column
Buffer = _nrt.Buffer
__version__ = _nrt.version


def stats():
    """The runtime's statistics: alloc, free, mi_alloc, mi_free (counts since the process
    started), bytes_alloc, bytes_free, live_bytes and live_meminfos, and cached_bytes: freed
    buffers of 256 KiB and more that nrt keeps (96 MiB at most) so that the next apply's output
    needs no fresh pages from the kernel."""
    return _nrt.stats()


def release_memory():
    """Frees the buffers counted in stats()["cached_bytes"] (the environment variable
    NRT_BLOCK_CACHE=0 keeps none in the first place)."""
    _nrt.release_memory()


__all__ = ["udf", "UDF", "Column", "Buffer", "stats", "release_memory", "ipc", "CompileError", "CompileSyntaxError",
           "CompileTypeError", "__version__"]

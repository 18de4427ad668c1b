"""nrt.ipc: columns handed to other processes through shared memory, without copying.

Importing this module registers a reducer with multiprocessing (as torch.multiprocessing
does): an nrt.Column sent through a multiprocessing Queue, Pipe, Pool or a
concurrent.futures.ProcessPoolExecutor travels as a small handle to shared memory, and the
receiver gets a Column over the same bytes, which it can read or apply UDFs to directly. The
first time a column whose buffers are private is sent, they are copied once into shared
memory (share() does it up front, so later sends copy nothing).

Shared memory is released by reference counting across processes: a block lives while any
process holds it, or while a handle to it is in flight, even after its producer exits. A
process killed with SIGKILL leaves nothing behind once a survivor calls collect() (also run
when memory runs short, and every collect_interval_ms if set with init()).

    import nrt, nrt.ipc
    col = nrt.ipc.share(nrt.Column(["a", "b"]))
    with concurrent.futures.ProcessPoolExecutor() as ex:
        ex.submit(len, col).result()
"""

import importlib.machinery
import importlib.util
from multiprocessing import util as _mp_util
from multiprocessing.reduction import ForkingPickler

from . import _nrt


def _load():
    # nrt._ipc lives in _nrt's shared object (PyInit__ipc): load it from that file.
    loader = importlib.machinery.ExtensionFileLoader("nrt._ipc", _nrt.__file__)
    spec = importlib.util.spec_from_loader("nrt._ipc", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


_ipc = _load()


def init(namespace=None, *, max_bytes=0, collect_interval_ms=0, transit_timeout_ms=0,
         segment_size=0):
    """Joins a namespace with options, before any other use in this process (optional: the
    first use joins $NRT_IPC_NAMESPACE, or one per user). max_bytes limits the namespace's
    shared bytes (a collection runs before the limit fails an allocation);
    collect_interval_ms runs collect() on a background thread; transit_timeout_ms releases
    handles never received after that long; segment_size sets the segments small blocks
    share. Raises nrt._nrt.NativeError if this process already joined with other options."""
    _ipc.init(namespace, max_bytes, collect_interval_ms, transit_timeout_ms, segment_size)


def shutdown():
    """Leaves the namespace (also done at exit): this process's references are released,
    its handles in flight stay importable, and the last process removes everything."""
    _ipc.shutdown()


def share(column):
    """A Column with the same rows whose buffers are in shared memory (copied once; the
    column itself when they already are)."""
    return _ipc.share(column)


def collect():
    """Releases what dead processes held (and handles they had in flight), frees unused
    shared memory and removes stray objects from /dev/shm. Returns a dict: holders_reaped,
    transits_released, blocks_freed, segments_destroyed, objects_removed."""
    return _ipc.collect()


def segments():
    """Number of live shared memory segments in this process's namespace."""
    return _ipc.segments()


def stats():
    """The namespace's state: holders, segments, segment_bytes, blocks, block_bytes,
    transits, blocks_made, blocks_freed, holders_reaped, recoveries, and this process's
    local_blocks and local_mappings."""
    return _ipc.stats()


def shm_objects(namespace=None):
    """Number of nrt's objects in /dev/shm: of `namespace`, or of every namespace."""
    return _ipc.shm_objects(namespace)


def namespace():
    """The namespace this process uses."""
    return _ipc.namespace()


def dumps(column):
    """The handle of a column as bytes (sendable anywhere; imported once by loads, or again
    while any process still holds the column)."""
    return _ipc.export_column(column)


def loads(handle, *, validate=False):
    """The Column of a handle from dumps(); validate=True checks every row."""
    return _ipc.import_column(handle, validate)


def drop(handle):
    """Releases a handle from dumps() that will never be loaded."""
    _ipc.drop(handle)


def _rebuild_column(handle):
    return _ipc.import_column(handle)


def _reduce_column(column):
    return _rebuild_column, (_ipc.export_column(column),)


ForkingPickler.register(_nrt.Column, _reduce_column)


# multiprocessing's children end with os._exit, which skips atexit: leave the namespace from
# a multiprocessing finalizer instead, so a worker's references are released at once and the
# results it sent stay importable after it exits (a killed worker is collected instead).
class _Hook:
    pass


_hook = _Hook()


def _register_exit(_=None):
    _mp_util.Finalize(None, _ipc.shutdown, exitpriority=-100)


_register_exit()
_mp_util.register_after_fork(_hook, _register_exit)

__all__ = ["init", "shutdown", "share", "collect", "segments", "stats", "shm_objects",
           "namespace", "dumps", "loads", "drop"]

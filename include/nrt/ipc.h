/* nrt ipc: memory blocks and columns shared between processes, zero-copy, with reference
 * counts that survive crashes (the protocol is described in src/ipc/README.md).
 *
 * A shared block lives in a data segment: a POSIX shared memory object (/dev/shm) that every
 * process of the user opens by name. Processes meet in a namespace (default "u<uid>", or
 * $NRT_IPC_NAMESPACE, or nrt_ipc_options.namespace_name); its registry is one more object
 * holding a robust lock and three growable tables: the processes that hold references
 * ("holders", with pid and start time), the data segments, and the handles in flight.
 *
 * References. Each process that holds a shared block has one MemInfo for it, placed in a
 * shared memory object of its own (its record chunks): the refcount of that MemInfo counts the
 * references this process holds, and nrt_mi_incref / nrt_mi_decref on it are one atomic
 * operation on shared memory, exactly as on a private block. Its `data` points into this
 * process's mapping of the segment. The block itself counts the processes (and handles in
 * flight) that hold it, and is freed when that count drops to zero, in whichever process drops
 * the last reference. Because a process's counts sit in shared memory, a survivor can read and
 * release what a dead process held: nrt_ipc_collect.
 *
 * Handles. A block, or a whole column with all its buffers, is exported as a handle: a few
 * dozen bytes that can be written to a pipe, a socket, a file or a Python pickle. The handle
 * holds a reference of its own (a "transit" reference) until a process imports it, so the
 * exporter may drop its references, or exit, right after sending it. Importing maps each data
 * segment once per process (mappings are cached, and dropped when their segment dies); a
 * handle imported again, or in the exporting process itself, gives the same MemInfo back.
 *
 * File descriptors. nrt ipc keeps no file descriptor open between calls: objects are opened,
 * mapped and closed within one call, so at most one descriptor is open at a time in a call
 * (two, a pipe, while a fork hands references to the child; one per segment of the handle in
 * nrt_ipc_send). Descriptors received by SCM_RIGHTS (nrt_ipc_recv) are the caller's.
 *
 * fork(). A child inherits its parent's references as copies, exactly as fork copies the
 * objects that hold them: handlers registered with pthread_atfork give the child record chunks
 * of its own (same addresses, copied counts) and one block count per block, so parent and
 * child release independently. The copy is taken in the fork's prepare step, so threads other
 * than the forking one should not create or drop shared references during fork().
 *
 * Threads: every function is thread-safe. Allocation failure, a full /dev/shm, a bad handle or
 * a dead peer is an error (int status + struct nrt_error), never a crash. Linux only. */
#ifndef NRT_IPC_H
#define NRT_IPC_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/column.h"
#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Longest namespace name: letters, digits, '_' and '-'. */
#define NRT_IPC_NAMESPACE_MAX 31

/* Size of a block handle (nrt_ipc_export_block). Column handles are larger: see
 * nrt_ipc_column_handle_size. */
#define NRT_IPC_BLOCK_HANDLE_SIZE 104

/* Settings of this process, fixed when it joins its namespace. Zero-initialise, then set what
 * you need. */
struct nrt_ipc_options {
  /* Namespace to join; NULL: $NRT_IPC_NAMESPACE, or "u<uid>" when that is unset. */
  const char *namespace_name;
  /* Limit on the bytes of data segments in the namespace, checked when this process creates
   * a segment: when it would be exceeded, a collection runs first, and NRT_ENOMEM is returned
   * if it still would be. 0: no limit (a full /dev/shm also triggers a collection). */
  uint64_t max_bytes;
  /* Nonzero: a background thread runs nrt_ipc_collect every this many milliseconds. */
  uint32_t collect_interval_ms;
  /* Nonzero: a collection also releases handles exported more than this many milliseconds
   * ago and still not imported (lost in a dead receiver's pipe, say). 0: a handle's transit
   * reference lasts until it is imported, dropped (nrt_ipc_handle_drop) or its exporter dies;
   * if the exporter exits normally (nrt_ipc_shutdown, exit) it lasts until the namespace has
   * no live process left. */
  uint32_t transit_timeout_ms;
  /* Size of the data segments small blocks are packed into (rounded up to a page; 0: 8 MiB).
   * A block larger than a quarter of it gets a segment of its own. */
  uint64_t segment_size;
};

/* Joins the namespace with these options (NULL: defaults). Optional: the first call of any
 * other function here joins with the defaults. Joining registers this process as a holder and
 * collects what dead processes of the namespace left behind. NRT_EINVAL when the process has
 * already joined with other options or the namespace name is invalid; NRT_EIO when the
 * registry cannot be created or opened (the message names the object and the system error);
 * NRT_EUNSUPPORTED when the namespace was made by an incompatible nrt version. */
NRT_API int nrt_ipc_init(const struct nrt_ipc_options *options, struct nrt_error *err);

/* Leaves the namespace: releases every shared reference this process still holds, turns its
 * handles in flight into orphans (they stay importable), and, when no other live process
 * remains, removes the namespace and everything in it from /dev/shm. Runs at exit() too.
 * MemInfos and columns still held afterwards keep their mappings and contents (their memory
 * is returned when the process exits) but no longer keep their blocks alive for others. A
 * later call of another function joins again.
 * No-op when not joined. */
NRT_API void nrt_ipc_shutdown(void);

/* ------------------------------------------------------------------- blocks */

/* Allocates a shared block of `size` payload bytes (data aligned to 64, contents
 * unspecified). *out owns one reference; release it with nrt_mi_decref. NRT_ENOMEM when
 * shared memory is exhausted (after a collection), NRT_ERANGE for an absurd size, NRT_EIO.
 * On failure *out is NULL. */
NRT_API int nrt_ipc_alloc(size_t size, nrt_meminfo **out, struct nrt_error *err);

/* Whether `mi` is a shared block held by this process (NULL: 0). */
NRT_API int nrt_ipc_is_shared(const nrt_meminfo *mi);

/* Exports shared block `mi` (the caller keeps its reference) as a handle of
 * NRT_IPC_BLOCK_HANDLE_SIZE bytes written to buf[0..cap); *len receives the size. The handle
 * holds a transit reference of its own until imported or dropped. NRT_ERANGE when cap is too
 * small (*len says how much is needed; nothing is exported), NRT_EINVAL when mi is not a
 * shared block of this process. */
NRT_API int nrt_ipc_export_block(nrt_meminfo *mi, void *buf, size_t cap, size_t *len,
                                 struct nrt_error *err);

/* Imports a block handle: *out owns one reference to the block (the same MemInfo as this
 * process's other references to it). The first import takes over the handle's transit
 * reference; later imports of the same bytes succeed while some process still holds the block.
 * `fds` (n_fds of them, may be NULL/0) are the descriptors received with the handle by
 * SCM_RIGHTS, used instead of opening the segments by name; they stay the caller's.
 * Errors, with a message saying what is wrong: NRT_EINVAL for bytes that are not a handle (bad
 * size, magic, version or checksum, a handle of another kind or namespace, a bad segment id or
 * offset, a wrong descriptor), NRT_EVALUE for a block already freed, NRT_EIO, NRT_ENOMEM. */
NRT_API int nrt_ipc_import_block(const void *handle, size_t len, const int *fds, size_t n_fds,
                                 nrt_meminfo **out, struct nrt_error *err);

/* Releases the transit references of a handle that will never be imported (an exporter
 * whose send failed). Imported references are not affected; dropping twice is harmless.
 * NRT_EINVAL for bytes that are not a handle. */
NRT_API int nrt_ipc_handle_drop(const void *handle, size_t len, struct nrt_error *err);

/* An allocator (see nrt/core.h) whose blocks are shared blocks: installed as the default
 * allocator while a column is built, it makes the column's buffers shared from birth, so
 * exporting it copies nothing. free() takes the pointer malloc returned. Failures of malloc
 * are reported as NULL (the cause is lost; nrt_ipc_alloc reports it). */
NRT_API const struct nrt_allocator *nrt_ipc_allocator(void);

/* ------------------------------------------------------------------ columns */

/* Import flags. */
#define NRT_IPC_VALIDATE 1u /* run nrt_col_validate on the imported column (O(rows)) */

/* A column with the same rows as `col` whose buffers are all shared blocks: buffers already
 * in shared memory are kept, the others are copied once. Returns col itself (retained) when
 * nothing needs copying. *out owns one reference. NRT_EINVAL for NULL, NRT_ENOMEM, NRT_EIO. */
NRT_API int nrt_ipc_share_column(nrt_column *col, nrt_column **out, struct nrt_error *err);

/* Bytes enough for a handle of `col` (an upper bound; export reports the exact size). */
NRT_API size_t nrt_ipc_column_handle_size(const nrt_column *col);

/* Exports a column (type, rows, offset, null count and every buffer) as a handle written to
 * buf[0..cap); *len receives its size. Buffers not yet in shared memory are copied into shared
 * blocks first (nrt_ipc_share_column avoids repeating that copy for every export). The caller
 * keeps its reference. NRT_ERANGE when cap is too small (*len is the size needed; nothing is
 * exported), NRT_EINVAL for NULL, NRT_ENOMEM, NRT_EIO. */
NRT_API int nrt_ipc_export_column(nrt_column *col, void *buf, size_t cap, size_t *len,
                                  struct nrt_error *err);

/* Imports a column handle: *out owns a new column whose buffers point into the shared
 * segments (zero-copy; it can be read, sliced, exported again and applied to like any
 * column). Its sizes are checked against its buffers; NRT_IPC_VALIDATE in `flags` also checks
 * every row. `fds` as for nrt_ipc_import_block. Errors as for nrt_ipc_import_block; a failed
 * import releases the handle's transit references. */
NRT_API int nrt_ipc_import_column(const void *handle, size_t len, const int *fds,
                                  size_t n_fds, unsigned flags, nrt_column **out,
                                  struct nrt_error *err);

/* -------------------------------------------------------- descriptor passing */

/* Sends a handle over a Unix socket that keeps message boundaries (SOCK_SEQPACKET or
 * SOCK_DGRAM) in one message, with a descriptor for each data segment it refers to
 * (SCM_RIGHTS): the receiver maps those instead of opening the segments by name.
 * NRT_EINVAL for a bad handle, NRT_EIO when sending fails. */
NRT_API int nrt_ipc_send(int sock, const void *handle, size_t len, struct nrt_error *err);

/* Receives one message of nrt_ipc_send: the handle into buf[0..cap) (*len its size) and up
 * to max_fds descriptors into fds (*n_fds of them, owned by the caller, close-on-exec).
 * NRT_EIO on a failed or closed socket (the message says which), NRT_ERANGE when the handle
 * or the descriptors do not fit (extra descriptors are closed). */
NRT_API int nrt_ipc_recv(int sock, void *buf, size_t cap, size_t *len, int *fds,
                         size_t max_fds, size_t *n_fds, struct nrt_error *err);

/* ----------------------------------------------------------- collection, stats */

/* What one collection did. */
struct nrt_ipc_collect_result {
  uint64_t holders_reaped;     /* dead processes whose references were released */
  uint64_t transits_released;  /* handles in flight released (dead exporter, timeout) */
  uint64_t blocks_freed;       /* blocks freed as a result */
  uint64_t segments_destroyed; /* data segments removed */
  uint64_t objects_removed;    /* stray objects removed from /dev/shm */
};

/* Detects dead holders (a pid that is gone, reused by another process, or that exec'd another
 * program) and releases every reference they held; releases handles in flight of dead
 * exporters (and, with transit_timeout_ms, expired ones); frees blocks and removes segments
 * nobody uses; removes objects of the namespace left in /dev/shm by a process killed while
 * creating them; unmaps this process's cached mappings of dead segments. Also runs when this
 * process joins, when shared memory runs short, and on the timer of collect_interval_ms.
 * `out` may be NULL. NRT_EIO when the registry cannot be reached. */
NRT_API int nrt_ipc_collect(struct nrt_ipc_collect_result *out, struct nrt_error *err);

/* The namespace's state (namespace-wide counts from the registry, and this process's). */
struct nrt_ipc_stats {
  uint64_t holders;         /* registered processes, live or not yet collected */
  uint64_t segments;        /* live data segments */
  uint64_t segment_bytes;   /* their total size */
  uint64_t blocks;          /* live shared blocks */
  uint64_t block_bytes;     /* their payload bytes */
  uint64_t transits;        /* handles exported and not yet imported or released */
  uint64_t blocks_made;     /* blocks allocated since the namespace was created */
  uint64_t blocks_freed;    /* blocks freed since then (each block exactly once) */
  uint64_t holders_reaped;  /* dead processes collected since then */
  uint64_t recoveries;      /* repairs after a process died holding the registry lock */
  uint64_t local_blocks;    /* shared blocks this process holds */
  uint64_t local_mappings;  /* data segments this process has mapped */
};

/* Fills *out. Joins the namespace first if needed. NRT_EIO when the registry cannot be
 * reached. */
NRT_API int nrt_ipc_stats(struct nrt_ipc_stats *out, struct nrt_error *err);

/* Number of live data segments in this process's namespace (0 when unreachable). */
NRT_API uint64_t nrt_ipc_segments(void);

/* Number of objects in /dev/shm that belong to nrt: those of namespace `namespace_name`
 * (registry, tables, record chunks, data segments), or of every namespace when it is NULL.
 * A namespace nobody uses any more has none. */
NRT_API uint64_t nrt_ipc_shm_objects(const char *namespace_name);

/* The namespace this process has joined, or would join ($NRT_IPC_NAMESPACE or "u<uid>"). */
NRT_API const char *nrt_ipc_namespace(void);

#ifdef __cplusplus
}
#endif

#endif /* NRT_IPC_H */

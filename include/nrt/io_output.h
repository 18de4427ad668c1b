/* nrt io: output files that are replaced atomically.
 *
 * An nrt_io_output writes a file under a temporary name in the file's own directory and
 * renames it over the file only when the writer commits, so the file is never seen truncated
 * or half written: on an error, a full disk or an interrupted run it keeps exactly its old
 * bytes (or stays absent). This is how `nrt apply -o` and `nrt refprune -o` write.
 *
 *  - The temporary file is ".NAME.nrt-PID-N.tmp" next to NAME, created with the mode of a new
 *    file (0666 less the umask); when NAME exists its permission bits (and, where allowed, its
 *    owner and group) are copied first. A symbolic link is followed: the file it names is
 *    replaced and the link stays. Replacing a file gives it a new inode, so other hard links to
 *    it keep the old contents.
 *  - An existing file that is not a regular file (a device such as /dev/null or /dev/full, a
 *    pipe, a terminal) cannot be replaced: it is opened and written in place.
 *  - A process that catches SIGINT or SIGTERM calls nrt_io_output_remove_temps from its
 *    handler before ending, so no temporary file is left behind (the `nrt` command does). */
#ifndef NRT_IO_OUTPUT_H
#define NRT_IO_OUTPUT_H

#include <stddef.h>

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An output file being written (see above). */
typedef struct nrt_io_output nrt_io_output;

/* Opens an output for `path`: a new temporary file next to it, or `path` itself when it is an
 * existing non-regular file. On success *out owns the output (end it with
 * nrt_io_output_commit or nrt_io_output_discard). Errors (*out NULL, nothing created):
 * NRT_EIO "PATH: <errno's text>" (a missing directory, no permission, a directory given),
 * NRT_EINVAL (NULL path or out), NRT_ENOMEM. */
NRT_API int nrt_io_output_open(const char *path, nrt_io_output **out, struct nrt_error *err);

/* The descriptor to write to; it stays owned by the output (do not close it). */
NRT_API int nrt_io_output_fd(const nrt_io_output *o);

/* Writes data[0..len) to the output, retrying short and interrupted writes. NRT_EIO
 * "write error: <errno's text>" on failure (ENOSPC for a full disk). */
NRT_API int nrt_io_output_write(nrt_io_output *o, const void *data, size_t len,
                                struct nrt_error *err);

/* Ends the output successfully: flushes the temporary file to disk (fsync), closes it and
 * renames it over its path. On failure the temporary file is removed and the path keeps its
 * old contents: NRT_EIO "PATH: <errno's text>". `o` is released in every case. */
NRT_API int nrt_io_output_commit(nrt_io_output *o, struct nrt_error *err);

/* Abandons the output: closes and removes the temporary file; the path keeps its old
 * contents (an existing non-regular file keeps what was written to it). NULL is ignored. */
NRT_API void nrt_io_output_discard(nrt_io_output *o);

/* Removes the temporary file of every output of the process not yet committed or discarded.
 * Async-signal-safe: for a signal handler that then ends the process (the outputs are not
 * usable afterwards). Covers up to 16 outputs open at once. */
NRT_API void nrt_io_output_remove_temps(void);

#ifdef __cplusplus
}
#endif

#endif /* NRT_IO_OUTPUT_H */

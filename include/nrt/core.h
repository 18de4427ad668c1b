/* nrt core: errors, allocators, MemInfo reference counting, statistics, leak report.
 *
 * The bottom layer of nrt. Every other module allocates through the allocator interface
 * declared here and manages lifetimes with the MemInfo declared here.
 *
 * Conventions used by every nrt function:
 *  - A function returns an int status: NRT_OK (0) or an errno-style code (NRT_ENOMEM, ...).
 *  - It takes an optional `struct nrt_error *err` (NULL allowed) that receives the code and a
 *    human-readable message when the function fails.
 *  - Nothing in the library aborts or exits on bad input or allocation failure.
 */
#ifndef NRT_CORE_H
#define NRT_CORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define NRT_API __attribute__((visibility("default")))
#define NRT_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define NRT_API
#define NRT_PRINTF(fmt, args)
#endif

/* ---------------------------------------------------------------- errors */

/* Status codes. Values are the C library's errno values where one fits. */
enum nrt_status {
  NRT_OK = 0,
  NRT_ENOMEM = 12,      /* allocation failed */
  NRT_EINVAL = 22,      /* invalid argument (bad alignment, misuse of an API) */
  NRT_ERANGE = 34,      /* value out of range (overflowing size, index) */
  NRT_EILSEQ = 84,      /* invalid byte sequence (bad UTF-8) */
  NRT_EIO = 5,          /* an I/O operation failed */
  NRT_EPARSE = 1001,    /* malformed input text (CSV, JSON, source code) */
  NRT_EVALUE = 1002,    /* Python ValueError */
  NRT_EINDEX = 1003,    /* Python IndexError */
  NRT_EOVERFLOW = 1004, /* Python OverflowError */
  NRT_EZERODIV = 1005,  /* Python ZeroDivisionError */
  NRT_ETYPE = 1006,     /* Python TypeError / a type error at compile time */
  NRT_EUNSUPPORTED = 1007, /* a valid request that nrt does not support */
  NRT_EUNBOUND = 1008,     /* Python UnboundLocalError */
  /* Python MemoryError from a size limit (a string longer than nrt_str_max_bytes): refused
   * before anything is allocated, so unlike NRT_ENOMEM it is one row's error, which an apply
   * with errors_as_null turns into a null row. */
  NRT_ELIMIT = 1009,
  NRT_EKEY = 1010,     /* Python KeyError (the message is repr(key), as str(e) gives) */
  NRT_ERUNTIME = 1011, /* Python RuntimeError (a dict changed size during iteration) */
  /* Python RecursionError: a UDF's helper calls nested deeper than the recursion limit */
  NRT_ERECURSION = 1012
};

#define NRT_ERROR_MESSAGE_SIZE 512

/* Receives the status code and a message describing a failure. Zero-initialise it. */
struct nrt_error {
  int code;
  char message[NRT_ERROR_MESSAGE_SIZE];
};

/* Records `code` and a printf-style message in `err` (ignored when err is NULL); returns code.
 * Lets a failing function write `return nrt_error_set(err, NRT_EINVAL, "...", ...);`. */
NRT_API int nrt_error_set(struct nrt_error *err, int code, const char *fmt, ...) NRT_PRINTF(3, 4);

/* Clears `err` to code 0 and an empty message. NULL is ignored. */
NRT_API void nrt_error_clear(struct nrt_error *err);

/* A short name for a status code ("ENOMEM", "ValueError", ...); never NULL. */
NRT_API const char *nrt_status_name(int code);

/* ------------------------------------------------------------- allocators */

/* The one allocator interface of nrt. Every allocation in the library goes through one.
 *  - malloc(size, opaque): size bytes aligned to at least 16, or NULL on failure.
 *  - realloc(ptr, old_size, new_size, opaque): like C realloc; ptr is never NULL.
 *    Returns NULL on failure, leaving ptr valid.
 *  - free(ptr, size, opaque): releases a block of `size` bytes; ptr is never NULL.
 * The sizes passed are exactly those requested, so size-class allocators need no header. */
struct nrt_allocator {
  void *(*malloc)(size_t size, void *opaque);
  void *(*realloc)(void *ptr, size_t old_size, size_t new_size, void *opaque);
  void (*free)(void *ptr, size_t size, void *opaque);
  void *opaque;
};

/* The C library's allocator (malloc/realloc/free). */
NRT_API const struct nrt_allocator *nrt_libc_allocator(void);

/* The runtime-wide default allocator, used by every function that takes none explicitly.
 * Initially nrt_libc_allocator(). */
NRT_API const struct nrt_allocator *nrt_default_allocator(void);

/* Replaces the default allocator (NULL restores the C library's). The structure is not copied:
 * it must outlive every block allocated through it. Blocks remember their allocator, so blocks
 * made before the change are still freed by the allocator that made them. Not thread-safe with
 * respect to concurrent allocations: set it before starting work. */
NRT_API void nrt_set_default_allocator(const struct nrt_allocator *allocator);

/* Raw memory through the default allocator, counted in the statistics (alloc / free).
 * nrt_allocate returns NULL and fills err on failure; nrt_reallocate leaves ptr valid on
 * failure and returns NULL; nrt_reallocate(NULL, 0, n) allocates; nrt_free(NULL, n) is a no-op.
 * `size` passed to nrt_free / `old_size` to nrt_reallocate must be the block's current size. */
NRT_API void *nrt_allocate(size_t size, struct nrt_error *err);
NRT_API void *nrt_reallocate(void *ptr, size_t old_size, size_t new_size, struct nrt_error *err);
NRT_API void nrt_free(void *ptr, size_t size);

/* The same through an explicit allocator (NULL means the default one). */
NRT_API void *nrt_allocate_with(const struct nrt_allocator *a, size_t size, struct nrt_error *err);
NRT_API void *nrt_reallocate_with(const struct nrt_allocator *a, void *ptr, size_t old_size,
                                  size_t new_size, struct nrt_error *err);
NRT_API void nrt_free_with(const struct nrt_allocator *a, void *ptr, size_t size);

/* Freed blocks of 256 KiB and more from the C library's allocator are kept for reuse (at most
 * 96 MiB in all, process-wide), so that the next output buffers of the same size need no
 * fresh pages from the kernel. nrt_memory_cached is the bytes kept; nrt_memory_release_cached
 * frees them. NRT_BLOCK_CACHE=0 in the environment, or a sanitizer build, turns keeping off. */
NRT_API size_t nrt_memory_cached(void);
NRT_API void nrt_memory_release_cached(void);

/* ---------------------------------------------------------------- MemInfo */

/* Destructor run when a MemInfo's refcount reaches zero: (data, size, dtor_info). */
typedef void (*nrt_dtor_fn)(void *data, size_t size, void *dtor_info);

/* The one refcounted header in nrt.
 *
 * Layout (x86-64 / any LP64 target; pinned by static assertions in src/core/meminfo.c):
 *   offset  0  size_t refct        reference count; the object dies when it drops to 0
 *   offset  8  nrt_dtor_fn dtor    run once at death (may be NULL)
 *   offset 16  void *dtor_info     passed to dtor
 *   offset 24  void *data          the payload
 *   offset 32  size_t size         payload size in bytes
 *   offset 40  allocator           allocator that made the block, with two low tag bits saying
 *                                  how the block was laid out (internal; use nrt_mi_allocator)
 * The first five fields are those of Numba's NRT MemInfo, so compiled code can inline
 * incref/decref (an add on offset 0) and the data load (offset 24), and code written against
 * Numba's nrt.h links against nrt (see nrt/numba_compat.h).
 *
 * Fields are public for compiled code and debuggers; use the functions below to change them. */
typedef struct nrt_meminfo {
  size_t refct;
  nrt_dtor_fn dtor;
  void *dtor_info;
  void *data;
  size_t size;
  const struct nrt_allocator *allocator;
} nrt_meminfo;

/* Alignment of `data` for nrt_mi_alloc: the payload follows the 48-byte header. */
#define NRT_MI_DATA_ALIGN 16
/* Largest alignment accepted by nrt_mi_alloc_aligned. */
#define NRT_MI_MAX_ALIGN 4096

/* Allocates one block holding a MemInfo and `size` payload bytes (data aligned to 16), with
 * refcount 1 and no destructor. On success *out owns one reference. On failure *out is NULL,
 * NRT_ENOMEM (or NRT_ERANGE for an overflowing size) is returned and err filled.
 * `allocator` NULL means the default allocator. */
NRT_API int nrt_mi_alloc(size_t size, nrt_meminfo **out, struct nrt_error *err);
NRT_API int nrt_mi_alloc_with(const struct nrt_allocator *allocator, size_t size,
                              nrt_meminfo **out, struct nrt_error *err);

/* As nrt_mi_alloc, and `dtor(data, size, dtor_info)` runs once before the block is freed. */
NRT_API int nrt_mi_alloc_dtor(size_t size, nrt_dtor_fn dtor, void *dtor_info,
                              nrt_meminfo **out, struct nrt_error *err);

/* As nrt_mi_alloc with `data` aligned to `align`, a power of two from 1 to NRT_MI_MAX_ALIGN.
 * Any other alignment returns NRT_EINVAL. */
NRT_API int nrt_mi_alloc_aligned(size_t size, size_t align, nrt_meminfo **out,
                                 struct nrt_error *err);
NRT_API int nrt_mi_alloc_aligned_with(const struct nrt_allocator *allocator, size_t size,
                                      size_t align, nrt_meminfo **out, struct nrt_error *err);

/* Adopts foreign memory: a new MemInfo (allocated separately) whose payload is `data` (not
 * copied). At death `dtor(data, size, dtor_info)` runs; it is how the foreign memory is freed.
 * On failure nothing is adopted: the caller still owns `data`. */
NRT_API int nrt_mi_new(void *data, size_t size, nrt_dtor_fn dtor, void *dtor_info,
                       nrt_meminfo **out, struct nrt_error *err);

/* Initialises a header the caller placed in its own memory (for instance co-allocated with a
 * payload struct), with refcount 1. At death `dtor` runs and nothing is freed by nrt: the
 * destructor (or the caller) releases the memory holding the header. Counted as a MemInfo in
 * the statistics, so the decref that ends it balances them. Never fails. */
NRT_API void nrt_mi_init(nrt_meminfo *mi, void *data, size_t size, nrt_dtor_fn dtor,
                         void *dtor_info);

/* Atomic reference counting; NULL is ignored. Increments are relaxed; the decrement is a
 * release operation, and the thread that brings the count to 0 issues an acquire fence before
 * the destructor runs, so every write made through other references happens-before it. When
 * the count reaches 0 the destructor runs exactly once and the block is freed through the
 * allocator that made it. */
NRT_API void nrt_mi_incref(nrt_meminfo *mi);
NRT_API void nrt_mi_decref(nrt_meminfo *mi);

/* Non-atomic variants for objects confined to one thread (the per-row temporaries of compiled
 * code). Mixing them with concurrent atomic operations on the same object is a data race. */
NRT_API void nrt_mi_incref_local(nrt_meminfo *mi);
NRT_API void nrt_mi_decref_local(nrt_meminfo *mi);

/* Runs the destructor and frees the block now, regardless of the refcount (what decref does
 * at zero). For owners that know no other reference exists. NULL is ignored. */
NRT_API void nrt_mi_destroy(nrt_meminfo *mi);

/* Inline forms of the four refcount functions for hot C loops, with the same memory ordering:
 * the code compiled UDFs inline (an add on offset 0; a call only when the count reaches zero).
 * nrt_mi_decref_inline always decrements with a locked instruction: the inline forms are meant
 * for loops over shared objects. (nrt_mi_decref, out of line, first checks for a count of 1:
 * seen with acquire it means the caller holds the only reference, since nobody can incref
 * without one, so a final release such as the free pass's skips the locked instruction.) */
static inline void nrt_mi_incref_inline(nrt_meminfo *mi) {
  if (mi)
    __atomic_fetch_add(&mi->refct, 1, __ATOMIC_RELAXED);
}
static inline void nrt_mi_decref_inline(nrt_meminfo *mi) {
  if (mi && __atomic_sub_fetch(&mi->refct, 1, __ATOMIC_RELEASE) == 0) {
    (void)__atomic_load_n(&mi->refct, __ATOMIC_ACQUIRE);
    nrt_mi_destroy(mi);
  }
}
static inline void nrt_mi_incref_local_inline(nrt_meminfo *mi) {
  if (mi)
    mi->refct++;
}
static inline void nrt_mi_decref_local_inline(nrt_meminfo *mi) {
  if (mi && --mi->refct == 0)
    nrt_mi_destroy(mi);
}

/* Accessors. NULL gives NULL / 0. The refcount is a snapshot, for debugging only. */
NRT_API void *nrt_mi_data(const nrt_meminfo *mi);
NRT_API size_t nrt_mi_size(const nrt_meminfo *mi);
NRT_API size_t nrt_mi_refcount(const nrt_meminfo *mi);

/* The allocator that frees `mi`'s memory, or NULL for a caller-placed header (nrt_mi_init). */
NRT_API const struct nrt_allocator *nrt_mi_allocator(const nrt_meminfo *mi);

/* ------------------------------------------------------------- statistics */

/* Totals since the process started.
 * alloc/free count every block through nrt's allocation functions (MemInfo blocks included);
 * mi_alloc/mi_free count MemInfos; bytes are the payload and header bytes allocated/freed. */
struct nrt_stats {
  uint64_t alloc;
  uint64_t free;
  uint64_t mi_alloc;
  uint64_t mi_free;
  uint64_t bytes_alloc;
  uint64_t bytes_free;
};

/* Sums the per-thread counters into *out. The counters are kept per thread (no shared cache
 * line is written on the hot path), so a snapshot taken while other threads allocate is a
 * consistent-enough sum of values each thread has published, not an atomic cut. */
NRT_API void nrt_stats_get(struct nrt_stats *out);

/* 1 when the library was built with statistics (the default), 0 when compiled out. */
NRT_API int nrt_stats_enabled(void);

/* Live objects: mi_alloc - mi_free and the bytes not yet freed. */
NRT_API uint64_t nrt_stats_live_meminfos(void);
NRT_API uint64_t nrt_stats_live_bytes(void);

/* ---------------------------------------------------------------- leak report */

/* Debug tracking of live MemInfos. When on, every MemInfo allocated afterwards is recorded
 * with its allocation site (the caller's return address, symbolised when possible) until it
 * dies. Turned on at start-up by the environment variable NRT_DEBUG_LEAKS=1 (which also prints
 * the report at exit), or at run time with nrt_debug_track(1). Returns the previous setting. */
NRT_API int nrt_debug_track(int on);

/* Writes one line per tracked live MemInfo ("address size refcount site") to `stream` (a
 * FILE *; NULL means stderr) and returns how many there are. */
NRT_API size_t nrt_debug_report(void *stream);

/* Number of tracked live MemInfos (0 when tracking is off). */
NRT_API size_t nrt_debug_live_count(void);

#ifdef __cplusplus
}
#endif

#endif /* NRT_CORE_H */

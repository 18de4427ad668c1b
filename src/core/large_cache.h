/* Internal: a process-wide cache of large blocks of the C library's allocator.
 *
 * The C library hands a large block (above its mmap threshold) back to the kernel when it is
 * freed, so the next apply's output buffers of the same size are fresh pages again: a page
 * fault and a page cleared by the kernel per 4 KiB written, which cost as much as the UDF
 * itself for a cheap one (bench/udf, bench/peers); in a threaded apply each unmapping also
 * stops the other threads to flush their TLBs. Keeping the freed blocks of at least
 * NRT_LARGE_CACHE_MIN bytes, NRT_LARGE_CACHE_BYTES in all, and handing them out again for
 * requests of at most their size (and about half of it at least) skips both. Turned off with
 * the small block cache (NRT_BLOCK_CACHE=0, sanitizer builds); nrt_memory_release_cached
 * gives the memory back. */
#ifndef NRT_CORE_LARGE_CACHE_H
#define NRT_CORE_LARGE_CACHE_H

#include <stddef.h>

#define NRT_HIDDEN __attribute__((visibility("hidden")))

/* 64 KiB: a threaded apply's chunk buffers (16,384 rows: 64 KiB of offsets, 128 KiB data
 * blocks) are freed by one thread and allocated by another, and the C library's per-thread
 * arenas hand such blocks back to the kernel (2,500 page faults per 1M-row apply at 2
 * threads with 256 KiB here); below it, malloc's heap reuses its memory. */
#define NRT_LARGE_CACHE_MIN ((size_t)64 << 10)
#define NRT_LARGE_CACHE_BYTES ((size_t)96 << 20)  /* an apply's output over 1M short rows */
#define NRT_LARGE_CACHE_SLOTS 256 /* a threaded apply's chunk buffers, a few per chunk */

/* A cached block able to hold `size` bytes (size >= NRT_LARGE_CACHE_MIN), or NULL. */
NRT_HIDDEN void *nrt_large_cache_take(size_t size);

/* Keeps a freed block of the C library's allocator; returns 0 when the caller must free it. */
NRT_HIDDEN int nrt_large_cache_keep(void *p, size_t size);

#endif

/* nrt memblock: typed, reference-counted memory blocks (after DyND's memory blocks).
 *
 * A memory block is one reference-counted object: an nrt_meminfo is its header, so there is
 * one refcount mechanism in nrt (nrt_mi_incref/decref work on nrt_memblock_meminfo(b)). Each
 * block has a kind:
 *
 *  - POD / ZEROINIT: an arena with the "pod allocator" API: allocate(size, align) gives
 *    [begin, end); resize changes the most recent allocation (and may move it); finalize ends
 *    allocation without moving anything; reset drops every allocation. Memory is a chain of
 *    chunks, each at least twice the previous one; an allocation never moves once a later one
 *    was made. ZEROINIT blocks hand out zeroed memory. Column builders use them for
 *    variable-sized output: bytes are written once, finished chunks are never copied.
 *  - EXTERNAL: adopts memory made elsewhere (an imported Arrow array, a mapped file); a
 *    destructor given by the adopter frees it when the last reference goes.
 *  - OBJECTARRAY: an arena of fixed-size elements with an element destructor, run on every
 *    element handed out when the block is reset or dies (nrt uses it for lists of references,
 *    e.g. the managed strings a column builder hands over with nrt_col_builder_finish_keep_refs).
 *  - ARRAY: a typed header (caller-defined bytes, e.g. an nrt_column) plus a fixed number of
 *    references to data blocks, released when the header dies.
 *
 * Thread safety: retain/release are atomic, so blocks can be shared and released from any
 * thread. Allocation on a POD/ZEROINIT/OBJECTARRAY block is not synchronised: one thread at a
 * time builds into a block (builders are per thread); after finalize it is read-only.
 *
 * Every allocation goes through the runtime's default allocator as it was when the block was
 * made (the block remembers it), so failure injection and statistics see all of them. */
#ifndef NRT_MEMBLOCK_H
#define NRT_MEMBLOCK_H

#include <stddef.h>
#include <stdint.h>

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The kind of a block. */
enum nrt_memblock_kind {
  NRT_MEMBLOCK_POD = 1,         /* arena of plain bytes, uninitialised */
  NRT_MEMBLOCK_ZEROINIT = 2,    /* arena of plain bytes, zeroed */
  NRT_MEMBLOCK_EXTERNAL = 3,    /* adopted memory with a destructor */
  NRT_MEMBLOCK_OBJECTARRAY = 4, /* arena of elements with an element destructor */
  NRT_MEMBLOCK_ARRAY = 5        /* typed header referencing data blocks */
};

/* Opaque block. A pointer owns one reference when a function says so. */
typedef struct nrt_memblock nrt_memblock;

/* Largest alignment accepted by the pod allocator. */
#define NRT_MEMBLOCK_MAX_ALIGN 4096

/* ------------------------------------------------------------------ common */

/* Takes one more reference (atomic). NULL is ignored. */
NRT_API void nrt_memblock_retain(nrt_memblock *b);

/* Drops one reference (atomic). The last one runs the kind's destructor (element destructors,
 * the external destructor, releasing referenced blocks) and frees the block's memory. NULL is
 * ignored. Safe from any thread. */
NRT_API void nrt_memblock_release(nrt_memblock *b);

/* The block's kind; 0 for NULL. */
NRT_API enum nrt_memblock_kind nrt_memblock_kind(const nrt_memblock *b);

/* The MemInfo that carries the block's refcount: nrt_mi_incref/decref on it are the same as
 * retain/release. Its data field points at the block. NULL for NULL. */
NRT_API nrt_meminfo *nrt_memblock_meminfo(nrt_memblock *b);

/* A snapshot of the refcount, for tests and debugging. 0 for NULL. */
NRT_API size_t nrt_memblock_refcount(const nrt_memblock *b);

/* A short name for a kind ("pod", "zeroinit", "external", "objectarray", "array"). */
NRT_API const char *nrt_memblock_kind_name(enum nrt_memblock_kind kind);

/* ------------------------------------------------------ pod / zeroinit arenas */

/* Makes an empty POD (zeroed == 0) or ZEROINIT (zeroed != 0) block; the first chunk, of
 * `initial_capacity` bytes (0 picks a small default), is allocated on the first allocation.
 * On success *out owns one reference; on failure *out is NULL and NRT_ENOMEM is returned. */
NRT_API int nrt_memblock_pod_new(size_t initial_capacity, int zeroed, nrt_memblock **out,
                                 struct nrt_error *err);

/* Allocates `size` bytes aligned to `alignment` (a power of two up to NRT_MEMBLOCK_MAX_ALIGN)
 * and stores [*begin, *end) (end = begin + size). It becomes the block's most recent
 * allocation. If the current chunk cannot hold it, a new chunk of at least twice the previous
 * chunk's capacity (and large enough) is added; earlier allocations never move.
 * size 0 is allowed (begin == end, still aligned).
 * Errors (nothing changes, *begin = *end = NULL): NRT_EINVAL for a bad alignment, a block that
 * is not POD/ZEROINIT, or a finalized block; NRT_ERANGE for an overflowing size; NRT_ENOMEM. */
NRT_API int nrt_memblock_pod_allocate(nrt_memblock *b, size_t size, size_t alignment,
                                      char **begin, char **end, struct nrt_error *err);

/* Resizes the most recent allocation, whose current range is passed in [*begin, *end), to
 * `new_size` bytes, keeping its alignment and its first min(old, new) bytes. It grows in
 * place when its chunk has room; otherwise it moves (the bytes are copied, or the chunk is
 * reallocated when the allocation is alone in it), and [*begin, *end) is updated. Growth of
 * a ZEROINIT allocation is zeroed.
 * Errors (nothing changes): NRT_EINVAL when *begin is not the most recent allocation's start
 * (or there is none), the block is finalized or not POD/ZEROINIT; NRT_ENOMEM; NRT_ERANGE. */
NRT_API int nrt_memblock_pod_resize(nrt_memblock *b, size_t new_size, char **begin, char **end,
                                    struct nrt_error *err);

/* Ends allocation: later allocate/resize fail with NRT_EINVAL. Never moves or reallocates
 * memory (a realloc may move even when shrinking), so every pointer handed out stays valid.
 * Idempotent. NRT_EINVAL for a block that is not POD/ZEROINIT/OBJECTARRAY. */
NRT_API int nrt_memblock_pod_finalize(nrt_memblock *b, struct nrt_error *err);

/* Drops every allocation (their pointers become invalid) and un-finalizes the block. The
 * largest chunk is kept for reuse, the others are freed. On an OBJECTARRAY block the element
 * destructor runs on every element handed out first. Other kinds: no effect. */
NRT_API void nrt_memblock_pod_reset(nrt_memblock *b);

/* Number of chunks of a POD/ZEROINIT/OBJECTARRAY block (0 for other kinds). */
NRT_API size_t nrt_memblock_pod_chunk_count(const nrt_memblock *b);

/* Chunk `i` (in allocation order): its start and the bytes used up to the end of its last
 * allocation. NRT_EINDEX when i is out of range (outputs set to NULL / 0). */
NRT_API int nrt_memblock_pod_chunk(const nrt_memblock *b, size_t i, const char **begin,
                                   size_t *used);

/* Total bytes allocated from the system for the chunks (capacity, not use). */
NRT_API size_t nrt_memblock_pod_capacity(const nrt_memblock *b);

/* ------------------------------------------------------------------ external */

/* Adopts `data` of `size` bytes (not copied). When the last reference goes,
 * `dtor(data, size, dtor_info)` runs (may be NULL: nothing to free). On success *out owns one
 * reference; on failure nothing is adopted (the caller still owns `data`), *out is NULL and
 * NRT_ENOMEM is returned. */
NRT_API int nrt_memblock_external_new(void *data, size_t size, nrt_dtor_fn dtor,
                                      void *dtor_info, nrt_memblock **out,
                                      struct nrt_error *err);

/* The adopted memory and its size (NULL / 0 for other kinds). */
NRT_API void *nrt_memblock_external_data(const nrt_memblock *b);
NRT_API size_t nrt_memblock_external_size(const nrt_memblock *b);

/* --------------------------------------------------------------- objectarray */

/* Element destructor of an OBJECTARRAY block: called with a pointer to each element. Elements
 * are zeroed when handed out, so the destructor must accept an all-zero element (one the
 * owner never filled). */
typedef void (*nrt_memblock_elem_dtor)(void *elem, void *dtor_info);

/* Makes an empty OBJECTARRAY block of elements of `elem_size` bytes aligned to `elem_align`
 * (power of two <= NRT_MEMBLOCK_MAX_ALIGN; elem_size a positive multiple of it), with first
 * chunk room for `initial_count` elements (0: a default). On success *out owns one reference.
 * NRT_EINVAL for a bad size/alignment, NRT_ENOMEM. */
NRT_API int nrt_memblock_objectarray_new(size_t elem_size, size_t elem_align,
                                         size_t initial_count, nrt_memblock_elem_dtor dtor,
                                         void *dtor_info, nrt_memblock **out,
                                         struct nrt_error *err);

/* Hands out `count` zeroed contiguous elements (*elems) that the owner fills; the destructor
 * will run on each of them. Chunks grow by doubling and never move. NRT_EINVAL (kind,
 * finalized), NRT_ERANGE, NRT_ENOMEM; on error *elems is NULL and nothing changes. */
NRT_API int nrt_memblock_objectarray_allocate(nrt_memblock *b, size_t count, void **elems,
                                              struct nrt_error *err);

/* Number of elements handed out since creation or the last reset. */
NRT_API size_t nrt_memblock_objectarray_count(const nrt_memblock *b);

/* ---------------------------------------------------------------------- array */

/* Makes an ARRAY block: a zeroed header of `header_size` bytes (aligned to 16) tagged with
 * `type_id` (the owner's type code, e.g. an nrt_col_type), and `n_refs` empty reference slots.
 * When the block dies, every non-NULL slot is released, then the header freed. On success
 * *out owns one reference. NRT_ENOMEM / NRT_ERANGE. */
NRT_API int nrt_memblock_array_new(uint32_t type_id, size_t header_size, size_t n_refs,
                                   nrt_memblock **out, struct nrt_error *err);

/* The header (NULL for other kinds), its type tag, and the number of reference slots. */
NRT_API void *nrt_memblock_array_header(const nrt_memblock *b);
NRT_API uint32_t nrt_memblock_array_type(const nrt_memblock *b);
NRT_API size_t nrt_memblock_array_ref_count(const nrt_memblock *b);

/* Stores `ref` in slot i, taking a new reference to it (retain), and releases what the slot
 * held. ref may be NULL. NRT_EINDEX when i is out of range, NRT_EINVAL for a non-ARRAY block. */
NRT_API int nrt_memblock_array_set_ref(nrt_memblock *b, size_t i, nrt_memblock *ref,
                                       struct nrt_error *err);

/* The block in slot i (borrowed), or NULL (empty slot, bad index, other kind). */
NRT_API nrt_memblock *nrt_memblock_array_ref(const nrt_memblock *b, size_t i);

#ifdef __cplusplus
}
#endif

#endif /* NRT_MEMBLOCK_H */

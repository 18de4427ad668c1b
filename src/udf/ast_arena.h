/* The arena that owns a UDF module's tree (internal to the front end).
 *
 * Chunks come from nrt_allocate, so failure injection reaches them; udf_arena_destroy frees
 * every chunk. An allocation failure is sticky: once a request failed, `failed` stays true and
 * callers report NRT_ENOMEM. */
#ifndef NRT_UDF_AST_ARENA_H
#define NRT_UDF_AST_ARENA_H

#include <stdbool.h>
#include <stddef.h>

#include "nrt/core.h"

typedef struct udf_arena udf_arena;

/* Payload bytes of a chunk (16 KiB). Tests set it to 1 so that every arena allocation is an
 * allocation of its own, and failure injection reaches every allocation site. */
extern size_t udf_arena_chunk_size;

/* A new empty arena, or NULL (err filled) when the allocation fails. */
udf_arena *udf_arena_create(struct nrt_error *err);

/* Frees every chunk and the arena itself. NULL is a no-op. */
void udf_arena_destroy(udf_arena *a);

/* n zeroed bytes aligned to 16, or NULL when out of memory (a->failed is then set). */
void *udf_arena_alloc(udf_arena *a, size_t n);

/* A NUL-terminated copy of s[0..n), or NULL when out of memory. */
char *udf_arena_strndup(udf_arena *a, const char *s, size_t n);

/* True once any allocation from the arena failed. */
bool udf_arena_failed(const udf_arena *a);

/* A growable array of pointers built in the arena (old storage is abandoned to the arena).
 * Returns false when out of memory. */
bool udf_arena_push(udf_arena *a, void ***items, int *n, int *cap, void *item);

#endif

/* nrt test kit: an allocator that fails on demand and counts what it hands out.
 *
 * Every nrt API is tested under it: fail the 1st, 2nd, ... Nth allocation, check that the call
 * reports NRT_ENOMEM, that nothing leaks (live blocks and bytes back to where they were) and
 * that the state stays usable. Embedders can use it to test their own code the same way. */
#ifndef NRT_TESTKIT_H
#define NRT_TESTKIT_H

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* An allocator over the C library's that fails the `fail_at`-th allocation (malloc or
 * realloc) counted from the last nrt_test_allocator_reset, and every later one while
 * `fail_after` is nonzero. fail_at = 0 never fails. All counters are atomic: the allocator may
 * be used from several threads. Initialise with nrt_test_allocator_init. */
struct nrt_test_allocator {
  struct nrt_allocator base; /* pass &t->base wherever an allocator is taken */
  uint64_t fail_at;          /* 1-based index of the allocation that fails; 0: none */
  int fail_after;            /* nonzero: every allocation after fail_at fails too */
  uint64_t calls;            /* allocations attempted since reset (malloc + realloc) */
  uint64_t failures;         /* allocations refused since reset */
  int64_t live_blocks;       /* blocks handed out and not yet freed */
  int64_t live_bytes;        /* bytes handed out and not yet freed */
};

/* Sets up `t` to fail nothing. */
NRT_API void nrt_test_allocator_init(struct nrt_test_allocator *t);

/* Starts a new trial: allocation number `fail_at` (1-based; 0 = none) fails, and all later
 * ones too if `fail_after`. Clears calls and failures; live counts are kept. */
NRT_API void nrt_test_allocator_reset(struct nrt_test_allocator *t, uint64_t fail_at,
                                      int fail_after);

#ifdef __cplusplus
}
#endif

#endif /* NRT_TESTKIT_H */

/* Minimal assertion helpers for nrt's C tests, and the failure-injection driver. */
#ifndef NRT_TESTS_CHECK_H
#define NRT_TESTS_CHECK_H

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "nrt/core.h"
#include "nrt/testkit.h"

void check_fail(const char *file, int line, const char *what);
void check_failf(const char *file, int line, const char *fmt, ...) NRT_PRINTF(3, 4);
void check_pass(void);

#define CHECK(cond)                                                                          \
  do {                                                                                       \
    if (cond)                                                                                \
      check_pass();                                                                          \
    else                                                                                     \
      check_fail(__FILE__, __LINE__, #cond);                                                 \
  } while (0)

#define CHECK_EQ_INT(a, b)                                                                   \
  do {                                                                                       \
    long long check_a_ = (long long)(a), check_b_ = (long long)(b);                          \
    if (check_a_ == check_b_)                                                                \
      check_pass();                                                                          \
    else                                                                                     \
      check_failf(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, check_a_, check_b_); \
  } while (0)

#define CHECK_EQ_STR(a, b)                                                                   \
  do {                                                                                       \
    const char *check_a_ = (a), *check_b_ = (b);                                             \
    if (check_a_ && check_b_ && strcmp(check_a_, check_b_) == 0)                             \
      check_pass();                                                                          \
    else                                                                                     \
      check_failf(__FILE__, __LINE__, "%s == %s: \"%s\" != \"%s\"", #a, #b,                  \
                  check_a_ ? check_a_ : "(null)", check_b_ ? check_b_ : "(null)");           \
  } while (0)

/* A workload of n, cut for slow runs: a quarter under the sanitizers, a tenth under valgrind
 * (NRT_UNDER_VALGRIND set). */
int64_t check_scale(int64_t n);

/* Prints "<name>: N checks, M failed" and returns the process exit status. */
int check_finish(const char *name);

/* Snapshot of what is alive, to compare before and after an operation. */
struct check_live {
  uint64_t meminfos;
  uint64_t blocks; /* alloc - free in the runtime statistics */
};
struct check_live check_live_now(void);
/* CHECKs that nothing allocated since `before` is still alive. */
#define CHECK_NO_LEAK(before)                                                                \
  do {                                                                                       \
    struct check_live check_now_ = check_live_now();                                         \
    CHECK_EQ_INT(check_now_.meminfos, (before).meminfos);                                    \
    CHECK_EQ_INT(check_now_.blocks, (before).blocks);                                        \
  } while (0)

/* Failure injection. `trial` performs one complete operation with the runtime's default
 * allocator set to a failing test allocator, releases everything it made, and returns the
 * operation's status. The driver runs it with allocation 1, 2, 3, ... failing until a run
 * needs no failed allocation, and checks after every run: the status is an error exactly when
 * an allocation was refused, no block or MemInfo is left alive, and the final run succeeds.
 * Returns the number of allocations the successful run made. */
typedef int (*check_trial_fn)(void *ctx);
uint64_t check_every_allocation_failure(const char *name, check_trial_fn trial, void *ctx);

#endif

/* Assertion helpers and the failure-injection driver (see check.h). */
#include "support/check.h"

#include <stdarg.h>
#include <stdlib.h>

static long checks, failures;

void check_pass(void) {
  __atomic_add_fetch(&checks, 1, __ATOMIC_RELAXED);
}

void check_fail(const char *file, int line, const char *what) {
  __atomic_add_fetch(&checks, 1, __ATOMIC_RELAXED);
  __atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
  fprintf(stderr, "%s:%d: check failed: %s\n", file, line, what);
}

void check_failf(const char *file, int line, const char *fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  check_fail(file, line, buf);
}

int check_finish(const char *name) {
  printf("%s: %ld checks, %ld failed\n", name, checks, failures);
  return failures ? EXIT_FAILURE : EXIT_SUCCESS;
}

int64_t check_scale(int64_t n) {
#ifdef NRT_UNDER_SANITIZER
  return n / 4;
#else
  return getenv("NRT_UNDER_VALGRIND") ? n / 10 : n;
#endif
}

struct check_live check_live_now(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  return (struct check_live){s.mi_alloc - s.mi_free, s.alloc - s.free};
}

uint64_t check_every_allocation_failure(const char *name, check_trial_fn trial, void *ctx) {
  struct nrt_test_allocator t;
  nrt_test_allocator_init(&t);
  const struct nrt_allocator *saved = nrt_default_allocator();
  nrt_set_default_allocator(&t.base);
  uint64_t made = 0;
  for (uint64_t n = 1;; n++) {
    struct check_live before = check_live_now();
    nrt_test_allocator_reset(&t, n, 0);
    int status = trial(ctx);
    uint64_t refused = t.failures;
    CHECK_NO_LEAK(before);
    if (t.live_blocks != 0) {
      check_failf(__FILE__, __LINE__, "%s: %lld blocks leaked when allocation %" PRIu64 " failed",
                  name, (long long)t.live_blocks, n);
      break;
    }
    if (refused == 0) {
      if (status != NRT_OK)
        check_failf(__FILE__, __LINE__, "%s: failed with status %d and no refused allocation",
                    name, status);
      made = t.calls;
      break;
    }
    if (status == NRT_OK)
      check_failf(__FILE__, __LINE__, "%s: succeeded although allocation %" PRIu64 " failed",
                  name, n);
    if (n > 1000000) {
      check_failf(__FILE__, __LINE__, "%s: more than a million allocations", name);
      break;
    }
  }
  nrt_set_default_allocator(saved);
  return made;
}

/* Property test: random CFGs with random refcount operations, pruned with a random selection
 * of sub-passes; every path (bounded length) of the original and the pruned function is
 * simulated on a counter per object (the checking code is in rp_prop.c). Each path is simulated three times: with the pointers pointing to three different objects,
 * with p0 and p1 pointing to the same object, and with all three pointing to one object (each
 * object starts with one reference; the other pointers to it borrow): the counters are per
 * object, which checks the rules about decrefs of other values. Required:
 *  - on every path (complete or cut at the bound) the pruned function's count of an object
 *    never drops to zero earlier than the original's (time = position of the block in the
 *    path, then the number of non-refop instructions passed in the block);
 *  - on a complete path ending in a normal exit, every count ends equal;
 *  - on a complete path ending in a raising block (the relation documented in
 *    nrt/refprune.h): with fanout-raise off, counts end equal; with it on, the pruned final
 *    count is the original's minus d, 0 <= d <= the number of the pointer's increfs that ran
 *    in the original on this path and were removed;
 *  - on every path, at the end of every block, the removed increfs of an object that ran are at
 *    least as many as its removed decrefs that ran (no removed decref runs without its incref;
 *    inside a block normalise may have put a decref after an incref).
 * Also: the pruned module passes the verifier, and the run is deterministic by seed. */
#include <stdio.h>
#include <stdlib.h>

#include "refprune/rp_prop.h"
#include "support/check.h"

int main(int argc, char **argv) {
  struct check_live before = check_live_now();
  long seeds = 15000;
#ifdef NRT_UNDER_SANITIZER
  seeds = 3000;
#endif
  if (getenv("NRT_UNDER_VALGRIND"))
    seeds = 200;
  uint64_t first = 1;
  if (argc > 1)
    first = strtoull(argv[1], NULL, 10);
  if (argc > 2)
    seeds = strtol(argv[2], NULL, 10);
  struct rp_prop_totals totals = {0, 0, 0};
  for (long i = 0; i < seeds; i++) {
    uint64_t seed = first + (uint64_t)i;
    struct rp_rng rng = {seed * 0x9E3779B97F4A7C15ull + 1, NULL, 0, 0};
    int failures = rp_prop_run(&rng, 1, &totals);
    if (failures)
      check_failf(__FILE__, __LINE__, "seed %llu: %d failures", (unsigned long long)seed, failures);
    else
      check_pass();
  }
  printf("%ld random functions, %ld paths simulated, %ld of %ld refops removed\n", seeds,
         totals.paths, totals.removed, totals.refops);
  CHECK(totals.removed > totals.refops / 10);
  CHECK_NO_LEAK(before);
  return check_finish("test_refprune_property");
}

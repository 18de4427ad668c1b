/* The refprune property check (see rp_prop.c): one random function, pruned with a random
 * configuration, every bounded path of the original and pruned function simulated. */
#ifndef NRT_TESTS_RP_PROP_H
#define NRT_TESTS_RP_PROP_H

#include <stddef.h>
#include <stdint.h>

/* Randomness: a xorshift state, or bytes (fuzz input; 0 once exhausted) when data is set. */
struct rp_rng {
  uint64_t state;
  const uint8_t *data;
  size_t len, pos;
};
uint32_t rp_rng_next(struct rp_rng *r, uint32_t n);

struct rp_prop_totals {
  long paths, refops, removed;
};

/* Generates, prunes and checks one function; returns the number of broken rules (0 = fine),
 * printing the function when verbose. */
int rp_prop_run(struct rp_rng *rng, int verbose, struct rp_prop_totals *totals);

#endif

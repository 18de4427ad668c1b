/* libFuzzer harness: the fuzz input drives the random-CFG generator of the property check
 * (rp_prop.c) byte by byte; the function is pruned, verified and simulated on every path. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "rp_prop.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  struct rp_rng rng = {0, data, size, 0};
  struct rp_prop_totals totals = {0, 0, 0};
  if (rp_prop_run(&rng, 1, &totals) != 0)
    abort(); /* a broken rule: the harness reports the input */
  return 0;
}

/* Counting refcount operations for the benchmark's "refcount ops per row" (see runtime.h). */
#include <stdatomic.h>

#include "udf/runtime.h"

static _Atomic uint64_t refops;

/* Only operations on an object count: on NULL (a borrowed string) they do nothing, and the
 * optimised build folds them away wherever the NULL is known. */
void nrt_udf_rt_incref_counted(nrt_meminfo *mi) {
  if (mi)
    atomic_fetch_add_explicit(&refops, 1, memory_order_relaxed);
  nrt_mi_incref_local(mi);
}

void nrt_udf_rt_decref_counted(nrt_meminfo *mi) {
  if (mi)
    atomic_fetch_add_explicit(&refops, 1, memory_order_relaxed);
  nrt_mi_decref_local(mi);
}

int32_t nrt_udf_rt_unwind(nrt_meminfo *const *frame, int64_t n, const int32_t *status) {
  for (int64_t i = 0; i < n; i++)
    nrt_mi_decref_local(frame[i]);
  return *status;
}

int32_t nrt_udf_rt_unwind_counted(nrt_meminfo *const *frame, int64_t n, const int32_t *status) {
  for (int64_t i = 0; i < n; i++)
    nrt_udf_rt_decref_counted(frame[i]);
  return *status;
}

uint64_t nrt_udf_rt_refops_count(void) { return atomic_load(&refops); }

void nrt_udf_rt_refops_reset(void) { atomic_store(&refops, 0); }

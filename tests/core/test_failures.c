/* Failure injection over every allocating core API: each refused allocation is reported as an
 * error, nothing leaks, and the runtime stays usable afterwards. */
#include "nrt/numba_compat.h"
#include "support/check.h"

#include <stdlib.h>

static int trial_alloc(void *ctx) {
  (void)ctx;
  nrt_meminfo *mi;
  struct nrt_error err = {0};
  int rc = nrt_mi_alloc(64, &mi, &err);
  if (rc != NRT_OK) {
    CHECK(mi == NULL);
    CHECK_EQ_INT(err.code, NRT_ENOMEM);
    return rc;
  }
  nrt_mi_decref(mi);
  return NRT_OK;
}

static int trial_alloc_aligned(void *ctx) {
  (void)ctx;
  nrt_meminfo *mi;
  int rc = nrt_mi_alloc_aligned(64, 512, &mi, NULL);
  if (rc == NRT_OK)
    nrt_mi_decref(mi);
  return rc;
}

static int dtor_runs;
static void free_foreign(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  dtor_runs++;
  free(data);
}

static int trial_adopt(void *ctx) {
  (void)ctx;
  void *foreign = malloc(32);
  nrt_meminfo *mi;
  int rc = nrt_mi_new(foreign, 32, free_foreign, NULL, &mi, NULL);
  if (rc != NRT_OK) {
    free(foreign); /* not adopted: still ours */
    return rc;
  }
  nrt_mi_decref(mi);
  return NRT_OK;
}

/* Several allocations in a row, unwinding the earlier ones when a later one fails. */
static int trial_many(void *ctx) {
  (void)ctx;
  nrt_meminfo *mis[5] = {0};
  char *raw = NULL;
  int rc = NRT_OK;
  for (int i = 0; i < 5 && rc == NRT_OK; i++)
    rc = nrt_mi_alloc((size_t)i * 10, &mis[i], NULL);
  if (rc == NRT_OK) {
    raw = nrt_allocate(100, NULL);
    if (!raw)
      rc = NRT_ENOMEM;
  }
  if (rc == NRT_OK) {
    char *bigger = nrt_reallocate(raw, 100, 5000, NULL);
    if (!bigger)
      rc = NRT_ENOMEM;
    else
      raw = bigger;
    nrt_free(raw, bigger ? 5000 : 100);
  }
  for (int i = 0; i < 5; i++)
    nrt_mi_decref(mis[i]);
  return rc;
}

static int trial_numba(void *ctx) {
  (void)ctx;
  NRT_MemInfo *mi = NRT_MemInfo_alloc(10);
  if (!mi)
    return NRT_ENOMEM;
  void *raw = NRT_Allocate(10);
  if (!raw) {
    NRT_decref(mi);
    return NRT_ENOMEM;
  }
  NRT_Free(raw);
  NRT_decref(mi);
  return NRT_OK;
}

int main(void) {
  CHECK_EQ_INT(check_every_allocation_failure("nrt_mi_alloc", trial_alloc, NULL), 1);
  CHECK_EQ_INT(check_every_allocation_failure("nrt_mi_alloc_aligned", trial_alloc_aligned, NULL), 1);
  dtor_runs = 0;
  CHECK_EQ_INT(check_every_allocation_failure("nrt_mi_new", trial_adopt, NULL), 1);
  CHECK_EQ_INT(dtor_runs, 1); /* only the successful trial adopted its buffer */
  CHECK_EQ_INT(check_every_allocation_failure("sequence", trial_many, NULL), 7);
  CHECK_EQ_INT(check_every_allocation_failure("numba names", trial_numba, NULL), 2);

  /* Still usable after all that, with the C library's allocator back. */
  CHECK(nrt_default_allocator() == nrt_libc_allocator());
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_mi_alloc(8, &mi, NULL), NRT_OK);
  nrt_mi_decref(mi);
  CHECK_EQ_INT(nrt_stats_live_meminfos(), 0);
  return check_finish("test_core_failures");
}

/* The failing test allocator (see nrt/testkit.h). */
#include "nrt/testkit.h"

#include <stdlib.h>

static struct nrt_test_allocator *self_of(void *opaque) {
  return opaque;
}

/* Decides whether this allocation attempt fails. */
static int should_fail(struct nrt_test_allocator *t) {
  uint64_t n = __atomic_add_fetch(&t->calls, 1, __ATOMIC_RELAXED);
  uint64_t at = __atomic_load_n(&t->fail_at, __ATOMIC_RELAXED);
  int fail = at != 0 && (n == at || (n > at && __atomic_load_n(&t->fail_after, __ATOMIC_RELAXED)));
  if (fail)
    __atomic_add_fetch(&t->failures, 1, __ATOMIC_RELAXED);
  return fail;
}

static void *test_malloc(size_t size, void *opaque) {
  struct nrt_test_allocator *t = self_of(opaque);
  if (should_fail(t))
    return NULL;
  void *p = malloc(size ? size : 1);
  if (p) {
    __atomic_add_fetch(&t->live_blocks, 1, __ATOMIC_RELAXED);
    __atomic_add_fetch(&t->live_bytes, (int64_t)size, __ATOMIC_RELAXED);
  }
  return p;
}

static void *test_realloc(void *ptr, size_t old_size, size_t new_size, void *opaque) {
  struct nrt_test_allocator *t = self_of(opaque);
  if (should_fail(t))
    return NULL;
  void *p = realloc(ptr, new_size ? new_size : 1);
  if (p)
    __atomic_add_fetch(&t->live_bytes, (int64_t)new_size - (int64_t)old_size, __ATOMIC_RELAXED);
  return p;
}

static void test_free(void *ptr, size_t size, void *opaque) {
  struct nrt_test_allocator *t = self_of(opaque);
  free(ptr);
  __atomic_sub_fetch(&t->live_blocks, 1, __ATOMIC_RELAXED);
  __atomic_sub_fetch(&t->live_bytes, (int64_t)size, __ATOMIC_RELAXED);
}

void nrt_test_allocator_init(struct nrt_test_allocator *t) {
  *t = (struct nrt_test_allocator){0};
  t->base.malloc = test_malloc;
  t->base.realloc = test_realloc;
  t->base.free = test_free;
  t->base.opaque = t;
}

void nrt_test_allocator_reset(struct nrt_test_allocator *t, uint64_t fail_at, int fail_after) {
  __atomic_store_n(&t->fail_at, fail_at, __ATOMIC_RELAXED);
  __atomic_store_n(&t->fail_after, fail_after, __ATOMIC_RELAXED);
  __atomic_store_n(&t->calls, 0, __ATOMIC_RELAXED);
  __atomic_store_n(&t->failures, 0, __ATOMIC_RELAXED);
}

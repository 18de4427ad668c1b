/* The large block cache (nrt/core.h: nrt_memory_cached): freed blocks of 64 KiB and more are
 * kept and handed out again for requests they fit without being twice too big, the total
 * stays bounded, nrt_memory_release_cached empties it, and the statistics count every
 * logical allocation either way. With the cache off (NRT_BLOCK_CACHE=0, sanitizer builds)
 * nothing is kept. */
#include "nrt/core.h"
#include "support/check.h"

#include <stdlib.h>
#include <string.h>

#define MIB ((size_t)1 << 20)

static int cache_expected(void) {
#if defined(NRT_UNDER_SANITIZER) || !defined(__GLIBC__)
  return 0;
#else
  const char *v = getenv("NRT_BLOCK_CACHE");
  return !(v && strcmp(v, "0") == 0);
#endif
}

static void *touch(size_t size) {
  char *p = nrt_allocate(size, NULL);
  CHECK(p != NULL);
  memset(p, 0x5a, size);
  return p;
}

static void test_reuse(void) {
  nrt_memory_release_cached();
  CHECK(nrt_memory_cached() == 0);
  void *a = touch(2 * MIB);
  nrt_free(a, 2 * MIB);
  if (!cache_expected()) {
    CHECK(nrt_memory_cached() == 0);
    return;
  }
  CHECK(nrt_memory_cached() >= 2 * MIB);
  void *small = touch(MIB / 32); /* below the cache's minimum: never served from it */
  CHECK(small != a);
  void *big = touch(5 * MIB); /* does not fit */
  CHECK(big != a);
  void *fits = touch(3 * MIB / 2); /* fits, not twice too big: the kept block */
  CHECK(fits == a);
  CHECK(nrt_memory_cached() == 0);
  nrt_free(small, MIB / 32);
  CHECK(nrt_memory_cached() == 0);
  nrt_free(fits, 3 * MIB / 2); /* freed with the size it was asked for: kept again */
  nrt_free(big, 5 * MIB);
  CHECK(nrt_memory_cached() >= 7 * MIB);
  void *tiny = touch(MIB + MIB / 8); /* the 5 MiB block is too big for it, the 2 MiB one is not */
  CHECK(tiny == a);
  nrt_free(tiny, MIB + MIB / 8);
  nrt_memory_release_cached();
  CHECK(nrt_memory_cached() == 0);
  /* A threaded apply's chunk buffers (64 KiB of offsets, 128 KiB data blocks) are kept too:
   * freed by one thread, made by another, the C library would hand them back to the kernel. */
  void *chunk = touch(MIB / 10);
  nrt_free(chunk, MIB / 10);
  CHECK(nrt_memory_cached() >= MIB / 10);
  void *again = touch(MIB / 10);
  CHECK(again == chunk);
  nrt_free(again, MIB / 10);
  nrt_memory_release_cached();
  CHECK(nrt_memory_cached() == 0);
}

static void test_bounded(void) {
  if (!cache_expected())
    return;
  void *blocks[40];
  for (int i = 0; i < 40; i++)
    blocks[i] = touch(8 * MIB);
  for (int i = 0; i < 40; i++)
    nrt_free(blocks[i], 8 * MIB);
  size_t kept = nrt_memory_cached();
  CHECK(kept >= 8 * MIB);
  CHECK(kept <= 96 * MIB);
  void *huge = touch(200 * MIB); /* larger than the whole cache: freed, not kept */
  nrt_free(huge, 200 * MIB);
  CHECK(nrt_memory_cached() <= 96 * MIB);
  nrt_memory_release_cached();
  CHECK(nrt_memory_cached() == 0);
}

static void test_realloc_of_kept_block(void) {
  void *a = touch(2 * MIB);
  nrt_free(a, 2 * MIB);
  char *p = nrt_allocate(2 * MIB, NULL);
  CHECK(p != NULL);
  memset(p, 1, 2 * MIB);
  char *q = nrt_reallocate(p, 2 * MIB, 6 * MIB, NULL);
  CHECK(q != NULL);
  CHECK(q[0] == 1 && q[2 * MIB - 1] == 1);
  memset(q + 2 * MIB, 2, 4 * MIB);
  nrt_free(q, 6 * MIB);
  nrt_memory_release_cached();
}

/* A buffer grown by doubling (n, then realloc to 2n) serves the next request of n, which
 * then grows to 2n in place. */
static void test_doubled_buffer_serves_its_first_size(void) {
  if (!cache_expected())
    return;
  nrt_memory_release_cached();
  char *p = touch(16 * MIB);
  char *q = nrt_reallocate(p, 16 * MIB, 32 * MIB, NULL);
  CHECK(q != NULL);
  nrt_free(q, 32 * MIB);
  char *again = touch(16 * MIB);
  CHECK(again == q);
  nrt_free(again, 16 * MIB);
  nrt_memory_release_cached();
}

int main(void) {
  struct nrt_stats before, after;
  nrt_stats_get(&before);
  test_reuse();
  test_bounded();
  test_realloc_of_kept_block();
  test_doubled_buffer_serves_its_first_size();
  nrt_stats_get(&after);
  CHECK(after.alloc - before.alloc == after.free - before.free);
  CHECK(after.bytes_alloc - before.bytes_alloc == after.bytes_free - before.bytes_free);
  return check_finish("test_core_large_cache");
}

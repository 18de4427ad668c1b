/* MemInfo allocation, reference counting, destructors, accessors, allocators, statistics. */
#include "support/check.h"

#include <stdint.h>
#include <stdlib.h>

static int dtor_calls;
static void *dtor_data_seen;
static void *dtor_info_seen;
static size_t dtor_size_seen;

static void counting_dtor(void *data, size_t size, void *info) {
  dtor_calls++;
  dtor_data_seen = data;
  dtor_size_seen = size;
  dtor_info_seen = info;
}

static void test_alloc_and_layout(void) {
  struct check_live before = check_live_now();
  for (size_t size = 0; size < 200; size += 7) {
    nrt_meminfo *mi = NULL;
    CHECK_EQ_INT(nrt_mi_alloc(size, &mi, NULL), NRT_OK);
    CHECK(mi != NULL);
    CHECK_EQ_INT(nrt_mi_refcount(mi), 1);
    CHECK_EQ_INT(nrt_mi_size(mi), size);
    CHECK(nrt_mi_data(mi) == (void *)(mi + 1));
    CHECK_EQ_INT((uintptr_t)nrt_mi_data(mi) % NRT_MI_DATA_ALIGN, 0);
    CHECK(nrt_mi_allocator(mi) == nrt_default_allocator());
    memset(nrt_mi_data(mi), 0xab, size);
    nrt_mi_decref(mi);
  }
  CHECK_NO_LEAK(before);
}

static void test_refcount_and_dtor(void) {
  struct check_live before = check_live_now();
  nrt_meminfo *mi;
  int info;
  dtor_calls = 0;
  CHECK_EQ_INT(nrt_mi_alloc_dtor(24, counting_dtor, &info, &mi, NULL), NRT_OK);
  nrt_mi_incref(mi);
  nrt_mi_incref_local(mi);
  CHECK_EQ_INT(nrt_mi_refcount(mi), 3);
  nrt_mi_decref(mi);
  nrt_mi_decref_local(mi);
  CHECK_EQ_INT(dtor_calls, 0);
  CHECK_EQ_INT(nrt_mi_refcount(mi), 1);
  void *data = nrt_mi_data(mi);
  nrt_mi_decref(mi);
  CHECK_EQ_INT(dtor_calls, 1);
  CHECK(dtor_data_seen == data);
  CHECK_EQ_INT(dtor_size_seen, 24);
  CHECK(dtor_info_seen == &info);
  CHECK_NO_LEAK(before);

  /* NULL is ignored everywhere. */
  nrt_mi_incref(NULL);
  nrt_mi_decref(NULL);
  nrt_mi_incref_local(NULL);
  nrt_mi_decref_local(NULL);
  nrt_mi_destroy(NULL);
  CHECK(nrt_mi_data(NULL) == NULL);
  CHECK_EQ_INT(nrt_mi_size(NULL), 0);
  CHECK_EQ_INT(nrt_mi_refcount(NULL), 0);
  CHECK(nrt_mi_allocator(NULL) == NULL);

  /* Destroy runs the destructor once, regardless of the count. */
  dtor_calls = 0;
  CHECK_EQ_INT(nrt_mi_alloc_dtor(8, counting_dtor, NULL, &mi, NULL), NRT_OK);
  nrt_mi_incref(mi);
  nrt_mi_destroy(mi);
  CHECK_EQ_INT(dtor_calls, 1);
  CHECK_NO_LEAK(before);
}

static void test_inline_forms(void) {
  struct check_live before = check_live_now();
  nrt_meminfo *mi;
  dtor_calls = 0;
  CHECK_EQ_INT(nrt_mi_alloc_dtor(4, counting_dtor, NULL, &mi, NULL), NRT_OK);
  nrt_mi_incref_inline(mi);
  nrt_mi_incref_local_inline(mi);
  CHECK_EQ_INT(nrt_mi_refcount(mi), 3);
  nrt_mi_decref_local_inline(mi);
  nrt_mi_decref_inline(mi);
  CHECK_EQ_INT(dtor_calls, 0);
  nrt_mi_decref_inline(mi);
  CHECK_EQ_INT(dtor_calls, 1);
  nrt_mi_incref_inline(NULL);
  nrt_mi_decref_inline(NULL);
  nrt_mi_incref_local_inline(NULL);
  nrt_mi_decref_local_inline(NULL);
  CHECK_NO_LEAK(before);

  /* Blocks recycled by the per-thread cache come back clean and correctly sized. */
  for (int round = 0; round < 3; round++) {
    nrt_meminfo *many[200];
    for (int i = 0; i < 200; i++) {
      CHECK_EQ_INT(nrt_mi_alloc((size_t)(i % 230), &many[i], NULL), NRT_OK);
      CHECK_EQ_INT(nrt_mi_refcount(many[i]), 1);
      CHECK_EQ_INT(nrt_mi_size(many[i]), i % 230);
      memset(nrt_mi_data(many[i]), round, (size_t)(i % 230));
    }
    for (int i = 0; i < 200; i++)
      nrt_mi_decref(many[i]);
  }
  CHECK_NO_LEAK(before);
}

static void test_aligned(void) {
  struct check_live before = check_live_now();
  for (size_t align = 1; align <= NRT_MI_MAX_ALIGN; align *= 2) {
    for (size_t size = 0; size < 100; size += 33) {
      nrt_meminfo *mi;
      CHECK_EQ_INT(nrt_mi_alloc_aligned(size, align, &mi, NULL), NRT_OK);
      CHECK_EQ_INT((uintptr_t)nrt_mi_data(mi) % align, 0);
      CHECK_EQ_INT(nrt_mi_size(mi), size);
      memset(nrt_mi_data(mi), 1, size);
      nrt_mi_decref(mi);
    }
  }
  size_t bad[] = {0, 3, 24, 8192, 1u << 20, SIZE_MAX};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    nrt_meminfo *mi = (nrt_meminfo *)&bad[0];
    struct nrt_error err = {0};
    CHECK_EQ_INT(nrt_mi_alloc_aligned(16, bad[i], &mi, &err), NRT_EINVAL);
    CHECK(mi == NULL);
    CHECK_EQ_INT(err.code, NRT_EINVAL);
    CHECK(strstr(err.message, "power of two") != NULL);
  }
  CHECK_NO_LEAK(before);
}

static void test_too_large(void) {
  struct check_live before = check_live_now();
  nrt_meminfo *mi;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_mi_alloc(SIZE_MAX - 8, &mi, &err), NRT_ERANGE);
  CHECK(mi == NULL);
  CHECK(strstr(err.message, "too large") != NULL);
  CHECK_EQ_INT(nrt_mi_alloc_aligned(SIZE_MAX - 100, 64, &mi, &err), NRT_ERANGE);
  /* Large enough to be refused by malloc: an ENOMEM error, not a crash. */
  CHECK_EQ_INT(nrt_mi_alloc((size_t)1 << 46, &mi, &err), NRT_ENOMEM);
  CHECK(strstr(err.message, "out of memory") != NULL);
  CHECK_NO_LEAK(before);
}

static void free_buffer(void *data, size_t size, void *info) {
  (void)size;
  (void)info;
  free(data);
}

static void test_adopt(void) {
  struct check_live before = check_live_now();
  char *buf = malloc(100);
  nrt_meminfo *mi;
  CHECK_EQ_INT(nrt_mi_new(buf, 100, free_buffer, NULL, &mi, NULL), NRT_OK);
  CHECK(nrt_mi_data(mi) == buf);
  CHECK_EQ_INT(nrt_mi_size(mi), 100);
  nrt_mi_incref(mi);
  nrt_mi_decref(mi);
  nrt_mi_decref(mi); /* frees buf through free_buffer; valgrind/ASan check it */
  CHECK_NO_LEAK(before);
}

/* The cuDF pattern: a header co-allocated with a payload struct, freed by the destructor. */
struct placed {
  nrt_meminfo mi;
  int payload[4];
};

static int placed_freed;

static void free_placed(void *data, size_t size, void *info) {
  (void)data;
  (void)size;
  placed_freed++;
  free(info);
}

static void test_placed(void) {
  struct check_live before = check_live_now();
  struct placed *p = malloc(sizeof *p);
  nrt_mi_init(&p->mi, p->payload, sizeof p->payload, free_placed, p);
  CHECK_EQ_INT(nrt_mi_refcount(&p->mi), 1);
  CHECK(nrt_mi_allocator(&p->mi) == NULL);
  CHECK_EQ_INT(nrt_stats_live_meminfos(), before.meminfos + 1);
  nrt_mi_incref(&p->mi);
  nrt_mi_decref(&p->mi);
  placed_freed = 0;
  nrt_mi_decref(&p->mi);
  CHECK_EQ_INT(placed_freed, 1);
  CHECK_NO_LEAK(before);
}

static void test_raw(void) {
  struct check_live before = check_live_now();
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  char *p = nrt_allocate(10, NULL);
  CHECK(p != NULL);
  memcpy(p, "123456789", 10);
  p = nrt_reallocate(p, 10, 1000, NULL);
  CHECK(p != NULL);
  CHECK_EQ_STR(p, "123456789");
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.alloc - s0.alloc, 1);
  CHECK_EQ_INT(s1.bytes_alloc - s0.bytes_alloc, 1010);
  nrt_free(p, 1000);
  nrt_free(NULL, 5);
  p = nrt_reallocate(NULL, 0, 8, NULL);
  CHECK(p != NULL);
  nrt_free(p, 8);
  struct nrt_error err = {0};
  CHECK(nrt_allocate((size_t)1 << 46, &err) == NULL);
  CHECK_EQ_INT(err.code, NRT_ENOMEM);
  CHECK_NO_LEAK(before);
  CHECK_EQ_INT(nrt_stats_live_bytes(), 0);
}

static void test_stats(void) {
  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  CHECK_EQ_INT(nrt_stats_enabled(), 1);
  nrt_meminfo *a, *b;
  CHECK_EQ_INT(nrt_mi_alloc(10, &a, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_mi_alloc_aligned(10, 256, &b, NULL), NRT_OK);
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.mi_alloc - s0.mi_alloc, 2);
  CHECK_EQ_INT(s1.alloc - s0.alloc, 2);
  CHECK_EQ_INT(s1.mi_free - s0.mi_free, 0);
  nrt_mi_decref(a);
  nrt_mi_decref(b);
  nrt_stats_get(&s1);
  CHECK_EQ_INT(s1.mi_free - s0.mi_free, 2);
  CHECK_EQ_INT(s1.free - s0.free, 2);
  CHECK_EQ_INT(s1.bytes_alloc - s0.bytes_alloc, s1.bytes_free - s0.bytes_free);
}

/* An explicit allocator is remembered per MemInfo and used to free it. */
static void test_per_meminfo_allocator(void) {
  struct nrt_test_allocator t;
  nrt_test_allocator_init(&t);
  nrt_meminfo *a, *b;
  CHECK_EQ_INT(nrt_mi_alloc_with(&t.base, 40, &a, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_mi_alloc_aligned_with(&t.base, 40, 128, &b, NULL), NRT_OK);
  CHECK(nrt_mi_allocator(a) == &t.base);
  CHECK(nrt_mi_allocator(b) == &t.base);
  CHECK_EQ_INT(t.live_blocks, 2);
  nrt_mi_decref(a);
  nrt_mi_decref(b);
  CHECK_EQ_INT(t.live_blocks, 0);
  CHECK_EQ_INT(t.live_bytes, 0);

  /* A default allocator set later does not free blocks made by the earlier one. */
  nrt_meminfo *c;
  CHECK_EQ_INT(nrt_mi_alloc(8, &c, NULL), NRT_OK);
  nrt_set_default_allocator(&t.base);
  CHECK(nrt_default_allocator() == &t.base);
  nrt_meminfo *d;
  CHECK_EQ_INT(nrt_mi_alloc(8, &d, NULL), NRT_OK);
  nrt_set_default_allocator(NULL);
  CHECK(nrt_default_allocator() == nrt_libc_allocator());
  nrt_mi_decref(c);
  CHECK_EQ_INT(t.live_blocks, 1);
  nrt_mi_decref(d);
  CHECK_EQ_INT(t.live_blocks, 0);
}

static void test_errors(void) {
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_error_set(&err, NRT_EVALUE, "bad %s at %d", "thing", 7), NRT_EVALUE);
  CHECK_EQ_STR(err.message, "bad thing at 7");
  CHECK_EQ_INT(nrt_error_set(NULL, NRT_EINVAL, "ignored"), NRT_EINVAL);
  nrt_error_clear(&err);
  CHECK_EQ_INT(err.code, 0);
  CHECK_EQ_STR(err.message, "");
  CHECK_EQ_STR(nrt_status_name(NRT_EINDEX), "IndexError");
  CHECK_EQ_STR(nrt_status_name(NRT_ENOMEM), "MemoryError");
  CHECK_EQ_STR(nrt_status_name(NRT_EUNBOUND), "UnboundLocalError");
  CHECK_EQ_STR(nrt_status_name(-77), "Error");
  /* Long messages are truncated, never overflow. */
  char longer[2000];
  memset(longer, 'x', sizeof longer - 1);
  longer[sizeof longer - 1] = '\0';
  nrt_error_set(&err, NRT_EINVAL, "%s", longer);
  CHECK_EQ_INT(strlen(err.message), NRT_ERROR_MESSAGE_SIZE - 1);
}

int main(void) {
  test_alloc_and_layout();
  test_refcount_and_dtor();
  test_inline_forms();
  test_aligned();
  test_too_large();
  test_adopt();
  test_placed();
  test_raw();
  test_stats();
  test_per_meminfo_allocator();
  test_errors();
  return check_finish("test_core_meminfo");
}

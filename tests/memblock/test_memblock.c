/* memblock: pod/zeroinit arenas (allocate, resize, finalize, reset), external, objectarray and
 * array blocks, refcounting through the MemInfo, and failure injection on every API. */
#include "nrt/memblock.h"
#include "support/check.h"

#include <stdlib.h>

static void fill(char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    p[i] = (char)(seed * 31u + (unsigned)i);
}

static int same(const char *p, size_t n, unsigned seed) {
  for (size_t i = 0; i < n; i++)
    if (p[i] != (char)(seed * 31u + (unsigned)i))
      return 0;
  return 1;
}

static void test_pod_allocations_never_move(void) {
  struct check_live before = check_live_now();
  nrt_memblock *b;
  CHECK_EQ_INT(nrt_memblock_pod_new(64, 0, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_kind(b), NRT_MEMBLOCK_POD);
  CHECK_EQ_STR(nrt_memblock_kind_name(nrt_memblock_kind(b)), "pod");
  enum { N = 300 };
  char *begins[N];
  size_t sizes[N];
  for (unsigned i = 0; i < N; i++) {
    size_t align = (size_t)1 << (i % 8);
    sizes[i] = (i * 7) % 100;
    char *end;
    CHECK_EQ_INT(nrt_memblock_pod_allocate(b, sizes[i], align, &begins[i], &end, NULL), NRT_OK);
    CHECK(end == begins[i] + sizes[i]);
    CHECK(((uintptr_t)begins[i] & (align - 1)) == 0);
    fill(begins[i], sizes[i], i);
  }
  int ok = 1;
  for (unsigned i = 0; i < N; i++)
    ok &= same(begins[i], sizes[i], i);
  CHECK(ok);
  /* Chunks double: each at least twice the previous one. */
  size_t n = nrt_memblock_pod_chunk_count(b);
  CHECK(n >= 3);
  size_t total_used = 0;
  for (size_t i = 0; i < n; i++) {
    const char *cb;
    size_t used;
    CHECK_EQ_INT(nrt_memblock_pod_chunk(b, i, &cb, &used), NRT_OK);
    total_used += used;
  }
  CHECK(total_used >= 300 * 49 / 2);
  CHECK(nrt_memblock_pod_capacity(b) < 8 * total_used);
  const char *cb;
  size_t used;
  CHECK_EQ_INT(nrt_memblock_pod_chunk(b, n, &cb, &used), NRT_EINDEX);
  CHECK(cb == NULL && used == 0);
  /* Large alignment. */
  char *p, *e;
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 10, 4096, &p, &e, NULL), NRT_OK);
  CHECK(((uintptr_t)p & 4095) == 0);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 10, 3, &p, &e, &err), NRT_EINVAL);
  CHECK(p == NULL && e == NULL && err.code == NRT_EINVAL);
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 10, 8192, &p, &e, NULL), NRT_EINVAL);
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, SIZE_MAX - 2, 16, &p, &e, NULL), NRT_ERANGE);
  nrt_memblock_release(b);
  CHECK_NO_LEAK(before);
}

static void test_pod_resize(void) {
  struct check_live before = check_live_now();
  nrt_memblock *b;
  CHECK_EQ_INT(nrt_memblock_pod_new(128, 0, &b, NULL), NRT_OK);
  char *a, *ae, *p, *e;
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 10, 1, &a, &ae, NULL), NRT_OK);
  fill(a, 10, 1);
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 20, 8, &p, &e, NULL), NRT_OK);
  fill(p, 20, 2);
  char *first = p;
  /* Grows in place while the chunk has room. */
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 60, &p, &e, NULL), NRT_OK);
  CHECK(p == first && e == p + 60);
  CHECK(same(p, 20, 2));
  /* Shrinks in place. */
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 15, &p, &e, NULL), NRT_OK);
  CHECK(p == first && e == p + 15);
  /* Past the chunk: moves to a new chunk (an earlier allocation shares the chunk). */
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 1000, &p, &e, NULL), NRT_OK);
  CHECK(p != first && e == p + 1000);
  CHECK(((uintptr_t)p & 7) == 0);
  CHECK(same(p, 15, 2));
  CHECK(same(a, 10, 1)); /* the earlier allocation did not move */
  CHECK_EQ_INT(nrt_memblock_pod_chunk_count(b), 2);
  const char *cb;
  size_t used;
  nrt_memblock_pod_chunk(b, 0, &cb, &used);
  CHECK(cb == a && used == 10); /* the old place was given up */
  /* Alone in its chunk: grows by reallocating the chunk, keeps the bytes and alignment. */
  fill(p, 1000, 3);
  for (size_t sz = 2000; sz < 2000000; sz *= 3) {
    CHECK_EQ_INT(nrt_memblock_pod_resize(b, sz, &p, &e, NULL), NRT_OK);
    CHECK(((uintptr_t)p & 7) == 0);
  }
  CHECK(same(p, 1000, 3));
  CHECK_EQ_INT(nrt_memblock_pod_chunk_count(b), 2);
  /* Misuse is an error, not a crash. */
  struct nrt_error err = {0};
  char *stale = a, *stale_end = ae;
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 5, &stale, &stale_end, &err), NRT_EINVAL);
  CHECK(stale == a && stale_end == ae);
  CHECK(strstr(err.message, "most recent") != NULL);
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 5, NULL, NULL, NULL), NRT_EINVAL);
  nrt_memblock_release(b);

  /* Resizing with nothing allocated, on a fresh block. */
  CHECK_EQ_INT(nrt_memblock_pod_new(0, 0, &b, NULL), NRT_OK);
  p = e = NULL;
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 5, &p, &e, NULL), NRT_EINVAL);
  /* A large-alignment allocation alone in its chunk keeps its alignment when reallocated. */
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 100, 1024, &p, &e, NULL), NRT_OK);
  fill(p, 100, 9);
  for (size_t sz = 1000; sz < 1000000; sz *= 4) {
    CHECK_EQ_INT(nrt_memblock_pod_resize(b, sz, &p, &e, NULL), NRT_OK);
    CHECK(((uintptr_t)p & 1023) == 0);
  }
  CHECK(same(p, 100, 9));
  nrt_memblock_release(b);
  CHECK_NO_LEAK(before);
}

static void test_zeroinit(void) {
  struct check_live before = check_live_now();
  nrt_memblock *b;
  CHECK_EQ_INT(nrt_memblock_pod_new(32, 1, &b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_kind(b), NRT_MEMBLOCK_ZEROINIT);
  for (int round = 0; round < 2; round++) {
    char *p, *e;
    int zero = 1;
    for (int i = 0; i < 50; i++) {
      CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 40, 4, &p, &e, NULL), NRT_OK);
      for (char *q = p; q < e; q++)
        zero &= *q == 0;
      memset(p, 0xAB, 40);
    }
    CHECK_EQ_INT(nrt_memblock_pod_resize(b, 4000, &p, &e, NULL), NRT_OK);
    for (char *q = p + 40; q < e; q++)
      zero &= *q == 0;
    CHECK(zero);
    memset(p, 0xCD, 4000);
    nrt_memblock_pod_reset(b); /* reused memory is dirty: must be zeroed again */
    CHECK_EQ_INT(nrt_memblock_pod_chunk_count(b), 1);
  }
  nrt_memblock_release(b);
  CHECK_NO_LEAK(before);
}

static void test_finalize_and_reset(void) {
  struct check_live before = check_live_now();
  nrt_memblock *b;
  CHECK_EQ_INT(nrt_memblock_pod_new(16, 0, &b, NULL), NRT_OK);
  char *p, *e;
  for (int i = 0; i < 20; i++)
    CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 100, 8, &p, &e, NULL), NRT_OK);
  fill(p, 100, 5);
  size_t chunks = nrt_memblock_pod_chunk_count(b);
  size_t cap = nrt_memblock_pod_capacity(b);
  char *keep = p;
  CHECK_EQ_INT(nrt_memblock_pod_finalize(b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_pod_finalize(b, NULL), NRT_OK); /* idempotent */
  /* Finalize moves nothing and frees nothing. */
  CHECK(keep == p && same(p, 100, 5));
  CHECK_EQ_INT(nrt_memblock_pod_chunk_count(b), chunks);
  CHECK_EQ_INT(nrt_memblock_pod_capacity(b), cap);
  struct nrt_error err = {0};
  char *q, *qe;
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 1, 1, &q, &qe, &err), NRT_EINVAL);
  CHECK(strstr(err.message, "finalized") != NULL);
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 200, &p, &e, NULL), NRT_EINVAL);
  CHECK(p == keep);
  /* Reset: keeps the largest chunk, allocation works again. */
  size_t largest = 0;
  for (size_t i = 0; i < chunks; i++) {
    const char *cb;
    size_t used;
    nrt_memblock_pod_chunk(b, i, &cb, &used);
    (void)cb;
  }
  largest = cap; /* an upper bound */
  nrt_memblock_pod_reset(b);
  CHECK_EQ_INT(nrt_memblock_pod_chunk_count(b), 1);
  CHECK(nrt_memblock_pod_capacity(b) <= largest && nrt_memblock_pod_capacity(b) * 2 > cap / 2);
  CHECK_EQ_INT(nrt_memblock_pod_resize(b, 1, &p, &e, NULL), NRT_EINVAL); /* nothing recent */
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 100, 8, &p, &e, NULL), NRT_OK);
  const char *cb;
  size_t used;
  nrt_memblock_pod_chunk(b, 0, &cb, &used);
  CHECK(cb == p && used == 100);
  nrt_memblock_release(b);
  /* Reset and finalize on the wrong kinds. */
  nrt_memblock *x;
  CHECK_EQ_INT(nrt_memblock_external_new(NULL, 0, NULL, NULL, &x, NULL), NRT_OK);
  nrt_memblock_pod_reset(x);
  CHECK_EQ_INT(nrt_memblock_pod_finalize(x, NULL), NRT_EINVAL);
  CHECK_EQ_INT(nrt_memblock_pod_allocate(x, 1, 1, &p, &e, NULL), NRT_EINVAL);
  CHECK_EQ_INT(nrt_memblock_pod_chunk_count(x), 0);
  nrt_memblock_release(x);
  CHECK_NO_LEAK(before);
}

static int ext_dtor_runs;
static void ext_dtor(void *data, size_t size, void *info) {
  CHECK_EQ_INT(size, 24);
  CHECK(info == &ext_dtor_runs);
  ext_dtor_runs++;
  free(data);
}

static void test_external(void) {
  struct check_live before = check_live_now();
  void *mem = malloc(24);
  nrt_memblock *b;
  CHECK_EQ_INT(nrt_memblock_external_new(mem, 24, ext_dtor, &ext_dtor_runs, &b, NULL), NRT_OK);
  CHECK(nrt_memblock_external_data(b) == mem);
  CHECK_EQ_INT(nrt_memblock_external_size(b), 24);
  CHECK_EQ_INT(nrt_memblock_refcount(b), 1);
  nrt_memblock_retain(b);
  nrt_mi_incref(nrt_memblock_meminfo(b)); /* the same refcount */
  CHECK_EQ_INT(nrt_memblock_refcount(b), 3);
  CHECK(nrt_mi_data(nrt_memblock_meminfo(b)) == (void *)b);
  nrt_memblock_release(b);
  nrt_mi_decref(nrt_memblock_meminfo(b));
  CHECK_EQ_INT(ext_dtor_runs, 0);
  nrt_memblock_release(b);
  CHECK_EQ_INT(ext_dtor_runs, 1);
  CHECK(nrt_memblock_external_data(NULL) == NULL);
  CHECK_EQ_INT(nrt_memblock_kind(NULL), 0);
  nrt_memblock_release(NULL);
  nrt_memblock_retain(NULL);
  CHECK_NO_LEAK(before);
}

static int elem_dtor_sum;
static void elem_dtor(void *elem, void *info) {
  CHECK(info == &elem_dtor_sum);
  elem_dtor_sum += *(int *)elem;
}

static void test_objectarray(void) {
  struct check_live before = check_live_now();
  nrt_memblock *b;
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_memblock_objectarray_new(3, 2, 0, elem_dtor, NULL, &b, &err), NRT_EINVAL);
  CHECK(b == NULL);
  CHECK_EQ_INT(nrt_memblock_objectarray_new(sizeof(int), 3, 0, elem_dtor, NULL, &b, NULL), NRT_EINVAL);
  CHECK_EQ_INT(nrt_memblock_objectarray_new(64, 64, 2, elem_dtor, &elem_dtor_sum, &b, NULL),
               NRT_OK);
  CHECK_EQ_INT(nrt_memblock_kind(b), NRT_MEMBLOCK_OBJECTARRAY);
  int expect = 0;
  for (int i = 1; i <= 40; i++) {
    void *e;
    CHECK_EQ_INT(nrt_memblock_objectarray_allocate(b, (size_t)(i % 3 + 1), &e, NULL), NRT_OK);
    CHECK(((uintptr_t)e & 63) == 0);
    CHECK(*(int *)e == 0);
    *(int *)e = i; /* only the first element of each run is filled; the others stay zero */
    expect += i;
  }
  CHECK_EQ_INT(nrt_memblock_objectarray_count(b), 80);
  elem_dtor_sum = 0;
  nrt_memblock_pod_reset(b);
  CHECK_EQ_INT(elem_dtor_sum, expect);
  CHECK_EQ_INT(nrt_memblock_objectarray_count(b), 0);
  void *e;
  CHECK_EQ_INT(nrt_memblock_objectarray_allocate(b, 2, &e, NULL), NRT_OK);
  ((int *)e)[0] = 7;
  ((int *)e)[16] = 5;
  CHECK_EQ_INT(nrt_memblock_pod_finalize(b, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_objectarray_allocate(b, 1, &e, NULL), NRT_EINVAL);
  CHECK(e == NULL);
  char *p, *pe;
  CHECK_EQ_INT(nrt_memblock_pod_allocate(b, 1, 1, &p, &pe, NULL), NRT_EINVAL);
  elem_dtor_sum = 0;
  nrt_memblock_release(b);
  CHECK_EQ_INT(elem_dtor_sum, 12);
  nrt_memblock *pod;
  CHECK_EQ_INT(nrt_memblock_pod_new(0, 0, &pod, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_objectarray_allocate(pod, 1, &e, NULL), NRT_EINVAL);
  nrt_memblock_release(pod);
  CHECK_NO_LEAK(before);
}

struct header {
  int64_t x;
  double y;
};

static void test_array(void) {
  struct check_live before = check_live_now();
  nrt_memblock *data1, *data2, *arr;
  CHECK_EQ_INT(nrt_memblock_pod_new(0, 0, &data1, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_pod_new(0, 1, &data2, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_array_new(42, sizeof(struct header), 3, &arr, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_kind(arr), NRT_MEMBLOCK_ARRAY);
  CHECK_EQ_INT(nrt_memblock_array_type(arr), 42);
  CHECK_EQ_INT(nrt_memblock_array_ref_count(arr), 3);
  struct header *h = (struct header *)nrt_memblock_array_header(arr);
  CHECK(h != NULL && ((uintptr_t)h & 15) == 0 && h->x == 0);
  h->x = 5;
  CHECK_EQ_INT(nrt_memblock_array_set_ref(arr, 0, data1, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_array_set_ref(arr, 2, data2, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_refcount(data1), 2);
  CHECK(nrt_memblock_array_ref(arr, 0) == data1);
  CHECK(nrt_memblock_array_ref(arr, 1) == NULL);
  CHECK(nrt_memblock_array_ref(arr, 3) == NULL);
  struct nrt_error err = {0};
  CHECK_EQ_INT(nrt_memblock_array_set_ref(arr, 3, data1, &err), NRT_EINDEX);
  CHECK_EQ_INT(nrt_memblock_array_set_ref(data1, 0, data1, NULL), NRT_EINVAL);
  /* Replacing a slot releases the old block. */
  CHECK_EQ_INT(nrt_memblock_array_set_ref(arr, 2, data1, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_memblock_refcount(data2), 1);
  CHECK_EQ_INT(nrt_memblock_refcount(data1), 3);
  nrt_memblock_release(data1);
  nrt_memblock_release(data2);
  CHECK_EQ_INT(nrt_memblock_refcount(data1), 2);
  nrt_memblock_release(arr); /* releases data1 twice */
  CHECK(nrt_memblock_array_header(NULL) == NULL);
  CHECK_EQ_INT(nrt_memblock_array_new(1, SIZE_MAX, 1, &arr, NULL), NRT_ERANGE);
  CHECK_NO_LEAK(before);
}

/* ------------------------------------------------------------ failure injection */

static int trial_pod(void *ctx) {
  (void)ctx;
  nrt_memblock *b;
  int rc = nrt_memblock_pod_new(16, 0, &b, NULL);
  if (rc)
    return rc;
  char *p = NULL, *e = NULL;
  for (int i = 0; i < 20 && rc == NRT_OK; i++) {
    char *before_p = p;
    rc = nrt_memblock_pod_allocate(b, 24, 8, &p, &e, NULL);
    if (rc)
      CHECK(p == NULL && before_p != (char *)1);
    else
      fill(p, 24, (unsigned)i);
  }
  for (size_t sz = 100; sz < 5000 && rc == NRT_OK; sz *= 2) {
    char *op = p;
    rc = nrt_memblock_pod_resize(b, sz, &p, &e, NULL);
    if (rc)
      CHECK(p == op); /* failure changes nothing */
  }
  if (rc == NRT_OK)
    rc = nrt_memblock_pod_finalize(b, NULL);
  if (rc == NRT_OK) {
    nrt_memblock_pod_reset(b);
    rc = nrt_memblock_pod_allocate(b, 5000, 64, &p, &e, NULL);
  }
  nrt_memblock_release(b);
  return rc;
}

static int trial_external(void *ctx) {
  (void)ctx;
  void *mem = malloc(24);
  nrt_memblock *b;
  int rc = nrt_memblock_external_new(mem, 24, ext_dtor, &ext_dtor_runs, &b, NULL);
  if (rc) {
    free(mem); /* not adopted */
    return rc;
  }
  nrt_memblock_release(b);
  return NRT_OK;
}

static void count_dtor(void *elem, void *info) {
  (void)info;
  CHECK(*(int *)elem == 0 || *(int *)elem == 1);
}

static int trial_objectarray(void *ctx) {
  (void)ctx;
  nrt_memblock *b;
  int rc = nrt_memblock_objectarray_new(sizeof(int), sizeof(int), 4, count_dtor, NULL, &b, NULL);
  if (rc)
    return rc;
  for (int i = 0; i < 30 && rc == NRT_OK; i++) {
    void *e;
    rc = nrt_memblock_objectarray_allocate(b, 3, &e, NULL);
    if (rc == NRT_OK)
      *(int *)e = 1;
  }
  nrt_memblock_release(b);
  return rc;
}

static int trial_array(void *ctx) {
  (void)ctx;
  nrt_memblock *d = NULL, *a = NULL;
  int rc = nrt_memblock_pod_new(0, 0, &d, NULL);
  if (rc == NRT_OK)
    rc = nrt_memblock_array_new(1, 64, 2, &a, NULL);
  if (rc == NRT_OK)
    rc = nrt_memblock_array_set_ref(a, 1, d, NULL);
  nrt_memblock_release(d);
  nrt_memblock_release(a);
  return rc;
}

static void test_failure_injection(void) {
  CHECK(check_every_allocation_failure("pod", trial_pod, NULL) > 5);
  ext_dtor_runs = 0;
  CHECK_EQ_INT(check_every_allocation_failure("external", trial_external, NULL), 1);
  CHECK_EQ_INT(ext_dtor_runs, 1);
  CHECK(check_every_allocation_failure("objectarray", trial_objectarray, NULL) > 3);
  CHECK_EQ_INT(check_every_allocation_failure("array", trial_array, NULL), 2);
}

static void test_stats_balanced(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  if (nrt_stats_enabled()) {
    CHECK_EQ_INT(s.alloc, s.free);
    CHECK_EQ_INT(s.mi_alloc, s.mi_free);
  }
}

int main(void) {
  test_pod_allocations_never_move();
  test_pod_resize();
  test_zeroinit();
  test_finalize_and_reset();
  test_external();
  test_objectarray();
  test_array();
  test_failure_injection();
  test_stats_balanced();
  return check_finish("test_memblock");
}

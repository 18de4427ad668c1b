/* Threads hammering shared MemInfos with atomic incref/decref: the destructor runs exactly
 * once per object, after every other reference is gone, and the statistics balance across
 * threads (including threads that have exited). Run under TSan by the test command. */
#include "support/check.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#define OBJECTS 64
#define THREADS 4

#ifdef NRT_UNDER_SANITIZER
#define ROUNDS 20000
#else
#define ROUNDS 500000
#endif

static _Atomic int destroyed[OBJECTS];
static nrt_meminfo *objects[OBJECTS];

static void on_destroy(void *data, size_t size, void *info) {
  (void)size;
  int i = (int)(intptr_t)info;
  /* Writes made by other threads before their decref must be visible here. */
  int *payload = data;
  for (int t = 0; t < THREADS; t++)
    if (payload[t] != t + 1)
      abort();
  atomic_fetch_add(&destroyed[i], 1);
}

static void *worker(void *arg) {
  int id = (int)(intptr_t)arg;
  unsigned seed = (unsigned)id * 2654435761u;
  /* Each thread holds one reference to every object, handed over by main. */
  for (long r = 0; r < ROUNDS; r++) {
    seed = seed * 1103515245u + 12345u;
    nrt_meminfo *mi = objects[(seed >> 16) % OBJECTS];
    nrt_mi_incref(mi);
    nrt_mi_incref(mi);
    nrt_mi_decref(mi);
    nrt_mi_decref(mi);
  }
  /* Churn private allocations so per-thread statistics are exercised. */
  for (int i = 0; i < 1000; i++) {
    nrt_meminfo *mine;
    if (nrt_mi_alloc(16, &mine, NULL) == NRT_OK)
      nrt_mi_decref(mine);
  }
  for (int i = 0; i < OBJECTS; i++) {
    ((int *)nrt_mi_data(objects[i]))[id] = id + 1;
    nrt_mi_decref(objects[i]);
  }
  return NULL;
}

int main(void) {
  struct check_live before = check_live_now();
  for (int i = 0; i < OBJECTS; i++) {
    CHECK_EQ_INT(nrt_mi_alloc_dtor(sizeof(int) * THREADS, on_destroy, (void *)(intptr_t)i,
                                   &objects[i], NULL),
                 NRT_OK);
    memset(nrt_mi_data(objects[i]), 0, sizeof(int) * THREADS);
    for (int t = 0; t < THREADS; t++)
      nrt_mi_incref(objects[i]);
    nrt_mi_decref(objects[i]); /* main's own reference: the threads now own them all */
  }
  pthread_t th[THREADS];
  for (int t = 0; t < THREADS; t++)
    CHECK_EQ_INT(pthread_create(&th[t], NULL, worker, (void *)(intptr_t)t), 0);
  for (int t = 0; t < THREADS; t++)
    pthread_join(th[t], NULL);
  for (int i = 0; i < OBJECTS; i++)
    CHECK_EQ_INT(atomic_load(&destroyed[i]), 1);
  CHECK_NO_LEAK(before);

  /* Statistics summed over exited threads: 1000 private allocations per thread. */
  struct nrt_stats s;
  nrt_stats_get(&s);
  CHECK(s.mi_alloc >= (uint64_t)(OBJECTS + THREADS * 1000));
  CHECK_EQ_INT(s.mi_alloc, s.mi_free);
  CHECK_EQ_INT(s.alloc, s.free);
  return check_finish("test_core_concurrency");
}

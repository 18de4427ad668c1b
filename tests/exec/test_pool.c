/* The worker pool: every task runs exactly once, nested and concurrent jobs, reuse, shutdown
 * and restart, and a forked child that starts its own workers. */
#define _POSIX_C_SOURCE 200809L /* fork, waitpid */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "exec/pool.h"
#include "nrt/exec.h"
#include "support/check.h"

#if defined(__SANITIZE_THREAD__)
#define UNDER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define UNDER_TSAN 1
#endif
#endif

struct counts {
  int64_t n;
  _Atomic int *hits;
  _Atomic int64_t sum;
};

static void count_task(void *arg, int64_t i) {
  struct counts *c = arg;
  atomic_fetch_add(&c->hits[i], 1);
  atomic_fetch_add(&c->sum, i);
}

/* Runs n tasks on `threads` threads and checks each ran once. Returns 1 when all is well. */
static int run_and_check(int64_t n, int threads) {
  struct counts c = {.n = n, .hits = calloc((size_t)(n ? n : 1), sizeof(_Atomic int))};
  atomic_init(&c.sum, 0);
  nrt_exec_parallel_for(n, threads, count_task, &c);
  int ok = 1;
  for (int64_t i = 0; i < n; i++)
    ok &= atomic_load(&c.hits[i]) == 1;
  ok &= atomic_load(&c.sum) == n * (n - 1) / 2;
  free(c.hits);
  return ok;
}

static _Atomic int all_ok = 1;

static void nested_task(void *arg, int64_t i) {
  (void)arg;
  (void)i;
  if (!run_and_check(100, 3))
    atomic_store(&all_ok, 0);
}

static void *concurrent_caller(void *arg) {
  (void)arg;
  for (int round = 0; round < 20; round++)
    if (!run_and_check(500, 4))
      atomic_store(&all_ok, 0);
  return NULL;
}

int main(void) {
  CHECK(nrt_exec_cores() >= 1);
  CHECK(run_and_check(0, 4));
  CHECK(run_and_check(1, 4));
  CHECK(run_and_check(1000, 1));
  CHECK(run_and_check(1000, 0)); /* all cores */
  CHECK(run_and_check(1000, 8)); /* more threads than cores */
  CHECK(nrt_pool_worker_count() >= 1);
  int before = nrt_pool_worker_count();
  for (int i = 0; i < 50; i++)
    CHECK(run_and_check(64, 8));
  CHECK_EQ_INT(nrt_pool_worker_count(), before); /* workers are reused, not restarted */

  /* Jobs nested in tasks, and jobs from several threads at once, all complete. */
  nrt_exec_parallel_for(16, 4, nested_task, NULL);
  CHECK(atomic_load(&all_ok));
  pthread_t t[3];
  for (int i = 0; i < 3; i++)
    CHECK(pthread_create(&t[i], NULL, concurrent_caller, NULL) == 0);
  for (int i = 0; i < 3; i++)
    pthread_join(t[i], NULL);
  CHECK(atomic_load(&all_ok));

  /* Shutdown joins the workers; the next job starts new ones. */
  nrt_exec_shutdown();
  CHECK_EQ_INT(nrt_pool_worker_count(), 0);
  CHECK(run_and_check(1000, 4));
  CHECK(nrt_pool_worker_count() >= 1);

#ifndef UNDER_TSAN /* TSan does not support starting threads in a child of a threaded parent */
  /* A forked child has none of the parent's threads: it must start its own, not wait forever
   * for workers that do not exist. */
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int child_ok = nrt_pool_worker_count() == 0 && run_and_check(5000, 4) &&
                   nrt_pool_worker_count() >= 1;
    _exit(child_ok ? 0 : 1);
  }
  CHECK(pid > 0);
  int status = 0;
  CHECK(waitpid(pid, &status, 0) == pid);
  CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  CHECK(run_and_check(1000, 4)); /* the parent's pool still works */
#endif
  nrt_exec_shutdown();
  return check_finish("test_exec_pool");
}

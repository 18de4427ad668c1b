/* The worker pool (see exec/pool.h).
 *
 * Workers are started on first use and reused by every later job. They sleep on one condition
 * variable and join any open job that still has unclaimed tasks and room for another helper.
 * Tasks are claimed with an atomic counter, so the order in which tasks run is free; callers
 * that need deterministic output place each task's result by its index.
 *
 * Fork safety: a child process inherits the pool's memory but none of its threads. An atfork
 * handler (and, as a second line of defence, a pid check on every job) forgets the parent's
 * workers in the child, which then starts its own on first use. */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "exec/pool.h"

#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <unistd.h>

/* More workers than this are never started (a request for more threads is capped). */
#define NRT_POOL_MAX_WORKERS 255

struct pool_job {
  void (*task)(void *arg, int64_t i);
  void *arg;
  int64_t n_tasks;
  _Atomic int64_t next; /* next unclaimed task */
  int max_helpers;      /* workers allowed to join */
  int helpers;          /* workers inside run_tasks (under pool.lock) */
  struct pool_job *next_job, *prev_job; /* open jobs (under pool.lock) */
};

static struct {
  pthread_mutex_t lock;
  pthread_cond_t work; /* workers wait here for a joinable job or stop */
  pthread_cond_t left; /* job owners wait here for their helpers to leave */
  struct pool_job *jobs;
  pthread_t threads[NRT_POOL_MAX_WORKERS];
  int n_workers;
  int stopping;
  pid_t pid; /* process that started the workers */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER,
          NULL, {0}, 0, 0, 0};

static pthread_once_t atfork_once = PTHREAD_ONCE_INIT;

static void before_fork(void) {
  pthread_mutex_lock(&pool.lock);
}

static void after_fork_parent(void) {
  pthread_mutex_unlock(&pool.lock);
}

/* The child has only the forking thread: forget the workers and jobs of the parent. */
static void forget_parent_pool(void) {
  pool.jobs = NULL;
  pool.n_workers = 0;
  pool.stopping = 0;
  pool.pid = getpid();
}

static void after_fork_child(void) {
  pthread_mutex_init(&pool.lock, NULL);
  pthread_cond_init(&pool.work, NULL);
  pthread_cond_init(&pool.left, NULL);
  forget_parent_pool();
}

static void register_atfork(void) {
  pthread_atfork(before_fork, after_fork_parent, after_fork_child);
}

int nrt_pool_cores(void) {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) {
    int n = CPU_COUNT(&set);
    if (n > 0)
      return n;
  }
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? (int)(n > NRT_POOL_MAX_WORKERS + 1 ? NRT_POOL_MAX_WORKERS + 1 : n) : 1;
}

static void run_tasks(struct pool_job *job) {
  for (;;) {
    int64_t i = atomic_fetch_add_explicit(&job->next, 1, memory_order_relaxed);
    if (i >= job->n_tasks)
      return;
    job->task(job->arg, i);
  }
}

/* A job a worker may join: unclaimed tasks left and room for one more helper. */
static struct pool_job *joinable_job(void) {
  for (struct pool_job *j = pool.jobs; j; j = j->next_job)
    if (j->helpers < j->max_helpers &&
        atomic_load_explicit(&j->next, memory_order_relaxed) < j->n_tasks)
      return j;
  return NULL;
}

static void *worker_main(void *unused) {
  (void)unused;
  pthread_mutex_lock(&pool.lock);
  while (!pool.stopping) {
    struct pool_job *job = joinable_job();
    if (!job) {
      pthread_cond_wait(&pool.work, &pool.lock);
      continue;
    }
    job->helpers++;
    pthread_mutex_unlock(&pool.lock);
    run_tasks(job);
    pthread_mutex_lock(&pool.lock);
    if (--job->helpers == 0)
      pthread_cond_broadcast(&pool.left);
  }
  pthread_mutex_unlock(&pool.lock);
  return NULL;
}

/* Starts workers until there are `wanted` (under pool.lock). Workers block every signal:
 * signals are for the application's own threads. A failure to start one is not an error; the
 * jobs just get fewer helpers. */
static void start_workers(int wanted) {
  if (wanted > NRT_POOL_MAX_WORKERS)
    wanted = NRT_POOL_MAX_WORKERS;
  if (pool.n_workers >= wanted)
    return;
  sigset_t all, saved;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &saved);
  while (pool.n_workers < wanted) {
    if (pthread_create(&pool.threads[pool.n_workers], NULL, worker_main, NULL) != 0)
      break;
    pool.n_workers++;
  }
  pthread_sigmask(SIG_SETMASK, &saved, NULL);
  pool.pid = getpid();
}

void nrt_pool_run(int64_t n_tasks, int threads, void (*task)(void *arg, int64_t i),
                  void *arg) {
  if (n_tasks <= 0)
    return;
  if (threads < 1)
    threads = nrt_pool_cores();
  int64_t helpers = threads - 1;
  if (helpers > n_tasks - 1)
    helpers = n_tasks - 1;
  if (helpers > NRT_POOL_MAX_WORKERS)
    helpers = NRT_POOL_MAX_WORKERS;
  struct pool_job job = {.task = task, .arg = arg, .n_tasks = n_tasks, .max_helpers = (int)helpers};
  atomic_init(&job.next, 0);
  if (helpers == 0) {
    run_tasks(&job);
    return;
  }
  pthread_once(&atfork_once, register_atfork);
  pthread_mutex_lock(&pool.lock);
  if (pool.n_workers > 0 && pool.pid != getpid())
    forget_parent_pool(); /* forked without the atfork handler (e.g. a raw clone) */
  start_workers((int)helpers);
  job.next_job = pool.jobs;
  if (pool.jobs)
    pool.jobs->prev_job = &job;
  pool.jobs = &job;
  pthread_cond_broadcast(&pool.work);
  pthread_mutex_unlock(&pool.lock);

  run_tasks(&job);

  pthread_mutex_lock(&pool.lock);
  if (job.prev_job)
    job.prev_job->next_job = job.next_job;
  else
    pool.jobs = job.next_job;
  if (job.next_job)
    job.next_job->prev_job = job.prev_job;
  while (job.helpers > 0)
    pthread_cond_wait(&pool.left, &pool.lock);
  pthread_mutex_unlock(&pool.lock);
}

void nrt_pool_shutdown(void) {
  pthread_mutex_lock(&pool.lock);
  if (pool.n_workers > 0 && pool.pid != getpid())
    forget_parent_pool();
  pool.stopping = 1;
  pthread_cond_broadcast(&pool.work);
  int n = pool.n_workers;
  pthread_mutex_unlock(&pool.lock);
  for (int i = 0; i < n; i++)
    pthread_join(pool.threads[i], NULL);
  pthread_mutex_lock(&pool.lock);
  pool.n_workers = 0;
  pool.stopping = 0;
  pthread_mutex_unlock(&pool.lock);
}

int nrt_pool_worker_count(void) {
  pthread_mutex_lock(&pool.lock);
  int n = pool.n_workers;
  pthread_mutex_unlock(&pool.lock);
  return n;
}

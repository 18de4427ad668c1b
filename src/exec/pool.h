/* Internal: the process-wide worker pool behind nrt_exec_parallel_for and nrt_apply.
 *
 * A job is a set of numbered tasks (0..n_tasks-1) claimed with an atomic counter by the
 * calling thread and by up to `threads - 1` pool workers. Several jobs may run at once (from
 * different caller threads, or an apply nested in a row function): each caller always works
 * on its own job, so every job progresses even when all workers are busy elsewhere. */
#ifndef NRT_EXEC_POOL_H
#define NRT_EXEC_POOL_H

#include <stdint.h>

/* Runs task(arg, i) for every i in [0, n_tasks) on `threads` threads (the caller included;
 * threads < 1 means one per online core) and returns when all have finished. Tasks run in
 * any order and on any thread. Never fails: when workers cannot be started the caller runs
 * the remaining tasks itself. */
void nrt_pool_run(int64_t n_tasks, int threads, void (*task)(void *arg, int64_t i), void *arg);

/* Number of online cores (at least 1), honouring the process's CPU affinity mask. */
int nrt_pool_cores(void);

/* Stops and joins every worker (the pool restarts on next use). Must not race with a job. */
void nrt_pool_shutdown(void);

/* Workers currently started (for tests). */
int nrt_pool_worker_count(void);

#endif

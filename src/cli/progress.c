/* A progress bar on standard error: only on a terminal, only after a second; the apply reports
 * finished rows after each chunk (from its workers), a ticker thread draws the bar every
 * quarter second and clears it when the work ends. */
#define _POSIX_C_SOURCE 200809L /* isatty, clock_gettime */
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

struct cli_progress {
  pthread_t thread;
  pthread_mutex_t lock;
  pthread_cond_t cond;
  bool done;
  bool shown;
  const char *what;
  int64_t total;
  _Atomic int64_t rows_done;
  double start;
};

void cli_progress_update(void *arg, int64_t rows_done, int64_t rows) {
  struct cli_progress *p = arg;
  (void)rows;
  if (!p)
    return;
  int64_t cur = atomic_load_explicit(&p->rows_done, memory_order_relaxed);
  while (cur < rows_done && !atomic_compare_exchange_weak_explicit(&p->rows_done, &cur, rows_done,
                                                                   memory_order_relaxed,
                                                                   memory_order_relaxed)) {
  }
}

static void *run(void *arg) {
  struct cli_progress *p = arg;
  static const char spin[] = "|/-\\";
  int k = 0;
  pthread_mutex_lock(&p->lock);
  while (!p->done) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    long step = p->shown ? 250000000L : 1000000000L; /* first after a second */
    ts.tv_nsec += step;
    if (ts.tv_nsec >= 1000000000L) {
      ts.tv_sec += 1;
      ts.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&p->cond, &p->lock, &ts);
    if (p->done)
      break;
    double s = (cli_now_ms() - p->start) / 1000.0;
    int64_t done = atomic_load_explicit(&p->rows_done, memory_order_relaxed);
    int pct = p->total > 0 ? (int)(done * 100 / p->total) : 0;
    char bar[31];
    for (int i = 0; i < 30; i++)
      bar[i] = i < pct * 30 / 100 ? '#' : ' ';
    bar[30] = 0;
    fprintf(stderr, "\r%c %s [%s] %3d%% %lld/%lld rows %.1f s", spin[k++ & 3], p->what, bar,
            pct, (long long)done, (long long)p->total, s);
    fflush(stderr);
    p->shown = true;
  }
  if (p->shown) {
    fputs("\r\033[K", stderr);
    fflush(stderr);
  }
  pthread_mutex_unlock(&p->lock);
  return NULL;
}

struct cli_progress *cli_progress_start(const char *what, int64_t total) {
  if (!isatty(2))
    return NULL;
  struct cli_progress *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->what = what;
  p->total = total;
  p->start = cli_now_ms();
  pthread_mutex_init(&p->lock, NULL);
  pthread_cond_init(&p->cond, NULL);
  if (pthread_create(&p->thread, NULL, run, p) != 0) {
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->cond);
    free(p);
    return NULL;
  }
  return p;
}

void cli_progress_stop(struct cli_progress *p) {
  if (!p)
    return;
  pthread_mutex_lock(&p->lock);
  p->done = true;
  pthread_cond_signal(&p->cond);
  pthread_mutex_unlock(&p->lock);
  pthread_join(p->thread, NULL);
  pthread_mutex_destroy(&p->lock);
  pthread_cond_destroy(&p->cond);
  free(p);
}

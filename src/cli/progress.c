/* A progress indicator on standard error: only on a terminal, only after a second. The apply
 * runs in one call, so it shows the elapsed time and the row count being processed (a
 * spinner), cleared when the work ends. */
#define _POSIX_C_SOURCE 200809L /* isatty, clock_gettime */
#include <pthread.h>
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
  double start;
};

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
    fprintf(stderr, "\r%c %s %lld rows ... %.1f s", spin[k++ & 3], p->what, (long long)p->total,
            s);
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

/* A progress bar on standard error: only on a terminal, only after a second; the apply reports
 * finished rows after each chunk (from its workers), or a stream the input bytes done after
 * each batch; a ticker thread draws the bar every quarter second (with the rate in bytes mode)
 * and clears it when the work ends. */
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
  int64_t total;  /* rows, or bytes (0: unknown, e.g. a pipe) */
  bool bytes;
  _Atomic int64_t rows_done; /* or bytes done */
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

void cli_progress_bytes(struct cli_progress *p, uint64_t bytes_done) {
  if (p)
    cli_progress_update(p, (int64_t)(bytes_done > INT64_MAX ? INT64_MAX : bytes_done), 0);
}

/* "12.3 MB" (decimal units, as rates are usually given). */
static void human_bytes(char *buf, size_t size, double n) {
  static const char *const units[] = {"B", "kB", "MB", "GB", "TB"};
  int u = 0;
  while (n >= 1000 && u < 4) {
    n /= 1000;
    u++;
  }
  snprintf(buf, size, u ? "%.1f %s" : "%.0f %s", n, units[u]);
}

static void draw_bytes(const struct cli_progress *p, char spin, int64_t done, double s) {
  char d[24], t[24], r[24];
  human_bytes(d, sizeof d, (double)done);
  human_bytes(r, sizeof r, s > 0 ? (double)done / s : 0);
  if (p->total > 0) {
    int pct = (int)(done * 100 / p->total);
    char bar[31];
    for (int i = 0; i < 30; i++)
      bar[i] = i < pct * 30 / 100 ? '#' : ' ';
    bar[30] = 0;
    human_bytes(t, sizeof t, (double)p->total);
    fprintf(stderr, "\r%c %s [%s] %3d%% %s / %s, %s/s, %.1f s\033[K", spin, p->what, bar, pct,
            d, t, r, s);
  } else {
    fprintf(stderr, "\r%c %s %s, %s/s, %.1f s\033[K", spin, p->what, d, r, s);
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
    if (p->bytes) {
      draw_bytes(p, spin[k++ & 3], done, s);
      fflush(stderr);
      p->shown = true;
      continue;
    }
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

static struct cli_progress *start(const char *what, int64_t total, bool bytes) {
  if (!isatty(2))
    return NULL;
  struct cli_progress *p = calloc(1, sizeof *p);
  if (!p)
    return NULL;
  p->what = what;
  p->total = total;
  p->bytes = bytes;
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

struct cli_progress *cli_progress_start(const char *what, int64_t total) {
  return start(what, total, false);
}

struct cli_progress *cli_progress_start_bytes(const char *what, uint64_t total_bytes) {
  return start(what, (int64_t)(total_bytes > INT64_MAX ? INT64_MAX : total_bytes), true);
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

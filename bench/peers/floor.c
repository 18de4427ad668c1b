/* The floor of bench_peers: the least work any engine can do for the seed UDF, copying each
 * row and its result suffix 'abc' into an output buffer, one memcpy call per row plus a
 * 3-byte store, with the output offsets computed before the clock starts. Compiled by
 * floor.py with the system cc at benchmark time and called through ctypes on the corpus's
 * Arrow buffers (utf8: int32 offsets). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct part {
  const int32_t *in_off;
  const char *in;
  const int64_t *out_off;
  char *out;
  int64_t begin, end;
};

static void *copy_rows(void *arg) {
  const struct part *p = arg;
  for (int64_t i = p->begin; i < p->end; i++) {
    size_t len = (size_t)(p->in_off[i + 1] - p->in_off[i]);
    char *dst = p->out + p->out_off[i];
    memcpy(dst, p->in + p->in_off[i], len);
    memcpy(dst + len, "abc", 3); /* a fixed 3-byte store, not a call */
  }
  return NULL;
}

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The CPU time of the whole process (all threads), as the engines' CPU times are taken. */
static double cpu_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One copy of every row on `threads` threads (contiguous row ranges); -1 when a thread
 * cannot be started. */
static int copy_once(struct part *parts, pthread_t *tids, int threads) {
  for (int k = 1; k < threads; k++)
    if (pthread_create(&tids[k], NULL, copy_rows, &parts[k])) {
      while (--k >= 1)
        pthread_join(tids[k], NULL);
      return -1;
    }
  copy_rows(&parts[0]);
  for (int k = 1; k < threads; k++)
    pthread_join(tids[k], NULL);
  return 0;
}

/* Runs the copy `runs` times and writes each run's wall seconds into times[2 * r] and its CPU
 * seconds into times[2 * r + 1]. fresh != 0 allocates the output buffer in every run (its
 * page faults timed too); otherwise one buffer, touched once before the first run, is reused.
 * Returns 0, or -1 when memory or a thread cannot be had. */
int floor_copy(const int32_t *in_off, const char *in, int64_t rows, int threads, int runs,
               int fresh, double *times) {
  if (rows < 0 || threads < 1 || threads > 64 || runs < 1)
    return -1;
  int64_t *out_off = malloc(((size_t)rows + 1) * sizeof *out_off);
  if (!out_off)
    return -1;
  for (int64_t i = 0; i <= rows; i++)
    out_off[i] = (int64_t)(in_off[i] - in_off[0]) + 3 * i;
  size_t size = (size_t)out_off[rows] + 1;
  struct part parts[64];
  pthread_t tids[64];
  for (int k = 0; k < threads; k++) {
    parts[k] = (struct part){in_off, in, out_off, NULL, rows * k / threads,
                             rows * (k + 1) / threads};
  }
  char *buf = NULL;
  int rc = 0;
  for (int r = 0; r < runs && rc == 0; r++) {
    double t0 = now(), c0 = cpu_now();
    if (!buf || fresh) {
      buf = malloc(size);
      if (!buf) {
        rc = -1;
        break;
      }
      if (!fresh) {
        memset(buf, 0, size);
        t0 = now();
        c0 = cpu_now();
      }
    }
    for (int k = 0; k < threads; k++)
      parts[k].out = buf;
    if (copy_once(parts, tids, threads))
      rc = -1;
    times[2 * r] = now() - t0;
    times[2 * r + 1] = cpu_now() - c0;
    if (fresh) {
      free(buf);
      buf = NULL;
    }
  }
  free(buf);
  free(out_off);
  return rc;
}

/* Runtime benchmark: reference counting, MemInfo allocation and the cost of always-on
 * statistics, each as a ratio to a baseline measured in the same run.
 *
 *   bench_core            prints the table (runs bench_core_nostats beside it for one row)
 *   bench_core --mt-only  prints the 2-thread alloc/free time in ns per pair (used by the table)
 */
#define _GNU_SOURCE
#include "nrt/core.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

/* The best of several trials: the least disturbed by the rest of the machine. */
#define TRIALS 7

static volatile long bare_counter;
static nrt_meminfo *shared_mi;

__attribute__((noinline)) static void loop_bare_atomic(long n) {
  for (long i = 0; i < n; i++) {
    __atomic_fetch_add(&bare_counter, 1, __ATOMIC_RELAXED);
    __atomic_fetch_sub(&bare_counter, 1, __ATOMIC_RELEASE);
  }
}

__attribute__((noinline)) static void loop_atomic_pair(long n) {
  for (long i = 0; i < n; i++) {
    nrt_mi_incref(shared_mi);
    nrt_mi_decref(shared_mi);
  }
}

__attribute__((noinline)) static void loop_atomic_inline_pair(long n) {
  nrt_meminfo *volatile mip = shared_mi;
  for (long i = 0; i < n; i++) {
    nrt_meminfo *mi = mip;
    nrt_mi_incref_inline(mi);
    nrt_mi_decref_inline(mi);
  }
}

__attribute__((noinline)) static void loop_local_pair(long n) {
  for (long i = 0; i < n; i++) {
    nrt_mi_incref_local(shared_mi);
    nrt_mi_decref_local(shared_mi);
  }
}

__attribute__((noinline)) static void loop_local_inline_pair(long n) {
  nrt_meminfo *volatile mip = shared_mi; /* reload each time: keep the pair from folding away */
  for (long i = 0; i < n; i++) {
    nrt_meminfo *mi = mip;
    nrt_mi_incref_local_inline(mi);
    __asm__ volatile("" ::: "memory");
    nrt_mi_decref_local_inline(mi);
    __asm__ volatile("" ::: "memory");
  }
}

__attribute__((noinline)) static void loop_malloc_free(long n) {
  for (long i = 0; i < n; i++) {
    void *volatile p = malloc(32);
    free(p);
  }
}

__attribute__((noinline)) static void loop_mi_alloc_decref(long n) {
  for (long i = 0; i < n; i++) {
    nrt_meminfo *mi;
    if (nrt_mi_alloc(32, &mi, NULL) != NRT_OK)
      abort();
    nrt_mi_decref(mi);
  }
}

static double time_per_op(void (*loop)(long), long n) {
  double best = 1e30;
  for (int t = 0; t < TRIALS; t++) {
    double t0 = now_ns();
    loop(n);
    double dt = (now_ns() - t0) / (double)n;
    if (dt < best)
      best = dt;
  }
  return best;
}

/* Two threads allocating and freeing MemInfos of mixed sizes, as apply's workers do. */
#define MT_THREADS 2
#define MT_PAIRS 4000000L

static void *mt_worker(void *arg) {
  (void)arg;
  nrt_meminfo *keep[16] = {0};
  for (long i = 0; i < MT_PAIRS; i++) {
    size_t slot = (size_t)i & 15;
    nrt_mi_decref(keep[slot]);
    if (nrt_mi_alloc(16 + (size_t)(i & 63), &keep[slot], NULL) != NRT_OK)
      abort();
  }
  for (int s = 0; s < 16; s++)
    nrt_mi_decref(keep[s]);
  return NULL;
}

static double mt_ns_per_pair(void) {
  double best = 1e30;
  for (int t = 0; t < TRIALS; t++) {
    pthread_t th[MT_THREADS];
    double t0 = now_ns();
    for (int i = 0; i < MT_THREADS; i++)
      pthread_create(&th[i], NULL, mt_worker, NULL);
    for (int i = 0; i < MT_THREADS; i++)
      pthread_join(th[i], NULL);
    double dt = (now_ns() - t0) / (double)MT_PAIRS;
    if (dt < best)
      best = dt;
  }
  return best;
}

/* Runs the statistics-free twin (same directory) and reads its number. */
static double nostats_mt_ns_per_pair(void) {
  char self[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 32);
  if (n <= 0)
    return -1;
  self[n] = '\0';
  char cmd[PATH_MAX + 64];
  snprintf(cmd, sizeof cmd, "'%s_nostats' --mt-only", self);
  FILE *p = popen(cmd, "r");
  if (!p)
    return -1;
  double v = -1;
  if (fscanf(p, "%lf", &v) != 1)
    v = -1;
  pclose(p);
  return v;
}

static void row(const char *what, double value, const char *unit, double baseline,
                const char *baseline_name, const char *target, int ok) {
  printf("| %-34s | %8.2f %-5s | %-26s %8.2f | %6.2fx | %-8s | %-4s |\n", what, value, unit,
         baseline_name, baseline, baseline > 0 ? value / baseline : 0.0, target,
         ok ? "met" : "MISS");
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--mt-only") == 0) {
    printf("%.3f\n", mt_ns_per_pair());
    return 0;
  }
  if (nrt_mi_alloc(8, &shared_mi, NULL) != NRT_OK)
    return 1;
  const long n = 50 * 1000 * 1000L;
  double bare = time_per_op(loop_bare_atomic, n);
  double atomic_pair = time_per_op(loop_atomic_pair, n);
  double atomic_inline_pair = time_per_op(loop_atomic_inline_pair, n);
  double local_pair = time_per_op(loop_local_pair, n);
  double inline_pair = time_per_op(loop_local_inline_pair, n);
  double mf = time_per_op(loop_malloc_free, n / 5);
  double mi = time_per_op(loop_mi_alloc_decref, n / 5);
  double mt_stats = mt_ns_per_pair();
  double mt_nostats = nostats_mt_ns_per_pair();
  nrt_mi_decref(shared_mi);

  printf("nrt runtime benchmark (best of %d trials; ratios against baselines measured in this run)\n\n",
         TRIALS);
  printf("| %-34s | %-14s | %-35s | %-7s | %-8s | %-4s |\n", "operation", "time", "baseline",
         "ratio", "target", "");
  printf("|%s|%s|%s|%s|%s|%s|\n", "------------------------------------", "----------------",
         "-------------------------------------", "---------", "----------", "------");
  row("incref+decref, atomic (inline)", atomic_inline_pair, "ns", bare,
      "bare atomic add/sub pair", "<= 1.2x", atomic_inline_pair <= 1.2 * bare);
  row("incref+decref, atomic (call)", atomic_pair, "ns", bare, "bare atomic add/sub pair", "-", 1);
  row("incref+decref, non-atomic (call)", local_pair, "ns", bare, "bare atomic add/sub pair", "-", 1);
  row("incref+decref, non-atomic (inline)", inline_pair, "ns", 1.0, "1 ns", "<= 1 ns",
      inline_pair <= 1.0);
  row("nrt_mi_alloc(32) + decref", mi, "ns", mf, "malloc(32) + free", "<= 1.15x", mi <= 1.15 * mf);
  if (mt_nostats > 0)
    row("2 threads alloc+free, stats on", mt_stats, "ns", mt_nostats, "same, stats compiled out",
        "<= 1.05x", mt_stats <= 1.05 * mt_nostats);
  else
    printf("| 2 threads alloc+free: bench_core_nostats not found beside this program |\n");

  struct nrt_stats s;
  nrt_stats_get(&s);
  printf("\nstatistics after the run: alloc %llu free %llu mi_alloc %llu mi_free %llu (%s)\n",
         (unsigned long long)s.alloc, (unsigned long long)s.free,
         (unsigned long long)s.mi_alloc, (unsigned long long)s.mi_free,
         s.alloc == s.free && s.mi_alloc == s.mi_free ? "balanced" : "UNBALANCED");
  return 0;
}

/* Column benchmark (never a test). Prints two tables:
 *  1. Arrow C Data Interface export + import (and release) of a 1 GB and a 1 MB utf8 column,
 *     per round trip: zero-copy means the ratio is about 1, whatever the size.
 *  2. Builder append throughput (bytes/s) for each string layout vs memcpy of the same bytes
 *     measured in the same run (one memcpy of the whole buffer into warm memory and into
 *     fresh memory, and one memcpy per string).
 * Usage: bench_column [data_megabytes]   (default 1024) */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nrt/column.h"
#include "nrt/column_arrow.h"

/* CPU time of this (single-threaded) process, user + system, page faults included: on the
 * shared 2-core machine wall-clock time mostly measures the other processes. */
static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Source strings: lengths 0..31 (mean ~16), ASCII, packed in one buffer with offsets. */
struct source {
  char *bytes;
  int64_t *offs;
  int64_t n;
  int64_t total;
};

static struct source make_source(int64_t total_bytes) {
  struct source s;
  s.n = total_bytes / 15 + 1; /* mean length 15.5: a little over total_bytes */
  s.offs = (int64_t *)malloc((size_t)(s.n + 1) * sizeof(int64_t));
  s.offs[0] = 0;
  unsigned x = 12345;
  for (int64_t i = 0; i < s.n; i++) {
    x = x * 1103515245u + 12345u;
    s.offs[i + 1] = s.offs[i] + (x >> 16) % 32;
  }
  s.total = s.offs[s.n];
  s.bytes = (char *)malloc((size_t)s.total + 1);
  for (int64_t i = 0; i < s.total; i++)
    s.bytes[i] = (char)('a' + i % 26);
  return s;
}

static nrt_column *build(const struct source *s, enum nrt_col_type t, double *seconds) {
  double t0 = now();
  nrt_col_builder *b;
  if (nrt_col_builder_new(t, s->n, &b, NULL))
    return NULL;
  for (int64_t i = 0; i < s->n; i++)
    nrt_col_builder_append_view(b, s->bytes + s->offs[i], s->offs[i + 1] - s->offs[i]);
  nrt_column *col = NULL;
  struct nrt_error err = {0};
  if (nrt_col_builder_finish(b, &col, &err)) {
    fprintf(stderr, "build failed: %s\n", err.message);
    return NULL;
  }
  *seconds = now() - t0;
  return col;
}

/* Seconds per export + import + release round trip (median-free: best of 5 batches). */
static double round_trip(nrt_column *col, int reps, unsigned flags) {
  double best = 1e9;
  for (int batch = 0; batch < 5; batch++) {
    double t0 = now();
    for (int r = 0; r < reps; r++) {
      struct ArrowArray arr;
      struct ArrowSchema schema;
      nrt_column *back;
      if (nrt_col_export_arrow(col, &arr, &schema, NULL) ||
          nrt_col_import_arrow_flags(&arr, schema.format, flags, &back, NULL)) {
        fprintf(stderr, "round trip failed\n");
        exit(1);
      }
      schema.release(&schema);
      nrt_col_release(back);
    }
    double dt = (now() - t0) / reps;
    if (dt < best)
      best = dt;
  }
  return best;
}

int main(int argc, char **argv) {
  int64_t mb = argc > 1 ? atoll(argv[1]) : 1024;
  struct source big = make_source(mb << 20), small = make_source(1 << 20);
  printf("column benchmark: %lld MB and 1 MB of utf8 string data (%lld and %lld rows);\n"
         "times are process CPU time (user + system)\n\n",
         (long long)(big.total >> 20), (long long)big.n, (long long)small.n);

  /* 1. Arrow export/import. Import validates offsets and UTF-8, which reads every byte;
   * the zero-copy round trip of nrt's own array therefore costs what validation costs.
   * export alone and the trusted import (NRT_COL_IMPORT_TRUSTED) are shown apart. */
  double tb, ts;
  nrt_column *cb = build(&big, NRT_COL_UTF8, &tb);
  nrt_column *cs = build(&small, NRT_COL_UTF8, &ts);
  if (!cb || !cs)
    return 1;
  double exp_b = 1e9, exp_s = 1e9;
  for (int batch = 0; batch < 5; batch++) {
    for (int which = 0; which < 2; which++) {
      nrt_column *c = which ? cs : cb;
      double t0 = now();
      for (int r = 0; r < 1000; r++) {
        struct ArrowArray arr;
        nrt_col_export_arrow(c, &arr, NULL, NULL);
        arr.release(&arr);
      }
      double dt = (now() - t0) / 1000;
      double *best = which ? &exp_s : &exp_b;
      if (dt < *best)
        *best = dt;
    }
  }
  double rt_b = round_trip(cb, 1, 0), rt_s = round_trip(cs, 50, 0);
  double tr_b = round_trip(cb, 1000, NRT_COL_IMPORT_TRUSTED),
         tr_s = round_trip(cs, 1000, NRT_COL_IMPORT_TRUSTED);
  char big_label[32];
  snprintf(big_label, sizeof big_label, "%lld MB column", (long long)(big.total >> 20));
  printf("%-46s %14s %14s %8s\n", "Arrow C Data Interface (per round trip)", big_label,
         "1 MB column", "ratio");
  printf("%-46s %11.3f us %11.3f us %8.2f\n", "export + release (zero-copy)", exp_b * 1e6,
         exp_s * 1e6, exp_b / exp_s);
  printf("%-46s %11.3f us %11.3f us %8.2f\n", "export + trusted import + release (zero-copy)",
         tr_b * 1e6, tr_s * 1e6, tr_b / tr_s);
  printf("%-46s %11.3f ms %11.3f ms %8.1f\n", "export + validated import + release", rt_b * 1e3,
         rt_s * 1e3, rt_b / rt_s);
  printf("%-46s %9.2f GB/s %9.2f GB/s\n", "  validation speed (data bytes / time)",
         (double)big.total / rt_b / 1e9, (double)small.total / rt_s / 1e9);
  printf("(zero-copy both ways: export and trusted import take the same time at any size;\n"
         " a validated import also reads the data once to check offsets and UTF-8, and\n"
         " copies nothing)\n\n");
  nrt_col_release(cs);

  /* 2. Builder throughput vs memcpy of the same bytes. */
  char *dst = (char *)malloc((size_t)big.total + 1);
  memset(dst, 1, (size_t)big.total + 1);
  double m1 = 1e9, m2 = 1e9;
  for (int batch = 0; batch < 3; batch++) {
    double t0 = now();
    memcpy(dst, big.bytes, (size_t)big.total);
    double dt = now() - t0;
    if (dt < m1)
      m1 = dt;
    t0 = now();
    for (int64_t i = 0; i < big.n; i++)
      memcpy(dst + big.offs[i], big.bytes + big.offs[i], (size_t)(big.offs[i + 1] - big.offs[i]));
    dt = now() - t0;
    if (dt < m2)
      m2 = dt;
  }
  /* The builder writes into fresh memory (page faults included): the same for memcpy. */
  double m3 = 1e9;
  for (int batch = 0; batch < 3; batch++) {
    double t0 = now();
    char *fresh = (char *)malloc((size_t)big.total);
    memcpy(fresh, big.bytes, (size_t)big.total);
    volatile char keep = fresh[big.total / 3];
    (void)keep;
    free(fresh);
    double dt = now() - t0;
    if (dt < m3)
      m3 = dt;
  }
  volatile char sink = dst[big.total / 2];
  (void)sink;
  free(dst);
  printf("%-44s %10s %12s %14s\n", "builder append (strings of 0-31 bytes)", "seconds", "GB/s",
         "vs memcpy all");
  printf("%-44s %10.3f %12.2f %14.2f\n", "memcpy of the whole buffer (baseline)", m1,
         (double)big.total / m1 / 1e9, 1.0);
  printf("%-44s %10.3f %12.2f %14.2f\n", "memcpy per string", m2, (double)big.total / m2 / 1e9,
         m2 / m1);
  printf("%-44s %10.3f %12.2f %14.2f\n", "memcpy into fresh memory (malloc+copy+free)", m3,
         (double)big.total / m3 / 1e9, m3 / m1);
  printf("%-44s %10.3f %12.2f %14.2f\n", "utf8 builder", tb,
         (double)big.total / tb / 1e9, tb / m1);
  nrt_col_release(cb);
  enum nrt_col_type others[2] = {NRT_COL_LARGE_UTF8, NRT_COL_UTF8_VIEW};
  for (int k = 0; k < 2; k++) {
    double t;
    nrt_column *c = build(&big, others[k], &t);
    char label[64];
    snprintf(label, sizeof label, "%s builder", nrt_col_type_name(others[k]));
    printf("%-44s %10.3f %12.2f %14.2f\n", label, t, (double)big.total / t / 1e9, t / m1);
    nrt_col_release(c);
  }
  printf("(rows/s of the utf8 builder: %.0f M)\n", (double)big.n / tb / 1e6);
  free(big.bytes);
  free(big.offs);
  free(small.bytes);
  free(small.offs);
  return 0;
}

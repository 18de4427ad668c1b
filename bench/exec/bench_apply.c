/* The apply benchmark of issue 4: DESIGN.md's seed UDF written in C against the string API,
 * run by nrt_exec_apply over 1,000,000 strings of the seed corpus on 1 thread and on all
 * cores, next to CPython's list comprehension, pandas Series.apply and Numba @njit over a
 * typed List (bench_apply.py, run by /usr/bin/python3 on the same data in the same run).
 * Also: the outputs are compared with CPython's, the peak RSS of an apply in a fresh child
 * process against (input bytes + output bytes), and the runtime statistics after the run.
 *
 * Usage: bench_exec_apply [ROWS] [RUNS]   (defaults 1000000 and 5; times are medians) */
#define _POSIX_C_SOURCE 200809L /* fork, mkstemp, popen */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "nrt/column.h"
#include "nrt/exec.h"
#include "nrt/io.h"
#include "nrt/str.h"
#include "common/seed_udf.h"

/* ------------------------------------------------------------------ the seed corpus */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t rng_next(void) { /* splitmix64 */
  uint64_t z = (rng_state += 0x9E3779B97F4A7C15u);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

/* Random strings of 0..24 characters from ASCII letters, space, é, ü, ß, 漢, 字. */
static nrt_column *make_corpus(int64_t rows) {
  static const char *extra[] = {" ", "é", "ü", "ß", "漢", "字"};
  nrt_col_builder *b = NULL;
  nrt_column *col = NULL;
  if (nrt_col_builder_new(NRT_COL_UTF8, rows, &b, NULL) != NRT_OK)
    return NULL;
  for (int64_t i = 0; i < rows; i++) {
    char buf[24 * 3];
    size_t n = 0;
    int chars = (int)(rng_next() % 25);
    for (int k = 0; k < chars; k++) {
      unsigned pick = (unsigned)(rng_next() % 58);
      if (pick < 26)
        buf[n++] = (char)('a' + pick);
      else if (pick < 52)
        buf[n++] = (char)('A' + pick - 26);
      else {
        size_t len = strlen(extra[pick - 52]);
        memcpy(buf + n, extra[pick - 52], len);
        n += len;
      }
    }
    nrt_col_builder_append_view(b, buf, (int64_t)n);
  }
  if (nrt_col_builder_finish(b, &col, NULL) != NRT_OK)
    return NULL;
  return col;
}

static double clock_ms(clockid_t id) {
  struct timespec t;
  clock_gettime(id, &t);
  return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

/* Wall-clock and process CPU milliseconds. The machine may be shared: wall time includes
 * waiting for a core, CPU time does not (it sums all threads). */
struct timing {
  double wall, cpu;
};

/* Two trivial row functions measuring the apply machinery itself: the argument back (a
 * borrowed view, copied into the builder) and a managed copy of it (one allocation, the full
 * store/release/free-pass lifecycle). */
static int fn_identity(void *ctx, const nrt_value *args, nrt_value *result,
                       struct nrt_error *err) {
  (void)ctx;
  (void)err;
  *result = args[0];
  return NRT_OK;
}

static int fn_copy(void *ctx, const nrt_value *args, nrt_value *result, struct nrt_error *err) {
  (void)ctx;
  result->kind = NRT_VALUE_STR;
  return nrt_str_new(args[0].as.str.data, args[0].as.str.len, &result->as.str, err);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* Median times of `runs` applies of `fn` (or of the writing `wfn` when fn is NULL); *out
 * keeps the last output (caller releases). */
static struct timing time_apply(nrt_column *in, nrt_row_fn fn, nrt_row_write_fn wfn,
                                int threads, int runs, nrt_column **out) {
  double wall[64], cpu[64];
  if (runs > 64)
    runs = 64;
  *out = NULL;
  for (int r = 0; r < runs; r++) {
    nrt_col_release(*out);
    *out = NULL;
    struct nrt_exec_options o = {.threads = threads};
    struct nrt_error err = {0};
    double w0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    int rc = fn ? nrt_exec_apply(&in, 1, fn, NULL, &o, out, NULL, &err)
                : nrt_exec_apply_write(&in, 1, wfn, NULL, &o, out, NULL, &err);
    wall[r] = clock_ms(CLOCK_MONOTONIC) - w0;
    cpu[r] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
    if (rc) {
      fprintf(stderr, "apply failed: %s\n", err.message);
      exit(1);
    }
  }
  qsort(wall, (size_t)runs, sizeof wall[0], cmp_double);
  qsort(cpu, (size_t)runs, sizeof cpu[0], cmp_double);
  return (struct timing){wall[runs / 2], cpu[runs / 2]};
}

/* The scaling the machine offers right now: a CPU-bound spin in 64 tasks on 1 thread and on
 * all cores (no memory traffic, no allocation). On a shared machine this is the ceiling for
 * the apply's own scaling; it also shows the pool splitting work evenly. */
static void spin_task(void *arg, int64_t i) {
  (void)i;
  volatile double x = 0;
  for (int k = 0; k < 1000000; k++)
    x = x + k * 0.5;
  *(volatile double *)arg = x;
}

static double spin_ms(int threads) {
  double sink = 0, t0 = clock_ms(CLOCK_MONOTONIC);
  nrt_exec_parallel_for(64, threads, spin_task, &sink);
  return clock_ms(CLOCK_MONOTONIC) - t0;
}

/* Bytes of a column's buffers (what it holds in memory). */
static int64_t column_bytes(const nrt_column *c) {
  int64_t n = c->validity.size + c->values.size + c->data.size;
  for (int32_t i = 0; i < c->n_variadic; i++)
    n += c->variadic[i].size;
  return n;
}

/* Peak RSS of making the corpus and applying the UDF on all cores, in a fresh child process
 * (forked before the parent allocated anything big). Reports through a pipe. */
struct rss_report {
  long peak_kb, base_kb;
  int64_t in_bytes, out_bytes;
  int ok;
};

static struct rss_report measure_rss(int64_t rows) {
  struct rss_report rep = {0};
  int fds[2];
  if (pipe(fds) != 0)
    return rep;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    struct rss_report r = {.base_kb = ru.ru_maxrss};
    nrt_column *in = make_corpus(rows), *out = NULL;
    struct nrt_exec_options o = {0};
    if (in && nrt_exec_apply(&in, 1, seed_udf, NULL, &o, &out, NULL, NULL) == NRT_OK) {
      r.in_bytes = column_bytes(in);
      r.out_bytes = column_bytes(out);
      getrusage(RUSAGE_SELF, &ru);
      r.peak_kb = ru.ru_maxrss;
      r.ok = 1;
    }
    ssize_t w = write(fds[1], &r, sizeof r);
    _exit(w == (ssize_t)sizeof r ? 0 : 1);
  }
  close(fds[1]);
  if (pid > 0) {
    if (read(fds[0], &rep, sizeof rep) != (ssize_t)sizeof rep)
      rep.ok = 0;
    waitpid(pid, NULL, 0);
  }
  close(fds[0]);
  return rep;
}

/* Runs the Python baselines; fills the medians (ms; -1 when unavailable). */
struct baselines {
  struct timing cpython, pandas, numba, numba_compile;
};

static int run_python(const char *corpus, const char *results, int runs, struct baselines *b) {
  char cmd[1024];
  snprintf(cmd, sizeof cmd, "/usr/bin/python3 %s %s %s %d", NRT_BENCH_EXEC_PY, corpus, results,
           runs);
  struct timing none = {-1, -1};
  *b = (struct baselines){none, none, none, none};
  FILE *p = popen(cmd, "r");
  if (!p)
    return -1;
  char name[64];
  struct timing t;
  while (fscanf(p, "%63s %lf %lf", name, &t.wall, &t.cpu) == 3) {
    if (!strcmp(name, "cpython"))
      b->cpython = t;
    else if (!strcmp(name, "pandas"))
      b->pandas = t;
    else if (!strcmp(name, "numba"))
      b->numba = t;
    else if (!strcmp(name, "numba_compile"))
      b->numba_compile = t;
  }
  return pclose(p) == 0 ? 0 : -1;
}

static void row(const char *name, struct timing t, int64_t rows, struct timing cpython) {
  if (t.wall < 0) {
    printf("%-44s %9s\n", name, "n/a");
    return;
  }
  printf("%-44s %9.1f %9.1f %9.2f %10.2fx %9.2fx\n", name, t.wall, t.cpu,
         (double)rows / t.wall / 1e3, cpython.wall > 0 ? cpython.wall / t.wall : 0.0,
         cpython.cpu > 0 ? cpython.cpu / t.cpu : 0.0);
}

int main(int argc, char **argv) {
  int64_t rows = argc > 1 ? atoll(argv[1]) : 1000000;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  int cores = nrt_exec_cores();

  struct rss_report rss = measure_rss(rows);

  struct nrt_stats s0, s1;
  nrt_stats_get(&s0);
  nrt_column *in = make_corpus(rows);
  if (!in) {
    fprintf(stderr, "corpus: out of memory\n");
    return 1;
  }
  char corpus[] = "/tmp/nrt_bench_corpus_XXXXXX", results[] = "/tmp/nrt_bench_results_XXXXXX";
  int fd1 = mkstemp(corpus), fd2 = mkstemp(results);
  if (fd1 < 0 || fd2 < 0)
    return 1;
  close(fd1);
  close(fd2);
  struct nrt_error err = {0};
  if (nrt_io_write_path(corpus, in, NULL, &err) != NRT_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }

  nrt_column *out1 = NULL, *outn = NULL, *outw1 = NULL, *outwn = NULL, *scratch = NULL;
  struct timing t1 = time_apply(in, seed_udf, NULL, 1, runs, &out1);
  struct timing tn = time_apply(in, seed_udf, NULL, cores, runs, &outn);
  struct timing tw1 = time_apply(in, NULL, seed_write, 1, runs, &outw1);
  struct timing twn = time_apply(in, NULL, seed_write, cores, runs, &outwn);
  struct timing t_view = time_apply(in, fn_identity, NULL, 1, runs, &scratch);
  nrt_col_release(scratch);
  struct timing t_copy = time_apply(in, fn_copy, NULL, 1, runs, &scratch);
  nrt_col_release(scratch);

  double spin1 = spin_ms(1), spinn = spin_ms(cores);

  struct baselines py;
  int py_ok = run_python(corpus, results, runs, &py) == 0;

  /* The outputs agree with each other and with CPython's. */
  int same_threads = nrt_col_equal(out1, outn) && nrt_col_equal(outw1, outwn) &&
                     nrt_col_equal(out1, outw1);
  int same_cpython = -1;
  nrt_column *expect = NULL;
  if (py_ok && nrt_io_read_path(results, NULL, &expect, NULL, &err) == NRT_OK)
    same_cpython = nrt_col_equal(expect, out1);
  nrt_col_release(expect);
  nrt_col_release(out1);
  nrt_col_release(outn);
  nrt_col_release(outw1);
  nrt_col_release(outwn);
  nrt_col_release(in);
  unlink(corpus);
  unlink(results);
  nrt_exec_shutdown();
  nrt_stats_get(&s1);

  double load = -1;
  FILE *lf = fopen("/proc/loadavg", "r");
  if (lf) {
    if (fscanf(lf, "%lf", &load) != 1)
      load = -1;
    fclose(lf);
  }
  printf("seed UDF (DESIGN.md) over %" PRId64 " strings of the seed corpus, median of %d runs; "
         "%d cores, load average %.1f\n", rows, runs, cores, load);
  printf("(wall: elapsed time; CPU: process CPU time, all threads; ratios are CPython / row)\n");
  printf("%-44s %9s %9s %9s %11s %10s\n", "", "wall ms", "CPU ms", "Mrows/s", "vs CPy wall",
         "vs CPy CPU");
  row("CPython 3.11 list comprehension", py.cpython, rows, py.cpython);
  row("pandas Series.apply", py.pandas, rows, py.cpython);
  row("Numba @njit over typed.List", py.numba, rows, py.cpython);
  row("nrt apply, seed UDF in C, 1 thread", t1, rows, py.cpython);
  char name[64];
  snprintf(name, sizeof name, "nrt apply, seed UDF in C, %d threads", cores);
  row(name, tn, rows, py.cpython);
  row("nrt apply_write, seed UDF in C, 1 thread", tw1, rows, py.cpython);
  snprintf(name, sizeof name, "nrt apply_write, seed UDF in C, %d threads", cores);
  row(name, twn, rows, py.cpython);
  row("nrt apply machinery: return the argument", t_view, rows, py.cpython);
  row("nrt apply machinery: return a managed copy", t_copy, rows, py.cpython);
  printf("\n");
  printf("(apply: the row function returns managed strings; apply_write: it writes the result "
         "in place)\n");
  printf("1-thread speed-up over CPython: apply %.1fx wall, %.1fx CPU; apply_write %.1fx wall, "
         "%.1fx CPU (target >= 30x)\n",
         py.cpython.wall > 0 ? py.cpython.wall / t1.wall : 0.0,
         py.cpython.cpu > 0 ? py.cpython.cpu / t1.cpu : 0.0,
         py.cpython.wall > 0 ? py.cpython.wall / tw1.wall : 0.0,
         py.cpython.cpu > 0 ? py.cpython.cpu / tw1.cpu : 0.0);
  printf("all cores (%d) over 1 thread:   apply %.2fx, apply_write %.2fx wall (target >= 1.8x "
         "on 2 cores)\n", cores, t1.wall / tn.wall, tw1.wall / twn.wall);
  printf("machine scaling now (CPU-bound spin, %d over 1 thread): %.2fx (the ceiling for the "
         "line above on a shared machine)\n", cores, spin1 / spinn);
  if (py.numba_compile.wall >= 0)
    printf("Numba compile time of the UDF:  %.0f ms\n", py.numba_compile.wall);
  printf("output equals CPython's: %s; 1 thread equals %d threads, apply equals apply_write: %s\n",
         same_cpython < 0 ? "not checked" : same_cpython ? "yes" : "NO", cores,
         same_threads ? "yes" : "NO");
  if (rss.ok) {
    double in_mb = (double)rss.in_bytes / 1048576, out_mb = (double)rss.out_bytes / 1048576;
    double peak_mb = (double)rss.peak_kb / 1024, limit = 1.5 * (in_mb + out_mb) + 20;
    double tight = in_mb + out_mb + 20;
    printf("peak RSS (child: corpus + apply on all cores): %.1f MB (process at start %.1f MB); "
           "input %.1f MB + output %.1f MB\n  limit 1.5 x (in + out) + 20 MB = %.1f MB: %s; "
           "(in + out) + 20 MB = %.1f MB: %s\n",
           peak_mb, (double)rss.base_kb / 1024, in_mb, out_mb, limit,
           peak_mb <= limit ? "within" : "ABOVE", tight, peak_mb <= tight ? "within" : "ABOVE");
  } else {
    printf("peak RSS: not measured (child failed)\n");
  }
  printf("statistics after the run: alloc %" PRIu64 " free %" PRIu64 " mi_alloc %" PRIu64
         " mi_free %" PRIu64 ": %s\n",
         s1.alloc - s0.alloc, s1.free - s0.free, s1.mi_alloc - s0.mi_alloc,
         s1.mi_free - s0.mi_free,
         s1.alloc - s0.alloc == s1.free - s0.free && s1.mi_alloc - s0.mi_alloc == s1.mi_free - s0.mi_free
             ? "balanced" : "NOT BALANCED");
  return 0;
}

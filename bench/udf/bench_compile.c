/* Compile time against program size (issue 15): generated programs of 100 to 100,000 AST
 * nodes in five shapes (tests/udf/udf_programs.h): many statements, a long elif chain, one
 * long expression, nested calls (bounded by the parser at 190 levels), and many statements
 * of nested calls. For each size: the process CPU time of the median of RUNS compilations
 * (the machine may be shared: the fastest of them is a lucky outlier as often as not), its
 * split over the stages (front end, code generation with the pre-prune pipeline, refprune,
 * LLVM's optimisation pipeline, machine code; wall times of that run), and the growth per
 * 10x of nodes from the previous size, normalised to exactly
 * 10x: (t2/t1)^(1/log10(n2/n1)). Linear is 10x; the goal is at most 12x. Each compiled UDF is
 * called once and its result checked. The instructions after pruning and the tier chosen
 * (nrt/udf.h: NRT_UDF_QUICK_INSTRUCTIONS) are shown beside each size.
 * usage: bench_udf_compile [MAX_NODES [RUNS [FAMILY]]] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nrt/str.h"
#include "nrt/udf.h"
#include "udf/udf_programs.h"

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The expected result of family f with n units on the row "abc". */
static int check_result(enum udf_prog_family f, int n, const nrt_value *r) {
  char want[64];
  size_t wlen = 0;
  switch (f) {
  case UDF_PROG_STATEMENTS: wlen = 3 + (size_t)n; break; /* "abc" + n * "a" */
  case UDF_PROG_ELIF: wlen = (size_t)snprintf(want, sizeof want, "%s", n > 3 ? "3" : "abc"); break;
  case UDF_PROG_LONG: wlen = 3 * (size_t)n; break;
  case UDF_PROG_NEST: /* str(len(str(len(...)))): "1" once a len has seen a str of length 1 */
    wlen = (size_t)snprintf(want, sizeof want, "%s", n == 1 ? "abc" : n == 2 ? "3" : "1");
    break;
  case UDF_PROG_NEST_STMTS: wlen = (size_t)snprintf(want, sizeof want, "1"); break;
  default: return 0;
  }
  if (r->kind != NRT_VALUE_STR || r->as.str.len != (int64_t)wlen)
    return 0;
  if (f == UDF_PROG_ELIF || f == UDF_PROG_NEST || f == UDF_PROG_NEST_STMTS)
    return memcmp(r->as.str.data, want, wlen) == 0;
  return 1;
}

int main(int argc, char **argv) {
  int max_nodes = argc > 1 ? atoi(argv[1]) : 100000;
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  const char *only = argc > 3 ? argv[3] : NULL;
  if (max_nodes < 100 || runs < 1 || runs > 99) {
    fprintf(stderr, "usage: bench_udf_compile [MAX_NODES>=100 [RUNS 1..99 [FAMILY]]]\n");
    return 2;
  }
  static const int sizes[] = {100, 300, 1000, 3000, 10000, 30000, 100000, 300000, 1000000};
  printf("compile time against program size: median of %d runs, process CPU ms\n", runs);
  printf("%-11s %7s %7s %8s %5s %10s %9s %8s %9s %7s %9s %8s %10s\n", "family", "nodes",
         "units", "instrs", "tier", "cpu_ms", "us/node", "front", "codegen", "prune", "optimize",
         "jit", "per 10x");
  int worst_family = -1;
  double worst = 0;
  for (int f = 0; f < UDF_PROG_FAMILIES; f++) {
    if (only && strcmp(only, udf_prog_names[f]) != 0)
      continue;
    double prev_ms = 0;
    int prev_nodes = 0, prev_units = 0;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0] && sizes[k] <= max_nodes; k++) {
      int units = udf_prog_units((enum udf_prog_family)f, sizes[k]);
      if (units == prev_units)
        break; /* the family's maximum */
      size_t len = 0;
      char *src = udf_prog_source((enum udf_prog_family)f, units, &len);
      if (!src) {
        fprintf(stderr, "out of memory\n");
        return 1;
      }
      double times[99];
      struct nrt_udf_compile_info infos[99];
      for (int r = 0; r < runs; r++) {
        struct nrt_error err;
        memset(&err, 0, sizeof err);
        nrt_udf *u = NULL;
        double t0 = cpu_ms();
        int rc = nrt_udf_compile(src, len, NULL, &u, &err);
        double t = cpu_ms() - t0;
        if (rc != NRT_OK) {
          fprintf(stderr, "%s %d: %s\n", udf_prog_names[f], units, err.message);
          return 1;
        }
        times[r] = t;
        infos[r] = *nrt_udf_info(u);
        nrt_value arg, res;
        memset(&arg, 0, sizeof arg);
        arg.kind = NRT_VALUE_STR;
        arg.as.str.data = "abc";
        arg.as.str.len = 3;
        rc = nrt_udf_call(u, &arg, &res, &err);
        if (rc != NRT_OK || !check_result((enum udf_prog_family)f, units, &res)) {
          fprintf(stderr, "%s %d: wrong result\n", udf_prog_names[f], units);
          return 1;
        }
        nrt_str_release(&res.as.str);
        nrt_udf_free(u);
      }
      free(src);
      double sorted[99];
      memcpy(sorted, times, (size_t)runs * sizeof *times);
      qsort(sorted, (size_t)runs, sizeof *sorted, cmp_double);
      double median = sorted[runs / 2]; /* the median (the upper one of an even count) */
      struct nrt_udf_compile_info info = infos[0];
      for (int r = 0; r < runs; r++)
        if (times[r] == median)
          info = infos[r];
      int nodes = units * udf_prog_nodes_per_unit[f];
      char growth[32] = "";
      if (prev_nodes) {
        double g = pow(median / prev_ms, 1.0 / log10((double)nodes / prev_nodes));
        snprintf(growth, sizeof growth, "%.1fx", g);
        if (nodes >= 1000 && g > worst) {
          worst = g;
          worst_family = f;
        }
      }
      printf("%-11s %7d %7d %8zu %5s %10.1f %9.2f %8.1f %9.1f %7.1f %9.1f %8.1f %10s\n",
             udf_prog_names[f], nodes, units, info.instructions, info.quick ? "quick" : "O2",
             median, median * 1e3 / nodes, info.front_ms,
             info.codegen_ms, info.prune_ms, info.optimize_ms, info.jit_ms, growth);
      fflush(stdout);
      prev_ms = median;
      prev_nodes = nodes;
      prev_units = units;
    }
  }
  if (worst_family >= 0)
    printf("largest growth per 10x (from 1,000 nodes up): %.1fx (%s); goal <= 12x\n", worst,
           udf_prog_names[worst_family]);
  return 0;
}

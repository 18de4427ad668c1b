/* Compile time against program size (issue 15): generated programs of 100 to 100,000 AST
 * nodes in five shapes (tests/udf/udf_programs.h): many statements, a long elif chain, one
 * long expression, nested calls (bounded by the parser at 190 levels), and many statements
 * of nested calls.
 *
 * The machine may be shared, and another process's use of the caches and memory raises this
 * one's CPU time by up to a third at times, which swung a growth ratio by +-3x between runs
 * when each size was timed in its own stretch of time. So the sizes of a family are timed in
 * rounds, each round compiling every size once (the small ones several times: they are cheap),
 * and each size's time is the minimum process CPU time over its compilations (contention only
 * ever adds time; every size gets the same number of rounds).
 *
 * Beside each compile time, the floor: LLVM operations whose work is linear by construction
 * (compile_floor.h: verifying, writing bitcode, reading it back, cloning) over the module the
 * compiler hands to machine code generation, timed in the same rounds. On a machine whose
 * caches made linear work cost the same per node at every size the floor would grow 10x per
 * 10x of nodes; here it grows more as the modules leave the caches, and no compiler on LLVM
 * can grow slower than its module's floor.
 *
 * Columns: the instructions after pruning and the tier chosen (O2, quick, or huge: the quick
 * tier's form for a huge module; nrt/udf.h, NRT_UDF_QUICK_INSTRUCTIONS); cpu_ms and us/node;
 * the stages (front end, code generation with the pre-prune pipeline, refprune, LLVM's
 * optimisation pipeline, machine code: the minimum wall time of each over the runs); "per
 * 10x": the growth of cpu_ms per 10x of nodes, (t2/t1)^(1/log10(n2/n1)), from the size 10x
 * smaller (else from the previous size) compiled by the same tier (O2, or quick including
 * huge: O2 against quick is a cliff of some 4x), blank when there is none; linear is 10x and
 * the goal at most 12x; floor_ms and "floor 10x": the floor's time and its growth over the same
 * span; "rel 10x": the compiler's growth over the floor's (1.0: the compiler is as linear as
 * the machine allows). Each compiled UDF is called once and its result checked. After each
 * family, the growth of each floor operation over the sizes of the largest size's tier.
 * usage: bench_udf_compile [MAX_NODES [RUNS [FAMILY]]] */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compile_floor.h"
#include "nrt/str.h"
#include "nrt/udf.h"
#include "udf/udf_programs.h"

#define MAX_SAMPLES 99
static const int sizes[] = {100, 300, 1000, 3000, 10000, 30000, 100000, 300000, 1000000};
#define NSIZES (sizeof sizes / sizeof sizes[0])

/* One size of one family and what its rounds measured. */
struct row {
  int units, nodes, per_round;
  char *src;
  size_t len;
  struct floor_module *fm;
  int n;
  double ms[MAX_SAMPLES], floor_ms[MAX_SAMPLES], op_ms[FLOOR_OPS];
  struct nrt_udf_compile_info info, stage_min;
};

static double min_of(const double *v, int n) {
  double m = v[0];
  for (int i = 1; i < n; i++)
    m = v[i] < m ? v[i] : m;
  return m;
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

#define STAGE_MIN(field)                                                                    \
  s->stage_min.field = i->field < s->stage_min.field ? i->field : s->stage_min.field

/* One compilation of row s (timed), its call, then one timing of its floor. */
static int sample(enum udf_prog_family f, struct row *s) {
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  nrt_udf *u = NULL;
  double t0 = floor_cpu_ms();
  int rc = nrt_udf_compile(s->src, s->len, NULL, &u, &err);
  double t = floor_cpu_ms() - t0;
  if (rc != NRT_OK) {
    fprintf(stderr, "%s %d: %s\n", udf_prog_names[f], s->units, err.message);
    return -1;
  }
  const struct nrt_udf_compile_info *i = nrt_udf_info(u);
  if (s->n == 0) {
    s->info = *i;
    s->stage_min = *i;
  }
  STAGE_MIN(front_ms);
  STAGE_MIN(codegen_ms);
  STAGE_MIN(prune_ms);
  STAGE_MIN(optimize_ms);
  STAGE_MIN(jit_ms);
  nrt_value arg, res;
  memset(&arg, 0, sizeof arg);
  arg.kind = NRT_VALUE_STR;
  arg.as.str.data = "abc";
  arg.as.str.len = 3;
  rc = nrt_udf_call(u, &arg, &res, &err);
  if (rc != NRT_OK || !check_result(f, s->units, &res)) {
    fprintf(stderr, "%s %d: wrong result\n", udf_prog_names[f], s->units);
    nrt_udf_free(u);
    return -1;
  }
  nrt_str_release(&res.as.str);
  nrt_udf_free(u);
  double op[FLOOR_OPS], sum = 0;
  if (floor_module_time(s->fm, op))
    return -1;
  for (int k = 0; k < FLOOR_OPS; k++) {
    sum += op[k];
    s->op_ms[k] = s->n == 0 || op[k] < s->op_ms[k] ? op[k] : s->op_ms[k];
  }
  s->ms[s->n] = t;
  s->floor_ms[s->n] = sum;
  s->n++;
  return 0;
}

static double growth(double t1, double t2, int n1, int n2) {
  return pow(t2 / t1, 1.0 / log10((double)n2 / n1));
}

/* The quick tier's huge form counts as the quick tier: its cheaper pipeline is what a program
 * of that size gets. */
static int same_tier(const struct row *a, const struct row *b) {
  return a->info.quick == b->info.quick;
}

/* The row that row k's growth is measured from: 10x smaller, else the previous one, of the
 * same tier; -1 if none. */
static int base_row(const struct row *r, int k) {
  for (int j = k - 1; j >= 0; j--)
    if (same_tier(&r[j], &r[k]) && r[j].nodes * 10 <= r[k].nodes)
      return j;
  return k > 0 && same_tier(&r[k - 1], &r[k]) ? k - 1 : -1;
}

static void free_rows(struct row *r, int n) {
  for (int k = 0; k < n; k++) {
    free(r[k].src);
    floor_module_free(r[k].fm);
  }
}

/* Times family f up to max_nodes; updates *worst / *worst_rel (from 1,000 nodes up). */
static int run_family(enum udf_prog_family f, int max_nodes, int runs, double *worst,
                      int *worst_family, double *worst_rel) {
  struct row r[NSIZES];
  memset(r, 0, sizeof r);
  int nrows = 0;
  for (size_t k = 0; k < NSIZES && sizes[k] <= max_nodes; k++) {
    int units = udf_prog_units(f, sizes[k]);
    if (nrows && units == r[nrows - 1].units)
      break; /* the family's maximum */
    struct row *s = &r[nrows++];
    s->units = units;
    s->nodes = units * udf_prog_nodes_per_unit[f];
    /* Small programs are cheap: more samples (the same in every round). */
    s->per_round = sizes[k] <= 300    ? 8
                   : sizes[k] <= 1000  ? 5
                   : sizes[k] <= 3000  ? 3
                   : sizes[k] <= 10000 ? 2
                                       : 1;
    if (s->per_round * runs > MAX_SAMPLES)
      s->per_round = MAX_SAMPLES / runs;
    s->src = udf_prog_source(f, units, &s->len);
    s->fm = s->src ? floor_module_load(s->src, s->len) : NULL; /* also a warm-up */
    if (!s->fm) {
      fprintf(stderr, "%s %d: no module for the floor\n", udf_prog_names[f], units);
      free_rows(r, nrows);
      return -1;
    }
  }
  for (int round = 0; round < runs; round++)
    for (int k = 0; k < nrows; k++)
      for (int j = 0; j < r[k].per_round; j++)
        if (sample(f, &r[k])) {
          free_rows(r, nrows);
          return -1;
        }
  double ms[NSIZES], fl[NSIZES];
  for (int k = 0; k < nrows; k++) {
    struct row *s = &r[k];
    ms[k] = min_of(s->ms, s->n);
    fl[k] = min_of(s->floor_ms, s->n);
    char g[16] = "", fg[16] = "", rel[16] = "";
    int b = base_row(r, k);
    if (b >= 0) {
      double gc = growth(ms[b], ms[k], r[b].nodes, s->nodes);
      double gf = growth(fl[b], fl[k], r[b].nodes, s->nodes);
      snprintf(g, sizeof g, "%.1fx", gc);
      snprintf(fg, sizeof fg, "%.1fx", gf);
      snprintf(rel, sizeof rel, "%.2f", gc / gf);
      if (r[b].nodes >= 1000 && gc > *worst) {
        *worst = gc;
        *worst_family = f;
      }
      if (r[b].nodes >= 1000 && gc / gf > *worst_rel)
        *worst_rel = gc / gf;
    }
    const struct nrt_udf_compile_info *m = &s->stage_min;
    printf("%-11s %7d %7d %8zu %5s %10.1f %9.2f %8.1f %9.1f %7.1f %9.1f %8.1f %8s %9.1f %9s "
           "%7s\n",
           udf_prog_names[f], s->nodes, s->units, s->info.instructions,
           s->info.huge ? "huge" : s->info.quick ? "quick" : "O2", ms[k], ms[k] * 1e3 / s->nodes,
           m->front_ms, m->codegen_ms, m->prune_ms, m->optimize_ms, m->jit_ms, g, fl[k], fg, rel);
  }
  /* Each floor operation's growth over the largest tier's span. */
  int lo = -1, hi = nrows - 1;
  for (int k = 0; k < nrows && lo < 0; k++)
    if (same_tier(&r[k], &r[hi]) && r[k].nodes >= 1000)
      lo = k;
  if (lo >= 0 && hi > lo) {
    printf("%-11s floor operations per 10x, %d to %d nodes:", udf_prog_names[f], r[lo].nodes,
           r[hi].nodes);
    for (int op = 0; op < FLOOR_OPS; op++)
      printf(" %s %.1fx", floor_op_names[op],
             growth(r[lo].op_ms[op], r[hi].op_ms[op], r[lo].nodes, r[hi].nodes));
    printf("\n");
  }
  fflush(stdout);
  free_rows(r, nrows);
  return 0;
}

int main(int argc, char **argv) {
  int max_nodes = argc > 1 ? atoi(argv[1]) : 30000;
  int runs = argc > 2 ? atoi(argv[2]) : 5;
  const char *only = argc > 3 ? argv[3] : NULL;
  if (max_nodes < 100 || runs < 1 || runs > MAX_SAMPLES) {
    fprintf(stderr, "usage: bench_udf_compile [MAX_NODES>=100 [RUNS 1..99 [FAMILY]]]\n");
    return 2;
  }
  printf("compile time against program size: minimum process CPU ms over %d rounds "
         "(sizes interleaved; small sizes several times a round)\n", runs);
  printf("%-11s %7s %7s %8s %5s %10s %9s %8s %9s %7s %9s %8s %8s %9s %9s %7s\n", "family",
         "nodes", "units", "instrs", "tier", "cpu_ms", "us/node", "front", "codegen", "prune",
         "optimize", "jit", "per 10x", "floor_ms", "floor 10x", "rel 10x");
  int worst_family = -1;
  double worst = 0, worst_rel = 0;
  for (int f = 0; f < UDF_PROG_FAMILIES; f++) {
    if (only && strcmp(only, udf_prog_names[f]) != 0)
      continue;
    if (run_family((enum udf_prog_family)f, max_nodes, runs, &worst, &worst_family,
                   &worst_rel))
      return 1;
  }
  if (worst_family >= 0)
    printf("largest growth per 10x (from 1,000 nodes up): %.1fx (%s); goal <= 12x; "
           "largest relative to the floor: %.2f\n",
           worst, udf_prog_names[worst_family], worst_rel);
  return 0;
}

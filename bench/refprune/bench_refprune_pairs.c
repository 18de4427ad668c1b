/* refprune on one block of n incref/decref pairs (issue 15): the per-block sub-pass against
 * the number of pairs, from 1,000 to 1,000,000, in three orders of the decrefs: all on one
 * value ("same"), on n values released in the order taken ("fifo") or in reverse ("lifo").
 * Prints the thread CPU time of the pass (the fastest of RUNS, each on a freshly built
 * function), the time per pair, and the growth per 10x pairs (linear is 10x; the goal is at
 * most 12x). "walk" is one bare walk over the function's instructions before the pass, the
 * floor that grows as the function outgrows the caches; pass/walk shows the pass's own
 * scaling. Every pair must be removed. usage: bench_refprune_pairs [MAX_PAIRS [RUNS]] */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include <llvm-c/Core.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nrt/refprune.h"

enum shape { SAME, FIFO, LIFO, SHAPES };
static const char *const shape_names[SHAPES] = {"same", "fifo", "lifo"};

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* void @f(i8* %p, i8** %arr) with n increfs then n decrefs in its one block. */
static LLVMValueRef build(LLVMContextRef ctx, LLVMModuleRef m, enum shape s, int n) {
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef vt = LLVMVoidTypeInContext(ctx), i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ref_t = LLVMFunctionType(vt, &i8p, 1, 0);
  LLVMValueRef inc = LLVMAddFunction(m, "NRT_incref", ref_t);
  LLVMValueRef dec = LLVMAddFunction(m, "NRT_decref", ref_t);
  LLVMTypeRef params[2] = {i8p, LLVMPointerType(i8p, 0)};
  LLVMValueRef f = LLVMAddFunction(m, "f", LLVMFunctionType(vt, params, 2, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
  LLVMValueRef *v = malloc(sizeof *v * (size_t)n);
  if (!v) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  for (int i = 0; i < n; i++) {
    if (s == SAME) {
      v[i] = LLVMGetParam(f, 0);
      continue;
    }
    LLVMValueRef idx = LLVMConstInt(i64, (unsigned long long)i, 0);
    LLVMValueRef slot = LLVMBuildGEP2(b, i8p, LLVMGetParam(f, 1), &idx, 1, "");
    v[i] = LLVMBuildLoad2(b, i8p, slot, "");
  }
  for (int i = 0; i < n; i++)
    LLVMBuildCall2(b, ref_t, inc, &v[i], 1, "");
  for (int i = 0; i < n; i++)
    LLVMBuildCall2(b, ref_t, dec, &v[s == LIFO ? n - 1 - i : i], 1, "");
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  free(v);
  return f;
}

/* One walk over every instruction of f, as the pass's own walks go (its calls counted). */
static double walk_ms(LLVMValueRef f, size_t *calls) {
  double t0 = cpu_ms();
  *calls = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      *calls += LLVMIsACallInst(i) != NULL;
  return cpu_ms() - t0;
}

int main(int argc, char **argv) {
  int max_pairs = argc > 1 ? atoi(argv[1]) : 1000000;
  int runs = argc > 2 ? atoi(argv[2]) : 3;
  if (max_pairs < 1000 || runs < 1) {
    fprintf(stderr, "usage: bench_refprune_pairs [MAX_PAIRS>=1000 [RUNS>=1]]\n");
    return 2;
  }
  printf("refprune, n pairs in one block: thread CPU ms of the pass, min of %d runs\n", runs);
  printf("%-6s %9s %10s %10s %9s %9s %9s\n", "order", "pairs", "ms", "ns/pair", "per 10x",
         "walk_ms", "pass/walk");
  double worst = 0;
  for (int s = 0; s < SHAPES; s++) {
    double prev = 0;
    for (int n = 1000; n <= max_pairs; n *= 10) {
      double best = 1e300, walk = 1e300;
      for (int r = 0; r < runs; r++) {
        LLVMContextRef ctx = LLVMContextCreate();
        LLVMModuleRef m = LLVMModuleCreateWithNameInContext("pairs", ctx);
        LLVMValueRef f = build(ctx, m, (enum shape)s, n);
        size_t calls = 0;
        double w = walk_ms(f, &calls);
        if (w < walk)
          walk = w;
        if (calls != 2 * (size_t)n) {
          fprintf(stderr, "%s %d: built %zu refops\n", shape_names[s], n, calls);
          return 1;
        }
        struct nrt_refprune_stats st;
        memset(&st, 0, sizeof st);
        struct nrt_error err;
        memset(&err, 0, sizeof err);
        double t0 = cpu_ms();
        int rc = nrt_refprune_function(f, NULL, &st, &err);
        double t = cpu_ms() - t0;
        if (rc != NRT_OK || st.per_bb != (size_t)n) {
          fprintf(stderr, "%s %d: removed %zu pairs of %d (%s)\n", shape_names[s], n, st.per_bb,
                  n, rc ? err.message : "ok");
          return 1;
        }
        if (t < best)
          best = t;
        LLVMDisposeModule(m);
        LLVMContextDispose(ctx);
      }
      char growth[16] = "";
      if (prev > 0) {
        double g = best / prev;
        snprintf(growth, sizeof growth, "%.1fx", g);
        if (g > worst)
          worst = g;
      }
      printf("%-6s %9d %10.2f %10.1f %9s %9.2f %9.1f\n", shape_names[s], n, best,
             best * 1e6 / n, growth, walk, best / (walk > 0 ? walk : 1e-3));
      fflush(stdout);
      prev = best;
    }
  }
  printf("largest growth per 10x pairs: %.1fx; goal <= 12x\n", worst);
  return 0;
}

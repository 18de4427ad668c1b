/* See compile_floor.h. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, open_memstream */
#include "compile_floor.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>

const char *const floor_op_names[FLOOR_OPS] = {"walk", "verify", "write_bc", "read_bc",
                                                 "clone"};

struct floor_module {
  LLVMContextRef ctx;
  LLVMModuleRef m;
};

double floor_cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* The IR text after the last stage that nrt_udf_compile prints. */
static const char AFTER_OPT[] = "; ===== after optimisation =====\n";

struct floor_module *floor_module_load(const char *src, size_t len) {
  char *text = NULL;
  size_t tlen = 0;
  FILE *f = open_memstream(&text, &tlen);
  if (!f) {
    fprintf(stderr, "floor: out of memory\n");
    return NULL;
  }
  struct nrt_udf_options o;
  memset(&o, 0, sizeof o);
  o.nparams = 1;
  o.emit_llvm = true;
  o.emit_stream = f;
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  nrt_udf *u = NULL;
  int rc = nrt_udf_compile(src, len, &o, &u, &err);
  nrt_udf_free(u);
  fclose(f);
  const char *ir = rc == NRT_OK && text ? strstr(text, AFTER_OPT) : NULL;
  if (!ir) {
    fprintf(stderr, "floor: no optimised IR (%s)\n", rc ? err.message : "not printed");
    free(text);
    return NULL;
  }
  ir += sizeof AFTER_OPT - 1;
  /* The text is parsed with its local names, which a context that discards them (as the
   * compiler's does) cannot read; through bitcode into such a context they are dropped. */
  struct floor_module *fm = calloc(1, sizeof *fm);
  LLVMContextRef named = LLVMContextCreate();
  LLVMModuleRef m = NULL;
  char *msg = NULL;
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), "floor");
  if (LLVMParseIRInContext(named, buf, &m, &msg)) { /* takes buf */
    fprintf(stderr, "floor: %s\n", msg ? msg : "bad IR");
    LLVMDisposeMessage(msg);
    m = NULL;
  }
  LLVMMemoryBufferRef bc = m ? LLVMWriteBitcodeToMemoryBuffer(m) : NULL;
  if (m)
    LLVMDisposeModule(m);
  LLVMContextDispose(named);
  if (fm && bc) {
    fm->ctx = LLVMContextCreate();
    LLVMContextSetDiscardValueNames(fm->ctx, 1);
    if (LLVMParseBitcodeInContext2(fm->ctx, bc, &fm->m))
      fm->m = NULL;
  }
  if (bc)
    LLVMDisposeMemoryBuffer(bc);
  if (fm && !fm->m) {
    fprintf(stderr, "floor: the module does not read back\n");
    floor_module_free(fm);
    fm = NULL;
  }
  free(text);
  return fm;
}

/* Reads every instruction's operands; the sum keeps the loop from being optimised away. */
static size_t walk(LLVMModuleRef m) {
  size_t sum = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        int n = LLVMGetNumOperands(i);
        for (int k = 0; k < n; k++)
          sum += (size_t)LLVMGetOperand(i, (unsigned)k);
      }
  return sum;
}

int floor_module_time(struct floor_module *fm, double ms[FLOOR_OPS]) {
  double t = floor_cpu_ms();
  volatile size_t sink = walk(fm->m);
  (void)sink;
  ms[FLOOR_WALK] = floor_cpu_ms() - t;
  char *msg = NULL;
  t = floor_cpu_ms();
  int bad = LLVMVerifyModule(fm->m, LLVMReturnStatusAction, &msg);
  ms[FLOOR_VERIFY] = floor_cpu_ms() - t;
  LLVMDisposeMessage(msg);
  if (bad) {
    fprintf(stderr, "floor: the module does not verify\n");
    return -1;
  }
  t = floor_cpu_ms();
  LLVMMemoryBufferRef bc = LLVMWriteBitcodeToMemoryBuffer(fm->m);
  ms[FLOOR_WRITE_BC] = floor_cpu_ms() - t;
  t = floor_cpu_ms();
  LLVMModuleRef back = NULL;
  bad = LLVMParseBitcodeInContext2(fm->ctx, bc, &back);
  if (!bad)
    LLVMDisposeModule(back);
  ms[FLOOR_READ_BC] = floor_cpu_ms() - t;
  LLVMDisposeMemoryBuffer(bc);
  if (bad) {
    fprintf(stderr, "floor: the bitcode does not read back\n");
    return -1;
  }
  t = floor_cpu_ms();
  LLVMModuleRef copy = LLVMCloneModule(fm->m);
  LLVMDisposeModule(copy);
  ms[FLOOR_CLONE] = floor_cpu_ms() - t;
  return 0;
}

void floor_module_free(struct floor_module *fm) {
  if (!fm)
    return;
  if (fm->m)
    LLVMDisposeModule(fm->m);
  LLVMContextDispose(fm->ctx);
  free(fm);
}

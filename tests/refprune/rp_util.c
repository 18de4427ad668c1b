#include "rp_util.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <string.h>

#include "nrt/core.h"

LLVMModuleRef rp_test_parse(LLVMContextRef ctx, const char *text, size_t len) {
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(text, len, "input");
  LLVMModuleRef mod = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
    fprintf(stderr, "parse error: %s\n", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  return mod;
}

LLVMModuleRef rp_test_load(LLVMContextRef ctx, const char *path) {
  LLVMMemoryBufferRef buf = NULL;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
    fprintf(stderr, "%s: %s\n", path, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  LLVMModuleRef mod = NULL;
  if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
    fprintf(stderr, "%s: %s\n", path, msg ? msg : "?");
    LLVMDisposeMessage(msg);
    return NULL;
  }
  return mod;
}

char *rp_test_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  fseek(f, 0, SEEK_SET);
  char *text = size >= 0 ? nrt_allocate((size_t)size + 1, NULL) : NULL;
  if (text && fread(text, 1, (size_t)size, f) != (size_t)size) {
    nrt_free(text, (size_t)size + 1);
    text = NULL;
  }
  fclose(f);
  if (text) {
    text[size] = '\0';
    *len = (size_t)size;
  }
  return text;
}

void rp_test_free_file(char *text, size_t len) { nrt_free(text, len + 1); }

int rp_test_refop_kind(LLVMValueRef inst) {
  if (!LLVMIsACallInst(inst))
    return 0;
  LLVMValueRef callee = LLVMGetCalledValue(inst);
  if (!callee || !LLVMIsAFunction(callee))
    return 0;
  size_t len = 0;
  const char *name = LLVMGetValueName2(callee, &len);
  if (strcmp(name, "NRT_incref") == 0 || strcmp(name, "nrt_mi_incref") == 0 ||
      strcmp(name, "nrt_mi_incref_local") == 0)
    return 1;
  if (strcmp(name, "NRT_decref") == 0 || strcmp(name, "nrt_mi_decref") == 0 ||
      strcmp(name, "nrt_mi_decref_local") == 0)
    return -1;
  return 0;
}

void rp_test_count_block(LLVMBasicBlockRef bb, int *inc, int *dec) {
  *inc = *dec = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    int k = rp_test_refop_kind(i);
    *inc += k > 0;
    *dec += k < 0;
  }
}

size_t rp_test_count_module(LLVMModuleRef mod) {
  size_t n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(mod); fn; fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
      int inc, dec;
      rp_test_count_block(bb, &inc, &dec);
      n += (size_t)(inc + dec);
    }
  return n;
}

int rp_test_verify(LLVMModuleRef mod, const char *what) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg);
  if (bad)
    fprintf(stderr, "%s: verifier: %s\n", what, msg ? msg : "?");
  LLVMDisposeMessage(msg);
  return !bad;
}

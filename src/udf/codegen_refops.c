/* After pruning: counting the refcount calls left in a module, and replacing them by inline
 * IR (an add on the count at offset 0; nrt_mi_destroy at zero) so the optimiser sees them. */
#include <stdbool.h>
#include <string.h>

#include "udf/codegen_refops.h"

static bool is_refop_call(LLVMValueRef inst, LLVMValueRef inc, LLVMValueRef dec) {
  if (!LLVMIsACallInst(inst))
    return false;
  LLVMValueRef callee = LLVMGetCalledValue(inst);
  return callee && (callee == inc || callee == dec);
}

size_t udf_count_refops(LLVMModuleRef m) {
  LLVMValueRef inc = LLVMGetNamedFunction(m, "nrt_mi_incref_local");
  LLVMValueRef dec = LLVMGetNamedFunction(m, "nrt_mi_decref_local");
  size_t n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (is_refop_call(i, inc, dec))
          n++;
  return n;
}

/* define internal void @name(i8* %mi): if (mi) { refct += delta; if (delta < 0 && !refct)
 * nrt_mi_destroy(mi) } */
static LLVMValueRef define_inline(LLVMModuleRef m, const char *name, int delta) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef vt = LLVMVoidTypeInContext(ctx);
  LLVMTypeRef fty = LLVMFunctionType(vt, &i8p, 1, 0);
  LLVMValueRef f = LLVMAddFunction(m, name, fty);
  LLVMSetLinkage(f, LLVMInternalLinkage);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(ctx, f, "entry");
  LLVMBasicBlockRef live = LLVMAppendBasicBlockInContext(ctx, f, "live");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(ctx, f, "done");
  LLVMValueRef mi = LLVMGetParam(f, 0);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, mi, ""), done, live);
  LLVMPositionBuilderAtEnd(b, live);
  LLVMValueRef p = LLVMBuildBitCast(b, mi, LLVMPointerType(i64, 0), "");
  LLVMValueRef n = LLVMBuildLoad2(b, i64, p, "refct");
  n = LLVMBuildAdd(b, n, LLVMConstInt(i64, (unsigned long long)(long long)delta, 1), "");
  LLVMBuildStore(b, n, p);
  if (delta < 0) {
    LLVMBasicBlockRef dead = LLVMAppendBasicBlockInContext(ctx, f, "dead");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, n, LLVMConstInt(i64, 0, 0), ""), dead, done);
    LLVMPositionBuilderAtEnd(b, dead);
    LLVMValueRef destroy = LLVMGetNamedFunction(m, "nrt_mi_destroy");
    if (!destroy)
      destroy = LLVMAddFunction(m, "nrt_mi_destroy", fty);
    LLVMBuildCall2(b, fty, destroy, &mi, 1, "");
    LLVMBuildBr(b, done);
  } else {
    LLVMBuildBr(b, done);
  }
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

void udf_inline_refops(LLVMModuleRef m) {
  LLVMValueRef inc = LLVMGetNamedFunction(m, "nrt_mi_incref_local");
  LLVMValueRef dec = LLVMGetNamedFunction(m, "nrt_mi_decref_local");
  if (inc) {
    LLVMValueRef f = define_inline(m, "udf.incref", 1);
    LLVMReplaceAllUsesWith(inc, f);
    LLVMDeleteFunction(inc);
  }
  if (dec) {
    LLVMValueRef f = define_inline(m, "udf.decref", -1);
    LLVMReplaceAllUsesWith(dec, f);
    LLVMDeleteFunction(dec);
  }
}

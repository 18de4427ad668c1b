/* JIT smoke test: build a tiny module by hand, optimise it, JIT it, call it; a runtime symbol
 * bound by address and a libc symbol resolved from the process are both reached. */
#include <string.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>

#include "support/check.h"
#include "udf/jit.h"

static int64_t twice(int64_t x) { return 2 * x; }

static LLVMModuleRef build(LLVMContextRef ctx) {
  LLVMModuleRef m = LLVMModuleCreateWithNameInContext("smoke", ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef ptr = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef fty = LLVMFunctionType(i64, &i64, 1, 0);
  LLVMValueRef ext = LLVMAddFunction(m, "smoke_twice", fty);
  LLVMTypeRef strlen_ty = LLVMFunctionType(i64, &ptr, 1, 0);
  LLVMValueRef strlen_fn = LLVMAddFunction(m, "strlen", strlen_ty);
  LLVMValueRef f = LLVMAddFunction(m, "smoke_main", fty);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
  LLVMValueRef arg = LLVMGetParam(f, 0);
  LLVMValueRef t = LLVMBuildCall2(b, fty, ext, &arg, 1, "t");
  LLVMValueRef s = LLVMBuildGlobalStringPtr(b, "abcde", "s");
  LLVMValueRef n = LLVMBuildCall2(b, strlen_ty, strlen_fn, &s, 1, "n");
  LLVMBuildRet(b, LLVMBuildAdd(b, t, n, "r"));
  LLVMDisposeBuilder(b);
  return m;
}

int main(void) {
  struct nrt_error err = {0};
  struct nrt_stats before;
  nrt_stats_get(&before);
  struct nrt_udf_symbol syms[] = {{"smoke_twice", (void *)twice}};
  struct nrt_udf_jit *jit = NULL;
  CHECK_EQ_INT(nrt_udf_jit_create(syms, 1, &jit, &err), NRT_OK);
  LLVMModuleRef m = build(nrt_udf_jit_context(jit));
  char *msg = NULL;
  CHECK(!LLVMVerifyModule(m, LLVMReturnStatusAction, &msg));
  LLVMDisposeMessage(msg);
  LLVMTargetMachineRef tm = nrt_udf_host_machine(&err);
  CHECK(tm != NULL);
  CHECK_EQ_INT(nrt_udf_optimize(m, tm, "default<O2>", &err), NRT_OK);
  /* A bad pipeline is an error, not a crash. */
  CHECK(nrt_udf_optimize(m, tm, "no-such-pass", &err) != NRT_OK);
  CHECK(strstr(err.message, "no-such-pass") != NULL);
  LLVMDisposeTargetMachine(tm);
  CHECK_EQ_INT(nrt_udf_jit_add_module(jit, m, &err), NRT_OK);
  int64_t (*fn)(int64_t) = (int64_t(*)(int64_t))nrt_udf_jit_lookup(jit, "smoke_main", &err);
  CHECK(fn != NULL);
  if (fn) {
    CHECK_EQ_INT(fn(20), 45);
    CHECK_EQ_INT(fn(-3), -1);
  }
  CHECK(nrt_udf_jit_lookup(jit, "no_such_function", &err) == NULL);
  CHECK(err.message[0] != 0);
  nrt_udf_jit_free(jit);
  struct nrt_stats after;
  nrt_stats_get(&after);
  CHECK_EQ_INT(after.alloc - before.alloc, after.free - before.free);
  return check_finish("test_udf_jit");
}

/* ORC LLJIT and the optimisation pipeline through LLVM 14's C API (see jit.h). */
#include "udf/jit.h"

#include <pthread.h>
#include <string.h>

#include <llvm-c/Error.h>
#include <llvm-c/LLJIT.h>
#include <llvm-c/Orc.h>
#include <llvm-c/OrcEE.h>
#include <llvm-c/Target.h>
#include <llvm-c/Transforms/PassBuilder.h>

/* The LLJIT itself is made when the module comes (nrt_udf_jit_add_module), with the machine
 * code level chosen for it; the context exists from the start, for code generation. */
struct nrt_udf_jit {
  LLVMOrcLLJITRef lljit;
  LLVMOrcThreadSafeContextRef tsctx;
  struct nrt_udf_symbol *syms;
  size_t nsyms;
};

static pthread_once_t llvm_once = PTHREAD_ONCE_INIT;

static void llvm_init_once(void) {
  LLVMInitializeNativeTarget();
  LLVMInitializeNativeAsmPrinter();
  LLVMInitializeNativeAsmParser();
}

void nrt_udf_llvm_init(void) { pthread_once(&llvm_once, llvm_init_once); }

/* Moves an LLVM error's message into err and disposes of it. */
static int take_error(LLVMErrorRef e, const char *what, struct nrt_error *err) {
  char *msg = LLVMGetErrorMessage(e);
  int rc = nrt_error_set(err, NRT_EINVAL, "%s: %s", what, msg ? msg : "unknown LLVM error");
  LLVMDisposeErrorMessage(msg);
  return rc;
}

LLVMTargetMachineRef nrt_udf_host_machine(LLVMCodeGenOptLevel level, struct nrt_error *err) {
  nrt_udf_llvm_init();
  char *triple = LLVMGetDefaultTargetTriple();
  char *cpu = LLVMGetHostCPUName();
  char *features = LLVMGetHostCPUFeatures();
  LLVMTargetRef target = NULL;
  char *msg = NULL;
  LLVMTargetMachineRef tm = NULL;
  if (LLVMGetTargetFromTriple(triple, &target, &msg)) {
    nrt_error_set(err, NRT_EINVAL, "no LLVM target for %s: %s", triple, msg ? msg : "");
    LLVMDisposeMessage(msg);
  } else {
    tm = LLVMCreateTargetMachine(target, triple, cpu, features, level, LLVMRelocDefault,
                                 LLVMCodeModelJITDefault);
    if (!tm)
      nrt_error_set(err, NRT_EINVAL, "cannot create an LLVM target machine for %s", triple);
  }
  LLVMDisposeMessage(triple);
  LLVMDisposeMessage(cpu);
  LLVMDisposeMessage(features);
  return tm;
}

int nrt_udf_optimize(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *pipeline,
                     struct nrt_error *err) {
  char *triple = LLVMGetTargetMachineTriple(tm);
  LLVMSetTarget(m, triple);
  LLVMDisposeMessage(triple);
  LLVMTargetDataRef td = LLVMCreateTargetDataLayout(tm);
  char *layout = LLVMCopyStringRepOfTargetData(td);
  LLVMSetDataLayout(m, layout);
  LLVMDisposeMessage(layout);
  LLVMDisposeTargetData(td);
  LLVMPassBuilderOptionsRef opts = LLVMCreatePassBuilderOptions();
  /* No SLP vectoriser: UDF code is calls and branches, and on a long chain of writes its
   * element-size walks are quadratic in the number of blocks. */
  LLVMPassBuilderOptionsSetSLPVectorization(opts, 0);
  LLVMErrorRef e = LLVMRunPasses(m, pipeline, tm, opts);
  LLVMDisposePassBuilderOptions(opts);
  if (e)
    return take_error(e, "LLVM optimisation pipeline", err);
  return NRT_OK;
}

/* Binds the runtime entry points by name to their addresses in this process. */
static int define_symbols(struct nrt_udf_jit *jit, const struct nrt_udf_symbol *syms, size_t n,
                          struct nrt_error *err) {
  if (n == 0)
    return NRT_OK;
  LLVMJITCSymbolMapPair *pairs = nrt_allocate(n * sizeof *pairs, err);
  if (!pairs)
    return NRT_ENOMEM;
  for (size_t i = 0; i < n; i++) {
    pairs[i].Name = LLVMOrcLLJITMangleAndIntern(jit->lljit, syms[i].name);
    pairs[i].Sym.Address = (LLVMOrcExecutorAddress)(uintptr_t)syms[i].addr;
    pairs[i].Sym.Flags.GenericFlags =
        LLVMJITSymbolGenericFlagsExported | LLVMJITSymbolGenericFlagsCallable;
    pairs[i].Sym.Flags.TargetFlags = 0;
  }
  LLVMOrcMaterializationUnitRef mu = LLVMOrcAbsoluteSymbols(pairs, n);
  nrt_free(pairs, n * sizeof *pairs);
  LLVMOrcJITDylibRef jd = LLVMOrcLLJITGetMainJITDylib(jit->lljit);
  LLVMErrorRef e = LLVMOrcJITDylibDefine(jd, mu);
  if (e) {
    LLVMOrcDisposeMaterializationUnit(mu);
    return take_error(e, "defining runtime symbols", err);
  }
  return NRT_OK;
}

int nrt_udf_jit_create(const struct nrt_udf_symbol *syms, size_t n, struct nrt_udf_jit **out,
                       struct nrt_error *err) {
  *out = NULL;
  nrt_udf_llvm_init();
  struct nrt_udf_jit *jit = nrt_allocate(sizeof *jit, err);
  if (!jit)
    return NRT_ENOMEM;
  memset(jit, 0, sizeof *jit);
  if (n) {
    jit->syms = nrt_allocate(n * sizeof *syms, err);
    if (!jit->syms) {
      nrt_free(jit, sizeof *jit);
      return NRT_ENOMEM;
    }
    memcpy(jit->syms, syms, n * sizeof *syms);
    jit->nsyms = n;
  }
  jit->tsctx = LLVMOrcCreateNewThreadSafeContext();
  *out = jit;
  return NRT_OK;
}

/* Makes the LLJIT, its machine code at `level`. */
static int make_lljit(struct nrt_udf_jit *jit, LLVMCodeGenOptLevel level, struct nrt_error *err) {
  LLVMTargetMachineRef tm = nrt_udf_host_machine(level, err);
  if (!tm)
    return NRT_EINVAL;
  LLVMOrcLLJITBuilderRef builder = LLVMOrcCreateLLJITBuilder();
  /* Both consume what they are given: tm by the machine builder, that by the builder. */
  LLVMOrcLLJITBuilderSetJITTargetMachineBuilder(
      builder, LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine(tm));
  LLVMErrorRef e = LLVMOrcCreateLLJIT(&jit->lljit, builder); /* consumes builder */
  if (e) {
    jit->lljit = NULL;
    return take_error(e, "creating the LLJIT", err);
  }
  /* memcpy, memset and libm calls that LLVM emits resolve against the process. */
  LLVMOrcDefinitionGeneratorRef gen = NULL;
  e = LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
      &gen, LLVMOrcLLJITGetGlobalPrefix(jit->lljit), NULL, NULL);
  if (e)
    return take_error(e, "creating the process symbol generator", err);
  LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(jit->lljit), gen);
  return define_symbols(jit, jit->syms, jit->nsyms, err);
}

LLVMContextRef nrt_udf_jit_context(struct nrt_udf_jit *jit) {
  return LLVMOrcThreadSafeContextGetContext(jit->tsctx);
}

int nrt_udf_jit_add_module(struct nrt_udf_jit *jit, LLVMModuleRef m, LLVMCodeGenOptLevel level,
                           struct nrt_error *err) {
  if (jit->lljit) {
    LLVMDisposeModule(m);
    return nrt_error_set(err, NRT_EINVAL, "internal error: a second module for one JIT");
  }
  int rc = make_lljit(jit, level, err);
  if (rc) {
    LLVMDisposeModule(m);
    return rc;
  }
  LLVMOrcThreadSafeModuleRef tsm = LLVMOrcCreateNewThreadSafeModule(m, jit->tsctx);
  LLVMErrorRef e =
      LLVMOrcLLJITAddLLVMIRModule(jit->lljit, LLVMOrcLLJITGetMainJITDylib(jit->lljit), tsm);
  if (e) {
    LLVMOrcDisposeThreadSafeModule(tsm);
    return take_error(e, "adding the module to the JIT", err);
  }
  return NRT_OK;
}

void *nrt_udf_jit_lookup(struct nrt_udf_jit *jit, const char *name, struct nrt_error *err) {
  LLVMOrcExecutorAddress addr = 0;
  LLVMErrorRef e = LLVMOrcLLJITLookup(jit->lljit, &addr, name);
  if (e) {
    take_error(e, "JIT lookup", err);
    return NULL;
  }
  return (void *)(uintptr_t)addr;
}

void nrt_udf_jit_free(struct nrt_udf_jit *jit) {
  if (!jit)
    return;
  if (jit->lljit) {
    LLVMErrorRef e = LLVMOrcDisposeLLJIT(jit->lljit);
    if (e)
      LLVMConsumeError(e);
  }
  if (jit->tsctx)
    LLVMOrcDisposeThreadSafeContext(jit->tsctx);
  nrt_free(jit->syms, jit->nsyms * sizeof *jit->syms);
  nrt_free(jit, sizeof *jit);
}

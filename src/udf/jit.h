/* The UDF engine's JIT: LLVM 14's ORC LLJIT through the C API, plus the optimisation pipeline.
 *
 * Internal to libnrt (hidden symbols). One nrt_udf_jit holds one compiled module; the runtime
 * entry points the module calls are bound by name to absolute addresses given by the caller,
 * and anything else (memcpy, memset, libm) resolves against the running process. */
#ifndef NRT_UDF_JIT_H
#define NRT_UDF_JIT_H

#include <llvm-c/Core.h>
#include <llvm-c/TargetMachine.h>

#include "nrt/core.h"

/* One name bound to one address in the JIT (a runtime entry point). */
struct nrt_udf_symbol {
  const char *name;
  void *addr;
};

struct nrt_udf_jit;

/* Initialises LLVM's native target once per process (thread-safe). */
void nrt_udf_llvm_init(void);

/* A target machine for the host CPU generating code at `level` (for the data layout, the
 * optimisation pipeline and machine code), or NULL with err filled. Dispose with
 * LLVMDisposeTargetMachine. */
LLVMTargetMachineRef nrt_udf_host_machine(LLVMCodeGenOptLevel level, struct nrt_error *err);

/* Sets the host triple and data layout on `m` and runs LLVM's new-pass-manager pipeline
 * `pipeline` (e.g. "default<O2>") over it. Returns NRT_OK or NRT_EINVAL with LLVM's message. */
int nrt_udf_optimize(LLVMModuleRef m, LLVMTargetMachineRef tm, const char *pipeline,
                     struct nrt_error *err);

/* Creates a JIT that resolves `syms` (n of them; the array is copied, the names must outlive
 * the JIT) and the process's own symbols. Its LLJIT is made by nrt_udf_jit_add_module. */
int nrt_udf_jit_create(const struct nrt_udf_symbol *syms, size_t n, struct nrt_udf_jit **out,
                       struct nrt_error *err);

/* Hands module `m`, the JIT's one module, to it, to become machine code at `level`; `m` must
 * live in a context from nrt_udf_jit_context() and is owned by the JIT afterwards (also on
 * failure). */
int nrt_udf_jit_add_module(struct nrt_udf_jit *jit, LLVMModuleRef m, LLVMCodeGenOptLevel level,
                           struct nrt_error *err);

/* The context modules for this JIT must be created in (owned by the JIT). */
LLVMContextRef nrt_udf_jit_context(struct nrt_udf_jit *jit);

/* Compiles (on first use) and returns the address of function `name`, or NULL with err. */
void *nrt_udf_jit_lookup(struct nrt_udf_jit *jit, const char *name, struct nrt_error *err);

/* Releases the JIT and all code it compiled. NULL is ignored. */
void nrt_udf_jit_free(struct nrt_udf_jit *jit);

#endif /* NRT_UDF_JIT_H */

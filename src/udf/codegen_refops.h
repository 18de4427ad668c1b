/* Refcount calls in an emitted module: counting them, and inlining those left after pruning.
 * Internal to libnrt. */
#ifndef NRT_UDF_CODEGEN_REFOPS_H
#define NRT_UDF_CODEGEN_REFOPS_H

#include <stddef.h>

#include <llvm-c/Core.h>

/* Calls to nrt_mi_incref_local / nrt_mi_decref_local in the module. */
size_t udf_count_refops(LLVMModuleRef m);

/* Replaces those calls by internal IR functions doing the same (non-atomic add on the count,
 * nrt_mi_destroy at zero), so the optimiser can inline them. Run after pruning. */
void udf_inline_refops(LLVMModuleRef m);

#endif

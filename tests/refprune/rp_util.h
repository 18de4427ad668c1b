/* Helpers shared by refprune's tests: loading IR, counting refops per block. */
#ifndef NRT_TESTS_RP_UTIL_H
#define NRT_TESTS_RP_UTIL_H

#include <llvm-c/Core.h>
#include <stddef.h>

/* Parses textual or bitcode IR from a file into a new module of ctx; NULL on failure (the
 * reason printed to stderr). */
LLVMModuleRef rp_test_load(LLVMContextRef ctx, const char *path);
/* Parses IR text; NULL on failure. */
LLVMModuleRef rp_test_parse(LLVMContextRef ctx, const char *text, size_t len);
/* Reads a whole file into a NUL-terminated nrt_allocate'd buffer (*len bytes); NULL on error. */
char *rp_test_read_file(const char *path, size_t *len);
void rp_test_free_file(char *text, size_t len);
/* Whether the call instruction calls a function whose name starts with `incref`/`decref`
 * names of nrt and Numba: 1 incref, -1 decref, 0 other. */
int rp_test_refop_kind(LLVMValueRef inst);
/* Counts refops in a block. */
void rp_test_count_block(LLVMBasicBlockRef bb, int *inc, int *dec);
/* Total refops in a module. */
size_t rp_test_count_module(LLVMModuleRef mod);
/* Whether the module passes the LLVM verifier; prints the message when it does not. */
int rp_test_verify(LLVMModuleRef mod, const char *what);

#endif

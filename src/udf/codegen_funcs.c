/* The recursion limit of helper functions: every function takes the depth of the calls it is
 * nested in (the entry 0, a call one more than its caller); a function in a cycle of calls
 * raises RecursionError on entry past the limit, as CPython does, instead of running out of
 * the thread's stack. */
#include "udf/codegen_internal.h"

/* CPython's default sys.getrecursionlimit(), counting the frame of the module that calls the
 * entry: the entry is frame 2, so a call at depth d is frame d + 2. A frame of a UDF function
 * takes a few hundred bytes: 1000 of them fit a 512 KiB stack (glibc's default for threads is
 * 8 MiB). */
enum { UDF_RECURSION_LIMIT = 1000 };

void cg_check_depth(cg *c, const udf_func *f) {
  if (!f->recursive)
    return;
  LLVMValueRef over =
      LLVMBuildICmp(c->b, LLVMIntSGT, c->depth, cg_i32(c, UDF_RECURSION_LIMIT - 2), "deep");
  cg_check_bool_fail(c, over, NRT_ERECURSION, "maximum recursion depth exceeded");
}

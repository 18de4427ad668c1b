/* Lowering of a checked UDF module (ast.h) to LLVM IR with naive reference counting.
 *
 * Internal to libnrt. The emitted module follows DESIGN.md's rule of the compiler: every new
 * binding of a string or list increfs it, every binding that dies or is overwritten decrefs
 * it, every temporary is decref'd after its last use, and every path that raises releases the
 * live references before returning the status. The refcount operations are calls to
 * nrt_mi_incref_local / nrt_mi_decref_local (NULL-safe, so borrowed strings need no branch);
 * refprune removes the redundant ones afterwards.
 *
 * Representation in compiled code:
 *   bool i1, int i64, float double,
 *   str  %nrt_str = { i8* mi, i8* data, i64 len } (nrt/str.h; mi NULL: borrowed; data NULL:
 *        None for a nullable str),
 *   list/tuple of str: i8*, the MemInfo of an nrt_str_list (NULL: None),
 *   nullable bool/int/float: { T, i1 present }.
 * Each function of the module becomes an internal function
 *   i32 @"udf.NAME"(i8* err, params..., T* result)
 * returning NRT_OK or the raised status (message in *err); the entry is wrapped in
 *   i32 @nrt_udf_row(i8* ctx, nrt_value* args, nrt_value* result, nrt_error* err)
 * with the nrt_row_fn signature of nrt/exec.h. An entry whose result is str (or str | None)
 * is also emitted in its write form
 *   i32 @"udf.NAME.write"(i8* err, params..., i8* writer)
 * where every `return e` writes e's bytes into the row writer (nrt_col_row_writer) instead of
 * making a result string, wrapped in
 *   i32 @nrt_udf_row_write(i8* ctx, nrt_value* args, i8* writer, nrt_error* err)
 * with the nrt_row_write_fn signature; an entry of one str parameter also in the loop form
 *   i32 @nrt_udf_rows_write(i8* ctx, nrt_rows_batch* batch, i8* writer, nrt_error* err)
 * with the nrt_rows_write_fn signature, which runs the write form over a batch of rows. */
#ifndef NRT_UDF_CODEGEN_H
#define NRT_UDF_CODEGEN_H

#include <llvm-c/Core.h>

#include "nrt/core.h"
#include "udf/ast.h"

/* Names of the row functions in the emitted module: the nrt_row_fn, and for an entry
 * returning str also the nrt_row_write_fn of its write form (codegen_write.c) and, with one
 * str parameter, its loop form (nrt_rows_write_fn). */
#define NRT_UDF_ROW_SYMBOL "nrt_udf_row"
#define NRT_UDF_ROW_WRITE_SYMBOL "nrt_udf_row_write"
#define NRT_UDF_ROWS_WRITE_SYMBOL "nrt_udf_rows_write"

/* Emits module `m` into a new LLVM module in `ctx`. On success *out owns the module. */
int udf_codegen(const udf_module *m, LLVMContextRef ctx, LLVMModuleRef *out,
                struct nrt_error *err);

#endif /* NRT_UDF_CODEGEN_H */

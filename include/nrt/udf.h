/* nrt udf: Python-syntax string UDFs compiled to native code with LLVM and applied to columns.
 *
 * A UDF is a module of one or more `def`s or a single `lambda` in a typed subset of Python 3
 * (see the README). nrt_udf_compile parses and type-checks it for the given parameter types,
 * lowers it to LLVM IR with reference counting woven in naively, removes the redundant
 * refcount operations (refprune), optimises the IR and JIT-compiles it (ORC LLJIT). The result
 * is a row function with the nrt_row_fn signature of nrt/exec.h (and, for a str result, a
 * write form that writes the result straight into the output column); nrt_udf_apply runs it
 * over columns on all cores. Strings created by the UDF are managed strings released at the moment
 * Python would release them: after an apply (and the release of its output) the runtime
 * statistics are balanced, also when rows raise. */
#ifndef NRT_UDF_H
#define NRT_UDF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "nrt/column.h"
#include "nrt/core.h"
#include "nrt/exec.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A compiled UDF. Immutable after compilation: it may be applied from several threads. */
typedef struct nrt_udf nrt_udf;

/* Compilation options. Zero-initialise, then set what differs from the defaults. */
struct nrt_udf_options {
  const char *file;  /* file name shown in compile errors; NULL: "<udf>" */
  const char *func;  /* entry function; NULL: the lambda, the only def, or the last def */
  /* Types of the entry's parameters, one per input column: NRT_VALUE_STR, NRT_VALUE_INT64,
   * NRT_VALUE_FLOAT64 or NRT_VALUE_BOOL. NULL: every parameter is a str. */
  const nrt_value_kind *param_kinds;
  int nparams;       /* number of parameters (input columns); must match the entry's */
  bool emit_llvm;    /* print the IR before and after pruning to emit_stream */
  void *emit_stream; /* a FILE *; NULL: stderr */
  bool no_prune;     /* skip refprune (for measurements) */
  bool no_optimize;  /* skip LLVM's optimisation pipeline (for measurements) */
  /* Count every refcount operation the compiled code executes (nrt_udf_refops_executed);
   * slower, for measurements. */
  bool count_refops;
};

/* What compilation did. Times in milliseconds. */
struct nrt_udf_compile_info {
  double compile_ms;   /* total: source to callable code */
  double front_ms;     /* parse and type check */
  double codegen_ms;   /* IR emission */
  double prune_ms;     /* refprune */
  double optimize_ms;  /* LLVM's pipeline */
  double jit_ms;       /* machine code */
  size_t refops_before; /* incref/decref calls in the IR before pruning */
  size_t refops_after;  /* ... after pruning */
  /* Pairs removed per refprune sub-pass. */
  size_t pruned_null, pruned_per_bb, pruned_diamond, pruned_fanout, pruned_fanout_raise;
  size_t normalized;    /* decrefs moved by the normalise sub-pass */
  size_t instructions;  /* LLVM instructions after pruning, before optimisation */
  bool quick;           /* compiled by the quick tier (NRT_UDF_QUICK_INSTRUCTIONS) */
  bool huge;            /* ... by its cheaper form for a huge module (some 4 times as many
                         * instructions as code generation leaves them): implies quick */
};

/* LLVM's optimiser and code generator take time that grows faster than the code they are
 * given (register allocation and some passes are superlinear in a function's size). A
 * module of more instructions than this after pruning is compiled by a quick tier: only
 * local clean-ups (instcombine, simplifycfg) instead of O2, and LLVM's fast instruction
 * selection and register allocation (CodeGenOpt::None), so compile time stays near linear in
 * program size (bench/udf/bench_compile.c); the code is correct and slower per row. A UDF of
 * a few lines has a few hundred instructions; some 200 statements reach the limit. */
#define NRT_UDF_QUICK_INSTRUCTIONS 10000

/* Compiles `len` bytes of UTF-8 source. On success *out owns the UDF (free it with
 * nrt_udf_free). Errors (*out NULL, nothing left allocated): NRT_EPARSE, NRT_ETYPE or
 * NRT_EUNSUPPORTED for a bad program, with "file:line:column: message", the source line and
 * a caret in err; NRT_EINVAL for bad options; NRT_ENOMEM. `options` NULL: the defaults with one
 * str parameter. */
NRT_API int nrt_udf_compile(const char *src, size_t len, const struct nrt_udf_options *options,
                            nrt_udf **out, struct nrt_error *err);

/* Releases the UDF and its machine code. NULL is ignored. The row function must not be in
 * use. */
NRT_API void nrt_udf_free(nrt_udf *udf);

/* Number of parameters, and the kind of a non-null result (NRT_VALUE_NULL for a UDF that
 * always returns None; NRT_VALUE_LIST for one returning a list or a tuple), and for a list
 * result the kind of its items (NRT_VALUE_STR, NRT_VALUE_INT64, NRT_VALUE_FLOAT64 or
 * NRT_VALUE_BOOL; NRT_VALUE_NULL for other results). */
NRT_API int nrt_udf_nparams(const nrt_udf *udf);
NRT_API nrt_value_kind nrt_udf_result_kind(const nrt_udf *udf);
NRT_API nrt_value_kind nrt_udf_item_kind(const nrt_udf *udf);

/* The compiled row function; its ctx argument is ignored (pass NULL). Valid until
 * nrt_udf_free. */
NRT_API nrt_row_fn nrt_udf_row_function(const nrt_udf *udf);

/* For a UDF returning str (or str | None): its write form, a row function writing the result
 * straight into the output column (nrt_exec_apply_write; no result string is made). NULL for
 * other result types. ctx is ignored. Valid until nrt_udf_free. */
NRT_API nrt_row_write_fn nrt_udf_write_function(const nrt_udf *udf);

/* For a UDF of one str parameter returning str (or str | None): the loop form of its write
 * form (nrt_exec_options.write_rows), which writes a batch of rows with no call per row. NULL
 * for other UDFs, and for those compiled in the quick tier (nrt_udf_compile_info.quick).
 * nrt_udf_apply uses it where it applies. ctx is ignored. Valid until nrt_udf_free. */
NRT_API nrt_rows_write_fn nrt_udf_write_rows_function(const nrt_udf *udf);

/* Compilation statistics (never NULL for a compiled UDF). */
NRT_API const struct nrt_udf_compile_info *nrt_udf_info(const nrt_udf *udf);

/* Calls the UDF on one row: args as for nrt_row_fn (borrowed), *result zero-initialised by
 * this function; a string result owns a reference (release it with nrt_str_release) or is a
 * view of an argument or of the UDF's literals; a list result (a list or tuple of str) owns a
 * reference to its list (release it with nrt_str_list_release; a list of numbers has
 * result->item_kind set and its items encoded as nrt/exec.h says). Returns NRT_OK or the Python
 * exception's code with its message in err. */
NRT_API int nrt_udf_call(const nrt_udf *udf, const nrt_value *args, nrt_value *result,
                         struct nrt_error *err);

/* Apply options. Zero-initialise. */
struct nrt_udf_apply_options {
  int threads;            /* 0: all cores */
  bool errors_as_null;    /* a failing row becomes null (--errors null) instead of stopping */
  enum nrt_col_type string_type; /* layout of a string output (or of a list output's items);
                                  * 0: utf8_view */
  int64_t chunk_rows;     /* 0: automatic */
  /* Optional progress report, passed to nrt_exec_apply (see its on_progress: called after each
   * chunk with the rows finished so far, from worker threads; must be thread-safe). */
  void (*on_progress)(void *arg, int64_t rows_done, int64_t rows);
  void *progress_arg;
  /* A UDF returning str is applied in its write form (nrt_udf_write_function) unless this is
   * set: then its value form, with a managed result string per row (for comparisons). */
  bool value_form;
  /* Each chunk checks its rows of the inputs before reading them: for inputs imported with
   * NRT_COL_IMPORT_ROWS_UNCHECKED (see nrt_exec_options.validate_inputs). */
  bool validate_inputs;
};

/* Applies the UDF to every row of `n` input columns (one per parameter) through
 * nrt_exec_apply. On success *out owns the output column (a UDF returning a list or a tuple
 * gives an NRT_COL_LIST column, tuples as lists: list<string_type> for str items, list<int64>,
 * list<double> or list<bool> for numbers). On a runtime error the result is the
 * exception's code with "row N: ExceptionName: message" in err; everything made is released.
 * info (may be NULL) receives what nrt_exec_apply reports. */
NRT_API int nrt_udf_apply(const nrt_udf *udf, nrt_column *const *inputs, size_t n,
                          const struct nrt_udf_apply_options *options, nrt_column **out,
                          struct nrt_exec_info *info, struct nrt_error *err);

/* Refcount operations executed by UDFs compiled with count_refops, since the last reset. */
NRT_API uint64_t nrt_udf_refops_executed(void);
NRT_API void nrt_udf_refops_reset(void);

#ifdef __cplusplus
}
#endif

#endif /* NRT_UDF_H */

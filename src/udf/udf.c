/* The public UDF API: source -> front end -> IR with naive refcounts -> refprune -> LLVM's
 * optimisation pipeline -> JIT, and apply through the exec layer (see nrt/udf.h). */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */
#include "nrt/udf.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include <llvm-c/Analysis.h>

#include "nrt/refprune.h"
#include "udf/codegen.h"
#include "udf/codegen_refops.h"
#include "udf/front.h"
#include "udf/jit.h"
#include "udf/re_compile.h"
#include "udf/result_kind.h"
#include "udf/runtime.h"
#include "udf/runtime_dict.h"

struct nrt_udf {
  struct nrt_udf_jit *jit;
  nrt_row_fn row;
  nrt_row_write_fn write; /* the write form of a str result, else NULL */
  nrt_rows_write_fn write_rows; /* its loop form, or NULL */
  int nparams;
  nrt_value_kind result_kind;
  nrt_value_kind item_kind; /* a list result's items, else NRT_VALUE_NULL */
  bool names_exceptions; /* some `except ... as e` reads error messages */
  void **consts;         /* the constant dict/set displays the code points at */
  int nconsts;
  struct udf_re_set *res; /* the patterns its code refers to (re_compile.h) */
  struct nrt_udf_compile_info info;
};

static double now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static udf_type kind_to_type(nrt_value_kind k) {
  switch (k) {
  case NRT_VALUE_STR: return UDF_TY_STR;
  case NRT_VALUE_INT64: return UDF_TY_INT;
  case NRT_VALUE_FLOAT64: return UDF_TY_FLOAT;
  case NRT_VALUE_BOOL: return UDF_TY_BOOL;
  default: return UDF_TY_UNKNOWN;
  }
}

static nrt_value_kind type_to_kind(udf_type t) {
  switch (udf_type_base(t)) {
  case UDF_TY_STR: return NRT_VALUE_STR;
  case UDF_TY_INT: return NRT_VALUE_INT64;
  case UDF_TY_FLOAT: return NRT_VALUE_FLOAT64;
  case UDF_TY_BOOL: return NRT_VALUE_BOOL;
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR:
  case UDF_TY_LIST: return NRT_VALUE_LIST; /* all are nrt_str_list values */
  default: return NRT_VALUE_NULL;
  }
}

static void emit_ir(LLVMModuleRef m, void *stream, const char *title) {
  FILE *f = stream ? (FILE *)stream : stderr;
  char *text = LLVMPrintModuleToString(m);
  fprintf(f, "; ===== %s =====\n%s", title, text);
  LLVMDisposeMessage(text);
  fflush(f);
}

static int verify(LLVMModuleRef m, const char *stage, struct nrt_error *err) {
  char *msg = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
    int rc = nrt_error_set(err, NRT_EINVAL, "internal error: invalid IR %s: %s", stage,
                           msg ? msg : "");
    LLVMDisposeMessage(msg);
    return rc;
  }
  LLVMDisposeMessage(msg);
  return NRT_OK;
}

/* The instructions of function f (NULL: none). */
static size_t count_function(LLVMValueRef f) {
  size_t n = 0;
  for (LLVMBasicBlockRef bb = f ? LLVMGetFirstBasicBlock(f) : NULL; bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      n++;
  return n;
}

/* The instructions of a module: its size as LLVM's passes see it. */
static size_t count_instructions(LLVMModuleRef m) {
  size_t n = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    n += count_function(f);
  return n;
}

/* Drops the loop form, where its copy of the entry would cost more compile time than its
 * rows save. */
static void drop_rows_form(LLVMModuleRef m) {
  LLVMValueRef f = LLVMGetNamedFunction(m, NRT_UDF_ROWS_WRITE_SYMBOL);
  if (f)
    LLVMDeleteFunction(f);
}

/* Before refprune (see build). */
#define PRE_PRUNE "always-inline,function(sroa,early-cse,instcombine)"

/* The quick tier's pipeline: inlining the refcount operations, and the local clean-ups whose
 * cost grows linearly (no SROA, GVN or loop passes over a huge function). */
#define QUICK_PIPELINE "always-inline,function(instcombine,simplifycfg)"

/* A module of more instructions than this as code generation leaves it (before any pass;
 * some 1.3 times its size after pruning) is huge: it gets the quick tier without the passes
 * whose time grows faster than the function (measured on an elif chain of thousands of
 * branches: InstCombine's and SimplifyCFG's grow about as n^1.7), and the row wrappers call
 * the entry instead of inlining it, since cloning a function of this size costs as much as
 * compiling it again. mem2reg still makes the variables SSA values for refprune (SROA would
 * too, at twice the time, splitting each str variable into its fields: a third more
 * instructions for the passes and machine code after it), and early-cse gives a value loaded
 * twice one SSA name, so that its increfs and decrefs pair up. */
#define HUGE_INSTRUCTIONS (4 * (size_t)NRT_UDF_QUICK_INSTRUCTIONS)
#define HUGE_PRE_PRUNE "always-inline,function(mem2reg,early-cse)"
#define HUGE_PIPELINE "always-inline" /* the refcount operations */

/* For a huge module: the row wrappers call their entry (codegen.c marks it alwaysinline for
 * the small ones, whose borrowed arguments' NULL MemInfo then becomes a constant). */
static void call_entries(LLVMModuleRef m) {
  static const char *const wrappers[] = {NRT_UDF_ROW_SYMBOL, NRT_UDF_ROW_WRITE_SYMBOL};
  unsigned always = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  for (size_t k = 0; k < sizeof wrappers / sizeof wrappers[0]; k++) {
    LLVMValueRef w = LLVMGetNamedFunction(m, wrappers[k]);
    for (LLVMBasicBlockRef bb = w ? LLVMGetFirstBasicBlock(w) : NULL; bb;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
        LLVMValueRef callee = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
        if (callee && LLVMIsAFunction(callee) && LLVMGetFirstBasicBlock(callee))
          LLVMRemoveEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, always);
      }
  }
}

/* IR emission through JIT, given the checked module. */
static int build(nrt_udf *u, const udf_module *mod, const struct nrt_udf_options *o,
                 struct nrt_error *err) {
  struct nrt_udf_symbol syms[NRT_UDF_MAX_SYMBOLS];
  size_t nsyms = nrt_udf_runtime_symbols(o->count_refops, syms, NRT_UDF_MAX_SYMBOLS);
  int rc = nrt_udf_jit_create(syms, nsyms, &u->jit, err);
  if (rc)
    return rc;
  /* Local value names only serve the IR text: without them code generation allocates and
   * hashes no name per instruction (a tenth of the compile time of a large UDF). */
  if (!o->emit_stream)
    LLVMContextSetDiscardValueNames(nrt_udf_jit_context(u->jit), 1);
  double t = now_ms();
  LLVMModuleRef m = NULL;
  rc = udf_codegen(mod, nrt_udf_jit_context(u->jit), &m, err);
  if (rc)
    return rc;
  rc = verify(m, "after code generation", err);
  LLVMTargetMachineRef tm = rc ? NULL : nrt_udf_host_machine(LLVMCodeGenLevelDefault, err);
  if (!rc && !tm)
    rc = NRT_EINVAL;
  /* Inline the entry into the row function and promote variables to SSA values first, so
   * that an incref and its decref act on the same value (which is how refprune relates them)
   * and the borrowed arguments' NULL MemInfo is a constant. A huge module is only promoted. */
  bool huge = !rc && count_instructions(m) > HUGE_INSTRUCTIONS;
  if (huge) {
    drop_rows_form(m);
    call_entries(m);
  }
  if (!rc)
    rc = nrt_udf_optimize(m, tm, huge ? HUGE_PRE_PRUNE : PRE_PRUNE, err);
  u->info.codegen_ms = now_ms() - t;
  if (!rc) {
    u->info.refops_before = udf_count_refops(m);
    if (o->emit_llvm)
      emit_ir(m, o->emit_stream, "before refprune");
  }
  if (!rc && !o->no_prune) {
    t = now_ms();
    struct nrt_refprune_stats st;
    memset(&st, 0, sizeof st);
    rc = nrt_refprune_module(m, NULL, &st, err);
    u->info.prune_ms = now_ms() - t;
    u->info.pruned_null = st.null_removed;
    u->info.pruned_per_bb = st.per_bb;
    u->info.pruned_diamond = st.diamond;
    u->info.pruned_fanout = st.fanout;
    u->info.pruned_fanout_raise = st.fanout_raise;
    u->info.normalized = st.normalized;
  }
  if (!rc) {
    u->info.refops_after = udf_count_refops(m);
    if (o->emit_llvm)
      emit_ir(m, o->emit_stream, o->no_prune ? "refprune skipped" : "after refprune");
    if (!o->count_refops)
      udf_inline_refops(m);
    rc = verify(m, "after refprune", err);
  }
  /* A large module gets the quick tier (see NRT_UDF_QUICK_INSTRUCTIONS in nrt/udf.h). */
  if (!rc) { /* the loop form's copy of the entry not counted */
    u->info.instructions =
        count_instructions(m) - count_function(LLVMGetNamedFunction(m, NRT_UDF_ROWS_WRITE_SYMBOL));
    u->info.huge = huge;
    u->info.quick = huge || u->info.instructions > NRT_UDF_QUICK_INSTRUCTIONS;
    if (u->info.quick)
      drop_rows_form(m);
  }
  if (!rc && !o->no_optimize) {
    t = now_ms();
    const char *pipeline = huge ? HUGE_PIPELINE : u->info.quick ? QUICK_PIPELINE : "default<O2>";
    rc = nrt_udf_optimize(m, tm, pipeline, err);
    u->info.optimize_ms = now_ms() - t;
    if (!rc && o->emit_llvm)
      emit_ir(m, o->emit_stream, "after optimisation");
  }
  if (tm)
    LLVMDisposeTargetMachine(tm);
  if (rc) {
    LLVMDisposeModule(m);
    return rc;
  }
  t = now_ms();
  bool has_rows_form = LLVMGetNamedFunction(m, NRT_UDF_ROWS_WRITE_SYMBOL) != NULL;
  rc = nrt_udf_jit_add_module(u->jit, m,
                              u->info.quick ? LLVMCodeGenLevelNone : LLVMCodeGenLevelDefault, err);
  if (rc)
    return rc;
  u->row = (nrt_row_fn)nrt_udf_jit_lookup(u->jit, NRT_UDF_ROW_SYMBOL, err);
  if (u->row && u->result_kind == NRT_VALUE_STR) {
    u->write = (nrt_row_write_fn)nrt_udf_jit_lookup(u->jit, NRT_UDF_ROW_WRITE_SYMBOL, err);
    if (u->write && has_rows_form)
      u->write_rows =
          (nrt_rows_write_fn)nrt_udf_jit_lookup(u->jit, NRT_UDF_ROWS_WRITE_SYMBOL, err);
    if (!u->write || (has_rows_form && !u->write_rows))
      u->row = NULL;
  }
  u->info.jit_ms = now_ms() - t;
  return u->row ? NRT_OK : NRT_EINVAL;
}

int nrt_udf_compile(const char *src, size_t len, const struct nrt_udf_options *options,
                    nrt_udf **out, struct nrt_error *err) {
  *out = NULL;
  struct nrt_udf_options dflt;
  memset(&dflt, 0, sizeof dflt);
  dflt.nparams = 1;
  const struct nrt_udf_options *o = options ? options : &dflt;
  if (!src && len)
    return nrt_error_set(err, NRT_EINVAL, "no source");
  if (o->nparams < 0 || o->nparams > 64)
    return nrt_error_set(err, NRT_EINVAL, "a UDF takes 0 to 64 parameters, not %d", o->nparams);
  udf_type types[64];
  for (int i = 0; i < o->nparams; i++) {
    types[i] = o->param_kinds ? kind_to_type(o->param_kinds[i]) : UDF_TY_STR;
    if (types[i] == UDF_TY_UNKNOWN)
      return nrt_error_set(err, NRT_EINVAL, "parameter %d has no value type", i + 1);
  }
  double t0 = now_ms();
  nrt_udf *u = nrt_allocate(sizeof *u, err);
  if (!u)
    return NRT_ENOMEM;
  memset(u, 0, sizeof *u);
  udf_module *mod = NULL;
  int rc = udf_front_compile(src ? src : "", len, o->file, o->func, types, o->nparams, &mod,
                             NULL, err);
  u->info.front_ms = now_ms() - t0;
  if (!rc) {
    u->nparams = o->nparams;
    u->result_kind = type_to_kind(mod->entry->result);
    u->item_kind = udf_result_item_kind(mod->entry->result);
    u->names_exceptions = mod->names_exceptions;
    u->nconsts = mod->nconst_displays;
    rc = udf_dict_consts_build(mod, &u->consts, err);
    if (!rc)
      rc = build(u, mod, o, err);
    u->res = mod->res; /* the code refers to them: they live as long as it */
    mod->res = NULL;
    udf_module_free(mod);
  }
  if (rc) {
    nrt_udf_free(u);
    return rc;
  }
  u->info.compile_ms = now_ms() - t0;
  *out = u;
  return NRT_OK;
}

void nrt_udf_free(nrt_udf *udf) {
  if (!udf)
    return;
  nrt_udf_jit_free(udf->jit);
  udf_dict_consts_free(udf->consts, udf->nconsts);
  udf_re_set_free(udf->res);
  nrt_free(udf, sizeof *udf);
}

int nrt_udf_nparams(const nrt_udf *udf) { return udf->nparams; }
nrt_value_kind nrt_udf_result_kind(const nrt_udf *udf) { return udf->result_kind; }
nrt_value_kind nrt_udf_item_kind(const nrt_udf *udf) { return udf->item_kind; }
nrt_row_fn nrt_udf_row_function(const nrt_udf *udf) { return udf->row; }
nrt_row_write_fn nrt_udf_write_function(const nrt_udf *udf) { return udf->write; }
nrt_rows_write_fn nrt_udf_write_rows_function(const nrt_udf *udf) { return udf->write_rows; }
const struct nrt_udf_compile_info *nrt_udf_info(const nrt_udf *udf) { return &udf->info; }

int nrt_udf_call(const nrt_udf *udf, const nrt_value *args, nrt_value *result,
                 struct nrt_error *err) {
  struct nrt_error local;
  memset(result, 0, sizeof *result);
  return udf->row(NULL, args, result, err ? err : &local);
}

int nrt_udf_apply(const nrt_udf *udf, nrt_column *const *inputs, size_t n,
                  const struct nrt_udf_apply_options *options, nrt_column **out,
                  struct nrt_exec_info *info, struct nrt_error *err) {
  *out = NULL;
  if (n != (size_t)udf->nparams)
    return nrt_error_set(err, NRT_EINVAL, "the UDF takes %d columns, %zu given", udf->nparams,
                         n);
  struct nrt_exec_options eo;
  memset(&eo, 0, sizeof eo);
  eo.result_kind = udf->result_kind == NRT_VALUE_NULL ? NRT_VALUE_STR : udf->result_kind;
  eo.item_kind = udf->item_kind;
  if (options) {
    eo.threads = options->threads;
    eo.errors_as_null = options->errors_as_null;
    eo.discard_messages = !udf->names_exceptions;
    eo.validate_inputs = options->validate_inputs;
    eo.string_type = options->string_type;
    eo.chunk_rows = options->chunk_rows;
    eo.on_progress = options->on_progress;
    eo.progress_arg = options->progress_arg;
  }
  eo.write_rows = udf->write_rows;
  if (udf->write && !(options && options->value_form))
    return nrt_exec_apply_write(inputs, n, udf->write, NULL, &eo, out, info, err);
  return nrt_exec_apply(inputs, n, udf->row, NULL, &eo, out, info, err);
}

uint64_t nrt_udf_refops_executed(void) { return nrt_udf_rt_refops_count(); }
void nrt_udf_refops_reset(void) { nrt_udf_rt_refops_reset(); }

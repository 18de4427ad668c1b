/* nrt refprune: removes redundant incref/decref pairs from LLVM IR (LLVM 14, through its C API).
 *
 * A reference-count operation ("refop") is a call to a function whose name is one of the
 * configured incref or decref names, with the object pointer as first argument. Two refops are
 * related when they act on the same SSA value. The compiler emits refops naively (at every
 * binding and scope exit); this pass removes the redundant ones.
 *
 * The model, and the rules every sub-pass keeps (src/refprune/README.md argues each one):
 *  - Counting: on every execution path, the pruned function's count of each object (also when
 *    several SSA values point to it) never drops to zero earlier than the original's and ends
 *    at the same value, except on a path that ends in a raising block (below).
 *  - A "barrier" is a call that might release or observe an object: every call or invoke that is
 *    not a refop, except calls of LLVM intrinsics that touch no memory (llvm.dbg.*,
 *    llvm.lifetime.*, llvm.assume, llvm.expect.*, llvm.experimental.noalias.scope.decl,
 *    llvm.invariant.*) and calls of functions declared readnone. Inline assembly is a barrier.
 *  - A decref may be delayed (moved later) but never across a barrier: delaying a release is
 *    invisible to code that neither releases nor observes the object.
 *  - Calls follow Numba's and nrt's calling convention: a callee borrows its arguments and
 *    returns new references; it never releases a reference its caller holds. So by default a
 *    pair is removed across calls (as llvmlite does); with `strict_calls` set, barriers also
 *    block pair removal (for code whose callees may release their callers' references).
 *  - Nothing is removed across a decref of another value, because another SSA value may point
 *    to the same object: between a removed incref and its removed decref the object's count is
 *    one lower than in the original. The one exception: decrefs that follow each other with
 *    only instructions that touch no memory and call nothing between them (casts, GEPs,
 *    extract/insertvalue, arithmetic, compares, selects) happen "at once" and may be reordered
 *    among themselves.
 *  - Raising blocks: a block with no successor holding an instruction with the
 *    `!numba_exception_output` metadata (Numba's marker of a block that returns an exception).
 *    Numba emits no decref on such a path, so the references taken before it leak. With the
 *    fanout-raise sub-pass, on a path that ends in a raising block the pruned function takes
 *    exactly one reference fewer for each pruned incref executed on that path whose decref the
 *    raise skipped; its final count is the original's minus that number (the leak shrinks), and
 *    it still never drops to zero earlier. On every other path the counts end equal.
 */
#ifndef NRT_REFPRUNE_H
#define NRT_REFPRUNE_H

#include <stddef.h>

#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* LLVM's C API handles (LLVMModuleRef, LLVMValueRef), declared here so that this header does
 * not need LLVM's include directory. */
struct LLVMOpaqueModule;
struct LLVMOpaqueValue;

/* Sub-passes, selectable by bit. All selected ones run together to a fixed point. */
enum nrt_refprune_pass {
  NRT_REFPRUNE_NORMALIZE = 1u << 0,    /* within a block, delay decrefs past later increfs */
  NRT_REFPRUNE_NULL = 1u << 1,         /* drop refops on a null pointer constant */
  NRT_REFPRUNE_PER_BB = 1u << 2,       /* incref + later related decref in one block */
  NRT_REFPRUNE_DIAMOND = 1u << 3,      /* incref dominates decref, decref post-dominates incref */
  NRT_REFPRUNE_FANOUT = 1u << 4,       /* incref + one related decref on each path from it */
  NRT_REFPRUNE_FANOUT_RAISE = 1u << 5, /* as fanout, paths may end in a raising block */
  NRT_REFPRUNE_ALL = (1u << 6) - 1
};

/* Default limit on the blocks one fanout/diamond search may visit. */
#define NRT_REFPRUNE_DEFAULT_SUBGRAPH_LIMIT 1000

/* Configuration. Fill with nrt_refprune_config_default, then change fields. Name arrays are
 * borrowed for the duration of a call; NULL (with count 0) means the default names. */
struct nrt_refprune_config {
  unsigned passes;              /* bitwise or of enum nrt_refprune_pass */
  size_t subgraph_limit;        /* most blocks one region search visits; 0 = default */
  const char *const *incref_names;
  size_t incref_count;
  const char *const *decref_names;
  size_t decref_count;
  int strict_calls;             /* 1: barriers also block pair removal (see above); default 0 */
};

/* Statistics. Pairs count one incref with the decref(s) removed with it. */
struct nrt_refprune_stats {
  size_t normalized;     /* decrefs moved by normalise */
  size_t null_removed;   /* refops on a null constant removed */
  size_t per_bb;         /* pairs removed by the per-block sub-pass */
  size_t diamond;        /* pairs removed by the diamond sub-pass */
  size_t fanout;         /* increfs removed by fanout (each with one decref per path) */
  size_t fanout_raise;   /* increfs removed by fanout-raise */
  size_t increfs_removed; /* total increfs removed (null ones included) */
  size_t decrefs_removed; /* total decrefs removed (null ones included) */
};

/* Default names: nrt_mi_incref, nrt_mi_incref_local, NRT_incref (increfs) and nrt_mi_decref,
 * nrt_mi_decref_local, NRT_decref (decrefs); every sub-pass; the default subgraph limit.
 * `cfg` must not be NULL. */
NRT_API void nrt_refprune_config_default(struct nrt_refprune_config *cfg);

/* Prunes every function defined in `module` (an LLVMModuleRef). `cfg` NULL means the defaults;
 * `stats` (NULL allowed) is zeroed, then filled. The module stays valid IR. Returns NRT_OK,
 * NRT_EINVAL (NULL module, an unknown pass bit) or NRT_ENOMEM; after an error the module is
 * valid but may be partly pruned. */
NRT_API int nrt_refprune_module(struct LLVMOpaqueModule *module,
                                const struct nrt_refprune_config *cfg,
                                struct nrt_refprune_stats *stats, struct nrt_error *err);

/* The same for one function (an LLVMValueRef of a function; a declaration is left alone).
 * `stats` (NULL allowed) is added to, not zeroed, so calls can accumulate. */
NRT_API int nrt_refprune_function(struct LLVMOpaqueValue *function,
                                  const struct nrt_refprune_config *cfg,
                                  struct nrt_refprune_stats *stats, struct nrt_error *err);

/* Parses a comma-separated list of sub-pass names (normalize, null, per-bb, diamond, fanout,
 * fanout-raise, all) into *out. Returns NRT_EINVAL naming the unknown item. */
NRT_API int nrt_refprune_parse_passes(const char *list, unsigned *out, struct nrt_error *err);

/* The command `nrt refprune IN.ll [-o OUT.ll] [--passes LIST] [--stats] [--subgraph-limit N]
 * [--strict-calls]`:
 * reads textual or bitcode IR, prunes it (normalise and null always run; --passes selects the
 * pair-removing sub-passes, default all), verifies and writes textual IR to OUT.ll (replaced
 * atomically, nrt/io_output.h: on any error it keeps its old contents) or stdout;
 * --stats prints the statistics to stderr; --strict-calls sets strict_calls. Exit status 0 on success, 1 on an I/O error, 2 on a
 * usage error or an input that does not parse or does not pass the LLVM verifier (its message
 * is printed). argv[0] is the command name. */
NRT_API int nrt_refprune_tool_main(int argc, char **argv);

#ifdef __cplusplus
}
#endif

#endif

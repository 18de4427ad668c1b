/* refprune internals: the view of one function that the sub-passes work on. */
#ifndef NRT_REFPRUNE_INTERNAL_H
#define NRT_REFPRUNE_INTERNAL_H

#include <llvm-c/Core.h>
#include <stddef.h>

#include "nrt/refprune.h"

/* What an instruction is to refprune. */
enum rp_kind {
  RP_OTHER = 0, /* touches no refcount: loads, stores, arithmetic, harmless intrinsics */
  RP_INC,       /* a removable incref call */
  RP_DEC,       /* a removable decref call */
  RP_BARRIER,   /* a call that might release or observe an object (see nrt/refprune.h) */
  RP_DEAD       /* an event whose instruction was removed */
};

/* Open-addressing map from pointers to ints (block indices, callee classes). */
struct rp_ptrmap {
  const void **keys;
  int *values;
  size_t cap; /* power of two, or 0 */
  size_t count;
};
int rp_ptrmap_put(struct rp_ptrmap *m, const void *key, int value, struct nrt_error *err);
/* The value stored for key, or `missing`. */
int rp_ptrmap_get(const struct rp_ptrmap *m, const void *key, int missing);
void rp_ptrmap_free(struct rp_ptrmap *m);

/* Recognises refops and barriers; caches the class of each callee. */
struct rp_classifier {
  const struct nrt_refprune_config *cfg;
  struct rp_ptrmap callees; /* callee -> enum rp_kind */
  unsigned readnone_kind;   /* attribute kind id of readnone */
  unsigned raise_md_kind;   /* metadata kind id of numba_exception_output */
};
int rp_classifier_init(struct rp_classifier *c, const struct nrt_refprune_config *cfg,
                       LLVMContextRef ctx, struct nrt_error *err);
void rp_classifier_free(struct rp_classifier *c);
/* Classifies an instruction; for RP_INC / RP_DEC sets *value to the pointer operand. */
int rp_classify(struct rp_classifier *c, LLVMValueRef inst, LLVMValueRef *value,
                struct nrt_error *err);
/* Whether an instruction neither touches memory nor calls anything (casts, GEPs,
 * extract/insertvalue, arithmetic, compares, selects): decrefs separated only by such
 * instructions happen "at once". */
int rp_is_inert(LLVMValueRef inst);

/* One refop or barrier, in block order. */
struct rp_event {
  LLVMValueRef inst;
  LLVMValueRef value; /* the pointer for RP_INC / RP_DEC */
  int kind;
  int block;
  int pos;          /* the instruction's index in its block */
  int prev_blocker; /* index in the block of the last instruction before this one that ends a
                     * run of decrefs happening at once (neither inert nor a refop; barriers
                     * included), or -1. Live increfs end such runs too (see rp_live_*). */
};

enum { RP_BLOCK_RAISING = 1 };

struct rp_block {
  LLVMBasicBlockRef bb;
  int first_event, end_event; /* events [first_event, end_event) */
  unsigned flags;
};

/* A function's CFG (CSR successor and predecessor lists), events and dominance numbering. */
struct rp_func {
  LLVMValueRef fn;
  int n;                   /* blocks; block 0 is the entry */
  int n_edges;
  struct rp_block *blocks;
  int *succ_off, *succ, *pred_off, *pred;
  struct rp_event *events;
  int n_events, events_cap;
  /* dominator / post-dominator trees (only when the diamond sub-pass runs) */
  int *dom_pre, *dom_post, *ipdom, *pdom_pre, *pdom_post;
  /* scratch for region searches */
  int *stamp, *end_stamp, *worklist, *region;
  int stamp_now;
  int strict_calls; /* barriers block pair removal */
  /* increfs waiting on the decref that blocked them (per event), and those to retry */
  int *wait_head, *wait_next, *retry;
  int n_retry;
  /* Live-event queries (events.c): per event, the next decref of the same value in its block
   * (for an incref: the first one after it), -1 if none; union-find parents skipping removed
   * events: live decrefs forward, live decrefs of one value forward, live increfs backward;
   * the first barrier at or after an event in its block (the block's end if none). */
  int *same_next, *uf_dec, *uf_same, *uf_inc, *next_barrier;
};

/* Builds the view of a defined function (with at least one block). */
int rp_func_build(struct rp_func *f, LLVMValueRef fn, struct rp_classifier *c,
                  struct nrt_error *err);
/* Computes dominator and post-dominator trees (dom_* , ipdom, pdom_*). */
int rp_func_dominance(struct rp_func *f, struct nrt_error *err);
void rp_func_free(struct rp_func *f);

/* Indexes the events of a built function for the queries below. NRT_OK or NRT_ENOMEM. */
int rp_events_index(struct rp_func *f, struct nrt_error *err);
void rp_events_free(struct rp_func *f);
/* Records that event e (live until now) was removed. */
void rp_events_removed(struct rp_func *f, int e);
/* The first live decref at index >= from in block b, or the block's end. */
int rp_live_dec_from(struct rp_func *f, int b, int from);
/* The first live decref of the same value at or after decref e along its chain (e as
 * same_next gives it; -1 allowed), or -1. */
int rp_live_dec_same(struct rp_func *f, int e);
/* The last live incref at index <= from in block b, or -1. */
int rp_live_inc_upto(struct rp_func *f, int b, int from);

/* Normalise: within each block, move decrefs that precede an incref of the same barrier-free
 * stretch to just before the barrier or terminator that ends the stretch. Returns NRT_OK or
 * NRT_ENOMEM; adds the number of decrefs moved to *moved. */
int rp_normalize_function(LLVMValueRef fn, struct rp_classifier *c, size_t *moved,
                          struct nrt_error *err);

#endif

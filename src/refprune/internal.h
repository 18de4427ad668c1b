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

/* One refop or barrier, in block order. */
struct rp_event {
  LLVMValueRef inst;
  LLVMValueRef value; /* the pointer for RP_INC / RP_DEC */
  int kind;
  int block;
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
};

/* Builds the view of a defined function (with at least one block). */
int rp_func_build(struct rp_func *f, LLVMValueRef fn, struct rp_classifier *c,
                  struct nrt_error *err);
/* Computes dominator and post-dominator trees (dom_* , ipdom, pdom_*). */
int rp_func_dominance(struct rp_func *f, struct nrt_error *err);
void rp_func_free(struct rp_func *f);

/* Normalise: within each block, move decrefs that precede an incref of the same barrier-free
 * stretch to just before the barrier or terminator that ends the stretch. Returns NRT_OK or
 * NRT_ENOMEM; adds the number of decrefs moved to *moved. */
int rp_normalize_function(LLVMValueRef fn, struct rp_classifier *c, size_t *moved,
                          struct nrt_error *err);

#endif

/* The per-function view: CFG in CSR form, refop/barrier events, dominance numbering. */
#include <string.h>

#include "refprune/domtree.h"
#include "refprune/internal.h"

#define ALLOC_ARRAY(ptr, count, err) ((ptr) = nrt_allocate(sizeof(*(ptr)) * ((size_t)(count) + 1), (err)))
#define FREE_ARRAY(ptr, count) nrt_free((ptr), sizeof(*(ptr)) * ((size_t)(count) + 1))

static int block_is_raising(struct rp_classifier *c, LLVMBasicBlockRef bb) {
  if (!c->raise_md_kind)
    return 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
    if (LLVMHasMetadata(i) && LLVMGetMetadata(i, c->raise_md_kind))
      return 1;
  return 0;
}

/* Appends an event, growing the array by doubling. */
static int push_event(struct rp_func *f, int *cap, LLVMValueRef inst, LLVMValueRef value, int kind,
                      int block, int pos, int prev_blocker, struct nrt_error *err) {
  if (f->n_events == *cap) {
    int new_cap = *cap ? *cap * 2 : 256;
    struct rp_event *ev =
        f->events ? nrt_reallocate(f->events, sizeof(*ev) * (size_t)(*cap + 1),
                                   sizeof(*ev) * (size_t)(new_cap + 1), err)
                  : nrt_allocate(sizeof(*ev) * (size_t)(new_cap + 1), err);
    if (!ev)
      return NRT_ENOMEM;
    f->events = ev;
    *cap = new_cap;
  }
  struct rp_event *e = &f->events[f->n_events++];
  e->inst = inst;
  e->value = value;
  e->kind = kind;
  e->block = block;
  e->pos = pos;
  e->prev_blocker = prev_blocker;
  return NRT_OK;
}

int rp_func_build(struct rp_func *f, LLVMValueRef fn, struct rp_classifier *c,
                  struct nrt_error *err) {
  memset(f, 0, sizeof(*f));
  f->fn = fn;
  int n = (int)LLVMCountBasicBlocks(fn);
  f->n = n;
  struct rp_ptrmap index = {0};
  int event_cap = 0;
  if (!ALLOC_ARRAY(f->blocks, n, err) || !ALLOC_ARRAY(f->succ_off, n + 1, err) ||
      !ALLOC_ARRAY(f->pred_off, n + 1, err) || !ALLOC_ARRAY(f->stamp, n, err) ||
      !ALLOC_ARRAY(f->end_stamp, n, err) || !ALLOC_ARRAY(f->worklist, n, err) ||
      !ALLOC_ARRAY(f->region, n, err))
    goto fail;
  /* One walk: block index, edge count, raising flags, events. */
  int b = 0, n_edges = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb), b++) {
    f->blocks[b].bb = bb;
    f->blocks[b].flags = 0;
    f->stamp[b] = f->end_stamp[b] = 0;
    if (rp_ptrmap_put(&index, bb, b, err) != NRT_OK)
      goto fail;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
    int ns = term ? (int)LLVMGetNumSuccessors(term) : 0;
    n_edges += ns;
    if (ns == 0 && block_is_raising(c, bb))
      f->blocks[b].flags |= RP_BLOCK_RAISING;
    f->blocks[b].first_event = f->n_events;
    int pos = 0, blocker = -1;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i), pos++) {
      LLVMValueRef v = NULL;
      int k = rp_classify(c, i, &v, err);
      if (k < 0 ||
          (k != RP_OTHER && push_event(f, &event_cap, i, v, k, b, pos, blocker, err) != NRT_OK))
        goto fail;
      if (k == RP_BARRIER || (k == RP_OTHER && !rp_is_inert(i)))
        blocker = pos;
    }
    f->blocks[b].end_event = f->n_events;
  }
  f->n_edges = n_edges;
  f->events_cap = event_cap;
  if (!ALLOC_ARRAY(f->succ, n_edges, err) || !ALLOC_ARRAY(f->pred, n_edges, err))
    goto fail;
  /* Successors and predecessor counts, then predecessors. */
  memset(f->pred_off, 0, sizeof(int) * (size_t)(n + 2));
  int e = 0;
  for (b = 0; b < n; b++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(f->blocks[b].bb);
    int ns = term ? (int)LLVMGetNumSuccessors(term) : 0;
    f->succ_off[b] = e;
    for (int k = 0; k < ns; k++) {
      int s = rp_ptrmap_get(&index, LLVMGetSuccessor(term, (unsigned)k), -1);
      if (s < 0)
        s = b; /* cannot happen in valid IR; keeps the graph well formed */
      f->succ[e++] = s;
      f->pred_off[s + 1]++;
    }
  }
  f->succ_off[n] = e;
  for (b = 0; b < n; b++)
    f->pred_off[b + 1] += f->pred_off[b];
  for (b = 0; b < n; b++)
    f->worklist[b] = f->pred_off[b];
  for (b = 0; b < n; b++)
    for (int k = f->succ_off[b]; k < f->succ_off[b + 1]; k++)
      f->pred[f->worklist[f->succ[k]]++] = b;
  rp_ptrmap_free(&index);
  return NRT_OK;
fail:
  f->events_cap = event_cap;
  rp_ptrmap_free(&index);
  rp_func_free(f);
  return NRT_ENOMEM;
}

int rp_func_dominance(struct rp_func *f, struct nrt_error *err) {
  int n = f->n, rc = NRT_ENOMEM;
  int *idom = NULL, *r_off = NULL, *r_adj = NULL, *rp_off = NULL, *rp_adj = NULL, *pidom = NULL;
  int n_edges = f->n_edges, n_exits = 0;
  for (int b = 0; b < n; b++)
    n_exits += f->succ_off[b + 1] == f->succ_off[b];
  if (!ALLOC_ARRAY(f->dom_pre, n, err) || !ALLOC_ARRAY(f->dom_post, n, err) ||
      !ALLOC_ARRAY(f->pdom_pre, n + 1, err) || !ALLOC_ARRAY(f->pdom_post, n + 1, err) ||
      !ALLOC_ARRAY(f->ipdom, n + 1, err) || !ALLOC_ARRAY(idom, n, err) ||
      !ALLOC_ARRAY(r_off, n + 2, err) || !ALLOC_ARRAY(r_adj, n_edges + n_exits, err) ||
      !ALLOC_ARRAY(rp_off, n + 2, err) || !ALLOC_ARRAY(rp_adj, n_edges + n_exits, err))
    goto done;
  struct rp_graph fwd = {n, f->succ_off, f->succ}, back = {n, f->pred_off, f->pred};
  if (rp_dominators(&fwd, &back, 0, idom, err) != NRT_OK ||
      rp_domtree_number(n, idom, 0, f->dom_pre, f->dom_post, err) != NRT_OK)
    goto done;
  /* Reversed graph with a virtual exit node n: its successors are the blocks without
   * successors; a block's successors are its predecessors. Its predecessor lists are the
   * forward successors plus the edge exit -> exit block. */
  int k = 0;
  for (int b = 0; b < n; b++) {
    r_off[b] = k;
    for (int j = f->pred_off[b]; j < f->pred_off[b + 1]; j++)
      r_adj[k++] = f->pred[j];
  }
  r_off[n] = k;
  for (int b = 0; b < n; b++)
    if (f->succ_off[b + 1] == f->succ_off[b])
      r_adj[k++] = b;
  r_off[n + 1] = k;
  k = 0;
  for (int b = 0; b < n; b++) {
    rp_off[b] = k;
    for (int j = f->succ_off[b]; j < f->succ_off[b + 1]; j++)
      rp_adj[k++] = f->succ[j];
    if (f->succ_off[b + 1] == f->succ_off[b])
      rp_adj[k++] = n;
  }
  rp_off[n] = k;
  rp_off[n + 1] = k;
  struct rp_graph rev = {n + 1, r_off, r_adj}, rev_preds = {n + 1, rp_off, rp_adj};
  pidom = f->ipdom;
  if (rp_dominators(&rev, &rev_preds, n, pidom, err) != NRT_OK ||
      rp_domtree_number(n + 1, pidom, n, f->pdom_pre, f->pdom_post, err) != NRT_OK)
    goto done;
  rc = NRT_OK;
done:
  if (idom)
    FREE_ARRAY(idom, n);
  if (r_off)
    FREE_ARRAY(r_off, n + 2);
  if (r_adj)
    FREE_ARRAY(r_adj, n_edges + n_exits);
  if (rp_off)
    FREE_ARRAY(rp_off, n + 2);
  if (rp_adj)
    FREE_ARRAY(rp_adj, n_edges + n_exits);
  return rc;
}

void rp_func_free(struct rp_func *f) {
  int n = f->n, n_edges = f->n_edges;
  rp_events_free(f);
  if (f->blocks)
    FREE_ARRAY(f->blocks, n);
  if (f->succ)
    FREE_ARRAY(f->succ, n_edges);
  if (f->pred)
    FREE_ARRAY(f->pred, n_edges);
  if (f->succ_off)
    FREE_ARRAY(f->succ_off, n + 1);
  if (f->pred_off)
    FREE_ARRAY(f->pred_off, n + 1);
  if (f->events)
    FREE_ARRAY(f->events, f->events_cap);
  if (f->stamp)
    FREE_ARRAY(f->stamp, n);
  if (f->end_stamp)
    FREE_ARRAY(f->end_stamp, n);
  if (f->worklist)
    FREE_ARRAY(f->worklist, n);
  if (f->region)
    FREE_ARRAY(f->region, n);
  if (f->dom_pre)
    FREE_ARRAY(f->dom_pre, n);
  if (f->dom_post)
    FREE_ARRAY(f->dom_post, n);
  if (f->pdom_pre)
    FREE_ARRAY(f->pdom_pre, n + 1);
  if (f->pdom_post)
    FREE_ARRAY(f->pdom_post, n + 1);
  if (f->ipdom)
    FREE_ARRAY(f->ipdom, n + 1);
  memset(f, 0, sizeof(*f));
}

/* Dominator trees by Lengauer and Tarjan's algorithm (O(m log n), without recursion), over a
 * graph in compressed sparse row form. Internal to refprune.
 * LLVM's C API exposes no dominator tree, so refprune computes its own: post-dominators are the
 * dominators of the reversed graph rooted at a virtual exit node. */
#ifndef NRT_REFPRUNE_DOMTREE_H
#define NRT_REFPRUNE_DOMTREE_H

#include "nrt/core.h"

/* A directed graph of n nodes: the successors of node v are adj[off[v] .. off[v+1]-1]. */
struct rp_graph {
  int n;
  const int *off;
  const int *adj;
};

/* Computes the immediate dominator of every node of `g` reachable from `root` into idom[]
 * (n entries): idom[root] = root, idom[v] = -1 for a node unreachable from root. `preds` is the
 * reversed graph of `g`. Returns NRT_OK or NRT_ENOMEM. */
int rp_dominators(const struct rp_graph *g, const struct rp_graph *preds, int root, int *idom,
                  struct nrt_error *err);

/* Numbers the dominator tree given by idom[] (from rp_dominators) in depth-first order so that
 * a dominates b exactly when pre[a] <= pre[b] && post[b] <= post[a]; unreachable nodes get
 * pre = post = -1. Returns NRT_OK or NRT_ENOMEM. */
int rp_domtree_number(int n, const int *idom, int root, int *pre, int *post,
                      struct nrt_error *err);

/* Whether a dominates b, from the numbering above (false when either is unreachable). */
static inline int rp_dominates(const int *pre, const int *post, int a, int b) {
  return pre[a] >= 0 && pre[b] >= 0 && pre[a] <= pre[b] && post[b] <= post[a];
}

#endif

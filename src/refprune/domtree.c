/* Cooper-Harvey-Kennedy dominators: iterate idom over reverse postorder until stable, meeting
 * two candidate dominators by walking up the tree by postorder number ("intersect"). Near
 * linear on the reducible CFGs compilers produce; a few passes suffice. */
#include "refprune/domtree.h"

#include <string.h>

static int intersect(const int *idom, const int *po, int a, int b) {
  while (a != b) {
    while (po[a] < po[b])
      a = idom[a];
    while (po[b] < po[a])
      b = idom[b];
  }
  return a;
}

/* Iterative depth-first search from root: po[v] = postorder number or -1; order[] receives
 * nodes in postorder; returns how many were reached. stack/next are scratch of n entries. */
static int postorder(const struct rp_graph *g, int root, int *po, int *order, int *stack,
                     int *next) {
  int n = g->n, top = 0, count = 0;
  for (int v = 0; v < n; v++) {
    po[v] = -1;
    next[v] = -2; /* -2: not yet visited */
  }
  stack[top++] = root;
  next[root] = g->off[root];
  while (top > 0) {
    int v = stack[top - 1];
    if (next[v] < g->off[v + 1]) {
      int w = g->adj[next[v]++];
      if (next[w] == -2) {
        next[w] = g->off[w];
        stack[top++] = w;
      }
    } else {
      top--;
      po[v] = count;
      order[count++] = v;
    }
  }
  return count;
}

int rp_dominators(const struct rp_graph *g, const struct rp_graph *preds, int root, int *idom,
                  struct nrt_error *err) {
  int n = g->n;
  int *scratch = nrt_allocate(sizeof(int) * 4 * (size_t)(n > 0 ? n : 1), err);
  if (!scratch)
    return NRT_ENOMEM;
  int *po = scratch, *order = scratch + n, *stack = scratch + 2 * n, *next = scratch + 3 * n;
  int reached = postorder(g, root, po, order, stack, next);
  for (int v = 0; v < n; v++)
    idom[v] = -1;
  idom[root] = root;
  int changed = 1;
  while (changed) {
    changed = 0;
    /* Reverse postorder, root (last in postorder) excluded. */
    for (int i = reached - 2; i >= 0; i--) {
      int v = order[i], new_idom = -1;
      for (int k = preds->off[v]; k < preds->off[v + 1]; k++) {
        int p = preds->adj[k];
        if (po[p] < 0 || idom[p] < 0)
          continue; /* unreachable or not processed yet */
        new_idom = new_idom < 0 ? p : intersect(idom, po, p, new_idom);
      }
      if (new_idom != idom[v]) {
        idom[v] = new_idom;
        changed = 1;
      }
    }
  }
  nrt_free(scratch, sizeof(int) * 4 * (size_t)(n > 0 ? n : 1));
  return NRT_OK;
}

int rp_domtree_number(int n, const int *idom, int root, int *pre, int *post,
                      struct nrt_error *err) {
  size_t cells = (size_t)3 * (size_t)(n > 0 ? n : 1) + 1;
  int *scratch = nrt_allocate(sizeof(int) * cells, err);
  if (!scratch)
    return NRT_ENOMEM;
  /* Children lists in CSR form: child_off[v] .. child_off[v+1]. */
  int *child_off = scratch, *child = scratch + n + 1, *stack = scratch + 2 * n + 1;
  memset(child_off, 0, sizeof(int) * (size_t)(n + 1));
  for (int v = 0; v < n; v++) {
    pre[v] = post[v] = -1;
    if (v != root && idom[v] >= 0)
      child_off[idom[v] + 1]++;
  }
  for (int v = 0; v < n; v++)
    child_off[v + 1] += child_off[v];
  /* Fill using pre[] temporarily as a cursor per parent. */
  for (int v = 0; v < n; v++)
    pre[v] = child_off[v];
  for (int v = 0; v < n; v++)
    if (v != root && idom[v] >= 0)
      child[pre[idom[v]]++] = v;
  for (int v = 0; v < n; v++)
    pre[v] = -1;
  /* Depth-first walk; stack holds nodes, post[v] doubles as the next-child cursor until v is
   * finished (then it receives v's postorder number). */
  int top = 0, pre_count = 0, post_count = 0;
  int *cursor = post;
  stack[top++] = root;
  pre[root] = pre_count++;
  cursor[root] = child_off[root];
  while (top > 0) {
    int v = stack[top - 1];
    if (cursor[v] < child_off[v + 1]) {
      int w = child[cursor[v]++];
      pre[w] = pre_count++;
      cursor[w] = child_off[w];
      stack[top++] = w;
    } else {
      top--;
      cursor[v] = -(post_count++) - 2; /* finished: encoded so it is not taken for a cursor */
    }
  }
  for (int v = 0; v < n; v++)
    post[v] = pre[v] < 0 ? -1 : -(post[v] + 2);
  nrt_free(scratch, sizeof(int) * cells);
  return NRT_OK;
}

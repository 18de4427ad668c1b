/* Dominators by Lengauer and Tarjan's algorithm with path compression ("A Fast Algorithm for
 * Finding Dominators in a Flowgraph", 1979), O(m log n). Cooper-Harvey-Kennedy's iteration,
 * used before, walks up the tree from every predecessor: quadratic on the functions huge UDFs
 * make, where thousands of deep branches each jump to one exit (an elif chain's returns).
 * Everything is iterative: a chain of 100,000 blocks is a dominator tree as deep. */
#include "refprune/domtree.h"

#include <string.h>

/* The working arrays, each of n entries, indexed by node; semi[] and the depth-first numbers
 * are preorder numbers, vertex[] maps them back to nodes. */
struct lt {
  int *dfnum, *vertex, *parent, *semi, *ancestor, *label, *bucket, *bucket_next, *stack, *next;
};

/* Iterative depth-first search from root in preorder; returns how many nodes it reached. */
static int preorder(const struct rp_graph *g, int root, struct lt *t) {
  int top = 0, count = 0;
  t->dfnum[root] = count;
  t->vertex[count++] = root;
  t->parent[root] = -1;
  t->next[root] = g->off[root];
  t->stack[top++] = root;
  while (top > 0) {
    int v = t->stack[top - 1];
    if (t->next[v] < g->off[v + 1]) {
      int w = g->adj[t->next[v]++];
      if (t->dfnum[w] < 0) {
        t->dfnum[w] = count;
        t->vertex[count++] = w;
        t->parent[w] = v;
        t->next[w] = g->off[w];
        t->stack[top++] = w;
      }
    } else {
      top--;
    }
  }
  return count;
}

/* The node of least semi-dominator number on v's path in the forest (v itself at a root),
 * compressing the path on the way; the path is walked with t->stack, not recursion. */
static int eval(struct lt *t, int v) {
  if (t->ancestor[v] < 0)
    return v;
  int top = 0, x = v;
  while (t->ancestor[t->ancestor[x]] >= 0) {
    t->stack[top++] = x;
    x = t->ancestor[x];
  }
  while (top > 0) { /* from the top of the path down, as the recursive form returns */
    x = t->stack[--top];
    int a = t->ancestor[x];
    if (t->semi[t->label[a]] < t->semi[t->label[x]])
      t->label[x] = t->label[a];
    t->ancestor[x] = t->ancestor[a];
  }
  return t->label[v];
}

int rp_dominators(const struct rp_graph *g, const struct rp_graph *preds, int root, int *idom,
                  struct nrt_error *err) {
  int n = g->n;
  size_t cells = (size_t)10 * (size_t)(n > 0 ? n : 1);
  int *scratch = nrt_allocate(sizeof(int) * cells, err);
  if (!scratch)
    return NRT_ENOMEM;
  struct lt t;
  int **arrays[] = {&t.dfnum, &t.vertex,   &t.parent,      &t.semi,  &t.ancestor,
                    &t.label, &t.bucket, &t.bucket_next, &t.stack, &t.next};
  for (size_t k = 0; k < sizeof arrays / sizeof arrays[0]; k++)
    *arrays[k] = scratch + k * (size_t)(n > 0 ? n : 1);
  for (int v = 0; v < n; v++) {
    t.dfnum[v] = -1;
    idom[v] = -1;
    t.ancestor[v] = -1;
    t.label[v] = v;
    t.bucket[v] = -1;
  }
  int reached = preorder(g, root, &t);
  for (int i = 0; i < reached; i++)
    t.semi[t.vertex[i]] = i;
  for (int i = reached - 1; i > 0; i--) {
    int w = t.vertex[i];
    for (int k = preds->off[w]; k < preds->off[w + 1]; k++) {
      int v = preds->adj[k];
      if (t.dfnum[v] < 0)
        continue; /* unreachable from root */
      int u = eval(&t, v);
      if (t.semi[u] < t.semi[w])
        t.semi[w] = t.semi[u];
    }
    int s = t.vertex[t.semi[w]];
    t.bucket_next[w] = t.bucket[s];
    t.bucket[s] = w;
    int p = t.parent[w];
    t.ancestor[w] = p; /* link */
    for (int v = t.bucket[p]; v >= 0; v = t.bucket_next[v]) {
      int u = eval(&t, v);
      idom[v] = t.semi[u] < t.semi[v] ? u : p;
    }
    t.bucket[p] = -1;
  }
  for (int i = 1; i < reached; i++) {
    int w = t.vertex[i];
    if (idom[w] != t.vertex[t.semi[w]])
      idom[w] = idom[idom[w]];
  }
  idom[root] = root;
  nrt_free(scratch, sizeof(int) * cells);
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

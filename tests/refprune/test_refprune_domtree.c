/* Dominator trees (Cooper-Harvey-Kennedy, src/refprune/domtree.c) against the definition on
 * random graphs: a dominates b when every path from the root to b passes through a, i.e. b is
 * unreachable from the root once a is removed. Post-dominators (rp_func_dominance on random
 * LLVM functions) against: a post-dominates b when no exit is reachable from b once a is
 * removed. */
#include <stdlib.h>
#include <string.h>

#include "refprune/domtree.h"
#include "refprune/internal.h"
#include "refprune/rp_util.h"
#include "support/check.h"

#define MAXN 40

static uint64_t rng_state = 88172645463325252ull;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % n);
}

/* Nodes reachable from `from` along adj without entering `removed` (-1: none). */
static void reach(int n, const int *off, const int *adj, int from, int removed, char *seen) {
  int stack[MAXN * MAXN], top = 0;
  memset(seen, 0, (size_t)n);
  if (from == removed)
    return;
  seen[from] = 1;
  stack[top++] = from;
  while (top) {
    int v = stack[--top];
    for (int k = off[v]; k < off[v + 1]; k++) {
      int w = adj[k];
      if (w != removed && !seen[w]) {
        seen[w] = 1;
        stack[top++] = w;
      }
    }
  }
}

static void random_graph_case(int n, int edges) {
  int off[MAXN + 1], adj[MAXN * MAXN], poff[MAXN + 1], padj[MAXN * MAXN];
  int from[MAXN * MAXN], to[MAXN * MAXN];
  for (int e = 0; e < edges; e++) {
    from[e] = (int)rnd((uint32_t)n);
    to[e] = (int)rnd((uint32_t)n);
  }
  /* CSR both ways */
  memset(off, 0, sizeof(off));
  memset(poff, 0, sizeof(poff));
  for (int e = 0; e < edges; e++) {
    off[from[e] + 1]++;
    poff[to[e] + 1]++;
  }
  for (int v = 0; v < n; v++) {
    off[v + 1] += off[v];
    poff[v + 1] += poff[v];
  }
  int fill[MAXN], pfill[MAXN];
  memcpy(fill, off, sizeof(int) * (size_t)n);
  memcpy(pfill, poff, sizeof(int) * (size_t)n);
  for (int e = 0; e < edges; e++) {
    adj[fill[from[e]]++] = to[e];
    padj[pfill[to[e]]++] = from[e];
  }
  struct rp_graph g = {n, off, adj}, p = {n, poff, padj};
  int idom[MAXN], pre[MAXN], post[MAXN];
  CHECK_EQ_INT(rp_dominators(&g, &p, 0, idom, NULL), NRT_OK);
  CHECK_EQ_INT(rp_domtree_number(n, idom, 0, pre, post, NULL), NRT_OK);
  char reachable[MAXN], seen[MAXN];
  reach(n, off, adj, 0, -1, reachable);
  /* dom[a][b] by definition */
  static char dom[MAXN][MAXN];
  for (int a = 0; a < n; a++) {
    reach(n, off, adj, 0, a, seen);
    for (int b = 0; b < n; b++)
      dom[a][b] = reachable[a] && reachable[b] && (a == b || !seen[b]);
  }
  int bad = 0;
  for (int b = 0; b < n; b++) {
    if (!reachable[b]) {
      bad |= idom[b] != -1 || pre[b] != -1;
      continue;
    }
    for (int a = 0; a < n; a++)
      bad |= rp_dominates(pre, post, a, b) != dom[a][b];
    if (b == 0) {
      bad |= idom[0] != 0;
      continue;
    }
    /* idom: a strict dominator of b that every other strict dominator dominates */
    int d = idom[b];
    bad |= d < 0 || d == b || !dom[d][b];
    for (int a = 0; a < n && d >= 0; a++)
      if (a != b && dom[a][b])
        bad |= !dom[a][d];
  }
  if (bad)
    check_failf(__FILE__, __LINE__, "dominators wrong on a graph of %d nodes, %d edges", n, edges);
  else
    check_pass();
}

/* Post-dominators through rp_func_dominance on a random LLVM function. */
static void postdom_case(LLVMContextRef ctx, int n) {
  LLVMModuleRef mod = LLVMModuleCreateWithNameInContext("pd", ctx);
  LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
  LLVMValueRef fn = LLVMAddFunction(mod, "f", LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i1, 1, 0));
  LLVMBasicBlockRef bbs[MAXN];
  for (int i = 0; i < n; i++)
    bbs[i] = LLVMAppendBasicBlockInContext(ctx, fn, "b");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (int i = 0; i < n; i++) {
    LLVMPositionBuilderAtEnd(b, bbs[i]);
    uint32_t r = rnd(10);
    if (r < 2)
      LLVMBuildRetVoid(b);
    else if (r < 3)
      LLVMBuildUnreachable(b);
    else if (r < 6)
      LLVMBuildBr(b, bbs[1 + rnd((uint32_t)n - 1)]);
    else
      LLVMBuildCondBr(b, LLVMGetParam(fn, 0), bbs[1 + rnd((uint32_t)n - 1)],
                      bbs[1 + rnd((uint32_t)n - 1)]);
  }
  LLVMDisposeBuilder(b);
  struct nrt_refprune_config cfg;
  nrt_refprune_config_default(&cfg);
  struct rp_classifier c;
  rp_classifier_init(&c, &cfg, ctx, NULL);
  struct rp_func f;
  CHECK_EQ_INT(rp_func_build(&f, fn, &c, NULL), NRT_OK);
  CHECK_EQ_INT(rp_func_dominance(&f, NULL), NRT_OK);
  /* Reversed graph with the virtual exit n, for the definition. */
  int off[MAXN + 2], adj[MAXN * 4], k = 0;
  for (int v = 0; v < n; v++) {
    off[v] = k;
    for (int j = f.pred_off[v]; j < f.pred_off[v + 1]; j++)
      adj[k++] = f.pred[j];
  }
  off[n] = k;
  for (int v = 0; v < n; v++)
    if (f.succ_off[v + 1] == f.succ_off[v])
      adj[k++] = v;
  off[n + 1] = k;
  char reaches_exit[MAXN + 1], seen[MAXN + 1];
  reach(n + 1, off, adj, n, -1, reaches_exit);
  int bad = 0;
  for (int a = 0; a < n; a++) {
    reach(n + 1, off, adj, n, a, seen);
    for (int v = 0; v < n; v++) {
      int want = reaches_exit[a] && reaches_exit[v] && (a == v || !seen[v]);
      bad |= rp_dominates(f.pdom_pre, f.pdom_post, a, v) != want;
    }
  }
  for (int v = 0; v < n; v++) {
    if (!reaches_exit[v]) {
      bad |= f.ipdom[v] != -1;
      continue;
    }
    int d = f.ipdom[v];
    bad |= d < 0 || d == v;
    if (d >= 0 && d < n)
      bad |= !rp_dominates(f.pdom_pre, f.pdom_post, d, v);
  }
  if (bad)
    check_failf(__FILE__, __LINE__, "post-dominators wrong on a function of %d blocks", n);
  else
    check_pass();
  rp_func_free(&f);
  rp_classifier_free(&c);
  LLVMDisposeModule(mod);
}

int main(void) {
  struct check_live before = check_live_now();
  int rounds = getenv("NRT_UNDER_VALGRIND") ? 100 : 3000;
  for (int i = 0; i < rounds; i++) {
    int n = 1 + (int)rnd(MAXN);
    random_graph_case(n, (int)rnd((uint32_t)(3 * n + 1)));
  }
  LLVMContextRef ctx = LLVMContextCreate();
  for (int i = 0; i < rounds / 3; i++)
    postdom_case(ctx, 2 + (int)rnd(MAXN - 1));
  LLVMContextDispose(ctx);
  CHECK_NO_LEAK(before);
  return check_finish("test_refprune_domtree");
}

/* Live-event queries within a block in near-constant time.
 *
 * The sub-passes ask, from an event, for the next live decref (of any value, or of the same
 * value), the last live incref, and the next barrier. Scanning for them would be linear in the
 * events passed over, removed ones included, and so quadratic in a block's refops (a block of
 * 80,000 pairs took seconds and the old scans stopped at 4,096 events). Removed events are
 * skipped through union-find parents with path compression instead: a parent points at the
 * event itself while it is live, past it once it is removed. */
#include <string.h>

#include "refprune/internal.h"

#define ALLOC_INTS(n, err) nrt_allocate(sizeof(int) * (size_t)(n), (err))

/* Follows parents from x to a root (an index whose parent is itself), compressing the path. */
static int find(int *parent, int x) {
  int root = x;
  while (parent[root] != root)
    root = parent[root];
  while (parent[x] != root) {
    int next = parent[x];
    parent[x] = root;
    x = next;
  }
  return root;
}

int rp_events_index(struct rp_func *f, struct nrt_error *err) {
  int n = f->n_events;
  /* uf_dec and next_barrier have a sentinel at n; uf_same's root for "no decref" is n too;
   * uf_inc is shifted by one: index e + 1 is event e, index 0 the sentinel "none". */
  f->same_next = ALLOC_INTS(n + 1, err);
  f->uf_dec = ALLOC_INTS(n + 1, err);
  f->uf_same = ALLOC_INTS(n + 1, err);
  f->uf_inc = ALLOC_INTS(n + 1, err);
  f->next_barrier = ALLOC_INTS(n + 1, err);
  if (!f->same_next || !f->uf_dec || !f->uf_same || !f->uf_inc || !f->next_barrier) {
    rp_events_free(f);
    return NRT_ENOMEM;
  }
  struct rp_ptrmap last = {0}; /* value -> the latest decref seen (walking backwards) */
  for (int e = 0; e <= n; e++) {
    int live_dec = e < n && f->events[e].kind == RP_DEC;
    f->uf_dec[e] = live_dec || e == n ? e : e + 1;
    f->uf_same[e] = live_dec || e == n ? e : n;
    f->uf_inc[e] = e == 0 || f->events[e - 1].kind == RP_INC ? e : e - 1;
  }
  f->next_barrier[n] = n;
  for (int b = f->n - 1; b >= 0; b--) {
    int end = f->blocks[b].end_event, barrier = end;
    for (int e = end - 1; e >= f->blocks[b].first_event; e--) {
      struct rp_event *ev = &f->events[e];
      if (ev->kind == RP_BARRIER)
        barrier = e;
      f->next_barrier[e] = barrier;
      f->same_next[e] = -1;
      if (ev->kind != RP_INC && ev->kind != RP_DEC)
        continue;
      /* An entry left by another block is stale. */
      int seen = rp_ptrmap_get(&last, ev->value, -1);
      if (seen >= 0 && f->events[seen].block == b)
        f->same_next[e] = seen;
      if (ev->kind == RP_DEC && rp_ptrmap_put(&last, ev->value, e, err) != NRT_OK) {
        rp_ptrmap_free(&last);
        rp_events_free(f);
        return NRT_ENOMEM;
      }
    }
  }
  rp_ptrmap_free(&last);
  return NRT_OK;
}

void rp_events_free(struct rp_func *f) {
  int n = f->n_events;
  int **arrays[] = {&f->same_next, &f->uf_dec, &f->uf_same, &f->uf_inc, &f->next_barrier};
  for (size_t i = 0; i < sizeof arrays / sizeof arrays[0]; i++) {
    if (*arrays[i])
      nrt_free(*arrays[i], sizeof(int) * (size_t)(n + 1));
    *arrays[i] = NULL;
  }
}

void rp_events_removed(struct rp_func *f, int e) {
  if (!f->uf_dec)
    return;
  if (f->events[e].kind == RP_DEC) {
    f->uf_dec[e] = e + 1;
    f->uf_same[e] = f->same_next[e] >= 0 ? f->same_next[e] : f->n_events;
  } else if (f->events[e].kind == RP_INC) {
    f->uf_inc[e + 1] = e;
  }
}

int rp_live_dec_from(struct rp_func *f, int b, int from) {
  int end = f->blocks[b].end_event;
  if (from >= end)
    return end;
  int e = find(f->uf_dec, from);
  return e < end ? e : end;
}

int rp_live_dec_same(struct rp_func *f, int e) {
  if (e < 0)
    return -1;
  int r = find(f->uf_same, e);
  return r < f->n_events ? r : -1;
}

int rp_live_inc_upto(struct rp_func *f, int b, int from) {
  int e = find(f->uf_inc, from + 1) - 1;
  return e >= f->blocks[b].first_event ? e : -1;
}

/* The pair-removing sub-passes and the public entry points.
 *
 * Region search (diamond, fanout, fanout-raise). For an incref I of value x in block A, the
 * search scans forward from I: the rest of A, then blocks reached from A's successors. In each
 * block the first refop or barrier decides: a decref of x ends that path (the block is an
 * "end"); a decref of another value (or, with strict_calls, a barrier) makes the search fail;
 * increfs are passed over. A block with no successor and no decref of x fails, except a raising block when raising
 * ends are allowed. The search fails when it meets A again (a back edge to the head: I could run
 * again before a decref), visits more blocks than the subgraph limit, or finds the region open:
 * a block of the region entered from outside it or from an end block (then some decref could
 * run without I before it, or twice after it). When it succeeds, every execution that runs I
 * next runs exactly one of the end decrefs (or raises), no decref of another value runs
 * between, and every execution that reaches an end decref has run I since: I and the end
 * decrefs are removed together. README.md argues each rule. */
#include <string.h>

#include "refprune/domtree.h"
#include "refprune/internal.h"

static const char *const default_increfs[] = {"nrt_mi_incref", "nrt_mi_incref_local",
                                              "NRT_incref"};
static const char *const default_decrefs[] = {"nrt_mi_decref", "nrt_mi_decref_local",
                                              "NRT_decref"};

void nrt_refprune_config_default(struct nrt_refprune_config *cfg) {
  memset(cfg, 0, sizeof(*cfg));
  cfg->passes = NRT_REFPRUNE_ALL;
  cfg->subgraph_limit = NRT_REFPRUNE_DEFAULT_SUBGRAPH_LIMIT;
}

static void remove_event(struct rp_func *f, int e, struct nrt_refprune_stats *st) {
  struct rp_event *ev = &f->events[e];
  /* Increfs that failed because of this decref get another try. */
  if (f->wait_head) {
    for (int i = f->wait_head[e]; i >= 0; i = f->wait_next[i])
      f->retry[f->n_retry++] = i;
    f->wait_head[e] = -1;
  }
  if (ev->kind == RP_INC)
    st->increfs_removed++;
  else
    st->decrefs_removed++;
  rp_events_removed(f, e);
  LLVMInstructionEraseFromParent(ev->inst);
  ev->inst = NULL;
  ev->kind = RP_DEAD;
}

static int pass_null(struct rp_func *f, struct nrt_refprune_stats *st) {
  int changed = 0;
  for (int e = 0; e < f->n_events; e++) {
    struct rp_event *ev = &f->events[e];
    if ((ev->kind == RP_INC || ev->kind == RP_DEC) && LLVMIsConstant(ev->value) &&
        LLVMIsNull(ev->value)) {
      remove_event(f, e, st);
      st->null_removed++;
      changed = 1;
    }
  }
  return changed;
}

/* Per-block: incref event i and the first later live decref D of its value in its block. The
 * pair goes when no barrier lies between them (with strict_calls) and every decref of another
 * value between them happens at once with D: nothing between the first of those decrefs and D
 * ends a run of decrefs (a live incref, a barrier, an instruction neither inert nor a refop).
 * Every query is a union-find lookup (events.c), so a block's pairs are found in about linear
 * time, however many there are. */
static int try_per_bb(struct rp_func *f, int i, int *blocker, struct nrt_refprune_stats *st) {
  int b = f->events[i].block;
  int d = rp_live_dec_same(f, f->same_next[i]);
  if (d < 0)
    return 0;
  if (f->strict_calls && f->next_barrier[i + 1] < d)
    return 0;
  int u = rp_live_dec_from(f, b, i + 1);
  if (u < d) { /* a decref of another value comes first */
    int last = f->events[d].prev_blocker;
    int inc = rp_live_inc_upto(f, b, d - 1);
    if (inc >= 0 && f->events[inc].pos > last)
      last = f->events[inc].pos;
    if (last > f->events[u].pos) {
      *blocker = u;
      return 0;
    }
  }
  remove_event(f, i, st);
  remove_event(f, d, st);
  st->per_bb++;
  return 1;
}

/* The first live event of block b from event index `from` that is a decref or a barrier, or -1
 * when the block has none. Increfs are passed over. */
static int first_decision(struct rp_func *f, int b, int from) {
  int end = f->blocks[b].end_event;
  int e = rp_live_dec_from(f, b, from);
  if (f->strict_calls && from < end && f->next_barrier[from] < e)
    e = f->next_barrier[from];
  return e < end ? e : -1;
}

enum { SEARCH_FAIL = 0, SEARCH_OK = 1 };

/* Region search from incref event `inc` (see the top of this file). target >= 0 requires the
 * only end to be that block (diamond). Ends are left marked in end_stamp, region blocks in
 * stamp (both == stamp_now); f->region lists the region, *n_region its size, *raise_ends the
 * raising ends reached. */
static int region_search(struct rp_func *f, int inc, int target, int allow_raise, size_t limit,
                         int *n_region, int *raise_ends, int *blocker) {
  int a = f->events[inc].block;
  LLVMValueRef x = f->events[inc].value;
  int first = first_decision(f, a, inc + 1);
  if (first >= 0) {
    if (f->events[first].kind == RP_DEC && f->events[first].value != x)
      *blocker = first;
    return SEARCH_FAIL; /* a decref or barrier after I in its own block */
  }
  if (f->succ_off[a + 1] == f->succ_off[a])
    return SEARCH_FAIL;
  int stamp = ++f->stamp_now;
  int top = 0, count = 0, decref_ends = 0;
  *raise_ends = 0;
  for (int k = f->succ_off[a]; k < f->succ_off[a + 1]; k++) {
    int s = f->succ[k];
    if (s == a)
      return SEARCH_FAIL;
    if (f->stamp[s] != stamp) {
      f->stamp[s] = stamp;
      f->worklist[top++] = s;
      f->region[count++] = s;
    }
  }
  while (top > 0) {
    int r = f->worklist[--top];
    if ((size_t)count > limit)
      return SEARCH_FAIL;
    int e = first_decision(f, r, f->blocks[r].first_event);
    if (e >= 0) {
      if (f->events[e].kind != RP_DEC || f->events[e].value != x) {
        if (f->events[e].kind == RP_DEC)
          *blocker = e;
        return SEARCH_FAIL;
      }
      if (target >= 0 && r != target)
        return SEARCH_FAIL;
      f->end_stamp[r] = stamp;
      decref_ends++;
      continue;
    }
    if (f->succ_off[r + 1] == f->succ_off[r]) {
      if (allow_raise && (f->blocks[r].flags & RP_BLOCK_RAISING) && target < 0) {
        f->end_stamp[r] = stamp;
        (*raise_ends)++;
        continue;
      }
      return SEARCH_FAIL;
    }
    for (int k = f->succ_off[r]; k < f->succ_off[r + 1]; k++) {
      int s = f->succ[k];
      if (s == a)
        return SEARCH_FAIL;
      if (f->stamp[s] != stamp) {
        if ((size_t)count >= limit)
          return SEARCH_FAIL;
        f->stamp[s] = stamp;
        f->worklist[top++] = s;
        f->region[count++] = s;
      }
    }
  }
  if (decref_ends == 0)
    return SEARCH_FAIL;
  /* Closed region: every block is entered only from A or from a non-end region block. */
  for (int i = 0; i < count; i++) {
    int r = f->region[i];
    for (int k = f->pred_off[r]; k < f->pred_off[r + 1]; k++) {
      int p = f->pred[k];
      if (p == a)
        continue;
      if (f->stamp[p] != stamp || f->end_stamp[p] == stamp)
        return SEARCH_FAIL;
    }
  }
  *n_region = count;
  return SEARCH_OK;
}

/* Removes I and the decref that ends each end block of the last successful search. */
static void remove_region(struct rp_func *f, int inc, int n_region, struct nrt_refprune_stats *st) {
  int stamp = f->stamp_now;
  for (int i = 0; i < n_region; i++) {
    int r = f->region[i];
    if (f->end_stamp[r] != stamp)
      continue;
    int e = first_decision(f, r, f->blocks[r].first_event);
    if (e >= 0)
      remove_event(f, e, st); /* raising ends have none */
  }
  remove_event(f, inc, st);
}

static int try_diamond(struct rp_func *f, int i, size_t limit, int *blocker,
                       struct nrt_refprune_stats *st) {
  int a = f->events[i].block;
  LLVMValueRef x = f->events[i].value;
  int b = f->ipdom[a];
  size_t steps = 0;
  /* Walk up the post-dominator tree: each block there lies on every path from A to exit. */
  while (b >= 0 && b < f->n && b != a && steps++ < limit &&
         rp_dominates(f->dom_pre, f->dom_post, a, b)) {
    int e = first_decision(f, b, f->blocks[b].first_event);
    if (e >= 0) {
      int n_region = 0, raise_ends = 0;
      if (f->events[e].kind == RP_DEC && f->events[e].value != x)
        *blocker = e;
      if (f->events[e].kind != RP_DEC || f->events[e].value != x ||
          region_search(f, i, b, 0, limit, &n_region, &raise_ends, blocker) != SEARCH_OK)
        return 0;
      remove_region(f, i, n_region, st);
      st->diamond++;
      return 1;
    }
    b = f->ipdom[b];
  }
  return 0;
}

static int try_fanout(struct rp_func *f, int i, size_t limit, int allow_raise, int *blocker,
                      struct nrt_refprune_stats *st) {
  int n_region = 0, raise_ends = 0;
  if (region_search(f, i, -1, allow_raise, limit, &n_region, &raise_ends, blocker) != SEARCH_OK)
    return 0;
  if (allow_raise && raise_ends == 0)
    return 0; /* a plain fanout: left to (and counted by) the fanout sub-pass */
  remove_region(f, i, n_region, st);
  if (allow_raise)
    st->fanout_raise++;
  else
    st->fanout++;
  return 1;
}

/* Tries the selected sub-passes on incref event i; on failure because of a decref of another
 * value, i waits on that decref. */
static int try_all(struct rp_func *f, int i, unsigned passes, size_t limit,
                   struct nrt_refprune_stats *st) {
  int blocker = -1;
  if (((passes & NRT_REFPRUNE_PER_BB) && try_per_bb(f, i, &blocker, st)) ||
      ((passes & NRT_REFPRUNE_DIAMOND) && try_diamond(f, i, limit, &blocker, st)) ||
      ((passes & NRT_REFPRUNE_FANOUT) && try_fanout(f, i, limit, 0, &blocker, st)) ||
      ((passes & NRT_REFPRUNE_FANOUT_RAISE) && try_fanout(f, i, limit, 1, &blocker, st)))
    return 1;
  if (blocker >= 0 && f->events[blocker].kind == RP_DEC) {
    f->wait_next[i] = f->wait_head[blocker];
    f->wait_head[blocker] = i;
  }
  return 0;
}

static int prune_built(struct rp_func *f, const struct nrt_refprune_config *cfg,
                       struct nrt_refprune_stats *st, struct nrt_error *err) {
  unsigned passes = cfg->passes;
  size_t limit = cfg->subgraph_limit ? cfg->subgraph_limit : NRT_REFPRUNE_DEFAULT_SUBGRAPH_LIMIT;
  if (passes & NRT_REFPRUNE_NULL)
    pass_null(f, st);
  if ((passes & NRT_REFPRUNE_DIAMOND) && rp_func_dominance(f, err) != NRT_OK)
    return NRT_ENOMEM;
  if (rp_events_index(f, err) != NRT_OK)
    return NRT_ENOMEM;
  /* Increfs are visited last to first, each trying the selected sub-passes in order: removing
   * a later pair can unblock an earlier incref (its path no longer meets that decref), which is
   * then found in the same sweep. An incref that fails because of a decref of another value
   * waits on that decref and is tried again as soon as the decref is removed. Sweeps repeat
   * until one removes nothing. */
  size_t cells = (size_t)f->n_events + 1;
  f->wait_head = nrt_allocate(sizeof(int) * cells * 3, err);
  if (!f->wait_head)
    return NRT_ENOMEM;
  f->wait_next = f->wait_head + cells;
  f->retry = f->wait_head + 2 * cells;
  int changed = 1;
  while (changed) {
    changed = 0;
    for (int e = 0; e < f->n_events; e++)
      f->wait_head[e] = -1;
    f->n_retry = 0;
    for (int i = f->n_events - 1; i >= 0; i--) {
      int next = i;
      for (;;) {
        if (f->events[next].kind == RP_INC && try_all(f, next, passes, limit, st))
          changed = 1;
        if (f->n_retry == 0)
          break;
        next = f->retry[--f->n_retry];
      }
    }
  }
  nrt_free(f->wait_head, sizeof(int) * cells * 3);
  f->wait_head = f->wait_next = f->retry = NULL;
  return NRT_OK;
}

/* The configuration with default names filled in. */
static int effective_config(const struct nrt_refprune_config *cfg,
                            struct nrt_refprune_config *out, struct nrt_error *err) {
  if (cfg)
    *out = *cfg;
  else
    nrt_refprune_config_default(out);
  if (out->passes & ~(unsigned)NRT_REFPRUNE_ALL)
    return nrt_error_set(err, NRT_EINVAL, "refprune: unknown sub-pass bits 0x%x", out->passes);
  if (!out->incref_names || !out->incref_count) {
    out->incref_names = default_increfs;
    out->incref_count = sizeof(default_increfs) / sizeof(default_increfs[0]);
  }
  if (!out->decref_names || !out->decref_count) {
    out->decref_names = default_decrefs;
    out->decref_count = sizeof(default_decrefs) / sizeof(default_decrefs[0]);
  }
  return NRT_OK;
}

static int prune_one(LLVMValueRef fn, const struct nrt_refprune_config *cfg,
                     struct rp_classifier *c, struct nrt_refprune_stats *st,
                     struct nrt_error *err) {
  if (LLVMIsDeclaration(fn) || LLVMCountBasicBlocks(fn) == 0)
    return NRT_OK;
  if ((cfg->passes & NRT_REFPRUNE_NORMALIZE) &&
      rp_normalize_function(fn, c, &st->normalized, err) != NRT_OK)
    return NRT_ENOMEM;
  struct rp_func f;
  if (rp_func_build(&f, fn, c, err) != NRT_OK)
    return NRT_ENOMEM;
  f.strict_calls = cfg->strict_calls != 0;
  int rc = prune_built(&f, cfg, st, err);
  rp_func_free(&f);
  return rc;
}

int nrt_refprune_function(struct LLVMOpaqueValue *function, const struct nrt_refprune_config *cfg,
                          struct nrt_refprune_stats *stats, struct nrt_error *err) {
  if (!function || !LLVMIsAFunction(function))
    return nrt_error_set(err, NRT_EINVAL, "refprune: not a function");
  struct nrt_refprune_config eff;
  int rc = effective_config(cfg, &eff, err);
  if (rc != NRT_OK)
    return rc;
  struct nrt_refprune_stats local;
  memset(&local, 0, sizeof(local));
  struct nrt_refprune_stats *st = stats ? stats : &local;
  struct rp_classifier c;
  rp_classifier_init(&c, &eff, LLVMGetTypeContext(LLVMTypeOf(function)), err);
  rc = prune_one(function, &eff, &c, st, err);
  rp_classifier_free(&c);
  return rc;
}

int nrt_refprune_module(struct LLVMOpaqueModule *module, const struct nrt_refprune_config *cfg,
                        struct nrt_refprune_stats *stats, struct nrt_error *err) {
  if (stats)
    memset(stats, 0, sizeof(*stats));
  if (!module)
    return nrt_error_set(err, NRT_EINVAL, "refprune: NULL module");
  struct nrt_refprune_config eff;
  int rc = effective_config(cfg, &eff, err);
  if (rc != NRT_OK)
    return rc;
  struct nrt_refprune_stats local;
  memset(&local, 0, sizeof(local));
  struct nrt_refprune_stats *st = stats ? stats : &local;
  struct rp_classifier c;
  rp_classifier_init(&c, &eff, LLVMGetModuleContext(module), err);
  for (LLVMValueRef fn = LLVMGetFirstFunction(module); fn && rc == NRT_OK;
       fn = LLVMGetNextFunction(fn))
    rc = prune_one(fn, &eff, &c, st, err);
  rp_classifier_free(&c);
  if (rc == NRT_ENOMEM && (!err || err->code == 0))
    nrt_error_set(err, NRT_ENOMEM, "refprune: out of memory");
  return rc;
}

int nrt_refprune_parse_passes(const char *list, unsigned *out, struct nrt_error *err) {
  static const struct {
    const char *name;
    unsigned bit;
  } names[] = {{"normalize", NRT_REFPRUNE_NORMALIZE}, {"normalise", NRT_REFPRUNE_NORMALIZE},
               {"null", NRT_REFPRUNE_NULL},           {"per-bb", NRT_REFPRUNE_PER_BB},
               {"diamond", NRT_REFPRUNE_DIAMOND},     {"fanout", NRT_REFPRUNE_FANOUT},
               {"fanout-raise", NRT_REFPRUNE_FANOUT_RAISE}, {"all", NRT_REFPRUNE_ALL}};
  if (!list || !out)
    return nrt_error_set(err, NRT_EINVAL, "refprune: NULL pass list");
  unsigned bits = 0;
  const char *p = list;
  while (*p) {
    const char *comma = strchr(p, ',');
    size_t len = comma ? (size_t)(comma - p) : strlen(p);
    int found = 0;
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
      if (strlen(names[i].name) == len && memcmp(names[i].name, p, len) == 0) {
        bits |= names[i].bit;
        found = 1;
      }
    if (!found)
      return nrt_error_set(err, NRT_EINVAL, "refprune: unknown sub-pass '%.*s'", (int)len, p);
    p += len;
    if (*p == ',')
      p++;
  }
  *out = bits;
  return NRT_OK;
}

/* The property check shared by test_refprune_property and fuzz_refprune: random CFGs with
 * random refcount operations, pruned with a random selection of sub-passes; every path (bounded
 * length) of the original and the pruned function is simulated on a counter per object. Each
 * path is simulated three times: with the pointers pointing to three different objects,
 * with p0 and p1 pointing to the same object, and with all three pointing to one object (each
 * object starts with one reference; the other pointers to it borrow): the counters are per
 * object, which checks the rules about decrefs of other values. Required:
 *  - on every path (complete or cut at the bound) the pruned function's count of an object
 *    never drops to zero earlier than the original's (time = position of the block in the
 *    path, then the number of non-refop instructions passed in the block);
 *  - on a complete path ending in a normal exit, every count ends equal;
 *  - on a complete path ending in a raising block (the relation documented in
 *    nrt/refprune.h): with fanout-raise off, counts end equal; with it on, the pruned final
 *    count is the original's minus d, 0 <= d <= the number of the pointer's increfs that ran
 *    in the original on this path and were removed;
 *  - on every path, at the end of every block, the removed increfs of an object that ran are at
 *    least as many as its removed decrefs that ran (no removed decref runs without its incref;
 *    inside a block normalise may have put a decref after an incref).
 * Also: the pruned module passes the verifier, and the run is deterministic by seed. */
#include "rp_prop.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/refprune.h"
#include "rp_util.h"

#define N_PTR 3
#define MAX_BLOCKS 9
#define MAX_OPS 8
#define MAX_PATH 11
#define MAX_PATHS 4000
#define MAX_IDS 256

static struct rp_rng *cur_rng;

uint32_t rp_rng_next(struct rp_rng *r, uint32_t n) {
  if (r->data) {
    if (r->pos >= r->len)
      return 0;
    uint32_t v = r->data[r->pos++];
    return v % n;
  }
  r->state ^= r->state << 13;
  r->state ^= r->state >> 7;
  r->state ^= r->state << 17;
  return (uint32_t)(r->state % n);
}

static uint32_t rnd(uint32_t n) { return rp_rng_next(cur_rng, n); }

/* ------------------------------------------------------------------ generating IR */

struct gen {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMValueRef fn, inc, dec, use;
  LLVMTypeRef inc_ty, use_ty;
  unsigned id_kind, raise_kind;
  int next_id;
};

static void tag(struct gen *g, LLVMValueRef call) {
  LLVMValueRef v = LLVMConstInt(LLVMInt32TypeInContext(g->ctx), (unsigned long long)g->next_id++, 0);
  LLVMSetMetadata(call, g->id_kind, LLVMMDNodeInContext(g->ctx, &v, 1));
}

static void emit_ops(struct gen *g, LLVMBuilderRef b) {
  int n = (int)rnd(MAX_OPS / 2 + 1);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(g->ctx), 0);
  for (int k = 0; k < n; k++) {
    uint32_t r = rnd(100);
    LLVMValueRef p = rnd(12) == 0 ? LLVMConstNull(i8p) : LLVMGetParam(g->fn, rnd(N_PTR));
    if (r < 40) {
      tag(g, LLVMBuildCall2(b, g->inc_ty, g->inc, &p, 1, ""));
    } else if (r < 80) {
      tag(g, LLVMBuildCall2(b, g->inc_ty, g->dec, &p, 1, ""));
    } else if (r < 90) {
      LLVMBuildCall2(b, g->use_ty, g->use, &p, 1, "");
    } else {
      /* a plain instruction: an anchor for the time axis */
      LLVMValueRef q = LLVMGetParam(g->fn, rnd(N_PTR));
      LLVMBuildStore(b, LLVMConstInt(LLVMInt8TypeInContext(g->ctx), 1, 0), q);
    }
  }
}

static LLVMModuleRef generate(LLVMContextRef ctx) {
  struct gen g;
  memset(&g, 0, sizeof(g));
  g.ctx = ctx;
  g.mod = LLVMModuleCreateWithNameInContext("prop", ctx);
  LLVMTypeRef i8p = LLVMPointerType(LLVMInt8TypeInContext(ctx), 0);
  LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx), i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i32p = LLVMPointerType(i32, 0);
  g.inc_ty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), &i8p, 1, 0);
  g.use_ty = g.inc_ty;
  g.inc = LLVMAddFunction(g.mod, "NRT_incref", g.inc_ty);
  g.dec = LLVMAddFunction(g.mod, "NRT_decref", g.inc_ty);
  g.use = LLVMAddFunction(g.mod, "use", g.use_ty);
  LLVMTypeRef params[N_PTR + 3];
  for (int i = 0; i < N_PTR; i++)
    params[i] = i8p;
  params[N_PTR] = i1;
  params[N_PTR + 1] = i1;
  params[N_PTR + 2] = i32p;
  g.fn = LLVMAddFunction(g.mod, "f", LLVMFunctionType(i32, params, N_PTR + 3, 0));
  g.id_kind = LLVMGetMDKindIDInContext(ctx, "rp.id", 5);
  g.raise_kind = LLVMGetMDKindIDInContext(ctx, "numba_exception_output", 22);
  int n = 2 + (int)rnd(MAX_BLOCKS - 1);
  LLVMBasicBlockRef bbs[MAX_BLOCKS];
  for (int i = 0; i < n; i++) {
    char name[16];
    snprintf(name, sizeof(name), "b%d", i);
    bbs[i] = LLVMAppendBasicBlockInContext(ctx, g.fn, name);
  }
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  for (int i = 0; i < n; i++) {
    LLVMPositionBuilderAtEnd(b, bbs[i]);
    emit_ops(&g, b);
    uint32_t r = rnd(100);
    /* Targets exclude the entry block (it may have no predecessor). */
    if (r < 15 || n == 1) {
      LLVMBuildRet(b, LLVMConstInt(i32, 0, 0));
    } else if (r < 27) {
      LLVMValueRef st = LLVMBuildStore(b, LLVMConstInt(i32, 1, 0), LLVMGetParam(g.fn, N_PTR + 2));
      LLVMValueRef t = LLVMConstInt(i1, 1, 0);
      LLVMSetMetadata(st, g.raise_kind, LLVMMDNodeInContext(ctx, &t, 1));
      LLVMBuildRet(b, LLVMConstInt(i32, 1, 0));
    } else if (r < 55) {
      LLVMBuildBr(b, bbs[1 + rnd((uint32_t)n - 1)]);
    } else {
      LLVMBuildCondBr(b, LLVMGetParam(g.fn, N_PTR + rnd(2)), bbs[1 + rnd((uint32_t)n - 1)],
                      bbs[1 + rnd((uint32_t)n - 1)]);
    }
  }
  LLVMDisposeBuilder(b);
  return g.mod;
}

/* ------------------------------------------------------------------ reading a function back */

struct op {
  int kind; /* +1 incref, -1 decref */
  int ptr;  /* parameter index */
  int id;
  int time; /* non-refop instructions before it in its block */
};

struct sim_block {
  struct op ops[2 * MAX_OPS + 4];
  int n_ops;
  int succ[2], n_succ;
  int raising;
};

static int op_id(LLVMValueRef inst, unsigned id_kind) {
  LLVMValueRef md = LLVMGetMetadata(inst, id_kind);
  if (!md)
    return -1;
  LLVMValueRef v = NULL;
  LLVMGetMDNodeOperands(md, &v);
  return v ? (int)LLVMConstIntGetZExtValue(v) : -1;
}

static int read_function(LLVMValueRef fn, struct sim_block *out, unsigned id_kind,
                         unsigned raise_kind) {
  int n = 0;
  LLVMBasicBlockRef index[MAX_BLOCKS];
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    index[n++] = bb;
  for (int i = 0; i < n; i++) {
    struct sim_block *sb = &out[i];
    memset(sb, 0, sizeof(*sb));
    int time = 0;
    for (LLVMValueRef in = LLVMGetFirstInstruction(index[i]); in; in = LLVMGetNextInstruction(in)) {
      int k = rp_test_refop_kind(in);
      if (k == 0) {
        time++;
        if (LLVMGetMetadata(in, raise_kind))
          sb->raising = 1;
        continue;
      }
      LLVMValueRef p = LLVMGetOperand(in, 0);
      int ptr = -1;
      for (int a = 0; a < N_PTR; a++)
        if (LLVMGetParam(fn, (unsigned)a) == p)
          ptr = a;
      if (ptr < 0)
        continue; /* an operation on null does nothing */
      struct op *o = &sb->ops[sb->n_ops++];
      o->kind = k;
      o->ptr = ptr;
      o->id = op_id(in, id_kind);
      o->time = time;
    }
    LLVMValueRef term = LLVMGetBasicBlockTerminator(index[i]);
    sb->n_succ = (int)LLVMGetNumSuccessors(term);
    for (int s = 0; s < sb->n_succ; s++) {
      LLVMBasicBlockRef t = LLVMGetSuccessor(term, (unsigned)s);
      for (int j = 0; j < n; j++)
        if (index[j] == t)
          sb->succ[s] = j;
    }
  }
  return n;
}

/* ------------------------------------------------------------------ simulating paths */

struct sim {
  struct sim_block orig[MAX_BLOCKS], pruned[MAX_BLOCKS];
  int n;
  unsigned char kept[MAX_IDS]; /* ids of refops left in the pruned function */
  int raise_on;
  int path[MAX_PATH + 1];
  long paths;
  int failures, verbose;
  uint64_t seed;
};

struct run {
  int count[N_PTR];
  long zero_time[N_PTR]; /* first (block position, time) at which count <= 0, or -1 */
  int removed_incs[N_PTR];
  int open_negative; /* a removed decref ran with no removed incref of its object open */
};

static const int alias_maps[3][N_PTR] = {{0, 1, 2}, {0, 0, 1}, {0, 0, 0}};

static void run_path(const struct sim_block *blocks, const int *path, int len, struct run *r,
                     const unsigned char *kept, const int *alias) {
  int open[N_PTR];
  r->open_negative = 0;
  for (int p = 0; p < N_PTR; p++) {
    r->count[p] = 0;
    r->zero_time[p] = -1;
    r->removed_incs[p] = 0;
    open[p] = 0;
  }
  for (int p = 0; p < N_PTR; p++)
    r->count[alias[p]] = 1;
  for (int i = 0; i < len; i++) {
    const struct sim_block *b = &blocks[path[i]];
    for (int k = 0; k < b->n_ops; k++) {
      const struct op *o = &b->ops[k];
      int obj = alias[o->ptr];
      r->count[obj] += o->kind;
      if (kept && o->id >= 0 && !kept[o->id]) {
        r->removed_incs[obj] += o->kind > 0;
        open[obj] += o->kind;
      }
      if (r->count[obj] <= 0 && r->zero_time[obj] < 0)
        r->zero_time[obj] = (long)i * 1000 + o->time;
    }
    /* Checked at block ends: normalise may have moved a decref after an incref in a block. */
    for (int x = 0; x < N_PTR; x++)
      r->open_negative |= open[x] < 0;
  }
}

static void check_path_aliased(struct sim *s, int len, int complete, const int *alias) {
  struct run o, p;
  run_path(s->orig, s->path, len, &o, s->kept, alias);
  run_path(s->pruned, s->path, len, &p, NULL, alias);
  int raising = complete && s->orig[s->path[len - 1]].raising;
  for (int x = 0; x < N_PTR; x++) {
    int bad = 0;
    if (p.zero_time[x] >= 0 && (o.zero_time[x] < 0 || p.zero_time[x] < o.zero_time[x]))
      bad = 1; /* the pruned count reached zero earlier */
    if (complete && !raising && p.count[x] != o.count[x])
      bad = 2;
    if (o.open_negative)
      bad = 4; /* a removed decref ran before any removed incref it could pair with */
    if (raising) {
      int d = o.count[x] - p.count[x];
      if (!s->raise_on ? d != 0 : (d < 0 || d > o.removed_incs[x]))
        bad = 3;
    }
    if (bad) {
      s->failures++;
      if (s->verbose && s->failures <= 5) {
        fprintf(stderr, "seed %llu: rule %d broken for object %d (aliasing %d%d%d) on path",
                (unsigned long long)s->seed, bad, x, alias[0], alias[1], alias[2]);
        for (int i = 0; i < len; i++)
          fprintf(stderr, " b%d", s->path[i]);
        fprintf(stderr, " (orig %d zero@%ld, pruned %d zero@%ld)\n", o.count[x], o.zero_time[x],
                p.count[x], p.zero_time[x]);
      }
    }
  }
}

static void check_path(struct sim *s, int len, int complete) {
  for (int a = 0; a < 3; a++)
    check_path_aliased(s, len, complete, alias_maps[a]);
}

static void walk(struct sim *s, int len) {
  if (s->paths >= MAX_PATHS)
    return;
  int b = s->path[len - 1];
  const struct sim_block *blk = &s->orig[b];
  if (blk->n_succ == 0) {
    s->paths++;
    check_path(s, len, 1);
    return;
  }
  if (len == MAX_PATH) {
    s->paths++;
    check_path(s, len, 0);
    return;
  }
  for (int i = 0; i < blk->n_succ; i++) {
    if (i == 1 && blk->succ[1] == blk->succ[0])
      break;
    s->path[len] = blk->succ[i];
    walk(s, len + 1);
  }
}

int rp_prop_run(struct rp_rng *rng, int verbose, struct rp_prop_totals *totals) {
  static struct sim s;
  memset(&s, 0, sizeof(s));
  cur_rng = rng;
  s.seed = rng->state;
  s.verbose = verbose;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef orig = generate(ctx);
  int failures = 0;
  if (!rp_test_verify(orig, "generated"))
    failures++;
  LLVMModuleRef pruned = LLVMCloneModule(orig);
  struct nrt_refprune_config cfg;
  nrt_refprune_config_default(&cfg);
  cfg.passes = rnd(4) == 0 ? NRT_REFPRUNE_ALL : rnd(NRT_REFPRUNE_ALL + 1);
  cfg.strict_calls = (int)rnd(2);
  cfg.subgraph_limit = 1 + rnd(10);
  s.raise_on = (cfg.passes & NRT_REFPRUNE_FANOUT_RAISE) != 0;
  struct nrt_refprune_stats st;
  memset(&st, 0, sizeof(st));
  if (nrt_refprune_module(pruned, &cfg, &st, NULL) != NRT_OK)
    failures++;
  if (!rp_test_verify(pruned, "pruned"))
    failures++;
  unsigned id_kind = LLVMGetMDKindIDInContext(ctx, "rp.id", 5);
  unsigned raise_kind = LLVMGetMDKindIDInContext(ctx, "numba_exception_output", 22);
  LLVMValueRef fo = LLVMGetNamedFunction(orig, "f"), fp = LLVMGetNamedFunction(pruned, "f");
  s.n = read_function(fo, s.orig, id_kind, raise_kind);
  if (read_function(fp, s.pruned, id_kind, raise_kind) != s.n)
    failures++;
  for (int b = 0; b < s.n; b++)
    for (int k = 0; k < s.pruned[b].n_ops; k++)
      if (s.pruned[b].ops[k].id >= 0 && s.pruned[b].ops[k].id < MAX_IDS)
        s.kept[s.pruned[b].ops[k].id] = 1;
  totals->refops += (long)rp_test_count_module(orig);
  totals->removed += (long)(st.increfs_removed + st.decrefs_removed);
  s.path[0] = 0;
  walk(&s, 1);
  totals->paths += s.paths;
  failures += s.failures;
  if (failures && verbose) {
    fprintf(stderr, "%d failures (passes 0x%x strict %d limit %zu)\n", failures, cfg.passes,
            cfg.strict_calls, cfg.subgraph_limit);
    char *text = LLVMPrintModuleToString(orig);
    fprintf(stderr, "%s\n", text);
    LLVMDisposeMessage(text);
    text = LLVMPrintModuleToString(pruned);
    fprintf(stderr, "pruned:\n%s\n", text);
    LLVMDisposeMessage(text);
  }
  LLVMDisposeModule(orig);
  LLVMDisposeModule(pruned);
  LLVMContextDispose(ctx);
  return failures;
}

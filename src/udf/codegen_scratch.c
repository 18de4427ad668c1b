/* Scratch slots: the entry-block allocas through which runtime calls take str arguments and
 * return their results (cg_spill, cg_out_str, cg_scratch).
 *
 * A scratch slot lives from the store before a call to the load after it; no value is kept in
 * one past the expression or statement that filled it (results are loaded into SSA values).
 * So each expression and each statement hands back the slots it borrowed when it is done
 * (cg_scratch_mark / cg_scratch_release), and later code reuses them: a function has as many
 * slots as one statement needs at once, not one per call. A fresh alloca per call made LLVM's
 * passes quadratic (thousands of allocas whose lifetime markers the inliner spreads over the
 * whole function: InstCombine, MemCpyOpt, stack colouring and instruction selection). */
#include <string.h>

#include "udf/codegen_internal.h"

struct cg_scratch_slot {
  LLVMValueRef alloca;
  int kind;      /* index into kinds */
  int next_free; /* next free slot of the same kind, or -1 */
  int lends;     /* times lent out */
};

struct cg_scratch_kind {
  LLVMTypeRef type;
  int free_head; /* first free slot of this type, or -1 */
};

/* A slot lent this many times is retired, so that one alloca is not the memory object of
 * the loads and stores of every statement of a huge UDF, which the optimiser would then have
 * to take apart as a whole. */
#define SCRATCH_MAX_LENDS 64

/* Grows an array of `size`-byte items to hold one more; false (c failed) without memory. */
static bool grow(cg *c, void **items, int n, int *cap, size_t size) {
  if (n < *cap)
    return true;
  int ncap = *cap ? *cap * 2 : 16;
  void *p = nrt_reallocate(*items, size * (size_t)*cap, size * (size_t)ncap, c->errp);
  if (!p) {
    c->failed = 1;
    c->code = NRT_ENOMEM;
    return false;
  }
  *items = p;
  *cap = ncap;
  return true;
}

LLVMValueRef cg_scratch(cg *c, LLVMTypeRef t, const char *name) {
  cg_scratch_pool *p = &c->scratch;
  int k = 0;
  while (k < p->nkinds && p->kinds[k].type != t)
    k++;
  if (k == p->nkinds) {
    if (!grow(c, (void **)&p->kinds, p->nkinds, &p->capkinds, sizeof *p->kinds))
      return cg_alloca(c, t, name);
    p->kinds[k].type = t;
    p->kinds[k].free_head = -1;
    p->nkinds++;
  }
  if (!grow(c, (void **)&p->lent, p->nlent, &p->caplent, sizeof *p->lent))
    return cg_alloca(c, t, name);
  int s = p->kinds[k].free_head;
  if (s >= 0) {
    p->kinds[k].free_head = p->slots[s].next_free;
  } else {
    if (!grow(c, (void **)&p->slots, p->nslots, &p->capslots, sizeof *p->slots))
      return cg_alloca(c, t, name);
    s = p->nslots++;
    p->slots[s].alloca = cg_alloca(c, t, name);
    p->slots[s].kind = k;
    p->slots[s].lends = 0;
  }
  p->slots[s].next_free = -1;
  p->slots[s].lends++;
  p->lent[p->nlent++] = s;
  return p->slots[s].alloca;
}

int cg_scratch_mark(const cg *c) { return c->scratch.nlent; }

void cg_scratch_release(cg *c, int mark) {
  cg_scratch_pool *p = &c->scratch;
  while (p->nlent > mark) {
    int s = p->lent[--p->nlent];
    if (p->slots[s].lends >= SCRATCH_MAX_LENDS)
      continue; /* retired */
    struct cg_scratch_kind *k = &p->kinds[p->slots[s].kind];
    p->slots[s].next_free = k->free_head;
    k->free_head = s;
  }
}

void cg_scratch_free(cg *c) {
  cg_scratch_pool *p = &c->scratch;
  nrt_free(p->slots, sizeof *p->slots * (size_t)p->capslots);
  nrt_free(p->kinds, sizeof *p->kinds * (size_t)p->capkinds);
  nrt_free(p->lent, sizeof *p->lent * (size_t)p->caplent);
  memset(p, 0, sizeof *p);
}

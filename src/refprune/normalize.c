/* Normalise: delay decrefs past later increfs inside one block.
 *
 * A block is cut into stretches by barriers (calls that might release or observe an object) and
 * by its terminator. Within a stretch that holds an incref after a decref, the stretch's
 * decrefs are moved, in their original order, to just before the barrier or terminator that
 * ends it. Delaying a decref keeps every count at least as high as before at every point and
 * changes nothing that a non-barrier instruction can see; a decref never crosses a barrier. */
#include "refprune/internal.h"

struct pending {
  LLVMValueRef *items;
  size_t count, cap;
};

static int pending_push(struct pending *p, LLVMValueRef v, struct nrt_error *err) {
  if (p->count == p->cap) {
    size_t cap = p->cap ? p->cap * 2 : 16;
    LLVMValueRef *items =
        nrt_reallocate(p->items, sizeof(*items) * p->cap, sizeof(*items) * cap, err);
    if (!items)
      return NRT_ENOMEM;
    p->items = items;
    p->cap = cap;
  }
  p->items[p->count++] = v;
  return NRT_OK;
}

int rp_normalize_function(LLVMValueRef fn, struct rp_classifier *c, size_t *moved,
                          struct nrt_error *err) {
  struct pending p = {0};
  int rc = NRT_OK;
  LLVMBuilderRef builder = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && rc == NRT_OK;
       bb = LLVMGetNextBasicBlock(bb)) {
    p.count = 0;
    size_t before_last_inc = 0; /* pending decrefs that precede the stretch's last incref */
    LLVMValueRef next;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = next) {
      next = LLVMGetNextInstruction(i);
      LLVMValueRef v = NULL;
      int k = rp_classify(c, i, &v, err);
      if (k < 0) {
        rc = NRT_ENOMEM;
        break;
      }
      if (k == RP_DEC) {
        if ((rc = pending_push(&p, i, err)) != NRT_OK)
          break;
        continue;
      }
      if (k == RP_INC) {
        before_last_inc = p.count;
        continue;
      }
      if (k != RP_BARRIER && next)
        continue;
      /* i ends the stretch (a barrier or the terminator). */
      if (before_last_inc > 0) {
        if (!builder)
          builder = LLVMCreateBuilderInContext(LLVMGetTypeContext(LLVMTypeOf(fn)));
        for (size_t j = 0; j < p.count; j++) {
          LLVMInstructionRemoveFromParent(p.items[j]);
          LLVMPositionBuilderBefore(builder, i);
          LLVMInsertIntoBuilder(builder, p.items[j]);
        }
        *moved += before_last_inc;
      }
      p.count = 0;
      before_last_inc = 0;
    }
  }
  if (builder)
    LLVMDisposeBuilder(builder);
  if (p.items)
    nrt_free(p.items, sizeof(*p.items) * p.cap);
  return rc;
}

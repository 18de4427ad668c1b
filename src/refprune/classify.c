/* Recognising refops and barriers (the rules are stated in nrt/refprune.h). */
#include <string.h>

#include "refprune/internal.h"

/* LLVM intrinsics that neither release nor observe an object. */
static const char *const harmless_intrinsics[] = {
    "llvm.dbg.", "llvm.lifetime.", "llvm.assume", "llvm.expect",
    "llvm.experimental.noalias.scope.decl", "llvm.invariant.", "llvm.pseudoprobe",
};

static int name_in(const char *name, size_t len, const char *const *names, size_t count) {
  for (size_t i = 0; i < count; i++)
    if (strlen(names[i]) == len && memcmp(names[i], name, len) == 0)
      return 1;
  return 0;
}

int rp_classifier_init(struct rp_classifier *c, const struct nrt_refprune_config *cfg,
                       LLVMContextRef ctx, struct nrt_error *err) {
  (void)err;
  memset(c, 0, sizeof(*c));
  c->cfg = cfg;
  c->readnone_kind = LLVMGetEnumAttributeKindForName("readnone", 8);
  static const char md[] = "numba_exception_output";
  c->raise_md_kind = LLVMGetMDKindIDInContext(ctx, md, (unsigned)(sizeof(md) - 1));
  return NRT_OK;
}

void rp_classifier_free(struct rp_classifier *c) { rp_ptrmap_free(&c->callees); }

static int classify_callee(struct rp_classifier *c, LLVMValueRef callee) {
  size_t len = 0;
  const char *name = LLVMGetValueName2(callee, &len);
  if (name_in(name, len, c->cfg->incref_names, c->cfg->incref_count))
    return RP_INC;
  if (name_in(name, len, c->cfg->decref_names, c->cfg->decref_count))
    return RP_DEC;
  if (LLVMGetIntrinsicID(callee) != 0) {
    for (size_t i = 0; i < sizeof(harmless_intrinsics) / sizeof(harmless_intrinsics[0]); i++) {
      size_t plen = strlen(harmless_intrinsics[i]);
      if (len >= plen && memcmp(name, harmless_intrinsics[i], plen) == 0)
        return RP_OTHER;
    }
  }
  if (c->readnone_kind &&
      LLVMGetEnumAttributeAtIndex(callee, LLVMAttributeFunctionIndex, c->readnone_kind))
    return RP_OTHER;
  return RP_BARRIER;
}

int rp_classify(struct rp_classifier *c, LLVMValueRef inst, LLVMValueRef *value,
                struct nrt_error *err) {
  if (!LLVMIsACallInst(inst) && !LLVMIsAInvokeInst(inst) && !LLVMIsACallBrInst(inst))
    return RP_OTHER;
  LLVMValueRef callee = LLVMGetCalledValue(inst);
  if (!callee || !LLVMIsAFunction(callee))
    return RP_BARRIER; /* indirect call, inline assembly, cast callee */
  int kind = rp_ptrmap_get(&c->callees, callee, -1);
  if (kind < 0) {
    kind = classify_callee(c, callee);
    if (rp_ptrmap_put(&c->callees, callee, kind, err) != NRT_OK)
      return -1;
  }
  if (kind == RP_INC || kind == RP_DEC) {
    /* Removable only as a plain call with a pointer argument and no user of its result. */
    if (!LLVMIsACallInst(inst) || LLVMGetNumArgOperands(inst) < 1 || LLVMGetFirstUse(inst))
      return RP_BARRIER;
    LLVMValueRef v = LLVMGetOperand(inst, 0);
    if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind)
      return RP_BARRIER;
    *value = v;
    return kind;
  }
  /* A call site marked readnone cannot release or observe an object either. */
  if (kind == RP_BARRIER && c->readnone_kind &&
      LLVMGetCallSiteEnumAttribute(inst, LLVMAttributeFunctionIndex, c->readnone_kind))
    return RP_OTHER;
  return kind;
}

int rp_is_inert(LLVMValueRef i) {
  return LLVMIsACastInst(i) || LLVMIsAGetElementPtrInst(i) || LLVMIsAExtractValueInst(i) ||
         LLVMIsAInsertValueInst(i) || LLVMIsABinaryOperator(i) || LLVMIsAICmpInst(i) ||
         LLVMIsASelectInst(i);
}

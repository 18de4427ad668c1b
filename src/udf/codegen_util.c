/* Code generator helpers: types, blocks, runtime calls, strings, refcounts, raising. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "nrt/str.h"
#include "udf/codegen_internal.h"

void cg_fail(cg *c, const char *fmt, ...) {
  if (c->failed)
    return;
  c->failed = 1;
  c->code = NRT_EUNSUPPORTED;
  char buf[NRT_ERROR_MESSAGE_SIZE];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  nrt_error_set(c->errp, NRT_EUNSUPPORTED, "%s", buf);
}

bool cg_is_refcounted(udf_type t) {
  udf_type b = udf_type_base(t);
  return b == UDF_TY_STR || b == UDF_TY_LIST_STR || b == UDF_TY_TUPLE_STR || b == UDF_TY_LIST ||
         b == UDF_TY_DICT || b == UDF_TY_SET || b == UDF_TY_MATCH;
}

LLVMTypeRef cg_llty(cg *c, udf_type t) {
  udf_type b = udf_type_base(t);
  LLVMTypeRef base;
  switch (b) {
  case UDF_TY_BOOL: base = c->i1; break;
  case UDF_TY_INT: base = c->i64; break;
  case UDF_TY_FLOAT: base = c->f64; break;
  case UDF_TY_STR: return c->str;
  case UDF_TY_LIST_STR:
  case UDF_TY_LIST:
  case UDF_TY_TUPLE_STR:
  case UDF_TY_DICT:
  case UDF_TY_SET:
  case UDF_TY_MATCH: return c->ptr; /* a MemInfo (a match: NULL for None) */
  default: return c->i1; /* None, and types never stored */
  }
  if (udf_type_is_nullable(t)) {
    LLVMTypeRef f[2] = {base, c->i1};
    return LLVMStructTypeInContext(c->ctx, f, 2, 0);
  }
  return base;
}

LLVMBasicBlockRef cg_block(cg *c, const char *name) {
  return LLVMAppendBasicBlockInContext(c->ctx, c->llfn, name);
}

bool cg_open(cg *c) {
  LLVMBasicBlockRef bb = LLVMGetInsertBlock(c->b);
  return bb && !LLVMGetBasicBlockTerminator(bb);
}

void cg_goto(cg *c, LLVMBasicBlockRef bb) {
  if (cg_open(c))
    LLVMBuildBr(c->b, bb);
}

void cg_at(cg *c, LLVMBasicBlockRef bb) { LLVMPositionBuilderAtEnd(c->b, bb); }

LLVMValueRef cg_alloca(cg *c, LLVMTypeRef t, const char *name) {
  LLVMPositionBuilderBefore(c->ab, c->alloca_end);
  return LLVMBuildAlloca(c->ab, t, name);
}

static LLVMTypeRef sig_type(cg *c, char ch) {
  switch (ch) {
  case 'v': return c->voidt;
  case 'i': return c->i32;
  case 'l': return c->i64;
  case 'd': return c->f64;
  case 'b': return c->i8;
  case 'p': return c->ptr;
  case 's': return c->strp;
  case 'L': return LLVMPointerType(c->i64, 0);
  case 'D': return LLVMPointerType(c->f64, 0);
  case 'q': return LLVMPointerType(c->ptr, 0);
  case 'I': return LLVMPointerType(c->i32, 0);
  default: return c->voidt;
  }
}

LLVMValueRef cg_call(cg *c, const char *name, const char *sig, LLVMValueRef *args, int n) {
  LLVMTypeRef params[16];
  int np = 0;
  for (const char *p = sig + 2; *p && np < 16; p++)
    params[np++] = sig_type(c, *p);
  LLVMTypeRef fty = LLVMFunctionType(sig_type(c, sig[0]), params, (unsigned)np, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f) {
    f = LLVMAddFunction(c->mod, name, fty);
    LLVMSetLinkage(f, LLVMExternalLinkage);
  }
  if (np != n) {
    cg_fail(c, "internal error: %s called with %d arguments, expects %d", name, n, np);
    return LLVMGetUndef(sig_type(c, sig[0]));
  }
  return LLVMBuildCall2(c->b, fty, f, args, (unsigned)n, "");
}

LLVMValueRef cg_intrinsic(cg *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                          int np, LLVMValueRef *args, int n) {
  LLVMTypeRef fty = LLVMFunctionType(ret, params, (unsigned)np, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f)
    f = LLVMAddFunction(c->mod, name, fty);
  return LLVMBuildCall2(c->b, fty, f, args, (unsigned)n, "");
}

LLVMValueRef cg_i64(cg *c, long long v) { return LLVMConstInt(c->i64, (unsigned long long)v, 1); }
LLVMValueRef cg_i32(cg *c, int v) { return LLVMConstInt(c->i32, (unsigned long long)v, 1); }
LLVMValueRef cg_null(cg *c) { return LLVMConstNull(c->ptr); }

LLVMValueRef cg_cstr(cg *c, const char *s, size_t len) {
  char name[32];
  snprintf(name, sizeof name, "lit.%d", c->nlits++);
  LLVMValueRef init = LLVMConstStringInContext(c->ctx, s, (unsigned)len, 0); /* adds a NUL */
  LLVMValueRef g = LLVMAddGlobal(c->mod, LLVMTypeOf(init), name);
  LLVMSetInitializer(g, init);
  LLVMSetGlobalConstant(g, 1);
  LLVMSetLinkage(g, LLVMPrivateLinkage);
  LLVMSetUnnamedAddr(g, 1);
  LLVMValueRef zero[2] = {cg_i32(c, 0), cg_i32(c, 0)};
  return LLVMConstInBoundsGEP2(LLVMTypeOf(init), g, zero, 2);
}

LLVMValueRef cg_str_lit(cg *c, const char *s, int64_t len) {
  LLVMValueRef f[3] = {cg_null(c), cg_cstr(c, s, (size_t)len), cg_i64(c, len)};
  return LLVMConstNamedStruct(c->str, f, 3);
}

LLVMValueRef cg_str_make(cg *c, LLVMValueRef mi, LLVMValueRef data, LLVMValueRef len) {
  LLVMValueRef v = LLVMGetUndef(c->str);
  v = LLVMBuildInsertValue(c->b, v, mi, 0, "");
  v = LLVMBuildInsertValue(c->b, v, data, 1, "");
  return LLVMBuildInsertValue(c->b, v, len, 2, "");
}

LLVMValueRef cg_str_mi(cg *c, LLVMValueRef s) { return LLVMBuildExtractValue(c->b, s, 0, "mi"); }
LLVMValueRef cg_str_data(cg *c, LLVMValueRef s) {
  return LLVMBuildExtractValue(c->b, s, 1, "data");
}
LLVMValueRef cg_str_len(cg *c, LLVMValueRef s) { return LLVMBuildExtractValue(c->b, s, 2, "len"); }

LLVMValueRef cg_memchr(cg *c, LLVMValueRef data, LLVMValueRef len, unsigned char byte) {
  LLVMValueRef args[3] = {data, cg_i32(c, byte), len};
  return cg_call(c, "memchr", "p:pil", args, 3);
}

LLVMValueRef cg_spill(cg *c, LLVMValueRef s) {
  LLVMValueRef slot = cg_scratch(c, c->str, "arg");
  LLVMBuildStore(c->b, s, slot);
  return slot;
}

LLVMValueRef cg_out_str(cg *c) {
  LLVMValueRef slot = cg_scratch(c, c->str, "out");
  /* One memset, not a store per field: MemCpyOpt would merge the stores into a memset, and
   * each memset it inserts renames MemorySSA over the rest of the function (quadratic). */
  LLVMBuildMemSet(c->b, LLVMBuildBitCast(c->b, slot, c->ptr, ""), LLVMConstInt(c->i8, 0, 0),
                  LLVMSizeOf(c->str), 8);
  return slot;
}

/* A string header a runtime function wrote, one field at a time: the C side writes it with
 * one 8-byte store per field, and a load that spans two of them (what the backend makes of
 * the aggregate when it copies mi and data together) cannot be forwarded from those stores;
 * it waits for them to reach the cache, a dozen cycles per call. A volatile load of data
 * cannot be merged with either neighbour. */
LLVMValueRef cg_load_str(cg *c, LLVMValueRef slot) {
  LLVMValueRef v = LLVMGetUndef(c->str);
  LLVMTypeRef types[3] = {c->ptr, c->ptr, c->i64};
  for (unsigned k = 0; k < 3; k++) {
    LLVMValueRef at = LLVMBuildStructGEP2(c->b, c->str, slot, k, "");
    LLVMValueRef field = LLVMBuildLoad2(c->b, types[k], at, "");
    if (k == 1)
      LLVMSetVolatile(field, 1);
    v = LLVMBuildInsertValue(c->b, v, field, k, "");
  }
  return v;
}

LLVMValueRef cg_phi2(cg *c, LLVMTypeRef ty, const char *name, LLVMValueRef a,
                     LLVMBasicBlockRef ba, LLVMValueRef b, LLVMBasicBlockRef bb) {
  LLVMValueRef phi = LLVMBuildPhi(c->b, ty, name);
  LLVMValueRef in[2] = {a, b};
  LLVMBasicBlockRef from[2] = {ba, bb};
  LLVMAddIncoming(phi, in, from, 2);
  return phi;
}

LLVMValueRef cg_bool_of_c(cg *c, LLVMValueRef b8) {
  return LLVMBuildICmp(c->b, LLVMIntNE, b8, LLVMConstInt(c->i8, 0, 0), "");
}

/* ------------------------------------------------------------------ reference counting */

LLVMValueRef cg_mi(cg *c, cg_val v) {
  if (udf_type_base(v.type) == UDF_TY_STR)
    return cg_str_mi(c, v.v);
  if (udf_type_base(v.type) == UDF_TY_DICT || udf_type_base(v.type) == UDF_TY_SET)
    return cg_dict_mi(c, v.v);
  return v.v;
}

void cg_incref(cg *c, cg_val v) {
  if (!cg_is_refcounted(v.type))
    return;
  LLVMValueRef mi = cg_mi(c, v);
  cg_call(c, "nrt_mi_incref_local", "v:p", &mi, 1);
}

void cg_decref(cg *c, cg_val v) {
  if (!cg_is_refcounted(v.type))
    return;
  LLVMValueRef mi = cg_mi(c, v);
  cg_call(c, "nrt_mi_decref_local", "v:p", &mi, 1);
}

void cg_push_temp(cg *c, cg_val *v) {
  if (!cg_is_refcounted(v->type)) {
    v->temp = false;
    return;
  }
  if (c->ntemps >= CG_MAX_TEMPS) {
    cg_fail(c, "expression too complex (more than %d live temporaries)", CG_MAX_TEMPS);
    return;
  }
  v->temp = true;
  c->temp_keys[c->ntemps] = v->v;
  c->temps[c->ntemps++] = cg_mi(c, *v);
}

void cg_drop_temp(cg *c, cg_val v) {
  if (!v.temp)
    return;
  bool found = false;
  for (int i = c->ntemps - 1; i >= 0; i--) {
    if (c->temp_keys[i] == v.v) {
      size_t n = (size_t)(c->ntemps - i - 1);
      memmove(&c->temps[i], &c->temps[i + 1], n * sizeof c->temps[0]);
      memmove(&c->temp_keys[i], &c->temp_keys[i + 1], n * sizeof c->temp_keys[0]);
      c->ntemps--;
      found = true;
      break;
    }
  }
  if (!found)
    cg_fail(c, "internal error: temporary not on the stack");
}

void cg_release(cg *c, cg_val v) {
  if (!v.temp)
    return;
  cg_drop_temp(c, v);
  cg_decref(c, v);
}

cg_val cg_owned(cg *c, cg_val v) {
  if (v.temp || !cg_is_refcounted(v.type))
    return v;
  cg_incref(c, v);
  cg_push_temp(c, &v);
  return v;
}

void cg_release_temps_above(cg *c, int depth) {
  for (int i = c->ntemps - 1; i >= depth; i--) {
    LLVMValueRef mi = c->temps[i];
    cg_call(c, "nrt_mi_decref_local", "v:p", &mi, 1);
  }
}

/* The temporaries' release on a path that raises: out-of-line calls. The path is cold, and
 * inlined each decref would add three blocks to it. */
static void release_temps_raising(cg *c, int depth) {
  unsigned noinline = LLVMGetEnumAttributeKindForName("noinline", 8);
  unsigned cold = LLVMGetEnumAttributeKindForName("cold", 4);
  for (int i = c->ntemps - 1; i >= depth; i--) {
    LLVMValueRef mi = c->temps[i];
    LLVMValueRef call = cg_call(c, "nrt_mi_decref_local", "v:p", &mi, 1);
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(c->ctx, noinline, 0));
    LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                             LLVMCreateEnumAttribute(c->ctx, cold, 0));
  }
}

/* ------------------------------------------------------------------ status and raising */

void cg_leave(cg *c, LLVMValueRef status) {
  LLVMBasicBlockRef here = LLVMGetInsertBlock(c->b);
  LLVMBuildBr(c->b, c->exit_bb);
  LLVMAddIncoming(c->exit_phi, &status, &here, 1);
}

/* After a terminator: continue in a fresh (unreachable) block. */
static void dead_block(cg *c) { cg_at(c, cg_block(c, "dead")); }

/* A raising path passes its status through memory to raise_bb, which finds the locals to
 * release in the frame: raise_bb has no phi. Joined to the normal exit, every raise site
 * would add an entry to the phis of the status and of every local there, and LLVM's passes
 * and register allocator are quadratic in phis that size. */
void cg_leave_raising(cg *c, LLVMValueRef status) {
  if (c->ntries > 0) { /* caught: the try's landing, its own temporaries still live */
    const cg_try *t = &c->tries[c->ntries - 1];
    release_temps_raising(c, t->temps);
    LLVMBuildStore(c->b, status, c->status_slot);
    LLVMBuildBr(c->b, t->landing);
    return;
  }
  release_temps_raising(c, 0);
  LLVMBuildStore(c->b, status, c->status_slot);
  LLVMBuildBr(c->b, c->raise_bb);
}

void cg_check(cg *c, LLVMValueRef status) {
  LLVMBasicBlockRef fail = cg_block(c, "raise"), ok = cg_block(c, "ok");
  LLVMValueRef bad = LLVMBuildICmp(c->b, LLVMIntNE, status, cg_i32(c, 0), "failed");
  LLVMValueRef args[2] = {bad, LLVMConstInt(c->i1, 0, 0)};
  LLVMTypeRef pt[2] = {c->i1, c->i1};
  bad = cg_intrinsic(c, "llvm.expect.i1", c->i1, pt, 2, args, 2);
  LLVMBuildCondBr(c->b, bad, fail, ok);
  cg_at(c, fail);
  cg_leave_raising(c, status);
  cg_at(c, ok);
}

void cg_raise(cg *c, int code, const char *msg) {
  LLVMValueRef args[3] = {c->err, cg_i32(c, code), cg_cstr(c, msg, strlen(msg))};
  LLVMValueRef st = cg_call(c, "nrt_udf_rt_raise", "i:pip", args, 3);
  cg_leave_raising(c, st);
  dead_block(c);
}

void cg_check_bool_fail(cg *c, LLVMValueRef failed, int code, const char *msg) {
  LLVMBasicBlockRef fail = cg_block(c, "raise"), ok = cg_block(c, "ok");
  LLVMValueRef args[2] = {failed, LLVMConstInt(c->i1, 0, 0)};
  LLVMTypeRef pt[2] = {c->i1, c->i1};
  failed = cg_intrinsic(c, "llvm.expect.i1", c->i1, pt, 2, args, 2);
  LLVMBuildCondBr(c->b, failed, fail, ok);
  cg_at(c, fail);
  cg_raise(c, code, msg);
  LLVMBuildUnreachable(c->b);
  cg_at(c, ok);
}

/* Calls runtime entry `fn(err, args..., &list)` that makes a new list, checks its status and
 * pushes the list as a temporary. */
cg_val cg_rt_list(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n,
                  udf_type type) {
  LLVMValueRef all[12];
  all[0] = c->err;
  memcpy(all + 1, args, (size_t)n * sizeof *args);
  LLVMValueRef out = cg_scratch(c, c->ptr, "list");
  LLVMBuildStore(c->b, cg_null(c), out);
  all[n + 1] = out;
  cg_check(c, cg_call(c, fn, sig, all, n + 2));
  cg_val v = {LLVMBuildLoad2(c->b, c->ptr, out, ""), type, false};
  cg_push_temp(c, &v);
  return v;
}

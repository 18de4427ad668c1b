/* Code-point counts shared within one f-string written in place (codegen_internal.h).
 *
 * '%12s|%04d' % (s, len(s)) pads s to 12 code points and then formats len(s): both need the
 * count of s, which would be made twice (a pass over the bytes each). LLVM cannot merge the
 * two calls (the padding's write between them may touch any memory), so the f-string's
 * emission does: the padded field's runtime call also returns the count (the fast path has it
 * almost for free from the words it reads), and a later field len(s) reuses it. Within an f-string only a walrus can rebind s
 * (closures capture values), so the count is valid up to the first part that binds s; it is
 * emitted in the f-string's straight-line sequence, which dominates every later part. */
#include "udf/codegen_internal.h"

#define MEMO_SLOTS ((int)(sizeof((cg_len_memo *)0)->var / sizeof(const udf_var *)))

/* The variable of len(NAME) for a str variable, else NULL. */
static const udf_var *len_of_name(const udf_expr *e) {
  if (!e || e->kind != UDF_E_CALL || e->u.call.ckind != UDF_CALL_BUILTIN ||
      e->u.call.builtin != UDF_BI_LEN || e->u.call.ncargs != 1)
    return NULL;
  const udf_expr *a = e->u.call.cargs[0];
  return a->kind == UDF_E_NAME && a->type == UDF_TY_STR ? a->u.name.var : NULL;
}

struct binds_ctx {
  const udf_var *var;
  bool found;
};

static void binds_visit(void *ctx, const udf_expr *e) {
  struct binds_ctx *b = ctx;
  if (b->found)
    return;
  if (e->kind == UDF_E_NAMED && e->u.named.target->u.name.var == b->var)
    b->found = true;
  else
    udf_expr_each_child(e, binds_visit, ctx);
}

/* Some (name := ...) in e binds var. */
static bool binds(const udf_expr *e, const udf_var *var) {
  struct binds_ctx b = {var, false};
  if (e)
    binds_visit(&b, e);
  return b.found;
}

/* The first part after `at` that rebinds the variable of part `at`. */
static int valid_until(const cg_len_memo *m, const udf_var *var) {
  const udf_expr *fs = m->fstring;
  int j = m->at + 1;
  while (j < fs->u.fstring.nparts &&
         !(fs->u.fstring.parts[j].is_field && binds(fs->u.fstring.parts[j].expr, var)))
    j++;
  return j;
}

static const udf_var *part_var(const cg_len_memo *m) {
  const udf_expr *e = m->fstring->u.fstring.parts[m->at].expr;
  return e && e->kind == UDF_E_NAME && e->type == UDF_TY_STR ? e->u.name.var : NULL;
}

bool cg_len_memo_wanted(const cg_len_memo *m) {
  const udf_var *var = part_var(m);
  if (!var || m->n == MEMO_SLOTS)
    return false;
  int until = valid_until(m, var);
  for (int j = m->at + 1; j < until; j++) {
    const udf_fpart *q = &m->fstring->u.fstring.parts[j];
    if (q->is_field && q->conversion == 0 && len_of_name(q->expr) == var)
      return true;
  }
  return false;
}

void cg_len_memo_record(cg_len_memo *m, LLVMValueRef n) {
  const udf_var *var = part_var(m);
  if (var && m->n < MEMO_SLOTS) {
    m->var[m->n] = var;
    m->count[m->n] = n;
    m->until[m->n++] = valid_until(m, var);
  }
}

cg_val cg_len_memo_expr(cg *c, cg_len_memo *m, const udf_expr *e) {
  const udf_var *var = len_of_name(e);
  for (int k = 0; var && k < m->n; k++)
    if (m->var[k] == var && m->at < m->until[k]) {
      /* the variable was read (so bound) when counted, and not rebound since */
      cg_val r = {m->count[k], e->type, false};
      return r;
    }
  return cg_expr(c, e);
}

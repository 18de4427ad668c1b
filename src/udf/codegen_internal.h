/* State and helpers shared by the code generator's files (codegen*.c). Internal. */
#ifndef NRT_UDF_CODEGEN_INTERNAL_H
#define NRT_UDF_CODEGEN_INTERNAL_H

#include <stdbool.h>

#include "udf/codegen.h"

#define CG_MAX_TEMPS 512
#define CG_MAX_LOOPS 64
#define CG_MAX_TRIES 64
/* The most statements a function's finally blocks may add, copied once per way out of their
 * try: nested finally blocks with many returns multiply, so a pathological program fails to
 * compile with a message instead of taking minutes. */
#define CG_MAX_FINALLY_STMTS 2000
/* The most locals the normal exit releases inline; with more, one runtime call releases
 * them all (each inline release keeps its slot's address live from the binding). */
#define CG_INLINE_RELEASES 8

/* A value produced by an expression. `temp`: the generator owns one reference to it that it
 * must release after the last use (it is on the temp stack until then). */
typedef struct cg_val {
  LLVMValueRef v;
  udf_type type;
  bool temp;
} cg_val;

typedef struct cg_loop {
  LLVMBasicBlockRef brk;  /* target of break */
  LLVMBasicBlockRef cont; /* target of continue */
  int temps;              /* temp stack depth inside the loop (its iterable included) */
} cg_loop;

/* A try statement being emitted (codegen_try.c). Raising code inside its body goes to
 * `landing` after releasing the temporaries above `temps`: the dispatch to the except clauses,
 * or (is_finally) the finally block run on the exceptional path. return, break and continue
 * leaving a try with a finally block go through its shared paths for them. */
typedef struct cg_try {
  bool is_finally;
  LLVMBasicBlockRef landing;
  LLVMBasicBlockRef ret_bb; /* is_finally: the returns through it (made on first use) */
  LLVMBasicBlockRef brk_bb, cont_bb; /* is_finally: the breaks and continues through it */
  int temps;  /* temp stack depth at the try */
  int loops;  /* loop depth at the try */
  int nexc;   /* except clauses being run at the try */
  const udf_block *finalbody;
} cg_try;

/* An except clause being run: the exception it handles, saved for a bare `raise`. */
typedef struct cg_exc {
  LLVMValueRef code; /* i32 alloca: the status */
  LLVMValueRef msg;  /* [NRT_ERROR_MESSAGE_SIZE x i8] alloca: the message */
} cg_exc;

/* Scratch slots of the function being emitted, lent out stack-wise (codegen_scratch.c). */
typedef struct cg_scratch_pool {
  struct cg_scratch_slot *slots;
  int nslots, capslots;
  struct cg_scratch_kind *kinds; /* one per slot type */
  int nkinds, capkinds;
  int *lent; /* slots lent out, in lending order */
  int nlent, caplent;
} cg_scratch_pool;

typedef struct cg {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  LLVMBuilderRef b;  /* the instruction builder */
  LLVMBuilderRef ab; /* allocas and variable initialisation, in the function's first block */
  const udf_module *m;
  struct nrt_error *errp;
  int failed; /* an error was recorded in errp: stop emitting */
  int code;   /* its status code */

  LLVMTypeRef i1, i8, i32, i64, f64, ptr, str, strp, voidt;
  LLVMValueRef *llfuncs; /* per udf_func (by index) */

  /* The function being emitted. */
  const udf_func *fn;
  LLVMValueRef llfn;
  LLVMValueRef err;    /* the error slot parameter */
  LLVMValueRef depth;  /* the i32 depth parameter: calls nested around this one */
  LLVMValueRef result; /* the result pointer parameter (value form) */
  LLVMValueRef writer; /* the row writer parameter (write form of the entry), else NULL */
  const udf_var *fwd_var;     /* write form: a variable forwarded into the return being */
  const udf_expr *fwd_value;  /* written, and the value written in its place */
  LLVMValueRef *vars;  /* per local: its alloca */
  LLVMValueRef *bound; /* per local: i1 "assigned" flag alloca, or NULL */
  bool *appender;      /* per local: grown in place by its appends (codegen_append.c) */
  bool *ssa;           /* per local: kept as an SSA value, no alloca (codegen_locals.c) */
  LLVMValueRef *ssa_val; /* per local kept so: its value once bound, else NULL */
  bool fits_results;   /* some local is: str results leave through nrt_str_fit */
  LLVMBasicBlockRef exit_bb;
  LLVMValueRef exit_phi; /* i32 status */
  /* Raising paths leave through raise_bb, which returns the status they stored in
   * status_slot after releasing every local bound in frame (codegen.c: emit_func). */
  LLVMBasicBlockRef raise_bb;
  LLVMValueRef status_slot; /* i32 alloca */
  LLVMValueRef frame;       /* [nframe x i8*] alloca: the MemInfo of each refcounted local */
  LLVMTypeRef frame_type;
  int *frame_slot;          /* per local: its index in frame, or -1 */
  int nframe;
  LLVMValueRef alloca_end; /* the terminator of the alloca block */
  cg_scratch_pool scratch;

  LLVMValueRef temps[CG_MAX_TEMPS];    /* MemInfos of live temporaries, innermost last */
  LLVMValueRef temp_keys[CG_MAX_TEMPS]; /* the values they were pushed for */
  int ntemps;
  cg_loop loops[CG_MAX_LOOPS];
  int nloops;
  cg_try tries[CG_MAX_TRIES]; /* the try statements around the code emitted, innermost last */
  int ntries;
  cg_exc excs[CG_MAX_TRIES];  /* the except clauses around it, innermost last */
  int nexc;
  long finally_stmts; /* statements emitted as copies of finally blocks (bounded) */
  int ret_frame;          /* frame slot of a return's value waiting for finally blocks, or -1 */
  cg_val re_cur;          /* the match re.sub's replacement function is called on (codegen_re.c) */
  LLVMValueRef ret_slot;  /* its value (made on first use) */
  int nlits;
  /* sorted(s.split(...), key=len): the split call that sorts its own list (codegen_mlist.c),
   * and the sort's reverse; the split sets it to NULL when it did */
  const udf_expr *split_sort_len;
  bool split_sort_len_reverse;
} cg;

/* ---- errors of the generator itself (limits, impossible trees) */
void cg_fail(cg *c, const char *fmt, ...) NRT_PRINTF(2, 3);

/* ---- types */
LLVMTypeRef cg_llty(cg *c, udf_type t);
bool cg_is_refcounted(udf_type t);

/* ---- blocks */
LLVMBasicBlockRef cg_block(cg *c, const char *name);
void cg_goto(cg *c, LLVMBasicBlockRef bb);     /* br if the current block is open */
void cg_at(cg *c, LLVMBasicBlockRef bb);       /* position at the end of bb */
bool cg_open(cg *c);                           /* current block has no terminator yet */
LLVMValueRef cg_alloca(cg *c, LLVMTypeRef t, const char *name);
/* A scratch slot of type t for passing a value to, or getting one from, a runtime call: an
 * entry alloca lent until the innermost open mark is released. Expressions (cg_expr) and
 * statements release what they borrowed when done, so nothing may be kept in a scratch slot
 * past the expression that filled it. */
LLVMValueRef cg_scratch(cg *c, LLVMTypeRef t, const char *name);
int cg_scratch_mark(const cg *c);
void cg_scratch_release(cg *c, int mark); /* slots lent since mark become free */
void cg_scratch_free(cg *c);              /* at the end of a function: forget every slot */

/* ---- runtime calls. sig: "R:ARGS", one letter each: v void, i i32, l i64, d double,
 * b C bool (i8), p i8*, s nrt_str*, L i64*, D double*, q i8**, I i32* */
LLVMValueRef cg_call(cg *c, const char *name, const char *sig, LLVMValueRef *args, int n);
LLVMValueRef cg_intrinsic(cg *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *params,
                          int np, LLVMValueRef *args, int n);

/* ---- constants and strings */
LLVMValueRef cg_i64(cg *c, long long v);
LLVMValueRef cg_i32(cg *c, int v);
LLVMValueRef cg_null(cg *c);
LLVMValueRef cg_cstr(cg *c, const char *s, size_t len); /* i8* to a private constant */
LLVMValueRef cg_str_lit(cg *c, const char *s, int64_t len); /* borrowed %nrt_str */
LLVMValueRef cg_str_make(cg *c, LLVMValueRef mi, LLVMValueRef data, LLVMValueRef len);
LLVMValueRef cg_str_mi(cg *c, LLVMValueRef s);
LLVMValueRef cg_str_data(cg *c, LLVMValueRef s);
LLVMValueRef cg_str_len(cg *c, LLVMValueRef s);
/* memchr(data, byte, len) called from the row function: the first byte's address, or NULL. */
LLVMValueRef cg_memchr(cg *c, LLVMValueRef data, LLVMValueRef len, unsigned char byte);
LLVMValueRef cg_spill(cg *c, LLVMValueRef s);      /* %nrt_str* holding s (a scratch slot) */
LLVMValueRef cg_out_str(cg *c);                    /* %nrt_str* out scratch slot, zeroed */
/* A str from fn(args..., nrt_str *out, nrt_error *err) -> status, checked, as a temp. */
cg_val cg_new_str(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n);
LLVMValueRef cg_load_str(cg *c, LLVMValueRef slot);
/* A phi of type ty at the current block: a when coming from block ba, b from block bb. */
LLVMValueRef cg_phi2(cg *c, LLVMTypeRef ty, const char *name, LLVMValueRef a,
                     LLVMBasicBlockRef ba, LLVMValueRef b, LLVMBasicBlockRef bb);
LLVMValueRef cg_bool_of_c(cg *c, LLVMValueRef b8); /* C bool (i8) -> i1 */

/* ---- reference counting */
LLVMValueRef cg_mi(cg *c, cg_val v); /* the MemInfo a value refers to (i8*) */
void cg_incref(cg *c, cg_val v);
void cg_decref(cg *c, cg_val v);
void cg_push_temp(cg *c, cg_val *v); /* marks v temp and puts it on the stack */
/* Calls runtime entry `fn(err, args..., &list)` making a new list (n <= 10 args), checks its
 * status and pushes the list as a temporary. */
cg_val cg_rt_list(cg *c, const char *fn, const char *sig, LLVMValueRef *args, int n,
                  udf_type type);
void cg_drop_temp(cg *c, cg_val v);  /* removes v from the stack without a decref */
void cg_release(cg *c, cg_val v);    /* if temp: off the stack and decref'd */
cg_val cg_owned(cg *c, cg_val v);    /* a temp holding its own reference (increfs a non-temp) */
void cg_release_temps_above(cg *c, int depth); /* decrefs (no pop) temps[depth..] */

/* ---- status and raising */
void cg_check(cg *c, LLVMValueRef status);   /* non-zero: release temps, leave with it */
void cg_check_bool_fail(cg *c, LLVMValueRef failed, int code, const char *msg);
void cg_raise(cg *c, int code, const char *msg);
/* codegen_funcs.c: a recursive function's RecursionError past the recursion limit. */
void cg_check_depth(cg *c, const udf_func *f);
void cg_leave(cg *c, LLVMValueRef status);   /* branch to the exit with status */
/* Releases the temporaries (out of line) and branches to raise_bb with status (non-zero). */
void cg_leave_raising(cg *c, LLVMValueRef status);

/* ---- expressions and statements */
cg_val cg_expr(cg *c, const udf_expr *e);
cg_val cg_coerce(cg *c, cg_val v, udf_type to); /* T -> T|None, None -> T|None */
LLVMValueRef cg_truth(cg *c, cg_val v);        /* i1 */
cg_val cg_call_expr(cg *c, const udf_expr *e);
/* The for/if clauses of a comprehension (list, dict or set), calling inner at the innermost
 * level to add the current item to the result acc (codegen_expr.c). */
typedef void (*cg_comp_inner_fn)(cg *c, const udf_expr *e, cg_val acc);
void cg_comp_loops(cg *c, const udf_expr *e, cg_comp_inner_fn inner, cg_val acc);
cg_val cg_mlist_builtin(cg *c, const udf_expr *e); /* UDF_BI_LIST_APPEND.. (codegen_mlist.c) */
/* e is sorted(s.split(...), key=len) of a str s with reverse absent or a literal (*reverse):
 * the split call, else NULL (codegen_mlist.c). Nothing is evaluated between the two calls. */
const udf_expr *cg_sorted_split_len(const udf_expr *e, bool *reverse);
/* Lists of numbers (codegen_mlist.c): an item is an nrt_str whose len holds the bits. */
int cg_nlist_kind(udf_type list);                    /* NRT_UDF_KEY_INT or _FLOAT */
LLVMValueRef cg_item_ptr(cg *c, cg_val v);           /* %nrt_str* of a str or boxed number */
cg_val cg_nlist_unbox(cg *c, LLVMValueRef item, udf_type elem); /* item: %nrt_str */
LLVMValueRef cg_nlist_contains(cg *c, cg_val list, cg_val x);   /* i1 */
cg_val cg_range_list(cg *c, const udf_expr *range); /* list(range(...)) as a temp */
cg_val cg_re_call(cg *c, const udf_expr *e); /* UDF_BI_RE_* (codegen_re.c) */
cg_val cg_ucd_call(cg *c, const udf_expr *e); /* UDF_BI_UCD (codegen_ucd.c) */
cg_val cg_format_builtin(cg *c, const udf_expr *e); /* UDF_BI_TRANSLATE... (codegen_format.c) */
bool cg_write_format_builtin(cg *c, const udf_expr *e); /* its write form, when it has one */
cg_val cg_to_str(cg *c, cg_val v);             /* str(v) as a temp or borrowed value */
cg_val cg_format_field(cg *c, const udf_fpart *p); /* an f-string field's text */
cg_val cg_list_from_values(cg *c, cg_val *items, int n, udf_type type);
/* A slice bound: e's value, or NRT_STR_NONE for an absent or None one (keep: what to release). */
LLVMValueRef cg_opt_index(cg *c, const udf_expr *e, cg_val *keep);
/* The item k (0 to 2) when subscript e is s.partition(sep)[k] or s.rpartition(sep)[k] with a
 * constant k in -3..2, else -1. */
int cg_partition_index(const udf_expr *e);
/* call.partition(sep)[item] or call.rpartition(sep)[item] (item 0 to 2) as one str temp. */
cg_val cg_partition_item(cg *c, const udf_expr *call, int item);
LLVMValueRef cg_list_of(cg *c, LLVMValueRef list_mi); /* the nrt_str_list* of a list value */
LLVMValueRef cg_list_len(cg *c, LLVMValueRef list_mi);
LLVMValueRef cg_list_item(cg *c, LLVMValueRef list_mi, LLVMValueRef i); /* borrowed %nrt_str */
LLVMValueRef cg_null_value(cg *c, udf_type t); /* the None of a nullable type */
void cg_bind(cg *c, const udf_var *var, cg_val v); /* var = v (incref new, decref old) */
cg_val cg_read_var(cg *c, const udf_var *var, bool check_bound, udf_loc loc);
void cg_unbind(cg *c, const udf_var *var); /* del var: releases its value, marks it unbound */

/* ---- exceptions (codegen_try.c) */
void cg_try_stmt(cg *c, const udf_stmt *s);
void cg_raise_stmt(cg *c, const udf_stmt *s);
/* A return inside a try with a finally block: stores v (owned; NULL for None) as the pending
 * result and branches to the finally block's shared return path. False (nothing emitted)
 * when no finally block is around. */
bool cg_return_through_finally(cg *c, cg_val *v);
bool cg_has_finally(const udf_block *b);
/* break (or continue) leaving a try with a finally block inside the innermost loop: branches
 * to the finally block's shared path for it. False (nothing emitted) when there is none. */
bool cg_jump_through_finally(cg *c, bool is_break);
LLVMValueRef cg_frame_slot_ptr(cg *c, int k);
/* Write form: writes str value v (a temp, released) into the row writer. */
void cg_write_value(cg *c, cg_val v);

/* Iteration shared by for statements and comprehensions. */
typedef struct cg_iter {
  cg_val iterable;     /* owned for the whole loop */
  udf_type kind;       /* UDF_TY_STR, UDF_TY_LIST_STR/TUPLE_STR, UDF_TY_RANGE, UDF_TY_LIST,
                        * UDF_TY_MATCH */
  udf_type elem;       /* the item type: int or float (UDF_TY_LIST), re.Match (UDF_TY_MATCH,
                        * re.finditer) */
  LLVMValueRef pos;    /* i64 alloca: byte offset / index / current value */
  LLVMValueRef stop, step; /* range */
  LLVMValueRef cur;    /* pos as loaded by cg_iter_more */
  bool reversed;       /* reversed(x): pos counts down from x's end */
  LLVMValueRef rstart, rstep, rcount; /* reversed(range): i128 start and step, an i128
                                       * alloca of the items left (no overflow possible) */
  LLVMBasicBlockRef head, body, next, done;
  int dict_op;                 /* UDF_TY_DICT: keys, values or items (types_dict.h) */
  udf_type dict_type;
  LLVMValueRef kslot, vslot;   /* UDF_TY_DICT: the current key and value (nrt_str allocas) */
} cg_iter;
void cg_iter_begin(cg *c, cg_iter *it, const udf_expr *iter);
/* The iterable evaluated and the position set, no blocks made (cg_iter_begin does both). */
void cg_iter_setup(cg *c, cg_iter *it, const udf_expr *iter);
/* Whether an item is left (i1); loads the position for cg_iter_value. */
LLVMValueRef cg_iter_more(cg *c, cg_iter *it);
/* The next item (a temp for a character: release it after binding) and the step forward. */
cg_val cg_iter_value(cg *c, cg_iter *it);
/* In the loop head: branches to `done` when exhausted, else yields the next item into var. */
void cg_iter_next(cg *c, cg_iter *it, const udf_var *var);
/* A for loop or comprehension clause over one iterable or several (enumerate, zip), its
 * items bound to the target's names (codegen_iter.c). */
#define CG_FOR_LEAVES 16
typedef struct cg_for_leaf {
  cg_iter it;             /* a plain iteration, unless count */
  LLVMValueRef count;     /* enumerate's counter: i64 alloca, else NULL */
  LLVMValueRef count_ovf; /* i1 alloca: the counter went past INT64_MAX */
  const udf_var *var;     /* the name bound to its items (NULL: none) */
  const udf_expr *chars;  /* else a tuple of names its str items are unpacked into */
  const udf_var *var2;    /* for k, v in d.items(): the name bound to the values */
} cg_for_leaf;
typedef struct cg_for {
  cg_for_leaf leaf[CG_FOR_LEAVES];
  int n;
  const udf_var *pack_var; /* `for t in zip(a, b)`: t gets a tuple of the leaves' str items */
  int pack_from, pack_n;   /* those leaves */
  LLVMBasicBlockRef head, body, next, done;
} cg_for;
/* Binds the characters of str s to the names of tuple t (ValueError on another count). */
void cg_unpack_chars(cg *c, cg_val s, const udf_expr *t);
/* Evaluates the iterables and leaves the builder in the loop head. */
void cg_for_begin(cg *c, cg_for *f, const udf_expr *iter, const udf_var *var,
                  const udf_expr *unpack);
/* In the head: branches to `done` when an iterable is exhausted, else binds the next items. */
void cg_for_next(cg *c, cg_for *f);
/* Releases the iterables held for the loop (drop: also off the temp stack, on the last path). */
void cg_for_release(cg *c, cg_for *f, bool drop);
void cg_stmts(cg *c, const udf_block *blk);
/* Write form: writes str expression e into the row writer (codegen_write.c). */
void cg_write(cg *c, const udf_expr *e);
/* Write form: emits blk->items[i] and the return after it with a single-use variable
 * forwarded into the return (codegen_forward.c); false (nothing emitted) when they do not
 * have that shape. */
bool cg_write_forward(cg *c, const udf_block *blk, int i);
/* Write form: code-point counts shared within one f-string (codegen_write_len.c), so
 * f'{s:>12}|{len(s)}' counts s once: the padded field counts it when a later field is
 * len(s) of the same variable, and that field reuses the count. */
typedef struct cg_len_memo {
  const udf_expr *fstring; /* the f-string being written */
  int at;                  /* the part being written */
  const udf_var *var[8];   /* counted variables, */
  LLVMValueRef count[8];   /* their counts, */
  int until[8];            /* valid for the parts before this one (a walrus rebinds it) */
  int n;
} cg_len_memo;
/* The current part is a str variable whose count a later len() field will reuse. */
bool cg_len_memo_wanted(const cg_len_memo *m);
/* Records n as the count of the current part's variable. */
void cg_len_memo_record(cg_len_memo *m, LLVMValueRef n);
/* cg_expr(e), with a len() of a counted variable reusing its count. */
cg_val cg_len_memo_expr(cg *c, cg_len_memo *m, const udf_expr *e);

/* ---- locals bound once outside loops, kept as SSA values (codegen_locals.c): sets c->ssa;
 * false (c failed) without memory */
bool cg_find_ssa_locals(cg *c, const udf_func *f);

/* ---- growing str locals in place (codegen_append.c) */
bool cg_find_appenders(cg *c, const udf_func *f); /* sets c->appender; true if any */
cg_val cg_str_append(cg *c, cg_val cur, cg_val x); /* a growing local's cur + x */
bool cg_is_self_concat(cg *c, const udf_stmt *assign); /* `v = v + e` for an appender v */
cg_val cg_fit_result(cg *c, cg_val v); /* a value leaving the function (nrt_str_fit) */

/* ---- dict and set values (codegen_dict.c) */
LLVMValueRef cg_dict_mi(cg *c, LLVMValueRef d); /* the MemInfo refcounting acts on, or NULL */
cg_val cg_dict_expr(cg *c, const udf_expr *e); /* displays and comprehensions */
cg_val cg_dict_call(cg *c, const udf_expr *e); /* UDF_CALL_DICT */
cg_val cg_dict_getitem(cg *c, const udf_expr *e);
cg_val cg_dict_binop(cg *c, udf_binop op, cg_val l, cg_val r, udf_type type); /* | & - ^ */
LLVMValueRef cg_dict_contains(cg *c, cg_val key, cg_val d);
void cg_dict_setitem(cg *c, const udf_stmt *s); /* d[k] = v, del d[k] */
/* Iteration over a dict (its keys) or d.keys()/values()/items(): false for other iterables. */
bool cg_dict_iter_setup(cg *c, cg_iter *it, const udf_expr *iter);
LLVMValueRef cg_dict_iter_more(cg *c, cg_iter *it);
cg_val cg_dict_iter_value(cg *c, cg_iter *it, bool second); /* borrowed */

#endif /* NRT_UDF_CODEGEN_INTERNAL_H */

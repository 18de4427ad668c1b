/* dict and set values of compiled UDF code (runtime_dict.c): an insertion-ordered hash table
 * of (key, value) slots. Internal to libnrt.
 *
 * A dict (and a set, a dict whose values are unused) lives in the data of one MemInfo whose
 * first field, `mi`, is the handle compiled code increfs and decrefs: the block's own
 * MemInfo, or NULL for a constant display built once per compile (then shared read-only by
 * every thread, with no refcount traffic; nrt_udf_rt_dict_const_free releases it).
 *
 * Keys and values are held as nrt_str-shaped slots: a str is itself; an int is {NULL, NULL,
 * v}; a float {NULL, NULL, bits}; a bool {NULL, NULL, 0/1}; a list of str {list MemInfo,
 * NULL, 0}. Every non-NULL `mi` in a slot is one reference the table owns. */
#ifndef NRT_UDF_RUNTIME_DICT_H
#define NRT_UDF_RUNTIME_DICT_H

#include <stdbool.h>
#include <stdint.h>

#include "nrt/core.h"
#include "nrt/str.h"

typedef struct nrt_udf_dict_entry {
  nrt_str key, value;
  uint64_t hash;
  bool live; /* false once deleted: iteration skips it */
} nrt_udf_dict_entry;

typedef struct nrt_udf_dict {
  nrt_meminfo *mi;    /* the refcount handle (see above) */
  nrt_meminfo *owner; /* the block's MemInfo */
  int32_t key_kind;   /* UDF_TY_STR or UDF_TY_INT */
  int32_t value_kind; /* a base kind; UDF_TY_NONE for a set */
  int64_t len;        /* live entries */
  nrt_udf_dict_entry *ent; /* entries in insertion order (deleted ones included) */
  int64_t nent, capent;
  int64_t *index; /* open addressing over ent: -1 empty, -2 deleted, else an entry index */
  int64_t nindex; /* a power of two, more than twice nent */
  uint64_t key_lens; /* bit len % 64 of each key set since the last clear (an int key's
                      * value): a key whose bit is clear is absent, known without hashing */
  char *pool;     /* a constant's str bytes: its keys and values are views of them (no
                   * MemInfo, so that threads sharing it never touch a refcount) */
  int64_t poolsize;
} nrt_udf_dict;

int32_t nrt_udf_rt_dict_new(struct nrt_error *err, int32_t key_kind, int32_t value_kind,
                            int64_t hint, nrt_udf_dict **out);
/* d[k] = v (new references to k's and v's MemInfos; the old value released). */
int32_t nrt_udf_rt_dict_set(struct nrt_error *err, nrt_udf_dict *d, const nrt_str *k,
                            const nrt_str *v);
/* k in d; *out (may be NULL) receives the value, borrowed. */
bool nrt_udf_rt_dict_find(const nrt_udf_dict *d, const nrt_str *k, nrt_str *out);
/* d[k], borrowed; KeyError repr(k) when absent. */
int32_t nrt_udf_rt_dict_getitem(struct nrt_error *err, const nrt_udf_dict *d, const nrt_str *k,
                                nrt_str *out);
/* d.pop(k[, dflt]): the value, as a new reference (dflt NULL: KeyError when absent; else
 * dflt, incref'd). out may be NULL (set.discard: the value is dropped). */
int32_t nrt_udf_rt_dict_pop(struct nrt_error *err, nrt_udf_dict *d, const nrt_str *k,
                            const nrt_str *dflt, nrt_str *out);
/* d.setdefault(k, v): the value now at k, borrowed. */
int32_t nrt_udf_rt_dict_setdefault(struct nrt_error *err, nrt_udf_dict *d, const nrt_str *k,
                                   const nrt_str *v, nrt_str *out);
int64_t nrt_udf_rt_dict_len(const nrt_udf_dict *d);
/* Iteration: *pos starts at 0; false at the end, else the next live entry (borrowed) and
 * *pos moved past it. A dict that changed size since *len_at_start was taken raises
 * RuntimeError in CPython: here the status NRT_ERUNTIME. */
int32_t nrt_udf_rt_dict_next(struct nrt_error *err, const nrt_udf_dict *d, int64_t *pos,
                             int64_t len_at_start, nrt_str *key, nrt_str *value, bool *more);
/* A constant display just built: no refcount traffic from now on. */
void nrt_udf_rt_dict_freeze(nrt_udf_dict *d);
/* Releases a frozen constant (NULL is ignored). */
void nrt_udf_rt_dict_const_free(nrt_udf_dict *d);

/* d.update(other), d.copy() (a new dict), d.clear(). */
int32_t nrt_udf_rt_dict_update(struct nrt_error *err, nrt_udf_dict *d, const nrt_udf_dict *other);
int32_t nrt_udf_rt_dict_copy(struct nrt_error *err, const nrt_udf_dict *d, nrt_udf_dict **out);
void nrt_udf_rt_dict_clear(nrt_udf_dict *d);
/* a | b, a & b, a - b, a ^ b of sets (op the operator's character; '|' also merges dicts): a
 * new set. */
int32_t nrt_udf_rt_set_binop(struct nrt_error *err, const nrt_udf_dict *a, const nrt_udf_dict *b,
                             int32_t op, nrt_udf_dict **out);
/* list(d.keys()) / list(d.values()) of str items: a new list (a MemInfo of nrt_str_list). */
int32_t nrt_udf_rt_dict_list(struct nrt_error *err, const nrt_udf_dict *d, int32_t values,
                             nrt_meminfo **out);
/* set(list): a new set of the list's strs. */
int32_t nrt_udf_rt_set_of_list(struct nrt_error *err, nrt_meminfo *list, nrt_udf_dict **out);

/* Builds the module's constant displays (m->const_displays) into *out (m->const_built too),
 * before code generation embeds their addresses. On failure *out holds what was built:
 * udf_dict_consts_free(*out, m->nconst_displays) releases it either way. */
struct udf_module;
int udf_dict_consts_build(struct udf_module *m, void ***out, struct nrt_error *err);
void udf_dict_consts_free(void **built, int n);

#endif

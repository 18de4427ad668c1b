/* The custom blocks behind every OCaml value of the binding (the only hand-written stubs).
 *
 * A GC handle is a ctypes pointer whose address word lives in one of these blocks instead of
 * a plain nativeint (as ocaml-torch does for tensors): the generated stubs read the address
 * with Nativeint_val, the first word of the block's data, and the block's finalizer drops the
 * nrt reference when the GC collects the handle. The block is made by caml_alloc_custom_mem
 * with the bytes nrt holds for the object (a string's block, a column's buffers), so the GC
 * collects as fast as that memory, not the few words of the block, grows.
 *
 * Data of a block: [0] the raw pointer (nrt_str cell, nrt_column, nrt_udf), [1] the bytes
 * reported for it. Finalizers run on the OCaml thread that collects, with the runtime lock
 * held, and so do the creations: the counters below need no atomics. */
#define CAML_NAME_SPACE
#include <caml/alloc.h>
#include <caml/custom.h>
#include <caml/fail.h>
#include <caml/memory.h>
#include <caml/mlvalues.h>
#include <stdbool.h>
#include <stdint.h>

#include "nrt/column.h"
#include "nrt/core.h"
#include "nrt/str.h"
#include "nrt/udf.h"

#include "ctypes_cstubs_internals.h"

/* Kinds of handle; the numbers are those of Nrt_raw. */
enum { KIND_STR = 0, KIND_COLUMN = 1, KIND_UDF = 2, KIND_COUNT };

static struct {
  bool report_sizes;     /* caml_alloc_custom_mem gets the true size (else 0) */
  bool pace_live;        /* also feed nrt's untracked live bytes to the GC */
  uintnat major_ratio;   /* Gc.custom_major_ratio when pacing was turned on */
  uint64_t handles;      /* live blocks */
  uint64_t reported;     /* bytes reported by live blocks */
  uint64_t untracked;    /* nrt live bytes not reported by any block, at the last check */
  unsigned since_check;  /* handles made since the last check */
} state = {.report_sizes = true};

/* Pacing reads nrt's statistics (a lock and a sum over threads) every this many handles. */
#define PACE_EVERY 64

static void **handle_words(value block) {
  return (void **)Data_custom_val(block);
}

static void forget(value block) {
  state.handles--;
  state.reported -= (uintnat)handle_words(block)[1];
}

static void finalize_str(value block) {
  nrt_str *cell = handle_words(block)[0];
  forget(block);
  nrt_str_release(cell);
  nrt_free(cell, sizeof *cell);
}

static void finalize_column(value block) {
  forget(block);
  nrt_col_release(handle_words(block)[0]);
}

static void finalize_udf(value block) {
  forget(block);
  nrt_udf_free(handle_words(block)[0]);
}

#define OPS(id, fin)                                                                         \
  {                                                                                          \
    id, fin, custom_compare_default, custom_hash_default, custom_serialize_default,          \
        custom_deserialize_default, custom_compare_ext_default, custom_fixed_length_default  \
  }

static struct custom_operations ops[KIND_COUNT] = {
    OPS("nrt.str", finalize_str),
    OPS("nrt.column", finalize_column),
    OPS("nrt.udf", finalize_udf),
};

/* A column's buffers (a list's child included): what its handle keeps alive. */
static uint64_t column_bytes(const nrt_column *c) {
  uint64_t n = (uint64_t)c->validity.size + (uint64_t)c->values.size + (uint64_t)c->data.size;
  for (int32_t i = 0; i < c->n_variadic; i++)
    n += (uint64_t)c->variadic[i].size;
  const nrt_column *child = nrt_col_list_child(c);
  return child ? n + column_bytes(child) : n;
}

/* The bytes nrt holds for an object: a managed string's one block (MemInfo, length, bytes)
 * and the cell holding its nrt_str; a column's buffers. A UDF's machine code is LLVM's, not
 * nrt's: 0 (live-bytes pacing sees what nrt allocates for it). */
static uint64_t true_size(int kind, void *p) {
  switch (kind) {
  case KIND_STR: {
    const nrt_str *s = p;
    uint64_t n = sizeof *s;
    if (s->mi)
      n += sizeof(nrt_meminfo) + nrt_mi_size(s->mi);
    return n;
  }
  case KIND_COLUMN:
    return column_bytes(p);
  default:
    return 0;
  }
}

/* Reports the growth of nrt's live bytes that no block reports (intermediate objects made
 * natively, anything made while size reporting was off) as extra heap resources, with the
 * scale caml_alloc_custom_mem uses. */
static void pace(void) {
  if (++state.since_check < PACE_EVERY)
    return;
  state.since_check = 0;
  uint64_t live = nrt_stats_live_bytes();
  uint64_t untracked = live > state.reported ? live - state.reported : 0;
  if (untracked > state.untracked) {
    mlsize_t max = Bsize_wsize(Caml_state->stat_heap_wsz) / 150 * state.major_ratio;
    caml_adjust_gc_speed((mlsize_t)(untracked - state.untracked), max);
  }
  state.untracked = untracked;
}

/* with_gc: the one way from a raw pointer (a ctypes fat pointer) to a GC handle, which owns
 * the reference the raw pointer carried. Returns the block, read by ctypes as a voidp. */
value nrt_ml_with_gc(value kind, value raw) {
  CAMLparam2(kind, raw);
  CAMLlocal1(block);
  int k = Int_val(kind);
  void *p = CTYPES_ADDR_OF_FATPTR(raw);
  if (!p)
    caml_invalid_argument("Nrt: with_gc of a NULL pointer");
  uint64_t size = true_size(k, p);
  mlsize_t mem = state.report_sizes ? (mlsize_t)size : 0;
  block = caml_alloc_custom_mem(&ops[k], 2 * sizeof(void *), mem);
  handle_words(block)[0] = p;
  handle_words(block)[1] = (void *)(uintnat)mem;
  state.handles++;
  state.reported += mem;
  if (state.pace_live)
    pace();
  CAMLreturn(block);
}

/* The bytes a handle reported to the GC (its true size, or 0 when reporting was off); -1 for a
 * pointer that is not a GC handle. */
value nrt_ml_handle_bytes(value fat) {
  value block = Field(fat, 1);
  if (Tag_val(block) != Custom_tag)
    return Val_long(-1);
  for (int k = 0; k < KIND_COUNT; k++)
    if (Custom_ops_val(block) == &ops[k])
      return Val_long((intnat)(uintnat)handle_words(block)[1]);
  return Val_long(-1);
}

value nrt_ml_set_size_reporting(value on) {
  state.report_sizes = Bool_val(on);
  return Val_unit;
}

value nrt_ml_size_reporting(value unit) {
  (void)unit;
  return Val_bool(state.report_sizes);
}

value nrt_ml_set_live_bytes_pacing(value on, value major_ratio) {
  state.pace_live = Bool_val(on);
  state.major_ratio = (uintnat)Long_val(major_ratio);
  state.since_check = PACE_EVERY - 1; /* check at the next handle */
  return Val_unit;
}

value nrt_ml_live_bytes_pacing(value unit) {
  (void)unit;
  return Val_bool(state.pace_live);
}

value nrt_ml_handles(value unit) {
  (void)unit;
  return Val_long((intnat)state.handles);
}

value nrt_ml_reported_bytes(value unit) {
  (void)unit;
  return Val_long((intnat)state.reported);
}

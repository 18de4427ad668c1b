/* Hand-written stubs doing what a generated path does, for bench_calls.ml: the floor a
 * binding without ctypes could reach. They read a handle's layout directly (Nrt.Str.t is a
 * ctypes pointer: block 0 holds the fat pointer, whose field 1 is the custom block). */
#define CAML_NAME_SPACE
#include <caml/alloc.h>
#include <caml/custom.h>
#include <caml/fail.h>
#include <caml/memory.h>
#include <caml/mlvalues.h>

#include "nrt/str.h"

static const nrt_str *cell_of(value handle) {
  return *(const nrt_str **)Data_custom_val(Field(Field(handle, 0), 1));
}

/* Nrt.Str.length in one call. */
value nrt_bench_length(value handle) {
  const nrt_str *s = cell_of(handle);
  return Val_long(nrt_str_len(s->data, s->len));
}

static void finalize(value block) {
  nrt_str *cell = *(nrt_str **)Data_custom_val(block);
  nrt_str_release(cell);
  nrt_free(cell, sizeof *cell);
}

static struct custom_operations ops = {"nrt.bench.str", finalize, custom_compare_default,
                                       custom_hash_default, custom_serialize_default,
                                       custom_deserialize_default, custom_compare_ext_default,
                                       custom_fixed_length_default};

/* Nrt.Str.of_string in one call: validate and copy, then a custom block with the size. */
value nrt_bench_of_string(value str) {
  CAMLparam1(str);
  CAMLlocal1(block);
  nrt_str *cell = nrt_allocate(sizeof *cell, NULL);
  if (!cell)
    caml_raise_out_of_memory();
  struct nrt_error err = {0};
  if (nrt_str_new_utf8(String_val(str), (int64_t)caml_string_length(str), cell, NULL, &err)) {
    nrt_free(cell, sizeof *cell);
    caml_failwith(err.message);
  }
  size_t mem = sizeof *cell + (cell->mi ? sizeof(nrt_meminfo) + nrt_mi_size(cell->mi) : 0);
  block = caml_alloc_custom_mem(&ops, sizeof cell, mem);
  *(nrt_str **)Data_custom_val(block) = cell;
  CAMLreturn(block);
}

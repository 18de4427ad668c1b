/* The nrt_value kinds (nrt/exec.h) a UDF's result type gives: the value's kind, and for a list
 * result the kind of its items (nrt_value.item_kind). */
#ifndef NRT_UDF_RESULT_KIND_H
#define NRT_UDF_RESULT_KIND_H

#include "nrt/exec.h"
#include "udf/ast.h"

/* The items' kind of a list result type: NRT_VALUE_STR for a list or tuple of str,
 * NRT_VALUE_INT64 / _FLOAT64 / _BOOL for a list of numbers (UDF_TY_LIST), else
 * NRT_VALUE_NULL. */
static inline nrt_value_kind udf_result_item_kind(udf_type t) {
  switch (udf_type_base(t)) {
  case UDF_TY_LIST_STR:
  case UDF_TY_TUPLE_STR: return NRT_VALUE_STR;
  case UDF_TY_LIST:
    switch (udf_type_param1(t)) {
    case UDF_TY_INT: return NRT_VALUE_INT64;
    case UDF_TY_FLOAT: return NRT_VALUE_FLOAT64;
    case UDF_TY_BOOL: return NRT_VALUE_BOOL;
    default: return NRT_VALUE_NULL;
    }
  default: return NRT_VALUE_NULL;
  }
}

/* The compile error for a tuple result whose items differ in type (no Arrow struct columns). */
#define UDF_MIXED_TUPLE_RESULT                                                                 \
  "unsupported: returning a tuple of mixed types (a function may return a tuple of str, the "  \
  "UDF itself also a tuple of int, of float or of bool)"

/* `return (a, b, ...)` in the UDF itself, a tuple display whose items all have one number type
 * (int, float or bool): the display becomes a list display of that type, since a tuple result is a
 * list column anyway. Returns the list type, or the tuple's own type when the items differ. */
static inline udf_type udf_result_tuple_as_list(udf_expr *e) {
  if (e->kind != UDF_E_TUPLE || e->u.seq.n == 0)
    return e->type;
  udf_type t = e->u.seq.items[0]->type;
  if (t != UDF_TY_INT && t != UDF_TY_FLOAT && t != UDF_TY_BOOL)
    return e->type;
  for (int i = 1; i < e->u.seq.n; i++)
    if (e->u.seq.items[i]->type != t)
      return e->type;
  e->kind = UDF_E_LIST;
  return e->type = udf_type_make(UDF_TY_LIST, t, 0);
}

#endif

/* The table of every function compiled UDF code calls, bound by name in the JIT. */
#include "nrt/str.h"
#include "nrt/str_convert.h"
#include "udf/runtime.h"
#include "udf/runtime_dict.h"
#include "udf/runtime_re.h"
#include "udf/runtime_ucd.h"
#include "udf/runtime_translate.h"

#define SYM(f) {#f, (void *)(f)}

static const struct nrt_udf_symbol refops_plain[3] = {
    SYM(nrt_mi_incref_local), SYM(nrt_mi_decref_local), SYM(nrt_udf_rt_unwind)};
static const struct nrt_udf_symbol refops_counted[3] = {
    {"nrt_mi_incref_local", (void *)nrt_udf_rt_incref_counted},
    {"nrt_mi_decref_local", (void *)nrt_udf_rt_decref_counted},
    {"nrt_udf_rt_unwind", (void *)nrt_udf_rt_unwind_counted}};

static const struct nrt_udf_symbol common[] = {
    /* runtime entry points */
    SYM(nrt_udf_rt_raise), SYM(nrt_udf_rt_raise_str), SYM(nrt_udf_rt_exc_save),
    SYM(nrt_udf_rt_exc_restore), SYM(nrt_udf_rt_exc_str), SYM(nrt_udf_rt_ipow), SYM(nrt_udf_rt_ffloordiv), SYM(nrt_udf_rt_fmod),
    SYM(nrt_udf_rt_fpow), SYM(nrt_udf_rt_float_to_int), SYM(nrt_udf_rt_check_base),
    SYM(nrt_udf_rt_unpack_check), SYM(nrt_udf_rt_char_at), SYM(nrt_udf_rt_strip), SYM(nrt_udf_rt_str_getitem),
    SYM(nrt_udf_rt_str_slice), SYM(nrt_udf_rt_list_new), SYM(nrt_udf_rt_list_chars),
    SYM(nrt_udf_rt_list_append), SYM(nrt_udf_rt_list_getitem), SYM(nrt_udf_rt_list_slice),
    SYM(nrt_udf_rt_list_concat), SYM(nrt_udf_rt_math), SYM(nrt_udf_rt_ucd_str),
    SYM(nrt_udf_rt_ucd_int), SYM(nrt_udf_rt_ucd_numeric),
    SYM(nrt_udf_rt_list_repeat), SYM(nrt_udf_rt_list_contains), SYM(nrt_udf_rt_list_eq),
    SYM(nrt_udf_rt_startswith_list), SYM(nrt_udf_rt_endswith_list), SYM(nrt_udf_rt_split),
    SYM(nrt_udf_rt_rsplit), SYM(nrt_udf_rt_splitlines), SYM(nrt_udf_rt_partition),
    SYM(nrt_udf_rt_partition_item), SYM(nrt_udf_rt_partition_range),
    SYM(nrt_udf_rt_join_words),
    SYM(nrt_udf_rt_join), SYM(nrt_udf_rt_join_chars), SYM(nrt_udf_rt_str_minmax),
    SYM(nrt_udf_rt_list_minmax), SYM(nrt_udf_rt_format_str), SYM(nrt_udf_rt_repr),
    SYM(nrt_udf_rt_write_room), SYM(nrt_udf_rt_write_int),
    SYM(nrt_udf_rt_write_float), SYM(nrt_udf_rt_write_format_str),
    SYM(nrt_udf_rt_write_replace), SYM(nrt_udf_rt_write_str_spec),
    SYM(nrt_udf_rt_write_str_spec_n), SYM(nrt_udf_write_str_fast), SYM(nrt_udf_write_int_fast),
    SYM(nrt_udf_rt_write_int_spec), SYM(nrt_udf_rt_write_float_spec), SYM(nrt_mi_destroy),
    SYM(nrt_udf_rt_dict_new), SYM(nrt_udf_rt_dict_set), SYM(nrt_udf_rt_dict_find),
    SYM(nrt_udf_rt_dict_getitem), SYM(nrt_udf_rt_dict_pop), SYM(nrt_udf_rt_dict_setdefault),
    SYM(nrt_udf_rt_dict_len), SYM(nrt_udf_rt_dict_next), SYM(nrt_udf_rt_set_of_list),
    SYM(nrt_udf_rt_dict_update), SYM(nrt_udf_rt_dict_copy), SYM(nrt_udf_rt_dict_clear),
    SYM(nrt_udf_rt_set_binop), SYM(nrt_udf_rt_dict_list),
    /* mutable lists (runtime_mlist.c, runtime_sortkeys.c) */
    SYM(nrt_udf_rt_mlist_insert), SYM(nrt_udf_rt_mlist_extend), SYM(nrt_udf_rt_mlist_pop),
    SYM(nrt_udf_rt_mlist_remove), SYM(nrt_udf_rt_mlist_index), SYM(nrt_udf_rt_mlist_count),
    SYM(nrt_udf_rt_mlist_reverse), SYM(nrt_udf_rt_mlist_clear), SYM(nrt_udf_rt_mlist_setitem),
    SYM(nrt_udf_rt_mlist_delitem), SYM(nrt_udf_rt_mlist_copy), SYM(nrt_udf_rt_keys_new),
    SYM(nrt_udf_rt_keys_add_int), SYM(nrt_udf_rt_keys_add_float), SYM(nrt_udf_rt_keys_add_str),
    SYM(nrt_udf_rt_mlist_sort), SYM(nrt_udf_rt_mlist_pick), SYM(nrt_udf_rt_mlist_imul),
    SYM(nrt_udf_rt_mlist_sort_len), SYM(nrt_udf_rt_split_sorted_len),
    SYM(nrt_udf_rt_write_join_sorted_words),
    SYM(nrt_udf_rt_write_join),
    SYM(nrt_udf_rt_keys_chain),
    SYM(nrt_udf_rt_nlist_count), SYM(nrt_udf_rt_nlist_index), SYM(nrt_udf_rt_nlist_remove),
    SYM(nrt_udf_rt_nlist_sum), SYM(nrt_udf_rt_nlist_range), SYM(nrt_udf_rt_nlist_eq),
    SYM(nrt_udf_rt_nlist_sort), SYM(nrt_udf_rt_nlist_pick),
    SYM(nrt_udf_rt_re_match), SYM(nrt_udf_rt_re_match_at), SYM(nrt_udf_rt_re_sub),
    SYM(nrt_udf_rt_re_split),
    SYM(nrt_udf_rt_re_findall), SYM(nrt_udf_rt_re_escape), SYM(nrt_udf_rt_re_group),
    SYM(nrt_udf_rt_re_pos), SYM(nrt_udf_rt_re_groups), SYM(nrt_udf_rt_re_finditer),
    SYM(nrt_udf_rt_re_finditer_n), SYM(nrt_udf_rt_re_assemble),
    SYM(nrt_udf_rt_translate), SYM(nrt_udf_rt_translate_dict), SYM(nrt_udf_rt_repr_value),
    SYM(nrt_udf_rt_write_translate), SYM(nrt_udf_rt_write_repr_value),
    /* the str layer, called directly */
    SYM(nrt_str_concat), SYM(nrt_str_append), SYM(nrt_str_fit), SYM(nrt_str_repeat),
    SYM(nrt_str_contains), SYM(nrt_str_eq),
    SYM(nrt_str_compare), SYM(nrt_str_len), SYM(nrt_str_upper), SYM(nrt_str_lower),
    SYM(nrt_str_casefold), SYM(nrt_str_capitalize), SYM(nrt_str_title), SYM(nrt_str_swapcase),
    SYM(nrt_str_upper_into_padded), SYM(nrt_str_lower_into_padded),
    SYM(nrt_str_casefold_into_padded), SYM(nrt_str_capitalize_into_padded),
    SYM(nrt_str_title_into_padded), SYM(nrt_str_swapcase_into_padded),
    SYM(nrt_str_isalpha), SYM(nrt_str_isalnum), SYM(nrt_str_isdecimal), SYM(nrt_str_isdigit),
    SYM(nrt_str_isnumeric), SYM(nrt_str_isspace), SYM(nrt_str_isupper), SYM(nrt_str_islower),
    SYM(nrt_str_istitle), SYM(nrt_str_isascii), SYM(nrt_str_isidentifier),
    SYM(nrt_str_isprintable), SYM(nrt_str_find), SYM(nrt_str_rfind), SYM(nrt_str_count),
    SYM(nrt_str_index), SYM(nrt_str_rindex), SYM(nrt_str_startswith), SYM(nrt_str_endswith),
    SYM(nrt_str_replace), SYM(nrt_str_strip), SYM(nrt_str_lstrip), SYM(nrt_str_rstrip),
    SYM(nrt_str_strip_range), SYM(nrt_str_slice_range),
    SYM(nrt_str_center), SYM(nrt_str_ljust), SYM(nrt_str_rjust), SYM(nrt_str_zfill),
    SYM(nrt_str_expandtabs), SYM(nrt_str_removeprefix), SYM(nrt_str_removesuffix),
    SYM(nrt_str_join_array), SYM(nrt_str_from_int64), SYM(nrt_str_from_double),
    SYM(nrt_str_to_int64), SYM(nrt_str_to_double), SYM(nrt_str_ord), SYM(nrt_str_chr),
    SYM(nrt_str_format_int), SYM(nrt_str_format_float)};

#define NCOMMON (sizeof common / sizeof common[0])

size_t nrt_udf_runtime_symbols(int counted, struct nrt_udf_symbol *out, size_t cap) {
  const struct nrt_udf_symbol *r = counted ? refops_counted : refops_plain;
  size_t n = 0;
  for (size_t i = 0; i < 3 && n < cap; i++)
    out[n++] = r[i];
  for (size_t i = 0; i < NCOMMON && n < cap; i++)
    out[n++] = common[i];
  return NCOMMON + 3;
}

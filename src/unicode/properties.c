/* Character properties and case mappings over the generated tables (see
 * tools/gen_unicode_tables.py for how each property is derived, following CPython). */
#include "nrt/unicode.h"
#include "unicode/uc_lookup.h"

NRT_API enum nrt_uc_category nrt_uc_category(uint32_t cp) {
  return (enum nrt_uc_category)nrt_uc_record_of(cp)->category;
}

NRT_API const char *nrt_uc_category_name(enum nrt_uc_category c) {
  static const char names[][3] = {"Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd",
                                  "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sm",
                                  "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co"};
  unsigned i = (unsigned)c;
  return i < sizeof names / sizeof names[0] ? names[i] : "Cn";
}

#define FLAG_PREDICATE(name, flag)                                                           \
  NRT_API bool name(uint32_t cp) { return (nrt_uc_flags_of(cp) & (flag)) != 0; }

FLAG_PREDICATE(nrt_uc_is_alpha, NRT_UC_F_ALPHA)
FLAG_PREDICATE(nrt_uc_is_decimal, NRT_UC_F_DECIMAL)
FLAG_PREDICATE(nrt_uc_is_digit, NRT_UC_F_DIGIT)
FLAG_PREDICATE(nrt_uc_is_numeric, NRT_UC_F_NUMERIC)
FLAG_PREDICATE(nrt_uc_is_alnum,
               NRT_UC_F_ALPHA | NRT_UC_F_DECIMAL | NRT_UC_F_DIGIT | NRT_UC_F_NUMERIC)
FLAG_PREDICATE(nrt_uc_is_space, NRT_UC_F_SPACE)
FLAG_PREDICATE(nrt_uc_is_linebreak, NRT_UC_F_LINEBREAK)
FLAG_PREDICATE(nrt_uc_is_lowercase, NRT_UC_F_LOWER)
FLAG_PREDICATE(nrt_uc_is_uppercase, NRT_UC_F_UPPER)
FLAG_PREDICATE(nrt_uc_is_titlecase, NRT_UC_F_TITLE)
FLAG_PREDICATE(nrt_uc_is_cased, NRT_UC_F_CASED)
FLAG_PREDICATE(nrt_uc_is_case_ignorable, NRT_UC_F_CASE_IGNORABLE)
FLAG_PREDICATE(nrt_uc_is_xid_start, NRT_UC_F_XID_START)
FLAG_PREDICATE(nrt_uc_is_xid_continue, NRT_UC_F_XID_CONTINUE)
FLAG_PREDICATE(nrt_uc_is_printable, NRT_UC_F_PRINTABLE)

NRT_API int nrt_uc_decimal_value(uint32_t cp) {
  return nrt_uc_record_of(cp)->decimal;
}

NRT_API int nrt_uc_digit_value(uint32_t cp) {
  return nrt_uc_record_of(cp)->digit;
}

NRT_API bool nrt_uc_numeric_value(uint32_t cp, double *value) {
  unsigned n = nrt_uc_record_of(cp)->numeric;
  if (n == 0)
    return false;
  *value = nrt_uc_numeric_values[n - 1];
  return true;
}

NRT_API size_t nrt_uc_lower_full(uint32_t cp, uint32_t out[3]) {
  return nrt_uc_case_of(nrt_uc_record_of(cp), cp, NRT_UC_CASE_LOWER, out);
}

NRT_API size_t nrt_uc_upper_full(uint32_t cp, uint32_t out[3]) {
  return nrt_uc_case_of(nrt_uc_record_of(cp), cp, NRT_UC_CASE_UPPER, out);
}

NRT_API size_t nrt_uc_title_full(uint32_t cp, uint32_t out[3]) {
  return nrt_uc_case_of(nrt_uc_record_of(cp), cp, NRT_UC_CASE_TITLE, out);
}

NRT_API size_t nrt_uc_fold_full(uint32_t cp, uint32_t out[3]) {
  return nrt_uc_case_of(nrt_uc_record_of(cp), cp, NRT_UC_CASE_FOLD, out);
}

NRT_API const char *nrt_uc_version(void) {
  return NRT_UC_UCD_VERSION;
}

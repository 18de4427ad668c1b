/* The unicodedata module for compiled UDFs (runtime_ucd.h), over nrt/ucd.h and nrt/unicode.h,
 * with CPython 3.11's exceptions and messages (Modules/unicodedata.c). */
#include "udf/runtime_ucd.h"

#include <string.h>

#include "nrt/str_convert.h"
#include "nrt/ucd.h"
#include "nrt/unicode.h"
#include "str/str_copy.h"

static const char *const fn_names[] = {
    "category", "bidirectional", "east_asian_width", "decomposition", "name", "lookup",
    "normalize", "decimal", "digit", "combining", "mirrored", "is_normalized", "numeric"};

/* The one code point of s, or CPython's TypeError; "argument 1" for the functions that take a
 * default. */
static int32_t one_char(int32_t fn, const nrt_str *s, uint32_t *cp, struct nrt_error *err) {
  size_t used = 0;
  if (s->len > 0) *cp = nrt_utf8_decode(s->data, (size_t)s->len, &used);
  if (s->len == 0 || used != (size_t)s->len) {
    bool numbered = fn == NRT_UDF_UCD_NAME || fn == NRT_UDF_UCD_DECIMAL ||
                    fn == NRT_UDF_UCD_DIGIT || fn == NRT_UDF_UCD_NUMERIC;
    return nrt_error_set(err, NRT_ETYPE, "%s() argument %smust be a unicode character, not str",
                         fn_names[fn], numbered ? "1 " : "");
  }
  return NRT_OK;
}

static int32_t form_of(const nrt_str *s, enum nrt_uc_form *form, struct nrt_error *err) {
  int f = nrt_uc_form_of(s->data, (size_t)s->len);
  if (f < 0) return nrt_error_set(err, NRT_EVALUE, "invalid normalization form");
  *form = (enum nrt_uc_form)f;
  return NRT_OK;
}

static int32_t static_str(const char *s, nrt_str *out) {
  *out = nrt_str_view(s, (int64_t)strlen(s));
  return NRT_OK;
}

/* form(text) as a new string in *out (text itself when the quick check says it is in form). */
static int32_t normalize(enum nrt_uc_form form, const nrt_str *text, nrt_str *out,
                         struct nrt_error *err) {
  if (nrt_uc_quick_check(form, text->data, (size_t)text->len)) {
    nrt_str_retain(text);
    nrt_str_copy(out, text);
    return NRT_OK;
  }
  size_t n = nrt_utf8_count(text->data, (size_t)text->len);
  uint32_t *in = nrt_allocate(n * sizeof(uint32_t), err);
  if (!in) return NRT_ENOMEM;
  for (size_t i = 0, k = 0; i < (size_t)text->len; k++) {
    size_t used;
    in[k] = nrt_utf8_decode(text->data + i, (size_t)text->len - i, &used);
    i += used;
  }
  /* A first pass counts the decomposition, so the result buffer is exact. */
  size_t cap = nrt_uc_normalize(form, in, n, NULL, 0);
  uint32_t *res = nrt_allocate(cap * sizeof(uint32_t), err);
  if (!res) {
    nrt_free(in, n * sizeof(uint32_t));
    return NRT_ENOMEM;
  }
  size_t m = nrt_uc_normalize(form, in, n, res, cap);
  size_t len = 0;
  for (size_t i = 0; i < m; i++) len += res[i] < 0x80 ? 1 : res[i] < 0x800 ? 2 : res[i] < 0x10000 ? 3 : 4;
  char *p;
  int32_t rc = nrt_str_alloc((int64_t)len, out, &p, err);
  if (rc == NRT_OK)
    for (size_t i = 0; i < m; i++) p += nrt_utf8_encode(res[i], p);
  nrt_free(res, cap * sizeof(uint32_t));
  nrt_free(in, n * sizeof(uint32_t));
  return rc;
}

static int32_t lookup(const nrt_str *name, nrt_str *out, struct nrt_error *err) {
  if (name->len > 256) return nrt_error_set(err, NRT_EKEY, "'name too long'");
  uint32_t cps[4];
  size_t n = nrt_uc_lookup(name->data, (size_t)name->len, cps);
  if (n == 0) { /* KeyError's message is repr() of CPython's message */
    static const char pre[] = "undefined character name '";
    char msg[sizeof pre + 256 + 1], repr[NRT_ERROR_MESSAGE_SIZE];
    memcpy(msg, pre, sizeof pre - 1); /* the name may hold NULs */
    if (name->len) memcpy(msg + sizeof pre - 1, name->data, (size_t)name->len);
    int64_t len = (int64_t)(sizeof pre - 1) + name->len;
    msg[len++] = '\'';
    while (len > 0 && nrt_str_repr_size(msg, len) >= (int64_t)sizeof repr)
      do len--; while (len > 0 && ((unsigned char)msg[len] & 0xC0) == 0x80);
    repr[nrt_str_repr_into(msg, len, repr)] = '\0';
    return nrt_error_set(err, NRT_EKEY, "%s", repr);
  }
  char buf[16], *p = buf;
  for (size_t i = 0; i < n; i++) p += nrt_utf8_encode(cps[i], p);
  return nrt_str_new(buf, p - buf, out, err);
}

int32_t nrt_udf_rt_ucd_str(int32_t fn, const nrt_str *a, const nrt_str *b, nrt_str *out,
                           struct nrt_error *err) {
  *out = nrt_str_empty();
  bool none_default = (fn & NRT_UDF_UCD_DEFAULT_NONE) != 0;
  fn &= ~NRT_UDF_UCD_DEFAULT_NONE;
  if (fn == NRT_UDF_UCD_LOOKUP) return lookup(a, out, err);
  if (fn == NRT_UDF_UCD_NORMALIZE) {
    enum nrt_uc_form form = NRT_UC_NFC;
    int32_t rc = form_of(a, &form, err);
    return rc ? rc : normalize(form, b, out, err);
  }
  uint32_t cp = 0;
  int32_t rc = one_char(fn, a, &cp, err);
  if (rc) return rc;
  switch (fn) {
  case NRT_UDF_UCD_CATEGORY: return static_str(nrt_uc_category_name(nrt_uc_category(cp)), out);
  case NRT_UDF_UCD_BIDIRECTIONAL: return static_str(nrt_uc_bidirectional(cp), out);
  case NRT_UDF_UCD_EAST_ASIAN_WIDTH: return static_str(nrt_uc_east_asian_width(cp), out);
  case NRT_UDF_UCD_DECOMPOSITION: {
    char buf[NRT_UC_DECOMPOSITION_MAX];
    size_t n = nrt_uc_decomposition(cp, buf);
    return nrt_str_new(buf, (int64_t)n, out, err);
  }
  case NRT_UDF_UCD_NAME: {
    char buf[NRT_UC_NAME_MAX];
    size_t n = nrt_uc_name(cp, buf);
    if (n) return nrt_str_new(buf, (int64_t)n, out, err);
    if (none_default) {
      *out = (nrt_str){NULL, NULL, 0};
      return NRT_OK;
    }
    if (!b) return nrt_error_set(err, NRT_EVALUE, "no such name");
    nrt_str_retain(b);
    nrt_str_copy(out, b);
    return NRT_OK;
  }
  default: return nrt_error_set(err, NRT_EINVAL, "unknown unicodedata function %d", (int)fn);
  }
}

int32_t nrt_udf_rt_ucd_int(int32_t fn, const nrt_str *a, const nrt_str *b, int32_t has_default,
                           int64_t dflt, int64_t *out, struct nrt_error *err) {
  if (fn == NRT_UDF_UCD_IS_NORMALIZED) {
    enum nrt_uc_form form = NRT_UC_NFC;
    int32_t rc = form_of(a, &form, err);
    if (rc) return rc;
    if (nrt_uc_quick_check(form, b->data, (size_t)b->len)) {
      *out = 1;
      return NRT_OK;
    }
    nrt_str n;
    rc = normalize(form, b, &n, err);
    if (rc) return rc;
    *out = n.len == b->len && memcmp(n.data, b->data, (size_t)b->len) == 0;
    nrt_str_release(&n);
    return NRT_OK;
  }
  uint32_t cp = 0;
  int32_t rc = one_char(fn, a, &cp, err);
  if (rc) return rc;
  int v;
  switch (fn) {
  case NRT_UDF_UCD_COMBINING: *out = nrt_uc_combining(cp); return NRT_OK;
  case NRT_UDF_UCD_MIRRORED: *out = nrt_uc_mirrored(cp); return NRT_OK;
  case NRT_UDF_UCD_DECIMAL:
  case NRT_UDF_UCD_DIGIT:
    v = fn == NRT_UDF_UCD_DECIMAL ? nrt_uc_decimal_value(cp) : nrt_uc_digit_value(cp);
    if (v >= 0) *out = v;
    else if (has_default) *out = dflt;
    else
      return nrt_error_set(err, NRT_EVALUE, fn == NRT_UDF_UCD_DECIMAL ? "not a decimal"
                                                                      : "not a digit");
    return NRT_OK;
  default: return nrt_error_set(err, NRT_EINVAL, "unknown unicodedata function %d", (int)fn);
  }
}

int32_t nrt_udf_rt_ucd_numeric(const nrt_str *a, int32_t has_default, double dflt, double *out,
                               struct nrt_error *err) {
  uint32_t cp = 0;
  int32_t rc = one_char(NRT_UDF_UCD_NUMERIC, a, &cp, err);
  if (rc) return rc;
  if (nrt_uc_numeric_value(cp, out)) return NRT_OK;
  if (!has_default) return nrt_error_set(err, NRT_EVALUE, "not a numeric character");
  *out = dflt;
  return NRT_OK;
}

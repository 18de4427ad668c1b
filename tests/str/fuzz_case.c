/* libFuzzer harness for the case mapping and predicate operations: on the valid UTF-8 prefix
 * of the input, _size == _into == _into_padded, the output is valid UTF-8, the managed
 * wrappers agree with the kernels (and hand back the input when nothing changes), upper, lower
 * and casefold are idempotent, isascii matches the bytes, and nothing leaks. */
#include <stdlib.h>
#include <string.h>

#include "nrt/str.h"
#include "nrt/unicode.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef int64_t (*size_fn)(const char *, int64_t);
typedef int64_t (*into_fn)(const char *, int64_t, char *);
typedef int (*managed_fn)(const nrt_str *, nrt_str *, struct nrt_error *);
typedef bool (*pred_fn)(const char *, int64_t);

static const struct {
  size_fn size;
  into_fn into;
  into_fn into_padded;
  managed_fn managed;
  bool idempotent;
} ops[] = {
#define OP(name, idempotent)                                                                   \
  {nrt_str_##name##_size, nrt_str_##name##_into, nrt_str_##name##_into_padded, nrt_str_##name, \
   idempotent}
    OP(upper, true),  OP(lower, true), OP(casefold, true),
    OP(capitalize, false), OP(title, false), OP(swapcase, false),
#undef OP
};

static const pred_fn preds[] = {
    nrt_str_isalpha, nrt_str_isalnum, nrt_str_isdecimal, nrt_str_isdigit,
    nrt_str_isnumeric, nrt_str_isspace, nrt_str_isupper, nrt_str_islower,
    nrt_str_istitle, nrt_str_isascii, nrt_str_isidentifier, nrt_str_isprintable};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  size_t valid = size;
  nrt_utf8_validate((const char *)data, size, &valid, NULL);
  /* An exact-size copy, so reading past the string is caught. */
  char *s = malloc(valid ? valid : 1);
  memcpy(s, data, valid);
  int64_t len = (int64_t)valid;
  uint64_t live = nrt_stats_live_meminfos();
  for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
    int64_t n = ops[k].size(s, len);
    if (n < 0 || n > 3 * len)
      abort();
    char *out = malloc((size_t)n + 1);
    if (ops[k].into(s, len, out) != n)
      abort();
    if (nrt_utf8_validate(out, (size_t)n, NULL, NULL) != NRT_OK)
      abort();
    char *padded = malloc(3 * (size_t)len + NRT_STR_CASE_PADDING); /* exactly its room */
    if (ops[k].into_padded(s, len, padded) != n || memcmp(padded, out, (size_t)n) != 0)
      abort();
    free(padded);
    if (ops[k].idempotent) {
      char *again = malloc((size_t)n + 1);
      if (ops[k].size(out, n) != n || ops[k].into(out, n, again) != n ||
          memcmp(again, out, (size_t)n) != 0)
        abort();
      free(again);
    }
    nrt_str in = nrt_str_view(s, len), res;
    if (ops[k].managed(&in, &res, NULL) != NRT_OK || res.len != n ||
        memcmp(res.data, out, (size_t)n) != 0)
      abort();
    if (n == len && memcmp(out, s, (size_t)n) == 0 && res.data != s && len > 0)
      abort(); /* unchanged: the input itself */
    nrt_str_release(&res);
    free(out);
  }
  bool ascii = true;
  for (size_t i = 0; i < valid; i++)
    ascii &= data[i] < 0x80;
  if (nrt_str_isascii(s, len) != ascii)
    abort();
  for (size_t p = 0; p < sizeof preds / sizeof preds[0]; p++)
    (void)preds[p](s, len);
  if (nrt_str_isdecimal(s, len) && !nrt_str_isdigit(s, len))
    abort(); /* every decimal is a digit */
  if (nrt_str_isdigit(s, len) && !nrt_str_isnumeric(s, len))
    abort();
  if ((nrt_str_isalpha(s, len) || nrt_str_isnumeric(s, len)) && !nrt_str_isalnum(s, len))
    abort();
  if (nrt_stats_live_meminfos() != live)
    abort();
  free(s);
  return 0;
}

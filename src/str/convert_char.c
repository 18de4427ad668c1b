/* ord() and chr(). */
#include "str/convert_internal.h"

int nrt_str_ord(const char *s, int64_t len, int64_t *out, struct nrt_error *err) {
  int k = 0;
  uint32_t cp = len > 0 ? nrt_u8_dec(s, &k) : 0;
  if (len <= 0 || k != len)
    return nrt_error_set(err, NRT_ETYPE,
                         "ord() expected a character, but string of length %lld found",
                         (long long)(len > 0 ? nrt_str_len(s, len) : 0));
  *out = cp;
  return NRT_OK;
}

int64_t nrt_str_chr_into(int64_t cp, char *out) {
  if (cp < 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return -1;
  return nrt_u8_enc((uint32_t)cp, out);
}

int nrt_str_chr(int64_t cp, nrt_str *out, struct nrt_error *err) {
  char buf[4];
  *out = nrt_str_empty();
  if (cp < INT32_MIN || cp > INT32_MAX) /* chr() takes a C int */
    return nrt_error_set(err, NRT_EOVERFLOW, "Python int too large to convert to C int");
  if (cp < 0 || cp > 0x10FFFF)
    return nrt_error_set(err, NRT_EVALUE, "chr() arg not in range(0x110000)");
  if (cp >= 0xD800 && cp <= 0xDFFF)
    return nrt_error_set(err, NRT_EVALUE,
                         "chr() arg is a surrogate (U+%04llX), which nrt strings (UTF-8) "
                         "cannot hold",
                         (unsigned long long)cp);
  int64_t n = nrt_str_chr_into(cp, buf);
  return nrt_str_make(buf, n, out, err);
}

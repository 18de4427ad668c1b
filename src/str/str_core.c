/* Managed strings: one allocation per string (MemInfo + length + bytes + NUL), the shared
 * empty string, retain/release (see nrt/str.h). */
#include "nrt/unicode.h"
#include "str/str_copy.h"
#include "str/str_internal.h"

#include <stddef.h>

_Static_assert(offsetof(struct nrt_str_payload, bytes) == NRT_STR_PAYLOAD_HEAD,
               "str_alloc.h addresses the payload by offsets");

int64_t nrt_str_max_bytes_limit = NRT_STR_DEFAULT_MAX_BYTES;

int64_t nrt_str_set_max_bytes(int64_t n) {
  if (n < 1)
    n = NRT_STR_DEFAULT_MAX_BYTES;
  if (n > NRT_STR_MAX_LEN)
    n = NRT_STR_MAX_LEN;
  return __atomic_exchange_n(&nrt_str_max_bytes_limit, n, __ATOMIC_RELAXED);
}

int64_t nrt_str_max_bytes(void) {
  return __atomic_load_n(&nrt_str_max_bytes_limit, __ATOMIC_RELAXED);
}

int nrt_str_limit_error(int64_t len, struct nrt_error *err) {
  return nrt_error_set(err, NRT_ELIMIT, "a string of %lld bytes is over the limit of %lld bytes",
                       (long long)len, (long long)nrt_str_max_bytes());
}

/* The bytes handed out by nrt_str_alloc(0): nothing is ever written to them. */
static char empty_bytes[1];

int nrt_str_alloc(int64_t len, nrt_str *out, char **bytes, struct nrt_error *err) {
  *out = nrt_str_empty();
  *bytes = empty_bytes;
  if (len < 0)
    return nrt_error_set(err, NRT_EINVAL, "negative string length %lld", (long long)len);
  if (len == 0)
    return NRT_OK;
  if (len > NRT_STR_MAX_LEN)
    return nrt_error_set(err, NRT_EOVERFLOW, "string of %lld bytes is too long",
                         (long long)len);
  return nrt_str_alloc_nonempty(len, out, bytes, err);
}

int nrt_str_new(const char *s, int64_t len, nrt_str *out, struct nrt_error *err) {
  if (len > 0 && len <= NRT_STR_MAX_LEN) {
    char *bytes;
    int rc = nrt_str_alloc_nonempty(len, out, &bytes, err);
    if (rc == NRT_OK)
      nrt_copy_short(bytes, s, len);
    return rc;
  }
  char *bytes;
  return nrt_str_alloc(len, out, &bytes, err);
}

int nrt_str_view_utf8(const char *s, int64_t len, nrt_str *out, int64_t *error_offset,
                      struct nrt_error *err) {
  *out = nrt_str_empty();
  if (error_offset)
    *error_offset = -1;
  if (len < 0)
    return nrt_error_set(err, NRT_EINVAL, "negative string length %lld", (long long)len);
  size_t bad = 0;
  int rc = nrt_utf8_validate(s, (size_t)len, &bad, err);
  if (rc != NRT_OK) {
    if (error_offset)
      *error_offset = (int64_t)bad;
    return rc;
  }
  if (len > 0)
    *out = nrt_str_view(s, len);
  return NRT_OK;
}

int nrt_str_new_utf8(const char *s, int64_t len, nrt_str *out, int64_t *error_offset,
                     struct nrt_error *err) {
  int rc = nrt_str_view_utf8(s, len, out, error_offset, err);
  if (rc != NRT_OK)
    return rc;
  return nrt_str_new(s, len, out, err);
}

void nrt_str_retain(const nrt_str *s) {
  if (s->mi)
    nrt_mi_incref(s->mi);
}

void nrt_str_release(nrt_str *s) {
  if (s->mi)
    nrt_mi_decref(s->mi);
  *s = nrt_str_empty();
}

nrt_str nrt_str_from_meminfo(nrt_meminfo *mi) {
  const struct nrt_str_payload *p = (const struct nrt_str_payload *)mi->data;
  nrt_str s = {mi, p->bytes, p->len};
  return s;
}

int nrt_str_result_sub(const nrt_str *in, const char *r, int64_t rlen, nrt_str *out,
                       struct nrt_error *err) {
  if (r == in->data && rlen == in->len) {
    nrt_str_retain(in);
    nrt_str_copy(out, in);
    return NRT_OK;
  }
  return nrt_str_make(r, rlen, out, err);
}

#define C2(c) (char)(c), 0
#define C8(c) C2(c), C2(c + 1), C2(c + 2), C2(c + 3), C2(c + 4), C2(c + 5), C2(c + 6), C2(c + 7)
#define C32(c) C8(c), C8(c + 8), C8(c + 16), C8(c + 24)
const char nrt_str_ascii_table[256] = {C32(0), C32(32), C32(64), C32(96)};

/* U+0080..U+07FF (Latin-1, Latin Extended, IPA, Greek, Cyrillic, Armenian, Hebrew, Arabic, ...)
 * as two UTF-8 bytes and a NUL each, indexed by code point - 0x80. */
#define U1(c) (char)(0xC0 | ((c) >> 6)), (char)(0x80 | ((c)&0x3F)), 0
#define U8(c) U1(c), U1(c + 1), U1(c + 2), U1(c + 3), U1(c + 4), U1(c + 5), U1(c + 6), U1(c + 7)
#define U64(c) U8(c), U8(c + 8), U8(c + 16), U8(c + 24), U8(c + 32), U8(c + 40), U8(c + 48), U8(c + 56)
#define U640(c) U64(c), U64(c + 64), U64(c + 128), U64(c + 192), U64(c + 256), U64(c + 320), \
                U64(c + 384), U64(c + 448), U64(c + 512), U64(c + 576)
const char nrt_str_two_byte_table[3 * 1920] = {U640(0x80), U640(0x80 + 640), U640(0x80 + 1280)};

/* Runtime side of try/except and raise (codegen_try.c): the exception being handled is saved
 * in the handler's own buffer, so a nested try that catches another one cannot overwrite it. */
#include <string.h>

#include "udf/runtime.h"

int32_t nrt_udf_rt_raise_str(struct nrt_error *err, int32_t code, const nrt_str *msg) {
  if (code == NRT_EKEY) { /* str(KeyError(k)) is repr(k) */
    char buf[NRT_ERROR_MESSAGE_SIZE];
    int64_t n = msg->len;
    if (nrt_str_repr_size(msg->data, n) >= (int64_t)sizeof buf) {
      n = (int64_t)sizeof buf / 4 - 2; /* a long key: the repr of its first characters */
      while (n > 0 && ((unsigned char)msg->data[n] & 0xC0) == 0x80)
        n--;
    }
    buf[nrt_str_repr_into(msg->data, n, buf)] = '\0';
    return nrt_error_set(err, code, "%s", buf);
  }
  return nrt_error_set(err, code, "%.*s", (int)(msg->len < 4096 ? msg->len : 4096), msg->data);
}

void nrt_udf_rt_exc_save(struct nrt_error *err, char *buf) {
  if (buf) {
    const char *end = memchr(err->message, '\0', NRT_ERROR_MESSAGE_SIZE - 1);
    size_t n = end ? (size_t)(end - err->message) : NRT_ERROR_MESSAGE_SIZE - 1;
    memcpy(buf, err->message, n);
    buf[n] = '\0';
  }
  err->code = 0;
  err->message[0] = '\0';
}

int32_t nrt_udf_rt_exc_restore(struct nrt_error *err, int32_t code, const char *buf) {
  return nrt_error_set(err, code, "%s", buf);
}

int32_t nrt_udf_rt_exc_str(const char *buf, nrt_str *out, struct nrt_error *err) {
  /* A message cut at the buffer's size may end inside a character: drop its first bytes. */
  size_t n = strlen(buf), p = n;
  while (p > 0 && n - p < 4 && ((unsigned char)buf[p - 1] & 0xC0) == 0x80)
    p--;
  if (p > 0 && ((unsigned char)buf[p - 1] & 0x80)) {
    unsigned char lead = (unsigned char)buf[p - 1];
    size_t want = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1;
    if (p - 1 + want > n)
      n = p - 1;
  }
  return nrt_str_new(buf, (int64_t)n, out, err);
}

/* Error reporting: status codes and messages (see nrt/core.h). */
#include "nrt/core.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/error_discard.h"

/* initial-exec: read on every failing row; the general-dynamic model of a shared library
 * would call __tls_get_addr each time (as stats.h's counters, for the same reason). */
static __attribute__((tls_model("initial-exec"))) _Thread_local bool discarding;

void nrt_error_discard_messages(bool on) { discarding = on; }

bool nrt_error_discarding(void) { return discarding; }

int nrt_error_set(struct nrt_error *err, int code, const char *fmt, ...) {
  if (err && discarding) {
    err->code = code;
    err->message[0] = '\0';
  } else if (err) {
    va_list ap;
    va_start(ap, fmt);
    err->code = code;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
  }
  return code;
}

void nrt_error_clear(struct nrt_error *err) {
  if (err) {
    err->code = 0;
    err->message[0] = '\0';
  }
}

const char *nrt_status_name(int code) {
  switch (code) {
  case NRT_OK: return "OK";
  case NRT_ENOMEM: return "MemoryError";
  case NRT_EINVAL: return "EINVAL";
  case NRT_ERANGE: return "ERANGE";
  case NRT_EILSEQ: return "UnicodeDecodeError";
  case NRT_EIO: return "EIO";
  case NRT_EPARSE: return "ParseError";
  case NRT_EVALUE: return "ValueError";
  case NRT_EINDEX: return "IndexError";
  case NRT_EOVERFLOW: return "OverflowError";
  case NRT_EZERODIV: return "ZeroDivisionError";
  case NRT_ETYPE: return "TypeError";
  case NRT_EUNSUPPORTED: return "Unsupported";
  case NRT_EUNBOUND: return "UnboundLocalError";
  case NRT_ELIMIT: return "MemoryError";
  case NRT_EKEY: return "KeyError";
  case NRT_ERUNTIME: return "RuntimeError";
  case NRT_ERECURSION: return "RecursionError";
  default: return "Error";
  }
}

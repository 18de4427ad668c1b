/* Compile diagnostics of the UDF front end (internal): records the first error with its
 * location and formats `file:line:column: message` plus the source line and a caret. */
#ifndef NRT_UDF_DIAG_H
#define NRT_UDF_DIAG_H

#include <stdbool.h>
#include <stddef.h>

#include "nrt/core.h"
#include "udf/ast.h"
#include "udf/front.h"

typedef struct udf_diagctx {
  const char *src; /* the whole source text, for the quoted line */
  size_t len;
  const char *file;
  int code; /* NRT_OK until the first error */
  udf_diag d;
} udf_diagctx;

/* Records an error (only the first one counts: later calls are ignored) and returns `code`,
 * so callers can write `return udf_diag_error(...)`. */
int udf_diag_error(udf_diagctx *dc, int code, udf_loc loc, const char *fmt, ...)
    NRT_PRINTF(4, 5);

/* True once an error was recorded. */
static inline bool udf_diag_failed(const udf_diagctx *dc) { return dc->code != 0; }

/* Copies the recorded diagnostic to `out` (NULL allowed) and the formatted text with the
 * quoted source line and caret to `err` (NULL allowed). */
void udf_diag_finish(const udf_diagctx *dc, udf_diag *out, struct nrt_error *err);

#endif

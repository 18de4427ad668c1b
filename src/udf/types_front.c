/* udf_front_compile: parse, then check, into one arena (see front.h). */
#include <string.h>

#include "nrt/unicode.h"
#include "udf/diag.h"
#include "udf/front.h"
#include "udf/parse.h"
#include "udf/types.h"

int udf_front_compile(const char *src, size_t len, const char *file, const char *entry,
                      const udf_type *param_types, int nparams, udf_module **out,
                      udf_diag *diag, struct nrt_error *err) {
  if (out) *out = NULL;
  udf_diagctx dc;
  memset(&dc, 0, sizeof dc);
  dc.src = src ? src : "";
  dc.len = src ? len : 0;
  dc.file = file ? file : "<udf>";
  if (!out || (!src && len) || nparams < 0 || (nparams > 0 && !param_types)) {
    udf_diag_error(&dc, NRT_EINVAL, (udf_loc){0, 0}, "invalid arguments to the UDF compiler");
    udf_diag_finish(&dc, diag, err);
    return NRT_EINVAL;
  }
  size_t bad;
  if (nrt_utf8_validate(dc.src, dc.len, &bad, NULL) != NRT_OK) {
    /* locate the bad byte */
    udf_loc loc = {1, 1};
    const char *ls = dc.src;
    for (size_t i = 0; i < bad; i++)
      if (dc.src[i] == '\n') {
        loc.line++;
        ls = dc.src + i + 1;
      }
    loc.col = 1 + (int)nrt_utf8_count(ls, (size_t)(dc.src + bad - ls));
    udf_diag_error(&dc, NRT_EPARSE, loc,
                   "(unicode error) 'utf-8' codec can't decode byte 0x%02x in position %zu",
                   (unsigned)(unsigned char)dc.src[bad], bad);
    udf_diag_finish(&dc, diag, err);
    return NRT_EPARSE;
  }
  udf_arena *a = udf_arena_create(NULL);
  if (!a) {
    udf_diag_error(&dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
    udf_diag_finish(&dc, diag, err);
    return NRT_ENOMEM;
  }
  udf_module *m = NULL;
  int rc = udf_parse_module(&dc, a, dc.src, dc.len, &m);
  if (rc == NRT_OK) {
    m->file = udf_arena_strndup(a, dc.file, strlen(dc.file));
    if (!m->file) rc = udf_diag_error(&dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  }
  if (rc == NRT_OK) rc = udf_check_module(&dc, a, m, entry, param_types, nparams);
  if (rc == NRT_OK && udf_arena_failed(a))
    rc = udf_diag_error(&dc, NRT_ENOMEM, (udf_loc){0, 0}, "out of memory");
  if (rc != NRT_OK) {
    if (dc.code == 0) udf_diag_error(&dc, rc, (udf_loc){0, 0}, "internal error");
    if (m) udf_module_free(m); /* its patterns too */
    else udf_arena_destroy(a);
    udf_diag_finish(&dc, diag, err);
    return dc.code;
  }
  if (diag) memset(diag, 0, sizeof *diag);
  *out = m;
  return NRT_OK;
}

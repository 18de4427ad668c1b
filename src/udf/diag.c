/* Diagnostic recording and formatting. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "udf/diag.h"

int udf_diag_error(udf_diagctx *dc, int code, udf_loc loc, const char *fmt, ...) {
  if (dc->code != 0) return dc->code;
  dc->code = code;
  dc->d.line = loc.line;
  dc->d.col = loc.col;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(dc->d.message, sizeof dc->d.message, fmt, ap);
  va_end(ap);
  return code;
}

/* Appends at most the remaining room of buf (always NUL-terminated). */
static void append(char *buf, size_t cap, size_t *used, const char *s, size_t n) {
  if (*used + 1 >= cap) return;
  size_t room = cap - 1 - *used;
  if (n > room) n = room;
  memcpy(buf + *used, s, n);
  *used += n;
  buf[*used] = '\0';
}

void udf_diag_finish(const udf_diagctx *dc, udf_diag *out, struct nrt_error *err) {
  if (out) *out = dc->d;
  if (!err) return;
  const char *file = dc->file ? dc->file : "<udf>";
  if (dc->d.line <= 0) {
    nrt_error_set(err, dc->code, "%s: %s", file, dc->d.message);
    return;
  }
  char buf[1024];
  size_t used = 0;
  buf[0] = '\0';
  char head[600];
  int hn = snprintf(head, sizeof head, "%s:%d:%d: %s", file, dc->d.line, dc->d.col,
                    dc->d.message);
  append(buf, sizeof buf, &used, head, hn < 0 ? 0 : strlen(head));
  /* Find the line. */
  const char *p = dc->src, *end = dc->src + dc->len;
  for (int line = 1; line < dc->d.line && p < end; p++)
    if (*p == '\n') line++;
  {
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r') e++;
    if (e - p > 300) e = p + 300; /* a very long line is cut (the caret may then fall off) */
    append(buf, sizeof buf, &used, "\n    ", 5);
    append(buf, sizeof buf, &used, p, (size_t)(e - p));
    append(buf, sizeof buf, &used, "\n    ", 5);
    /* One blank (or tab, to line up with tabs) per code point before the column. */
    int cp = 1;
    for (const char *q = p; q < e && cp < dc->d.col; q++) {
      if (((unsigned char)*q & 0xC0) == 0x80) continue;
      append(buf, sizeof buf, &used, *q == '\t' ? "\t" : " ", 1);
      cp++;
    }
    for (; cp < dc->d.col && cp < 400; cp++) append(buf, sizeof buf, &used, " ", 1);
    append(buf, sizeof buf, &used, "^", 1);
  }
  nrt_error_set(err, dc->code, "%s", buf);
}

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

/* Code points of a long line quoted around the column. */
#define QUOTE_CHARS 100

static bool is_continuation(char c) { return ((unsigned char)c & 0xC0) == 0x80; }

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
  const char *e = p;
  while (e < end && *e != '\n' && *e != '\r') e++;
  /* A long line is quoted as a window of QUOTE_CHARS code points around the column, its cut
   * ends marked "...", so the caret always fits in the message. */
  const char *at = p; /* the column's byte */
  int cp = 1;
  for (; at < e && cp < dc->d.col; cp++)
    for (at++; at < e && is_continuation(*at); at++) {}
  const char *ws = at, *we;
  for (int back = 0; ws > p && back < QUOTE_CHARS / 2; back++)
    for (ws--; ws > p && is_continuation(*ws); ws--) {}
  int fwd = 0;
  for (we = ws; we < e && fwd < QUOTE_CHARS; fwd++)
    for (we++; we < e && is_continuation(*we); we++) {}
  append(buf, sizeof buf, &used, ws > p ? "\n    ..." : "\n    ", ws > p ? 8 : 5);
  /* A NUL would end the message here, the caret with it: it is shown as U+2400 (one
   * character, so the caret below still lines up). */
  for (const char *q = ws; q < we;) {
    const char *nul = memchr(q, '\0', (size_t)(we - q));
    const char *stop = nul ? nul : we;
    append(buf, sizeof buf, &used, q, (size_t)(stop - q));
    if (nul) append(buf, sizeof buf, &used, "\xE2\x90\x80", 3);
    q = nul ? nul + 1 : we;
  }
  if (we < e) append(buf, sizeof buf, &used, "...", 3);
  append(buf, sizeof buf, &used, ws > p ? "\n       " : "\n    ", ws > p ? 8 : 5);
  /* One blank (or tab, to line up with tabs) per code point before the column; a column past
   * the line's end (the end of the input) gets blanks up to it. */
  for (const char *q = ws; q < at; q++)
    if (!is_continuation(*q)) append(buf, sizeof buf, &used, *q == '\t' ? "\t" : " ", 1);
  for (int k = 0; cp < dc->d.col && k < QUOTE_CHARS; cp++, k++)
    append(buf, sizeof buf, &used, " ", 1);
  append(buf, sizeof buf, &used, "^", 1);
  nrt_error_set(err, dc->code, "%s", buf);
}

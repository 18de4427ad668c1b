/* Streaming line splitter (see io/lines.h). */
#define _POSIX_C_SOURCE 200809L /* read, ssize_t */
#include "io/lines.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>
#include <unistd.h>

#include "nrt/unicode.h"

/* First read buffer; it doubles only for a line longer than the buffer. */
#define IO_READ_BLOCK ((size_t)1 << 16)

int io_error_at(struct nrt_error *err, int code, uint64_t line, uint64_t offset, const char *fmt,
                ...) {
  if (err) {
    char msg[NRT_ERROR_MESSAGE_SIZE];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    nrt_error_set(err, code, "line %" PRIu64 ", byte %" PRIu64 ": %s", line, offset, msg);
  }
  return code;
}

void io_lines_init(struct io_lines *l, const struct io_source *src) {
  memset(l, 0, sizeof *l);
  l->src = *src;
  if (src->mem) {
    l->data = src->mem;
    l->end = src->mem_len;
    l->eof = 1;
  }
}

void io_lines_free(struct io_lines *l) {
  if (l->buf)
    nrt_free(l->buf, l->cap);
  l->buf = NULL;
  l->cap = 0;
}

/* Reads more bytes after the unreturned ones, moving them to the front of the buffer and
 * growing it when a single line fills it. */
static int fill(struct io_lines *l, struct nrt_error *err) {
  if (!l->buf) {
    l->buf = nrt_allocate(IO_READ_BLOCK, err);
    if (!l->buf)
      return NRT_ENOMEM;
    l->cap = IO_READ_BLOCK;
    l->data = l->buf;
  }
  if (l->pos > 0) {
    memmove(l->buf, l->buf + l->pos, l->end - l->pos);
    l->end -= l->pos;
    l->pos = 0;
  }
  if (l->end == l->cap) {
    if (l->cap > SIZE_MAX / 2)
      return nrt_error_set(err, NRT_ENOMEM, "line too long");
    char *bigger = nrt_reallocate(l->buf, l->cap, l->cap * 2, err);
    if (!bigger)
      return NRT_ENOMEM;
    l->buf = bigger;
    l->data = bigger;
    l->cap *= 2;
  }
  size_t room = l->cap - l->end;
  if (l->src.file) {
    size_t got = fread(l->buf + l->end, 1, room, l->src.file);
    if (got == 0) {
      if (ferror(l->src.file))
        return io_error_at(err, NRT_EIO, l->line + 1, l->consumed + (l->end - l->pos),
                           "read error: %s", strerror(errno));
      l->eof = 1;
    }
    l->end += got;
  } else {
    ssize_t got;
    do
      got = read(l->src.fd, l->buf + l->end, room);
    while (got < 0 && errno == EINTR);
    if (got < 0)
      return io_error_at(err, NRT_EIO, l->line + 1, l->consumed + (l->end - l->pos),
                         "read error: %s", strerror(errno));
    if (got == 0)
      l->eof = 1;
    l->end += (size_t)got;
  }
  return NRT_OK;
}

int io_lines_next(struct io_lines *l, const char **line, size_t *len, int *terminated,
                  struct nrt_error *err) {
  size_t n;
  int term;
  for (;;) {
    size_t avail = l->end - l->pos;
    const char *p = avail ? l->data + l->pos : NULL; /* data is NULL before the first read */
    const char *nl = avail > l->scanned ? memchr(p + l->scanned, '\n', avail - l->scanned) : NULL;
    if (nl) {
      n = (size_t)(nl - p);
      term = 1;
      break;
    }
    l->scanned = avail;
    if (l->eof) {
      if (avail == 0) {
        *line = NULL;
        *len = 0;
        *terminated = 0;
        return NRT_OK;
      }
      n = avail;
      term = 0;
      break;
    }
    int rc = fill(l, err);
    if (rc)
      return rc;
  }
  const char *p = l->data + l->pos; /* not NULL: at least this line is buffered */
  size_t bad;
  struct nrt_error why;
  if (nrt_utf8_validate(p, n, &bad, &why) != NRT_OK) {
    /* The codec's message ends with the reason ("...: invalid start byte"). */
    const char *reason = strrchr(why.message, ':');
    return io_error_at(err, NRT_EILSEQ, l->line + 1, l->consumed + bad,
                       "invalid UTF-8 (byte 0x%02x: %s)", (unsigned char)p[bad],
                       reason ? reason + 2 : "invalid sequence");
  }
  l->line++;
  l->offset = l->consumed;
  l->consumed += n + (size_t)term;
  l->pos += n + (size_t)term;
  l->scanned = 0;
  *line = p;
  *len = n;
  *terminated = term;
  return NRT_OK;
}

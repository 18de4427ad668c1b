/* Internal: streaming input split into physical lines, with line numbers and byte offsets.
 *
 * Every reader sits on this: the input is read in blocks (never held whole), each line is
 * checked to be valid UTF-8 before a parser sees it, and every error can name the line (1-based)
 * and the byte offset (0-based, from the start of the input) of the defect. */
#ifndef NRT_IO_LINES_H
#define NRT_IO_LINES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/core.h"

/* Where the bytes come from: exactly one of `file`, `fd >= 0` or `mem` is used. */
struct io_source {
  FILE *file;
  int fd;
  const char *mem;
  size_t mem_len;
};

struct io_lines {
  struct io_source src;
  char *buf;          /* owned read buffer (NULL for a memory source) */
  size_t cap;         /* its capacity */
  const char *data;   /* buffered bytes: data[pos..end) not yet returned */
  size_t pos, end;
  size_t scanned;     /* bytes after pos already known to hold no newline */
  int eof;            /* the source has no more bytes */
  uint64_t line;      /* number of the line last returned (1-based; 0 before the first) */
  uint64_t offset;    /* byte offset of the line last returned */
  uint64_t consumed;  /* byte offset just after the line last returned (its newline included) */
};

/* Starts reading `src`. Allocates nothing until the first line is read. */
void io_lines_init(struct io_lines *l, const struct io_source *src);

/* Reads the next physical line: *line and *len exclude the terminating "\n" (a "\r" before it is
 * kept; callers strip it where the format says so); *terminated says whether a "\n" ended it
 * (only the last line of an input may lack one). An input ending in "\n" has no empty line
 * after it. At the end of the input *line is NULL. The bytes stay valid until the next call.
 * Each line is validated as UTF-8. Returns NRT_OK, or NRT_EILSEQ (naming line and offset),
 * NRT_EIO, NRT_ENOMEM with err filled. */
int io_lines_next(struct io_lines *l, const char **line, size_t *len, int *terminated,
                  struct nrt_error *err);

/* Frees the read buffer. */
void io_lines_free(struct io_lines *l);

/* Fills err with "line L, byte B: <message>" and returns code. */
int io_error_at(struct nrt_error *err, int code, uint64_t line, uint64_t offset, const char *fmt,
                ...) NRT_PRINTF(5, 6);

#endif

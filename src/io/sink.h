/* Internal: where a reader puts one column's values. A sink wraps a column builder, decides a
 * JSON column's type from its values (io.h's typing rule), and keeps a utf8 column under the
 * 2 GiB offset limit by starting a new segment (the segments are joined as large_utf8). */
#ifndef NRT_IO_SINK_H
#define NRT_IO_SINK_H

#include <stdbool.h>
#include <stdint.h>

#include "nrt/column.h"
#include "nrt/core.h"

/* What a sink holds so far (the type of its non-null values). */
enum io_kind { IO_NONE = 0, IO_STR, IO_INT, IO_REAL, IO_BOOL };

struct io_sink {
  enum io_kind kind;            /* IO_NONE until the first non-null value */
  bool strings_only;            /* text and csv: IO_STR from the start */
  bool fixed;                   /* the kind is set (a later batch of a stream): a value of
                                 * another kind, a real among integers included, is NRT_ETYPE */
  enum nrt_col_type string_type;
  nrt_col_builder *b;           /* the builder of the current segment, NULL while IO_NONE */
  int64_t pending_nulls;        /* nulls seen while IO_NONE */
  int64_t segment_bytes;        /* string bytes in the current utf8 segment */
  nrt_column **segments;        /* finished utf8 segments */
  size_t n_segments, cap_segments;
};

/* Sets up an empty sink. No allocation. */
void io_sink_init(struct io_sink *s, bool strings_only, enum nrt_col_type string_type);

/* Sets up an empty sink whose kind is fixed to `kind` (IO_NONE: strings), so every batch of a
 * stream has the first batch's column types. No allocation. */
void io_sink_init_fixed(struct io_sink *s, enum io_kind kind, enum nrt_col_type string_type);

/* Appends one value. Returns NRT_OK, NRT_ENOMEM, NRT_ERANGE, or NRT_ETYPE when the value's
 * type does not fit the column's (the caller words that error with its position). */
int io_sink_str(struct io_sink *s, const char *p, size_t len, struct nrt_error *err);
int io_sink_int(struct io_sink *s, int64_t v, struct nrt_error *err);
int io_sink_real(struct io_sink *s, double v, struct nrt_error *err);
int io_sink_bool(struct io_sink *s, bool v, struct nrt_error *err);
int io_sink_null(struct io_sink *s, struct nrt_error *err);

/* A name for what the sink holds ("strings", "integers", ...), for error messages. */
const char *io_kind_name(enum io_kind kind);

/* Makes the column; the sink is emptied in every case. */
int io_sink_finish(struct io_sink *s, nrt_column **out, struct nrt_error *err);

/* Releases everything the sink holds. Idempotent. */
void io_sink_free(struct io_sink *s);

/* Bytes a utf8 segment may hold before the next one starts (INT32_MAX; tests lower it). */
extern int64_t io_utf8_segment_limit;

#endif

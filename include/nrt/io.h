/* nrt io: reading and writing columns as newline-delimited text, CSV and JSON Lines.
 *
 * The readers and writers of the command line (`nrt apply --in-format/--out-format`).
 * Input is read in blocks (a file is never held whole in memory besides the column being
 * built; nrt_io_reader gives it in batches of bounded size, nrt_io_writer writes them),
 * validated as UTF-8 line by line, and parsed by Debian's libcsv (CSV) and jansson (JSON).
 * Every defect is an error naming the line (1-based) and the byte offset (0-based, from the
 * start of the input): "line 3, byte 41: invalid UTF-8". Nothing aborts on bad input.
 *
 * Formats
 *  - text: one row per line. A line ends at "\n"; a "\r" just before it belongs to the line
 *    end ("\r\n" files read like "\n" files). The last line may lack its "\n". An input that
 *    ends with "\n" has no empty row after it, but every other empty line is a row holding the
 *    empty string: "a\nb\n" and "a\nb" are two rows, "a\n\nb\n" three, "\n" one, "" none.
 *    Text has no nulls: reading never gives one; writing a null writes an empty line. Text
 *    has no quoting either: writing a string that holds "\n" (it would read back as two rows)
 *    or ends with "\r" (reading drops it) is an NRT_EINVAL error naming the first such row,
 *    "row 3: the value holds a line break, ...", before anything is written.
 *  - csv: RFC 4180. The first record is the header; columns are chosen by name. Fields may be
 *    quoted ("..." with "" for a quote) and then hold commas, quotes and line breaks; spaces
 *    are data (never trimmed). An empty unquoted field is null, a quoted empty field ("") is
 *    the empty string. Every record must have as many fields as the header. An empty line
 *    outside quotes is a record of one null field (so a one-column file keeps its nulls).
 *    Records end with "\n" or "\r\n".
 *  - jsonl: one JSON value per line (strings, numbers, true/false, null); or, when columns are
 *    named, one object per line whose members of those names are the rows' values (a missing
 *    member is an error). Lines holding only whitespace are skipped.
 *
 * Column types when reading: text and csv give string columns (utf8 by default). A jsonl
 * column's type follows its non-null values: all strings -> string; all true/false -> bool;
 * all integers -> int64; integers and reals mixed, or reals -> float64 (integers converted);
 * only nulls -> string. Any other mix (a string and a number, a bool and a number) is an
 * error naming the first value of the other type. Integers must fit int64.
 *
 * Values when writing (one column): strings as their bytes; int64 in decimal; float64 as
 * Python's repr() (1.0, 1e+16, inf, nan); bool as True/False in text and csv, true/false in
 * jsonl; a list of strings as Python's str() of the list (['a', "it's"], None for a null
 * item) in text and csv (one field) and as a JSON array (["a", "it's"]) in jsonl;
 * null as an empty line (text), an empty unquoted field (csv) or null (jsonl). CSV
 * writes a header line with the column's name and quotes a string field when it is empty or
 * holds a comma, a quote, "\r" or "\n". JSON strings are written as UTF-8 with the escapes
 * \" \\ \b \f \n \r \t and \u00XX for other control characters; non-finite floats as NaN,
 * Infinity and -Infinity (as Python's json module does; they are not standard JSON). */
#ifndef NRT_IO_H
#define NRT_IO_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "nrt/column.h"
#include "nrt/core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* File formats. */
enum nrt_io_format {
  NRT_IO_TEXT = 1,  /* one row per line */
  NRT_IO_CSV = 2,   /* RFC 4180 with a header */
  NRT_IO_JSONL = 3  /* JSON Lines */
};

/* Parses a format name ("text", "csv", "jsonl") into *out. NRT_EINVAL for another name. */
NRT_API int nrt_io_format_parse(const char *name, enum nrt_io_format *out,
                                struct nrt_error *err);

/* The name of a format ("text", "csv", "jsonl"), or "?". */
NRT_API const char *nrt_io_format_name(enum nrt_io_format format);

/* Options of the readers. Zero-initialise, then set what differs. */
struct nrt_io_read_options {
  enum nrt_io_format format;   /* 0 means text */
  /* Columns to read, by name (csv; jsonl objects). n_columns == 0: csv reads its only
   * column (an error when the header has several); jsonl reads one bare value per line.
   * text takes no names. */
  const char *const *columns;
  size_t n_columns;
  /* Layout of string columns: NRT_COL_UTF8 (the default when 0; a column whose bytes pass
   * 2 GiB becomes NRT_COL_LARGE_UTF8 at the cost of one more copy), NRT_COL_LARGE_UTF8 or
   * NRT_COL_UTF8_VIEW. */
  enum nrt_col_type string_type;
  /* Batch limits of a reader (nrt_io_reader_open_*; the whole-input reads ignore them): a
   * batch ends, always between two records, once it holds batch_rows rows or once the input
   * has advanced batch_bytes bytes since the batch began (so one record longer than that is a
   * batch of its own). 0: NRT_IO_DEFAULT_BATCH_ROWS and NRT_IO_DEFAULT_BATCH_BYTES. */
  int64_t batch_rows;
  uint64_t batch_bytes;
};

/* The default batch limits: 65,536 rows, 16 MiB of input. */
#define NRT_IO_DEFAULT_BATCH_ROWS ((int64_t)1 << 16)
#define NRT_IO_DEFAULT_BATCH_BYTES ((uint64_t)1 << 24)

/* Facts about what was read (optional output). */
struct nrt_io_read_info {
  int64_t rows;    /* rows read (records after the csv header) */
  uint64_t lines;  /* physical lines read */
  uint64_t bytes;  /* bytes read */
};

/* Reads a whole input into columns. `out` is an array of max(1, n_columns) pointers; on
 * success out[i] owns a new column holding column i's rows (all of equal length), and info
 * (may be NULL) is filled. On failure every out[i] is NULL and nothing is left allocated:
 *   NRT_EILSEQ  invalid UTF-8;
 *   NRT_EPARSE  a broken quote or record, bad JSON, a missing column, a value of the wrong
 *               JSON type;
 *   NRT_EIO     a read error (errno's text in the message);
 *   NRT_EINVAL  bad options (names with text, an unknown format);
 *   NRT_ENOMEM.
 * Messages name the line and byte offset: "line 3, byte 41: ...". The offset is the first
 * invalid byte for bad UTF-8, the offending byte for a broken quote, the start of the record
 * for a record-level defect (wrong field count, an unterminated quote), the start of the line
 * for a JSON value of the wrong type or a missing member, and where jansson stopped (just
 * after the offending token) for bad JSON.
 *  - nrt_io_read_stream reads `file` to its end (it is not closed);
 *  - nrt_io_read_fd reads descriptor `fd` to its end (not closed), e.g. 0 for stdin;
 *  - nrt_io_read_path opens and closes the file `path` (an open failure is NRT_EIO);
 *  - nrt_io_read_buffer reads data[0..len) (not copied beyond the column's own bytes). */
NRT_API int nrt_io_read_stream(FILE *file, const struct nrt_io_read_options *options,
                               nrt_column **out, struct nrt_io_read_info *info,
                               struct nrt_error *err);
NRT_API int nrt_io_read_fd(int fd, const struct nrt_io_read_options *options, nrt_column **out,
                           struct nrt_io_read_info *info, struct nrt_error *err);
NRT_API int nrt_io_read_path(const char *path, const struct nrt_io_read_options *options,
                             nrt_column **out, struct nrt_io_read_info *info,
                             struct nrt_error *err);
NRT_API int nrt_io_read_buffer(const char *data, size_t len,
                               const struct nrt_io_read_options *options, nrt_column **out,
                               struct nrt_io_read_info *info, struct nrt_error *err);

/* A reader of an input in batches, for inputs of any size in bounded memory: each batch is
 * a set of columns (one per requested column) holding the next rows of the input, as
 * nrt_io_read_* would give them for that part of the input. Line numbers and byte offsets in
 * messages count from the start of the input, whatever batch they fall in; a CSV record
 * (quoted line breaks included) or a JSON line is never split between batches. Memory held:
 * the current batch's columns (about its input bytes plus 4 to 16 bytes per row) and a read
 * buffer of 64 KiB (more only for a line longer than that); nothing grows with the input.
 *
 * Column types: text and csv batches are string columns. A jsonl column's type is decided by
 * the first batch's values (the rule above); later batches keep it: an integer in a float64
 * column becomes a float, but any other value of another type, a real number in an int64
 * column included, is an NRT_EPARSE error at its line ("... (the stream's first batch fixed
 * the column's type)"); a first batch of only nulls makes a string column.
 *
 * Opening reads nothing. The descriptor of nrt_io_reader_open_fd (e.g. 0 for stdin) and the
 * buffer of nrt_io_reader_open_buffer are borrowed, as are the column names of the options:
 * all must outlive the reader. nrt_io_reader_open_path opens the file (an open failure is
 * NRT_EIO "PATH: <errno's text>") and the reader closes it. On success *out owns the reader
 * (end it with nrt_io_reader_free); on failure *out is NULL: NRT_EINVAL (bad options, as
 * for the whole-input reads, or a negative batch_rows), NRT_EIO, NRT_ENOMEM. */
typedef struct nrt_io_reader nrt_io_reader;

NRT_API int nrt_io_reader_open_fd(int fd, const struct nrt_io_read_options *options,
                                  nrt_io_reader **out, struct nrt_error *err);
NRT_API int nrt_io_reader_open_path(const char *path, const struct nrt_io_read_options *options,
                                    nrt_io_reader **out, struct nrt_error *err);
NRT_API int nrt_io_reader_open_buffer(const char *data, size_t len,
                                      const struct nrt_io_read_options *options,
                                      nrt_io_reader **out, struct nrt_error *err);

/* Reads the next batch. `out` is an array of max(1, n_columns) pointers: on success out[i]
 * owns a new column of the batch's rows, or every out[i] is NULL at the end of the input.
 * The first call always gives a batch, of zero rows for an empty input (so its column types
 * are known); later batches hold at least one row. Errors are those of the whole-input reads,
 * with every out[i] NULL; they are sticky: each later call returns the same error. */
NRT_API int nrt_io_reader_next(nrt_io_reader *r, nrt_column **out, struct nrt_error *err);

/* What the reader has given so far: rows in its batches (so the next batch's first row is
 * number info->rows + 1), lines and bytes of the input read. NULL reader: zeros. */
NRT_API void nrt_io_reader_info(const nrt_io_reader *r, struct nrt_io_read_info *info);

/* Moves the reader into an Arrow C stream of record batches (the C Stream Interface of
 * nrt/column_arrow.h): get_schema gives a struct schema ("+s") whose children are the columns
 * (named by the options' names, or "value"; types as above), reading the first batch to learn
 * them; each get_next gives one batch as a struct array of that many rows, no validity bitmap,
 * whose children are the batch's columns exported zero-copy (nrt_col_export_arrow), then a
 * released array at the end. Errors of get_next and get_schema are errno codes (EINVAL for bad
 * input, EIO, ENOMEM) with the reader's message from get_last_error; they are sticky. A batch
 * whose strings pass 2 GiB (only with batch_bytes above that) would change the utf8 layout and
 * is EINVAL. On success the stream owns the reader (out->release frees it; do not call
 * nrt_io_reader_free); on failure (NRT_EINVAL for NULL arguments or more than 64 columns,
 * NRT_ENOMEM) the caller still owns it. */
struct ArrowArrayStream;
NRT_API int nrt_io_reader_export_stream(nrt_io_reader *r, struct ArrowArrayStream *out,
                                        struct nrt_error *err);

/* Frees the reader (and closes the file nrt_io_reader_open_path opened); columns it gave stay
 * valid. NULL is ignored. */
NRT_API void nrt_io_reader_free(nrt_io_reader *r);

/* Options of the writers. Zero-initialise, then set what differs. */
struct nrt_io_write_options {
  enum nrt_io_format format; /* 0 means text */
  /* csv: the header's name (NULL: "value"); jsonl: when not NULL each row is written as an
   * object {"name": value}, else as a bare value. Ignored by text. */
  const char *column_name;
};

/* Writes every row of `col` (any nrt column type) in the chosen format, through a buffer.
 * Returns NRT_OK, NRT_EIO with errno's text (a full disk, a closed pipe), NRT_EINVAL (bad
 * options, a NULL column, a text row with a line break) or NRT_ENOMEM.
 *  - nrt_io_write_stream writes to `file` and flushes it (not closed);
 *  - nrt_io_write_fd writes to descriptor `fd` (not closed), e.g. 1 for stdout;
 *  - nrt_io_write_path replaces the file `path` atomically (nrt/io_output.h): it writes a
 *    temporary file beside it and renames it over `path` only when every row is written, so
 *    on any error `path` keeps its old contents. */
NRT_API int nrt_io_write_stream(FILE *file, const nrt_column *col,
                                const struct nrt_io_write_options *options,
                                struct nrt_error *err);
NRT_API int nrt_io_write_fd(int fd, const nrt_column *col,
                            const struct nrt_io_write_options *options, struct nrt_error *err);
NRT_API int nrt_io_write_path(const char *path, const nrt_column *col,
                              const struct nrt_io_write_options *options,
                              struct nrt_error *err);

/* A writer of one column given in batches (the output of a batch reader's batches): the rows
 * come out as nrt_io_write_* would write the batches' concatenation (one CSV header, before
 * the first row). Writes go through a 64 KiB buffer to the descriptor `fd` (borrowed; e.g. 1,
 * or nrt_io_output_fd of an atomic output); nothing else is held.
 *  - nrt_io_writer_open: *out owns the writer. NRT_EINVAL (bad options, fd < 0), NRT_ENOMEM.
 *  - nrt_io_writer_write: writes every row of `col`. Rows are numbered on from the earlier
 *    batches in messages: text output refuses a value with a line break naming its row of the
 *    whole output, before any row of that batch is written. NRT_EIO, NRT_EINVAL, NRT_ENOMEM;
 *    an error is sticky (later writes return it).
 *  - nrt_io_writer_close: writes what is buffered (and the CSV header when no batch came) and
 *    frees the writer (NULL ignored); returns the writer's first error, or NRT_OK. */
typedef struct nrt_io_writer nrt_io_writer;

NRT_API int nrt_io_writer_open(int fd, const struct nrt_io_write_options *options,
                               nrt_io_writer **out, struct nrt_error *err);
NRT_API int nrt_io_writer_write(nrt_io_writer *w, const nrt_column *col, struct nrt_error *err);
NRT_API int nrt_io_writer_close(nrt_io_writer *w, struct nrt_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NRT_IO_H */

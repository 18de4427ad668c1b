/* nrt exec: parallel apply of a row function over columns.
 *
 * nrt_exec_apply calls a row function once per row of its input columns, on a pool of worker
 * threads, and collects the results into a new column. Rows are split into chunks; each chunk
 * is run by one thread into its own column builder, and the chunk columns are stitched in row
 * order (each chunk's copy on the same threads), so the output does not depend on the number of
 * threads or on scheduling.
 *
 * Lifecycle of a string result (cuDF's managed-string design, DESIGN.md "Memory model"):
 *   1. the row function returns a managed string owning one reference (or a borrowed view);
 *   2. storing it into the chunk's builder takes a reference (nrt_col_builder_append_str);
 *   3. apply then releases the function's own reference (nrt_str_release);
 *   4. the builder's free pass drops the stored references, once the rows' bytes are in the
 *      chunk's buffers: after every batch of 256 rows and when the chunk's column is built.
 * The free pass runs per batch rather than once at the very end: the bytes are already in the
 * builder, holding every result alive until all chunks finish would double the peak memory of
 * a large apply, and releasing them early lets the allocator reuse memory that is still in
 * cache. After an apply (and the release of its output column) the runtime
 * statistics are balanced: alloc == free and mi_alloc == mi_free, also when it fails.
 *
 * Thread pool: pthreads, started on first use and reused by later applies; safe across
 * fork() (a child starts its own workers on first use). Concurrent applies from several
 * threads, and applies nested inside a row function, are allowed. */
#ifndef NRT_EXEC_H
#define NRT_EXEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "nrt/column.h"
#include "nrt/core.h"
#include "nrt/str.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The type held by an nrt_value. */
typedef enum nrt_value_kind {
  NRT_VALUE_NULL = 0,    /* no value (Python None / an SQL-style null row) */
  NRT_VALUE_STR = 1,     /* as.str */
  NRT_VALUE_INT64 = 2,   /* as.i64 */
  NRT_VALUE_FLOAT64 = 3, /* as.f64 */
  NRT_VALUE_BOOL = 4,    /* as.b */
  NRT_VALUE_LIST = 5     /* as.list: a list of strings, ints, floats or bools (results only;
                          * item_kind says which) */
} nrt_value_kind;

/* One argument or result of a row function: a tagged union of fixed layout, so compiled code
 * can read and write it directly (LP64):
 *   offset 0   int32_t kind        an nrt_value_kind
 *   offset 4   int32_t item_kind   LIST: the items' kind (below), else zero
 *   offset 8   union as:
 *                nrt_str str       mi at 8, data at 16, len at 24
 *                int64_t i64       at 8
 *                double  f64       at 8
 *                bool    b         one byte at 8 (0 or 1)
 *                nrt_str_list *list  at 8 (never NULL for kind LIST)
 * A list's items are nrt_str values in an nrt_str_list (nrt/str.h). item_kind 0 or
 * NRT_VALUE_STR: strings. NRT_VALUE_INT64, NRT_VALUE_FLOAT64, NRT_VALUE_BOOL: numbers, one per
 * item, held in the item's len field (the int64 itself, the double's bits, 0 or 1), with mi and
 * data NULL (so releasing the list releases nothing else); nrt_value_list_item reads one.
 *   size 32, alignment 8.
 * Arguments are borrowed: a string argument is a view (mi == NULL) into the input column,
 * valid during the call. A string result may be a managed string that the result owns (one
 * reference, which apply takes over and releases), or a view into memory that outlives the
 * apply (a literal, an argument: apply copies the bytes before the call's arguments go). A
 * list result owns one reference to its list, which apply takes over: it copies the items
 * into the output column and releases the list (and with it the items it holds). */
typedef struct nrt_value {
  int32_t kind;
  int32_t item_kind;
  union {
    nrt_str str;
    int64_t i64;
    double f64;
    bool b;
    nrt_str_list *list;
  } as;
} nrt_value;

/* Item k (0 <= k < list->len) of a list of numbers (item_kind NRT_VALUE_INT64, _FLOAT64 or
 * _BOOL) as a value of that kind; and the item to store for a value v of such a kind. */
static inline nrt_value nrt_value_list_item(const nrt_str_list *list, int32_t item_kind,
                                            int64_t k) {
  nrt_value v;
  memset(&v, 0, sizeof v);
  v.kind = item_kind;
  int64_t bits = list->items[k].len;
  if (item_kind == NRT_VALUE_FLOAT64)
    memcpy(&v.as.f64, &bits, sizeof bits);
  else if (item_kind == NRT_VALUE_BOOL)
    v.as.b = bits != 0;
  else
    v.as.i64 = bits;
  return v;
}
static inline nrt_str nrt_value_list_number(const nrt_value *v) {
  nrt_str s = {NULL, NULL, 0};
  if (v->kind == NRT_VALUE_FLOAT64)
    memcpy(&s.len, &v->as.f64, sizeof s.len);
  else
    s.len = v->kind == NRT_VALUE_BOOL ? (int64_t)v->as.b : v->as.i64;
  return s;
}

/* A row function (what the UDF JIT produces, or hand-written C).
 *  - ctx: the caller's context pointer from nrt_exec_apply, shared by every thread (so it must
 *    be safe to read concurrently);
 *  - args: one value per input column, for one row (borrowed; kind NULL for a null input
 *    when the options ask to see nulls);
 *  - result: zero-initialised by apply (kind NULL); the function stores its result there.
 *  - err: never NULL; on failure the function fills it (nrt_error_set) and returns the code.
 * Returns NRT_OK, or an error code (a Python exception's code such as NRT_EVALUE, or
 * NRT_ENOMEM). On an error return *result must own nothing (the function released whatever
 * it made); apply ignores it. Called from several threads at once. */
typedef int (*nrt_row_fn)(void *ctx, const nrt_value *args, nrt_value *result,
                          struct nrt_error *err);

/* The loop form of a writing row function (nrt_row_write_fn, below), for an apply of one
 * utf8 / large_utf8 input: it writes a batch of rows with no call per row (what the UDF JIT
 * makes of a UDF of one str parameter returning str). */
typedef struct nrt_rows_batch {
  const void *offsets;  /* the input's offsets (its offset applied): int32, int64 if wide_in */
  const char *data;     /* the input's bytes: row i is data[offsets[i] .. offsets[i + 1]) */
  int64_t row;          /* in: the first row to write; out: the row that stopped the batch */
  int64_t end;          /* one past the last row to write */
  nrt_col_rows out;     /* where the rows' end offsets go (nrt/column.h's rows_begin) */
  int32_t wide_in;      /* nonzero: int64 input offsets */
  int32_t go_on;        /* nonzero: a failing row becomes a null and the batch goes on */
  int32_t *nulls;       /* out: the null rows (indexes from the first row), room for all */
  int64_t n_nulls;      /* out: how many */
  int64_t failed;       /* out: how many of them failed (the others returned None) */
} nrt_rows_batch;

/* Writes rows [batch->row, batch->end) of a non-null input, each as the row function would
 * (through w, one after the other), storing each row's end offset as nrt_col_rows says and
 * listing its null rows (a None result, or with go_on a failure other than NRT_ENOMEM and
 * NRT_ERANGE) in nulls. Returns
 *  - NRT_OK with batch->row == batch->end: every row written;
 *  - NRT_OK with batch->row < batch->end: the rows before batch->row are written, and the row
 *    at batch->row is left to the row function (a row that only fits alone, see
 *    nrt_col_rows);
 *  - an error code (err filled as by the row function) for the row at batch->row; the rows
 *    before it are written.
 * ctx and err as for nrt_row_fn; a failure's message is not read when it goes on. Layout (for
 * compiled code): offsets at 0, data at 8, row at 16, end at 24, out at 32, wide_in at 56,
 * go_on at 60, nulls at 64, n_nulls at 72, failed at 80. */
typedef int (*nrt_rows_write_fn)(void *ctx, nrt_rows_batch *batch, nrt_col_row_writer *w,
                                 struct nrt_error *err);

/* Options of nrt_exec_apply. Zero-initialise, then set what differs from the defaults. */
struct nrt_exec_options {
  /* The type every non-null result must have: NRT_VALUE_STR (the default when 0/NULL),
   * NRT_VALUE_INT64, NRT_VALUE_FLOAT64, NRT_VALUE_BOOL or NRT_VALUE_LIST (an NRT_COL_LIST
   * output whose items are item_kind). A result of another kind (or a list of another item
   * kind) is a TypeError (NRT_ETYPE) of that row. */
  nrt_value_kind result_kind;
  /* With result_kind NRT_VALUE_LIST: the items' kind, NRT_VALUE_STR (the default, when 0: a
   * list<string_type> output), NRT_VALUE_INT64 (list<int64>), NRT_VALUE_FLOAT64
   * (list<double>) or NRT_VALUE_BOOL (list<bool>). */
  nrt_value_kind item_kind;
  /* Layout of a string output (or of a list output's items): NRT_COL_UTF8_VIEW (the default,
   * when 0), NRT_COL_UTF8 or NRT_COL_LARGE_UTF8. utf8_view stitches chunks by their views,
   * so each result's bytes are copied exactly once (into its chunk); the contiguous layouts
   * copy them once more when several threads work on the apply (one thread builds every
   * chunk into one column). */
  enum nrt_col_type string_type;
  /* Threads working on the apply, the calling thread included; 0 or less: one per core. */
  int threads;
  /* Rows per chunk; 0: chosen from the row and thread counts. */
  int64_t chunk_rows;
  /* Nonzero: rows with a null input call the function (the argument has kind NULL). Zero
   * (the default): such rows give a null result without a call. */
  bool call_on_null;
  /* Nonzero: a row whose function fails gives a null result and the apply goes on (the
   * command line's --errors null); the first failure is still reported in nrt_exec_info.
   * Allocation failures (NRT_ENOMEM) always stop the apply. Zero (the default): the first
   * failure stops the apply. */
  bool errors_as_null;
  /* With errors_as_null: the messages of the rows that fail after the first failure of their
   * chunk are not formatted (they are never read: only the first failure is reported), which
   * makes a column of failing rows cheap. Leave it zero if the row function reads error
   * messages itself (a UDF's `except ... as e`). */
  bool discard_messages;
  /* Nonzero: each chunk checks its rows of every input with nrt_col_validate_rows before the
   * first call on them, so their bytes are read from memory once and are in cache for the
   * calls: for inputs imported with NRT_COL_IMPORT_ROWS_UNCHECKED. A defect stops the apply
   * (whatever errors_as_null says) with the check's code (NRT_EVALUE, NRT_EILSEQ) and
   * message, prefixed "input column J: ", and info->invalid_input set. Rows are checked a
   * chunk at a time in row order, so a failing call on a row before the defect (in an
   * earlier chunk) is the error reported, as it would be if the rows ran one by one. */
  bool validate_inputs;
  /* Optional progress report (e.g. the command line's progress bar): called after each chunk
   * with the number of rows finished so far (counted once per row, increasing up to the row
   * count) and the row count. Called from the worker that ran the chunk, possibly from several
   * threads at once: it must be thread-safe and quick. NULL: no reports. */
  void (*on_progress)(void *arg, int64_t rows_done, int64_t rows);
  void *progress_arg;
  /* nrt_exec_apply_write only, optional: the loop form of its row function, used for the
   * rows of a single utf8 / large_utf8 input without nulls (others go row by row). The output
   * is the same either way, but for the bytes a utf8_view output's region leaves unused. */
  nrt_rows_write_fn write_rows;
};

/* What happened during an apply (optional output of nrt_exec_apply). */
struct nrt_exec_info {
  int64_t rows;          /* input rows */
  int64_t calls;         /* row function calls made */
  int64_t failed_rows;   /* rows whose call failed (turned into nulls with errors_as_null) */
  int64_t error_row;     /* lowest failing row (0-based), or -1 when none failed */
  int error_code;        /* that row's status, 0 when none failed */
  int threads;           /* threads the apply was allowed to use */
  bool invalid_input;    /* stopped on an input's defect (validate_inputs); error_row is -1 */
};

/* Applies `fn` to every row of `n_inputs` (>= 1) input columns of equal length (string
 * layouts, int64, float64 or bool) and makes the output column.
 *  - inputs: borrowed (the caller keeps them alive for the whole call); rows = their length;
 *  - options: NULL for the defaults;
 *  - on success *out owns a new column of `rows` rows (type per options), and info (may be
 *    NULL) is filled.
 * Errors (then *out is NULL, every object made is released, info is filled):
 *  - a row function's failure: its code, with the message "row N: <ExceptionName>: <message>"
 *    naming the LOWEST failing row (1-based N; info->error_row holds the 0-based index);
 *  - NRT_ETYPE when a result has another kind than options->result_kind (same message form);
 *  - NRT_EINVAL for bad arguments (no inputs, unequal lengths, an unsupported column type);
 *  - with validate_inputs, an input's defect: NRT_EVALUE or NRT_EILSEQ, "input column J: row
 *    N: <defect>" (0-based N, as nrt_col_validate names rows);
 *  - NRT_ENOMEM, NRT_ERANGE (a utf8 output above 2 GiB, a list output above INT32_MAX
 *    items) from building the output. */
NRT_API int nrt_exec_apply(nrt_column *const *inputs, size_t n_inputs, nrt_row_fn fn, void *ctx,
                           const struct nrt_exec_options *options, nrt_column **out,
                           struct nrt_exec_info *info, struct nrt_error *err);

/* A row function that writes its string result in place (what the UDF JIT makes of a UDF
 * returning str, or hand-written C): no result string is made; the result's bytes go straight
 * into the output column through `out`, a row writer (nrt/column.h) that apply has begun for
 * this row: get room with nrt_col_row_room(out, n, err), write at most n bytes there, advance
 * out->pos. ctx, args and err as for nrt_row_fn. Returns
 *  - NRT_OK: the row's result is the bytes written (valid UTF-8; possibly none: '');
 *  - NRT_EXEC_ROW_NULL: the result is None (a null row); bytes written are dropped;
 *  - an error code, as nrt_row_fn; bytes written are dropped. When nrt_col_row_room fails,
 *    return the code it put in err (apply then reports the output's error).
 * The function never ends the row or appends to the builder itself. */
typedef int (*nrt_row_write_fn)(void *ctx, const nrt_value *args, nrt_col_row_writer *out,
                                struct nrt_error *err);

/* Returned by an nrt_row_write_fn whose result is None. */
#define NRT_EXEC_ROW_NULL (-1)

/* nrt_exec_apply for a writing row function: the same inputs, options (result_kind must be
 * NRT_VALUE_STR or 0, else NRT_EINVAL), chunking, error rules and identical output for any
 * thread count. A row costs no string allocation and no reference counting. */
NRT_API int nrt_exec_apply_write(nrt_column *const *inputs, size_t n_inputs,
                                 nrt_row_write_fn fn, void *ctx,
                                 const struct nrt_exec_options *options, nrt_column **out,
                                 struct nrt_exec_info *info, struct nrt_error *err);

/* Runs task(arg, i) for every i in [0, n_tasks) on up to `threads` threads of the pool (the
 * caller included; threads <= 0: one per core) and returns when all are done. The order and
 * the thread of each task are unspecified. Never fails: without workers the caller runs all. */
NRT_API void nrt_exec_parallel_for(int64_t n_tasks, int threads,
                                   void (*task)(void *arg, int64_t i), void *arg);

/* Number of cores the process may run on (its CPU affinity), at least 1: the default thread
 * count. */
NRT_API int nrt_exec_cores(void);

/* Stops and joins the pool's worker threads (they restart on the next apply). For clean
 * shutdown in leak checkers and before unloading the library. Must not be called while an
 * apply or parallel_for runs. */
NRT_API void nrt_exec_shutdown(void);

#ifdef __cplusplus
}
#endif

#endif /* NRT_EXEC_H */

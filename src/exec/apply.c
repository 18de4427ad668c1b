/* nrt_exec_apply: chunks of rows on the worker pool, one builder per chunk, chunks stitched in
 * row order (see nrt/exec.h for the lifecycle and the error rules). */
#include "nrt/exec.h"

#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include "core/error_discard.h"
#include "exec/pool.h"

/* The value layout is an ABI for compiled code: pin it. */
_Static_assert(sizeof(nrt_value) == 32, "nrt_value is 32 bytes");
_Static_assert(offsetof(nrt_value, kind) == 0, "kind at 0");
_Static_assert(offsetof(nrt_value, as) == 8, "payload at 8");
_Static_assert(offsetof(nrt_value, as.str.mi) == 8, "str.mi at 8");
_Static_assert(offsetof(nrt_value, as.str.data) == 16, "str.data at 16");
_Static_assert(offsetof(nrt_value, as.str.len) == 24, "str.len at 24");
_Static_assert(offsetof(nrt_value, as.list) == 8, "list at 8");
_Static_assert(offsetof(nrt_rows_batch, row) == 16 && offsetof(nrt_rows_batch, out) == 32 &&
                   offsetof(nrt_rows_batch, wide_in) == 56 &&
                   offsetof(nrt_rows_batch, go_on) == 60 &&
                   offsetof(nrt_rows_batch, nulls) == 64 &&
                   offsetof(nrt_rows_batch, failed) == 80 && offsetof(nrt_col_rows, wide) == 16,
               "the rows batch layout of nrt/exec.h");

/* Arguments of up to this many input columns live on the stack; more are allocated. */
#define APPLY_STACK_ARGS 16
/* Rows per batch: after each batch a chunk runs the free pass of the results it stored and
 * checks whether a lower row already failed. */
#define APPLY_BATCH 256

/* One chunk's outcome. */
struct apply_chunk {
  nrt_column *col;        /* the chunk's rows, or NULL */
  int64_t calls;
  int64_t failed_rows;
  int64_t error_row;      /* first failing row of the chunk, -1 if none */
  int error_code;
  int stop;               /* the chunk's error stops the apply */
  int invalid_input;      /* the error is an input's defect (validate_inputs) */
  char error_message[NRT_ERROR_MESSAGE_SIZE]; /* "row N: ...": no allocation on error paths */
};

struct apply_job {
  nrt_column *const *inputs;
  size_t n_inputs;
  nrt_row_fn fn;          /* one of fn and write is set */
  nrt_row_write_fn write; /* writes string results in place (nrt_exec_apply_write) */
  nrt_rows_write_fn write_rows; /* write's loop form, or NULL */
  void *ctx;
  nrt_value_kind result_kind;
  enum nrt_col_type builder_type;
  enum nrt_col_type item_type; /* a list output's item layout */
  nrt_value_kind item_kind;    /* a list output's items' kind (NRT_VALUE_STR for strings) */
  bool call_on_null;
  bool errors_as_null;
  bool discard_messages;
  bool validate_inputs;
  int64_t rows;
  int64_t chunk_rows;
  struct apply_chunk *chunks;
  /* Sequential applies (one thread: chunks run in order on the caller) build every chunk into
   * this one builder, made by chunk 0 and finished by apply, so no stitching copies the
   * rows again. NULL otherwise. */
  bool sequential;
  nrt_col_builder *shared;
  _Atomic int64_t stop_row; /* lowest row whose failure stops the apply; INT64_MAX: none */
  _Atomic int64_t rows_done; /* rows of finished chunks, for on_progress */
  void (*on_progress)(void *arg, int64_t rows_done, int64_t rows);
  void *progress_arg;
};

static const char *kind_name(int kind) {
  switch (kind) {
  case NRT_VALUE_NULL: return "None";
  case NRT_VALUE_STR: return "str";
  case NRT_VALUE_INT64: return "int";
  case NRT_VALUE_FLOAT64: return "float";
  case NRT_VALUE_BOOL: return "bool";
  case NRT_VALUE_LIST: return "list";
  default: return "an invalid value";
  }
}

static void lower_stop_row(struct apply_job *job, int64_t row) {
  int64_t cur = atomic_load_explicit(&job->stop_row, memory_order_relaxed);
  while (row < cur &&
         !atomic_compare_exchange_weak_explicit(&job->stop_row, &cur, row, memory_order_relaxed,
                                                memory_order_relaxed)) {
  }
}

/* Records the error of `row` in its chunk (the chunk's first one is kept). */
static void chunk_error(struct apply_job *job, struct apply_chunk *c, int64_t row, int code,
                        const char *message, int stop) {
  if (c->error_row < 0) {
    c->error_row = row;
    c->error_code = code;
    if (message && message[0])
      snprintf(c->error_message, sizeof c->error_message, "row %lld: %s: %.*s",
               (long long)row + 1, nrt_status_name(code), NRT_ERROR_MESSAGE_SIZE - 64, message);
    else
      snprintf(c->error_message, sizeof c->error_message, "row %lld: %s", (long long)row + 1,
               nrt_status_name(code));
  }
  if (stop) {
    c->stop = 1;
    lower_stop_row(job, row);
  }
}

/* validate_inputs: checks rows [start, end) of every input before the chunk reads them.
 * A defect stops the apply from `start` on (no row of the chunk is called); the message is
 * the check's, naming the row. Returns whether the rows are sound. */
static bool check_chunk_inputs(struct apply_job *job, struct apply_chunk *c, int64_t start,
                               int64_t end) {
  for (size_t j = 0; j < job->n_inputs; j++) {
    struct nrt_error e = {0};
    int rc = nrt_col_validate_rows(job->inputs[j], start, end - start, &e);
    if (rc) {
      c->error_row = start;
      c->error_code = rc;
      c->invalid_input = 1;
      snprintf(c->error_message, sizeof c->error_message, "input column %zu: %.*s", j,
               NRT_ERROR_MESSAGE_SIZE - 64, e.message);
      c->stop = 1;
      lower_stop_row(job, start);
      return false;
    }
  }
  return true;
}

/* Loads row i of every input into args; returns true when some input is null. */
static inline bool load_args(const struct apply_job *job, int64_t i, nrt_value *args) {
  bool any_null = false;
  for (size_t j = 0; j < job->n_inputs; j++) {
    const nrt_column *col = job->inputs[j];
    nrt_value *a = &args[j];
    if (!nrt_col_is_valid(col, i)) {
      a->kind = NRT_VALUE_NULL;
      any_null = true;
      continue;
    }
    switch (col->type) {
    case NRT_COL_INT64:
      a->kind = NRT_VALUE_INT64;
      a->as.i64 = nrt_col_int64(col, i);
      break;
    case NRT_COL_FLOAT64:
      a->kind = NRT_VALUE_FLOAT64;
      a->as.f64 = nrt_col_float64(col, i);
      break;
    case NRT_COL_BOOL:
      a->kind = NRT_VALUE_BOOL;
      a->as.b = nrt_col_bool(col, i);
      break;
    default:
      a->kind = NRT_VALUE_STR;
      a->as.str = nrt_col_str(col, i);
      break;
    }
  }
  return any_null;
}

/* Appends a list of numbers (nrt_value_list_item's encoding) as one row of a list builder
 * whose items have the matching type. */
static int append_number_list(const struct apply_job *job, nrt_col_builder *b,
                              const nrt_str_list *list) {
  nrt_col_builder *items = nrt_col_builder_list_items(b);
  for (int64_t k = 0; k < list->len; k++) {
    nrt_value v = nrt_value_list_item(list, job->item_kind, k);
    int rc = job->item_kind == NRT_VALUE_INT64   ? nrt_col_builder_append_int64(items, v.as.i64)
           : job->item_kind == NRT_VALUE_FLOAT64 ? nrt_col_builder_append_float64(items, v.as.f64)
                                                 : nrt_col_builder_append_bool(items, v.as.b);
    if (rc)
      break; /* end_list reports it */
  }
  return nrt_col_builder_end_list(b);
}

/* The kind of a list value's items (0 means strings). */
static nrt_value_kind list_item_kind(const nrt_value *r) {
  return r->item_kind ? (nrt_value_kind)r->item_kind : NRT_VALUE_STR;
}

/* Stores one result into the builder (taking its own reference for a managed string) and
 * releases the function's reference. Returns NRT_ETYPE for a result of the wrong kind, else
 * the builder's status. */
static inline int store_result(const struct apply_job *job, nrt_col_builder *b, nrt_value *r) {
  int status;
  if (r->kind == NRT_VALUE_STR && job->result_kind == NRT_VALUE_STR) { /* the common case */
    status = nrt_col_builder_append_str(b, &r->as.str);
    nrt_mi_decref_inline(r->as.str.mi); /* the function's own reference (nrt_str_release) */
    return status;
  }
  if (r->kind == NRT_VALUE_NULL)
    return nrt_col_builder_append_null(b);
  if (r->kind != (int32_t)job->result_kind ||
      (r->kind == NRT_VALUE_LIST && list_item_kind(r) != job->item_kind)) {
    if (r->kind == NRT_VALUE_STR)
      nrt_str_release(&r->as.str);
    else if (r->kind == NRT_VALUE_LIST)
      nrt_str_list_release(r->as.list);
    return NRT_ETYPE;
  }
  switch (r->kind) {
  case NRT_VALUE_STR:
    status = nrt_col_builder_append_str(b, &r->as.str);
    nrt_mi_decref_inline(r->as.str.mi); /* the function's own reference (nrt_str_release) */
    return status;
  case NRT_VALUE_LIST: /* the items are copied: the list and its strings go at once */
    status = job->item_kind == NRT_VALUE_STR ? nrt_col_builder_append_list(b, r->as.list)
                                             : append_number_list(job, b, r->as.list);
    nrt_str_list_release(r->as.list);
    return status;
  case NRT_VALUE_INT64: return nrt_col_builder_append_int64(b, r->as.i64);
  case NRT_VALUE_FLOAT64: return nrt_col_builder_append_float64(b, r->as.f64);
  default: return nrt_col_builder_append_bool(b, r->as.b);
  }
}

/* Abandons a chunk's builder (the shared one too: a stopping error ends the apply). */
static void drop_builder(struct apply_job *job, nrt_col_builder *b) {
  if (b == job->shared)
    job->shared = NULL;
  nrt_col_builder_abort(b);
}

/* A null row; a writing apply then begins the next row in w again. */
static int append_null_row(const struct apply_job *job, nrt_col_builder *b,
                           nrt_col_row_writer *w) {
  return job->write ? nrt_col_builder_row_null(b, w) : nrt_col_builder_append_null(b);
}

/* call_row's status for a row whose failure stops the chunk (recorded already). */
#define ROW_STOPPED (-100)

/* A failed call on row i: a null row (errors as nulls) or the chunk's stopping error. Returns
 * the builder's status after the null, or ROW_STOPPED. */
static int row_failed(struct apply_job *job, struct apply_chunk *c, nrt_col_builder *b,
                      nrt_col_row_writer *w, int64_t i, int rc, const struct nrt_error *e) {
  if (job->errors_as_null && rc != NRT_ENOMEM) {
    c->failed_rows++;
    if (c->error_row < 0) /* only a chunk's first failure is kept */
      chunk_error(job, c, i, rc, e->message, 0);
    return append_null_row(job, b, w);
  }
  chunk_error(job, c, i, rc, e->message, 1);
  return ROW_STOPPED;
}

/* Stores the outcome rc of a writing call on row i: the row written in w, a null, or the
 * failure. */
static inline int write_outcome(struct apply_job *job, struct apply_chunk *c, nrt_col_builder *b,
                                nrt_col_row_writer *w, int64_t i, int rc,
                                const struct nrt_error *e) {
  if (rc == NRT_OK)
    return nrt_col_builder_row_end(b, w, NULL);
  if (rc == NRT_EXEC_ROW_NULL)
    return append_null_row(job, b, w);
  if (nrt_col_builder_status(b) != NRT_OK)
    return nrt_col_builder_status(b); /* room for the result failed: the builder's error */
  return row_failed(job, c, b, w, i, rc, e);
}

/* Clears e before a call, and says whether the call's messages are discarded: once the chunk
 * has its first failure, no message made by the call can be read (chunk_error keeps only a
 * chunk's first). */
static inline bool begin_call(const struct apply_job *job, const struct apply_chunk *c,
                              struct nrt_error *e) {
  e->code = 0;
  e->message[0] = '\0';
  bool discard = job->discard_messages && c->error_row >= 0;
  if (discard)
    nrt_error_discard_messages(true);
  return discard;
}

static inline void end_call(bool discard) {
  if (discard)
    nrt_error_discard_messages(false);
}

/* Calls the row function on row i and stores its outcome in b: the result, a null for
 * NRT_EXEC_ROW_NULL, or (errors as nulls) a null for a failure. Returns NRT_OK, the builder's
 * status when storing failed, or ROW_STOPPED. */
static inline int call_row(struct apply_job *job, struct apply_chunk *c, nrt_col_builder *b,
                           nrt_col_row_writer *w, const nrt_value *args, int64_t i,
                           struct nrt_error *e) {
  bool discard = begin_call(job, c, e);
  if (job->write) {
    int rc = job->write(job->ctx, args, w, e);
    end_call(discard);
    return write_outcome(job, c, b, w, i, rc, e);
  }
  nrt_value result = {0};
  int rc = job->fn(job->ctx, args, &result, e);
  end_call(discard);
  if (rc != NRT_OK)
    return row_failed(job, c, b, w, i, rc, e);
  int kind = result.kind;
  nrt_value_kind item = list_item_kind(&result);
  rc = store_result(job, b, &result);
  if (rc != NRT_ETYPE)
    return rc;
  char msg[128];
  if (kind == NRT_VALUE_LIST && job->result_kind == NRT_VALUE_LIST)
    snprintf(msg, sizeof msg, "the row function returned a list of %s, expected a list of %s",
             kind_name(item), kind_name(job->item_kind));
  else
    snprintf(msg, sizeof msg, "the row function returned %s, expected %s", kind_name(kind),
             kind_name(job->result_kind));
  chunk_error(job, c, i, NRT_ETYPE, msg, 1);
  return ROW_STOPPED;
}

/* Rows [i, to), one call each (nulls without a call unless the options ask for it). Returns
 * as call_row, with *at the row that returned it. */
static int run_each_row(struct apply_job *job, struct apply_chunk *c, nrt_col_builder *b,
                        nrt_col_row_writer *w, nrt_value *args, int64_t i, int64_t to,
                        int64_t *at, int64_t *calls, struct nrt_error *e) {
  /* One utf8 input without nulls (the common case): its rows are read straight from the
   * offsets, with the argument's kind set once. */
  const nrt_column *in0 = job->inputs[0];
  const bool one_utf8 = job->n_inputs == 1 && in0->type == NRT_COL_UTF8 && !in0->validity.data;
  const int32_t *offsets0 = one_utf8 ? (const int32_t *)in0->values.data + in0->offset : NULL;
  const char *data0 = one_utf8 ? (const char *)in0->data.data : NULL;
  if (one_utf8)
    args[0].kind = NRT_VALUE_STR;
  for (; i < to; i++) {
    bool null_row;
    if (one_utf8) {
      int32_t o = offsets0[i];
      args[0].as.str.data = data0 + o;
      args[0].as.str.len = (int64_t)offsets0[i + 1] - o;
      null_row = false;
    } else {
      null_row = load_args(job, i, args);
    }
    int rc;
    if (null_row && !job->call_on_null) {
      rc = append_null_row(job, b, w);
    } else {
      ++*calls;
      rc = call_row(job, c, b, w, args, i, e);
    }
    if (rc != NRT_OK) {
      *at = i;
      return rc;
    }
  }
  return NRT_OK;
}

/* Whether the chunks go through the loop form (job->write_rows): one utf8 or large_utf8 input
 * without nulls (a string output, which a writing apply has). */
static bool rows_form(const struct apply_job *job) {
  const nrt_column *in = job->inputs[0];
  return job->write_rows && job->n_inputs == 1 && !in->validity.data &&
         (in->type == NRT_COL_UTF8 || in->type == NRT_COL_LARGE_UTF8);
}

/* Rows [i, to) through the loop form: each call of it writes rows until one needs more: a
 * failure it does not turn into a null (stored as call_row would), or a row left to the row
 * function (run by call_row). A chunk's first failure always comes back here, so that its
 * message is kept; later ones become nulls in the loop when errors are nulls. Returns as
 * call_row, with *at the row that returned it. */
static int run_rows(struct apply_job *job, struct apply_chunk *c, nrt_col_builder *b,
                    nrt_col_row_writer *w, nrt_value *args, int64_t i, int64_t to, int64_t *at,
                    int64_t *calls, struct nrt_error *e) {
  const nrt_column *in = job->inputs[0];
  int32_t nulls[APPLY_BATCH];
  nrt_rows_batch batch;
  batch.nulls = nulls;
  batch.wide_in = in->type == NRT_COL_LARGE_UTF8;
  batch.offsets = (const char *)in->values.data + in->offset * (batch.wide_in ? 8 : 4);
  batch.data = in->data.data;
  int rc = NRT_OK;
  while (i < to && rc == NRT_OK) {
    *at = i;
    if ((rc = nrt_col_builder_rows_begin(b, w, to - i, &batch.out, NULL)) != NRT_OK)
      break;
    batch.row = i;
    batch.end = to;
    batch.go_on = job->errors_as_null && c->error_row >= 0;
    batch.n_nulls = batch.failed = 0;
    bool discard = begin_call(job, c, e);
    int status = job->write_rows(job->ctx, &batch, w, e);
    end_call(discard);
    *calls += batch.row - i;
    c->failed_rows += batch.failed;
    rc = nrt_col_builder_rows_end(b, w, &batch.out, batch.row - i, nulls, batch.n_nulls, NULL);
    i = *at = batch.row;
    if (rc != NRT_OK || (status == NRT_OK && i == to))
      break;
    ++*calls;
    if (status == NRT_OK) { /* left to the row function */
      load_args(job, i, args);
      rc = call_row(job, c, b, w, args, i, e);
    } else {
      rc = write_outcome(job, c, b, w, i, status, e);
    }
    i++;
  }
  return rc;
}

static void run_chunk(void *arg, int64_t k) {
  struct apply_job *job = arg;
  struct apply_chunk *c = &job->chunks[k];
  int64_t start = k * job->chunk_rows;
  int64_t end = start + job->chunk_rows < job->rows ? start + job->chunk_rows : job->rows;
  if (start > atomic_load_explicit(&job->stop_row, memory_order_relaxed))
    return; /* a lower row already stopped the apply */
  if (job->validate_inputs && !check_chunk_inputs(job, c, start, end))
    return;

  nrt_value stack_args[APPLY_STACK_ARGS];
  nrt_value *args = stack_args;
  size_t args_size = 0;
  int64_t calls = 0;
  struct nrt_error e;
  if (job->n_inputs > APPLY_STACK_ARGS) {
    args_size = job->n_inputs * sizeof *args;
    args = nrt_allocate(args_size, &e);
    if (!args) {
      chunk_error(job, c, start, NRT_ENOMEM, e.message, 1);
      return;
    }
  }
  memset(args, 0, (job->n_inputs < APPLY_STACK_ARGS ? APPLY_STACK_ARGS : job->n_inputs) *
                      sizeof *args);
  nrt_col_builder *b = job->shared;
  int rc = NRT_OK;
  if (!b) {
    int64_t expected = job->sequential ? job->rows : end - start;
    rc = job->builder_type == NRT_COL_LIST
             ? nrt_col_builder_new_list(job->item_type, expected, &b, &e)
             : nrt_col_builder_new(job->builder_type, expected, &b, &e);
    if (rc) {
      chunk_error(job, c, start, rc, e.message, 1);
      goto done;
    }
    if (job->sequential)
      job->shared = b;
  }
  nrt_col_row_writer w = {0};
  int64_t i = start;
  if (job->write && (rc = nrt_col_builder_row_begin(b, &w, NULL)) != NRT_OK)
    goto builder_failed;
  const bool by_rows = rows_form(job);
  for (int64_t from = start; from < end; from += APPLY_BATCH) {
    if (from > start) {
      if (from > atomic_load_explicit(&job->stop_row, memory_order_relaxed)) {
        drop_builder(job, b);
        b = NULL;
        goto done; /* a lower row stopped the apply: this chunk's rows are not needed */
      }
      /* The free pass of the batch just stored: its bytes are in the builder already, and
       * releasing the results now lets the allocator reuse their (cached) memory. */
      nrt_col_builder_free_pass(b);
    }
    int64_t to = end - from > APPLY_BATCH ? from + APPLY_BATCH : end;
    rc = by_rows ? run_rows(job, c, b, &w, args, from, to, &i, &calls, &e)
                 : run_each_row(job, c, b, &w, args, from, to, &i, &calls, &e);
    if (rc == ROW_STOPPED) {
      drop_builder(job, b);
      b = NULL;
      goto done;
    }
    if (rc != NRT_OK)
      goto builder_failed;
  }
  if (b == job->shared) {
    nrt_col_builder_free_pass(b); /* the chunk's free pass; apply finishes the builder */
    rc = NRT_OK;
  } else {
    rc = nrt_col_builder_finish(b, &c->col, &e); /* the chunk's free pass runs here */
  }
  b = NULL;
  if (rc)
    chunk_error(job, c, end - 1, rc, e.message, 1);
  else if (job->on_progress)
    job->on_progress(job->progress_arg,
                     atomic_fetch_add_explicit(&job->rows_done, end - start,
                                               memory_order_relaxed) + (end - start),
                     job->rows);
  goto done;
builder_failed: { /* the builder failed (allocation, size) at row i: its message names why */
  nrt_column *dropped = NULL;
  if (b == job->shared)
    job->shared = NULL;
  nrt_col_builder_finish(b, &dropped, &e);
  nrt_col_release(dropped);
  chunk_error(job, c, i, rc, e.message, 1);
}
done:
  c->calls += calls;
  if (args != stack_args)
    nrt_free(args, args_size);
}

/* Rows per chunk: enough chunks for load balance (about 8 per thread), small enough that a
 * chunk's results stay in cache, large enough that per-chunk costs vanish. */
static int64_t choose_chunk_rows(int64_t rows, int threads) {
  int64_t per = rows / ((int64_t)threads * 8);
  if (per < 1024)
    per = 1024;
  if (per > 16384)
    per = 16384;
  return per;
}

static int check_inputs(nrt_column *const *inputs, size_t n_inputs, bool has_fn,
                        nrt_column **out, struct nrt_error *err) {
  if (!out)
    return nrt_error_set(err, NRT_EINVAL, "apply: out is NULL");
  if (!has_fn)
    return nrt_error_set(err, NRT_EINVAL, "apply: no row function");
  if (!inputs || n_inputs == 0)
    return nrt_error_set(err, NRT_EINVAL, "apply: no input column");
  for (size_t j = 0; j < n_inputs; j++) {
    if (!inputs[j])
      return nrt_error_set(err, NRT_EINVAL, "apply: input column %zu is NULL", j);
    enum nrt_col_type t = inputs[j]->type;
    if (!nrt_col_type_is_string(t) && t != NRT_COL_INT64 && t != NRT_COL_FLOAT64 &&
        t != NRT_COL_BOOL)
      return nrt_error_set(err, NRT_EINVAL, "apply: input column %zu has unsupported type %s",
                           j, nrt_col_type_name(t));
    if (inputs[j]->length != inputs[0]->length)
      return nrt_error_set(err, NRT_EINVAL,
                           "apply: input column %zu has %lld rows, column 0 has %lld", j,
                           (long long)inputs[j]->length, (long long)inputs[0]->length);
  }
  return NRT_OK;
}

/* The list item type of items of kind k (0 when k is not an item kind). */
static enum nrt_col_type item_type_of(nrt_value_kind k, enum nrt_col_type strings) {
  switch (k) {
  case NRT_VALUE_STR: return strings;
  case NRT_VALUE_INT64: return NRT_COL_INT64;
  case NRT_VALUE_FLOAT64: return NRT_COL_FLOAT64;
  case NRT_VALUE_BOOL: return NRT_COL_BOOL;
  default: return (enum nrt_col_type)0;
  }
}

static int builder_type_for(const struct nrt_exec_options *o, nrt_value_kind *kind,
                            nrt_value_kind *item_kind, enum nrt_col_type *type,
                            enum nrt_col_type *item_type, struct nrt_error *err) {
  *kind = o->result_kind ? o->result_kind : NRT_VALUE_STR;
  *item_kind = o->item_kind ? o->item_kind : NRT_VALUE_STR;
  enum nrt_col_type strings = o->string_type ? o->string_type : NRT_COL_UTF8_VIEW;
  if ((*kind == NRT_VALUE_STR || *kind == NRT_VALUE_LIST) && !nrt_col_type_is_string(strings))
    return nrt_error_set(err, NRT_EINVAL, "apply: string_type %s is not a string layout",
                         nrt_col_type_name(strings));
  switch (*kind) {
  case NRT_VALUE_STR: *type = strings; return NRT_OK;
  case NRT_VALUE_LIST:
    *type = NRT_COL_LIST;
    *item_type = item_type_of(*item_kind, strings);
    if (!*item_type)
      return nrt_error_set(err, NRT_EINVAL, "apply: item_kind %d is not a list item type",
                           (int)*item_kind);
    return NRT_OK;
  case NRT_VALUE_INT64: *type = NRT_COL_INT64; return NRT_OK;
  case NRT_VALUE_FLOAT64: *type = NRT_COL_FLOAT64; return NRT_OK;
  case NRT_VALUE_BOOL: *type = NRT_COL_BOOL; return NRT_OK;
  default:
    return nrt_error_set(err, NRT_EINVAL, "apply: result_kind %d is not a value type",
                         (int)*kind);
  }
}

/* The stopping error with the lowest row, or (errors_as_null) the first failure. */
static const struct apply_chunk *first_error(const struct apply_chunk *chunks, int64_t n,
                                             int stopping) {
  const struct apply_chunk *best = NULL;
  for (int64_t k = 0; k < n; k++) {
    const struct apply_chunk *c = &chunks[k];
    if (c->error_row >= 0 && (!stopping || c->stop) && (!best || c->error_row < best->error_row))
      best = c;
  }
  return best;
}

/* The stitching's runner: the chunks' copies on the apply's threads, as the chunks ran. */
static void run_on_pool(void *threads, int64_t n_tasks, nrt_col_task_fn task, void *task_arg) {
  nrt_pool_run(n_tasks, *(const int *)threads, task, task_arg);
}

/* Both applies: exactly one of fn and write is used. */
static int apply(nrt_column *const *inputs, size_t n_inputs, nrt_row_fn fn,
                 nrt_row_write_fn write, void *ctx, const struct nrt_exec_options *options,
                 nrt_column **out, struct nrt_exec_info *info, struct nrt_error *err) {
  static const struct nrt_exec_options defaults = {0};
  const struct nrt_exec_options *o = options ? options : &defaults;
  struct nrt_exec_info local_info;
  if (!info)
    info = &local_info;
  memset(info, 0, sizeof *info);
  info->error_row = -1;
  if (out)
    *out = NULL;
  int rc = check_inputs(inputs, n_inputs, fn || write, out, err);
  if (rc)
    return rc;
  struct apply_job job = {.inputs = inputs, .n_inputs = n_inputs, .fn = fn, .write = write,
                          .ctx = ctx,
                          .call_on_null = o->call_on_null, .errors_as_null = o->errors_as_null,
                          .discard_messages = o->errors_as_null && o->discard_messages,
                          .validate_inputs = o->validate_inputs,
                          .write_rows = write ? o->write_rows : NULL,
                          .rows = inputs[0]->length};
  rc = builder_type_for(o, &job.result_kind, &job.item_kind, &job.builder_type, &job.item_type,
                        err);
  if (rc)
    return rc;
  if (write && job.result_kind != NRT_VALUE_STR)
    return nrt_error_set(err, NRT_EINVAL, "apply: a writing row function makes strings, not %s",
                         kind_name(job.result_kind));
  int threads = o->threads > 0 ? o->threads : nrt_pool_cores();
  info->rows = job.rows;
  info->threads = threads;
  job.chunk_rows = o->chunk_rows > 0 ? o->chunk_rows : choose_chunk_rows(job.rows, threads);
  int64_t n_chunks = job.rows == 0 ? 1 : (job.rows - 1) / job.chunk_rows + 1;
  int64_t n_chunks_out = n_chunks; /* chunk columns to stitch */
  atomic_init(&job.stop_row, INT64_MAX);
  atomic_init(&job.rows_done, 0);
  job.on_progress = o->on_progress;
  job.progress_arg = o->progress_arg;
  size_t chunks_size = (size_t)n_chunks * sizeof *job.chunks;
  job.chunks = nrt_allocate(chunks_size, err);
  if (!job.chunks)
    return NRT_ENOMEM;
  for (int64_t k = 0; k < n_chunks; k++) {
    job.chunks[k].col = NULL;
    job.chunks[k].calls = job.chunks[k].failed_rows = 0;
    job.chunks[k].error_row = -1;
    job.chunks[k].error_code = job.chunks[k].stop = job.chunks[k].invalid_input = 0;
    job.chunks[k].error_message[0] = '\0';
  }

  job.sequential = threads == 1 && n_chunks > 1;
  job.shared = NULL;
  nrt_pool_run(n_chunks, threads, run_chunk, &job);
  if (job.shared) {
    /* Sequential: the whole output is in one builder. */
    struct nrt_error e;
    rc = nrt_col_builder_finish(job.shared, &job.chunks[0].col, &e);
    job.shared = NULL;
    if (rc)
      chunk_error(&job, &job.chunks[n_chunks - 1], job.rows - 1, rc, e.message, 1);
    else
      n_chunks_out = 1;
  }

  for (int64_t k = 0; k < n_chunks; k++) {
    info->calls += job.chunks[k].calls;
    info->failed_rows += job.chunks[k].failed_rows;
  }
  const struct apply_chunk *stop = first_error(job.chunks, n_chunks, 1);
  const struct apply_chunk *first = stop ? stop : first_error(job.chunks, n_chunks, 0);
  if (first) {
    info->invalid_input = first->invalid_input;
    info->error_row = first->invalid_input ? -1 : first->error_row;
    info->error_code = first->error_code;
  }
  if (stop) {
    rc = nrt_error_set(err, stop->error_code, "%s", stop->error_message);
  } else if (n_chunks_out == 1) {
    *out = job.chunks[0].col;
    job.chunks[0].col = NULL;
  } else {
    /* Stitch: views (or offsets, a list's too) are rebased; utf8_view data is shared. The
     * chunks' copies run on the pool: one thread copying it all would be the serial part of
     * a cheap UDF's apply. */
    size_t cols_size = (size_t)n_chunks * sizeof(nrt_column *);
    nrt_column **cols = nrt_allocate(cols_size, err);
    if (!cols) {
      rc = NRT_ENOMEM;
    } else {
      for (int64_t k = 0; k < n_chunks; k++)
        cols[k] = job.chunks[k].col;
      rc = nrt_col_concat_run(cols, (size_t)n_chunks, job.builder_type, run_on_pool, &threads,
                              out, err);
      nrt_free(cols, cols_size);
    }
  }
  for (int64_t k = 0; k < n_chunks; k++)
    nrt_col_release(job.chunks[k].col);
  nrt_free(job.chunks, chunks_size);
  return rc;
}

int nrt_exec_apply(nrt_column *const *inputs, size_t n_inputs, nrt_row_fn fn, void *ctx,
                   const struct nrt_exec_options *options, nrt_column **out,
                   struct nrt_exec_info *info, struct nrt_error *err) {
  return apply(inputs, n_inputs, fn, NULL, ctx, options, out, info, err);
}

int nrt_exec_apply_write(nrt_column *const *inputs, size_t n_inputs, nrt_row_write_fn fn,
                         void *ctx, const struct nrt_exec_options *options, nrt_column **out,
                         struct nrt_exec_info *info, struct nrt_error *err) {
  return apply(inputs, n_inputs, NULL, fn, ctx, options, out, info, err);
}

void nrt_exec_parallel_for(int64_t n_tasks, int threads, void (*task)(void *arg, int64_t i),
                           void *arg) {
  nrt_pool_run(n_tasks, threads, task, arg);
}

int nrt_exec_cores(void) {
  return nrt_pool_cores();
}

void nrt_exec_shutdown(void) {
  nrt_pool_shutdown();
}

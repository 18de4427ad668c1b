/* nrt apply UDF [INPUT] [options]: compile a UDF and run it over a column read from a file or
 * standard input, writing the results (see `nrt apply --help`). */
#define _POSIX_C_SOURCE 200809L /* fileno, clock_gettime */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "nrt/io.h"
#include "nrt/io_output.h"
#include "nrt/str.h"
#include "nrt/udf.h"

#define MAX_COLUMNS 64

static const char apply_help[] =
    "usage: nrt apply UDF [INPUT] [options]\n"
    "  UDF                 a .py file, or -e 'SOURCE' (a lambda or a def)\n"
    "  INPUT               input file; standard input when absent or '-'\n"
    "  -e SOURCE           inline UDF source\n"
    "  --func NAME         entry function (default: the only def, or the last one)\n"
    "  --in-format F       text (default, one row per line), csv or jsonl\n"
    "  --out-format F      text, csv or jsonl (default: the input format)\n"
    "  --column NAME       input column for csv / jsonl objects, one per parameter in order\n"
    "  -o PATH             output file (default: standard output), replaced only when the\n"
    "                      run succeeds: on an error or an interrupt PATH keeps its contents\n"
    "  --threads N         worker threads, 1 to 4096 (default: all cores)\n"
    "  --batch-rows N      rows read, applied and written at a time (default 65536;\n"
    "                      K, M suffixes): memory stays bounded whatever the input's size\n"
    "  --batch-bytes N     a batch also ends after N bytes of input (default 16M)\n"
    "  --errors stop|null  a row that raises stops the run (exit 1) or gives null\n"
    "  --max-row-bytes N   the longest string a row may make (K, M, G suffixes; default and\n"
    "                      most 2G-1): a longer one is the row's MemoryError\n"
    "  --emit-llvm         print the LLVM IR before and after pruning (standard error)\n"
    "  --stats             print statistics as 'name: value' lines on standard error\n"
    "exit status: 0 success, 1 runtime error in a row or MemoryError, 2 compile error, bad\n"
    "input, I/O error or usage\n";

struct apply_args {
  const char *udf_path, *source, *func, *input, *output;
  const char *in_format, *out_format;
  const char *columns[MAX_COLUMNS];
  size_t ncolumns;
  int threads;
  int64_t max_row_bytes;
  int64_t batch_rows, batch_bytes;
  bool errors_null, emit_llvm, stats;
};

static int bad_usage(const char *fmt, const char *arg) {
  fputs("nrt apply: ", stderr);
  /* fmt is always one of this file's literals with one %s. */
  const char *pct = strstr(fmt, "%s");
  if (pct) {
    fwrite(fmt, 1, (size_t)(pct - fmt), stderr);
    fputs(arg, stderr);
    fputs(pct + 2, stderr);
  } else {
    fputs(fmt, stderr);
  }
  fputs("\nrun `nrt apply --help` for usage\n", stderr);
  return CLI_USAGE;
}

/* Value of option argv[*i] (either "--opt=value" or "--opt value"). */
static const char *opt_value(int argc, char **argv, int *i, const char *name) {
  const char *a = argv[*i];
  size_t n = strlen(name);
  if (strncmp(a, name, n) == 0 && a[n] == '=')
    return a + n + 1;
  if (*i + 1 >= argc)
    return NULL;
  return argv[++*i];
}

static bool is_opt(const char *a, const char *name) {
  size_t n = strlen(name);
  return strncmp(a, name, n) == 0 && (a[n] == 0 || a[n] == '=');
}

static int parse_args(int argc, char **argv, struct apply_args *a) {
  memset(a, 0, sizeof *a);
  const char *positional[2];
  int npos = 0;
  for (int i = 1; i < argc; i++) {
    const char *s = argv[i];
    const char *v;
#define VALUE(name)                                                                          \
  do {                                                                                       \
    v = opt_value(argc, argv, &i, name);                                                     \
    if (!v)                                                                                  \
      return bad_usage("option %s needs a value", name);                                     \
  } while (0)
    if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
      fputs(apply_help, stdout);
      return -1;
    } else if (is_opt(s, "-e")) {
      VALUE("-e");
      a->source = v;
    } else if (is_opt(s, "--func")) {
      VALUE("--func");
      a->func = v;
    } else if (is_opt(s, "--in-format")) {
      VALUE("--in-format");
      a->in_format = v;
    } else if (is_opt(s, "--out-format")) {
      VALUE("--out-format");
      a->out_format = v;
    } else if (is_opt(s, "--column")) {
      VALUE("--column");
      if (a->ncolumns == MAX_COLUMNS)
        return bad_usage("more than %s columns", "64");
      a->columns[a->ncolumns++] = v;
    } else if (is_opt(s, "-o")) {
      VALUE("-o");
      a->output = v;
    } else if (is_opt(s, "--threads")) {
      VALUE("--threads");
      int64_t t;
      if (!cli_parse_int(v, 1, 4096, false, &t))
        return bad_usage("--threads needs a number from 1 to 4096, not '%s'", v);
      a->threads = (int)t;
    } else if (is_opt(s, "--batch-rows")) {
      VALUE("--batch-rows");
      if (!cli_parse_int(v, 1, INT64_MAX, true, &a->batch_rows))
        return bad_usage("--batch-rows needs a number of rows from 1 (K, M and G suffixes "
                         "allowed), not '%s'", v);
    } else if (is_opt(s, "--batch-bytes")) {
      VALUE("--batch-bytes");
      if (!cli_parse_int(v, 1, INT64_MAX, true, &a->batch_bytes))
        return bad_usage("--batch-bytes needs a number of bytes from 1 (K, M and G suffixes "
                         "allowed), not '%s'", v);
    } else if (is_opt(s, "--max-row-bytes")) {
      VALUE("--max-row-bytes");
      if (!cli_parse_int(v, 1, NRT_STR_DEFAULT_MAX_BYTES, true, &a->max_row_bytes))
        return bad_usage("--max-row-bytes needs a number of bytes from 1 to 2147483647 "
                         "(K, M and G suffixes allowed), not '%s'", v);
    } else if (is_opt(s, "--errors")) {
      VALUE("--errors");
      if (strcmp(v, "stop") == 0)
        a->errors_null = false;
      else if (strcmp(v, "null") == 0)
        a->errors_null = true;
      else
        return bad_usage("--errors takes stop or null, not '%s'", v);
    } else if (strcmp(s, "--emit-llvm") == 0) {
      a->emit_llvm = true;
    } else if (strcmp(s, "--stats") == 0) {
      a->stats = true;
    } else if (s[0] == '-' && s[1] != 0) {
      return bad_usage("unknown option '%s'", s);
    } else {
      if (npos == 2)
        return bad_usage("unexpected argument '%s'", s);
      positional[npos++] = s;
    }
#undef VALUE
  }
  int k = 0;
  if (!a->source) {
    if (npos == 0)
      return bad_usage("%s", "no UDF given (a .py file or -e 'SOURCE')");
    a->udf_path = positional[k++];
  }
  if (k < npos)
    a->input = positional[k++];
  if (k < npos)
    return bad_usage("unexpected argument '%s'", positional[k]);
  if (a->input && strcmp(a->input, "-") == 0)
    a->input = NULL;
  return 0;
}

/* Reads the whole UDF file into a malloc'd buffer. */
static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stderr, "nrt apply: cannot open %s: %s\n", path, strerror(errno));
    return NULL;
  }
  size_t cap = 4096, n = 0;
  char *buf = malloc(cap);
  while (buf) {
    size_t got = fread(buf + n, 1, cap - n, f);
    n += got;
    if (n < cap)
      break;
    char *nb = realloc(buf, cap * 2);
    if (!nb) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = nb;
    cap *= 2;
  }
  if (buf && ferror(f)) {
    fprintf(stderr, "nrt apply: cannot read %s: %s\n", path, strerror(errno));
    free(buf);
    buf = NULL;
  }
  fclose(f);
  *len = n;
  return buf;
}

static nrt_value_kind kind_of_column(const nrt_column *col) {
  switch (col->type) {
  case NRT_COL_INT64: return NRT_VALUE_INT64;
  case NRT_COL_FLOAT64: return NRT_VALUE_FLOAT64;
  case NRT_COL_BOOL: return NRT_VALUE_BOOL;
  default: return NRT_VALUE_STR;
  }
}

static void print_compile_stats(const struct nrt_udf_compile_info *in) {
  fprintf(stderr, "compile_ms: %.3f\n", in->compile_ms);
  fprintf(stderr, "front_ms: %.3f\n", in->front_ms);
  fprintf(stderr, "codegen_ms: %.3f\n", in->codegen_ms);
  fprintf(stderr, "prune_ms: %.3f\n", in->prune_ms);
  fprintf(stderr, "optimize_ms: %.3f\n", in->optimize_ms);
  fprintf(stderr, "jit_ms: %.3f\n", in->jit_ms);
  fprintf(stderr, "refops_before: %zu\n", in->refops_before);
  fprintf(stderr, "refops_after: %zu\n", in->refops_after);
  fprintf(stderr, "refops_removed: %zu\n", in->refops_before - in->refops_after);
  fprintf(stderr, "pruned_null: %zu\n", in->pruned_null);
  fprintf(stderr, "pruned_per_bb: %zu\n", in->pruned_per_bb);
  fprintf(stderr, "pruned_diamond: %zu\n", in->pruned_diamond);
  fprintf(stderr, "pruned_fanout: %zu\n", in->pruned_fanout);
  fprintf(stderr, "pruned_fanout_raise: %zu\n", in->pruned_fanout_raise);
}

void cli_print_runtime_stats(void) {
  struct nrt_stats s;
  nrt_stats_get(&s);
  fprintf(stderr, "alloc: %llu\n", (unsigned long long)s.alloc);
  fprintf(stderr, "free: %llu\n", (unsigned long long)s.free);
  fprintf(stderr, "mi_alloc: %llu\n", (unsigned long long)s.mi_alloc);
  fprintf(stderr, "mi_free: %llu\n", (unsigned long long)s.mi_free);
  fprintf(stderr, "bytes_alloc: %llu\n", (unsigned long long)s.bytes_alloc);
  fprintf(stderr, "bytes_free: %llu\n", (unsigned long long)s.bytes_free);
  fprintf(stderr, "balanced: %s\n",
          s.alloc == s.free && s.mi_alloc == s.mi_free ? "yes" : "no");
}

/* One streaming run: what it reads, compiles, writes, and the sums over its batches. */
struct apply_run {
  const struct apply_args *args;
  enum nrt_io_format in_fmt, out_fmt;
  const char *source;
  size_t source_len;
  nrt_io_output *output; /* -o PATH, committed only at the end of a successful run */
  nrt_udf *udf;
  int64_t rows, batches, failed_rows, first_failed; /* first_failed: 0-based, or -1 */
  int threads;
  double read_ms, run_ms, write_ms;
};

/* The input's size when it is a regular file (for the progress bar), else 0. */
static uint64_t input_size(const char *path) {
  struct stat st;
  if (path ? stat(path, &st) != 0 : fstat(0, &st) != 0)
    return 0;
  return S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
}

/* Prints an apply error, its "row N:" numbered from the start of the input: the apply counts
 * the rows of its batch. */
static void print_row_error(const struct nrt_error *err, int rc, int64_t first_row) {
  const char *msg = err->message;
  char *end = NULL;
  long long n = strncmp(msg, "row ", 4) == 0 ? strtoll(msg + 4, &end, 10) : 0;
  if (end && end > msg + 4 && *end == ':')
    fprintf(stderr, "nrt apply: row %lld%s", n + (long long)first_row, end);
  else
    fprintf(stderr, "nrt apply: %s", msg);
  fprintf(stderr, "%s\n", rc == NRT_ELIMIT ? " (a larger --max-row-bytes allows it)" : "");
}

static int compile_for(struct apply_run *run, nrt_column *const *in, size_t ncols) {
  const struct apply_args *a = run->args;
  nrt_value_kind kinds[MAX_COLUMNS];
  for (size_t i = 0; i < ncols; i++)
    kinds[i] = kind_of_column(in[i]);
  struct nrt_udf_options uo;
  memset(&uo, 0, sizeof uo);
  uo.file = a->udf_path ? a->udf_path : "<-e>";
  uo.func = a->func;
  uo.param_kinds = kinds;
  uo.nparams = (int)ncols;
  uo.emit_llvm = a->emit_llvm;
  uo.emit_stream = stderr;
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  int rc = nrt_udf_compile(run->source, run->source_len, &uo, &run->udf, &err);
  if (rc) {
    fprintf(stderr, "%s%s\n", rc == NRT_ENOMEM ? "nrt apply: MemoryError: " : "", err.message);
    return rc == NRT_ENOMEM ? CLI_ROW_ERROR : CLI_USAGE;
  }
  return CLI_OK;
}

/* Applies the UDF to one batch and writes its results. */
static int apply_batch(struct apply_run *run, nrt_column *const *in, size_t ncols,
                       nrt_io_writer *writer, struct cli_progress **prog) {
  const struct apply_args *a = run->args;
  struct nrt_udf_apply_options ao;
  memset(&ao, 0, sizeof ao);
  ao.threads = a->threads;
  ao.errors_as_null = a->errors_null;
  struct nrt_exec_info xinfo;
  memset(&xinfo, 0, sizeof xinfo);
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  nrt_column *out = NULL;
  double t0 = cli_now_ms();
  int rc = nrt_udf_apply(run->udf, in, ncols, &ao, &out, &xinfo, &err);
  run->run_ms += cli_now_ms() - t0;
  run->threads = xinfo.threads;
  if (rc) {
    cli_progress_stop(*prog); /* the bar is cleared before the message */
    *prog = NULL;
    print_row_error(&err, rc, run->rows);
    return rc == NRT_EINVAL ? CLI_USAGE : CLI_ROW_ERROR;
  }
  if (xinfo.failed_rows > 0 && run->first_failed < 0)
    run->first_failed = run->rows + xinfo.error_row;
  run->failed_rows += xinfo.failed_rows;
  t0 = cli_now_ms();
  rc = nrt_io_writer_write(writer, out, &err);
  run->write_ms += cli_now_ms() - t0;
  nrt_col_release(out);
  if (rc) {
    cli_progress_stop(*prog);
    *prog = NULL;
    fprintf(stderr, "nrt apply: %swriting %s: %s\n", rc == NRT_ENOMEM ? "MemoryError: " : "",
            a->output ? a->output : "<stdout>", err.message);
    return rc == NRT_ENOMEM ? CLI_ROW_ERROR : CLI_USAGE;
  }
  run->rows += in[0]->length;
  run->batches++;
  return CLI_OK;
}

static int input_error(const struct apply_run *run, const struct nrt_error *err) {
  fprintf(stderr, "nrt apply: %s%s: %s\n", err->code == NRT_ENOMEM ? "MemoryError: " : "",
          run->args->input ? run->args->input : "<stdin>", err->message);
  return err->code == NRT_ENOMEM ? CLI_ROW_ERROR : CLI_USAGE;
}

/* Reads, applies and writes batch after batch: the UDF is compiled for the first batch's
 * column types; each batch's results are written before the next batch is read, so memory
 * holds one batch's input and output at a time. */
static int apply_stream(struct apply_run *run) {
  const struct apply_args *a = run->args;
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  run->first_failed = -1;
  struct nrt_io_read_options ro;
  memset(&ro, 0, sizeof ro);
  ro.format = run->in_fmt;
  ro.columns = a->columns;
  ro.n_columns = a->ncolumns;
  ro.batch_rows = a->batch_rows;
  ro.batch_bytes = (uint64_t)a->batch_bytes;
  size_t ncols = a->ncolumns ? a->ncolumns : 1;
  nrt_column *in[MAX_COLUMNS] = {0};
  nrt_io_reader *reader = NULL;
  nrt_io_writer *writer = NULL;
  struct cli_progress *prog = NULL;
  int status = CLI_OK;
  int rc = a->input ? nrt_io_reader_open_path(a->input, &ro, &reader, &err)
                    : nrt_io_reader_open_fd(0, &ro, &reader, &err);
  double t0 = cli_now_ms();
  if (rc == NRT_OK)
    rc = nrt_io_reader_next(reader, in, &err);
  run->read_ms += cli_now_ms() - t0;
  if (rc) {
    err.code = rc;
    status = input_error(run, &err);
    goto done;
  }
  status = compile_for(run, in, ncols);
  if (status)
    goto done;
  struct nrt_io_write_options wo;
  memset(&wo, 0, sizeof wo);
  wo.format = run->out_fmt;
  wo.column_name = run->out_fmt == NRT_IO_CSV ? "result" : NULL;
  rc = nrt_io_writer_open(run->output ? nrt_io_output_fd(run->output) : 1, &wo, &writer, &err);
  if (rc) {
    fprintf(stderr, "nrt apply: %s%s\n", rc == NRT_ENOMEM ? "MemoryError: " : "", err.message);
    status = rc == NRT_ENOMEM ? CLI_ROW_ERROR : CLI_USAGE;
    goto done;
  }
  prog = cli_progress_start_bytes("applying", input_size(a->input));
  while (in[0]) {
    status = apply_batch(run, in, ncols, writer, &prog);
    for (size_t i = 0; i < ncols; i++) {
      nrt_col_release(in[i]);
      in[i] = NULL;
    }
    if (status)
      goto done;
    struct nrt_io_read_info info;
    nrt_io_reader_info(reader, &info);
    cli_progress_bytes(prog, info.bytes);
    t0 = cli_now_ms();
    rc = nrt_io_reader_next(reader, in, &err);
    run->read_ms += cli_now_ms() - t0;
    if (rc) {
      cli_progress_stop(prog);
      prog = NULL;
      err.code = rc;
      status = input_error(run, &err);
      goto done;
    }
  }
  cli_progress_stop(prog);
  prog = NULL;
  t0 = cli_now_ms();
  rc = nrt_io_writer_close(writer, &err);
  writer = NULL;
  if (rc == NRT_OK && run->output) {
    rc = nrt_io_output_commit(run->output, &err);
    run->output = NULL;
  }
  run->write_ms += cli_now_ms() - t0;
  if (rc) {
    fprintf(stderr, "nrt apply: %swriting %s: %s\n", rc == NRT_ENOMEM ? "MemoryError: " : "",
            a->output ? a->output : "<stdout>", err.message);
    status = rc == NRT_ENOMEM ? CLI_ROW_ERROR : CLI_USAGE;
  }
  if (status == CLI_OK && a->errors_null && run->failed_rows > 0 && a->stats)
    fprintf(stderr, "nrt apply: %lld rows raised (first: row %lld); they are null\n",
            (long long)run->failed_rows, (long long)run->first_failed + 1);
done:
  cli_progress_stop(prog); /* NULL unless an error left it running */
  nrt_io_writer_close(writer, NULL);
  nrt_io_output_discard(run->output); /* a failed run leaves -o PATH as it was */
  run->output = NULL;
  for (size_t i = 0; i < ncols; i++)
    nrt_col_release(in[i]);
  nrt_io_reader_free(reader);
  return status;
}

int cli_apply(int argc, char **argv) {
  struct apply_args a;
  int st = parse_args(argc, argv, &a);
  if (st)
    return st < 0 ? CLI_OK : st;
  struct nrt_error err;
  memset(&err, 0, sizeof err);
  enum nrt_io_format in_fmt = NRT_IO_TEXT, out_fmt;
  if (a.in_format && nrt_io_format_parse(a.in_format, &in_fmt, &err))
    return bad_usage("--in-format takes text, csv or jsonl, not '%s'", a.in_format);
  out_fmt = in_fmt;
  if (a.out_format && nrt_io_format_parse(a.out_format, &out_fmt, &err))
    return bad_usage("--out-format takes text, csv or jsonl, not '%s'", a.out_format);
  if (a.ncolumns && in_fmt == NRT_IO_TEXT)
    return bad_usage("%s", "--column needs --in-format csv or jsonl");

  char *src = NULL;
  size_t srclen = 0;
  if (a.udf_path) {
    src = read_file(a.udf_path, &srclen);
    if (!src)
      return CLI_USAGE;
  }
  /* The output is opened first, so an unwritable path fails before any work; it is written
   * to a temporary file that replaces the path only at the end (nrt/io_output.h). */
  nrt_io_output *output = NULL;
  if (a.output && nrt_io_output_open(a.output, &output, &err)) {
    fprintf(stderr, "nrt apply: %scannot write %s\n",
            err.code == NRT_ENOMEM ? "MemoryError: " : "", err.message);
    free(src);
    return err.code == NRT_ENOMEM ? CLI_ROW_ERROR : CLI_USAGE;
  }
  if (a.max_row_bytes)
    nrt_str_set_max_bytes(a.max_row_bytes);

  struct apply_run run;
  memset(&run, 0, sizeof run);
  run.args = &a;
  run.in_fmt = in_fmt;
  run.out_fmt = out_fmt;
  run.source = a.source ? a.source : src;
  run.source_len = a.source ? strlen(a.source) : srclen;
  run.output = output;
  int status = apply_stream(&run);
  if (a.stats && run.udf) {
    fprintf(stderr, "rows: %lld\n", (long long)run.rows);
    fprintf(stderr, "batches: %lld\n", (long long)run.batches);
    fprintf(stderr, "threads: %d\n", run.threads);
    fprintf(stderr, "failed_rows: %lld\n", (long long)run.failed_rows);
    fprintf(stderr, "read_ms: %.3f\n", run.read_ms);
    fprintf(stderr, "run_ms: %.3f\n", run.run_ms);
    fprintf(stderr, "write_ms: %.3f\n", run.write_ms);
    if (run.run_ms > 0)
      fprintf(stderr, "rows_per_s: %.0f\n", (double)run.rows / (run.run_ms / 1000.0));
    print_compile_stats(nrt_udf_info(run.udf));
  }
  nrt_udf_free(run.udf);
  free(src);
  if (a.stats)
    cli_print_runtime_stats();
  return status;
}

double cli_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

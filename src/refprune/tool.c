/* `nrt refprune IN.ll [-o OUT.ll] [--passes LIST] [--stats] [--subgraph-limit N]
 *  [--strict-calls]`. */
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/io_output.h"
#include "refprune/internal.h"

static int usage(const char *prog, const char *why) {
  if (why)
    fprintf(stderr, "%s: %s\n", prog, why);
  fprintf(stderr,
          "usage: %s IN.ll [-o OUT.ll] [--passes per-bb,diamond,fanout,fanout-raise] [--stats]\n"
          "       [--subgraph-limit N] [--strict-calls]\n"
          "Removes redundant incref/decref pairs; reads textual or bitcode IR, writes text.\n",
          prog);
  return 2;
}

static void print_stats(const struct nrt_refprune_stats *s) {
  fprintf(stderr,
          "refprune: normalized %zu, null %zu, per-bb %zu, diamond %zu, fanout %zu, "
          "fanout-raise %zu; increfs removed %zu, decrefs removed %zu\n",
          s->normalized, s->null_removed, s->per_bb, s->diamond, s->fanout, s->fanout_raise,
          s->increfs_removed, s->decrefs_removed);
}

struct tool_args {
  const char *in, *out;
  unsigned passes;
  size_t limit;
  int stats, strict_calls;
};

/* A whole positive decimal number: digits only (strtoull would take "-5" as a huge value),
 * no overflow. */
static bool parse_limit(const char *s, size_t *out) {
  size_t v = 0;
  if (*s < '0' || *s > '9')
    return false;
  for (; *s >= '0' && *s <= '9'; s++) {
    size_t d = (size_t)(*s - '0');
    if (v > (SIZE_MAX - d) / 10)
      return false;
    v = v * 10 + d;
  }
  if (*s || v == 0)
    return false;
  *out = v;
  return true;
}

static int parse_args(int argc, char **argv, struct tool_args *a) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "refprune";
  memset(a, 0, sizeof(*a));
  a->passes = NRT_REFPRUNE_ALL;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (strcmp(arg, "-o") == 0 || strcmp(arg, "--passes") == 0 ||
        strcmp(arg, "--subgraph-limit") == 0) {
      if (i + 1 >= argc)
        return usage(prog, "missing value after an option");
      const char *val = argv[++i];
      if (arg[1] == 'o') {
        a->out = val;
      } else if (arg[2] == 'p') {
        struct nrt_error err = {0};
        if (nrt_refprune_parse_passes(val, &a->passes, &err) != NRT_OK)
          return usage(prog, err.message);
        a->passes |= NRT_REFPRUNE_NORMALIZE | NRT_REFPRUNE_NULL;
      } else if (!parse_limit(val, &a->limit)) {
        return usage(prog, "--subgraph-limit needs a positive integer");
      }
    } else if (strcmp(arg, "--stats") == 0) {
      a->stats = 1;
    } else if (strcmp(arg, "--strict-calls") == 0) {
      a->strict_calls = 1;
    } else if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      usage(prog, NULL);
      return 1;
    } else if (arg[0] == '-' && arg[1] != '\0') {
      return usage(prog, "unknown option");
    } else if (a->in) {
      return usage(prog, "more than one input file");
    } else {
      a->in = arg;
    }
  }
  if (!a->in)
    return usage(prog, "no input file");
  return 0;
}

/* Writes the module's text to `out` (replaced atomically: nrt/io_output.h) or stdout. LLVM's
 * own file output would abort the process on a write error, so nrt writes the text itself. */
static int write_module(LLVMModuleRef mod, const char *out, const char *prog) {
  char *text = LLVMPrintModuleToString(mod);
  size_t len = strlen(text);
  struct nrt_error err = {0};
  int rc = NRT_OK;
  if (out) {
    nrt_io_output *o = NULL;
    rc = nrt_io_output_open(out, &o, &err);
    if (rc == NRT_OK && (rc = nrt_io_output_write(o, text, len, &err)) != NRT_OK)
      nrt_io_output_discard(o);
    else if (rc == NRT_OK)
      rc = nrt_io_output_commit(o, &err);
  } else if (fwrite(text, 1, len, stdout) != len || fflush(stdout) != 0) {
    rc = nrt_error_set(&err, NRT_EIO, "write error: %s", strerror(errno));
  }
  LLVMDisposeMessage(text);
  if (rc) {
    fprintf(stderr, "%s: cannot write %s: %s\n", prog, out ? out : "the output", err.message);
    return 1;
  }
  return 0;
}

int nrt_refprune_tool_main(int argc, char **argv) {
  const char *prog = argc > 0 && argv[0] ? argv[0] : "refprune";
  struct tool_args a;
  int rc = parse_args(argc, argv, &a);
  if (rc != 0)
    return rc == 1 ? 0 : rc;
  LLVMMemoryBufferRef buf = NULL;
  char *msg = NULL;
  if (LLVMCreateMemoryBufferWithContentsOfFile(a.in, &buf, &msg)) {
    fprintf(stderr, "%s: cannot read %s: %s\n", prog, a.in, msg ? msg : "");
    LLVMDisposeMessage(msg);
    return 1;
  }
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = NULL;
  /* Takes ownership of buf; recognises bitcode by its magic number. */
  if (LLVMParseIRInContext(ctx, buf, &mod, &msg)) {
    fprintf(stderr, "%s: %s: %s\n", prog, a.in, msg ? msg : "cannot parse");
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    return 2;
  }
  rc = 0;
  if (LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
    fprintf(stderr, "%s: %s: invalid module: %s\n", prog, a.in, msg ? msg : "");
    rc = 2;
  }
  LLVMDisposeMessage(msg);
  msg = NULL;
  struct nrt_refprune_stats stats;
  if (rc == 0) {
    struct nrt_refprune_config cfg;
    nrt_refprune_config_default(&cfg);
    cfg.passes = a.passes;
    cfg.strict_calls = a.strict_calls;
    if (a.limit)
      cfg.subgraph_limit = a.limit;
    struct nrt_error err = {0};
    if (nrt_refprune_module(mod, &cfg, &stats, &err) != NRT_OK) {
      fprintf(stderr, "%s: %s\n", prog, err.message);
      rc = 1;
    }
  }
  if (rc == 0 && LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg)) {
    /* Never expected: the pass only deletes and moves refcount calls. */
    fprintf(stderr, "%s: internal error, pruned module is invalid: %s\n", prog, msg ? msg : "");
    rc = 3;
  }
  LLVMDisposeMessage(msg);
  if (rc == 0) {
    if (a.stats)
      print_stats(&stats);
    rc = write_module(mod, a.out, prog);
  }
  LLVMDisposeModule(mod);
  LLVMContextDispose(ctx);
  return rc;
}

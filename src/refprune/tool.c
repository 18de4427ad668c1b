/* `nrt refprune IN.ll [-o OUT.ll] [--passes LIST] [--stats] [--subgraph-limit N]
 *  [--strict-calls]`. */
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
      } else {
        char *end = NULL;
        unsigned long long v = strtoull(val, &end, 10);
        if (!*val || *end || v == 0)
          return usage(prog, "--subgraph-limit needs a positive integer");
        a->limit = (size_t)v;
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

static int write_module(LLVMModuleRef mod, const char *out, const char *prog) {
  char *msg = NULL;
  if (out) {
    if (LLVMPrintModuleToFile(mod, out, &msg)) {
      fprintf(stderr, "%s: cannot write %s: %s\n", prog, out, msg ? msg : "");
      LLVMDisposeMessage(msg);
      return 1;
    }
    return 0;
  }
  char *text = LLVMPrintModuleToString(mod);
  size_t len = strlen(text);
  int ok = fwrite(text, 1, len, stdout) == len && fflush(stdout) == 0;
  LLVMDisposeMessage(text);
  if (!ok) {
    fprintf(stderr, "%s: cannot write the output\n", prog);
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

/* The command entry point nrt_refprune_tool_main: usage errors, unreadable / unparsable /
 * invalid input (exit 2 with the verifier's message), textual and bitcode input, -o and stdout
 * output, --passes, --stats. */
#define _POSIX_C_SOURCE 200809L /* dup, fileno */
#include <llvm-c/BitWriter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "nrt/refprune.h"
#include "refprune/rp_util.h"
#include "support/check.h"

static const char *cases_dir;
static char tmp_prefix[256];

static const char *tmp_path(const char *name) {
  static char paths[8][512];
  static int next;
  char *p = paths[next++ % 8];
  snprintf(p, 512, "%s%s", tmp_prefix, name);
  return p;
}

static const char *case_path(const char *name) {
  static char p[1024];
  snprintf(p, sizeof(p), "%s/%s", cases_dir, name);
  return p;
}

/* Runs the tool with stdout and stderr captured into files; returns its status. */
static int run_tool(int argc, const char **argv, const char *out_file, const char *err_file) {
  fflush(stdout);
  fflush(stderr);
  int saved_out = dup(1), saved_err = dup(2);
  FILE *o = fopen(out_file, "w"), *e = fopen(err_file, "w");
  if (!o || !e || saved_out < 0 || saved_err < 0) {
    check_fail(__FILE__, __LINE__, "cannot capture output");
    return -1;
  }
  dup2(fileno(o), 1);
  dup2(fileno(e), 2);
  static char bufs[8][1024];
  char *args[8];
  for (int i = 0; i < argc && i < 8; i++) {
    snprintf(bufs[i], sizeof(bufs[i]), "%s", argv[i]);
    args[i] = bufs[i];
  }
  int rc = nrt_refprune_tool_main(argc, args);
  fflush(stdout);
  fflush(stderr);
  dup2(saved_out, 1);
  dup2(saved_err, 2);
  close(saved_out);
  close(saved_err);
  fclose(o);
  fclose(e);
  return rc;
}

static int file_contains(const char *path, const char *needle) {
  size_t len = 0;
  char *text = rp_test_read_file(path, &len);
  int found = text && strstr(text, needle) != NULL;
  if (text)
    rp_test_free_file(text, len);
  return found;
}

static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

/* Refops left after pruning `path` through the library with all sub-passes. */
static size_t library_count_limit(const char *path, unsigned passes, size_t limit) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = rp_test_load(ctx, path);
  size_t n = (size_t)-1;
  if (mod) {
    struct nrt_refprune_config cfg;
    nrt_refprune_config_default(&cfg);
    cfg.passes = passes;
    cfg.subgraph_limit = limit;
    CHECK_EQ_INT(nrt_refprune_module(mod, &cfg, NULL, NULL), NRT_OK);
    n = rp_test_count_module(mod);
    LLVMDisposeModule(mod);
  }
  LLVMContextDispose(ctx);
  return n;
}

static size_t library_count(const char *path, unsigned passes) {
  return library_count_limit(path, passes, NRT_REFPRUNE_DEFAULT_SUBGRAPH_LIMIT);
}

/* Refops in an output file, which must parse and verify. */
static size_t output_count(const char *path) {
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = rp_test_load(ctx, path);
  size_t n = (size_t)-1;
  CHECK(mod != NULL);
  if (mod) {
    CHECK(rp_test_verify(mod, path));
    n = rp_test_count_module(mod);
    LLVMDisposeModule(mod);
  }
  LLVMContextDispose(ctx);
  return n;
}

static void test_usage(void) {
  const char *out = tmp_path("out.txt"), *err = tmp_path("err.txt");
  const char *none[] = {"refprune"};
  CHECK_EQ_INT(run_tool(1, none, out, err), 2);
  CHECK(file_contains(err, "usage:"));
  const char *bogus[] = {"refprune", "--bogus", case_path("per_bb.ll")};
  CHECK_EQ_INT(run_tool(3, bogus, out, err), 2);
  const char *two[] = {"refprune", case_path("per_bb.ll"), case_path("fanout.ll")};
  CHECK_EQ_INT(run_tool(3, two, out, err), 2);
  const char *bad_pass[] = {"refprune", case_path("per_bb.ll"), "--passes", "per-bb,nope"};
  CHECK_EQ_INT(run_tool(4, bad_pass, out, err), 2);
  CHECK(file_contains(err, "nope"));
  const char *missing_value[] = {"refprune", case_path("per_bb.ll"), "-o"};
  CHECK_EQ_INT(run_tool(3, missing_value, out, err), 2);
  const char *bad_limit[] = {"refprune", case_path("per_bb.ll"), "--subgraph-limit", "0"};
  CHECK_EQ_INT(run_tool(4, bad_limit, out, err), 2);
  const char *help[] = {"refprune", "--help"};
  CHECK_EQ_INT(run_tool(2, help, out, err), 0);
}

static void test_bad_inputs(void) {
  const char *out = tmp_path("out.txt"), *err = tmp_path("err.txt");
  const char *missing[] = {"refprune", tmp_path("does-not-exist.ll")};
  CHECK_EQ_INT(run_tool(2, missing, out, err), 1);
  const char *garbage = tmp_path("garbage.ll");
  write_file(garbage, "define void @f( {\n");
  const char *parse[] = {"refprune", garbage};
  CHECK_EQ_INT(run_tool(2, parse, out, err), 2);
  CHECK(file_contains(err, "error"));
  const char *invalid = tmp_path("invalid.ll");
  write_file(invalid, "define i32 @f(i1 %c) {\n"
                      "entry:\n  br i1 %c, label %a, label %b\n"
                      "a:\n  %x = add i32 1, 2\n  br label %b\n"
                      "b:\n  ret i32 %x\n}\n");
  const char *inv[] = {"refprune", invalid, "-o", tmp_path("never.ll")};
  CHECK_EQ_INT(run_tool(4, inv, out, err), 2);
  CHECK(file_contains(err, "Instruction does not dominate all uses"));
  CHECK(access(tmp_path("never.ll"), F_OK) != 0);
}

static void test_outputs(void) {
  const char *out = tmp_path("out.txt"), *err = tmp_path("err.txt");
  const char *pruned = tmp_path("pruned.ll");
  const char *to_file[] = {"refprune", case_path("per_bb.ll"), "-o", pruned, "--stats"};
  CHECK_EQ_INT(run_tool(5, to_file, out, err), 0);
  CHECK_EQ_INT(output_count(pruned), library_count(case_path("per_bb.ll"), NRT_REFPRUNE_ALL));
  CHECK(file_contains(err, "per-bb 7"));
  /* to stdout */
  const char *to_stdout[] = {"refprune", case_path("diamond.ll")};
  CHECK_EQ_INT(run_tool(2, to_stdout, out, err), 0);
  CHECK_EQ_INT(output_count(out), library_count(case_path("diamond.ll"), NRT_REFPRUNE_ALL));
  /* --passes: per-bb only leaves the diamonds (normalise and null always run) */
  const char *per_bb[] = {"refprune", case_path("diamond.ll"), "--passes", "per-bb", "-o", pruned};
  CHECK_EQ_INT(run_tool(6, per_bb, out, err), 0);
  size_t only_bb = library_count(case_path("diamond.ll"),
                                 NRT_REFPRUNE_PER_BB | NRT_REFPRUNE_NORMALIZE | NRT_REFPRUNE_NULL);
  CHECK_EQ_INT(output_count(pruned), only_bb);
  CHECK(only_bb > library_count(case_path("diamond.ll"), NRT_REFPRUNE_ALL));
  /* bitcode input */
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMModuleRef mod = rp_test_load(ctx, case_path("fanout.ll"));
  CHECK(mod != NULL);
  const char *bc = tmp_path("fanout.bc");
  if (mod) {
    CHECK_EQ_INT(LLVMWriteBitcodeToFile(mod, bc), 0);
    LLVMDisposeModule(mod);
  }
  LLVMContextDispose(ctx);
  const char *bitcode[] = {"refprune", bc, "-o", pruned, "--subgraph-limit", "4"};
  CHECK_EQ_INT(run_tool(6, bitcode, out, err), 0);
  CHECK(file_contains(pruned, "define"));
  CHECK_EQ_INT(output_count(pruned), library_count_limit(case_path("fanout.ll"), NRT_REFPRUNE_ALL, 4));
  CHECK(library_count_limit(case_path("fanout.ll"), NRT_REFPRUNE_ALL, 4) >
        library_count(case_path("fanout.ll"), NRT_REFPRUNE_ALL));
  /* --strict-calls keeps the pair around a call */
  const char *strict[] = {"refprune", case_path("strict.ll"), "--strict-calls", "-o", pruned};
  CHECK_EQ_INT(run_tool(5, strict, out, err), 0);
  const char *loose[] = {"refprune", case_path("strict.ll"), "-o", tmp_path("loose.ll")};
  CHECK_EQ_INT(run_tool(4, loose, out, err), 0);
  CHECK(output_count(pruned) > output_count(tmp_path("loose.ll")));
}

int main(int argc, char **argv) {
  struct check_live before = check_live_now();
  cases_dir = argc > 1 ? argv[1] : "cases";
  snprintf(tmp_prefix, sizeof(tmp_prefix), "rp_tool_%ld_", (long)getpid());
  test_usage();
  test_bad_inputs();
  test_outputs();
  const char *names[] = {"out.txt", "err.txt", "garbage.ll", "invalid.ll", "pruned.ll",
                         "fanout.bc", "loose.ll"};
  for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
    remove(tmp_path(names[i]));
  CHECK_NO_LEAK(before);
  return check_finish("test_refprune_tool");
}

/* The nrt command under hostile input: every numeric option of every subcommand parsed with
 * overflow checks; a row over the string limit (--max-row-bytes) is that row's MemoryError,
 * refused before its memory is allocated (null with --errors null); text output refuses a
 * value holding a line break; running out of memory inside LLVM ends with a MemoryError, never
 * an abort.
 * usage: test_cli_limits NRT REFPRUNE_CASES_DIR */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h" /* src/cli: cli_parse_int */
#include "cli/cli_util.h"
#include "support/check.h"

static const char *nrt, *cases;
static char dir[256], abc_path[512], words_path[512];

/* Runs nrt with up to 12 arguments (NULL-terminated list). */
static void run(struct cli_result *r, const struct cli_run_options *o, ...) {
  const char *argv[16] = {nrt};
  va_list ap;
  va_start(ap, o);
  int n = 1;
  for (const char *a; n < 15 && (a = va_arg(ap, const char *)) != NULL;)
    argv[n++] = a;
  va_end(ap);
  argv[n] = NULL;
  cli_run(argv, dir, o, r);
}

/* The run ended with `status` (not by a signal) and said `needle` on stderr. */
static void expect(const struct cli_result *r, int status, const char *needle, int line) {
  if (r->signal || r->status != status || (*needle && !strstr(r->err, needle)))
    check_failf(__FILE__, line, "expected exit %d and '%s'; got exit %d, signal %d: %s", status,
                needle, r->status, r->signal, r->err);
  else
    check_pass();
}
#define EXPECT(r, status, needle) expect(r, status, needle, __LINE__)

/* The parser every numeric option of nrt apply and nrt demo goes through (src/cli/args.c). */
static void test_parse_int(void) {
  int64_t v = -1;
  static const char *bad[] = {"99999999999999999999", "18446744073709551616", "-5", "abc", "0",
                              "", "1x", " 3", "3 ", "+3", "0x10", "1e3", "9223372036854775808"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    if (cli_parse_int(bad[i], 1, INT64_MAX, false, &v))
      check_failf(__FILE__, __LINE__, "'%s' parsed as %lld", bad[i], (long long)v);
  CHECK(cli_parse_int("9223372036854775807", 1, INT64_MAX, false, &v) && v == INT64_MAX);
  CHECK(cli_parse_int("4096", 1, 4096, false, &v) && v == 4096);
  CHECK(!cli_parse_int("4097", 1, 4096, false, &v));
  CHECK(!cli_parse_int("0", 1, 4096, false, &v));
  CHECK(cli_parse_int("0", 0, 4096, false, &v) && v == 0);
  CHECK(!cli_parse_int("1K", 1, INT64_MAX, false, &v)); /* suffixes only where allowed */
  CHECK(cli_parse_int("1K", 1, INT64_MAX, true, &v) && v == 1024);
  CHECK(cli_parse_int("3M", 1, INT64_MAX, true, &v) && v == 3 << 20);
  CHECK(cli_parse_int("2G", 1, INT64_MAX, true, &v) && v == 2LL << 30);
  CHECK(!cli_parse_int("2G", 1, INT32_MAX, true, &v));
  CHECK(cli_parse_int("8589934591G", 1, INT64_MAX, true, &v) && v == 8589934591LL << 30);
  CHECK(!cli_parse_int("8589934592G", 1, INT64_MAX, true, &v)); /* 2^63: past int64 */
  CHECK(!cli_parse_int("17179869184G", 1, INT64_MAX, true, &v)); /* 2^64: wraps in uint64 */
  static const char *bad_suffix[] = {"1KK", "5X", "1k", "K", "1 K", "1G5"};
  for (size_t i = 0; i < sizeof bad_suffix / sizeof bad_suffix[0]; i++)
    CHECK(!cli_parse_int(bad_suffix[i], 1, INT64_MAX, true, &v));
}

/* Every numeric option of every subcommand rejects an overflowing, negative or malformed
 * value with a usage error (exit 2) naming the option. */
static void test_numeric_options(void) {
  char ll[1024];
  snprintf(ll, sizeof ll, "%s/per_bb.ll", cases);
  static const char *bad[] = {"99999999999999999999", "-5", "abc", "0"};
  struct cli_result r;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    /* one subcommand per value keeps the runs few; refprune has its own parser: all four */
    switch (i) {
    case 0: run(&r, NULL, "demo", "--rows", bad[i], NULL); break;
    case 1: run(&r, NULL, "demo", "--threads", bad[i], NULL); break;
    case 2: run(&r, NULL, "apply", "-e", "lambda s: s", abc_path, "--threads", bad[i], NULL); break;
    default:
      run(&r, NULL, "apply", "-e", "lambda s: s", abc_path, "--max-row-bytes", bad[i], NULL);
    }
    EXPECT(&r, 2, "needs a number");
    cli_result_free(&r);
    run(&r, NULL, "refprune", ll, "--subgraph-limit", bad[i], NULL);
    EXPECT(&r, 2, "--subgraph-limit needs a positive integer");
    cli_result_free(&r);
  }
  run(&r, NULL, "refprune", ll, "--subgraph-limit", "18446744073709551616", NULL);
  EXPECT(&r, 2, "--subgraph-limit needs a positive integer");
  cli_result_free(&r);
  run(&r, NULL, "demo", "--rows", "100000001", NULL);
  EXPECT(&r, 2, "--rows needs a number from 1 to 100000000");
  cli_result_free(&r);
  run(&r, NULL, "apply", "-e", "lambda s: s", abc_path, "--max-row-bytes", "2G", NULL);
  EXPECT(&r, 2, "--max-row-bytes needs a number of bytes from 1 to 2147483647");
  cli_result_free(&r);
  run(&r, NULL, "demo", "--rows", "100", "--threads", "2", NULL);
  EXPECT(&r, 0, "");
  CHECK(strstr(r.out, "balanced: yes") != NULL);
  cli_result_free(&r);
}

static void test_row_limit(void) {
  struct cli_result r;
  /* Refused before allocating: fast, and within a 4 GiB address space (the 5 GB row is never
   * made). Sanitizers reserve terabytes of address space, so no limit there. */
  struct cli_run_options small = {0};
#ifndef NRT_UNDER_SANITIZER
  small.as_limit = 4ULL << 30;
#endif
  run(&r, &small, "apply", "-e", "lambda s: s * 10**9", words_path, NULL);
  EXPECT(&r, 1, "row 1: MemoryError: ");
  CHECK(strstr(r.err, "over the limit of 2147483647 bytes") != NULL);
  CHECK(strstr(r.err, "--max-row-bytes") != NULL);
  CHECK(r.ms < 20000);
  cli_result_free(&r);
  /* --errors null: that row is null and the run goes on (exit 0) */
  run(&r, &small, "apply", "-e", "lambda s: s * 10**9 if s == 'world' else s", words_path,
      "--errors", "null", "--out-format", "jsonl", NULL);
  EXPECT(&r, 0, "");
  CHECK_EQ_STR(r.out, "\"hello\"\nnull\n\"again\"\n");
  cli_result_free(&r);
  /* a configured limit: a row of 100 bytes passes, 101 do not, in the write form (the row
   * written in place) and through a string made inside the row (len of it) */
  run(&r, NULL, "apply", "-e", "lambda s: s * 100", abc_path, "--max-row-bytes", "100", NULL);
  EXPECT(&r, 0, "");
  cli_result_free(&r);
  run(&r, NULL, "apply", "-e", "lambda s: s * 101", abc_path, "--max-row-bytes", "100", NULL);
  EXPECT(&r, 1, "row 1: MemoryError: ");
  CHECK(strstr(r.err, "over the limit of 100 bytes") != NULL);
  cli_result_free(&r);
  run(&r, NULL, "apply", "-e", "lambda s: str(len(s * 101))", abc_path, "--max-row-bytes", "100",
      NULL);
  EXPECT(&r, 1, "row 1: MemoryError: a string of 101 bytes is over the limit of 100 bytes");
  cli_result_free(&r);
  run(&r, &small, "apply", "-e", "lambda s: s.ljust(10**10)", abc_path, NULL);
  EXPECT(&r, 1, "row 1: MemoryError: ");
  cli_result_free(&r);
  const char *grow = "def f(s):\n    r = s\n    for i in range(64):\n        r += r\n    return r\n";
  run(&r, NULL, "apply", "-e", grow, abc_path, "--errors", "null", "--max-row-bytes", "1M",
      NULL);
  EXPECT(&r, 0, "");
  CHECK_EQ_STR(r.out, "\n\n\n");
  cli_result_free(&r);
}

static void test_text_output(void) {
  struct cli_result r;
  run(&r, NULL, "apply", "-e", "lambda s: s + '\\n!' if s == 'b' else s", abc_path, NULL);
  EXPECT(&r, 2, "row 2: the value holds a line break");
  CHECK_EQ_STR(r.out, ""); /* refused before anything is written */
  cli_result_free(&r);
  run(&r, NULL, "apply", "-e", "lambda s: s + '\\n!' if s == 'b' else s", abc_path,
      "--out-format", "csv", NULL);
  EXPECT(&r, 0, "");
  CHECK_EQ_STR(r.out, "result\na\n\"b\n!\"\nc\n");
  cli_result_free(&r);
}

/* Under address-space limits from what the process needs to reach main up to what a run needs,
 * every run ends with an exit status: running out inside LLVM (operator new, LLVM's own
 * allocation reports, the JIT's section memory) or inside nrt is a MemoryError (exit 1), never
 * an abort. */
static void test_llvm_out_of_memory(void) {
#if defined(NRT_UNDER_SANITIZER)
  return; /* the sanitizers' shadow memory needs an unlimited address space */
#else
  if (getenv("NRT_UNDER_VALGRIND"))
    return;
  /* A UDF with some code to optimise, so the compiler's memory is a band some MiB wide. */
  char udf[4096];
  size_t n = (size_t)snprintf(udf, sizeof udf, "def f(s):\n    r = ''\n");
  for (int i = 0; i < 8; i++)
    n += (size_t)snprintf(udf + n, sizeof udf - n,
                          "    if len(s) > %d:\n        r += s.upper()[%d:] + str(len(r))\n", i,
                          i % 3);
  snprintf(udf + n, sizeof udf - n, "    return r\n");
  struct cli_result r;
  struct cli_run_options o = {0};
  /* The least limit at which the process gets to main: below it the loader cannot map the
   * libraries (exit 127) or LLVM's static constructors run out before main, where no handler
   * can be installed yet (an abort, outside nrt's reach). Found with `nrt --help`. */
  unsigned long long lo = 32ULL << 20, hi = 1ULL << 30;
  while (hi - lo > (1ULL << 20)) {
    o.as_limit = lo + (hi - lo) / 2;
    run(&r, &o, "--help", NULL);
    if (r.status == 0)
      hi = o.as_limit;
    else
      lo = o.as_limit;
    cli_result_free(&r);
  }
  /* From there (and a margin), the least limit at which the apply succeeds; every probe is
   * checked. */
  const unsigned long long floor = hi + (1ULL << 20);
  lo = floor;
  hi = 1ULL << 30;
  int probes = 0, memory_errors = 0, in_llvm = 0;
  while (hi - lo > (1ULL << 20)) {
    o.as_limit = lo + (hi - lo) / 2;
    run(&r, &o, "apply", "-e", udf, abc_path, "--threads", "1", NULL);
    probes++;
    if (r.status == 0) {
      hi = o.as_limit;
    } else {
      lo = o.as_limit;
      if (r.signal || r.status != 1 || !strstr(r.err, "MemoryError"))
        check_failf(__FILE__, __LINE__, "at %llu bytes: exit %d, signal %d: %s", o.as_limit,
                    r.status, r.signal, r.err);
      memory_errors++;
      in_llvm += strstr(r.err, "out of memory in LLVM") != NULL;
    }
    cli_result_free(&r);
  }
  /* Then spread over the whole band below the success threshold. */
  for (unsigned long long k = 1; k <= 8 && hi > floor; k++) {
    o.as_limit = floor + (hi - floor) * k / 9;
    run(&r, &o, "apply", "-e", udf, abc_path, "--threads", "1", NULL);
    probes++;
    if (r.status == 1 && strstr(r.err, "MemoryError")) {
      memory_errors++;
      in_llvm += strstr(r.err, "out of memory in LLVM") != NULL;
    } else if (r.status != 0) {
      check_failf(__FILE__, __LINE__, "at %llu bytes: exit %d, signal %d: %s", o.as_limit,
                  r.status, r.signal, r.err);
    }
    cli_result_free(&r);
  }
  printf("out of memory: %d runs, %d MemoryErrors (%d inside LLVM), succeeds from %llu KiB\n",
         probes, memory_errors, in_llvm, hi >> 10);
  CHECK(in_llvm > 0); /* the sweep did reach LLVM's allocations */
#endif
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_cli_limits NRT REFPRUNE_CASES_DIR\n");
    return 2;
  }
  nrt = argv[1];
  cases = argv[2];
  snprintf(dir, sizeof dir, "cli_limits_%ld", (long)getpid());
  CHECK_EQ_INT(mkdir(dir, 0755), 0);
  snprintf(abc_path, sizeof abc_path, "%s/abc.txt", dir);
  CHECK(cli_write_file(abc_path, "a\nb\nc\n", 6));
  snprintf(words_path, sizeof words_path, "%s/words.txt", dir);
  CHECK(cli_write_file(words_path, "hello\nworld\nagain\n", 18));
  test_parse_int();
  test_numeric_options();
  test_row_limit();
  test_text_output();
  test_llvm_out_of_memory();
  remove(abc_path);
  remove(words_path);
  rmdir(dir);
  return check_finish("test_cli_limits");
}

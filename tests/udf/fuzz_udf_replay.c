/* The UDF fuzzer's harness (fuzz_udf_compile.c) replayed over its checked-in seed corpus in
 * every build, not only libFuzzer builds: each seed must compile, run on the harness's rows
 * and keep its invariants (no crash, statistics balanced, write form equal to value form), so
 * the seeds of new constructs (dicts, sets, mutable lists, try/finally, re) are known good.
 * usage: fuzz_udf_replay FILE... [--any FILE...]  (those after --any may fail to compile:
 * seeds that reach a compile error on purpose) */
#include <string.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "nrt/udf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int main(int argc, char **argv) {
  int compiled = 0;
  bool any = false;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--any") == 0) {
      any = true;
      continue;
    }
    FILE *f = fopen(argv[i], "rb");
    if (!f) {
      fprintf(stderr, "fuzz_udf_replay: cannot open %s\n", argv[i]);
      return 1;
    }
    static uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, f);
    fclose(f);
    nrt_udf *u = NULL;
    struct nrt_error err;
    if (nrt_udf_compile((const char *)buf, n, NULL, &u, &err) != NRT_OK && !any) {
      fprintf(stderr, "fuzz_udf_replay: %s does not compile: %s\n", argv[i], err.message);
      return 1; /* a seed must reach the code generator and the rows */
    }
    compiled += u != NULL;
    nrt_udf_free(u);
    LLVMFuzzerTestOneInput(buf, n); /* aborts when an invariant breaks */
  }
  printf("fuzz_udf_replay: %d seeds compiled, run and checked\n", compiled);
  return 0;
}

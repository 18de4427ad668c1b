/* nrt: the command line. `nrt apply`, `nrt refprune`, `nrt demo`. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "nrt/refprune.h"

static void usage(FILE *f) {
  fputs("usage: nrt apply UDF [INPUT] [options]   run a Python-syntax UDF over a column\n"
        "       nrt apply -e 'SOURCE' [INPUT] [options]\n"
        "       nrt refprune IN.ll [-o OUT.ll] [--passes LIST] [--stats]\n"
        "       nrt demo [--rows N] [--threads N]   the seed UDF over a multilingual sample\n"
        "run `nrt apply --help` for the apply options\n",
        f);
}

int main(int argc, char **argv) {
  cli_install_handlers();
  if (argc < 2) {
    usage(stderr);
    return CLI_USAGE;
  }
  const char *cmd = argv[1];
  if (strcmp(cmd, "apply") == 0)
    return cli_apply(argc - 1, argv + 1);
  if (strcmp(cmd, "refprune") == 0)
    return nrt_refprune_tool_main(argc - 1, argv + 1);
  if (strcmp(cmd, "demo") == 0)
    return cli_demo(argc - 1, argv + 1);
  if (strcmp(cmd, "-h") == 0 || strcmp(cmd, "--help") == 0 || strcmp(cmd, "help") == 0) {
    usage(stdout);
    return 0;
  }
  fprintf(stderr, "nrt: unknown command '%s'\n", cmd);
  usage(stderr);
  return CLI_USAGE;
}

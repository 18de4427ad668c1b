/* A stand-alone `refprune` command for tests and benchmarks: the same entry point that the nrt
 * executable dispatches `nrt refprune` to. */
#include "nrt/refprune.h"

int main(int argc, char **argv) { return nrt_refprune_tool_main(argc, argv); }

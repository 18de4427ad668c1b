/* A program outside the nrt tree, built against an installed nrt. */
#include <nrt/core.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  nrt_meminfo *mi;
  struct nrt_error err = {0};
  if (nrt_mi_alloc(6, &mi, &err) != NRT_OK) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  memcpy(nrt_mi_data(mi), "hello", 6);
  int ok = strcmp(nrt_mi_data(mi), "hello") == 0 && nrt_mi_refcount(mi) == 1;
  nrt_mi_decref(mi);
  return ok && nrt_stats_live_meminfos() == 0 ? 0 : 1;
}

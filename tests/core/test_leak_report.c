/* Debug tracking of live MemInfos and the leak report. */
#define _GNU_SOURCE /* open_memstream */
#include "support/check.h"

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  CHECK_EQ_INT(nrt_debug_live_count(), 0);
  CHECK_EQ_INT(nrt_debug_track(1), 0);
  nrt_meminfo *keep[3000];
  for (int i = 0; i < 3000; i++)
    CHECK_EQ_INT(nrt_mi_alloc((size_t)i, &keep[i], NULL), NRT_OK);
  CHECK_EQ_INT(nrt_debug_live_count(), 3000);
  for (int i = 0; i < 3000; i += 2)
    nrt_mi_decref(keep[i]);
  CHECK_EQ_INT(nrt_debug_live_count(), 1500);

  char *text = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&text, &len);
  CHECK_EQ_INT(nrt_debug_report(f), 1500);
  fclose(f);
  /* One line per live object, naming its size and where it was allocated. */
  size_t lines = 0;
  for (size_t i = 0; i < len; i++)
    lines += text[i] == '\n';
  CHECK_EQ_INT(lines, 1500);
  CHECK(strstr(text, "size 2999 refcount 1") != NULL);
  CHECK(strstr(text, "allocated at main") != NULL || strstr(text, "allocated at test_core_leak_report") != NULL);
  free(text);

  for (int i = 1; i < 3000; i += 2)
    nrt_mi_decref(keep[i]);
  CHECK_EQ_INT(nrt_debug_live_count(), 0);
  CHECK_EQ_INT(nrt_debug_track(0), 1);
  /* Objects made while tracking was off are not listed. */
  nrt_meminfo *untracked;
  CHECK_EQ_INT(nrt_mi_alloc(1, &untracked, NULL), NRT_OK);
  CHECK_EQ_INT(nrt_debug_live_count(), 0);
  nrt_mi_decref(untracked);
  return check_finish("test_core_leak_report");
}

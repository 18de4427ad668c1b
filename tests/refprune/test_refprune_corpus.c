/* Real IR: the Numba corpus (tools/numba_ir/corpus, made by dump_numba_ir.py). Prunes every
 * file, requires the verifier to pass and refops to be removed, and prints a table.
 *
 *   test_refprune_corpus CORPUS_DIR [--llvmlite PYTHON SCRIPT]
 *
 * With --llvmlite it also runs llvmlite's refprune on the same files (PYTHON SCRIPT FILES...,
 * see tools/numba_ir/llvmlite_prune.py), prints both counts side by side and requires nrt's
 * pass to remove at least as many refops in total as llvmlite's. */
#define _POSIX_C_SOURCE 200809L /* popen */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nrt/refprune.h"
#include "refprune/rp_util.h"
#include "support/check.h"

#define MAX_FILES 64

struct row {
  char name[128];
  size_t before, after, llvmlite_after;
  struct nrt_refprune_stats st;
  int have_llvmlite;
};

static int cmp_names(const void *a, const void *b) {
  return strcmp(((const struct row *)a)->name, ((const struct row *)b)->name);
}

static int list_corpus(const char *dir, struct row *rows) {
  DIR *d = opendir(dir);
  if (!d)
    return 0;
  int n = 0;
  for (struct dirent *e = readdir(d); e && n < MAX_FILES; e = readdir(d)) {
    size_t len = strlen(e->d_name);
    if (len > 3 && len < sizeof(rows[n].name) && strcmp(e->d_name + len - 3, ".ll") == 0) {
      memset(&rows[n], 0, sizeof(rows[n]));
      memcpy(rows[n].name, e->d_name, len + 1);
      n++;
    }
  }
  closedir(d);
  qsort(rows, (size_t)n, sizeof(rows[0]), cmp_names);
  return n;
}

static void run_llvmlite(const char *python, const char *script, const char *dir, struct row *rows,
                         int n) {
  size_t cap = 64 + strlen(python) + strlen(script) + (size_t)n * (strlen(dir) + 140);
  char *cmd = malloc(cap);
  CHECK(cmd != NULL);
  if (!cmd)
    return;
  int off = snprintf(cmd, cap, "'%s' '%s'", python, script);
  for (int i = 0; i < n; i++)
    off += snprintf(cmd + off, cap - (size_t)off, " '%s/%s'", dir, rows[i].name);
  FILE *p = popen(cmd, "r");
  CHECK(p != NULL);
  char line[1024];
  while (p && fgets(line, sizeof(line), p)) {
    char path[768];
    size_t before, after;
    if (sscanf(line, "%767s %zu %zu", path, &before, &after) != 3)
      continue;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (int i = 0; i < n; i++)
      if (strcmp(rows[i].name, base) == 0) {
        CHECK_EQ_INT(before, rows[i].before);
        rows[i].llvmlite_after = after;
        rows[i].have_llvmlite = 1;
      }
  }
  if (p)
    CHECK_EQ_INT(pclose(p), 0);
  free(cmd);
}

int main(int argc, char **argv) {
  struct check_live before = check_live_now();
  const char *dir = argc > 1 ? argv[1] : "corpus";
  static struct row rows[MAX_FILES];
  int n = list_corpus(dir, rows);
  CHECK(n >= 12);
  size_t total_before = 0, total_after = 0, total_llvmlite = 0;
  for (int i = 0; i < n; i++) {
    char path[4096];
    if (snprintf(path, sizeof(path), "%s/%s", dir, rows[i].name) >= (int)sizeof(path)) {
      CHECK(!"path too long");
      continue;
    }
    LLVMContextRef ctx = LLVMContextCreate();
    LLVMModuleRef mod = rp_test_load(ctx, path);
    CHECK(mod != NULL);
    if (mod) {
      CHECK(rp_test_verify(mod, rows[i].name));
      rows[i].before = rp_test_count_module(mod);
      CHECK_EQ_INT(nrt_refprune_module(mod, NULL, &rows[i].st, NULL), NRT_OK);
      CHECK(rp_test_verify(mod, rows[i].name));
      rows[i].after = rp_test_count_module(mod);
      CHECK_EQ_INT(rows[i].before - rows[i].after,
                   rows[i].st.increfs_removed + rows[i].st.decrefs_removed);
      CHECK(rows[i].after < rows[i].before);
      LLVMDisposeModule(mod);
    }
    LLVMContextDispose(ctx);
    total_before += rows[i].before;
    total_after += rows[i].after;
  }
  int compare = argc > 4 && strcmp(argv[2], "--llvmlite") == 0;
  if (compare)
    run_llvmlite(argv[3], argv[4], dir, rows, n);
  printf("%-24s %7s %8s %8s %7s %7s %7s %7s %5s\n", "file", "refops", "nrt_left", "llvmlite",
         "per-bb", "diamond", "fanout", "f-raise", "null");
  for (int i = 0; i < n; i++) {
    char lite[32] = "-";
    if (rows[i].have_llvmlite) {
      snprintf(lite, sizeof(lite), "%zu", rows[i].llvmlite_after);
      total_llvmlite += rows[i].llvmlite_after;
    }
    printf("%-24s %7zu %8zu %8s %7zu %7zu %7zu %7zu %5zu\n", rows[i].name, rows[i].before,
           rows[i].after, lite, rows[i].st.per_bb, rows[i].st.diamond, rows[i].st.fanout,
           rows[i].st.fanout_raise, rows[i].st.null_removed);
  }
  printf("total: %zu refops, nrt removes %zu", total_before, total_before - total_after);
  if (compare) {
    printf(", llvmlite removes %zu", total_before - total_llvmlite);
    for (int i = 0; i < n; i++)
      CHECK(rows[i].have_llvmlite);
    CHECK(total_after <= total_llvmlite);
  }
  printf("\n");
  CHECK_NO_LEAK(before);
  return check_finish(compare ? "test_refprune_vs_llvmlite" : "test_refprune_corpus");
}

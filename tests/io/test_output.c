/* Atomic output files (nrt/io_output.h) and nrt_io_write_path built on them: commit replaces
 * the file whole, discard and every failure leave it as it was, no temporary file survives,
 * permissions and symbolic links are kept, devices are written in place, and allocation
 * failures leak nothing. */
#define _POSIX_C_SOURCE 200809L /* symlink, lstat */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nrt/column.h"
#include "nrt/io.h"
#include "nrt/io_output.h"
#include "support/check.h"

static char dir[128];

static const char *path(const char *name) {
  static char p[4][256];
  static int next;
  char *s = p[next++ % 4];
  snprintf(s, 256, "%s/%s", dir, name);
  return s;
}

static void put(const char *name, const char *text) {
  FILE *f = fopen(path(name), "w");
  CHECK(f != NULL);
  if (f) {
    fputs(text, f);
    fclose(f);
  }
}

static bool holds(const char *name, const char *text) {
  char buf[256] = {0};
  FILE *f = fopen(path(name), "r");
  if (!f)
    return false;
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  return n == strlen(text) && memcmp(buf, text, n) == 0;
}

/* Entries of the directory besides . and .. */
static int entries(void) {
  DIR *d = opendir(dir);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d)))
    n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
  if (d)
    closedir(d);
  return n;
}

static void test_commit_and_discard(void) {
  struct nrt_error err = {0};
  nrt_io_output *o;
  /* a new file */
  CHECK_EQ_INT(nrt_io_output_open(path("new.txt"), &o, &err), NRT_OK);
  CHECK(access(path("new.txt"), F_OK) != 0); /* nothing at the path until the commit */
  CHECK_EQ_INT(nrt_io_output_write(o, "fresh\n", 6, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_commit(o, &err), NRT_OK);
  CHECK(holds("new.txt", "fresh\n"));
  mode_t mask = umask(0);
  umask(mask);
  struct stat st;
  CHECK(stat(path("new.txt"), &st) == 0 && (st.st_mode & 0777) == (0666 & ~mask));
  /* an existing file: discard keeps it, commit replaces it and keeps its mode */
  put("old.txt", "old\n");
  CHECK_EQ_INT(chmod(path("old.txt"), 0604), 0);
  CHECK_EQ_INT(nrt_io_output_open(path("old.txt"), &o, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_write(o, "half", 4, &err), NRT_OK);
  CHECK_EQ_INT(entries(), 3); /* new.txt, old.txt and the temporary file */
  nrt_io_output_discard(o);
  CHECK(holds("old.txt", "old\n"));
  CHECK_EQ_INT(entries(), 2);
  CHECK_EQ_INT(nrt_io_output_open(path("old.txt"), &o, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_write(o, "new\n", 4, &err), NRT_OK);
  CHECK(holds("old.txt", "old\n"));
  CHECK_EQ_INT(nrt_io_output_commit(o, &err), NRT_OK);
  CHECK(holds("old.txt", "new\n"));
  CHECK(stat(path("old.txt"), &st) == 0 && (st.st_mode & 0777) == 0604);
  CHECK_EQ_INT(entries(), 2);
  /* a symbolic link: the file it names is replaced, the link stays */
  CHECK_EQ_INT(symlink("old.txt", path("link.txt")), 0);
  CHECK_EQ_INT(nrt_io_output_open(path("link.txt"), &o, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_write(o, "linked\n", 7, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_commit(o, &err), NRT_OK);
  CHECK(lstat(path("link.txt"), &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(holds("old.txt", "linked\n"));
  CHECK_EQ_INT(entries(), 3);
  remove(path("link.txt"));
  remove(path("new.txt"));
  remove(path("old.txt"));
}

static void test_special_and_errors(void) {
  struct nrt_error err = {0};
  nrt_io_output *o = NULL;
  /* a device is written in place */
  CHECK_EQ_INT(nrt_io_output_open("/dev/null", &o, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_write(o, "x", 1, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_commit(o, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_open("/dev/full", &o, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_write(o, "x", 1, &err), NRT_EIO);
  CHECK(strstr(err.message, "No space left on device") != NULL);
  nrt_io_output_discard(o);
  /* a directory, a missing directory, bad arguments */
  CHECK_EQ_INT(nrt_io_output_open(dir, &o, &err), NRT_EIO);
  CHECK(o == NULL);
  CHECK_EQ_INT(nrt_io_output_open(path("missing/x.txt"), &o, &err), NRT_EIO);
  CHECK(strstr(err.message, "cannot create a temporary file") != NULL);
  CHECK_EQ_INT(nrt_io_output_open(NULL, &o, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_output_open("", &o, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_output_open("x", NULL, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_output_commit(NULL, &err), NRT_EINVAL);
  CHECK_EQ_INT(nrt_io_output_fd(NULL), -1);
  nrt_io_output_discard(NULL);
  CHECK_EQ_INT(entries(), 0);
}

/* What a signal handler does: the temporary files go, the old file stays. */
static void test_remove_temps(void) {
  struct nrt_error err = {0};
  put("kept.txt", "kept\n");
  nrt_io_output *a, *b;
  CHECK_EQ_INT(nrt_io_output_open(path("kept.txt"), &a, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_open(path("other.txt"), &b, &err), NRT_OK);
  CHECK_EQ_INT(nrt_io_output_write(a, "partial", 7, &err), NRT_OK);
  CHECK_EQ_INT(entries(), 3);
  nrt_io_output_remove_temps();
  CHECK_EQ_INT(entries(), 1);
  CHECK(holds("kept.txt", "kept\n"));
  nrt_io_output_discard(a);
  nrt_io_output_discard(b);
  /* the registry's slots are free again: seventeen outputs at once still work */
  nrt_io_output *many[17];
  char name[32];
  for (int i = 0; i < 17; i++) {
    snprintf(name, sizeof name, "m%d.txt", i);
    CHECK_EQ_INT(nrt_io_output_open(path(name), &many[i], &err), NRT_OK);
  }
  CHECK_EQ_INT(entries(), 18);
  for (int i = 0; i < 17; i++)
    nrt_io_output_discard(many[i]);
  CHECK_EQ_INT(entries(), 1);
  remove(path("kept.txt"));
}

static nrt_column *strings(const char *const *v, int n) {
  nrt_col_builder *b;
  nrt_column *col = NULL;
  if (nrt_col_builder_new(NRT_COL_UTF8, n, &b, NULL))
    return NULL;
  for (int i = 0; i < n; i++)
    nrt_col_builder_append_view(b, v[i], (int64_t)strlen(v[i]));
  nrt_col_builder_finish(b, &col, NULL);
  return col;
}

static void test_write_path(void) {
  struct nrt_error err = {0};
  const char *good[] = {"a", "b"}, *bad[] = {"a", "b\nc"};
  nrt_column *g = strings(good, 2), *x = strings(bad, 2);
  put("col.txt", "before\n");
  CHECK_EQ_INT(nrt_io_write_path(path("col.txt"), x, NULL, &err), NRT_EINVAL);
  CHECK(holds("col.txt", "before\n"));
  CHECK_EQ_INT(entries(), 1);
  CHECK_EQ_INT(nrt_io_write_path(path("col.txt"), g, NULL, &err), NRT_OK);
  CHECK(holds("col.txt", "a\nb\n"));
  nrt_col_release(g);
  nrt_col_release(x);
  remove(path("col.txt"));
}

static nrt_column *trial_col;
static int write_trial(void *ctx) {
  (void)ctx;
  int rc = nrt_io_write_path(path("fail.txt"), trial_col, NULL, NULL);
  if (rc != NRT_OK) { /* a failed write leaves the file and the directory as they were */
    CHECK(holds("fail.txt", "unchanged\n"));
    CHECK_EQ_INT(entries(), 1);
  }
  return rc;
}

int main(void) {
  snprintf(dir, sizeof dir, "io_output_%ld", (long)getpid());
  CHECK_EQ_INT(mkdir(dir, 0755), 0);
  struct check_live before = check_live_now();
  test_commit_and_discard();
  test_special_and_errors();
  test_remove_temps();
  test_write_path();
  const char *v[] = {"x", "yy"};
  trial_col = strings(v, 2);
  put("fail.txt", "unchanged\n");
  check_every_allocation_failure("nrt_io_write_path", write_trial, NULL);
  nrt_col_release(trial_col);
  CHECK(holds("fail.txt", "x\nyy\n"));
  CHECK_EQ_INT(entries(), 1);
  remove(path("fail.txt"));
  CHECK_NO_LEAK(before);
  rmdir(dir);
  return check_finish("test_io_output");
}

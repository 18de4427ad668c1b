/* `nrt apply -o PATH` and `nrt refprune -o PATH` replace PATH atomically: a SIGINT or SIGTERM
 * sent at random points of the write phase (50 trials), a row error, a compile error, a full
 * file system (RLIMIT_FSIZE) and a device that is full (/dev/full) leave PATH with exactly its
 * old bytes and no temporary file behind; a finished run leaves exactly the new bytes, with the
 * old file's permissions, through a symbolic link too.
 * usage: test_cli_output NRT REFPRUNE_CASES_DIR */
#define _POSIX_C_SOURCE 200809L /* kill, nanosleep, lstat, symlink */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "support/check.h"

static const char *nrt, *cases;
static char work[256], capture[256], in_path[512], out_path[512];

static const char old_bytes[] = "the old contents\nof the output\n";

#define ROWS 2000
#define REPEAT 200 /* output ~7.6 MB: a write phase of some milliseconds */

static char *path_in(const char *dir, const char *name) {
  static char paths[4][512];
  static int next;
  char *p = paths[next++ % 4];
  snprintf(p, 512, "%s/%s", dir, name);
  return p;
}

/* Files in the work directory other than the input, the output and the link. */
static int stray_files(void) {
  DIR *d = opendir(work);
  int n = 0;
  struct dirent *e;
  while (d && (e = readdir(d))) {
    const char *s = e->d_name;
    if (strcmp(s, ".") && strcmp(s, "..") && strcmp(s, "in.txt") && strcmp(s, "out.txt") &&
        strcmp(s, "link.txt")) {
      fprintf(stderr, "stray file: %s\n", s);
      n++;
    }
  }
  if (d)
    closedir(d);
  return n;
}

/* True once the command has started writing: a temporary file with bytes in it, or (writing
 * in place) the output no longer its old size. */
static bool writing_started(void) {
  struct stat st;
  if (stat(out_path, &st) == 0 && st.st_size != (off_t)(sizeof old_bytes - 1))
    return true;
  DIR *d = opendir(work);
  bool started = false;
  struct dirent *e;
  while (d && !started && (e = readdir(d))) {
    if (strncmp(e->d_name, ".out.txt.", 9) == 0 && stat(path_in(work, e->d_name), &st) == 0 &&
        st.st_size > 0)
      started = true;
  }
  if (d)
    closedir(d);
  return started;
}

static bool output_is(const char *bytes, size_t len) {
  size_t n;
  char *got = cli_read_file(out_path, &n);
  bool same = got && n == len && memcmp(got, bytes, len) == 0;
  free(got);
  return same;
}

static void reset_output(void) { CHECK(cli_write_file(out_path, old_bytes, sizeof old_bytes - 1)); }

static uint64_t rng = 0x9E3779B97F4A7C15ULL;
static double uniform(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng >> 11) / 9007199254740992.0;
}

static void sleep_ms(double ms) {
  struct timespec ts = {(time_t)(ms / 1000), (long)((ms - (double)(time_t)(ms / 1000) * 1000) * 1e6)};
  nanosleep(&ts, NULL);
}

/* Starts the apply, waits for its write phase, sends `sig` after `delay_ms` (negative: never)
 * and waits. Returns how long the write phase lasted when no signal was sent. */
static double run_apply(int sig, double delay_ms, struct cli_result *r) {
  const char *argv[] = {nrt, "apply", "-e", "lambda s: s * 200", in_path, "-o", out_path,
                  "--threads", "2", NULL};
  pid_t pid = cli_spawn(argv, capture, NULL);
  double started = -1;
  for (;;) {
    if (writing_started()) {
      started = cli_now_ms();
      break;
    }
    if (cli_poll(pid, capture, r))
      return 0; /* ended before it wrote (a failure: the caller's checks tell) */
  }
  if (sig) {
    sleep_ms(delay_ms);
    kill(pid, sig);
    cli_wait(pid, capture, r);
    return 0;
  }
  /* the write phase ends when the new file is renamed over the path (a new inode), not when
   * the process has exited: its teardown (a sanitizer's leak check included) can take longer
   * than the writes, and signals sent then would all find the run finished */
  struct stat st;
  ino_t old_inode = stat(out_path, &st) == 0 ? st.st_ino : 0;
  double ended = -1;
  while (ended < 0) {
    if (stat(out_path, &st) == 0 && st.st_ino != old_inode)
      ended = cli_now_ms();
    else if (cli_poll(pid, capture, r))
      return cli_now_ms() - started;
  }
  cli_wait(pid, capture, r);
  return ended - started;
}

static void test_signals(const char *expected, size_t expected_len) {
  struct cli_result r;
  /* the shortest of three write phases: one slowed by a busy machine would send most signals
   * after the run ended */
  double write_ms = 0;
  for (int k = 0; k < 3; k++) {
    reset_output();
    double ms = run_apply(0, 0, &r);
    write_ms = k == 0 || ms < write_ms ? ms : write_ms;
    CHECK_EQ_INT(r.status, 0);
    CHECK(output_is(expected, expected_len));
    cli_result_free(&r);
  }
  int trials = (int)check_scale(50), interrupted = 0, finished = 0;
  if (trials < 8)
    trials = 8;
  for (int t = 0; t < trials; t++) {
    reset_output();
    int sig = t % 2 ? SIGTERM : SIGINT;
    run_apply(sig, uniform() * write_ms * 1.2, &r);
    bool old = output_is(old_bytes, sizeof old_bytes - 1);
    bool new = !old && output_is(expected, expected_len);
    if (!old && !new)
      fprintf(stderr, "trial %d: the output is neither the old nor the new file\n", t);
    CHECK(old || new);
    if (r.signal) {
      CHECK_EQ_INT(r.signal, sig); /* ended by the signal itself: the conventional status */
      interrupted += old;
    } else {
      CHECK_EQ_INT(r.status, 0); /* finished before the signal came */
      CHECK(new);
      finished++;
    }
    CHECK_EQ_INT(stray_files(), 0);
    cli_result_free(&r);
  }
  printf("signals: %d trials, %d interrupted while writing (old file kept), %d finished; write "
         "phase %.1f ms\n",
         trials, interrupted, finished, write_ms);
  CHECK(interrupted >= trials / 4); /* the signals did land in the write phase */
}

/* The output after a failed apply: the old bytes, no temporary file. */
static void expect_apply_fails(const char *udf, int status, const char *message,
                               const struct cli_run_options *o) {
  reset_output();
  const char *argv[] = {nrt, "apply", "-e", udf, in_path, "-o", out_path, NULL};
  struct cli_result r;
  cli_run(argv, capture, o, &r);
  CHECK_EQ_INT(r.status, status);
  if (!strstr(r.err, message))
    check_failf(__FILE__, __LINE__, "stderr lacks '%s': %s", message, r.err);
  CHECK(output_is(old_bytes, sizeof old_bytes - 1));
  CHECK_EQ_INT(stray_files(), 0);
  cli_result_free(&r);
}

static void test_errors(void) {
  expect_apply_fails("lambda s: s[100]", 1, "row 1: IndexError", NULL);
  expect_apply_fails("lambda s: s +", 2, "<-e>:1:", NULL);
  struct cli_run_options full = {.fsize_limit = 1 << 20}; /* a full disk, as far as we go */
  expect_apply_fails("lambda s: s * 200", 2, "File too large", &full);
  /* A device is written in place: /dev/full reports the full disk. */
  const char *argv[] = {nrt, "apply", "-e", "lambda s: s", in_path, "-o", "/dev/full", NULL};
  struct cli_result r;
  cli_run(argv, capture, NULL, &r);
  CHECK_EQ_INT(r.status, 2);
  CHECK(strstr(r.err, "No space left on device") != NULL);
  cli_result_free(&r);
  /* A missing directory fails before any work. */
  const char *missing[] = {nrt, "apply", "-e", "lambda s: s", in_path, "-o",
                     path_in(work, "no-such-dir/out.txt"), NULL};
  cli_run(missing, capture, NULL, &r);
  CHECK_EQ_INT(r.status, 2);
  CHECK(strstr(r.err, "No such file or directory") != NULL);
  cli_result_free(&r);
}

/* A finished run keeps the old file's permission bits, and writes through a link. */
static void test_replacement(const char *expected, size_t expected_len) {
  reset_output();
  CHECK_EQ_INT(chmod(out_path, 0640), 0);
  char *link = path_in(work, "link.txt");
  CHECK_EQ_INT(symlink("out.txt", link), 0);
  const char *argv[] = {nrt, "apply", "-e", "lambda s: s * 200", in_path, "-o", link, NULL};
  struct cli_result r;
  cli_run(argv, capture, NULL, &r);
  CHECK_EQ_INT(r.status, 0);
  CHECK(output_is(expected, expected_len));
  struct stat st;
  CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
  CHECK(stat(out_path, &st) == 0 && (st.st_mode & 0777) == 0640);
  CHECK_EQ_INT(stray_files(), 0);
  cli_result_free(&r);
  remove(link);
}

static void test_refprune(void) {
  char *in = path_in(cases, "fanout.ll"); /* some 3 KB of text */
  reset_output();
  struct cli_result r;
  /* /dev/full: an I/O error (exit 1), not LLVM's abort */
  const char *full[] = {nrt, "refprune", in, "-o", "/dev/full", NULL};
  cli_run(full, capture, NULL, &r);
  CHECK_EQ_INT(r.signal, 0);
  CHECK_EQ_INT(r.status, 1);
  CHECK(strstr(r.err, "No space left on device") != NULL);
  cli_result_free(&r);
  /* a file that cannot be written whole keeps its old bytes */
  const char *argv[] = {nrt, "refprune", in, "-o", out_path, NULL};
  /* 1 KiB: room for the error message on stderr (a file too), not for the module */
  struct cli_run_options small = {.fsize_limit = 1024};
  cli_run(argv, capture, &small, &r);
  CHECK_EQ_INT(r.status, 1);
  CHECK(strstr(r.err, "File too large") != NULL);
  CHECK(output_is(old_bytes, sizeof old_bytes - 1));
  CHECK_EQ_INT(stray_files(), 0);
  cli_result_free(&r);
  cli_run(argv, capture, NULL, &r);
  CHECK_EQ_INT(r.status, 0);
  size_t n;
  char *text = cli_read_file(out_path, &n);
  CHECK(text && strstr(text, "define") != NULL);
  free(text);
  cli_result_free(&r);
}

int main(int argc, char **argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: test_cli_output NRT REFPRUNE_CASES_DIR\n");
    return 2;
  }
  nrt = argv[1];
  cases = argv[2];
  snprintf(work, sizeof work, "cli_output_%ld", (long)getpid());
  snprintf(capture, sizeof capture, "cli_output_%ld_capture", (long)getpid());
  CHECK_EQ_INT(mkdir(work, 0755), 0);
  CHECK_EQ_INT(mkdir(capture, 0755), 0);
  snprintf(in_path, sizeof in_path, "%s/in.txt", work);
  snprintf(out_path, sizeof out_path, "%s/out.txt", work);
  size_t row_len = 19, in_len = (size_t)ROWS * (row_len + 1);
  char *input = malloc(in_len + 1);
  size_t expected_len = (size_t)ROWS * (row_len * REPEAT + 1);
  char *expected = malloc(expected_len);
  size_t at = 0;
  for (int i = 0; i < ROWS; i++) {
    snprintf(input + (size_t)i * (row_len + 1), row_len + 2, "row%05d-abcdefghij\n", i);
    for (int k = 0; k < REPEAT; k++, at += row_len)
      memcpy(expected + at, input + (size_t)i * (row_len + 1), row_len);
    expected[at++] = '\n';
  }
  CHECK(cli_write_file(in_path, input, in_len));

  test_signals(expected, expected_len);
  test_errors();
  test_replacement(expected, expected_len);
  test_refprune();

  remove(in_path);
  remove(out_path);
  rmdir(work);
  rmdir(capture);
  free(input);
  free(expected);
  return check_finish("test_cli_output");
}

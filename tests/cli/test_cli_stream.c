/* `nrt apply` streams its input in batches: for text, csv (quoted line breaks across batch
 * boundaries) and jsonl the output with batches of 1, 7 and the default size, on 1, 2 and 4
 * threads, is the single-batch (whole input) output byte for byte; a failing row, invalid
 * UTF-8, a broken CSV record and bad JSON in a later batch are reported with their global row
 * or line and byte, leaving -o PATH untouched; standard input through a pipe streams as well;
 * and a 200 MB input streamed with small batches peaks at a resident size far below its size.
 * usage: test_cli_stream NRT */
#define _DEFAULT_SOURCE /* wait4 */
#define _XOPEN_SOURCE 600 /* posix_openpt */
#include <fcntl.h>
#include <poll.h>
#include <time.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli_util.h"
#include "support/check.h"

static const char *nrt;
static char work[256], capture[256];

static char *path_in(const char *name) {
  static char paths[8][512];
  static int next;
  char *p = paths[next++ % 8];
  snprintf(p, 512, "%s/%s", work, name);
  return p;
}

/* execv with a const argv (execv does not write the strings). */
static void exec_args(const char *const *argv) {
  char *args[32];
  size_t n = 0;
  for (; argv[n] && n < 31; n++)
    memcpy(&args[n], &argv[n], sizeof args[n]);
  args[n] = NULL;
  execv(args[0], args);
  _exit(127);
}

/* A growing text buffer. */
struct text {
  char *s;
  size_t len, cap;
};

static void add(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(struct text *t, const char *fmt, ...) {
  char buf[512];
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  if (t->len + (size_t)n + 1 > t->cap) {
    t->cap = (t->len + (size_t)n + 1) * 2;
    t->s = realloc(t->s, t->cap);
  }
  memcpy(t->s + t->len, buf, (size_t)n + 1);
  t->len += (size_t)n;
}

/* Runs `nrt apply` with args (NULL-terminated) after the UDF and input, -o PATH into out.txt;
 * returns the output file's contents (NULL when absent) and fills r. */
static char *apply(const char *const *args, struct cli_result *r, size_t *len) {
  const char *argv[48];
  size_t n = 0;
  argv[n++] = nrt;
  argv[n++] = "apply";
  for (size_t i = 0; args[i] && n < 44; i++)
    argv[n++] = args[i];
  argv[n++] = "-o";
  argv[n++] = path_in("out.txt");
  argv[n] = NULL;
  remove(path_in("out.txt"));
  cli_run(argv, capture, NULL, r);
  return cli_read_file(path_in("out.txt"), len);
}

/* The output of every batch size and thread count equals the one-batch output. */
static void check_same(const char *udf, const char *input_path, const char *format,
                       const char *column) {
  char input[512]; /* path_in's buffers are reused */
  snprintf(input, sizeof input, "%s", input_path);
  static const char *const batches[] = {"1", "7", NULL /* default */};
  static const char *const threads[] = {"1", "2", "4"};
  struct cli_result r;
  size_t want_len, got_len;
  const char *whole[] = {"-e", udf, input, "--in-format", format,
                         "--batch-rows", "2G", "--batch-bytes", "64G",
                         column ? "--column" : NULL, column, NULL};
  char *want = apply(whole, &r, &want_len);
  if (r.status != 0)
    fprintf(stderr, "%s", r.err);
  CHECK_EQ_INT(r.status, 0);
  CHECK(want && want_len > 0);
  cli_result_free(&r);
  for (size_t b = 0; b < 3; b++) {
    for (size_t t = 0; t < 3; t++) {
      const char *args[16];
      size_t n = 0;
      args[n++] = "-e";
      args[n++] = udf;
      args[n++] = input;
      args[n++] = "--in-format";
      args[n++] = format;
      args[n++] = "--threads";
      args[n++] = threads[t];
      if (batches[b]) {
        args[n++] = "--batch-rows";
        args[n++] = batches[b];
      }
      if (column) {
        args[n++] = "--column";
        args[n++] = column;
      }
      args[n] = NULL;
      char *got = apply(args, &r, &got_len);
      if (r.status != 0 || !got || got_len != want_len || memcmp(got, want, want_len) != 0)
        fprintf(stderr, "%s, batch %s, threads %s: differs from the whole input's output\n%s",
                format, batches[b] ? batches[b] : "default", threads[t], r.err);
      CHECK_EQ_INT(r.status, 0);
      CHECK(got && got_len == want_len && memcmp(got, want, want_len) == 0);
      free(got);
      cli_result_free(&r);
    }
  }
  free(want);
}

static void test_same_output(void) {
  struct text t = {0};
  for (int i = 0; i < 300; i++)
    add(&t, i % 37 == 5 ? "\n" : "line %d caf\xc3\xa9 %s\r\n", i, i % 2 ? "odd" : "even");
  add(&t, "last without newline");
  CHECK(cli_write_file(path_in("in.txt"), t.s, t.len));
  check_same("lambda s: s.upper() + str(len(s))", path_in("in.txt"), "text", NULL);

  /* quoted fields holding line breaks and quotes, empty (null) fields, a header */
  t.len = 0;
  add(&t, "id,name,other\n");
  for (int i = 0; i < 200; i++) {
    if (i % 11 == 3)
      add(&t, "%d,\"multi\nline \"\"%d\"\"\r\nend\",x\n", i, i);
    else if (i % 13 == 4)
      add(&t, "%d,,y\n", i);
    else
      add(&t, "%d,plain %d,z\r\n", i, i);
  }
  CHECK(cli_write_file(path_in("in.csv"), t.s, t.len));
  check_same("lambda s: 'NULL' if s is None else s.replace('\\n', '|')", path_in("in.csv"), "csv",
             "name");

  t.len = 0;
  for (int i = 0; i < 250; i++)
    add(&t, i % 17 == 2 ? "   \n" : "{\"n\": %d, \"s\": \"v\\u00e9 %d\"}\n", i, i);
  CHECK(cli_write_file(path_in("in.jsonl"), t.s, t.len));
  check_same("lambda n: n * 3 + 1", path_in("in.jsonl"), "jsonl", "n");
  free(t.s);
}

/* An error in a later batch names its row, line and byte counted from the input's start; the
 * output file is not created. */
static void check_error(const char *udf, const char *input_path, const char *format,
                        const char *column, const char *batch, const char *threads_n,
                        int status, const char *message) {
  char input[512];
  snprintf(input, sizeof input, "%s", input_path);
  const char *args[] = {"-e", udf, input, "--in-format", format, "--batch-rows", batch,
                        "--threads", threads_n, column ? "--column" : NULL, column, NULL};
  struct cli_result r;
  size_t len;
  char *out = apply(args, &r, &len);
  if (!strstr(r.err, message))
    fprintf(stderr, "expected \"%s\" in: %s", message, r.err);
  CHECK_EQ_INT(r.status, status);
  CHECK(strstr(r.err, message) != NULL);
  CHECK(out == NULL); /* atomic output: nothing at PATH */
  free(out);
  cli_result_free(&r);
}

static void test_errors(void) {
  struct text t = {0};
  for (int i = 1; i <= 100; i++)
    add(&t, "%d\n", i);
  CHECK(cli_write_file(path_in("nums.txt"), t.s, t.len));
  static const char *const batches[] = {"1", "7", "64"};
  static const char *const threads[] = {"1", "2", "4"};
  for (size_t b = 0; b < 3; b++)
    for (size_t k = 0; k < 3; k++) /* rows 61 and 90 fail: the first one is reported */
      check_error("lambda s: 1 // ((int(s) - 61) * (int(s) - 90))", path_in("nums.txt"), "text",
                  NULL, batches[b], threads[k], 1, "row 61: ZeroDivisionError");

  /* --errors null: the failing rows are null, the first one counted from the input's start */
  for (size_t b = 0; b < 3; b++) {
    char nums[512];
    snprintf(nums, sizeof nums, "%s", path_in("nums.txt"));
    const char *args[] = {"-e", "lambda s: str(1 // ((int(s) - 61) * (int(s) - 90)))", nums,
                          "--errors", "null", "--stats", "--batch-rows", batches[b], NULL};
    struct cli_result r;
    size_t len;
    char *out = apply(args, &r, &len);
    CHECK_EQ_INT(r.status, 0);
    CHECK(strstr(r.err, "2 rows raised (first: row 61)") != NULL);
    CHECK(strstr(r.err, "\nrows: 100\n") != NULL);
    CHECK(strstr(r.err, "\nfailed_rows: 2\n") != NULL);
    int lines = 0;
    for (size_t i = 0; out && i < len; i++)
      lines += out[i] == '\n';
    CHECK_EQ_INT(lines, 100);
    free(out);
    cli_result_free(&r);
  }

  t.len = 0;
  for (int i = 1; i <= 50; i++)
    add(&t, i == 41 ? "ab\xff\n" : "row %d\n", i);
  CHECK(cli_write_file(path_in("bad.txt"), t.s, t.len));
  /* rows 1-9 are "row N\n" (6 bytes), 10-40 7 bytes: line 41 starts at 54 + 217 = 271 */
  check_error("lambda s: s", path_in("bad.txt"), "text", NULL, "7", "2", 2,
              "line 41, byte 273: invalid UTF-8");

  t.len = 0;
  add(&t, "a,b\n");
  for (int i = 1; i <= 30; i++)
    add(&t, i == 20 ? "1,2,3\n" : i == 10 ? "\"x\ny\",q\n" : "%d,%d\n", i, i);
  CHECK(cli_write_file(path_in("bad.csv"), t.s, t.len));
  /* record 20 is on line 22 (the header, and record 10 spans two lines) */
  check_error("lambda s: s", path_in("bad.csv"), "csv", "a", "3", "2", 2,
              "line 22, byte");
  check_error("lambda s: s", path_in("bad.csv"), "csv", "a", "3", "2", 2,
              "record has more fields than the header (2)");

  t.len = 0;
  for (int i = 1; i <= 30; i++)
    add(&t, i == 25 ? "{\"v\": tru}\n" : "{\"v\": %d}\n", i);
  CHECK(cli_write_file(path_in("bad.jsonl"), t.s, t.len));
  check_error("lambda v: v", path_in("bad.jsonl"), "jsonl", "v", "4", "2", 2,
              "line 25, byte");
  /* a real number after a first batch of integers: the type the UDF was compiled for */
  t.len = 0;
  for (int i = 1; i <= 30; i++)
    add(&t, i == 12 ? "{\"v\": 1.5}\n" : "{\"v\": %d}\n", i);
  CHECK(cli_write_file(path_in("mixed.jsonl"), t.s, t.len));
  check_error("lambda v: v", path_in("mixed.jsonl"), "jsonl", "v", "5", "1", 2,
              "line 12, byte");
  free(t.s);
}

/* Bad batch options are usage errors; an empty input still gives its csv header. */
static void test_options(void) {
  static const char *const bad[][2] = {{"--batch-rows", "0"}, {"--batch-rows", "-1"},
                                       {"--batch-rows", "99999999999999999999"},
                                       {"--batch-bytes", "0"}, {"--batch-bytes", "1X"}};
  CHECK(cli_write_file(path_in("empty.txt"), "", 0));
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    const char *args[] = {"-e", "lambda s: s", path_in("empty.txt"), bad[i][0], bad[i][1], NULL};
    struct cli_result r;
    size_t len;
    char *out = apply(args, &r, &len);
    CHECK_EQ_INT(r.status, 2);
    CHECK(strstr(r.err, bad[i][0]) != NULL);
    CHECK(out == NULL);
    free(out);
    cli_result_free(&r);
  }
  char input[512];
  snprintf(input, sizeof input, "%s", path_in("empty.txt"));
  const char *args[] = {"-e", "lambda s: s", input, "--out-format", "csv", "--batch-rows", "1",
                        NULL};
  struct cli_result r;
  size_t len;
  char *out = apply(args, &r, &len);
  CHECK_EQ_INT(r.status, 0);
  CHECK(out && strcmp(out, "result\n") == 0);
  free(out);
  cli_result_free(&r);
}

/* Runs nrt apply with its standard input a pipe fed by this process (in pieces, the child
 * reading as they come). */
static void test_stdin_pipe(void) {
  int fds[2];
  CHECK_EQ_INT(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[0], 0);
    close(fds[0]);
    close(fds[1]);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    const char *argv[] = {nrt, "apply", "-e", "lambda s: s + '!'", "--batch-rows", "5",
                          "-o", path_in("pipe.txt"), NULL};
    exec_args(argv);
  }
  close(fds[0]);
  signal(SIGPIPE, SIG_IGN);
  struct text want = {0};
  for (int i = 0; i < 5000; i++) {
    char line[32];
    int n = snprintf(line, sizeof line, "%d\n", i);
    CHECK(write(fds[1], line, (size_t)n) == n);
    add(&want, "%d!\n", i);
  }
  close(fds[1]);
  int st = 0;
  CHECK(waitpid(pid, &st, 0) == pid);
  CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0);
  size_t len;
  char *got = cli_read_file(path_in("pipe.txt"), &len);
  CHECK(got && len == want.len && memcmp(got, want.s, len) == 0);
  free(got);
  free(want.s);
}

/* On a terminal the progress bar shows the bytes done and the rate: standard error is a
 * pseudo-terminal, standard input a pipe fed until the bar appears (after a second; at most
 * 10 s). */
static void test_progress(void) {
  int master = posix_openpt(O_RDWR | O_NOCTTY);
  CHECK(master >= 0);
  if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
    if (master >= 0)
      close(master);
    return;
  }
  char slave[256];
  snprintf(slave, sizeof slave, "%s", ptsname(master));
  int fds[2];
  CHECK_EQ_INT(pipe(fds), 0);
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int tty = open(slave, O_RDWR | O_NOCTTY);
    int devnull = open("/dev/null", O_WRONLY);
    dup2(fds[0], 0);
    dup2(devnull, 1);
    dup2(tty, 2);
    close(fds[0]);
    close(fds[1]);
    close(master);
    const char *argv[] = {nrt, "apply", "-e", "lambda s: s", "--batch-rows", "100", NULL};
    exec_args(argv);
  }
  close(fds[0]);
  signal(SIGPIPE, SIG_IGN);
  char text[65536];
  size_t got = 0;
  char rows[4096];
  memset(rows, 'x', sizeof rows);
  for (size_t i = 63; i < sizeof rows; i += 64)
    rows[i] = '\n';
  double t0 = cli_now_ms();
  bool writing = true;
  for (;;) {
    text[got] = '\0';
    if (writing && (strstr(text, "B/s") || cli_now_ms() - t0 > 10000)) {
      close(fds[1]); /* the bar is drawn (or never will be): end the input */
      writing = false;
    }
    if (writing && write(fds[1], rows, sizeof rows) != (ssize_t)sizeof rows) {
      close(fds[1]);
      writing = false;
    }
    struct pollfd p = {.fd = master, .events = POLLIN};
    if (poll(&p, 1, writing ? 20 : 200) > 0) {
      ssize_t n = read(master, text + got, sizeof text - 1 - got);
      if (n <= 0)
        break; /* EIO: the child has closed the terminal */
      got += (size_t)n;
    } else if (!writing && waitpid(pid, NULL, WNOHANG) == pid) {
      pid = -1;
      break;
    }
  }
  if (pid > 0)
    waitpid(pid, NULL, 0);
  close(master);
  text[got] = '\0';
  if (!strstr(text, "MB/s"))
    fprintf(stderr, "no progress bar in: %s\n", text);
  CHECK(strstr(text, "applying") != NULL);
  CHECK(strstr(text, "B/s") != NULL);
}

/* The child's peak resident size in KiB (ru_maxrss) for one run, its exit status in *status. */
static long peak_rss_kib(const char *input, const char *batch, int *status) {
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_RDWR);
    dup2(devnull, 0);
    dup2(devnull, 1);
    const char *argv[] = {nrt, "apply", "-e", "lambda s: s.upper()", input, "--batch-rows",
                          batch, "--threads", "2", "-o", "/dev/null", NULL};
    exec_args(argv);
  }
  int st = 0;
  struct rusage ru;
  memset(&ru, 0, sizeof ru);
  CHECK(wait4(pid, &st, 0, &ru) == pid);
  *status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return ru.ru_maxrss;
}

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) ||                   \
    __has_feature(memory_sanitizer)
#define SANITIZED 1
#endif
#endif

static void test_rss(void) {
#ifdef SANITIZED
  /* a sanitizer's shadow memory and quarantine make resident sizes meaningless */
  size_t mb = 8;
#else
  size_t mb = (size_t)check_scale(200);
  if (mb < 16)
    mb = 16;
#endif
  const char *big = path_in("big.txt");
  FILE *f = fopen(big, "wb");
  CHECK(f != NULL);
  size_t written = 0;
  bool ok = true;
  for (long i = 0; ok && written < mb << 20; i++) {
    int n = fprintf(f, "the quick brown fox jumps over the lazy dog %ld\n", i);
    ok = n > 0;
    written += ok ? (size_t)n : 0;
  }
  CHECK(ok);
  CHECK_EQ_INT(fclose(f), 0);
  const char *small = path_in("small.txt");
  CHECK(cli_write_file(small, "a\nb\n", 4));
  int status;
  long base = peak_rss_kib(small, "1024", &status);
  CHECK_EQ_INT(status, 0);
  long peak = peak_rss_kib(big, "1024", &status);
  CHECK_EQ_INT(status, 0);
  printf("peak RSS: %ld KiB for %zu MB streamed (%ld KiB for 4 bytes)\n", peak, mb, base);
#ifndef SANITIZED
  /* one batch of 1024 rows is about 50 KB in and out: the peak is the fixed cost plus a few
   * MiB, while holding the input alone would take more than its 200 MB */
  CHECK(peak < base + 48 * 1024);
  CHECK((size_t)peak * 1024 < (mb << 20) / 2);
#endif
  remove(big);
  remove(small);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_cli_stream NRT\n");
    return 2;
  }
  nrt = argv[1];
  snprintf(work, sizeof work, "cli_stream_%ld", (long)getpid());
  snprintf(capture, sizeof capture, "cli_stream_%ld_capture", (long)getpid());
  CHECK_EQ_INT(mkdir(work, 0755), 0);
  CHECK_EQ_INT(mkdir(capture, 0755), 0);
  test_same_output();
  test_errors();
  test_options();
  test_stdin_pipe();
  test_progress();
  test_rss();
  static const char *const files[] = {"in.txt",      "in.csv",   "in.jsonl",  "nums.txt",
                                      "bad.txt",     "bad.csv",  "bad.jsonl", "mixed.jsonl",
                                      "pipe.txt",    "empty.txt", "out.txt"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
    remove(path_in(files[i]));
  rmdir(work);
  rmdir(capture);
  return check_finish("test_cli_stream");
}

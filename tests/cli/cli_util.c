/* Running the nrt command from a test (see cli_util.h). */
#define _POSIX_C_SOURCE 200809L /* fork, setrlimit, clock_gettime */
#include "cli/cli_util.h"

#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double cli_now_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void capture_path(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%s/.%s", dir, name);
}

pid_t cli_spawn(const char *const *argv, const char *dir, const struct cli_run_options *o) {
  char out[4096], err[4096];
  capture_path(out, sizeof out, dir, "stdout");
  capture_path(err, sizeof err, dir, "stderr");
  fflush(stdout);
  fflush(stderr);
  pid_t pid = fork();
  if (pid != 0)
    return pid;
  /* the child: only async-signal-safe calls until exec */
  int in = open(o && o->stdin_path ? o->stdin_path : "/dev/null", O_RDONLY);
  int fo = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  int fe = open(err, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (in < 0 || fo < 0 || fe < 0)
    _exit(126);
  dup2(in, 0);
  dup2(fo, 1);
  dup2(fe, 2);
  /* signals the test sends act as they would from a terminal, whatever our parent ignores */
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
  if (o && o->as_limit) {
    struct rlimit rl = {(rlim_t)o->as_limit, (rlim_t)o->as_limit};
    setrlimit(RLIMIT_AS, &rl);
  }
  if (o && o->fsize_limit) {
    signal(SIGXFSZ, SIG_IGN); /* a write past the limit then fails with EFBIG */
    struct rlimit rl = {(rlim_t)o->fsize_limit, (rlim_t)o->fsize_limit};
    setrlimit(RLIMIT_FSIZE, &rl);
  }
  /* execv's argv is char *const[] for historical reasons; it does not write the strings */
  char *args[64];
  size_t n = 0;
  for (; argv[n] && n < 63; n++)
    memcpy(&args[n], &argv[n], sizeof args[n]);
  args[n] = NULL;
  execv(args[0], args);
  _exit(127);
}

static void collect(int st, const char *dir, struct cli_result *r) {
  memset(r, 0, sizeof *r);
  r->status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  r->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
  char path[4096];
  size_t len;
  capture_path(path, sizeof path, dir, "stdout");
  r->out = cli_read_file(path, &len);
  remove(path);
  capture_path(path, sizeof path, dir, "stderr");
  r->err = cli_read_file(path, &len);
  remove(path);
  if (!r->out)
    r->out = calloc(1, 1);
  if (!r->err)
    r->err = calloc(1, 1);
}

void cli_wait(pid_t pid, const char *dir, struct cli_result *r) {
  int st = 0;
  while (pid > 0 && waitpid(pid, &st, 0) < 0) {
  }
  collect(st, dir, r);
}

bool cli_poll(pid_t pid, const char *dir, struct cli_result *r) {
  int st = 0;
  if (waitpid(pid, &st, WNOHANG) != pid)
    return false;
  collect(st, dir, r);
  return true;
}

void cli_run(const char *const *argv, const char *dir, const struct cli_run_options *o,
             struct cli_result *r) {
  double t0 = cli_now_ms();
  pid_t pid = cli_spawn(argv, dir, o);
  cli_wait(pid, dir, r);
  r->ms = cli_now_ms() - t0;
}

void cli_result_free(struct cli_result *r) {
  free(r->out);
  free(r->err);
  r->out = r->err = NULL;
}

char *cli_read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  *len = 0;
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap + 1);
  while (buf) {
    n += fread(buf + n, 1, cap - n, f);
    if (n < cap)
      break;
    char *bigger = realloc(buf, cap * 2 + 1);
    if (!bigger) {
      free(buf);
      buf = NULL;
      break;
    }
    buf = bigger;
    cap *= 2;
  }
  fclose(f);
  if (buf) {
    buf[n] = '\0';
    *len = n;
  }
  return buf;
}

bool cli_write_file(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, len, f) == len;
  return fclose(f) == 0 && ok;
}

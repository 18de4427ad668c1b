/* Running the nrt command from a test: a child with its output captured, optional resource
 * limits, and small file helpers. */
#ifndef NRT_TESTS_CLI_UTIL_H
#define NRT_TESTS_CLI_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* What a finished child did. */
struct cli_result {
  int status;       /* exit status, or -1 when killed by a signal */
  int signal;       /* the signal that ended it, or 0 */
  char *out, *err;  /* its standard output and error (malloc'ed, NUL-terminated) */
  double ms;        /* wall time */
};

/* Options of a run: resource limits set in the child (0: unchanged), standard input. */
struct cli_run_options {
  unsigned long long as_limit;    /* RLIMIT_AS, bytes */
  unsigned long long fsize_limit; /* RLIMIT_FSIZE, bytes (SIGXFSZ is ignored) */
  const char *stdin_path;         /* NULL: /dev/null */
};

/* Starts argv[0] with argv (NULL-terminated), its output going to files under `dir`; returns
 * the child's pid (or -1). */
pid_t cli_spawn(const char *const *argv, const char *dir, const struct cli_run_options *o);

/* Waits for a spawned child and collects its result (the captured output read back). */
void cli_wait(pid_t pid, const char *dir, struct cli_result *r);

/* Collects a spawned child's result if it has ended (true), else returns false at once. */
bool cli_poll(pid_t pid, const char *dir, struct cli_result *r);

/* cli_spawn then cli_wait. */
void cli_run(const char *const *argv, const char *dir, const struct cli_run_options *o,
             struct cli_result *r);

void cli_result_free(struct cli_result *r);

/* Whole file contents (malloc'ed, NUL-terminated; *len its size), or NULL. */
char *cli_read_file(const char *path, size_t *len);

/* Writes `len` bytes to path (created or truncated); false on failure. */
bool cli_write_file(const char *path, const char *data, size_t len);

/* Milliseconds on a monotonic clock. */
double cli_now_ms(void);

#endif

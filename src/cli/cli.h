/* The nrt command's subcommands (internal to the executable). Each returns the exit status:
 * 0 success, 1 a runtime error in a row (a MemoryError included), 2 a compile error, bad input,
 * an I/O error or bad usage. */
#ifndef NRT_CLI_H
#define NRT_CLI_H

#include <stdbool.h>
#include <stdint.h>

#define CLI_OK 0
#define CLI_ROW_ERROR 1
#define CLI_USAGE 2

int cli_apply(int argc, char **argv);
int cli_demo(int argc, char **argv);

/* Milliseconds on a monotonic clock. */
double cli_now_ms(void);

/* A progress bar on standard error, shown only when it is a terminal and the work takes more
 * than a second; `total` rows. cli_progress_update is the apply's on_progress callback (arg:
 * the cli_progress, NULL allowed). Stop it before printing. */
struct cli_progress;
struct cli_progress *cli_progress_start(const char *what, int64_t total);
void cli_progress_update(void *arg, int64_t rows_done, int64_t rows);
void cli_progress_stop(struct cli_progress *p);

/* The same bar counting input bytes, with the rate: `total_bytes` the input's size (0 when
 * unknown, such as a pipe: then no percentage). cli_progress_bytes reports the bytes done
 * (p may be NULL). */
struct cli_progress *cli_progress_start_bytes(const char *what, uint64_t total_bytes);
void cli_progress_bytes(struct cli_progress *p, uint64_t bytes_done);

/* Prints the runtime statistics as "name: value" lines on stderr. */
void cli_print_runtime_stats(void);

/* Parses a whole decimal number in [min, max] into *out: digits only (no sign, no blank),
 * then, when `suffixes`, an optional K, M or G (times 2^10, 2^20, 2^30). False for anything
 * else, an overflow included. */
bool cli_parse_int(const char *text, int64_t min, int64_t max, bool suffixes, int64_t *out);

/* Installs the command's process-wide handlers: SIGINT, SIGTERM and SIGHUP remove the
 * temporary files of unfinished outputs (nrt/io_output.h), then end the process by the same
 * signal; SIGPIPE is ignored (a closed pipe is a write error); LLVM's fatal errors and
 * allocation failures end it with a message instead of an abort (exit status 1 for a
 * MemoryError, 2 otherwise). */
void cli_install_handlers(void);

/* The C++ half of cli_install_handlers (oom.cpp): operator new and LLVM's bad-alloc reports
 * call cli_memory_exit. */
void cli_install_oom_handlers(void);

/* Ends the process at once after an allocation failure inside LLVM: removes the temporary
 * outputs, prints "nrt: MemoryError: out of memory in LLVM (what)" and exits with status 1.
 * Async-signal-safe. */
__attribute__((noreturn)) void cli_memory_exit(const char *what);

#endif

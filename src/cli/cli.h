/* The nrt command's subcommands (internal to the executable). Each returns the exit status:
 * 0 success, 1 a runtime error in a row, 2 a compile error, bad input or bad usage. */
#ifndef NRT_CLI_H
#define NRT_CLI_H

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

/* Prints the runtime statistics as "name: value" lines on stderr. */
void cli_print_runtime_stats(void);

#endif

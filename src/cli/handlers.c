/* Process-wide handlers of the nrt command: an interrupted run leaves no temporary output file
 * behind, and LLVM's fatal errors end the run with a message and an exit status instead of an
 * abort. */
#define _POSIX_C_SOURCE 200809L /* sigaction */
#include <llvm-c/ErrorHandling.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "nrt/io_output.h"

/* Only write(2) here: these run in signal handlers or with memory exhausted. */
static void say(const char *s) {
  if (write(2, s, strlen(s)) < 0) {
    /* nothing left to report it to */
  }
}

void cli_memory_exit(const char *what) {
  nrt_io_output_remove_temps();
  say("nrt: MemoryError: out of memory in LLVM");
  if (what && *what) {
    say(" (");
    say(what);
    say(")");
  }
  say("\n");
  _exit(CLI_ROW_ERROR);
}

/* report_fatal_error would abort after this handler returns: it never returns. A failed
 * allocation shows in the reason: "out of memory", "Allocation failed", "Unable to allocate
 * section memory!" (the JIT's mmap), "Cannot allocate memory" (ENOMEM's text). */
static void on_llvm_fatal(const char *reason) {
  if (strstr(reason, "out of memory") || strstr(reason, "llocat"))
    cli_memory_exit(reason);
  nrt_io_output_remove_temps();
  say("nrt: LLVM error: ");
  say(reason);
  say("\n");
  _exit(CLI_USAGE);
}

/* Removes the outputs' temporary files, then ends the process by the same signal, so the
 * caller sees the conventional status (128 + the signal's number in a shell). */
static void on_signal(int sig) {
  nrt_io_output_remove_temps();
  signal(sig, SIG_DFL);
  raise(sig); /* delivered when the handler returns */
}

void cli_install_handlers(void) {
  /* A closed output pipe is reported as a write error (EIO), not a silent death. */
  signal(SIGPIPE, SIG_IGN);
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
    sigaddset(&sa.sa_mask, sigs[i]);
  for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
    struct sigaction old;
    /* A signal ignored by our parent (nohup, a background job) stays ignored. */
    if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
      continue;
    sigaction(sigs[i], &sa, NULL);
  }
  LLVMInstallFatalErrorHandler(on_llvm_fatal);
  cli_install_oom_handlers();
}

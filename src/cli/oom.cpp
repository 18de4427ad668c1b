// Allocation failures inside LLVM end the nrt command with a MemoryError (exit status 1)
// instead of an abort. LLVM is built without exceptions, so a std::bad_alloc thrown by
// operator new cannot be caught and recovered from (std::terminate would abort), and LLVM's
// own report_bad_alloc_error aborts unless a handler is installed; neither is in LLVM's C API,
// hence this one C++ file.
#include <llvm/Support/ErrorHandling.h>

#include <new>

extern "C" {
#include "cli.h"
}

namespace {
void on_new_failure() { cli_memory_exit("operator new"); }
void on_bad_alloc(void *, const char *reason, bool) { cli_memory_exit(reason); }
} // namespace

extern "C" void cli_install_oom_handlers(void) {
  std::set_new_handler(on_new_failure);
  llvm::install_bad_alloc_error_handler(on_bad_alloc, nullptr);
}

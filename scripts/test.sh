#!/usr/bin/env bash
# The whole test suite: installs what it needs, then runs the tests plain, under ASan+UBSan
# (clang, with the time-boxed fuzzers), under TSan, and the tests labelled 'valgrind' under
# valgrind memcheck. Exits non-zero if any run fails; CTest's summary line is printed last.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

failed=()
jobs=$(nproc)
run() { # run NAME BUILD_DIR CTEST_ARGS...
  local name=$1 dir=$2
  shift 2
  echo "=== $name"
  if ! ctest --test-dir "$dir" -j "$jobs" --output-on-failure "$@"; then failed+=("$name"); fi
}

for flavour in plain asan tsan; do
  echo "=== build $flavour"
  if ! scripts/build.sh "$flavour"; then
    echo "build $flavour failed" >&2
    exit 1
  fi
done

# Sanitizers: report everything, stop on the first error, keep huge-allocation tests working.
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=allocator_may_return_null=1:halt_on_error=1:second_deadlock_stack=1

run "plain" build -LE memcheck
run "asan+ubsan" build-asan -LE memcheck
run "tsan" build-tsan -LE 'memcheck|no_tsan'
run "valgrind memcheck" build -L memcheck

if [ ${#failed[@]} -ne 0 ]; then
  echo "FAILED runs: ${failed[*]}" >&2
  exit 1
fi

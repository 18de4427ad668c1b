#!/usr/bin/env bash
# The whole test suite: installs what it needs, then runs the tests plain, under ASan+UBSan
# (clang, with the time-boxed fuzzers), under TSan, the tests labelled 'valgrind' under
# valgrind memcheck, and the Python package's tests (pytest, on the package installed into
# .venv/ by `pip install .`, and a subset on the ASan build of the extension) and the OCaml
# binding's tests. Exits non-zero if any run fails.
set -uo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/python-env.sh

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

echo "=== build python extension (asan)"
if ! { cmake -S . -B build-asan -DNRT_PYTHON=ON -DPython_EXECUTABLE="$PWD/.venv/bin/python" >/dev/null &&
       cmake --build build-asan -j "$jobs" --target nrt_python >/dev/null; }; then
  echo "build of the ASan python extension failed" >&2
  exit 1
fi
if ! scripts/python-package.sh; then
  echo "pip install . failed" >&2
  exit 1
fi

# Sanitizers: report everything, stop on the first error, keep huge-allocation tests working.
export ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1:abort_on_error=0:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=allocator_may_return_null=1:halt_on_error=1:second_deadlock_stack=1

run "plain" build -LE memcheck
run "asan+ubsan" build-asan -LE memcheck
run "tsan" build-tsan -LE 'memcheck|no_tsan'
run "valgrind memcheck" build -L memcheck

# The Python package as users get it (installed; imported from outside the source tree).
echo "=== pytest"
if ! .venv/bin/python -m pytest -q -p no:cacheprovider python/tests; then failed+=("pytest"); fi
# The extension under ASan+UBSan: the sanitizer runtime preloaded into CPython (whose own
# allocations at exit are not leaks of ours), the ASan build's package on the path.
echo "=== pytest (asan+ubsan)"
asan_rt=$(clang -print-file-name=libclang_rt.asan-x86_64.so)
if ! NRT_UNDER_SANITIZER=1 LD_PRELOAD="$asan_rt" ASAN_OPTIONS="$ASAN_OPTIONS:detect_leaks=0" \
     PYTHONPATH="$PWD/build-asan/python" .venv/bin/python -m pytest -q -p no:cacheprovider \
     python/tests/test_api.py python/tests/test_interop.py python/tests/test_errors.py \
     python/tests/test_leaks.py python/tests/test_threads.py python/tests/test_language.py; then
  failed+=("pytest (asan+ubsan)")
fi

# The OCaml binding (bindings/ocaml): its alcotest suite, GC and RSS tests included.
echo "=== ocaml"
if ! scripts/test-ocaml.sh; then failed+=("ocaml"); fi

if [ ${#failed[@]} -ne 0 ]; then
  echo "FAILED runs: ${failed[*]}" >&2
  exit 1
fi

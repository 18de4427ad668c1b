#!/usr/bin/env bash
# Configures and builds one flavour of nrt: scripts/build.sh [plain|asan|tsan|release].
#   plain:   release build with debug info (build/)
#   asan:    ASan+UBSan with clang, plus the libFuzzer harnesses (build-asan/)
#   tsan:    ThreadSanitizer (build-tsan/)
#   release: the Release configuration users and packagers build (gcc -O3), library and
#            command only (build-release/): it must build warning-free too
# Every flavour treats warnings as errors (NRT_WERROR); a plain cmake build does not.
set -euo pipefail
cd "$(dirname "$0")/.."
flavour=${1:-plain}
jobs=$(nproc)
case "$flavour" in
  plain)   dir=build; opts=() ;;
  asan)    dir=build-asan; opts=(-DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DNRT_SANITIZE=address -DNRT_FUZZ=ON -DNRT_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  tsan)    dir=build-tsan; opts=(-DNRT_SANITIZE=thread -DNRT_BENCH=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo) ;;
  release) dir=build-release; opts=(-DCMAKE_C_COMPILER=gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Release -DNRT_TESTS=OFF -DNRT_BENCH=OFF) ;;
  *) echo "usage: $0 [plain|asan|tsan|release]" >&2; exit 2 ;;
esac
cmake -S . -B "$dir" -DNRT_WERROR=ON "${opts[@]}" >/dev/null
cmake --build "$dir" -j "$jobs" 2>&1 | grep -vE '^\[ *[0-9]+%\]|^make|^Consolidate|^Scanning|^-- ' || true
# The build's own status decides (grep above only filters progress lines).
cmake --build "$dir" -j "$jobs" >/dev/null

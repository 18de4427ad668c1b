#!/usr/bin/env bash
# The main job: installs what it needs, builds nrt, and runs the runtime benchmark
# (bench/bench_core) on its built-in default input, printing the table.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh plain
exec build/bench/bench_core "$@"

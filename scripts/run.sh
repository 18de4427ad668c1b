#!/usr/bin/env bash
# The main job: installs what it needs, builds nrt, and runs `nrt demo`: the seed UDF of
# DESIGN.md compiled with LLVM and applied to a built-in multilingual sample of 1,000,000 rows
# (from Debian's word lists), printing results, throughput and the balanced statistics.
# It also builds the Python package into .venv/. Extra arguments go to `nrt demo`.
# The runtime benchmark table is `build/bench/core/bench_core`.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh plain
scripts/python-package.sh   # `import nrt` in .venv/ (see the README's Python quick start)
exec build/src/cli/nrt demo "$@"

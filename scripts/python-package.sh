#!/usr/bin/env bash
# Builds the Python package from this tree and installs it into .venv/ (`pip install .`:
# scikit-build-core drives the same CMake project; build-python/ keeps the build between
# runs). Makes .venv/ first when needed. The project's own build treats warnings as errors
# (NRT_WERROR): this is also CI's gcc Release build (-O3) of the library, command and module.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/python-env.sh
echo "=== python package (pip install .)" >&2
.venv/bin/python -m pip install -q --disable-pip-version-check --no-build-isolation --no-deps \
  --config-settings=cmake.define.NRT_WERROR=ON --force-reinstall . >&2

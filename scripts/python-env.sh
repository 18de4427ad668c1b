#!/usr/bin/env bash
# Makes the project's virtual environment .venv/ from the machine's python3 and installs the
# pinned Python packages of python/requirements.txt from PyPI. Idempotent: does nothing when
# .venv already holds exactly those pins (a stamp records the requirements' hash).
set -euo pipefail
cd "$(dirname "$0")/.."
req=python/requirements.txt
stamp=.venv/.requirements.sha256
want=$(sha256sum "$req" | cut -d' ' -f1)
if [ -x .venv/bin/python ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
  exit 0
fi
echo "=== python environment (.venv/)" >&2
python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -r "$req" >&2
echo "$want" > "$stamp"

#!/usr/bin/env bash
# Installs the Debian packages nrt needs to build, test and benchmark. Idempotent: does nothing
# when everything is already installed. Nothing is downloaded from outside Debian's archive.
set -euo pipefail

packages=(
  build-essential cmake pkg-config git   # toolchain
  clang llvm-14-dev libclang-rt-14-dev   # LLVM 14 for the JIT and refprune; clang for ASan/libFuzzer
  valgrind                               # memcheck over the tests
  unicode-data                           # the pinned Unicode Character Database (15.0.0)
  python3 python3-numba python3-llvmlite python3-pandas  # oracles and benchmark baselines
  python3-venv python3-dev               # the Python package's .venv/ and its C extension
  libjansson-dev libcsv-dev              # JSON Lines and CSV readers/writers
  libsimdjson-dev                        # SIMD UTF-8 validation of long buffers
  libpcre2-dev                           # the re module of UDFs (PCRE2, 8-bit, with JIT)
  wamerican wngerman wfrench wspanish    # word lists for the built-in sample input
  ocaml-nox ocaml-dune ocaml-findlib libctypes-ocaml-dev libalcotest-ocaml-dev  # OCaml binding
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "installing: ${missing[*]}" >&2
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q >&2
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >&2

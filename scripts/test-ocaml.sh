#!/usr/bin/env bash
# Builds libnrt into build-ocaml/ and installs it into build-ocaml/prefix, builds the OCaml
# binding (bindings/ocaml, dune, its build directory build-ocaml/dune) against that install
# through pkg-config, and runs the binding's alcotest suite. NRT_OCAML_STRINGS and
# NRT_OCAML_COLUMNS scale the RSS test's loop (default 10,000,000 and 10,000).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
t0=$(date +%s%N)
jobs=$(nproc)

cmake -S . -B build-ocaml -DNRT_WERROR=ON -DNRT_TESTS=OFF -DNRT_BENCH=OFF >/dev/null
cmake --build build-ocaml -j "$jobs" 2>&1 | grep -vE '^\[ *[0-9]+%\]|^make|^Consolidate|^Scanning|^-- ' || true
cmake --build build-ocaml -j "$jobs" >/dev/null # its status decides
cmake --install build-ocaml --prefix build-ocaml/prefix >/dev/null
t1=$(date +%s%N)

export PKG_CONFIG_PATH=$root/build-ocaml/prefix/lib/pkgconfig
(cd bindings/ocaml && dune build -j "$jobs" --build-dir "$root/build-ocaml/dune" @all)
t2=$(date +%s%N)

report=$root/build-ocaml/ocaml-report.txt
rm -f "$report"
status=0
(cd build-ocaml && NRT_OCAML_REPORT=$report ./dune/default/test/test_nrt.exe) || status=$?
t3=$(date +%s%N)
[ -f "$report" ] && cat "$report"
secs() { printf '%d.%d' $(( ($2 - $1) / 1000000000 )) $(( ($2 - $1) / 100000000 % 10 )); }
echo "ocaml: libnrt $(secs "$t0" "$t1") s, binding $(secs "$t1" "$t2") s, tests $(secs "$t2" "$t3") s"
exit $status

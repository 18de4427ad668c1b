#!/bin/bash
# `nrt apply` with UDFs returning a list or a tuple of int, float or bool, in the three output
# formats: text and csv rows are Python's str() of the list ([1, 2.5, True]; csv quoting it as
# one field when it holds a comma), jsonl rows JSON arrays (numbers as Python's repr, true /
# false, and null for nan and infinities, which JSON cannot write), null rows as for strings.
# The expected output is CPython's own rendering of the same UDF over the same rows. 1 and 2
# threads.
# usage: e2e_cli_results.sh PATH/TO/nrt
set -u
NRT=$1
PY=/usr/bin/python3
[ -x "$PY" ] || PY=python3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
checks=0
ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }

printf '%s\n' "hello world" "3 1 4 1 5" "" "naïve café, ok" "1.5 -0.0 1e16 inf nan -inf" \
  "один  два" "漢字 かな" "emoji 😀 x" "0.1 0.2 1e-7" "    " "12 x" >"$T/in.txt"

cat >"$T/ints.py" <<'PY'
def f(s):
    if not s.strip():
        return None
    return [len(w) for w in s.split()]
PY
cat >"$T/floats.py" <<'PY'
def f(s):
    out = []
    for w in s.split():
        try:
            out.append(float(w))
        except ValueError:
            out.append(len(w) / 4)
    return out
PY
cat >"$T/bools.py" <<'PY'
def f(s):
    return [w.isalpha() for w in s.split()] if s else None
PY
cat >"$T/tuple.py" <<'PY'
def f(s):
    return (len(s), s.count(' '), -1)
PY

# CPython's rendering of UDF file $1: FORMAT ($2) is text, csv or jsonl.
expected() {
  "$PY" - "$1" "$T/in.txt" "$2" <<'PY'
import csv, json, math, sys
ns = {}
exec(open(sys.argv[1], encoding="utf-8").read(), ns)
rows = open(sys.argv[2], encoding="utf-8", newline="").read().split("\n")[:-1]
out = [ns["f"](r) for r in rows]
fmt = sys.argv[3]
def finite(v):  # JSON has no nan or infinity: nrt writes null for them
    return None if isinstance(v, float) and not math.isfinite(v) else v
if fmt == "text":
    sys.stdout.write("".join(("" if v is None else str(list(v))) + "\n" for v in out))
elif fmt == "jsonl":
    sys.stdout.write("".join(json.dumps(None if v is None else [finite(x) for x in v])
                             + "\n" for v in out))
else:
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["result"])
    for v in out:  # a null is an empty unquoted field
        if v is None:
            sys.stdout.write("\n")
        else:
            w.writerow([str(list(v))])
PY
}

for udf in ints floats bools tuple; do
  for fmt in text csv jsonl; do
    expected "$T/$udf.py" "$fmt" >"$T/want.$fmt"
    for threads in 1 2; do
      "$NRT" apply "$T/$udf.py" "$T/in.txt" --out-format "$fmt" --threads "$threads" --stats \
        >"$T/out" 2>"$T/err"
      rc=$?
      if [ "$rc" = 0 ]; then ok; else fail "$udf/$fmt/$threads: exit $rc: $(head -c 300 "$T/err")"; fi
      if diff -u "$T/want.$fmt" "$T/out" >"$T/diff"; then ok; else
        fail "$udf/$fmt/$threads: output differs from CPython's"
        cat "$T/diff"
      fi
      if grep -q '^balanced: yes$' "$T/err"; then ok; else fail "$udf/$fmt/$threads: not balanced"; fi
    done
  done
done

# A jsonl list of floats is valid JSON (nan and infinities as null).
"$NRT" apply "$T/floats.py" "$T/in.txt" --out-format jsonl >"$T/out" 2>/dev/null
if "$PY" -c 'import json, sys
for line in open(sys.argv[1]):
    json.loads(line, parse_constant=lambda c: sys.exit("not JSON: " + c))' "$T/out"; then ok
else fail "floats/jsonl is not strict JSON"; fi

# A tuple mixing int and str, or int and float, is a compile error (exit 2) naming the feature.
for src in 'lambda s: (s, len(s))' 'lambda s: (len(s), 0.5)'; do
  "$NRT" apply -e "$src" "$T/in.txt" >"$T/out" 2>"$T/err"
  rc=$?
  if [ "$rc" = 2 ] && grep -q "returning a tuple of mixed types" "$T/err"; then ok; else
    fail "$src: exit $rc: $(head -c 300 "$T/err")"
  fi
done

echo "e2e_cli_results: $checks checks, $fails failed"
[ "$fails" = 0 ]

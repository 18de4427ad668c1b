#!/bin/bash
# `nrt apply` with UDFs returning a list or a tuple of str, in the three output formats:
# text and csv rows are Python's str() of the list (csv quoting it as one field), jsonl rows
# JSON arrays, null rows as for strings. The expected output is CPython's own rendering of
# the same UDF over the same rows (str(), the csv module, json.dumps). 1 and 2 threads.
# usage: e2e_cli_lists.sh PATH/TO/nrt
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

# Rows with quotes of both kinds, backslashes, commas, non-printable and multilingual text.
printf '%s\n' "hello world" "it's a \"test\"" "" "naïve café, ok" 'back\slash tab	here' \
  "один  два" "漢字 かな" "emoji 😀 x" "bell$(printf '\a')end" "a,b" "    " >"$T/in.txt"

cat >"$T/u.py" <<'PY'
def f(s):
    if not s.strip():
        return None
    if ',' in s:
        return list(s.partition(','))
    return [w for w in s.split() if w]
PY

# CPython's rendering of the same UDF: FORMAT is text, csv or jsonl.
expected() {
  "$PY" - "$T/u.py" "$T/in.txt" "$1" <<'PY'
import csv, json, sys
ns = {}
exec(open(sys.argv[1], encoding="utf-8").read(), ns)
rows = open(sys.argv[2], encoding="utf-8", newline="").read().split("\n")[:-1]
out = [ns["f"](r) for r in rows]
fmt = sys.argv[3]
if fmt == "text":
    sys.stdout.write("".join(("" if v is None else str(list(v))) + "\n" for v in out))
elif fmt == "jsonl":
    sys.stdout.write("".join(json.dumps(None if v is None else list(v), ensure_ascii=False)
                             + "\n" for v in out))
else:
    w = csv.writer(sys.stdout, lineterminator="\n")
    w.writerow(["result"])
    for v in out:  # a null is an empty unquoted field (the csv module would write "")
        if v is None:
            sys.stdout.write("\n")
        else:
            w.writerow([str(list(v))])
PY
}

for fmt in text csv jsonl; do
  expected "$fmt" >"$T/want.$fmt"
  for threads in 1 2; do
    "$NRT" apply "$T/u.py" "$T/in.txt" --out-format "$fmt" --threads "$threads" --stats \
      >"$T/out" 2>"$T/err"
    rc=$?
    if [ "$rc" = 0 ]; then ok; else fail "$fmt/$threads: exit $rc: $(head -c 300 "$T/err")"; fi
    if diff -u "$T/want.$fmt" "$T/out" >"$T/diff"; then ok; else
      fail "$fmt/$threads: output differs from CPython's"
      cat "$T/diff"
    fi
    if grep -q '^balanced: yes$' "$T/err"; then ok; else fail "$fmt/$threads: not balanced"; fi
  done
done

# A mixed tuple is a compile error (exit 2) naming the feature.
"$NRT" apply -e 'lambda s: (s, len(s))' "$T/in.txt" >"$T/out" 2>"$T/err"
rc=$?
if [ "$rc" = 2 ] && grep -q "returning a tuple of mixed types" "$T/err"; then ok; else
  fail "mixed tuple: exit $rc: $(head -c 300 "$T/err")"
fi

echo "e2e_cli_lists: $checks checks, $fails failed"
[ "$fails" = 0 ]

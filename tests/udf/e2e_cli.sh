#!/bin/bash
# End-to-end tests of `nrt apply` (and `nrt demo`, `nrt refprune`): every format, nulls,
# --errors null/stop, threads 1 vs N, bad inputs and exit codes, --stats, --emit-llvm, -o.
# usage: e2e_cli.sh PATH/TO/nrt
set -u
NRT=$1
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
fails=0
checks=0

ok() { checks=$((checks + 1)); }
fail() { checks=$((checks + 1)); fails=$((fails + 1)); echo "FAIL: $*"; }
# expect NAME EXPECTED_STATUS EXPECTED_STDOUT_FILE -- command...
run() { "$@" >"$T/out" 2>"$T/err"; echo $? >"$T/rc"; }
expect_rc() { local rc; rc=$(cat "$T/rc"); if [ "$rc" = "$2" ]; then ok; else fail "$1: exit $rc, expected $2; stderr: $(head -c 400 "$T/err")"; fi; }
expect_out() { if diff -u <(printf '%s' "$2") "$T/out" >"$T/diff"; then ok; else fail "$1: output differs"; cat "$T/diff"; fi; }
expect_err_has() { if grep -q -- "$2" "$T/err"; then ok; else fail "$1: stderr lacks '$2': $(head -c 400 "$T/err")"; fi; }

# --- text in, text out, inline lambda, stdin
run "$NRT" apply -e 'lambda s: s.upper() + "abc"' <<<$'hello\nstraße\n\nwörld'
expect_rc "text" 0; expect_out "text" $'HELLOabc\nSTRASSEabc\nabc\nWÖRLDabc\n'
if [ -s "$T/err" ]; then fail "text: stderr not empty on a pipe: $(cat "$T/err")"; else ok; fi

# --- explicit '-' for stdin, a .py file, --func, -o
cat >"$T/u.py" <<'PY'
def helper(s):
    return s.strip().title()

def other(s):
    return len(s)

def main(s):
    return helper(s) + '!'
PY
printf '  ada lovelace \nalan turing\n' >"$T/in.txt"
run "$NRT" apply "$T/u.py" - <"$T/in.txt"
expect_rc "py file" 0; expect_out "py file" $'Ada Lovelace!\nAlan Turing!\n'
run "$NRT" apply "$T/u.py" "$T/in.txt" --func other -o "$T/o.txt"
expect_rc "--func -o" 0; expect_out "--func -o (stdout empty)" ""
if [ "$(cat "$T/o.txt")" = $'15\n11' ]; then ok; else fail "-o content: $(cat "$T/o.txt")"; fi

# --- csv: choose columns by name, nulls (empty unquoted field), quoting, two parameters
cat >"$T/in.csv" <<'CSV'
id,first,last
1,ada,lovelace
2,,"hopper, grace"
3,"alan ""the"" ",turing
CSV
run "$NRT" apply -e 'lambda f, l: l.upper() + "|" + f' "$T/in.csv" --in-format csv --column last --column first
expect_rc "csv" 0; expect_out "csv" $'result\nADA|lovelace\n\n"ALAN ""THE"" |turing"\n'
run "$NRT" apply -e 'lambda s: s' "$T/in.csv" --in-format csv --column first --out-format jsonl
expect_rc "csv->jsonl" 0; expect_out "csv->jsonl" $'"ada"\nnull\n"alan \\"the\\" "\n'
run "$NRT" apply -e 'lambda s: s' "$T/in.csv" --in-format csv --column nosuch
expect_rc "csv missing column" 2

# --- jsonl: bare values and objects, typed parameters, nulls
printf '{"n": 3, "s": "ab"}\n{"n": null, "s": "x"}\n{"n": -7, "s": "é"}\n' >"$T/in.jsonl"
run "$NRT" apply -e 'lambda s, n: s * n' "$T/in.jsonl" --in-format jsonl --column s --column n
expect_rc "jsonl objects" 0; expect_out "jsonl objects" $'"ababab"\nnull\n""\n'
run "$NRT" apply -e 'lambda n: n // 2' "$T/in.jsonl" --in-format jsonl --column n --out-format text
expect_rc "jsonl int" 0; expect_out "jsonl int" $'1\n\n-4\n'
printf '1.5\n-2\nnull\n' >"$T/f.jsonl"
run "$NRT" apply -e 'lambda x: x * 2' "$T/f.jsonl" --in-format jsonl
expect_rc "jsonl float" 0; expect_out "jsonl float" $'3.0\n-4.0\nnull\n'
printf 'true\nfalse\n' >"$T/b.jsonl"
run "$NRT" apply -e 'lambda b: not b' "$T/b.jsonl" --in-format jsonl
expect_rc "jsonl bool" 0; expect_out "jsonl bool" $'false\ntrue\n'
run "$NRT" apply -e 'lambda s: len(s) > 1' --out-format csv <<<$'a\nbb'
expect_rc "bool csv" 0; expect_out "bool csv" $'result\nFalse\nTrue\n'
run "$NRT" apply -e 'lambda s: s if len(s) > 1 else None' --out-format jsonl <<<$'a\nbb'
expect_rc "None result" 0; expect_out "None result" $'null\n"bb"\n'

# --- runtime errors: stop (exit 1, row number, exception) and null
printf '1\n2\nx\n4\ny\n' >"$T/ints.txt"
run "$NRT" apply -e 'lambda s: str(int(s) * 10)' "$T/ints.txt"
expect_rc "errors stop" 1; expect_err_has "errors stop" "row 3: ValueError: invalid literal for int() with base 10: 'x'"
run "$NRT" apply -e 'lambda s: str(int(s) * 10)' "$T/ints.txt" --errors null
expect_rc "errors null" 0; expect_out "errors null" $'10\n20\n\n40\n\n'
run "$NRT" apply -e 'lambda s: str(int(s) * 10)' "$T/ints.txt" --errors null --out-format jsonl
expect_rc "errors null jsonl" 0; expect_out "errors null jsonl" $'"10"\n"20"\nnull\n"40"\nnull\n'
run "$NRT" apply -e 'lambda s: s[5]' <<<$'abcdefg\nab'
expect_rc "IndexError" 1; expect_err_has "IndexError" "row 2: IndexError: string index out of range"
run "$NRT" apply -e 'lambda s: len(s) // (len(s) - 2)' <<<$'abc\nab'
expect_rc "ZeroDivisionError" 1; expect_err_has "ZeroDivisionError" "row 2: ZeroDivisionError"
run "$NRT" apply -e 'lambda s: int(s) * 4611686018427387904' <<<$'1\n2'
expect_rc "OverflowError" 1; expect_err_has "OverflowError" "row 2: OverflowError"

# --- threads 1 and N give identical output
/usr/bin/python3 -c '
import random
random.seed(7)
a = "abcdefghij KLMNOP éüß漢字,="
for i in range(20000):
    print("".join(random.choice(a) for _ in range(random.randint(0, 30))))' >"$T/big.txt"
U='def f(s):
    a, b, c = s.partition("=")
    words = [w.title() for w in a.split(",") if w]
    return "-".join(words) + c.upper() if b else s[::-1]'
"$NRT" apply -e "$U" "$T/big.txt" --threads 1 -o "$T/t1.txt" 2>"$T/err"; r1=$?
"$NRT" apply -e "$U" "$T/big.txt" --threads 4 -o "$T/t4.txt" 2>"$T/err"; r4=$?
if [ $r1 = 0 ] && [ $r4 = 0 ] && cmp -s "$T/t1.txt" "$T/t4.txt" && [ "$(wc -l <"$T/t1.txt")" = 20000 ]; then ok; else fail "threads 1 vs 4 differ ($r1 $r4)"; fi

# --- compile errors, bad input, usage: exit 2 with a message
run "$NRT" apply -e 'lambda s: s +' <<<'a'
expect_rc "syntax error" 2; expect_err_has "syntax error" "<-e>:1:"
run "$NRT" apply -e 'lambda s: s + 1' <<<'a'
expect_rc "type error" 2; expect_err_has "type error" "^"
printf 'def f(s):\n    return t\n' >"$T/bad.py"
run "$NRT" apply "$T/bad.py" <<<'a'
expect_rc "name error" 2; expect_err_has "name error" "bad.py:2:"
printf 'ok\n\xff\xfe\n' >"$T/badutf8.txt"
run "$NRT" apply -e 'lambda s: s' "$T/badutf8.txt"
expect_rc "invalid utf-8" 2; expect_err_has "invalid utf-8" "line 2"
printf '{"a": 1\n' >"$T/bad.jsonl"
run "$NRT" apply -e 'lambda s: s' "$T/bad.jsonl" --in-format jsonl
expect_rc "bad json" 2
run "$NRT" apply -e 'lambda s: s' "$T/no-such-file"
expect_rc "missing input" 2
run "$NRT" apply "$T/no-such.py" <<<'a'
expect_rc "missing udf" 2
run "$NRT" apply -e 'lambda s: s' --bogus <<<'a'
expect_rc "unknown option" 2
run "$NRT" apply -e 'lambda s: s' --threads 0 <<<'a'
expect_rc "bad threads" 2
run "$NRT" apply -e 'lambda s: s' --errors maybe <<<'a'
expect_rc "bad errors" 2
run "$NRT" apply -e 'lambda s: s' --in-format xml <<<'a'
expect_rc "bad format" 2
run "$NRT" apply
expect_rc "no udf" 2
run "$NRT" apply -e 'lambda a, b: a' <<<'a'
expect_rc "parameter count" 2
run "$NRT" frobnicate
expect_rc "unknown command" 2
run "$NRT" apply --help
expect_rc "help" 0

# --- --stats and --emit-llvm
run "$NRT" apply -e 'lambda s: s.upper() + s' --stats <<<$'a\nb\nc'
expect_rc "stats" 0
for key in rows compile_ms run_ms alloc free mi_alloc mi_free refops_removed; do
  expect_err_has "stats $key" "^$key: "
done
expect_err_has "stats rows" "^rows: 3$"
expect_err_has "stats balanced" "^balanced: yes$"
run "$NRT" apply -e 'lambda s: s.upper() + s' --emit-llvm <<<'a'
expect_rc "emit-llvm" 0; expect_err_has "emit-llvm before" "before refprune"; expect_err_has "emit-llvm after" "after refprune"
expect_out "emit-llvm keeps stdout clean" $'Aa\n'

# --- the other commands
sed -n '/before refprune/,/after refprune/p' "$T/err" | sed '1d;$d' >"$T/m.ll"
run "$NRT" refprune "$T/m.ll" --stats
expect_rc "refprune" 0
run "$NRT" demo --rows 20000
expect_rc "demo" 0; grep -q "balanced: yes" "$T/out" && ok || fail "demo: not balanced: $(cat "$T/out")"
grep -q "write form, 1 thread: .* 0.00 strings made per row" "$T/out" && ok ||
  fail "demo: the write form made strings: $(cat "$T/out")"

echo "e2e_cli: $checks checks, $fails failed"
[ $fails = 0 ]

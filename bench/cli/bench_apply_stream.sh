#!/bin/sh
# Streaming `nrt apply`: wall time, throughput and peak RSS over generated text inputs of
# 10 MB, 100 MB, 1 GB and 5 GB (up to MAX_MB), optionally against a baseline build of the
# command measured in the same run (for example the last whole-input version, built from an
# older commit in a git worktree). A benchmark, never a test.
#
# usage: bench_apply_stream.sh NRT [MAX_MB [BASELINE_NRT [BASELINE_MAX_MB]]]
#   NRT              the nrt executable to measure
#   MAX_MB           largest input in MB (default 100: a quick run does 10 and 100; 5000 does
#                    all four sizes; the inputs live in a temporary directory, deleted after)
#   BASELINE_NRT     an nrt executable to compare with (its ratios are printed)
#   BASELINE_MAX_MB  largest input for the baseline (default MAX_MB; a whole-input build needs
#                    about 3 to 6 times the input in memory, so keep it below your RAM / 6)
# Environment: THREADS (default: all cores), UDF (default: lambda s: s.upper() + "!"),
# FORMAT (text, csv or jsonl: the input's format, default text), BATCH (extra options for NRT
# only, e.g. "--batch-rows 4096").
set -eu

nrt=${1:?usage: bench_apply_stream.sh NRT [MAX_MB [BASELINE_NRT [BASELINE_MAX_MB]]]}
max_mb=${2:-100}
base=${3:-}
base_max_mb=${4:-$max_mb}
udf=${UDF:-'lambda s: s.upper() + "!"'}
threads=${THREADS:-$(nproc)}
batch=${BATCH:-}
format=${FORMAT:-text}
case $format in
  text) fmt_opts="" ;;
  csv) fmt_opts="--in-format csv" ;;
  jsonl) fmt_opts="--in-format jsonl --column s" ;;
  *) echo "FORMAT is text, csv or jsonl" >&2; exit 2 ;;
esac
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (GNU time)" >&2; exit 2; }

dir=$(mktemp -d "${TMPDIR:-/tmp}/nrt-bench-stream.XXXXXX")
trap 'rm -rf "$dir"' EXIT INT TERM

# Lines of 20 to 100 bytes, some non-ASCII, up to MB megabytes (10^6 bytes), ending at a line
# end.
gen() { # gen MB FILE
  python3 - "$1" "$2" "$format" <<'EOF'
import json, sys
mb, path, fmt = int(sys.argv[1]), sys.argv[2], sys.argv[3]
target = mb * 1000 * 1000
words = ["alpha", "beta", "gamma", "delta", "épsilon", "zeta", "ēta", "theta", "iota", "kappa"]
block = []
for i in range(20000):
    n = 3 + (i * 7919) % 12
    line = " ".join(words[(i + k * 3) % 10] for k in range(n)) + " %d" % i
    if fmt == "jsonl":
        line = json.dumps({"s": line}, ensure_ascii=False)
    elif fmt == "csv" and i % 50 == 7:
        line = '"%s, ""quoted""\nover two lines"' % line
    block.append(line + "\n")
chunk = "".join(block).encode()
with open(path, "wb") as f:
    left = target
    if fmt == "csv":
        f.write(b"s\n")
        left -= 2
    while left >= len(chunk):
        f.write(chunk)
        left -= len(chunk)
    part = chunk[:left]
    f.write(part[: part.rfind(b"\n") + 1] if b"\n" in part else b"")
EOF
}

# run NRT FILE -> "seconds peak_kib"
run() {
  # shellcheck disable=SC2086 # $3 holds options
  /usr/bin/time -f "%e %M" -o "$dir/time" "$1" apply -e "$udf" "$2" -o /dev/null \
    --threads "$threads" $fmt_opts $3 2>"$dir/err" || { cat "$dir/err" >&2; echo "0 0"; return; }
  cat "$dir/time"
}

printf "nrt apply streaming: %s, %s input, threads %s, udf %s\n" "$nrt" "$format" "$threads" "$udf"
[ -n "$base" ] && printf "baseline: %s (up to %s MB)\n" "$base" "$base_max_mb"
printf "%-8s %10s | %8s %8s %9s" "input" "rows" "wall_s" "MB/s" "rss_MB"
[ -n "$base" ] && printf " | %8s %8s %9s | %7s %7s" "b_wall_s" "b_MB/s" "b_rss_MB" "speed" "rss"
printf "\n"
for mb in 10 100 1000 5000; do
  [ "$mb" -le "$max_mb" ] || break
  f="$dir/in_$mb.txt"
  gen "$mb" "$f"
  rows=$(wc -l < "$f") # lines (a csv record over two lines counts twice)
  bytes=$(wc -c < "$f")
  set -- $(run "$nrt" "$f" "$batch")
  s=$1 kib=$2
  label="${mb}MB"
  [ "$mb" -ge 1000 ] && label="$((mb / 1000))GB"
  printf "%-8s %10s | %8.2f %8.1f %9.1f" "$label" "$rows" "$s" \
    "$(echo "$bytes $s" | awk '{ print ($2 > 0 ? $1 / 1e6 / $2 : 0) }')" \
    "$(echo "$kib" | awk '{ print $1 / 1024 }')"
  if [ -n "$base" ] && [ "$mb" -le "$base_max_mb" ]; then
    set -- $(run "$base" "$f" "")
    bs=$1 bkib=$2
    printf " | %8.2f %8.1f %9.1f | %6.2fx %6.2fx" "$bs" \
      "$(echo "$bytes $bs" | awk '{ print ($2 > 0 ? $1 / 1e6 / $2 : 0) }')" \
      "$(echo "$bkib" | awk '{ print $1 / 1024 }')" \
      "$(echo "$bs $s" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')" \
      "$(echo "$kib $bkib" | awk '{ print ($2 > 0 ? $1 / $2 : 0) }')"
  fi
  printf "\n"
  rm -f "$f"
done
echo "speed: baseline wall time / this wall time (above 1: faster); rss: this peak / baseline's"

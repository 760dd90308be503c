#!/bin/sh
# The scale benchmark: how the walk and the planners grow with the tree. Whole processes, each against
# `find . -name '*.pem'` on the same tree in the same run (this machine may be shared: compare ratios, not seconds).
#
#   bench/scale.sh [--sizes "10000 100000 1000000"] [--runs N] [--out FILE] [--ralon EXECUTABLE] [--smoke]
# (the table goes to --out, default $TMPDIR/ralon-scale-results.md)
#
# For each size N: a tree of N files, 20 per directory (bench's Fixtures scale: t<a>/s<b>/d<c>/f<k>.txt, one file in
# 80 a .pem), under two agent.lock files in turn:
#   star      protect: ["**/*.pem"]                      every directory must be read
#   anchored  protect: ["config/**", ".github/workflows/*.yml", "t1/s2/*/*.pem"]   the walk can be pruned
# Commands: `ralon check` (the listing), `ralon status`, `ralon run --backend mount -- true`,
# `ralon run --backend landlock -- true`, and the anchor `find . -name '*.pem'`. Each is run N times (default 5) after
# one warm-up; the table gives the median wall time, its ratio to find's median, and the largest peak RSS (GNU time's
# %M, the largest single process). --ralon times another build (a copy of a baseline's cli/target/ralon).
# --smoke: 2,000 files, 2 runs: checks the script works, measures nothing.
# Needs GNU time at /usr/bin/time (Debian: apt-get install -y time).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out="${TMPDIR:-/tmp}/ralon-scale-results.md"
sizes="10000 100000 1000000"
runs=5
ralon="$top/cli/target/ralon"
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) sizes=2000; runs=2 ;;
    --sizes) sizes=$2; shift ;;
    --runs) runs=$2; shift ;;
    --out) out=$2; shift ;;
    --ralon) ralon=$2; shift ;;
    *) echo "usage: bench/scale.sh [--sizes \"N ...\"] [--runs N] [--out FILE] [--ralon EXECUTABLE] [--smoke]" >&2; exit 2 ;;
  esac
  shift
done
[ -x /usr/bin/time ] || { echo "bench/scale.sh: GNU time is missing; on Debian: apt-get install -y time" >&2; exit 2; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jar="$here/target/benchmarks.jar"
if [ ! -x "$ralon" ] || [ ! -f "$jar" ]; then
  ralon="$top/cli/target/ralon"
  (cd "$top" && ./mvnw -B -q install -DskipTests -pl cli,bench -am)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ralon-scale.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
rows="$work/rows.csv"
: > "$rows"

# measure LABEL CMD...: runs CMD (in the current directory) 1 + $runs times; appends "label,median_s,peak_kib"
measure() {
  label=$1; shift
  "$@" > /dev/null 2>&1 || true
  : > "$work/t"
  i=0
  while [ $i -lt "$runs" ]; do
    /usr/bin/time -a -o "$work/t" -f '%e %M' "$@" > /dev/null 2>&1 || true
    i=$((i + 1))
  done
  med=$(grep -E '^[0-9.]+ [0-9]+$' "$work/t" | cut -d' ' -f1 | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  peak=$(grep -E '^[0-9.]+ [0-9]+$' "$work/t" | cut -d' ' -f2 | sort -n | tail -n 1)
  echo "$label,$med,$peak" >> "$rows"
  echo "  $label: median ${med}s, peak ${peak} KiB" >&2
}

# the class-data-sharing archive is made once before timing (a first start builds it in the background)
mkdir -p "$work/warm" && printf 'version: 1\nprotect:\n  - a\n' > "$work/warm/agent.lock"
(cd "$work/warm" && "$ralon" check > /dev/null 2>&1 || true)
sleep 20

for n in $sizes; do
  echo "tree of $n files ..." >&2
  rm -rf "$work/tree"
  "$java" -cp "$jar" dev.ralon.bench.Fixtures scale "$work/tree" "$n"
  for set in star anchored; do
    if [ $set = star ]; then
      printf 'version: 1\nprotect:\n  - "**/*.pem"\n' > "$work/tree/agent.lock"
    else
      printf 'version: 1\nprotect:\n  - "config/**"\n  - ".github/workflows/*.yml"\n  - "t1/s2/*/*.pem"\n' \
        > "$work/tree/agent.lock"
    fi
    cd "$work/tree"
    measure "$n,$set,find . -name '*.pem'" find . -name '*.pem'
    measure "$n,$set,ralon check" "$ralon" check
    measure "$n,$set,ralon status" "$ralon" status
    measure "$n,$set,ralon run --backend mount -- true" "$ralon" run --backend mount -- true
    measure "$n,$set,ralon run --backend landlock -- true" "$ralon" run --backend landlock -- true
    cd "$work"
  done
done

{
  echo "# ralon scale benchmark"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(uname -sr); nproc: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- ralon: $ralon"
  echo "- java: $("$java" -version 2>&1 | head -n 1); runs per command: $runs (after 1 warm-up); median wall time"
  [ "$sizes" = 2000 ] && echo "- SMOKE RUN: these numbers are not results"
  echo
  echo "| files | patterns | command | median (s) | × find | peak RSS (MiB) |"
  echo "|---:|---|---|---:|---:|---:|"
  awk -F, '
    { n[NR]=$1; s[NR]=$2; c[NR]=$3; m[NR]=$4; p[NR]=$5; if ($3 ~ /^find/) f[$1 "," $2]=$4 }
    END { for (i = 1; i <= NR; i++) {
            k = n[i] "," s[i]; r = (f[k] > 0) ? sprintf("%.1f", m[i] / f[k]) : "-"
            printf "| %d | %s | `%s` | %.2f | %s | %.0f |\n", n[i], s[i], c[i], m[i], r, p[i] / 1024 } }' "$rows"
} > "$out"
echo "results written to $out" >&2

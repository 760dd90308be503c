#!/bin/sh
# The cost of finding nested agent.lock files (docs/spec.md §2.2): every command that discovers its policies walks the
# whole tree below the outermost agent.lock. --before names a build without that walk (discovery from the working
# directory up only: a copy of an earlier cli/target/ralon); both run on the same tree, interleaved run by run (this
# machine may be shared: compare the ratios of one run, not seconds across runs).
#
#   bench/nested.sh --before EXECUTABLE [--sizes "10000 100000 1000000"] [--runs N] [--out FILE] [--ralon EXECUTABLE]
#                   [--smoke]
#
# The tree is bench/scale.sh's (bench's Fixtures scale: N files, 20 per directory), under the "anchored" agent.lock
# of bench/scale.sh (the expansion's walk is pruned to a few directories, so the discovery walk is all the extra) and
# the "star" one (`**/*.pem`: the expansion lists every directory anyway). Commands: `ralon check t1/x.pem` (which
# walked nothing before), `ralon status`, `ralon run --backend landlock -- true`, each by --before and by --ralon.
# (`--policy agent.lock` is no baseline: that form goes through picocli, ~0.1 s more than the fast paths.) Median wall
# time and median CPU time (user + sys; steadier on a loaded machine) of N runs (default 5) after one warm-up each;
# the table's ratios are after / before.
# Needs GNU time at /usr/bin/time.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out="${TMPDIR:-/tmp}/ralon-nested-results.md"
sizes="10000 100000 1000000"
runs=5
ralon="$top/cli/target/ralon"
before=
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) sizes=2000; runs=2 ;;
    --sizes) sizes=$2; shift ;;
    --runs) runs=$2; shift ;;
    --out) out=$2; shift ;;
    --ralon) ralon=$2; shift ;;
    --before) before=$2; shift ;;
    *) echo "usage: bench/nested.sh --before EXECUTABLE [--sizes \"N ...\"] [--runs N] [--out FILE] [--ralon EXECUTABLE] [--smoke]" >&2; exit 2 ;;
  esac
  shift
done
[ -n "$before" ] && [ -x "$before" ] || { echo "bench/nested.sh: --before EXECUTABLE is required" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/nested.sh: GNU time is missing; on Debian: apt-get install -y time" >&2; exit 2; }
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
jar="$here/target/benchmarks.jar"
[ -x "$ralon" ] && [ -f "$jar" ] || { echo "bench/nested.sh: build first: ./mvnw -B -q -pl cli,bench -am -DskipTests package" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ralon-nested.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM
rows="$work/rows.csv"
: > "$rows"

# pair LABEL ARGS...: runs `$ralon ARGS` and `$before ARGS` alternately, 1 + $runs times each;
# appends "label,after_median_s,before_median_s,after_cpu_s,before_cpu_s" (CPU: user + sys, median)
pair() {
  label=$1; shift
  "$ralon" "$@" > /dev/null 2>&1 || true
  "$before" "$@" > /dev/null 2>&1 || true
  : > "$work/a"; : > "$work/b"
  i=0
  while [ $i -lt "$runs" ]; do
    /usr/bin/time -a -o "$work/a" -f '%e %U %S' "$ralon" "$@" > /dev/null 2>&1 || true
    /usr/bin/time -a -o "$work/b" -f '%e %U %S' "$before" "$@" > /dev/null 2>&1 || true
    i=$((i + 1))
  done
  ma=$(grep -E '^[0-9.]+ ' "$work/a" | cut -d' ' -f1 | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  mb=$(grep -E '^[0-9.]+ ' "$work/b" | cut -d' ' -f1 | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  ca=$(grep -E '^[0-9.]+ ' "$work/a" | awk '{ print $2 + $3 }' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  cb=$(grep -E '^[0-9.]+ ' "$work/b" | awk '{ print $2 + $3 }' | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
  echo "$label,$ma,$mb,$ca,$cb" >> "$rows"
  echo "  $label: after ${ma}s (CPU ${ca}s), before ${mb}s (CPU ${cb}s)" >&2
}

mkdir -p "$work/warm" && printf 'version: 1\nprotect:\n  - a\n' > "$work/warm/agent.lock"
(cd "$work/warm" && "$ralon" check > /dev/null 2>&1 || true)
(cd "$work/warm" && "$before" check > /dev/null 2>&1 || true)
sleep 20

for n in $sizes; do
  echo "tree of $n files ..." >&2
  rm -rf "$work/tree"
  "$java" -cp "$jar" dev.ralon.bench.Fixtures scale "$work/tree" "$n"
  for set in anchored star; do
    if [ $set = star ]; then
      printf 'version: 1\nprotect:\n  - "**/*.pem"\n' > "$work/tree/agent.lock"
    else
      printf 'version: 1\nprotect:\n  - "config/**"\n  - ".github/workflows/*.yml"\n  - "t1/s2/*/*.pem"\n' \
        > "$work/tree/agent.lock"
    fi
    cd "$work/tree"
    pair "$n,$set,check t1/x.pem" check t1/x.pem
    pair "$n,$set,status" status
    pair "$n,$set,run --backend landlock -- true" run --backend landlock -- true
    cd "$work"
  done
done

{
  echo "# ralon nested-discovery benchmark"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(uname -sr); nproc: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- after: $ralon; before: $before"
  echo "- java: $("$java" -version 2>&1 | head -n 1); runs per command: $runs (after 1 warm-up), interleaved; median wall time"
  [ "$sizes" = 2000 ] && echo "- SMOKE RUN: these numbers are not results"
  echo
  echo "| files | patterns | command | after (s) | before (s) | ratio | CPU after (s) | CPU before (s) | CPU ratio |"
  echo "|---:|---|---|---:|---:|---:|---:|---:|---:|"
  awk -F, '{ r = ($5 > 0) ? sprintf("%.2f", $4 / $5) : "-"; q = ($7 > 0) ? sprintf("%.2f", $6 / $7) : "-"
    printf "| %d | %s | `%s` | %.2f | %.2f | %s | %.2f | %.2f | %s |\n", $1, $2, $3, $4, $5, r, $6, $7, q }' "$rows"
} > "$out"
echo "results written to $out" >&2

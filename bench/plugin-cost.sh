#!/bin/sh
# What agentlock-maven-plugin adds to a build: `mvn -q -o validate` of a project with agentlock:check bound, against
# the same project's build without the plugin (the anchor, in the same hyperfine group), on a 50,000-file tree.
#
#   bench/plugin-cost.sh [--files N] [--runs N] [--warmup N] [--cases "pem anchored nested"] [--before VERSION]
#                        [--out FILE]
#
# Cases (each a git repository; N files, a fifth of them under a git-ignored target/, 1 in 1,000 a .pem):
#   pem        agent.lock protects "**/*.pem": the check walks the tree to count what matches
#   anchored   agent.lock names paths from the top (pom.xml, .github/workflows/**, secrets/*.key, one resource)
#   nested     a small repository with the anchored policy, nested in a directory whose own agent.lock protects
#              "**/*.pem" over N files outside the repository (a home directory's or a parent checkout's)
# Each case is timed with the plugin at this tree's version and, with --before VERSION, at an older version installed
# in the same local repository (docs/performance.md says how the numbers there were made).
# Needs: hyperfine (Debian: apt-get install -y hyperfine); the plugin installed
# (./mvnw -B -pl maven-plugin -am install -DskipTests); Maven 3.9 (the wrapper's, found under ~/.m2/wrapper, or MVN).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
files=50000
runs=10
warmup=2
cases="pem anchored nested"
before=
out="$here/plugin-cost.md"
while [ $# -gt 0 ]; do
  case $1 in
    --files) files=$2; shift ;;
    --runs) runs=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --cases) cases=$2; shift ;;
    --before) before=$2; shift ;;
    --out) out=$2; shift ;;
    *) echo "usage: bench/plugin-cost.sh [--files N] [--runs N] [--warmup N] [--cases LIST] [--before VERSION] [--out FILE]" >&2
       exit 2 ;;
  esac
  shift
done
if ! command -v hyperfine >/dev/null 2>&1; then
  echo "bench/plugin-cost.sh: hyperfine is not installed; on Debian/Ubuntu: apt-get install -y hyperfine" >&2
  exit 2
fi
mvn=${MVN:-$(ls -d "$HOME"/.m2/wrapper/dists/apache-maven-3.9.*/*/bin/mvn 2>/dev/null | tail -n 1)}
if [ -z "$mvn" ] || [ ! -x "$mvn" ]; then
  echo "bench/plugin-cost.sh: no Maven 3.9 found; run ./mvnw --version once, or set MVN" >&2
  exit 2
fi
version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' "$top/pom.xml" | head -n 1)
# the build's own settings (a per-checkout local repository, if any), so the fixtures find the installed plugin
flags=$(cat "$top/.mvn/maven.config" 2>/dev/null || true)
work=$(mktemp -d "${TMPDIR:-/tmp}/agentlock-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

# $1 directory, $2 number of files: generated paths 8 levels deep at most, a fifth under target/ (git-ignored)
tree() {
  mkdir -p "$1"
  awk -v n="$2" 'BEGIN { for (i = 0; i < n; i++) {
      top = (i % 5 == 4) ? "target/classes" : "src/main/java";
      ext = (i % 1000 == 7) ? "pem" : "java";
      printf "%s/m%02d/p%03d/q%d/F%d.%s\n", top, i % 40, (i / 40) % 25, (i / 1000) % 5, i, ext } }' > "$work/list"
  (cd "$1" && sed 's:/[^/]*$::' "$work/list" | sort -u | xargs mkdir -p && xargs touch < "$work/list")
  printf 'target/\n' > "$1/.gitignore"
}

# $1 directory, $2 with-plugin (1) or not (0): a POM whose plugin version is -Dagentlock.version
pom() {
  {
    printf '<project xmlns="http://maven.apache.org/POM/4.0.0">\n  <modelVersion>4.0.0</modelVersion>\n'
    printf '  <groupId>bench</groupId><artifactId>p</artifactId><version>1</version><packaging>pom</packaging>\n'
    printf '  <properties><agentlock.version>%s</agentlock.version></properties>\n' "$version"
    if [ "$2" = 1 ]; then
      printf '  <build><plugins><plugin><groupId>dev.ralon</groupId><artifactId>agentlock-maven-plugin</artifactId>\n'
      printf '    <version>${agentlock.version}</version>\n'
      printf '    <executions><execution><goals><goal>check</goal></goals></execution></executions>\n'
      printf '  </plugin></plugins></build>\n'
    fi
    printf '</project>\n'
  } > "$1/$([ "$2" = 1 ] && echo pom.xml || echo pom-plain.xml)"
}

project() {
  pom "$1" 1
  pom "$1" 0
  mkdir -p "$1/.github/workflows" "$1/secrets" "$1/src/main/resources"
  : > "$1/.github/workflows/ci.yml"; : > "$1/secrets/a.key"; : > "$1/src/main/resources/prod.yml"
  (cd "$1" && git init -q && git add -A && git -c user.name=b -c user.email=b@b -c commit.gpgsign=false commit -qm p)
}

anchored='version: 1
protect:
  - pom.xml
  - .github/workflows/**
  - secrets/*.key
  - src/main/resources/prod.yml
'
echo "fixtures in $work ($files files a tree) ..." >&2
for case in $cases; do
  case $case in
    pem)
      tree "$work/pem" "$files"
      printf 'version: 1\nprotect:\n  - "**/*.pem"\n' > "$work/pem/agent.lock"
      project "$work/pem" ;;
    anchored)
      tree "$work/anchored" "$files"
      printf '%s' "$anchored" > "$work/anchored/agent.lock"
      project "$work/anchored" ;;
    nested)
      tree "$work/outer" "$files"
      printf 'version: 1\nprotect:\n  - "**/*.pem"\n' > "$work/outer/agent.lock"
      mkdir -p "$work/outer/nested"
      printf '%s' "$anchored" > "$work/outer/nested/agent.lock"
      project "$work/outer/nested" ;;
    *) echo "bench/plugin-cost.sh: unknown case $case (pem, anchored, nested)" >&2; exit 2 ;;
  esac
done

: > "$out.tmp"
for case in $cases; do
  dir="$work/$case"
  [ "$case" = nested ] && dir="$work/outer/nested"
  # each build must pass before it is timed (a failing build is fast and says nothing)
  for v in "$version" $before; do
    (cd "$dir" && $mvn $flags -q -o validate "-Dagentlock.version=$v" > "$work/check.log" 2>&1) || {
      echo "bench/plugin-cost.sh: the $case build with the plugin at $v fails:" >&2; cat "$work/check.log" >&2; exit 1; }
  done
  set -- hyperfine -N --warmup "$warmup" --runs "$runs" --export-markdown "$work/$case.md" \
    -n "$case: without the plugin" "$mvn $flags -q -o -f $dir/pom-plain.xml validate"
  [ -n "$before" ] && set -- "$@" -n "$case: plugin $before" "$mvn $flags -q -o -f $dir/pom.xml validate -Dagentlock.version=$before"
  set -- "$@" -n "$case: plugin $version" "$mvn $flags -q -o -f $dir/pom.xml validate"
  "$@" >&2
  { echo "#### $case"; echo; cat "$work/$case.md"; echo; } >> "$out.tmp"
done
mv "$out.tmp" "$out"
echo "written: $out" >&2

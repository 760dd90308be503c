#!/bin/sh
# Times whole ralon processes side by side with anchors measured in the same run (this machine may be shared: compare
# ratios, not milliseconds), and writes a markdown results table.
#
#   bench/run.sh [--smoke] [--start-only] [--out FILE] [--files N] [--protected N] [--runs N] [--jdk JAVA_HOME]...
#                [--release DIR]
#
# Builds (if missing) cli/target/ralon and bench/target/benchmarks.jar, then fixtures in a temporary directory:
#   small/       a project with a 3-pattern agent.lock (the check and run start-up cases)
#   tree/        N files (default 100,000) at generated monorepo paths, the 12-pattern corpus agent.lock, a git index
#   pruned/      the same tree with a 5-pattern agent.lock without "**/": the walk is pruned to what they name
#   protected/   10,000 protected files (data/**/*.json, 100 per directory) + a fully protected vendor/ directory
# The start-up group (check, the agents' hook with a realistic Claude Code payload, status, both runs) runs once for each
# --jdk given (default: $JAVA_HOME, else the java on PATH), each against a hello-world on that JDK, e.g.
#   bench/run.sh --jdk /usr/lib/jvm/java-17-openjdk-amd64 --jdk /usr/lib/jvm/temurin-25-jdk-amd64
# --release DIR: the start-up group once more for a release's tree (dist/target/release/ralon-VERSION, made by
# `./mvnw -B -q install -DskipTests`): its bin/ralon with its own runtime and build-time archive, against a
# hello-world on that runtime (runtime/bin/java) -- the targets of docs/performance.md are ratios to that anchor.
# Anchors: a Java hello-world on the same JDK; `git ls-files` and `find . -name '*.pem'` on the same tree.
# Peers (group "peers", in the small project, each starting `true` in its sandbox, beside Ralon's two runs -- the
# release's when --release is given): `bwrap --ro-bind / / --dev /dev true` (Debian: apt-get install -y bubblewrap),
# `codex sandbox -- true` (npm @openai/codex) and `srt true` (npm @anthropic-ai/sandbox-runtime; needs bwrap, socat and
# rg); each found on PATH, skipped with a note if absent.
# Scale (group "scale", the tree with agent.lock `**/*.pem`): `run -- true` under both backends against the find.
# Needs hyperfine (Debian: apt-get install -y hyperfine). --smoke: 1,000-file tree, 100 protected files, 3 runs:
# checks that the script works, measures nothing worth keeping. --start-only: the start-up groups and the peers alone
# (no tree, pruned, scale or protected groups; the large fixtures are not made).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
out="$here/results.md"
files=100000
prot=10000
runs=20
smoke=0
start_only=0
jdks=
release=
while [ $# -gt 0 ]; do
  case $1 in
    --smoke) smoke=1; files=1000; prot=100; runs=3 ;;
    --start-only) start_only=1 ;;
    --out) out=$2; shift ;;
    --files) files=$2; shift ;;
    --protected) prot=$2; shift ;;
    --runs) runs=$2; shift ;;
    --jdk) jdks="${jdks:-} $2"; shift ;;
    --release) release=$2; shift ;;
    *) echo "usage: bench/run.sh [--smoke] [--start-only] [--out FILE] [--files N] [--protected N] [--runs N] [--jdk JAVA_HOME]... [--release DIR]" >&2; exit 2 ;;
  esac
  shift
done
if [ -n "$release" ] && { [ ! -f "$release/lib/ralon.release" ] || [ ! -x "$release/bin/ralon" ]; }; then
  echo "bench/run.sh: $release is not a release's tree (no lib/ralon.release or bin/ralon); make one with ./mvnw -B -q install -DskipTests" >&2
  exit 2
fi
if ! command -v hyperfine >/dev/null 2>&1; then
  echo "bench/run.sh: hyperfine is not installed; on Debian/Ubuntu: apt-get install -y hyperfine" >&2
  exit 2
fi
java=${JAVA_HOME:+$JAVA_HOME/bin/}java
ralon="$top/cli/target/ralon"
jar="$here/target/benchmarks.jar"
if [ ! -x "$ralon" ] || [ ! -f "$jar" ]; then
  (cd "$top" && ./mvnw -B -q install -DskipTests -pl cli,bench -am)
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ralon-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

echo "fixtures in $work ..." >&2
mkdir -p "$work/hello" "$work/small/src" "$work/small/secrets"
cat > "$work/hello/Hello.java" <<'J'
public class Hello { public static void main(String[] a) { System.out.println("hello"); } }
J
"${java}c" -d "$work/hello" "$work/hello/Hello.java"
printf 'version: 1\nprotect:\n  - "**/*.json"\n  - pom.xml\n  - secrets/\n' > "$work/small/agent.lock"
: > "$work/small/pom.xml"; : > "$work/small/src/a.java"
if [ "$start_only" = 0 ]; then
  "$java" -cp "$jar" dev.ralon.bench.Fixtures tree "$work/tree" "$files"
  "$java" -cp "$jar" dev.ralon.bench.Fixtures protected "$work/protected" "$prot"
  (cd "$work/tree" && git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -qm tree)
  # the same tree under a policy without "**/" patterns: the walk goes only where a pattern can still match
  "$java" -cp "$jar" dev.ralon.bench.Fixtures tree "$work/pruned" "$files"
  printf 'version: 1\nprotect:\n  - "config/**"\n  - ".github/workflows/*.yml"\n  - "packages/*/package.json"\n  - "infra/terraform/**/*.tf"\n  - "services/*/src/main/resources/application*.yml"\n' \
    > "$work/pruned/agent.lock"
  (cd "$work/pruned" && git init -q && git add -A && git -c user.name=b -c user.email=b@b commit -qm tree)
fi
# A Write of an unprotected file, as Claude Code sends it to its PreToolUse hook (about 3 KB of content)
line='export function handler(req, res) {\n  return res.json({ ok: true });\n}\n'
content=; i=0; while [ $i -lt 40 ]; do content="$content$line"; i=$((i + 1)); done
printf '{"session_id":"3f2a9c1e-7b4d-4e2a-9f0e-1c2d3e4f5a6b","transcript_path":"/home/u/.claude/projects/p/3f2a.jsonl","cwd":"%s","permission_mode":"default","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"%s","content":"%s"}}' \
  "$work/small" "$work/small/src/index.ts" "$content" > "$work/write.json"

hello="$java -cp $work/hello Hello"
csv="$work/all.csv"
: > "$csv"
group() { # group NAME DIR hyperfine-args...: runs hyperfine in DIR, appends "group,command,mean,stddev" rows
  name=$1; dir=$2; shift 2
  (cd "$dir" && hyperfine -N --warmup 3 --runs "$runs" -i --export-csv "$work/g.csv" "$@" >&2)
  tail -n +2 "$work/g.csv" | awk -F, -v g="$name" '{ printf "%s,%s,%.6f,%.6f\n", g, $1, $2, $3 }' >> "$csv"
}
start_group() { # start_group NAME JAVA RALON [more commands...]: the start-up group against a hello-world on JAVA
  # (NAME without a comma: the results pass through a CSV)
  sg_name=$1; sg_java=$2; sg_ralon=$3; shift 3
  group "$sg_name" "$work/small" "$sg_java -cp $work/hello Hello" \
    "$sg_ralon check src/a.java" "$sg_ralon check pom.xml" "sh -c 'exec $sg_ralon hook claude-code < $work/write.json'" \
    "$sg_ralon status" "$sg_ralon run --backend landlock -- true" "$sg_ralon run --backend mount -- true" "$@"
}
[ -n "$jdks" ] || jdks=$(dirname "$(dirname "$(readlink -f "$(command -v "$java")")")")
own_java_home=${JAVA_HOME-}
for jdk in $jdks; do
  export JAVA_HOME="$jdk"
  jv=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  # the launcher's class-data-sharing archive for this JDK (JDK 25+: its ahead-of-time cache, java.aot): made once
  # before timing (a first start builds it in the background, beside the executable in .ralon-cds: see
  # cli/src/main/launcher/ralon.sh)
  (cd "$work/small" && "$ralon" check pom.xml >/dev/null || true)
  i=0; while [ $i -lt 120 ] && [ -z "$(find "$top/cli/target/.ralon-cds" \( -path "*$jdk/bin/java.jsa" -o -path "*$jdk/bin/java.aot" \) -newer "$ralon" 2>/dev/null)" ]; do
    sleep 1; i=$((i + 1)); done
  [ $i -lt 120 ] || echo "bench/run.sh: no class-data-sharing archive or AOT cache for $jdk after 120 s: the numbers include class loading" >&2
  start_group "start (JDK $jv)" "$jdk/bin/java" "$ralon" \
    "env RALON_CDS=0 $ralon check src/a.java" "env RALON_CDS=0 $ralon run --backend landlock -- true"
done
if [ -n "$own_java_home" ]; then JAVA_HOME=$own_java_home; else unset JAVA_HOME; fi
if [ -n "$release" ]; then
  # the release ignores JAVA_HOME (its own runtime runs); its archive was made at build time: nothing to wait for
  rel=$(cd "$release" && pwd)
  rv=$("$rel/runtime/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  # The anchor has a class-data archive, as a JDK's hello-world has (lib/server/classes.jsa, which a jlinked runtime
  # lacks): made here from the runtime's own lib/classlist. Without it the hello-world pays ~25 ms of class loading
  # that Ralon, with its build-time archive, does not, and every ratio to it flatters Ralon (the row after the
  # anchor shows that hello-world too).
  rel_java="$rel/runtime/bin/java"
  if "$rel/runtime/bin/java" -Xshare:dump -XX:SharedArchiveFile="$work/release-hello.jsa" >/dev/null 2>&1; then
    rel_java="$rel/runtime/bin/java -XX:SharedArchiveFile=$work/release-hello.jsa"
  else
    echo "bench/run.sh: no class-data archive for the release's runtime: its hello-world anchor runs without one" >&2
  fi
  start_group "start (release: runtime $rv)" "$rel_java" "$rel/bin/ralon" "$rel/runtime/bin/java -cp $work/hello Hello"
fi
peer_note=
# the peers, each starting `true` in its own sandbox, beside Ralon's runs and the hello-world of Ralon's java
if [ -n "$release" ]; then peer_java=$rel_java; peer_ralon="$rel/bin/ralon"; else peer_java=$java; peer_ralon=$ralon; fi
set -- "$peer_java -cp $work/hello Hello" "$peer_ralon run --backend landlock -- true" \
  "$peer_ralon run --backend mount -- true"
if command -v bwrap >/dev/null 2>&1; then set -- "$@" "bwrap --ro-bind / / --dev /dev true"; else
  peer_note="$peer_note bwrap is not on PATH (Debian: apt-get install -y bubblewrap)."; fi
if command -v codex >/dev/null 2>&1; then set -- "$@" "codex sandbox -- true"; else
  peer_note="$peer_note codex is not on PATH (npm install @openai/codex)."; fi
if command -v srt >/dev/null 2>&1 && srt true >/dev/null 2>&1; then set -- "$@" "srt true"; else
  peer_note="$peer_note srt is not on PATH or cannot start (npm install @anthropic-ai/sandbox-runtime; it needs bwrap, socat, rg)."; fi
group peers "$work/small" "$@"
if [ "$start_only" = 0 ]; then
  group tree "$work/tree" "git ls-files" "$ralon check" "$hello"
  group pruned "$work/pruned" "git ls-files" "$ralon check" "$hello"
  # the scale target: `run -- true` on the whole tree with one "**/" pattern, against find naming the same files
  cp "$work/tree/agent.lock" "$work/tree-agent.lock"
  printf 'version: 1\nprotect:\n  - "**/*.pem"\n' > "$work/tree/agent.lock"
  group scale "$work/tree" "find . -name *.pem" "$ralon run --backend mount -- true" \
    "$ralon run --backend landlock -- true" "$ralon check" "git ls-files"
  cp "$work/tree-agent.lock" "$work/tree/agent.lock"
  group protected "$work/protected" "$hello" "$ralon run --backend landlock -- true" "$ralon run --backend mount -- true"
  (cd "$work/protected" && "$ralon" run --dry-run --backend mount -- true > "$work/plan-mount.txt" 2>&1 || true)
  (cd "$work/protected" && "$ralon" run --dry-run --backend landlock -- true > "$work/plan-landlock.txt" 2>&1 || true)
fi

{
  echo "# ralon benchmark results"
  echo
  echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC'); host: $(uname -sr); nproc: $(nproc); load at start of write-up: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "- java: $("$java" -version 2>&1 | head -n 1); hyperfine $(hyperfine --version | cut -d' ' -f2); runs per command: $runs (warm-up 3)"
  [ "$start_only" = 1 ] && echo "- start-up groups and peers only (--start-only)"
  [ "$start_only" = 1 ] || echo "- tree: $files files; protected project: $prot protected files + $((prot / 10)) in a protected vendor/"
  # landlock gives every entry beside a directory on the way to a protected path a rule of its own (docs/performance.md)
  echo "- entries in the directories above the small project (landlock: one rule each): $(p=$work/small; n=0; while [ "$p" != / ]; do p=$(dirname "$p"); n=$((n + $(ls -A "$p" | wc -l))); done; echo $n)"
  [ "$smoke" = 1 ] && echo "- SMOKE RUN: fixtures are small and runs few; these numbers are not results"
  [ -n "$peer_note" ] && echo "- peers skipped:$peer_note"
  echo
  echo "| group | command | mean (ms) | ± σ (ms) | × hello-world | × git ls-files |"
  echo "|---|---|---:|---:|---:|---:|"
  awk -F, -v hello="$hello" '
    { g[NR]=$1; c[NR]=$2; m[NR]=$3; s[NR]=$4; if ($2 ~ / Hello$/ && !($1 in h)) h[$1]=$3; if ($2 == "git ls-files") gl[$1]=$3
      if ($2 ~ /^find /) f[$1]=$3 }
    END { for (i = 1; i <= NR; i++) {
            hr = (g[i] in h) ? sprintf("%.2f", m[i] / h[g[i]]) : ""
            gr = (g[i] in gl) ? sprintf("%.2f", m[i] / gl[g[i]]) : ""
            if (g[i] in f) gr = gr " (÷ find " sprintf("%.2f", m[i] / f[g[i]]) ")"
            cmd = c[i]; gsub(/\/[^ ]*\/cli\/target\/ralon/, "ralon", cmd); gsub(/\/[^ ]*\/bin\/ralon/, "ralon", cmd); gsub(/-cp [^ ]*hello/, "-cp hello", cmd); gsub(/SharedArchiveFile=[^ ]*\//, "SharedArchiveFile=", cmd)
            gsub(/< [^ ]*write.json/, "< write.json", cmd); gsub(/\/[^ ]*\/bin\/java /, "java ", cmd)
            printf "| %s | `%s` | %.1f | %.1f | %s | %s |\n", g[i], cmd, m[i] * 1000, s[i] * 1000, hr, gr } }' "$csv"
  if [ "$start_only" = 0 ]; then
    echo
    echo "Plan for the protected project (mount): $(grep -c '' "$work/plan-mount.txt") lines of \`ralon run --dry-run\`; first lines:"
    echo
    echo '```'
    head -n 12 "$work/plan-mount.txt"
    echo '```'
    echo
    echo "Plan (landlock), first lines:"
    echo
    echo '```'
    head -n 12 "$work/plan-landlock.txt"
    echo '```'
  fi
} > "$out"
echo "results written to $out" >&2

#!/bin/sh
# Lints the GitHub Action (action.yml) with actionlint, which the build machines lack. In a temporary repository
# holding a copy of action.yml, a workflow on pull_request uses it as `uses: ./`, once with every input and once with
# none: actionlint reads a local action's action.yml and checks the inputs given to it (and runs shellcheck on the
# workflow's run: scripts when shellcheck is on PATH). A second workflow gives an input the action does not have,
# which actionlint must report (so action.yml was read). actionlint does not look into a composite action's own
# steps: when shellcheck is on PATH, each run: script of action.yml is given to shellcheck too, and none may hold a
# ${{ }} expression (inputs reach the scripts through env:).
#   checks/actionlint.sh [ACTIONLINT]
# ACTIONLINT: the actionlint executable (default: actionlint on PATH). Exit 0 when nothing is found.
set -eu
al=${1:-actionlint}
here=$(cd "$(dirname "$0")/.." && pwd)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
git init -q "$w"
mkdir -p "$w/.github/workflows"
cp "$here/action.yml" "$w/action.yml"
cat > "$w/.github/workflows/guard.yml" <<'YAML'
name: guard
on: pull_request
jobs:
  defaults:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: ./
  every-input:
    runs-on: ubuntu-24.04-arm
    steps:
      - uses: actions/checkout@v4
        with:
          fetch-depth: 0
      - uses: ./
        with:
          base: origin/${{ github.base_ref }}
          version: 0.1.0
          sha256: 0000000000000000000000000000000000000000000000000000000000000000
          args: --policy agent.lock
      - run: echo "after the guard"
YAML
cat > "$w/.github/workflows/wrong.yml" <<'YAML'
name: wrong
on: pull_request
jobs:
  guard:
    runs-on: ubuntu-latest
    steps:
      - uses: ./
        with:
          bogus: 1
YAML
"$al" -version | head -1
command -v shellcheck > /dev/null && echo "shellcheck: $(command -v shellcheck)" || echo "shellcheck: not on PATH"
cd "$w"
"$al" .github/workflows/guard.yml
echo "guard.yml: no finding"
if out=$("$al" -no-color .github/workflows/wrong.yml 2>&1); then
  echo "FAIL: actionlint accepted an input the action does not have" >&2; exit 1
fi
case $out in
  *'input "bogus" is not defined'*) echo "wrong.yml: the unknown input is reported" ;;
  *) echo "FAIL: unexpected output for wrong.yml:" >&2; echo "$out" >&2; exit 1 ;;
esac
# each `run: |` block of action.yml into run-N.sh: its lines indented deeper than the key, that indentation removed
awk -v dir="$w" '
  function indent(s) { match(s, /^ */); return RLENGTH }
  inrun && ($0 ~ /^ *$/ || indent($0) > key) {
    if (cut < 0 && $0 !~ /^ *$/) cut = indent($0)
    print (cut < 0 ? "" : substr($0, cut + 1)) > file; next
  }
  { inrun = 0 }
  /^ *(- )?run: \|-?$/ { n++; inrun = 1; key = indent($0); cut = -1; file = dir "/run-" n ".sh"; print "#!/bin/bash" > file }
  END { if (n == 0) { print "no run: | block in action.yml" > "/dev/stderr"; exit 1 } }
' action.yml
for f in run-*.sh; do
  if grep -n -F "\${{" "$f"; then echo "FAIL: an expression in a run: script of action.yml ($f)" >&2; exit 1; fi
done
set -- run-*.sh
echo "action.yml: $# run: scripts, no expression in them"
if command -v shellcheck > /dev/null; then
  shellcheck -s bash run-*.sh
  echo "action.yml: shellcheck finds nothing in its run: scripts"
fi

#!/bin/sh
# Runs .pre-commit-hooks.yaml with the real pre-commit framework against a fresh repository: a commit that changes a
# protected path is refused (pre-commit exits 1 and the commit is not made), one that changes another path is made.
#   checks/pre-commit.sh PRE_COMMIT RALON
# PRE_COMMIT: the pre-commit executable (pip install pre-commit); RALON: the launcher (cli/target/ralon), put on PATH
# as `ralon`. Uses this repository's HEAD as the hook repository. Exit 0 when both outcomes are as said.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 PRE_COMMIT RALON" >&2; exit 64; }
pc=$1 ralon=$2
here=$(cd "$(dirname "$0")/.." && pwd)
rev=$(git -C "$here" rev-parse HEAD)
w=$(mktemp -d)
trap 'rm -rf "$w"' EXIT
mkdir "$w/bin" "$w/repo" "$w/cache"
ln -s "$(cd "$(dirname "$ralon")" && pwd)/$(basename "$ralon")" "$w/bin/ralon"
export PATH="$w/bin:$PATH" PRE_COMMIT_HOME="$w/cache" GIT_CONFIG_NOSYSTEM=1
cd "$w/repo"
g() { git -c user.email=check@example.com -c user.name=check -c commit.gpgsign=false "$@"; }
g init -q
printf 'version: 1\nprotect:\n  - .env\n' > agent.lock
echo SECRET=1 > .env
echo a > notes.txt
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $here
    rev: $rev
    hooks: [{id: ralon-check-staged}]
YAML
g add -A && g commit -qm start --no-verify
"$pc" --version
"$pc" install
echo SECRET=2 > .env && g add .env
if g commit -qm "change .env"; then echo "FAIL: the commit changing .env was made" >&2; exit 1; fi
[ "$(git log --format=%s -1)" = start ] || { echo "FAIL: HEAD moved" >&2; exit 1; }
echo "refused: the commit changing .env"
g reset -q --hard
echo b >> notes.txt && g add notes.txt
g commit -qm "change notes" || { echo "FAIL: the commit changing notes.txt was refused" >&2; exit 1; }
echo "made: the commit changing notes.txt"

#!/usr/bin/env bash
# Builds the release twice from the same commit, each in a fresh clone (`git clone` of HEAD: committed files only),
# and compares the SHA-256 of every artifact (docs/publishing.md, "Checked by every build"):
#   dist/src/test/reproducible.sh
# Exit 0 when SHA256SUMS and the install trees are identical; the differing files are listed otherwise.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
work=$(mktemp -d /tmp/ralon-reproducible.XXXXXX); trap 'rm -rf "$work"' EXIT
for n in 1 2; do
  git clone -q --no-hardlinks "$root" "$work/b$n"
  ( cd "$work/b$n" && ./mvnw -B -q install -Prelease -DskipTests -Dinvoker.skip > "$work/build$n.log" 2>&1 ) \
    || { tail -30 "$work/build$n.log" >&2; echo "reproducible: build $n failed" >&2; exit 2; }
  ( cd "$work/b$n/dist/target/release" && find "ralon-"*/ -type f -exec sha256sum {} + | sort -k2 > "$work/tree$n" )
done
cat "$work/b1/dist/target/release/SHA256SUMS"
if diff "$work/b1/dist/target/release/SHA256SUMS" "$work/b2/dist/target/release/SHA256SUMS" \
   && diff "$work/tree1" "$work/tree2"; then
  echo "reproducible: two builds of $(git -C "$root" rev-parse --short HEAD), every artifact and file identical"
else
  echo "reproducible: the builds differ (above)" >&2; exit 1
fi

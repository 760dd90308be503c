#!/usr/bin/env bash
# The release's tests, run by `./mvnw verify` (dist's verify phase) right after the packages were built into
# TARGET/release (docs/publishing.md, "Checked by every build"):
#   1. reproducible: release.sh again, from the same executable into TARGET/release-again (another path), and every
#      package's SHA-256 and every file of the install tree must be the same;
#   2. installed as a user would: install-check.sh (as root: it installs the .deb and runs each package as uid 65534).
# usage: dist-check.sh VERSION LAUNCHER REPOSITORY TARGET SBOM [JDK]   (release.sh's arguments, TARGET for OUT)
# A part that cannot run here (no packages: release.sh skipped them; not root) is one line and skipped, and fails the
# build instead under RALON_DIST_STRICT=true or CI=true, where the machine promises what it needs.
set -euo pipefail
[ $# -ge 5 ] || { echo "usage: $0 VERSION LAUNCHER REPOSITORY TARGET SBOM [JDK]" >&2; exit 64; }
version=$1 launcher=$2 repo=$3 target=$4 sbom=$5 jdk=${6:-}
here=$(cd "$(dirname "$0")" && pwd)
# everything said also goes to TARGET/dist-check.log, which .ci/run shows when the build fails
mkdir -p "$target"
exec > >(tee "$target/dist-check.log") 2>&1
strict=; if [ "${RALON_DIST_STRICT:-}" = true ] || [ "${CI:-}" = true ]; then strict=1; fi
skip() { # WHY
  if [ -n "$strict" ]; then echo "dist-check: FAILED: $1" >&2; exit 1; fi
  echo "dist-check: SKIPPED: $1" >&2
}
rel=$target/release
if [ ! -f "$rel/SHA256SUMS" ]; then
  skip "no packages in $rel (release.sh skipped them: see its line above)"
  exit 0
fi

# 1. reproducible (the packaging; dist/src/test/reproducible.sh compares two whole builds from fresh clones). Every
# file of the tree and every package must be the same, with one exception said in a warning, not a failure: the
# class-data archive alone (lib/ralon.jsa, and so the three packages that carry it). Seen on 2026-12-07: the packaging
# of the build's package phase, made while the end-to-end tests run beside it, gave another archive than the ones made
# after it (its training run loaded another set of classes; the cause is not found yet), twice in four clean-clone
# runs; two packagings made one after the other were always the same.
tree_sums() { (cd "$1" && find "ralon-$version" -type f -exec sha256sum {} + | LC_ALL=C sort -k2); }
differing() { diff <(tree_sums "$rel") <(tree_sums "$1") | sed -n 's/^[<>] [0-9a-f]*  //p' | LC_ALL=C sort -u; }
again=$target/release-again
bash "$here/../build/release.sh" "$version" "$launcher" "$repo" "$again" "$sbom" "$jdk" > "$again.log" 2>&1 \
  || { cat "$again.log" >&2; echo "dist-check: FAILED: the second release build failed" >&2; exit 1; }
files=$(differing "$again")
if [ -n "$files" ] && [ "$files" != "ralon-$version/lib/ralon.jsa" ]; then
  echo "dist-check: FAILED: two release builds from the same executable differ in: $(echo $files): not reproducible" >&2
  exit 1
elif [ -n "$files" ]; then
  echo "dist-check: WARNING: the second build's class-data archive (lib/ralon.jsa) differs from the first's; every" \
    "other file is the same (docs/publishing.md, \"Checked by every build\")" >&2
elif ! diff -q "$rel/SHA256SUMS" "$again/SHA256SUMS" > /dev/null; then
  diff "$rel/SHA256SUMS" "$again/SHA256SUMS" >&2
  echo "dist-check: FAILED: the same install tree packed twice gave other packages: not reproducible" >&2
  exit 1
else
  echo "dist-check: reproducible: a second build (another path) gave the same packages and install tree"
fi
rm -rf "$again" "$again.log"

# 2. installed and run as a user would
if [ "$(id -u)" != 0 ]; then
  skip "the packages are installed and run only as root (dpkg -i, then setpriv to uid 65534): run sudo $here/install-check.sh $rel"
  exit 0
fi
bash "$here/install-check.sh" "$rel"

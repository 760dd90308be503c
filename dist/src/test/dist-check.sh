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

# 1. reproducible (the packaging; dist/src/test/reproducible.sh compares two whole builds from fresh clones)
again=$target/release-again
bash "$here/../build/release.sh" "$version" "$launcher" "$repo" "$again" "$sbom" "$jdk" > "$target/release-again.log" 2>&1 \
  || { cat "$target/release-again.log" >&2; echo "dist-check: FAILED: the second release build failed" >&2; exit 1; }
tree_sums() { (cd "$1" && find "ralon-$version" -type f -exec sha256sum {} + | LC_ALL=C sort -k2); }
if ! diff "$rel/SHA256SUMS" "$again/SHA256SUMS" >&2 || ! diff <(tree_sums "$rel") <(tree_sums "$again") >&2; then
  echo "dist-check: FAILED: two release builds from the same executable differ (above): not reproducible" >&2
  exit 1
fi
rm -rf "$again" "$target/release-again.log"
echo "dist-check: reproducible: a second build (another path) gave the same packages and install tree"

# 2. installed and run as a user would
if [ "$(id -u)" != 0 ]; then
  skip "the packages are installed and run only as root (dpkg -i, then setpriv to uid 65534): run sudo $here/install-check.sh $rel"
  exit 0
fi
bash "$here/install-check.sh" "$rel"

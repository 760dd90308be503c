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

# 1. reproducible (the packaging; dist/src/test/reproducible.sh compares two whole builds from fresh clones). Seen once
# (2026-12-07, beside a concurrent end-to-end test run; not reproduced under load since): a second packaging that
# differed. So a difference is shown by file and the packaging is made once more: a third that matches the first is a
# warning naming the files that differed, a third that differs too fails (a systematic difference: a path, a time).
tree_sums() { (cd "$1" && find "ralon-$version" -type f -exec sha256sum {} + | LC_ALL=C sort -k2); }
same() { diff -q "$rel/SHA256SUMS" "$1/SHA256SUMS" > /dev/null && diff -q <(tree_sums "$rel") <(tree_sums "$1") > /dev/null; }
differing() { diff <(tree_sums "$rel") <(tree_sums "$1") | sed -n 's/^[<>] [0-9a-f]*  //p' | LC_ALL=C sort -u | tr '\n' ' '; }
package_again() { # OUT
  bash "$here/../build/release.sh" "$version" "$launcher" "$repo" "$1" "$sbom" "$jdk" > "$1.log" 2>&1 \
    || { cat "$1.log" >&2; echo "dist-check: FAILED: the release build into $1 failed" >&2; exit 1; }
}
again=$target/release-again
package_again "$again"
if ! same "$again"; then
  first=$(differing "$again")
  echo "dist-check: a second build (another path) differs in: $first; building a third" >&2
  rm -rf "$again" "$again.log"
  package_again "$again"
  if ! same "$again"; then
    echo "dist-check: FAILED: the third build differs too, in: $(differing "$again"): not reproducible" >&2
    exit 1
  fi
  echo "dist-check: WARNING: reproducible on the third build; the second differed in: $first" >&2
fi
rm -rf "$again" "$again.log"
echo "dist-check: reproducible: a second build (another path) gave the same packages and install tree"

# 2. installed and run as a user would
if [ "$(id -u)" != 0 ]; then
  skip "the packages are installed and run only as root (dpkg -i, then setpriv to uid 65534): run sudo $here/install-check.sh $rel"
  exit 0
fi
bash "$here/install-check.sh" "$rel"

#!/usr/bin/env bash
# Installs each release package as a user would and runs it as uid 65534, with a fresh HOME and no `java` on PATH
# (docs/publishing.md, "Checking a release"). Run as root (dpkg -i, setpriv) after the release build:
#   dist/src/test/install-check.sh [dist/target/release]
# For each of the tarball (unpacked under /tmp by uid 65534), the .deb (dpkg -i, removed at the end) and the npm
# package (npm install -g into a fresh prefix, by uid 65534), in a fresh git project whose agent.lock protects .env:
#   ralon --version; ralon check .env (exit 1); ralon run --backend mount|landlock -- true (exit 0);
#   a write to .env under each backend fails and .env is unchanged, checked from outside;
#   the class-data archive is used (-Xshare:on: the JVM fails where it cannot map it);
#   nothing is written outside the project: HOME stays empty and the installed tree unchanged.
set -euo pipefail
rel=$(readlink -f "${1:-$(dirname "$0")/../../target/release}")
[ "$(id -u)" = 0 ] || { echo "install-check: run as root (it installs the .deb and drops to uid 65534)" >&2; exit 2; }
tarball=$(ls "$rel"/ralon-*-linux-*.tar.gz) deb=$(ls "$rel"/ralon_*.deb) npmpkg=$(ls "$rel"/ralon-*.tgz)
(cd "$rel" && sha256sum -c --quiet SHA256SUMS)

base=$(mktemp -d /tmp/ralon-install-check.XXXXXX)
chmod 755 "$base"
cleanup() { PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg --purge ralon > /dev/null 2>&1 || true; rm -rf "$base"; }
trap cleanup EXIT
# PATH without java: every command of /usr/bin and /bin except those that are a JDK's
nojava=$base/path
mkdir -p "$nojava"
for f in /usr/local/bin/* /usr/bin/* /bin/*; do
  n=${f##*/}
  [ -e "$nojava/$n" ] && continue
  case $(readlink -f "$f") in /usr/lib/jvm/*) continue ;; esac
  ln -s "$f" "$nojava/$n"
done
export PATH=$nojava
! command -v java > /dev/null || { echo "install-check: java still on PATH" >&2; exit 2; }

as_user() { # HOME DIR CMD...: run as uid 65534 in DIR with HOME and this PATH, environment otherwise empty
  local home=$1 dir=$2; shift 2
  (cd "$dir" && setpriv --reuid=65534 --regid=65534 --clear-groups \
     env -i PATH="$PATH" HOME="$home" LANG=C.UTF-8 "$@")
}
fail() { echo "install-check: FAILED: $*" >&2; exit 1; }

check_install() { # NAME RALON TREE
  local name=$1 ralon=$2 tree=$3
  local home=$base/home-$name proj=$base/proj-$name
  mkdir -p "$home" "$proj"
  printf 'version: 1\nprotect:\n  - .env\n' > "$proj/agent.lock"
  echo secret > "$proj/.env"
  git -C "$proj" init -q
  chown -R 65534:65534 "$home" "$proj"
  local before; before=$(find "$tree" -printf '%p %s %T@ %m\n' | sort)
  echo "== $name: $ralon"
  as_user "$home" "$proj" "$ralon" --version || fail "$name: --version"
  as_user "$home" "$proj" env RALON_JAVA_OPTS=-Xshare:on "$ralon" --version > /dev/null \
    || fail "$name: the class-data archive is not used (-Xshare:on)"
  set +e
  as_user "$home" "$proj" "$ralon" check .env > /dev/null; rc=$?
  set -e
  [ "$rc" = 1 ] || fail "$name: check .env exited $rc, not 1"
  for backend in mount landlock; do
    as_user "$home" "$proj" "$ralon" run -q --backend "$backend" -- true || fail "$name: run --backend $backend -- true"
    as_user "$home" "$proj" "$ralon" run -q --backend "$backend" -- sh -c 'echo pwned > .env; echo x > scratch.txt' \
      > /dev/null 2>&1 || true
    [ "$(cat "$proj/.env")" = secret ] || fail "$name: .env changed under $backend"
    [ -f "$proj/scratch.txt" ] || fail "$name: scratch.txt not made under $backend"
    rm -f "$proj/scratch.txt"
    echo "   run --backend $backend: true ran, .env unchanged"
  done
  [ -z "$(find "$home" -mindepth 1 -print -quit)" ] || { find "$home" >&2; fail "$name: wrote in HOME"; }
  [ "$before" = "$(find "$tree" -printf '%p %s %T@ %m\n' | sort)" ] || fail "$name: the installed tree changed"
  echo "   check .env: 1; archive used; HOME empty and the install unchanged"
}

# tarball, unpacked anywhere by the user
mkdir -p "$base/opt"; chown 65534:65534 "$base/opt"
as_user "$base/opt" "$base/opt" tar xzf "$tarball"
tree=$(ls -d "$base"/opt/ralon-*)
check_install tarball "$tree/bin/ralon" "$tree"

# .deb
PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg -i "$deb" > /dev/null
[ -L /usr/bin/ralon ] && [ -f /usr/lib/ralon/bin/ralon ] && [ -f /usr/share/man/man1/ralon.1.gz ] \
  && [ -f /usr/share/bash-completion/completions/ralon ] && [ -f /etc/apparmor.d/ralon ] || fail "deb: files missing"
check_install deb /usr/bin/ralon /usr/lib/ralon
PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg --purge ralon > /dev/null
[ ! -e /usr/lib/ralon ] && [ ! -e /usr/bin/ralon ] && [ ! -e /etc/apparmor.d/ralon ] || fail "deb: left files after purge"
echo "   removed: no file left"

# npm, into a fresh prefix (npm's own cache outside HOME: HOME must stay empty for ralon's check)
mkdir -p "$base/npm-prefix" "$base/npm-cache"; chown 65534:65534 "$base/npm-prefix" "$base/npm-cache"
as_user "$base/npm-prefix" "$base" npm install -g --offline --no-audit --no-fund --prefix "$base/npm-prefix" \
  --cache "$base/npm-cache" "$npmpkg" > /dev/null
rm -rf "$base/npm-prefix/.npm" "$base/npm-prefix/.npmrc"
check_install npm "$base/npm-prefix/bin/ralon" "$base/npm-prefix/lib/node_modules/ralon"
echo "install-check: all three packages passed"

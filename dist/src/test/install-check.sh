#!/usr/bin/env bash
# Installs each release package as a user would and runs it as uid 65534, with a fresh HOME in an ordinary place
# (under /home, not /tmp) and no `java` on PATH (docs/publishing.md, "Checked by every build"). Run as root (dpkg -i,
# setpriv) after the release build; `./mvnw verify` runs it (dist-check.sh):
#   dist/src/test/install-check.sh [dist/target/release]
# For each of the tarball (unpacked by uid 65534), the .deb (dpkg -i; removed, then purged, at the end) and the npm
# package (npm install -g into a fresh prefix, by uid 65534), in a fresh git project whose agent.lock protects .env:
#   ralon --version; ralon check .env (exit 1); ralon status (no word of a missing start-up archive);
#   ralon run --backend mount|landlock -- true (exit 0);
#   a write to .env under each backend fails and .env is unchanged, checked from outside;
#   the class-data archive is used (-Xshare:on: the JVM fails where it cannot map it);
#   nothing is written outside the project but the session notes (HOME/.cache/ralon/sessions/) and, under mount,
#   the project's copy of HOME (HOME/.local/state/ralon/homes/: a write into ~ lands there), and the installed
#   tree is unchanged.
set -euo pipefail
rel=$(readlink -f "${1:-$(dirname "$0")/../../target/release}")
[ "$(id -u)" = 0 ] || { echo "install-check: run as root (it installs the .deb and drops to uid 65534)" >&2; exit 2; }
tarball=$(ls "$rel"/ralon-*-linux-*.tar.gz) deb=$(ls "$rel"/ralon_*.deb) npmpkg=$(ls "$rel"/ralon-*.tgz)
(cd "$rel" && sha256sum -c --quiet SHA256SUMS)

parent=${RALON_INSTALL_CHECK_BASE:-/home}
mkdir -p "$parent" # an ordinary place for a HOME; a minimal machine may have no /home yet
base=$(mktemp -d "$parent/ralon-install-check.XXXXXX")
chmod 755 "$base"
# the packages copied where uid 65534 can read them: the build's own directory may sit below one only root can enter
# (a clone in /root, or CI's checkout), and a user installs from a file they can read
mkdir "$base/packages"
cp "$tarball" "$deb" "$npmpkg" "$base/packages/"
chmod 644 "$base"/packages/*
tarball=$base/packages/${tarball##*/} deb=$base/packages/${deb##*/} npmpkg=$base/packages/${npmpkg##*/}
deb_installed= # set once this check installed its .deb: only then is ralon purged on the way out
cleanup() {
  if [ -n "$deb_installed" ]; then PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg --purge ralon > /dev/null 2>&1 || true; fi
  rm -rf "$base"
}
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
    as_user "$home" "$proj" "$ralon" run -q --backend "$backend" -- sh -c 'echo pwned > .env; echo x > scratch.txt;
      echo x > "$HOME/.written-in-the-copy"' > /dev/null 2>&1 || true
    [ "$(cat "$proj/.env")" = secret ] || fail "$name: .env changed under $backend"
    [ -f "$proj/scratch.txt" ] || fail "$name: scratch.txt not made under $backend"
    rm -f "$proj/scratch.txt"
    echo "   run --backend $backend: true ran, .env unchanged"
  done
  as_user "$home" "$proj" "$ralon" status > "$base/status.out" 2>&1 || { cat "$base/status.out" >&2; fail "$name: status"; }
  ! grep -i 'start-up archive' "$base/status.out" >&2 || fail "$name: status reports a start-up archive problem"
  # HOME: only the session notes (SessionNotes: ~/.cache/ralon/sessions/<hash>.txt) and the project's copy of HOME
  # (HomeCopy: ~/.local/state/ralon/homes/<store>/, which the mount run's write into ~ landed in), nothing else
  local wrote; wrote=$(cd "$home" && find . -mindepth 1 \( -path ./.local/state/ralon/homes -prune \) -o \( \
    ! -path ./.cache ! -path ./.cache/ralon ! -path ./.cache/ralon/sessions \
    ! -regex '\./\.cache/ralon/sessions/[0-9a-f]*\.txt' ! -path ./.local ! -path ./.local/state \
    ! -path ./.local/state/ralon -print \))
  [ -z "$wrote" ] || { echo "$wrote" >&2; fail "$name: wrote in HOME besides the session notes and the copy"; }
  ls "$home"/.local/state/ralon/homes/*/upper/.written-in-the-copy > /dev/null \
    || fail "$name: the mount run's write into ~ is not in the project's copy" 
  [ "$before" = "$(find "$tree" -printf '%p %s %T@ %m\n' | sort)" ] || fail "$name: the installed tree changed"
  echo "   check .env: 1; status; archive used; HOME holds only the session notes and the copy; the install unchanged"
}

# tarball, unpacked anywhere by the user
mkdir -p "$base/opt"; chown 65534:65534 "$base/opt"
as_user "$base/opt" "$base/opt" tar xzf "$tarball" || fail "tarball: uid 65534 cannot unpack $tarball"
tree=$(ls -d "$base"/opt/ralon-*)
check_install tarball "$tree/bin/ralon" "$tree"

# .deb (never over an installed ralon: the machine's own stays as it is)
if PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg-query -W -f='${Status}' ralon 2>/dev/null | grep -q 'installed'; then
  fail "deb: a ralon package is installed on this machine; remove it first (this check installs and purges its own)"
fi
deb_installed=1
PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg -i "$deb" > /dev/null
[ -L /usr/bin/ralon ] && [ -f /usr/lib/ralon/bin/ralon ] && [ -f /usr/share/man/man1/ralon.1.gz ] \
  && [ -f /usr/share/bash-completion/completions/ralon ] && [ -f /etc/apparmor.d/ralon ] || fail "deb: files missing"
check_install deb /usr/bin/ralon /usr/lib/ralon
# `apt remove` keeps the AppArmor profile (a conffile, as dpkg keeps every package's /etc files); purge removes it
PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg --remove ralon > /dev/null
[ ! -e /usr/lib/ralon ] && [ ! -e /usr/bin/ralon ] && [ -f /etc/apparmor.d/ralon ] || fail "deb: remove did not leave the conffile alone"
PATH=/usr/sbin:/sbin:/usr/bin:/bin dpkg --purge ralon > /dev/null
[ ! -e /usr/lib/ralon ] && [ ! -e /usr/bin/ralon ] && [ ! -e /etc/apparmor.d/ralon ] || fail "deb: left files after purge"
echo "   removed: only /etc/apparmor.d/ralon left (a conffile); purged: no file left"

# npm, into a fresh prefix (npm's own cache outside HOME: HOME must stay empty for ralon's check)
mkdir -p "$base/npm-prefix" "$base/npm-cache"; chown 65534:65534 "$base/npm-prefix" "$base/npm-cache"
as_user "$base/npm-prefix" "$base" npm install -g --offline --no-audit --no-fund --prefix "$base/npm-prefix" \
  --cache "$base/npm-cache" "$npmpkg" > /dev/null || fail "npm: uid 65534 cannot install $npmpkg"
rm -rf "$base/npm-prefix/.npm" "$base/npm-prefix/.npmrc"
check_install npm "$base/npm-prefix/bin/ralon" "$base/npm-prefix/lib/node_modules/ralon"
# npm's install-script warning (README, Install): with --ignore-scripts ralon works, and status says why it starts slower
mkdir -p "$base/npm-noscripts"; chown 65534:65534 "$base/npm-noscripts"
as_user "$base/npm-noscripts" "$base" npm install -g --ignore-scripts --offline --no-audit --no-fund \
  --prefix "$base/npm-noscripts" --cache "$base/npm-cache" "$npmpkg" > /dev/null
as_user "$base/home-npm" "$base/proj-npm" "$base/npm-noscripts/bin/ralon" status > "$base/status.out" 2>&1 \
  || { cat "$base/status.out" >&2; fail "npm --ignore-scripts: status"; }
grep -q '^start-up archive: not mapped by the JVM: .*npm install --ignore-scripts' "$base/status.out" \
  || { cat "$base/status.out" >&2; fail "npm --ignore-scripts: status does not say the archive is not mapped"; }
echo "   with --ignore-scripts: works; status names the archive it cannot map"
echo "install-check: all three packages passed"

#!/usr/bin/env bash
# The release build (docs/publishing.md): from the ralon executable (cli/target/ralon), makes under OUT
#   ralon-VERSION/                        the install tree (bin/ralon, runtime/, lib/, share/, LICENSE)
#   ralon-VERSION-linux-ARCH.tar.gz       that tree
#   ralon_DEBVERSION_DEBARCH.deb          /usr/lib/ralon, /usr/bin/ralon, man page, completions, copyright, AppArmor
#   ralon-VERSION.tgz                     the npm package (npm pack): `npm install -g` puts ralon on PATH
#   ralon-VERSION.cdx.json                the CycloneDX SBOM (SBOM: made by the build's cyclonedx-maven-plugin)
#   SHA256SUMS                            of the four
# usage: release.sh VERSION LAUNCHER REPOSITORY OUT SBOM [JDK]
#   JDK: the JDK whose jlink makes runtime/ (its version is the runtime's). Default: the newest of $JAVA_HOME, the
#   `java` on PATH's JDK and /usr/lib/jvm/*, by the JAVA_VERSION of their `release` file.
#
# Reproducible: every file gets the same time (EPOCH below), archives list entries in name order with owner root, no
# build path or time is written anywhere, and the class-data archive is made from a class list put in a canonical
# order (the training run's threads loaded classes in varying order; the JVM's static dump from one list is
# byte-identical: checked). dist/src/test/reproducible.sh builds twice and compares.
# Linux only: the runtime is the build machine's (x64 or aarch64), and GNU tar, dpkg-deb and npm make the packages.
set -euo pipefail
# C.UTF-8: Ralon refuses a JVM that reads file names as ASCII; sort below is told LC_ALL=C (byte order) itself
export LC_ALL=C.UTF-8 TZ=UTC
umask 022

[ $# -ge 5 ] || { echo "usage: $0 VERSION LAUNCHER REPOSITORY OUT SBOM [JDK]" >&2; exit 64; }
version=$1 launcher=$2 repo=$3 out=$4 sbom=$5 jdk=${6:-}
mkdir -p "$out"
launcher=$(readlink -f "$launcher") repo=$(cd "$repo" && pwd) out=$(cd "$out" && pwd) sbom=$(readlink -m "$sbom")
src=$(cd "$(dirname "$0")/.." && pwd) # dist/src
die() { echo "release: $*" >&2; exit 2; }

# Every file gets this time (1985-10-26T08:15:00Z, the one npm pack writes) in every package: the JVM maps the
# class-data archive only when the jar (bin/ralon) has the size and time it was made with (HotSpot compares both;
# checked: after a `touch` of the jar it is not used). tar and dpkg keep the time; npm install does not, and the npm
# package's postinstall sets it again (below).
EPOCH=499162500

major() { sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$1/release" 2>/dev/null; }
if [ -z "$jdk" ]; then
  best=; bestv=0
  for h in ${JAVA_HOME:-} "$(dirname "$(dirname "$(readlink -f "$(command -v java || echo /nonexistent)")")")" /usr/lib/jvm/*; do
    [ -x "$h/bin/jlink" ] || continue
    v=$(major "$h"); [ -n "$v" ] || continue
    if [ "$v" -gt "$bestv" ]; then best=$h; bestv=$v; fi
  done
  jdk=$best
fi
[ -n "$jdk" ] && [ -x "$jdk/bin/jlink" ] || die "no JDK with jlink found: give one with -Dralon.release.jdk=/path/to/jdk"
jv=$(major "$jdk"); [ -n "$jv" ] && [ "$jv" -ge 17 ] || die "$jdk is not a JDK 17 or later"
case $(uname -m) in
  x86_64) arch=x64 debarch=amd64 npmcpu=x64 ;;
  aarch64) arch=aarch64 debarch=arm64 npmcpu=arm64 ;;
  *) die "unsupported machine $(uname -m)" ;;
esac
[ -f "$launcher" ] || die "no launcher at $launcher (build cli first)"
# A machine without a tool the packages need: under RALON_DIST_STRICT=true (the release profile) or CI=true the build
# fails; elsewhere (a developer's machine without npm, say) the packages are skipped, said in one line, and OUT holds
# no package (dist-check.sh then checks nothing and says so)
for tool in tar gzip dpkg-deb npm sha256sum awk; do
  command -v "$tool" > /dev/null && continue
  why="the release build needs $tool (GNU tar, gzip, dpkg-deb, npm, coreutils, awk)"
  if [ "${RALON_DIST_STRICT:-}" = true ] || [ "${CI:-}" = true ]; then die "$why"; fi
  rm -rf "${out:?}"/*
  echo "release: SKIPPED: $why; the packages are not built here (CI and -Prelease build them)" >&2
  exit 0
done
echo "release: ralon $version, runtime from $jdk (Java $jv), linux-$arch"

rm -rf "${out:?}"/* 
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
tree=$out/ralon-$version

# ---- the install tree
mkdir -p "$tree/bin" "$tree/lib" "$tree/share/man/man1" "$tree/share/bash-completion/completions" \
  "$tree/share/zsh/site-functions"
# java.base and java.logging: jdeps --print-module-deps of the executable's jar names them and java.desktop, which only
# JNA's AWT support uses (never loaded by Ralon). --strip-debug etc.: 43 MB for JDK 25.
if [ "$jv" -ge 21 ]; then compress=zip-6; else compress=2; fi
"$jdk/bin/jlink" --add-modules java.base,java.logging,jdk.unsupported --strip-debug --no-header-files --no-man-pages \
  --compress="$compress" --output "$tree/runtime"
# jlink links duplicate legal notices (legal/MODULE/*) to java.base's; npm pack drops links, so they become copies
find "$tree/runtime" -type l | while read -r l; do cp --remove-destination "$(readlink -f "$l")" "$l"; done
install -m 755 "$launcher" "$tree/bin/ralon"
printf 'ralon %s linux-%s\nruntime Java %s\n' "$version" "$arch" "$jv" > "$tree/lib/ralon.release"
cp "$repo/LICENSE" "$tree/LICENSE"
sed "s/@VERSION@/$version/g" "$src/man/ralon.1" > "$tree/share/man/man1/ralon.1"
cp "$src/completion/_ralon" "$tree/share/zsh/site-functions/_ralon"
java=$tree/runtime/bin/java
# the man page names every command and every option of every command (picocli's help, as the executable prints it),
# and groff reads it without a warning
man=$tree/share/man/man1/ralon.1
help() { RALON_CDS=0 HOME=$work "$java" -cp "$tree/bin/ralon" dev.ralon.cli.Boot "$@"; }
commands=$(help --help | sed -n 's/^  \([a-z][a-z-]*\)  .*/\1/p')
[ -n "$commands" ] || die "cannot read the commands from ralon --help"
for word in $commands $(for c in "" $commands; do help $c --help | sed -n 's/^ *\(-[a-zA-Z], \)\{0,1\}\(--[a-z-]*\).*/\2/p'; done \
                        | LC_ALL=C sort -u); do
  grep -qF -- "$(printf '%s' "$word" | sed 's/-/\\-/g')" "$man" || die "the man page does not name $word"
done
if command -v groff > /dev/null; then
  warnings=$(groff -man -Tutf8 -ww -z "$man" 2>&1) || true
  [ -z "$warnings" ] || die "groff: $warnings"
fi
# the options every start gives the JVM (the launcher's ralon_vm: one source), which the archive must be made with
vm=$(sed -n 's/^ralon_vm="\(.*\)"$/\1/p' "$tree/bin/ralon")
[ -n "$vm" ] || die "cannot read ralon_vm from the launcher"
native="-Djna.platform.library.path=/lib:/usr/lib --enable-native-access=ALL-UNNAMED"
( cd "$work" && HOME=$work RALON_CDS=0 "$java" $vm $native -cp "$tree/bin/ralon" dev.ralon.cli.Boot \
    generate-completion ) > "$tree/share/bash-completion/completions/ralon"
bash -n "$tree/share/bash-completion/completions/ralon" || die "the bash completion script does not parse"

# ---- the class-data archive, for this runtime and bin/ralon, made with the times the packages will have
find "$tree" -exec touch -h -d "@$EPOCH" {} +
mkdir -p "$work/home" "$work/cwd"
( cd "$work/cwd" && HOME=$work/home "$java" $vm $native -Xshare:off -XX:DumpLoadedClassList="$work/classes.raw" \
    -cp "$tree/bin/ralon" dev.ralon.cli.Train "$tree/lib/jna" ) > "$work/train.log" 2>&1 \
  || { cat "$work/train.log" >&2; die "the training run failed"; }
# Canonical order: the classes sorted by name and numbered again, then the lambda lines sorted; the @cp lines (constant
# pool entries resolved in training) go, as their indices depend on the threads' interleaving (a static dump uses them
# only with -XX:+AOTClassLinking).
{ echo "# ralon $version: the class list of dev.ralon.cli.Train, canonical order (dist/src/build/release.sh)"
  grep -v '^[@#]' "$work/classes.raw" | sed 's/ id: [0-9]*.*$//' | LC_ALL=C sort -u | awk '{ print $0 " id: " NR - 1 }'
  grep '^@lambda-' "$work/classes.raw" | LC_ALL=C sort -u
} > "$work/classes.lst"
# The archive records the class path it is made with (the path, not only the file: `strings` shows it), so it is made
# through a fixed one, /mnt, a bind of the tree in a user and mount namespace of this build's own: the archive is then
# the same wherever the build ran. At a start the JVM maps it under any path (HotSpot accepts an application class
# path moved as a whole; checked: the tree unpacked elsewhere, -Xshare:on). Without user namespaces: the build's own
# path, and a warning that the archive differs between checkouts.
dump() { # ROOT: the tree's path for this dump
  "$1/runtime/bin/java" $vm --enable-native-access=ALL-UNNAMED -Xshare:dump -XX:SharedClassListFile="$work/classes.lst" \
    -XX:SharedArchiveFile="$1/lib/ralon.jsa" -cp "$1/bin/ralon"
}
if unshare --user --map-root-user --mount true 2> /dev/null && [ -d /mnt ]; then
  ( cd "$work/cwd" && export -f dump && export vm work && unshare --user --map-root-user --mount \
      bash -c 'mount --bind "$1" /mnt && dump /mnt' bash "$tree" ) > "$work/dump.log" 2>&1 \
    || { cat "$work/dump.log" >&2; die "the class-data archive could not be made"; }
else
  echo "release: WARNING: no user namespaces here: the class-data archive records this build's path ($tree) and differs between checkouts" >&2
  ( cd "$work/cwd" && dump "$tree" ) > "$work/dump.log" 2>&1 \
    || { cat "$work/dump.log" >&2; die "the class-data archive could not be made"; }
fi
find "$tree" -exec touch -h -d "@$EPOCH" {} +
chmod -R go-w "$tree"
# used, not just made: -Xshare:on makes the JVM fail where it cannot map it
RALON_JAVA_OPTS=-Xshare:on HOME=$work/home "$tree/bin/ralon" --version > /dev/null \
  || die "the release's launcher does not start with its archive (-Xshare:on)"

# ---- tarball
tarball=ralon-$version-linux-$arch.tar.gz
tar --sort=name --mtime="@$EPOCH" --owner=0 --group=0 --numeric-owner --format=gnu -C "$out" -cf - "ralon-$version" \
  | gzip -9n > "$out/$tarball"

# ---- .deb: /usr/lib/ralon holds the tree (bin, lib, runtime); /usr/bin/ralon is a link the launcher resolves
debv=${version//-/\~}-1
deb=$work/deb
mkdir -p "$deb/DEBIAN" "$deb/usr/lib/ralon" "$deb/usr/bin" "$deb/usr/share/man/man1" \
  "$deb/usr/share/bash-completion/completions" "$deb/usr/share/zsh/vendor-completions" "$deb/usr/share/doc/ralon" \
  "$deb/etc/apparmor.d"
cp -a "$tree/bin" "$tree/lib" "$tree/runtime" "$deb/usr/lib/ralon/"
ln -s ../lib/ralon/bin/ralon "$deb/usr/bin/ralon"
gzip -9n < "$tree/share/man/man1/ralon.1" > "$deb/usr/share/man/man1/ralon.1.gz"
cp "$tree/share/bash-completion/completions/ralon" "$deb/usr/share/bash-completion/completions/ralon"
cp "$tree/share/zsh/site-functions/_ralon" "$deb/usr/share/zsh/vendor-completions/_ralon"
{ echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: ralon"; echo "Source: https://ralon.dev"; echo
  echo "Files: *"; echo "License: Apache-2.0"; echo
  echo "Files: usr/lib/ralon/runtime/*"; echo "License: GPL-2.0 with Classpath exception (see usr/lib/ralon/runtime/legal)"
  echo; echo "License: Apache-2.0"; sed 's/^$/./; s/^/ /' "$repo/LICENSE"
} > "$deb/usr/share/doc/ralon/copyright"
"$java" -cp "$tree/bin/ralon" dev.ralon.cli.AppArmorProfile /usr/lib/ralon/bin/ralon > "$deb/etc/apparmor.d/ralon"
size=$(du -sk --apparent-size "$deb" | cut -f1)
sed -e "s/@VERSION@/$debv/" -e "s/@ARCH@/$debarch/" -e "s/@SIZE@/$size/" "$src/deb/control" > "$deb/DEBIAN/control"
for f in postinst postrm; do install -m 755 "$src/deb/$f" "$deb/DEBIAN/$f"; done
echo /etc/apparmor.d/ralon > "$deb/DEBIAN/conffiles"
find "$deb" -exec touch -h -d "@$EPOCH" {} +
chmod -R go-w "$deb"
debfile=ralon_${debv}_$debarch.deb
SOURCE_DATE_EPOCH=$EPOCH dpkg-deb --root-owner-group -Zgzip -z9 --build "$deb" "$out/$debfile" > /dev/null

# ---- npm package: the tree itself, with package.json; npm's bin link points at bin/ralon
npmdir=$work/npm
mkdir -p "$npmdir"
cp -a "$tree/bin" "$tree/lib" "$tree/runtime" "$tree/share" "$tree/LICENSE" "$npmdir/"
# its postinstall gives bin/ralon back the time the archive was made with (npm install gives every file the time of
# the install): without it (npm --ignore-scripts) the JVM does not use the archive, and a start is slower
sed -e "s/@VERSION@/$version/" -e "s/@CPU@/$npmcpu/" -e "s/@EPOCH@/$EPOCH/g" "$src/npm/package.json" > "$npmdir/package.json"
cp "$src/npm/README.md" "$npmdir/README.md"
( cd "$npmdir" && npm pack --silent --pack-destination "$out" > "$work/npm.log" 2>&1 ) \
  || { cat "$work/npm.log" >&2; die "npm pack failed"; }
npmfile=ralon-$version.tgz
[ -f "$out/$npmfile" ] || die "npm pack made no $npmfile"

# The SBOM: the build's (the Java libraries of bin/ralon), with the bundled runtime added as a component (the JDK's
# release file names it). One SBOM for the three packages: they carry the same tree.
[ -f "$sbom" ] || die "no SBOM at $sbom"
rel_field() { sed -n "s/^$1=\"\(.*\)\"$/\1/p" "$jdk/release"; }
runtime_json=$(printf '    {\n      "type" : "platform",\n      "bom-ref" : "ralon-java-runtime",\n      "supplier" : { "name" : "%s" },\n      "name" : "java-runtime",\n      "version" : "%s",\n      "description" : "The Java runtime in runtime/: jlinked from %s %s, modules %s",\n      "licenses" : [ { "expression" : "GPL-2.0-only WITH Classpath-exception-2.0" } ]\n    },' \
  "$(rel_field IMPLEMENTOR)" "$(rel_field JAVA_VERSION)" "$(rel_field IMPLEMENTOR)" "$(rel_field IMPLEMENTOR_VERSION)" \
  "$(sed -n 's/^MODULES="\(.*\)"$/\1/p' "$tree/runtime/release")")
grep -q '^  "components" : \[$' "$sbom" || die "the SBOM has no top-level components list to add the runtime to"
awk -v add="$runtime_json" '{ print } /^  "components" : \[$/ && !done { print add; done = 1 }' "$sbom" \
  > "$out/ralon-$version.cdx.json"
( cd "$out" && sha256sum "$tarball" "$debfile" "$npmfile" "ralon-$version.cdx.json" > SHA256SUMS )
cat "$out/SHA256SUMS"

#!/usr/bin/env bash
# Deploys every published artifact, signed with a throw-away GPG key, to a local file repository and checks it against
# Maven Central's rules (docs/publishing.md, "Maven Central"):
#   dist/src/test/central.sh [REPOSITORY_DIR]
# Central (central.sonatype.org/publish/requirements) refuses a component that lacks any of: the POM; for a jar, the
# sources and Javadoc jars; a .asc signature for each file; .md5 and .sha1 checksums; in the POM, name, description,
# url, licenses, developers and scm; and a dependency (compile or runtime) on an artifact that is not on Central.
# Each is checked here, the signatures with gpg --verify. The artifacts are the snapshot's (timestamped names): the
# rules are the same for a release.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
repo=$(readlink -m "${1:-$root/dist/target/central}")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
export GNUPGHOME=$work/gnupg
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --passphrase '' --quick-gen-key 'Ralon release check <check@ralon.invalid>' ed25519 sign never
rm -rf "$repo"
( cd "$root" && ./mvnw -B -q deploy -Prelease -DskipTests -Dinvoker.skip -Dgpg.skip=false \
    -DaltDeploymentRepository="check::file://$repo" )
fail() { echo "central: FAILED: $*" >&2; exit 1; }
poms=$(find "$repo" -name '*.pom' | sort)
[ -n "$poms" ] || fail "nothing deployed"
published=
for pom in $poms; do
  a=$(basename "$(dirname "$(dirname "$pom")")")
  published="$published $a"
done
n=0
for pom in $poms; do
  n=$((n + 1))
  dir=$(dirname "$pom") base=${pom%.pom}
  a=$(basename "$(dirname "$dir")")
  packaging=$(sed -n 's:.*<packaging>\(.*\)</packaging>.*:\1:p' "$pom" | head -1)
  files="$pom"
  case ${packaging:-jar} in
    pom) ;;
    *) files="$files $base.jar $base-sources.jar $base-javadoc.jar" ;;
  esac
  for f in $files; do
    [ -f "$f" ] || fail "$a: no $(basename "$f")"
    for s in asc md5 sha1; do [ -f "$f.$s" ] || fail "$a: no $(basename "$f").$s"; done
    gpg --batch --quiet --verify "$f.asc" "$f" 2> /dev/null || fail "$a: the signature of $(basename "$f") does not verify"
    [ "$(md5sum < "$f" | cut -d' ' -f1)" = "$(cat "$f.md5")" ] || fail "$a: $(basename "$f").md5 is wrong"
  done
  # the effective metadata: the deployed POM inherits from ralon-parent, itself deployed and checked the same way
  eff=$work/$a.xml
  ( cd "$root" && ./mvnw -B -q -N help:effective-pom -f "$pom" -Doutput="$eff" > "$work/help.log" 2>&1 ) \
    || { cat "$work/help.log" >&2; fail "$a: no effective POM"; }
  for tag in name description url licenses developers scm; do
    grep -q "<$tag>" "$eff" || fail "$a: the POM has no <$tag>"
  done
  # compile and runtime dependencies: on Central already (not dev.ralon), or published here
  for dep in $(sed -n '/<dependencies>/,/<\/dependencies>/p' "$pom" | tr -d ' \n' \
                | grep -o '<dependency><groupId>dev.ralon</groupId><artifactId>[^<]*' | sed 's/.*<artifactId>//'); do
    case " $published " in *" $dep "*) ;; *) fail "$a depends on dev.ralon:$dep, which is not published" ;; esac
  done
  echo "central: $a (${packaging:-jar}): signed, summed, complete"
done
echo "central: $n artifacts meet Central's rules, in $repo"

#!/bin/sh
# Compiles `ralon apparmor-profile`'s output with AppArmor's own parser (apparmor_parser -Q -K: parse and compile,
# load nothing, write no cache), as the .deb's postinst and a tarball user's install step would load it.
#   checks/apparmor-parse.sh RALON BASE PARSER [PARSER ARGS...]
# RALON: the launcher (cli/target/ralon). BASE: an AppArmor 4 policy directory holding abi/4.0 and tunables/global
# (/etc/apparmor.d). PARSER: apparmor_parser 4.x, possibly behind a loader. Exit 0 when the parser accepts it.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 RALON BASE PARSER [ARGS...]" >&2; exit 64; }
ralon=$1 base=$2; shift 2
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$ralon" apparmor-profile > "$out/ralon"
"$@" --version | head -1
"$@" -Q -K --base "$base" -I "$base" "$out/ralon"
echo "accepted: profile for $(sed -n 's/^profile ralon \(.*\) flags=.*/\1/p' "$out/ralon")"

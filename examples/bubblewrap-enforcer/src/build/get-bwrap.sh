#!/bin/sh
# Makes DIR/bwrap for the conformance tests (BWRAP_ENFORCER_BWRAP points there): the bwrap on PATH when there is one,
# else bubblewrap's Debian package, fetched with `apt-get download` (no root needed: it downloads to the current
# directory) and unpacked with `dpkg-deb -x`. A non-setuid bwrap is enough where unprivileged user namespaces work.
# Never fails the build: when bwrap cannot be had, the tests say so (skipped with the reason; failed under CI=true).
set -u
dir=$1
mkdir -p "$dir" || exit 0
if [ -x "$dir/bwrap" ]; then
    echo "bwrap: $dir/bwrap (already there)"
    exit 0
fi
onpath=$(command -v bwrap 2>/dev/null || true)
if [ -n "$onpath" ]; then
    ln -sf "$onpath" "$dir/bwrap" && echo "bwrap: $onpath, from PATH"
    exit 0
fi
if command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1; then
    rm -rf "$dir/deb" && mkdir -p "$dir/deb" || exit 0
    if (cd "$dir/deb" && apt-get -q download bubblewrap) && dpkg-deb -x "$dir"/deb/bubblewrap_*.deb "$dir/deb/root" \
            && cp "$dir/deb/root/usr/bin/bwrap" "$dir/bwrap" && chmod 755 "$dir/bwrap"; then
        echo "bwrap: $dir/bwrap, from $(basename "$dir"/deb/bubblewrap_*.deb) (apt-get download)"
        exit 0
    fi
fi
echo "bwrap: not on PATH and not fetched (apt-get download bubblewrap failed or apt-get is missing);" \
    "the conformance tests will say so"
exit 0

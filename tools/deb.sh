#!/bin/sh
# Builds the Debian packages of condraughts from an installed tree (make deb calls it).
# Usage: tools/deb.sh ROOT BIN OUT [PYOUT]   (ROOT: a `make install PREFIX=/usr DESTDIR=ROOT`
# tree; BIN: the program, whose shared libraries name the package's dependencies; OUT: the .deb;
# PYOUT: the Python module's package, python3-condraughts, when ROOT holds the module)
# The first package holds the program, its data, the library and its header (Debian would split
# the library and -dev parts off; one package is what a user of the program and a C programmer of
# the library both install). The Python module is a package of its own, as Debian has them
# (python3-NAME): it needs the one python3 its ABI was built for, which users of the program do
# not. Depends: the Debian packages of the libraries each links directly (readelf's NEEDED
# entries, found by ldd and dpkg -S).
set -eu
root=$1 bin=$2 out=$3 pyout=${4:-}
version=$(sed -n 's/^#define CD_VERSION "\(.*\)"/\1/p' include/condraughts.h)
arch=$(dpkg --print-architecture)

# the Debian packages of the shared libraries FILE needs, comma-separated
needs() {
    deps=""
    for so in $(readelf -d "$1" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
        path=$(ldd "$1" | awk -v so="$so" '$1 == so { print $3 }')
        [ -n "$path" ] || continue
        pkg=$( (dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null) |
            head -1 | cut -d: -f1)
        [ -n "$pkg" ] || { echo "deb.sh: no Debian package holds $path ($so)" >&2; exit 2; }
        case ", $deps, " in *", $pkg, "*) ;; *) deps=${deps:+$deps, }$pkg ;; esac
    done
    echo "$deps"
}

# control FOLDER PACKAGE DEPENDS DESCRIPTION: FOLDER/DEBIAN/control
control() {
    mkdir -p "$1/DEBIAN"
    cat > "$1/DEBIAN/control" << CONTROL
Package: $2
Version: $version
Architecture: $arch
Maintainer: condraughts developers <condraughts@localhost>
Installed-Size: $(du -sk "$1/usr" | cut -f1)
Depends: $3
Section: games
Priority: optional
Description: $4
CONTROL
}

pydir=$root/usr/lib/python3/dist-packages
if [ -n "$pyout" ]; then
    module=$(ls "$pydir"/condraughts*.so 2> /dev/null | head -1)
    [ -n "$module" ] || { echo "deb.sh: no Python module in $pydir (python3-dev missing?)" >&2; exit 2; }
    pyroot=$root.python
    rm -rf "$pyroot"
    mkdir -p "$pyroot/usr/lib/python3/dist-packages"
    mv "$module" "$pyroot/usr/lib/python3/dist-packages/"
    rmdir "$pydir" "$root/usr/lib/python3"
    module=$pyroot/usr/lib/python3/dist-packages/$(basename "$module")
    # the extension's ABI is that of one Python version (its file name says which)
    pyver=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])')
    next=$(/usr/bin/python3 -c 'import sys; print("%d.%d" % (sys.version_info[0], sys.version_info[1] + 1))')
    pydeps=$(needs "$module")
    control "$pyroot" python3-condraughts "python3 (>= $pyver), python3 (<< $next)${pydeps:+, $pydeps}" \
        "draughts rules, engine and endgame tables for Python (condraughts)
 The Python module condraughts: positions, legal moves, FEN and PDN, perft,
 engine analysis with a time or node limit and endgame table probes for
 International, Constitutional, Russian, English and many more draughts
 variants; the C library is built into the module."
    dpkg-deb --root-owner-group --build "$pyroot" "$pyout" > /dev/null
    echo "wrote $pyout (Depends: $(sed -n 's/^Depends: //p' "$pyroot/DEBIAN/control"))"
fi

control "$root" condraughts "$(needs "$bin")" \
    "draughts engine, library and playing program (Constitutional Draughts)
 Rules for International, Constitutional, Russian, Brazilian, English and many more
 draughts variants; an engine with learned evaluations, endgame tables, the Hub and
 DXP protocols for draughts GUIs, a browser board with games between people, and
 the C library (libcondraughts) with its header and pkg-config file."
echo "activate-noawait ldconfig" > "$root/DEBIAN/triggers"
dpkg-deb --root-owner-group --build "$root" "$out" > /dev/null
echo "wrote $out (Depends: $(sed -n 's/^Depends: //p' "$root/DEBIAN/control"))"

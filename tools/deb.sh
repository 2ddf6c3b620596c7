#!/bin/sh
# Builds the Debian package of condraughts from an installed tree (make deb calls it).
# Usage: tools/deb.sh ROOT BIN OUT   (ROOT: a `make install PREFIX=/usr DESTDIR=ROOT` tree;
# BIN: the program, whose shared libraries name the package's dependencies; OUT: the .deb)
# One package holds the program, its data, the library and its header (Debian would split the
# library and -dev parts off; one package is what a user of the program and a C programmer of
# the library both install). Depends: the Debian packages of the libraries the program links
# directly (readelf's NEEDED entries, found by ldd and dpkg -S).
set -eu
root=$1 bin=$2 out=$3
version=$(sed -n 's/^#define CD_VERSION "\(.*\)"/\1/p' include/condraughts.h)
arch=$(dpkg --print-architecture)
deps=""
for so in $(readelf -d "$bin" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
    path=$(ldd "$bin" | awk -v so="$so" '$1 == so { print $3 }')
    [ -n "$path" ] || continue
    pkg=$( (dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null) |
        head -1 | cut -d: -f1)
    [ -n "$pkg" ] || { echo "deb.sh: no Debian package holds $path ($so)" >&2; exit 2; }
    case ", $deps, " in *", $pkg, "*) ;; *) deps=${deps:+$deps, }$pkg ;; esac
done
mkdir -p "$root/DEBIAN"
size=$(du -sk "$root/usr" | cut -f1)
cat > "$root/DEBIAN/control" << CONTROL
Package: condraughts
Version: $version
Architecture: $arch
Maintainer: condraughts developers <condraughts@localhost>
Installed-Size: $size
Depends: $deps
Section: games
Priority: optional
Description: draughts engine, library and playing program (Constitutional Draughts)
 Rules for International, Constitutional, Russian, Brazilian, English and many more
 draughts variants; an engine with learned evaluations, endgame tables, the Hub and
 DXP protocols for draughts GUIs, a browser board with games between people, and
 the C library (libcondraughts) with its header and pkg-config file.
CONTROL
echo "activate-noawait ldconfig" > "$root/DEBIAN/triggers"
dpkg-deb --root-owner-group --build "$root" "$out" > /dev/null
echo "wrote $out (Depends: $deps)"

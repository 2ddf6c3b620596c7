#!/bin/sh
# make install and make uninstall into a DESTDIR: every file where it belongs, the installed
# program run from elsewhere finds its weights, page and openings under PREFIX/share/condraughts,
# a C program built with `pkg-config --cflags --libs condraughts` links the shared library (its
# soname) and computes a published perft, and uninstall leaves nothing behind.
# Usage: tests/install.sh [--make MAKE] [--build DIR]
make=make build=build
while [ $# -gt 0 ]; do
    case $1 in
    --make) make=$2 ;;
    --build) build=$2 ;;
    esac
    shift 2
done
. "$(dirname "$0")/lib.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest

$make -C "$root" --no-print-directory BUILD="$build" PREFIX=/usr DESTDIR="$dest" install \
    > "$tmp/install.log" 2>&1 && ok || bad "make install: $(tail -3 "$tmp/install.log")"
for f in bin/condraughts include/condraughts.h lib/libcondraughts.a lib/libcondraughts.so.0 \
    lib/pkgconfig/condraughts.pc share/condraughts/weights/international.cdw \
    share/condraughts/web/index.html share/condraughts/openings/10x10.txt \
    share/man/man1/condraughts.1; do
    [ -f "$dest/usr/$f" ] && ok || bad "make install: no $f"
done
[ "$(readlink "$dest/usr/lib/libcondraughts.so")" = libcondraughts.so.0 ] && ok ||
    bad "libcondraughts.so does not point to libcondraughts.so.0"
n=$(ls "$dest/usr/share/condraughts/weights" | wc -l)
[ "$n" -eq "$(ls "$root"/weights/*.cdw | wc -l)" ] && ok || bad "$n weights files installed"
readelf -d "$dest/usr/lib/libcondraughts.so.0" | grep -q 'SONAME.*libcondraughts\.so\.0' && ok ||
    bad "the shared library has no soname libcondraughts.so.0"

# the manual page renders without warnings and holds every command, from the same tables as help
page=$(MANWIDTH=100 man --warnings -l "$dest/usr/share/man/man1/condraughts.1" 2> "$tmp/man.err")
[ ! -s "$tmp/man.err" ] && ok || bad "man warns: $(head -3 "$tmp/man.err")"
n=$("$root/$build/condraughts" help | grep -c '^condraughts ')
[ "$(grep -c '^\.SS ' "$dest/usr/share/man/man1/condraughts.1")" -eq "$n" ] && ok ||
    bad "the manual page has not the $n commands of condraughts help"
case $page in *"train unpack"*) ok ;; *) bad "the manual page lacks train unpack" ;; esac
case $page in *"--corpus FILE.cdg.xz"*) ok ;; *) bad "the manual page lacks train gen --corpus" ;; esac

# the installed program, run from another folder without CD_WEIGHTS, reads the installed data
out=$(cd "$tmp" && env -u CD_WEIGHTS "$dest/usr/bin/condraughts" analyse --depth 3 2>&1 | tail -1)
case $out in bestmove*) ok ;; *) bad "installed analyse: '$out'" ;; esac
out=$(cd "$tmp" && env -u CD_WEIGHTS "$dest/usr/bin/condraughts" --version)
case $out in *"weights $dest/usr/bin/../share/condraughts/weights"*) ok ;;
*) bad "installed --version: '$out'" ;; esac
case $out in *"international    checksum "*) ok ;; *) bad "--version has no checksums: '$out'" ;; esac
case $out in *missing*) bad "--version: a weights file missing: '$out'" ;; *) ok ;; esac
# and the shipped opening book (books/english.cdb): the start position is in it
if [ -f "$root/books/english.cdb" ]; then
    out=$(cd "$tmp" && "$dest/usr/bin/condraughts" book probe --variant english 2>&1)
    case $out in *" rank 0"*) ok ;; *) bad "installed book probe: '$out'" ;; esac
else
    skip "installed book: no books/english.cdb"
fi
# a copy of the program with no data anywhere plays with the weights built into it: the same
# bench signature as the build's own, and --version says so
mkdir "$tmp/bare" && cp "$dest/usr/bin/condraughts" "$tmp/bare/"
out=$(cd "$tmp" && env -u CD_WEIGHTS "$tmp/bare/condraughts" --version | tail -1)
[ "$out" = "weights built in (no weights folder found)" ] && ok || bad "a bare copy's --version: '$out'"
out=$(cd "$tmp" && env -u CD_WEIGHTS "$tmp/bare/condraughts" bench | sed -n 's/^Nodes: //p')
[ "$out" = "$(cat "$root/tests/bench.expected")" ] && ok ||
    bad "a bare copy's bench signature $out, tests/bench.expected says $(cat "$root/tests/bench.expected")"

# a C program against the installed library, through pkg-config
flags=$(PKG_CONFIG_PATH="$dest/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$dest" \
    pkg-config --cflags --libs condraughts)
case $flags in *"-I$dest/usr/include"*"-lcondraughts"*) ok ;; *) bad "pkg-config: '$flags'" ;; esac
# shellcheck disable=SC2086
cc -std=c11 "$(dirname "$0")/install/perft.c" $flags -o "$tmp/perft" 2> "$tmp/cc.log" && ok ||
    bad "cc with pkg-config's flags: $(head -3 "$tmp/cc.log")"
ldd "$tmp/perft" 2>/dev/null | grep -q 'libcondraughts\.so\.0' && ok ||
    bad "the program is not linked to libcondraughts.so.0"
# International perft 4 from the start: 4,265 (tests/perft/international.drop.perft, published)
out=$(LD_LIBRARY_PATH="$dest/usr/lib" "$tmp/perft")
[ "$out" = 4265 ] && ok || bad "perft 4 through the shared library: '$out'"

# the Python module where Debian's python3 looks for /usr, imported from there and used
python=/usr/bin/python3
py=$($python -c 'import sysconfig; print(sysconfig.get_config_var("EXT_SUFFIX"))')
if [ -f "$($python -c 'import sysconfig; print(sysconfig.get_paths()["include"])')/Python.h" ]; then
    [ -f "$dest/usr/lib/python3/dist-packages/condraughts$py" ] && ok ||
        bad "make install: no usr/lib/python3/dist-packages/condraughts$py"
    # International perft 3 from the start: 658 (tests/perft/international.drop.perft)
    out=$(cd "$tmp" && PYTHONPATH="$dest/usr/lib/python3/dist-packages" $python -c \
        'import condraughts as c; print(c.__file__.startswith("'"$dest"'"), c.perft(c.Board("international"), 3))' 2>&1)
    [ "$out" = "True 658" ] && ok || bad "the installed Python module: '$out'"
else
    skip "the Python module: no Python.h (python3-dev)"
    skip "the installed Python module"
fi

$make -C "$root" --no-print-directory BUILD="$build" PREFIX=/usr DESTDIR="$dest" uninstall \
    > "$tmp/uninstall.log" 2>&1 && ok || bad "make uninstall: $(tail -3 "$tmp/uninstall.log")"
left=$(find "$dest" -type f -o -type l | head -5)
[ -z "$left" ] && ok || bad "make uninstall left: $left"

summary install

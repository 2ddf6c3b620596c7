#!/bin/sh
# The Debian package (make deb) installed with dpkg on this machine and used from /usr: its
# dependencies named, `condraughts perft` and `serve` from another folder, a C program built
# with pkg-config against the installed library; then removed, leaving no file of it. Needs
# root (or sudo without a password): otherwise its checks are SKIPPED and counted.
# The Python module's package (python3-condraughts) likewise: `import condraughts` from /usr.
# Usage: tests/deb.sh --deb FILE.deb --pydeb FILE.deb
deb=$2 pydeb=$4
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

info=$(dpkg-deb --field "$deb" Package Version Depends)
case $info in *"Package: condraughts"*"Depends: "*libsodium*liblzma5*) ok ;;
*) bad "the package's fields: $info" ;; esac
files=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/condraughts ./usr/share/condraughts/weights/international.cdw \
    ./usr/lib/libcondraughts.so.0 ./usr/include/condraughts.h ./usr/lib/pkgconfig/condraughts.pc; do
    case $files in *" $f"*) ok ;; *) bad "the package has no $f" ;; esac
done
info=$(dpkg-deb --field "$pydeb" Package Depends)
case $info in *"Package: python3-condraughts"*"Depends: python3 (>= 3."*"python3 (<< 3."*) ok ;;
*) bad "the Python package's fields: $info" ;; esac
case $(dpkg-deb --contents "$pydeb") in *" ./usr/lib/python3/dist-packages/condraughts."*.so*) ok ;;
*) bad "the Python package has no module" ;; esac
case $files in *python3*) bad "the program's package holds the Python module" ;; *) ok ;; esac

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo -n"
if ! $sudo true 2>/dev/null; then
    for c in "dpkg -i" perft analyse serve cc "perft through the library" "dpkg -i python3-condraughts" \
        "import condraughts" "dpkg -r"; do
        skip "$c: neither root nor sudo without a password"
    done
    summary deb
    exit
fi
$sudo dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1 && ok || bad "dpkg -i: $(tail -3 "$tmp/dpkg.log")"
out=$(cd "$tmp" && env -u CD_WEIGHTS /usr/bin/condraughts perft 3 | sed -n 3p)
[ "$out" = "perft 3 658" ] && ok || bad "installed perft: '$out'"
out=$(cd "$tmp" && env -u CD_WEIGHTS /usr/bin/condraughts analyse --depth 3 2>&1 | tail -1)
case $out in bestmove*) ok ;; *) bad "installed analyse: '$out'" ;; esac
# serve from another folder finds the installed page
(cd "$tmp" && exec /usr/bin/condraughts serve --port 0 --data "$tmp/games" --db "$tmp/g.sqlite" \
    > "$tmp/serve.out" 2> "$tmp/serve.err") &
pid=$!
serve_wait deb "$tmp/serve.out" "$tmp/serve.err"
page=$(curl -s "$URL/" | head -c 2000)
case $page in *"<html"*|*"<!DOCTYPE"*|*"<!doctype"*) ok ;; *) bad "installed serve's page: '$page'" ;; esac
kill "$pid" 2> /dev/null
wait "$pid" 2> /dev/null
# shellcheck disable=SC2046
cc -std=c11 "$(dirname "$0")/install/perft.c" $(pkg-config --cflags --libs condraughts) -o "$tmp/perft" \
    2> "$tmp/cc.log" && ok || bad "cc with the installed pkg-config file: $(head -3 "$tmp/cc.log")"
# International perft 4 from the start: 4,265 (tests/perft/international.drop.perft)
[ "$("$tmp/perft")" = 4265 ] && ok || bad "perft 4 through the installed shared library"
$sudo dpkg -i "$pydeb" > "$tmp/dpkg.log" 2>&1 && ok || bad "dpkg -i python3-condraughts: $(tail -3 "$tmp/dpkg.log")"
out=$(cd "$tmp" && /usr/bin/python3 -c \
    'import condraughts as c; print(c.__file__.startswith("/usr/lib/python3/dist-packages/"), c.perft(c.Board("international"), 3))' 2>&1)
[ "$out" = "True 658" ] && ok || bad "import condraughts from the package: '$out'"
$sudo dpkg -r python3-condraughts condraughts > "$tmp/dpkg.log" 2>&1 && [ ! -e /usr/bin/condraughts ] &&
    [ ! -e /usr/lib/libcondraughts.so.0 ] && [ ! -e /usr/share/condraughts ] &&
    ! ls /usr/lib/python3/dist-packages/condraughts* > /dev/null 2>&1 && ok ||
    bad "dpkg -r: $(tail -3 "$tmp/dpkg.log")"
summary deb

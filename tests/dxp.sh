#!/bin/sh
# tests/dxp.sh -- DXP loopback: condraughts plays itself over a TCP socket.
#
#   sh tests/dxp.sh [--bin PATH] [--variant V] [--depth D] [--games N] [--limit SECONDS]
#
# Starts `condraughts dxp --follow --port 0` (the kernel picks a free port; the
# follower prints it on stderr), then `condraughts dxp --initiate` against it.
# Both must exit 0 within the time limit and print the same result line for
# every game. Prints "dxp: ok ..." or says what failed and exits 1.
set -u

BIN=build/condraughts
VARIANT=international
DEPTH=2
GAMES=1
LIMIT=120

while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --variant) VARIANT=$2; shift 2 ;;
    --depth) DEPTH=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --limit) LIMIT=$2; shift 2 ;;
    *) echo "usage: sh tests/dxp.sh [--bin PATH] [--variant V] [--depth D] [--games N] [--limit S]" >&2
       exit 2 ;;
    esac
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/dxp.XXXXXX") || exit 1
fpid=
# shellcheck disable=SC2317 # called by the trap
cleanup() {
    if [ -n "$fpid" ]; then kill "$fpid" 2>/dev/null; fi
    rm -rf "$tmp"
}
trap cleanup EXIT

fail() {
    echo "dxp: FAIL: $*"
    for f in f.err f.out i.err i.out; do
        if [ -s "$tmp/$f" ]; then echo "--- $f"; tail -n 20 "$tmp/$f"; fi
    done
    exit 1
}

[ -x "$BIN" ] || fail "no binary $BIN"

common="--variant $VARIANT --depth $DEPTH --hash 16 --timeout 60"

: >"$tmp/f.err"
# shellcheck disable=SC2086
timeout "$LIMIT" "$BIN" dxp --follow --port 0 $common >"$tmp/f.out" 2>"$tmp/f.err" &
fpid=$!

port=
i=0
while [ $i -lt 100 ]; do
    port=$(sed -n 's/^dxp: listening on .* port \([0-9][0-9]*\)$/\1/p' "$tmp/f.err" 2>/dev/null)
    [ -n "$port" ] && break
    kill -0 "$fpid" 2>/dev/null || break
    sleep 0.1
    i=$((i + 1))
done
[ -n "$port" ] || fail "the follower did not start listening"

start=$(date +%s)
# shellcheck disable=SC2086
timeout "$LIMIT" "$BIN" dxp --initiate --port "$port" --games "$GAMES" $common \
    >"$tmp/i.out" 2>"$tmp/i.err"
irc=$?
wait "$fpid"
frc=$?
fpid=
secs=$(($(date +%s) - start))

[ $irc -eq 124 ] && fail "the initiator did not finish within $LIMIT s"
[ $frc -eq 124 ] && fail "the follower did not finish within $LIMIT s"
[ $irc -eq 0 ] || fail "the initiator exited with status $irc"
[ $frc -eq 0 ] || fail "the follower exited with status $frc"

n_i=$(grep -c '^game [0-9][0-9]*: ' "$tmp/i.out")
n_f=$(grep -c '^game [0-9][0-9]*: ' "$tmp/f.out")
[ "$n_i" -eq "$GAMES" ] || fail "the initiator printed $n_i result lines, want $GAMES"
[ "$n_f" -eq "$GAMES" ] || fail "the follower printed $n_f result lines, want $GAMES"
grep -q '^game [0-9]*: \* ' "$tmp/i.out" && fail "an unfinished game"
cmp -s "$tmp/i.out" "$tmp/f.out" || fail "the two sides disagree on the results"
# both sides saw the same moves
grep '^dxp: moves:' "$tmp/i.err" >"$tmp/i.moves"
grep '^dxp: moves:' "$tmp/f.err" >"$tmp/f.moves"
cmp -s "$tmp/i.moves" "$tmp/f.moves" || fail "the two sides disagree on the moves"

echo "dxp: ok ($VARIANT, depth $DEPTH, $GAMES game(s) in ${secs}s: $(tr '\n' ';' <"$tmp/i.out" | sed 's/;$//;s/;/; /g'))"
exit 0

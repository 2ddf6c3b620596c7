#!/bin/sh
# tests/dxp.sh -- DXP loopback: condraughts plays itself over a TCP socket.
#
#   sh tests/dxp.sh [--bin PATH] [--variant V] [--depth D] [--games N] [--limit SECONDS]
#                   [--loopback-only]
#
# Starts `condraughts dxp --follow --port 0` (the kernel picks a free port; the
# follower prints it on stderr), then `condraughts dxp --initiate` against it.
# Both must exit 0 within the time limit and print the same result line for
# every game. Then the Initiator as a match runner: --openings (each opening
# twice, colours reversed, sent as a setup position), --pdn on both sides, the
# summary's counts against the PDN's results; --movetime; the option errors. --loopback-only
# stops after the first part (make windows-test: the Windows program's PDN files end their lines
# with CR LF).
# Prints "dxp: ok ..." or says what failed and exits 1.
set -u

BIN=build/condraughts
VARIANT=international
DEPTH=2
GAMES=1
LIMIT=120
ONLY_LOOPBACK=

while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --variant) VARIANT=$2; shift 2 ;;
    --depth) DEPTH=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --limit) LIMIT=$2; shift 2 ;;
    --loopback-only) ONLY_LOOPBACK=1; shift ;;
    *) echo "usage: sh tests/dxp.sh [--bin PATH] [--variant V] [--depth D] [--games N] [--limit S] [--loopback-only]" >&2
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

step=loopback
fail() {
    echo "dxp: FAIL ($step): $*"
    for f in f.err f.out i.err i.out; do
        if [ -s "$tmp/$f" ]; then echo "--- $f"; tail -n 20 "$tmp/$f"; fi
    done
    exit 1
}

[ -x "$BIN" ] || fail "no binary $BIN"

# start_follower ARGS...: `dxp --follow --port 0 ARGS` in the background; sets fpid and port.
start_follower() {
    : >"$tmp/f.err"
    timeout "$LIMIT" "$BIN" dxp --follow --port 0 "$@" >"$tmp/f.out" 2>"$tmp/f.err" &
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
}

# run_initiator ARGS...: `dxp --initiate --port $port ARGS`, then waits for the follower; both
# must exit 0 in time.
run_initiator() {
    timeout "$LIMIT" "$BIN" dxp --initiate --port "$port" "$@" >"$tmp/i.out" 2>"$tmp/i.err"
    irc=$?
    wait "$fpid"
    frc=$?
    fpid=
    [ $irc -eq 124 ] && fail "the initiator did not finish within $LIMIT s"
    [ $frc -eq 124 ] && fail "the follower did not finish within $LIMIT s"
    [ $irc -eq 0 ] || fail "the initiator exited with status $irc"
    [ $frc -eq 0 ] || fail "the follower exited with status $frc"
}

common="--variant $VARIANT --depth $DEPTH --hash 16 --timeout 60"

# 1. a plain loopback: both sides agree on every result and every move
start=$(date +%s)
# shellcheck disable=SC2086
start_follower $common
# shellcheck disable=SC2086
run_initiator --games "$GAMES" $common
secs=$(($(date +%s) - start))

grep '^game [0-9][0-9]*: ' "$tmp/i.out" >"$tmp/i.games"
grep '^game [0-9][0-9]*: ' "$tmp/f.out" >"$tmp/f.games"
n_i=$(wc -l <"$tmp/i.games")
n_f=$(wc -l <"$tmp/f.games")
[ "$n_i" -eq "$GAMES" ] || fail "the initiator printed $n_i result lines, want $GAMES"
[ "$n_f" -eq "$GAMES" ] || fail "the follower printed $n_f result lines, want $GAMES"
grep -q '^game [0-9]*: \* ' "$tmp/i.out" && fail "an unfinished game"
cmp -s "$tmp/i.games" "$tmp/f.games" || fail "the two sides disagree on the results"
# both sides saw the same moves
grep '^dxp: moves:' "$tmp/i.err" >"$tmp/i.moves"
grep '^dxp: moves:' "$tmp/f.err" >"$tmp/f.moves"
cmp -s "$tmp/i.moves" "$tmp/f.moves" || fail "the two sides disagree on the moves"
# the initiator's summary, the follower's none
grep -q "^dxp: $GAMES games\? against condraughts" "$tmp/i.out" || fail "no summary line"
grep -q '^unfinished: 0$' "$tmp/i.out" || fail "no 'unfinished: 0' line"
grep -q '^dxp: \|^unfinished: ' "$tmp/f.out" && fail "a summary from the follower"
loop="$GAMES game(s) in ${secs}s: $(tr '\n' ';' <"$tmp/i.games" | sed 's/;$//;s/;/; /g')"
if [ -n "$ONLY_LOOPBACK" ]; then
    echo "dxp: ok ($VARIANT, depth $DEPTH, $loop)"
    exit 0
fi

# 2. the initiator as a match runner: two openings, four games, colours reversed in each pair
# (the initiator Black in game 1: --colour), the PDN of both sides, the summary (the follower
# searches less deep, so that the score is not even)
step=openings
printf '# two openings\n32-28 19-23\n\n33-29 17-22  # the second\n' >"$tmp/op.txt"
fen1=$("$BIN" show --variant "$VARIANT" --after "32-28 19-23" | sed -n 's/^FEN //p')
fen2=$("$BIN" show --variant "$VARIANT" --after "33-29 17-22" | sed -n 's/^FEN //p')
{ [ -n "$fen1" ] && [ -n "$fen2" ]; } || fail "show --after gave no FEN"
# shellcheck disable=SC2086
start_follower $common --depth 1 --name Follower --pdn "$tmp/f.pdn"
# shellcheck disable=SC2086
run_initiator --games 4 --openings "$tmp/op.txt" --colour black --name Initiator \
    --pdn "$tmp/i.pdn" $common --depth 3

for side in i f; do
    [ "$(grep -c '^\[Event "condraughts dxp"\]$' "$tmp/$side.pdn")" -eq 4 ] ||
        fail "$side.pdn does not hold 4 games"
    got=$(sed -n 's/^\[Round "\(.*\)"\]$/\1/p' "$tmp/$side.pdn" | tr '\n' ' ')
    [ "$got" = "1 2 3 4 " ] || fail "$side.pdn: rounds $got"
    got=$(sed -n 's/^\[FEN "\(.*\)"\]$/\1/p' "$tmp/$side.pdn" | tr '\n' ' ')
    [ "$got" = "$fen1 $fen1 $fen2 $fen2 " ] ||
        fail "$side.pdn: start positions $got, want $fen1 twice then $fen2 twice"
    got=$(sed -n 's/^\[White "\(.*\)"\]$/\1/p' "$tmp/$side.pdn" | tr '\n' ' ')
    [ "$got" = "Follower Initiator Follower Initiator " ] || fail "$side.pdn: White $got"
    got=$(sed -n 's/^\[Black "\(.*\)"\]$/\1/p' "$tmp/$side.pdn" | tr '\n' ' ')
    [ "$got" = "Initiator Follower Initiator Follower " ] || fail "$side.pdn: Black $got"
    got=$("$BIN" pdn check --variant "$VARIANT" "$tmp/$side.pdn" 2>&1)
    [ "$got" = "ok 4 games" ] || fail "pdn check $side.pdn: $got"
done
cmp -s "$tmp/i.pdn" "$tmp/f.pdn" || fail "the two sides wrote different PDN files"
grep -q '^game [0-9]*: \* ' "$tmp/i.out" && fail "an unfinished game"

# the summary against the PDN's results, counted from the initiator's side
want=$(awk '
    /^\[White "/ { white = $2 }
    /^\[Result "/ {
        r = $2; gsub(/[]"]/, "", r); g++
        s = r == "1-1" || r == "1/2-1/2" ? 1 : (r == "2-0" || r == "1-0") == (white == "\"Initiator\"]") ? 2 : 0
        if (s == 2) w++; else if (s == 1) d++; else l++
        if (g % 2 == 0) p[prev + s]++; else prev = s
    }
    END { printf "4 games against Follower, +%d =%d -%d|pairs: 2, pentanomial [%d %d %d %d %d]",
          w, d, l, p[0], p[1], p[2], p[3], p[4] }' "$tmp/i.pdn")
line1=$(grep '^dxp: ' "$tmp/i.out")
line2=$(grep '^pairs: ' "$tmp/i.out")
case "$line1|$line2" in
"dxp: ${want%%|*}, score "*"%, Elo "*" (95%)|${want#*|}, Elo "*" (95%)") ;;
*) fail "summary '$line1' '$line2', want '$want'" ;;
esac
grep -q '^unfinished: 0$' "$tmp/i.out" || fail "no 'unfinished: 0' line"
[ "$(grep -c '^game [1-4]: ' "$tmp/i.out")" -eq 4 ] || fail "not 4 result lines"
openings="4 games from 2 openings: ${line1#dxp: }"

# 3. --movetime: the initiator searches 0.05 s a move whatever its 1-minute clock says
step=movetime
# shellcheck disable=SC2086
start_follower $common
run_initiator --games 1 --movetime 0.05 --time 60 --variant "$VARIANT" --hash 16 --timeout 60 \
    --verbose
grep -q '^game 1: [0-9]' "$tmp/i.out" || fail "the game did not finish"
slow=$(sed -n 's/^dxp: we play .*, \([0-9.]*\) s)$/\1/p' "$tmp/i.err" |
    awk '{ n++; if ($1 > m) m = $1 } END { if (n == 0) print "none"; else if (m > 0.5) print m }')
[ -z "$slow" ] || fail "a move of the initiator took ${slow} s (--movetime 0.05)"

# 4. the options the initiator and the follower refuse
step=options
out=$("$BIN" dxp --initiate --openings "$tmp/op.txt" --fen "W:W31:B20" 2>&1)
st=$?
[ $st -eq 2 ] || fail "--openings with --fen: exit status $st, want 2"
[ "$out" = "condraughts dxp: give one of --fen and --openings" ] || fail "--openings with --fen: $out"
out=$("$BIN" dxp --follow --openings "$tmp/op.txt" 2>&1)
st=$?
[ $st -eq 2 ] || fail "the follower's --openings: exit status $st, want 2"
case $out in "condraughts dxp: --openings is for the initiator"*) ;;
*) fail "the follower's --openings: $out" ;; esac
printf '32-28 19-23\n33-29 99-1\n' >"$tmp/bad.txt"
out=$("$BIN" dxp --initiate --openings "$tmp/bad.txt" 2>&1)
st=$?
[ $st -eq 2 ] || fail "a bad openings file: exit status $st, want 2"
case $out in "condraughts dxp: $tmp/bad.txt:2: "*) ;; *) fail "a bad openings file: $out" ;; esac

echo "dxp: ok ($VARIANT, depth $DEPTH, $loop; $openings; --movetime; options)"
exit 0

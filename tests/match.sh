#!/bin/sh
# The referee of `condraughts match` (src/cli/match.c): fake Hub engines (tests/match/fakehub.sh)
# that hang, overrun their clock, resign, move illegally or die; adjudications (max plies,
# tablebase, draw score); the clock told to an engine running down; Hub 1 detection; the SPRT
# stopping early with H1 (and H0) accepted; concurrency giving the same games; bad options.
# Deterministic searches (depth limits) wherever time is not what is tested.
# Usage: tests/match.sh [--bin PATH]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
here=$(dirname "$0")
fake="sh $here/match/fakehub.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/lib.sh"
# has TEXT PATTERN WHAT: the output contains the fixed string PATTERN
has() { printf '%s\n' "$1" | grep -qF -- "$2" && ok || bad "$3: no '$2' in:
$1"; }
hasnt() { printf '%s\n' "$1" | grep -qF -- "$2" && bad "$3: '$2' in:
$1" || ok; }

# a hung engine loses on time, is killed and restarted, and the match goes on
out=$("$bin" match --depth 2 --move-limit 0.3 --hang 0.3 --games 2 --engine2 "$fake hang $bin" \
    --pdn "$tmp/h.pdn" 2>&1)
has "$out" "- fake-hang 2-0 (hung: fake-hang (Black) gave no move 0.3 s after its 0.400 s limit" hang
has "$out" "game 2: fake-hang - " hang
has "$out" "restarted" hang
has "$out" "+2 =0 -0" hang
has "$out" "hung 2" hang
has "$(cat "$tmp/h.pdn")" '[Termination "hung: fake-hang (White)' hang-pdn

# an engine that overruns its clock (1 s, 0.4 s a move) loses on time on the move that runs it
# out: its third, or its second on a machine so loaded that a move takes 0.5 s, the move taking
# at least 0.4 s either way (self:depth=2: the built-in engine answers at once whatever the load)
out=$("$bin" match --clock 1 --timemargin 0 --games 2 --engine1 self:depth=2 \
    --engine2 "$fake slow $bin 0.4" 2>&1)
has "$out" "time forfeit: fake-slow (Black) took 0." slow
has "$out" "time forfeit: fake-slow (White) took 0." slow
has "$out" "time forfeit 2" slow
took=$(printf '%s\n' "$out" | sed -n 's/.*(time forfeit: fake-slow (Black) took \([0-9.]*\) s.*/\1/p' |
    head -1)
awk -v t="$took" 'BEGIN { exit !(t >= 0.4 && t < 1) }' && ok ||
    bad "slow-last-move: the move that ran the clock out took '$took' s (want 0.4 to 1)"
has "$out" "+2 =0 -0" slow

# the clock runs down: the engine is told its remaining time, then that plus the increment
out=$("$bin" match --clock 3 --inc 0.5 --games 1 --max-plies 8 --engine1 self:depth=2 \
    --engine2 "$fake play $bin $tmp/level" 2>&1)
has "$out" "max plies 1" clock
first=$(sed -n 1p "$tmp/level")
check_eq "clock: the first level" "level time=3.000 inc=0.500" "$first"
n=$(wc -l < "$tmp/level")
[ "$n" -eq 4 ] && ok || bad "clock: $n level lines, want 4"
# every later clock is 3 + k * 0.5 minus the time used, so above 3 and below 3 + k * 0.5
awk -F'[= ]' 'NR > 1 { k = NR - 1; if (!($3 > 3 && $3 < 3 + k * 0.5)) bad = 1 } END { exit bad }' \
    "$tmp/level" && ok || bad "clock: levels $(tr '\n' ' ' < "$tmp/level")"

# time odds: self:time=S is that player's own seconds a move in place of the match's --time, and
# the referee allows it S (0.15 s: 142 ms a move searched; the other player 0.05 s: 33 ms). The
# longest move shows the time each was given: a single legal move (a forced capture) is played at
# once, so the average depends on the moves chosen (under the sanitizers: 5 of 8 moves searched).
out=$("$bin" match --time 0.05 --games 2 --max-plies 8 --engine1 self:time=0.15 2>&1)
has "$out" "condraughts 0.1.0 time=0.15 vs condraughts 0.1.0" time-odds
has "$out" "time forfeit 0" time-odds
t1=$(printf '%s\n' "$out" | sed -n 's/^engine1: [0-9]* moves, .*, \([0-9.]*\) s at most.*/\1/p')
t2=$(printf '%s\n' "$out" | sed -n 's/^engine2: [0-9]* moves, .*, \([0-9.]*\) s at most.*/\1/p')
awk -v a="$t1" -v b="$t2" 'BEGIN { exit !(a > 0.12 && a < 0.3 && b > 0.02 && b < 0.08) }' && ok ||
    bad "time odds: engine1 $t1 s, engine2 $t2 s at most (want about 0.142 and 0.033)"

# score adjudication: an engine whose own score is -9.99 on 3 moves resigns
out=$("$bin" match --depth 2 --games 2 --engine2 "$fake resign $bin" --resign-score 500 --resign-moves 3 2>&1)
has "$out" "adjudication: fake-resign (Black) resigns, score <= -500 for 3 moves" resign
has "$out" "resign 2" resign
has "$out" "+2 =0 -0" resign

# illegal moves and dead engines lose
out=$("$bin" match --depth 2 --games 2 --engine2 "$fake illegal $bin" 2>&1)
has "$out" "illegal move '11-99' by fake-illegal (Black)" illegal
has "$out" "illegal 2" illegal
out=$("$bin" match --depth 2 --games 2 --engine2 "$fake die $bin" 2>&1)
has "$out" "fake-die (White) closed its output, restarted" die
has "$out" "+2 =0 -0" die

# --max-plies is an adjudication, not an agreement
out=$("$bin" match --depth 1 --games 2 --max-plies 10 --pdn "$tmp/m.pdn" 2>&1)
has "$out" "1-1 (adjudication: draw after 10 plies (--max-plies), 10 plies)" max-plies
has "$out" "max plies 2" max-plies
hasnt "$out" "agreement" max-plies
has "$(cat "$tmp/m.pdn")" '[Termination "adjudication: draw after 10 plies (--max-plies)"]' max-plies-pdn

# draw adjudication: both scores within +-1000 (every score) on 2 moves each, from ply 12
out=$("$bin" match --depth 1 --games 2 --draw-score 1000 --draw-moves 2 --draw-after 12 2>&1)
has "$out" "1-1 (adjudication: draw, both scores within +-1000 for 2 moves, 12 plies)" draw

# tablebase adjudication (3-piece tables built here): both openings are White wins
"$bin" egtb build --variant international --pieces 3 --dir "$tmp/tb" > /dev/null 2>&1
printf 'W:W31,32:B5\nW:WK46,K41:BK5\n' > "$tmp/op.txt"
out=$("$bin" match --depth 2 --openings "$tmp/op.txt" --egtb "$tmp/tb" 2>&1)
has "$out" "game 1: condraughts" egtb
has "$out" "2-0 (adjudication: tablebase, White wins in 15 plies, 0 plies)" egtb
has "$out" "2-0 (adjudication: tablebase, White wins in 3 plies, 0 plies)" egtb
has "$out" "tablebase 4" egtb
# the built-in engine probing the tables in its search (self:egtb=DIR): at depth 1, 2 men against
# 1 is a won table position; with the tables the side that loses sees it (resigns at once), and
# the side that wins converts it; without them both games end drawn by the move-count rule
printf 'W:W31,32:B5\n' > "$tmp/op1.txt"
out=$("$bin" match --depth 1 --openings "$tmp/op1.txt" --engine1 "self:depth=1,egtb=$tmp/tb" \
    --resign-score 5000 --resign-moves 1 2>&1)
has "$out" "depth=1,egtb=$tmp/tb (Black) resigns, score <= -5000 for 1 moves (score -29986), 2 plies" self-egtb
has "$out" "resign 2" self-egtb
out=$("$bin" match --depth 1 --openings "$tmp/op1.txt" --engine1 "self:depth=1" \
    --resign-score 5000 --resign-moves 1 2>&1)
has "$out" "rules 2, tablebase 0, resign 0" self-no-egtb

# Hub 1 (Scan 2.0's dialect) found from the handshake
out=$("$bin" match --depth 2 --games 2 --max-plies 12 --engine2 "$fake hub1 $bin" 2>&1)
has "$out" "engine2: Fake One (hub1)" hub1
has "$out" "max plies 2" hub1
out=$("$bin" match --depth 2 --games 2 --max-plies 12 --engine2 "$fake play $bin" 2>&1)
has "$out" "engine2: fake-play (hub2)" hub2

# SPRT: depth 4 against depth 1 wins all 8 pairs (the figures follow the shipped weights and the
# search); H1 after the minimum 8 pairs, and H0 reversed
out=$("$bin" match --depth 1 --engine1 self:depth=4 --openings auto:2 --sprt 0,50 --quiet 2>&1)
has "$out" "sprt: LLR 4.95 [-2.94, 2.94] elo0 0 elo1 50, 8 pairs [0 0 0 0 8]" sprt-h1
has "$out" "sprt: H1 accepted (Elo >= 50) after 16 games" sprt-h1
out=$("$bin" match --depth 4 --engine1 self:depth=1 --openings auto:2 --sprt 0,50,0.1,0.1 --quiet 2>&1)
has "$out" "sprt: H0 accepted (Elo <= 0) after 16 games" sprt-h0
has "$out" "[-2.20, 2.20]" sprt-bounds
out=$("$bin" match --depth 1 --engine1 self:depth=4 --openings auto:2 --sprt 0,50 --concurrency 2 --quiet 2>&1)
has "$out" "sprt: H1 accepted (Elo >= 50)" sprt-concurrency
# the decision stands once made: games still being played then are counted (a 9th pair can change
# the LLR) but the report keeps the decision with the LLR it was made at (the 8 pairs above)
has "$out" "4.95" sprt-concurrency
hasnt "$out" "no decision" sprt-concurrency

# two games at a time play the same games as one at a time
one=$("$bin" match --depth 2 --engine2 self:depth=3 --openings auto:2 --games 8 --quiet 2>&1 | head -n 1)
two=$("$bin" match --depth 2 --engine2 self:depth=3 --openings auto:2 --games 8 --concurrency 2 --quiet 2>&1 | head -n 1)
[ -n "$one" ] && [ "$one" = "$two" ] && ok || bad "concurrency: '$one' vs '$two'"
# (the score itself follows the shipped weights and the search: update it with them)
has "$one" "8 games, +1 =1 -6" concurrency

# bad options: one line on stderr, exit status 2
expect_error() {
    pat=$1
    shift
    expect_fail 2 "$pat" "$bin" match "$@"
}
expect_error "need elo0 < elo1" --sprt 5,0
expect_error "bad value" --sprt 5
expect_error "give one of" --depth 2 --time 1
expect_error "--inc needs --clock" --inc 1
expect_error "--engine2-protocol: 'hub3' is not auto, hub2 or hub1" --engine2-protocol hub3
expect_error "unknown option" --frobnicate 1
expect_error "bad depth" --engine1 self:depth=x
expect_error "bad time '0' in 'self:time=0' (seconds a move, 0.001 to 3600)" --engine1 self:time=0
expect_error "engine2: time= is its own seconds a move in place of the match's --time; the match has no --time" --depth 2 --engine2 self:time=0.2
expect_error "egtb folder '$tmp/none' in 'self:egtb=$tmp/none' is not a folder" --engine1 "self:egtb=$tmp/none"
expect_error "Hub 1 has no nodes limit" --nodes 100 --engine2 "$fake hub1 $bin"
expect_error "engine option contempt takes 0 to 100, not 150" --engine1 self:contempt=150
expect_error "unknown engine option 'bogus' in 'self:bogus=1'" --engine1 self:bogus=1
expect_error "engine option contempt needs a whole number, not '3x'" --engine1 self:contempt=3x
expect_error "engine option threads takes 1 to 64, not 0" --engine2 self:threads=0

# DXP sends the clock in minutes: a --time that is not whole minutes is refused (both sides would
# otherwise play on different clocks)
err=$("$bin" dxp --initiate --time 90 2>&1 >/dev/null); st=$?
[ "$st" -eq 2 ] && printf '%s' "$err" | grep -qF -- "--time 90 is not whole minutes (DXP sends minutes), e.g. 120" &&
    ok || bad "dxp --time 90: status $st, stderr '$err'"

# SIGTERM (as Ctrl-C's SIGINT) stops a match: no new game starts, the games under way (two, one
# against a Hub engine in its own process) are played out, the summary of the games played is
# printed and the referee ends by the signal (status 143). The signal is sent once the first game
# has ended (the handler is in place by then); a watchdog bounds the test if it were lost.
"$bin" match --depth 3 --games 400 --concurrency 2 --engine2 "$bin hub" >"$tmp/int.txt" 2>&1 &
pid=$!
(exec >/dev/null 2>&1; sleep 120; kill -9 "$pid") &
dog=$!
n=0
while ! grep -q '^game ' "$tmp/int.txt" && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done
kill -TERM "$pid"
wait "$pid" 2>/dev/null; st=$?
kill "$dog" 2>/dev/null
out=$(cat "$tmp/int.txt")
[ "$st" -eq 143 ] && ok || bad "match after SIGTERM: status $st"
has "$out" "match stopped by SIGTERM after " sigterm
has "$out" "match international: condraughts " sigterm-summary
has "$out" "hung 0, illegal 0" sigterm-engines-alive
played=$(printf '%s\n' "$out" | sed -n 's/^match stopped by SIGTERM after \([0-9]*\) games.*/\1/p')
[ -n "$played" ] && [ "$played" -ge 1 ] && [ "$played" -lt 400 ] && ok ||
    bad "games played before SIGTERM: '$played'"

# the shipped English openings, the ACF three-move ballots (openings/english-3move.txt): 156
# distinct lines (the 174 three-move sequences less the 18 barred), every one legal (match checks
# each line of the file before the first game), the first ACF 1 (9-13 21-17 5-9)
ballots=$here/../openings/english-3move.txt
check_eq "english-3move: ballots" 156 "$(grep -v '^#' "$ballots" | sed 's/ *#.*//' | sort -u | wc -l)"
out=$("$bin" match --variant english --depth 1 --openings "$ballots" --games 2 --pdn "$tmp/acf.pdn" 2>&1)
has "$out" ": 2 games, " english-3move
has "$(cat "$tmp/acf.pdn")" "1. 9-13 21-17 2. 5-9 " english-3move-first

summary "match tests"

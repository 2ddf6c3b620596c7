#!/bin/sh
# `condraughts match` driving CheckerBoard-API engine libraries (cb:LIB, src/cli/match_player.c):
# the tests' own tiny English engine (tests/cb/cbtest_engine.c, independent of the library)
# answering through the board and through the CBmove only, against the built-in engine, every
# game replayed afterwards by `pdn check`; copies of it ignoring compulsory captures (caught by
# the referee), crashing and hanging (lost, the process started again); condraughts_cb.so (make cb) against the built-in engine in English and Russian and
# against itself; and the errors of a bad cb: player.
# Usage: tests/cb/cb.sh [--bin PATH] [--build DIR]
bin=./build/condraughts
build=./build
while [ $# -gt 0 ]; do
    case $1 in
    --bin) bin=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    *) echo "usage: cb.sh [--bin PATH] [--build DIR]" >&2; exit 2 ;;
    esac
done
here=$(dirname "$0")
tmp=$(mktemp -d)
ulimit -c 0 2>/dev/null || true # the crashing engine leaves no core file
trap 'rm -rf "$tmp"' EXIT
. "$here/../lib.sh"
has() { printf '%s\n' "$1" | grep -qF -- "$2" && ok || bad "$3: no '$2' in:
$1"; }
# games N OUT WHAT: N "game K:" lines, the summary says N games, no illegal move, no hung engine
games() {
    n=$(printf '%s\n' "$2" | grep -c '^game [0-9]*: ')
    check_eq "$3: game lines" "$1" "$n"
    has "$2" ": $1 games, " "$3"
    has "$2" "hung 0, illegal 0" "$3"
}
# replayed FILE N WHAT: pdn check replays the N games of FILE, every move legal
replayed() {
    out=$("$bin" pdn check "$1" 2>&1)
    has "$out" "ok $2 games" "$3: pdn check"
}
M="$bin match --time 0.05 --timemargin 2 --hang 5"

# the tests' engine answering through the board
out=$($M --variant english --engine1 self --engine2 "cb:$build/cbtest_engine.so" --games 4 \
    --pdn "$tmp/board.pdn" 2>&1)
has "$out" "engine2: cbtest-board (cb)" board
games 4 "$out" board
has "$out" "match english: condraughts " board
replayed "$tmp/board.pdn" 4 board

# ... through the CBmove only (the board left as it was)
out=$($M --variant english --engine1 "cb:$build/cbtest_engine_cbmove.so" --engine2 self --games 4 \
    --pdn "$tmp/cbmove.pdn" 2>&1)
has "$out" "engine1: cbtest-cbmove (cb)" cbmove
games 4 "$out" cbmove
replayed "$tmp/cbmove.pdn" 4 cbmove

# both players the tests' engine, one of each kind: 6 games between random movers
out=$($M --variant english --engine1 "cb:$build/cbtest_engine.so" \
    --engine2 "cb:$build/cbtest_engine_cbmove.so" --games 6 --pdn "$tmp/two.pdn" 2>&1)
games 6 "$out" random-pair
replayed "$tmp/two.pdn" 6 random-pair

# an engine that makes a quiet move when a capture is compulsory loses by the referee
out=$($M --variant english --engine1 self --engine2 "cb:$build/cbtest_engine_illegal.so" \
    --games 2 2>&1)
has "$out" "illegal answer by cbtest-illegal (" illegal
has "$out" "is the result of none of the " illegal
has "$out" "+2 =0 -0" illegal
has "$out" "illegal 2" illegal

# an engine whose process dies (abort at its third move) loses each game and is started again
out=$($M --variant english --engine1 self --engine2 "cb:$build/cbtest_engine_crash.so" \
    --games 2 2>&1)
has "$out" "cbtest-crash (Black) closed its output, restarted" crash
has "$out" "cbtest-crash (White) closed its output, restarted" crash
has "$out" "+2 =0 -0" crash

# an engine deaf to *playnow that never answers loses on time, is killed and started again
out=$($bin match --time 0.05 --timemargin 0.2 --hang 0.5 --variant english --engine1 self \
    --engine2 "cb:$build/cbtest_engine_hang.so" --games 2 2>&1)
has "$out" "hung: cbtest-hang (Black) gave no move 0.5 s after its 0.250 s limit, restarted" hang
has "$out" "hung 2" hang
has "$out" "+2 =0 -0" hang

# an engine that prints to stdout (as Cake++ 1.22 does: its book's size when loaded): cbhost keeps
# its lines on a stdout of their own and sends the library's to stderr
out=$("$bin" cbhost "$build/cbtest_engine_chatty.so" </dev/null 2>/dev/null)
check_eq "chatty: cbhost's first line" "ready cbtest-chatty" "$out"
out=$($M --variant english --engine1 self --engine2 "cb:$build/cbtest_engine_chatty.so" --games 2 \
    --pdn "$tmp/chatty.pdn" 2>/dev/null)
has "$out" "engine2: cbtest-chatty (cb)" chatty
games 2 "$out" chatty
replayed "$tmp/chatty.pdn" 2 chatty

# condraughts_cb.so: English and Russian against the built-in engine, and against itself
out=$($M --variant english --engine1 self --engine2 "cb:$build/condraughts_cb.so" --games 2 \
    --pdn "$tmp/en.pdn" 2>&1)
has "$out" "engine2: condraughts " cb-english
has "$out" " (cb)" cb-english
games 2 "$out" cb-english
replayed "$tmp/en.pdn" 2 cb-english
out=$($M --variant russian --engine1 "cb:$build/condraughts_cb.so" --engine2 self --games 2 \
    --pdn "$tmp/ru.pdn" 2>&1)
games 2 "$out" cb-russian
has "$out" "match russian: condraughts " cb-russian
replayed "$tmp/ru.pdn" 2 cb-russian
out=$($bin match --timemargin 2 --hang 5 --variant english --engine1 "cb:$build/condraughts_cb.so" \
    --engine2 "cb:$build/condraughts_cb.so" --games 2 --clock 4 --inc 0.05 2>&1)
games 2 "$out" cb-self-clock

# errors: one line, status 2
expect_fail 2 "cannot find engine library" $bin match --variant english \
    --engine2 "cb:$tmp/none.so" --games 1
# a shared library that is not an engine: the C library's libm
libm=$(${CC:-cc} -print-file-name=libm.so.6 2>/dev/null)
if [ -f "$libm" ]; then
    expect_fail 2 "exports no getmove" $bin match --variant english --engine2 "cb:$libm" --games 1
else
    skip "not-an-engine: no libm.so.6 found by ${CC:-cc} -print-file-name"
fi
expect_fail 2 "plays CheckerBoard game type '21', not 25 (russian)" $bin match --variant russian \
    --engine2 "cb:$build/cbtest_engine.so" --games 1
expect_fail 2 "variant international has no CheckerBoard game type" $bin match \
    --engine2 "cb:$build/condraughts_cb.so" --games 1
expect_fail 2 "takes a time (--time or --clock), not --depth" $bin match --variant english \
    --depth 2 --engine2 "cb:$build/condraughts_cb.so" --games 1
expect_fail 2 "is a CheckerBoard library, not a hub2 engine" $bin match --variant english \
    --engine2 "cb:$build/condraughts_cb.so" --engine2-protocol hub2 --games 1

summary "cb tests"

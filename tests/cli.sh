#!/bin/sh
# CLI contract tests: exit statuses, one-line errors, play and analyse end to end.
# Usage: tests/cli.sh [--bin PATH]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }

# expect_error STATUS PATTERN ARGS...: exit status, one line on stderr matching PATTERN
expect_error() {
    want=$1 pat=$2; shift 2
    err=$("$bin" "$@" 2>&1 >/dev/null); st=$?
    lines=$(printf '%s\n' "$err" | wc -l)
    if [ "$st" -eq "$want" ] && [ "$lines" -eq 1 ] && printf '%s' "$err" | grep -q -- "$pat"; then ok
    else bad "condraughts $*: status $st, stderr '$err'"; fi
}
expect_error 2 "unknown variant 'nosuch'" moves --variant nosuch
expect_error 2 "column 1" moves --variant international --fen "X:W31"
expect_error 2 "not on the board" moves --variant international --fen "W:W51"
expect_error 2 "promotion row" moves --variant international --fen "W:W3"
expect_error 2 "more than the 12" moves --variant russian --fen "W:W5-20"
expect_error 2 "twice" show --variant international --fen "W:W31,31"
expect_error 2 "bad depth" perft --variant english x
expect_error 2 "unknown command" frobnicate
expect_error 2 "unknown switch" moves --switch nonsense
expect_error 2 "bad number" analyse --depth -3

# moves in Hub form
out=$("$bin" moves --variant international --fen "W:W33:B28")
[ "$out" = "33x22x28" ] && ok || bad "moves: got '$out'"

# analyse ends with a legal best move
out=$("$bin" analyse --variant constitutional --fen "W:WK35:BK3" --depth 6 | tail -1)
[ "$out" = "bestmove 35-13" ] && ok || bad "analyse: got '$out'"

# a scripted terminal game: an illegal move is refused, resign ends it with its reason
out=$(printf '32-26\n32-28\nresign\n' | "$bin" play --variant international --level 1)
printf '%s' "$out" | grep -q "move '32-26' is not legal here" && ok || bad "play: no illegal-move message"
printf '%s' "$out" | grep -q "Game over: 0-2, Black wins (resignation)" && ok || bad "play: no result line"
printf '%s' "$out" | grep -q '^1\. 32-28 ' && ok || bad "play: no PDN of the game"

echo "cli: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

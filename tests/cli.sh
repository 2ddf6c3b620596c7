#!/bin/sh
# CLI contract tests: exit statuses, one-line errors, play and analyse end to end.
# Usage: tests/cli.sh [--bin PATH]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
. "$(dirname "$0")/lib.sh"

# expect_error STATUS PATTERN ARGS...: exit status, one line on stderr matching PATTERN
expect_error() {
    want=$1 pat=$2
    shift 2
    expect_fail "$want" "$pat" "$bin" "$@"
}
expect_error 2 "unknown variant 'nosuch'" moves --variant nosuch
expect_error 2 "column 1" moves --variant international --fen "X:W31"
expect_error 2 "not on the board" moves --variant international --fen "W:W51"
expect_error 2 "promotion row" moves --variant international --fen "W:W3"
expect_error 2 "more than the 12" moves --variant russian --fen "W:W5-20"
expect_error 2 "twice" show --variant international --fen "W:W31,31"
expect_error 2 "bad depth" perft --variant english x
expect_error 2 "unknown command" frobnicate
expect_error 2 "--switch: 'nonsense' is not obstruct-by-men, " moves --switch nonsense
expect_error 2 "bad number" analyse --depth -3
expect_error 2 "hub: --egtb /nonexistent/tables: not a folder" hub --egtb /nonexistent/tables
expect_error 2 "dxp: --egtb /nonexistent/tables: not a folder" dxp --follow --egtb /nonexistent/tables
expect_error 2 "analyse: --egtb /nonexistent/tables: not a folder" analyse --egtb /nonexistent/tables
expect_error 2 "play: --egtb /nonexistent/tables: not a folder" play --egtb /nonexistent/tables
expect_error 2 "serve: --egtb /nonexistent/tables: not a folder" serve --egtb /nonexistent/tables
expect_error 2 "match: --egtb /nonexistent/tables: not a folder" match --egtb /nonexistent/tables
expect_error 2 "study: --egtb /nonexistent/tables: not a folder" study --egtb /nonexistent/tables --out /tmp/x
expect_error 2 "--after: move '43-38' is not legal here" moves --variant frisian \
    --fen "W:WK48,46:B1,5" --after "48-43,5-10,43-48,10-15,48-43,1-7,43-38"

# moves in Hub form
out=$("$bin" moves --variant international --fen "W:W33:B28")
[ "$out" = "33x22x28" ] && ok || bad "moves: got '$out'"

# Frisian: listed, and a king with 3 moves in a row (--after) has to let the man move
"$bin" variants | grep -q '^frisian  *10x10  Frisian draughts$' && ok || bad "variants: no frisian"
"$bin" variants | grep -q '^frysk  *10x10' && ok || bad "variants: no frysk"
out=$("$bin" moves --variant frisian --fen "W:WK48,46:B1,5" --after "48-43 5-10 43-48 10-15 48-43 1-7")
[ "$out" = "46-41" ] && ok || bad "moves --after: got '$out'"
out=$("$bin" show --variant frisian --fen "W:WK48,46:B1,5" --after "48-43,5-10" | tail -1)
[ "$out" = "white king 43 has made 1 of 3 non-capturing moves in a row" ] && ok || bad "show: '$out'"
# the Frisian engine: a legal best move (the only one: 28 takes 29 along the row)
out=$("$bin" analyse --variant frisian --fen "W:W28:B1,29" --depth 4 | tail -1)
[ "$out" = "bestmove 28x30" ] && ok || bad "analyse frisian: got '$out'"

# analyse ends with a legal best move
out=$("$bin" analyse --variant constitutional --fen "W:WK35:BK3" --depth 6 | tail -1)
[ "$out" = "bestmove 35-13" ] && ok || bad "analyse: got '$out'"

# analyse --options lists the engine's options table (name, default, range, meaning): a match
# player takes every listed option at its default (self:NAME=V) and refuses a name not listed;
# Hub lists the same names as `param` lines (with its own variant, hash and numbering) and its
# set-param takes each at both ends of its range and its default, and refuses a name not listed
opts=$("$bin" analyse --options)
[ -n "$opts" ] && ok || bad "analyse --options: no listing"
self="self:depth=1" hubin="hub" names=""
while read -r name def range about; do
    lo=${range%-*} hi=${range#*-}
    [ -n "$about" ] && [ "$lo" -le "$def" ] && [ "$def" -le "$hi" ] && ok ||
        bad "analyse --options: bad line '$name $def $range $about'"
    self="$self,$name=$def" names="$names $name"
    hubin="$hubin
set-param name=$name value=$lo
set-param name=$name value=$hi
set-param name=$name value=$def"
done <<LIST
$opts
LIST
"$bin" match --depth 1 --games 2 --max-plies 4 --engine1 "$self" >/dev/null 2>&1 && ok ||
    bad "match: the listed options at their defaults refused ($self)"
expect_error 2 "unknown engine option 'nosuchoption'" match --depth 1 --engine1 self:nosuchoption=1
out=$(printf '%s\nset-param name=nosuchoption value=1\nhub\nquit\n' "$hubin" | "$bin" hub)
[ "$(printf '%s\n' "$out" | grep -c '^error')" = 1 ] && ok || bad "hub set-param of the listed options: $out"
printf '%s\n' "$out" | grep -q "^error message=\"set-param: unknown parameter 'nosuchoption'" && ok ||
    bad "hub: an unlisted option taken"
hubnames=$(printf '%s\n' "$out" | sed -n 's/^param name=\([^ ]*\) .*/\1/p' | sort -u | tr '\n' ' ')
want=$(printf '%s\n' variant hash numbering $names | sort -u | tr '\n' ' ')
[ "$hubnames" = "$want" ] && ok || bad "hub params '$hubnames', the table and Hub's own '$want'"

# a scripted terminal game: an illegal move is refused, resign ends it with its reason
out=$(printf '32-26\n32-28\nresign\n' | "$bin" play --variant international --level 1)
printf '%s' "$out" | grep -q "move '32-26' is not legal here" && ok || bad "play: no illegal-move message"
printf '%s' "$out" | grep -q "Game over: 0-2, Black wins (resignation)" && ok || bad "play: no result line"
printf '%s' "$out" | grep -q '^1\. 32-28 ' && ok || bad "play: no PDN of the game"

# issue 15: --level beyond 10 is an error like 0; a separator with no square after it is refused;
# undo says what it took back; scores have a unit; moves without --variant is International
expect_error 2 "--level: bad number '99' (1 to 10)" play --level 99
expect_error 2 "bad number" play --level 0
expect_error 2 "'x' at column 6 is not followed by a square" moves --after 32-27x
expect_error 2 "'33-29' is not legal here (capturing is compulsory); legal moves: 33x22" moves \
    --fen "W:W33:B28" --after 33-29
out=$(printf '32-28\nundo\nresign\n' | "$bin" play --variant international --level 1)
printf '%s' "$out" | grep -q "took back your 32-28 and the engine's [0-9]*-[0-9]*; your move" && ok ||
    bad "play: undo does not say what it took back"
printf '%s' "$out" | grep -q "score [+-][0-9]*\.[0-9][0-9] men" && ok || bad "play: score without unit"

# issue 50: commands in any case, an unknown word answered as a command with the variant's own
# example move, blanks around '-' and 'x' and control characters in a line taken as the PDN
# reader takes them, and the PDN of `pdn` with a blank line after its tags
out=$(printf 'hello\nUndo\n33 - 29\nHINT\nPDN\nresign\n' | "$bin" play --variant international --depth 1)
printf '%s' "$out" | grep -q "unknown command 'hello'; moves look like 32-28\$" && ok ||
    bad "play: 'hello' is not an unknown command"
printf '%s' "$out" | grep -q "nothing to undo" && ok || bad "play: 'Undo' is not undo"
printf '%s' "$out" | grep -q "expected a square" && bad "play: a word or '33 - 29' read as a bad move" || ok
printf '%s' "$out" | grep -q "hint: " && ok || bad "play: 'HINT' is not hint"
printf '%s' "$out" | grep -q '^1\. 33-29 ' && ok || bad "play: '33 - 29' not played"
printf '%s\n' "$out" | grep -A1 '^\[GameType "20"\]$' | sed -n 2p | grep -q '^$' && ok ||
    bad "play: no blank line after the PDN tags"
out=$(printf 'Hello\nc3 x e5\nc3 - d4\nquit\n' | "$bin" play --variant russian --depth 1)
printf '%s' "$out" | grep -q "unknown command 'Hello'; moves look like c3-d4\$" && ok ||
    bad "play: russian's unknown-command answer"
printf '%s' "$out" | grep -q "move 'c3xe5' is not legal" && ok || bad "play: 'c3 x e5' not read as c3xe5"
printf '%s' "$out" | grep -q '^1\. c3-d4 ' && ok || bad "play: 'c3 - d4' not played"
out=$(printf '\03332-28\001\r\n\tUNDO\a\n\03333\t-\t29\nresign\n' | "$bin" play --variant international --depth 1)
printf '%s' "$out" | grep -q "took back your 32-28 " && ok || bad "play: a control character spoilt a line"
printf '%s' "$out" | grep -q '^1\. 33-29 ' && ok || bad "play: control characters in the line made the moves fail"
out=$("$bin" analyse --variant constitutional --fen "W:WK35:BK3" --depth 6 | grep -c "score win in [0-9]* move")
[ "$out" -ge 1 ] && ok || bad "analyse: no 'win in N moves' score"
[ "$("$bin" moves | wc -l)" -eq 9 ] && ok || bad "moves without --variant: not International's 9"

# issue 15: lower-case FENs are read (written in capitals); a position without pieces is a game over
[ "$("$bin" show --fen "w:w31:b20" | tail -1)" = "FEN W:W31:B20" ] && ok || bad "lower-case FEN"
[ "$("$bin" analyse --fen "W:W:B")" = "game over: 0-2 (no pieces left)" ] && ok || bad "W:W:B"

# issue 16: one option parser. Every command and subcommand of `condraughts help` answers --help
# with its usage on stdout and exit status 0; an unknown option is refused the same way by each;
# the README's command reference is `condraughts help`'s synopses, line for line.
readme=${README:-$(dirname "$0")/../README.md}
syn=$("$bin" help | grep '^condraughts \|^    ')
cmds=$(printf '%s\n' "$syn" | awk '/^condraughts / { c = $2; if ($3 ~ /^[a-z]+$/) c = c " " $3; print c }')
[ "$(printf '%s\n' "$cmds" | wc -l)" -eq 35 ] && ok || bad "help lists only: $cmds"
printf '%s\n' "$cmds" | while read -r c; do
    # shellcheck disable=SC2086
    out=$("$bin" $c --help 2>/dev/null); st=$?
    [ "$st" -eq 0 ] && printf '%s' "$out" | grep -q "^condraughts $c" && echo ok || echo "FAIL $c --help: status $st"
done >"${TMPDIR:-/tmp}/cli-help.$$"
while read -r line; do
    case $line in ok) ok ;; *) bad "${line#FAIL }" ;; esac
done <"${TMPDIR:-/tmp}/cli-help.$$"
rm -f "${TMPDIR:-/tmp}/cli-help.$$"
for c in egtb towers study pdn train; do
    "$bin" $c --help | grep -q "^subcommands" && ok || bad "$c --help: no subcommands"
done
for c in perft moves show analyse play bench match hub dxp serve "pdn check" study "study openings" \
    "study pack" "egtb build" "egtb probe" "towers moves" "train gen" "train unpack" "train fit" "train label" variants \
    version; do
    # shellcheck disable=SC2086
    expect_error 2 "^condraughts $c: unknown option '--frob' (try: condraughts $c --help)\$" $c --frob
done
expect_error 2 "^condraughts moves: unknown option '--frob' (try: condraughts moves --help)\$" \
    moves --frob=1
expect_error 2 "^condraughts analyse: --depth needs a value (--depth D)\$" analyse --depth
expect_error 2 "^condraughts analyse: --depth: bad number '101' (1 to 100)\$" analyse --depth 101
expect_error 2 "^condraughts play: --side: 'green' is not white or black\$" play --side green
expect_error 2 "^condraughts moves: --keep takes no value\$" moves --keep=1
expect_error 2 "^condraughts train gen: variant 'frisian' has no learned family (international, .*, spanish or czech)\$" \
    train gen --variant frisian --games 1 --out /dev/null
expect_error 2 "^condraughts train gen: --random-plies takes LO-HI with 0 <= LO <= HI <= 40, not '5-3'\$" \
    train gen --random-plies 5-3
expect_error 2 "^condraughts train fit: --lr: bad number '0' (1e-06 to 1000)\$" train fit --lr 0
expect_error 2 "^condraughts train fit: needs --variant, --data and --out" train fit --variant russian
[ "$("$bin" moves --variant=russian --fen=W:W21:B17 -- )" = "21x14x17" ] && ok || bad "--name=VALUE"
"$bin" help dxp | grep -q -- "--no-takeback" && ok || bad "help dxp: no --no-takeback"
"$bin" show --help | grep -q "threatens:" && ok || bad "show --help does not explain threatens:"
got=$(awk '/^## Commands/ { on = 1; next } on && /^```/ { if (in_block) exit; in_block = 1; next }
    in_block' "$readme")
check_eq "README's command reference is condraughts help's" "$syn" "$got"

summary cli

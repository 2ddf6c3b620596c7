#!/bin/sh
# tests/annotate.sh -- `condraughts pdn annotate`: each move's best move and score are what
# `condraughts analyse` finds alone in that position (the same depth, a fresh table), and so is
# each move's loss and its mark ('?!', '?', '??'); a king given away is marked '??'; a forced capture loses nothing; --out writes a file `pdn check`
# reads back with the same games and a comment on every move; a game that plays on after a
# threefold repetition is annotated up to it; bad arguments and games are errors that name
# what is wrong.
#   sh tests/annotate.sh [--bin build/condraughts]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
dir=$(dirname "$0")/pdncheck
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# 1. The first 16 plies of a Russian game at depth 6, each against `analyse` alone: the best
# move, its score, and the mark, from the loss worked out here from analyse's scores (the score
# before the move for the side that moved, plus the score after it for the other side; 0 when
# the best move was played), marked in shell arithmetic: '?!' from 25 hundredths, '?' from 50,
# '??' from 150 (--mark 0.5). At depth 6 ply 15, 8. f2-e3, loses 0.28 men (c1-d2 +0.83, then
# +0.55 for White; both scores are analyse's): the '?!' this checks appears there.
game=$dir/russian-game.pdn
"$bin" pdn annotate --depth 6 --egtb '' "$game" >"$tmp/ann.txt" 2>"$tmp/ann.err"
check_eq "annotate $game: status" 0 $?
moves=$(sed -n '/^$/,$p' "$game" | tr ' ' '\n' | grep -v '^[0-9]*\.$' | grep -E '^[a-h][1-8]' |
    head -16)
# hundredths MEN: "+0.28" -> 28, "-1.39" -> -139
hundredths() { printf '%s' "$1" | awk '{ printf "%d", ($1 < 0 ? $1 * 100 - 0.5 : $1 * 100 + 0.5) }'; }
# score_at BEFORE: analyse's best move and score (hundredths, side to move's view) after BEFORE
score_at() {
    out=$("$bin" analyse --variant russian --depth 6 --egtb '' ${1:+--after "$1"} 2>&1)
    a_best=$(printf '%s\n' "$out" | sed -n 's/^bestmove //p')
    a_men=$(printf '%s\n' "$out" | grep '^depth 6 ' | sed 's/.* score \([^ ]*\) men.*/\1/')
    case "$a_men" in [+-][0-9]*.[0-9][0-9]) a_score=$(hundredths "$a_men") ;; *) a_score=x ;; esac
}
before=""
ply=0
dubious=0
score_at ""
for mv in $moves; do
    ply=$((ply + 1))
    line=$(grep -E '^  [0-9]+\.(\.\.)? ' "$tmp/ann.txt" | sed -n "${ply}p")
    # the annotate line: NUM MOVE[mark] AFTER BEST BESTSCORE LOSS (BEST "=": the move played)
    set -- $line
    best=$4 bscore=$5 mark=$(printf '%s' "$2" | tr -d 'a-h1-8:-')
    [ "$best" = "=" ] && best=$(printf '%s' "$2" | tr -d '?!')
    want_best=$a_best want_score=$a_men s_before=$a_score
    # analyse: the side to move's view; annotate: White's (Black moves at even plies)
    if [ $((ply % 2)) -eq 0 ]; then
        want_score=$(printf '%s' "$want_score" | tr '+-' '-+')
        [ "$want_score" = "-0.00" ] && want_score=+0.00
    fi
    check_eq "ply $ply ($mv): best move as analyse's" "$want_best" "$best"
    check_eq "ply $ply ($mv): its score as analyse's" "$want_score" "$bscore"
    before="${before:+$before }$mv"
    score_at "$before"
    if [ "$s_before" = x ] || [ "$a_score" = x ]; then
        bad "ply $ply ($mv): analyse gave no score in men"
        continue
    fi
    loss=0
    [ "$want_best" != "$mv" ] && loss=$((s_before + a_score))
    [ "$loss" -lt 0 ] && loss=0
    if [ "$loss" -ge 150 ]; then want_mark='??'
    elif [ "$loss" -ge 50 ]; then want_mark='?'
    elif [ "$loss" -ge 25 ]; then want_mark='?!'
    else want_mark=''; fi
    [ "$want_mark" = '?!' ] && dubious=$((dubious + 1))
    check_eq "ply $ply ($mv): loss $loss, its mark" "$want_mark" "$mark"
    check_eq "ply $ply ($mv): the loss printed" "$(awk -v l="$loss" 'BEGIN { printf "%.2f", l / 100 }')" "$6"
done
check_that "a '?!' among the first 16 plies ($dubious)" test "$dubious" -ge 1
check_that "ply 15: 8. f2-e3?!" grep -q '^  8\. f2-e3?! ' "$tmp/ann.txt"
grep -q '^  White: 54 moves, average loss [0-9.]* men, [0-9]* .?!., [0-9]* .?., [0-9]* .??.$' "$tmp/ann.txt" &&
    ok || bad "the White summary: $(grep White: "$tmp/ann.txt")"

# 2. A king given away: 1. a1-d4 c5:e3 (the capture is forced, so it loses nothing).
cat >"$tmp/king.pdn" <<'EOF'
[GameType "25"]
[FEN "W:WKa1,e1:Bc5,h8"]

1. a1-d4 c5:e3 *
EOF
out=$("$bin" pdn annotate --depth 8 --egtb '' "$tmp/king.pdn" 2>&1)
l1=$(printf '%s\n' "$out" | grep '^  1\. ')
l2=$(printf '%s\n' "$out" | grep '^  1\.\.\. ')
case "$l1" in "  1. a1-d4?? "*) ok ;; *) bad "the king given away is not '??': '$l1'" ;; esac
loss=$(printf '%s' "$l1" | awk '{print $NF}')
awk -v l="$loss" 'BEGIN { exit !(l >= 1.5) }' && ok || bad "the king given away loses $loss"
case "$l2" in "  1... c5:e3 "*" = "*" 0.00") ok ;; *) bad "the forced capture: '$l2'" ;; esac
out=$("$bin" pdn annotate --depth 8 --egtb '' --mark 50 "$tmp/king.pdn" 2>&1)
case "$out" in *"a1-d4?"*) bad "--mark 50 still marks: $out" ;; *) ok ;; esac

# 3. --out: every game back, a comment on every move, the same plies and results.
cat "$tmp/king.pdn" "$game" >"$tmp/two.pdn"
"$bin" pdn annotate --depth 4 --egtb '' --out "$tmp/out.pdn" "$tmp/two.pdn" >/dev/null 2>&1
check_eq "--out: status" 0 $?
check_eq "--out: pdn check" "ok 2 games" "$("$bin" pdn check "$tmp/out.pdn" 2>&1)"
check_eq "--out: the same games" "$("$bin" pdn check --verbose "$tmp/two.pdn" | grep -v '^ok' |
    sed 's/(line [0-9]*)//')" "$("$bin" pdn check --verbose "$tmp/out.pdn" | grep -v '^ok' |
    sed 's/(line [0-9]*)//')"
check_eq "--out: a comment on each of the 110 moves" 110 "$(grep -o '{' "$tmp/out.pdn" | wc -l)"
grep -q '^\[Annotator "condraughts [0-9.]*, depth 4 a position"\]$' "$tmp/out.pdn" && ok ||
    bad "--out: no Annotator tag"
grep -q '1\. a1-d4 {?? ' "$tmp/out.pdn" && ok || bad "--out: the '??' comment is missing"

# 4. A game that plays on after a threefold repetition is annotated up to it.
cat >"$tmp/rep.pdn" <<'EOF'
[GameType "25"]
[FEN "W:WKe1:BKd8"]

1. e1-f2 d8-e7 2. f2-e1 e7-d8 3. e1-f2 d8-e7 4. f2-e1 e7-d8 5. e1-f2 d8-e7 *
EOF
out=$("$bin" pdn annotate --depth 4 --egtb '' "$tmp/rep.pdn" 2>&1)
case "$out" in *"the rules end the game after ply 8 (repetition): the 2 plies after it are not annotated"*) ok ;;
*) bad "repetition: $out" ;; esac
check_eq "repetition: 8 lines" 8 "$(printf '%s\n' "$out" | grep -c '^  [0-9]*\.')"

# 5. Errors.
expect_fail 2 'no file' "$bin" pdn annotate
expect_fail 2 'give --depth or --time, not both' "$bin" pdn annotate --depth 3 --time 1 "$game"
expect_fail 2 'no game 3 (1 games read)' "$bin" pdn annotate --depth 2 --game 3 "$game"
expect_fail 2 'cannot read' "$bin" pdn annotate "$tmp/missing.pdn"
expect_fail 2 'cannot write' "$bin" pdn annotate --depth 2 --out "$tmp/no/such/dir.pdn" "$game"
cat "$dir/illegal.pdn" "$tmp/king.pdn" >"$tmp/mixed.pdn"
out=$("$bin" pdn annotate --depth 4 --egtb '' "$tmp/mixed.pdn" 2>"$tmp/mixed.err"); st=$?
check_eq "a bad game: status 2" 2 $st
grep -q "^$tmp/mixed.pdn:5:40: .*is not legal here" "$tmp/mixed.err" && ok ||
    bad "a bad game: stderr '$(cat "$tmp/mixed.err")'"
case "$out" in *"a1-d4??"*) ok ;; *) bad "the game after a bad one is not annotated: $out" ;; esac

summary annotate

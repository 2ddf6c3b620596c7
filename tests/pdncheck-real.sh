#!/bin/sh
# tests/pdncheck-real.sh -- `condraughts pdn check` on PDN files written by other programs and
# people (../shared/data/real-pdn: the PDN 3.0 repository's games, lidraughts and playstrategy
# exports; its MANIFEST.tsv gives each file's variant). Each file must give the number of games
# read and refused that tests/pdncheck/real-pdn.expected records; the refusals left are faults
# of the files, listed with their reasons in that file. Without the folder every check is
# SKIPPED and counted so (a file of the expected list each, and the English results); the last
# line is "pdncheck-real: P passed, F failed[, S skipped]".
#   sh tests/pdncheck-real.sh [--bin build/condraughts] [--dir ../shared/data/real-pdn]
bin=./build/condraughts
dir=../shared/data/real-pdn
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) bin=$2; shift 2 ;;
    --dir) dir=$2; shift 2 ;;
    *) echo "usage: $0 [--bin BIN] [--dir DIR]" >&2; exit 2 ;;
    esac
done
expected=$(dirname "$0")/pdncheck/real-pdn.expected
if [ ! -f "$dir/MANIFEST.tsv" ]; then
    n=$(($(grep -vc '^#' "$expected") + 1))
    echo "pdncheck-real: SKIPPED, no real PDN files at $dir (MANIFEST.tsv missing): $n checks not run"
    echo "pdncheck-real: 0 passed, 0 failed, $n skipped"
    exit 0
fi
pass=0 fail=0 skipped=0 games=0 refused=0
tab=$(printf '\t')
# every file of the manifest has its expected counts, and gives them
while IFS="$tab" read -r file variant kind; do
    case "$file" in "#"* | "") continue ;; esac
    want=$(awk -F'\t' -v f="$file" '$1 == f { print $2 " " $3 }' "$expected")
    if [ -z "$want" ]; then
        fail=$((fail + 1)); echo "FAIL $file: no line in $expected"; continue
    fi
    out=$("$bin" pdn check "$dir/$file" --variant "$variant" 2>/dev/null)
    case "$out" in
    "ok "*" games") got="${out#ok }"; got="${got% games} 0" ;;
    *" games read, "*" refused") got=$(printf '%s' "$out" | awk '{ print $1 " " $4 }') ;;
    *) got="? ?" ;;
    esac
    if [ "$got" = "$want" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL $file ($variant, $kind): read/refused $got, expected $want"
    fi
    games=$((games + ${got%% *})); refused=$((refused + ${got##* }))
done <"$dir/MANIFEST.tsv"
# English results: the first score is the first mover's (Black's). Each playstrategy game that
# ended on the board (no pieces or no legal move left) has the Result tag condraughts writes.
f=$dir/lidraughts-exports/american.pdn
if [ -f "$f" ]; then
    tags=$(mktemp)
    grep '^\[Result' "$f" | sed 's/.*"\(.*\)".*/\1/' >"$tags"
    pairs=$("$bin" pdn check "$f" --variant english --verbose 2>/dev/null | grep '^game' |
        sed 's/.* plies, //' | paste -d' ' "$tags" -)
    rm -f "$tags"
    board=$(printf '%s\n' "$pairs" | grep -c 'no pieces left\|no legal move')
    same=$(printf '%s\n' "$pairs" | awk '/no pieces left|no legal move/ && $1 == $2' | wc -l)
    if [ "$board" -ge 20 ] && [ "$same" -eq "$board" ]; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1))
        echo "FAIL $f: $same of $board games ended on the board have the Result tag we write"
    fi
else
    skipped=$((skipped + 1))
    echo "skip the English results: no $f"
fi
echo "pdncheck-real: $games games read, $refused refused"
if [ "$skipped" -gt 0 ]; then
    echo "pdncheck-real: $pass passed, $fail failed, $skipped skipped"
else
    echo "pdncheck-real: $pass passed, $fail failed"
fi
[ "$fail" -eq 0 ]

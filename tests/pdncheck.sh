#!/bin/sh
# tests/pdncheck.sh -- `condraughts pdn check`: good files give "ok N games" (status 0), bad ones
# each error as FILE:LINE:COL: message on stderr and "N games read, M refused" (status 2).
#   sh tests/pdncheck.sh [--bin build/condraughts]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
dir=$(dirname "$0")/pdncheck
. "$(dirname "$0")/lib.sh"

# expect_ok N FILE [ARGS...]
expect_ok() {
    want=$1 file=$2; shift 2
    out=$("$bin" pdn check "$file" "$@" 2>&1); st=$?
    [ "$st" -eq 0 ] && [ "$out" = "ok $want games" ] && ok || bad "pdn check $file $*: status $st, '$out'"
}
# expect_err READ PLACE PATTERN FILE [ARGS...]: status 2, one line on stderr, "READ games read,
# 1 refused" on stdout (READ "-": a fault of the whole file, nothing on stdout)
expect_err() {
    nread=$1 place=$2 pat=$3 file=$4; shift 4
    want="$nread games read, 1 refused"
    [ "$nread" = - ] && want=""
    err=$("$bin" pdn check "$file" "$@" 2>&1 >/dev/null); st=$?
    out=$("$bin" pdn check "$file" "$@" 2>/dev/null)
    lines=$(printf '%s\n' "$err" | wc -l)
    case "$err" in
    "$file:$place: "*) where=1 ;;
    *) where=0 ;;
    esac
    if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ] && [ "$out" = "$want" ] && [ $where -eq 1 ] &&
        printf '%s' "$err" | grep -q -- "$pat"; then ok
    else bad "pdn check $file $*: status $st, stderr '$err', stdout '$out' (want $place: $pat)"; fi
}

for f in "$dir"/../pdn/*.pdn; do
    out=$("$bin" pdn check "$f" 2>&1) && case "$out" in "ok "*" games") ok ;; *) bad "$f: $out" ;; esac ||
        bad "$f: $out"
done
expect_ok 6 "$dir/../pdn/multi.pdn"
expect_ok 1 "$dir/international-game.pdn"
expect_ok 1 "$dir/russian-game.pdn"
expect_ok 1 "$dir/english-ok.pdn"
expect_ok 1 "$dir/russian-default.pdn" --variant russian
# GameType 40 is Frisian (orthogonal captures: 7... 16x36 down the file, 11. 16x18 along the row)
expect_ok 1 "$dir/frisian-game.pdn"
out=$("$bin" pdn check "$dir/frisian-game.pdn" --verbose 2>&1)
case "$out" in *"game 1 (line 1): frisian, 102 plies, 0-2"*) ok ;; *) bad "frisian --verbose: '$out'" ;; esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat "$dir/international-game.pdn" "$dir/russian-game.pdn" "$dir/english-ok.pdn" "$dir"/../pdn/*.pdn >"$tmp/all.pdn"
expect_ok 14 "$tmp/all.pdn"
: >"$tmp/empty.pdn"
expect_ok 0 "$tmp/empty.pdn"
printf '{ only a comment }\n' >"$tmp/comment-only.pdn"
expect_ok 0 "$tmp/comment-only.pdn"
# stdin
out=$("$bin" pdn check - <"$dir/russian-game.pdn" 2>&1)
[ "$out" = "ok 1 games" ] && ok || bad "pdn check - (stdin): '$out'"

expect_err 0 5:40 "move '17-23' is not legal here" "$dir/illegal.pdn"
expect_err 1 7:7 "FEN: square '51'" "$dir/badfen.pdn"
expect_err 0 1:10 "unterminated comment" "$dir/comment.pdn"
expect_err - 1:15 "NUL byte" "$dir/nul.pdn"
expect_err 0 1:4 "move 'a3-b4' is not legal" "$dir/russian-default.pdn"
expect_err 0 1:1 "unterminated tag Event" "$dir/tag.pdn"
expect_err 0 2:11 "unknown Variant \"chess\"" "$dir/variant.pdn"
# the first error of a file with good games before it
cat "$dir/international-game.pdn" "$dir/illegal.pdn" >"$tmp/second.pdn"
n=$(wc -l <"$dir/international-game.pdn")
expect_err 1 $((n + 5)):40 "not legal" "$tmp/second.pdn"

# arguments
for args in "" "check" "check $tmp/none.pdn" "check a b" "check --variant nosuch $tmp/all.pdn" \
    "check --frob $tmp/all.pdn" "frob"; do
    # shellcheck disable=SC2086
    err=$("$bin" pdn $args 2>&1 >/dev/null); st=$?
    [ "$st" -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && ok || bad "pdn $args: status $st, '$err'"
done

summary pdncheck

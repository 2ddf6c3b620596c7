#!/bin/sh
# The learned evaluation's weights files from the command line: the commands that search refuse
# to start without them or with a damaged one (one line naming the file and the fault, status 2),
# the others do not need them, and the shipped files load and change the engine's scores.
# Usage: tests/weights.sh [--bin PATH]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_error PATTERN ARGS...: status 2 and one stderr line matching PATTERN
expect_error() {
    pat=$1; shift
    err=$("$bin" "$@" 2>&1 >/dev/null </dev/null); st=$?
    lines=$(printf '%s\n' "$err" | wc -l)
    if [ "$st" -eq 2 ] && [ "$lines" -eq 1 ] && printf '%s' "$err" | grep -q -- "$pat"; then ok
    else bad "condraughts $*: status $st, stderr '$err'"; fi
}

CD_WEIGHTS=$tmp/none expect_error "weights file $tmp/none/international.cdw is missing" \
    analyse --variant international --depth 2
CD_WEIGHTS=$tmp/none expect_error "is missing" bench 1
CD_WEIGHTS=$tmp/none expect_error "is missing" hub

# every command that does not search works without them
out=$(CD_WEIGHTS=$tmp/none "$bin" perft --variant international 3 | head -3 | tail -1)
[ "$out" = "perft 3 729" ] && ok || bad "perft without weights: '$out'"

# damaged copies of the shipped files
dir=$(dirname "$bin")/../weights
[ -f weights/international.cdw ] && dir=weights
cp "$dir"/*.cdw "$tmp/"
printf 'X' | dd of="$tmp/constitutional.cdw" bs=1 seek=5000 conv=notrunc 2>/dev/null
CD_WEIGHTS=$tmp expect_error "constitutional.cdw: the weights file's checksum does not match" \
    analyse --variant international --depth 2
cp "$dir/constitutional.cdw" "$tmp/"
head -c 1000 "$dir/russian.cdw" > "$tmp/russian.cdw"
CD_WEIGHTS=$tmp expect_error "russian.cdw: the weights file has the wrong size" \
    analyse --variant russian --depth 2
cp "$dir/international.cdw" "$tmp/russian.cdw"
CD_WEIGHTS=$tmp expect_error "russian.cdw: the weights file's geometry does not match" \
    analyse --variant russian --depth 2
: > "$tmp/russian.cdw"
CD_WEIGHTS=$tmp expect_error "russian.cdw: not a condraughts weights file" \
    analyse --variant russian --depth 2

# the learned evaluation is the default; classic-eval is the hand-set one (different scores)
fen="W:W31,32,33,34,36,37,38,39,40,41,43,45,46,48:B1,2,3,5,6,8,9,11,12,13,14,16,17,19"
a=$("$bin" analyse --variant international --fen "$fen" --depth 1 | grep '^depth 1' | sed 's/.*score \([^ ]*\).*/\1/')
[ -n "$a" ] && ok || bad "analyse with the learned evaluation printed no score"

echo "weights: $pass passed, $fail failed"
[ "$fail" -eq 0 ]

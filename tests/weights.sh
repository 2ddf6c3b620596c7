#!/bin/sh
# The learned evaluation's weights files from the command line: the commands that search refuse
# to start without them or with a damaged one (one line naming the file and the fault, status 2),
# the others do not need them, and the shipped files load and change the engine's scores.
# Usage: tests/weights.sh [--bin PATH]
bin=./build/condraughts
[ "${1:-}" = "--bin" ] && bin=$2
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# expect_error PATTERN ARGS...: status 2 and one stderr line matching PATTERN
expect_error() {
    pat=$1
    shift
    expect_fail 2 "$pat" "$bin" "$@"
}

CD_WEIGHTS=$tmp/none expect_error "weights file $tmp/none/international.cdw is missing" \
    analyse --variant international --depth 2
CD_WEIGHTS=$tmp/none expect_error "is missing" bench 1
CD_WEIGHTS=$tmp/none expect_error "is missing" hub

# every command that does not search works without them
out=$(CD_WEIGHTS=$tmp/none "$bin" perft --variant international 3 | head -3 | tail -1)
[ "$out" = "perft 3 658" ] && ok || bad "perft without weights: '$out'"

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
CD_WEIGHTS=$tmp expect_error "russian.cdw: it holds the weights of .international." \
    analyse --variant russian --depth 2
: > "$tmp/russian.cdw"
CD_WEIGHTS=$tmp expect_error "russian.cdw: not a condraughts weights file" \
    analyse --variant russian --depth 2

# train fit --init: a fit that starts from a shipped file and barely moves (a step of 1e-6)
# writes that file again byte for byte (the windows, scalars and king squares read back exactly);
# a file of another family or a damaged one is refused with the reader's message
cp "$dir"/*.cdw "$tmp/"
if "$bin" train gen --variant russian --games 40 --nodes 300 --seed 7 --out "$tmp/r.dat" \
    > /dev/null 2>&1; then ok; else bad "train gen for --init"; fi
"$bin" train fit --variant russian --data "$tmp/r.dat" --init "$tmp/russian.cdw" --epochs 1 \
    --lr 1e-6 --out "$tmp/r2.cdw" > /dev/null 2>&1
cmp -s "$tmp/r2.cdw" "$tmp/russian.cdw" && ok || bad "fit --init --lr 1e-6 changed the weights"
"$bin" train fit --variant russian --data "$tmp/r.dat" --init "$tmp/r2.cdw" --epochs 1 \
    --out "$tmp/r3.cdw" > /dev/null 2>&1
cmp -s "$tmp/r3.cdw" "$tmp/russian.cdw" && bad "fit --init --lr 1 left the weights as they were" || ok
expect_error "international.cdw holds international weights, not russian" \
    train fit --variant russian --data "$tmp/r.dat" --init "$tmp/international.cdw" --out "$tmp/x.cdw"
cp "$tmp/russian.cdw" "$tmp/rbad.cdw"
printf 'X' | dd of="$tmp/rbad.cdw" bs=1 seek=5000 conv=notrunc 2>/dev/null
expect_error "rbad.cdw: the weights file's checksum does not match" \
    train fit --variant russian --data "$tmp/r.dat" --init "$tmp/rbad.cdw" --out "$tmp/x.cdw"

# train fit --wide: the narrow file started a wide fit (its windows first, the added ones at 0);
# with a step of 1e-6 the wide file scores every position as the narrow one, so a search sees the
# same tree; the engine reads either layout; a narrow fit refuses a wide file
"$bin" train fit --variant russian --data "$tmp/r.dat" --init "$tmp/russian.cdw" --wide \
    --epochs 1 --lr 1e-6 --out "$tmp/rw.cdw" > /dev/null 2>&1
size=$(wc -c < "$tmp/rw.cdw")
[ "$size" -eq 341384 ] && ok || bad "wide russian file: $size bytes, not 341384 (13 windows)"
mkdir "$tmp/wide" && cp "$tmp/international.cdw" "$tmp/constitutional.cdw" "$tmp/wide/"
cp "$tmp/rw.cdw" "$tmp/wide/russian.cdw"
narrow=$(CD_WEIGHTS=$tmp "$bin" analyse --variant russian --depth 9 | cut -d' ' -f1-8)
wide=$(CD_WEIGHTS=$tmp/wide "$bin" analyse --variant russian --depth 9 | cut -d' ' -f1-8)
[ -n "$narrow" ] && [ "$narrow" = "$wide" ] && ok || bad "wide file searches differently: $wide"
expect_error "rw.cdw holds the wide layout (13 windows): give --wide" \
    train fit --variant russian --data "$tmp/r.dat" --init "$tmp/rw.cdw" --out "$tmp/x.cdw"

summary weights

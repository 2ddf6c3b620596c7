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
# --k: the score scale given (reported) instead of fitted; another K, other targets, other weights
out=$("$bin" train fit --variant russian --data "$tmp/r.dat" --init "$tmp/russian.cdw" --epochs 1 \
    --k 5000 --out "$tmp/r4.cdw" 2>&1)
printf '%s\n' "$out" | grep -q "games; K = 5000.0 (--k)\$" && ok || bad "fit --k 5000: $out"
cmp -s "$tmp/r4.cdw" "$tmp/r3.cdw" && bad "fit --k 5000 wrote the weights of the fitted K" || ok
expect_error "international.cdw holds international weights, not russian" \
    train fit --variant russian --data "$tmp/r.dat" --init "$tmp/international.cdw" --out "$tmp/x.cdw"
# another family on the same board starts a new family: Killer from the Constitutional file
# (which holds the flank strips: --strips) with a step of 1e-6 is that file with Killer's name in
# the header (bytes 9-24) and its own checksum (the last 4 bytes); a Killer search then reads it
# as Killer's weights
"$bin" train gen --variant killer --games 4 --nodes 300 --seed 7 --classic --out "$tmp/k.dat" \
    > /dev/null 2>&1
"$bin" train fit --variant killer --data "$tmp/k.dat" --init "$tmp/constitutional.cdw" --strips \
    --epochs 1 --lr 1e-6 --out "$tmp/k.cdw" > /dev/null 2> "$tmp/k.err"
grep -q "starting the killer weights from constitutional's" "$tmp/k.err" && ok ||
    bad "fit --init of another family: $(cat "$tmp/k.err")"
size=$(wc -c < "$tmp/k.cdw")
[ "$(head -c 24 "$tmp/k.cdw" | tail -c 16 | tr -d '\0')" = killer ] && ok || bad "k.cdw's family"
tail -c +25 "$tmp/k.cdw" | head -c $((size - 28)) > "$tmp/k.body"
tail -c +25 "$tmp/constitutional.cdw" | head -c $((size - 28)) > "$tmp/c.body"
[ "$(wc -c < "$tmp/k.body")" -gt 400000 ] && cmp -s "$tmp/k.body" "$tmp/c.body" && ok ||
    bad "fit --init from another family changed the weights"
mkdir "$tmp/k" && cp "$dir"/*.cdw "$tmp/k/" && cp "$tmp/k.cdw" "$tmp/k/killer.cdw"
CD_WEIGHTS=$tmp/k "$bin" analyse --variant killer --depth 2 > /dev/null 2>&1 && ok ||
    bad "a Killer file made from Constitutional's does not load"
rm "$tmp/k/modern.cdw"
CD_WEIGHTS=$tmp/k expect_error "weights file $tmp/k/modern.cdw is missing" \
    analyse --variant international --depth 2
# a family whose name is not its variant's: russian-constitutional's data and weights files
# carry "russian-const" (a header holds 15 characters); its search reads russian-const.cdw
"$bin" train gen --variant russian-constitutional --games 4 --nodes 300 --seed 7 --classic \
    --out "$tmp/rc.dat" > /dev/null 2>&1
[ "$(head -c 24 "$tmp/rc.dat" | tail -c 16 | tr -d '\0')" = russian-const ] && ok ||
    bad "rc.dat's family: $(head -c 24 "$tmp/rc.dat" | tail -c 16 | tr -d '\0')"
expect_error "rc.dat holds russian-const games, not russian" \
    train fit --variant russian --data "$tmp/rc.dat" --out "$tmp/x.cdw"
"$bin" train fit --variant russian-constitutional --data "$tmp/rc.dat" --init "$tmp/russian.cdw" \
    --epochs 1 --lr 1e-6 --out "$tmp/rc.cdw" > /dev/null 2>&1
[ "$(head -c 24 "$tmp/rc.cdw" | tail -c 16 | tr -d '\0')" = russian-const ] && ok ||
    bad "rc.cdw's family"
"$bin" train fit --variant russian-constitutional --data "$tmp/rc.dat" --init "$tmp/russian.cdw" \
    --epochs 1 --out "$tmp/rc1.cdw" > /dev/null 2>&1
mkdir "$tmp/rc" && cp "$dir"/*.cdw "$tmp/rc/" && cp "$tmp/rc.cdw" "$tmp/rc/russian-const.cdw"
start=$(CD_WEIGHTS=$tmp/rc "$bin" analyse --variant russian-constitutional --depth 9 | cut -d' ' -f1-8)
cp "$tmp/rc1.cdw" "$tmp/rc/russian-const.cdw"
fitted=$(CD_WEIGHTS=$tmp/rc "$bin" analyse --variant russian-constitutional --depth 9 |
    cut -d' ' -f1-8)
[ -n "$start" ] && [ -n "$fitted" ] && [ "$start" != "$fitted" ] && ok ||
    bad "russian-constitutional searches the same with other russian-const weights: $fitted"
printf 'X' | dd of="$tmp/rc/russian-const.cdw" bs=1 seek=5000 conv=notrunc 2>/dev/null
CD_WEIGHTS=$tmp/rc expect_error "russian-const.cdw: the weights file's checksum does not match" \
    analyse --variant russian-constitutional --depth 2
cp "$tmp/rc.cdw" "$tmp/rc/russian-const.cdw" && cp "$tmp/russian.cdw" "$tmp/rc/brazilian-const.cdw"
CD_WEIGHTS=$tmp/rc expect_error "brazilian-const.cdw: it holds the weights of .russian." \
    analyse --variant brazilian-constitutional --depth 2
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
mkdir "$tmp/wide" && cp "$dir"/*.cdw "$tmp/wide/"
cp "$tmp/rw.cdw" "$tmp/wide/russian.cdw"
narrow=$(CD_WEIGHTS=$tmp "$bin" analyse --variant russian --depth 9 | cut -d' ' -f1-8)
wide=$(CD_WEIGHTS=$tmp/wide "$bin" analyse --variant russian --depth 9 | cut -d' ' -f1-8)
[ -n "$narrow" ] && [ "$narrow" = "$wide" ] && ok || bad "wide file searches differently: $wide"
expect_error "rw.cdw holds the wide layout (13 windows): give --wide" \
    train fit --variant russian --data "$tmp/r.dat" --init "$tmp/rw.cdw" --out "$tmp/x.cdw"

# train fit --strips: the narrow International file started a fit with the flank strips (at 0);
# with a step of 1e-6 the strips stay 0, so a search sees the same tree; the file is version 3 and
# 735,120 bytes; a fit without --strips refuses it; 8x8 has no strips
"$bin" train gen --variant international --games 4 --nodes 300 --seed 7 --out "$tmp/i.dat" \
    > /dev/null 2>&1
"$bin" train fit --variant international --data "$tmp/i.dat" --init "$tmp/international.cdw" \
    --strips --epochs 1 --lr 1e-6 --out "$tmp/is.cdw" > /dev/null 2>&1
size=$(wc -c < "$tmp/is.cdw")
[ "$size" -eq 735120 ] && ok || bad "international file with strips: $size bytes, not 735120"
mkdir "$tmp/strips" && cp "$dir"/*.cdw "$tmp/strips/" && cp "$tmp/is.cdw" "$tmp/strips/international.cdw"
narrow=$(CD_WEIGHTS=$tmp "$bin" analyse --variant international --depth 9 | cut -d' ' -f1-8)
strips=$(CD_WEIGHTS=$tmp/strips "$bin" analyse --variant international --depth 9 | cut -d' ' -f1-8)
[ -n "$narrow" ] && [ "$narrow" = "$strips" ] && ok || bad "strips at 0 search differently: $strips"
expect_error "is.cdw holds flank strips: give --strips" \
    train fit --variant international --data "$tmp/i.dat" --init "$tmp/is.cdw" --out "$tmp/x.cdw"
expect_error "the flank strips are for 10x10 boards only" \
    train fit --variant russian --data "$tmp/r.dat" --strips --out "$tmp/x.cdw"

# train fit --pip: the file with strips (blended by the pieces) started a fit blended by the pip
# (said on stderr); the file is version 4, 735,124 bytes (an eighth header word, 1); a gentle fit
# from it writes it again byte for byte; the engine reads it and, the phase measured otherwise,
# searches differently; a fit without --pip refuses it; 8x8 has the pip phase too (236,416
# bytes: version 4 without strips)
out=$("$bin" train fit --variant international --data "$tmp/i.dat" --init "$tmp/is.cdw" \
    --strips --pip --epochs 1 --lr 1e-6 --out "$tmp/ip.cdw" 2>&1 > /dev/null)
case $out in
*"is.cdw blends its weights by the pieces; they start a fit by the pip phase"*) ok ;;
*) bad "a fit by the pip from a file by the pieces says: $out" ;;
esac
size=$(wc -c < "$tmp/ip.cdw")
version=$(od -An -tu4 -j4 -N4 "$tmp/ip.cdw" | tr -d ' ')
phase=$(od -An -tu4 -j52 -N4 "$tmp/ip.cdw" | tr -d ' ')
[ "$size" -eq 735124 ] && [ "$version" = 4 ] && [ "$phase" = 1 ] && ok ||
    bad "international file with the pip: $size bytes, version $version, phase $phase"
"$bin" train fit --variant international --data "$tmp/i.dat" --init "$tmp/ip.cdw" \
    --strips --pip --epochs 1 --lr 1e-6 --out "$tmp/ip2.cdw" > /dev/null 2>&1
cmp -s "$tmp/ip.cdw" "$tmp/ip2.cdw" && ok || bad "fit --pip --init --lr 1e-6 changed the weights"
mkdir "$tmp/pip" && cp "$dir"/*.cdw "$tmp/pip/" && cp "$tmp/ip.cdw" "$tmp/pip/international.cdw"
pip=$(CD_WEIGHTS=$tmp/pip "$bin" analyse --variant international --depth 9 | cut -d' ' -f1-8)
[ -n "$pip" ] && [ "$pip" != "$strips" ] && ok || bad "the pip phase searches as the pieces: $pip"
expect_error "ip.cdw blends its weights by the pip phase: give --pip" \
    train fit --variant international --data "$tmp/i.dat" --init "$tmp/ip.cdw" --strips \
    --out "$tmp/x.cdw"
"$bin" train fit --variant russian --data "$tmp/r.dat" --init "$tmp/russian.cdw" --pip \
    --epochs 1 --out "$tmp/rp.cdw" > /dev/null 2>&1
size=$(wc -c < "$tmp/rp.cdw")
[ "$size" -eq 236416 ] && ok || bad "russian file with the pip: $size bytes, not 236416"
mkdir "$tmp/rpip" && cp "$dir"/*.cdw "$tmp/rpip/" && cp "$tmp/rp.cdw" "$tmp/rpip/russian.cdw"
out=$(CD_WEIGHTS=$tmp/rpip "$bin" analyse --variant russian --depth 6 | cut -d' ' -f1-8)
[ -n "$out" ] && ok || bad "the engine does not search with a russian file with the pip"
# the largest weights file, wide with strips and the pip (971,320 bytes), loads
"$bin" train fit --variant international --data "$tmp/i.dat" --init "$tmp/ip.cdw" --wide \
    --strips --pip --epochs 1 --lr 1e-6 --out "$tmp/iwp.cdw" > /dev/null 2>&1
size=$(wc -c < "$tmp/iwp.cdw")
[ "$size" -eq 971320 ] && ok || bad "wide international file with strips and the pip: $size bytes"
cp "$tmp/iwp.cdw" "$tmp/pip/international.cdw"
out=$(CD_WEIGHTS=$tmp/pip "$bin" analyse --variant international --depth 9 | cut -d' ' -f1-8)
[ "$out" = "$pip" ] && ok || bad "the wide file with strips and the pip searches otherwise: $out"

# train net: a network stacked on the Russian weights; the same file for any --threads (8
# shards: 3 threads take them unevenly); after an epoch the engine's integer form and the
# trainer's float form give about the same held-out loss, and not the start's; the engine reads
# weights/russian.cdn when there, refuses a damaged one or one made for other weights (which
# does not stop train net, which reads the pattern weights alone), and searches differently
# with it (test_net checks the values)
mkdir "$tmp/n" && cp "$dir"/*.cdw "$tmp/n/"
out=$(CD_WEIGHTS=$tmp/n "$bin" train net --variant russian --data "$tmp/r.dat" --hidden 64,16 \
    --epochs 2 --threads 1 --seed 3 --out "$tmp/n1.cdn" 2> /dev/null)
CD_WEIGHTS=$tmp/n "$bin" train net --variant russian --data "$tmp/r.dat" --hidden 64,16 \
    --epochs 2 --threads 3 --seed 3 --out "$tmp/n2.cdn" > /dev/null 2>&1
[ -s "$tmp/n1.cdn" ] && cmp -s "$tmp/n1.cdn" "$tmp/n2.cdn" && ok ||
    bad "train net: --threads 1 and 3 wrote different networks"
[ "$(wc -c < "$tmp/n1.cdn")" -eq $((48 + 4 * (128 * 64 + 64 + 16 * 64 + 16 + 16 + 1) + 4)) ] && ok ||
    bad "train net: a 64,16 network of $(wc -c < "$tmp/n1.cdn") bytes"
set -- $(printf '%s\n' "$out" | sed -n 's/^start: held out \([0-9.]*\) .*/\1/p') \
    $(printf '%s\n' "$out" | sed -n 's/^epoch 1 .*: held out \([0-9.]*\) (float \([0-9.]*\);.*/\1 \2/p')
[ $# -eq 3 ] && awk -v s="$1" -v q="$2" -v f="$3" 'BEGIN { d = q - f; if (d < 0) d = -d
    exit !(d < 0.001 && q != s) }' && ok || bad "train net: start, integer and float losses: $*"
plain=$(CD_WEIGHTS=$tmp/n "$bin" analyse --variant russian --depth 9 | cut -d' ' -f1-8)
cp "$tmp/n1.cdn" "$tmp/n/russian.cdn"
with=$(CD_WEIGHTS=$tmp/n "$bin" analyse --variant russian --depth 9 | cut -d' ' -f1-8)
[ -n "$with" ] && [ "$with" != "$plain" ] && ok || bad "the network changed no search: $with"
printf 'X' | dd of="$tmp/n/russian.cdn" bs=1 seek=3000 conv=notrunc 2>/dev/null
CD_WEIGHTS=$tmp/n expect_error "russian.cdn: the network file's checksum does not match" \
    analyse --variant russian --depth 2
head -c 100 "$tmp/n1.cdn" > "$tmp/n/russian.cdn"
CD_WEIGHTS=$tmp/n expect_error "russian.cdn: the network file has the wrong size" \
    analyse --variant russian --depth 2
cp "$tmp/n1.cdn" "$tmp/n/russian.cdn"
cp "$tmp/r3.cdw" "$tmp/n/russian.cdw"
CD_WEIGHTS=$tmp/n expect_error "russian.cdn: the network was trained on the russian weights with checksum" \
    analyse --variant russian --depth 2
CD_WEIGHTS=$tmp/n "$bin" train net --variant russian --data "$tmp/r.dat" --hidden 64,16 \
    --epochs 1 --out "$tmp/n3.cdn" > /dev/null 2>&1 && [ -s "$tmp/n3.cdn" ] && ok ||
    bad "train net stopped by a stale network file"
cp "$tmp/n1.cdn" "$tmp/n/international.cdn"
cp "$dir/russian.cdw" "$tmp/n/russian.cdw"
CD_WEIGHTS=$tmp/n expect_error "international.cdn: it holds the network of .russian." \
    analyse --variant russian --depth 2

# train label: the file again, a sample of its positions scored again and flagged; the same
# file for any --threads, the input itself when nothing is drawn, and each new score is the
# search of its position from White's view: analyse finds it from the position's FEN (decoded
# here from the record's bitboards, the side-to-move view turned to White's)
# rec_fen FILE K: record K of an International data file as $rec_fen, $rec_score (White's view),
# $rec_side and $rec_deep (square n is bit n-1 + (n-1)/10: ten squares, then a ghost bit)
rec_fen() {
    off=$((32 + 40 * $2))
    set -- $(od -An -tu8 -j "$off" -N 24 "$1") $(od -An -td2 -j $((off + 28)) -N 2 "$1") \
        $(od -An -tu1 -j $((off + 32)) -N 3 "$1")
    w=$1 b=$2 k=$3 rec_score=$4 rec_side=$5 rec_deep=$7
    ws= bs=
    n=1
    while [ $n -le 50 ]; do
        bit=$((n - 1 + (n - 1) / 10))
        kk=
        [ $(((k >> bit) & 1)) = 1 ] && kk=K
        [ $(((w >> bit) & 1)) = 1 ] && ws="$ws,$kk$n"
        [ $(((b >> bit) & 1)) = 1 ] && bs="$bs,$kk$n"
        n=$((n + 1))
    done
    [ "$rec_side" = 0 ] && rec_fen=W || rec_fen=B
    rec_fen="$rec_fen:W${ws#,}:B${bs#,}"
}
npos=$("$bin" train gen --variant international --games 3 --nodes 300 --seed 7 \
    --out "$tmp/i.dat" 2> /dev/null | sed -n 's/.*), \([0-9]*\) positions.*/\1/p')
out=$("$bin" train label --variant international --data "$tmp/i.dat" --share 0.5 --depth 4 \
    --out "$tmp/l1.dat" 2> /dev/null)
# the records flagged, counted here from byte 34 of each record
ndeep=$(od -An -v -tu1 -w40 -j 32 "$tmp/l1.dat" | awk '$35 == 1 { n++ } END { print n + 0 }')
case $out in "wrote $tmp/l1.dat: $npos positions, $ndeep of them scored again at 4 plies"*) ok ;;
*) bad "train label: '$out' ($npos positions, $ndeep flagged)" ;; esac
[ "$ndeep" -gt $((npos / 4)) ] && [ "$ndeep" -lt $((3 * npos / 4)) ] && ok ||
    bad "train label --share 0.5 drew $ndeep of $npos"
"$bin" train label --variant international --data "$tmp/i.dat" --share 0.5 --depth 4 \
    --threads 2 --out "$tmp/l2.dat" > /dev/null 2>&1
cmp -s "$tmp/l1.dat" "$tmp/l2.dat" && ok || bad "train label differs with --threads 2"
"$bin" train label --variant international --data "$tmp/i.dat" --share 1e-9 --depth 4 \
    --out "$tmp/l0.dat" > /dev/null 2>&1
cmp -s "$tmp/i.dat" "$tmp/l0.dat" && ok || bad "train label with nothing drawn changed the file"
same=0 deep=0
i=0
while [ $i -lt "$npos" ]; do
    rec_fen "$tmp/l1.dat" $i
    if [ "$rec_deep" = 1 ]; then
        deep=$((deep + 1))
        [ "$rec_side" = 0 ] && s=$rec_score || s=$((-rec_score))
        want=$(awk -v s="$s" 'BEGIN { printf "%+.2f", s / 100 }')
        got=$("$bin" analyse --variant international --fen "$rec_fen" --depth 4 --hash 8 |
            awk '$1 == "depth" && $2 == 4 { print $6 }')
        case $got in
        [+-][0-9]*)
            [ "$got" = "$want" ] && same=$((same + 1)) ||
                bad "train label record $i ($rec_fen): $want, analyse $got"
            ;;
        esac
    fi
    i=$((i + 17))
done
[ $deep -ge 5 ] && [ $same -ge $((deep - 2)) ] && ok ||
    bad "train label: $same of $deep new scores compared with analyse"
expect_error "r.dat holds russian games, not international" \
    train label --variant international --data "$tmp/r.dat" --out "$tmp/x.dat"
head -c 1000 "$tmp/i.dat" > "$tmp/cut.dat"
expect_error "cut.dat: truncated at record 24 of $npos" \
    train label --variant international --data "$tmp/cut.dat" --out "$tmp/x.dat"
# train fit reads the flag and gives those positions their own lambda
out=$("$bin" train fit --variant international --data "$tmp/l1.dat" --epochs 1 --deep-lambda 1 \
    --out "$tmp/x.cdw" 2> /dev/null | grep "scored again")
[ "$out" = "$ndeep positions scored again by train label, lambda 1.00, weight 1" ] && ok ||
    bad "train fit on labelled data: '$out'"
# --deep-weight W: the fit on the data in which each of those records is written W times in a row
# (the file built here from its bytes), nothing held out; and not the fit of weight 1
{
    head -c 24 "$tmp/l1.dat"
    n=$((npos + 2 * ndeep)) i=0
    while [ $i -lt 8 ]; do
        printf "\\$(printf '%03o' $(((n >> (8 * i)) & 255)))"
        i=$((i + 1))
    done
    od -An -v -to1 -w40 -j 32 "$tmp/l1.dat" |
        awk '{ s = ""; for (i = 1; i <= NF; i++) s = s "\\" $i
               for (j = 0; j < ($35 == "001" ? 3 : 1); j++) print s }' |
        while read -r line; do printf "$line"; done
} > "$tmp/l3.dat"
dw_fit() { # DATA OUT [OPTION...]: one epoch, the deep records' target their score alone
    d=$1 o=$2
    shift 2
    "$bin" train fit --variant international --data "$tmp/$d" --epochs 1 --k 150 --deep-lambda 1 \
        --valid 0 "$@" --out "$tmp/$o" > /dev/null 2>&1
}
dw_fit l1.dat dw3.cdw --deep-weight 3
dw_fit l3.dat dw3x.cdw
dw_fit l1.dat dw1.cdw
cmp -s "$tmp/dw3.cdw" "$tmp/dw3x.cdw" && ! cmp -s "$tmp/dw3.cdw" "$tmp/dw1.cdw" && ok ||
    bad "train fit --deep-weight 3: not the fit of those records written thrice"

# train siblings: positions with every move's leaf and the teacher's move; the same file for any
# --threads; train fit --siblings reads it, and its ordering loss on the training positions falls
# as it fits them (the gradient's sign); a damaged, truncated or foreign file is refused
out=$("$bin" train siblings --variant russian --data "$tmp/r.dat" --share 0.3 --nodes 2000 \
    --out "$tmp/s1.sib" 2> /dev/null)
"$bin" train siblings --variant russian --data "$tmp/r.dat" --share 0.3 --nodes 2000 \
    --threads 2 --out "$tmp/s2.sib" > /dev/null 2>&1
[ -s "$tmp/s1.sib" ] && cmp -s "$tmp/s1.sib" "$tmp/s2.sib" && ok ||
    bad "train siblings differs with --threads 2"
groups=$(printf '%s\n' "$out" | sed -n 's/^wrote .*: \([0-9]*\) positions of \([0-9]*\) drawn (\([0-9]*\) leaves).*/\1 \2 \3/p')
set -- $groups
ngroups=${1:-0}
[ $# -eq 3 ] && [ "$1" -ge 20 ] && [ "$3" -ge $((2 * $1)) ] &&
    [ "$(wc -c < "$tmp/s1.sib")" -eq $((32 + 8 * $1 + 32 * $3)) ] && ok ||
    bad "train siblings: '$out', $(wc -c < "$tmp/s1.sib") bytes"
out=$("$bin" train fit --variant russian --data "$tmp/r.dat" --init "$tmp/russian.cdw" \
    --epochs 4 --batch 128 --lr 0.2 --k 353 --siblings "$tmp/s1.sib" --rank 5 --valid 0.05 \
    --out "$tmp/s.cdw" 2> /dev/null)
set -- $(printf '%s\n' "$out" | sed -n 's/^  ordering: loss \([0-9.]*\) training.*/\1/p')
[ $# -eq 4 ] && awk -v a="$1" -v b="$4" 'BEGIN { exit !(b < a * 0.95) }' && ok ||
    bad "train fit --siblings: ordering losses by epoch '$*'"
# a list of files: their positions together (each with its colour-reversed twin)
two=$("$bin" train fit --variant russian --data "$tmp/r.dat" --epochs 1 --k 353 \
    --siblings "$tmp/s1.sib,$tmp/s2.sib" --out "$tmp/x.cdw" 2> /dev/null |
    sed -n 's/^ordering target: \([0-9]*\) positions.*/\1/p')
[ "$two" = $((4 * ngroups)) ] && ok || bad "train fit --siblings A,B: '$two' positions, not 4 x $ngroups"
cat "$tmp/s1.sib" > "$tmp/s3.sib"
printf '\377\377' | dd of="$tmp/s3.sib" bs=1 seek=36 conv=notrunc 2>/dev/null
expect_error "s3.sib: group 0 is damaged or truncated" \
    train fit --variant russian --data "$tmp/r.dat" --siblings "$tmp/s3.sib" --out "$tmp/x.cdw"
head -c 500 "$tmp/s1.sib" > "$tmp/s4.sib"
expect_error "s4.sib: .*truncated" \
    train fit --variant russian --data "$tmp/r.dat" --siblings "$tmp/s4.sib" --out "$tmp/x.cdw"
expect_error "s1.sib holds russian positions, not international" \
    train fit --variant international --data "$tmp/i.dat" --siblings "$tmp/s1.sib" \
    --out "$tmp/x.cdw"
expect_error "r.dat is not a siblings file" \
    train fit --variant russian --data "$tmp/r.dat" --siblings "$tmp/r.dat" --out "$tmp/x.cdw"

# train gen --egtb: a position the tables know is labelled with their result (White's view: 2 won,
# 1 drawn, 0 lost), checked here against egtb probe for the records of 4 pieces or fewer (decoded
# from the bitboards: Russian square n is bit n-1 + (n-1)/8); the file is the same for any
# --threads; a folder without tables is refused
"$bin" egtb build --variant russian --pieces 4 --dir "$tmp/tb" --threads 2 > /dev/null 2>&1
out=$("$bin" train gen --variant russian --games 30 --nodes 300 --seed 5 --egtb "$tmp/tb" \
    --out "$tmp/e1.dat" 2> /dev/null)
case $out in *"games ended by the endgame tables"*) ok ;; *) bad "train gen --egtb: '$out'" ;; esac
ended=$(printf '%s\n' "$out" | sed -n 's/^\([0-9]*\) games ended by the endgame tables.*/\1/p')
[ "${ended:-0}" -ge 10 ] && ok || bad "train gen --egtb: only '$ended' of 30 games reached the tables"
"$bin" train gen --variant russian --games 30 --nodes 300 --seed 5 --egtb "$tmp/tb" --threads 2 \
    --out "$tmp/e2.dat" > /dev/null 2>&1
cmp -s "$tmp/e1.dat" "$tmp/e2.dat" && ok || bad "train gen --egtb differs with --threads 2"
od -An -v -tu8 -w40 -j 32 "$tmp/e1.dat" > "$tmp/e1.u8"
od -An -v -tu1 -w40 -j 32 "$tmp/e1.dat" | awk '{ print $33, $34 }' | paste -d' ' "$tmp/e1.u8" - |
    awk 'function sq(bb, k, n, s, bit) {
             s = ""
             for (n = 1; n <= 32; n++) {
                 bit = n - 1 + int((n - 1) / 8)
                 if (int(bb / 2 ^ bit) % 2)
                     s = s "," (int(k / 2 ^ bit) % 2 ? "K" : "") n
             }
             return substr(s, 2)
         }
         { w = sq($1, $3); b = sq($2, $3)
           if (split(w "," b, x, ",") <= 4) print ($6 == 0 ? "W" : "B") ":W" w ":B" b, $7 }' |
    awk 'NR % 3 == 1' | head -40 > "$tmp/known"
checked=0
while read -r fen result; do
    v=$("$bin" egtb probe --variant russian --dir "$tmp/tb" --fen "$fen" | cut -d' ' -f1)
    case ${fen%%:*}:$v in
    W:win | B:loss) want=2 ;;
    W:loss | B:win) want=0 ;;
    *:draw) want=1 ;;
    *) want="no value ($v)" ;;
    esac
    [ "$result" = "$want" ] && checked=$((checked + 1)) ||
        bad "train gen --egtb: record $fen labelled $result, the tables say $v"
done < "$tmp/known"
[ $checked -ge 10 ] && ok || bad "train gen --egtb: $checked table positions checked"
mkdir "$tmp/notables"
expect_error "no endgame tables of russian there" \
    train gen --variant russian --games 2 --egtb "$tmp/notables" --out "$tmp/x.dat"
expect_error "not a folder" train gen --variant russian --games 2 --egtb "$tmp/none" --out "$tmp/x.dat"

# the game corpus (docs/formats.md): a corpus file replays to the very records train gen writes
# to a data file, with and without the tables' labels and for any --threads; chunks played with
# --first in a folder read as the one run; train fit reads a corpus folder as the data file;
# damaged, foreign and misnamed files are refused with a message
"$bin" train gen --variant russian --games 30 --nodes 300 --seed 5 --egtb "$tmp/tb" --threads 2 \
    --corpus "$tmp/e.cdg.xz" > /dev/null 2>&1
"$bin" train unpack --variant russian --data "$tmp/e.cdg.xz" --out "$tmp/e3.dat" > /dev/null
cmp -s "$tmp/e1.dat" "$tmp/e3.dat" && ok || bad "train unpack: the corpus (tables) replays to other records"
"$bin" train gen --variant russian --games 24 --nodes 300 --seed 6 --out "$tmp/all.dat" \
    > /dev/null 2>&1
mkdir "$tmp/corpus"
"$bin" train gen --variant russian --games 10 --nodes 300 --seed 6 --threads 2 \
    --corpus "$tmp/corpus/a.cdg.xz" > /dev/null 2>&1
"$bin" train gen --variant russian --games 14 --first 10 --nodes 300 --seed 6 \
    --out "$tmp/b.dat" --corpus "$tmp/corpus/b.cdg.xz" > /dev/null 2>&1
out=$("$bin" train unpack --variant russian --data "$tmp/corpus" --out "$tmp/all2.dat")
cmp -s "$tmp/all.dat" "$tmp/all2.dat" && ok || bad "train unpack: two chunks differ from the run"
case $out in *" of 24 games") ok ;; *) bad "train unpack: '$out'" ;; esac
out=$("$bin" train unpack --variant russian --data "$tmp/corpus/b.cdg.xz" --out "$tmp/b2.dat")
[ "$(wc -c < "$tmp/b.dat")" = "$(wc -c < "$tmp/b2.dat")" ] && ok ||
    bad "train unpack: --first 10 replays to another number of records"
case $out in *" of 14 games") ok ;; *) bad "train unpack --first: '$out'" ;; esac
[ "$(wc -c < "$tmp/corpus/b.cdg.xz")" -lt $(($(wc -c < "$tmp/b.dat") / 10)) ] && ok ||
    bad "a corpus file is not a tenth of its data file"
"$bin" train fit --variant russian --data "$tmp/corpus" --epochs 1 --k 353 --out "$tmp/c1.cdw" \
    > /dev/null 2>&1
"$bin" train fit --variant russian --data "$tmp/all.dat" --epochs 1 --k 353 --out "$tmp/c2.cdw" \
    > /dev/null 2>&1
cmp -s "$tmp/c1.cdw" "$tmp/c2.cdw" && ok || bad "train fit: the corpus folder fits other weights"
head -c 300 "$tmp/corpus/a.cdg.xz" > "$tmp/cut.cdg.xz"
expect_error "cut.cdg.xz: .*truncated\|cut.cdg.xz: not a valid xz" \
    train unpack --variant russian --data "$tmp/cut.cdg.xz" --out "$tmp/x.dat"
cp "$tmp/corpus/a.cdg.xz" "$tmp/flip.cdg.xz"
printf 'X' | dd of="$tmp/flip.cdg.xz" bs=1 seek=200 conv=notrunc 2>/dev/null
expect_error "flip.cdg.xz: not a valid xz file" \
    train unpack --variant russian --data "$tmp/flip.cdg.xz" --out "$tmp/x.dat"
expect_error "a.cdg.xz holds russian games, not brazilian" \
    train unpack --variant brazilian --data "$tmp/corpus/a.cdg.xz" --out "$tmp/x.dat"
expect_error "a folder without corpus files" \
    train fit --variant russian --data "$tmp/notables" --out "$tmp/x.cdw"
expect_error "corpus names a file ending in .cdg.xz" \
    train gen --variant russian --games 2 --corpus "$tmp/x.dat"
expect_error "needs --variant, --games and --out or --corpus" train gen --variant russian --games 2

# deep labels kept beside the corpus (docs/formats.md, "Deep labels"): a corpus file's labels
# (train label --out X.cdl.xz) applied by unpack --labels give the very file train label --out
# X.dat writes, for any --threads, and fit --labels fits on them as on that file; a labels file
# of another chunk, a damaged one, labels in two folders, labels of nothing and labels of a
# folder are refused with a message; tools/label.sh writes the folder's labels and stops
"$bin" train label --variant russian --data "$tmp/corpus/a.cdg.xz" --share 0.3 --depth 3 \
    --seed 4 --out "$tmp/la.dat" > /dev/null 2>&1
mkdir "$tmp/lab" "$tmp/lab2" "$tmp/lab3"
"$bin" train label --variant russian --data "$tmp/corpus/a.cdg.xz" --share 0.3 --depth 3 \
    --seed 4 --threads 2 --out "$tmp/lab/a.cdl.xz" > /dev/null 2>&1
"$bin" train unpack --variant russian --data "$tmp/corpus/a.cdg.xz" --labels "$tmp/lab" \
    --out "$tmp/lb.dat" > /dev/null
cmp -s "$tmp/la.dat" "$tmp/lb.dat" && ok ||
    bad "train unpack --labels: not the records train label writes"
"$bin" train unpack --variant russian --data "$tmp/corpus/a.cdg.xz" --out "$tmp/a0.dat" \
    > /dev/null
cmp -s "$tmp/la.dat" "$tmp/a0.dat" && bad "train label drew nothing to label" || ok
"$bin" train fit --variant russian --data "$tmp/corpus/a.cdg.xz" --labels "$tmp/lab" \
    --epochs 1 --k 353 --deep-lambda 1 --out "$tmp/lf1.cdw" > /dev/null 2>&1
"$bin" train fit --variant russian --data "$tmp/la.dat" --epochs 1 --k 353 --deep-lambda 1 \
    --out "$tmp/lf2.cdw" > /dev/null 2>&1
cmp -s "$tmp/lf1.cdw" "$tmp/lf2.cdw" && ok || bad "train fit --labels fits other weights"
cp "$tmp/lab/a.cdl.xz" "$tmp/lab2/b.cdl.xz"
expect_error "b.cdl.xz labels games 0-9 of seed 6 (.* positions), not .*b.cdg.xz's" \
    train unpack --variant russian --data "$tmp/corpus/b.cdg.xz" --labels "$tmp/lab2" \
    --out "$tmp/x.dat"
cp "$tmp/lab/a.cdl.xz" "$tmp/lab2/a.cdl.xz"
expect_error "the labels of .*a.cdg.xz are in .*lab/a.cdl.xz and in .*lab2/a.cdl.xz" \
    train unpack --variant russian --data "$tmp/corpus" --labels "$tmp/lab,$tmp/lab2" \
    --out "$tmp/x.dat"
head -c 130 "$tmp/lab/a.cdl.xz" > "$tmp/lab3/a.cdl.xz"
expect_error "lab3/a.cdl.xz: .*truncated\|lab3/a.cdl.xz: not a valid xz" \
    train unpack --variant russian --data "$tmp/corpus/a.cdg.xz" --labels "$tmp/lab3" \
    --out "$tmp/x.dat"
expect_error "no labels of these games there" \
    train fit --variant russian --data "$tmp/corpus/b.cdg.xz" --labels "$tmp/lab" \
    --out "$tmp/x.cdw"
expect_error "labels are of one corpus file (FILE.cdg.xz)" \
    train label --variant russian --data "$tmp/corpus" --out "$tmp/x.cdl.xz"
root=$(cd "$(dirname "$0")/.." && pwd)
bin_abs=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
mkdir -p "$tmp/root/corpus/russian/gx"
cp "$tmp/corpus/a.cdg.xz" "$tmp/corpus/b.cdg.xz" "$tmp/root/corpus/russian/gx/"
(cd "$tmp/root" && sh "$root/tools/label.sh" --variant russian --gen gx --nodes 200 \
    --share 0.3 --seed 4 --threads 1 --bin "$bin_abs" > /dev/null)
"$bin" train label --variant russian --data "$tmp/corpus/b.cdg.xz" --share 0.3 --nodes 200 \
    --seed 4 --out "$tmp/lab3/b.cdl.xz" > /dev/null 2>&1
ls "$tmp/root/corpus/russian/gx/labels-n200" | tr '\n' ' ' | grep -qx 'a.cdl.xz b.cdl.xz ' &&
    cmp -s "$tmp/root/corpus/russian/gx/labels-n200/b.cdl.xz" "$tmp/lab3/b.cdl.xz" && ok ||
    bad "tools/label.sh: not the labels of every corpus file, or other labels"

# a fit on the corpus is reproducible: the command in each generation's slice.sha256 (one epoch
# on the first chunk: corpus/international/g8, g9, g10 and g13 (g10 and g13 with the flank strips),
# corpus/constitutional/g6 from International g11, g7 and g8 and corpus/killer/g2 from their
# starts, with the strips, and
# corpus/english/g1 and g2 gently from the generation's start, corpus/english/g0,
# corpus/italian/g0, corpus/spanish/g0 and corpus/czech/g0 from material) writes the file whose
# sha256 it records, whatever the compiler (the trainer has no contracted multiply-add)
for gen in international/g8 international/g9 international/g10 international/g13 constitutional/g6 \
    constitutional/g7 constitutional/g8 killer/g2 english/g0 english/g1 english/g2 italian/g0 \
    spanish/g0 czech/g0; do
    if [ -f "$root/corpus/$gen/slice.sha256" ]; then
        read -r want cmd < "$root/corpus/$gen/slice.sha256"
        # shellcheck disable=SC2086
        (cd "$root" && "$bin" $cmd --out "$tmp/slice.cdw") > /dev/null 2>&1
        got=$(sha256sum "$tmp/slice.cdw" 2>/dev/null | cut -d' ' -f1)
        rm -f "$tmp/slice.cdw"
        [ "$got" = "$want" ] && ok || bad "the $gen corpus slice refits to $got, slice.sha256 says $want"
    else
        skip "the $gen corpus slice (corpus/$gen/slice.sha256 missing)"
    fi
done

summary weights

#!/bin/sh
# The egtb command line: build, stats, probe, report, and its errors.
# The counts asserted here are those of tables that test_egtb checks position by
# position against a plain minimax solver.
set -u
BIN=build/condraughts
VERIFY=
while [ $# -gt 1 ]; do
    case $1 in
    --bin) BIN=$2 ;;
    --verify) VERIFY=$2 ;;
    esac
    shift 2
done
DIR=$(mktemp -d /tmp/cd-egtb-cli-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/lib.sh"

out=$($BIN egtb build --variant constitutional --pieces 3 --dir "$DIR/t" --threads 2 | tail -1)
case $out in "built constitutional tables up to 3 pieces"*) r=ok ;; *) r=$out ;; esac
check_eq "build prints its summary" ok "$r"
check_eq "build writes one file per canonical signature" 9 "$(ls "$DIR/t" | wc -l | tr -d ' ')"

check_eq "stats K v K, White to move" "wins 918
draws 1456
losses 76
longest win 15 plies: W:WK1:BK16" "$($BIN egtb stats --variant constitutional --white K --black K --dir "$DIR/t")"
check_eq "stats K v KK is KK v K seen from the other side" "wins 4106
draws 11012
losses 43682" "$($BIN egtb stats --variant constitutional --white K --black KK --dir "$DIR/t" | head -3)"
check_eq "stats KK v K, Black to move: 100% lost or captured into a draw" "wins 4106
draws 11012
losses 43682" "$($BIN egtb stats --variant constitutional --white KK --black K --to-move black --dir "$DIR/t" | head -3)"

check_eq "probe diagram 4" "win in 3" "$($BIN egtb probe --variant constitutional --fen W:WK35:BK3 --dir "$DIR/t")"
check_eq "probe --moves: 35-13 is the winning move" "35-13        win in 3" \
    "$($BIN egtb probe --variant constitutional --fen W:WK35:BK3 --dir "$DIR/t" --moves | grep '^35-13')"
check_eq "probe diagram 6 (two kings v one)" "win in 5" "$($BIN egtb probe --variant constitutional --fen W:WK15,K27:BK23 --dir "$DIR/t")"

# errors: exit status 2 and one line saying what
err=$($BIN egtb probe --variant constitutional --fen W:WK1,K2,K3:BK4 --dir "$DIR/t" 2>&1 >/dev/null); rc=$?
check_eq "probe beyond the tables: status" 2 "$rc"
case $err in *"not in the tables"*"KKK_K"*) r=ok ;; *) r=$err ;; esac
check_eq "probe beyond the tables: message names the table" ok "$r"
$BIN egtb stats --variant constitutional --white KX --black K --dir "$DIR/t" >/dev/null 2>&1
check_eq "stats with a bad piece letter" 2 "$?"
$BIN egtb probe --variant constitutional --fen W:WK99:BK1 --dir "$DIR/t" >/dev/null 2>&1
check_eq "probe with a bad FEN" 2 "$?"
$BIN egtb build --variant canadian --pieces 2 --dir "$DIR/c" >/dev/null 2>&1
check_eq "no tables for 12x12" 2 "$?"
$BIN egtb build --variant constitutional --pieces 99 --dir "$DIR/t" >/dev/null 2>&1
check_eq "build with too many pieces" 2 "$?"
printf 'garbage' > "$DIR/t/constitutional-K_K.cdtb"
err=$($BIN egtb probe --variant constitutional --fen W:WK35:BK3 --dir "$DIR/t" 2>&1 >/dev/null); rc=$?
check_eq "damaged table: status" 2 "$rc"
case $err in *"truncated header"*) r=ok ;; *) r=$err ;; esac
check_eq "damaged table: message" ok "$r"
$BIN egtb build --variant constitutional --pieces 2 --dir "$DIR/t" >/dev/null 2>&1
check_eq "a rebuild replaces the damaged table" "win in 3" "$($BIN egtb probe --variant constitutional --fen W:WK35:BK3 --dir "$DIR/t")"

# every position of the tables up to 3 pieces and the kings-only ones of 4 against forward moves
if [ -n "$VERIFY" ]; then
    $BIN egtb build --variant constitutional --pieces 3 --kings-pieces 4 --dir "$DIR/v" --threads 2 >/dev/null
    out=$($VERIFY --dir "$DIR/v" --variant constitutional | tail -1)
    check_eq "forward check of every position up to 3 pieces and KK v KK, KKK v K" \
        "egtb_verify constitutional: 11 tables, 5425580 positions checked against their successors (every 1), 0 mismatches, 0 not judged (a successor table missing)" "$out"
fi

# report on a small claims file
cat > "$DIR/claims" <<'CLAIMS'
# id | variant | FEN | claim | expected | source
d4 | constitutional | W:WK35:BK3 | the king on the edge loses | win | 63
d16 | constitutional | B:WK1:BK3 | Black loses | loss | 225
2x1-general | constitutional | - | two kings always win | win | 140
CLAIMS
rep=$($BIN egtb report --claims "$DIR/claims" --dir "$DIR/t")
check_eq "report: d4 holds" 1 "$(printf '%s\n' "$rep" | grep -c '^| d4 .*| win in 3 | holds |$')"
check_eq "report: d16 does not hold" 1 "$(printf '%s\n' "$rep" | grep -c '^| d16 .*| draw | \*\*does not hold\*\* |$')"
check_eq "report: 2x1 counts" 1 "$(printf '%s\n' "$rep" | grep -c '41648 of 41732 won')"
printf 'd4 | constitutional | W:WK35:BK3 | too few fields\n' > "$DIR/bad"
$BIN egtb report --claims "$DIR/bad" --dir "$DIR/t" >/dev/null 2>&1
check_eq "report: malformed claims line" 2 "$?"

summary egtb

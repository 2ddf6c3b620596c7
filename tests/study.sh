#!/bin/sh
# condraughts study: a tiny study and its report's totals, the report without gnuplot, a run
# killed (SIGKILL) and resumed against an uninterrupted one, games kept in DIR/VARIANT.pdn.xz
# (study pack: a study stopped, packed and continued, grown from 4 to 8 games, with holes;
# damaged kept files and games of other settings refused), two MPI ranks against one process
# (byte-identical game files, also after study pack), a folder of other settings, and bad
# arguments (exit status 2, one line on stderr). Prints "study: N passed, M failed".
set -u
BIN=build/condraughts
while [ $# -gt 1 ]; do
    case $1 in
    --bin) BIN=$2 ;;
    esac
    shift 2
done
DIR=$(mktemp -d /tmp/cd-study-XXXXXX)
trap 'rm -rf "$DIR"' EXIT
. "$(dirname "$0")/lib.sh"
BIN=$(abs_path "$BIN")
# The Results row of a variant in a report: games, White wins, Black wins, draws.
row() { awk -F'|' -v v=" $2 " '$2 == v { print $3 + 0, $4 + 0, $5 + 0, $6 + 0; exit }' "$1"; }
# The same counted from the Result tags of the game files.
count() {
    n=$(ls "$1/$2" | grep -c '\.pdn$')
    w=$(cat "$1/$2"/*.pdn | grep -c '^\[Result "2-0"\]')
    b=$(cat "$1/$2"/*.pdn | grep -c '^\[Result "0-2"\]')
    d=$(cat "$1/$2"/*.pdn | grep -c '^\[Result "1-1"\]')
    echo "$n $w $b $d"
}
# A report without the line that names its folder.
body() { grep -v '^    condraughts study' "$1"; }
files() { (cd "$1" && ls */*.pdn); }

V="international constitutional"
ARGS="--variants international,constitutional --games 4 --nodes 1000 --seed 7"

# ---- a tiny study: 2 variants, 4 games each
$BIN study $ARGS --out "$DIR/a" >"$DIR/a.out" 2>"$DIR/a.err"
check_eq "a tiny study exits 0" 0 $?
check_eq "a tiny study writes 8 game files" 8 "$(files "$DIR/a" | wc -l | tr -d ' ')"
for v in $V; do
    check_eq "$v: the report's totals are the files' results" "$(count "$DIR/a" $v)" \
        "$(row "$DIR/a/report.md" $v)"
    check_eq "$v: 4 games in the report" 4 "$(row "$DIR/a/report.md" $v | cut -d' ' -f1)"
    sum=$(row "$DIR/a/report.md" $v | awk '{ print $2 + $3 + $4 }')
    check_eq "$v: wins and draws add up to the games" 4 "$sum"
    check_eq "$v: the summary line" 1 "$(grep -c "^$v  *4 games" "$DIR/a.out")"
done
bad=0
for f in "$DIR"/a/*/*.pdn; do
    [ "$($BIN pdn check "$f")" = "ok 1 games" ] || bad=$((bad + 1))
done
check_eq "every game file passes pdn check" 0 $bad
for tag in Opening Seed Adjudication; do
    check_eq "each game file has the $tag tag" 8 "$(cat "$DIR"/a/*/*.pdn | grep -c "^\[$tag \"")"
done
check_eq "openings are played twice, the second time reversed" 4 \
    "$(cat "$DIR"/a/*/*.pdn | grep -c '^\[Colours "reversed"\]')"
check_eq "the report has a draw-rate interval" 1 \
    "$(grep -c '^| international | 4 | .* to .*% |$' "$DIR/a/report.md")"
check_eq "the report compares constitutional with international" 1 \
    "$(grep -c '^| constitutional | international |' "$DIR/a/report.md")"
check_eq "the report says which evaluation played" 1 \
    "$(grep -c '^- Evaluation: learned weights (docs/training.md) for international, constitutional\.$' \
        "$DIR/a/report.md")"
if command -v gnuplot >/dev/null 2>&1; then
    check_eq "gnuplot drew the draw-rate plot" yes "$(grep -q '<svg' "$DIR/a/draw_rate.svg" &&
        grep -q '](draw_rate.svg)' "$DIR/a/report.md" && echo yes)"
    check_eq "gnuplot drew the game-length plot" yes "$(grep -q '<svg' "$DIR/a/game_length.svg" &&
        grep -q '](game_length.svg)' "$DIR/a/report.md" && echo yes)"
else
    skip "gnuplot drew the draw-rate plot: SKIPPED, gnuplot is not installed (gnuplot-nox)"
    skip "gnuplot drew the game-length plot: SKIPPED, gnuplot is not installed (gnuplot-nox)"
fi

# ---- the same command again: nothing to play, the same files; without gnuplot the report
# says so and is still written
(cd "$DIR/a" && md5sum */*.pdn) >"$DIR/a.md5"
rm "$DIR/a/report.md"
env PATH=/nonexistent "$BIN" study $ARGS --out "$DIR/a" >/dev/null 2>"$DIR/a2.err"
check_eq "a finished study run again exits 0" 0 $?
check_eq "it plays nothing" "study: 8 of 8 games already played in $DIR/a" "$(cat "$DIR/a2.err")"
check_eq "its game files are unchanged" ok "$(cd "$DIR/a" && md5sum -c --quiet ../a.md5 && echo ok)"
check_eq "without gnuplot the report says so" 1 \
    "$(grep -c 'gnuplot is not installed' "$DIR/a/report.md")"
check_eq "without gnuplot the report has no plots" 0 "$(grep -c '\.svg)' "$DIR/a/report.md")"

# ---- SIGKILL midway, then the same command resumes: the games written are kept byte for
# byte and the whole equals an uninterrupted run
KARGS="--variants international,constitutional --games 8 --nodes 2000 --seed 5"
$BIN study $KARGS --out "$DIR/ref" >/dev/null 2>&1
check_eq "the uninterrupted run exits 0" 0 $?
try=0 killed=no
while [ $try -lt 5 ] && [ $killed = no ]; do
    try=$((try + 1))
    rm -rf "$DIR/k"
    $BIN study $KARGS --out "$DIR/k" >/dev/null 2>&1 &
    pid=$!
    i=0
    while [ ! -e "$DIR/k/international/00004.pdn" ] && [ $i -lt 3000 ]; do
        sleep 0.01
        i=$((i + 1))
    done
    kill -KILL $pid 2>/dev/null
    wait $pid 2>/dev/null
    n=$(files "$DIR/k" | wc -l | tr -d ' ')
    [ "$n" -ge 1 ] && [ "$n" -lt 16 ] && killed=yes
done
check_eq "the study was killed midway" yes $killed
echo "study.sh: killed after $n of 16 games (try $try)"
(cd "$DIR/k" && md5sum */*.pdn) >"$DIR/k.md5"
$BIN study $KARGS --out "$DIR/k" >/dev/null 2>"$DIR/k.err"
check_eq "the resumed run exits 0" 0 $?
check_eq "the resumed run knows what was played" 1 \
    "$(grep -c "^study: $n of 16 games already played" "$DIR/k.err")"
check_eq "the games written before the kill are unchanged" ok \
    "$(cd "$DIR/k" && md5sum -c --quiet ../k.md5 && echo ok)"
check_eq "killed and resumed: the same game files" "$(files "$DIR/ref")" "$(files "$DIR/k")"
same=0
for f in $(files "$DIR/ref"); do cmp -s "$DIR/ref/$f" "$DIR/k/$f" && same=$((same + 1)); done
check_eq "killed and resumed: every game byte-identical to the uninterrupted run" 16 $same
for v in $V; do
    check_eq "$v: killed and resumed, the same totals" "$(row "$DIR/ref/report.md" $v)" \
        "$(row "$DIR/k/report.md" $v)"
done
check_eq "killed and resumed: the same report" "$(body "$DIR/ref/report.md")" \
    "$(body "$DIR/k/report.md")"
check_eq "no temporary file is left" 0 "$(find "$DIR/k" -name '*.tmp' | wc -l | tr -d ' ')"

# ---- kept games (study pack): DIR/VARIANT.pdn.xz, a study grown across machines. A run of the
# first 4 games a variant packed, then continued to 8: the same games and report as the
# uninterrupted run above ($DIR/ref); a run with holes packed and continued; damaged kept files
# and game files of other settings refused, nothing lost
P="$DIR/p"
kept() { xz -dc "$1/$2.pdn.xz"; } # the kept games of a variant, as text
sums() { (cd "$1" && find . -type f | sort | xargs md5sum); }
$BIN study ${KARGS%--games*}--games 4 --nodes 2000 --seed 5 --out "$P" >/dev/null 2>&1
check_eq "4 games a variant: exit 0" 0 $?
$BIN study pack --out "$P" >"$DIR/p.out" 2>"$DIR/p.err"
check_eq "study pack exits 0" 0 $?
check_eq "study pack says what it kept" "$P/constitutional.pdn.xz: 4 games kept (4 new), 4 game files removed
$P/international.pdn.xz: 4 games kept (4 new), 4 game files removed" "$(cat "$DIR/p.out")"
check_eq "study pack removes the game files it kept" 0 "$(find "$P" -name '*.pdn' | wc -l | tr -d ' ')"
check_eq "study pack leaves no temporary file" 0 "$(find "$P" -name '*.tmp' | wc -l | tr -d ' ')"
if command -v xz >/dev/null 2>&1; then
    for v in $V; do
        check_eq "$v: the kept file holds the first 4 game files, one after another" \
            "$(cat "$DIR/ref/$v"/0000[1-4].pdn | md5sum)" "$(kept "$P" $v | md5sum)"
    done
    kept "$P" international >"$DIR/p4.pdn"
    check_eq "the kept games pass pdn check" "ok 4 games" "$($BIN pdn check "$DIR/p4.pdn")"
else
    for v in $V; do skip "$v: the kept file holds the game files: SKIPPED, xz is not installed"; done
    skip "the kept games pass pdn check: SKIPPED, xz is not installed"
fi
$BIN study $KARGS --out "$P" >/dev/null 2>"$DIR/p2.err"
check_eq "continued to 8 games a variant: exit 0" 0 $?
check_eq "continued: the kept games are not played again" 1 \
    "$(grep -c '^study: 8 of 16 games already played' "$DIR/p2.err")"
check_eq "continued: kept games and files give the uninterrupted run's report" \
    "$(body "$DIR/ref/report.md")" "$(body "$P/report.md")"
same=0
for f in $(cd "$P" && ls */*.pdn); do cmp -s "$DIR/ref/$f" "$P/$f" && same=$((same + 1)); done
check_eq "continued: games 5 to 8 byte-identical to the uninterrupted run's" 8 $same
$BIN study pack --out "$P" >"$DIR/p.out" 2>&1
check_eq "packed again: the new games appended" "$P/constitutional.pdn.xz: 8 games kept (4 new), 4 game files removed
$P/international.pdn.xz: 8 games kept (4 new), 4 game files removed" "$(cat "$DIR/p.out")"
if command -v xz >/dev/null 2>&1; then
    for v in $V; do
        check_eq "$v: grown to 8 games, the kept file is the uninterrupted run's game files" \
            "$(cat "$DIR/ref/$v"/*.pdn | md5sum)" "$(kept "$P" $v | md5sum)"
    done
    check_eq "grown from 4 games to 8: the first 4 kept byte for byte" "$(md5sum <"$DIR/p4.pdn")" \
        "$(kept "$P" international | head -c "$(wc -c <"$DIR/p4.pdn")" | md5sum)"
else
    for c in 1 2 3; do skip "grown to 8 games ($c): SKIPPED, xz is not installed"; done
fi
rm "$P/report.md"
$BIN study $KARGS --out "$P" >"$DIR/p3.out" 2>"$DIR/p3.err"
check_eq "all kept: exit 0" 0 $?
check_eq "all kept: nothing played" "study: 16 of 16 games already played in $P" "$(cat "$DIR/p3.err")"
check_eq "the report from the kept games is the report from the game files" \
    "$(body "$DIR/ref/report.md")" "$(body "$P/report.md")"

# holes: games 2, 3 and 7 of each variant missing when packed (a killed MPI run), then continued
H="$DIR/h"
cp -r "$DIR/ref" "$H"
rm "$H"/*/00002.pdn "$H"/*/00003.pdn "$H"/*/00007.pdn "$H/report.md"
$BIN study pack --out "$H" >/dev/null 2>&1
check_eq "a folder with holes packed: exit 0" 0 $?
$BIN study $KARGS --out "$H" >/dev/null 2>"$DIR/h.err"
check_eq "with holes: only the missing games played" 1 \
    "$(grep -c '^study: 10 of 16 games already played' "$DIR/h.err")"
check_eq "with holes, continued: the uninterrupted run's report" "$(body "$DIR/ref/report.md")" \
    "$(body "$H/report.md")"
$BIN study pack --out "$H" >/dev/null 2>&1
if command -v xz >/dev/null 2>&1; then
    check_eq "with holes, packed again: the uninterrupted run's games in order" \
        "$(cat "$DIR/ref/international"/*.pdn | md5sum)" "$(kept "$H" international | md5sum)"
else
    skip "with holes, packed again: SKIPPED, xz is not installed"
fi

# a damaged kept file: refused, with its name and what is wrong; nothing written or removed
D="$DIR/d"
cp -r "$P" "$D"
cp "$DIR/ref/international/00001.pdn" "$DIR/ref/international/00002.pdn" "$D/" 2>/dev/null
mkdir -p "$D/international" && mv "$D"/0000[12].pdn "$D/international/"
size=$(wc -c <"$D/international.pdn.xz")
printf 'X' | dd of="$D/international.pdn.xz" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
sums "$D" >"$DIR/d.md5"
expect_fail 2 "$D/international.pdn.xz: not a valid xz file (damaged or truncated)" \
    $BIN study $KARGS --out "$D"
expect_fail 2 "$D/international.pdn.xz: not a valid xz file (damaged or truncated)" \
    $BIN study pack --out "$D"
check_eq "a damaged kept file: nothing written or removed" "$(cat "$DIR/d.md5")" "$(sums "$D")"
head -c $((size - 20)) "$P/international.pdn.xz" >"$D/international.pdn.xz"
sums "$D" >"$DIR/d.md5"
expect_fail 2 "$D/international.pdn.xz: truncated" $BIN study $KARGS --out "$D"
expect_fail 2 "$D/international.pdn.xz: truncated" $BIN study pack --out "$D"
check_eq "a truncated kept file: nothing written or removed" "$(cat "$DIR/d.md5")" "$(sums "$D")"
if command -v xz >/dev/null 2>&1; then
    kept "$P" international | sed 's/^\[Round "3"\]/[Round "9"]/' | xz >"$D/international.pdn.xz"
    expect_fail 2 "international.pdn.xz: game 4: Round 4 after Round 9" $BIN study $KARGS --out "$D"
    kept "$P" international | sed '1,/^\[Round "2"\]/s/^\[Seed "5"\]/[Seed "6"]/' |
        xz >"$D/international.pdn.xz"
    mv "$D/international" "$D/files"
    expect_fail 2 "international.pdn.xz (game 1) is not a game of this study (Seed is \"6\"" \
        $BIN study $KARGS --out "$D"
    mv "$D/files" "$D/international"
    cp "$P/international.pdn.xz" "$D/"
    sed 's/^\[Adjudication "\(.*\)"\]/[Adjudication "\1, edited"]/' \
        "$DIR/ref/international/00001.pdn" >"$D/international/00001.pdn"
    sums "$D" >"$DIR/d.md5"
    expect_fail 2 "international/00001.pdn differs from game 1 kept in" $BIN study pack --out "$D"
    check_eq "a game file unlike its kept game: nothing written or removed" "$(cat "$DIR/d.md5")" \
        "$(sums "$D")"
else
    for c in 1 2 3 4; do skip "a kept file out of order or of other settings ($c): SKIPPED, no xz"; done
fi

# game files of other settings are not packed with the kept games
rm -rf "$D" && cp -r "$P" "$D" && mkdir -p "$D/international"
cp "$DIR/a/international/00004.pdn" "$D/international/00009.pdn"
sums "$D" >"$DIR/d.md5"
expect_fail 2 "its Round tag is 4, not 9" $BIN study pack --out "$D"
sed 's/^\[Round "4"\]/[Round "9"]/' "$DIR/a/international/00004.pdn" >"$D/international/00009.pdn"
sums "$D" >"$DIR/d.md5"
expect_fail 2 "00009.pdn: its Seed is \"7\", the other games' \"5\": games of other settings" \
    $BIN study pack --out "$D"
check_eq "a game file of other settings: nothing written or removed" "$(cat "$DIR/d.md5")" \
    "$(sums "$D")"
mkdir "$DIR/empty"
expect_fail 2 "holds no study games" $BIN study pack --out "$DIR/empty"
expect_fail 2 "give the study's folder\|--out" $BIN study pack

# ---- two MPI ranks against one process
if command -v mpirun >/dev/null 2>&1; then
    # the sanitizer builds: Open MPI keeps memory until exit, which is not this program's leak
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 "$BIN" study $ARGS \
        --out "$DIR/m" >"$DIR/m.out" 2>"$DIR/m.err"
    check_eq "the MPI run exits 0" 0 $?
    if grep -q 'MPI is not built in' "$DIR/m.err"; then
        skip "both ranks played: SKIPPED, this build has no MPI (mpicc was missing): one process" \
            "ran the study"
    else
        check_eq "both ranks played" 2 "$(grep -c '^study: rank [01] played 4 games' "$DIR/m.err")"
    fi
    check_eq "MPI: the same game files" "$(files "$DIR/a")" "$(files "$DIR/m")"
    same=0
    for f in $(files "$DIR/a"); do cmp -s "$DIR/a/$f" "$DIR/m/$f" && same=$((same + 1)); done
    check_eq "MPI: every game byte-identical to the single process's" 8 $same
    for v in $V; do
        check_eq "$v: MPI, the same totals" "$(row "$DIR/a/report.md" $v)" \
            "$(row "$DIR/m/report.md" $v)"
    done
    check_eq "MPI: the same summary" "$(grep games "$DIR/a.out")" "$(grep games "$DIR/m.out")"
    # games 1 and 4 of each variant packed, the others played by two ranks
    mkdir "$DIR/mk"
    for v in $V; do
        mkdir "$DIR/mk/$v" && cp "$DIR/a/$v/00001.pdn" "$DIR/a/$v/00004.pdn" "$DIR/mk/$v/"
    done
    "$BIN" study pack --out "$DIR/mk" >/dev/null 2>&1
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
        timeout 300 mpirun --allow-run-as-root --oversubscribe -np 2 "$BIN" study $ARGS \
        --out "$DIR/mk" >"$DIR/mk.out" 2>/dev/null
    check_eq "MPI after study pack: the single process's summary" \
        "$(grep games "$DIR/a.out")" "$(grep games "$DIR/mk.out")"
    same=0
    for f in $(files "$DIR/mk"); do cmp -s "$DIR/a/$f" "$DIR/mk/$f" && same=$((same + 1)); done
    check_eq "MPI after study pack: the 4 games not kept played, byte-identical" 4 $same
else
    # the checks above: exit status, both ranks, files, bytes, a total a variant, the summary;
    # the two after study pack
    for c in $(seq $((7 + $(echo $V | wc -w)))); do
        skip "the MPI run ($c): SKIPPED, mpirun is not installed (sh tools/deps.sh build)"
    done
fi

# ---- endgame tables: a position in them ends the game with their result (openings already in
# the 3-piece tables, so that no engine change can make this test miss them)
for v in $V; do
    $BIN egtb build --variant $v --pieces 3 --dir "$DIR/tb" --threads 1 >/dev/null 2>&1 ||
        echo "study.sh: egtb build $v failed"
done
printf 'W:W28,33:B19\nW:WK46,K47:BK5  # two kings against one\n' >"$DIR/tb.txt"
$BIN study $ARGS --openings "$DIR/tb.txt" --egtb "$DIR/tb" --out "$DIR/e" >/dev/null 2>&1
check_eq "a study with tables exits 0" 0 $?
check_eq "every game was ended by the tables" 8 \
    "$(cat "$DIR"/e/*/*.pdn | grep -c '^\[Adjudication "tablebase: ')"
check_eq "the report counts the tables' results" 8 "$(awk -F'|' '
    /^## How the games ended/ { on = 1 }
    /^## How decisive/ { on = 0 }
    on && /^\| variant/ { for (i = 2; i < NF; i++) if ($i ~ /tablebase/) col[i] = 1; next }
    on && /^\| [a-z]/ { for (i in col) n += $i }
    END { print n + 0 }' "$DIR/e/report.md")"
bad=0
for f in "$DIR"/e/*/*.pdn; do
    [ "$($BIN pdn check "$f")" = "ok 1 games" ] || bad=$((bad + 1))
done
check_eq "adjudicated games pass pdn check" 0 $bad

# ---- a folder of other settings is not mixed in
$BIN study --variants international,constitutional --games 4 --nodes 1000 --seed 8 \
    --out "$DIR/a" >/dev/null 2>"$DIR/o.err"
check_eq "another seed in the same folder: exit status 2" 2 $?
check_eq "another seed in the same folder: one line" 1 "$(wc -l <"$DIR/o.err" | tr -d ' ')"
check_eq "another seed in the same folder: says why" 1 \
    "$(grep -c 'is not a game of this study' "$DIR/o.err")"

# ---- bad arguments: exit status 2 and one line on stderr, nothing written
bad_args() { # description, arguments...
    what=$1
    shift
    $BIN study "$@" >/dev/null 2>"$DIR/err"
    check_eq "$what: exit status 2" 2 $?
    check_eq "$what: one line on stderr" 1 "$(wc -l <"$DIR/err" | tr -d ' ')"
}
O="$DIR/bad"
bad_args "no --out" --games 4
bad_args "unknown variant" --variants international,nosuch --out "$O"
bad_args "a variant twice" --variants killer,killer --out "$O"
bad_args "odd --games" --games 3 --out "$O"
bad_args "zero --games" --games 0 --out "$O"
bad_args "more games than openings" --games 2000 --out "$O"
bad_args "--nodes not a number" --nodes lots --out "$O"
bad_args "--nodes and --movetime" --nodes 100 --movetime 1 --out "$O"
bad_args "negative --movetime" --movetime -1 --out "$O"
bad_args "unknown option" --frobnicate 1 --out "$O"
bad_args "an option without its value" --out
bad_args "a stray argument" international --out "$O"
bad_args "missing openings file" --openings "$DIR/none.txt" --out "$O"
bad_args "openings not legal in the variant" --variants russian --openings openings/10x10.txt \
    --out "$O"
bad_args "no openings for the board" --variants canadian --out "$O"
bad_args "--egtb not a folder" --egtb "$DIR/none" --out "$O"
bad_args "openings without its settings" openings --variants international --out "$O.txt"
check_eq "bad arguments write nothing" no "$([ -e "$O" ] || [ -e "$O.txt" ] && echo yes || echo no)"
printf '32-28 19-23\n32-28 99-23\n' >"$DIR/bad.txt"
bad_args "an illegal opening" --openings "$DIR/bad.txt" --games 2 --out "$O"
check_eq "an illegal opening: says where" 1 "$(grep -c "bad.txt:2:" "$DIR/err")"

summary study

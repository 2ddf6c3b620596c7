#!/bin/sh
# tests/perft.sh - run perft suites (tests/perft/*.perft) against the condraughts binary.
#
# usage: tests/perft.sh [--max-nodes N] [--bin PATH] FILE...
#
# FILE is named <variant>.<convention>.perft, convention = drop | keep (keep adds --keep).
# Each data line is  FEN ; D1 <n> ; D2 <n> ; ...   ('#' starts a comment line).
# For every line the runner picks DEPTH = the largest depth whose expected count is <= N
# (default N = 20000000), runs
#     $BIN perft --variant V --fen "FEN" [--keep] DEPTH
# and checks every "perft <D> <count>" line printed for D = 1..DEPTH against the file.
# A line whose D1 count already exceeds N is skipped.
# Output: one line per position ("ok ..." / "FAIL ..." / "skip ..."), then
# "perft: P passed, F failed[, S skipped]".  Exit 0 = all passed, 1 = a failure, 2 = usage error.
# Plain POSIX sh + awk.

BIN=./build/condraughts
MAX=20000000

usage() {
    echo "usage: $0 [--max-nodes N] [--bin PATH] FILE..." >&2
    [ -n "$1" ] && echo "$0: $1" >&2
    exit 2
}

while [ $# -gt 0 ]; do
    case $1 in
        --max-nodes) [ $# -ge 2 ] || usage "--max-nodes needs a value"; MAX=$2; shift 2 ;;
        --max-nodes=*) MAX=${1#*=}; shift ;;
        --bin) [ $# -ge 2 ] || usage "--bin needs a value"; BIN=$2; shift 2 ;;
        --bin=*) BIN=${1#*=}; shift ;;
        -h|--help) usage ;;
        --) shift; break ;;
        -*) usage "unknown option: $1" ;;
        *) break ;;
    esac
done
[ $# -ge 1 ] || usage "no FILE given"
case $MAX in ''|*[!0-9]*) usage "--max-nodes must be a non-negative integer: $MAX" ;; esac
[ -x "$BIN" ] || usage "binary not found or not executable: $BIN"
. "$(dirname "$0")/lib.sh"

# check every file name before running anything
for f in "$@"; do
    if [ ! -f "$f" ] || [ ! -r "$f" ]; then usage "cannot read $f"; fi
    case ${f##*/} in
        *.drop.perft|*.keep.perft) ;;
        *) usage "file name must be <variant>.drop.perft or <variant>.keep.perft: $f" ;;
    esac
done

TAB=$(printf '\t')
tmp=${TMPDIR:-/tmp}/perft_sh.$$
trap 'rm -f "$tmp.rows" "$tmp.out" "$tmp.err"' EXIT
trap 'exit 130' INT TERM

for f in "$@"; do
    name=${f##*/}
    variant=${name%%.*}
    case $name in
        *.keep.perft) conv=keep; keepflag=--keep ;;
        *) conv=drop; keepflag= ;;
    esac
    # rows: lineno TAB depth TAB fen TAB "d:n d:n ..."   (depth 0 = skip, -1 = malformed line)
    awk -v max="$MAX" '
        function trim(s) { sub(/^[ \t\r]+/, "", s); sub(/[ \t\r]+$/, "", s); return s }
        { line = trim($0) }
        line == "" || substr(line, 1, 1) == "#" { next }
        {
            n = split(line, part, ";")
            fen = trim(part[1]); xp = ""; depth = 0; bad = (fen == "" || n < 2)
            for (i = 2; i <= n; i++) {
                p = trim(part[i])
                if (p !~ /^D[0-9]+[ \t]+[0-9]+$/) { bad = 1; continue }
                split(p, dn, /[ \t]+/)
                d = substr(dn[1], 2) + 0
                xp = xp (xp == "" ? "" : " ") d ":" dn[2]
                if (dn[2] + 0 <= max + 0 && d > depth) depth = d
            }
            if (bad) { depth = -1 }
            if (xp == "") xp = "-"
            if (fen == "") fen = "-"
            printf "%d\t%d\t%s\t%s\n", NR, depth, fen, xp
        }' "$f" > "$tmp.rows"

    while IFS="$TAB" read -r lineno depth fen xp; do
        fen30=$(printf '%s' "$fen" | awk '{ print substr($0, 1, 30) }')
        if [ "$depth" -lt 0 ]; then
            bad "$variant $conv $f:$lineno: malformed line"; continue
        fi
        if [ "$depth" -eq 0 ]; then
            skip "$variant $conv $fen30 (every count > $MAX)"; continue
        fi
        "$BIN" perft --variant "$variant" --fen "$fen" $keepflag "$depth" \
            > "$tmp.out" 2> "$tmp.err" < /dev/null
        rc=$?
        msg=$(awk -v xp="$xp" -v depth="$depth" '
            BEGIN {
                n = split(xp, e, " ")
                for (i = 1; i <= n; i++) { split(e[i], kv, ":"); want[kv[1] + 0] = kv[2] }
            }
            $1 == "perft" && $2 ~ /^[0-9]+$/ && NF >= 3 {
                d = $2 + 0
                if (d in got && got[d] "" != $3 "") dup = dup "; d" d " printed twice"
                got[d] = $3
            }
            END {
                m = dup; any = 0
                for (d in got) any = 1
                if (!any) { print "no \"perft <D> <N>\" lines printed"; exit }
                for (d = 1; d <= depth; d++) {
                    if (!(d in want)) continue
                    if (!(d in got)) m = m "; d" d ": expected " want[d] " got nothing"
                    else if (got[d] "" != want[d] "")
                        m = m "; d" d ": expected " want[d] " got " got[d]
                }
                sub(/^[; ]+/, "", m)
                print m
            }' "$tmp.out")
        if [ "$rc" -ne 0 ]; then
            err=$(head -n 1 "$tmp.err")
            msg="exit status $rc${err:+ ($err)}${msg:+; $msg}"
        fi
        if [ -z "$msg" ]; then
            echo "ok $variant $conv d$depth $fen30"
            ok
        else
            bad "$variant $conv d$depth $fen30: $msg"
        fi
    done < "$tmp.rows"
done

summary perft || exit 1

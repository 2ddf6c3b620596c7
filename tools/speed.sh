#!/bin/sh
# tools/speed.sh -- nodes a second and the speed-up of threads, measured the same way each time.
#
#   sh tools/speed.sh [BINARY] [DEPTH] [ROUNDS]
#
# Searches each position below (International, 4-ply balanced openings without captures, from
# openings/10x10.txt) to DEPTH (17) with `analyse --threads 1` and `--threads 2`, ROUNDS (3)
# times each, in turns, with a 64 MiB table. Prints, per thread count, the median over the rounds
# of the total time to the depth and of the nodes a second (the engine's own counts, of every
# thread), and the speed-up: time to the depth with 1 thread over time with 2. Medians, because a shared machine's
# single runs differ by a quarter (docs/strength.md, "Speed").
set -eu
BIN=${1:-build/condraughts}
DEPTH=${2:-17}
ROUNDS=${3:-3}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.t"' EXIT
r=1
while [ "$r" -le "$ROUNDS" ]; do
    for t in 1 2; do
        # one line "threads ms nodes" a round: the depth line of each position, summed
        # (a position without its depth line fails the run)
        while read -r mv; do
            "$BIN" analyse --after "$mv" --depth "$DEPTH" --threads "$t" --hash 64 2>&1 |
                grep "^depth $DEPTH " | tail -1
        done <<POSITIONS | awk -v t="$t" -v d="$DEPTH" '
            {c++; for (i = 1; i < NF; i++) {if ($i == "nodes") n += $(i + 1); if ($i == "time") ms += $(i + 1) * 1000}}
            END {if (c != 4) {print "speed.sh: " 4 - c " of 4 positions did not reach depth " d > "/dev/stderr"; exit 1}
                 printf "%d %d %d\n", t, ms, n}' >>"$tmp"
31-26 18-22 34-29 13-18
31-26 20-24 36-31 18-23
32-27 19-23 35-30 13-19
33-28 17-21 34-29 20-25
POSITIONS
    done
    r=$((r + 1))
done
median() { sort -n | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
for t in 1 2; do
    tm=$(awk -v t="$t" '$1 == t {print $2}' "$tmp" | median)
    nps=$(awk -v t="$t" '$1 == t {printf "%d\n", $3 / ($2 / 1000)}' "$tmp" | median)
    printf 'threads %d: depth %d in %.2f s (median of %d), %d nodes/s\n' "$t" "$DEPTH" "$(echo "$tm" | awk '{print $1 / 1000}')" "$ROUNDS" "$nps"
    echo "$tm" >>"$tmp.t"
done
awk 'NR == 1 {a = $1} NR == 2 {printf "speed-up on 2 threads (time to depth): %.2f\n", a / $1}' "$tmp.t"

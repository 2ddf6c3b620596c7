#!/bin/sh
# Perft speed figures (a benchmark, not a test): bulk counting at the last
# ply, one thread. Usage: bench/perft.sh [BIN]
set -eu
bin=${1:-./build/condraughts}
run() { # variant depth [fen]
    if [ $# -ge 3 ]; then out=$("$bin" perft --variant "$1" --fen "$3" "$2"); else out=$("$bin" perft --variant "$1" "$2"); fi
    echo "$out" | tail -2 | head -1 | sed "s/^/$1 /"
    echo "$out" | tail -1 | sed "s/^/$1 /"
}
run international 11
run russian 13
run english 13
# Rule C cost on king-heavy positions: the same positions and depth under
# International and Constitutional rules, summed over bench/kings.fen.
for v in international constitutional; do
    n=0; t=0
    while read -r fen; do
        line=$("$bin" perft --variant "$v" --fen "$fen" 7 | tail -1)
        n=$((n + $(echo "$line" | awk '{print $2}')))
        t=$(echo "$line" | awk -v t="$t" '{printf "%.3f", t + $4}')
    done < bench/kings.fen
    echo "$v king-heavy (bench/kings.fen, depth 7): $n nodes $t s $(awk -v n="$n" -v t="$t" 'BEGIN{printf "%.0f", n / t}') nodes/s"
done

#!/bin/sh
# fakehub.sh -- fake Hub engines for tests/match.sh. Usage: fakehub.sh MODE CONDRAUGHTS [ARG]
# Each plays the first legal move (from `condraughts moves --after`), in the way MODE says:
#   play     Hub 2, at once (ARG: a file that gets every `level` line)
#   hang     Hub 2, never answers `go` (ignores stop)
#   slow     Hub 2, after ARG seconds        resign   Hub 2, reports score -9.99 every move
#   illegal  Hub 2, answers 11-99            die      Hub 2, exits at its first `go`
#   hub1     Hub 1 (Scan 2.0's dialect): name/wait, pos P, move M, go -> move M
# The games must start from the start position (no --openings).
mode=$1 bin=$2 arg=${3:-0}
moves=""
first() {
    if [ -n "$moves" ]; then "$bin" moves --variant international --after "$moves" | head -n 1
    else "$bin" moves --variant international | head -n 1; fi
}
while IFS= read -r line; do
    case "$line" in
    hub)
        if [ "$mode" = hub1 ]; then echo "Fake banner"; echo "name Fake One"; echo "author nobody"
        else echo "id name=fake-$mode version=1"; echo "param name=variant value=international"; fi
        echo wait ;;
    init) echo ready ;;
    level*) [ "$mode" = play ] && [ "$arg" != 0 ] && echo "$line" >> "$arg" ;;
    "pos pos="*) moves=$(printf '%s\n' "$line" | sed -n 's/.*moves="\([^"]*\)".*/\1/p') ;;
    "pos "*) moves="" ;;
    "move "*) moves="${moves:+$moves }${line#move }" ;;
    "go think" | go)
        case $mode in
        hang) ;;
        slow) sleep "$arg"; echo "done move=$(first)" ;;
        resign) echo 'info depth=1 score=-9.99 nodes=1 time=0.000 nps=0.00 pv=""'
                echo "done move=$(first)" ;;
        illegal) echo "done move=11-99" ;;
        die) exit 0 ;;
        hub1) echo "info 1 1.0 -5 1 0.00 0.0 x"; echo "move $(first)" ;;
        *) echo "done move=$(first)" ;;
        esac ;;
    quit) exit 0 ;;
    esac
done

#!/bin/sh
# Self-play for the game corpus, in the background, resumable (docs/training.md, "The corpus").
#
# Usage: tools/selfplay.sh --variant V --gen NAME --seed S [--nodes N] [--chunk C] [--chunks K]
#                          [--pieces P] [--threads T] [--bin PATH] [--classic 1]
#
# Plays chunks of C games (default 2000) into corpus/FAMILY/NAME/sS-J.cdg.xz, J the chunk's first
# game number (nine digits), with `train gen --seed S --first J --games C --nodes N` (default
# 5000 nodes) and the P-piece endgame tables (default 4; 0: none; built once into
# $CD_TABLES/V-P, default ~/.cache/condraughts/tables). A chunk whose file exists is skipped, so
# a run stopped at any moment (kill, a machine's end) loses at most the chunk under way, and the
# next run plays it again, the same games (game J depends on the seed and J alone). Stops after
# K chunks in the folder (default: never). Runs under `nice -n 19` with T threads (default: the
# machine's cores), so it takes only the time nothing else wants: in a session of its own (setsid)
# whose scheduling group is niced too (tools/background.sh says why). `--classic 1` plays with the
# hand-set evaluation (a first generation, `train gen --classic`).
set -eu
# shellcheck source=tools/background.sh
. "$(dirname "$0")/background.sh"
bin=./build/condraughts
variant="" gen="" seed="" nodes=5000 chunk=2000 chunks=0 pieces=4 threads=$(nproc) classic=0
while [ $# -gt 0 ]; do
    case $1 in
    --variant) variant=$2 ;;
    --gen) gen=$2 ;;
    --seed) seed=$2 ;;
    --nodes) nodes=$2 ;;
    --chunk) chunk=$2 ;;
    --chunks) chunks=$2 ;;
    --pieces) pieces=$2 ;;
    --threads) threads=$2 ;;
    --bin) bin=$2 ;;
    --classic) classic=$2 ;;
    *) echo "selfplay.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift 2
done
if [ -z "$variant" ] || [ -z "$gen" ] || [ -z "$seed" ]; then
    echo "selfplay.sh: needs --variant, --gen and --seed" >&2
    exit 2
fi
family=$(corpus_family "$variant")
dir=corpus/$family/$gen
mkdir -p "$dir"
tables=""
if [ "$pieces" -gt 0 ]; then
    tables=${CD_TABLES:-$HOME/.cache/condraughts/tables}/$variant-$pieces
    if [ ! -f "$tables/.complete" ]; then
        mkdir -p "$tables"
        nice -n 19 "$bin" egtb build --variant "$variant" --pieces "$pieces" --dir "$tables" \
            --threads "$threads" > /dev/null
        touch "$tables/.complete"
    fi
fi
k=0
while :; do
    have=$(find "$dir" -name '*.cdg.xz' | wc -l)
    [ "$chunks" -gt 0 ] && [ "$have" -ge "$chunks" ] && break
    first=$((k * chunk))
    file=$dir/s$seed-$(printf '%09d' "$first").cdg.xz
    k=$((k + 1))
    [ -f "$file" ] && continue
    nice -n 19 "$bin" train gen --variant "$variant" --seed "$seed" --first "$first" \
        --games "$chunk" --nodes "$nodes" --threads "$threads" \
        ${tables:+--egtb "$tables"} $([ "$classic" = 1 ] && echo --classic) --corpus "$file" \
        2> /dev/null
done

#!/bin/sh
# Deep labels for a corpus generation, in the background, resumable (docs/training.md, "Deep
# labels kept in the corpus").
#
# Usage: tools/label.sh --variant V --gen NAME --nodes N [--share F] [--seed S] [--threads T]
#                       [--bin PATH] [--chunks K]
#
# For each corpus file corpus/FAMILY/NAME/X.cdg.xz in name order, scores the share F (default
# 0.1) of its positions drawn by the seed S (default 1) again by a search of N nodes with
# `train label --out corpus/FAMILY/NAME/labels-nN/X.cdl.xz` (the file written whole at the end,
# so a run stopped at any moment loses at most the file under way). A file that exists is
# skipped, so the next run goes on where the last one stopped; the labels of a file depend on the
# file, N, F, S and the weights alone (CD_WEIGHTS, as for self-play: the folder's README names
# them), not on T. Stops after K files in the folder (default: when every corpus file has its
# labels). Runs under `nice -n 19` with T threads (default: the machine's cores), in a session of
# its own whose scheduling group is niced too (tools/background.sh says why).
set -eu
# shellcheck source=tools/background.sh
. "$(dirname "$0")/background.sh"
bin=./build/condraughts
variant="" gen="" nodes="" share=0.1 seed=1 threads=$(nproc) chunks=0
while [ $# -gt 0 ]; do
    case $1 in
    --variant) variant=$2 ;;
    --gen) gen=$2 ;;
    --nodes) nodes=$2 ;;
    --share) share=$2 ;;
    --seed) seed=$2 ;;
    --threads) threads=$2 ;;
    --bin) bin=$2 ;;
    --chunks) chunks=$2 ;;
    *) echo "label.sh: unknown argument '$1'" >&2; exit 2 ;;
    esac
    shift 2
done
if [ -z "$variant" ] || [ -z "$gen" ] || [ -z "$nodes" ]; then
    echo "label.sh: needs --variant, --gen and --nodes" >&2
    exit 2
fi
family=$(corpus_family "$variant")
dir=corpus/$family/$gen
out=$dir/labels-n$nodes
if [ ! -d "$dir" ]; then
    echo "label.sh: no corpus folder $dir" >&2
    exit 2
fi
mkdir -p "$out"
for file in "$dir"/*.cdg.xz; do
    [ -f "$file" ] || continue
    have=$(find "$out" -name '*.cdl.xz' | wc -l)
    [ "$chunks" -gt 0 ] && [ "$have" -ge "$chunks" ] && break
    name=$(basename "$file" .cdg.xz)
    [ -f "$out/$name.cdl.xz" ] && continue
    nice -n 19 "$bin" train label --variant "$variant" --data "$file" --nodes "$nodes" \
        --share "$share" --seed "$seed" --threads "$threads" --out "$out/$name.cdl.xz" \
        2> /dev/null
done

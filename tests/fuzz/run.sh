#!/bin/sh
# tests/fuzz/run.sh -- run libFuzzer targets for a fixed time each.
#   sh tests/fuzz/run.sh [--seconds S] [--dir build-fuzz] [--seed N] [--out WORKDIR] TARGET[:RUNS]...
# A TARGET:RUNS argument runs exactly RUNS inputs instead of S seconds; with --seed and a fresh
# DIR that run is reproducible (same inputs, same verdict on every machine), which is what CI uses.
# Each TARGET is DIR/fuzz/fuzz_TARGET (built by `make fuzz-build`). Its working corpus is
# WORKDIR/corpus/TARGET (WORKDIR is DIR unless --out; seeded from tests/fuzz/corpus/TARGET and
# tests/fuzz/regress/TARGET, which are only read), crashes, leaks, timeouts and OOMs go to
# WORKDIR/crashes/TARGET/, and one line per run is appended to WORKDIR/fuzz.log
# (date, target, seconds, executions, crashes). Prints a summary line per target; exit status 1
# if any target left a crash (copy it to tests/fuzz/regress/TARGET/ and fix the bug).
set -u
SECONDS_EACH=300
DIR=build-fuzz
SEED=
OUT=
while [ $# -gt 0 ]; do
    case "$1" in
    --seconds) SECONDS_EACH=$2; shift 2 ;;
    --dir) DIR=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    -*) echo "usage: sh tests/fuzz/run.sh [--seconds S] [--dir DIR] [--seed N] [--out WORKDIR] TARGET[:RUNS]..." >&2; exit 2 ;;
    *) break ;;
    esac
done
[ $# -gt 0 ] || { echo "run.sh: no targets" >&2; exit 2; }
[ -n "$OUT" ] || OUT=$DIR
HERE=$(cd "$(dirname "$0")" && pwd)
status=0
for arg in "$@"; do
    t=${arg%%:*}
    limit="-max_total_time=$SECONDS_EACH"
    [ "$t" = "$arg" ] || limit="-runs=${arg#*:}"
    [ -z "$SEED" ] || limit="$limit -seed=$SEED"
    bin=$DIR/fuzz/fuzz_$t
    [ -x "$bin" ] || { echo "fuzz $t: no $bin (make fuzz-build)"; status=1; continue; }
    mkdir -p "$OUT/corpus/$t" "$OUT/crashes/$t"
    dict=
    [ -f "$HERE/$t.dict" ] && dict="-dict=$HERE/$t.dict"
    # failures only: crash-, leak-, timeout-, oom- (libFuzzer also writes slow-unit- files for
    # inputs that took long, which on a loaded machine is the machine)
    before=$(ls "$OUT/crashes/$t" | grep -c -v '^slow-unit-')
    log=$OUT/fuzz-$t.out
    t0=$(date +%s)
    # -timeout: one input taking longer is a hang; -rss_limit_mb: a leak or blow-up is an OOM.
    # shellcheck disable=SC2086
    nice -n 10 "$bin" $limit -timeout=20 -rss_limit_mb=2560 \
        -max_len=8192 -print_final_stats=1 -artifact_prefix="$OUT/crashes/$t/" $dict \
        "$OUT/corpus/$t" "$HERE/corpus/$t" "$HERE/regress/$t" >"$log" 2>&1
    rc=$?
    runs=$(sed -n 's/^stat::number_of_executed_units: *\([0-9]*\).*/\1/p' "$log" | tail -n 1)
    [ -n "$runs" ] || runs=$(sed -n 's/^#\([0-9][0-9]*\).*/\1/p' "$log" | tail -n 1)
    secs=$(($(date +%s) - t0))
    after=$(ls "$OUT/crashes/$t" | grep -c -v '^slow-unit-')
    new=$((after - before))
    corpus=$(ls "$OUT/corpus/$t" | wc -l)
    echo "fuzz $t: ${runs:-0} executions in ${secs} s, corpus $corpus, exit $rc, new crashes $new"
    echo "$(date -u +%Y-%m-%dT%H:%M:%SZ) $t ${secs} ${runs:-0} $new" >>"$OUT/fuzz.log"
    if [ "$rc" -ne 0 ] || [ "$new" -gt 0 ]; then
        status=1
        grep -m 5 -E 'ERROR|SUMMARY|fuzz check failed|Test unit written' "$log" | sed 's/^/    /'
    fi
done
exit $status

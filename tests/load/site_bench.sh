#!/bin/sh
# tests/load/site_bench.sh -- `make site-bench`: thousands of games between people on one
# `condraughts serve`, with browser-like clients (tests/load/sitebench.c). Not a test.
#   sh tests/load/site_bench.sh [--bin build/condraughts] [--client build/sitebench]
#        [--games 2000] [--spectators 400] [--seconds 60] [--think 1000-2000] [--db-dir DIR]
# The server starts with its soft descriptor limit at 1024 (as on a default machine: it raises it
# itself) and its default limits (--per-ip 64: every person has an address of its own); its store
# is in a temporary folder on the disk, or in --db-dir (e.g. /dev/shm, where fsync costs nothing).
# Prints the client's figures, then the server's CPU (share of one core), resident memory and peak
# descriptors, and whether the target was met: p99 move-to-opponent latency under 100 ms, every
# stream its first state within 1 s, no error. Exit status 0 when met, 1 when not.
# SITEBENCH_TRACE=FILE in the environment: the client writes every move's latency, stream's first
# state and its own stalls to FILE (tests/load/sitebench.c), to line up with the server's work.
set -u
BIN=build/condraughts
CLIENT=build/sitebench
GAMES=2000
SPECT=400
SECS=60
THINK=1000-2000
DBDIR=
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --client) CLIENT=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --spectators) SPECT=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --think) THINK=$2; shift 2 ;;
    --db-dir) DBDIR=$2; shift 2 ;;
    *) echo "usage: sh tests/load/site_bench.sh [--bin BIN] [--client SITEBENCH] [--games G] [--spectators S] [--seconds T] [--think LO-HI] [--db-dir DIR]" >&2; exit 2 ;;
    esac
done
LO=${THINK%-*}
HI=${THINK#*-}
TMP=$(mktemp -d)
STORE=$TMP
[ -n "$DBDIR" ] && STORE=$(mktemp -d "$DBDIR/site-bench.XXXXXX")
PID=
CPID=
cleanup() {
    [ -n "$CPID" ] && kill "$CPID" 2>/dev/null
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    [ -n "$SAMPLER" ] && kill "$SAMPLER" 2>/dev/null
    rm -rf "$TMP"
    [ -n "$DBDIR" ] && rm -rf "$STORE"
}
SAMPLER=
trap cleanup EXIT INT TERM
. "$(dirname "$0")/../lib.sh" # serve_wait

: >"$TMP/out" # (made before the server starts: serve_wait reads it at once)
(ulimit -Sn 1024 && exec "$BIN" serve --port 0 --data "$STORE/games" --db "$STORE/play.db" \
    --web "$TMP" >"$TMP/out" 2>"$TMP/err") &
PID=$!
serve_wait site-bench "$TMP/out" "$TMP/err"
LIMIT=$(sed -n 's/^condraughts: \([0-9]*\) connections at once$/\1/p' "$TMP/out")
echo "site-bench: server pid $PID, $LIMIT connections at once, store in $STORE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# the server's open descriptors, every second: the peak (counted by the shell's glob: no process
# forked for it)
(
    peak=0
    while :; do
        set -- /proc/"$PID"/fd/*
        n=$#
        [ "$n" -gt "$peak" ] && peak=$n && echo "$peak" >"$TMP/peak"
        sleep 1
    done
) &
SAMPLER=$!
cpu() { awk '{ print $14 + $15 }' "/proc/$PID/stat"; } # user + system, in clock ticks
# the server's threads: ms run on a CPU, ms waited for one (runnable, not running)
sched() { cat /proc/"$PID"/task/*/schedstat | awk '{ r += $1; w += $2 } END { printf "%d %d", r / 1e6, w / 1e6 }'; }
s0=$(sched)
c0=$(cpu)
t0=$(date +%s.%N)
# the client marks the span its figures count (every stream open) on stderr: the server's threads'
# run time over it, setup left out, is the CPU of the moves counted. Its stderr is read through a
# FIFO as it comes (no polling: a loop of grep and sleep forked 20 processes a second, about 15% of
# a core taken from the server measured)
mkfifo "$TMP/marks"
"$CLIENT" games "$PORT" "$GAMES" "$SPECT" "$SECS" "$LO" "$HI" >"$TMP/result" 2>"$TMP/marks" &
CPID=$!
p0=
p1=
while IFS= read -r line; do
    case "$line" in
    "sitebench: playing") p0=$(sched) ;;
    "sitebench: played") p1=$(sched) ;;
    *) printf '%s\n' "$line" >&2 ;;
    esac
done <"$TMP/marks"
wait "$CPID"
rc=$?
c1=$(cpu)
s1=$(sched)
t1=$(date +%s.%N)
rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$PID/status")
hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$PID/status")
head -n 1 "$TMP/result"
awk -v c="$((c1 - c0))" -v hz="$(getconf CLK_TCK)" -v a="$t0" -v b="$t1" -v rss="$rss" -v hwm="$hwm" \
    -v peak="$(cat "$TMP/peak" 2>/dev/null)" -v load="$(cut -d' ' -f1 /proc/loadavg)" \
    -v s="$s0 $s1" -v p="${p0:+${p1:+$p0 $p1}}" \
    -v moves="$(sed -n 's/.* moves \([0-9]*\) (.*/\1/p' "$TMP/result")" 'BEGIN {
    split(s, x, " ")
    printf "site-bench: server CPU %.0f%% of one core (setup and run), its threads waited %.1f s for a CPU (ran %.1f s), RSS %.0f MB (peak %.0f MB), peak %d descriptors; load average %s\n",
        100 * c / hz / (b - a), (x[4] - x[2]) / 1000, (x[3] - x[1]) / 1000, rss / 1024, hwm / 1024, peak, load
    if (p != "" && moves > 0) {
        split(p, y, " ")
        printf "site-bench: in play (setup left out) the server'"'"'s threads ran %.1f s for %d moves: %.3f ms of CPU a move\n",
            (y[3] - y[1]) / 1000, moves, (y[3] - y[1]) / moves }
}'
[ "$rc" -eq 0 ] || { echo "site-bench: the client failed ($rc)"; exit 1; }
kill -0 "$PID" 2>/dev/null || { echo "site-bench: the server died"; exit 1; }
set -- $(sed -n 's/^result: first [0-9]* late \([0-9]*\) errors \([0-9]*\) p99 \([0-9.]*\) lobby \([0-9]*\)$/\1 \2 \3 \4/p' "$TMP/result")
if [ "$1" -eq 0 ] && [ "$2" -eq 0 ] && awk "BEGIN { exit !($3 < 100) }"; then
    echo "site-bench: target met (p99 $3 ms < 100 ms, every stream its first state within 1 s, no error)"
else
    echo "site-bench: target missed (p99 $3 ms, $1 streams late, $2 errors)"
    exit 1
fi

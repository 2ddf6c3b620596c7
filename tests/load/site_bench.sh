#!/bin/sh
# tests/load/site_bench.sh -- `make site-bench`: thousands of games between people on one
# `condraughts serve`, with browser-like clients (tests/load/sitebench.c). Not a test.
#   sh tests/load/site_bench.sh [--bin build/condraughts] [--client build/sitebench]
#        [--games 2000] [--spectators 400] [--seconds 60] [--think 1000-2000] [--db-dir DIR]
#        [--pg] [--servers N]
# The server starts with its soft descriptor limit at 1024 (as on a default machine: it raises it
# itself) and its default limits (--per-ip 64: every person has an address of its own); its store
# is in a temporary folder on the disk, or in --db-dir (e.g. /dev/shm, where fsync costs nothing).
# Prints the client's figures, then the server's CPU (share of one core), resident memory and peak
# descriptors, and whether the target was met: p99 move-to-opponent latency under 100 ms, every
# stream its first state within 1 s, no error. Exit status 0 when met, 1 when not.
# --pg: the store is a private PostgreSQL cluster instead (tests/pg_lib.sh: in a temporary folder
# on the disk, fsync on, PostgreSQL's defaults otherwise), shared by N (--servers, 1 or 2)
# `serve --db CONNINFO` processes; every game's creator plays on the first server and its joiner
# on the second, the spectators alternate (sitebench.c), so every move crosses from one process
# to the other through NOTIFY. Printed then: each server's CPU and CPU a move, and PostgreSQL's
# (its processes' run time over the span counted, from /proc/PID/stat; ended ones through the
# postmaster's cutime and cstime).
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
PG=0
SERVERS=1
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --client) CLIENT=$2; shift 2 ;;
    --games) GAMES=$2; shift 2 ;;
    --spectators) SPECT=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --think) THINK=$2; shift 2 ;;
    --db-dir) DBDIR=$2; shift 2 ;;
    --pg) PG=1; shift ;;
    --servers) SERVERS=$2; shift 2 ;;
    *) echo "usage: sh tests/load/site_bench.sh [--bin BIN] [--client SITEBENCH] [--games G] [--spectators S] [--seconds T] [--think LO-HI] [--db-dir DIR] [--pg] [--servers N]" >&2; exit 2 ;;
    esac
done
case "$SERVERS" in
1) ;;
2) [ "$PG" -eq 1 ] || { echo "site-bench: --servers 2 needs --pg (servers share a PostgreSQL store only)" >&2; exit 2; } ;;
*) echo "site-bench: --servers is 1 or 2" >&2; exit 2 ;;
esac
[ "$PG" -eq 1 ] && [ -n "$DBDIR" ] && { echo "site-bench: --db-dir is for the SQLite store, not --pg" >&2; exit 2; }
LO=${THINK%-*}
HI=${THINK#*-}
TMP=$(mktemp -d)
STORE=$TMP
[ -n "$DBDIR" ] && STORE=$(mktemp -d "$DBDIR/site-bench.XXXXXX")
PIDS=
CPID=
SAMPLERS=
cleanup() {
    [ -n "$CPID" ] && kill "$CPID" 2>/dev/null
    for p in $PIDS; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
    for p in $SAMPLERS; do kill "$p" 2>/dev/null; done
    [ "$PG" -eq 1 ] && pg_stop
    rm -rf "$TMP"
    [ -n "$DBDIR" ] && rm -rf "$STORE"
}
trap cleanup EXIT INT TERM
. "$(dirname "$0")/../lib.sh" # serve_wait
if [ "$PG" -eq 1 ]; then
    . "$(dirname "$0")/../pg_lib.sh"
    pg_find || { echo "site-bench: --pg needs PostgreSQL (tools/deps.sh test installs it)" >&2; exit 1; }
    pg_start || exit 1
    DB=$(pg_createdb sitebench) || exit 1
    STORE="$PGDIR (PostgreSQL $(basename "$(dirname "$PGBIN")"))"
else
    DB=$STORE/play.db
fi

# server I (1, 2): its store's folder of PDN files, its output in $TMP/outI and errI; its pid
# is the Ith of PIDS, its port the Ith of PORTS
PORTS=
i=1
while [ "$i" -le "$SERVERS" ]; do
    : >"$TMP/out$i" # (made before the server starts: serve_wait reads it at once)
    (ulimit -Sn 1024 && exec "$BIN" serve --port 0 --data "$TMP/games$i" --db "$DB" \
        --web "$TMP" >"$TMP/out$i" 2>"$TMP/err$i") &
    spid=$!
    PIDS="$PIDS${PIDS:+ }$spid"
    serve_wait "site-bench server $i" "$TMP/out$i" "$TMP/err$i"
    PORTS="$PORTS${PORTS:+,}$PORT"
    # its open descriptors, every second: the peak (counted by the shell's glob: no process
    # forked for it)
    (
        peak=0
        while :; do
            set -- /proc/"$spid"/fd/*
            n=$#
            [ "$n" -gt "$peak" ] && peak=$n && echo "$peak" >"$TMP/peak$i"
            sleep 1
        done
    ) &
    SAMPLERS="$SAMPLERS $!"
    i=$((i + 1))
done
LIMIT=$(sed -n 's/^condraughts: \([0-9]*\) connections at once$/\1/p' "$TMP/out1")
if [ "$SERVERS" -eq 1 ] && [ "$PG" -eq 0 ]; then
    echo "site-bench: server pid $PIDS, $LIMIT connections at once, store in $STORE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
else
    echo "site-bench: $SERVERS server(s), pids $PIDS, ports $PORTS, $LIMIT connections at once each, store in $STORE; load average $(cut -d' ' -f1-3 /proc/loadavg)"
fi
# every server's CPU, user + system, in clock ticks (one number a server)
cpu() { for p in $PIDS; do awk '{ printf "%d ", $14 + $15 }' "/proc/$p/stat"; done; }
# every server's threads: ms run on a CPU, ms waited for one (runnable, not running); two numbers
# a server
sched() {
    for p in $PIDS; do
        cat /proc/"$p"/task/*/schedstat | awk '{ r += $1; w += $2 } END { printf "%d %d ", r / 1e6, w / 1e6 }'
    done
}
# PostgreSQL's processes, user + system, in clock ticks: the postmaster (with its ended children's,
# cutime + cstime) and its live children (the backends, checkpointer, WAL writer, ...); 0 without
# --pg. Fields counted after the command's ")" (a name may hold spaces).
PGPID=
[ "$PG" -eq 1 ] && PGPID=$(head -n 1 "$PGDIR/data/postmaster.pid")
pgcpu() {
    [ -n "$PGPID" ] || { echo 0; return; }
    # (cat: a process gone between the glob and its read is left out, where awk would stop)
    cat /proc/[0-9]*/stat 2>/dev/null | awk -v pm="$PGPID" '{
        pid = $1; sub(/^.*\) /, ""); split($0, f, " ")
        if (pid == pm) t += f[12] + f[13] + f[14] + f[15]
        else if (f[2] == pm) t += f[12] + f[13] }
        END { print t + 0 }'
}
s0=$(sched)
c0=$(cpu)
g0=$(pgcpu)
t0=$(date +%s.%N)
# the client marks the span its figures count (every stream open) on stderr: the server's threads'
# run time over it, setup left out, is the CPU of the moves counted. Its stderr is read through a
# FIFO as it comes (no polling: a loop of grep and sleep forked 20 processes a second, about 15% of
# a core taken from the server measured)
mkfifo "$TMP/marks"
"$CLIENT" games "$PORTS" "$GAMES" "$SPECT" "$SECS" "$LO" "$HI" >"$TMP/result" 2>"$TMP/marks" &
CPID=$!
p0=
p1=
while IFS= read -r line; do
    case "$line" in
    "sitebench: playing") p0=$(sched) q0=$(pgcpu) ;;
    "sitebench: played") p1=$(sched) q1=$(pgcpu) ;;
    *) printf '%s\n' "$line" >&2 ;;
    esac
done <"$TMP/marks"
wait "$CPID"
rc=$?
c1=$(cpu)
s1=$(sched)
t1=$(date +%s.%N)
head -n 1 "$TMP/result"
moves=$(sed -n 's/.* moves \([0-9]*\) (.*/\1/p' "$TMP/result")
i=1
for pid in $PIDS; do
    label=server
    [ "$SERVERS" -gt 1 ] || [ "$PG" -eq 1 ] && label="server $i"
    rss=$(sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status")
    hwm=$(sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$pid/status")
    awk -v i="$i" -v label="$label" -v c="$c0 $c1" -v hz="$(getconf CLK_TCK)" -v a="$t0" -v b="$t1" \
        -v rss="$rss" -v hwm="$hwm" -v peak="$(cat "$TMP/peak$i" 2>/dev/null)" \
        -v load="$(cut -d' ' -f1 /proc/loadavg)" -v s="$s0 $s1" -v p="${p0:+${p1:+$p0 $p1}}" \
        -v n="$SERVERS" -v moves="$moves" 'BEGIN {
        split(c, z, " "); split(s, x, " ")
        printf "site-bench: %s CPU %.0f%% of one core (setup and run), its threads waited %.1f s for a CPU (ran %.1f s), RSS %.0f MB (peak %.0f MB), peak %d descriptors; load average %s\n",
            label, 100 * (z[n + i] - z[i]) / hz / (b - a), (x[2 * n + 2 * i] - x[2 * i]) / 1000,
            (x[2 * n + 2 * i - 1] - x[2 * i - 1]) / 1000, rss / 1024, hwm / 1024, peak, load
        if (p != "" && moves > 0) {
            split(p, y, " ")
            printf "site-bench: in play (setup left out) the %s'"'"'s threads ran %.1f s for %d moves: %.3f ms of CPU a move\n",
                label, (y[2 * n + 2 * i - 1] - y[2 * i - 1]) / 1000, moves, (y[2 * n + 2 * i - 1] - y[2 * i - 1]) / moves }
    }'
    i=$((i + 1))
done
if [ "$PG" -eq 1 ] && [ -n "$q0" ] && [ -n "$q1" ] && [ "${moves:-0}" -gt 0 ]; then
    awk -v q="$((q1 - q0))" -v g="$(($(pgcpu) - g0))" -v hz="$(getconf CLK_TCK)" -v a="$t0" -v b="$t1" \
        -v moves="$moves" 'BEGIN {
        printf "site-bench: PostgreSQL CPU %.0f%% of one core (setup and run); in play its processes ran %.1f s for %d moves: %.3f ms of CPU a move\n",
            100 * g / hz / (b - a), q / hz, moves, 1000 * q / hz / moves }'
fi
[ "$rc" -eq 0 ] || { echo "site-bench: the client failed ($rc)"; exit 1; }
for pid in $PIDS; do kill -0 "$pid" 2>/dev/null || { echo "site-bench: server $pid died"; exit 1; }; done
set -- $(sed -n 's/^result: first [0-9]* late \([0-9]*\) errors \([0-9]*\) p99 \([0-9.]*\) lobby \([0-9]*\)$/\1 \2 \3 \4/p' "$TMP/result")
if [ "$1" -eq 0 ] && [ "$2" -eq 0 ] && awk "BEGIN { exit !($3 < 100) }"; then
    echo "site-bench: target met (p99 $3 ms < 100 ms, every stream its first state within 1 s, no error)"
else
    echo "site-bench: target missed (p99 $3 ms, $1 streams late, $2 errors)"
    exit 1
fi

#!/bin/sh
# tests/load/run.sh -- `condraughts serve` under hostile load, loopback only, bounded in time.
#   sh tests/load/run.sh [--bin build/condraughts] [--slow build/slowclient] [--seconds 20]
#                        [--threads 16] [--kill-rounds 8]
# 1. load: wrk (tests/load/mix.lua) for --seconds with --threads connections mixing legal moves,
#    illegal moves, garbage bodies and reads on games of several variants. Reports requests/s,
#    the rate of unexpected statuses, p99 latency, and the server's RSS before and after.
#    Fails on any 5xx, unexpected status, socket error, or if the server dies or stops answering.
# 2. limits: a body over 64 KiB (413), headers over 32 KiB (431), a body sent one byte a second,
#    clients sending headers one byte a second (20, then 1100: more than the 1024 connections the
#    server is given here with --max-connections),
#    idle connections: each is cut in time and a normal request is served meanwhile; 4 engine
#    searches of 8 s do not hold the server's threads (a request is answered meanwhile); the
#    connections of one address are limited (--per-ip).
# 3. SIGKILL: clients write games in a loop, the server is killed with -9 at random moments and
#    restarted on the same data; every game file must pass `condraughts pdn check`, every game
#    must come back, and no temporary file may be taken for a game.
# Prints "load-test: N passed, M failed".
set -u
BIN=build/condraughts
SLOW=
SECS=20
THREADS=16
ROUNDS=8
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --slow) SLOW=$2; shift 2 ;;
    --seconds) SECS=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --kill-rounds) ROUNDS=$2; shift 2 ;;
    *) echo "usage: sh tests/load/run.sh [--bin BIN] [--slow SLOWCLIENT] [--seconds S] [--threads T] [--kill-rounds K]" >&2; exit 2 ;;
    esac
done
HERE=$(cd "$(dirname "$0")" && pwd)
for tool in wrk curl; do
    command -v $tool >/dev/null 2>&1 || { echo "load-test: $tool is required (tools/deps.sh test)" >&2; exit 1; }
done
TMP=$(mktemp -d)
if [ -z "$SLOW" ]; then
    SLOW=$TMP/slowclient
    ${CC:-cc} -std=c11 -O2 -o "$SLOW" "$HERE/slowclient.c" || exit 1
fi
PID=
PASS=0
FAIL=0
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM
. "$(dirname "$0")/../lib.sh" # serve_wait (this script keeps its own counters, below)
ok() { PASS=$((PASS + 1)); }
bad() { FAIL=$((FAIL + 1)); echo "FAIL: $*"; }
now() { date +%s.%N; }
elapsed() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# start_server DATA [PER_IP]: starts it on a free port (PID, PORT, URL); the clients here are all
# on one address, so no per-address limit unless PER_IP says; 1024 connections (the slow clients
# below are more)
start_server() {
    : >"$TMP/out"
    "$BIN" serve --port 0 --per-ip "${2:-0}" --max-connections 1024 --data "$1" --web "$TMP/web" \
        >"$TMP/out" 2>>"$TMP/err" &
    PID=$!
    serve_wait load-test "$TMP/out" "$TMP/err"
}
stop_server() {
    kill "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    PID=
}
rss() { sed -n 's/^VmRSS:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status" 2>/dev/null; }
hwm() { sed -n 's/^VmHWM:[[:space:]]*\([0-9]*\) kB/\1/p' "/proc/$1/status" 2>/dev/null; }
threads_of() { sed -n 's/^Threads:[[:space:]]*\([0-9]*\)/\1/p' "/proc/$1/status" 2>/dev/null; }
answers() { # answers SECONDS: the server answers GET /api/variants with 200 within SECONDS
    [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time "$1" "$URL/api/variants")" = 200 ]
}
post() { curl -s --max-time 30 -H 'Content-Type: application/json' -d "$2" "$URL$1"; }
json_field() { sed -n "s/.*\"$1\":\"\\([^\"]*\\)\".*/\\1/p"; }

mkdir -p "$TMP/web"
echo '<!doctype html><title>condraughts</title>' >"$TMP/web/index.html"

# ------------------------------------------------------------------ 1. load
start_server "$TMP/games"
echo "load-test: server pid $PID on port $PORT"
: >"$TMP/games.txt"
variants="international constitutional russian english brazilian canadian killer italian"
n=0
while [ $n -lt $((THREADS * 3)) ]; do
    for v in $variants; do
        [ $n -lt $((THREADS * 3)) ] || break
        id=$(post /api/games "{\"variant\":\"$v\",\"human\":\"both\"}" | json_field id)
        [ -n "$id" ] || { bad "cannot create a $v game"; break 2; }
        # a legal sequence: the engine plays 16 plies at depth 1, then they are taken back
        k=0
        while [ $k -lt 16 ]; do
            post "/api/games/$id/engine" '{"depth":1}' >/dev/null
            k=$((k + 1))
        done
        moves=$(curl -s "$URL/api/games/$id" | sed -n 's/.*"history":\[\([^]]*\)\].*/\1/p' | tr -d '"' | tr ',' ' ')
        post "/api/games/$id/undo" '{"plies":16}' >/dev/null
        echo "$id $moves" >>"$TMP/games.txt"
        n=$((n + 1))
    done
done
games_file_lines=$(wc -l <"$TMP/games.txt")
rss0=$(rss "$PID")
thr0=$(threads_of "$PID")
echo "load-test: $games_file_lines games, RSS before ${rss0} kB, $thr0 threads"
LOAD_GAMES=$TMP/games.txt LOAD_THREADS=$THREADS wrk -t"$THREADS" -c"$THREADS" -d"${SECS}s" --timeout 10s \
    -s "$HERE/mix.lua" "$URL" >"$TMP/wrk.out" 2>&1
wrk_rc=$?
grep '^load:' "$TMP/wrk.out"
sed -n '/unexpected responses/,$p' "$TMP/wrk.out" | sed -n '2,12p'
sleep 1
rss1=$(rss "$PID")
hwm1=$(hwm "$PID")
thr1=$(threads_of "$PID")
echo "load-test: RSS after ${rss1:-?} kB (peak ${hwm1:-?} kB), $thr1 threads"
[ "$wrk_rc" -eq 0 ] && ok || bad "wrk exited with $wrk_rc"
if kill -0 "$PID" 2>/dev/null && answers 2; then ok; else bad "the server died or stopped answering under load"; fi
line=$(grep '^load: checked' "$TMP/wrk.out" | tr -d ',')
checked=$(echo "$line" | awk '{print $3}')
unexp=$(echo "$line" | awk '{print $5}')
f5=$(echo "$line" | awk '{print $NF}')
[ "${checked:-0}" -gt 0 ] && ok || bad "no request was checked"
[ "${unexp:-1}" -eq 0 ] && ok || bad "$unexp unexpected statuses"
[ "${f5:-1}" -eq 0 ] && ok || bad "$f5 server errors (5xx)"
serr=$(grep '^load: socket errors' "$TMP/wrk.out" | awk '{s = 0; for (i = 5; i <= NF; i += 2) s += $i; print s}')
[ "${serr:-1}" -eq 0 ] && ok || bad "socket errors under load: $(grep '^load: socket' "$TMP/wrk.out")"
# memory: the games were taken back, so RSS must not have grown without bound (allow 64 MiB)
[ -n "$rss1" ] && [ $((rss1 - rss0)) -lt 65536 ] && ok || bad "RSS grew from $rss0 kB to $rss1 kB"

# ------------------------------------------------------------------ 2. limits
big=$TMP/big.json
awk 'BEGIN { printf "{\"move\":\""; for (i = 0; i < 70000; i++) printf "x"; printf "\"}" }' >"$big"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H 'Content-Type: application/json' \
    --data-binary @"$big" "$URL/api/games")
[ "$code" = 413 ] && ok || bad "a 70 kB body got $code, not 413"
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H 'Content-Type: application/json' \
    -H 'Transfer-Encoding: chunked' --data-binary @"$big" "$URL/api/games")
[ "$code" = 413 ] && ok || bad "a 70 kB chunked body got $code, not 413"
hdr=$(awk 'BEGIN { for (i = 0; i < 40000; i++) printf "h" }')
code=$(curl -s -o /dev/null -w '%{http_code}' --max-time 10 -H "X-Big: $hdr" "$URL/api/variants")
case "$code" in 431 | 413 | 414 | 400) ok ;; *) bad "40 kB of headers got $code" ;; esac
echo "load-test: a 70 kB body, plain and chunked: 413; 40 kB of headers: $code"
answers 2 && ok || bad "the server stopped answering after the oversized requests"

# slow_case MODE N SECONDS MAXCUT: N clients of MODE for SECONDS; a normal request must be served
# meanwhile within 3 s (10 s when over the connection limit) and every slow client cut within
# MAXCUT seconds.
slow_case() {
    mode=$1 count=$2 secs=$3 maxcut=$4
    "$SLOW" "$mode" "$PORT" "$count" "$secs" >"$TMP/slow.out" 2>&1 &
    spid=$!
    sleep 1.5
    t0=$(now)
    served=
    while [ "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print (b - a < 12) }')" = 1 ]; do
        if answers 2; then served=$(elapsed "$t0"); break; fi
        sleep 0.2
    done
    wait "$spid"
    res=$(cat "$TMP/slow.out")
    echo "load-test: $res; a normal request was served after ${served:-never} s"
    if [ -n "$served" ] && [ "$(awk -v s="$served" 'BEGIN { print (s <= 10) }')" = 1 ]; then ok
    else bad "$mode x$count: no normal request served in time"; fi
    open=$(echo "$res" | sed -n 's/.*, \([0-9]*\) open$/\1/p')
    last=$(echo "$res" | sed -n 's/.*(last after \([0-9.]*\) s).*/\1/p')
    if [ "${open:-1}" -eq 0 ] && [ "$(awk -v l="${last:-99}" -v m="$maxcut" 'BEGIN { print (l <= m) }')" = 1 ]; then ok
    else bad "$mode x$count: slow clients not cut within $maxcut s ($res)"; fi
}
slow_case slow 20 14 12
slow_case body 20 14 12
slow_case idle 20 14 12
# over the connection limit: the pressure rule cuts the waiting connections older than 2 s until
# at most half the connections wait, the rest within the 10 s (the last ones were accepted late)
slow_case slow 1100 14 13
answers 2 && ok || bad "the server stopped answering after the slow clients"

# engine searches run off the server's threads: 4 searches of 8 s (every slot) and a request
# answered meanwhile
searchers=
for k in 1 2 3 4; do
    id=$(post /api/games '{"variant":"international","human":"both"}' | json_field id)
    post "/api/games/$id/engine" '{"movetime":8}' >/dev/null &
    searchers="$searchers $!"
done
sleep 1
t0=$(now)
if answers 5; then
    took=$(elapsed "$t0")
    echo "load-test: during 4 engine searches a request was answered in $took s"
    [ "$(awk -v s="$took" 'BEGIN { print (s <= 2) }')" = 1 ] && ok || bad "a request took $took s during the searches"
else bad "no answer during 4 engine searches"; fi
for w in $searchers; do wait "$w"; done
kill -0 "$PID" 2>/dev/null && ok || bad "the server died"
rss2=$(rss "$PID")
echo "load-test: RSS after the limit checks ${rss2:-?} kB, $(threads_of "$PID") threads"
stop_server

# one address holds at most --per-ip connections: 4 of 10 idle ones stay open, the others are
# closed at once, and the address is served again once they are gone
start_server "$TMP/games" 4
"$SLOW" idle "$PORT" 10 3 >"$TMP/slow.out" 2>&1
res=$(cat "$TMP/slow.out")
echo "load-test: --per-ip 4: $res"
open=$(echo "$res" | sed -n 's/.*, \([0-9]*\) open$/\1/p')
[ "${open:-0}" -eq 4 ] && ok || bad "--per-ip 4: $res"
i=0
until answers 2 || [ $i -ge 20 ]; do sleep 0.5; i=$((i + 1)); done
answers 2 && ok || bad "--per-ip 4: the address is not served again after its connections closed"
stop_server

# ------------------------------------------------------------------ 3. SIGKILL while saving
data=$TMP/kill
start_server "$data"
ids=
for v in international constitutional russian english; do
    id=$(post /api/games "{\"variant\":\"$v\",\"human\":\"both\"}" | json_field id)
    ids="$ids $id"
done
stop_server
round=0
while [ $round -lt "$ROUNDS" ]; do
    round=$((round + 1))
    start_server "$data"
    writers=
    for id in $ids; do
        (
            while :; do
                post "/api/games/$id/engine" '{"depth":1}' >/dev/null 2>&1
                post "/api/games/$id/undo" '{"plies":1}' >/dev/null 2>&1
                post "/api/games/$id/engine" '{"depth":1}' >/dev/null 2>&1
            done
        ) &
        writers="$writers $!"
    done
    # a random moment within 0.3 .. 1.5 s of writing
    sleep "$(awk -v r="$round" 'BEGIN { srand(r * 7 + 3); printf "%.2f", 0.3 + rand() * 1.2 }')"
    kill -9 "$PID"
    wait "$PID" 2>/dev/null
    PID=
    for w in $writers; do kill "$w" 2>/dev/null; done
    for w in $writers; do wait "$w" 2>/dev/null; done
    tmpfiles=$(find "$data" -name '.*.tmp' | wc -l)
    files=0
    broken=0
    for f in "$data"/*.pdn; do
        files=$((files + 1))
        "$BIN" pdn check "$f" >/dev/null 2>"$TMP/check.err" || { broken=$((broken + 1)); cat "$TMP/check.err"; }
    done
    start_server "$data"
    listed=$(curl -s "$URL/api/games" | grep -o '"id":"[0-9a-f]*"' | wc -l)
    stop_server
    echo "load-test: kill round $round: $files game files ($tmpfiles temporary left), $broken broken, $listed games after the restart"
    [ "$broken" -eq 0 ] && ok || bad "round $round: $broken game files do not pass pdn check"
    [ "$files" -eq 4 ] && [ "$listed" -eq 4 ] && ok || bad "round $round: $files files, $listed games listed (4 expected)"
    left=$(find "$data" -name '.*.tmp' | wc -l)
    [ "$left" -eq 0 ] && ok || bad "round $round: $left temporary files still there after the restart"
done

echo "load-test: $PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]

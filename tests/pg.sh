#!/bin/sh
# tests/pg.sh -- two servers on one PostgreSQL store behind nginx (docs/deploy.md): a private
# PostgreSQL cluster (pg_lib.sh), two `serve --db CONNINFO` processes, and nginx running
# docs/deploy/nginx.conf (TLS with a throwaway certificate) in front of them. Games are played
# across the two: a move made through one server reaches a live stream on the other within 100 ms
# (both ways, and through nginx), both servers show the same history and clocks, a flag falls
# once (the ratings are written once), each server trusts its copy between announcements (a move
# makes no look-up of the game's revision; a copy behind the store that refuses an action, or
# whose write is beaten, judges it again on the game read back), one server is killed with
# SIGKILL mid-game and the game goes on through nginx with nothing lost, the killed server comes
# back to the same game, a page open on one server keeps a game not begun from expiring on the
# other, and PostgreSQL restarted (then stopped) mid-game: play goes on (while it is down: 503,
# nothing changed); both servers answer the same leaderboard, by the same rule as the SQLite
# store. A game deleted unannounced is never written back by a copy that has not heard (404); a
# deletion is written over the game's revision (a waiting game joined on one server while the
# other deletes it is kept: 409); a move whose server was killed before announcing it is read by
# the other server's sweep. nginx's own error answers (400, 403, 405, 413, 414, 431, 501, 502,
# 504, 505; a 408 it does not send) are JSON, their status kept, and the servers' JSON errors
# (400, 403, 404, 405, 409, 429, 503) pass through it unchanged. The servers take the client's
# address from nginx's X-Real-IP (--trust-proxy): a stranger's wrong passwords close an account to
# the stranger's address only, a cookie-less flood of games stops at its address's limit, a forged
# X-Real-IP changes nothing (nginx replaces it; a server ignores it from any peer but nginx), and
# from nginx's address a request without one is 400. With
# --sitebench, the short form of `make site-bench SITE_PG=1 SITE_SERVERS=2` at the
# end: 20 games, each player on its own server (tests/load/sitebench.c), 4 s of moves: no error,
# every stream its first state.
#   sh tests/pg.sh [--bin build/condraughts] [--sitebench build/sitebench]
#   Prints "pg: N passed, M failed" (or SKIPPED).
set -u
[ -n "${PG_DEBUG:-}" ] && set -x
BIN=build/condraughts
SITEBENCH=
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --sitebench) SITEBENCH=$2; shift 2 ;;
    *) echo "usage: sh tests/pg.sh [--bin BIN] [--sitebench SITEBENCH]" >&2; exit 2 ;;
    esac
done
case $BIN in /*) ;; */*) BIN=$(pwd)/$BIN ;; esac
case $SITEBENCH in /* | "") ;; */*) SITEBENCH=$(pwd)/$SITEBENCH ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
CONF=$HERE/../docs/deploy/nginx.conf
NGINX=/usr/sbin/nginx

. "$HERE/lib.sh"
. "$HERE/pg_lib.sh"
missing=
pg_find || missing="$missing postgresql"
[ -x "$NGINX" ] || missing="$missing nginx"
for c in curl node openssl; do command -v $c >/dev/null 2>&1 || missing="$missing $c"; done
if [ -n "$missing" ]; then
    echo "pg: SKIPPED (missing:$missing; tools/deps.sh test installs them)"
    exit 0
fi

TMP=$(mktemp -d)
A= B= NGX= MUTE_UP=
cleanup() {
    for p in $A $B $NGX $MUTE_UP; do kill "$p" 2>/dev/null && wait "$p" 2>/dev/null; done
    pg_stop
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

pg_start || exit 1
DB=$(pg_createdb games) || exit 1

# a database that cannot be used: a clear error, exit status 1
for bad in "host=$PGSOCK dbname=nosuch user=condraughts" "nosuch=1" "postgresql://condraughts@127.0.0.1:1/x"; do
    "$BIN" serve --port 0 --data "$TMP/bad" --db "$bad" --web "$TMP" >/dev/null 2>"$TMP/bad.err"
    check_eq "serve --db '$bad': exit 1" 1 "$?"
    check_that "... saying why" grep -qE '^condraughts serve: cannot connect to PostgreSQL: .*(does not exist|invalid connection option|refused)' "$TMP/bad.err"
done

# a PostgreSQL that takes the connection and never answers: given up after 5 s (connect_timeout),
# never a hang (timeout 20: exit 124 when it hangs)
node -e 'const s=require("net").createServer(()=>{}).listen(0,"127.0.0.1",()=>console.log(s.address().port));setTimeout(()=>process.exit(0),30000)' >"$TMP/mute.port" &
MUTE=$!
i=0
until [ -s "$TMP/mute.port" ] || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
t0=$(date +%s)
timeout 20 "$BIN" serve --port 0 --data "$TMP/bad" --db "host=127.0.0.1 port=$(cat "$TMP/mute.port") user=x dbname=x" \
    --web "$TMP" >/dev/null 2>"$TMP/bad.err"
check_eq "serve --db (a server that never answers): exit 1" 1 "$?"
check_that "... within 10 s ($(($(date +%s) - t0)) s), saying why" sh -c \
    "[ $(($(date +%s) - t0)) -le 10 ] && grep -q 'cannot connect to PostgreSQL: .*timeout expired' '$TMP/bad.err'"
kill "$MUTE" 2>/dev/null
wait "$MUTE" 2>/dev/null

# start NAME PORT: server NAME (a, b) on PORT (0: any) and the shared database; sets its PID
# variable (A, B) and P_NAME (its port). As docs/deploy.md's unit, with nginx's address trusted:
# here 127.0.0.2 (nginx's proxy_bind below), so that this test's own requests to a server, from
# 127.0.0.1, are a client's
PROXY=127.0.0.2
start() {
    : >"$TMP/$1.out"
    "$BIN" serve --port "$2" --data "$TMP/$1.games" --db "$DB" --web "$TMP" --per-ip 0 --trust-proxy "$PROXY" \
        >"$TMP/$1.out" 2>>"$TMP/$1.err" &
    eval "$(echo "$1" | tr ab AB)=$!"
    serve_wait "server $1" "$TMP/$1.out" "$TMP/$1.err"
    eval "P_$1=$PORT"
}
start a 0
start b 0
check_that "the two servers are two processes on two ports" test "$A" != "$B" -a "$P_a" != "$P_b"

free_port() {
    node -e 'const s=require("net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'
}
P_tls=$(free_port)
P_http=$(free_port)
# a server that takes connections and never answers, for nginx's 504: a location of this test's
# own inside the example's `location /` (its error pages) passes to it with a 1 s timeout
node -e 'const s=require("net").createServer(()=>{}).listen(0,"127.0.0.1",()=>console.log(s.address().port))' >"$TMP/mute_up.port" &
MUTE_UP=$!
i=0
until [ -s "$TMP/mute_up.port" ] || [ $i -ge 100 ]; do sleep 0.1; i=$((i + 1)); done
P_mute=$(cat "$TMP/mute_up.port")
mkdir -p "$TMP/nginx/logs"
# run as root, nginx's worker is nobody: it keeps a body over 16 KiB in $TMP/nginx/body
[ "$(id -u)" -eq 0 ] && chmod 711 "$TMP"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=localhost \
    -keyout "$TMP/nginx/key.pem" -out "$TMP/nginx/cert.pem" >/dev/null 2>&1
# docs/deploy/nginx.conf with this test's names, ports and certificate, and its connections to the
# servers made from $PROXY
sed -e "s|https://draughts.example.org|https://localhost:$P_tls|" \
    -e "s|draughts.example.org|localhost|g" \
    -e "s|127.0.0.1:8081|127.0.0.1:$P_a|" -e "s|127.0.0.1:8082|127.0.0.1:$P_b|" \
    -e "s|listen 443 |listen 127.0.0.1:$P_tls |" -e "s|listen 80\([; ]\)|listen 127.0.0.1:$P_http\1|" \
    -e "s|/etc/letsencrypt/live/localhost/fullchain.pem|$TMP/nginx/cert.pem|" \
    -e "s|/etc/letsencrypt/live/localhost/privkey.pem|$TMP/nginx/key.pem|" \
    -e "s|^        proxy_pass http://condraughts_board;|&\\n        location /pg-test/mute { proxy_read_timeout 1s; proxy_pass http://127.0.0.1:$P_mute; }|" \
    -e "s|^    proxy_http_version 1.1;|&\\n    proxy_bind $PROXY;|" \
    "$CONF" >"$TMP/nginx/condraughts.conf"
check_that "the example's every site-specific line was replaced" sh -c \
    "! grep -v '^ *#' '$TMP/nginx/condraughts.conf' | grep -qE 'example|letsencrypt|8081|8082|listen (80|443)'"
check_eq "... and nginx connects to the servers from $PROXY, passing the client's address" "1 1" \
    "$(grep -c "^    proxy_bind $PROXY;" "$TMP/nginx/condraughts.conf") $(grep -c '^    proxy_set_header X-Real-IP $remote_addr;$' "$TMP/nginx/condraughts.conf")"
cat >"$TMP/nginx/nginx.conf" <<EOF
daemon off;
worker_processes 1;
error_log $TMP/nginx/logs/error.log;
pid $TMP/nginx/nginx.pid;
events { worker_connections 256; }
http {
    access_log $TMP/nginx/logs/access.log;
    client_body_temp_path $TMP/nginx/body;
    proxy_temp_path $TMP/nginx/proxy;
    fastcgi_temp_path $TMP/nginx/fastcgi;
    uwsgi_temp_path $TMP/nginx/uwsgi;
    scgi_temp_path $TMP/nginx/scgi;
    client_body_timeout 2s;
    include $TMP/nginx/condraughts.conf;
}
EOF
"$NGINX" -p "$TMP/nginx" -c "$TMP/nginx/nginx.conf" 2>"$TMP/nginx/start.err" &
NGX=$!
N=https://localhost:$P_tls
i=0
until curl -sk -o /dev/null "$N/api/play/lobby" || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
if [ $i -ge 50 ]; then
    echo "pg: nginx did not start:" >&2
    cat "$TMP/nginx/start.err" "$TMP/nginx/logs/error.log" >&2
    exit 1
fi

cookie() { printf 'cd_player=%s' "$(awk '$6 == "cd_player" { print $7 }' "$TMP/$1.jar")"; }
SA=http://127.0.0.1:$P_a
SB=http://127.0.0.1:$P_b

# ------------------------------------------------------------ nginx in front
jar_req - GET "http://localhost:$P_http/api/play/lobby"
check_eq "plain HTTP is sent to HTTPS" 301 "$CODE"
jar_req - GET "$N/api/play/lobby" "" -H "Host: rebound.example"
check_eq "nginx refuses another name in Host (DNS rebinding): the connection closed" 000 "$CODE"
jar_req - GET "https://rebound.example:$P_tls/api/play/lobby" "" --resolve "rebound.example:$P_tls:127.0.0.1"
check_eq "... and in TLS's server name: the handshake refused" 000 "$CODE"
jar_req - GET "http://127.0.0.1:$P_http/api/play/lobby"
check_eq "... and over plain HTTP (by address)" 000 "$CODE"

# nginx's own error answers are JSON as the API's every error (docs/deploy/nginx.conf), their
# status kept; the servers' own JSON errors pass through it unchanged
# nginx_json WHAT STATUS ERROR CURL_ARGS...: the answer through nginx is STATUS, Content-Type
# application/json, a body that parses as JSON with ERROR as its "error"
nginx_json() {
    nj_what=$1 nj_want="$2 application/json $3"
    shift 3
    CODE=$(curl -sk -o "$TMP/body" -w '%{http_code} %{content_type}' "$@")
    BODY=$(cat "$TMP/body")
    check_eq "$nj_what" "$nj_want" "$CODE $(j d.error)"
}
# nginx_raw WHAT STATUS ERROR BYTES: the same for BYTES (printf's format) sent over TLS as they
# are (a request curl does not send)
nginx_raw() {
    printf "$4" | timeout 10 openssl s_client -quiet -connect "127.0.0.1:$P_tls" -servername localhost \
        >"$TMP/raw" 2>/dev/null
    BODY=$(sed '1,/^\r$/d' "$TMP/raw")
    check_eq "$1" "$2 application/json $3" "$(sed -n '1s|^HTTP/1\.1 \([0-9]*\) .*|\1|p' "$TMP/raw") $(sed -n 's|^Content-Type: \([^\r]*\)\r$|\1|p' "$TMP/raw") $(j d.error)"
}
nginx_json "nginx refuses a write from another site's page: 403" 403 "a request from another origin is refused" \
    -X POST --data-binary '{"variant":"international"}' -H "Origin: https://evil.example" "$N/api/play"
nginx_json "... over HTTP/1.1 too" 403 "a request from another origin is refused" \
    --http1.1 -X POST --data-binary '{"variant":"international"}' -H "Origin: https://evil.example" "$N/api/play"
nginx_raw "a malformed request line: 400" 400 "malformed request" 'G@T / HTTP/1.1\r\nHost: localhost\r\n\r\n'
nginx_raw "a malformed header (Host twice): 400" 400 "malformed request" \
    'GET /api/play/lobby HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n'
nginx_raw "... and from another origin: its 403" 403 "a request from another origin is refused" \
    'GET /api/play/lobby HTTP/1.1\r\nHost: localhost\r\nOrigin: https://evil.example\r\nHost: localhost\r\n\r\n'
nginx_raw "a Content-Length that is no number: 400" 400 "malformed request" \
    'POST /api/play HTTP/1.1\r\nHost: localhost\r\nContent-Length: abc\r\n\r\n'
nginx_raw "HTTP/3.0 in a request line: 505" 505 "HTTP version not supported" 'GET / HTTP/3.0\r\nHost: localhost\r\n\r\n'
nginx_raw "a Transfer-Encoding nginx does not know: 501" 501 "transfer encoding not implemented" \
    'POST /api/play HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: gzip\r\n\r\n'
nginx_json "nginx's error locations asked for: 404" 404 "not found" "$N/nginx-error/400"
nginx_json "plain HTTP to the HTTPS port: 400" 400 "a plain HTTP request to the HTTPS port" \
    "http://localhost:$P_tls/api/play/lobby"
nginx_json "TRACE: 405" 405 "method not allowed" -X TRACE "$N/api/play/lobby"
nginx_json "a request line over 8 KiB (HTTP/1.1): 414" 414 "request line too long (limit 8 KiB)" \
    --http1.1 "$N/api/play/$(head -c 9000 /dev/zero | tr '\0' a)"
{ printf x; head -c 65536 /dev/zero | tr '\0' ' '; } >"$TMP/65537"
nginx_json "a body of 64 KiB and a byte: 413 from nginx" 413 "request body too large (limit 65536)" \
    -X POST --data-binary "@$TMP/65537" "$N/api/play"
nginx_json "... sent chunked (HTTP/1.1)" 413 "request body too large (limit 65536)" \
    --http1.1 -H "Transfer-Encoding: chunked" -X POST --data-binary "@$TMP/65537" "$N/api/play"
head -c 65536 "$TMP/65537" >"$TMP/65536"
nginx_json "... one of 64 KiB reaches the server (its own 400: x and spaces are no JSON)" 400 "malformed JSON" \
    -X POST --data-binary "@$TMP/65536" "$N/api/play"
nginx_json "a server that takes the request and does not answer (this test's 1 s timeout): 504" 504 \
    "the server did not answer in time" "$N/pg-test/mute"
# a body that stops coming: nginx closes the connection when client_body_timeout (this test's
# 2 s) runs out, and sends nothing (its 408 is only in its log)
printf 'POST /api/play HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\n{"a"' |
    timeout 10 openssl s_client -quiet -connect "127.0.0.1:$P_tls" -servername localhost >"$TMP/raw" 2>/dev/null
check_eq "a body that stops coming: the connection closed with no answer (408 in nginx's log)" "0 1" \
    "$(wc -c <"$TMP/raw") $(grep -c '"POST /api/play HTTP/1.1" 408 0 ' "$TMP/nginx/logs/access.log")"
# the servers' own errors pass unchanged: 400, 403, 404, 405 (its Allow header)
nginx_json "a server's 400 through nginx" 400 "malformed JSON" -X POST --data-binary 'nope' "$N/api/play"
nginx_json "a server's 403 through nginx (Sec-Fetch-Site, checked by the servers)" 403 \
    "a request from another site's page is refused" -X POST --data-binary '{}' -H "Sec-Fetch-Site: cross-site" "$N/api/play"
nginx_json "a server's 404 through nginx" 404 "unknown game" "$N/api/play/nosuchgame"
nginx_json "a server's 405 through nginx" 405 "method not allowed" -D "$TMP/headers" -X PUT "$N/api/play/lobby"
check_that "... with its Allow header" grep -qi '^allow: GET' "$TMP/headers"
jar_req a POST "$N/api/play" '{"variant":"international","colour":"white","name":"Ann","clock":{"type":"realtime","base":3600,"increment":0}}' \
    -H "Origin: $N" -H "Sec-Fetch-Site: same-origin"
check_eq "a write from the site's own page passes (create 201)" 201 "$CODE"
G=$(j d.id)
jar_req b POST "$N/api/play/$G/join" '{"name":"Bob"}' -H "Origin: $N"
check_eq "the second player joins through nginx" "200 ongoing black" "$CODE $(j d.state) $(j d.you)"
# both first moves at once (a real-time game is aborted when a side's first move does not come
# within 30 s: PLAY_FIRST_MOVE_MS), through nginx; the clocks run from there, an hour each (on a
# loaded machine the checks below can take minutes of white's time)
jar_req a POST "$N/api/play/$G/move" '{"move":"32-28"}'
check_eq "white's first move through nginx" "200 1" "$CODE $(j d.history.length)"
jar_req b POST "$N/api/play/$G/move" '{"move":"19-23"}'
check_eq "black's first move through nginx" "200 2" "$CODE $(j d.history.length)"
# heard_within URL EXPR WANT SECONDS: GET URL until j EXPR is WANT, SECONDS at most; sets HEARD_MS
heard_within() {
    hw_t0=$(date +%s%N)
    while :; do
        jar_req - GET "$1"
        HEARD_MS=$((($(date +%s%N) - hw_t0) / 1000000))
        [ "$(j "$2")" = "$3" ] && return 0
        [ "$HEARD_MS" -ge $(($4 * 1000)) ] && return 1
        sleep 0.1
    done
}
for s in "$SA" "$SB"; do # the lobby is each server's copy: the join is heard, not read
    heard_within "$s/api/play/lobby" "d.live.some(e=>e.id==='$G')" true 10
    check_that "server $s lists the game as live (after $HEARD_MS ms; 10 s at most)" test "$(j "d.live.some(e=>e.id==='$G')")" = true
done

# 7 live streams at once over HTTP/2 (HTTP/1.1 gives a browser 6 connections to a site): the
# lobby still answers over the same connection (curl, one connection for all 8). curl cuts the
# streams after -m seconds; a loaded machine that has not answered all 8 by then is given 6 s,
# then 12
set --
for i in 1 2 3 4 5 6 7; do set -- "$@" -o /dev/null "$N/api/play/$G/events"; done
for m in 3 6 12; do
    curl -sk --http2 -m $m -w '%{http_version} %{num_connects} %{http_code}\n' --parallel --parallel-max 8 \
        "$@" -o /dev/null "$N/api/play/lobby" \
        >"$TMP/h2" 2>/dev/null
    H2=$(awk '{ n++; h2 += $1 == 2; c += $2; got += $3 == 200 } END { print n, h2, c, got }' "$TMP/h2")
    [ "$H2" = "8 8 1 8" ] && break
done
check_eq "nginx speaks HTTP/2: 8 requests, 7 of them live streams, on one connection (curl -m $m)" "8 8 1 8" "$H2"
# the board's games against the engine live in one server's --data: nginx sends them to one
jar_req - POST "$N/api/games" '{"variant":"international","human":"both","level":1}'
check_eq "a board game through nginx (201)" 201 "$CODE"
BG=$(j d.id)
n200=0
for i in 1 2 3 4; do
    jar_req - GET "$N/api/games/$BG"
    [ "$CODE" = 200 ] && n200=$((n200 + 1))
done
check_eq "... is found by the next 4 requests" 4 "$n200"

# ------------------------------------------------------------ the client's address behind nginx
# the servers take the client's address from nginx's X-Real-IP (--trust-proxy), so their limits by
# address hold behind it (issue 49): each client here has an address of its own in 127.0.0.0/8
# (curl --interface), nginx's $remote_addr. Each server counts in its own memory and nginx
# alternates between them, so a limit through nginx is up to twice a server's (docs/deploy.md).
# via IP WHO METHOD PATH BODY [CURL OPTION...]: jar_req through nginx from IP
via() {
    v_ip=$1
    shift
    v_who=$1 v_m=$2 v_p=$3 v_body=$4
    shift 4
    jar_req "$v_who" "$v_m" "$N$v_p" "$v_body" --interface "$v_ip" "$@"
}
GUESS='{"name":"Dora","password":"a stranger guesses"}'
RIGHT='{"name":"Dora","password":"correct horse battery"}'
via 127.0.0.5 dora POST /api/account/register "$RIGHT"
check_eq "Dora registers through nginx (from 127.0.0.5)" "201 Dora" "$CODE $(j d.name)"
n=0
while [ $n -lt 12 ]; do
    via 127.0.0.6 - POST /api/account/login "$GUESS" -D "$TMP/headers"
    n=$((n + 1))
    [ "$CODE" = 403 ] || break
done
check_that "a stranger's wrong passwords for Dora from 127.0.0.6: 403, then 429 after 5 on each server ($CODE at the ${n}th)" \
    test "$CODE" = 429 -a "$n" -ge 6 -a "$n" -le 11
check_eq "... saying why, with Retry-After" "too many failed logins for 'Dora': try again in N s 1" \
    "$(j d.error | sed 's/in [0-9]* s$/in N s/') $(grep -ci '^retry-after: [0-9]' "$TMP/headers")"
CODES=
for i in 1 2; do
    via 127.0.0.6 - POST /api/account/login "$GUESS" -H "X-Real-IP: 127.0.0.5"
    CODES="$CODES $CODE"
done
check_eq "... the stranger naming Dora's address in X-Real-IP through nginx: still 429 (nginx sets it)" \
    " 429 429" "$CODES"
CODES=
for i in 1 2; do
    via 127.0.0.5 dora POST /api/account/login "$RIGHT"
    CODES="$CODES $CODE"
done
check_eq "Dora logs in from her own address through nginx, on both servers: 200" " 200 200" "$CODES"
via 127.0.0.5 dora POST /api/account/login "$RIGHT" -H "X-Real-IP: 127.0.0.6"
check_eq "... also naming the stranger's address in X-Real-IP (nginx replaces it)" 200 "$CODE"
# one password hash at a time from an address: 4 logins at once from 4 addresses, two on each
# server (2 hashes at once each), are all taken (all from nginx's one address: 429 for some)
set --
for i in 11 12 13 14; do
    curl -sk -o /dev/null -w '%{http_code}\n' --interface "127.0.0.$i" --data-binary "$RIGHT" \
        "$N/api/account/login" >"$TMP/login.$i" &
    set -- "$@" $!
done
wait "$@"
check_eq "Dora logs in from 4 addresses at once through nginx: 4 times 200" "200 200 200 200" \
    "$(cat "$TMP/login.11" "$TMP/login.12" "$TMP/login.13" "$TMP/login.14" | tr '\n' ' ' | sed 's/ $//')"

# a flood of POST /api/play without a cookie (a new player token each time) from one address
# through nginx: stopped by the limit of an address (20 waiting games on each server), while
# another address still creates games; the flood's games are recorded (id, cookie jar, where) to
# be deleted after
: >"$TMP/flood.games"
n=0
while [ $n -lt 50 ]; do
    n=$((n + 1))
    via 127.0.0.7 "fl$n" POST /api/play '{"variant":"russian"}' -D "$TMP/headers"
    [ "$CODE" = 201 ] || break
    echo "$(printf '%s' "$BODY" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p') fl$n $N" >>"$TMP/flood.games"
done
made=$(wc -l <"$TMP/flood.games")
check_that "a cookie-less flood from 127.0.0.7 through nginx: 20 to 40 games (20 on each server), then 429 ($made made, then $CODE)" \
    test "$CODE" = 429 -a "$made" -ge 20 -a "$made" -le 40
check_eq "... saying why, with Retry-After" \
    "20 games of yours wait for an opponent: wait for one, or delete one (they expire 10 minutes after your page left them) 1" \
    "$(j d.error) $(grep -ci '^retry-after: [0-9]' "$TMP/headers")"
CODES=
for i in 1 2; do
    via 127.0.0.7 - POST /api/play '{"variant":"russian"}' -H "X-Real-IP: 10.9.9.$i"
    CODES="$CODES $CODE"
done
check_eq "... another X-Real-IP sent through nginx changes nothing: 429 on both servers" " 429 429" "$CODES"
via 127.0.0.9 fl-other POST /api/play '{"variant":"russian"}'
check_eq "... while another address (127.0.0.9) creates a game" 201 "$CODE"
echo "$(j d.id) fl-other $N" >>"$TMP/flood.games"
# straight to server a from 127.0.0.8, not the proxy: its X-Real-IP, another each time, is
# ignored, and the address is the peer's (20 waiting games on a, then 429)
n=0
while [ $n -lt 25 ]; do
    n=$((n + 1))
    jar_req "fd$n" POST "$SA/api/play" '{"variant":"russian"}' --interface 127.0.0.8 -H "X-Real-IP: 10.8.8.$n"
    [ "$CODE" = 201 ] || break
    echo "$(printf '%s' "$BODY" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p') fd$n $SA" >>"$TMP/flood.games"
done
check_eq "X-Real-IP from a peer that is not the proxy is ignored: 20 games from 127.0.0.8 on a, then 429" \
    "21 429" "$n $CODE"
jar_req - GET "$SA/api/play/lobby" "" -H "X-Real-IP: not an address"
check_eq "... even when it is no address (200)" 200 "$CODE"
# from the proxy's address (--trust-proxy) X-Real-IP is required, one IPv4 or IPv6 address: else
# 400, nothing done; given, it is the client's address
jar_req - GET "$SA/api/play/lobby"
OPEN=$(j d.open_total)
jar_req - POST "$SA/api/play" '{"variant":"russian","open":true}' --interface "$PROXY"
check_eq "a request from the proxy without X-Real-IP: 400, saying so" \
    "400 no X-Real-IP header from the proxy $PROXY (--trust-proxy): it must name the client's address" \
    "$CODE $(j d.error)"
jar_req - GET "$SA/api/play/lobby"
check_eq "... no game created" "$OPEN" "$(j d.open_total)"
jar_req - POST "$SA/api/play" '{"variant":"russian","open":true}' --interface "$PROXY" -H "X-Real-IP: 10.1.2"
check_eq "... with one that is not an address: 400" \
    "400 X-Real-IP '10.1.2' from the proxy $PROXY is not an IPv4 or IPv6 address" "$CODE $(j d.error)"
jar_req - GET "$SA/api/play/lobby" "" --interface "$PROXY" -H "X-Real-IP: 10.1.2.3" -H "X-Real-IP: 10.1.2.4"
check_eq "... with two: 400" "400 X-Real-IP 2 times from the proxy $PROXY: one address only" "$CODE $(j d.error)"
jar_req - GET "$SA/api/play/lobby"
check_eq "... no game created" "$OPEN" "$(j d.open_total)"
jar_req - POST "$SA/api/play" '{"variant":"russian"}' --interface "$PROXY" -H "X-Real-IP: 127.0.0.8"
check_eq "the proxy naming 127.0.0.8: its limit (429)" 429 "$CODE"
jar_req fd-proxy POST "$SA/api/play" '{"variant":"russian"}' --interface "$PROXY" -H "X-Real-IP: ::ffff:10.7.7.7"
check_eq "... naming another address (IPv6, IPv4-mapped): 201" 201 "$CODE"
echo "$(j d.id) fd-proxy $SA" >>"$TMP/flood.games"
deleted=0
while read -r id jar base; do # each by its creator's cookie, sent where it was set
    jar_req "$jar" DELETE "$base/api/play/$id"
    [ "$CODE" = 200 ] && deleted=$((deleted + 1))
done <"$TMP/flood.games"
check_eq "the games of these floods deleted" "$(wc -l <"$TMP/flood.games")" "$deleted"

# ------------------------------------------------------------ a move reaches the other server
# moves posted to server a, the spectator's stream on server b; then the other way round; then
# both through nginx. Each move is seen by the stream within 100 ms of its answer.
WC=$(cookie a)
BC=$(cookie b)
timing() { # timing NAME WATCH POST MOVE...: the moves, their times checked
    name=$1 watch=$2 post=$3
    shift 3
    if node "$HERE/pg_stream.mjs" "$watch" "$post" "$WC" "$BC" "$@" >"$TMP/timing" 2>"$TMP/timing.err"; then
        ok
    else
        bad "$name: $(cat "$TMP/timing.err")"
        return
    fi
    worst=$(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(Math.max(...r.moves.map(m=>m.seen_ms)))' "$TMP/timing")
    echo "pg: $name: $(node -e 'const r=JSON.parse(require("fs").readFileSync(process.argv[1],"utf8"));console.log(r.moves.map(m=>m.move+" "+m.answered_ms+"/"+m.seen_ms+" ms").join(", "))' "$TMP/timing")"
    check_that "$name: every move on the stream within 100 ms of its answer (worst $worst ms)" \
        awk "BEGIN { exit !($worst < 100) }"
}
timing "moves to a, stream on b" "$SB/api/play/$G/events" "$SA/api/play/$G/move" \
    w:28x19 b:14x23 w:37-32 b:10-14 w:41-37 b:5-10
timing "moves to b, stream on a" "$SA/api/play/$G/events" "$SB/api/play/$G/move" \
    w:34-29 b:23x34 w:40x29 b:20-24

# headers too large: nginx answers them itself, in JSON (docs/deploy/nginx.conf), and the move
# they came with is not made (the next one through nginx, below, is that very move)
BIG=$(head -c 40960 /dev/zero | tr '\0' a)
CODE=$(curl -sk --http1.1 -b "$TMP/a.jar" -o "$TMP/body" -w '%{http_code} %{content_type}' \
    -H "X-Big: $BIG" --data-binary '{"move":"29x20"}' "$N/api/play/$G/move")
BODY=$(cat "$TMP/body")
check_eq "40 KiB of headers through nginx (one line, a move): 431 in JSON" \
    "431 application/json request headers too large (limit 16 KiB, 8 KiB a line)" \
    "$CODE $(j d.error)"
set --
for i in 0 1 2 3 4 5 6 7 8 9; do set -- "$@" -H "X-Big$i: $(printf '%s' "$BIG" | head -c 4096)"; done
jar_req - GET "$N/api/play/$G" "" --http1.1 "$@"
check_eq "... and in 10 lines of 4 KiB" "431 request headers too large (limit 16 KiB, 8 KiB a line)" \
    "$CODE $(j d.error)"
jar_req - GET "$N/api/play/$G" "" --http2 -H "X-Big: $BIG"
check_eq "... over HTTP/2: nginx closes the connection, no answer (its GOAWAY)" 000 "$CODE"
# 1,400 headers of 11 bytes: 15,400 bytes for nginx (names and values), within its limit; for the
# server behind, over libmicrohttpd's memory for a connection (each header takes its bookkeeping
# there too): its own HTML 431, answered by nginx in its JSON instead
set --
i=1000
while [ $i -lt 2400 ]; do set -- "$@" -H "x-h$i: aaaa"; i=$((i + 1)); done
jar_req - GET "$N/api/play/$G" "" --http2 "$@"
check_eq "headers within nginx's limit, over the server's: libmicrohttpd's 431, in nginx's JSON" \
    "431 request headers too large (limit 16 KiB, 8 KiB a line)" "$CODE $(j d.error)"
jar_req - GET "$N/api/play/$G"
check_eq "... the game as it was (12 plies, white to move)" "200 12 white" \
    "$CODE $(j d.history.length) $(j d.side)"
timing "moves and stream through nginx" "$N/api/play/$G/events" "$N/api/play/$G/move" \
    w:29x20 b:15x24 w:31-26 b:17-21

HIST='["32-28","19-23","28x19","14x23","37-32","10-14","41-37","5-10","34-29","23x34","40x29","20-24","29x20","15x24","31-26","17-21"]'
jar_req - GET "$SA/api/play/$G"
A_STATE=$BODY
check_eq "server a has the whole history" "$HIST" "$(j d.history)"
jar_req - GET "$SB/api/play/$G"
check_eq "server b has the same" "$HIST" "$(j d.history)"
B_STATE=$BODY
BODY=$A_STATE
A_CLOCKS="$(j d.running) $(j d.black.ms)"
BODY=$B_STATE
check_eq "... and the same clocks (black's, stopped: white to move)" "$A_CLOCKS" "$(j d.running) $(j d.black.ms)"
BMS=$(j d.black.ms)
check_that "black's clock was charged for its moves ($BMS ms of 3600000)" \
    awk "BEGIN { exit !($BMS < 3600000 && $BMS > 3550000) }"
# the servers' 409 and 429 (with its Retry-After) pass through nginx unchanged
nginx_json "black moves on white's turn through nginx: the server's 409" 409 "it is not your turn" \
    -b "$TMP/b.jar" -X POST --data-binary '{"move":"17-22"}' "$N/api/play/$G/move"
i=0
while [ $i -lt 20 ]; do
    i=$((i + 1))
    CODE=$(curl -sk -b "$TMP/b.jar" -o "$TMP/body" -D "$TMP/headers" -w '%{http_code} %{content_type}' \
        -X POST --data-binary "{\"text\":\"message $i\"}" "$N/api/play/$G/chat")
    [ "$CODE" = "200 application/json" ] || break
done
BODY=$(cat "$TMP/body")
check_eq "a seat's sixth chat message at once through nginx: the server's 429" \
    "429 application/json 5 messages in 10 s: wait a little" "$CODE $(j d.error)"
check_that "... with its Retry-After" grep -qi '^retry-after: [0-9]' "$TMP/headers"

# ------------------------------------------------------------ server a killed mid-game
kill -9 "$A"
wait "$A" 2>/dev/null
A=
jar_req - GET "$N/api/play/$G"
check_eq "after SIGKILL of a, nginx still answers with the whole history" "200 $HIST" "$CODE $(j d.history)"
check_eq "... and black's clock as it was" "$BMS" "$(j d.black.ms)"
ok_moves=0
for m in w:26x17 b:12x21 w:46-41 b:7-12; do
    who=$(echo "$m" | cut -c1 | tr wb ab)
    jar_req "$who" POST "$N/api/play/$G/move" "{\"move\":\"${m#*:}\"}"
    [ "$CODE" = 200 ] && ok_moves=$((ok_moves + 1))
done
check_eq "the game goes on through nginx (4 moves answered 200)" 4 "$ok_moves"
HIST2=$(printf '%s' "$HIST" | sed 's/]$/,"26x17","12x21","46-41","7-12"]/')
check_eq "... with all 20 plies" "$HIST2" "$(j d.history)"
start a "$P_a"
jar_req - GET "$SA/api/play/$G"
check_eq "server a back: the same game from the store" "$HIST2 ongoing" "$(j d.history) $(j d.state)"
check_that "... its restart gave back no downtime (b kept the clocks)" test "$(j d.outage_ms)" = 0 -o -z "$(j d.outage_ms)"
timing "after the restart: moves to b, stream on a" "$SA/api/play/$G/events" "$SB/api/play/$G/move" \
    w:33-28 b:1-7 w:39-33

# ------------------------------------------------------------ a flag falls once
# a one-second game: both servers' clock threads watch it; one decides, once (the ratings are
# written once: a second decision would count two games)
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":1,"increment":0}}'
F=$(j d.id)
jar_req d POST "$SB/api/play/$F/join" '{}'
jar_req c POST "$SA/api/play/$F/move" '{"move":"c3-d4"}'
jar_req d POST "$SB/api/play/$F/move" '{"move":"f6-g5"}'
check_eq "both first moves made" "200 2" "$CODE $(j d.history.length)"
# white's second has 1 s: once both servers show the game over (10 s at most each), they are asked
heard_within "$SA/api/play/$F" d.state over 10
heard_within "$SB/api/play/$F" d.state over 10
jar_req - GET "$SA/api/play/$F"
RES_A="$(j d.state) $(j d.end) $(j d.result) $(j d.white.ms)"
jar_req - GET "$SB/api/play/$F"
check_eq "white's flag fell: the game is lost on time, on both servers" "over time 0-1 0" \
    "$(j d.state) $(j d.end) $(j d.result) $(j d.white.ms)"
check_eq "... server a says the same" "$RES_A" "$(j d.state) $(j d.end) $(j d.result) $(j d.white.ms)"
check_eq "the ratings were written once (one game each)" "1|1" \
    "$(pg_psql games "SELECT string_agg(games::text, '|') FROM ratings WHERE variant = 'russian'")"
check_that "no server failed to save" sh -c "! grep -q 'cannot save' '$TMP/a.err' '$TMP/b.err'"
check_eq "its result was written once, a row a seat" 2 \
    "$(pg_psql games "SELECT count(*) FROM results WHERE game = '$F'")"
# a leaderboard on the shared store (the rule of docs/api.md, "Players"): ratings written into the
# database, each (rating, rd, volatility, days since its latest rated game); both servers list
# only Ann and Bea, the established and active ones, with their deviations grown by the idle days
# (computed here with awk); Cid's grows over 110 (provisional), Dan has not played for 91 days
NOW=$(($(date +%s) * 1000))
lb_row() { echo "('@$1', 'frisian', $2, $3, $4, 20, $((NOW - $5 * 86400000 - 3600000)))"; }
grown() { awk -v rd="$1" -v vol="$2" -v d="$3" 'BEGIN { s = 173.7178; printf "%.0f", s * sqrt((rd / s) ^ 2 + d * vol ^ 2) }'; }
pg_psql games "INSERT INTO ratings VALUES $(lb_row Ann 1700 60 0.06 1), $(lb_row Bea 1800 105 0.06 2),
    $(lb_row Cid 1900 105 0.06 10), $(lb_row Dan 2000 50 0.01 91)" >/dev/null
for s in "$SA" "$SB"; do
    jar_req - GET "$s/api/leaderboard/frisian"
    check_eq "the Frisian leaderboard on $s: Bea and Ann only" \
        "200 2 1 Bea 1800 $(grown 105 0.06 2),2 Ann 1700 $(grown 60 0.06 1)" \
        "$CODE $(j d.total) $(j "d.list.map(e=>[e.rank,e.name,e.rating,e.rd].join(' ')).join()")"
done
jar_req - GET "$SA/api/players?game=$F"
FW=$(j d.white.id)
jar_req - GET "$SB/api/players/~$FW"
check_eq "the loser's profile, read through the other server: one game, lost on time" \
    "200 1 0 1 loss time russian $F" \
    "$CODE $(j d.games) $(j d.wins) $(j d.losses) $(j d.list[0].result) $(j d.list[0].end) $(j d.list[0].variant) $(j d.list[0].id)"

# ------------------------------------------------------------ each server trusts its copy
# a server's copy of a game is trusted between the announcements of the other's changes: a move
# accepted on it and written asks the store nothing more (PostgreSQL's log of statements, on for
# the moves: no look-up of the game's revision, "SELECT rev FROM games"); a copy behind the store
# (the database changed with no announcement, as when an announcement is a few milliseconds from
# being heard) that refuses an action, or whose write another server's change beat, asks the store
# once and judges the action again on the game read back
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white"}'
T=$(j d.id)
jar_req d POST "$SA/api/play/$T/join" '{}'
pg_psql games "ALTER SYSTEM SET log_statement = 'all'" >/dev/null
pg_psql games "SELECT pg_reload_conf()" >/dev/null
sleep 0.5
LOG0=$(wc -c <"$PGDIR/server.log")
n200=0
for i in 1 2 3 4 5 6; do
    who=$([ $((i % 2)) = 1 ] && echo c || echo d)
    jar_req "$who" POST "$SA/api/play/$T/move" "{\"move\":\"$(j d.moves[0].text)\"}"
    [ "$CODE" = 200 ] && n200=$((n200 + 1))
done
jar_req - GET "$SA/api/play/$T"
sleep 0.5
pg_psql games "ALTER SYSTEM RESET log_statement" >/dev/null
pg_psql games "SELECT pg_reload_conf()" >/dev/null
tail -c +$((LOG0 + 1)) "$PGDIR/server.log" >"$TMP/statements"
check_eq "6 moves on a, each by the side to move: answered 200" "6 6" "$n200 $(j d.history.length)"
check_that "... written (PostgreSQL logged $(grep -c 'WITH r AS (UPDATE games' "$TMP/statements") updates of the game)" \
    test "$(grep -c 'WITH r AS (UPDATE games' "$TMP/statements")" -ge 6
check_eq "... and no look-up of the game's revision" 0 "$(grep -c 'SELECT rev FROM games WHERE id' "$TMP/statements")"
# the draw offer of white written into the database unannounced: b's copy has none
heard_within "$SB/api/play/$T" d.history.length 6 10
check_eq "b has heard the 6 moves" 6 "$(j d.history.length)"
pg_psql games "UPDATE games SET draw_offer = 0, rev = rev + 1 WHERE id = '$T'" >/dev/null
jar_req d POST "$SB/api/play/$T/draw" '{"action":"accept"}'
check_eq "a copy behind the store refuses black's accepting white's draw offer, then reads the game again and accepts it" \
    "200 over agreement" "$CODE $(j d.state) $(j d.end)"
# a second game: its revision raised unannounced, the move accepted on b's copy is beaten (its
# write refused), read again and made
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white"}'
T2=$(j d.id)
jar_req d POST "$SA/api/play/$T2/join" '{}'
heard_within "$SB/api/play/$T2" d.state ongoing 10
check_eq "b has heard the join" ongoing "$(j d.state)"
pg_psql games "UPDATE games SET rev = rev + 1 WHERE id = '$T2'" >/dev/null
jar_req c POST "$SB/api/play/$T2/move" "{\"move\":\"$(j d.moves[0].text)\"}"
check_eq "a copy whose write another change beat: the move made on the game read again" "200 1" \
    "$CODE $(j d.history.length)"
jar_req d POST "$SB/api/play/$T2/move" '{"move":"a1-b2"}'
check_eq "an action refused on a copy that is not behind: refused as before (400)" 400 "$CODE"
# as nginx sends a player's requests: a move seen on a's stream answered at once through b, every
# other move (the moves are the first legal one of the stream's last state)
WC0=$WC BC0=$BC
WC=$(cookie c) BC=$(cookie d)
timing "moves through a and b in turn, each sent once a's stream shows the last" \
    "$SA/api/play/$T2/events" "$SA/api/play/$T2/move,$SB/api/play/$T2/move" "b:*" "w:*" "b:*" "w:*" "b:*" "w:*"
WC=$WC0 BC=$BC0

# ------------------------------------------------------------ a page open on one server keeps a game
# two games nobody joined, as if made 11 minutes ago; server b restarted reads them (a game nobody
# came to goes PLAY_GRACE_MS, 10 s, after a restart): the one whose creator's page is open on
# server a stays, the other is deleted, on both servers
# three games in play besides, joined newest first (so their rows were last written in the order
# opposite to their making)
LIVE=
for s in "$SA" "$SB" "$SA"; do
    jar_req f POST "$s/api/play" '{"variant":"russian"}'
    LIVE="$(j d.id) $LIVE"
done
for id in $LIVE; do
    jar_req h POST "$SB/api/play/$id/join" '{}'
done
check_eq "three more games in play" "200 ongoing" "$CODE $(j d.state)"
jar_req e POST "$SA/api/play" '{"variant":"russian"}'
W1=$(j d.id)
jar_req e POST "$SA/api/play" '{"variant":"russian"}'
W2=$(j d.id)
curl -s -N -m 30 -b "$TMP/e.jar" "$SA/api/play/$W1/events" >/dev/null &
SSE=$!
# server a marks the games whose pages are open every second (their `seen`): once it has marked
# the first (10 s at most)
i=0
until [ "$(pg_psql games "SELECT seen > 0 FROM games WHERE id = '$W1'")" = t ] || [ $i -ge 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
kill "$B"
wait "$B" 2>/dev/null
pg_psql games "UPDATE games SET created = created - 660000 WHERE id IN ('$W1', '$W2')"
start b "$P_b"
sleep 10
heard_within "$SA/api/play/$W2" d.error "unknown game" 20 # b's grace over: the game gone
jar_req - GET "$SB/api/play/$W1"
check_eq "the game whose page is open on a stays on b" "200 waiting" "$CODE $(j d.state)"
jar_req - GET "$SA/api/play/$W2"
check_eq "the game nobody came back to is gone from a too" 404 "$CODE"
# the games read at a start are kept in the order they were made (the lobby lists the newest first)
jar_req - GET "$SB/api/play/lobby?per=100"
check_eq "after its restart b lists the games in play newest first (by creation, then id)" \
    "$(pg_psql games "SELECT string_agg(id, ',' ORDER BY created DESC, id DESC) FROM games WHERE state = 1")" \
    "$(j "d.live.map(e=>e.id).join()")"
check_that "... four of them at least" test "$(j d.live.length)" -ge 4
kill "$SSE" 2>/dev/null
wait "$SSE" 2>/dev/null

# ------------------------------------------------------------ PostgreSQL restarted mid-game
# the cluster restarted (every server's connections cut): the next requests are answered at once
# (curl -m 5: a hang answers 000), the game goes on on both servers, and a move made on one reaches
# a stream on the other (the listening connection made again); while the cluster is down a move is
# refused with 503 and the game as it was stays readable
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":3600,"increment":0}}'
R=$(j d.id)
jar_req d POST "$SB/api/play/$R/join" '{}'
jar_req c POST "$SA/api/play/$R/move" '{"move":"c3-d4"}'
check_eq "a game before the restart (its first move made)" "200 1" "$CODE $(j d.history.length)"
pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -m fast -w -t 30 restart >/dev/null 2>&1
check_eq "the cluster restarted" 0 "$?"
jar_req d POST "$SB/api/play/$R/move" '{"move":"f6-g5"}' -m 5
check_eq "after the restart, a move on b" "200 2" "$CODE $(j d.history.length)"
jar_req c POST "$SA/api/play/$R/move" '{"move":"a3-b4"}' -m 5
check_eq "... and the answer on a" "200 3" "$CODE $(j d.history.length)"
sleep 0.5
if node "$HERE/pg_stream.mjs" "$SA/api/play/$R/events" "$SB/api/play/$R/move" "$(cookie c)" "$(cookie d)" b:g5-h4 >"$TMP/timing" 2>"$TMP/timing.err"; then
    ok
else
    bad "after the restart, a move on b reaches a stream on a: $(cat "$TMP/timing.err")"
fi
pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -m fast -w stop >/dev/null 2>&1
jar_req c POST "$SA/api/play/$R/move" '{"move":"d2-c3"}' -m 5
check_eq "the cluster down: a move is refused as unavailable" "503" "$CODE"
check_eq "... saying why" "the games' database does not answer: try again shortly" "$(j d.error)"
nginx_json "... the same through nginx (the server's 503 passed on)" 503 \
    "the games' database does not answer: try again shortly" -m 5 -D "$TMP/headers" -b "$TMP/c.jar" \
    -X POST --data-binary '{"move":"d2-c3"}' "$N/api/play/$R/move"
check_that "... with its Retry-After: 1" grep -qi '^retry-after: 1' "$TMP/headers"
jar_req - GET "$SA/api/play/$R" "" -m 5
check_eq "... the game as it was is read (4 plies)" "200 4" "$CODE $(j d.history.length)"
jar_req - GET "$SA/api/play/lobby" "" -m 5
OPEN_BEFORE=$(j d.open.length)
jar_req e POST "$SA/api/play" '{"variant":"russian","open":true}' -m 5
check_eq "... a new game is refused as unavailable" "503" "$CODE"
jar_req - GET "$SA/api/play/lobby" "" -m 5
check_eq "... and is not left in the lobby" "200 $OPEN_BEFORE" "$CODE $(j d.open.length)"
pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 30 \
    -o "-c listen_addresses='' -c unix_socket_directories='$PGSOCK'" start >/dev/null 2>&1
jar_req c POST "$SA/api/play/$R/move" '{"move":"d2-c3"}' -m 5
check_eq "the cluster back: the move is made" "200 5" "$CODE $(j d.history.length)"
check_that "both servers are still running" kill -0 "$A" "$B"

# ------------------------------------------------------------ many games across the two servers
# sitebench's short form: 20 games (creators on a, joiners on b: every move crosses through
# NOTIFY) and 4 spectators, moves 200-400 ms apart, 4 s counted; its figures printed, the
# latency not asserted (a shared machine)
if [ -n "$SITEBENCH" ]; then
    timeout 60 "$SITEBENCH" games "$P_a,$P_b" 20 4 4 200 400 >"$TMP/site" 2>"$TMP/site.err"
    check_eq "sitebench on the two servers: exit 0" 0 "$?"
    sed -n 1p "$TMP/site"
    check_that "... every stream (44) had its first state, no error" \
        grep -q '^result: first 44 late [0-9]* errors 0 p99 ' "$TMP/site"
    moves=$(sed -n 's/.* moves \([0-9]*\) (.*/\1/p' "$TMP/site")
    p99=$(sed -n 's/^result: .* p99 \([0-9.]*\) .*/\1/p' "$TMP/site")
    check_that "... at least 40 moves (${moves:-none}), shown on the other server's streams (p99 ${p99:-none} ms)" \
        awk "BEGIN { exit !(${moves:-0} >= 40 && ${p99:-0} > 0) }"
else
    skip "sitebench on the two servers (no --sitebench)"
fi

# ------------------------------------------------------------ a group commit that fails
# a move is committed at once and answered once a flush of the server's sync connection has made
# it durable (pg_sync.h). That flush held (a lock on `flushes`) and its connection cut meanwhile:
# the move waits unanswered, then the server connects again, finds the change in the database
# (the mark written with it), flushes, answers 200 and the other server hears it
activity() { # WHERE: until a session of pg_stat_activity matches WHERE (10 s at most)
    i=0
    until [ "$(pg_psql games "SELECT count(*) FROM pg_stat_activity WHERE $1")" -ge 1 ] ||
        [ $i -ge 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
}
# lock_flushes: `flushes` locked by a session of its own (application_name locker) until
# unlock_flushes; returns once the lock is held
lock_flushes() {
    PGAPPNAME=locker pg_psql games "BEGIN; LOCK TABLE flushes IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(120); COMMIT" \
        >/dev/null 2>&1 &
    LOCKER=$!
    activity "application_name = 'locker' AND wait_event = 'PgSleep'"
}
unlock_flushes() {
    pg_psql games "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'locker'" >/dev/null
    wait "$LOCKER"
}
# sync_cut SECONDS SQL: `flushes` locked; a move sent to b (its HTTP status into b.move); once b's
# flush of it waits for the lock, SQL run and the servers' sync connections cut; the lock let go
# SECONDS after it was taken
sync_cut() {
    sc_t0=$(date +%s%N)
    lock_flushes
    curl -s -o /dev/null -w '%{http_code}' -b "$TMP/d.jar" -X POST --data-binary "{\"move\":\"$MV\"}" \
        -m 30 "$SB/api/play/$R/move" >"$TMP/b.move" 2>/dev/null &
    MOVER=$!
    activity "application_name = 'condraughts sync' AND wait_event_type = 'Lock'"
    [ -n "$2" ] && pg_psql games "$2" >/dev/null
    pg_psql games "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'condraughts sync'" >/dev/null
    while [ $((($(date +%s%N) - sc_t0) / 1000000)) -lt $(($1 * 1000)) ]; do sleep 0.1; done
    unlock_flushes
    wait "$MOVER"
}
jar_req - GET "$SB/api/play/$R"
MV=$(j d.moves[0].text) PLIES=$(j d.history.length)
t0=$(date +%s%N)
sync_cut 2 ""
jar_req - GET "$SB/api/play/$R"
check_eq "the flush cut: the move waited for the database's lock, then was made on b (200)" \
    "200 $((PLIES + 1))" "$(cat "$TMP/b.move") $(j d.history.length)"
check_that "... answered only after the lock ($((($(date +%s%N) - t0) / 1000000)) ms in all)" \
    test $((($(date +%s%N) - t0) / 1000000)) -ge 2000
check_that "... b read its change back and went on" grep -q 'holds them all: going on' "$TMP/b.err"
sleep 0.5
jar_req - GET "$SA/api/play/$R"
check_eq "... a heard it" "$((PLIES + 1))" "$(j d.history.length)"
check_that "... both servers are still running" kill -0 "$A" "$B"

# the same, but the change is not found as written (its mark changed, as when the database crashed
# before it reached its disk): b does not answer the move (no 200), stops with status 70 saying
# why, and started again reads the game as the database holds it
jar_req - GET "$SA/api/play/$R"
jar_req c POST "$SA/api/play/$R/move" "{\"move\":\"$(j d.moves[0].text)\"}"
check_eq "white moves on a" 200 "$CODE"
MV=$(j d.moves[0].text) PLIES=$(j d.history.length)
sync_cut 2 "UPDATE games SET mark = 0 WHERE id = '$R'"
i=0
while kill -0 "$B" 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
status=running
kill -0 "$B" 2>/dev/null || { wait "$B" 2>/dev/null; status=$?; }
check_eq "a change the database did not keep: b stops with status 70" 70 "$status"
check_that "... saying why" grep -q 'lost changes before they reached its disk' "$TMP/b.err"
check_eq "... the move not answered (no HTTP status)" 000 "$(cat "$TMP/b.move")"
# a b that did not stop (the check above failed) is stopped here, so it cannot hold its port
kill -0 "$B" 2>/dev/null && { kill "$B"; wait "$B" 2>/dev/null; }
B=
start b "$P_b"
jar_req - GET "$SB/api/play/$R"
B_PLIES=$(j d.history.length)
jar_req - GET "$SA/api/play/$R"
check_eq "... b started again shows the game as a does, as the database holds it" \
    "$B_PLIES $(pg_psql games "SELECT count(*) FROM moves WHERE game = '$R'")" "$(j d.history.length) $B_PLIES"

# ------------------------------------------------------------ a game deleted behind a copy's back
# a game's rows deleted in the database unannounced (as when one server deletes a game and the
# other acts on it before it hears so): the action on the other copy is refused as on a deleted
# game (404), the copy dropped, and the game never written back (store_save inserts only a new
# game's row)
count_rows() { # ID: its rows in games, moves, chat and results
    pg_psql games "SELECT (SELECT count(*) FROM games WHERE id = '$1') || ' ' || (SELECT count(*) FROM moves WHERE game = '$1') || ' ' || (SELECT count(*) FROM chat WHERE game = '$1') || ' ' || (SELECT count(*) FROM results WHERE game = '$1')"
}
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white"}'
X=$(j d.id)
jar_req d POST "$SA/api/play/$X/join" '{}'
jar_req c POST "$SA/api/play/$X/move" '{"move":"c3-d4"}'
heard_within "$SB/api/play/$X" d.history.length 1 10
check_eq "a game with a move, heard by b" "200 1" "$CODE $(j d.history.length)"
pg_psql games "DELETE FROM moves WHERE game = '$X'; DELETE FROM games WHERE id = '$X'" >/dev/null
jar_req d POST "$SB/api/play/$X/move" '{"move":"f6-g5"}'
check_eq "its rows deleted unannounced: a move on b's copy is answered as on a deleted game" \
    "404 unknown game" "$CODE $(j d.error)"
check_eq "... the game not written back (no row of it, its move's, its chat's or its result's)" "0 0 0 0" "$(count_rows "$X")"
jar_req - GET "$SB/api/play/$X"
check_eq "... b's copy dropped" 404 "$CODE"
jar_req c POST "$SA/api/play/$X/chat" '{"text":"still here?"}'
check_eq "a chat message on a's copy of it: 404 too" "404 unknown game" "$CODE $(j d.error)"
check_eq "... nothing written back" "0 0 0 0" "$(count_rows "$X")"
jar_req - GET "$SA/api/play/$X"
check_eq "... a's copy dropped" 404 "$CODE"
# the same for a flag that falls on both servers' copies (their clock threads' writes): a
# two-second game, its rows deleted while it is still in play
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":2,"increment":0}}'
X=$(j d.id)
jar_req d POST "$SB/api/play/$X/join" '{}'
jar_req c POST "$SA/api/play/$X/move" '{"move":"c3-d4"}'
jar_req d POST "$SB/api/play/$X/move" '{"move":"f6-g5"}'
check_eq "a two-second game, both first moves made" "200 2" "$CODE $(j d.history.length)"
STATE=$(pg_psql games "WITH g AS (DELETE FROM games WHERE id = '$X' RETURNING state), m AS (DELETE FROM moves WHERE game = '$X') SELECT state FROM g")
if [ "$STATE" = 1 ]; then
    sleep 2.5
    check_eq "its rows deleted unannounced in play, white's flag falls on both copies: not written back" "0 0 0 0" "$(count_rows "$X")"
    jar_req - GET "$SA/api/play/$X"
    A_CODE=$CODE
    jar_req - GET "$SB/api/play/$X"
    check_eq "... both copies dropped" "404 404" "$A_CODE $CODE"
else
    skip "a flag falling on a game deleted unannounced (the flag fell before the rows were deleted: a slow machine)"
fi

# ------------------------------------------------------------ a deletion over the game's revision
# a waiting game joined on b while a deletes it, the join committed between a's look at the game
# and its deletion (the game's row held locked meanwhile, so that b's join is written first and
# a's deletion waits behind it): a deletes only at the revision it judged, so it reads the game
# back and judges again: in progress now, 409, and the joined game is kept (main's server gave the
# join a 200 and then deleted the game under it)
waiting() { activity "wait_event_type = 'Lock' AND query LIKE '$1'"; } # a statement like $1 waits for a lock
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white"}'
W=$(j d.id)
heard_within "$SB/api/play/$W" d.state waiting 10
check_eq "a waiting game, heard by b" "200 waiting" "$CODE $(j d.state)"
PGAPPNAME=holder pg_psql games "BEGIN; SELECT 1 FROM games WHERE id = '$W' FOR UPDATE; SELECT pg_sleep(20); COMMIT" >/dev/null 2>&1 &
HOLDER=$!
activity "application_name = 'holder' AND wait_event = 'PgSleep'" # the holder has the row
curl -s -o "$TMP/join.body" -w '%{http_code}' -b "$TMP/d.jar" -c "$TMP/d.jar" -X POST --data-binary '{}' \
    -m 30 "$SB/api/play/$W/join" >"$TMP/join.code" 2>/dev/null &
JOINER=$!
waiting "%UPDATE games SET%"
curl -s -o "$TMP/del.body" -w '%{http_code}' -b "$TMP/c.jar" -c "$TMP/c.jar" -X DELETE \
    -m 30 "$SA/api/play/$W" >"$TMP/del.code" 2>/dev/null &
DELETER=$!
waiting "DELETE FROM %"
pg_psql games "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'holder'" >/dev/null
wait "$HOLDER"
wait "$JOINER"
wait "$DELETER"
check_eq "b's join, written while a's deletion waited: 200" 200 "$(cat "$TMP/join.code")"
BODY=$(cat "$TMP/del.body")
check_eq "... a's deletion, judged again on the joined game: 409, in progress" \
    "409 the game is in progress (resign or abort it first)" "$(cat "$TMP/del.code") $(j d.error)"
check_eq "... the game kept, in progress (its row; state 1)" "1 1" \
    "$(pg_psql games "SELECT count(*) FROM games WHERE id = '$W'") $(pg_psql games "SELECT state FROM games WHERE id = '$W'")"
jar_req - GET "$SA/api/play/$W"
check_eq "... a's copy read back: in progress" "200 ongoing" "$CODE $(j d.state)"
jar_req c POST "$SA/api/play/$W/abort" '{}'
check_eq "... aborted (no move yet)" 200 "$CODE"
jar_req c DELETE "$SA/api/play/$W"
check_eq "... then deleted: 200, no row left" "200 0 0 0 0" "$CODE $(count_rows "$W")"

# ------------------------------------------------------------ a change its server did not live to announce
# b killed between a move's commit and its flush (the flush held by a lock on `flushes`, its
# connection cut after the kill, so no NOTIFY is ever sent): a's sweep (play.c, every 2 s) finds
# the game's revision ahead of its copy at two sweeps in a row and reads it again, within 6 s
jar_req c POST "$SA/api/play" '{"variant":"russian","colour":"white"}'
K=$(j d.id)
jar_req d POST "$SA/api/play/$K/join" '{}'
heard_within "$SB/api/play/$K" d.state ongoing 10
check_eq "a game b has heard" ongoing "$(j d.state)"
MV=$(j d.moves[0].text)
lock_flushes
curl -s -o /dev/null -b "$TMP/c.jar" -X POST --data-binary "{\"move\":\"$MV\"}" -m 30 "$SB/api/play/$K/move" 2>/dev/null &
MOVER=$!
activity "application_name = 'condraughts sync' AND wait_event_type = 'Lock'"
i=0
until [ "$(pg_psql games "SELECT count(*) FROM moves WHERE game = '$K'")" = 1 ] || [ $i -ge 100 ]; do
    sleep 0.1
    i=$((i + 1))
done
t0=$(date +%s%N)
kill -9 "$B"
wait "$B" 2>/dev/null
B=
pg_psql games "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'condraughts sync' AND wait_event_type = 'Lock'" >/dev/null
unlock_flushes
wait "$MOVER"
check_eq "b killed with its move committed and not announced (1 move in the database)" 1 \
    "$(pg_psql games "SELECT count(*) FROM moves WHERE game = '$K'")"
i=0
while [ $i -lt 100 ]; do
    jar_req - GET "$SA/api/play/$K"
    [ "$(j d.history.length)" = 1 ] && break
    sleep 0.1
    i=$((i + 1))
done
ms=$((($(date +%s%N) - t0) / 1000000))
echo "pg: a read b's unannounced move again after $ms ms"
check_that "... a reads it again by itself (after $ms ms; at most 6 s)" test "$(j d.history.length)" = 1 -a "$ms" -le 6000
jar_req d POST "$SA/api/play/$K/move" "{\"move\":\"$(j d.moves[0].text)\"}"
check_eq "... and the game goes on there" "200 2" "$CODE $(j d.history.length)"

# ------------------------------------------------------------ no server at all
# both servers down (b killed above, a now): nginx answers 502 itself, in JSON, for either upstream
kill "$A"
wait "$A" 2>/dev/null
A=
nginx_json "both servers down: nginx's 502 (games between people)" 502 "no server answers: try again shortly" \
    "$N/api/play/lobby"
nginx_json "... a write too" 502 "no server answers: try again shortly" \
    -X POST --data-binary '{"variant":"russian"}' "$N/api/play"
nginx_json "... and the page (the board's upstream)" 502 "no server answers: try again shortly" "$N/"

summary pg

#!/bin/sh
# tests/play.sh -- games between people (/api/play, docs/api.md "Play a friend"), driven with curl:
# seats held by the cd_player cookie, 403 with nothing changed for a wrong or missing secret,
# Origin and Host refusals, a real-time clock running out, draw offers, takebacks, abort,
# rematch, the lobby, the live stream, the players' chat, the PDN export, accounts and a password
# change, and a server killed with SIGKILL mid-game whose restart shows every game exactly as it
# was.
#   sh tests/play.sh [--bin build/condraughts] [--pg]      Prints "play: N passed, M failed".
# --pg: the same on the PostgreSQL store (serve --db CONNINFO) of a private cluster (pg_lib.sh);
# SKIPPED when PostgreSQL is not installed.
set -u
[ -n "${PLAY_DEBUG:-}" ] && set -x
BIN=build/condraughts
PG=
SITEBENCH=build/sitebench
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    --pg) PG=1; shift ;;
    --sitebench) SITEBENCH=$2; shift 2 ;;
    *) echo "usage: sh tests/play.sh [--bin BIN] [--pg] [--sitebench build/sitebench]" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { echo "play: curl is required" >&2; exit 1; }
command -v node >/dev/null 2>&1 || { echo "play: node is required" >&2; exit 1; }
case $BIN in /*) ;; */*) BIN=$(pwd)/$BIN ;; esac

TMP=$(mktemp -d)
PID=
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    [ -n "$PG" ] && pg_stop
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pg_lib.sh"
NAME=play
if [ -n "$PG" ]; then
    NAME="play (PostgreSQL)"
    if ! pg_find; then
        echo "play (PostgreSQL): SKIPPED (no PostgreSQL: tools/deps.sh test installs it)"
        exit 0
    fi
    pg_start || exit 1
fi
# new_db NAME: DB becomes a new, empty database (a file, or a database of the cluster)
new_db() {
    if [ -n "$PG" ]; then DB=$(pg_createdb "$1") || exit 1; else DB=$TMP/$1.db; fi
}
# sql STATEMENTS: run on DB
sql() {
    if [ -n "$PG" ]; then
        psql -q -X -v ON_ERROR_STOP=1 "$DB" -c "$1" >/dev/null
    else
        sqlite3 "$DB" "$1"
    fi
}
# sql_value QUERY: the one value QUERY selects from DB
sql_value() {
    if [ -n "$PG" ]; then
        psql -q -X -t -A -v ON_ERROR_STOP=1 "$DB" -c "$1"
    else
        sqlite3 "$DB" "$1"
    fi
}
# db_dump: a command that writes all of DB (its files, or a dump of the database)
db_dump() {
    if [ -n "$PG" ]; then echo "'$PGBIN/pg_dump' '$DB'"; else echo "cat '$DB'*"; fi
}
new_db play
start_server() { # start_server [SERVE OPTION...]: on the database $DB
    : >"$TMP/out"
    : >"$TMP/err"
    "$BIN" serve --port 0 --data "$TMP/games" --db "$DB" --web "$TMP" "$@" \
        >"$TMP/out" 2>>"$TMP/err" &
    PID=$!
    serve_wait play "$TMP/out" "$TMP/err"
}

# req WHO METHOD PATH [BODY [CURL OPTION...]]: jar_req (lib.sh) on this server's PATH
req() {
    r_who=$1 r_m=$2 r_p=$3
    shift 3
    jar_req "$r_who" "$r_m" "$URL$r_p" "$@"
}
# the state without what changes with the clock ("now", the running side's time, the downtime given back)
steady() { printf '%s' "$BODY" | node -e 'let s="";process.stdin.on("data",c=>s+=c).on("end",()=>{const d=JSON.parse(s);delete d.now;delete d.outage_ms;if(d.running)delete d[d.running].ms;process.stdout.write(JSON.stringify(d))})'; }

start_server
if [ -z "$PG" ]; then # an SQLite file serves one server: a second one on it is refused at start
    expect_fail 1 "cannot use .*play.db: another server has it open (an SQLite file serves one server" \
        "$BIN" serve --port 0 --data "$TMP/games2" --db "$DB" --web "$TMP"
    check_that "... and the first goes on" kill -0 "$PID"
fi

# ------------------------------------------------------------ create, join, move
req a POST /api/play '{"variant":"international","colour":"white","name":"Ann","open":true}'
check_eq "create 201" 201 "$CODE"
G=$(j d.id)
check_eq "creator is white" white "$(j d.you)"
check_eq "waiting for the second player" waiting "$(j d.state)"
check_that "cookie is HttpOnly and SameSite=Strict" sh -c "curl -s -o /dev/null -D - -X POST \
    '$URL/api/play' -d '{}' | grep -qi '^set-cookie: cd_player=[0-9a-f]\{32\}; Path=/; .*HttpOnly; SameSite=Strict'"
req - GET /api/play/lobby
check_that "lobby lists the open challenge" test "$(j "d.open.some(e=>e.id==='$G'&&e.seat==='black')")" = true
req a POST /api/play/$G/move '{"move":"32-28"}'
check_eq "no move before the opponent comes" 409 "$CODE"
req b POST /api/play/$G/join '{"name":"<i>Bob</i> &amp; \"co\""}'
check_eq "join 200" 200 "$CODE"
check_eq "joiner is black" black "$(j d.you)"
check_eq "game starts" ongoing "$(j d.state)"
check_eq "a name is kept as text (JSON-escaped)" "<i>Bob</i> &amp; \"co\"" "$(j d.black.name)"
req c POST /api/play/$G/join '{}'
check_eq "third person cannot join" 409 "$CODE"
check_eq "... and is told why" "both seats are taken" "$(j d.error)"
req a POST /api/play/$G/move '{"move":"32-28"}'
check_eq "white moves" 200 "$CODE"
req a POST /api/play/$G/move '{"move":"19-23"}'
check_eq "not your turn" 409 "$CODE"

# ------------------------------------------------------------ wrong or missing secret: 403, nothing changed
req - GET /api/play/$G
check_eq "spectator sees no seat" null "$(j d.you)"
BEFORE=$(steady)
for who in - c; do
    for a in "move {\"move\":\"19-23\"}" "resign {}" "abort {}" "draw {\"action\":\"offer\"}" \
        "takeback {\"action\":\"ask\"}"; do
        req $who POST /api/play/$G/${a%% *} "${a#* }"
        check_eq "$a without a seat ($who): 403" 403 "$CODE"
    done
    req $who DELETE /api/play/$G
    check_eq "delete without a seat ($who): 403" 403 "$CODE"
done
req - POST /api/play/$G/move '{"move":"19-23"}' -H 'Cookie: cd_player=00000000000000000000000000000000'
check_eq "a made-up secret: 403" 403 "$CODE"
req - GET /api/play/$G
check_eq "nothing changed by the refused requests" "$BEFORE" "$(steady)"
req b POST /api/play/$G/move '{"move":"99-23"}'
check_eq "illegal move 400" 400 "$CODE"
req b POST /api/play/$G/move '{"move":"19-23"}'
check_eq "black moves" 200 "$CODE"
check_eq "history" '["32-28","19-23"]' "$(j d.history)"

# ------------------------------------------------------------ other sites and DNS rebinding
req a POST /api/play/$G/resign '{}' -H 'Origin: http://evil.example'
check_eq "POST from another origin 403" 403 "$CODE"
req a POST /api/play/$G/resign '{}' -H 'Sec-Fetch-Site: cross-site'
check_eq "POST with Sec-Fetch-Site cross-site 403" 403 "$CODE"
req - POST /api/games '{}' -H 'Origin: null'
check_eq "board game from an opaque origin 403" 403 "$CODE"
req - POST /api/games '{}' -H 'Origin: http://evil.example' -H 'Content-Type: text/plain'
check_eq "text/plain POST from another site 403" 403 "$CODE"
req - GET /api/play/$G "" -H "Host: evil.example:$PORT"
check_eq "a foreign Host (DNS rebinding) 403" 403 "$CODE"
req - GET /api/play/$G "" -H "Host: 127.0.0.1:1"
check_eq "another port in Host 403" 403 "$CODE"
req - GET /api/play/$G "" -H "Host: localhost:$PORT"
check_eq "localhost Host 200" 200 "$CODE"
req - GET /api/play/$G "" -H "Host: 127.0.0.1"
check_eq "Host without a port 200" 200 "$CODE"
req - GET /api/play/$G "" -H "Host: evil.example"
check_eq "a foreign Host without a port 403" 403 "$CODE"
req a POST /api/play/$G/draw '{"action":"offer"}' -H "Origin: http://127.0.0.1:$PORT"
check_eq "same-origin POST 200" 200 "$CODE"
req - GET /api/play/$G
check_eq "nothing changed by refused requests but the offer" '["32-28","19-23"]' "$(j d.history)"

# ------------------------------------------------------------ draw offer, takeback
check_eq "white offers a draw" white "$(j d.draw_offer)"
req b POST /api/play/$G/draw '{"action":"decline"}'
check_eq "black declines" null "$(j d.draw_offer)"
req b POST /api/play/$G/draw '{"action":"accept"}'
check_eq "nothing to accept 409" 409 "$CODE"
req a POST /api/play/$G/takeback '{"action":"ask"}'
check_eq "white asks for a takeback" white "$(j d.takeback)"
req b POST /api/play/$G/takeback '{"action":"accept"}'
check_eq "takeback: white's move and black's reply undone" '[]' "$(j d.history)"
req a POST /api/play/$G/move '{"move":"33-28"}'
req b POST /api/play/$G/takeback '{"action":"ask"}'
check_eq "black has no move to take back" 409 "$CODE"
req b POST /api/play/$G/draw '{"action":"maybe"}'
check_eq "bad action 400" 400 "$CODE"

# ------------------------------------------------------------ live stream
curl -s -N -m 3 -b "$TMP/c.jar" "$URL/api/play/$G/events" >"$TMP/sse" &
SSE=$!
curl -s -N -m 3 -b "$TMP/b.jar" "$URL/api/play/$G/events" >/dev/null &
SSE_B=$!
sleep 0.5
req b POST /api/play/$G/move '{"move":"18-22"}'
check_eq "one spectator watching" 1 "$(j d.watching)"
check_eq "black's page is open" true "$(j d.black.online)"
check_eq "white's page is not" false "$(j d.white.online)"
wait $SSE $SSE_B
i=0
while [ $i -lt 30 ]; do # a stream whose client left is seen within a second (DEPART_SHARES ticks)
    req - GET /api/play/$G
    [ "$(j d.watching) $(j d.black.online)" = "0 false" ] && break
    sleep 0.1
    i=$((i + 1))
done
check_eq "nobody watching once the streams end" '0 false' "$(j d.watching) $(j d.black.online)"
check_that "stream starts with the state" grep -q '^event: state' "$TMP/sse"
# a spectator coming and going reaches a player's stream within PLAY_COUNT_MS (1 s) of the server
# seeing the spectator's stream end (within a second, DEPART_SHARES ticks)
curl -s -N -m 6 -b "$TMP/b.jar" "$URL/api/play/$G/events" >"$TMP/sse_b" &
SSE_B=$!
sleep 0.5
curl -s -N -m 2 -b "$TMP/c.jar" "$URL/api/play/$G/events" >/dev/null &
SSE=$!
wait $SSE $SSE_B
check_eq "black's stream: no spectator, one, none again" '0 1 0' \
    "$(grep -o '"watching":[0-9]*' "$TMP/sse_b" | cut -d: -f2 | uniq | paste -sd' ')"
check_that "stream shows the move" test "$(grep -c '^event: state' "$TMP/sse")" -ge 2
check_that "stream's last state has the move" sh -c "grep '^data:' '$TMP/sse' | tail -n 1 | \
    grep -q '\"history\":\\[\"33-28\",\"18-22\"\\]'"

# ------------------------------------------------------------ resign, rematch, PDN
req a POST /api/play/$G/resign '{}'
check_eq "white resigns" "black" "$(j d.winner)"
check_eq "end: resignation" resignation "$(j d.end)"
check_eq "ratings before the game: newcomers" "1500 true 1500" "$(j d.white.rating) $(j d.white.provisional) $(j d.black.rating)"
check_that "rated: the winner gains" test "$(j d.black.rating_change)" -gt 0
check_that "rated: the loser loses as much" test "$(j d.white.rating_change)" -eq "-$(j d.black.rating_change)"
req a POST /api/play/$G/move '{"move":"31-27"}'
check_eq "no move after the end" 409 "$CODE"
req - GET /api/play/$G/pdn
check_that "PDN has the names" sh -c "printf '%s' '$BODY' | grep -q '\\[White \"Ann\"\\]'"
check_that "PDN result 0-2" sh -c "printf '%s' '$BODY' | grep -q '^1\\. 33-28 18-22 0-2'"
# every position of the game, to step through it: the start (20 black men on 1-20, 20 white on
# 31-50), after 33-28 and after 18-22, each with the squares of the move that led to it
req - GET /api/play/$G/positions
INTL_START="bbbbbbbbbbbbbbbbbbbb..........wwwwwwwwwwwwwwwwwwww"
check_eq "positions: the start, then one a move" "2 3 $INTL_START null" \
    "$(j d.ply) $(j d.positions.length) $(j d.positions[0].board) $(j d.positions[0].last)"
check_eq "positions: after 33-28" "bbbbbbbbbbbbbbbbbbbb.......w..ww.wwwwwwwwwwwwwwwww [33,28]" \
    "$(j d.positions[1].board) $(j d.positions[1].last)"
check_eq "positions: after 18-22" "bbbbbbbbbbbbbbbbb.bb.b.....w..ww.wwwwwwwwwwwwwwwww [18,22]" \
    "$(j d.positions[2].board) $(j d.positions[2].last)"
req - GET /api/play/0123456789ab/positions
check_eq "positions of an unknown game: 404" 404 "$CODE"
req - POST /api/play/$G/positions '{}'
check_eq "positions: POST is 405" 405 "$CODE"
req b POST /api/play/$G/rematch '{"action":"offer"}'
req a POST /api/play/$G/rematch '{"action":"accept"}'
R=$(j d.rematch)
check_that "rematch game made" test -n "$R" -a "$R" != null
req a GET /api/play/$R
check_eq "rematch: colours swapped" black "$(j d.you)"
check_eq "rematch starts at once" ongoing "$(j d.state)"
check_that "rematch: Bob (now white) comes with his new rating" test "$(j d.white.rating)" -gt 1500
check_that "rematch: Ann (now black) with hers" test "$(j d.black.rating)" -lt 1500
req b POST /api/play/$R/abort '{}'
check_eq "abort before the first moves" aborted "$(j d.end)"
check_eq "an aborted game is not rated" null "$(j d.white.rating_change)"
req a DELETE /api/play/$R
check_eq "a seat deletes a finished game" 200 "$CODE"
req a GET /api/play/$R
check_eq "deleted" 404 "$CODE"

# ------------------------------------------------------------ bad input
for b in '{"variant":"chess"}' '{"colour":"green"}' '{"clock":{"type":"realtime"}}' \
    '{"clock":{"type":"realtime","base":0}}' '{"clock":{"type":"blitz"}}' \
    '{"name":"aaaaaaaaaaaaaaaaaaaaaaaaa"}' '{"name":"a\u0007b"}' '{"name":"Bob\u0000Evil"}' \
    '{"open":3}' '[1]' '{'; do
    req - POST /api/play "$b"
    check_eq "create $b: 400" 400 "$CODE"
done
req - GET /api/play/zzz
check_eq "bad id 404" 404 "$CODE"
req - PUT /api/play/$G
check_eq "PUT 405" 405 "$CODE"

# ------------------------------------------------------------ the board's games belong to their browser
check_that "a cookie-less API answer sets the player cookie" sh -c "curl -s -o /dev/null -D - \
    '$URL/api/variants' | grep -qi '^set-cookie: cd_player='"
req a POST /api/games '{"variant":"international","human":"both"}'
check_eq "board game with a cookie 201" 201 "$CODE"
BG=$(j d.id)
for who in b -; do
    req $who POST /api/games/$BG/move '{"move":"32-28"}'
    check_eq "another browser's move on the board ($who): 403" 403 "$CODE"
    req $who POST /api/games/$BG/engine '{"depth":1}'
    check_eq "another browser's engine move ($who): 403" 403 "$CODE"
    req $who POST /api/games/$BG/undo ''
    check_eq "another browser's undo ($who): 403" 403 "$CODE"
    req $who DELETE /api/games/$BG
    check_eq "another browser's delete ($who): 403" 403 "$CODE"
done
req b GET /api/games/$BG
check_eq "... and the board is unchanged" 0 "$(j d.ply)"
req b POST /api/games/$BG/hint '{"depth":1}'
check_eq "a hint (a read) is open to all" 200 "$CODE"
req a POST /api/games/$BG/move '{"move":"32-28"}'
check_eq "the owner moves" 200 "$CODE"
req - GET /api/games/$BG/pdn
check_that "the export has no Owner tag" sh -c "! printf '%s' '$BODY' | grep -q Owner"
req - POST /api/games '{"variant":"russian"}'
OPEN_BG=$(j d.id)
req b POST /api/games/$OPEN_BG/move '{"move":"c3-d4"}'
check_eq "a board made without a cookie (a script) stays open" 200 "$CODE"
ATOKEN=$(sed -n 's/.*cd_player\t//p' "$TMP/a.jar" | tail -n 1)
req - POST /api/games/import "{\"pdn\":\"[Owner \\\"$ATOKEN\\\"]\\n1. 32-28 *\"}"
IMP=$(j d.id)
req b POST /api/games/$IMP/move '{"move":"19-23"}'
check_eq "an Owner tag of an imported PDN is not taken" 200 "$CODE"

# ------------------------------------------------------------ accounts
req - GET /api/account
check_eq "not logged in" null "$(j d.name)"
req d POST /api/account/register '{"name":"Dora","password":"correct horse battery"}'
check_eq "register 201" "201 Dora" "$CODE $(j d.name)"
req d GET /api/account
check_eq "the registering browser is logged in" Dora "$(j d.name)"
req e POST /api/account/register '{"name":"dora","password":"another password"}'
check_eq "a taken name (any case) 409" 409 "$CODE"
for b in '{"name":"Do","password":"12345678"}' '{"name":"Dora Two","password":"12345678"}' \
    '{"name":"Dora2","password":"short"}' '{"name":"Dora2"}' '{"password":"12345678"}' \
    '{"name":3,"password":"12345678"}'; do
    req e POST /api/account/register "$b"
    check_eq "register $b: 400" 400 "$CODE"
done
req e POST /api/account/login '{"name":"Dora","password":"wrong password"}'
check_eq "wrong password 403" "403 wrong name or password" "$CODE $(j d.error)"
req e POST /api/account/login '{"name":"Nobody","password":"whatever1"}'
check_eq "unknown name: the same 403" "403 wrong name or password" "$CODE $(j d.error)"
req e GET /api/account
check_eq "a failed login logs nobody in" null "$(j d.name)"
check_that "the password is stored nowhere in clear" sh -c \
    "! $(db_dump) | grep -aq 'correct horse battery'"
req - POST /api/play '{"name":"DORA"}'
check_eq "an account's name is not for others" 400 "$CODE"
req e POST /api/account/login '{"name":"dora","password":"correct horse battery"}'
check_eq "log in from another browser" "200 Dora" "$CODE $(j d.name)"
req e POST /api/play '{"variant":"frisian","colour":"white","name":"Fake"}'
check_eq "a logged-in seat carries the account's name" Dora "$(j d.white.name)"
AC=$(j d.id)
req d POST /api/play/$AC/join '{}'
check_eq "one account may sit on both seats from two browsers" 200 "$CODE"
req e POST /api/play/$AC/resign ''
req d GET /api/play/$AC
check_eq "... but such a game is not rated" null "$(j d.white.rating_change)"
req f POST /api/account/register '{"name":"Eve","password":"eve password"}'
for i in 1 2 3 4 5; do
    req g POST /api/account/login '{"name":"eve","password":"guess number one"}'
done
req g POST /api/account/login '{"name":"Eve","password":"eve password"}'
check_eq "5 failed logins close the name for a while, even to the right password" 429 "$CODE"
check_that "... and say for how long" sh -c "curl -s -o /dev/null -D - -X POST \
    '$URL/api/account/login' -d '{\"name\":\"Eve\",\"password\":\"eve password\"}' | grep -qi '^retry-after: [0-9]'"
req e POST /api/account/logout ''
req e GET /api/account
check_eq "logged out" null "$(j d.name)"

# ------------------------------------------------------------ names: normalised, compared by their look
for b in '{"name":"dora "}' '{"name":" Dora"}' '{"name":"Dora\u200b"}' '{"name":"Do\u200dra"}' \
    '{"name":"D\u03bfra"}' '{"name":"D\u043era"}' '{"name":"\u202eDora"}' '{"name":"D0RA"}' \
    '{"name":"DORA"}' '{"name":"\uff24\uff4f\uff52\uff41"}' '{"name":"a\u2028b"}' '{"name":"\ue000x"}'; do
    req - POST /api/play "$b"
    check_eq "the seat name $b (not Dora's): 400" 400 "$CODE"
done
req - POST /api/play '{"name":"D\u03bfra"}'
check_eq "... told why" "the name 'Dora' is (or looks like) an account's: log in to use it" "$(j d.error)"
req - POST /api/play '{"name":"\uff22\uff4f\uff42 \u00bd"}'
check_eq "a name is kept in NFKC (fullwidth letters, a fraction)" "201 Bob 1⁄2" "$CODE $(j 'd[d.you].name')"
req - POST /api/play '{"name":"Zoë ♛ Ωmega"}'
check_eq "letters and signs of any script pass" "201 Zoë ♛ Ωmega" "$CODE $(j 'd[d.you].name')"
req e POST /api/account/register '{"name":"D0ra","password":"another password"}'
check_eq "an account name that looks like one taken: 409" 409 "$CODE"

# ------------------------------------------------------------ logins throttled by name and address
for i in 1 2 3 4 5 6; do
    req - POST /api/account/login '{"name":"Dora","password":"a stranger guesses"}' --interface 127.0.0.2
done
check_eq "a stranger's 6th wrong login for Dora: 429 for the stranger" 429 "$CODE"
req - POST /api/account/login '{"name":"dora","password":"correct horse battery"}' --interface 127.0.0.2
check_eq "... even with the right password from that address" 429 "$CODE"
req k POST /api/account/login '{"name":"Dora","password":"correct horse battery"}' --interface 127.0.0.3
check_eq "Dora logs in from her own address" "200 Dora" "$CODE $(j d.name)"
req - POST /api/account/login '{"name":"D0RA","password":"a stranger guesses"}' --interface 127.0.0.2
check_eq "a look-alike of the name counts as the name" 429 "$CODE"
i=0
PAR=
while [ $i -lt 6 ]; do # six logins at once from one address hold one password slot, not both
    curl -s -o /dev/null -w '%{http_code}\n' --interface 127.0.0.4 -X POST "$URL/api/account/login" \
        -d '{"name":"Nobody","password":"parallel guess"}' >>"$TMP/parallel" &
    PAR="$PAR $!"
    i=$((i + 1))
done
sleep 0.05
req l POST /api/account/login '{"name":"Dora","password":"correct horse battery"}' --interface 127.0.0.5
wait $PAR
check_eq "a login from another address during 6 parallel ones: 200" 200 "$CODE"
check_that "... and the parallel ones were held to one at a time (429)" grep -q 429 "$TMP/parallel"

# ------------------------------------------------------------ a password changed
req h POST /api/account/register '{"name":"Hal","password":"first password"}'
req i POST /api/account/login '{"name":"Hal","password":"first password"}'
check_eq "Hal logged in from a second browser" Hal "$(j d.name)"
req - POST /api/account/password '{"password":"first password","new_password":"second password"}'
check_eq "a password change needs a login" 403 "$CODE"
req h POST /api/account/password '{"password":"first password","new_password":"short"}'
check_eq "a short new password: 400" "400 a new password is 8 to 256 bytes" "$CODE $(j d.error)"
req h POST /api/account/password '{"password":"first password"}'
check_eq "no new password: 400" 400 "$CODE"
req h GET /api/account/password
check_eq "GET of the password 405" 405 "$CODE"
for i in 1 2 3 4; do
    req h POST /api/account/password '{"password":"not my password","new_password":"second password"}'
    check_eq "a wrong current password ($i): 403" "403 wrong password" "$CODE $(j d.error)"
done
req j POST /api/account/login '{"name":"Hal","password":"still not it"}'
req h POST /api/account/password '{"password":"first password","new_password":"second password"}'
check_eq "wrong current passwords count as failed logins (4 + 1 closes the name)" 429 "$CODE"
req j POST /api/account/login '{"name":"Hal","password":"first password"}'
check_eq "... for logins too" 429 "$CODE"
# the throttle is kept in memory: a restart opens the name again
kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
PID=
start_server
req h POST /api/account/password '{"password":"first password","new_password":"second password"}'
check_eq "the password changed" "200 Hal" "$CODE $(j d.name)"
req h GET /api/account
check_eq "the browser that changed it stays logged in" Hal "$(j d.name)"
req i GET /api/account
check_eq "the other browser is logged out" null "$(j d.name)"
req i POST /api/account/login '{"name":"Hal","password":"first password"}'
check_eq "the old password no longer logs in" 403 "$CODE"
req i POST /api/account/login '{"name":"hal","password":"second password"}'
check_eq "the new one does" "200 Hal" "$CODE $(j d.name)"
check_that "neither password is stored in clear" sh -c \
    "! $(db_dump) | grep -aqE 'first password|second password'"
check_that "nor written to the server's output" sh -c \
    "! cat '$TMP/out' '$TMP/err' | grep -qE 'first password|second password'"
req e POST /api/play/$AC/rematch '{"action":"offer"}'
check_eq "a seat stays its browser's after logout" 200 "$CODE"

# ------------------------------------------------------------ a real-time clock runs out
req a POST /api/play '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":1,"increment":0}}'
F=$(j d.id)
req b POST /api/play/$F/join '{}'
req a POST /api/play/$F/move '{"move":"c3-d4"}'
req b POST /api/play/$F/move '{"move":"f6-g5"}'
check_eq "clock runs for white after both first moves" white "$(j d.running)"
sleep 1.4
req - GET /api/play/$F
check_eq "flag fell: game over" over "$(j d.state)"
check_eq "flag fell: black wins" black "$(j d.winner)"
check_eq "flag fell: end time" time "$(j d.end)"
check_eq "white's clock at 0" 0 "$(j d.white.ms)"

# ------------------------------------------------------------ the time of the move charged at the end
for how in resign draw; do
    req a POST /api/play '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":60,"increment":0}}'
    CH=$(j d.id)
    req b POST /api/play/$CH/join '{}'
    req a POST /api/play/$CH/move '{"move":"c3-d4"}'
    req b POST /api/play/$CH/move '{"move":"f6-g5"}'
    sleep 1.2
    if [ $how = resign ]; then
        req a POST /api/play/$CH/resign '{}'
    else
        req b POST /api/play/$CH/draw '{"action":"offer"}'
        req a POST /api/play/$CH/draw '{"action":"accept"}'
    fi
    check_that "$how: the 1.2 s of white's move are charged ($(j d.white.ms) ms left)" \
        test "$(j d.white.ms)" -le 58900 -a "$(j d.state)" = over
    check_eq "$how: black's clock untouched" 60000 "$(j d.black.ms)"
done

# ------------------------------------------------------------ SIGKILL mid-game, restart
req a POST /api/play '{"variant":"constitutional","colour":"black","clock":{"type":"correspondence","days":2}}'
K=$(j d.id)
req b POST /api/play/$K/join '{"name":"Kim"}'
for mv in "b 32-28" "a 19-23" "b 28x19" "a 14x23"; do
    req ${mv%% *} POST /api/play/$K/move "{\"move\":\"${mv#* }\"}"
done
req a POST /api/play/$K/draw '{"action":"offer"}'

# ------------------------------------------------------------ the players' chat
curl -s -N -m 2 "$URL/api/play/$K/events" >"$TMP/chat.sse" &
SSE=$!
sleep 0.3
req a POST /api/play/$K/chat '{"text":"<script>alert(1)</script>"}'
check_eq "a player writes in the chat" 200 "$CODE"
check_eq "... kept as it was written, as text" '[{"from":"black","text":"<script>alert(1)</script>"}]' \
    "$(j 'd.chat.map(m=>({from:m.from,text:m.text}))')"
wait $SSE
check_that "the spectator's stream has the message" grep -q '<script>alert(1)</script>' "$TMP/chat.sse"
E140=$(printf '%0140d' 0 | sed 's/0/é/g')
t0=$(date +%s)
req b POST /api/play/$K/chat "{\"text\":\"$E140\"}"
check_eq "140 characters of two bytes each" "200 140" "$CODE $(j '[...d.chat[1].text].length')"
req b POST /api/play/$K/chat '{"text":"gl \ud83d\ude42 hf ♛"}'
check_eq "a character outside the BMP" "gl 🙂 hf ♛" "$(j d.chat[2].text)"
# 5 messages a seat in 10 s: a bucket of 5 that gains one every 2 s, so a seat writing at once
# is refused at its sixth message, and one message more for every 2 s the requests took
i=2
while [ $i -lt 20 ]; do
    i=$((i + 1))
    req b POST /api/play/$K/chat "{\"text\":\"message $i\"}"
    [ "$CODE" = 200 ] || break
done
NB=$((i - 1)) T=$(($(date +%s) - t0 + 1))
check_eq "a seat's messages are refused with 429 after the fifth" 429 "$CODE"
check_that "... not before the fifth and at most one more every 2 s ($NB in $T s)" \
    test $NB -ge 5 -a $NB -le $((5 + T / 2 + 1))
check_that "... with Retry-After" sh -c "curl -s -o /dev/null -D - -b '$TMP/b.jar' -X POST \
    '$URL/api/play/$K/chat' -d '{\"text\":\"again\"}' | grep -qi '^retry-after: [0-9]'"
req - GET /api/play/$K
BEFORE_CHAT=$(steady)
for who in - c; do
    req $who POST /api/play/$K/chat '{"text":"hello from outside"}'
    check_eq "chat without a seat ($who): 403" 403 "$CODE"
done
req - POST /api/play/$K/chat '{"text":"hi"}' -H 'Cookie: cd_player=00000000000000000000000000000000'
check_eq "chat with a made-up secret: 403" 403 "$CODE"
for b in '' '{}' '{"text":""}' '{"text":"   "}' '{"text":3}' '{"text":"a\u0007b"}' \
    '{"text":"two\nlines"}' "{\"text\":\"x$E140\"}" "$(printf '{"text":"\377"}')" \
    "$(printf '{"text":"\300\257"}')" "$(printf '{"text":"\355\240\200"}')" \
    "$(printf '{"text":"\303"}')" "$(printf '{"text":"\364\220\200\200"}')"; do
    req a POST /api/play/$K/chat "$b"
    check_eq "chat $(printf '%s' "$b" | od -An -c | tr -s ' ' | head -c 60): 400" 400 "$CODE"
done
req a POST /api/play/$K/chat "$(printf '{"text":"\377"}')"
check_eq "invalid UTF-8 is named" "'text' is not valid UTF-8" "$(j d.error)"
req - GET /api/play/$K
check_eq "nothing changed by the refused messages" "$BEFORE_CHAT" "$(steady)"
req a POST /api/play/$K/chat '{"text":"the other seat may still write"}'
check_eq "the limit is per seat" "200 $((NB + 2))" "$CODE $(j d.chat.length)"
BEFORE_K=$(steady)
req - GET /api/play/$G
BEFORE_G=$(steady)
kill -9 "$PID"
wait "$PID" 2>/dev/null
PID=
start_server
req a GET /api/play/$K
check_eq "after SIGKILL: the game in progress is exactly as it was" "$BEFORE_K" "$(steady)"
check_eq "after SIGKILL: history" '["32-28","19-23","28x19","14x23"]' "$(j d.history)"
check_eq "after SIGKILL: the chat" "<script>alert(1)</script>|message 4|$((NB + 2))" \
    "$(j 'd.chat[0].text+"|"+d.chat[4].text+"|"+d.chat.length')"
req - GET /api/play/$G
check_eq "after SIGKILL: the finished game too" "$BEFORE_G" "$(steady)"
req b POST /api/play/$K/move '{"move":"33-28"}'
check_eq "after restart the seat still moves" 200 "$CODE"
req b POST /api/games/$BG/move '{"move":"19-23"}'
check_eq "after restart the board still belongs to its browser" 403 "$CODE"
req a POST /api/games/$BG/move '{"move":"19-23"}'
check_eq "after restart its owner moves" 200 "$CODE"
req b POST /api/play '{"variant":"international","open":true}'
check_that "after restart the ratings are kept" test "$(j 'd[d.you].rating')" -gt 1500
B2=$(j d.id)
req - GET /api/play/lobby
check_that "the lobby shows the challenger's rating" test "$(j "d.open.find(e=>e.id==='$B2').rating")" -gt 1500
req b POST /api/play/$K/move '{"move":"37-31"}'
check_eq "after restart no move out of turn" 409 "$CODE"

# ------------------------------------------------------------ ratings age (one period a day)
# every rating made sure (RD 50) and last changed 100 days ago: RD 50 grows to 115.6 (glicko_idle),
# over the 110 of "provisional"; the same rating changed today stays sure
age_ratings() { # age_ratings DAYS: every rating RD 50, last changed DAYS ago
    kill "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    PID=
    sql "UPDATE ratings SET rd = 50, at = $(($(date +%s) - $1 * 86400))000"
    start_server
}
req b GET /api/play/$B2
RATING_B=$(j 'd[d.you].rating')
age_ratings 100
req b POST /api/play '{"variant":"international"}'
check_eq "a rating idle for 100 days is provisional again" true "$(j 'd[d.you].provisional')"
check_eq "... with the same rating" "$RATING_B" "$(j 'd[d.you].rating')"
age_ratings 0
req b POST /api/play '{"variant":"international"}'
check_eq "the same rating changed today is not" false "$(j 'd[d.you].provisional')"

# ------------------------------------------------------------ a first move not made in 30 s
# (the 30 s pass in the database: every awaited first move is made 31 s older)
realtime() { # realtime [MOVE]: a new real-time game between a and b (white a), MOVE played by a
    req a POST /api/play '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":60,"increment":0}}'
    RT=$(j d.id)
    req b POST /api/play/$RT/join '{}'
    [ -z "${1:-}" ] || req a POST /api/play/$RT/move "{\"move\":\"$1\"}"
}
realtime
A0=$RT
realtime c3-d4
A1=$RT
realtime c3-d4
req b POST /api/play/$RT/move '{"move":"f6-g5"}'
A2=$RT
req a POST /api/play '{"variant":"russian","colour":"white"}'
A3=$(j d.id)
req b POST /api/play/$A3/join '{}'
kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
PID=
sql "UPDATE games SET first_wait = first_wait - 31000 WHERE first_wait > 0"
start_server
sleep 0.5 # the clock thread looks every 100 ms
req - GET /api/play/$A0
check_eq "white's first move not made in 30 s: aborted" "over aborted null" "$(j d.state) $(j d.end) $(j d.winner)"
check_eq "... and not rated" null "$(j d.white.rating_change)"
req - GET /api/play/$A1
check_eq "black's first move not made in 30 s: aborted" "over aborted" "$(j d.state) $(j d.end)"
req b POST /api/play/$A1/move '{"move":"f6-g5"}'
check_eq "a first move too late is refused" 409 "$CODE"
req - GET /api/play/$A2
check_eq "once both have moved the clock rules, not the 30 s" ongoing "$(j d.state)"
req - GET /api/play/$A3
check_eq "a game without a clock waits for its first move" ongoing "$(j d.state)"

# ------------------------------------------------------------ limits of a client, the cap
# (docs/api.md, "Limits of a client"); each address is one of 127.0.0.0/8 (curl --interface)
restart() { # restart [SERVE OPTION...]: the server stopped and started again on $DB
    kill "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    PID=
    start_server "$@"
}
# flood ADDRESS N [JAR]: N creations of a waiting game from ADDRESS (with the cookie jar JAR, else
# none: a new player token each time); prints the statuses, one a line
flood() {
    i=0
    while [ $i -lt "$2" ]; do
        if [ -n "${3:-}" ]; then
            curl -s -o /dev/null -w '%{http_code}\n' --interface "$1" -b "$TMP/$3.jar" -c "$TMP/$3.jar" \
                -X POST "$URL/api/play" -d '{"open":true}'
        else
            curl -s -o /dev/null -w '%{http_code}\n' --interface "$1" -X POST "$URL/api/play" -d '{"open":true}'
        fi
        i=$((i + 1))
    done
}
# ------------------------------------------------------------ the server's downtime is not charged
req a POST /api/play '{"variant":"russian","colour":"white","clock":{"type":"realtime","base":60,"increment":0}}'
DT=$(j d.id)
req b POST /api/play/$DT/join '{}'
req a POST /api/play/$DT/move '{"move":"c3-d4"}'
req b POST /api/play/$DT/move '{"move":"f6-g5"}'
kill -9 "$PID"
wait "$PID" 2>/dev/null
PID=
# as if the server had died 20 s ago, with white's move begun 20 s before that too
sql "UPDATE alive SET at = at - 20000; UPDATE games SET turn_start = turn_start - 20000 WHERE id = '$DT'"
start_server
req - GET /api/play/$DT
check_that "20 s of downtime are not charged to white ($(j d.white.ms) ms left of 60000)" \
    test "$(j d.white.ms)" -gt 57000
check_that "... and the game says so (outage_ms $(j d.outage_ms))" test "$(j d.outage_ms)" -ge 20000
# a second stop of 3 s: white loses the time the server ran (whatever a loaded machine makes of
# it), not the 3 s, and is not given the first 20 s again (each time read at once after its
# request: a node started for the JSON may take a second on a loaded machine)
req - GET /api/play/$DT
T1=$(date +%s%3N)
W1=$(j d.white.ms)
kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
sleep 3
start_server
req - GET /api/play/$DT
T2=$(date +%s%3N)
W2=$(j d.white.ms)
check_that "... once: a second restart gives back its own downtime only ($W1 -> $W2 ms in $((T2 - T1)) ms)" \
    test "$W2" -le "$W1" -a $((W1 - W2)) -lt $((T2 - T1 - 2000))

new_db limits
restart
# a waiting game whose creator left, and an unclocked game not begun, both 11 minutes ago: gone
# PLAY_GRACE_MS (10 s) after the restart; a correspondence game whose first move is a day late:
# aborted at once
req w1 POST /api/play '{"variant":"russian"}'
EXP_WAIT=$(j d.id)
req w1 POST /api/play '{"variant":"russian"}'
EXP_NOCLOCK=$(j d.id)
req w2 POST /api/play/$EXP_NOCLOCK/join '{}'
req w1 POST /api/play '{"variant":"russian","colour":"white","clock":{"type":"correspondence","days":1}}'
EXP_CORR=$(j d.id)
req w2 POST /api/play/$EXP_CORR/join '{}'
req w1 POST /api/play/$EXP_CORR/move '{"move":"c3-d4"}'
kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
PID=
sql "UPDATE games SET created = created - 660000, first_wait = first_wait - 660000;
    UPDATE games SET first_wait = first_wait - 86400000 WHERE id = '$EXP_CORR'"
start_server
EXP_START=$(date +%s)
check_that "the restart reads the live games only" grep -q '^condraughts: 3 live games between people' "$TMP/err"
sleep 0.5 # the clock thread looks every 100 ms
req - GET /api/play/$EXP_CORR
check_eq "a correspondence game whose first move is over a day late: aborted" "over aborted" "$(j d.state) $(j d.end)"

FLOOD=$(flood 127.0.0.2 30)
check_eq "a flood from one address (no cookie): 20 waiting games, then 429" "20 10" \
    "$(echo "$FLOOD" | grep -c 201) $(echo "$FLOOD" | grep -c 429)"
check_that "... with Retry-After and a JSON error" sh -c "curl -s -D - --interface 127.0.0.2 -X POST \
    '$URL/api/play' -d '{}' | tr -d '\r' | grep -q -i '^retry-after: [0-9]' && curl -s \
    --interface 127.0.0.2 -X POST '$URL/api/play' -d '{}' | grep -q '^{\"error\":\"20 games of yours wait'"
FLOOD=$(flood 127.0.0.3 8 fl)
check_eq "one browser: 5 waiting games, then 429" "5 3" \
    "$(echo "$FLOOD" | grep -c 201) $(echo "$FLOOD" | grep -c 429)"
req - POST /api/play '{"open":true}' --interface 127.0.0.4
check_eq "another client still creates games" 201 "$CODE"
# created and deleted at once: never 5 waiting, but 10 a minute (a bucket of 10 that gains one
# every 6 s: refused at the eleventh game, and one game more for every 6 s the requests took)
n=0
t0=$(date +%s)
while [ $n -lt 30 ]; do # (the id read with sed, not a node per game: quicker on a loaded machine)
    req cr POST /api/play '{}' --interface 127.0.0.5
    [ "$CODE" = 201 ] || break
    req cr DELETE "/api/play/$(printf '%s' "$BODY" | sed -n 's/^{"id":"\([0-9a-f]*\)".*/\1/p')" "" \
        --interface 127.0.0.5
    n=$((n + 1))
done
T=$(($(date +%s) - t0 + 1))
check_eq "one browser creating games is refused with 429" 429 "$CODE"
check_that "... not before 10 games and at most one more every 6 s ($n in $T s)" \
    test $n -ge 10 -a $n -le $((10 + T / 6 + 1))
check_that "... and is told so" sh -c "printf '%s' '$BODY' | grep -q 'too many games created'"
req - GET /api/play/lobby
check_eq "the lobby: a page of 50 open games of the 26 waiting" "50 0 26 26" \
    "$(j d.per) $(j d.page) $(j d.open.length) $(j d.open_total)"
req - GET '/api/play/lobby?page=1&per=10'
check_eq "its second page of 10" "10 26" "$(j d.open.length) $(j d.open_total)"
req - GET '/api/play/lobby?per=0'
check_eq "a bad page size: 400" 400 "$CODE"
req - GET '/api/play/lobby?page=2&per=10'
check_eq "the last page" 6 "$(j d.open.length)"

while [ $(($(date +%s) - EXP_START)) -lt 12 ]; do sleep 0.5; done
req - GET /api/play/$EXP_WAIT
check_eq "a waiting game whose creator left 10 minutes ago is deleted" 404 "$CODE"
req - GET /api/play/$EXP_NOCLOCK
check_eq "a game without a clock not begun, its players away 10 minutes: aborted" "over aborted" \
    "$(j d.state) $(j d.end)"

# behind a proxy (docs/deploy.md's unit: --per-ip 0 --trust-proxy, here 127.0.0.10; tests/pg.sh
# runs it behind nginx): a request from the proxy is counted by the address its X-Real-IP names,
# and the limits by address hold with --per-ip 0; without the header it is 400; any other peer's
# X-Real-IP is ignored. proxied FROM N HEADER...: N cookie-less creations from FROM; the statuses
proxied() {
    p_from=$1 p_n=$2
    shift 2
    i=0
    while [ $i -lt "$p_n" ]; do
        i=$((i + 1))
        curl -s -o /dev/null -w '%{http_code}\n' --interface "$p_from" -X POST "$URL/api/play" \
            -d '{"open":true}' "$@" | sed "s/^/$i /"
    done
}
restart --per-ip 0 --trust-proxy 127.0.0.10
req - POST /api/play '{"open":true}' --interface 127.0.0.10
check_eq "--trust-proxy 127.0.0.10: a request from it without X-Real-IP: 400, saying so" \
    "400 no X-Real-IP header from the proxy 127.0.0.10 (--trust-proxy): it must name the client's address" \
    "$CODE $(j d.error)"
FLOOD=$(proxied 127.0.0.10 21 -H "X-Real-IP: 10.0.0.1")
check_eq "... with X-Real-IP 10.0.0.1 (--per-ip 0): that address's 20 waiting games, then 429" "20 429" \
    "$(echo "$FLOOD" | grep -c ' 201$') $(echo "$FLOOD" | sed -n 's/^21 //p')"
req - POST /api/play '{"open":true}' --interface 127.0.0.10 -H "X-Real-IP: 10.0.0.2"
check_eq "... naming another address: 201" 201 "$CODE"
FLOOD=$(for k in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21; do
    proxied 127.0.0.11 1 -H "X-Real-IP: 10.0.1.$k"
done)
check_eq "another peer's X-Real-IP, new each time, is ignored: 20 waiting games, then 429" "20 429" \
    "$(echo "$FLOOD" | grep -c ' 201$') $(echo "$FLOOD" | sed -n '21s/^1 //p')"

# the cap counts live games: finished games leave it, a restart does not bring them back
new_db cap
restart --max-games 3
i=0
CAP_OK=0
while [ $i -lt 6 ]; do
    req c1 POST /api/play '{"colour":"white"}' --interface 127.0.0.6
    [ "$CODE" = 201 ] && CAP_OK=$((CAP_OK + 1))
    CG=$(j d.id)
    [ $i -eq 0 ] && FIRST=$CG
    req c2 POST /api/play/$CG/join '{}' --interface 127.0.0.7
    req c1 POST /api/play/$CG/move '{"move":"32-28"}' --interface 127.0.0.6
    req c2 POST /api/play/$CG/resign '{}' --interface 127.0.0.7
    i=$((i + 1))
done
check_eq "6 games played to their end with --max-games 3: each created" 6 "$CAP_OK"
WAITING=
for k in 1 2 3; do
    req c3 POST /api/play '{}' --interface 127.0.0.8
    WAITING="$WAITING $(j d.id)"
done
check_eq "3 waiting games fill the cap" 201 "$CODE"
req c4 POST /api/play '{}' --interface 127.0.0.9
check_eq "the 4th live game: 503" 503 "$CODE"
for g in $WAITING; do req c3 DELETE /api/play/$g; done
restart --max-games 3
check_that "a restart reads no finished game" sh -c "! grep -q 'live game' '$TMP/err'"
req c4 POST /api/play '{}' --interface 127.0.0.9
check_eq "after the restart the cap is free" 201 "$CODE"
req - GET /api/play/$FIRST
check_eq "a finished game is read back from the store" "over resignation 1" \
    "$(j d.state) $(j d.end) $(j d.history.length)"
req - GET /api/play/$FIRST/pdn
check_that "... and its PDN" sh -c "printf '%s' '$BODY' | grep -q '^1\. 32-28'"

# ------------------------------------------------------------ more streams than 1024, a full server
# 1,500 streams on one game from 50 addresses (30 each, under the 64 of --per-ip): the server, its
# soft descriptor limit 1024 at start, raises it and serves them all (how many had their first
# state within 1 s is printed: that is the benchmark's target, and depends on the machine's load),
# while the lobby, asked on a connection open before them, answers within 3 s
# (tests/load/sitebench.c; docs/api.md, "Many games"); these games are in a database of their own
DB_KEPT=$DB
DB=$TMP/many.db
restart
if [ ! -x "$SITEBENCH" ]; then
    skip "1,500 streams: no $SITEBENCH (make $SITEBENCH)"
elif [ "$(ulimit -Hn)" != unlimited ] && [ "$(ulimit -Hn)" -lt 4000 ]; then
    skip "1,500 streams: ulimit -Hn is $(ulimit -Hn) (the client and the server need 1,600 each)"
else
    kill "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    : >"$TMP/out"
    (ulimit -Sn 1024 && exec "$BIN" serve --port 0 --data "$TMP/games" --db "$DB" --web "$TMP" \
        >"$TMP/out" 2>>"$TMP/err") &
    PID=$!
    serve_wait play "$TMP/out" "$TMP/err"
    LIMIT=$(sed -n 's/^condraughts: \([0-9]*\) connections at once$/\1/p' "$TMP/out")
    check_that "the server raised its descriptors for more than 1,500 connections ($LIMIT)" \
        test "${LIMIT:-0}" -gt 1600
    "$SITEBENCH" streams "$PORT" 1500 50 >"$TMP/streams" 2>&1
    echo "play: $(head -n 1 "$TMP/streams")"
    check_that "1,500 streams: each had its first state (within 10 s), no error" \
        grep -q '^result: first 1500 late [0-9]* errors 0 ' "$TMP/streams"
    LOBBY_MS=$(sed -n 's/^result: .* lobby \([0-9]*\)$/\1/p' "$TMP/streams")
    # (before, the lobby took 10 s behind 1,500 streams; 1 s on an idle machine is the aim, 3 s
    # the bound, for a machine whose load leaves the server a third of a core)
    check_that "... and the lobby answered within 3 s meanwhile (${LOBBY_MS:-?} ms)" \
        test "${LOBBY_MS:-99999}" -le 3000
fi
# at its limit (--max-connections 8, 4 streams held) a new connection is answered 503 at once,
# in JSON with Retry-After, and closed; the server is served again once they end
restart --max-connections 8
req a POST /api/play '{"open":true}'
G8=$(j d.id)
k=0
held=
: >"$TMP/held"
while [ $k -lt 8 ]; do
    curl -s -N -m 4 "$URL/api/play/$G8/events" >>"$TMP/held" &
    held="$held $!"
    k=$((k + 1))
done
i=0
until [ "$(grep -c '^event: state' "$TMP/held")" -ge 8 ] || [ $i -ge 50 ]; do sleep 0.1; i=$((i + 1)); done
curl -s -D "$TMP/h503" -o "$TMP/body" -m 3 -w '%{http_code} %{time_total}\n' "$URL/api/play/lobby" >"$TMP/code503"
echo "play: at the limit of 8 connections: $(cat "$TMP/code503") s"
check_eq "at the limit: 503" 503 "$(cut -d' ' -f1 "$TMP/code503")"
check_that "... in JSON saying so" grep -q '"error":"the server is at its limit of 8 connections' "$TMP/body"
check_that "... with Retry-After and Connection: close" \
    sh -c "grep -qi '^Retry-After: 5' '$TMP/h503' && grep -qi '^Connection: close' '$TMP/h503'"
check_that "... at once (under 1 s)" awk "BEGIN { exit !($(cut -d' ' -f2 "$TMP/code503") < 1) }"
for k in $held; do wait "$k"; done
i=0 # the server sees a stream's end within a second (DEPART_SHARES ticks)
until req a GET /api/play/lobby && [ "$CODE" = 200 ] || [ $i -ge 30 ]; do sleep 0.1; i=$((i + 1)); done
check_eq "served again once the streams end" 200 "$CODE"
DB=$DB_KEPT
restart

# ------------------------------------------------------------ profiles and leaderboards
# three Frisian games (no other section plays Frisian): Pia (white) resigns to Quin; Quin (white)
# and Pia agree a draw; Rob (no account, white) wins when Pia resigns; a fourth is aborted
req p POST /api/account/register '{"name":"Pia","password":"pia password"}'
req q POST /api/account/register '{"name":"Quin","password":"quin password"}'
# fgame WHITE BLACK END: a Frisian game of jars WHITE and BLACK, 32-28 18-23, then END
# ("resign WHO" or "draw"); sets FG (its id) and BODY (its last state, as WHITE sees it)
fgame() {
    req "$1" POST /api/play '{"variant":"frisian","colour":"white","name":"Rob"}'
    FG=$(j d.id)
    req "$2" POST /api/play/$FG/join '{}'
    req "$1" POST /api/play/$FG/move '{"move":"32-28"}'
    req "$2" POST /api/play/$FG/move '{"move":"18-23"}'
    if [ "$3" = draw ]; then
        req "$1" POST /api/play/$FG/draw '{"action":"offer"}'
        req "$2" POST /api/play/$FG/draw '{"action":"accept"}'
    else
        req "$4" POST /api/play/$FG/resign '{}'
    fi
    req "$1" GET /api/play/$FG
}
fgame p q resign p
FG1=$FG PIA1="$(j d.white.rating) $(j d.white.rating_change)"
check_eq "game 1: Quin wins" "black resignation" "$(j d.winner) $(j d.end)"
fgame q p draw
FG2=$FG PIA2="$(j d.black.rating) $(j d.black.rating_change)"
QUIN_AFTER=$(($(j d.white.rating) + $(j d.white.rating_change)))
fgame r p resign p
FG3=$FG PIA3="$(j d.black.rating) $(j d.black.rating_change)"
PIA_AFTER=$(($(j d.black.rating) + $(j d.black.rating_change)))
check_eq "game 3: Rob (no account) wins" "white Rob" "$(j d.winner) $(j d.white.name)"
req p POST /api/play '{"variant":"frisian","colour":"white"}'
FG4=$(j d.id)
req q POST /api/play/$FG4/join '{}'
req q POST /api/play/$FG4/abort '{}'
check_eq "game 4 aborted" aborted "$(j d.end)"

req - GET /api/players/pia
check_eq "a profile: 200, the account's name as registered" "200 Pia true" \
    "$CODE $(j d.player.name) $(j d.player.account)"
check_eq "... 3 games (not the aborted one): 0 wins, 1 draw, 2 losses" "3 0 1 2" \
    "$(j d.games) $(j d.wins) $(j d.draws) $(j d.losses)"
check_eq "... newest first" "$FG3 $FG2 $FG1" "$(j "d.list.map(g=>g.id).join(' ')")"
check_eq "... each with its result, colour, end and variant" \
    "loss black resignation frisian,draw black agreement frisian,loss white resignation frisian" \
    "$(j "d.list.map(g=>[g.result,g.colour,g.end,g.variant].join(' ')).join()")"
check_eq "... its opponents (Rob without an account)" "Rob false,Quin true,Quin true" \
    "$(j "d.list.map(g=>g.opponent.name+' '+g.opponent.account).join()")"
check_eq "... its rating before each game and the change (as the games showed)" \
    "$PIA3,$PIA2,$PIA1" "$(j "d.list.map(g=>g.rating+' '+g.rating_change).join()")"
check_eq "... its record in Frisian, and its rating after the last game" \
    "frisian 3 0 1 2 $PIA_AFTER" \
    "$(j "(r=>[r.variant,r.games,r.wins,r.draws,r.losses,r.rating].join(' '))(d.records[0])")"
check_eq "... one page: no newer, no older" "1 20 1 null null" \
    "$(j d.page) $(j d.per) $(j d.pages) $(j d.newer) $(j d.older)"
PIA_BODY=$BODY
req - "GET" "/api/players/Pia?page=2"
check_eq "page 2: none, the same counts" "200 0 3" "$CODE $(j d.list.length) $(j d.games)"
req - GET "/api/players?game=$FG3"
RID=$(j d.white.id)
check_eq "the players of a finished game: Rob by his browser's id, Pia by her name" \
    "Rob false Pia true null" \
    "$(j d.white.name) $(j d.white.account) $(j d.black.name) $(j d.black.account) $(j d.black.id)"
RTOKEN=$(sed -n 's/.*cd_player\t//p' "$TMP/r.jar" | tail -n 1)
check_eq "a browser's id is BLAKE2b of its token (8 bytes, keyed), not the token" \
    "$(python3 -c "import hashlib,sys; print(hashlib.blake2b(sys.argv[1].encode(), digest_size=8, \
        key=b\"condraughts: a browser's public id\").hexdigest())" "$RTOKEN")" "$RID"
req - GET "/api/players/~$RID"
check_eq "a browser's profile: its latest name, 1 win" "200 Rob false $RID 1 1 0 0 win $FG3" \
    "$CODE $(j d.player.name) $(j d.player.account) $(j d.player.id) $(j d.games) $(j d.wins) \
$(j d.draws) $(j d.losses) $(j d.list[0].result) $(j d.list[0].id)"
check_that "... no token in it" sh -c "! printf '%s' '$BODY' | grep -q '$RTOKEN'"
req r GET /api/players/me
check_eq "'me': a browser's own profile" "200 Rob $RID 1" "$CODE $(j d.player.name) $(j d.player.id) $(j d.games)"
req p GET /api/players/me
check_eq "... an account's own, when its browser is logged in" "200 Pia true 3" \
    "$CODE $(j d.player.name) $(j d.player.account) $(j d.games)"
req - GET /api/players/me
check_eq "... none without a cookie: 404" 404 "$CODE"
req nogames POST /api/play '{"variant":"frisian"}'
req nogames GET /api/players/me
check_eq "... a browser without a finished game: its empty profile" "200 0 0 true" \
    "$CODE $(j d.games) $(j d.list.length) $(j "/^[0-9a-f]{16}\$/.test(d.player.id)")"
req - GET "/api/players/pia/ratings?variant=frisian"
check_eq "Pia's rating graph: her rating after each rated game, oldest first" \
    "200 frisian $(echo "$PIA1" | awk '{print $1 + $2}'),$(echo "$PIA2" | awk '{print $1 + $2}'),$PIA_AFTER" \
    "$CODE $(j d.variant) $(j "d.points.map(p=>p[1]).join()")"
check_eq "... each point when its game ended (in order)" true "$(j "d.points.every((p,i,a)=>i===0||a[i-1][0]<=p[0])")"
req - "GET" "/api/players/pia/ratings?variant=russian"
check_eq "... none in a variant she has not played" "200 0" "$CODE $(j d.points.length)"
req - "GET" "/api/players/pia/ratings"
check_eq "... the variant is required: 400" 400 "$CODE"
req - "GET" "/api/players/pia/ratings?variant=nosuch"
check_eq "... an unknown variant: 404" 404 "$CODE"
req - "GET" "/api/players/Nobody/ratings?variant=frisian"
check_eq "... an unknown player: 404" 404 "$CODE"
req - "GET" "/api/players/Pia/nosuch"
check_eq "an unknown route under a player: 404" 404 "$CODE"
req - GET /api/players/Quin
check_eq "Quin: 1 win, 1 draw" "2 1 1 0 $QUIN_AFTER" \
    "$(j d.games) $(j d.wins) $(j d.draws) $(j d.losses) $(j d.records[0].rating)"
req - GET /api/leaderboard/frisian
check_eq "the Frisian leaderboard: none yet (Pia and Quin, 3 and 2 games, are provisional)" \
    "200 0 0 2" "$CODE $(j d.total) $(j d.list.length) $(sql_value "SELECT count(*) FROM ratings WHERE \
variant = 'frisian' AND player IN ('@Pia', '@Quin') AND rd > 110")"
# leaderboard rows written straight into the store, each (rating, rd, volatility, days since its
# latest rated game): Ann (1700, 60, 0.06, 1) and Bea (1800, 105, 0.06, 2) are listed; Cid
# (1900, 105, 0.06, 10: its deviation grows to 110.05) and Fay (2100, 111, 0.06, 0) are
# provisional; Dan (2000, 50, 0.01, 91) has not played for 90 days; Eve (1600, 80, 0.01, 89) is
# listed; Pia keeps her rating but not her place when she is made inactive (rd 50, 91 days). Gus
# (1650, 50, 0.01) is listed 30 minutes more and Ivo (1750, 50, 0.01) was until 30 minutes ago
# (their latest games 90 days and -30 and +30 minutes ago: the count's rows ending within the
# present hour, or the next or the last, as the clock falls)
NOW=$(($(date +%s) * 1000))
DAY=86400000
lb_row() { # lb_row NAME RATING RD VOL DAYS [MS]: a Frisian rating DAYS days and an hour (MS) old
    echo "INSERT INTO ratings VALUES ('@$1', 'frisian', $2, $3, $4, 20, $((NOW - $5 * DAY - ${6:-3600000})));"
}
sql "$(lb_row Ann 1700 60 0.06 1) $(lb_row Bea 1800 105 0.06 2) $(lb_row Cid 1900 105 0.06 10)
    $(lb_row Dan 2000 50 0.01 91) $(lb_row Eve 1600 80 0.01 89) $(lb_row Fay 2100 111 0.06 0)
    $(lb_row Gus 1650 50 0.01 90 -1800000) $(lb_row Ivo 1750 50 0.01 90 1800000)
    UPDATE ratings SET rd = 50, vol = 0.01, at = $((NOW - 91 * DAY - 3600000))
    WHERE player = '@Pia' AND variant = 'frisian';"
# the deviation as glicko_idle grows it, computed here: 173.7178 * sqrt((rd / 173.7178)^2 + days * vol^2)
grown() { awk -v rd="$1" -v vol="$2" -v d="$3" 'BEGIN { s = 173.7178; printf "%.0f", s * sqrt((rd / s) ^ 2 + d * vol ^ 2) }'; }
BOARD_ROWS="1 Bea 1800 $(grown 105 0.06 2) false,2 Ann 1700 $(grown 60 0.06 1) false,3 Gus 1650 $(grown 50 0.01 89) false,4 Eve 1600 $(grown 80 0.01 89) false"
req - GET /api/leaderboard/frisian
check_eq "the Frisian leaderboard: the established, active accounts, best first, their deviations grown by the idle days" \
    "200 4 $BOARD_ROWS" \
    "$CODE $(j d.total) $(j "d.list.map(e=>[e.rank,e.name,e.rating,e.rd,e.provisional].join(' ')).join()")"
sql "UPDATE ratings SET at = $((NOW - 91 * DAY)) WHERE player = '@Ann' AND variant = 'frisian'"
req - GET /api/leaderboard/frisian
check_eq "... Ann's latest game moved 91 days back: off it, counted off at once" \
    "200 3 Bea Gus Eve" "$CODE $(j d.total) $(j "d.list.map(e=>e.name).join(' ')")"
sql "UPDATE ratings SET at = $((NOW - DAY - 3600000)) WHERE player = '@Ann' AND variant = 'frisian'"
check_that "... Cid's deviation grown over 110 ($(awk 'BEGIN { s = 173.7178; printf "%.2f", s * sqrt((105 / s) ^ 2 + 10 * 0.06 ^ 2) }'))" \
    awk 'BEGIN { s = 173.7178; exit !(s * sqrt((105 / s) ^ 2 + 10 * 0.06 ^ 2) > 110) }'
req p POST /api/play '{"variant":"frisian","colour":"white"}'
check_eq "... Pia, off it for 91 days without a game, keeps her rating (her new game shows it)" \
    "201 $PIA_AFTER" "$CODE $(j d.white.rating)"
req p DELETE "/api/play/$(j d.id)"
# bad input: a clear error, in JSON
# a place in the games: ENDED.ID of a game, one of before and after, without page
for q in "before=abc" "before=1.zz" "before=.$FG1" "after=-1.$FG1" "before=1.${FG1}0" \
    "before=1.$FG1&after=1.$FG1" "before=1.$FG1&page=1"; do
    req - GET "/api/players/Pia?$q"
    check_eq "'$q': 400 with its error" \
        "400 'before' and 'after' are a game's place, ENDED.ID (the 'older' and 'newer' of an answer), one of them, without 'page'" \
        "$CODE $(j d.error)"
done
for q in 0 -1 abc 1.5 10001 ''; do
    req - GET "/api/players/Pia?page=$q"
    check_eq "page '$q': 400 with its error" "400 'page' is a number from 1 to 10000" "$CODE $(j d.error)"
done
req - GET "/api/leaderboard/frisian?page=0"
check_eq "leaderboard page 0: 400" 400 "$CODE"
req - GET /api/players/Nobody
check_eq "an unknown account: 404 JSON" "404 no such player: 'Nobody'" "$CODE $(j d.error)"
req - GET /api/players/~0123456789abcdef
check_eq "an unknown browser: 404 JSON" 404 "$CODE"
check_that "... with its error" test -n "$(j d.error)"
req - GET /api/players/~0123
check_eq "a malformed browser id: 400" 400 "$CODE"
req - GET "/api/players?game=$FG4"
check_eq "the players of an aborted game: 404" 404 "$CODE"
req - GET "/api/players?game=zzz"
check_eq "... of no game: 404" 404 "$CODE"
req - GET "/api/players"
check_eq "... no game given: 400" 400 "$CODE"
req - GET /api/leaderboard/nosuchvariant
check_eq "an unknown variant's leaderboard: 404 JSON" "404 no such variant: 'nosuchvariant' (GET /api/variants)" \
    "$CODE $(j d.error)"
req - GET /api/leaderboard
check_eq "a leaderboard without a variant: 404" 404 "$CODE"
req p POST /api/players/Pia '{}'
check_eq "a profile is read only: 405" 405 "$CODE"
# a database made before the profiles: the finished games' results written at start; and before
# the leaderboards' count: its column and counts made
sql "DROP TABLE results; DROP TABLE records; DROP TABLE board_counts;"
if [ -n "$PG" ]; then
    sql "DROP TRIGGER board_count ON ratings; DROP FUNCTION board_count;
        ALTER TABLE ratings DROP COLUMN listed_until;"
else
    sql "DROP TRIGGER board_insert; DROP TRIGGER board_update; DROP TRIGGER board_delete;
        DROP INDEX ratings_until; ALTER TABLE ratings DROP COLUMN listed_until;"
fi
check_eq "... made before the count: no column listed_until" "" \
    "$(sql_value "SELECT listed_until FROM ratings LIMIT 1" 2>/dev/null)"
restart
req - GET /api/leaderboard/frisian
check_eq "... and the leaderboard counted again at start" "200 4 $BOARD_ROWS" \
    "$CODE $(j d.total) $(j "d.list.map(e=>[e.rank,e.name,e.rating,e.rd,e.provisional].join(' ')).join()")"
req - GET /api/players/Pia
check_eq "a database without the profile tables: Pia's games read back from the games" \
    "$(BODY=$PIA_BODY j "[d.games,d.wins,d.draws,d.losses,JSON.stringify(d.records),d.list.map(g=>g.id+g.result+g.rating_change+g.opponent.name)].join()")" \
    "$(j "[d.games,d.wins,d.draws,d.losses,JSON.stringify(d.records),d.list.map(g=>g.id+g.result+g.rating_change+g.opponent.name)].join()")"

# ------------------------------------------------------------ 100,000 finished games in the store
# (written straight into the database): the server starts, the lobby and a finished game answer
# in milliseconds (the figures are printed; the checks allow 1 s on a loaded machine).
# PLAY_NBIG=1000000 makes the store the issue's million games (`make play-big`)
NBIG=${PLAY_NBIG:-100000}
kill "$PID" 2>/dev/null
wait "$PID" 2>/dev/null
PID=
T0=$(date +%s%N)
RECENT=$(($(date +%s) * 1000 - 3600000)) OLD=$(($(date +%s) * 1000 - 91 * 86400000))
if [ -n "$PG" ]; then
    sql "INSERT INTO games SELECT lpad(to_hex(i), 12, '0'), 'international', '', 2, 180000, 2000,
        lpad(to_hex(i), 32, '0'), lpad(to_hex(i + $NBIG), 32, '0'), 'White ' || i, 'Black ' || i,
        1, 2, 2, 1, 170000, 175000, 0, -1, -1, -1, '', 1700000000000 + i, 1500, 350, 0.06, 1600,
        300, 0.06, 1500, 350, 0.06, 1400, 300, 0.06, 0, 0 FROM generate_series(1, $NBIG) i;
    INSERT INTO moves SELECT lpad(to_hex(i), 12, '0'), 0, '32-28', 180000, 180000,
        1700000000000 + i FROM generate_series(1, $NBIG) i;
    INSERT INTO accounts VALUES ('Many', 'no password', 0, 'many: a test account');
    INSERT INTO results SELECT '@Many', lpad(to_hex(i), 12, '0'), 1700000000000 + i,
        'international', 0, 2, 'Many', '~' || lpad(to_hex(i), 16, '0'), 'Black ' || i, 2, 1500,
        1600, 1 FROM generate_series(1, $NBIG) i;
    INSERT INTO results SELECT '~' || lpad(to_hex(i), 16, '0'), lpad(to_hex(i), 12, '0'),
        1700000000000 + i, 'international', 1, 0, 'Black ' || i, '@Many', 'Many', 2, 1500, 1400, 1
        FROM generate_series(1, $NBIG) i;
    INSERT INTO records SELECT player, variant, sum((score = 2)::INTEGER), sum((score = 1)::INTEGER),
        sum((score = 0)::INTEGER), 0, 0, 0, 0 FROM results WHERE ended <= 1700000000000 + $NBIG GROUP BY player, variant;
    INSERT INTO ratings SELECT '@P' || i, 'brazilian', 1000 + i / 100.0, 60, 0.06, 10,
        CASE WHEN i % 10 = 0 THEN $OLD ELSE $RECENT END FROM generate_series(1, $NBIG) i;"
    sql "VACUUM ANALYZE" # as autovacuum does after a bulk of rows (the index-only scans' visibility)
else
    sql "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $NBIG)
    INSERT INTO games SELECT printf('%012x', i), 'international', '', 2, 180000, 2000,
        printf('%032x', i), printf('%032x', i + $NBIG), 'White ' || i, 'Black ' || i, 1, 2, 2, 1,
        170000, 175000, 0, -1, -1, -1, '', 1700000000000 + i, 1500, 350, 0.06, 1600, 300, 0.06,
        1500, 350, 0.06, 1400, 300, 0.06, 0, 0 FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $NBIG)
    INSERT INTO moves SELECT printf('%012x', i), 0, '32-28', 180000, 180000, 1700000000000 + i FROM n;
    INSERT INTO accounts (name, hash, created, skey) VALUES ('Many', 'no password', 0, 'many: a test account');
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $NBIG)
    INSERT INTO results SELECT '@Many', printf('%012x', i), 1700000000000 + i, 'international', 0,
        2, 'Many', printf('~%016x', i), 'Black ' || i, 2, 1500, 1600, 1 FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $NBIG)
    INSERT INTO results SELECT printf('~%016x', i), printf('%012x', i), 1700000000000 + i,
        'international', 1, 0, 'Black ' || i, '@Many', 'Many', 2, 1500, 1400, 1 FROM n;
    INSERT INTO records SELECT player, variant, sum(score = 2), sum(score = 1), sum(score = 0), 0,
        0, 0, 0 FROM results WHERE ended <= 1700000000000 + $NBIG GROUP BY player, variant;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < $NBIG)
    INSERT INTO ratings SELECT '@P' || i, 'brazilian', 1000 + i / 100.0, 60, 0.06, 10,
        CASE WHEN i % 10 = 0 THEN $OLD ELSE $RECENT END FROM n;
    ANALYZE;"
fi
T1=$(date +%s%N)
start_server --max-games 3
T2=$(date +%s%N)
ms() { echo $((($2 - $1) / 1000000)); }
# timed VAR PATH: GET PATH; VAR becomes the seconds its answer took, BODY the answer
timed() {
    eval "$1=\$(curl -s -o \"\$TMP/body\" -w '%{time_total}' \"\$URL\$2\")"
    BODY=$(cat "$TMP/body")
}
timed LOBBY_S "/api/play/lobby"
check_eq "with $NBIG finished games the lobby lists none (no game is live)" "0 0" "$(j d.open_total) $(j d.live_total)"
timed GAME_S "/api/play/$(printf '%012x' 77777)"
check_eq "... a finished game among them is read" "White 77777 over resignation 32-28" \
    "$(j d.white.name) $(j d.state) $(j d.end) $(j d.history[0])"
timed PDN_S "/api/play/$(printf '%012x' 99999)/pdn"
check_that "... and its PDN" grep -q 'Black 99999' "$TMP/body"
timed POS_S "/api/play/$(printf '%012x' 88888)/positions"
check_eq "... and its positions (the move's squares)" "[32,28]" "$(j d.positions[1].last)"
req c5 POST /api/play '{}' --interface 127.0.0.10
check_eq "... and a game is created (the cap counts live games)" 201 "$CODE"
# the profile of an account with all $NBIG games (each a win as white against a browser), its
# first and its last page; a browser's profile; a leaderboard of $NBIG accounts (account Pi rated
# 1000 + i/100, deviation 60; every tenth without a game for 91 days, the others an hour ago: 90%
# of them listed), its first and last page
timed PROF1_S "/api/players/Many"
check_eq "the profile of a player with $NBIG games: the counts, the newest first" \
    "$NBIG $NBIG 0 0 $((NBIG / 20)) $(printf '%012x' $NBIG) win Black $NBIG" \
    "$(j d.games) $(j d.wins) $(j d.draws) $(j d.losses) $(j d.pages) $(j d.list[0].id) $(j d.list[0].result) $(j d.list[0].opponent.name)"
check_eq "... the place of its older games: game $((NBIG - 19)), none newer" \
    "$((1700000000000 + NBIG - 19)).$(printf '%012x' $((NBIG - 19))) null" "$(j d.older) $(j d.newer)"
# the deepest page asked by number: its last (pages are 1 to 10,000: docs/api.md), or page
# 10,000 where there are more (then the last is reached by place only)
DEEP=$((NBIG / 20 < 10000 ? NBIG / 20 : 10000))
timed PROF2_S "/api/players/Many?page=$DEEP"
check_eq "... its page $DEEP: games $((NBIG - DEEP * 20 + 20)) to $((NBIG - DEEP * 20 + 1))" \
    "20 $(printf '%012x' $((NBIG - DEEP * 20 + 20))) $(printf '%012x' $((NBIG - DEEP * 20 + 1)))" \
    "$(j d.list.length) $(j d.list[0].id) $(j d.list[19].id)"
if [ "$DEEP" -lt $((NBIG / 20)) ]; then
    req - GET "/api/players/Many?page=10001"
    check_eq "... page 10,001 refused" "400 'page' is a number from 1 to 10000" "$CODE $(j d.error)"
fi
# place P: game P's ENDED.ID
place() { echo "$((1700000000000 + $1)).$(printf '%012x' "$1")"; }
timed PROF4_S "/api/players/Many?before=$(place 21)"
# the same rows as its last page by number where that page may be asked for, else games 20 to 1
# one by one
if [ "$DEEP" -eq $((NBIG / 20)) ]; then
    LASTROWS=$(BODY=$(curl -s "$URL/api/players/Many?page=$DEEP") j "JSON.stringify(d.list)")
    ROWS=$(j "JSON.stringify(d.list)")
else
    LASTROWS=$(i=20; while [ $i -ge 1 ]; do printf '%012x ' $i; i=$((i - 1)); done)
    ROWS=$(j "d.list.map(g=>g.id).join(' ')")' '
fi
check_eq "... its last page by its place (before game 21): games 20 to 1, the same rows, none older" \
    "20 $(printf '%012x' 20) $(printf '%012x' 1) null $(place 20) $LASTROWS" \
    "$(j d.list.length) $(j d.list[0].id) $(j d.list[19].id) $(j d.older) $(j d.newer) $ROWS"
timed PROF5_S "/api/players/Many?after=$(place 20)"
check_eq "... the page newer than game 20: games 40 to 21, newest first" \
    "20 $(printf '%012x' 40) $(printf '%012x' 21) $(place 40) $(place 21)" \
    "$(j d.list.length) $(j d.list[0].id) $(j d.list[19].id) $(j d.newer) $(j d.older)"
req - GET "/api/players/Many?after=$(place $((NBIG - 5)))"
check_eq "... the newest 5 (after game $((NBIG - 5))): no newer" "5 $(printf '%012x' $NBIG) null" \
    "$(j d.list.length) $(j d.list[0].id) $(j d.newer)"
timed PROF3_S "/api/players/~$(printf '%016x' 77777)"
check_eq "... a browser among its opponents" "Black 77777 1 loss Many" \
    "$(j d.player.name) $(j d.losses) $(j d.list[0].result) $(j d.list[0].opponent.name)"
timed GRAPH_S "/api/players/Many/ratings?variant=international"
check_eq "... its rating graph: the latest 200 rated games, oldest first" "200 1600 $((1700000000000 + NBIG - 199))" \
    "$(j d.points.length) $(j d.points[0][1]) $(j d.points[0][0])"
timed BOARD1_S "/api/leaderboard/brazilian"
check_eq "a leaderboard of $NBIG accounts: the active ones, the best first" \
    "$((NBIG * 9 / 10)) $((NBIG * 9 / 20 / 10)) 1 P$((NBIG - 1)) $((1000 + NBIG / 100)) 2 P$((NBIG - 2)) $((1000 + NBIG / 100))" \
    "$(j d.total) $(j d.pages) $(j "d.list.slice(0,2).map(e=>[e.rank,e.name,e.rating].join(' ')).join(' ')")"
timed BOARD3_S "/api/leaderboard/brazilian?page=2"
if [ $((NBIG * 9 / 20 / 10)) -le 10000 ]; then
    timed BOARD2_S "/api/leaderboard/brazilian?page=$((NBIG * 9 / 20 / 10))"
    check_eq "... its last page: the lowest 20 (P10 and P20 inactive)" "$((NBIG * 9 / 10 - 19)) P22 1000 $((NBIG * 9 / 10)) P1 1000" \
        "$(j "[d.list[0].rank,d.list[0].name,d.list[0].rating,d.list[19].rank,d.list[19].name,d.list[19].rating].join(' ')")"
else
    timed BOARD2_S "/api/leaderboard/brazilian?page=10000"
    check_eq "... its deepest page, 10,000: ranks 199,981 to 200,000" "20 199981 200000" \
        "$(j "[d.list.length,d.list[0].rank,d.list[19].rank].join(' ')")"
fi
echo "$NAME: $NBIG finished games: written in $(ms "$T0" "$T1") ms, the server up in $(ms "$T1" "$T2") ms;" \
    "lobby ${LOBBY_S} s, a finished game ${GAME_S} s, its PDN ${PDN_S} s, its positions ${POS_S} s;" \
    "a profile of $NBIG games ${PROF1_S} s (its last page ${PROF2_S} s by page, ${PROF4_S} s by place; the page after it by place ${PROF5_S} s; its rating graph ${GRAPH_S} s), a browser's ${PROF3_S} s;" \
    "a leaderboard of $NBIG ${BOARD1_S} s (counting them; its page 2 ${BOARD3_S} s, its last page ${BOARD2_S} s)"
for t in "$LOBBY_S" "$GAME_S" "$PDN_S" "$POS_S" "$PROF1_S" "$PROF2_S" "$PROF3_S" "$PROF4_S" "$PROF5_S" \
    "$GRAPH_S" "$BOARD1_S" "$BOARD2_S" "$BOARD3_S"; do
    check_that "an answer within 1 s ($t s)" awk "BEGIN { exit !($t < 1) }"
done

summary "$NAME"

#!/bin/sh
# tests/api.sh -- the web API of `condraughts serve`, driven with curl.
#   sh tests/api.sh [--bin build/condraughts]
# Starts the server on a free port with a temporary data directory, plays games in several
# variants through the API, checks every error path, restarts the server on the same data and
# checks the games are still there, reads an SSE analysis, and checks the endgame tablebase
# verdict ("egtb") with a table set built here. Prints "api: N passed, M failed".
set -u
BIN=build/condraughts
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    *) echo "usage: sh tests/api.sh [--bin BIN]" >&2; exit 2 ;;
    esac
done
command -v curl >/dev/null 2>&1 || { echo "api: curl is required" >&2; exit 1; }
# the servers run in other folders (see start_server)
case $BIN in /*) ;; */*) BIN=$(pwd)/$BIN ;; esac

TMP=$(mktemp -d)
DATA=$TMP/games
WEB=$TMP/web
mkdir -p "$WEB"
echo '<!doctype html><title>condraughts</title>' >"$WEB/index.html"
echo 'console.log("app");' >"$WEB/app.js"
echo 'body{}' >"$WEB/style.css"
cp "$(dirname "$0")/../web/favicon.ico" "$WEB/"
PID=

cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    umount "$TMP/mnt" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

. "$(dirname "$0")/lib.sh"

# start_server [FOLDER [OPTION...]]: the server runs in FOLDER, $TMP by default, which has no
# egtb folder (so no endgame tables unless an option names some)
start_server() {
    cwd=${1:-$TMP}
    [ $# -gt 0 ] && shift
    : >"$TMP/out"
    (cd "$cwd" && exec "$BIN" serve --port 0 --data "$DATA" --web "$WEB" "$@") >"$TMP/out" 2>>"$TMP/err" &
    PID=$!
    serve_wait api "$TMP/out" "$TMP/err"
}

stop_server() {
    kill "$PID" 2>/dev/null
    wait "$PID"
    RC=$?
    PID=
}

# req METHOD PATH [BODY]: sets CODE, BODY, TYPE
req() {
    if [ $# -ge 3 ]; then
        printf '%s' "$3" >"$TMP/req"
        set -- "$1" "$2" --data-binary "@$TMP/req" -H 'Content-Type: application/json'
    fi
    m=$1
    p=$2
    shift 2
    CODE=$(curl -s -o "$TMP/body" -w '%{http_code} %{content_type}' -X "$m" "$@" "$URL$p")
    TYPE=${CODE#* }
    CODE=${CODE%% *}
    BODY=$(cat "$TMP/body")
}
# req_timed METHOD PATH [BODY]: req, and sets took, its seconds
req_timed() {
    t0=$(date +%s.%N)
    req "$@"
    took=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')
}

# field NAME: a top-level string field of BODY (first occurrence)
field() { printf '%s' "$BODY" | sed -n "s/^[^\"]*\"$1\":\"\([^\"]*\)\".*/\1/p; t; s/.*,\"$1\":\"\([^\"]*\)\".*/\1/p" | head -n 1; }
# num NAME: a numeric field
num() { printf '%s' "$BODY" | sed -n "s/.*\"$1\":\(-\{0,1\}[0-9][0-9.]*\).*/\1/p" | head -n 1; }
# moves: the "text" of every legal move, one a line
moves() { printf '%s' "$BODY" | sed 's/.*"moves":\[//; s/\],"history".*//' | grep -o '"text":"[^"]*"' | sed 's/"text":"//; s/"$//'; }
has() { printf '%s' "$BODY" | grep -q -- "$1"; }
is() { [ "$1" = "$2" ]; }
not() { ! "$@"; }

start_server

# ------------------------------------------------------------ static files
req GET /
check_that "GET / serves index.html" is "$CODE" 200
check_that "index.html is text/html" is "${TYPE%%;*}" text/html
req GET /app.js
check_that "app.js content type" is "${TYPE%%;*}" text/javascript
req GET /style.css
check_that "style.css content type" is "${TYPE%%;*}" text/css
CODE=$(curl -s -o /dev/null -w '%{http_code}' --path-as-is "$URL/../../etc/passwd")
check_that "path with .. rejected" is "$CODE" 404
CODE=$(curl -s -o /dev/null -w '%{http_code}' "$URL/a%20b.js")
check_that "path with a bad character rejected" is "$CODE" 404
req GET /missing.js
check_that "missing static file 404" is "$CODE" 404
req POST /app.js '{}'
check_that "POST to a static file 405" is "$CODE" 405
req GET /favicon.ico
check_that "the favicon" is "$CODE $TYPE" "200 image/x-icon"

# ------------------------------------------------------------ variants
req GET /api/variants
check_that "variants 200" is "$CODE" 200
check_that "variants is JSON" is "$TYPE" application/json
check_that "variants lists international" has '"name":"international","title":"International draughts","width":10,"height":10,"squares":50,"algebraic":false,"mirrored":false'
check_that "variants lists russian as algebraic" has '"name":"russian","title":"[^"]*","width":8,"height":8,"squares":32,"algebraic":true'
check_that "variants lists a mirrored board" has '"mirrored":true'

# ------------------------------------------------------------ create
req POST /api/games '{"variant":"international","human":"both","level":1}'
check_that "create international 201" is "$CODE" 201
INT=$(field id)
check_that "game id is hex" sh -c "printf '%s' '$INT' | grep -Eq '^[0-9a-f]+$'"
check_that "new game ply 0" is "$(num ply)" 0
check_that "new game ongoing" is "$(field status)" ongoing
check_that "new game white to move" is "$(field side)" white
check_that "new game fen" is "$(field fen)" "W:W31-50:B1-20"
check_that "new game result *" is "$(field result)" "*"
check_that "new game 9 moves" is "$(moves | wc -l | tr -d ' ')" 9
check_that "board has 50 entries" is "$(printf '%s' "$BODY" | sed 's/.*"board":\[\([^]]*\)\].*/\1/' | awk -F, '{print NF}')" 50
check_that "squares carry row and col" has '"squares":\[{"n":1,"row":0,"col":1},{"n":2,"row":0,"col":3}'
check_that "move objects" has '{"text":"32-28","hub":"32-28","from":32,"to":28,"path":\[28\],"captures":\[\]}'
check_that "international has no threats" sh -c "! printf '%s' '$BODY' | grep -q threats"

req POST /api/games '{"variant":"russian","human":"white","level":1}'
check_that "create russian 201" is "$CODE" 201
RUS=$(field id)
check_that "russian variant name" is "$(field variant)" russian
check_that "russian moves are algebraic" sh -c "printf '%s\n' '$(moves | tr '\n' ' ')' | grep -q 'c3-d4'"

req POST /api/games '{}'
check_that "create with defaults 201" is "$CODE" 201
check_that "default variant constitutional" is "$(field variant)" constitutional
check_that "constitutional has threats" has '"threats":{}'
DEF=$(field id)

req POST /api/games '{"variant":"constitutional","fen":"W:WK46,31:BK5,20"}'
check_that "create from FEN 201" is "$CODE" 201
check_that "king threats listed" has '"threats":{"5":\[[0-9]'
check_that "king threats for both kings" has '"46":\['

# ------------------------------------------------------------ create errors
req POST /api/games '{"variant":"nosuch"}'
check_that "unknown variant 400" is "$CODE" 400
check_that "error is JSON" has '"error":"unknown variant'
req POST /api/games '{"variant":"international","fen":"W:W99"}'
check_that "bad FEN 400" is "$CODE" 400
req POST /api/games '{"variant":5}'
check_that "variant of wrong type 400" is "$CODE" 400
req POST /api/games '{"level":11}'
check_that "level out of range 400" is "$CODE" 400
req POST /api/games '{"level":"3"}'
check_that "level of wrong type 400" is "$CODE" 400
req POST /api/games '{"human":"green"}'
check_that "bad human 400" is "$CODE" 400
req POST /api/games '{"variant":'
check_that "malformed JSON 400" is "$CODE" 400
check_that "malformed JSON message" has '"error":"malformed JSON"'
req POST /api/games '[1,2]'
check_that "JSON array body 400" is "$CODE" 400

# ------------------------------------------------------------ moves and their errors
req POST "/api/games/$INT/move" '{"move":"32-28"}'
check_that "legal move 200" is "$CODE" 200
check_that "ply 1 after a move" is "$(num ply)" 1
check_that "black to move" is "$(field side)" black
check_that "history" has '"history":\["32-28"\]'
FEN1=$(field fen)
req POST "/api/games/$INT/move" '{"move":"32-28"}'
check_that "illegal move 400" is "$CODE" 400
check_that "illegal move message" has '"error":"'
req POST "/api/games/$INT/move" '{"move":"hello"}'
check_that "malformed move 400" is "$CODE" 400
req POST "/api/games/$INT/move" '{"move":7}'
check_that "move of wrong type 400" is "$CODE" 400
req POST "/api/games/$INT/move" '{}'
check_that "missing move 400" is "$CODE" 400
req POST "/api/games/$INT/move" '{"move":'
check_that "malformed JSON move 400" is "$CODE" 400
req POST "/api/games/$INT/move"
check_that "empty body move 400" is "$CODE" 400
req GET "/api/games/$INT"
check_that "game unchanged after errors (ply)" is "$(num ply)" 1
check_that "game unchanged after errors (fen)" is "$(field fen)" "$FEN1"
req POST "/api/games/$INT/move" '{"move":"19-28"}'
check_that "move to an occupied square 400" is "$CODE" 400
req POST "/api/games/$INT/move" '{"move":"99-94"}'
check_that "move from a square off the board 400" is "$CODE" 400
req POST "/api/games/$INT/move" '{"move":"19-23"}'
check_that "second move 200" is "$CODE" 200
req POST "/api/games/$INT/move" '{"move":"28x19"}'
check_that "capture 200" is "$CODE" 200
check_that "capture in history" has '"history":\["32-28","19-23","28x19"\]'

# ambiguous: two captures 10x26 by different paths (English, men capture forwards only)
req POST /api/games '{"variant":"english","fen":"B:W14,15,22,23:B10","human":"both"}'
AMB=$(field id)
req POST "/api/games/$AMB/move" '{"move":"10x26"}'
check_that "ambiguous move 400" is "$CODE" 400
check_that "ambiguous lists candidates" has 'ambiguous.*10x17x26.*10x19x26'
req POST "/api/games/$AMB/move" '{"move":"10x19x26"}'
check_that "full path disambiguates" is "$CODE" 200
check_that "path move recorded" has '"history":\["10x19x26"\]'
req POST /api/games '{"variant":"english","fen":"B:W14,15,22,23:B10","human":"both"}'
AMB2=$(field id)
req POST "/api/games/$AMB2/move" '{"move":"10x26x14x22"}'
check_that "Hub form with captures accepted" is "$CODE" 200
check_that "Hub form picked the right capture" is "$(field fen)" "W:W15,23:B26"

# game over: 409 on move, engine, hint
req POST /api/games '{"variant":"international","fen":"W:W28:B22","human":"both"}'
OVER=$(field id)
req POST "/api/games/$OVER/move" '{"move":"28x17"}'
check_that "winning capture 200" is "$CODE" 200
check_that "white wins" is "$(field status)" "white wins"
check_that "result 2-0" is "$(field result)" "2-0"
check_that "reason given" test -n "$(field reason)"
check_that "no moves when over" has '"moves":\[\]'
req POST "/api/games/$OVER/move" '{"move":"17-11"}'
check_that "move after game over 409" is "$CODE" 409
req POST "/api/games/$OVER/engine"
check_that "engine after game over 409" is "$CODE" 409
req POST "/api/games/$OVER/hint"
check_that "hint after game over 409" is "$CODE" 409
req GET "/api/games/$OVER/analyse?time=0.1"
check_that "analyse after game over 409" is "$CODE" 409

# ------------------------------------------------------------ engine, hint, undo
req POST "/api/games/$INT/engine" '{"depth":3}'
check_that "engine move 200" is "$CODE" 200
check_that "engine played" is "$(num ply)" 4
check_that "last_engine present" has '"last_engine":{"move":"[^"]*","score":-\{0,1\}[0-9]*,"depth":[0-9]*,"nodes":[0-9]*,"time":'
check_that "International has no book: the engine searched" has '"nodes":[1-9][0-9]*,"time":[0-9.e-]*,"book":false}'
req POST "/api/games/$INT/engine"
check_that "engine at level 200" is "$CODE" 200
req POST "/api/games/$INT/engine" '{"movetime":0.05}'
check_that "engine movetime 200" is "$CODE" 200
check_that "ply 6" is "$(num ply)" 6
# a single legal move (after 32-28 19-23 White must take, 28x19) is played at once, not searched
# for the 6 s asked (1.5 s allows for a loaded machine; a search to the limit takes all 6)
req POST /api/games '{"variant":"international","fen":"W:W28,31,33-50:B1-18,20,23","human":"black"}'
FORCED=$(field id)
req_timed POST "/api/games/$FORCED/engine" '{"movetime":6}'
check_that "forced capture: engine 200" is "$CODE" 200
check_that "forced capture played" has '"last_engine":{"move":"28x19"'
check_that "forced capture answered in ${took} s, want under 1.5 (movetime 6)" \
    awk -v t="$took" 'BEGIN { exit !(t < 1.5) }'
req POST "/api/games/$INT/engine" '{"depth":"x"}'
check_that "engine depth of wrong type 400" is "$CODE" 400
req POST "/api/games/$INT/engine" '{"movetime":-1}'
check_that "engine negative movetime 400" is "$CODE" 400
req POST "/api/games/$INT/hint"
check_that "hint 200" is "$CODE" 200
check_that "hint has a move and a score" has '"move":"[0-9][0-9]*[-x][0-9]*.*"score":'
req GET "/api/games/$INT"
check_that "hint does not play" is "$(num ply)" 6
req POST "/api/games/$INT/undo"
check_that "undo 200" is "$CODE" 200
check_that "undo one ply" is "$(num ply)" 5
check_that "undo clears last_engine" sh -c "! printf '%s' '$BODY' | grep -q last_engine"
req POST "/api/games/$INT/undo" '{"plies":2}'
check_that "undo two plies" is "$(num ply)" 3
req POST "/api/games/$INT/undo" '{"plies":"2"}'
check_that "undo plies of wrong type 400" is "$CODE" 400
req POST "/api/games/$INT/undo" '{"plies":100}'
check_that "undo past the start stops at 0" is "$(num ply)" 0
req POST "/api/games/$OVER/undo"
check_that "undo a finished game" is "$(field status)" ongoing

# ------------------------------------------------------------ the opening book
# The server reads the shipped book of each variant as the CLI does (books/VARIANT.cdb: here the
# build tree's, beside the program, as the server runs in $TMP, which has no books folder), and
# /engine plays the book's first legal move at once. The moves expected are what `condraughts
# book probe` reads from the same file, through the CLI's own lookup from the same folder.
# le NAME: a field of last_engine
le() { printf '%s' "$BODY" | sed -n 's/.*"last_engine":{\([^}]*\)}.*/\1/p' | tr ',' '\n' | sed -n "s/^\"$1\":\"\{0,1\}\([^\"]*\)\"\{0,1\}\$/\1/p"; }
check_that "serve names the shipped English book" grep -q '^condraughts: opening books:.* english\( \|$\)' "$TMP/out"
PROBE1=$(cd "$TMP" && "$BIN" book probe --variant english | sed -n '1s/ .*//p')
check_that "book probe gives the start's move" test -n "$PROBE1"
req POST /api/games '{"variant":"english","human":"white"}'
EN=$(field id)
req_timed POST "/api/games/$EN/engine" '{"movetime":6}'
check_that "book: English engine 200" is "$CODE" 200
check_eq "book: the engine's first move is book probe's" "$PROBE1" "$(le move)"
check_eq "book: last_engine says book, no search" "true 0 0" "$(le book) $(le nodes) $(le time)"
check_that "book move answered in ${took} s, want under 1 (movetime 6)" \
    awk -v t="$took" 'BEGIN { exit !(t < 1) }'
# a hint in a book position is still a search, to the depth asked
req POST "/api/games/$EN/hint" '{"depth":4}'
check_eq "book: a hint searches (depth 4)" "200 4" "$CODE $(num depth)"
# the person's reply (the first legal move), then the engine's: the book's again when probe
# finds the position, else a search
req GET "/api/games/$EN"
HUMAN=$(moves | head -n 1)
req POST "/api/games/$EN/move" "{\"move\":\"$HUMAN\"}"
PROBE2=$(cd "$TMP" && "$BIN" book probe --variant english --fen "$(field fen)")
IN_BOOK=$?
req POST "/api/games/$EN/engine" '{"depth":3}'
if [ "$IN_BOOK" -eq 0 ]; then
    check_eq "book: after $PROBE1 $HUMAN the engine plays book probe's move" \
        "${PROBE2%% *} true" "$(le move) $(le book)"
elif [ "$IN_BOOK" -ne 1 ]; then
    bad "book probe after $PROBE1 $HUMAN: status $IN_BOOK"
else
    check_eq "book: after $PROBE1 $HUMAN (not in the book) the engine searches" \
        "false 3" "$(le book) $(le depth)"
fi
# a variant without a book: a search, as before
req POST /api/games '{"variant":"russian","human":"white"}'
req POST "/api/games/$(field id)/engine" '{"depth":3}'
check_eq "book: Russian (no book) searches" "200 false 3" "$CODE $(le book) $(le depth)"
stop_server
# --book none: no book at all
start_server "$TMP" --book none
check_that "--book none: no books named" not grep -q 'opening books' "$TMP/out"
req POST "/api/games/$EN/undo" '{"plies":3}'
req POST "/api/games/$EN/engine" '{"depth":3}'
check_eq "--book none: the English engine searches" "200 false 3" "$CODE $(le book) $(le depth)"
stop_server
# --book FILE: a tiny International book made here (its first move by probe), the shipped
# English one kept
echo 32-28 >"$TMP/book-line.txt"
"$BIN" book build --variant international --openings "$TMP/book-line.txt" --plies 0 --nodes 2000 \
    --out "$TMP/intl.cdb" >/dev/null 2>&1
PROBE3=$("$BIN" book probe --variant international --book "$TMP/intl.cdb" | sed -n '1s/ .*//p')
check_that "a small International book" test -n "$PROBE3"
start_server "$TMP" --book "$TMP/intl.cdb"
check_that "--book FILE: its variant and the shipped ones" \
    grep -q '^condraughts: opening books: international.* english\( \|$\)' "$TMP/out"
req POST /api/games '{"variant":"international","human":"black"}'
req POST "/api/games/$(field id)/engine" '{"depth":3}'
check_eq "--book FILE: the International engine plays its move" "$PROBE3 true" "$(le move) $(le book)"
req POST /api/games '{"variant":"english","human":"white"}'
req POST "/api/games/$(field id)/engine"
check_eq "--book FILE: English still from the shipped book" "$PROBE1 true" "$(le move) $(le book)"
stop_server
# a book that cannot be read stops the server at start, naming the file
printf 'garbage' >"$TMP/bad.cdb"
head -c 100 "$(dirname "$BIN")/../books/english.cdb" >"$TMP/short.cdb"
expect_fail 2 "^condraughts serve: book file $TMP/none.cdb cannot be read: No such file or directory\$" \
    timeout 20 "$BIN" serve --port 0 --data "$DATA" --web "$WEB" --book "$TMP/none.cdb"
expect_fail 2 "^condraughts serve: book file $TMP/bad.cdb: not an opening book" \
    timeout 20 "$BIN" serve --port 0 --data "$DATA" --web "$WEB" --book "$TMP/bad.cdb"
expect_fail 2 "^condraughts serve: book file $TMP/short.cdb: truncated" \
    timeout 20 "$BIN" serve --port 0 --data "$DATA" --web "$WEB" --book "$TMP/short.cdb"
# --trust-proxy takes an IPv4 address (the server listens on IPv4), at most 4 of them: anything
# else stops the server at start, before it makes its data folder
expect_fail 2 "^condraughts serve: --trust-proxy: 'nope' is not an IPv4 address\$" \
    timeout 20 "$BIN" serve --port 0 --data "$TMP/never" --web "$WEB" --trust-proxy nope
expect_fail 2 "^condraughts serve: --trust-proxy: '::1' is not an IPv4 address\$" \
    timeout 20 "$BIN" serve --port 0 --data "$TMP/never" --web "$WEB" --trust-proxy 127.0.0.1 \
    --trust-proxy ::1
expect_fail 2 "^condraughts serve: --trust-proxy: '10.1.2' is not an IPv4 address\$" \
    timeout 20 "$BIN" serve --port 0 --data "$TMP/never" --web "$WEB" --trust-proxy 10.1.2
expect_fail 2 "^condraughts serve: --trust-proxy: at most 4 proxies\$" \
    timeout 20 "$BIN" serve --port 0 --data "$TMP/never" --web "$WEB" --trust-proxy 10.0.0.1 \
    --trust-proxy 10.0.0.2 --trust-proxy 10.0.0.3 --trust-proxy 10.0.0.4 --trust-proxy 10.0.0.5
expect_fail 2 "^condraughts serve: --trust-proxy needs a value" \
    timeout 20 "$BIN" serve --port 0 --data "$TMP/never" --web "$WEB" --trust-proxy
check_that "... no data folder made" test ! -e "$TMP/never"
# ... and so does a damaged shipped book found by the default lookup (./books first)
mkdir -p "$TMP/badbooks/books"
cp "$TMP/short.cdb" "$TMP/badbooks/books/english.cdb"
expect_fail 2 "^condraughts serve: book file books/english.cdb: truncated" \
    sh -c "cd '$TMP/badbooks' && exec timeout 20 '$BIN' serve --port 0 --data '$DATA' --web '$WEB'"
start_server

# ------------------------------------------------------------ routes, methods, sizes
req GET /api/games/ffffffff
check_that "unknown game 404" is "$CODE" 404
check_that "unknown game message" is "$BODY" '{"error":"unknown game"}'
req POST /api/games/ffffffff/move '{"move":"32-28"}'
check_that "move in an unknown game 404" is "$CODE" 404
req POST /api/games/ffffffff/engine
check_that "engine in an unknown game 404" is "$CODE" 404
req GET /api/games/ffffffff/pdn
check_that "pdn of an unknown game 404" is "$CODE" 404
req DELETE /api/games/ffffffff
check_that "delete an unknown game 404" is "$CODE" 404
req GET /api/nosuch
check_that "unknown route 404" is "$CODE" 404
req GET "/api/games/$INT/nosuch"
check_that "unknown game action 404" is "$CODE" 404
req PUT "/api/games/$INT" '{}'
check_that "PUT game 405" is "$CODE" 405
check_that "405 is JSON" has '"error"'
req GET "/api/games/$INT/move"
check_that "GET move 405" is "$CODE" 405
req DELETE /api/variants
check_that "DELETE variants 405" is "$CODE" 405
req POST "/api/games/$INT/analyse"
check_that "POST analyse 405" is "$CODE" 405
req GET /api/games/import
check_that "GET import 405" is "$CODE" 405
head -c 70000 /dev/zero | tr '\0' 'a' >"$TMP/big"
CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -X POST --data-binary "@$TMP/big" "$URL/api/games/$INT/move")
check_that "body too large 413" is "$CODE" 413
check_that "413 is JSON" grep -q '"error"' "$TMP/body"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -X POST -H 'Transfer-Encoding: chunked' --data-binary "@$TMP/big" "$URL/api/games/$INT/move")
check_that "chunked body too large 413" is "$CODE" 413
CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -H "X-Big: $(head -c 20000 /dev/zero | tr '\0' 'a')" "$URL/api/variants")
check_that "headers too large (20 kB) 431" is "$CODE" 431
check_that "431 is JSON" grep -q '^{"error":"request headers too large (limit 16384 bytes)' "$TMP/body"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' 'a')" "$URL/api/variants")
check_that "headers over the connection's memory (40 kB) 431" is "$CODE" 431
CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -H 'Host:' "$URL/api/variants")
check_that "HTTP/1.1 without Host 400 (JSON)" sh -c "test $CODE = 400 && grep -q '\"error\"' '$TMP/body'"
CODE=$(curl -s -o /dev/null -w '%{http_code}' -0 -H 'Host:' "$URL/api/variants")
check_that "HTTP/1.0 without Host 200" is "$CODE" 200
req GET "/api/games/$INT%00/pdn"
check_that "a NUL in the URL 400 (not cut there)" is "$CODE $BODY" '400 {"error":"a control character (NUL included) in the URL"}'
req GET "/api/games/$INT/pdn%01"
check_that "a control character in the URL 400" is "$CODE" 400
req POST /api/games/import '{"pdn":"1. 32-28 *\u0000[Event \"x\"]"}'
check_that "a NUL in a JSON string 400 (not cut there)" is "$CODE" 400
check_that "... and says so" has 'NUL'
printf '{"variant":"russian"}\0' >"$TMP/req"
CODE=$(curl -s -o "$TMP/body" -w '%{http_code}' -X POST --data-binary "@$TMP/req" "$URL/api/games")
check_that "a NUL byte in a JSON body 400" is "$CODE" 400
req POST /api/games/import '{"pdn":"1. 32-28 \\u0000 *"}'
check_that "an escaped backslash before u0000 is no NUL" is "$CODE" 400
check_that "... (the PDN reader refuses the backslash, not the JSON reader)" not has 'NUL'
for p in / /app.js /api/variants /api/nosuch "/api/games/$INT" /favicon.ico; do
    curl -s -o /dev/null -D "$TMP/head" "$URL$p"
    check_that "$p: security headers" sh -c "tr -d '\r' <'$TMP/head' | grep -q \"^Content-Security-Policy: default-src 'self'; .*frame-ancestors 'none'\" &&
        grep -qi '^X-Content-Type-Options: nosniff' '$TMP/head' && grep -qi '^X-Frame-Options: DENY' '$TMP/head'"
done
req GET "/api/games/$INT"
check_that "server alive, game unchanged" is "$(num ply)" 0

# ------------------------------------------------------------ whole games
# play_game ID MAXPLY: human moves (legal moves from the game object) alternate with engine moves
play_game() {
    id=$1
    max=$2
    n=0
    while [ "$n" -lt "$max" ]; do
        req GET "/api/games/$id"
        [ "$(field status)" = ongoing ] || break
        if [ $((n % 2)) -eq 0 ]; then
            count=$(moves | wc -l | tr -d ' ')
            k=$(((n * 7) % count + 1))
            mv=$(moves | sed -n "${k}p")
            req POST "/api/games/$id/move" "{\"move\":\"$mv\"}"
        else
            req POST "/api/games/$id/engine" '{"depth":2}'
        fi
        if [ "$CODE" != 200 ]; then
            bad "play $id ply $n: $CODE $BODY"
            return
        fi
        n=$((n + 1))
        [ "$(num ply)" = "$n" ] || { bad "play $id: ply $(num ply), expected $n"; return; }
    done
    ok
    req GET "/api/games/$id"
    hl=$(printf '%s' "$BODY" | sed 's/.*"history":\[\([^]]*\)\].*/\1/' | tr ',' '\n' | grep -c .)
    check_that "history length matches ply ($id)" is "$hl" "$(num ply)"
    st=$(field status)
    case "$st" in
    ongoing) check_that "ongoing game has moves ($id)" test "$(moves | wc -l)" -gt 0 ;;
    "white wins" | "black wins" | draw)
        check_that "finished game has a reason ($id)" test -n "$(field reason)"
        check_that "finished game has a result ($id)" test "$(field result)" != "*"
        ;;
    *) bad "bad status '$st'" ;;
    esac
}
play_game "$RUS" 60
play_game "$INT" 60
play_game "$DEF" 30
# a short game to its end: two white men against one black
req POST /api/games '{"variant":"russian","fen":"W:Wc3,e3:Bh8","human":"white"}'
END=$(field id)
play_game "$END" 200
req GET "/api/games/$END"
check_that "short game finished" test "$(field status)" != ongoing
req POST "/api/games/$END/move" '{"move":"a1-b2"}'
check_that "move after the end 409" is "$CODE" 409

# ------------------------------------------------------------ PDN export and import
req GET "/api/games/$RUS/pdn"
check_that "pdn 200" is "$CODE" 200
check_that "pdn is text/plain" is "${TYPE%%;*}" text/plain
check_that "pdn has GameType 25" has '\[GameType "25"\]'
PDN=$BODY
RUSFEN=$(curl -s "$URL/api/games/$RUS" | sed -n 's/.*"fen":"\([^"]*\)".*/\1/p')
RUSPLY=$(curl -s "$URL/api/games/$RUS" | sed -n 's/.*"ply":\([0-9]*\).*/\1/p')
JPDN=$(printf '%s' "$PDN" | sed 's/\\/\\\\/g; s/"/\\"/g' | awk '{printf "%s\\n", $0}')
req POST /api/games/import "{\"pdn\":\"$JPDN\",\"human\":\"black\"}"
check_that "import 201" is "$CODE" 201
check_that "import keeps the variant" is "$(field variant)" russian
check_that "import keeps the position" is "$(field fen)" "$RUSFEN"
check_that "import keeps the moves" is "$(num ply)" "$RUSPLY"
check_that "import sets human" is "$(field human)" black
req POST /api/games/import '{"pdn":"[Event \"x\"]\n1. 32-28 19-23 2. 32-27 *"}'
check_that "bad PDN 400" is "$CODE" 400
check_that "bad PDN says where" has 'line [0-9]* col'
req POST /api/games/import '{"pdn":""}'
check_that "empty PDN 400" is "$CODE" 400
req POST /api/games/import '{"human":"white"}'
check_that "import without pdn 400" is "$CODE" 400
req POST /api/games/import '{"pdn":1}'
check_that "pdn of wrong type 400" is "$CODE" 400
# issue 15: "variant" for a PDN without GameType/Variant tags (the tags win), the tags kept
req POST /api/games/import '{"pdn":"1. c3-d4 f6-g5 *","variant":"russian"}'
check_that "import with variant 201" is "$CODE" 201
check_that "import with variant: russian" is "$(field variant)" russian
check_that "import with variant: 2 plies" is "$(num ply)" 2
req POST /api/games/import '{"pdn":"[GameType \"20\"]\n1. 32-28 *","variant":"russian"}'
check_that "the GameType tag wins over variant" is "$(field variant)" international
# the reader's warning comes back with the game (issue 15): '-' (a move not known) ends the line
req POST /api/games/import '{"pdn":"1. 32-28 19-23 2. - *"}'
check_that "import with a warning 201" is "$CODE" 201
check_that "import with a warning: 2 plies" is "$(num ply)" 2
check_that "import says the warning" has '"warning":"line 1 col [0-9]*: '
req POST /api/games/import '{"pdn":"1. 32-28 19-23 *"}'
check_that "import without a warning has none" not has '"warning"'
req POST /api/games/import '{"pdn":"1. 32-28 *","variant":"chess"}'
check_that "import with an unknown variant 400" is "$CODE" 400
check_that "import with an unknown variant says which" has "unknown variant 'chess'"
req POST /api/games/import '{"pdn":"[Event \"Club night\"]\n[Site \"Leeuwarden\"]\n[White \"Smith, A.\"]\n[Black \"Jones\"]\n[Round \"3\"]\n\n1. 32-28 *"}'
IMP=$(field id)
req GET "/api/games/$IMP/pdn"
check_that "export keeps Event" has '\[Event "Club night"\]'
check_that "export keeps Site" has '\[Site "Leeuwarden"\]'
check_that "export keeps the players" has '\[White "Smith, A."\]'
check_that "export keeps Round" has '\[Round "3"\]'

# ------------------------------------------------------------ SSE analysis
req POST /api/games '{"variant":"international"}'
ANA=$(field id)
curl -s -N --max-time 20 "$URL/api/games/$ANA/analyse?time=0.5" >"$TMP/sse"
check_that "analyse sends info events" grep -q '^event: info$' "$TMP/sse"
check_that "info data fields" grep -q '^data: {"depth":1,"score":-\{0,1\}[0-9]*,"nodes":[0-9]*,"time":[0-9.e-]*,"nps":[0-9]*,"pv":\["[0-9]*-[0-9]*"' "$TMP/sse"
check_that "analyse ends with done" sh -c "grep -v '^\$' '$TMP/sse' | tail -n 2 | head -n 1 | grep -q '^event: done\$'"
check_that "done names a move" grep -q '^data: {"move":"[0-9][0-9]*-[0-9][0-9]*"' "$TMP/sse"
CT=$(curl -s -o /dev/null --max-time 20 -w '%{content_type}' "$URL/api/games/$ANA/analyse?time=0.1")
check_that "analyse is text/event-stream" is "$CT" text/event-stream
req GET "/api/games/$ANA/analyse?time=abc"
check_that "analyse bad time 400" is "$CODE" 400
# a client that leaves early: the server must stop the search and stay up
curl -s -N --max-time 1 "$URL/api/games/$ANA/analyse?time=60" >/dev/null 2>&1
req GET "/api/games/$ANA"
check_that "server alive after a client left an analysis" is "$CODE" 200
curl -s -N --max-time 10 "$URL/api/games/$ANA/analyse?depth=3" >"$TMP/sse2"
check_that "analyse to a depth" grep -q '^data: {"depth":3' "$TMP/sse2"

# ------------------------------------------------------------ review (SSE)
# A game with a known blunder: White has two moves, 28-23 and 28-22; 28-22 hangs the last man
# to 17x28 (Black wins). The review must mark exactly that move '??' with the best move
# `condraughts pdn annotate` gives on the same PDN at the same time a position.
printf '[GameType "20"]\n[FEN "W:W28:B17"]\n\n1. 28-22 17x28 0-2\n' >"$TMP/blunder.pdn"
# json_pdn FILE: {"pdn": the file's text} as JSON
json_pdn() { awk 'BEGIN { printf "{\"pdn\":\"" } { gsub(/\\/, "\\\\"); gsub(/"/, "\\\""); printf "%s\\n", $0 } END { printf "\"}" }' "$1"; }
req POST /api/games/import "$(json_pdn "$TMP/blunder.pdn")"
check_that "import the blunder game 201" is "$CODE" 201
REV=$(field id)
curl -s -N --max-time 20 "$URL/api/games/$REV/review?time=0.1" >"$TMP/review"
check_that "review starts with the plies and time" grep -q '^data: {"plies":2,"time":0.1,"depth":0,"board":\[\(""\|,\)*"b"\(""\|,\)*"w"\(""\|,\)*\]}$' "$TMP/review"
check_that "review: 28-22 is the blunder" grep -q '^data: {"ply":1,"side":"white","move":"28-22","best":"28-23","is_best":false,"before":0,"after":-29999,"loss":1000,"mark":"??","board":\[\(""\|,\)*"b"\(""\|,\)*"w"\(""\|,\)*\]}$' "$TMP/review"
check_that "review: 17x28 is the best move, unmarked" grep -q '^data: {"ply":2,"side":"black","move":"17x28","best":"17x28","is_best":true,"before":29999,"after":30000,"loss":0,"mark":"","board":\[\(""\|,\)*"b"\(""\|,\)*\]}$' "$TMP/review"
check_that "review marks exactly one move" is "$(grep -c '"mark":"?' "$TMP/review")" 1
check_that "review ends with the sums" grep -q '^data: {"plies":2,"white":{"moves":1,"average_loss":1000,"dubious":0,"mistakes":0,"blunders":1},"black":{"moves":1,"average_loss":0,"dubious":0,"mistakes":0,"blunders":0}}$' "$TMP/review"
"$BIN" pdn annotate --time 0.1 "$TMP/blunder.pdn" >"$TMP/annotate" 2>&1
ANN_BEST=$(sed -n 's/^ *1\. 28-22?? *[^ ]* *\([^ ]*\) .*/\1/p' "$TMP/annotate")
REV_BEST=$(sed -n 's/.*"ply":1,.*"best":"\([^"]*\)".*/\1/p' "$TMP/review")
check_that "pdn annotate marks 28-22 '??' too, best 28-23" is "$ANN_BEST" 28-23
check_that "review's best move is pdn annotate's" is "$REV_BEST" "$ANN_BEST"
# A review to a fixed depth is `pdn annotate --depth` (a cleared 16 MiB table a position, one
# thread, the game's history): the Russian game of tests/annotate.sh at depth 6, whose every
# loss and mark that test works out from `analyse` alone; there ply 15, 8. f2-e3, loses 0.28
# men and is the '?!' (25 hundredths to 49 with the default mark). Each ply's loss and mark here
# are pdn annotate's line for it, and the sums count the marks.
RUGAME=$(dirname "$0")/pdncheck/russian-game.pdn
req POST /api/games/import "$(json_pdn "$RUGAME")"
check_that "import the Russian game 201" is "$CODE" 201
curl -s -N --max-time 60 "$URL/api/games/$(field id)/review?depth=6" >"$TMP/review6"
check_that "review to depth 6: the start says so" grep -q '^data: {"plies":108,"time":[0-9.]*,"depth":6,' "$TMP/review6"
check_that "review to depth 6: 8. f2-e3 is '?!', losing 28" grep -q '^data: {"ply":15,"side":"white","move":"f2-e3","best":"c1-d2","is_best":false,"before":83,"after":55,"loss":28,"mark":"?!",' "$TMP/review6"
"$BIN" pdn annotate --depth 6 --egtb '' --hash 16 "$RUGAME" >"$TMP/annotate6" 2>&1
# pdn annotate's lines as "MOVE MARK LOSS" (hundredths), and the review's the same way
sed -n 's/^  [0-9]*\.\{1,3\} \([a-h1-8:-]*\)\([?!]*\) .* \([0-9]*\)\.\([0-9][0-9]\)$/\1 \2 \3\4/p' "$TMP/annotate6" |
    awk '{ printf "%s %s %d\n", $1, ($3 == "" ? "-" : $2), ($3 == "" ? $2 : $3) }' >"$TMP/ann6.txt"
sed -n 's/^data: {"ply":[0-9]*,.*"move":"\([^"]*\)",.*"loss":\([0-9]*\),"mark":"\([^"]*\)".*/\1 \3 \2/p' "$TMP/review6" |
    awk '{ printf "%s %s %d\n", $1, ($3 == "" ? "-" : $2), ($3 == "" ? $2 : $3) }' >"$TMP/rev6.txt"
check_that "review to depth 6: 108 plies" is "$(wc -l <"$TMP/rev6.txt")" 108
check_eq "review to depth 6: every ply's move, mark and loss as pdn annotate --depth 6" \
    "$(cat "$TMP/ann6.txt")" "$(cat "$TMP/rev6.txt")"
for side in White Black; do
    s=$(sed -n "s/^  $side: [0-9]* moves, average loss [0-9.]* men, \([0-9]*\) '?!', \([0-9]*\) '?', \([0-9]*\) '??'$/\1 \2 \3/p" "$TMP/annotate6")
    lc=$(printf '%s' "$side" | tr 'WB' 'wb')
    r=$(sed -n "s/^data: {\"plies\":108,.*\"$lc\":{\"moves\":54,\"average_loss\":[0-9.]*,\"dubious\":\([0-9]*\),\"mistakes\":\([0-9]*\),\"blunders\":\([0-9]*\)}.*/\1 \2 \3/p" "$TMP/review6")
    check_eq "review to depth 6: $side's marks ('?!', '?', '??') as pdn annotate's" "$s" "$r"
done
for q in depth=0 depth=21 depth=x; do
    req GET "/api/games/$REV/review?$q"
    check_that "review $q 400" is "$CODE $(field error)" "400 'depth' must be an integer from 1 to 20"
done
# every variant of the board: a game of two moves (each the first legal move) is reviewed, its
# moves named in the variant's notation, each with a board of the variant's squares
req GET /api/variants
VARIANTS=$(printf '%s' "$BODY" | grep -o '"name":"[^"]*"' | sed 's/"name":"//; s/"$//')
VBAD=
for v in $VARIANTS; do
    req POST /api/games "{\"variant\":\"$v\",\"human\":\"both\"}"
    VG=$(field id)
    NSQ=$(printf '%s' "$BODY" | sed 's/.*"board":\[\([^]]*\)\].*/\1/' | awk -F, '{print NF}')
    M1=$(moves | head -n 1)
    req POST "/api/games/$VG/move" "{\"move\":\"$M1\"}"
    M2=$(moves | head -n 1)
    req POST "/api/games/$VG/move" "{\"move\":\"$M2\"}"
    curl -s -N --max-time 20 "$URL/api/games/$VG/review?time=0.05" >"$TMP/rv.$v"
    n1=$(grep -c "^data: {\"ply\":1,\"side\":\"[a-z]*\",\"move\":\"$M1\"" "$TMP/rv.$v")
    n2=$(grep -c "^data: {\"ply\":2,\"side\":\"[a-z]*\",\"move\":\"$M2\"" "$TMP/rv.$v")
    nb=$(grep '"ply":2,' "$TMP/rv.$v" | sed 's/.*"board":\[\([^]]*\)\].*/\1/' | awk -F, '{print NF}')
    nd=$(grep -c '^data: {"plies":2,"white"' "$TMP/rv.$v")
    [ "$n1 $n2 $nb $nd" = "1 1 $NSQ 1" ] || VBAD="$VBAD $v($n1 $n2 $nb/$NSQ $nd)"
done
check_that "a review in every variant ($(echo $VARIANTS | wc -w) variants)" is "$VBAD" ""
CT=$(curl -s -o /dev/null --max-time 20 -w '%{content_type}' "$URL/api/games/$REV/review?time=0.05")
check_that "review is text/event-stream" is "$CT" text/event-stream
for t in 0.01 2 abc; do
    req GET "/api/games/$REV/review?time=$t"
    check_that "review time=$t 400" is "$CODE $(field error)" "400 'time' must be a number of seconds from 0.05 to 1"
done
req GET "/api/games/ffffffff/review"
check_that "review of an unknown game 404" is "$CODE $(field error)" "404 unknown game"
req POST /api/games '{"variant":"english"}'
NOMOVES=$(field id)
req GET "/api/games/$NOMOVES/review"
check_that "review of a game with no moves 409" is "$CODE $(field error)" "409 the game has no moves to review"
req POST "/api/games/$REV/review"
check_that "POST review 405" is "$CODE" 405
# four long reviews take every search slot: a fifth is 503 with Retry-After; the clients leave
# and the server stops their work, so a review is served again
req POST /api/games/import "$(json_pdn "$(dirname "$0")/pdn/international.pdn")"
LONG=$(field id)
check_that "import a long game" is "$CODE" 201
RPIDS=
for i in 1 2 3 4; do
    curl -s -N --max-time 30 "$URL/api/games/$LONG/review?time=1" >/dev/null 2>&1 &
    RPIDS="$RPIDS $!"
done
sleep 1
CODE=$(curl -s -D "$TMP/hdr" -o "$TMP/body" -w '%{http_code}' "$URL/api/games/$REV/review?time=0.05")
check_that "a fifth review 503" is "$CODE" 503
check_that "503 says Retry-After" grep -qi '^Retry-After: 1' "$TMP/hdr"
check_that "503 is JSON" grep -q '"error":"the engine is busy' "$TMP/body"
for p in $RPIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
# (a review of a long game at 1 s a position would hold its slot for a minute)
CODES=
for i in 1 2 3 4 5 6 7 8 9 10; do
    RPIDS=
    for k in 1 2 3 4; do
        curl -s -o "$TMP/review2.$k" --max-time 20 -w '%{http_code}' "$URL/api/games/$REV/review?time=0.05" >"$TMP/code2.$k" &
        RPIDS="$RPIDS $!"
    done
    for p in $RPIDS; do wait "$p"; done
    CODES=$(cat "$TMP/code2.1" "$TMP/code2.2" "$TMP/code2.3" "$TMP/code2.4")
    [ "$CODES" = 200200200200 ] && break
    sleep 0.5
done
check_that "all 4 slots come back when the clients leave" is "$CODES" 200200200200
check_that "and the reviews are whole" is "$(cat "$TMP"/review2.* | grep -c '"mark":"??"')" 4

# several games at once: parallel engine searches
PIDS=
for g in $INT $RUS $DEF; do
    curl -s -o "$TMP/par.$g" -w '%{http_code}' -X POST -d '{"movetime":0.3}' "$URL/api/games/$g/engine" >"$TMP/code.$g" &
    PIDS="$PIDS $!"
done
for p in $PIDS; do wait "$p"; done
for g in $INT $RUS $DEF; do
    c=$(cat "$TMP/code.$g")
    case "$c" in 200 | 409) ok ;; *) bad "parallel engine $g: $c" ;; esac
done

# ------------------------------------------------------------ tower draughts (/api/towers)
# tmoves: the legal moves of a towers game object, one a line
tmoves() { printf '%s' "$BODY" | sed 's/.*"moves":\[//; s/\].*//' | tr ',' '\n' | tr -d '"'; }
req POST /api/towers/games '{"game":"lasker"}'
check_that "towers: create lasker 201" is "$CODE" 201
check_that "towers: create is JSON" is "$TYPE" application/json
TW=$(field id)
check_that "towers: id is hex" sh -c "printf '%s' '$TW' | grep -Eq '^[0-9a-f]{8}$'"
check_that "towers: game lasker" is "$(field game)" lasker
check_that "towers: human white by default" is "$(field human)" white
check_that "towers: white to move" is "$(field side)" white
check_that "towers: lasker start position" is "$(field position)" \
    "W:a1=w,c1=w,e1=w,g1=w,b2=w,d2=w,f2=w,a3=w,c3=w,e3=w,g3=w,a5=b,c5=b,e5=b,g5=b,b6=b,d6=b,f6=b,a7=b,c7=b,e7=b,g7=b"
check_that "towers: lasker has 6 moves" is "$(tmoves | grep -c .)" 6
check_that "towers: move list" has '"moves":\["a3-b4","c3-b4","c3-d4","e3-d4","e3-f4","g3-f4"\]'
check_that "towers: result null" has '"result":null'
check_that "towers: 7x7 board" has '"board":{"width":7,"height":7,"squares":\[{"square":"a1","file":0,"rank":0,"stack":"w"}'
check_that "towers: 25 squares" is "$(printf '%s' "$BODY" | grep -o '"square":' | wc -l | tr -d ' ')" 25
req GET "/api/towers/games/$TW"
check_that "towers: get 200" is "$CODE" 200
check_that "towers: get same game" is "$(field id)" "$TW"
req POST "/api/towers/games/$TW/move" '{"move":"c3-d4"}'
check_that "towers: move 200" is "$CODE" 200
check_that "towers: black to move" is "$(field side)" black
check_that "towers: history" has '"history":\["c3-d4"\]'
check_that "towers: d4 holds a white soldier" has '"square":"d4","file":3,"rank":3,"stack":"w"'
req POST "/api/towers/games/$TW/engine" '{"depth":4}'
check_that "towers: engine 200" is "$CODE" 200
check_that "towers: engine moved" is "$(num ply)" 2
check_that "towers: white to move after the engine" is "$(field side)" white
check_that "towers: engine reports its move" has '"last_engine":{"move":"[a-g][1-7][-:]'
req POST "/api/towers/games/$TW/engine"
check_that "towers: engine with the default depth 200" is "$CODE" 200
check_that "towers: ply 3" is "$(num ply)" 3
# bad input: 400 (or 404, 405, 413) and the game unchanged
req GET "/api/towers/games/$TW"
BEFORE=$BODY
req POST "/api/towers/games/$TW/move" '{"move":"a1-a2"}'
check_that "towers: illegal move 400" is "$CODE" 400
check_that "towers: illegal move says why" has '"error":"[^"]'
req POST "/api/towers/games/$TW/move" '{"move":"zz"}'
check_that "towers: malformed move 400" is "$CODE" 400
req POST "/api/towers/games/$TW/move" '{"move":42}'
check_that "towers: move not a string 400" is "$CODE" 400
check_that "towers: move not a string message" has "'move' must be a string"
req POST "/api/towers/games/$TW/move" '{}'
check_that "towers: move missing 400" is "$CODE" 400
check_that "towers: move missing message" has "'move' is required"
req POST "/api/towers/games/$TW/move" '{"move":"c3-d4"'
check_that "towers: malformed JSON 400" is "$CODE" 400
check_that "towers: malformed JSON message" has '"error":"malformed JSON"'
req POST "/api/towers/games/$TW/move" '[1,2]'
check_that "towers: body not an object 400" is "$CODE" 400
req POST "/api/towers/games/$TW/engine" '{"depth":99}'
check_that "towers: depth too large 400" is "$CODE" 400
req POST "/api/towers/games/$TW/engine" '{"depth":"deep"}'
check_that "towers: depth not a number 400" is "$CODE" 400
req POST "/api/towers/games/$TW/move" "$(printf '{"move":"%070000d"}' 0)"
check_that "towers: body too large 413" is "$CODE" 413
req GET "/api/towers/games/$TW"
check_that "towers: bad input left the game unchanged" is "$BODY" "$BEFORE"
req POST /api/towers/games '{"game":"chess"}'
check_that "towers: unknown game 400" is "$CODE" 400
check_that "towers: unknown game message" has "unknown game 'chess'"
req POST /api/towers/games '{"game":"bashni","side":"green"}'
check_that "towers: bad side 400" is "$CODE" 400
req POST /api/towers/games '{"game":'
check_that "towers: create malformed JSON 400" is "$CODE" 400
req GET /api/towers/games/ffffffff
check_that "towers: unknown id 404" is "$CODE" 404
check_that "towers: unknown id message" has '"error":"unknown game"'
req POST /api/towers/games/ffffffff/move '{"move":"c3-d4"}'
check_that "towers: move in an unknown game 404" is "$CODE" 404
req POST /api/towers/games/ffffffff/engine '{}'
check_that "towers: engine in an unknown game 404" is "$CODE" 404
req GET "/api/towers/games/$TW/nothing"
check_that "towers: unknown action 404" is "$CODE" 404
req GET /api/towers/other
check_that "towers: unknown route 404" is "$CODE" 404
req GET "/api/towers/games/$TW/move"
check_that "towers: GET move 405" is "$CODE" 405
req GET /api/towers/games
check_that "towers: GET games 405" is "$CODE" 405
# Bashni: the engine plays White for a human playing Black
req POST /api/towers/games '{"game":"bashni","side":"black"}'
check_that "towers: create bashni 201" is "$CODE" 201
TB2=$(field id)
check_that "towers: human black" is "$(field human)" black
check_that "towers: bashni 8x8, 32 squares" is "$(printf '%s' "$BODY" | grep -o '"square":' | wc -l | tr -d ' ')" 32
check_that "towers: bashni has 7 moves" is "$(tmoves | grep -c .)" 7
req POST "/api/towers/games/$TB2/engine" '{}'
check_that "towers: engine opens as White" is "$(field side)" black
# a game to its end: the engine plays both sides at depth 1
i=0
while [ $i -lt 600 ]; do
    req POST "/api/towers/games/$TB2/engine" '{"depth":1}'
    [ "$CODE" = 200 ] || break
    has '"result":null' || break
    i=$((i + 1))
done
check_that "towers: a game ends" has '"result":"\(white\|black\|draw\)"'
check_that "towers: the finished game has no moves" has '"moves":\[\]'
req POST "/api/towers/games/$TB2/engine" '{}'
check_that "towers: engine after the end 409" is "$CODE" 409
req POST "/api/towers/games/$TB2/move" '{"move":"c3-d4"}'
check_that "towers: move after the end 409" is "$CODE" 409
req DELETE "/api/towers/games/$TB2"
check_that "towers: delete 200" is "$CODE" 200
req GET "/api/towers/games/$TB2"
check_that "towers: deleted game 404" is "$CODE" 404
# at most 64 games: the least recently used is evicted
req GET "/api/towers/games/$TW"
n=0
while [ $n -lt 64 ]; do
    req POST /api/towers/games '{"game":"lasker"}'
    n=$((n + 1))
done
check_that "towers: still creating games" is "$CODE" 201
req GET "/api/towers/games/$TW"
check_that "towers: the oldest game was evicted" is "$CODE" 404

# ------------------------------------------------------------ restart
req GET "/api/games/$INT"
INTFEN=$(field fen)
INTPLY=$(num ply)
req DELETE "/api/games/$AMB"
check_that "delete 200" is "$CODE" 200
check_that "delete ok" is "$BODY" '{"ok":true}'
req GET "/api/games/$AMB"
check_that "deleted game 404" is "$CODE" 404
check_that "one PDN file per game" test "$(ls "$DATA" | grep -c '\.pdn$')" -ge 8
check_that "no temporary files left" sh -c "! ls -a '$DATA' | grep -q tmp"
stop_server
check_that "server exits cleanly on SIGTERM" is "$RC" 0
start_server
req GET "/api/games/$INT"
check_that "game survives a restart" is "$CODE" 200
check_that "restart keeps the position" is "$(field fen)" "$INTFEN"
check_that "restart keeps the moves" is "$(num ply)" "$INTPLY"
check_that "restart keeps human" is "$(field human)" both
check_that "restart keeps level" is "$(num level)" 1
req GET "/api/games/$OVER"
check_that "restart keeps an edited game" is "$(field status)" ongoing
req GET "/api/games/$END"
check_that "restart keeps a finished game" test "$(field status)" != ongoing
req GET "/api/games/$AMB"
check_that "deleted game stays deleted" is "$CODE" 404
req POST "/api/games/$INT/engine" '{"depth":2}'
check_that "play on after a restart" is "$CODE" 200

# ------------------------------------------------------------ endgame tables
# this server has none: no verdict even for a position the tables below know
req POST /api/games '{"variant":"constitutional","fen":"W:WK35:BK3","human":"both"}'
check_that "no tables: egtb null" has '"egtb":null'
stop_server

# a tiny table set (every constitutional position of up to 2 pieces); win in 3 for W:WK35:BK3
# is checked against the tables by tests/egtb.sh
mkdir -p "$TMP/run"
"$BIN" egtb build --variant constitutional --pieces 2 --dir "$TMP/run/egtb" >/dev/null 2>&1
check_that "egtb build for the tests" test -f "$TMP/run/egtb/constitutional-K_K.cdtb"
start_server "$TMP" --egtb "$TMP/run/egtb"
check_that "serve says where its tables are" grep -q "^condraughts: endgame tables from $TMP/run/egtb\$" "$TMP/out"
req POST /api/games '{"variant":"constitutional","fen":"W:WK35:BK3","human":"both"}'
check_that "egtb: win in 3 for White" has '"egtb":{"value":"win","plies":3,"winner":"white"}'
TB=$(field id)
req GET "/api/games/$TB"
check_that "egtb on GET" has '"egtb":{"value":"win","plies":3,"winner":"white"}'
req POST /api/games '{"variant":"constitutional","fen":"B:WK35:BK3","human":"both"}'
check_that "egtb: a draw has no plies" has '"egtb":{"value":"draw","winner":null}'
req POST /api/games '{"variant":"constitutional","human":"both"}'
check_that "egtb: start position null" has '"egtb":null'
req POST /api/games '{"variant":"international","fen":"W:WK35:BK3","human":"both"}'
check_that "egtb: other variant (no tables) null" has '"egtb":null'
req POST /api/games '{"variant":"canadian","fen":"W:WK35:BK3","human":"both"}'
check_that "egtb: 12x12 (cannot have tables) null" has '"egtb":null'
req POST "/api/games/$TB/hint" '{"depth":2}'
check_that "hint with tables: the only winning move" is "$(field move)" 35-13
req POST "/api/games/$TB/engine" '{"depth":2}'
check_that "engine with tables plays the only winning move" has '"last_engine":{"move":"35-13"'
check_that "egtb after the engine move: Black to move loses in 2" has '"egtb":{"value":"loss","plies":2,"winner":"white"}'
req POST "/api/games/$TB/engine" '{"depth":2}'
check_that "egtb after Black's reply: win in 1" has '"egtb":{"value":"win","plies":1,"winner":"white"}'
req POST "/api/games/$TB/engine" '{"depth":2}'
check_that "engine wins" is "$(field status)" "white wins"
check_that "egtb null when the game is over" has '"egtb":null'
req POST "/api/games/$TB/undo" '{"plies":3}'
check_that "egtb after an undo" has '"egtb":{"value":"win","plies":3,"winner":"white"}'
curl -s -N --max-time 10 "$URL/api/games/$TB/analyse?depth=3" >"$TMP/sse3"
check_that "analysis with tables: a win, 35-13" grep -q '^data: {"move":"35-13","score":29[0-9][0-9][0-9]' "$TMP/sse3"
# a review with the tables: 35-24 throws away the win in 3 (35-13 is the only winning move,
# tests/egtb.sh), and 3-9 throws away the draw (3-14 holds it); pdn annotate --egtb agrees
printf '[Variant "constitutional"]\n[FEN "W:WK35:BK3"]\n\n1. 35-24 3-9 *\n' >"$TMP/tb.pdn"
req POST /api/games/import "$(json_pdn "$TMP/tb.pdn")"
curl -s -N --max-time 20 "$URL/api/games/$(field id)/review?time=0.1" >"$TMP/review3"
check_that "review with tables: 35-24 ??, best 35-13, a win in 3 plies before" grep -q '^data: {"ply":1,"side":"white","move":"35-24","best":"35-13","is_best":false,"before":29997,"after":0,"loss":1000,"mark":"??"' "$TMP/review3"
check_that "review with tables: 3-9 ??, best 3-14" grep -q '^data: {"ply":2,"side":"black","move":"3-9","best":"3-14","is_best":false,"before":0,"after":-299[0-9][0-9],"loss":1000,"mark":"??"' "$TMP/review3"
"$BIN" pdn annotate --time 0.1 --egtb "$TMP/run/egtb" "$TMP/tb.pdn" >"$TMP/annotate3" 2>&1
check_that "pdn annotate --egtb: the same marks and best moves" is "$(sed -n 's/^ *1\.\{1,3\} \([0-9-]*??\) *[^ ]* *\([0-9-]*\) .*/\1 \2/p' "$TMP/annotate3" | tr '\n' ' ')" "35-24?? 35-13 3-9?? 3-14 "
stop_server
check_that "server with tables exits cleanly" is "$RC" 0

# without --egtb, ./egtb is used when it exists
start_server "$TMP/run"
req GET "/api/games/$TB"
check_that "default ./egtb: win in 3" has '"egtb":{"value":"win","plies":3,"winner":"white"}'
stop_server
start_server "$TMP" --egtb ''
req GET "/api/games/$TB"
check_that "--egtb '' switches the tables off" has '"egtb":null'
stop_server

check_that "no sanitizer reports from the server" sh -c "! grep -Eq 'Sanitizer|runtime error' '$TMP/err'"
grep -E 'Sanitizer|runtime error' "$TMP/err" | head -n 20

# ------------------------------------------------------------ a full or read-only data folder
# (a small tmpfs, when this user may mount one: root in a container or CI)
MNT=$TMP/mnt
mkdir -p "$MNT"
if mount -t tmpfs -o size=400k tmpfs "$MNT" 2>/dev/null; then
    : >"$TMP/err"
    start_server "$TMP" --data "$MNT/games" --db "$MNT/play.db"
    req POST /api/games '{}'
    FULL_G=$(field id)
    dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
    for i in 1 2 3; do req POST /api/games '{}'; done
    check_that "a full disk: a new board game 507, in JSON" is "$CODE $BODY" \
        '507 {"error":"the game could not be saved (the disk is full)"}'
    req GET /api/games
    check_that "... and it is not kept" is "$(printf '%s' "$BODY" | grep -o '"id"' | wc -l)" 1
    req POST "/api/games/$FULL_G/move" '{"move":"32-28"}'
    check_that "a move that cannot be saved: 507" is "$CODE" 507
    req GET "/api/games/$FULL_G"
    check_that "... and not played" is "$(num ply)" 0
    req POST /api/play '{}'
    check_that "a game between people that cannot be saved: 507" is "$CODE" 507
    check_that "a failing save is logged once a store" is "$(grep -c 'cannot save' "$TMP/err")" 2
    rm -f "$MNT/fill"
    req POST "/api/games/$FULL_G/move" '{"move":"32-28"}'
    check_that "room again: the move is saved" is "$CODE $(num ply)" "200 1"
    check_that "... and the log says so" grep -q 'saved in .* again' "$TMP/err"
    stop_server
    dd if=/dev/zero of="$MNT/fill" bs=4k 2>/dev/null
    "$BIN" serve --port 0 --data "$MNT/games" --db "$MNT/play.db" --web "$WEB" >/dev/null 2>"$TMP/err2"
    check_that "a full data folder is refused at start" sh -c "test $? = 1 && grep -q 'cannot write in .*No space left' '$TMP/err2'"
    rm -f "$MNT/fill"
    mount -o remount,ro "$MNT"
    "$BIN" serve --port 0 --data "$MNT/games" --db "$MNT/play.db" --web "$WEB" >/dev/null 2>"$TMP/err2"
    check_that "a read-only data folder is refused at start" sh -c "test $? = 1 && grep -q 'Read-only file system' '$TMP/err2'"
    "$BIN" serve --port 0 --data "$TMP/games2" --db "$MNT/play.db" --web "$WEB" >/dev/null 2>"$TMP/err2"
    check_that "a read-only database is refused at start" sh -c "test $? = 1 && grep -q 'cannot use .*play.db' '$TMP/err2'"
    umount "$MNT"
else
    skip "a full or read-only data folder (cannot mount a tmpfs here)"
fi

summary api

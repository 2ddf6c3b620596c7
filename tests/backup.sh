#!/bin/sh
# tests/backup.sh -- docs/deploy.md's backups and its systemd unit, followed as written.
#   - The unit: the `ini` block of deploy.md is docs/deploy/condraughts@.service byte for byte;
#     `systemd-analyze verify` finds nothing to say about it (in a root folder holding the
#     system's units and the binary as /usr/bin/condraughts); every option its ExecStart gives is
#     one `serve --help` names.
#   - SQLite: a server holding a finished rated game between two accounts and a game in play;
#     the backup taken as deploy.md says while it runs (`sqlite3 games.sqlite ".backup FILE"`),
#     a chat message written after it, the server killed (its WAL left), the copy restored as
#     deploy.md says (over the file, the WAL removed): a fresh server on it answers the same
#     games, moves, ratings and profiles (not the message), an account logs in with its
#     password, and the game in play goes on.
#   - PostgreSQL: the same on a private cluster (pg_lib.sh): `pg_dump -Fc condraughts >
#     .../$(date +%F).dump` while the server runs, the two-week `find ... -delete` (a dump of 15
#     days ago goes, today's stays), then the cluster gone, a fresh one with an empty database
#     `condraughts`, `pg_restore -d condraughts FILE`, and a fresh server on it: the same answers.
# deploy.md's commands run as its users (postgres, condraughts) through their sockets; here the
# cluster's one user through its socket folder (PGHOST, PGUSER), the same commands otherwise.
#   sh tests/backup.sh [--bin build/condraughts]
#   Prints "backup: N passed, M failed" (a part that cannot run: SKIPPED, with the reason).
set -u
BIN=build/condraughts
while [ $# -gt 0 ]; do
    case "$1" in
    --bin) BIN=$2; shift 2 ;;
    *) echo "usage: sh tests/backup.sh [--bin BIN]" >&2; exit 2 ;;
    esac
done
case $BIN in /*) ;; */*) BIN=$(pwd)/$BIN ;; esac
HERE=$(cd "$(dirname "$0")" && pwd)
DOC=$HERE/../docs/deploy.md
UNIT=$HERE/../docs/deploy/condraughts@.service

. "$HERE/lib.sh"
. "$HERE/pg_lib.sh"
for c in curl node sqlite3; do
    command -v $c >/dev/null 2>&1 || { echo "backup: SKIPPED (missing: $c; tools/deps.sh test installs it)"; exit 0; }
done

TMP=$(mktemp -d)
PID=
cleanup() {
    [ -n "$PID" ] && kill "$PID" 2>/dev/null && wait "$PID" 2>/dev/null
    pg_stop
    [ -n "${BACKUP_KEEP:-}" ] && echo "kept $TMP" || rm -rf "$TMP"
}
trap cleanup EXIT INT TERM

# ------------------------------------------------------------ the systemd unit
awk '/^```ini$/ { f = 1; next } f && /^```$/ { f = 0 } f' "$DOC" >"$TMP/unit"
check_that "deploy.md's unit is docs/deploy/condraughts@.service, byte for byte" cmp -s "$TMP/unit" "$UNIT"
if command -v systemd-analyze >/dev/null 2>&1 && [ -d /usr/lib/systemd/system ]; then
    R=$TMP/root
    mkdir -p "$R/usr/bin" "$R/usr/lib/systemd" "$R/etc/systemd/system"
    cp -r /usr/lib/systemd/system "$R/usr/lib/systemd/"
    cp "$BIN" "$R/usr/bin/condraughts"
    cp "$UNIT" "$R/etc/systemd/system/"
    systemd-analyze verify --man=no --root="$R" condraughts@8081.service >"$TMP/verify" 2>&1
    check_eq "systemd-analyze verify condraughts@8081.service: status 0, nothing said" "0 " \
        "$? $(cat "$TMP/verify")"
    # a unit systemd would warn about and still take: verify says so (the check can fail)
    sed 's/^Restart=always$/Restart=sometimes/' "$UNIT" >"$R/etc/systemd/system/condraughts@.service"
    systemd-analyze verify --man=no --root="$R" condraughts@8081.service >"$TMP/verify" 2>&1
    check_that "... and it does speak of a unit with a mistake (Restart=sometimes)" grep -q "sometimes" "$TMP/verify"
else
    skip "systemd-analyze verify (no systemd-analyze or no /usr/lib/systemd/system on this machine)"
fi
OPTS=$(sed -n '/^ExecStart=/,/[^\\]$/p' "$UNIT" | grep -o -- '--[a-z-]*' | sort -u)
"$BIN" serve --help >"$TMP/help" 2>&1
for o in $OPTS; do
    check_that "the unit's serve option $o is one serve knows" grep -q -- "^ *$o " "$TMP/help"
done

# ------------------------------------------------------------ a site's games
STARTS=0
start() { # start DB: a server on database DB (an SQLite file or a conninfo); its output in $TMP/N.err
    STARTS=$((STARTS + 1))
    "$BIN" serve --port 0 --data "$TMP/games" --db "$1" --web "$TMP" >"$TMP/$STARTS.out" 2>"$TMP/$STARTS.err" &
    PID=$!
    serve_wait backup "$TMP/$STARTS.out" "$TMP/$STARTS.err"
}
stop() {
    kill "$PID" 2>/dev/null
    wait "$PID" 2>/dev/null
    PID=
}
req() { # req WHO METHOD PATH [BODY]: jar_req on this server
    r_who=$1 r_m=$2 r_p=$3
    shift 3
    jar_req "$r_who" "$r_m" "$URL$r_p" "$@"
}
play_first() { # play_first WHO GAME: WHO plays the first legal move of GAME
    req "$1" GET "/api/play/$2"
    req "$1" POST "/api/play/$2/move" "{\"move\":\"$(j d.moves[0].text)\"}"
}
# games: Ann and Bob (accounts) play a finished game (Bob resigns after 4 plies: rated) and one
# in play (3 plies); the answers to compare are written to $1
games() {
    rm -f "$TMP"/*.jar
    req a POST /api/account/register '{"name":"Ann","password":"ann password 1"}'
    check_eq "$NAME: Ann registered" 201 "$CODE"
    req b POST /api/account/register '{"name":"Bob","password":"bob password 2"}'
    req a POST /api/play '{"variant":"frisian","colour":"white"}'
    F=$(j d.id)
    req b POST "/api/play/$F/join" '{}'
    for who in a b a b; do play_first $who "$F"; done
    req b POST "/api/play/$F/resign" '{}'
    check_eq "$NAME: a finished game (4 plies, resigned)" "200 over 4" "$CODE $(j d.state) $(j d.history.length)"
    req a POST /api/play '{"variant":"frisian","colour":"black"}'
    L=$(j d.id)
    req b POST "/api/play/$L/join" '{}'
    for who in b a b; do play_first $who "$L"; done
    check_eq "$NAME: a game in play (3 plies)" "200 ongoing 3" "$CODE $(j d.state) $(j d.history.length)"
}
# answers FILE: what a fresh server must answer the same
answers() {
    : >"$1"
    for p in "/api/play/$F" "/api/play/$L"; do
        req - GET "$p"
        j "[d.state,d.end,d.winner,d.white.name,d.black.name,d.white.rating,d.black.rating,d.white.rating_change,d.black.rating_change,JSON.stringify(d.history)].join('|')" >>"$1"
    done
    req - GET "/api/play/$F/pdn"
    echo "$BODY" >>"$1"
    for who in Ann Bob; do
        req - GET "/api/players/$who"
        j "[d.games,d.wins,d.draws,d.losses,JSON.stringify(d.records),d.list.map(g=>g.id+' '+g.result+' '+g.rating_change).join()].join('|')" >>"$1"
    done
}
same() { # same WHAT: the fresh server's answers are those kept before the backup
    answers "$TMP/after"
    check_that "$NAME: $WHAT" cmp -s "$TMP/before" "$TMP/after"
    [ -n "${BACKUP_DEBUG:-}" ] && diff "$TMP/before" "$TMP/after"
    req l POST /api/account/login '{"name":"Bob","password":"bob password 2"}'
    check_eq "$NAME: ... and Bob logs in with his password" "200 Bob" "$CODE $(j d.name)"
    play_first a "$L"
    check_eq "$NAME: ... and the game in play goes on (its 4th ply)" "200 4" "$CODE $(j d.history.length)"
}

# ------------------------------------------------------------ SQLite
NAME=sqlite
mkdir -p "$TMP/site"
start "$TMP/site/games.sqlite"
games
answers "$TMP/before"
check_that "sqlite: the answers hold the games (a rated result)" grep -q 'resignation' "$TMP/before"
(cd "$TMP/site" && sqlite3 games.sqlite ".backup $TMP/site.backup") 2>"$TMP/backup.err"
check_eq "sqlite: the backup taken while the server runs (sqlite3 games.sqlite \".backup FILE\")" "0 " \
    "$? $(cat "$TMP/backup.err")"
check_that "sqlite: ... the server still serves" kill -0 "$PID"
req a POST "/api/play/$L/chat" '{"text":"after the backup"}'
check_eq "sqlite: ... and writes (a chat message after the backup)" 200 "$CODE"
# restored as deploy.md says, in place: the server stopped (here killed: its WAL left behind, the
# chat message in it), the copy over the file, the WAL and its index removed
kill -9 "$PID"
wait "$PID" 2>/dev/null
PID=
check_that "sqlite: the server killed, its WAL left (games.sqlite-wal)" test -s "$TMP/site/games.sqlite-wal"
(cd "$TMP/site" && cp "$TMP/site.backup" games.sqlite && rm -f games.sqlite-wal games.sqlite-shm)
start "$TMP/site/games.sqlite"
WHAT="a fresh server on the restored copy: the same games, moves, ratings and profiles" same
req a GET "/api/play/$L"
check_eq "sqlite: ... without what was written after the backup (the chat)" "200 0" "$CODE $(j d.chat.length)"
stop

# ------------------------------------------------------------ PostgreSQL
NAME=postgresql
if ! pg_find; then
    skip "postgresql: no PostgreSQL (tools/deps.sh test installs it)"
    summary backup
    exit $?
fi
pg_start || exit 1
pg_createdb condraughts >/dev/null || exit 1
export PGHOST=$PGSOCK PGUSER=condraughts
start "host=$PGSOCK user=condraughts dbname=condraughts"
games
answers "$TMP/before"
mkdir -p "$TMP/backups"
pg_dump -Fc condraughts > "$TMP/backups/$(date +%F).dump"
check_eq "postgresql: pg_dump -Fc condraughts > DIR/\$(date +%F).dump while the server runs" 0 "$?"
check_that "postgresql: ... the server still serves" kill -0 "$PID"
touch -d '15 days ago' "$TMP/backups/old.dump"
find "$TMP/backups" -name '*.dump' -mtime +14 -delete
check_eq "postgresql: the two-week find ... -delete: 15 days old gone, today's kept" "$(date +%F).dump" \
    "$(ls "$TMP/backups")"
stop
pg_stop
pg_start || exit 1
pg_createdb condraughts >/dev/null || exit 1
export PGHOST=$PGSOCK
pg_restore -d condraughts "$TMP/backups/$(date +%F).dump" 2>"$TMP/restore.err"
check_eq "postgresql: pg_restore -d condraughts FILE into a fresh cluster's empty database" "0 " \
    "$? $(cat "$TMP/restore.err")"
start "host=$PGSOCK user=condraughts dbname=condraughts"
WHAT="a fresh server on the restored database: the same games, moves, ratings and profiles" same
stop

summary backup

# tests/pg_lib.sh -- a private PostgreSQL cluster for a test (sourced): Debian's postgresql
# package (initdb, pg_ctl) in a fresh folder, listening on a unix socket in that folder only (no
# TCP port), trusting local connections of its one superuser "condraughts". initdb refuses root:
# run as root (CI), the cluster belongs to `nobody`, started with runuser.
#   pg_find            sets PGBIN (the newest installed version's bin folder); 1 when none
#   pg_start           makes and starts the cluster; sets PGDIR, PGSOCK, PGCONN (a conninfo
#                      without dbname); 1 with the reason on stderr when it cannot
#   pg_createdb NAME   a new database; prints its conninfo
#   pg_psql NAME SQL   runs SQL in database NAME (quiet, unaligned, tuples only)
#   pg_stop            stops the cluster and removes its folder
PGBIN= PGDIR= PGSOCK= PGCONN=

pg_find() {
    PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
    [ -n "$PGBIN" ] && [ -x "$PGBIN/initdb" ] && [ -x "$PGBIN/pg_ctl" ] && command -v psql >/dev/null
}

# pg_as CMD...: CMD as the cluster's owner (nobody when we are root), from / (a folder nobody
# may not enter is no working directory for it)
pg_as() {
    if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u nobody -- "$@"); else "$@"; fi
}

pg_start() {
    PGDIR=$(mktemp -d) || return 1
    [ "$(id -u)" -eq 0 ] && chown nobody "$PGDIR"
    chmod 755 "$PGDIR"
    PGSOCK=$PGDIR
    if ! pg_as "$PGBIN/initdb" -D "$PGDIR/data" -U condraughts --auth=trust -E UTF8 \
        --locale=C.UTF-8 >"$PGDIR/initdb.log" 2>&1; then
        echo "pg_lib: initdb failed:" >&2
        tail -5 "$PGDIR/initdb.log" >&2
        return 1
    fi
    if ! pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -l "$PGDIR/server.log" -w -t 30 \
        -o "-c listen_addresses='' -c unix_socket_directories='$PGSOCK' -c fsync=on" \
        start >/dev/null 2>&1; then
        echo "pg_lib: the cluster did not start:" >&2
        tail -5 "$PGDIR/server.log" >&2
        return 1
    fi
    PGCONN="host=$PGSOCK user=condraughts"
}

pg_createdb() {
    psql -q -X -v ON_ERROR_STOP=1 "$PGCONN dbname=postgres" -c "CREATE DATABASE $1" >/dev/null &&
        echo "$PGCONN dbname=$1"
}

pg_psql() {
    psql -q -X -A -t -v ON_ERROR_STOP=1 "$PGCONN dbname=$1" -c "$2"
}

pg_stop() {
    [ -n "$PGDIR" ] || return 0
    pg_as "$PGBIN/pg_ctl" -D "$PGDIR/data" -m immediate -w stop >/dev/null 2>&1
    rm -rf "$PGDIR"
    PGDIR=
}

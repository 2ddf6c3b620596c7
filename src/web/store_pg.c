/*
 * store_pg.c -- the games between people in PostgreSQL (store_pg.h), behind store.h: the schema,
 * one transaction per change (most of them one statement), reading the games back; through
 * libpq, one connection (the group commit, pg_sync.c, has another).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "store_pg.h"
#include "pg_sync.h"
#include "names.h"
#include "profile.h"

#include <inttypes.h>
#include <cjson/cJSON.h>
#include <libpq-fe.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static PGconn *pg;     /* the store's connection (play_lock) */
static PGconn *lconn; /* store_heard's (its one thread) */
static int started_pid; /* the store's connection's backend at pg_open: its "*" is its own */
static char *conninfo; /* how to connect again (lconn) */

/* Made once, under an advisory lock so that servers starting together do not race on it. */
static const char schema[] =
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, variant TEXT NOT NULL, fen TEXT NOT NULL, clock INTEGER NOT NULL,"
    " base_ms BIGINT NOT NULL, inc_ms BIGINT NOT NULL,"
    " white_token TEXT NOT NULL, black_token TEXT NOT NULL,"
    " white_name TEXT NOT NULL, black_name TEXT NOT NULL, open INTEGER NOT NULL,"
    " state INTEGER NOT NULL, ending INTEGER NOT NULL, loser INTEGER NOT NULL,"
    " white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL, turn_start BIGINT NOT NULL,"
    " draw_offer INTEGER NOT NULL, takeback INTEGER NOT NULL, rematch INTEGER NOT NULL,"
    " rematch_id TEXT NOT NULL, created BIGINT NOT NULL,"
    " white_rating DOUBLE PRECISION NOT NULL, white_rd DOUBLE PRECISION NOT NULL,"
    " white_vol DOUBLE PRECISION NOT NULL, white_after DOUBLE PRECISION NOT NULL,"
    " white_after_rd DOUBLE PRECISION NOT NULL, white_after_vol DOUBLE PRECISION NOT NULL,"
    " black_rating DOUBLE PRECISION NOT NULL, black_rd DOUBLE PRECISION NOT NULL,"
    " black_vol DOUBLE PRECISION NOT NULL, black_after DOUBLE PRECISION NOT NULL,"
    " black_after_rd DOUBLE PRECISION NOT NULL, black_after_vol DOUBLE PRECISION NOT NULL,"
    " first_wait BIGINT NOT NULL, outage_ms BIGINT NOT NULL, rev BIGINT NOT NULL DEFAULT 0,"
    " seen BIGINT NOT NULL DEFAULT 0);"
    "ALTER TABLE games ADD COLUMN IF NOT EXISTS mark BIGINT NOT NULL DEFAULT 0;"
    "CREATE TABLE IF NOT EXISTS flushes (server TEXT PRIMARY KEY, n BIGINT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, ply INTEGER NOT NULL,"
    " move TEXT NOT NULL, white_ms BIGINT NOT NULL, black_ms BIGINT NOT NULL,"
    " at BIGINT NOT NULL, PRIMARY KEY (game, ply));"
    "CREATE TABLE IF NOT EXISTS ratings ("
    " player TEXT NOT NULL, variant TEXT NOT NULL, rating DOUBLE PRECISION NOT NULL,"
    " rd DOUBLE PRECISION NOT NULL, vol DOUBLE PRECISION NOT NULL, games INTEGER NOT NULL,"
    " at BIGINT NOT NULL, PRIMARY KEY (player, variant));"
    "CREATE TABLE IF NOT EXISTS accounts ("
    " name TEXT PRIMARY KEY, hash TEXT NOT NULL, created BIGINT NOT NULL, skey TEXT NOT NULL);"
    "CREATE UNIQUE INDEX IF NOT EXISTS accounts_lower ON accounts (lower(name));"
    "CREATE UNIQUE INDEX IF NOT EXISTS accounts_skey ON accounts (skey);"
    "CREATE TABLE IF NOT EXISTS logins (token TEXT PRIMARY KEY, name TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS chat ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL,"
    " at BIGINT NOT NULL, PRIMARY KEY (game, n));"
    "CREATE TABLE IF NOT EXISTS alive (id INTEGER PRIMARY KEY CHECK (id = 1), at BIGINT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS games_state ON games (state);";

/* The columns of a game's row, in store_load's order. */
#define GAME_COLUMNS                                                                               \
    "id, variant, fen, clock, base_ms, inc_ms, white_token, black_token, white_name, black_name, " \
    "open, state, ending, loser, white_ms, black_ms, turn_start, draw_offer, takeback, rematch, "  \
    "rematch_id, created, white_rating, white_rd, white_vol, white_after, white_after_rd, "         \
    "white_after_vol, black_rating, black_rd, black_vol, black_after, black_after_rd, "            \
    "black_after_vol, first_wait, outage_ms"
#define GAME_NCOLS 36
/* Games read back in one statement: each game's row with its moves and its chat (load_rows) */
#define LOAD_SELECT                                                                                \
    "SELECT " GAME_COLUMNS ", rev, (SELECT json_agg(json_build_array(move, white_ms, black_ms,"    \
    " at) ORDER BY ply) FROM moves WHERE game = g.id), (SELECT json_agg(json_build_array(seat,"    \
    " text, at) ORDER BY n) FROM chat WHERE game = g.id) FROM games g "

/* A statement with n text parameters (NULL: SQL NULL); the result (PQclear it), NULL when the
 * connection is gone. A connection known broken is reset first. One that breaks under the
 * statement (a restarted server cut it; libpq learns so only when it uses it) is reset and the
 * statement sent once more, but only outside a transaction: then it is a BEGIN or a statement of
 * its own, and each of those here is idempotent (GREATEST, ON CONFLICT, reads), so running it
 * twice, should the first have run after all, changes nothing. Inside a transaction the failure
 * stands: the caller rolls back and the request is answered 503. */
static void reset(void);

/* The statements with parameters are prepared once a session (PostgreSQL parses and plans them
 * once, not at every call), named by their place here ("cdK"); each is known by its text's
 * address (every statement here is a literal or a static array). */
#define PREPARED_MAX 64
static struct {
    const char *sql;
    unsigned session; /* the session it was prepared in */
} prepared[PREPARED_MAX];
static unsigned session; /* raised at each connection made: the statements are prepared anew */

static PGresult *exec_once(const char *sql, int n, const char *const *params)
{
    int k = 0;
    while (n > 0 && k < PREPARED_MAX && prepared[k].sql && prepared[k].sql != sql)
        k++;
    if (n == 0 || k == PREPARED_MAX)
        return PQexecParams(pg, sql, n, NULL, params, NULL, NULL, 0);
    char name[16];
    snprintf(name, sizeof name, "cd%d", k);
    if (prepared[k].sql != sql || prepared[k].session != session) {
        PGresult *r = PQprepare(pg, name, sql, n, NULL);
        if (PQresultStatus(r) != PGRES_COMMAND_OK)
            return r;
        PQclear(r);
        prepared[k].sql = sql;
        prepared[k].session = session;
    }
    return PQexecPrepared(pg, name, n, params, NULL, NULL, 0);
}

static PGresult *run(const char *sql, int n, const char *const *params)
{
    if (!pg)
        return NULL;
    if (PQstatus(pg) == CONNECTION_BAD)
        reset();
    int outside = PQtransactionStatus(pg) == PQTRANS_IDLE;
    PGresult *r = exec_once(sql, n, params);
    if (outside && PQstatus(pg) == CONNECTION_BAD) {
        PQclear(r);
        reset();
        r = exec_once(sql, n, params);
    }
    return r;
}

/* The store's connection made again, its commits again not waiting for the disk (pg_sync.h:
 * the changes of games are made durable in groups; the accounts' ask for it themselves,
 * sync_commit). */
static void reset(void)
{
    PQreset(pg);
    session++;
    if (PQstatus(pg) == CONNECTION_OK)
        PQclear(PQexec(pg, "SET synchronous_commit = off"));
}

/* Did r succeed (a command, or rows)? r is cleared when `clear`. */
static int ok_res(PGresult *r, int clear)
{
    ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
    if (clear)
        PQclear(r);
    return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK;
}

static int exec0(const char *sql) { return ok_res(run(sql, 0, NULL), 1); }

static int exec_n(const char *sql, int n, const char *const *p) { return ok_res(run(sql, n, p), 1); }

/* The rows a statement changed (-1 on failure). */
static long changed_rows(const char *sql, int n, const char *const *p)
{
    PGresult *r = run(sql, n, p);
    long rows = ok_res(r, 0) ? atol(PQcmdTuples(r)) : -1;
    PQclear(r);
    return rows;
}

static int listen_connect(void);
static int profile_tables(void);
static int board_tables(void);
#define SCHEMA_LOCK "7240541" /* the advisory lock of the schema's makers (schema_begin) */
#define BOARD_LOCK  "7240542" /* the advisory lock of board_counts' writers (save_ratings) */
static const store_results_writer results_writer;

/* A connection to `where` (a URI or a conninfo string), with limits that `where` may set
 * otherwise: 5 s to connect, and a peer that stops answering (a host down, a network cut) found
 * within about 20 s, by TCP keep-alives (the idle listening connection) and by data sent and not
 * acknowledged (a statement): play_lock's holders wait that long at most, never the minutes of
 * TCP's own limits. Over a unix socket the TCP limits do not apply. Each connection is named in
 * pg_stat_activity (unless `where` names them): "condraughts" (the store's), "condraughts
 * listen" and "condraughts sync" (pg_sync.c). */
static PGconn *connect_named(const char *where, const char *name)
{
    static const char *const keys[] = {"connect_timeout",     "keepalives_idle",
                                       "keepalives_interval", "keepalives_count",
                                       "tcp_user_timeout",    "fallback_application_name",
                                       "dbname",              NULL};
    const char *const values[] = {"5", "10", "5", "2", "20000", name, where, NULL};
    return PQconnectdbParams(keys, values, 1); /* where's own settings win: it comes last */
}

static PGconn *connect_to(const char *where) { return connect_named(where, "condraughts"); }

static PGconn *connect_sync(const char *where)
{
    return connect_named(where, "condraughts sync");
}

/* The store's and the listening connections closed (either may be NULL). */
static void drop_connections(void)
{
    PQfinish(pg);
    pg = NULL;
    PQfinish(lconn);
    lconn = NULL;
}

/* Connect, make the schema, and listen (before the games are read: no change falls between). */
static int pg_open(const char *where, char *err, size_t errlen)
{
    free(conninfo);
    conninfo = strdup(where);
    pg = connect_to(where);
    session++;
    if (!pg || PQstatus(pg) != CONNECTION_OK) {
        snprintf(err, errlen, "cannot connect to PostgreSQL: %s",
                 pg ? PQerrorMessage(pg) : "no memory");
        size_t n = strlen(err);
        while (n && err[n - 1] == '\n')
            err[--n] = 0;
        drop_connections();
        return -1;
    }
    PGresult *r = PQexec(pg, "SET client_min_messages = warning");
    PQclear(r);
    if (!exec0("BEGIN") || !exec0("SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")") ||
        !ok_res(PQexec(pg, schema), 1) || !exec0("COMMIT") || !profile_tables() ||
        !board_tables() || !listen_connect() || !exec0("SET synchronous_commit = off")) {
        snprintf(err, errlen, "cannot use the PostgreSQL database: %s", PQerrorMessage(pg));
        size_t n = strlen(err);
        while (n && err[n - 1] == '\n')
            err[--n] = 0;
        drop_connections();
        return -1;
    }
    if (pg_sync_start(where, connect_sync, err, errlen) != 0) {
        drop_connections();
        return -1;
    }
    /* the other servers read every game again: a server that stopped (this one, before this
     * start) may have committed changes it did not live to announce */
    started_pid = PQbackendPID(pg);
    exec0("SELECT pg_notify('" PG_SYNC_CHANNEL "', '*')");
    return 0;
}

static void pg_close(void)
{
    pg_sync_stop(); /* the changes waiting made durable first */
    drop_connections();
    free(conninfo);
    conninfo = NULL;
}

/* Numbers as parameters: each call's text in its own slot of a caller's buffer. */
typedef struct {
    char buf[48][32];
    int used;
} numbufs;

static const char *num_i(numbufs *b, int64_t v)
{
    char *s = b->buf[b->used++];
    snprintf(s, sizeof b->buf[0], "%" PRId64, v);
    return s;
}

static const char *num_d(numbufs *b, double v)
{
    char *s = b->buf[b->used++];
    snprintf(s, sizeof b->buf[0], "%.17g", v);
    return s;
}

static void pg_player(const char *token, char *key, size_t cap);

#define MOVE_TEXT sizeof(((play_move *)0)->hub)

/* A PostgreSQL array literal of n elements, each made by put(i, out, cap) (its text, quoted
 * when `quote`: '"' and '\' escaped): malloc'd, NULL when out of memory. */
static char *array_lit(int n, int quote, const play_game *g, int from,
                       void (*put)(const play_game *g, int ply, char *out, size_t cap))
{
    size_t cap = 3 + (size_t)n * (2 * MOVE_TEXT + 4), used = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    s[used++] = '{';
    for (int i = 0; i < n; i++) {
        char item[MOVE_TEXT + 24];
        put(g, from + i, item, sizeof item);
        if (i)
            s[used++] = ',';
        if (quote)
            s[used++] = '"';
        for (const char *c = item; *c; c++) {
            if (quote && (*c == '"' || *c == '\\'))
                s[used++] = '\\';
            s[used++] = *c;
        }
        if (quote)
            s[used++] = '"';
    }
    s[used++] = '}';
    s[used] = 0;
    return s;
}

static void put_ply(const play_game *g, int ply, char *out, size_t cap)
{
    (void)g;
    snprintf(out, cap, "%d", ply);
}

static void put_hub(const play_game *g, int ply, char *out, size_t cap)
{
    snprintf(out, cap, "%s", g->moves[ply].hub);
}

static void put_white(const play_game *g, int ply, char *out, size_t cap)
{
    snprintf(out, cap, "%" PRId64, g->moves[ply].ms[0]);
}

static void put_black(const play_game *g, int ply, char *out, size_t cap)
{
    snprintf(out, cap, "%" PRId64, g->moves[ply].ms[1]);
}

static void put_at(const play_game *g, int ply, char *out, size_t cap)
{
    snprintf(out, cap, "%" PRId64, g->moves[ply].at);
}

/* Write g over revision g->rev in one statement: its row (with `mark`, pg_sync.h), its moves
 * from ply `from` on (the later rows taken out); nothing when the stored game is at another
 * revision, or is not there: a row is inserted only for a new game (g->rev 0), never for a game
 * stored before (another server deleted it). 1 with *rev the new one; 0 (-3 in *conflict when
 * the stored game is at another revision or not there, else a failure of the database or of
 * memory). */
static int save_game(const play_game *g, int from, int64_t mark, int64_t *rev, int *conflict)
{
    numbufs b = {.used = 0};
    const char *p[GAME_NCOLS + 8];
    int i = 0;
    p[i++] = g->id;
    p[i++] = g->rules->name;
    p[i++] = g->fen;
    p[i++] = num_i(&b, g->clock);
    p[i++] = num_i(&b, g->base_ms);
    p[i++] = num_i(&b, g->inc_ms);
    p[i++] = g->token[0];
    p[i++] = g->token[1];
    p[i++] = g->name[0];
    p[i++] = g->name[1];
    p[i++] = num_i(&b, g->open);
    p[i++] = num_i(&b, g->state);
    p[i++] = num_i(&b, g->end);
    p[i++] = num_i(&b, g->loser);
    p[i++] = num_i(&b, g->ms[0]);
    p[i++] = num_i(&b, g->ms[1]);
    p[i++] = num_i(&b, g->turn_start);
    p[i++] = num_i(&b, g->draw_offer);
    p[i++] = num_i(&b, g->takeback);
    p[i++] = num_i(&b, g->rematch);
    p[i++] = g->rematch_id;
    p[i++] = num_i(&b, g->created);
    for (int c = 0; c < 2; c++) {
        const glicko *r[2] = {&g->rating[c], &g->after[c]};
        for (int k = 0; k < 2; k++) {
            p[i++] = num_d(&b, r[k]->rating);
            p[i++] = num_d(&b, r[k]->rd);
            p[i++] = num_d(&b, r[k]->vol);
        }
    }
    p[i++] = num_i(&b, g->first_wait);
    p[i++] = num_i(&b, g->outage_ms);
    p[i++] = num_i(&b, g->rev);
    p[i++] = num_i(&b, mark);
    p[i++] = num_i(&b, g->nmoves);
    if (from < 0)
        from = 0;
    int n = g->nmoves > from ? g->nmoves - from : 0;
    void (*put[5])(const play_game *, int, char *, size_t) = {put_ply, put_hub, put_white,
                                                               put_black, put_at};
    char *arr[5] = {NULL};
    int made = 1;
    for (int k = 0; k < 5; k++)
        made = made && (arr[k] = array_lit(n, k == 1, g, from, put[k])) != NULL;
    for (int k = 0; k < 5; k++)
        p[i++] = arr[k];
    /* the row: inserted only for a new game (revision 0; an id another server took meanwhile:
     * nothing written), else updated over its revision; a game deleted meanwhile (by another
     * server) has no row to update and is never written back */
#define SAVE_MOVES                                                                                 \
    " d AS (DELETE FROM moves WHERE game = $1 AND ply >= $39::INTEGER"                             \
    " AND EXISTS (SELECT 1 FROM r)),"                                                              \
    " m AS (INSERT INTO moves SELECT $1, t.* FROM unnest($40::INTEGER[], $41::TEXT[],"             \
    " $42::BIGINT[], $43::BIGINT[], $44::BIGINT[]) AS t WHERE EXISTS (SELECT 1 FROM r)"            \
    " ON CONFLICT (game, ply) DO UPDATE SET move = EXCLUDED.move,"                                 \
    " white_ms = EXCLUDED.white_ms, black_ms = EXCLUDED.black_ms, at = EXCLUDED.at)"               \
    " SELECT rev FROM r"
    static const char insert_sql[] =
        "WITH r AS (INSERT INTO games (" GAME_COLUMNS ", rev, mark) VALUES ($1,$2,$3,$4,$5,$6,$7,"
        "$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29,"
        "$30,$31,$32,$33,$34,$35,$36,$37::BIGINT + 1,$38) ON CONFLICT (id) DO NOTHING"
        " RETURNING rev)," SAVE_MOVES;
    static const char update_sql[] =
        "WITH r AS (UPDATE games SET"
        " variant=$2, fen=$3, clock=$4, base_ms=$5, inc_ms=$6,"
        " white_token=$7, black_token=$8, white_name=$9, black_name=$10, open=$11, state=$12,"
        " ending=$13, loser=$14, white_ms=$15, black_ms=$16, turn_start=$17, draw_offer=$18,"
        " takeback=$19, rematch=$20, rematch_id=$21, created=$22, white_rating=$23, white_rd=$24,"
        " white_vol=$25, white_after=$26, white_after_rd=$27, white_after_vol=$28,"
        " black_rating=$29, black_rd=$30, black_vol=$31, black_after=$32, black_after_rd=$33,"
        " black_after_vol=$34, first_wait=$35, outage_ms=$36, rev=games.rev + 1, mark=$38"
        " WHERE id = $1 AND rev = $37 RETURNING rev)," SAVE_MOVES;
#undef SAVE_MOVES
    const char *sql = g->rev == 0 ? insert_sql : update_sql;
    PGresult *r = made ? run(sql, i, p) : NULL;
    for (int k = 0; k < 5; k++)
        free(arr[k]);
    int ok = ok_res(r, 0) && PQntuples(r) == 1;
    if (ok)
        *rev = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    else if (ok_res(r, 0))
        *conflict = -3;
    PQclear(r);
    return ok;
}

/* The ratings a game has just changed (g->rate_now). Their trigger updates board_counts (below),
 * a few rows every rating change shares: taken in turn, under a lock of their own taken first,
 * or two games ending together could each hold a row the other waits for (a deadlock). */
static int save_ratings(const play_game *g)
{
    if (!exec0("SELECT pg_advisory_xact_lock(" BOARD_LOCK ")"))
        return 0;
    for (int c = 0; c < 2; c++) {
        char key[PLAY_NAME_BYTES + 2];
        pg_player(g->token[c], key, sizeof key);
        numbufs b = {.used = 0};
        const char *p[6] = {key,
                            g->rules->name,
                            num_d(&b, g->after[c].rating),
                            num_d(&b, g->after[c].rd),
                            num_d(&b, g->after[c].vol),
                            num_i(&b, play_now())};
        if (!exec_n("INSERT INTO ratings (player, variant, rating, rd, vol, games, at) VALUES "
                    "($1,$2,$3,$4,$5,1,$6) ON CONFLICT (player, variant) DO UPDATE SET rating=$3,"
                    " rd=$4, vol=$5, games=ratings.games+1, at=$6",
                    6, p))
            return 0;
    }
    return 1;
}

/* One text column of the first row of a one-parameter query into out (""/0 when none). */
static int query_text(const char *sql, const char *arg, char *out, size_t cap)
{
    out[0] = 0;
    PGresult *r = run(sql, 1, &arg);
    int found = ok_res(r, 0) && PQntuples(r) > 0;
    if (found)
        snprintf(out, cap, "%s", PQgetvalue(r, 0, 0));
    PQclear(r);
    return found;
}

/* A transaction whose commit waits for the disk (the store's connection does not, pg_sync.h: the
 * accounts are not numbered for the group commit). 1, or 0. */
static int begin_durable(void)
{
    if (!exec0("BEGIN"))
        return 0;
    if (exec0("SET LOCAL synchronous_commit = on"))
        return 1;
    exec0("ROLLBACK");
    return 0;
}

static int pg_login_name(const char *token, char *name, size_t cap)
{
    return query_text("SELECT name FROM logins WHERE token = $1", token, name, cap);
}

static void pg_player(const char *token, char *key, size_t cap)
{
    store_key_of(token, pg_login_name, key, cap);
}

static int pg_account_hash(const char *name, char *hash, size_t cap, char *canonical, size_t ncap)
{
    char row[PLAY_NAME_BYTES + 1];
    if (!query_text("SELECT name FROM accounts WHERE lower(name) = lower($1)", name, row,
                    sizeof row))
        return 0;
    snprintf(canonical, ncap, "%s", row);
    return query_text("SELECT hash FROM accounts WHERE lower(name) = lower($1)", name, hash, cap);
}

static int pg_account_like(const char *key, char *name, size_t cap)
{
    return query_text("SELECT name FROM accounts WHERE skey = $1", key, name, cap);
}

static int pg_account_add(const char *name, const char *hash, const char *token)
{
    char row[PLAY_NAME_BYTES + 1], key[4 * PLAY_NAME_BYTES];
    if (name_key(name, key, sizeof key) != 0)
        return -1;
    if (query_text("SELECT name FROM accounts WHERE lower(name) = lower($1)", name, row,
                   sizeof row) ||
        pg_account_like(key, row, sizeof row))
        return 1;
    const char *acc[3] = {name, hash, key}, *login[2] = {token, name};
    if (!begin_durable())
        return -1;
    PGresult *r = run("INSERT INTO accounts (name, hash, created, skey) VALUES "
                      "($1, $2, EXTRACT(EPOCH FROM now())::BIGINT, $3)",
                      3, acc);
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    int taken = state && !strcmp(state, "23505"); /* unique_violation: another server's */
    if (ok_res(r, 1) &&
        exec_n("INSERT INTO logins VALUES ($1, $2) ON CONFLICT (token) DO UPDATE SET name = $2", 2,
               login) &&
        exec0("COMMIT"))
        return 0;
    exec0("ROLLBACK");
    return taken ? 1 : -1;
}

static int pg_login(const char *token, const char *name)
{
    const char *p[2] = {token, name};
    if (!begin_durable())
        return -1;
    if ((name ? exec_n("INSERT INTO logins VALUES ($1, $2) ON CONFLICT (token) DO UPDATE SET "
                       "name = $2",
                       2, p)
              : exec_n("DELETE FROM logins WHERE token = $1", 1, p)) &&
        exec0("COMMIT"))
        return 0;
    exec0("ROLLBACK");
    return -1;
}

static int pg_account_rehash(const char *name, const char *hash, const char *keep)
{
    const char *up[2] = {name, hash}, *out[2] = {name, keep};
    if (!pg || !begin_durable())
        return -1;
    if (changed_rows("UPDATE accounts SET hash = $2 WHERE name = $1", 2, up) == 1 &&
        exec_n("DELETE FROM logins WHERE lower(name) = lower($1) AND token != $2", 2, out) &&
        exec0("COMMIT"))
        return 0;
    exec0("ROLLBACK");
    return -1;
}

static glicko pg_rating(const char *token, const char *variant)
{
    glicko g = GLICKO_NEW;
    char key[PLAY_NAME_BYTES + 2];
    pg_player(token, key, sizeof key);
    const char *p[2] = {key, variant};
    PGresult *r =
        run("SELECT rating, rd, vol, at FROM ratings WHERE player = $1 AND variant = $2", 2, p);
    if (ok_res(r, 0) && PQntuples(r) > 0) {
        g.rating = strtod(PQgetvalue(r, 0, 0), NULL);
        g.rd = strtod(PQgetvalue(r, 0, 1), NULL);
        g.vol = strtod(PQgetvalue(r, 0, 2), NULL);
        int64_t at = strtoll(PQgetvalue(r, 0, 3), NULL, 10), idle = play_now() - at;
        if (at > 0 && idle >= GLICKO_PERIOD_MS)
            g = glicko_idle(g, (double)(idle / GLICKO_PERIOD_MS)); /* whole days without a game */
    }
    PQclear(r);
    return g;
}

/* Was the last failure the disk (or the server's quota) full? */
static int disk_full(PGresult *r)
{
    const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
    return state && !strcmp(state, "53100");
}

/* A change of a game: most are one statement (save_game) committed on its own; a game that
 * ends or is rated writes its results and ratings in the same transaction. Committed without
 * waiting for the disk, numbered for the group commit (pg_sync.h), announced by it. */
static int pg_save(play_game *g, int from)
{
    static int failing; /* the last save failed: not logged again until one works */
    if (!pg)
        return -1;
    int64_t rev = 0, mark = pg_sync_mark();
    int conflict = 0, alone = !g->rate_now && g->state != PLAY_OVER;
    PGresult *r = NULL;
    if (alone) {
        if (save_game(g, from, mark, &rev, &conflict))
            r = PQmakeEmptyPGresult(pg, PGRES_COMMAND_OK);
    } else if (exec0("BEGIN") && save_game(g, from, mark, &rev, &conflict) &&
               (!g->rate_now || save_ratings(g)) &&
               (g->state != PLAY_OVER || store_write_results(g, 0, &results_writer))) {
        r = run("COMMIT", 0, NULL);
    }
    if (r) {
        int done = ok_res(r, 0), full = disk_full(r);
        PQclear(r);
        if (done) {
            if (failing)
                fprintf(stderr, "condraughts: games between people are saved again\n");
            failing = 0;
            g->rev = rev;
            pg_sync_committed(g->id, rev, mark);
            return 0;
        }
        if (full) {
            failing = 1;
            return -2;
        }
    }
    if (conflict) { /* another server's change came first: not a failure of the store */
        if (!alone)
            exec0("ROLLBACK");
        return conflict;
    }
    if (!failing)
        fprintf(stderr,
                "condraughts: cannot save game %s: %s(further failures are not logged until a "
                "save works)\n",
                g->id, PQerrorMessage(pg));
    failing = 1;
    int full = strstr(PQerrorMessage(pg), "No space left") != NULL;
    if (!alone)
        exec0("ROLLBACK");
    return full ? -2 : -1;
}

static int pg_alive(int64_t now)
{
    numbufs b = {.used = 0};
    const char *p[1] = {num_i(&b, now)};
    return exec_n("INSERT INTO alive VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET at = "
                  "GREATEST(alive.at, $1)",
                  1, p)
               ? 0
               : -1;
}

static int64_t pg_last_alive(void)
{
    PGresult *r = run("SELECT at FROM alive WHERE id = 1", 0, NULL);
    int64_t at = ok_res(r, 0) && PQntuples(r) > 0 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
    PQclear(r);
    return at;
}

/* The game's row first, at its revision (a change another server commits meanwhile makes it
 * delete nothing: -3), then its moves and chat. */
static int pg_delete(const char *id, int64_t rev)
{
    if (!pg || !exec0("BEGIN"))
        return -1;
    numbufs b = {.used = 0};
    const char *p[2] = {id, num_i(&b, rev)};
    long rows = changed_rows("DELETE FROM games WHERE id = $1 AND rev = $2::BIGINT", 2, p);
    if (rows == 1 && exec_n("DELETE FROM moves WHERE game = $1", 1, &id) &&
        exec_n("DELETE FROM chat WHERE game = $1", 1, &id) && exec0("COMMIT")) {
        pg_sync_committed(id, -1, 0);
        return 0;
    }
    exec0("ROLLBACK");
    return rows == 0 ? -3 : -1;
}

static int pg_chat(play_game *g, int i)
{
    const play_chat *m = &g->chat[i];
    numbufs b = {.used = 0};
    const char *p[5] = {g->id, num_i(&b, i), num_i(&b, m->seat), m->text, num_i(&b, m->at)};
    int64_t mark = pg_sync_mark();
    const char *up[3] = {g->id, num_i(&b, g->rev), num_i(&b, mark)};
    if (!exec0("BEGIN"))
        return -1;
    PGresult *r = run("UPDATE games SET rev = rev + 1, mark = $3 WHERE id = $1 AND rev = $2 "
                      "RETURNING rev",
                      3, up);
    int ok = ok_res(r, 0), moved = ok && PQntuples(r) == 0;
    int64_t rev = ok && !moved ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
    PQclear(r);
    if (ok && !moved &&
        exec_n("INSERT INTO chat VALUES ($1,$2,$3,$4,$5) ON CONFLICT (game, n) DO UPDATE SET "
               "seat = $3, text = $4, at = $5",
               5, p) &&
        exec0("COMMIT")) {
        g->rev = rev;
        pg_sync_committed(g->id, rev, mark);
        return 0;
    }
    if (!moved)
        fprintf(stderr, "condraughts: cannot save a chat message of game %s: %s", g->id,
                PQerrorMessage(pg));
    exec0("ROLLBACK");
    return moved ? -3 : -1;
}

static int pg_rev(const char *id, int64_t *rev)
{
    PGresult *r = run("SELECT rev FROM games WHERE id = $1", 1, &id);
    int found = ok_res(r, 0) ? PQntuples(r) > 0 : -1;
    if (found > 0)
        *rev = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
    PQclear(r);
    return found;
}

/* The ids as a PostgreSQL array literal "{a,b,...}" (ids: hex digits, nothing to quote), to be
 * freed; NULL when out of memory. */
static char *id_array(const char *const *ids, int n)
{
    char *list = malloc((size_t)n * (PLAY_ID_HEX + 1) + 3), *at = list;
    if (!list)
        return NULL;
    *at++ = '{';
    for (int i = 0; i < n; i++)
        at += sprintf(at, "%s%s", i ? "," : "", ids[i]);
    strcpy(at, "}");
    return list;
}

static int pg_seen(const char *const *ids, int n, int64_t now)
{
    char *list = id_array(ids, n);
    if (!list)
        return -1;
    numbufs b = {.used = 0};
    const char *p[2] = {list, num_i(&b, now)};
    int ok = exec_n("UPDATE games SET seen = GREATEST(seen, $2) WHERE id = ANY($1::TEXT[])", 2, p);
    free(list);
    return ok ? 0 : -1;
}

static int64_t pg_seen_at(const char *id)
{
    PGresult *r = run("SELECT seen FROM games WHERE id = $1", 1, &id);
    int64_t at = ok_res(r, 0) && PQntuples(r) > 0 ? strtoll(PQgetvalue(r, 0, 0), NULL, 10) : 0;
    PQclear(r);
    return at;
}

/* The listening connection made (LISTEN): 1, or 0 (lconn NULL). */
static int listen_connect(void)
{
    lconn = connect_named(conninfo ? conninfo : "", "condraughts listen");
    PGresult *r =
        PQstatus(lconn) == CONNECTION_OK ? PQexec(lconn, "LISTEN " PG_SYNC_CHANNEL) : NULL;
    if (ok_res(r, 1))
        return 1;
    PQfinish(lconn);
    lconn = NULL;
    return 0;
}

/* The announcements libpq has read on lconn handed to heard: how many. */
static int deliver(void (*heard)(const char *id, int64_t rev))
{
    int n = 0;
    for (PGnotify *note; (note = PQnotifies(lconn)); PQfreemem(note)) {
        char id[PLAY_ID_HEX + 1];
        long long rev;
        if (!strcmp(note->extra, "*")) { /* a server started (pg_open) */
            if (note->be_pid != started_pid) {
                heard(NULL, 0);
                n++;
            }
        } else if (sscanf(note->extra, "%12[0-9a-f] %lld", id, &rev) == 2) {
            heard(id, (int64_t)rev);
            n++;
        }
    }
    return n;
}

static int pg_heard(int timeout_ms, void (*heard)(const char *id, int64_t rev))
{
    if (!lconn) { /* lost: made again, and every game read again (announcements were missed) */
        if (!listen_connect()) {
            struct timespec ts = {timeout_ms / 1000, (timeout_ms % 1000) * 1000000L};
            nanosleep(&ts, NULL);
            return -1;
        }
        heard(NULL, 0);
    }
    /* those read meanwhile (pg_revs' statement on this connection reads them too) first: the
     * socket has nothing more to say of them */
    int n = deliver(heard);
    if (n > 0)
        return n;
    struct pollfd pfd = {PQsocket(lconn), POLLIN, 0};
    if (poll(&pfd, 1, timeout_ms) < 0 || !PQconsumeInput(lconn)) {
        PQfinish(lconn);
        lconn = NULL;
        return -1;
    }
    return deliver(heard);
}

/* On the listening connection (store_heard's thread): one statement, a row an id in their order
 * (the revision, NULL for a game not there). */
/* On the listening connection: SQL whose one parameter ($1, TEXT[]) is the ids; NULL without the
 * connection or memory. */
static PGresult *ids_query(const char *sql, const char *const *ids, int n)
{
    if (!lconn)
        return NULL;
    char *list = id_array(ids, n);
    if (!list)
        return NULL;
    const char *p[1] = {list};
    PGresult *r = PQexecParams(lconn, sql, 1, NULL, p, NULL, NULL, 0);
    free(list);
    return r;
}

/* A listening connection found broken is dropped: pg_heard makes it again and rereads all. */
static void drop_broken_listener(void)
{
    if (lconn && PQstatus(lconn) == CONNECTION_BAD) {
        PQfinish(lconn);
        lconn = NULL;
    }
}

static int pg_revs(const char *const *ids, int n, int64_t *revs)
{
    PGresult *r = ids_query("SELECT g.rev FROM unnest($1::TEXT[]) WITH ORDINALITY AS x(id, i)"
                            " LEFT JOIN games g ON g.id = x.id ORDER BY x.i",
                            ids, n);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) == n;
    for (int i = 0; ok && i < n; i++)
        revs[i] = PQgetisnull(r, i, 0) ? 0 : strtoll(PQgetvalue(r, i, 0), NULL, 10);
    PQclear(r);
    if (!ok)
        drop_broken_listener();
    return ok ? 0 : -1;
}

/* Are the enumerations of a row read back in range (a damaged or edited row)? */
static int row_sane(const play_game *g)
{
    return g->clock >= PLAY_CLOCK_NONE && g->clock <= PLAY_CLOCK_REALTIME &&
           g->state >= PLAY_WAITING && g->state <= PLAY_OVER && g->end >= END_NONE &&
           g->end <= END_ABORTED && g->loser >= -1 && g->loser <= 1 && g->draw_offer >= -1 &&
           g->draw_offer <= 1 && g->takeback >= -1 && g->takeback <= 1 && g->rematch >= -1 &&
           g->rematch <= 1 && g->base_ms >= 0 && g->inc_ms >= 0;
}

/* A JSON array of a game read back (NULL, the empty text: none), each element given to row(g,
 * element): 0, or -1 (damaged, out of memory, or row's -1). */
static int json_rows(play_game *g, const char *json, int (*row)(play_game *g, const cJSON *e))
{
    if (!json[0])
        return 0;
    cJSON *a = cJSON_Parse(json), *e;
    int ok = cJSON_IsArray(a);
    cJSON_ArrayForEach(e, a)
    {
        ok = ok && row(g, e) == 0;
        if (!ok)
            break;
    }
    cJSON_Delete(a);
    return ok ? 0 : -1;
}

/* One of g's moves: [move, white_ms, black_ms, at]. */
static int move_row(play_game *g, const cJSON *e)
{
    const cJSON *mv = cJSON_GetArrayItem(e, 0), *w = cJSON_GetArrayItem(e, 1),
                *bl = cJSON_GetArrayItem(e, 2), *at = cJSON_GetArrayItem(e, 3);
    play_move *m = cJSON_IsString(mv) && cJSON_IsNumber(w) && cJSON_IsNumber(bl) &&
                           cJSON_IsNumber(at)
                       ? play_move_append(g)
                       : NULL;
    if (!m)
        return -1;
    snprintf(m->hub, sizeof m->hub, "%s", mv->valuestring);
    m->ms[0] = (int64_t)w->valuedouble;
    m->ms[1] = (int64_t)bl->valuedouble;
    m->at = (int64_t)at->valuedouble;
    return 0;
}

/* One line of g's chat: [seat, text, at]. */
static int chat_row(play_game *g, const cJSON *e)
{
    const cJSON *seat = cJSON_GetArrayItem(e, 0), *text = cJSON_GetArrayItem(e, 1),
                *at = cJSON_GetArrayItem(e, 2);
    return cJSON_IsNumber(seat) && cJSON_IsString(text) && cJSON_IsNumber(at) &&
                   (seat->valueint == 0 || seat->valueint == 1) && g->nchat < PLAY_CHAT_MAX &&
                   play_chat_append(g, seat->valueint, text->valuestring,
                                    (int64_t)at->valuedouble) == 0
               ? 0
               : -1;
}

static void text_col(const PGresult *r, int row, int col, char *dst, size_t cap)
{
    snprintf(dst, cap, "%s", PQgetvalue(r, row, col));
}

static int64_t int_col(const PGresult *r, int row, int col)
{
    return strtoll(PQgetvalue(r, row, col), NULL, 10);
}

static int load_rows(PGresult *r, void (*add)(play_game *g));

static int pg_load(const char *id, void (*add)(play_game *g))
{
    char over[4];
    snprintf(over, sizeof over, "%d", PLAY_OVER);
    const char *arg = id ? id : over;
    return load_rows(run(id ? LOAD_SELECT "WHERE id = $1"
                            : LOAD_SELECT "WHERE state != $1::INTEGER ORDER BY created, id",
                         1, &arg),
                     add);
}

/* The games of r, LOAD_SELECT's rows, each handed to add; r cleared. The number read, or -1. */
static int load_rows(PGresult *r, void (*add)(play_game *g))
{
    if (!ok_res(r, 0)) {
        PQclear(r);
        return -1;
    }
    int n = 0;
    for (int row = 0; row < PQntuples(r); row++) {
        play_game *g = calloc(1, sizeof *g);
        if (!g)
            break;
        int c = 0;
        text_col(r, row, c++, g->id, sizeof g->id);
        char variant[64];
        text_col(r, row, c++, variant, sizeof variant);
        g->rules = cd_rules_find(variant);
        text_col(r, row, c++, g->fen, sizeof g->fen);
        g->clock = (int)int_col(r, row, c++);
        g->base_ms = int_col(r, row, c++);
        g->inc_ms = int_col(r, row, c++);
        text_col(r, row, c++, g->token[0], sizeof g->token[0]);
        text_col(r, row, c++, g->token[1], sizeof g->token[1]);
        text_col(r, row, c++, g->name[0], sizeof g->name[0]);
        text_col(r, row, c++, g->name[1], sizeof g->name[1]);
        g->open = (int)int_col(r, row, c++);
        g->state = (int)int_col(r, row, c++);
        g->end = (int)int_col(r, row, c++);
        g->loser = (int)int_col(r, row, c++);
        g->ms[0] = int_col(r, row, c++);
        g->ms[1] = int_col(r, row, c++);
        g->turn_start = int_col(r, row, c++);
        g->draw_offer = (int)int_col(r, row, c++);
        g->takeback = (int)int_col(r, row, c++);
        g->rematch = (int)int_col(r, row, c++);
        text_col(r, row, c++, g->rematch_id, sizeof g->rematch_id);
        g->created = int_col(r, row, c++);
        for (int s = 0; s < 2; s++) {
            glicko *gl[2] = {&g->rating[s], &g->after[s]};
            for (int k = 0; k < 2; k++) {
                gl[k]->rating = strtod(PQgetvalue(r, row, c++), NULL);
                gl[k]->rd = strtod(PQgetvalue(r, row, c++), NULL);
                gl[k]->vol = strtod(PQgetvalue(r, row, c++), NULL);
            }
        }
        g->first_wait = int_col(r, row, c++);
        g->outage_ms = int_col(r, row, c++);
        g->rev = int_col(r, row, c++);
        if (!g->rules || !row_sane(g) || json_rows(g, PQgetvalue(r, row, c), move_row) != 0 ||
            json_rows(g, PQgetvalue(r, row, c + 1), chat_row) != 0) {
            fprintf(stderr,
                    "condraughts: skipping stored game %s (variant '%s', or a damaged row)\n",
                    g->id, variant);
            play_game_free(g);
            continue;
        }
        add(g);
        n++;
    }
    PQclear(r);
    return n;
}

/* store_read: on the listening connection, as pg_revs (not prepared: measured no cheaper). */
static int pg_read(const char *const *ids, int n, void (*add)(play_game *g))
{
    int got = load_rows(ids_query(LOAD_SELECT "WHERE id = ANY($1::TEXT[])", ids, n), add);
    if (got < 0)
        drop_broken_listener();
    return got;
}

/* ---------------------------------------------------------------- profiles (profile.h) */

static const char profile_schema[] =
    "CREATE TABLE IF NOT EXISTS results ("
    " player TEXT NOT NULL, game TEXT NOT NULL, ended BIGINT NOT NULL, variant TEXT NOT NULL,"
    " colour INTEGER NOT NULL, score INTEGER NOT NULL, name TEXT NOT NULL, opponent TEXT NOT NULL,"
    " opponent_name TEXT NOT NULL, ending INTEGER NOT NULL, rating DOUBLE PRECISION NOT NULL,"
    " after DOUBLE PRECISION NOT NULL, plies INTEGER NOT NULL, PRIMARY KEY (game, colour));"
    "CREATE INDEX IF NOT EXISTS results_player ON results (player, ended DESC, game DESC);"
    "CREATE INDEX IF NOT EXISTS results_history ON results (player, variant, ended DESC)"
    " WHERE after > 0;"
    "CREATE TABLE IF NOT EXISTS records ("
    " player TEXT NOT NULL, variant TEXT NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL,"
    " losses INTEGER NOT NULL, rating DOUBLE PRECISION NOT NULL, rd DOUBLE PRECISION NOT NULL,"
    " vol DOUBLE PRECISION NOT NULL, at BIGINT NOT NULL, PRIMARY KEY (player, variant));"
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, rating DESC, player)"
    " WHERE substr(player, 1, 1) = '@';";

/* A transaction begun for a part of the schema, under the schema's advisory lock, and whether
 * that part is still to be made (*fresh: its table, named, does not exist yet). 1, or 0 (no
 * transaction left open). */
static int schema_begin(const char *table, int *fresh)
{
    if (!exec0("BEGIN") || !exec0("SELECT pg_advisory_xact_lock(" SCHEMA_LOCK ")"))
        return 0;
    const char *p[1] = {table};
    PGresult *r = run("SELECT to_regclass($1) IS NULL", 1, p);
    int ok = ok_res(r, 0) && PQntuples(r) == 1;
    *fresh = ok && PQgetvalue(r, 0, 0)[0] == 't';
    PQclear(r);
    if (!ok)
        exec0("ROLLBACK");
    return ok;
}

/* The leaderboards' count (profile.h): ratings.listed_until (a stored generated column),
 * board_counts, and the trigger keeping it. The hour of a row is listed_until /
 * PROFILE_BOARD_HOUR_MS; a row not listed (0) or not an account's is not counted. */
static const char board_schema[] =
    "CREATE TABLE board_counts (variant TEXT NOT NULL, hour BIGINT NOT NULL,"
    " n BIGINT NOT NULL, PRIMARY KEY (variant, hour));"
    "CREATE INDEX IF NOT EXISTS ratings_until ON ratings (variant, listed_until)"
    " WHERE substr(player, 1, 1) = '@';"
    "CREATE OR REPLACE FUNCTION board_count() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN"
    " IF TG_OP <> 'INSERT' AND substr(OLD.player, 1, 1) = '@' AND OLD.listed_until > 0 THEN"
    "  UPDATE board_counts SET n = n - 1 WHERE variant = OLD.variant"
    "   AND hour = OLD.listed_until / " PROFILE_BOARD_HOUR_MS_SQL ";"
    " END IF;"
    " IF TG_OP <> 'DELETE' AND substr(NEW.player, 1, 1) = '@' AND NEW.listed_until > 0 THEN"
    "  INSERT INTO board_counts VALUES (NEW.variant,"
    "   NEW.listed_until / " PROFILE_BOARD_HOUR_MS_SQL ", 1)"
    "   ON CONFLICT (variant, hour) DO UPDATE SET n = board_counts.n + 1;"
    " END IF;"
    " RETURN NULL; END $f$;"
    "CREATE TRIGGER board_count AFTER INSERT OR UPDATE OR DELETE ON ratings"
    " FOR EACH ROW EXECUTE FUNCTION board_count();"
    "INSERT INTO board_counts SELECT variant,"
    " listed_until / " PROFILE_BOARD_HOUR_MS_SQL ", count(*) FROM ratings"
    " WHERE substr(player, 1, 1) = '@' AND listed_until > 0 GROUP BY 1, 2;";

/* The leaderboards' count made, once (a database made before it: the column added and its rows
 * counted), under the schema's advisory lock. 1, or 0. */
static int board_tables(void)
{
    int fresh;
    if (!schema_begin("board_counts", &fresh))
        return 0;
    int ok = 1;
    if (fresh) {
        char until[1024], add[1200];
        store_listed_until(until, sizeof until, "floor(", ")::BIGINT");
        snprintf(add, sizeof add,
                 "ALTER TABLE ratings ADD COLUMN IF NOT EXISTS listed_until BIGINT GENERATED "
                 "ALWAYS AS (%s) STORED",
                 until);
        ok = exec0(add) && ok_res(PQexec(pg, board_schema), 1);
    }
    if (ok && exec0("COMMIT"))
        return 1;
    exec0("ROLLBACK");
    return 0;
}

#define RESULT_COLUMNS                                                                             \
    "player, game, ended, variant, colour, score, name, opponent, opponent_name, ending, rating, " \
    "after, plies"

/* store_results_writer's add_result and add_record (store.h). */
static int add_result(const profile_result *r)
{
    numbufs b = {.used = 0};
    const char *p[13] = {r->player,
                         r->game,
                         num_i(&b, r->ended),
                         r->variant,
                         num_i(&b, r->colour),
                         num_i(&b, r->score),
                         r->name,
                         r->opponent,
                         r->opponent_name,
                         num_i(&b, r->ending),
                         num_d(&b, r->rating),
                         num_d(&b, r->after),
                         num_i(&b, r->plies)};
    long added = changed_rows("INSERT INTO results (" RESULT_COLUMNS ") VALUES ($1,$2,$3,$4,$5,"
                              "$6,$7,$8,$9,$10,$11,$12,$13) ON CONFLICT (game, colour) DO NOTHING",
                              13, p);
    return added < 0 ? -1 : added > 0;
}

static int add_record(const profile_result *r, const profile_record *d)
{
    numbufs b = {.used = 0};
    const char *q[9] = {r->player,
                        d->variant,
                        num_i(&b, d->wins),
                        num_i(&b, d->draws),
                        num_i(&b, d->losses),
                        num_d(&b, d->rating.rating),
                        num_d(&b, d->rating.rd),
                        num_d(&b, d->rating.vol),
                        num_i(&b, d->at)};
    return exec_n("INSERT INTO records VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9) ON CONFLICT (player, "
                  "variant) DO UPDATE SET wins=records.wins+$3, draws=records.draws+$4, "
                  "losses=records.losses+$5, rating=CASE WHEN $6>0 THEN $6 ELSE records.rating "
                  "END, rd=CASE WHEN $6>0 THEN $7 ELSE records.rd END, vol=CASE WHEN $6>0 THEN $8 "
                  "ELSE records.vol END, at=CASE WHEN $6>0 THEN $9 ELSE records.at END",
                  9, q);
}

static const store_results_writer results_writer = {pg_player, add_result, add_record};

/* The profile tables made (under the schema's advisory lock); when a database made before them
 * has finished games, their results written (the seats' keys as their tokens are logged in now),
 * oldest first. 1, or 0. */
static int profile_tables(void)
{
    int fresh;
    if (!schema_begin("results", &fresh))
        return 0;
    int ok = ok_res(PQexec(pg, profile_schema), 1);
    if (ok && fresh) {
        char a[2][8];
        snprintf(a[0], sizeof a[0], "%d", PLAY_OVER);
        snprintf(a[1], sizeof a[1], "%d", END_ABORTED);
        const char *p[2] = {a[0], a[1]};
        PGresult *r = run("SELECT id FROM games WHERE state = $1::INTEGER AND ending != "
                          "$2::INTEGER ORDER BY created",
                          2, p);
        ok = ok_res(r, 0);
        for (int i = 0; ok && i < PQntuples(r); i++)
            ok = store_backfill(PQgetvalue(r, i, 0), pg_load, &results_writer);
        PQclear(r);
    }
    if (ok && exec0("COMMIT"))
        return 1;
    exec0("ROLLBACK");
    return 0;
}

static void result_row(const PGresult *r, int row, profile_result *out)
{
    int c = 0;
    memset(out, 0, sizeof *out);
    text_col(r, row, c++, out->player, sizeof out->player);
    text_col(r, row, c++, out->game, sizeof out->game);
    out->ended = int_col(r, row, c++);
    text_col(r, row, c++, out->variant, sizeof out->variant);
    out->colour = (int)int_col(r, row, c++);
    out->score = (int)int_col(r, row, c++);
    text_col(r, row, c++, out->name, sizeof out->name);
    text_col(r, row, c++, out->opponent, sizeof out->opponent);
    text_col(r, row, c++, out->opponent_name, sizeof out->opponent_name);
    out->ending = (int)int_col(r, row, c++);
    out->rating = strtod(PQgetvalue(r, row, c++), NULL);
    out->after = strtod(PQgetvalue(r, row, c++), NULL);
    out->plies = (int)int_col(r, row, c++);
}

/* The rows of result r (PGresult, cleared) into out, at most n: how many, or -1. */
static int result_rows(PGresult *r, int n, profile_result *out)
{
    int k = -1;
    if (ok_res(r, 0))
        for (k = 0; k < n && k < PQntuples(r); k++)
            result_row(r, k, &out[k]);
    PQclear(r);
    return k;
}

static int pg_results(const char *player, int offset, int n, profile_result *out)
{
    numbufs b = {.used = 0};
    const char *p[3] = {player, num_i(&b, n), num_i(&b, offset)};
    return result_rows(run("SELECT " RESULT_COLUMNS " FROM results WHERE player = $1 ORDER BY "
                           "ended DESC, game DESC LIMIT $2::INTEGER OFFSET $3::INTEGER",
                           3, p),
                       n, out);
}

static int pg_results_from(const char *player, const profile_cursor *at, int older, int n,
                           profile_result *out)
{
    static const char *const sql[2] = {
        "SELECT " RESULT_COLUMNS " FROM results WHERE player = $1 AND (ended, game) > "
        "($3::BIGINT, $2) ORDER BY ended, game LIMIT $4::INTEGER",
        "SELECT " RESULT_COLUMNS " FROM results WHERE player = $1 AND (ended, game) < "
        "($3::BIGINT, $2) ORDER BY ended DESC, game DESC LIMIT $4::INTEGER"};
    numbufs b = {.used = 0};
    const char *p[4] = {player, at->game, num_i(&b, at->ended), num_i(&b, n)};
    return result_rows(run(sql[older != 0], 4, p), n, out);
}

static int pg_game_results(const char *game, profile_result out[2])
{
    return result_rows(
        run("SELECT " RESULT_COLUMNS " FROM results WHERE game = $1 ORDER BY colour", 1, &game),
        2, out);
}

static int pg_records(const char *player, profile_record *out, int cap)
{
    PGresult *r = run("SELECT variant, wins, draws, losses, rating, rd, vol, at FROM records "
                      "WHERE player = $1 ORDER BY variant",
                      1, &player);
    int k = -1;
    if (ok_res(r, 0))
        for (k = 0; k < cap && k < PQntuples(r); k++) {
            profile_record *o = &out[k];
            text_col(r, k, 0, o->variant, sizeof o->variant);
            o->wins = (int)int_col(r, k, 1);
            o->draws = (int)int_col(r, k, 2);
            o->losses = (int)int_col(r, k, 3);
            o->rating.rating = strtod(PQgetvalue(r, k, 4), NULL);
            o->rating.rd = strtod(PQgetvalue(r, k, 5), NULL);
            o->rating.vol = strtod(PQgetvalue(r, k, 6), NULL);
            o->at = int_col(r, k, 7);
        }
    PQclear(r);
    return k;
}

/* The accounts on a leaderboard (profile.h): $1 the variant, $2 now. */
static int pg_board(const char *variant, int64_t now, int offset, int n, profile_rank *out,
                    int64_t *total)
{
    numbufs b = {.used = 0};
    const char *p[4] = {variant, num_i(&b, now), num_i(&b, n), num_i(&b, offset)};
    if (total) {
        /* the hours after now's, then the rows ending within now's hour (ratings_until) */
        PGresult *c = run("SELECT (SELECT coalesce(sum(n), 0) FROM board_counts WHERE variant = "
                          "$1 AND hour > $2::BIGINT / " PROFILE_BOARD_HOUR_MS_SQL
                          ") + (SELECT count(*) FROM ratings WHERE variant = $1 AND "
                          "substr(player, 1, 1) = '@' AND "
                          "listed_until > $2::BIGINT AND listed_until < ($2::BIGINT / "
                          PROFILE_BOARD_HOUR_MS_SQL " + 1) * " PROFILE_BOARD_HOUR_MS_SQL ")",
                          2, p);
        int ok = ok_res(c, 0) && PQntuples(c) == 1;
        *total = ok ? int_col(c, 0, 0) : 0;
        PQclear(c);
        if (!ok)
            return -1;
    }
    PGresult *r = run("SELECT substr(player, 2), rating, rd, vol, games, at FROM ratings WHERE "
                      "variant = $1 AND substr(player, 1, 1) = '@' AND listed_until > "
                      "$2::BIGINT ORDER BY rating DESC, player LIMIT $3::INTEGER OFFSET "
                      "$4::INTEGER",
                      4, p);
    int k = -1;
    if (ok_res(r, 0))
        for (k = 0; k < n && k < PQntuples(r); k++) {
            profile_rank *o = &out[k];
            text_col(r, k, 0, o->name, sizeof o->name);
            o->rating.rating = strtod(PQgetvalue(r, k, 1), NULL);
            o->rating.rd = strtod(PQgetvalue(r, k, 2), NULL);
            o->rating.vol = strtod(PQgetvalue(r, k, 3), NULL);
            o->games = (int)int_col(r, k, 4);
            o->at = int_col(r, k, 5);
        }
    PQclear(r);
    return k;
}

static int pg_history(const char *player, const char *variant, int n, profile_point *out)
{
    numbufs b = {.used = 0};
    const char *p[3] = {player, variant, num_i(&b, n)};
    PGresult *r = run("SELECT ended, after FROM results WHERE player = $1 AND variant = $2 AND "
                      "after > 0 ORDER BY ended DESC LIMIT $3::INTEGER",
                      3, p);
    int k = -1;
    if (ok_res(r, 0))
        for (k = 0; k < n && k < PQntuples(r); k++) {
            out[k].at = int_col(r, k, 0);
            out[k].rating = strtod(PQgetvalue(r, k, 1), NULL);
        }
    PQclear(r);
    return k;
}

const store_ops store_pg = {"postgresql",   pg_open,         pg_close,        pg_save,
                            pg_delete,      pg_alive,        pg_last_alive,   pg_chat,
                            pg_rating,      pg_player,       pg_login_name,   pg_account_hash,
                            pg_account_add, pg_account_like, pg_login,        pg_account_rehash,
                            pg_load,        1,               pg_rev,          pg_heard,
                            pg_revs,        pg_read,         pg_seen,         pg_seen_at,
                            pg_results,     pg_results_from, pg_game_results, pg_records,
                            pg_board,       pg_history};

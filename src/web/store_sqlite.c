/*
 * store_sqlite.c -- the games between people in SQLite (store_sqlite.h), behind store.h: the
 * schema, one transaction per change, and reading the games back at start.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "store_sqlite.h"
#include "sqlite_sync.h"
#include "store.h"
#include "names.h"
#include "profile.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

static sqlite3 *db;
/* The database file, open for the whole run and flock()ed: one server at a time (no revisions,
 * no announcements: a second server on the file would write over the first's games unheard).
 * Closed only after SQLite's own connections (closing any descriptor of the file drops the
 * process's POSIX locks, SQLite's). -1: none. */
static int held = -1;
/* The statements of a move's save (sq_save) and of the profiles' reads, prepared once per open
 * database, each reset after use (finalized by sq_close): preparing them anew was a tenth of a
 * move's CPU. */
enum {
    ST_BEGIN,
    ST_COMMIT,
    ST_ROW,
    ST_STATE,
    ST_MOVES_DEL,
    ST_MOVES_INS,
    ST_RESULT,
    ST_RECORD,
    ST_RESULTS,
    ST_RESULTS_OLDER,
    ST_RESULTS_NEWER,
    ST_GAME_RESULTS,
    ST_RECORDS,
    ST_BOARD,
    ST_BOARD_COUNT,
    ST_HISTORY,
    ST_COUNT
};
static sqlite3_stmt *kept[ST_COUNT];


static void sq_player(const char *token, char *key, size_t cap);
static int sq_load(const char *id, void (*add)(play_game *g));
static int profile_tables(char **msg);
static int board_tables(char **msg);
static const store_results_writer results_writer;

static const char schema[] =
    "PRAGMA journal_mode=WAL;"
    "PRAGMA synchronous=NORMAL;" /* each commit is synced by sqlite_sync.c */
    "CREATE TABLE IF NOT EXISTS games ("
    " id TEXT PRIMARY KEY, variant TEXT NOT NULL, fen TEXT NOT NULL, clock INTEGER NOT NULL,"
    " base_ms INTEGER NOT NULL, inc_ms INTEGER NOT NULL,"
    " white_token TEXT NOT NULL, black_token TEXT NOT NULL,"
    " white_name TEXT NOT NULL, black_name TEXT NOT NULL, open INTEGER NOT NULL,"
    " state INTEGER NOT NULL, ending INTEGER NOT NULL, loser INTEGER NOT NULL,"
    " white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL, turn_start INTEGER NOT NULL,"
    " draw_offer INTEGER NOT NULL, takeback INTEGER NOT NULL, rematch INTEGER NOT NULL,"
    " rematch_id TEXT NOT NULL, created INTEGER NOT NULL,"
    " white_rating REAL NOT NULL, white_rd REAL NOT NULL, white_vol REAL NOT NULL,"
    " white_after REAL NOT NULL, white_after_rd REAL NOT NULL, white_after_vol REAL NOT NULL,"
    " black_rating REAL NOT NULL, black_rd REAL NOT NULL, black_vol REAL NOT NULL,"
    " black_after REAL NOT NULL, black_after_rd REAL NOT NULL, black_after_vol REAL NOT NULL);"
    "CREATE TABLE IF NOT EXISTS moves ("
    " game TEXT NOT NULL, ply INTEGER NOT NULL,"
    " move TEXT NOT NULL, white_ms INTEGER NOT NULL, black_ms INTEGER NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY (game, ply));"
    "CREATE TABLE IF NOT EXISTS ratings ("
    " player TEXT NOT NULL, variant TEXT NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL,"
    " vol REAL NOT NULL, games INTEGER NOT NULL, PRIMARY KEY (player, variant));"
    "CREATE TABLE IF NOT EXISTS accounts ("
    " name TEXT PRIMARY KEY COLLATE NOCASE, hash TEXT NOT NULL,"
    " created INTEGER NOT NULL);" /* seconds since the epoch */
    "CREATE TABLE IF NOT EXISTS logins (token TEXT PRIMARY KEY, name TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS chat ("
    " game TEXT NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL, text TEXT NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY (game, n));"
    "CREATE TABLE IF NOT EXISTS alive (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);"
    "CREATE INDEX IF NOT EXISTS games_state ON games (state);";

/* Columns added since the first schema, each added to a database made before it (its default for
 * the rows there): ratings.at, when the rating last changed (ms since the epoch; 0: not aged);
 * games.first_wait (play.h; 0: no first-move limit); games.outage_ms (play.h); accounts.skey. */
static const struct {
    const char *probe, *add;
} added[] = {
    {"SELECT at FROM ratings", "ALTER TABLE ratings ADD COLUMN at INTEGER NOT NULL DEFAULT 0"},
    {"SELECT first_wait FROM games",
     "ALTER TABLE games ADD COLUMN first_wait INTEGER NOT NULL DEFAULT 0"},
    {"SELECT outage_ms FROM games",
     "ALTER TABLE games ADD COLUMN outage_ms INTEGER NOT NULL DEFAULT 0"},
    {"SELECT skey FROM accounts", "ALTER TABLE accounts ADD COLUMN skey TEXT NOT NULL DEFAULT ''"},
};

/* Every account without its name's key (accounts.skey: names.h; made before the column) given
 * one, and the keys indexed. 0, or -1 with *msg. */
static int key_accounts(char **msg)
{
    sqlite3_stmt *st = NULL, *up = NULL;
    int ok = sqlite3_prepare_v2(db, "SELECT name FROM accounts WHERE skey = ''", -1, &st, NULL) ==
                 SQLITE_OK &&
             sqlite3_prepare_v2(db, "UPDATE accounts SET skey = ?2 WHERE name = ?1", -1, &up,
                                NULL) == SQLITE_OK;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        char key[4 * PLAY_NAME_BYTES];
        if (!name || name_key(name, key, sizeof key) != 0)
            continue;
        sqlite3_reset(up);
        sqlite3_bind_text(up, 1, name, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(up, 2, key, -1, SQLITE_TRANSIENT);
        ok = sqlite3_step(up) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(up);
    if (!ok)
        return -1;
    return sqlite3_exec(db, "CREATE INDEX IF NOT EXISTS accounts_skey ON accounts (skey)", NULL,
                        NULL, msg) == SQLITE_OK
               ? 0
               : -1;
}

/* Add the columns a database made before them lacks. 0, or -1 with *msg (sqlite3_free it). */
static int add_columns(char **msg)
{
    for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
        sqlite3_stmt *probe = NULL;
        int has = sqlite3_prepare_v2(db, added[i].probe, -1, &probe, NULL) == SQLITE_OK;
        sqlite3_finalize(probe);
        if (!has && sqlite3_exec(db, added[i].add, NULL, NULL, msg) != SQLITE_OK)
            return -1;
    }
    return 0;
}

/* Can the database be written (not read-only, room for a page)? 0, or -1 with *msg. */
static int write_probe(char **msg)
{
    if (sqlite3_db_readonly(db, "main") == 1) {
        *msg = sqlite3_mprintf("the database is read-only");
        return -1;
    }
    sqlite3_stmt *st = NULL;
    int version = 0;
    if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        version = sqlite3_column_int(st, 0);
    sqlite3_finalize(st);
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA user_version = %d", version);
    return sqlite3_exec(db, sql, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
}

static void release(void)
{
    if (held >= 0)
        close(held);
    held = -1;
}

static int sq_open(const char *path, char *err, size_t errlen)
{
    /* created private: it holds the tokens */
    held = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (held >= 0 && flock(held, LOCK_EX | LOCK_NB) != 0) {
        if (errno == EWOULDBLOCK)
            snprintf(err, errlen,
                     "cannot use %s: another server has it open (an SQLite file serves one "
                     "server; several share a PostgreSQL database: docs/deploy.md)",
                     path);
        else
            snprintf(err, errlen, "cannot lock %s: %s", path, strerror(errno));
        release();
        return -1;
    }
    if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
        sqlite3_close(db);
        db = NULL;
        release();
        return -1;
    }
    sqlite3_busy_timeout(db, 5000);
    char *msg = NULL;
    if (sqlite3_exec(db, schema, NULL, NULL, &msg) != SQLITE_OK || add_columns(&msg) != 0 ||
        key_accounts(&msg) != 0 || profile_tables(&msg) != 0 || board_tables(&msg) != 0 ||
        write_probe(&msg) != 0) {
        snprintf(err, errlen, "cannot use %s: %s", path, msg ? msg : "error");
        sqlite3_free(msg);
        sqlite3_close(db);
        db = NULL;
        release();
        return -1;
    }
    if (sqlite_sync_start(db, path, err, errlen) != 0) {
        sqlite3_close(db);
        db = NULL;
        release();
        return -1;
    }
    return 0;
}

static void sq_close(void)
{
    for (int k = 0; k < ST_COUNT; k++) {
        sqlite3_finalize(kept[k]);
        kept[k] = NULL;
    }
    sqlite_sync_stop();
    sqlite3_close(db);
    db = NULL;
    release();
}

static int exec(const char *sql) { return sqlite3_exec(db, sql, NULL, NULL, NULL) == SQLITE_OK; }

static sqlite3_stmt *stmt(int k, const char *sql)
{
    if (!kept[k] && sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &kept[k], NULL) !=
                        SQLITE_OK) {
        sqlite3_finalize(kept[k]);
        kept[k] = NULL;
    }
    return kept[k];
}

/* Run a kept statement without parameters (BEGIN, COMMIT); 1 when it is done. */
static int run_kept(int k, const char *sql)
{
    sqlite3_stmt *st = stmt(k, sql);
    int ok = st && sqlite3_step(st) == SQLITE_DONE;
    if (st)
        sqlite3_reset(st);
    return ok;
}

/* Kept statement k with its text parameters t[0..nt), then its integer ones v[0..nv): ready to
 * step, and to reset after (NULL: it cannot be prepared). */
static sqlite3_stmt *kept_query(int k, const char *sql, int nt, const char *const *t, int nv,
                                const int64_t *v)
{
    sqlite3_stmt *st = stmt(k, sql);
    for (int i = 0; st && i < nt; i++)
        sqlite3_bind_text(st, i + 1, t[i], -1, SQLITE_STATIC);
    for (int i = 0; st && i < nv; i++)
        sqlite3_bind_int64(st, nt + i + 1, v[i]);
    return st;
}

/* The game's row, updated in place (an upsert keeps its rowid): INSERT OR REPLACE deleted the row
 * and inserted it anew, rewriting its entries in the primary key's index and in games_state, so a
 * move wrote about 7 pages to the WAL. The state, the one indexed column a change may change, is
 * set by a statement of its own only when it differs, so a move leaves games_state alone: 3 pages
 * a move (the game's row, the move's row, the move's key). */
static int save_row(const play_game *g)
{
    static const char sql[] =
        "INSERT INTO games VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11,?12,?13,?14,?15,"
        "?16,?17,?18,?19,?20,?21,?22,?23,?24,?25,?26,?27,?28,?29,?30,?31,?32,?33,?34,?35,?36) "
        "ON CONFLICT(id) DO UPDATE SET "
        "variant=excluded.variant,fen=excluded.fen,clock=excluded.clock,base_ms=excluded.base_ms,"
        "inc_ms=excluded.inc_ms,white_token=excluded.white_token,black_token=excluded.black_token,"
        "white_name=excluded.white_name,black_name=excluded.black_name,open=excluded.open,"
        "ending=excluded.ending,loser=excluded.loser,white_ms=excluded.white_ms,"
        "black_ms=excluded.black_ms,turn_start=excluded.turn_start,draw_offer=excluded.draw_offer,"
        "takeback=excluded.takeback,rematch=excluded.rematch,rematch_id=excluded.rematch_id,"
        "created=excluded.created,white_rating=excluded.white_rating,white_rd=excluded.white_rd,"
        "white_vol=excluded.white_vol,white_after=excluded.white_after,"
        "white_after_rd=excluded.white_after_rd,white_after_vol=excluded.white_after_vol,"
        "black_rating=excluded.black_rating,black_rd=excluded.black_rd,"
        "black_vol=excluded.black_vol,black_after=excluded.black_after,"
        "black_after_rd=excluded.black_after_rd,black_after_vol=excluded.black_after_vol,"
        "first_wait=excluded.first_wait,outage_ms=excluded.outage_ms";
    sqlite3_stmt *st = stmt(ST_ROW, sql);
    sqlite3_stmt *state =
        stmt(ST_STATE, "UPDATE games SET state = ?2 WHERE id = ?1 AND state != ?2");
    if (!st || !state)
        return 0;
    int i = 1;
    sqlite3_bind_text(st, i++, g->id, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, g->rules->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, g->fen, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, i++, g->clock);
    sqlite3_bind_int64(st, i++, g->base_ms);
    sqlite3_bind_int64(st, i++, g->inc_ms);
    sqlite3_bind_text(st, i++, g->token[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, g->token[1], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, g->name[0], -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, g->name[1], -1, SQLITE_STATIC);
    sqlite3_bind_int(st, i++, g->open);
    sqlite3_bind_int(st, i++, g->state);
    sqlite3_bind_int(st, i++, g->end);
    sqlite3_bind_int(st, i++, g->loser);
    sqlite3_bind_int64(st, i++, g->ms[0]);
    sqlite3_bind_int64(st, i++, g->ms[1]);
    sqlite3_bind_int64(st, i++, g->turn_start);
    sqlite3_bind_int(st, i++, g->draw_offer);
    sqlite3_bind_int(st, i++, g->takeback);
    sqlite3_bind_int(st, i++, g->rematch);
    sqlite3_bind_text(st, i++, g->rematch_id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, i++, g->created);
    for (int c = 0; c < 2; c++) {
        const glicko *r[2] = {&g->rating[c], &g->after[c]};
        for (int k = 0; k < 2; k++) {
            sqlite3_bind_double(st, i++, r[k]->rating);
            sqlite3_bind_double(st, i++, r[k]->rd);
            sqlite3_bind_double(st, i++, r[k]->vol);
        }
    }
    sqlite3_bind_int64(st, i++, g->first_wait);
    sqlite3_bind_int64(st, i++, g->outage_ms);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
    if (ok) {
        sqlite3_bind_text(state, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(state, 2, g->state);
        ok = sqlite3_step(state) == SQLITE_DONE;
        sqlite3_reset(state);
    }
    return ok;
}

static int save_moves(const play_game *g, int from)
{
    sqlite3_stmt *del = stmt(ST_MOVES_DEL, "DELETE FROM moves WHERE game = ?1 AND ply >= ?2");
    sqlite3_stmt *ins = stmt(ST_MOVES_INS, "INSERT INTO moves VALUES (?1,?2,?3,?4,?5,?6)");
    int ok = del && ins;
    if (ok) {
        sqlite3_bind_text(del, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(del, 2, from);
        ok = sqlite3_step(del) == SQLITE_DONE;
    }
    for (int p = from; ok && p < g->nmoves; p++) {
        const play_move *m = &g->moves[p];
        sqlite3_reset(ins);
        sqlite3_bind_text(ins, 1, g->id, -1, SQLITE_STATIC);
        sqlite3_bind_int(ins, 2, p);
        sqlite3_bind_text(ins, 3, m->hub, -1, SQLITE_STATIC);
        sqlite3_bind_int64(ins, 4, m->ms[0]);
        sqlite3_bind_int64(ins, 5, m->ms[1]);
        sqlite3_bind_int64(ins, 6, m->at);
        ok = sqlite3_step(ins) == SQLITE_DONE;
    }
    if (del)
        sqlite3_reset(del);
    if (ins)
        sqlite3_reset(ins);
    return ok;
}

/* The ratings a game has just changed (g->rate_now). */
static int save_ratings(const play_game *g)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db,
                           "INSERT INTO ratings (player, variant, rating, rd, vol, games, at) "
                           "VALUES (?1,?2,?3,?4,?5,1,?6) ON CONFLICT(player, variant) DO UPDATE "
                           "SET rating=?3, rd=?4, vol=?5, games=games+1, at=?6",
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    int ok = 1;
    for (int c = 0; ok && c < 2; c++) {
        char key[PLAY_NAME_BYTES + 2];
        sq_player(g->token[c], key, sizeof key);
        sqlite3_reset(st);
        sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(st, 2, g->rules->name, -1, SQLITE_STATIC);
        sqlite3_bind_double(st, 3, g->after[c].rating);
        sqlite3_bind_double(st, 4, g->after[c].rd);
        sqlite3_bind_double(st, 5, g->after[c].vol);
        sqlite3_bind_int64(st, 6, play_now());
        ok = sqlite3_step(st) == SQLITE_DONE;
    }
    sqlite3_finalize(st);
    return ok;
}

/* One text column of the row of a one-parameter query into out (""/0 when none). */
static int query_text(const char *sql, const char *arg, char *out, size_t cap)
{
    sqlite3_stmt *st = NULL;
    out[0] = 0;
    if (!db || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, arg, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    if (found) {
        const unsigned char *t = sqlite3_column_text(st, 0);
        snprintf(out, cap, "%s", t ? (const char *)t : "");
    }
    sqlite3_finalize(st);
    return found;
}

static int sq_login_name(const char *token, char *name, size_t cap)
{
    return query_text("SELECT name FROM logins WHERE token = ?1", token, name, cap);
}

static void sq_player(const char *token, char *key, size_t cap)
{
    store_key_of(token, sq_login_name, key, cap);
}

static int sq_account_hash(const char *name, char *hash, size_t cap, char *canonical, size_t ncap)
{
    char row[PLAY_NAME_BYTES + 1];
    if (!query_text("SELECT name FROM accounts WHERE name = ?1", name, row, sizeof row))
        return 0;
    snprintf(canonical, ncap, "%s", row);
    return query_text("SELECT hash FROM accounts WHERE name = ?1", name, hash, cap);
}

/* Run a statement with up to three text parameters; 1 when it is done. */
static int run3(const char *sql, const char *a, const char *b, const char *c)
{
    sqlite3_stmt *st = NULL;
    if (!db || sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, a, -1, SQLITE_STATIC);
    if (b)
        sqlite3_bind_text(st, 2, b, -1, SQLITE_STATIC);
    if (c)
        sqlite3_bind_text(st, 3, c, -1, SQLITE_STATIC);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return ok;
}

static int run2(const char *sql, const char *a, const char *b) { return run3(sql, a, b, NULL); }

static int sq_account_like(const char *key, char *name, size_t cap)
{
    return query_text("SELECT name FROM accounts WHERE skey = ?1", key, name, cap);
}

static int sq_account_add(const char *name, const char *hash, const char *token)
{
    char row[PLAY_NAME_BYTES + 1], key[4 * PLAY_NAME_BYTES];
    if (name_key(name, key, sizeof key) != 0)
        return -1;
    if (query_text("SELECT name FROM accounts WHERE name = ?1", name, row, sizeof row) ||
        sq_account_like(key, row, sizeof row))
        return 1;
    if (!exec("BEGIN IMMEDIATE"))
        return -1;
    if (run3("INSERT INTO accounts (name, hash, created, skey) VALUES "
             "(?1, ?2, CAST(strftime('%s', 'now') AS INTEGER), ?3)",
             name, hash, key) &&
        run2("INSERT OR REPLACE INTO logins VALUES (?1, ?2)", token, name) && exec("COMMIT"))
        return 0;
    exec("ROLLBACK");
    return -1;
}

static int sq_login(const char *token, const char *name)
{
    if (name)
        return run2("INSERT OR REPLACE INTO logins VALUES (?1, ?2)", token, name) ? 0 : -1;
    return run2("DELETE FROM logins WHERE token = ?1", token, NULL) ? 0 : -1;
}

static int sq_account_rehash(const char *name, const char *hash, const char *keep)
{
    if (!db || !exec("BEGIN IMMEDIATE"))
        return -1;
    if (run2("UPDATE accounts SET hash = ?2 WHERE name = ?1", name, hash) &&
        sqlite3_changes(db) == 1 &&
        run2("DELETE FROM logins WHERE name = ?1 COLLATE NOCASE AND token != ?2", name, keep) &&
        exec("COMMIT"))
        return 0;
    exec("ROLLBACK");
    return -1;
}

static glicko sq_rating(const char *token, const char *variant)
{
    glicko r = GLICKO_NEW;
    char key[PLAY_NAME_BYTES + 2];
    sq_player(token, key, sizeof key);
    token = key;
    sqlite3_stmt *st = NULL;
    if (!db || sqlite3_prepare_v2(db,
                                  "SELECT rating, rd, vol, at FROM ratings WHERE player = ?1 "
                                  "AND variant = ?2",
                                  -1, &st, NULL) != SQLITE_OK)
        return r;
    sqlite3_bind_text(st, 1, token, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, variant, -1, SQLITE_STATIC);
    if (sqlite3_step(st) == SQLITE_ROW) {
        r.rating = sqlite3_column_double(st, 0);
        r.rd = sqlite3_column_double(st, 1);
        r.vol = sqlite3_column_double(st, 2);
        int64_t at = sqlite3_column_int64(st, 3), idle = play_now() - at;
        if (at > 0 && idle >= GLICKO_PERIOD_MS)
            r = glicko_idle(r, (double)(idle / GLICKO_PERIOD_MS)); /* whole days without a game */
    }
    sqlite3_finalize(st);
    return r;
}

static int sq_save(play_game *g, int from)
{
    static int failing; /* the last save failed: not logged again until one works */
    if (!db)
        return -1;
    if (run_kept(ST_BEGIN, "BEGIN IMMEDIATE") && save_row(g) && save_moves(g, from) &&
        (!g->rate_now || save_ratings(g)) &&
        (g->state != PLAY_OVER || store_write_results(g, 0, &results_writer)) &&
        run_kept(ST_COMMIT, "COMMIT")) {
        if (failing)
            fprintf(stderr, "condraughts: games between people are saved again\n");
        failing = 0;
        return 0;
    }
    int full = sqlite3_errcode(db) == SQLITE_FULL;
    if (!failing)
        fprintf(stderr,
                "condraughts: cannot save game %s: %s (further failures are not logged until a "
                "save works)\n",
                g->id, sqlite3_errmsg(db));
    failing = 1;
    exec("ROLLBACK");
    return full ? -2 : -1;
}

static int delete_from(const char *sql, const char *id)
{
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return ok;
}

static int sq_alive(int64_t now)
{
    sqlite3_stmt *st = NULL;
    if (!db || sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO alive VALUES (1, ?1)", -1, &st,
                                  NULL) != SQLITE_OK)
        return -1;
    sqlite3_bind_int64(st, 1, now);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

static int64_t sq_last_alive(void)
{
    sqlite3_stmt *st = NULL;
    int64_t at = 0;
    if (db &&
        sqlite3_prepare_v2(db, "SELECT at FROM alive WHERE id = 1", -1, &st, NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        at = sqlite3_column_int64(st, 0);
    sqlite3_finalize(st);
    return at;
}

static int sq_delete(const char *id, int64_t rev)
{
    (void)rev; /* one server: no revisions */
    if (!db || !exec("BEGIN IMMEDIATE"))
        return -1;
    if (delete_from("DELETE FROM moves WHERE game = ?1", id) &&
        delete_from("DELETE FROM chat WHERE game = ?1", id) &&
        delete_from("DELETE FROM games WHERE id = ?1", id) && exec("COMMIT"))
        return 0;
    exec("ROLLBACK");
    return -1;
}

static int sq_chat(play_game *g, int i)
{
    sqlite3_stmt *st = NULL;
    if (!db || sqlite3_prepare_v2(db, "INSERT OR REPLACE INTO chat VALUES (?1,?2,?3,?4,?5)", -1,
                                  &st, NULL) != SQLITE_OK)
        return -1;
    const play_chat *m = &g->chat[i];
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 2, i);
    sqlite3_bind_int(st, 3, m->seat);
    sqlite3_bind_text(st, 4, m->text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, m->at);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    if (!ok)
        fprintf(stderr, "condraughts: cannot save a chat message of game %s: %s\n", g->id,
                sqlite3_errmsg(db));
    sqlite3_finalize(st);
    return ok ? 0 : -1;
}

static void text_col(sqlite3_stmt *st, int col, char *dst, size_t cap)
{
    const unsigned char *t = sqlite3_column_text(st, col);
    snprintf(dst, cap, "%s", t ? (const char *)t : "");
}

/* Are the enumerations of a row read back in range (a damaged or edited file)? */
static int row_sane(const play_game *g)
{
    return g->clock >= PLAY_CLOCK_NONE && g->clock <= PLAY_CLOCK_REALTIME &&
           g->state >= PLAY_WAITING && g->state <= PLAY_OVER && g->end >= END_NONE &&
           g->end <= END_ABORTED && g->loser >= -1 && g->loser <= 1 && g->draw_offer >= -1 &&
           g->draw_offer <= 1 && g->takeback >= -1 && g->takeback <= 1 && g->rematch >= -1 &&
           g->rematch <= 1 && g->base_ms >= 0 && g->inc_ms >= 0;
}

static int load_moves(play_game *g, sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        play_move *m = play_move_append(g);
        if (!m)
            return -1;
        text_col(st, 0, m->hub, sizeof m->hub);
        m->ms[0] = sqlite3_column_int64(st, 1);
        m->ms[1] = sqlite3_column_int64(st, 2);
        m->at = sqlite3_column_int64(st, 3);
    }
    return rc == SQLITE_DONE ? 0 : -1;
}

static int load_chat(play_game *g, sqlite3_stmt *st)
{
    sqlite3_reset(st);
    sqlite3_bind_text(st, 1, g->id, -1, SQLITE_STATIC);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        const unsigned char *t = sqlite3_column_text(st, 1);
        int seat = sqlite3_column_int(st, 0);
        if (seat < 0 || seat > 1 || g->nchat >= PLAY_CHAT_MAX ||
            play_chat_append(g, seat, t ? (const char *)t : "", sqlite3_column_int64(st, 2)))
            return -1;
    }
    return rc == SQLITE_DONE ? 0 : -1;
}

static int sq_load(const char *id, void (*add)(play_game *g))
{
    if (!db)
        return -1;
    sqlite3_stmt *st = NULL, *mv = NULL, *ch = NULL;
    const char *sql = id ? "SELECT * FROM games WHERE id = ?1"
                         : "SELECT * FROM games WHERE state != ?1 ORDER BY created, id";
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT move, white_ms, black_ms, at FROM moves WHERE game = ?1 "
                           "ORDER BY ply",
                           -1, &mv, NULL) != SQLITE_OK ||
        sqlite3_prepare_v2(db, "SELECT seat, text, at FROM chat WHERE game = ?1 ORDER BY n", -1,
                           &ch, NULL) != SQLITE_OK) {
        sqlite3_finalize(st);
        sqlite3_finalize(mv);
        return -1;
    }
    if (id)
        sqlite3_bind_text(st, 1, id, -1, SQLITE_STATIC);
    else
        sqlite3_bind_int(st, 1, PLAY_OVER);
    int n = 0, rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        play_game *g = calloc(1, sizeof *g);
        if (!g)
            break;
        int c = 0;
        text_col(st, c++, g->id, sizeof g->id);
        char variant[64];
        text_col(st, c++, variant, sizeof variant);
        g->rules = cd_rules_find(variant);
        text_col(st, c++, g->fen, sizeof g->fen);
        g->clock = sqlite3_column_int(st, c++);
        g->base_ms = sqlite3_column_int64(st, c++);
        g->inc_ms = sqlite3_column_int64(st, c++);
        text_col(st, c++, g->token[0], sizeof g->token[0]);
        text_col(st, c++, g->token[1], sizeof g->token[1]);
        text_col(st, c++, g->name[0], sizeof g->name[0]);
        text_col(st, c++, g->name[1], sizeof g->name[1]);
        g->open = sqlite3_column_int(st, c++);
        g->state = sqlite3_column_int(st, c++);
        g->end = sqlite3_column_int(st, c++);
        g->loser = sqlite3_column_int(st, c++);
        g->ms[0] = sqlite3_column_int64(st, c++);
        g->ms[1] = sqlite3_column_int64(st, c++);
        g->turn_start = sqlite3_column_int64(st, c++);
        g->draw_offer = sqlite3_column_int(st, c++);
        g->takeback = sqlite3_column_int(st, c++);
        g->rematch = sqlite3_column_int(st, c++);
        text_col(st, c++, g->rematch_id, sizeof g->rematch_id);
        g->created = sqlite3_column_int64(st, c++);
        for (int s = 0; s < 2; s++) {
            glicko *r[2] = {&g->rating[s], &g->after[s]};
            for (int k = 0; k < 2; k++) {
                r[k]->rating = sqlite3_column_double(st, c++);
                r[k]->rd = sqlite3_column_double(st, c++);
                r[k]->vol = sqlite3_column_double(st, c++);
            }
        }
        g->first_wait = sqlite3_column_int64(st, c++);
        g->outage_ms = sqlite3_column_int64(st, c++);
        if (!g->rules || !row_sane(g) || load_moves(g, mv) != 0 || load_chat(g, ch) != 0) {
            fprintf(stderr,
                    "condraughts: skipping stored game %s (variant '%s', or a damaged row)\n",
                    g->id, variant);
            play_game_free(g);
            continue;
        }
        add(g);
        n++;
    }
    sqlite3_finalize(st);
    sqlite3_finalize(mv);
    sqlite3_finalize(ch);
    return rc == SQLITE_DONE || rc == SQLITE_ROW ? n : -1;
}

/* ---------------------------------------------------------------- profiles (profile.h) */

static const char profile_schema[] =
    "CREATE TABLE IF NOT EXISTS results ("
    " player TEXT NOT NULL, game TEXT NOT NULL, ended INTEGER NOT NULL, variant TEXT NOT NULL,"
    " colour INTEGER NOT NULL, score INTEGER NOT NULL, name TEXT NOT NULL, opponent TEXT NOT NULL,"
    " opponent_name TEXT NOT NULL, ending INTEGER NOT NULL, rating REAL NOT NULL,"
    " after REAL NOT NULL, plies INTEGER NOT NULL, PRIMARY KEY (game, colour));"
    "CREATE INDEX IF NOT EXISTS results_player ON results (player, ended DESC, game DESC);"
    "CREATE INDEX IF NOT EXISTS results_history ON results (player, variant, ended DESC)"
    " WHERE after > 0;"
    "CREATE TABLE IF NOT EXISTS records ("
    " player TEXT NOT NULL, variant TEXT NOT NULL, wins INTEGER NOT NULL, draws INTEGER NOT NULL,"
    " losses INTEGER NOT NULL, rating REAL NOT NULL, rd REAL NOT NULL, vol REAL NOT NULL,"
    " at INTEGER NOT NULL, PRIMARY KEY (player, variant));"
    "CREATE INDEX IF NOT EXISTS ratings_board ON ratings (variant, rating DESC, player)"
    " WHERE substr(player, 1, 1) = '@';";

/* The leaderboards' count (profile.h): ratings.listed_until (a virtual column: computed when
 * read, and in the index), board_counts, and the trigger keeping it. The hour of a row is
 * listed_until / PROFILE_BOARD_HOUR_MS; a row not listed (0) or not an account's is not
 * counted. */
static const char board_schema[] =
    "CREATE TABLE board_counts (variant TEXT NOT NULL, hour INTEGER NOT NULL,"
    " n INTEGER NOT NULL, PRIMARY KEY (variant, hour));"
    "CREATE INDEX IF NOT EXISTS ratings_until ON ratings (variant, listed_until)"
    " WHERE substr(player, 1, 1) = '@';"
    "CREATE TRIGGER board_insert AFTER INSERT ON ratings BEGIN"
    " INSERT INTO board_counts SELECT NEW.variant,"
    " NEW.listed_until / " PROFILE_BOARD_HOUR_MS_SQL ", 1"
    " WHERE substr(NEW.player, 1, 1) = '@' AND NEW.listed_until > 0"
    " ON CONFLICT (variant, hour) DO UPDATE SET n = n + 1; END;"
    "CREATE TRIGGER board_update AFTER UPDATE ON ratings BEGIN"
    " UPDATE board_counts SET n = n - 1 WHERE substr(OLD.player, 1, 1) = '@'"
    " AND OLD.listed_until > 0 AND variant = OLD.variant"
    " AND hour = OLD.listed_until / " PROFILE_BOARD_HOUR_MS_SQL ";"
    " INSERT INTO board_counts SELECT NEW.variant,"
    " NEW.listed_until / " PROFILE_BOARD_HOUR_MS_SQL ", 1"
    " WHERE substr(NEW.player, 1, 1) = '@' AND NEW.listed_until > 0"
    " ON CONFLICT (variant, hour) DO UPDATE SET n = n + 1; END;"
    "CREATE TRIGGER board_delete AFTER DELETE ON ratings BEGIN"
    " UPDATE board_counts SET n = n - 1 WHERE substr(OLD.player, 1, 1) = '@'"
    " AND OLD.listed_until > 0 AND variant = OLD.variant"
    " AND hour = OLD.listed_until / " PROFILE_BOARD_HOUR_MS_SQL "; END;"
    "INSERT INTO board_counts SELECT variant,"
    " listed_until / " PROFILE_BOARD_HOUR_MS_SQL ", count(*) FROM ratings"
    " WHERE substr(player, 1, 1) = '@' AND listed_until > 0 GROUP BY 1, 2;";

/* The leaderboards' count made, once (a database made before it: the column added and its rows
 * counted). 0, or -1 with *msg. */
static int board_tables(char **msg)
{
    sqlite3_stmt *st = NULL;
    int had = sqlite3_prepare_v2(db, "SELECT 1 FROM board_counts", -1, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    if (had)
        return 0;
    char until[1024], add[1200];
    store_listed_until(until, sizeof until, "CAST(", " AS INTEGER)");
    snprintf(add, sizeof add,
             "ALTER TABLE ratings ADD COLUMN listed_until INTEGER GENERATED ALWAYS AS (%s) "
             "VIRTUAL",
             until);
    if (!exec("BEGIN IMMEDIATE"))
        return -1;
    st = NULL;
    int has = sqlite3_prepare_v2(db, "SELECT listed_until FROM ratings", -1, &st, NULL) ==
              SQLITE_OK;
    sqlite3_finalize(st);
    if ((has || sqlite3_exec(db, add, NULL, NULL, msg) == SQLITE_OK) &&
        sqlite3_exec(db, board_schema, NULL, NULL, msg) == SQLITE_OK && exec("COMMIT"))
        return 0;
    exec("ROLLBACK");
    return -1;
}

/* store_results_writer's add_result and add_record (store.h), with kept statements. */
static int add_result(const profile_result *r)
{
    sqlite3_stmt *st = stmt(ST_RESULT, "INSERT OR IGNORE INTO results VALUES (?1,?2,?3,?4,?5,?6,?7,"
                                       "?8,?9,?10,?11,?12,?13)");
    if (!st)
        return -1;
    int i = 1;
    sqlite3_bind_text(st, i++, r->player, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, r->game, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, i++, r->ended);
    sqlite3_bind_text(st, i++, r->variant, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, i++, r->colour);
    sqlite3_bind_int(st, i++, r->score);
    sqlite3_bind_text(st, i++, r->name, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, r->opponent, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, r->opponent_name, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, i++, r->ending);
    sqlite3_bind_double(st, i++, r->rating);
    sqlite3_bind_double(st, i++, r->after);
    sqlite3_bind_int(st, i++, r->plies);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
    return ok ? sqlite3_changes(db) == 1 : -1;
}

static int add_record(const profile_result *r, const profile_record *d)
{
    sqlite3_stmt *st = stmt(
        ST_RECORD, "INSERT INTO records VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9) ON CONFLICT(player, "
                   "variant) DO UPDATE SET wins=wins+?3, draws=draws+?4, losses=losses+?5, "
                   "rating=CASE WHEN ?6>0 THEN ?6 ELSE rating END, rd=CASE WHEN ?6>0 THEN ?7 ELSE "
                   "rd END, vol=CASE WHEN ?6>0 THEN ?8 ELSE vol END, at=CASE WHEN ?6>0 THEN ?9 "
                   "ELSE at END");
    if (!st)
        return 0;
    int i = 1;
    sqlite3_bind_text(st, i++, r->player, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, i++, d->variant, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, i++, d->wins);
    sqlite3_bind_int(st, i++, d->draws);
    sqlite3_bind_int(st, i++, d->losses);
    sqlite3_bind_double(st, i++, d->rating.rating);
    sqlite3_bind_double(st, i++, d->rating.rd);
    sqlite3_bind_double(st, i++, d->rating.vol);
    sqlite3_bind_int64(st, i++, d->at);
    int ok = sqlite3_step(st) == SQLITE_DONE;
    sqlite3_reset(st);
    return ok;
}

static const store_results_writer results_writer = {sq_player, add_result, add_record};

/* The profile tables made; when a database made before them has finished games, their results
 * written (the seats' keys as their tokens are logged in now), oldest first. 0, or -1 with
 * *msg. */
static int profile_tables(char **msg)
{
    sqlite3_stmt *st = NULL;
    int had = sqlite3_prepare_v2(db, "SELECT 1 FROM results", -1, &st, NULL) == SQLITE_OK;
    sqlite3_finalize(st);
    if (had)
        return sqlite3_exec(db, profile_schema, NULL, NULL, msg) == SQLITE_OK ? 0 : -1;
    if (!exec("BEGIN IMMEDIATE") ||
        sqlite3_exec(db, profile_schema, NULL, NULL, msg) != SQLITE_OK ||
        sqlite3_prepare_v2(db,
                           "SELECT id FROM games WHERE state = ?1 AND ending != ?2 ORDER BY "
                           "created",
                           -1, &st, NULL) != SQLITE_OK) {
        exec("ROLLBACK");
        return -1;
    }
    sqlite3_bind_int(st, 1, PLAY_OVER);
    sqlite3_bind_int(st, 2, END_ABORTED);
    int ok = 1;
    while (ok && sqlite3_step(st) == SQLITE_ROW) {
        char id[PLAY_ID_HEX + 1];
        const unsigned char *t = sqlite3_column_text(st, 0);
        snprintf(id, sizeof id, "%s", t ? (const char *)t : "");
        ok = store_backfill(id, sq_load, &results_writer);
    }
    sqlite3_finalize(st);
    if (ok && exec("COMMIT"))
        return 0;
    *msg =
        sqlite3_mprintf("cannot write the results of the finished games: %s", sqlite3_errmsg(db));
    exec("ROLLBACK");
    return -1;
}

static void result_row(sqlite3_stmt *st, profile_result *r)
{
    int c = 0;
    memset(r, 0, sizeof *r);
    text_col(st, c++, r->player, sizeof r->player);
    text_col(st, c++, r->game, sizeof r->game);
    r->ended = sqlite3_column_int64(st, c++);
    text_col(st, c++, r->variant, sizeof r->variant);
    r->colour = sqlite3_column_int(st, c++);
    r->score = sqlite3_column_int(st, c++);
    text_col(st, c++, r->name, sizeof r->name);
    text_col(st, c++, r->opponent, sizeof r->opponent);
    text_col(st, c++, r->opponent_name, sizeof r->opponent_name);
    r->ending = sqlite3_column_int(st, c++);
    r->rating = sqlite3_column_double(st, c++);
    r->after = sqlite3_column_double(st, c++);
    r->plies = sqlite3_column_int(st, c++);
}

/* Up to n rows of kept statement st (reset after) into out: how many, or -1 (NULL: no statement). */
static int result_rows(sqlite3_stmt *st, int n, profile_result *out)
{
    if (!st)
        return -1;
    int k = 0;
    while (k < n && sqlite3_step(st) == SQLITE_ROW)
        result_row(st, &out[k++]);
    sqlite3_reset(st);
    return k;
}

static int sq_results(const char *player, int offset, int n, profile_result *out)
{
    return result_rows(kept_query(ST_RESULTS,
                                  "SELECT * FROM results WHERE player = ?1 ORDER BY ended DESC, "
                                  "game DESC LIMIT ?2 OFFSET ?3",
                                  1, &player, 2, (const int64_t[]){n, offset}),
                       n, out);
}

static int sq_results_from(const char *player, const profile_cursor *at, int older, int n,
                           profile_result *out)
{
    static const char *const sql[2] = {
        "SELECT * FROM results WHERE player = ?1 AND ended >= ?3 AND (ended > ?3 OR game > ?2) "
        "ORDER BY ended, game LIMIT ?4",
        "SELECT * FROM results WHERE player = ?1 AND ended <= ?3 AND (ended < ?3 OR game < ?2) "
        "ORDER BY ended DESC, game DESC LIMIT ?4"};
    older = older != 0;
    return result_rows(kept_query(older ? ST_RESULTS_OLDER : ST_RESULTS_NEWER, sql[older], 2,
                                  (const char *const[]){player, at->game}, 2,
                                  (const int64_t[]){at->ended, n}),
                       n, out);
}

static int sq_game_results(const char *game, profile_result out[2])
{
    return result_rows(kept_query(ST_GAME_RESULTS,
                                  "SELECT * FROM results WHERE game = ?1 ORDER BY colour", 1,
                                  &game, 0, NULL),
                       2, out);
}

/* A rating from columns c, c + 1 and c + 2 (rating, rd, vol) of st's row. */
static glicko glicko_cols(sqlite3_stmt *st, int c)
{
    return (glicko){sqlite3_column_double(st, c), sqlite3_column_double(st, c + 1),
                    sqlite3_column_double(st, c + 2)};
}

static int sq_records(const char *player, profile_record *out, int cap)
{
    sqlite3_stmt *st = kept_query(ST_RECORDS,
                                  "SELECT variant, wins, draws, losses, rating, rd, vol, at FROM "
                                  "records WHERE player = ?1 ORDER BY variant",
                                  1, &player, 0, NULL);
    if (!st)
        return -1;
    int k = 0;
    while (k < cap && sqlite3_step(st) == SQLITE_ROW) {
        profile_record *r = &out[k++];
        text_col(st, 0, r->variant, sizeof r->variant);
        r->wins = sqlite3_column_int(st, 1);
        r->draws = sqlite3_column_int(st, 2);
        r->losses = sqlite3_column_int(st, 3);
        r->rating = glicko_cols(st, 4);
        r->at = sqlite3_column_int64(st, 7);
    }
    sqlite3_reset(st);
    return k;
}

/* The accounts on a leaderboard (profile.h): ?1 the variant, ?2 now. */
static int sq_board(const char *variant, int64_t now, int offset, int n, profile_rank *out,
                    int64_t *total)
{
    if (total) {
        /* the hours after now's, then the rows ending within now's hour (ratings_until) */
        sqlite3_stmt *cnt = kept_query(
            ST_BOARD_COUNT,
            "SELECT (SELECT coalesce(sum(n), 0) FROM board_counts WHERE variant = ?1 AND hour > "
            "?2 / " PROFILE_BOARD_HOUR_MS_SQL
            ") + (SELECT count(*) FROM ratings WHERE variant = ?1 AND "
            "substr(player, 1, 1) = '@' AND listed_until > ?2 AND listed_until < (?2 / "
            PROFILE_BOARD_HOUR_MS_SQL " + 1) * " PROFILE_BOARD_HOUR_MS_SQL ")",
            1, &variant, 1, &now);
        if (!cnt)
            return -1;
        *total = sqlite3_step(cnt) == SQLITE_ROW ? sqlite3_column_int64(cnt, 0) : 0;
        sqlite3_reset(cnt);
    }
    /* best first by ratings_board, each row's listed_until computed as it is read */
    sqlite3_stmt *st = kept_query(ST_BOARD,
                                  "SELECT substr(player, 2), rating, rd, vol, games, at FROM "
                                  "ratings INDEXED BY ratings_board WHERE variant = ?1 AND "
                                  "substr(player, 1, 1) = '@' AND listed_until > ?2 ORDER BY "
                                  "rating DESC, player LIMIT ?3 OFFSET ?4",
                                  1, &variant, 3, (const int64_t[]){now, n, offset});
    if (!st)
        return -1;
    int k = 0;
    while (k < n && sqlite3_step(st) == SQLITE_ROW) {
        profile_rank *r = &out[k++];
        text_col(st, 0, r->name, sizeof r->name);
        r->rating = glicko_cols(st, 1);
        r->games = sqlite3_column_int(st, 4);
        r->at = sqlite3_column_int64(st, 5);
    }
    sqlite3_reset(st);
    return k;
}

static int sq_history(const char *player, const char *variant, int n, profile_point *out)
{
    sqlite3_stmt *st = kept_query(ST_HISTORY,
                                  "SELECT ended, after FROM results WHERE player = ?1 AND "
                                  "variant = ?2 AND after > 0 ORDER BY ended DESC LIMIT ?3",
                                  2, (const char *const[]){player, variant}, 1,
                                  (const int64_t[]){n});
    if (!st)
        return -1;
    int k = 0;
    while (k < n && sqlite3_step(st) == SQLITE_ROW) {
        out[k].at = sqlite3_column_int64(st, 0);
        out[k++].rating = sqlite3_column_double(st, 1);
    }
    sqlite3_reset(st);
    return k;
}

const store_ops store_sqlite = {"sqlite",        sq_open,          sq_close,        sq_save,
                                sq_delete,       sq_alive,         sq_last_alive,   sq_chat,
                                sq_rating,       sq_player,        sq_login_name,   sq_account_hash,
                                sq_account_add,  sq_account_like,  sq_login,        sq_account_rehash,
                                sq_load,         0,                NULL,            NULL,
                                NULL,            NULL,             NULL,            NULL,
                                sq_results,      sq_results_from,  sq_game_results, sq_records,
                                sq_board,        sq_history};

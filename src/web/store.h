/*
 * store.h -- where the games between people (play.h), their ratings and the accounts are kept:
 * one interface, two stores behind it. store_open picks one by the text it is given:
 *   - a PostgreSQL connection (store_pg.c): a URI (postgresql://... or postgres://...) or a
 *     libpq conninfo string (keyword=value pairs: a text whose first word holds '=');
 *   - else the path of an SQLite file (store_sqlite.c), the embedded default.
 * Both keep the same tables and columns (store_sqlite.h describes them, profile.h the profiles'; PostgreSQL's games add
 * `rev` and `seen`, below) and write every change of a game in one transaction, so a server killed at any moment leaves each game as it was after
 * its last answered change.
 *
 * Several servers (processes) may share a PostgreSQL store (store_shared): each game's row has a
 * revision, `rev`, raised by every change; a change is written only over the revision it was
 * made from (play_game.rev), else refused (-3: another server changed the game first), so every
 * decision (a move, a flag fall) is taken once. Every change is announced (PostgreSQL NOTIFY) to
 * the servers, which hear it through store_heard. SQLite serves one server: it keeps no revision
 * and never refuses.
 *
 * Representation: one open store at a time (a store_ops table of the chosen implementation, NULL
 * when none is open); every call but store_open on a closed store fails (-1, 0 or GLICKO_NEW).
 * Not thread-safe by itself: play.c and api_account.c call it with play_lock() held (store_heard,
 * store_revs and store_read alone, on a connection of their own, from one thread without the lock;
 * store_written and store_synced from any thread).
 */
#ifndef CD_WEB_STORE_H
#define CD_WEB_STORE_H

#include <stddef.h>
#include <stdint.h>

#include "play.h"
#include "profile.h"

/* One implementation: the functions below, each with the meaning given there. */
typedef struct store_ops {
    const char *name; /* "sqlite", "postgresql" */
    int (*open)(const char *where, char *err, size_t errlen);
    void (*close)(void);
    int (*save)(play_game *g, int from);
    int (*del)(const char *id, int64_t rev);
    int (*alive)(int64_t now);
    int64_t (*last_alive)(void);
    int (*chat)(play_game *g, int i);
    glicko (*rating)(const char *token, const char *variant);
    void (*player)(const char *token, char *key, size_t cap);
    int (*login_name)(const char *token, char *name, size_t cap);
    int (*account_hash)(const char *name, char *hash, size_t cap, char *canonical, size_t ncap);
    int (*account_add)(const char *name, const char *hash, const char *token);
    int (*account_like)(const char *key, char *name, size_t cap);
    int (*login)(const char *token, const char *name);
    int (*account_rehash)(const char *name, const char *hash, const char *keep);
    int (*load)(const char *id, void (*add)(play_game *g));
    int shared;                                  /* several servers may share it */
    int (*rev)(const char *id, int64_t *rev);    /* NULL when not shared */
    int (*heard)(int timeout_ms, void (*heard)(const char *id, int64_t rev));
    int (*revs)(const char *const *ids, int n, int64_t *revs); /* NULL when not shared */
    int (*read)(const char *const *ids, int n, void (*add)(play_game *g)); /* NULL: not shared */
    int (*seen)(const char *const *ids, int n, int64_t now); /* NULL when not shared */
    int64_t (*seen_at)(const char *id);                      /* NULL when not shared */
    int (*results)(const char *player, int offset, int n, profile_result *out);
    int (*results_from)(const char *player, const profile_cursor *at, int older, int n,
                        profile_result *out);
    int (*game_results)(const char *game, profile_result out[2]);
    int (*records)(const char *player, profile_record *out, int cap);
    int (*board)(const char *variant, int64_t now, int offset, int n, profile_rank *out,
                 int64_t *total);
    int (*history)(const char *player, const char *variant, int n, profile_point *out);
} store_ops;

/* Is `where` a PostgreSQL connection (a URI or a conninfo string) rather than a file? */
int store_is_pg(const char *where);

/* Open the store `where` (above); it must be writable. 0, or -1 with err set. */
int store_open(const char *where, char *err, size_t errlen);
void store_close(void);
/* Write g: its row, and its moves from ply `from` on (the later rows are replaced), and in a
 * shared store raise g->rev. 0, -2 (the disk is full), -3 (shared: the stored game is no longer
 * at g->rev, or no longer there; nothing written) or -1; the first of a run of failures is
 * logged, and the first success after. A shared store inserts a game's row only when g->rev is
 * 0 (a new game): a game another server deleted is never written back. */
int store_save(play_game *g, int from);
/* Group commit (SQLite: sqlite_sync.h): a change committed is numbered, store_written() the
 * number of the last one, and it is on disk once store_synced() reaches its number; until then it
 * must not be answered or shown (a process killed keeps it, a machine losing power may not). The
 * sync thread calls every function given to store_on_synced (at most STORE_SYNCED_HOOKS, each
 * kept once, from any thread, for the rest of the run) with the new store_synced() after each
 * sync, no lock held.
 * PostgreSQL (pg_sync.h) numbers the same way the changes of games it commits without waiting for
 * the disk, and its sync thread makes them durable in groups; its account changes wait for the
 * disk themselves. store_synced_report is the sync threads'. */
#define STORE_SYNCED_HOOKS 2
uint64_t store_written(void);
uint64_t store_synced(void);
void store_on_synced(void (*fn)(uint64_t synced));
void store_synced_report(uint64_t synced);
/* Delete game id (its row, moves and chat). A shared store deletes it only at revision rev (the
 * revision the caller's copy has, which the decision to delete was taken on): -3 when the stored
 * game is no longer at rev, or no longer there (nothing deleted: read it back and judge again);
 * SQLite ignores rev. 0, -3 or -1. */
int store_delete(const char *id, int64_t rev);
/* The server is alive at `now` (ms; the clock thread writes it every PLAY_ALIVE_MS): 0 or -1.
 * store_last_alive: when it last was (0: never). */
int store_alive(int64_t now);
int64_t store_last_alive(void);
/* Write message i of g's chat (its own row; a shared store raises g->rev too). 0, -3 (as
 * store_save) or -1. */
int store_chat(play_game *g, int i);
/* The Glicko-2 rating of a player token in a variant (GLICKO_NEW when it has none): the rating
 * of its account when the token is logged in to one, else the token's own; its deviation grown
 * by the whole days (GLICKO_PERIOD_MS) since it last changed (glicko_idle). */
glicko store_rating(const char *token, const char *variant);

/* Accounts (`accounts`: name, argon2id hash; `logins`: which token is logged in to which name).
 * store_player: the key ratings are kept under ("@name" for a logged-in token, else the token);
 * store_login_name: the account name of a token into name (1), or 0 (not logged in);
 * store_account_hash: the hash and the name as registered of an account (1), or 0 (no such);
 * store_account_add: a new account with the token logged in to it: 0, 1 (the name is taken), -1;
 * store_login: log the token in to name (NULL: out). 0 or -1;
 * store_account_rehash: a new hash for the account name, and every other token logged in to it
 * logged out (keep: the token that stays logged in), in one transaction. 0 or -1. */
void store_player(const char *token, char *key, size_t cap);
int store_login_name(const char *token, char *name, size_t cap);
int store_account_hash(const char *name, char *hash, size_t cap, char *canonical, size_t ncap);
int store_account_add(const char *name, const char *hash, const char *token);
/* The name of the account whose name has the key `key` (names.h: it looks the same) into name
 * (1), or 0 (none). store_account_add refuses (1) a name whose key an account has. */
int store_account_like(const char *key, char *name, size_t cap);
int store_login(const char *token, const char *name);
int store_account_rehash(const char *name, const char *hash, const char *keep);
/* Read the live games (id NULL: every game not over) or one: each is handed to add (which takes
 * it: its cd_game is not made, moves[] holds the moves to replay). Returns the number read, -1 on
 * a database error. */
int store_load(const char *id, void (*add)(play_game *g));

/* Do several servers share the store (PostgreSQL)? */
int store_shared(void);
/* Game id's revision in a shared store into *rev: 1, 0 (no such game), -1 (an error). */
int store_rev(const char *id, int64_t *rev);
/* Wait up to timeout_ms for the changes other servers (and this one) announce, and call heard
 * for each: the game's id and its new revision (-1: it was deleted); heard(NULL, 0) when
 * announcements may have been missed: read every game again (first, when the listening connection
 * was made again; when another server started: one that stopped, killed between a change's commit
 * and its announcement, may have left it unannounced). The number heard, or -1 (no shared store,
 * or the connection failed: it is made again on the next call). Its own connection: call it from
 * one thread, without play_lock() held. */
int store_heard(int timeout_ms, void (*heard)(const char *id, int64_t rev));
/* The revisions of games ids[0..n) in a shared store into revs[0..n) (0: no such game), read on
 * store_heard's connection (call it from store_heard's thread, without play_lock() held): 0, or
 * -1 (no shared store, or the connection failed: store_heard makes it again). For the sweep that
 * finds changes nobody announced (play.c, PLAY_SWEEP_MS). */
int store_revs(const char *const *ids, int n, int64_t *revs);
/* Games ids[0..n) of a shared store read in one statement on store_heard's connection (call it
 * from store_heard's thread, without play_lock() held), each handed to add as store_load does (a
 * game not there: nothing). The number read, or -1 (no shared store, or the connection failed:
 * store_heard makes it again). For the changes heard (play.c): read outside the lock, in one
 * statement a batch. */
int store_read(const char *const *ids, int n, void (*add)(play_game *g));
/* Presence in a shared store (a game not begun expires when its players' pages have been away
 * PLAY_AWAY_MS: play.h): store_seen, the players of games ids[0..n) have a page open on this
 * server at `now` (0 or -1); store_seen_at, the latest such time any server wrote for game id
 * (0: none, or an error). */
int store_seen(const char *const *ids, int n, int64_t now);
int64_t store_seen_at(const char *id);

/* Profiles (profile.h). store_results: the finished games of player (a key), newest first,
 * from the offset-th on, at most n, into out: how many, or -1 (a database error) (the rows
 * before the offset-th are stepped over: a deep page costs its depth);
 * store_results_from: the same from a place in the list (at: profile.h), whatever its depth, at
 * the cost of the first page: older, the rows after `at` (older games), newest first; else the
 * rows before it (newer games), nearest first (oldest first);
 * store_game_results: the rows of game id's seats, white first (0: none; the game is not over,
 * was aborted, or no such game); store_records: player's records, one a variant it has played
 * (at most cap), by variant name; store_board: the accounts on variant's leaderboard at `now`
 * (ms; profile.h: established and active), best first, from the offset-th on, at most n, each
 * with its stored rating (not grown) and when it changed, and *total how many there are (total
 * NULL: not counted);
 * store_history: player's ratings
 * after its latest n rated games in variant, newest first: how many, or -1. */
int store_results(const char *player, int offset, int n, profile_result *out);
int store_results_from(const char *player, const profile_cursor *at, int older, int n,
                       profile_result *out);
int store_game_results(const char *game, profile_result out[2]);
int store_records(const char *player, profile_record *out, int cap);
int store_board(const char *variant, int64_t now, int offset, int n, profile_rank *out,
                int64_t *total);
int store_history(const char *player, const char *variant, int n, profile_point *out);

/* For the stores themselves (store_sqlite.c, store_pg.c): what both do alike, written once.
 *
 * store_key_of: the key ratings are kept under (store_player) of a token, given the store's
 * login_name (store_login_name).
 *
 * store_results_writer: how a store writes the profile rows of a finished game (profile.h):
 * player, the store's store_player; add_result writes r unless its game's row of its colour is
 * there (1 written, 0 there before, -1 an error); add_record adds d (its wins, draws and losses of
 * one game; its rating after the game and `at`, both 0 when the game was not rated: the stored
 * ones are kept) to the record of r->player in r->variant (1, or 0 on an error).
 * store_write_results: g's rows written and added to the records, once (a later save of a
 * finished game writes nothing). ended: when g ended (0: now). 1, or 0 on an error.
 * store_backfill: the results of finished game id, read back with the store's load
 * (store_load), written as store_write_results does, ended at its last move (else when it was
 * created). 1, or 0 on an error.
 * store_listed_until: the SQL expression of ratings.listed_until (profile.h) from the row's rd,
 * vol and at into out[cap]; trunc_open and trunc_close around a non-negative double make it a
 * whole number in the store's dialect (SQLite "CAST(" and " AS INTEGER)", PostgreSQL "floor("
 * and ")::BIGINT"). A column computed from it is fixed when the column is made: a database
 * made under other constants keeps their rule. */
typedef struct store_results_writer {
    void (*player)(const char *token, char *key, size_t cap);
    int (*add_result)(const profile_result *r);
    int (*add_record)(const profile_result *r, const profile_record *d);
} store_results_writer;

void store_key_of(const char *token, int (*login_name)(const char *token, char *name, size_t cap),
                  char *key, size_t cap);
int store_write_results(const play_game *g, int64_t ended, const store_results_writer *w);
int store_backfill(const char *id, int (*load)(const char *id, void (*add)(play_game *g)),
                   const store_results_writer *w);
void store_listed_until(char *out, size_t cap, const char *trunc_open, const char *trunc_close);

#endif

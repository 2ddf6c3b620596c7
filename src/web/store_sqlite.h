/*
 * store_sqlite.h -- the games between people (play.h) in an SQLite database.
 *
 * Three tables: `games`, one row per game (variant, start, clock, seats with their tokens and
 * names, state, end, clocks, pending offers, the seats' ratings before and after), `moves`, one
 * row per ply (the move in Hub form, both clocks after it, when it was played), and `ratings`,
 * one Glicko-2 rating per player token and variant (and when it last changed), written in the
 * transaction of the game that changes it; and the accounts: `accounts` (a name and its password's
 * argon2id hash, never the password) and `logins` (which player token is logged in to which
 * account); and `chat`, one row per message of a game's players' chat (its seat, text and
 * time), deleted with the game. The journal is WAL with synchronous=FULL and every change of a game
 * is one transaction (its row, and its moves from the first changed ply on), so a server killed at
 * any moment leaves each game as it was after its last answered change. The file is created mode
 * 0600: it holds the seats' tokens.
 *
 * Not thread-safe by itself: play.c calls it with its lock held.
 */
#ifndef CD_WEB_STORE_SQLITE_H
#define CD_WEB_STORE_SQLITE_H

#include <stddef.h>
#include <stdint.h>

#include "play.h"

/* Open (create) the database at path; it must be writable (a page is written). 0, or -1 with
 * err set. */
int store_open(const char *path, char *err, size_t errlen);
void store_close(void);
/* Write g: its row, and its moves from ply `from` on (the later rows are replaced). 0, -2 (the
 * disk is full) or -1; the first of a run of failures is logged, and the first success after. */
int store_save(const play_game *g, int from);
int store_delete(const char *id);
/* The server is alive at `now` (ms; the clock thread writes it every PLAY_ALIVE_MS): 0 or -1.
 * store_last_alive: when it last was (0: never). */
int store_alive(int64_t now);
int64_t store_last_alive(void);
/* Write message i of g's chat (its own row: the game's is unchanged). 0 or -1. */
int store_chat(const play_game *g, int i);
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
/* Read the live games (id NULL: every game not over) or one: each is handed to add (which takes it: its cd_game is not
 * made, moves[] holds the moves to replay). Returns the number read, -1 on a database error. */
int store_load(const char *id, void (*add)(play_game *g));

#endif

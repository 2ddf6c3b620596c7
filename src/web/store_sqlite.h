/*
 * store_sqlite.h -- the games between people (play.h) in an SQLite database: the embedded store
 * behind store.h (its functions have the meanings given there).
 *
 * Three tables: `games`, one row per game (variant, start, clock, seats with their tokens and
 * names, state, end, clocks, pending offers, the seats' ratings before and after), `moves`, one
 * row per ply (the move in Hub form, both clocks after it, when it was played), and `ratings`,
 * one Glicko-2 rating per player token and variant (and when it last changed), written in the
 * transaction of the game that changes it; and the accounts: `accounts` (a name and its password's
 * argon2id hash, never the password) and `logins` (which player token is logged in to which
 * account); and `chat`, one row per message of a game's players' chat (its seat, text and
 * time), deleted with the game; and the profiles' `results` and `records`, and the leaderboards'
 * `ratings.listed_until` and `board_counts`, kept by triggers on `ratings` (profile.h). The journal is WAL with synchronous=NORMAL and group commit
 * (sqlite_sync.h: one fsync for the commits of many games, a change answered only once it is on
 * disk), and every change of a game is one transaction (its row, and its moves from the first
 * changed ply on), so a server killed at any moment, or a machine losing power, leaves each game
 * as it was after its last answered change. The file is created mode
 * 0600: it holds the seats' tokens. It serves one server: the server holds an exclusive flock(2)
 * on it for its whole run, and a second server started on it is refused (it would keep its own
 * copies of the games and write over the first's unheard: only PostgreSQL announces changes).
 *
 * Not thread-safe by itself: called through store.h with play_lock() held.
 */
#ifndef CD_WEB_STORE_SQLITE_H
#define CD_WEB_STORE_SQLITE_H

#include "store.h"

/* store_open(path) opens (creates) the file at path; it must be writable (a page is written)
 * and not held by another server (its flock). */
extern const store_ops store_sqlite;

#endif

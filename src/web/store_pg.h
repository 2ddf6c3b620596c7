/*
 * store_pg.h -- the games between people (play.h) in PostgreSQL: the store behind store.h for
 * several servers at once (its functions have the meanings given there). The same tables and
 * columns as store_sqlite.h (BIGINT for times in ms, DOUBLE PRECISION for ratings), and two more
 * in games: `rev`, the row's revision (store.h), and `seen`, when a server last had a page of the
 * game's players open (store_seen); every change is announced on the channel condraughts_games
 * ("ID REV", REV -1: deleted), heard on a second connection (LISTEN from open on); account names
 * are unique without regard to case (a unique index on lower(name)) and by their look (a unique
 * index on skey); `ratings.listed_until` is a stored generated column (a virtual one in SQLite),
 * `board_counts`' trigger a PL/pgSQL function, and the games that change ratings write them one
 * at a time (an advisory lock: store_pg.c, save_ratings). Every change of a game is one transaction (its row, its moves from the first
 * changed ply on, the ratings it changed; most are one statement), so a server killed at any
 * moment leaves each game as it was after its last answered change. The changes of games are
 * committed without waiting for the disk and made durable, and announced, in groups by pg_sync.c
 * (its `flushes` table, and each game row's `mark`: pg_sync.h); the accounts' changes wait for the
 * disk. The statements with parameters are prepared once a session. The schema is made at open
 * under an advisory lock (servers starting together). A connection found broken is reset before the next statement; connecting
 * is given 5 s, and a peer that stops answering is found within about 20 s (store_pg.c,
 * connect_to), unless the conninfo sets connect_timeout, keepalives_* or tcp_user_timeout itself.
 *
 * Three libpq connections: the store's, used through store.h with play_lock() held; the
 * listening one, used by store_heard alone; and pg_sync.c's.
 */
#ifndef CD_WEB_STORE_PG_H
#define CD_WEB_STORE_PG_H

#include "store.h"

/* store_open(where) connects with libpq (where: a URI or a conninfo string). */
extern const store_ops store_pg;

#endif

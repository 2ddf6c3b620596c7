/*
 * pg_sync.h -- group commit for the PostgreSQL store (store_pg.c), as sqlite_sync.h is SQLite's.
 * The store's connection commits the changes of games without waiting for the disk
 * (synchronous_commit off) and numbers each one here (pg_sync_committed): store_written() is the
 * number of the last one. A thread of its own, on a connection of its own, makes all the changes
 * numbered so far durable at once: one small transaction committed synchronously (it writes its
 * server's row of the table `flushes`, so its commit record is flushed, and with it every WAL
 * record before it: every change numbered before it began) that also announces those changes on
 * the channel condraughts_games ("ID REV", REV -1: deleted; a game changed several times, its
 * last revision), so other servers hear a change only once it is on disk. Then store_synced()
 * reaches their number and the answers held for them are sent (http.c, play.c).
 *
 * When that transaction fails (the database stopped, the connection cut), what reached the disk
 * is not known yet: the thread connects again (every PG_SYNC_RETRY_MS, for PG_SYNC_GIVE_UP_MS at
 * most) and reads back each waiting change's game: each game changed must hold the mark of its
 * last waiting change (pg_sync_mark: unique to one change of this run; the store writes it into
 * the row with the change), each game deleted must be gone. When all are there (a connection cut,
 * a clean restart of the database: its shutdown wrote them), the flush is made again and they
 * are answered. When one is not (the database crashed before they reached its disk), or the
 * database does not come back in time (or another server changed the game since: then nothing
 * was lost, but it cannot be told apart), the server logs it and stops (exit status 70), as the
 * SQLite store does when its fsync fails: no change is answered as saved that is not, and the
 * server started again reads the games as the database holds them.
 *
 * Representation: one sync thread per open store; the changes waiting (id, revision, mark) in the
 * order of their numbers, guarded by a mutex the thread holds only to take them; the numbers are
 * atomics (written: raised by the store's connection with play_lock() held; synced: by the
 * thread). Invariant: synced <= written, and every change numbered <= synced is on disk.
 */
#ifndef CD_WEB_PG_SYNC_H
#define CD_WEB_PG_SYNC_H

#include <libpq-fe.h>
#include <stddef.h>
#include <stdint.h>

/* NOTIFY's: "ID REV" (REV -1: deleted); "*": a server started (store_pg.c: read every game) */
#define PG_SYNC_CHANNEL    "condraughts_games"
#define PG_SYNC_RETRY_MS   200
#define PG_SYNC_GIVE_UP_MS 30000

/* Start the sync thread for the database at conninfo (connect: how the store connects). The
 * table `flushes` must exist. 0, or -1 with err set. */
int pg_sync_start(const char *conninfo, PGconn *(*connect)(const char *where), char *err,
                  size_t errlen);
/* Make the changes waiting durable, then stop the thread and drop this server's row of
 * `flushes`. */
void pg_sync_stop(void);
/* A mark for the next change (unique in this run, and with a random part unlike other runs'). */
int64_t pg_sync_mark(void);
/* A change of game id committed (not yet durable): its new revision (-1: deleted) and the mark
 * written with it (0 for a deletion). Out of memory, the change is numbered all the same but
 * neither announced nor kept to be read back: should that flush fail, the server stops. */
void pg_sync_committed(const char *id, int64_t rev, int64_t mark);
uint64_t pg_sync_written(void);
uint64_t pg_sync_synced(void);

#endif

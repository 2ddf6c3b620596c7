/*
 * sqlite_sync.h -- group commit for the SQLite store (store_sqlite.c): many transactions made
 * durable by one fsync.
 *
 * The database is in WAL mode with synchronous=NORMAL: a COMMIT writes its pages to the WAL file
 * (the OS holds them: a process killed at any moment, SIGKILL included, loses nothing committed)
 * but does not wait for the disk. Every commit is numbered (sqlite3_wal_hook, called after the
 * commit is written: `written`). A thread of its own waits for commits, reads `written`, fsyncs
 * the WAL file once for all of them, then sets `synced` to that number and calls
 * store_synced_report: the commits made while one fsync runs share the next. A change is on
 * disk when synced >= its number; the server answers a change (and shows it) only then (store.h,
 * store_written), so nothing answered is lost even when the machine loses power.
 *
 * Checkpoints (copying the WAL into the database file) are a second thread's, on a connection of
 * its own and outside the play lock, so the commits' syncs go on meanwhile (the writer's automatic
 * checkpoints are off: the WAL hook replaces them): a passive checkpoint once the WAL holds
 * SYNC_CHECKPOINT_FRAMES pages; with
 * synchronous=NORMAL SQLite syncs the WAL before a checkpoint and the database after it, so the
 * WAL is reused only once what it held is in the database on disk.
 *
 * An fsync that fails leaves unknown what reached the disk (Linux may drop the pages it could
 * not write): the server then stops at once (exit status 70), as PostgreSQL does, rather than
 * answer changes it cannot keep; a restart reads what the disk holds.
 *
 * Invariants: synced <= written; both only grow while the database is open.
 */
#ifndef CD_WEB_SQLITE_SYNC_H
#define CD_WEB_SQLITE_SYNC_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

#define SYNC_CHECKPOINT_FRAMES 4000 /* WAL pages (4 KiB) that start a checkpoint */

/* Start group commit on db, open on the file at path (in WAL mode, written once: its WAL exists):
 * the WAL hook set, the WAL file opened, the thread started. 0, or -1 with err. */
int sqlite_sync_start(sqlite3 *db, const char *path, char *err, size_t errlen);
/* Sync what is written, stop the thread, close the WAL file and the checkpoint connection (before
 * db is closed). No effect when not started. */
void sqlite_sync_stop(void);
/* The number of commits written, and of those on disk (0 and 0 when not started). */
uint64_t sqlite_sync_written(void);
uint64_t sqlite_sync_synced(void);

#endif

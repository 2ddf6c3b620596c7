/*
 * sqlite_sync.c -- group commit for the SQLite store (sqlite_sync.h): the WAL hook that numbers
 * the commits, the thread that fsyncs the WAL for all of them at once and checkpoints it.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "sqlite_sync.h"
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <unistd.h>

static struct {
    mtx_t m;           /* guards frames, stop and the wait on more */
    cnd_t more;        /* a commit was written, or stop */
    cnd_t full;        /* the WAL holds SYNC_CHECKPOINT_FRAMES pages, or stop */
    _Atomic uint64_t written, synced;
    int frames;        /* (m) pages in the WAL at the last commit */
    int stop;          /* (m) sqlite_sync_stop began */
    int fd;            /* the WAL file */
    sqlite3 *ck;       /* the checkpointing connection */
    thrd_t thread, ckthread;
    int running; /* 1: the sync thread runs, 2: the checkpoint thread too */
} Y = {.fd = -1};

static once_flag y_once = ONCE_FLAG_INIT;

static void y_init(void)
{
    mtx_init(&Y.m, mtx_plain);
    cnd_init(&Y.more);
    cnd_init(&Y.full);
}

/* sqlite3_wal_hook: a commit is written (its write lock released), nframe pages in the WAL. */
static int committed(void *arg, sqlite3 *db, const char *name, int nframe)
{
    (void)arg;
    (void)db;
    (void)name;
    mtx_lock(&Y.m);
    atomic_fetch_add(&Y.written, 1);
    Y.frames = nframe;
    cnd_signal(&Y.more);
    if (nframe >= SYNC_CHECKPOINT_FRAMES)
        cnd_signal(&Y.full);
    mtx_unlock(&Y.m);
    return SQLITE_OK;
}

static int syncer(void *arg)
{
    (void)arg;
    mtx_lock(&Y.m);
    for (;;) {
        while (!Y.stop && atomic_load(&Y.synced) == atomic_load(&Y.written))
            cnd_wait(&Y.more, &Y.m);
        uint64_t target = atomic_load(&Y.written);
        int stop = Y.stop;
        mtx_unlock(&Y.m);
        if (target != atomic_load(&Y.synced)) {
            if (fsync(Y.fd) != 0) {
                fprintf(stderr,
                        "condraughts: cannot sync the games' database to disk: %s (stopping: "
                        "what reached the disk is unknown, and no change is answered unsaved)\n",
                        strerror(errno));
                _exit(70);
            }
            atomic_store(&Y.synced, target);
            store_synced_report(target);
        }
        mtx_lock(&Y.m);
        if (stop && atomic_load(&Y.synced) == atomic_load(&Y.written))
            break;
    }
    mtx_unlock(&Y.m);
    return 0;
}

/* The checkpoints, in a thread of their own (a checkpoint syncs the WAL and the database and may
 * take a while: the commits' syncs go on meanwhile). A checkpoint that could not copy the whole
 * WAL is tried again after the next commit. */
static int checkpointer(void *arg)
{
    (void)arg;
    uint64_t tried = 0;
    mtx_lock(&Y.m);
    while (!Y.stop) {
        if (Y.frames < SYNC_CHECKPOINT_FRAMES || atomic_load(&Y.written) == tried) {
            cnd_wait(&Y.full, &Y.m);
            continue;
        }
        tried = atomic_load(&Y.written);
        mtx_unlock(&Y.m);
        sqlite3_wal_checkpoint_v2(Y.ck, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL, NULL);
        mtx_lock(&Y.m);
    }
    mtx_unlock(&Y.m);
    return 0;
}

/* fsync the folder holding path (the WAL's name in it). */
static int sync_folder(const char *path)
{
    char dir[4096];
    const char *slash = strrchr(path, '/');
    if (!slash)
        snprintf(dir, sizeof dir, ".");
    else
        snprintf(dir, sizeof dir, "%.*s", slash == path ? 1 : (int)(slash - path), path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

int sqlite_sync_start(sqlite3 *db, const char *path, char *err, size_t errlen)
{
    call_once(&y_once, y_init);
    char wal[4096 + 8];
    snprintf(wal, sizeof wal, "%s-wal", path);
    Y.fd = open(wal, O_RDONLY | O_CLOEXEC);
    if (Y.fd < 0 || sync_folder(wal) != 0) {
        snprintf(err, errlen, "cannot use %s: %s", wal, strerror(errno));
        sqlite_sync_stop();
        return -1;
    }
    if (sqlite3_open_v2(path, &Y.ck, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
        sqlite3_exec(Y.ck, "PRAGMA synchronous=NORMAL", NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "cannot open %s again: %s", path,
                 Y.ck ? sqlite3_errmsg(Y.ck) : "no memory");
        sqlite_sync_stop();
        return -1;
    }
    sqlite3_busy_timeout(Y.ck, 5000);
    Y.stop = 0;
    Y.frames = 0;
    sqlite3_wal_hook(db, committed, NULL);
    if (thrd_create(&Y.thread, syncer, NULL) != thrd_success) {
        sqlite3_wal_hook(db, NULL, NULL);
        snprintf(err, errlen, "cannot start a thread");
        sqlite_sync_stop();
        return -1;
    }
    if (thrd_create(&Y.ckthread, checkpointer, NULL) != thrd_success) {
        Y.running = 1; /* the sync thread is stopped below */
        sqlite3_wal_hook(db, NULL, NULL);
        snprintf(err, errlen, "cannot start a thread");
        sqlite_sync_stop();
        return -1;
    }
    Y.running = 2;
    return 0;
}

void sqlite_sync_stop(void)
{
    call_once(&y_once, y_init);
    if (Y.running) {
        mtx_lock(&Y.m);
        Y.stop = 1;
        cnd_signal(&Y.more);
        cnd_signal(&Y.full);
        mtx_unlock(&Y.m);
        thrd_join(Y.thread, NULL);
        if (Y.running == 2)
            thrd_join(Y.ckthread, NULL);
        Y.running = 0;
    }
    if (Y.fd >= 0)
        close(Y.fd);
    Y.fd = -1;
    sqlite3_close(Y.ck);
    Y.ck = NULL;
}

uint64_t sqlite_sync_written(void) { return atomic_load(&Y.written); }

uint64_t sqlite_sync_synced(void) { return atomic_load(&Y.synced); }

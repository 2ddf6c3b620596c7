/*
 * pg_sync.c -- group commit for the PostgreSQL store (pg_sync.h): the changes numbered, the
 * thread that flushes and announces them many at a time, and what it does when a flush fails.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "pg_sync.h"
#include "play.h"
#include "store.h"

#include <inttypes.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    char id[PLAY_ID_HEX + 1];
    int64_t rev, mark;
} change;

static struct {
    mtx_t m;    /* guards wait, nwait, cap, lost, stop */
    cnd_t more; /* a change was numbered, or stop */
    _Atomic uint64_t written, synced;
    change *wait; /* (m) the changes numbered and not yet taken by the thread */
    int nwait, cap;
    int lost; /* (m) a change could not be kept (out of memory) */
    int stop; /* (m) pg_sync_stop began */
    int running;
    thrd_t thread;
    PGconn *conn; /* the thread's connection */
    char *conninfo;
    PGconn *(*connect)(const char *where);
    char server[40]; /* this run's row of `flushes`, and the marks' random part */
    uint64_t mark_base;
    _Atomic uint64_t marks;
} Q;

static once_flag q_once = ONCE_FLAG_INIT;

static void q_init(void)
{
    mtx_init(&Q.m, mtx_plain);
    cnd_init(&Q.more);
}

int64_t pg_sync_mark(void) { return (int64_t)(Q.mark_base + atomic_fetch_add(&Q.marks, 1) + 1); }

void pg_sync_committed(const char *id, int64_t rev, int64_t mark)
{
    mtx_lock(&Q.m);
    if (Q.nwait == Q.cap) {
        int cap = Q.cap ? 2 * Q.cap : 256;
        change *w = realloc(Q.wait, (size_t)cap * sizeof *w);
        if (w) {
            Q.wait = w;
            Q.cap = cap;
        }
    }
    if (Q.nwait < Q.cap) {
        change *c = &Q.wait[Q.nwait++];
        snprintf(c->id, sizeof c->id, "%s", id);
        c->rev = rev;
        c->mark = mark;
    } else {
        Q.lost = 1;
    }
    atomic_fetch_add(&Q.written, 1);
    cnd_signal(&Q.more);
    mtx_unlock(&Q.m);
}

uint64_t pg_sync_written(void) { return atomic_load(&Q.written); }

uint64_t pg_sync_synced(void) { return atomic_load(&Q.synced); }

/* The last change of each game among c[0..n), moved to the front in their order: how many. */
static int last_of_each(change *c, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++) {
        int later = 0;
        for (int j = i + 1; j < n && !later; j++)
            later = !strcmp(c[i].id, c[j].id);
        if (!later)
            c[k++] = c[i];
    }
    return k;
}

/* A PostgreSQL array literal of the texts made by each c[i] (fmt: "id rev" or "id"). NULL when
 * out of memory. */
static char *array_of(const change *c, int n, int with_rev)
{
    size_t cap = (size_t)n * (PLAY_ID_HEX + 26) + 3;
    char *s = malloc(cap), *at = s;
    if (!s)
        return NULL;
    *at++ = '{';
    for (int i = 0; i < n; i++) {
        if (with_rev)
            at += sprintf(at, "%s\"%s %" PRId64 "\"", i ? "," : "", c[i].id, c[i].rev);
        else
            at += sprintf(at, "%s%s", i ? "," : "", c[i].id); /* hex: nothing to quote */
    }
    strcpy(at, "}");
    return s;
}

/* The flush: this server's row of `flushes` written, the changes announced, committed
 * synchronously. 1, or 0 (the connection failed, or out of memory). */
static int flush(const change *c, int n, uint64_t target)
{
    if (!Q.conn || PQstatus(Q.conn) != CONNECTION_OK)
        return 0;
    char *list = array_of(c, n, 1), num[24];
    if (!list)
        return 0;
    snprintf(num, sizeof num, "%" PRIu64, target);
    const char *p[3] = {Q.server, num, list};
    PGresult *r = PQexecParams(
        Q.conn,
        "WITH f AS (INSERT INTO flushes VALUES ($1, $2::BIGINT) ON CONFLICT (server) DO UPDATE "
        "SET n = $2::BIGINT) SELECT count(pg_notify('" PG_SYNC_CHANNEL "', x)) FROM "
        "unnest($3::TEXT[]) x",
        3, NULL, p, NULL, NULL, 0);
    int ok = PQresultStatus(r) == PGRES_TUPLES_OK;
    PQclear(r);
    free(list);
    return ok;
}

/* Connect the thread's connection (anew): 1, or 0. */
static int sync_connect(void)
{
    PQfinish(Q.conn);
    Q.conn = Q.connect(Q.conninfo);
    if (!Q.conn || PQstatus(Q.conn) != CONNECTION_OK)
        return 0;
    PGresult *r = PQexec(Q.conn, "SET synchronous_commit = on");
    int ok = PQresultStatus(r) == PGRES_COMMAND_OK;
    PQclear(r);
    return ok;
}

/* Are c[0..n) (the last change of each game) in the database? 1 yes, 0 one is not, -1 the
 * database did not answer. */
static int all_there(const change *c, int n)
{
    char *list = array_of(c, n, 0);
    if (!list)
        return -1;
    const char *p[1] = {list};
    PGresult *r = PQexecParams(Q.conn, "SELECT id, mark FROM games WHERE id = ANY($1::TEXT[])", 1,
                               NULL, p, NULL, NULL, 0);
    free(list);
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        PQclear(r);
        return -1;
    }
    int there = 1;
    for (int i = 0; i < n && there; i++) {
        int row = -1;
        for (int k = 0; k < PQntuples(r) && row < 0; k++)
            if (!strcmp(PQgetvalue(r, k, 0), c[i].id))
                row = k;
        if (c[i].rev < 0)
            there = row < 0;
        else
            there = row >= 0 && strtoll(PQgetvalue(r, row, 1), NULL, 10) == c[i].mark;
    }
    PQclear(r);
    return there;
}

static void nap(int ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* A flush failed: connect again, read the changes back and flush again (1), or stop the server. */
static int recover(const change *c, int n, uint64_t target, int lost)
{
    fprintf(stderr,
            "condraughts: the games' database did not confirm %" PRIu64
            " change(s) on disk: %s(reading them back once it answers)\n",
            target - atomic_load(&Q.synced), Q.conn ? PQerrorMessage(Q.conn) : "\n");
    for (int waited = 0; waited < PG_SYNC_GIVE_UP_MS; waited += PG_SYNC_RETRY_MS) {
        nap(PG_SYNC_RETRY_MS);
        if (!sync_connect())
            continue;
        int there = lost ? 0 : all_there(c, n);
        if (there < 0)
            continue;
        if (!there) {
            fprintf(stderr, "condraughts: the games' database lost changes before they reached "
                            "its disk (none of them was answered): stopping, to read the games "
                            "again as it holds them\n");
            _exit(70);
        }
        if (flush(c, n, target)) {
            fprintf(stderr, "condraughts: the games' database holds them all: going on\n");
            return 1;
        }
    }
    fprintf(stderr,
            "condraughts: the games' database did not answer for %d s with changes "
            "waiting for its disk (none of them was answered): stopping\n",
            PG_SYNC_GIVE_UP_MS / 1000);
    _exit(70);
}

static int syncer(void *arg)
{
    (void)arg;
    change *mine = NULL;
    int mine_cap = 0;
    mtx_lock(&Q.m);
    for (;;) {
        while (!Q.stop && atomic_load(&Q.synced) == atomic_load(&Q.written))
            cnd_wait(&Q.more, &Q.m);
        if (atomic_load(&Q.synced) == atomic_load(&Q.written))
            break; /* stop, nothing waiting */
        uint64_t target = atomic_load(&Q.written);
        change *taken = Q.wait; /* the waiting list handed over whole: the store fills mine */
        int n = Q.nwait, lost = Q.lost, taken_cap = Q.cap;
        Q.wait = mine;
        Q.cap = mine_cap;
        Q.nwait = 0;
        Q.lost = 0;
        mine = taken;
        mine_cap = taken_cap;
        mtx_unlock(&Q.m);
        n = last_of_each(mine, n);
        if (flush(mine, n, target) || recover(mine, n, target, lost)) {
            atomic_store(&Q.synced, target);
            store_synced_report(target);
        }
        mtx_lock(&Q.m);
    }
    mtx_unlock(&Q.m);
    free(mine);
    return 0;
}

/* This run's name in `flushes` and the marks' random part: from the kernel's random source. */
static void name_run(void)
{
    uint64_t rnd = (uint64_t)time(NULL) * 2654435761u ^ (uint64_t)getpid();
    FILE *f = fopen("/dev/urandom", "rb");
    if (f) {
        if (fread(&rnd, sizeof rnd, 1, f) != 1)
            rnd ^= (uint64_t)clock();
        fclose(f);
    }
    snprintf(Q.server, sizeof Q.server, "%016" PRIx64, rnd);
    Q.mark_base = (rnd & 0x3fffffffu) << 32; /* positive, 2^32 changes a run before it wraps */
}

int pg_sync_start(const char *conninfo, PGconn *(*connect)(const char *where), char *err,
                  size_t errlen)
{
    call_once(&q_once, q_init);
    free(Q.conninfo);
    Q.conninfo = strdup(conninfo);
    Q.connect = connect;
    Q.stop = 0;
    name_run();
    if (!Q.conninfo || !sync_connect()) {
        snprintf(err, errlen, "cannot connect to PostgreSQL for its group commit: %s",
                 Q.conn ? PQerrorMessage(Q.conn) : "no memory");
        pg_sync_stop();
        return -1;
    }
    if (thrd_create(&Q.thread, syncer, NULL) != thrd_success) {
        snprintf(err, errlen, "cannot start the PostgreSQL store's sync thread");
        pg_sync_stop();
        return -1;
    }
    Q.running = 1;
    return 0;
}

void pg_sync_stop(void)
{
    call_once(&q_once, q_init);
    if (Q.running) {
        mtx_lock(&Q.m);
        Q.stop = 1;
        cnd_signal(&Q.more);
        mtx_unlock(&Q.m);
        thrd_join(Q.thread, NULL);
        Q.running = 0;
    }
    if (Q.conn && PQstatus(Q.conn) == CONNECTION_OK) {
        const char *p[1] = {Q.server};
        PQclear(PQexecParams(Q.conn, "DELETE FROM flushes WHERE server = $1", 1, NULL, p, NULL,
                             NULL, 0));
    }
    PQfinish(Q.conn);
    Q.conn = NULL;
    free(Q.conninfo);
    Q.conninfo = NULL;
    free(Q.wait);
    Q.wait = NULL;
    Q.nwait = Q.cap = 0;
}

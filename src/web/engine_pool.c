/*
 * engine_pool.c -- searches for the API: limits from a request, the MAX_SEARCHES search slots,
 * the pool of idle engines, a snapshot of a game to search without the lock, and the live
 * analysis (GET .../analyse): a search thread whose progress is streamed as Server-Sent Events.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "apiutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---------------------------------------------------------------- search helpers */

/* Search limits from a body ({"movetime":s} or {"depth":d}), else the level's time
 * (0.05 * L * L seconds), capped at `cap` seconds. */
int read_search_opts(const cJSON *body, int level, double cap, search_opts *so, char *err,
                     size_t errlen)
{
    double mt = 0, depth = 0;
    int has_mt = 0, has_depth = 0;
    if (cd_json_number(body, "movetime", 0.001, MAX_SEARCH, 0, &mt, &has_mt, err, errlen) ||
        cd_json_number(body, "depth", 1, 64, 1, &depth, &has_depth, err, errlen))
        return -1;
    so->depth = has_depth ? (int)depth : 0;
    so->movetime = has_mt ? mt : has_depth ? 0 : 0.05 * level * level;
    if (so->movetime > cap)
        so->movetime = cap;
    return 0;
}

void set_limits(const search_opts *so, cd_limits *lim)
{
    memset(lim, 0, sizeof *lim);
    lim->depth = so->depth;
    lim->movetime = so->movetime;
    lim->nodes = srv.max_nodes;
    if (!so->depth && !so->movetime)
        lim->movetime = 1.0;
    if (so->depth && !so->movetime)
        lim->movetime = MAX_SEARCH; /* a depth search still ends in time */
}

/* Copy the game for a search (under the lock). 404/409 replies are sent by the caller. */
snap_result snapshot(const char *id, cd_game **copy, unsigned *version, int *level)
{
    srv_lock();
    web_game *w = find_game(id);
    snap_result res = SNAP_OK;
    if (!w)
        res = SNAP_UNKNOWN;
    else if (cd_game_status(w->game, NULL) != CD_ONGOING)
        res = SNAP_OVER;
    else if (!(*copy = copy_game(w->game)))
        res = SNAP_NOMEM;
    else {
        *version = w->version;
        *level = w->level;
    }
    srv_unlock();
    return res;
}

/* Take one of the MAX_SEARCHES search slots; 0 if all are in use. */
int search_begin(void)
{
    srv_lock();
    int ok = srv.searches < MAX_SEARCHES;
    if (ok)
        srv.searches++;
    srv_unlock();
    return ok;
}

void search_end(void)
{
    srv_lock();
    srv.searches--;
    srv_unlock();
}

/* An engine for one search with this contempt (engine option "contempt"): an idle one from the
 * pool (cleared: every search starts alike), or a new one; NULL when out of memory. At most
 * MAX_SEARCHES run at once, so the pool stays small. */
cd_engine *engine_take(int contempt)
{
    srv_lock();
    cd_engine *e = srv.npool > 0 ? srv.pool[--srv.npool] : NULL;
    srv_unlock();
    if (e)
        cd_engine_clear(e);
    else
        e = cd_engine_new(srv.hash_mb);
    if (e) {
        cd_engine_set_eval(e, srv.eval);
        cd_engine_set_option(e, "contempt", contempt);
    }
    return e;
}

/* Give an engine back to the pool (NULL: nothing). */
void engine_give(cd_engine *e)
{
    if (!e)
        return;
    srv_lock();
    if (srv.npool < MAX_SEARCHES) {
        srv.pool[srv.npool++] = e;
        e = NULL;
    }
    srv_unlock();
    cd_engine_free(e);
}

/* Free the idle engines (at shutdown). */
void engine_pool_free(void)
{
    srv_lock();
    while (srv.npool > 0)
        cd_engine_free(srv.pool[--srv.npool]);
    srv_unlock();
}

enum MHD_Result snapshot_error(reply *c, snap_result r)
{
    if (r == SNAP_UNKNOWN)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    if (r == SNAP_OVER)
        return send_error(c, MHD_HTTP_CONFLICT, "the game is over");
    return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
}

/* ---------------------------------------------------------------- analysis (SSE) */

typedef struct sse_item {
    struct sse_item *next;
    size_t len, off;
    char text[];
} sse_item;

typedef struct analysis {
    mtx_t m;
    sse_item *head, *tail;
    int done, stop;
    int waited;       /* (m) parked since the last thing sent: a wake with nothing queued sends a
                       * keep-alive */
    stream_hook hook; /* woken (under m) when an item is queued or the search is done */
    cd_engine *engine;
    cd_game *game;
    cd_limits limits;
    thrd_t thread;
} analysis;

static void sse_push(analysis *a, const char *event, cJSON *data)
{
    char *json = cJSON_PrintUnformatted(data);
    cJSON_Delete(data);
    if (!json)
        return;
    size_t len = strlen(event) + strlen(json) + 32;
    sse_item *it = malloc(sizeof *it + len);
    if (it) {
        it->len = (size_t)snprintf(it->text, len, "event: %s\ndata: %s\n\n", event, json);
        it->off = 0;
        it->next = NULL;
        mtx_lock(&a->m);
        if (a->tail)
            a->tail->next = it;
        else
            a->head = it;
        a->tail = it;
        stream_wake(&a->hook);
        mtx_unlock(&a->m);
    }
    free(json);
}

static void on_info(const cd_search_info *info, void *user)
{
    analysis *a = user;
    mtx_lock(&a->m);
    int stop = a->stop;
    mtx_unlock(&a->m);
    if (stop) {
        cd_engine_stop(a->engine); /* in case the stop came before the search began */
        return;
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "depth", info->depth);
    cJSON_AddNumberToObject(o, "score", info->score);
    cJSON_AddNumberToObject(o, "nodes", (double)info->nodes);
    cJSON_AddNumberToObject(o, "time", info->time);
    cJSON_AddNumberToObject(o, "nps", (double)(uint64_t)(info->nps + 0.5));
    cJSON *pv = cJSON_AddArrayToObject(o, "pv");
    cd_position pos = *cd_game_position(a->game);
    for (int i = 0; i < info->pvlen && i < CD_MAX_PLY; i++) {
        char text[256];
        cd_move_to_text(&pos, &info->pv[i], -1, text, sizeof text);
        cJSON_AddItemToArray(pv, cJSON_CreateString(text));
        cd_play(&pos, &info->pv[i], &pos);
    }
    sse_push(a, "info", o);
}

static int analysis_thread(void *arg)
{
    analysis *a = arg;
    cd_search_result res;
    memset(&res, 0, sizeof res);
    cd_result r = cd_search(a->engine, a->game, &a->limits, on_info, a, &res);
    cJSON *o = cJSON_CreateObject();
    char text[256] = "";
    if (r == CD_OK && res.has_move)
        cd_move_to_text(cd_game_position(a->game), &res.best, -1, text, sizeof text);
    cJSON_AddStringToObject(o, "move", text);
    cJSON_AddNumberToObject(o, "score", res.score);
    cJSON_AddNumberToObject(o, "depth", res.depth);
    sse_push(a, "done", o);
    mtx_lock(&a->m);
    a->done = 1;
    stream_wake(&a->hook);
    mtx_unlock(&a->m);
    return 0;
}

ssize_t sse_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    (void)pos;
    analysis *a = cls;
    mtx_lock(&a->m);
    if (!a->head && !a->done && !a->waited) {
        int parked = stream_park(&a->hook);
        a->waited = parked;
        mtx_unlock(&a->m);
        return parked ? 0 : MHD_CONTENT_READER_END_OF_STREAM;
    }
    a->waited = 0;
    if (!a->head) {
        int done = a->done;
        mtx_unlock(&a->m);
        if (done)
            return MHD_CONTENT_READER_END_OF_STREAM;
        /* A comment line keeps the connection alive and finds out if the client left. */
        static const char keepalive[] = ": keepalive\n\n";
        if (max < sizeof keepalive - 1)
            return 0;
        memcpy(buf, keepalive, sizeof keepalive - 1);
        return (ssize_t)(sizeof keepalive - 1);
    }
    sse_item *it = a->head;
    size_t n = it->len - it->off;
    if (n > max)
        n = max;
    memcpy(buf, it->text + it->off, n);
    it->off += n;
    if (it->off == it->len) {
        a->head = it->next;
        if (!a->head)
            a->tail = NULL;
        free(it);
    }
    mtx_unlock(&a->m);
    return (ssize_t)n;
}

/* The response is gone (finished or the client disconnected): stop and clean up. */
void sse_free(void *cls)
{
    analysis *a = cls;
    mtx_lock(&a->m);
    a->stop = 1;
    mtx_unlock(&a->m);
    stream_drop(&a->hook);
    cd_engine_stop(a->engine);
    thrd_join(a->thread, NULL);
    while (a->head) {
        sse_item *next = a->head->next;
        free(a->head);
        a->head = next;
    }
    engine_give(a->engine);
    cd_game_free(a->game);
    mtx_destroy(&a->m);
    free(a);
    search_end();
}

enum MHD_Result api_analyse(reply *c, const char *id, query_fn query, void *qctx)
{
    const char *ts = query(qctx, "time");
    const char *ds = query(qctx, "depth");
    double t = 2.0;
    int depth = 0;
    if (ts) {
        char *end;
        t = strtod(ts, &end);
        if (end == ts || *end || !(t > 0 && t <= MAX_ANALYSE))
            return send_error(c, MHD_HTTP_BAD_REQUEST,
                              "'time' must be a number of seconds from 0 "
                              "to %g",
                              MAX_ANALYSE);
    }
    if (ds) {
        char *end;
        long d = strtol(ds, &end, 10);
        if (end == ds || *end || d < 1 || d > 64)
            return send_error(c, MHD_HTTP_BAD_REQUEST, "'depth' must be an integer from 1 to 64");
        depth = (int)d;
        if (!ts)
            t = MAX_ANALYSE;
    }
    cd_game *copy = NULL;
    unsigned version;
    int level;
    snap_result sr = snapshot(id, &copy, &version, &level);
    if (sr != SNAP_OK)
        return snapshot_error(c, sr);
    if (!search_begin()) {
        cd_game_free(copy);
        return send_busy(c, "the engine is busy (too many searches at once)");
    }
    analysis *a = calloc(1, sizeof *a);
    cd_engine *e = a ? engine_take(0) : NULL;
    if (!e) {
        free(a);
        cd_game_free(copy);
        search_end();
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    if (mtx_init(&a->m, mtx_plain) != thrd_success) {
        engine_give(e);
        free(a);
        cd_game_free(copy);
        search_end();
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    cd_engine_set_egtb(e, egtb_for(game_rules(copy)));
    a->engine = e;
    a->game = copy;
    a->limits.movetime = t;
    a->limits.depth = depth;
    a->limits.nodes = srv.max_nodes;
    if (thrd_create(&a->thread, analysis_thread, a) != thrd_success) {
        engine_give(e);
        cd_game_free(copy);
        mtx_destroy(&a->m);
        free(a);
        search_end();
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "cannot start the search");
    }
    c->status = MHD_HTTP_OK;
    c->type = "text/event-stream";
    c->stream = a;
    c->hook = &a->hook;
    return MHD_YES;
}

/*
 * engine_pool.c -- searches for the API: limits from a request, the MAX_SEARCHES search slots,
 * the pool of idle engines, a snapshot of a game to search without the lock, and the live
 * analysis (GET .../analyse): a search thread whose progress is streamed as Server-Sent Events,
 * and the review (GET .../review): the same stream, its thread searching every position of the
 * game in turn and judging each move by cd_move_loss, as `condraughts pdn annotate` does.
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

/* Copy the game for a search (under the lock); a game over only if over_ok. 404/409 replies
 * are sent by the caller. */
static snap_result snapshot_if(const char *id, int over_ok, cd_game **copy, unsigned *version,
                               int *level)
{
    srv_lock();
    web_game *w = find_game(id);
    snap_result res = SNAP_OK;
    if (!w)
        res = SNAP_UNKNOWN;
    else if (!over_ok && cd_game_status(w->game, NULL) != CD_ONGOING)
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

snap_result snapshot(const char *id, cd_game **copy, unsigned *version, int *level)
{
    return snapshot_if(id, 0, copy, version, level);
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

int book_move(const cd_position *pos, cd_book_move *bm)
{
    for (int i = 0; i < srv.nbooks; i++)
        if (cd_book_probe(srv.books[i], pos, bm, 1))
            return 1;
    return 0;
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
    cd_game *game; /* the analysis: the position's game; the review: the whole game */
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

/* ---------------------------------------------------------------- review (SSE) */

static int stopped(analysis *a)
{
    mtx_lock(&a->m);
    int stop = a->stop;
    mtx_unlock(&a->m);
    return stop;
}

/* A review's searches report nothing; this only makes a stop that came before cd_search began
 * (cd_engine_clear forgets it) stop the search at its first iteration. */
static void review_info(const cd_search_info *info, void *user)
{
    (void)info;
    analysis *a = user;
    if (stopped(a))
        cd_engine_stop(a->engine);
}

/* The score of h's position for its side to move: by the rules when they have ended the game,
 * else searched (best move in *best, *has_best). Returns -1 when the client has gone. */
static int review_score(analysis *a, const cd_game *h, int *score, cd_move *best, int *has_best)
{
    *has_best = 0;
    cd_status st = cd_game_status(h, NULL);
    if (st != CD_ONGOING) {
        int winner = st == CD_WHITE_WINS ? CD_WHITE : CD_BLACK;
        *score = st == CD_DRAW                         ? 0
                 : winner == cd_game_position(h)->side ? CD_SCORE_WIN
                                                       : -CD_SCORE_WIN;
        return 0;
    }
    if (stopped(a))
        return -1;
    cd_engine_clear(a->engine);
    cd_search_result res;
    memset(&res, 0, sizeof res);
    if (cd_search(a->engine, h, &a->limits, review_info, a, &res) != CD_OK || stopped(a))
        return -1;
    *score = res.score;
    *best = res.best;
    *has_best = res.has_move;
    return 0;
}

static const char *side_name(int side) { return side == CD_WHITE ? "white" : "black"; }

/* Position i is searched before move i is played (each search with the game's history before
 * it): "start" says the plies, the seconds a position and the starting board, "ply" tells
 * move i's judgement and the board after it, "done" sums up each side. */
static int review_thread(void *arg)
{
    analysis *a = arg;
    const cd_game *g = a->game;
    const cd_position *start = cd_game_position_at(g, 0);
    int plies = cd_game_ply(g), reviewed = 0;
    int moves[2] = {0, 0}, marks[2][CD_MARK_LEVELS] = {{0}};
    long loss_sum[2] = {0, 0};
    cd_game *h = cd_game_new(start->rules, start);
    cJSON *so = cJSON_CreateObject();
    cJSON_AddNumberToObject(so, "plies", plies);
    cJSON_AddNumberToObject(so, "time", a->limits.movetime);
    cJSON_AddNumberToObject(so, "depth", a->limits.depth);
    position_board_json(so, start);
    sse_push(a, "start", so);
    int before, has_best;
    cd_move best;
    int ok = h && review_score(a, h, &before, &best, &has_best) == 0;
    for (int i = 0; ok && i < plies && cd_game_status(h, NULL) == CD_ONGOING; i++) {
        const cd_position *pos = cd_game_position_at(g, i);
        const cd_move *m = cd_game_move(g, i);
        char mv[256], bm[256] = "";
        cd_move_to_text(pos, m, -1, mv, sizeof mv);
        if (has_best)
            cd_move_to_text(pos, &best, -1, bm, sizeof bm);
        int same = has_best && cd_move_equal(m, &best);
        int after, next_has;
        cd_move next;
        if (cd_game_play(h, m) != CD_OK || review_score(a, h, &after, &next, &next_has) != 0)
            break;
        int loss = cd_move_loss(before, after, same);
        int level = cd_loss_mark(loss, CD_LOSS_MARK);
        moves[pos->side]++;
        loss_sum[pos->side] += loss;
        marks[pos->side][level]++;
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "ply", i + 1);
        cJSON_AddStringToObject(o, "side", side_name(pos->side));
        cJSON_AddStringToObject(o, "move", mv);
        cJSON_AddStringToObject(o, "best", bm);
        cJSON_AddBoolToObject(o, "is_best", same);
        cJSON_AddNumberToObject(o, "before", before);
        cJSON_AddNumberToObject(o, "after", -after);
        cJSON_AddNumberToObject(o, "loss", loss);
        cJSON_AddStringToObject(o, "mark", cd_mark_text(level));
        position_board_json(o, cd_game_position(h));
        sse_push(a, "ply", o);
        reviewed = i + 1;
        before = after;
        best = next;
        has_best = next_has;
    }
    if (!stopped(a)) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "plies", reviewed);
        for (int c = 0; c < 2; c++) {
            cJSON *s = cJSON_AddObjectToObject(o, side_name(c));
            cJSON_AddNumberToObject(s, "moves", moves[c]);
            cJSON_AddNumberToObject(s, "average_loss",
                                    moves[c] ? (double)loss_sum[c] / moves[c] : 0.0);
            cJSON_AddNumberToObject(s, "dubious", marks[c][CD_MARK_DUBIOUS]);
            cJSON_AddNumberToObject(s, "mistakes", marks[c][CD_MARK_MISTAKE]);
            cJSON_AddNumberToObject(s, "blunders", marks[c][CD_MARK_BLUNDER]);
        }
        sse_push(a, "done", o);
    }
    cd_game_free(h);
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

/* Start the stream of c: fn on a thread of its own searches copy (taken over) within lim, in
 * one of the search slots (503 when all are taken), with an engine of the pool and the
 * variant's tables. */
static enum MHD_Result stream_start(reply *c, cd_game *copy, const cd_limits *lim, thrd_start_t fn)
{
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
    a->limits = *lim;
    if (thrd_create(&a->thread, fn, a) != thrd_success) {
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
    cd_limits lim = {0};
    lim.movetime = t;
    lim.depth = depth;
    lim.nodes = srv.max_nodes;
    return stream_start(c, copy, &lim, analysis_thread);
}

enum MHD_Result api_review(reply *c, const char *id, query_fn query, void *qctx)
{
    const char *ts = query(qctx, "time"), *ds = query(qctx, "depth");
    double t = REVIEW_TIME;
    int depth = 0;
    if (ts) {
        char *end;
        t = strtod(ts, &end);
        if (end == ts || *end || !(t >= REVIEW_TIME_MIN && t <= REVIEW_TIME_MAX))
            return send_error(c, MHD_HTTP_BAD_REQUEST,
                              "'time' must be a number of seconds from %g to %g", REVIEW_TIME_MIN,
                              REVIEW_TIME_MAX);
    }
    if (ds) {
        char *end;
        long d = strtol(ds, &end, 10);
        if (end == ds || *end || d < 1 || d > REVIEW_DEPTH)
            return send_error(c, MHD_HTTP_BAD_REQUEST, "'depth' must be an integer from 1 to %d",
                              REVIEW_DEPTH);
        depth = (int)d;
        if (!ts)
            t = MAX_REVIEW; /* a depth alone: only the whole review's bound below */
    }
    cd_game *copy = NULL;
    unsigned version;
    int level;
    snap_result sr = snapshot_if(id, 1, &copy, &version, &level);
    if (sr != SNAP_OK)
        return snapshot_error(c, sr);
    int plies = cd_game_ply(copy);
    if (plies == 0) {
        cd_game_free(copy);
        return send_error(c, MHD_HTTP_CONFLICT, "the game has no moves to review");
    }
    if ((plies + 1) * t > MAX_REVIEW)
        t = MAX_REVIEW / (plies + 1); /* the whole review stays within MAX_REVIEW */
    cd_limits lim = {0};
    lim.movetime = t;
    lim.depth = depth;
    lim.nodes = srv.max_nodes;
    return stream_start(c, copy, &lim, review_thread);
}

/*
 * towers_api.c -- /api/towers/...: tower draughts (Bashni, Lasca; src/towers/) in the browser.
 *
 * Games are kept in memory only, in a table of MAX_TGAMES slots guarded by one mutex; creating a
 * game when the table is full evicts the least recently used one. An engine search never holds
 * the mutex: it works on a copy of the position and its move is applied only if the game has not
 * changed meanwhile (409 otherwise). At most MAX_TSEARCHES searches run at once (503 beyond).
 * A game ends when the side to move has no move (it loses) or, as there is no draw rule in the
 * module, as a draw after MAX_PLIES plies. Bad input is answered with 4xx and {"error": "..."}
 * and never changes a game. The API is documented in docs/api.md.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "towers_api.h"
#include "lazy_lock.h"
#include "apiutil.h"

#include <cjson/cJSON.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "../towers/towers.h"

#define MAX_TGAMES    64      /* games kept; the least recently used is evicted beyond */
#define MAX_PLIES     500     /* a game is drawn after this many plies */
#define MAX_TSEARCHES 4       /* engine searches at once */
#define DEFAULT_DEPTH 6       /* engine plies */
#define MAX_DEPTH     8       /* the most plies a request may ask for */
#define MAX_NODES     1500000 /* node cap of every search (keeps a move well under a second) */
#define MAX_LISTED    1024    /* legal moves listed in a game object */
#define TID_HEX       8

typedef struct tgame {
    int used;
    char id[TID_HEX + 1];
    int human; /* the person's colour: 0 white, 1 black */
    cd_tw_pos pos;
    unsigned version;           /* bumped on every change */
    unsigned long long touched; /* last use, for eviction */
    int nplies;
    cd_tw_move history[MAX_PLIES];
    int has_last; /* the engine's last move below is valid */
    char last_move[CD_TW_MOVE_TEXT];
    int last_score, last_depth;
    unsigned long long last_nodes;
} tgame;

static struct {
    mtx_t lock; /* made on first use: t_lock */
    tgame games[MAX_TGAMES];
    unsigned long long clock; /* use counter */
    int searches;
} T;

WEB_LAZY_LOCK(static, t_lock, T.lock)

/* ---------------------------------------------------------------- replies */

static void reply_json(towers_reply *r, unsigned status, cJSON *j)
{
    r->status = status;
    r->body = j ? cJSON_PrintUnformatted(j) : NULL;
    r->len = r->body ? strlen(r->body) : 0;
    cJSON_Delete(j);
}

static void reply_error(towers_reply *r, unsigned status, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cJSON *j = cJSON_CreateObject();
    if (j)
        cJSON_AddStringToObject(j, "error", msg);
    reply_json(r, status, j);
}

static void reply_405(towers_reply *r, const char *allow)
{
    r->allow = allow;
    reply_error(r, 405, "method not allowed");
}

/* ---------------------------------------------------------------- request bodies */

/* The body as a JSON object (an empty body is {}); fields (apiutil.h). */
static cJSON *parse_body(const char *body, size_t len, char *err, size_t errlen)
{
    return cd_json_body(body, len, 0, err, errlen);
}

/* Optional integer field within [lo, hi]: 0 when absent (out untouched) or valid. */
static int get_int(const cJSON *o, const char *name, int lo, int hi, int *out, char *err,
                   size_t errlen)
{
    double d;
    int present;
    if (cd_json_number(o, name, lo, hi, 1, &d, &present, err, errlen))
        return -1;
    if (present)
        *out = (int)d;
    return 0;
}

/* ---------------------------------------------------------------- games */

/* (lock) */
static tgame *find_game(const char *id)
{
    for (int i = 0; i < MAX_TGAMES; i++)
        if (T.games[i].used && !strcmp(T.games[i].id, id)) {
            T.games[i].touched = ++T.clock;
            return &T.games[i];
        }
    return NULL;
}

/* (lock) A free slot, else the least recently used one; with a fresh unique id. */
static tgame *new_slot(void)
{
    tgame *g = NULL;
    for (int i = 0; i < MAX_TGAMES && !g; i++)
        if (!T.games[i].used)
            g = &T.games[i];
    if (!g) {
        g = &T.games[0];
        for (int i = 1; i < MAX_TGAMES; i++)
            if (T.games[i].touched < g->touched)
                g = &T.games[i];
    }
    memset(g, 0, sizeof *g);
    do
        cd_api_random_id(g->id, TID_HEX);
    while (find_game(g->id));
    g->used = 1;
    g->touched = ++T.clock;
    return g;
}

static const char *colour_name(int c) { return c ? "black" : "white"; }

/* "white", "black" (the winner), "draw", or NULL while the game goes on. */
static const char *result_of(const tgame *g)
{
    if (cd_tw_game_over(&g->pos))
        return colour_name(!g->pos.side);
    if (g->nplies >= MAX_PLIES)
        return "draw";
    return NULL;
}

/* (lock) The game object (docs/api.md); NULL when out of memory. */
static cJSON *game_json(const tgame *g)
{
    cd_tw_game game = (cd_tw_game)g->pos.game;
    cJSON *o = cJSON_CreateObject();
    if (!o)
        return NULL;
    char text[CD_TW_POS_TEXT];
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddStringToObject(o, "game", cd_tw_game_name(game));
    cJSON_AddStringToObject(o, "human", colour_name(g->human));
    cd_tw_format(&g->pos, text, sizeof text);
    cJSON_AddStringToObject(o, "position", text);
    cJSON_AddStringToObject(o, "side", colour_name(g->pos.side));
    cJSON_AddNumberToObject(o, "ply", g->nplies);
    const char *res = result_of(g);
    if (res) {
        cJSON_AddStringToObject(o, "result", res);
        cJSON_AddStringToObject(o, "reason", strcmp(res, "draw") ? "no legal move" : "move limit");
    } else {
        cJSON_AddNullToObject(o, "result");
        cJSON_AddNullToObject(o, "reason");
    }

    cJSON *moves = cJSON_AddArrayToObject(o, "moves");
    if (!res) {
        char(*list)[CD_TW_MOVE_TEXT] = malloc(sizeof *list * MAX_LISTED);
        if (!list) {
            cJSON_Delete(o);
            return NULL;
        }
        long n = cd_tw_move_texts(&g->pos, list, MAX_LISTED);
        for (long i = 0; i < n && i < MAX_LISTED; i++)
            cJSON_AddItemToArray(moves, cJSON_CreateString(list[i]));
        free(list);
        cJSON_AddBoolToObject(o, "moves_truncated", n > MAX_LISTED);
    } else {
        cJSON_AddBoolToObject(o, "moves_truncated", 0);
    }

    cJSON *hist = cJSON_AddArrayToObject(o, "history");
    for (int i = 0; i < g->nplies; i++) {
        char mv[CD_TW_MOVE_TEXT];
        cd_tw_move_text(game, &g->history[i], mv, sizeof mv);
        cJSON_AddItemToArray(hist, cJSON_CreateString(mv));
    }

    cJSON *board = cJSON_AddObjectToObject(o, "board");
    cJSON_AddNumberToObject(board, "width", cd_tw_width(game));
    cJSON_AddNumberToObject(board, "height", cd_tw_width(game));
    cJSON *squares = cJSON_AddArrayToObject(board, "squares");
    for (int sq = 0; sq < cd_tw_squares(game); sq++) {
        cJSON *s = cJSON_CreateObject();
        char name[8];
        cd_tw_square_name(game, sq, name, sizeof name);
        cJSON_AddStringToObject(s, "square", name);
        cJSON_AddNumberToObject(s, "file", cd_tw_square_file(game, sq));
        cJSON_AddNumberToObject(s, "rank", cd_tw_square_rank(game, sq));
        cd_tw_stack_text(&g->pos, sq, text, sizeof text);
        cJSON_AddStringToObject(s, "stack", text);
        cJSON_AddItemToArray(squares, s);
    }

    if (g->has_last) {
        cJSON *e = cJSON_AddObjectToObject(o, "last_engine");
        cJSON_AddStringToObject(e, "move", g->last_move);
        cJSON_AddNumberToObject(e, "score", g->last_score);
        cJSON_AddNumberToObject(e, "depth", g->last_depth);
        cJSON_AddNumberToObject(e, "nodes", (double)g->last_nodes);
    } else {
        cJSON_AddNullToObject(o, "last_engine");
    }
    return o;
}

/* ---------------------------------------------------------------- handlers */

static void api_create(towers_reply *r, const char *body, size_t len)
{
    char err[512] = "";
    cJSON *j = parse_body(body, len, err, sizeof err);
    if (!j) {
        reply_error(r, 400, "%s", err);
        return;
    }
    const char *gname = "bashni", *side = "white";
    cd_tw_game game = CD_TW_BASHNI;
    int human = 0;
    if (cd_json_string(j, "game", &gname, err, sizeof err) ||
        cd_json_string(j, "side", &side, err, sizeof err)) {
        cJSON_Delete(j);
        reply_error(r, 400, "%s", err);
        return;
    }
    if (cd_tw_game_find(gname, &game) != CD_OK) {
        reply_error(r, 400, "unknown game '%.100s' (bashni, lasker)", gname);
        cJSON_Delete(j);
        return;
    }
    if (!strcmp(side, "black")) {
        human = 1;
    } else if (strcmp(side, "white")) {
        reply_error(r, 400, "'side' must be \"white\" or \"black\"");
        cJSON_Delete(j);
        return;
    }
    cJSON_Delete(j);
    t_lock();
    tgame *g = new_slot();
    g->human = human;
    cd_tw_start(&g->pos, game);
    cJSON *o = game_json(g);
    mtx_unlock(&T.lock);
    if (!o)
        reply_error(r, 500, "out of memory");
    else
        reply_json(r, 201, o);
}

static void api_get(towers_reply *r, const char *id)
{
    t_lock();
    tgame *g = find_game(id);
    cJSON *o = g ? game_json(g) : NULL;
    mtx_unlock(&T.lock);
    if (!g)
        reply_error(r, 404, "unknown game");
    else if (!o)
        reply_error(r, 500, "out of memory");
    else
        reply_json(r, 200, o);
}

static void api_delete(towers_reply *r, const char *id)
{
    t_lock();
    tgame *g = find_game(id);
    if (g)
        memset(g, 0, sizeof *g);
    mtx_unlock(&T.lock);
    if (!g) {
        reply_error(r, 404, "unknown game");
        return;
    }
    cJSON *o = cJSON_CreateObject();
    if (o)
        cJSON_AddBoolToObject(o, "deleted", 1);
    reply_json(r, 200, o);
}

static void api_move(towers_reply *r, const char *id, const char *body, size_t len)
{
    char err[512] = "";
    cJSON *j = parse_body(body, len, err, sizeof err);
    if (!j) {
        reply_error(r, 400, "%s", err);
        return;
    }
    const char *text = NULL;
    if (cd_json_string(j, "move", &text, err, sizeof err) ||
        (!text && snprintf(err, sizeof err, "'move' is required") > 0)) {
        cJSON_Delete(j);
        reply_error(r, 400, "%s", err);
        return;
    }
    unsigned status = 200;
    cJSON *o = NULL;
    t_lock();
    tgame *g = find_game(id);
    if (!g) {
        status = 404;
        snprintf(err, sizeof err, "unknown game");
    } else if (result_of(g)) {
        status = 409;
        snprintf(err, sizeof err, "the game is over");
    } else {
        cd_tw_move m;
        if (strlen(text) >= CD_TW_MOVE_TEXT) {
            status = 400;
            snprintf(err, sizeof err, "move text too long");
        } else if (cd_tw_move_parse(&g->pos, text, &m, err, sizeof err) != CD_OK) {
            status = 400;
            if (!err[0])
                snprintf(err, sizeof err, "illegal move");
        } else {
            cd_tw_make(&g->pos, &m);
            g->history[g->nplies++] = m;
            g->version++;
            g->has_last = 0;
            o = game_json(g);
            if (!o) {
                status = 500;
                snprintf(err, sizeof err, "out of memory");
            }
        }
    }
    mtx_unlock(&T.lock);
    cJSON_Delete(j);
    if (o)
        reply_json(r, status, o);
    else
        reply_error(r, status, "%s", err);
}

static void api_engine(towers_reply *r, const char *id, const char *body, size_t len)
{
    char err[512] = "";
    cJSON *j = parse_body(body, len, err, sizeof err);
    if (!j) {
        reply_error(r, 400, "%s", err);
        return;
    }
    int depth = DEFAULT_DEPTH;
    int bad = get_int(j, "depth", 1, MAX_DEPTH, &depth, err, sizeof err);
    cJSON_Delete(j);
    if (bad) {
        reply_error(r, 400, "%s", err);
        return;
    }
    cd_tw_pos pos;
    unsigned version = 0;
    t_lock();
    tgame *g = find_game(id);
    unsigned status = 0;
    if (!g) {
        status = 404;
        snprintf(err, sizeof err, "unknown game");
    } else if (result_of(g)) {
        status = 409;
        snprintf(err, sizeof err, "the game is over");
    } else if (T.searches >= MAX_TSEARCHES) {
        status = 503;
        snprintf(err, sizeof err, "too many searches running; try again");
    } else {
        T.searches++;
        pos = g->pos;
        version = g->version;
    }
    mtx_unlock(&T.lock);
    if (status) {
        reply_error(r, status, "%s", err);
        return;
    }

    cd_tw_search_result res;
    cd_tw_search(&pos, depth, MAX_NODES, &res);

    cJSON *o = NULL;
    t_lock();
    T.searches--;
    g = find_game(id);
    if (!g) {
        status = 404;
        snprintf(err, sizeof err, "unknown game");
    } else if (g->version != version) {
        status = 409;
        snprintf(err, sizeof err, "the game changed during the search");
    } else if (!res.has_move) {
        status = 409;
        snprintf(err, sizeof err, "the game is over");
    } else {
        cd_tw_make(&g->pos, &res.best);
        g->history[g->nplies++] = res.best;
        g->version++;
        g->has_last = 1;
        cd_tw_move_text((cd_tw_game)g->pos.game, &res.best, g->last_move, sizeof g->last_move);
        g->last_score = res.score;
        g->last_depth = res.depth;
        g->last_nodes = (unsigned long long)res.nodes;
        o = game_json(g);
        status = 200;
        if (!o) {
            status = 500;
            snprintf(err, sizeof err, "out of memory");
        }
    }
    mtx_unlock(&T.lock);
    if (o)
        reply_json(r, status, o);
    else
        reply_error(r, status, "%s", err);
}

/* ---------------------------------------------------------------- routing */

void towers_api(const char *path, const char *method, const char *body, size_t len,
                towers_reply *out)
{
    memset(out, 0, sizeof *out);
    if (!body)
        len = 0;
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    int post = !strcmp(method, "POST"), del = !strcmp(method, "DELETE");
    if (!strcmp(path, "/games") || !strcmp(path, "/games/")) {
        if (post)
            api_create(out, body, len);
        else
            reply_405(out, "POST");
        return;
    }
    if (strncmp(path, "/games/", 7)) {
        reply_error(out, 404, "unknown route");
        return;
    }
    const char *idp = path + 7;
    const char *slash = strchr(idp, '/');
    size_t n = slash ? (size_t)(slash - idp) : strlen(idp);
    const char *action = slash ? slash + 1 : "";
    if (n == 0 || (strcmp(action, "") && strcmp(action, "move") && strcmp(action, "engine"))) {
        reply_error(out, 404, "unknown route");
        return;
    }
    if (!action[0] ? !(get || del) : !post) {
        reply_405(out, !action[0] ? "GET, DELETE" : "POST");
        return;
    }
    char id[TID_HEX + 1];
    if (n > TID_HEX) {
        reply_error(out, 404, "unknown game");
        return;
    }
    memcpy(id, idp, n);
    id[n] = '\0';
    if (!action[0]) {
        if (get)
            api_get(out, id);
        else
            api_delete(out, id);
    } else if (!strcmp(action, "move")) {
        api_move(out, id, body, len);
    } else {
        api_engine(out, id, body, len);
    }
}

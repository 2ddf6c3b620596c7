/*
 * api_play.c -- the /api/play handlers (docs/api.md, "Play a friend"): create, lobby, join, the
 * game's state and its live stream, move, resign, abort, draw, takeback, rematch, chat, delete,
 * PDN.
 *
 * Live updates are Server-Sent Events plus ordinary POSTs for the actions: the board's analysis
 * already streams SSE through the same libmicrohttpd connections, EventSource reconnects by
 * itself after a dropped connection, and every POST passes the same Origin/Host checks and
 * limits as the rest of the API. A stream sends the whole state (as its viewer sees it) after
 * every change, so a client that reconnects never misses anything. Between changes a stream holds
 * no thread: it watches its game (play_watch) and parks its connection (stream_park), both under
 * the play lock, and the change wakes it under the same lock (web.h, stream_hook).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "apiutil.h"
#include "play.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A live stream of one game for one viewer. */
typedef struct play_live {
    char id[PLAY_ID_HEX + 1];
    char token[PLAY_TOKEN + 1];
    unsigned seen; /* the version last sent */
    int started, gone;
    int waited; /* parked since the last thing sent: a wake without a change sends a keep-alive */
    int slot;   /* where the game counts this stream (play_present), or -1 */
    char *buf;  /* the event being sent */
    size_t len, off;
    play_watcher watch; /* (play lock) its game's next change wakes hook */
    stream_hook hook;
} play_live;

static void live_wake(play_watcher *w)
{
    play_live *l = (play_live *)(void *)((char *)w - offsetof(play_live, watch));
    stream_wake(&l->hook);
}

/* The viewer's token, made (and sent as a cookie) when the request has none. */
static int ensure_token(reply *c, request *rq)
{
    if (rq->token[0])
        return 0;
    if (play_new_token(rq->token) != 0)
        return -1;
    memcpy(c->cookie, rq->token, sizeof c->cookie);
    return 0;
}

static int read_clock(const cJSON *body, play_new *n, char *err, size_t len)
{
    const cJSON *clk = cJSON_GetObjectItemCaseSensitive(body, "clock");
    n->clock = PLAY_CLOCK_NONE;
    if (!clk || cJSON_IsNull(clk))
        return 0;
    if (!cJSON_IsObject(clk)) {
        snprintf(err, len, "'clock' must be an object");
        return -1;
    }
    const char *type = NULL;
    double base = 0, inc = 0, days = 0;
    int has_base = 0, has_days = 0;
    if (cd_json_string(clk, "type", &type, err, len) ||
        cd_json_number(clk, "base", 1, 10800, 1, &base, &has_base, err, len) ||
        cd_json_number(clk, "increment", 0, 180, 1, &inc, NULL, err, len) ||
        cd_json_number(clk, "days", 1, 30, 1, &days, &has_days, err, len))
        return -1;
    if (!type || !strcmp(type, "none"))
        return 0;
    if (!strcmp(type, "realtime")) {
        if (!has_base) {
            snprintf(err, len, "a realtime clock needs 'base' (seconds)");
            return -1;
        }
        n->clock = PLAY_CLOCK_REALTIME;
        n->base_ms = (int64_t)base * 1000;
        n->inc_ms = (int64_t)inc * 1000;
        return 0;
    }
    if (!strcmp(type, "correspondence")) {
        n->clock = PLAY_CLOCK_CORRESPONDENCE;
        n->base_ms = (int64_t)(has_days ? days : 1) * 86400000;
        return 0;
    }
    snprintf(err, len, "'clock.type' must be \"none\", \"correspondence\" or \"realtime\"");
    return -1;
}

static enum MHD_Result play_create_api(reply *c, request *rq)
{
    char err[512] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *variant = "constitutional", *colour = NULL, *name = NULL;
    play_new n = {.colour = -1};
    const cJSON *open = cJSON_GetObjectItemCaseSensitive(body, "open");
    int bad = cd_json_string(body, "variant", &variant, err, sizeof err) ||
              cd_json_string(body, "colour", &colour, err, sizeof err) ||
              cd_json_string(body, "name", &name, err, sizeof err) ||
              read_clock(body, &n, err, sizeof err);
    if (!bad && open && !cJSON_IsBool(open) && !cJSON_IsNull(open))
        bad = snprintf(err, sizeof err, "'open' must be true or false") > 0;
    if (!bad && !(n.rules = cd_rules_find(variant)))
        bad = snprintf(err, sizeof err, "unknown variant '%.100s'", variant) > 0;
    if (!bad && colour) {
        if (!strcmp(colour, "white"))
            n.colour = CD_WHITE;
        else if (!strcmp(colour, "black"))
            n.colour = CD_BLACK;
        else if (strcmp(colour, "random"))
            bad = snprintf(err, sizeof err, "'colour' must be \"white\", \"black\" or \"random\"") >
                  0;
    }
    n.open = cJSON_IsTrue(open);
    n.name = name;
    if (bad) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    if (ensure_token(c, rq) != 0) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no random numbers for a secret");
    }
    n.addr = rq->addr;
    play_lock();
    play_game *g = NULL;
    int64_t retry_ms = 0;
    unsigned status = play_create(&n, rq->token, &g, &retry_ms, err, sizeof err);
    cJSON *j = status ? NULL : play_json(g, rq->token);
    play_unlock();
    cJSON_Delete(body);
    if (status == 503)
        return send_busy(c, err);
    if (status == 429)
        c->retry_after = (int)(retry_ms / 1000) + 1;
    return status ? send_error(c, status, "%s", err) : send_json(c, MHD_HTTP_CREATED, j);
}

/* Actions with a body {"name": ...} (optional) or {"action": ...} or {"move": ...} or
 * {"text": ...}. */
enum { A_JOIN, A_MOVE, A_RESIGN, A_ABORT, A_DRAW, A_TAKEBACK, A_REMATCH, A_CHAT };

/* The action act of token on g (arg: its body's field); 0 or an HTTP status with err set. */
static unsigned act_on(play_game *g, int act, const char *token, const char *arg, int64_t *retry_ms,
                       char *err, size_t len)
{
    switch (act) {
    case A_JOIN: return play_join(g, token, arg, err, len);
    case A_MOVE: return play_move_text(g, token, arg, err, len);
    case A_RESIGN: return play_resign(g, token, err, len);
    case A_ABORT: return play_abort(g, token, err, len);
    case A_DRAW: return play_draw(g, token, arg, err, len);
    case A_TAKEBACK: return play_takeback(g, token, arg, err, len);
    case A_REMATCH: return play_rematch(g, token, arg, err, len);
    default: return play_say(g, token, arg, retry_ms, err, len);
    }
}

static enum MHD_Result play_action(reply *c, const char *id, int act, request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, act == A_MOVE || act == A_CHAT, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *arg = NULL;
    const char *field = act == A_JOIN   ? "name"
                        : act == A_MOVE ? "move"
                        : act == A_CHAT ? "text"
                                        : "action";
    int64_t retry_ms = 0;
    if (cd_json_string(body, field, &arg, err, sizeof err) ||
        ((act == A_MOVE || act >= A_DRAW) && !arg &&
         snprintf(err, sizeof err, "'%s' is required", field) > 0)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    if (act == A_JOIN && ensure_token(c, rq) != 0) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "no random numbers for a secret");
    }
    play_lock();
    play_game *g = play_find(id);
    unsigned status = 404;
    if (!g) {
        snprintf(err, sizeof err, "unknown game");
    } else if (play_unanswered()) {
        status = 503;
        snprintf(err, sizeof err, "the games' database does not answer: try again shortly");
    } else {
        int64_t rev = g->rev;
        status = act_on(g, act, rq->token, arg, &retry_ms, err, sizeof err);
        /* judged on this server's copy, which a shared store's may lag: once more when refused */
        if (status && (g = play_recheck(id, rev, &status, err, sizeof err))) {
            err[0] = 0;
            retry_ms = 0;
            status = act_on(g, act, rq->token, arg, &retry_ms, err, sizeof err);
        }
    }
    g = status >= 500 ? NULL : play_find(id); /* a failed save may have freed it */
    /* the seat's shared render (play_json_text): the mover's own stream shows the same one */
    char *text = !status && g ? play_json_text(g, rq->token) : NULL;
    play_unlock();
    cJSON_Delete(body);
    if (status == 503)
        return send_busy(c, err);
    if (status == 429)
        c->retry_after = (int)(retry_ms / 1000) + 1;
    if (status || !text)
        return send_error(c, status ? status : g ? 500 : 404, "%s",
                          status ? err : g ? "out of memory" : "unknown game");
    return send_buffer(c, MHD_HTTP_OK, "application/json", text, strlen(text));
}

static enum MHD_Result play_get(reply *c, const char *id, const request *rq)
{
    play_lock();
    play_game *g = play_find(id);
    cJSON *j = g ? play_json(g, rq->token) : NULL;
    play_unlock();
    if (!g)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    return send_json(c, MHD_HTTP_OK, j);
}

static enum MHD_Result play_delete_api(reply *c, const char *id, const request *rq)
{
    char err[256] = "";
    play_lock();
    play_game *g = play_find(id);
    unsigned status = g ? play_delete(g, rq->token, err, sizeof err) : 404;
    play_unlock();
    if (status == 503)
        return send_busy(c, err);
    if (status)
        return send_error(c, status, "%s", g ? err : "unknown game");
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "ok", 1);
    return send_json(c, MHD_HTTP_OK, j);
}

static enum MHD_Result play_pdn_api(reply *c, const char *id)
{
    play_lock();
    play_game *g = play_find(id);
    size_t len = 0;
    char *text = g ? play_pdn(g, &len) : NULL;
    play_unlock();
    if (!g)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    if (!text)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return send_buffer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", text, len);
}

static enum MHD_Result play_positions_api(reply *c, const char *id)
{
    play_lock();
    play_game *g = play_find(id);
    cJSON *j = g ? play_positions_json(g) : NULL;
    play_unlock();
    if (!g)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    if (!j)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return send_json(c, MHD_HTTP_OK, j);
}

/* A query argument from lo to hi (def when absent); -1 when it is not such a number. */
static int query_int(query_fn query, void *qctx, const char *name, int lo, int hi, int def)
{
    const char *v = query ? query(qctx, name) : NULL;
    if (!v)
        return def;
    char *end;
    long n = strtol(v, &end, 10);
    return v[0] && !*end && n >= lo && n <= hi ? (int)n : -1;
}

static enum MHD_Result play_lobby_api(reply *c, query_fn query, void *qctx)
{
    int page = query_int(query, qctx, "page", 0, 1000000, 0);
    int per = query_int(query, qctx, "per", 1, 100, PLAY_LOBBY_PAGE);
    if (page < 0 || per < 0)
        return send_error(c, MHD_HTTP_BAD_REQUEST,
                          "'page' is a number from 0, 'per' a number from 1 to 100");
    play_lock();
    cJSON *j = play_lobby_json(page, per);
    play_unlock();
    return send_json(c, MHD_HTTP_OK, j);
}

/* ---------------------------------------------------------------- the live stream */

/* "event: EVENT\ndata: JSON\n\n" into l->buf (copied: a game's state is kilobytes, and every
 * stream of a game sends it after each move). */
static void live_event(play_live *l, const char *event, const char *json)
{
    static const char head[] = "event: ", mid[] = "\ndata: ", end[] = "\n\n";
    if (!json)
        json = "{}";
    size_t ne = strlen(event), nj = strlen(json);
    size_t len = sizeof head - 1 + ne + sizeof mid - 1 + nj + sizeof end - 1;
    free(l->buf);
    l->buf = malloc(len + 1);
    l->len = l->buf ? len : 0;
    l->off = 0;
    if (!l->buf)
        return;
    char *p = l->buf;
    memcpy(p, head, sizeof head - 1);
    p += sizeof head - 1;
    memcpy(p, event, ne);
    p += ne;
    memcpy(p, mid, sizeof mid - 1);
    p += sizeof mid - 1;
    memcpy(p, json, nj);
    p += nj;
    memcpy(p, end, sizeof end);
}

ssize_t play_live_read(void *cls, uint64_t pos, char *out, size_t max)
{
    (void)pos;
    play_live *l = cls;
    if (l->off >= l->len) {
        if (l->gone)
            return MHD_CONTENT_READER_END_OF_STREAM;
        play_lock();
        play_game *g = play_find(l->id);
        /* a change not yet on disk is not shown (play.h): the stream waits for it */
        int ready = g && play_synced(g);
        if (g && ((l->started && g->version == l->seen) || !ready) && !l->waited) {
            int parked = stream_park(&l->hook);
            if (parked) {
                play_watch(&l->watch);
                l->waited = 1;
            }
            play_unlock();
            return parked ? 0 : MHD_CONTENT_READER_END_OF_STREAM;
        }
        l->waited = 0;
        char *json = NULL;
        if (!g) {
            l->gone = 1;
            live_event(l, "gone", NULL);
        } else if (ready && (!l->started || g->version != l->seen)) {
            json = play_json_text(g, l->token);
            l->seen = g->version;
            l->started = 1;
        }
        play_unlock();
        if (json) {
            live_event(l, "state", json);
            free(json);
        } else if (!l->gone) {
            free(l->buf);
            l->buf = strdup(": keepalive\n\n");
            l->len = l->buf ? strlen(l->buf) : 0;
            l->off = 0;
        }
        if (!l->buf)
            return MHD_CONTENT_READER_END_WITH_ERROR;
    }
    size_t n = l->len - l->off;
    if (n > max)
        n = max;
    memcpy(out, l->buf + l->off, n);
    l->off += n;
    return (ssize_t)n;
}

void play_live_free(void *cls)
{
    play_live *l = cls;
    play_lock();
    play_unwatch(&l->watch);
    if (l->slot >= 0)
        play_absent(l->id, l->slot);
    play_unlock();
    stream_drop(&l->hook);
    free(l->buf);
    free(l);
}

static enum MHD_Result play_events(reply *c, const char *id, const request *rq)
{
    play_live *l = calloc(1, sizeof *l);
    if (!l)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    snprintf(l->id, sizeof l->id, "%s", id);
    memcpy(l->watch.id, l->id, sizeof l->watch.id);
    l->watch.wake = live_wake;
    memcpy(l->token, rq->token, sizeof l->token);
    play_lock();
    l->slot = play_present(id, l->token);
    play_unlock();
    if (l->slot < 0) {
        free(l);
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    }
    c->status = MHD_HTTP_OK;
    c->type = "text/event-stream";
    c->live = l;
    c->hook = &l->hook;
    return MHD_YES;
}

/* ---------------------------------------------------------------- routing */

enum MHD_Result api_play(reply *c, const char *path, const char *method, request *rq,
                         query_fn query, void *qctx)
{
    int get = !strcmp(method, "GET") || !strcmp(method, "HEAD");
    int post = !strcmp(method, "POST"), del = !strcmp(method, "DELETE");
    if (!path[0] || !strcmp(path, "/"))
        return post ? play_create_api(c, rq) : send_405(c, "POST");
    if (!strcmp(path, "/lobby"))
        return get ? play_lobby_api(c, query, qctx) : send_405(c, "GET");
    const char *idp = path + 1;
    const char *slash = strchr(idp, '/');
    size_t n = slash ? (size_t)(slash - idp) : strlen(idp);
    const char *action = slash ? slash + 1 : "";
    char id[PLAY_ID_HEX + 1];
    if (n != PLAY_ID_HEX || strspn(idp, "0123456789abcdef") < n)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    memcpy(id, idp, n);
    id[n] = 0;
    if (!action[0]) {
        if (get)
            return play_get(c, id, rq);
        return del ? play_delete_api(c, id, rq) : send_405(c, "GET, DELETE");
    }
    if (!strcmp(action, "events"))
        return get ? play_events(c, id, rq) : send_405(c, "GET");
    if (!strcmp(action, "pdn"))
        return get ? play_pdn_api(c, id) : send_405(c, "GET");
    if (!strcmp(action, "positions"))
        return get ? play_positions_api(c, id) : send_405(c, "GET");
    static const char *const actions[] = {"join", "move",     "resign",  "abort",
                                          "draw", "takeback", "rematch", "chat"};
    for (int i = 0; i < (int)(sizeof actions / sizeof actions[0]); i++)
        if (!strcmp(action, actions[i]))
            return post ? play_action(c, id, i, rq) : send_405(c, "POST");
    return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route");
}

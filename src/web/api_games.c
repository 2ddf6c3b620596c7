/*
 * api_games.c -- the /api/games handlers (docs/api.md): variants, list, create, import, get,
 * delete, PDN export, move, undo, engine and hint. Each takes the parsed request and fills a
 * reply; a request that fails never changes a game.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "apiutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---------------------------------------------------------------- API handlers */

enum MHD_Result api_variants(reply *c)
{
    cJSON *a = cJSON_CreateArray();
    for (int i = 0; cd_rules_at(i); i++) {
        const cd_rules *r = cd_rules_at(i);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", r->name);
        cJSON_AddStringToObject(o, "title", r->title);
        cJSON_AddNumberToObject(o, "width", cd_rules_width(r));
        cJSON_AddNumberToObject(o, "height", cd_rules_height(r));
        cJSON_AddNumberToObject(o, "squares", cd_rules_squares(r));
        cJSON_AddBoolToObject(o, "algebraic", (r->flags & CD_RULE_ALGEBRAIC) != 0);
        cJSON_AddBoolToObject(o, "mirrored", (r->flags & CD_RULE_MIRRORED) != 0);
        cJSON_AddBoolToObject(o, "constitutional", (r->flags & CD_RULE_CONSTITUTIONAL) != 0);
        cJSON_AddItemToArray(a, o);
    }
    return send_json(c, MHD_HTTP_OK, a);
}

enum MHD_Result api_list(reply *c)
{
    cJSON *a = cJSON_CreateArray();
    srv_lock();
    for (web_game *w = srv.games; w; w = w->next) {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", w->id);
        cJSON_AddStringToObject(o, "variant", game_rules(w->game)->name);
        cJSON_AddStringToObject(o, "status", status_name(cd_game_status(w->game, NULL)));
        cJSON_AddNumberToObject(o, "ply", cd_game_ply(w->game));
        cJSON_AddItemToArray(a, o);
    }
    srv_unlock();
    return send_json(c, MHD_HTTP_OK, a);
}

#define NOT_OWNER "this board belongs to another browser (its cd_player cookie)"

/* Save w after a change: 0, or (the file could not be written) w's game put back as `before`
 * was (NULL: w taken out of the table and freed, a new game) and 507 (the disk is full) or 500,
 * err set: nothing is claimed as saved. `before` is freed or taken either way. */
static unsigned saved(web_game *w, cd_game *before, char *err, size_t len)
{
    int rc = save_game(w);
    if (rc == 0) {
        cd_game_free(before);
        return 0;
    }
    snprintf(err, len, "the game could not be saved%s", rc == -2 ? " (the disk is full)" : "");
    if (!before) {
        for (web_game **pp = &srv.games; *pp; pp = &(*pp)->next)
            if (*pp == w) {
                *pp = w->next;
                srv.ngames--;
                break;
            }
        free_game(w);
    } else {
        cd_game_free(w->game);
        w->game = before;
        w->version++;
        w->has_last = 0;
    }
    return rc == -2 ? MHD_HTTP_INSUFFICIENT_STORAGE : MHD_HTTP_INTERNAL_SERVER_ERROR;
}

/* Register a new game (takes g) and reply with it (201); orig (owned, may be NULL): the tags of
 * an imported game; warning (may be NULL or empty): the reader's warning, sent as "warning". */
static enum MHD_Result add_game(reply *c, cd_game *g, int human, int level, cd_pdn_tags *orig,
                                const char *warning, const request *rq)
{
    web_game *w = calloc(1, sizeof *w);
    if (!w) {
        cd_game_free(g);
        free(orig);
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    }
    w->orig = orig;
    w->game = g;
    w->human = human;
    w->level = level;
    memcpy(w->owner, rq->token, sizeof w->owner);
    srv_lock();
    if (srv.ngames >= MAX_GAMES) {
        srv_unlock();
        free_game(w);
        return send_busy(c, "too many games (delete some)");
    }
    do
        cd_api_random_id(w->id, ID_HEX);
    while (find_game(w->id));
    w->next = srv.games;
    srv.games = w;
    srv.ngames++;
    char err[128];
    unsigned status = saved(w, NULL, err, sizeof err);
    egtb_query q;
    cJSON *j = status ? NULL : game_json(w, &q);
    srv_unlock();
    if (status)
        return send_error(c, status, "%s", err);
    egtb_fill(j, &q);
    if (j && warning && warning[0])
        cJSON_AddStringToObject(j, "warning", warning);
    return send_json(c, MHD_HTTP_CREATED, j);
}

/* "human" and "level" fields shared by create and import. */
static int read_player_opts(const cJSON *body, int *human, int *level, char *err, size_t errlen)
{
    const char *h = NULL;
    double lv = 0;
    int has_level = 0;
    if (cd_json_string(body, "human", &h, err, errlen))
        return -1;
    if (h && (*human = parse_human(h)) < 0) {
        snprintf(err, errlen, "'human' must be \"white\", \"black\", \"both\" or \"none\"");
        return -1;
    }
    if (cd_json_number(body, "level", 1, 10, 1, &lv, &has_level, err, errlen))
        return -1;
    if (has_level)
        *level = (int)lv;
    return 0;
}

enum MHD_Result api_create(reply *c, const request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *variant = "constitutional", *fen = NULL;
    int human = HUMAN_WHITE, level = 3;
    if (cd_json_string(body, "variant", &variant, err, sizeof err) ||
        cd_json_string(body, "fen", &fen, err, sizeof err) ||
        read_player_opts(body, &human, &level, err, sizeof err)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    const cd_rules *r = cd_rules_find(variant);
    if (!r) {
        enum MHD_Result ret = send_error(c, MHD_HTTP_BAD_REQUEST, "unknown variant '%s'", variant);
        cJSON_Delete(body);
        return ret;
    }
    cd_position pos;
    if (fen && cd_position_from_fen(&pos, r, fen, err, sizeof err) != CD_OK) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err[0] ? err : "bad FEN");
    }
    cJSON_Delete(body);
    cd_game *g = cd_game_new(r, fen ? &pos : NULL);
    if (!g)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return add_game(c, g, human, level, NULL, NULL, rq);
}

enum MHD_Result api_import(reply *c, const request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 1, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *pdn = NULL, *variant = NULL;
    int human = HUMAN_WHITE, level = 3;
    if (cd_json_string(body, "pdn", &pdn, err, sizeof err) ||
        cd_json_string(body, "variant", &variant, err, sizeof err) ||
        read_player_opts(body, &human, &level, err, sizeof err) ||
        (!pdn && snprintf(err, sizeof err, "'pdn' is required") > 0)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    /* "variant": the rules of a PDN without GameType/Variant tags (the tags win) */
    const cd_rules *rules = variant ? cd_rules_find(variant) : NULL;
    if (variant && !rules) {
        snprintf(err, sizeof err, "unknown variant '%.200s'", variant);
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    cd_game *g = NULL;
    size_t pos = 0;
    cd_pdn_tags *tags = malloc(sizeof *tags);
    cd_result r = tags ? cd_pdn_read(pdn, &pos, rules, &g, tags, err, sizeof err) : CD_ERR_ARG;
    cJSON_Delete(body);
    if (r != CD_OK || !g) {
        cd_game_free(g);
        free(tags);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s",
                          r != CD_OK ? (err[0] ? err : cd_result_str(r)) : "no game in the PDN");
    }
    cd_pdn_tag_set(tags, "Owner", NULL); /* the server's own tag: never taken from a file */
    return add_game(c, g, human, level, tags, err, rq);
}

enum MHD_Result api_get(reply *c, const char *id)
{
    srv_lock();
    web_game *w = find_game(id);
    egtb_query q = {.probe = 0};
    cJSON *j = w ? game_json(w, &q) : NULL;
    srv_unlock();
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    egtb_fill(j, &q);
    return send_json(c, MHD_HTTP_OK, j);
}

enum MHD_Result api_delete(reply *c, const char *id, const request *rq)
{
    srv_lock();
    web_game **pp = &srv.games;
    while (*pp && strcmp((*pp)->id, id))
        pp = &(*pp)->next;
    web_game *w = *pp;
    if (w && !owner_ok(w, rq->token)) {
        srv_unlock();
        return send_error(c, MHD_HTTP_FORBIDDEN, "%s", NOT_OWNER);
    }
    if (w) {
        *pp = w->next;
        srv.ngames--;
        if (srv.persist) {
            char path[4200];
            game_path(id, 0, path, sizeof path);
            unlink(path);
        }
        free_game(w);
    }
    srv_unlock();
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    cJSON *j = cJSON_CreateObject();
    cJSON_AddBoolToObject(j, "ok", 1);
    return send_json(c, MHD_HTTP_OK, j);
}

enum MHD_Result api_pdn(reply *c, const char *id)
{
    srv_lock();
    web_game *w = find_game(id);
    char *buf = NULL;
    size_t need = 0;
    if (w) {
        cd_pdn_tags *tags = make_tags(w, 0);
        need = cd_pdn_write(w->game, tags, NULL, 0);
        buf = malloc(need + 1);
        if (buf)
            cd_pdn_write(w->game, tags, buf, need + 1);
        free(tags);
    }
    srv_unlock();
    if (!w)
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown game");
    if (!buf)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
    return send_buffer(c, MHD_HTTP_OK, "text/plain; charset=utf-8", buf, need);
}

/* With srv.lock held: game id if the browser of rq may change it, else NULL with *status (404 an
 * unknown game, 403 another browser's) and err set. */
static web_game *writable_game(const char *id, const request *rq, unsigned *status, char *err,
                               size_t errlen)
{
    web_game *w = find_game(id);
    if (!w) {
        *status = MHD_HTTP_NOT_FOUND;
        snprintf(err, errlen, "unknown game");
    } else if (!owner_ok(w, rq->token)) {
        *status = MHD_HTTP_FORBIDDEN;
        snprintf(err, errlen, "%s", NOT_OWNER);
        return NULL;
    }
    return w;
}

enum MHD_Result api_move(reply *c, const char *id, const request *rq)
{
    char err[2048] = "";
    cJSON *body = parse_body(rq, 1, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    const char *text = NULL;
    if (cd_json_string(body, "move", &text, err, sizeof err) ||
        (!text && snprintf(err, sizeof err, "'move' is required") > 0)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    unsigned status = MHD_HTTP_OK;
    cJSON *j = NULL;
    egtb_query q = {.probe = 0};
    srv_lock();
    web_game *w = writable_game(id, rq, &status, err, sizeof err);
    if (w && cd_game_status(w->game, NULL) != CD_ONGOING) {
        status = MHD_HTTP_CONFLICT;
        snprintf(err, sizeof err, "the game is over");
    } else if (w) {
        cd_game *before = copy_game(w->game);
        cd_result r = before ? cd_game_play_text(w->game, text, err, sizeof err) : CD_ERR_ARG;
        if (!before) {
            status = MHD_HTTP_INTERNAL_SERVER_ERROR;
            snprintf(err, sizeof err, "out of memory");
        } else if (r != CD_OK) {
            cd_game_free(before);
            status = MHD_HTTP_BAD_REQUEST;
            if (!err[0])
                snprintf(err, sizeof err, "%s", cd_result_str(r));
        } else {
            w->version++;
            w->has_last = 0;
            status = saved(w, before, err, sizeof err);
            j = status ? NULL : game_json(w, &q);
            status = status ? status : MHD_HTTP_OK;
        }
    }
    srv_unlock();
    cJSON_Delete(body);
    if (!j)
        return send_error(c, status, "%s", err);
    egtb_fill(j, &q);
    return send_json(c, status, j);
}

enum MHD_Result api_undo(reply *c, const char *id, const request *rq)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    double plies = 1;
    if (!body || cd_json_number(body, "plies", 0, 100000, 1, &plies, NULL, err, sizeof err)) {
        cJSON_Delete(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    cJSON_Delete(body);
    unsigned status = MHD_HTTP_OK;
    srv_lock();
    web_game *w = writable_game(id, rq, &status, err, sizeof err);
    cJSON *j = NULL;
    egtb_query q = {.probe = 0};
    cd_game *before = w ? copy_game(w->game) : NULL;
    if (w && !before) {
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        snprintf(err, sizeof err, "out of memory");
    } else if (w) {
        int n = 0;
        for (int i = 0; i < (int)plies && cd_game_undo(w->game); i++)
            n++;
        unsigned fail = 0;
        if (n || plies == 0) {
            w->version++;
            w->has_last = 0;
            fail = saved(w, before, err, sizeof err);
        } else {
            cd_game_free(before);
        }
        status = fail ? fail : status;
        j = fail ? NULL : game_json(w, &q);
    }
    srv_unlock();
    if (!j)
        return send_error(c, status, "%s", err);
    egtb_fill(j, &q);
    return send_json(c, MHD_HTTP_OK, j);
}

/* /engine (play = 1) and /hint (play = 0). The engine's move is the opening book's, at once and
 * without a search slot, while the game is in a book (book_move); a hint is always a search, its
 * score and depth those of the limits asked for (docs/book.md). */
enum MHD_Result api_search(reply *c, const char *id, const request *rq, int play)
{
    char err[1024] = "";
    cJSON *body = parse_body(rq, 0, err, sizeof err);
    if (!body)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    cd_game *copy = NULL;
    unsigned version = 0;
    int level = 3;
    snap_result sr = snapshot(id, &copy, &version, &level);
    if (sr != SNAP_OK) {
        cJSON_Delete(body);
        return snapshot_error(c, sr);
    }
    search_opts so;
    int bad = read_search_opts(body, level, play ? MAX_SEARCH : 2.0, &so, err, sizeof err);
    cJSON_Delete(body);
    if (bad) {
        cd_game_free(copy);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "%s", err);
    }
    cd_search_result res;
    memset(&res, 0, sizeof res);
    cd_book_move bm;
    int from_book = play && book_move(cd_game_position(copy), &bm);
    cd_limits lim;
    set_limits(&so, &lim);
    /* The computer's only legal move (a forced capture) is its answer at once: with a fixed time
     * a move the engine searches even a single move to the limit (search.c), which the player
     * would wait out; one ply still gives the move's score. */
    if (play && cd_count_moves(cd_game_position(copy)) == 1)
        lim.depth = 1;
    cd_result r = CD_OK;
    if (from_book) {
        res.best = bm.move;
        res.score = bm.score;
        res.depth = bm.depth;
        res.has_move = 1;
    } else {
        if (!search_begin()) {
            cd_game_free(copy);
            return send_busy(c, "the engine is busy (too many searches at once)");
        }
        cd_engine *e = engine_take(play ? CD_PLAY_CONTEMPT : 0);
        if (!e) {
            search_end();
            cd_game_free(copy);
            return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "out of memory");
        }
        cd_engine_set_egtb(e, egtb_for(game_rules(copy)));
        r = cd_search(e, copy, &lim, NULL, NULL, &res);
        engine_give(e);
        search_end();
    }
    char text[256] = "", hub[256] = "";
    if (r == CD_OK && res.has_move) {
        cd_move_to_text(cd_game_position(copy), &res.best, -1, text, sizeof text);
        cd_move_to_hub(cd_game_position(copy), &res.best, hub, sizeof hub);
    }
    cd_game_free(copy);
    if (r != CD_OK || !res.has_move)
        return send_error(c, MHD_HTTP_CONFLICT, "the engine found no move (the game is over)");

    if (!play) {
        cJSON *j = cJSON_CreateObject();
        cJSON_AddStringToObject(j, "move", text);
        cJSON_AddStringToObject(j, "hub", hub);
        cJSON_AddNumberToObject(j, "score", res.score);
        cJSON_AddNumberToObject(j, "depth", res.depth);
        return send_json(c, MHD_HTTP_OK, j);
    }

    unsigned status = MHD_HTTP_OK;
    cJSON *j = NULL;
    egtb_query q = {.probe = 0};
    srv_lock();
    web_game *w = writable_game(id, rq, &status, err, sizeof err);
    cd_game *before = w && w->version == version ? copy_game(w->game) : NULL;
    if (w && w->version != version) {
        status = MHD_HTTP_CONFLICT;
        snprintf(err, sizeof err, "the game changed during the search");
    } else if (w && (!before || cd_game_play(w->game, &res.best) != CD_OK)) {
        cd_game_free(before);
        status = MHD_HTTP_INTERNAL_SERVER_ERROR;
        snprintf(err, sizeof err, "the engine's move could not be played");
    } else if (w) {
        w->version++;
        w->has_last = 1;
        snprintf(w->last_move, sizeof w->last_move, "%s", text);
        w->last_score = res.score;
        w->last_depth = res.depth;
        w->last_nodes = res.nodes;
        w->last_time = res.time;
        w->last_book = from_book;
        unsigned fail = saved(w, before, err, sizeof err);
        status = fail ? fail : status;
        j = fail ? NULL : game_json(w, &q);
    }
    srv_unlock();
    if (!j)
        return send_error(c, status, "%s", err);
    egtb_fill(j, &q);
    return send_json(c, status, j);
}

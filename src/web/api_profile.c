/*
 * api_profile.c -- the players' pages (docs/api.md, "Players"): a player's profile (its records
 * and ratings per variant, its finished games, newest first, a page at a time), the players of a
 * finished game, and a leaderboard per variant. Read from the store (store.h, profile.h) under
 * play_lock(); each answer is a few indexed queries, whatever the number of games stored.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "profile.h"
#include "store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PROFILE_VARIANTS 64 /* records a profile shows (one a variant: more than there are) */

static const char *const colours[2] = {"white", "black"};
static const char *const results[3] = {"loss", "draw", "win"};
static const char *const endings[] = {
    "", "", "resignation", "time", "time (the other side cannot win)", "agreement", "aborted"};

/* ?page=: 1 when absent, 0 when it is not a number from 1 to PROFILE_PAGES. */
static int page_arg(query_fn query, void *qctx)
{
    const char *v = query ? query(qctx, "page") : NULL;
    if (!v)
        return 1;
    char *end;
    long n = strtol(v, &end, 10);
    return v[0] && !*end && n >= 1 && n <= PROFILE_PAGES ? (int)n : 0;
}

static enum MHD_Result bad_page(reply *c)
{
    return send_error(c, MHD_HTTP_BAD_REQUEST, "'page' is a number from 1 to %d", PROFILE_PAGES);
}

/* ?before= or ?after= (which: its name), a place in a player's games as "ENDED.ID" (an end in ms
 * and a game's id), into *at: 1, 0 when absent, -1 when malformed. */
static int cursor_arg(query_fn query, void *qctx, const char *which, profile_cursor *at)
{
    const char *v = query ? query(qctx, which) : NULL;
    if (!v)
        return 0;
    char *dot;
    long long ended = strtoll(v, &dot, 10);
    if (dot == v || v[0] < '0' || v[0] > '9' || *dot != '.' || strlen(dot + 1) != PLAY_ID_HEX ||
        strspn(dot + 1, "0123456789abcdef") != PLAY_ID_HEX || ended < 0)
        return -1;
    at->ended = ended;
    memcpy(at->game, dot + 1, PLAY_ID_HEX + 1);
    return 1;
}

/* o[key]: the place of row r ("ENDED.ID": cursor_arg), or null (r NULL). */
static void add_cursor(cJSON *o, const char *key, const profile_result *r)
{
    char text[32 + PLAY_ID_HEX];
    if (!r) {
        cJSON_AddNullToObject(o, key);
        return;
    }
    snprintf(text, sizeof text, "%lld.%s", (long long)r->ended, r->game);
    cJSON_AddStringToObject(o, key, text);
}

static double rounded(double x) { return (double)(long)(x + 0.5); }

static void add_rating(cJSON *o, glicko r)
{
    if (r.rating > 0) {
        cJSON_AddNumberToObject(o, "rating", rounded(r.rating));
        cJSON_AddNumberToObject(o, "rd", rounded(r.rd));
        cJSON_AddBoolToObject(o, "provisional", r.rd > GLICKO_PROVISIONAL_RD);
    } else {
        cJSON_AddNullToObject(o, "rating");
        cJSON_AddNullToObject(o, "rd");
        cJSON_AddBoolToObject(o, "provisional", 0);
    }
}

/* Rating g, last changed at `at` (ms; 0: never), as it stands at `now`: its deviation grown by the
 * whole days since (glicko_idle). */
static glicko rating_now(glicko g, int64_t at, int64_t now)
{
    if (g.rating > 0 && at > 0 && now - at >= GLICKO_PERIOD_MS)
        g = glicko_idle(g, (double)((now - at) / GLICKO_PERIOD_MS));
    return g;
}

static cJSON *result_json(const profile_result *r)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", r->game);
    cJSON_AddStringToObject(o, "variant", r->variant);
    cJSON_AddNumberToObject(o, "ended", (double)r->ended);
    cJSON_AddStringToObject(o, "colour", colours[r->colour & 1]);
    cJSON_AddStringToObject(o, "result", results[r->score >= 0 && r->score <= 2 ? r->score : 1]);
    cJSON_AddStringToObject(o, "end",
                            r->ending >= 0 && r->ending <= END_ABORTED ? endings[r->ending] : "");
    cJSON_AddNumberToObject(o, "plies", r->plies);
    cJSON_AddItemToObject(o, "opponent", profile_who_json(r->opponent, r->opponent_name));
    if (r->rating > 0)
        cJSON_AddNumberToObject(o, "rating", rounded(r->rating));
    else
        cJSON_AddNullToObject(o, "rating");
    if (r->rating > 0 && r->after > 0)
        cJSON_AddNumberToObject(o, "rating_change", rounded(r->after) - rounded(r->rating));
    else
        cJSON_AddNullToObject(o, "rating_change");
    return o;
}

/* The key of the player named key_text in a URL: an account's name, "~" and a browser's public
 * id, or "me" (the player whose token the request carries: token, "" none) into key. 0, or an
 * HTTP status with err set. */
static unsigned player_key(const char *key_text, const char *token, char *key, char *err,
                           size_t len)
{
    char me[PROFILE_KEY];
    if (!strcmp(key_text, "me")) { /* 2 letters: never an account's name (3 at least) */
        if (!token[0]) {
            snprintf(err, len, "no player: this browser has no token yet");
            return MHD_HTTP_NOT_FOUND;
        }
        char player[PROFILE_KEY];
        play_lock();
        store_player(token, player, sizeof player);
        play_unlock();
        profile_key(player, me);
        key_text = me[0] == '@' ? me + 1 : me;
    }
    if (key_text[0] == '~') {
        if (!profile_key_ok(key_text)) {
            snprintf(err, len, "a browser's id is '~' and %d lowercase hex digits", PROFILE_ID);
            return MHD_HTTP_BAD_REQUEST;
        }
        snprintf(key, PROFILE_KEY, "%s", key_text);
        return 0;
    }
    char hash[256], canonical[PLAY_NAME_BYTES + 1];
    int found = 0;
    if (strlen(key_text) <= PLAY_NAME_BYTES) {
        play_lock();
        found = store_account_hash(key_text, hash, sizeof hash, canonical, sizeof canonical) == 1;
        play_unlock();
    }
    if (!found) {
        if (strlen(key_text) > PLAY_NAME_BYTES)
            snprintf(err, len, "no such player");
        else
            snprintf(err, len, "no such player: '%s'", key_text);
        return MHD_HTTP_NOT_FOUND;
    }
    snprintf(key, PROFILE_KEY, "@%s", canonical);
    return 0;
}

/* GET /api/players/KEY (player_key): a page of its games by ?page=N (by the offset: a deep page
 * costs its depth), or from a place in them, ?before= (the older games) or ?after= (the newer),
 * at the cost of the first page whatever the depth. */
static enum MHD_Result profile(reply *c, const char *key_text, const char *token, query_fn query,
                               void *qctx)
{
    int page = page_arg(query, qctx);
    if (!page)
        return bad_page(c);
    profile_cursor at;
    int before = cursor_arg(query, qctx, "before", &at), after = 0;
    if (before == 0)
        after = cursor_arg(query, qctx, "after", &at);
    if (before < 0 || after < 0 || (before && query(qctx, "after")) ||
        ((before || after) && query(qctx, "page")))
        return send_error(c, MHD_HTTP_BAD_REQUEST,
                          "'before' and 'after' are a game's place, ENDED.ID (the 'older' and "
                          "'newer' of an answer), one of them, without 'page'");
    char key[PROFILE_KEY], name[PLAY_NAME_BYTES + 1] = "", err[PLAY_NAME_BYTES + 64];
    unsigned status = player_key(key_text, token, key, err, sizeof err);
    if (status)
        return send_error(c, status, "%s", err);
    profile_record rec[PROFILE_VARIANTS];
    profile_result rows[PROFILE_PAGE + 1]; /* one more: are there more? */
    play_lock();
    int nrec = store_records(key, rec, PROFILE_VARIANTS);
    int nrows = nrec < 0                 ? -1
                : before || after ? store_results_from(key, &at, before, PROFILE_PAGE + 1, rows)
                                  : store_results(key, (page - 1) * PROFILE_PAGE, PROFILE_PAGE + 1,
                                                  rows);
    profile_result latest;
    if (key[0] == '~' && nrec > 0 && store_results(key, 0, 1, &latest) == 1)
        snprintf(name, sizeof name, "%s", latest.name);
    play_unlock();
    if (nrec < 0 || nrows < 0)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the store cannot be read");
    if (key[0] == '~' && nrec == 0 && strcmp(key_text, "me")) /* "me": its empty profile */
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such player (no finished game): '%s'",
                          key_text);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "player", profile_who_json(key, name));
    cJSON *recs = cJSON_AddArrayToObject(o, "records");
    long wins = 0, draws = 0, losses = 0;
    int64_t now = play_now();
    for (int i = 0; i < nrec; i++) {
        const profile_record *r = &rec[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "variant", r->variant);
        cJSON_AddNumberToObject(e, "games", r->wins + r->draws + r->losses);
        cJSON_AddNumberToObject(e, "wins", r->wins);
        cJSON_AddNumberToObject(e, "draws", r->draws);
        cJSON_AddNumberToObject(e, "losses", r->losses);
        add_rating(e, rating_now(r->rating, r->at, now));
        cJSON_AddItemToArray(recs, e);
        wins += r->wins;
        draws += r->draws;
        losses += r->losses;
    }
    long games = wins + draws + losses;
    cJSON_AddNumberToObject(o, "games", (double)games);
    cJSON_AddNumberToObject(o, "wins", (double)wins);
    cJSON_AddNumberToObject(o, "draws", (double)draws);
    cJSON_AddNumberToObject(o, "losses", (double)losses);
    int more = nrows > PROFILE_PAGE; /* beyond the page, in the direction read */
    nrows = more ? PROFILE_PAGE : nrows;
    if (after) /* read nearest first: shown newest first */
        for (int i = 0, j = nrows - 1; i < j; i++, j--) {
            profile_result t = rows[i];
            rows[i] = rows[j];
            rows[j] = t;
        }
    if (before || after)
        cJSON_AddNullToObject(o, "page");
    else
        cJSON_AddNumberToObject(o, "page", page);
    cJSON_AddNumberToObject(o, "per", PROFILE_PAGE);
    cJSON_AddNumberToObject(o, "pages", (double)((games + PROFILE_PAGE - 1) / PROFILE_PAGE));
    /* the places of the pages around: newer ones are there unless this is the first (or it was
     * read newer-ward and found no more), older ones when one more row was read older-ward (or
     * it was read newer-ward) */
    int newer = nrows > 0 && (after ? more : before || page > 1);
    int older = nrows > 0 && (after || more);
    add_cursor(o, "newer", newer ? &rows[0] : NULL);
    add_cursor(o, "older", older ? &rows[nrows - 1] : NULL);
    cJSON *list = cJSON_AddArrayToObject(o, "list");
    for (int i = 0; i < nrows; i++)
        cJSON_AddItemToArray(list, result_json(&rows[i]));
    return send_json(c, MHD_HTTP_OK, o);
}

/* GET /api/players/KEY/ratings?variant=V: the player's rating after each of its latest
 * PROFILE_POINTS rated games in V, oldest first. */
static enum MHD_Result ratings(reply *c, const char *key_text, const char *token, query_fn query,
                               void *qctx)
{
    const char *variant = query ? query(qctx, "variant") : NULL;
    if (!variant || !variant[0])
        return send_error(c, MHD_HTTP_BAD_REQUEST, "'variant' is required (GET /api/variants)");
    const cd_rules *rules = cd_rules_find(variant);
    if (!rules)
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such variant: '%s' (GET /api/variants)",
                          variant);
    char key[PROFILE_KEY], err[PLAY_NAME_BYTES + 64];
    unsigned status = player_key(key_text, token, key, err, sizeof err);
    if (status)
        return send_error(c, status, "%s", err);
    profile_point pts[PROFILE_POINTS];
    profile_record rec[1];
    play_lock();
    int known = key[0] == '@' ? 1 : store_records(key, rec, 1);
    int n = known > 0 ? store_history(key, rules->name, PROFILE_POINTS, pts) : 0;
    play_unlock();
    if (known < 0 || n < 0)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the store cannot be read");
    if (!known)
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such player (no finished game): '%s'",
                          key_text);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", rules->name);
    cJSON *list = cJSON_AddArrayToObject(o, "points");
    for (int i = n - 1; i >= 0; i--) {
        cJSON *e = cJSON_CreateArray();
        cJSON_AddItemToArray(e, cJSON_CreateNumber((double)pts[i].at));
        cJSON_AddItemToArray(e, cJSON_CreateNumber(rounded(pts[i].rating)));
        cJSON_AddItemToArray(list, e);
    }
    return send_json(c, MHD_HTTP_OK, o);
}

/* GET /api/players?game=ID: who played the finished game ID. */
static enum MHD_Result game_players(reply *c, query_fn query, void *qctx)
{
    const char *id = query ? query(qctx, "game") : NULL;
    if (!id || !id[0])
        return send_error(c, MHD_HTTP_BAD_REQUEST, "'game' (a game's id) is required");
    if (strlen(id) != PLAY_ID_HEX || strspn(id, "0123456789abcdef") != PLAY_ID_HEX)
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such finished game: '%s'", id);
    profile_result rows[2];
    play_lock();
    int n = store_game_results(id, rows);
    play_unlock();
    if (n < 0)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the store cannot be read");
    if (n != 2)
        return send_error(c, MHD_HTTP_NOT_FOUND,
                          "no such finished game: '%s' (not over, aborted, or none)", id);
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", id);
    for (int k = 0; k < 2; k++)
        cJSON_AddItemToObject(o, colours[k], profile_who_json(rows[k].player, rows[k].name));
    return send_json(c, MHD_HTTP_OK, o);
}

/* GET /api/leaderboard/VARIANT. */
static enum MHD_Result leaderboard(reply *c, const char *variant, query_fn query, void *qctx)
{
    const cd_rules *rules = cd_rules_find(variant);
    if (!rules)
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such variant: '%s' (GET /api/variants)",
                          variant);
    int page = page_arg(query, qctx);
    if (!page)
        return bad_page(c);
    profile_rank rows[PROFILE_PAGE];
    int64_t total = 0, now = play_now();
    play_lock();
    int n = store_board(rules->name, now, (page - 1) * PROFILE_PAGE, PROFILE_PAGE, rows, &total);
    play_unlock();
    if (n < 0)
        return send_error(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "the store cannot be read");
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "variant", rules->name);
    cJSON_AddNumberToObject(o, "page", page);
    cJSON_AddNumberToObject(o, "per", PROFILE_PAGE);
    cJSON_AddNumberToObject(o, "total", (double)total);
    cJSON_AddNumberToObject(o, "pages", (double)((total + PROFILE_PAGE - 1) / PROFILE_PAGE));
    cJSON *list = cJSON_AddArrayToObject(o, "list");
    for (int i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "rank", (page - 1) * PROFILE_PAGE + i + 1);
        cJSON_AddStringToObject(e, "name", rows[i].name);
        add_rating(e, rating_now(rows[i].rating, rows[i].at, now));
        cJSON_AddNumberToObject(e, "games", rows[i].games);
        cJSON_AddItemToArray(list, e);
    }
    return send_json(c, MHD_HTTP_OK, o);
}

enum MHD_Result api_players(reply *c, const char *path, const char *method, const request *rq,
                            query_fn query, void *qctx)
{
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return send_405(c, "GET, HEAD");
    if (!play_stored())
        return send_error(c, MHD_HTTP_NOT_FOUND, "this server keeps no games (no store)");
    if (!strcmp(path, "") || !strcmp(path, "/"))
        return game_players(c, query, qctx);
    char key_text[PROFILE_KEY + 8];
    const char *slash = strchr(path + 1, '/');
    size_t n = slash ? (size_t)(slash - path - 1) : strlen(path + 1);
    if (n >= sizeof key_text)
        return send_error(c, MHD_HTTP_NOT_FOUND, "no such player");
    memcpy(key_text, path + 1, n);
    key_text[n] = 0;
    if (!slash)
        return profile(c, key_text, rq->token, query, qctx);
    if (!strcmp(slash, "/ratings"))
        return ratings(c, key_text, rq->token, query, qctx);
    return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route: /api/players/PLAYER[/ratings]");
}

enum MHD_Result api_leaderboard(reply *c, const char *path, const char *method, query_fn query,
                                void *qctx)
{
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return send_405(c, "GET, HEAD");
    if (!play_stored())
        return send_error(c, MHD_HTTP_NOT_FOUND, "this server keeps no games (no store)");
    if (path[0] != '/' || !path[1] || strchr(path + 1, '/'))
        return send_error(c, MHD_HTTP_NOT_FOUND, "unknown route: /api/leaderboard/VARIANT");
    return leaderboard(c, path + 1, query, qctx);
}

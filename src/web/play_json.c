/*
 * play_json.c -- what the API shows of games between people (docs/api.md, "Play a friend"): a
 * game as one viewer sees it (which seat is theirs, never a token; the players' chat), the lobby,
 * every position of a game (to step through it), and the PDN
 * export with the players' names, the time control and how the game ended.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "play.h"
#include "profile.h"
#include "web.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const colour_names[2] = {"white", "black"};
static const char *const state_names[3] = {"waiting", "ongoing", "over"};
static const char *const end_names[] = {
    "", "", "resignation", "time", "time (the other side cannot win)", "agreement", "aborted"};

static void add_colour(cJSON *o, const char *key, int colour)
{
    if (colour == CD_WHITE || colour == CD_BLACK)
        cJSON_AddStringToObject(o, key, colour_names[colour]);
    else
        cJSON_AddNullToObject(o, key);
}

/* "rating" (rounded; null without one), "provisional" (RD over GLICKO_PROVISIONAL_RD: few games yet) and, once
 * the game is rated, "rating_change". */
static void add_rating(cJSON *p, const play_game *g, int c)
{
    const glicko *r = &g->rating[c], *a = &g->after[c];
    if (r->rating > 0) {
        cJSON_AddNumberToObject(p, "rating", (double)(long)(r->rating + 0.5));
        cJSON_AddBoolToObject(p, "provisional", r->rd > GLICKO_PROVISIONAL_RD);
    } else {
        cJSON_AddNullToObject(p, "rating");
        cJSON_AddBoolToObject(p, "provisional", 0);
    }
    if (a->rating > 0 && r->rating > 0)
        cJSON_AddNumberToObject(p, "rating_change",
                                (double)(long)(a->rating + 0.5) - (double)(long)(r->rating + 0.5));
    else
        cJSON_AddNullToObject(p, "rating_change");
}

static cJSON *clock_json(const play_game *g)
{
    static const char *const kinds[] = {"none", "correspondence", "realtime"};
    cJSON *c = cJSON_CreateObject();
    cJSON_AddStringToObject(c, "type", kinds[g->clock]);
    if (g->clock == PLAY_CLOCK_REALTIME) {
        cJSON_AddNumberToObject(c, "base", (double)(g->base_ms / 1000));
        cJSON_AddNumberToObject(c, "increment", (double)(g->inc_ms / 1000));
    } else if (g->clock == PLAY_CLOCK_CORRESPONDENCE) {
        cJSON_AddNumberToObject(c, "days", (double)(g->base_ms / 86400000));
    }
    return c;
}

/* The time control as text: "3+2", "2 days a move", "none". */
static void clock_text(const play_game *g, char *buf, size_t len)
{
    if (g->clock == PLAY_CLOCK_REALTIME)
        snprintf(buf, len, "%g+%g", (double)g->base_ms / 60000, (double)(g->inc_ms / 1000));
    else if (g->clock == PLAY_CLOCK_CORRESPONDENCE)
        snprintf(buf, len, "%d day%s a move", (int)(g->base_ms / 86400000),
                 g->base_ms == 86400000 ? "" : "s");
    else
        snprintf(buf, len, "none");
}

/* o[key]: the profile of g's seat c ({"name", "account", "id"}: profile_who_json), or null (an
 * open seat, or no store). */
static void add_profile(cJSON *o, const char *key, const play_game *g, int c)
{
    if (g->who[c][0])
        cJSON_AddItemToObject(o, key, profile_who_json(g->who[c], g->name[c]));
    else
        cJSON_AddNullToObject(o, key);
}

/* The winner: "white", "black", or NULL (a draw, or not over). */
static const char *winner(const play_game *g)
{
    if (g->state != PLAY_OVER || g->end == END_ABORTED)
        return NULL;
    cd_status st = cd_game_status(g->game, NULL);
    return st == CD_WHITE_WINS ? "white" : st == CD_BLACK_WINS ? "black" : NULL;
}

cJSON *play_json(const play_game *g, const char *token)
{
    int64_t now = play_now();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddStringToObject(o, "state", state_names[g->state]);
    add_colour(o, "you", play_seat(g, token));
    for (int c = 0; c < 2; c++) {
        cJSON *p = cJSON_AddObjectToObject(o, colour_names[c]);
        cJSON_AddStringToObject(p, "name", g->name[c]);
        cJSON_AddBoolToObject(p, "seated", g->token[c][0] != 0);
        cJSON_AddBoolToObject(p, "online", g->online[c] > 0);
        add_profile(p, "profile", g, c);
        add_rating(p, g, c);
        int64_t ms = g->ms[c];
        if (g->clock != PLAY_CLOCK_NONE && g->turn_start && g->state == PLAY_ONGOING &&
            cd_game_position(g->game)->side == c)
            ms -= now - g->turn_start;
        if (g->clock == PLAY_CLOCK_NONE)
            cJSON_AddNullToObject(p, "ms");
        else
            cJSON_AddNumberToObject(p, "ms", (double)(ms > 0 ? ms : 0));
    }
    cJSON_AddItemToObject(o, "clock", clock_json(g));
    add_colour(o, "running",
               g->turn_start && g->state == PLAY_ONGOING ? cd_game_position(g->game)->side : -1);
    cJSON_AddNumberToObject(o, "now", (double)now);
    cJSON_AddBoolToObject(o, "open", g->open);
    cJSON_AddNumberToObject(o, "watching", g->online[2]);
    cJSON_AddNumberToObject(o, "outage_ms", (double)g->outage_ms);
    game_board_json(o, g->game);
    if (g->state != PLAY_ONGOING) /* nobody may move (yet, or any more) */
        cJSON_ReplaceItemInObjectCaseSensitive(o, "moves", cJSON_CreateArray());
    cJSON_AddStringToObject(o, "end", end_names[g->end]);
    const char *w = winner(g);
    if (w)
        cJSON_AddStringToObject(o, "winner", w);
    else
        cJSON_AddNullToObject(o, "winner");
    add_colour(o, "draw_offer", g->draw_offer);
    add_colour(o, "takeback", g->takeback);
    add_colour(o, "rematch_offer", g->rematch);
    if (g->rematch_id[0])
        cJSON_AddStringToObject(o, "rematch", g->rematch_id);
    else
        cJSON_AddNullToObject(o, "rematch");
    if (g->nmoves) {
        const play_move *m = &g->moves[g->nmoves - 1];
        cJSON *lm = cJSON_AddObjectToObject(o, "last_move");
        cJSON_AddStringToObject(lm, "hub", m->hub);
    }
    cJSON *chat = cJSON_AddArrayToObject(o, "chat");
    for (int i = 0; i < g->nchat; i++) {
        cJSON *m = cJSON_CreateObject();
        cJSON_AddStringToObject(m, "from", colour_names[g->chat[i].seat]);
        cJSON_AddStringToObject(m, "text", g->chat[i].text);
        cJSON_AddNumberToObject(m, "at", (double)g->chat[i].at);
        cJSON_AddItemToArray(chat, m);
    }
    return o;
}

char *play_json_text(play_game *g, const char *token)
{
    static const char you_null[] = "\"you\":null";
    int64_t now = play_now();
    if (!g->shown || g->shown_version != g->version || now - g->shown_at >= PLAY_SHARE_MS ||
        now < g->shown_at) {
        cJSON *j = play_json(g, NULL);
        char *text = j ? cJSON_PrintUnformatted(j) : NULL;
        cJSON_Delete(j);
        /* "you" follows "id" (hex digits) and "state" (a word): its first occurrence is the key */
        const char *you = text ? strstr(text, you_null) : NULL;
        if (!you) {
            free(text);
            return NULL;
        }
        free(g->shown);
        g->shown = text;
        g->shown_len = strlen(text);
        g->shown_you = (size_t)(you - text) + sizeof you_null - 1 - 4;
        g->shown_version = g->version;
        g->shown_at = now;
    }
    int seat = play_seat(g, token);
    const char *value = seat == CD_WHITE ? "\"white\"" : seat == CD_BLACK ? "\"black\"" : "null";
    size_t vlen = strlen(value), tail = g->shown_len - g->shown_you - 4;
    char *out = malloc(g->shown_you + vlen + tail + 1);
    if (!out)
        return NULL;
    memcpy(out, g->shown, g->shown_you);
    memcpy(out + g->shown_you, value, vlen);
    memcpy(out + g->shown_you + vlen, g->shown + g->shown_you + 4, tail + 1);
    return out;
}

/* An open challenge is listed while its creator's page is open, or for a minute after it is
 * made (a page that never opens the game's stream does not leave it in the lobby for ever). */
#define LOBBY_GRACE_MS 60000

cJSON *play_lobby_json(int page, int per)
{
    int64_t now = play_now();
    cJSON *o = cJSON_CreateObject();
    cJSON *open = cJSON_AddArrayToObject(o, "open");
    cJSON *live = cJSON_AddArrayToObject(o, "live");
    char buf[64];
    int n[2] = {0, 0}, from = page * per; /* [0] open, [1] live: entries so far */
    for (const play_game *g = play_first(); g; g = g->next) {
        if (g->state == PLAY_OVER || (g->state == PLAY_WAITING && !g->open))
            continue;
        int creator = g->token[CD_WHITE][0] ? CD_WHITE : CD_BLACK;
        if (g->state == PLAY_WAITING && !g->online[creator] && now - g->created > LOBBY_GRACE_MS)
            continue;
        int k = g->state != PLAY_WAITING;
        if (n[k]++ < from || n[k] > from + per)
            continue;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "id", g->id);
        cJSON_AddStringToObject(e, "variant", g->rules->name);
        cJSON_AddStringToObject(e, "title", g->rules->title);
        clock_text(g, buf, sizeof buf);
        cJSON_AddStringToObject(e, "clock", buf);
        cJSON_AddStringToObject(e, "white", g->name[0]);
        cJSON_AddStringToObject(e, "black", g->name[1]);
        if (g->state == PLAY_WAITING) {
            int seat = g->token[CD_WHITE][0] ? CD_BLACK : CD_WHITE;
            cJSON_AddStringToObject(e, "seat", colour_names[seat]);
            if (g->rating[!seat].rating > 0)
                cJSON_AddNumberToObject(e, "rating", (double)(long)(g->rating[!seat].rating + 0.5));
            else
                cJSON_AddNullToObject(e, "rating");
            cJSON_AddItemToArray(open, e);
        } else {
            cJSON_AddNumberToObject(e, "ply", g->nmoves);
            cJSON *who = cJSON_AddObjectToObject(e, "profiles");
            for (int c = 0; c < 2; c++)
                add_profile(who, colour_names[c], g, c);
            cJSON_AddItemToArray(live, e);
        }
    }
    cJSON_AddNumberToObject(o, "page", page);
    cJSON_AddNumberToObject(o, "per", per);
    cJSON_AddNumberToObject(o, "open_total", n[0]);
    cJSON_AddNumberToObject(o, "live_total", n[1]);
    return o;
}

cJSON *play_positions_json(const play_game *g)
{
    static const char piece_chars[] = ".wbWB";
    const cd_rules *r = cd_game_position(g->game)->rules;
    int nsq = cd_rules_squares(r), ply = cd_game_ply(g->game);
    char *board = malloc((size_t)nsq + 1);
    if (!board)
        return NULL;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "id", g->id);
    cJSON_AddNumberToObject(o, "ply", ply);
    cJSON *list = cJSON_AddArrayToObject(o, "positions");
    for (int i = 0; i <= ply; i++) {
        const cd_position *pos = cd_game_position_at(g->game, i);
        for (int sq = 1; sq <= nsq; sq++) {
            int pc = cd_position_piece(pos, sq);
            board[sq - 1] = pc >= 0 && pc <= 4 ? piece_chars[pc] : '.';
        }
        board[nsq] = 0;
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "board", board);
        if (i > 0) {
            const cd_position *prev = cd_game_position_at(g->game, i - 1);
            const cd_move *m = cd_game_move(g->game, i - 1);
            int ends[2] = {cd_move_from(prev, m), cd_move_to(prev, m)};
            cJSON_AddItemToObject(e, "last", cJSON_CreateIntArray(ends, 2));
        } else {
            cJSON_AddNullToObject(e, "last");
        }
        cJSON_AddItemToArray(list, e);
    }
    free(board);
    return o;
}

char *play_pdn(const play_game *g, size_t *len)
{
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags)
        return NULL;
    cd_pdn_tags_init(tags);
    char buf[64];
    cd_pdn_tag_set(tags, "Event", "condraughts game between people");
    cd_pdn_tag_set(tags, "White", g->name[0][0] ? g->name[0] : "?");
    cd_pdn_tag_set(tags, "Black", g->name[1][0] ? g->name[1] : "?");
    clock_text(g, buf, sizeof buf);
    cd_pdn_tag_set(tags, "TimeControl", buf);
    cd_pdn_tag_set(tags, "GameId", g->id);
    if (g->state == PLAY_OVER && g->end != END_RULES)
        cd_pdn_tag_set(tags, "Termination", end_names[g->end]);
    size_t need = cd_pdn_write(g->game, tags, NULL, 0);
    char *out = malloc(need + 1);
    if (out)
        cd_pdn_write(g->game, tags, out, need + 1);
    free(tags);
    *len = need;
    return out;
}

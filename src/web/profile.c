/*
 * profile.c -- the rows a finished game leaves for its players' profiles (profile.h), and the
 * public id of a browser.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "profile.h"

#include <sodium.h>
#include <stdio.h>
#include <string.h>

void profile_id(const char *token, char *out)
{
    static const unsigned char key[] = "condraughts: a browser's public id";
    unsigned char h[PROFILE_ID / 2];
    crypto_generichash(h, sizeof h, (const unsigned char *)token, strlen(token), key,
                       sizeof key - 1);
    for (size_t i = 0; i < sizeof h; i++)
        snprintf(out + 2 * i, 3, "%02x", h[i]);
}

void profile_key(const char *player, char *key)
{
    if (player[0] == '@') {
        snprintf(key, PROFILE_KEY, "%s", player);
        return;
    }
    key[0] = '~';
    profile_id(player, key + 1);
}

cJSON *profile_who_json(const char *key, const char *name)
{
    cJSON *o = cJSON_CreateObject();
    int account = key[0] == '@';
    cJSON_AddStringToObject(o, "name", account ? key + 1 : name);
    cJSON_AddBoolToObject(o, "account", account);
    if (account)
        cJSON_AddNullToObject(o, "id");
    else
        cJSON_AddStringToObject(o, "id", key + 1);
    return o;
}

int profile_key_ok(const char *key)
{
    size_t n = strlen(key);
    if (key[0] == '@')
        return n > 1 && n <= PLAY_NAME_BYTES + 1;
    return key[0] == '~' && n == PROFILE_ID + 1 &&
           strspn(key + 1, "0123456789abcdef") == PROFILE_ID;
}

/* The winner of a game ended by the rules (CD_WHITE, CD_BLACK), or -1 (a draw, or a game that
 * cannot be replayed). */
static int rules_winner(const play_game *g)
{
    cd_game *own = NULL;
    const cd_game *game = g->game;
    if (!game) {
        cd_position start;
        if (g->fen[0] && cd_position_from_fen(&start, g->rules, g->fen, NULL, 0) != CD_OK)
            return -1;
        game = own = cd_game_new(g->rules, g->fen[0] ? &start : NULL);
        for (int i = 0; own && i < g->nmoves; i++)
            if (cd_game_play_text(own, g->moves[i].hub, NULL, 0) != CD_OK)
                break;
    }
    cd_status st = game ? cd_game_status(game, NULL) : CD_DRAW;
    cd_game_free(own);
    return st == CD_WHITE_WINS ? CD_WHITE : st == CD_BLACK_WINS ? CD_BLACK : -1;
}

int profile_rows(const play_game *g, char keys[2][PROFILE_KEY], int64_t ended,
                 profile_result rows[2])
{
    if (g->state != PLAY_OVER || g->end == END_ABORTED || !g->token[0][0] || !g->token[1][0] ||
        !g->rules)
        return 0;
    int winner = -1;
    if (g->end == END_RESIGN || g->end == END_TIME)
        winner = !g->loser;
    else if (g->end == END_RULES)
        winner = rules_winner(g);
    for (int c = 0; c < 2; c++) {
        profile_result *r = &rows[c];
        memset(r, 0, sizeof *r);
        snprintf(r->player, sizeof r->player, "%s", keys[c]);
        snprintf(r->game, sizeof r->game, "%s", g->id);
        r->ended = ended;
        snprintf(r->variant, sizeof r->variant, "%s", g->rules->name);
        r->colour = c;
        r->score = winner < 0 ? 1 : winner == c ? 2 : 0;
        snprintf(r->name, sizeof r->name, "%s", g->name[c]);
        snprintf(r->opponent, sizeof r->opponent, "%s", keys[!c]);
        snprintf(r->opponent_name, sizeof r->opponent_name, "%s", g->name[!c]);
        r->ending = g->end;
        r->rating = g->rating[c].rating;
        r->after = g->after[c].rating;
        r->plies = g->nmoves;
    }
    return 2;
}

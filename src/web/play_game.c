/*
 * play_game.c -- a game between people as a value (play.h): its moves and chat lists grown and
 * freed, and the clock it is timed by. Below both the service (play.c) and the store
 * (store_sqlite.c, store_pg.c), which build games from their rows with these.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "play.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

int64_t play_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

play_move *play_move_append(play_game *g)
{
    if (g->nmoves == g->cap) {
        int cap = g->cap ? 2 * g->cap : 64;
        play_move *m = realloc(g->moves, (size_t)cap * sizeof *m);
        if (!m)
            return NULL;
        g->moves = m;
        g->cap = cap;
    }
    return &g->moves[g->nmoves++];
}

int play_chat_append(play_game *g, int seat, const char *text, int64_t at)
{
    if (g->nchat == g->chat_cap) {
        int cap = g->chat_cap ? 2 * g->chat_cap : 8;
        play_chat *c = realloc(g->chat, (size_t)cap * sizeof *c);
        if (!c)
            return -1;
        g->chat = c;
        g->chat_cap = cap;
    }
    char *copy = strdup(text);
    if (!copy)
        return -1;
    g->chat[g->nchat++] = (play_chat){seat, at, copy};
    return 0;
}

void play_chat_free(play_game *g)
{
    for (int i = 0; i < g->nchat; i++)
        free(g->chat[i].text);
    free(g->chat);
    g->chat = NULL;
    g->nchat = g->chat_cap = 0;
}

void play_game_free(play_game *g)
{
    if (!g)
        return;
    cd_game_free(g->game);
    free(g->moves);
    play_chat_free(g);
    free(g->shown);
    free(g);
}

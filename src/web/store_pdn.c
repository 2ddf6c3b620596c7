/*
 * store_pdn.c -- the game table of the server and its files: one PDN file DIR/<id>.pdn per game,
 * rewritten after each change through a temporary file, fsync and rename (so a file is always
 * complete), and read back at start (a restart resumes the games).
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "web.h"
#include "lazy_lock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const human_names[4] = {"white", "black", "both", "none"};

web_state srv = {.persist = 1, .hash_mb = ENGINE_HASH_MB};

WEB_LAZY_LOCK(, srv_lock, srv.lock)

void srv_unlock(void) { mtx_unlock(&srv.lock); }

web_game *find_game(const char *id)
{
    for (web_game *w = srv.games; w; w = w->next)
        if (!strcmp(w->id, id))
            return w;
    return NULL;
}

void free_game(web_game *w)
{
    cd_game_free(w->game);
    free(w->orig);
    free(w);
}

/* A fresh copy of g's moves from its start position (same draw rules). NULL on failure. */
cd_game *copy_game(const cd_game *g)
{
    const cd_position *start = cd_game_position_at(g, 0);
    cd_game *c = cd_game_new(start->rules, start);
    if (!c)
        return NULL;
    cd_game_set_draw_rules(c, cd_game_draw_rules(g));
    for (int i = 0; i < cd_game_ply(g); i++) {
        if (cd_game_play(c, cd_game_move(g, i)) != CD_OK) {
            cd_game_free(c);
            return NULL;
        }
    }
    return c;
}

const cd_rules *game_rules(const cd_game *g) { return cd_game_position(g)->rules; }

/* ---------------------------------------------------------------- persistence */

void game_path(const char *id, int tmp, char *buf, size_t len)
{
    snprintf(buf, len, "%s/%s%s.pdn%s", srv.data, tmp ? "." : "", id, tmp ? ".tmp" : "");
}

/* The tags a game is saved and exported with (NULL when out of memory; free it). */
cd_pdn_tags *make_tags(const web_game *w, int with_owner)
{
    cd_pdn_tags *tags = malloc(sizeof *tags);
    if (!tags)
        return NULL;
    cd_pdn_tags_init(tags);
    if (w->orig) /* an imported game keeps its tags; ours only fill the gaps */
        *tags = *w->orig;
    const char *hw = w->human == HUMAN_WHITE || w->human == HUMAN_BOTH ? "Human" : "condraughts";
    const char *hb = w->human == HUMAN_BLACK || w->human == HUMAN_BOTH ? "Human" : "condraughts";
    const char *ours[][2] = {{"Event", "condraughts web game"}, {"White", hw}, {"Black", hb}};
    for (size_t i = 0; i < sizeof ours / sizeof ours[0]; i++)
        if (!w->orig || !cd_pdn_tag(tags, ours[i][0]))
            cd_pdn_tag_set(tags, ours[i][0], ours[i][1]);
    char level[16];
    snprintf(level, sizeof level, "%d", w->level);
    cd_pdn_tag_set(tags, "GameId", w->id);
    cd_pdn_tag_set(tags, "Human", human_names[w->human]);
    cd_pdn_tag_set(tags, "Level", level);
    cd_pdn_tag_set(tags, "Owner", with_owner && w->owner[0] ? w->owner : NULL);
    return tags;
}

int owner_ok(const web_game *w, const char *token)
{
    return !w->owner[0] || play_token_eq(w->owner, token);
}

/* Save w atomically. Called with the lock held. Returns 0 on success. */
int save_game(const web_game *w)
{
    if (!srv.persist)
        return 0;
    cd_pdn_tags *tags = make_tags(w, 1);
    if (!tags)
        return -1;
    size_t cap = 8192;
    char *buf = malloc(cap);
    size_t need = buf ? cd_pdn_write(w->game, tags, buf, cap) : 0;
    if (buf && need >= cap) {
        free(buf);
        cap = need + 1;
        buf = malloc(cap);
        if (buf)
            need = cd_pdn_write(w->game, tags, buf, cap);
    }
    free(tags);
    if (!buf)
        return -1;

    char tmp[4200], path[4200];
    game_path(w->id, 1, tmp, sizeof tmp);
    game_path(w->id, 0, path, sizeof path);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    int ok = fd >= 0;
    for (size_t off = 0; ok && off < need;) {
        ssize_t n = write(fd, buf + off, need - off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            ok = 0;
        else
            off += (size_t)n;
    }
    free(buf);
    if (fd >= 0) {
        if (fsync(fd) != 0)
            ok = 0;
        if (close(fd) != 0)
            ok = 0;
    }
    if (ok && rename(tmp, path) != 0)
        ok = 0;
    static int failing; /* (srv.lock) the last save failed: not logged again until one works */
    if (!ok) {
        int full = errno == ENOSPC || errno == EDQUOT;
        if (!failing)
            fprintf(stderr,
                    "condraughts: cannot save game %s in %s: %s (further failures are not logged "
                    "until a save works)\n",
                    w->id, srv.data, strerror(errno));
        failing = 1;
        unlink(tmp);
        return full ? -2 : -1;
    }
    if (failing)
        fprintf(stderr, "condraughts: games are saved in %s again\n", srv.data);
    failing = 0;
    return 0;
}

int parse_human(const char *s)
{
    for (int i = 0; i < 4; i++)
        if (!strcmp(s, human_names[i]))
            return i;
    return -1;
}

static char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    while (buf) {
        if (n + 1 >= cap) {
            char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        if (!got)
            break;
        n += got;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *len = n;
    }
    return buf;
}

/* Load every <hex id>.pdn of the data directory. */
void load_games(void)
{
    DIR *d = opendir(srv.data);
    if (!d)
        return;
    struct dirent *e;
    int loaded = 0;
    while ((e = readdir(d))) {
        const char *name = e->d_name;
        size_t n = strlen(name);
        if (n == ID_HEX + 9 && name[0] == '.' && !strcmp(name + 1 + ID_HEX, ".pdn.tmp") &&
            strspn(name + 1, "0123456789abcdef") == ID_HEX) {
            /* a save cut short (the server was killed while writing): the game file it was to
             * replace is still whole, so the temporary file goes */
            char path[sizeof srv.data + 300];
            snprintf(path, sizeof path, "%s/%s", srv.data, name);
            if (unlink(path) == 0)
                fprintf(stderr, "condraughts: removed %s (an unfinished save)\n", path);
            continue;
        }
        if (n != ID_HEX + 4 || strcmp(name + ID_HEX, ".pdn"))
            continue;
        if (strspn(name, "0123456789abcdef") != ID_HEX)
            continue;
        char id[ID_HEX + 1];
        memcpy(id, name, ID_HEX);
        id[ID_HEX] = 0;
        char path[4200];
        game_path(id, 0, path, sizeof path);
        size_t len = 0;
        char *text = read_file(path, &len);
        if (!text)
            continue;
        cd_pdn_tags *tags = malloc(sizeof *tags);
        cd_game *g = NULL;
        char err[512] = "";
        size_t pos = 0;
        if (tags && cd_pdn_read(text, &pos, NULL, &g, tags, err, sizeof err) == CD_OK && g) {
            web_game *w = calloc(1, sizeof *w);
            if (w) {
                memcpy(w->id, id, sizeof w->id);
                w->game = g;
                const char *h = cd_pdn_tag(tags, "Human");
                w->human = h && parse_human(h) >= 0 ? parse_human(h) : HUMAN_WHITE;
                const char *l = cd_pdn_tag(tags, "Level");
                w->level = l ? atoi(l) : 3;
                if (w->level < 1 || w->level > 10)
                    w->level = 3;
                guard_token(cd_pdn_tag(tags, "Owner"), w->owner);
                cd_pdn_tag_set(tags, "Owner", NULL);
                const char *ev = cd_pdn_tag(tags, "Event");
                if (!ev || strcmp(ev, "condraughts web game")) { /* imported: keep its tags */
                    w->orig = tags;
                    tags = NULL;
                }
                w->next = srv.games;
                srv.games = w;
                srv.ngames++;
                loaded++;
            } else {
                cd_game_free(g);
            }
        } else {
            fprintf(stderr, "condraughts: skipping %s: %s\n", path, err[0] ? err : "no game");
        }
        free(tags);
        free(text);
    }
    closedir(d);
    if (loaded)
        fprintf(stderr, "condraughts: resumed %d game%s from %s\n", loaded, loaded == 1 ? "" : "s",
                srv.data);
}

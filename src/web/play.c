/*
 * play.c -- the game service of games between two people (play.h): seats, clocks, offers, the
 * end of a game, and the game list. The JSON of a game, the lobby and the PDN export are in
 * play_json.c; the HTTP handlers in api_play.c; a game's lists and the clock in play_game.c.
 *
 * The flag rule: the side whose time is spent loses, unless the other side cannot win. We call
 * that so when the other side has a single piece, a king, and the side out of time has a king:
 * a lone king cannot force a win against a king in any variant offered (the defending king keeps
 * to a long diagonal or a double corner, and short kings cannot trap one either); the game is
 * then a draw. In antidraughts (the goal is reversed) a flag fall always loses.
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include "play.h"
#include "lazy_lock.h"
#include "apiutil.h"
#include "names.h"
#include "ratelimit.h"
#include "store.h"
#include "profile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <threads.h>
#include <time.h>

/* Lists of waiting live streams, and of the games in memory, by their game id's hash: a change
 * scans its game's watchers only, a look-up its game's list only. */
#define WATCH_LISTS 4096
#define GAME_LISTS  8192

static struct {
    mtx_t lock;                          /* made on first use (play_lock) */
    play_watcher *watchers[WATCH_LISTS]; /* the live streams waiting for a change (play_watch) */
    play_game *games;       /* the live games, and the finished ones read lately (play_find) */
    play_game *by_id[GAME_LISTS]; /* the same games by their id's hash (id_next) */
    int count;
    int max_live;                           /* live games at most (play_create) */
    int per_address;                        /* limits by address apply */
    rate_table creates_token, creates_addr; /* games created (PLAY_CREATES_*) */
    int stored;                             /* the store is open */
    thrd_t ticker;                          /* the clock thread (play_open with a store) */
    thrd_t listener;                        /* hears other servers' changes (a shared store) */
    int ticking, listening, stop;
    int64_t down_since; /* play_open: when the server was last alive before this start (0: none) */
    int64_t alive_at;   /* (lock) when the store was last told the server is alive */
    int unanswered;     /* (lock) the shared store did not answer play_find's last look */
    /* (lock) a shared store: changes of other servers may have gone unheard (the listening
     * connection lost, or a write failed) since every game was last read (reread_all):
     * play_find looks up every game's revision until they are read again */
    int deaf;
    struct unsynced {   /* (lock) games changed, their streams to wake once the change is on */
        char id[PLAY_ID_HEX + 1]; /* disk (store_synced), in the order of their numbers */
        uint64_t saved;
    } *unsynced;
    int nunsynced, unsynced_cap;
} P = {.max_live = PLAY_MAX,
       .creates_token = {PLAY_CREATES_TOKEN, PLAY_CREATES_MS, {{"", 0, 0}}},
       .creates_addr = {PLAY_CREATES_ADDR, PLAY_CREATES_MS, {{"", 0, 0}}}};

WEB_LAZY_LOCK(, play_lock, P.lock)

void play_unlock(void) { mtx_unlock(&P.lock); }

static unsigned id_hash(const char *id)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)id; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

static play_watcher **watch_list(const char *id) { return &P.watchers[id_hash(id) % WATCH_LISTS]; }

void play_watch(play_watcher *w)
{
    if (w->on)
        return;
    play_watcher **head = watch_list(w->id);
    w->on = 1;
    w->prev = NULL;
    w->next = *head;
    if (*head)
        (*head)->prev = w;
    *head = w;
}

void play_unwatch(play_watcher *w)
{
    if (!w->on)
        return;
    if (w->prev)
        w->prev->next = w->next;
    else
        *watch_list(w->id) = w->next;
    if (w->next)
        w->next->prev = w->prev;
    w->prev = w->next = NULL;
    w->on = 0;
}

/* Game id changed: wake its watchers. */
static void changed(const char *id)
{
    for (play_watcher *w = *watch_list(id), *next; w; w = next) {
        next = w->next;
        if (!strcmp(w->id, id)) {
            play_unwatch(w);
            w->wake(w);
        }
    }
}

/* g's change is in the store (g->saved its number, play.h): its streams are woken once it is on
 * disk, at once when it is already. */
static void published(play_game *g)
{
    g->saved = store_written();
    if (g->saved <= store_synced()) {
        changed(g->id);
        return;
    }
    if (P.nunsynced == P.unsynced_cap) {
        int cap = P.unsynced_cap ? 2 * P.unsynced_cap : 256;
        struct unsynced *u = realloc(P.unsynced, (size_t)cap * sizeof *u);
        if (!u) { /* out of memory: woken now, the streams wait for the disk at their keep-alive */
            changed(g->id);
            return;
        }
        P.unsynced = u;
        P.unsynced_cap = cap;
    }
    memcpy(P.unsynced[P.nunsynced].id, g->id, sizeof g->id);
    P.unsynced[P.nunsynced++].saved = g->saved;
}

/* store_on_synced: the changes up to `synced` are on disk: their games' streams are woken. */
static void synced_now(uint64_t synced)
{
    play_lock();
    int n = 0;
    while (n < P.nunsynced && P.unsynced[n].saved <= synced)
        changed(P.unsynced[n++].id);
    if (n > 0 && n < P.nunsynced) /* (P.unsynced is NULL until the first change) */
        memmove(P.unsynced, P.unsynced + n, (size_t)(P.nunsynced - n) * sizeof *P.unsynced);
    P.nunsynced -= n;
    play_unlock();
}

int play_synced(const play_game *g) { return g->saved <= store_synced(); }

/* A player's stream opening or closing wakes the game's streams at once; a spectator's does not
 * (each would wake all the others: 1,500 spectators arriving made over a million states): the
 * count is due, and play_tick wakes the streams once PLAY_COUNT_MS later, for all the spectators
 * who came and went meanwhile. */
static void presence(play_game *g, int slot, int delta)
{
    if (g->online[slot] + delta >= 0)
        g->online[slot] += delta;
    if (slot < 2)
        g->seen = play_now();
    g->version++; /* not stored: presence is not part of the game */
    if (slot < 2)
        changed(g->id);
    else if (!g->count_due)
        g->count_due = play_now();
}

int play_present(const char *id, const char *token)
{
    play_game *g = play_find(id);
    if (!g)
        return -1;
    int seat = play_seat(g, token), slot = seat < 0 ? 2 : seat;
    presence(g, slot, 1);
    return slot;
}

void play_absent(const char *id, int slot)
{
    play_game *g = play_find(id);
    if (g && slot >= 0 && slot <= 2)
        presence(g, slot, -1);
}

int play_new_token(char *out)
{
    unsigned char b[PLAY_TOKEN / 2];
    if (getrandom(b, sizeof b, 0) != (ssize_t)sizeof b)
        return -1;
    for (size_t i = 0; i < sizeof b; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
    return 0;
}

int play_token_eq(const char *a, const char *b)
{
    if (!a || !b || strlen(a) != PLAY_TOKEN || strlen(b) != PLAY_TOKEN)
        return 0;
    unsigned diff = 0;
    for (int i = 0; i < PLAY_TOKEN; i++)
        diff |= (unsigned)(a[i] ^ b[i]);
    return diff == 0;
}

int play_seat(const play_game *g, const char *token)
{
    for (int c = 0; c < 2; c++)
        if (play_token_eq(g->token[c], token))
            return c;
    return -1;
}

/* Game id if it is in memory. */
static play_game *find_mem(const char *id)
{
    for (play_game *g = P.by_id[id_hash(id) % GAME_LISTS]; g; g = g->id_next)
        if (!strcmp(g->id, id))
            return g;
    return NULL;
}

static void adopt(play_game *g);
static void seat_who(play_game *g, int c);
static void unlink_game(play_game *g);

/* A shared store (store.h): g read again when another server has changed it since (its streams
 * woken), or taken out when another server deleted it (NULL). When the store does not answer
 * (P.unanswered set), g as it is. */
static play_game *refresh(play_game *g)
{
    int64_t rev = 0;
    int found = store_rev(g->id, &rev);
    P.unanswered = found < 0;
    if (found < 0 || (found && rev == g->rev))
        return g;
    char id[PLAY_ID_HEX + 1];
    memcpy(id, g->id, sizeof id);
    if (!found) {
        unlink_game(g);
        changed(id);
        play_game_free(g);
        return NULL;
    }
    if (store_load(id, adopt) < 0)
        P.unanswered = 1;
    changed(id);
    return find_mem(id);
}

/* With a shared store the games in memory are trusted between announcements: every change of
 * another server is heard (heard) and read back, so a game is looked up in the store (refresh)
 * only when it may be behind: while P.deaf, or when its copy is marked so (rev -1). */
play_game *play_find(const char *id)
{
    P.unanswered = 0;
    play_game *g = find_mem(id);
    if (g && store_shared() && (P.deaf || g->rev < 0))
        g = refresh(g);
    else if (!g && P.stored && store_load(id, adopt) > 0)
        g = find_mem(id);
    if (g)
        g->touched = play_now();
    return g;
}

/* A shared store: g as the store holds it now (refresh: one round trip), for a deletion
 * (judged on the game as it is, then written over its revision) and for the rare actions on a game waiting or
 * over (join, abort, rematch: judged on the game as it is, rather than written, refused and
 * judged again; a rematch begun on a copy behind would make a game only to drop it). NULL with
 * *status 404 (deleted) or 503 (the store does not answer) and err set. Without a shared store,
 * g. */
static play_game *current(play_game *g, unsigned *status, char *err, size_t len)
{
    if (!store_shared())
        return g;
    g = refresh(g);
    if (P.unanswered) {
        *status = 503;
        snprintf(err, len, "the games' database does not answer: try again shortly");
        return NULL;
    }
    if (!g) {
        *status = 404;
        snprintf(err, len, "unknown game");
    }
    return g;
}

play_game *play_recheck(const char *id, int64_t rev, unsigned *status, char *err, size_t len)
{
    if (!store_shared() || (*status != 400 && *status != 403 && *status != 409))
        return NULL;
    play_game *g = find_mem(id);
    if (!g || !(g = current(g, status, err, len)))
        return NULL;
    return g->rev != rev ? g : NULL;
}

static void unlink_game(play_game *g)
{
    for (play_game **pp = &P.by_id[id_hash(g->id) % GAME_LISTS]; *pp; pp = &(*pp)->id_next)
        if (*pp == g) {
            *pp = g->id_next;
            break;
        }
    for (play_game **pp = &P.games; *pp; pp = &(*pp)->next)
        if (*pp == g) {
            *pp = g->next;
            P.count--;
            return;
        }
}

static void link_game(play_game *g)
{
    g->next = P.games;
    P.games = g;
    unsigned h = id_hash(g->id) % GAME_LISTS;
    g->id_next = P.by_id[h];
    P.by_id[h] = g;
    P.count++;
}

/* Replay g's moves into a new cd_game and apply its end. 0, or -1 (a damaged game). */
static int rebuild(play_game *g)
{
    cd_position start;
    if (g->fen[0] && cd_position_from_fen(&start, g->rules, g->fen, NULL, 0) != CD_OK)
        return -1;
    cd_game_free(g->game);
    g->game = cd_game_new(g->rules, g->fen[0] ? &start : NULL);
    if (!g->game)
        return -1;
    for (int i = 0; i < g->nmoves; i++)
        if (cd_game_play_text(g->game, g->moves[i].hub, NULL, 0) != CD_OK)
            return -1;
    if (g->end == END_RESIGN)
        cd_game_resign(g->game, g->loser);
    else if (g->end == END_TIME)
        cd_game_time_loss(g->game, g->loser);
    else if (g->end == END_TIME_DRAW || g->end == END_AGREED)
        cd_game_agree_draw(g->game);
    return 0;
}

/* At start (P.down_since set), a live game read from the store: the server's downtime, from when
 * it was last alive (its last mark, or this turn's start if later) to now, is not charged to the
 * side to move: its turn (and the wait for a first move) starts again that much later and the
 * game says so (outage_ms); play_open saves it so (not here: store_load is reading the table). */
static void give_back_outage(play_game *g)
{
    int64_t since = g->turn_start > P.down_since ? g->turn_start : P.down_since;
    int64_t now = play_now(), down = now - since;
    if (!P.down_since || down <= 0 || g->state == PLAY_OVER || g->clock == PLAY_CLOCK_NONE ||
        (!g->turn_start && !g->first_wait))
        return;
    if (g->turn_start)
        g->turn_start += down;
    if (g->first_wait)
        g->first_wait += down;
    g->outage_ms += down;
    g->outage_new = 1;
}

/* g's moves replayed (rebuild): 1; else it is said, g freed, and 0. No lock needed (g alone). */
static int replayed(play_game *g)
{
    if (rebuild(g) == 0)
        return 1;
    fprintf(stderr, "condraughts: skipping stored game %s: its moves do not replay\n", g->id);
    play_game_free(g);
    return 0;
}

static void adopt_built(play_game *g);

/* A game read from the store (store_load's callback). */
static void adopt(play_game *g)
{
    if (replayed(g))
        adopt_built(g);
}

/* A game read from the store and replayed, taken in: in place of its copy in memory, if any. */
static void adopt_built(play_game *g)
{
    g->touched = play_now();
    /* a game not begun expires PLAY_AWAY_MS after its players' pages were last seen; after a
     * restart, PLAY_GRACE_MS after the start at the earliest (time for the pages to reconnect) */
    g->seen = g->created > g->first_wait ? g->created : g->first_wait;
    if (g->seen < g->touched - PLAY_AWAY_MS + PLAY_GRACE_MS)
        g->seen = g->touched - PLAY_AWAY_MS + PLAY_GRACE_MS;
    give_back_outage(g);
    play_game *old = find_mem(g->id);
    for (int c = 0; c < 2; c++) { /* the seats' profiles: kept while the same tokens sit there */
        if (old && !strcmp(old->token[c], g->token[c]))
            memcpy(g->who[c], old->who[c], sizeof g->who[c]);
        else
            seat_who(g, c);
    }
    if (old) { /* read back after a failed write: the store's version wins, in place */
        play_game *next = old->next, *id_next = old->id_next;
        unsigned version = old->version + 1;
        int online[3] = {old->online[0], old->online[1], old->online[2]};
        int64_t said[2][PLAY_CHAT_BURST], seen = old->seen;
        uint64_t saved = old->saved;
        char addr[PLAY_ADDR];
        memcpy(said, old->said, sizeof said);
        memcpy(addr, old->addr, sizeof addr);
        cd_game_free(old->game);
        free(old->moves);
        play_chat_free(old);
        free(old->shown);
        *old = *g;
        old->next = next;
        old->id_next = id_next;
        old->version = version;
        memcpy(old->online, online, sizeof online);
        memcpy(old->said, said, sizeof said);
        memcpy(old->addr, addr, sizeof addr);
        old->seen = seen;
        old->saved = saved;
        free(g);
        return;
    }
    link_game(g);
}

/* Write g (moves from ply `from` on) and wake the streams. When the write fails, g is read back
 * from the store in place (it stays valid), or, when the store does not hold it (a new game, or
 * a game another server deleted: 404), it is taken out and freed (the caller must not use it
 * then: find_mem(id) is NULL). */
static unsigned commit(play_game *g, int from, char *err, size_t len)
{
    g->version++;
    int rc = P.stored ? store_save(g, from) : 0;
    if (rc == 0) {
        g->rate_now = 0;
        published(g);
        return 0;
    }
    changed(g->id);
    char id[PLAY_ID_HEX + 1];
    memcpy(id, g->id, sizeof id);
    if (rc == -3) { /* another server changed the game first: its version wins, in place */
        g->rate_now = 0;
        int stored = g->rev != 0; /* else a new game whose id another server took meanwhile */
        if (!stored || store_load(id, adopt) == 0) {
            /* not there (another server deleted it): the copy dropped, never written back */
            unlink_game(g);
            play_game_free(g);
            if (stored) {
                snprintf(err, len, "unknown game");
                return 404;
            }
        } else {
            changed(id);
        }
        snprintf(err, len, "the game changed meanwhile (another server): try again");
        return 409;
    }
    int n = store_load(id, adopt);
    if (n == 0 || (n < 0 && store_shared() && g->rev == 0)) { /* never stored: a new game */
        unlink_game(g);
        play_game_free(g);
    } else if (n < 0) {
        fprintf(stderr, "condraughts: game %s is ahead of the store\n", id);
        g->rev = -1; /* a shared store: read again (refresh) once the store answers */
    }
    if (n < 0 && store_shared()) {
        P.deaf = 1; /* the store failing: every game looked up until all are read again */
        snprintf(err, len, "the games' database does not answer: try again shortly");
        return 503;
    }
    snprintf(err, len, "the game could not be saved%s", rc == -2 ? " (the disk is full)" : "");
    return rc == -2 ? 507 : 500;
}

static void mark_seen(int64_t now);

/* The clock thread: a relative sleep (thrd_sleep), so a step of the wall clock does not stall it
 * (the flags themselves are read on the wall clock: play.h). */
static int ticker(void *arg)
{
    (void)arg;
    for (;;) {
        play_lock();
        int stop = P.stop;
        int64_t now = play_now();
        if (P.stored && (now - P.alive_at >= PLAY_ALIVE_MS || stop) && store_alive(now) == 0) {
            P.alive_at = now;
            if (store_shared())
                mark_seen(now);
        }
        play_unlock();
        if (stop)
            return 0;
        play_tick();
        struct timespec ts = {0, 100 * 1000000L};
        thrd_sleep(&ts, NULL);
    }
}

/* Every game read again (a shared store, when changes may have gone unheard): the live games
 * from the store; the others in memory (finished, or ended or deleted by another server
 * meanwhile) marked to be looked up when next found (rev -1). P.deaf stays set when the store
 * fails. Their streams are woken. Locked. */
static void reread_all(void)
{
    for (play_game *g = P.games; g; g = g->next)
        g->rev = -1;
    P.deaf = store_load(NULL, adopt) < 0;
    for (play_game *g = P.games; g; g = g->next)
        changed(g->id);
}

/* The changes heard and not yet taken in (the listener thread's alone): game id[i] is at
 * revision rev[i] (-1: deleted); all: every game is to be read again (announcements may have been
 * missed; the ids are then moot). */
static struct {
    char (*id)[PLAY_ID_HEX + 1];
    int64_t *rev;
    int n, cap, all;
    play_game **read; /* the games read back for them (fetched), nread of them */
    int nread, readcap;
} news;

/* A change another server announced (store_heard's callback, and the sweep's): kept for
 * take_news. id NULL, or no memory to keep it: every game read again. */
static void heard(const char *id, int64_t rev)
{
    if (!id || news.all) {
        news.all = 1;
        return;
    }
    if (news.n == news.cap) {
        int cap = news.cap ? 2 * news.cap : 64;
        char(*ids)[PLAY_ID_HEX + 1] = realloc(news.id, (size_t)cap * sizeof *ids);
        if (ids)
            news.id = ids;
        int64_t *revs = ids ? realloc(news.rev, (size_t)cap * sizeof *revs) : NULL;
        if (!revs) {
            news.all = 1;
            return;
        }
        news.rev = revs;
        news.cap = cap;
    }
    snprintf(news.id[news.n], sizeof news.id[news.n], "%s", id);
    news.rev[news.n++] = rev;
}

/* A game read back for the news (store_read's callback, without the lock): replayed here, kept
 * for take_news. */
static void fetched(play_game *g)
{
    if (!replayed(g))
        return;
    if (news.nread == news.readcap) {
        int cap = news.readcap ? 2 * news.readcap : 64;
        play_game **list = realloc(news.read, (size_t)cap * sizeof *list);
        if (!list) {
            play_game_free(g); /* its copy stays behind: the next sweep reads it */
            return;
        }
        news.read = list;
        news.readcap = cap;
    }
    news.read[news.nread++] = g;
}

/* The changes heard taken in (the listener's thread, the lock not held): a deletion at once; the
 * games changed whose copies are behind read back in one statement outside the lock
 * (store_read: the server's other threads do not wait for PostgreSQL meanwhile), replayed, then
 * each taken in unless its copy has caught up meanwhile (a change of this server's own); when the
 * reading fails, the copies marked behind (looked up when next found). */
static void take_news(void)
{
    play_lock();
    if (news.all) {
        reread_all();
        play_unlock();
        news.all = news.n = 0;
        return;
    }
    int k = 0;
    for (int i = 0; i < news.n; i++) {
        play_game *g = find_mem(news.id[i]);
        if (news.rev[i] < 0 && g) {
            unlink_game(g);
            changed(news.id[i]);
            play_game_free(g);
        } else if (news.rev[i] > 0 && (!g || news.rev[i] > g->rev)) {
            memmove(news.id[k], news.id[i], sizeof news.id[i]);
            news.rev[k++] = g != NULL; /* (from here on: had a copy) */
        }
    }
    play_unlock();
    news.n = 0;
    if (!k)
        return;
    const char **names = malloc((size_t)k * sizeof *names);
    for (int i = 0; names && i < k; i++)
        names[i] = news.id[i];
    int got = names ? store_read(names, k, fetched) : -1;
    free(names);
    play_lock();
    for (int i = 0; i < news.nread; i++) {
        play_game *g = news.read[i], *m = find_mem(g->id);
        int had = 0;
        for (int j = 0; j < k && !had; j++)
            had = news.rev[j] && !strcmp(news.id[j], g->id);
        if (m ? g->rev <= m->rev : had) { /* caught up, or taken out meanwhile */
            play_game_free(g);
            continue;
        }
        char id[PLAY_ID_HEX + 1];
        memcpy(id, g->id, sizeof id);
        adopt_built(g);
        changed(id);
    }
    for (int i = 0; got < 0 && i < k; i++) {
        play_game *m = find_mem(news.id[i]);
        if (m)
            m->rev = -1;
    }
    play_unlock();
    news.nread = 0;
}

/* The sweep's view of the copies behind the store: a game whose stored revision differed from
 * its copy's (rev) at the last sweep. */
typedef struct {
    char id[PLAY_ID_HEX + 1];
    int64_t rev;
} play_behind;

typedef struct {
    play_behind *list; /* the games behind at the last sweep */
    int n;
} play_sweep;

/* A shared store: every game in memory compared with the store's revision (store_revs, one
 * statement, without the lock), for a change another server committed and did not live to
 * announce (killed between its commit and its flush, pg_sync.h). A copy found behind (or its
 * game gone) at two sweeps in a row, still at the same revision, is read again (or dropped) as
 * an announcement would have: that change is then at least PLAY_SWEEP_MS old, so it is no
 * announcement on its way, and PostgreSQL has it on disk (an asynchronous commit is flushed
 * within three wal_writer_delay, 200 ms by default). */
static void sweep(play_sweep *s)
{
    play_lock();
    int n = P.deaf ? 0 : P.count, k = 0;
    char (*ids)[PLAY_ID_HEX + 1] = n ? malloc((size_t)n * sizeof *ids) : NULL;
    int64_t *mine = n ? malloc((size_t)n * sizeof *mine) : NULL;
    int64_t *stored = n ? malloc((size_t)n * sizeof *stored) : NULL;
    const char **names = n ? malloc((size_t)n * sizeof *names) : NULL;
    if (ids && mine && stored && names)
        for (const play_game *g = P.games; g && k < n; g = g->next)
            if (g->rev != 0) { /* (0: a new game being written) */
                memcpy(ids[k], g->id, sizeof ids[k]);
                names[k] = ids[k];
                mine[k++] = g->rev;
            }
    play_unlock();
    play_behind *now = k ? malloc((size_t)k * sizeof *now) : NULL;
    int behind = 0;
    if (now && store_revs(names, k, stored) == 0)
        for (int i = 0; i < k; i++) {
            if (stored[i] == mine[i])
                continue;
            int again = 0;
            for (int j = 0; j < s->n && !again; j++)
                again = s->list[j].rev == mine[i] && !strcmp(s->list[j].id, ids[i]);
            if (again) {
                heard(ids[i], stored[i] ? stored[i] : -1);
            } else {
                memcpy(now[behind].id, ids[i], sizeof now[behind].id);
                now[behind++].rev = mine[i];
            }
        }
    free(s->list);
    s->list = now;
    s->n = behind;
    free(ids);
    free(mine);
    free(stored);
    free(names);
    take_news();
}

/* The thread that hears other servers' changes (a shared store), until play_close. While its
 * connection is lost the server is deaf (P.deaf); once it hears again and every game is read
 * again, memory is trusted again. Every PLAY_SWEEP_MS it sweeps. */
static int listener(void *arg)
{
    (void)arg;
    play_sweep s = {NULL, 0};
    int64_t due = play_now() + PLAY_SWEEP_MS;
    for (;;) {
        play_lock();
        int stop = P.stop;
        play_unlock();
        if (stop) {
            free(s.list);
            free(news.id);
            free(news.rev);
            free(news.read);
            memset(&news, 0, sizeof news);
            return 0;
        }
        int n = store_heard(200, heard);
        take_news();
        play_lock();
        if (n < 0)
            P.deaf = 1;
        else if (P.deaf) /* deaf after a failed write, or a failed reading again */
            reread_all();
        play_unlock();
        if (n >= 0 && play_now() >= due) {
            sweep(&s);
            due = play_now() + PLAY_SWEEP_MS;
        }
    }
}

int play_open(const char *db_path, int max_live, int per_address, char *err, size_t errlen)
{
    P.max_live = max_live > 0 ? max_live : PLAY_MAX;
    P.per_address = per_address;
    if (!db_path)
        return 0;
    P.stop = 0;
    P.deaf = 0;
    P.ticking = thrd_create(&P.ticker, ticker, NULL) == thrd_success;
    store_on_synced(synced_now);
    if (store_open(db_path, err, errlen) != 0)
        return -1;
    int64_t last_alive = store_last_alive(); /* before the clock thread writes it anew */
    if (store_shared() && play_now() - last_alive < 3 * PLAY_ALIVE_MS)
        last_alive = 0; /* another server is alive: it has kept the clocks, nothing to give back */
    play_lock();
    P.stored = 1;
    P.down_since = last_alive;
    int n = store_load(NULL, adopt);
    P.down_since = 0;
    for (play_game *g = P.games; g; g = g->next)
        if (g->outage_new) {
            g->outage_new = 0;
            store_save(g, g->nmoves);
        }
    play_unlock();
    if (n < 0) {
        snprintf(err, errlen, "cannot read the games of %s", db_path);
        return -1;
    }
    if (store_shared())
        P.listening = thrd_create(&P.listener, listener, NULL) == thrd_success;
    if (n > 0)
        fprintf(stderr, "condraughts: %d live game%s between people from %s\n", n,
                n == 1 ? "" : "s", db_path);
    return 0;
}

int play_stored(void) { return P.stored; }

int play_unanswered(void) { return P.unanswered; }

void play_close(void)
{
    play_lock();
    P.stop = 1;
    play_unlock();
    if (P.ticking) {
        thrd_join(P.ticker, NULL);
        P.ticking = 0;
    }
    if (P.listening) {
        thrd_join(P.listener, NULL);
        P.listening = 0;
    }
    if (P.stored)
        store_close(); /* unlocked: its sync thread's last report (synced_now) takes the lock */
    play_lock();
    while (P.games) {
        play_game *next = P.games->next;
        play_game_free(P.games);
        P.games = next;
    }
    memset(P.by_id, 0, sizeof P.by_id);
    P.count = 0;
    free(P.unsynced);
    P.unsynced = NULL;
    P.nunsynced = P.unsynced_cap = 0;
    P.stored = 0;
    play_unlock();
}

/* ---------------------------------------------------------------- clocks and the end */

static int side_to_move(const play_game *g) { return cd_game_position(g->game)->side; }

/* Can `colour` still win if the other side's flag fell? (The rule at the top of the file.) */
static int can_win(const play_game *g, int colour)
{
    const cd_position *pos = cd_game_position(g->game);
    if (g->rules->goal == CD_GOAL_LOSING)
        return 1;
    int mine = cd_position_count(pos, colour, -1), my_kings = cd_position_count(pos, colour, 1);
    return !(mine == 1 && my_kings == 1 && cd_position_count(pos, !colour, 1) > 0);
}

/* The profile key of g's seat c into g->who[c] ("" an open seat, or no store). */
static void seat_who(play_game *g, int c)
{
    char player[PROFILE_KEY];
    g->who[c][0] = 0;
    if (P.stored && g->token[c][0]) {
        store_player(g->token[c], player, sizeof player);
        profile_key(player, g->who[c]);
    }
}

/* The rating and the profile key of g's seat c, as it sits down (none without a store). */
static void seat_down(play_game *g, int c)
{
    if (P.stored && g->token[c][0])
        g->rating[c] = store_rating(g->token[c], g->rules->name);
    seat_who(g, c);
}

/* Rate a finished game: each player's current rating in the variant (other games may have
 * changed it since this one began) after one game against the other's (glicko.h). Written with
 * the game by commit(). A game of one account against itself is not rated. */
static void rate(play_game *g)
{
    if (!P.stored || g->end == END_ABORTED || !g->token[0][0] || !g->token[1][0])
        return;
    char key[2][PLAY_NAME_BYTES + 2];
    for (int c = 0; c < 2; c++)
        store_player(g->token[c], key[c], sizeof key[c]);
    if (!strcmp(key[0], key[1])) /* one account on both seats: not a rated game */
        return;
    cd_status st = cd_game_status(g->game, NULL);
    double score[2] = {0.5, 0.5};
    if (st == CD_WHITE_WINS || st == CD_BLACK_WINS) {
        score[CD_WHITE] = st == CD_WHITE_WINS;
        score[CD_BLACK] = st == CD_BLACK_WINS;
    }
    glicko now[2] = {store_rating(g->token[0], g->rules->name),
                     store_rating(g->token[1], g->rules->name)};
    for (int c = 0; c < 2; c++) {
        g->after[c] = glicko_update(now[c], &now[!c], &score[c], 1);
        g->rating[c] = now[c]; /* so that after - rating is this game's change alone */
    }
    g->rate_now = 1;
}

static void finish(play_game *g, int end, int loser)
{
    if (g->turn_start && (end == END_RESIGN || end == END_AGREED || end == END_ABORTED)) {
        /* a game ended by resignation, agreement or abort: the side to move's time of this move
         * is spent (a move or a flag fall has charged it already) */
        int s = side_to_move(g);
        int64_t left = g->ms[s] - (play_now() - g->turn_start);
        g->ms[s] = left > 0 ? left : 0;
    }
    g->state = PLAY_OVER;
    g->end = end;
    g->loser = loser;
    g->turn_start = 0;
    g->draw_offer = g->takeback = -1;
    if (end == END_RESIGN)
        cd_game_resign(g->game, loser);
    else if (end == END_TIME)
        cd_game_time_loss(g->game, loser);
    else if (end == END_TIME_DRAW || end == END_AGREED)
        cd_game_agree_draw(g->game);
    rate(g);
}

/* Has the flag of the side to move fallen at `now`, or has a real-time game's side to move let
 * its first move's PLAY_FIRST_MOVE_MS pass? Then end the game (and save it): 1, or -1 when the
 * save took g out (commit: the store no longer holds it; g freed). 0: neither. */
static int check_flag(play_game *g, int64_t now)
{
    int end = -1, loser = -1;
    if (g->state == PLAY_ONGOING && g->clock == PLAY_CLOCK_REALTIME && g->nmoves < 2 &&
        g->first_wait && now - g->first_wait >= PLAY_FIRST_MOVE_MS) {
        end = END_ABORTED;
    } else if (g->state == PLAY_ONGOING && g->clock != PLAY_CLOCK_NONE && g->turn_start) {
        int s = side_to_move(g);
        if (now - g->turn_start < g->ms[s])
            return 0;
        g->ms[s] = 0;
        end = can_win(g, !s) ? END_TIME : END_TIME_DRAW;
        loser = s;
    } else {
        return 0;
    }
    finish(g, end, loser);
    char err[64], id[PLAY_ID_HEX + 1];
    memcpy(id, g->id, sizeof id);
    commit(g, g->nmoves, err, sizeof err);
    return find_mem(id) ? 1 : -1;
}

/* Is g a game not begun that nobody came back to (docs/api.md, "Limits of a client")? 1: a
 * waiting game to delete, 2: a game to abort, 0: neither. */
static int expired_here(const play_game *g, int64_t now)
{
    if (g->online[CD_WHITE] || g->online[CD_BLACK])
        return 0;
    if (g->state == PLAY_WAITING)
        return now - g->seen >= PLAY_AWAY_MS;
    if (g->state != PLAY_ONGOING || g->nmoves >= 2)
        return 0;
    if (g->clock == PLAY_CLOCK_NONE)
        return now - g->seen >= PLAY_AWAY_MS ? 2 : 0;
    if (g->clock == PLAY_CLOCK_CORRESPONDENCE)
        return g->first_wait && now - g->first_wait >= g->base_ms ? 2 : 0;
    return 0; /* real time: check_flag's PLAY_FIRST_MOVE_MS */
}

/* expired_here, and with a shared store as other servers see it too: a page open on another
 * server (store_seen) keeps the game. */
static int expired(play_game *g, int64_t now)
{
    int e = expired_here(g, now);
    if (!e || !store_shared() || g->clock == PLAY_CLOCK_CORRESPONDENCE)
        return e;
    int64_t seen = store_seen_at(g->id);
    if (seen > g->seen)
        g->seen = seen;
    return expired_here(g, now);
}

/* A shared store: the games not begun whose players have a page open here are marked seen now,
 * for the other servers' expired(). */
static void mark_seen(int64_t now)
{
    const char *ids[256];
    int n = 0;
    for (const play_game *g = P.games; g; g = g->next)
        if (g->state != PLAY_OVER && g->nmoves < 2 && (g->online[0] || g->online[1])) {
            ids[n++] = g->id;
            if (n == (int)(sizeof ids / sizeof ids[0])) {
                store_seen(ids, n, now);
                n = 0;
            }
        }
    if (n)
        store_seen(ids, n, now);
}

/* Take g out of memory (and, when `erase`, out of the store): its streams see it gone or read
 * it back. A game another server changed since this copy's revision is not erased (nor
 * dropped): the copy hears the change and is judged again on it. */
static void drop_game(play_game *g, int erase)
{
    if (erase && P.stored && store_delete(g->id, g->rev) != 0)
        return;
    unlink_game(g);
    if (erase)
        changed(g->id);
    play_game_free(g);
}

void play_tick(void)
{
    play_lock();
    int64_t now = play_now();
    int kept = 0;
    for (play_game *g = P.games, *next; g; g = next) {
        next = g->next; /* a failed save may free g */
        if (check_flag(g, now))
            continue;
        if (g->count_due && now - g->count_due >= PLAY_COUNT_MS) {
            g->count_due = 0;
            changed(g->id);
        }
        int e = expired(g, now);
        if (e == 1) {
            drop_game(g, 1);
        } else if (e == 2) {
            finish(g, END_ABORTED, -1);
            char err[64];
            commit(g, g->nmoves, err, sizeof err);
        } else if (g->state == PLAY_OVER) {
            kept++;
        }
    }
    /* finished games leave memory once nobody watches them and nobody read them lately (the
     * oldest first when more than PLAY_KEPT stay): the store has them */
    for (play_game *g = P.games, *next; g && P.stored; g = next) {
        next = g->next;
        if (g->state == PLAY_OVER && !g->online[0] && !g->online[1] && !g->online[2] &&
            (now - g->touched >= PLAY_KEEP_MS || (kept > PLAY_KEPT && now - g->touched >= 1000))) {
            drop_game(g, 0);
            kept--;
        }
    }
    play_unlock();
}

/* ---------------------------------------------------------------- actions */

/* The seat of token in g, or 403 / 409 (err set) when it may not act now (-1 returned). */
static int actor(play_game *g, const char *token, int need_ongoing, unsigned *status, char *err,
                 size_t len)
{
    int seat = play_seat(g, token);
    if (seat < 0) {
        *status = 403;
        snprintf(err, len, "you do not hold a seat in this game");
        return -1;
    }
    if (check_flag(g, play_now()) < 0) {
        *status = 404;
        snprintf(err, len, "unknown game");
        return -1;
    }
    if (need_ongoing && g->state != PLAY_ONGOING) {
        *status = 409;
        snprintf(err, len,
                 g->state == PLAY_WAITING ? "the game has not started" : "the game is over");
        return -1;
    }
    return seat;
}

/* A name (names.h: checked, in NFKC) into dst[PLAY_NAME_BYTES + 1]; NULL or "": "". */
static int set_name(char *dst, const char *name, char *err, size_t len)
{
    dst[0] = 0;
    return name ? name_clean(name, dst, PLAY_NAME_BYTES + 1, "'name'", err, len) : 0;
}

/* The name of g's seat c for token: its account's when the token is logged in to one, else the
 * name given, which may not be an account's. 0, or -1 with err set. */
static int seat_name(play_game *g, int c, const char *token, const char *name, char *err,
                     size_t len)
{
    char acct[PLAY_NAME_BYTES + 1] = "", key[4 * PLAY_NAME_BYTES];
    if (P.stored && store_login_name(token, acct, sizeof acct)) {
        snprintf(g->name[c], sizeof g->name[c], "%s", acct);
        return 0;
    }
    if (set_name(g->name[c], name, err, len))
        return -1;
    if (P.stored && g->name[c][0] &&
        (name_key(g->name[c], key, sizeof key) != 0 ||
         store_account_like(key, acct, sizeof acct))) {
        snprintf(err, len, "the name '%s' is (or looks like) an account's: log in to use it", acct);
        g->name[c][0] = 0;
        return -1;
    }
    return 0;
}

static play_game *game_new(const play_new *n, char *err, size_t len)
{
    play_game *g = calloc(1, sizeof *g);
    if (!g || !(g->game = cd_game_new(n->rules, NULL))) {
        free(g);
        snprintf(err, len, "out of memory");
        return NULL;
    }
    do
        cd_api_random_id(g->id, PLAY_ID_HEX);
    while (play_find(g->id));
    g->rules = n->rules;
    g->clock = n->clock;
    g->base_ms = n->base_ms;
    g->inc_ms = n->inc_ms;
    g->ms[0] = g->ms[1] = n->base_ms;
    g->open = n->open;
    g->state = PLAY_WAITING;
    g->draw_offer = g->takeback = g->rematch = -1;
    g->created = g->seen = g->touched = play_now();
    return g;
}

/* May token (from addr) create one more game now? 0 (the creation counted), or 429 with
 * *retry_ms and err set. */
static unsigned may_create(const char *token, const char *addr, int64_t *retry_ms, char *err,
                           size_t len)
{
    int by_addr = P.per_address && addr && addr[0];
    int waiting_token = 0, waiting_addr = 0;
    int64_t now = play_now(), oldest = now;
    for (const play_game *g = P.games; g; g = g->next) {
        if (g->state != PLAY_WAITING)
            continue;
        int mine = play_seat(g, token) >= 0, here = by_addr && !strcmp(g->addr, addr);
        waiting_token += mine;
        waiting_addr += here;
        if ((mine || here) && g->seen < oldest)
            oldest = g->seen;
    }
    if (waiting_token >= PLAY_WAITING_TOKEN || waiting_addr >= PLAY_WAITING_ADDR) {
        *retry_ms = oldest + PLAY_AWAY_MS - now;
        snprintf(err, len,
                 "%d games of yours wait for an opponent: wait for one, or delete one (they expire "
                 "%d minutes after your page left them)",
                 waiting_token >= PLAY_WAITING_TOKEN ? waiting_token : waiting_addr,
                 PLAY_AWAY_MS / 60000);
        return 429;
    }
    char key[PLAY_NAME_BYTES + 2]; /* the account when the token is logged in to one */
    if (P.stored)
        store_player(token, key, sizeof key);
    else
        snprintf(key, sizeof key, "%s", token);
    int64_t wait = rate_wait(&P.creates_token, key, now);
    int64_t wait_addr = by_addr ? rate_wait(&P.creates_addr, addr, now) : 0;
    if (wait_addr > wait)
        wait = wait_addr;
    if (wait) {
        *retry_ms = wait;
        snprintf(err, len, "too many games created: %d a minute from a browser, %d from an address",
                 PLAY_CREATES_TOKEN, PLAY_CREATES_ADDR);
        return 429;
    }
    rate_charge(&P.creates_token, key, now);
    if (by_addr)
        rate_charge(&P.creates_addr, addr, now);
    return 0;
}

unsigned play_create(const play_new *n, const char *token, play_game **out, int64_t *retry_ms,
                     char *err, size_t len)
{
    int live = 0;
    for (const play_game *g = P.games; g; g = g->next)
        live += g->state != PLAY_OVER;
    if (live >= P.max_live) {
        snprintf(err, len, "too many games");
        return 503;
    }
    unsigned status = may_create(token, n->addr, retry_ms, err, len);
    if (status)
        return status;
    int colour = n->colour;
    if (colour < 0) {
        unsigned char b = 0;
        if (getrandom(&b, 1, 0) != 1)
            b = (unsigned char)time(NULL);
        colour = b & 1;
    }
    play_game *g = game_new(n, err, len);
    if (!g)
        return 500;
    if (seat_name(g, colour, token, n->name, err, len)) {
        play_game_free(g);
        return 400;
    }
    memcpy(g->token[colour], token, PLAY_TOKEN + 1);
    snprintf(g->addr, sizeof g->addr, "%s", n->addr ? n->addr : "");
    seat_down(g, colour);
    link_game(g);
    *out = g;
    return commit(g, 0, err, len);
}

unsigned play_join(play_game *g, const char *token, const char *name, char *err, size_t len)
{
    unsigned status = 0;
    if (!(g = current(g, &status, err, len)))
        return status;
    if (play_seat(g, token) >= 0)
        return 0; /* already seated: nothing to do */
    if (g->state != PLAY_WAITING) {
        snprintf(err, len, "both seats are taken");
        return 409;
    }
    int seat = g->token[CD_WHITE][0] ? CD_BLACK : CD_WHITE;
    if (seat_name(g, seat, token, name, err, len))
        return 400;
    memcpy(g->token[seat], token, PLAY_TOKEN + 1);
    seat_down(g, seat);
    g->state = PLAY_ONGOING;
    g->first_wait = play_now();
    return commit(g, g->nmoves, err, len);
}

static int push_move(play_game *g, const char *hub, int64_t now)
{
    play_move *m = play_move_append(g);
    if (!m)
        return -1;
    snprintf(m->hub, sizeof m->hub, "%s", hub);
    m->ms[0] = g->ms[0];
    m->ms[1] = g->ms[1];
    m->at = now;
    return 0;
}

unsigned play_move_text(play_game *g, const char *token, const char *move, char *err, size_t len)
{
    unsigned status = 0;
    int seat = actor(g, token, 1, &status, err, len);
    if (seat < 0)
        return status;
    if (seat != side_to_move(g)) {
        snprintf(err, len, "it is not your turn");
        return 409;
    }
    cd_move m;
    cd_result r = cd_move_parse(cd_game_position(g->game), move, &m, err, len);
    if (r == CD_OK)
        r = cd_game_play(g->game, &m);
    if (r != CD_OK) {
        if (!err[0])
            snprintf(err, len, "%s", cd_result_str(r));
        return 400;
    }
    char hub[160];
    cd_move_to_hub(cd_game_position_at(g->game, g->nmoves), &m, hub, sizeof hub);
    int64_t now = play_now();
    if (g->turn_start) {
        g->ms[seat] -= now - g->turn_start;
        g->ms[seat] = g->clock == PLAY_CLOCK_CORRESPONDENCE ? g->base_ms : g->ms[seat] + g->inc_ms;
    }
    if (push_move(g, hub, now) != 0) {
        cd_game_undo(g->game);
        snprintf(err, len, "out of memory");
        return 500;
    }
    g->draw_offer = g->takeback = -1;
    g->turn_start = g->clock != PLAY_CLOCK_NONE && g->nmoves >= 2 ? now : 0;
    g->first_wait = g->nmoves < 2 ? now : 0;
    if (cd_game_status(g->game, NULL) != CD_ONGOING)
        finish(g, END_RULES, -1);
    return commit(g, g->nmoves - 1, err, len);
}

unsigned play_resign(play_game *g, const char *token, char *err, size_t len)
{
    unsigned status = 0;
    int seat = actor(g, token, 1, &status, err, len);
    if (seat < 0)
        return status;
    finish(g, END_RESIGN, seat);
    return commit(g, g->nmoves, err, len);
}

unsigned play_abort(play_game *g, const char *token, char *err, size_t len)
{
    unsigned status = 0;
    if (!(g = current(g, &status, err, len)) || actor(g, token, 0, &status, err, len) < 0)
        return status;
    if (g->state == PLAY_OVER || g->nmoves >= 2) {
        snprintf(err, len,
                 g->state == PLAY_OVER ? "the game is over"
                                       : "too late to abort: both sides have moved");
        return 409;
    }
    finish(g, END_ABORTED, -1);
    return commit(g, g->nmoves, err, len);
}

/* An offer/answer exchange on the field *pending: 0 with *accepted, or an HTTP status. */
static unsigned exchange(int *pending, int seat, const char *what, const char *ask, int *accepted,
                         char *err, size_t len)
{
    *accepted = 0;
    if (!strcmp(what, ask)) {
        if (*pending == !seat) { /* both want it */
            *accepted = 1;
            *pending = -1;
        } else {
            *pending = seat;
        }
        return 0;
    }
    if (!strcmp(what, "accept") || !strcmp(what, "decline")) {
        if (*pending != !seat) {
            snprintf(err, len, "there is no offer from your opponent to answer");
            return 409;
        }
        *pending = -1;
        *accepted = what[0] == 'a';
        return 0;
    }
    snprintf(err, len, "'action' must be \"%s\", \"accept\" or \"decline\"", ask);
    return 400;
}

unsigned play_draw(play_game *g, const char *token, const char *what, char *err, size_t len)
{
    unsigned status = 0;
    int seat = actor(g, token, 1, &status, err, len);
    if (seat < 0)
        return status;
    int accepted = 0;
    if ((status = exchange(&g->draw_offer, seat, what, "offer", &accepted, err, len)))
        return status;
    if (accepted)
        finish(g, END_AGREED, -1);
    return commit(g, g->nmoves, err, len);
}

unsigned play_takeback(play_game *g, const char *token, const char *what, char *err, size_t len)
{
    unsigned status = 0;
    int seat = actor(g, token, 1, &status, err, len);
    if (seat < 0)
        return status;
    int pending = g->takeback;
    if (!strcmp(what, "ask") && g->takeback < 0) {
        /* the asker's last move: one ply back if the opponent is to move, else two */
        int plies = side_to_move(g) == seat ? 2 : 1;
        if (g->nmoves < plies) {
            snprintf(err, len, "you have no move to take back");
            return 409;
        }
    }
    int accepted = 0;
    if ((status = exchange(&g->takeback, seat, what, "ask", &accepted, err, len)))
        return status;
    if (accepted) {
        int asker = pending >= 0 ? pending : seat;
        int plies = side_to_move(g) == asker ? 2 : 1;
        if (plies > g->nmoves)
            plies = g->nmoves;
        for (int i = 0; i < plies; i++)
            cd_game_undo(g->game);
        g->nmoves -= plies;
        g->ms[0] = g->nmoves ? g->moves[g->nmoves - 1].ms[0] : g->base_ms;
        g->ms[1] = g->nmoves ? g->moves[g->nmoves - 1].ms[1] : g->base_ms;
        g->turn_start = g->clock != PLAY_CLOCK_NONE && g->nmoves >= 2 ? play_now() : 0;
        g->first_wait = g->nmoves < 2 ? play_now() : 0;
        g->draw_offer = -1;
    }
    return commit(g, g->nmoves, err, len);
}

unsigned play_rematch(play_game *g, const char *token, const char *what, char *err, size_t len)
{
    unsigned status = 0;
    if (!(g = current(g, &status, err, len)))
        return status;
    int seat = play_seat(g, token);
    if (seat < 0) {
        snprintf(err, len, "you do not hold a seat in this game");
        return 403;
    }
    if (g->state != PLAY_OVER || g->end == END_ABORTED || !g->token[!seat][0]) {
        snprintf(err, len, "a rematch follows a finished game");
        return 409;
    }
    if (g->rematch_id[0]) {
        snprintf(err, len, "the rematch has begun");
        return 409;
    }
    int accepted = 0;
    if ((status = exchange(&g->rematch, seat, what, "offer", &accepted, err, len)))
        return status;
    if (accepted) {
        play_new n = {g->rules, 0, g->clock, g->base_ms, g->inc_ms, NULL, 0, NULL};
        play_game *r = game_new(&n, err, len);
        if (!r)
            return 500;
        for (int c = 0; c < 2; c++) { /* colours swapped */
            memcpy(r->token[!c], g->token[c], sizeof r->token[c]);
            memcpy(r->name[!c], g->name[c], sizeof r->name[c]);
        }
        seat_down(r, CD_WHITE);
        seat_down(r, CD_BLACK);
        r->state = PLAY_ONGOING;
        r->first_wait = play_now();
        link_game(r);
        memcpy(g->rematch_id, r->id, sizeof r->id);
        if ((status = commit(r, 0, err, len))) {
            g->rematch_id[0] = 0;
            return status;
        }
        char id[PLAY_ID_HEX + 1];
        memcpy(id, r->id, sizeof id);
        if ((status = commit(g, g->nmoves, err, len)) && (r = find_mem(id)))
            drop_game(r, 1); /* g not saved (it was read back): its rematch is not begun */
        return status;
    }
    return commit(g, g->nmoves, err, len);
}

/* Deleted at the revision it was judged on: a game another server changed meanwhile (between
 * the look and the deletion) is read back and judged again (PLAY_DELETE_TRIES times at most). */
#define PLAY_DELETE_TRIES 3
unsigned play_delete(play_game *g, const char *token, char *err, size_t len)
{
    unsigned status = 0;
    for (int tries = 1;; tries++) {
        if (!(g = current(g, &status, err, len)))
            return status;
        if (play_seat(g, token) < 0) {
            snprintf(err, len, "you do not hold a seat in this game");
            return 403;
        }
        if (g->state == PLAY_ONGOING) {
            snprintf(err, len, "the game is in progress (resign or abort it first)");
            return 409;
        }
        int done = P.stored ? store_delete(g->id, g->rev) : 0;
        if (done == 0)
            break;
        if (done == -3 && tries < PLAY_DELETE_TRIES)
            continue;
        snprintf(err, len, done == -3 ? "the game keeps changing: try again"
                                      : "the game could not be deleted");
        return done == -3 ? 409 : 500;
    }
    unlink_game(g);
    changed(g->id);
    play_game_free(g);
    return 0;
}

/* ---------------------------------------------------------------- the players' chat */

/* A chat message's text checked: valid UTF-8 (shortest forms, no surrogates, at most U+10FFFF),
 * 1 to PLAY_CHAT_CHARS characters, not only spaces, no control characters. 0, or -1 with err. */
static int chat_text(const char *s, char *err, size_t len)
{
    size_t n = strlen(s), chars = 0;
    int visible = 0;
    for (size_t i = 0; i < n;) {
        unsigned char c = (unsigned char)s[i];
        uint32_t cp = c;
        size_t k = c < 0x80                 ? 1
                   : c >= 0xc2 && c <= 0xdf ? 2
                   : c >= 0xe0 && c <= 0xef ? 3
                   : c >= 0xf0 && c <= 0xf4 ? 4
                                            : 0;
        if (k > 1)
            cp = c & (0x7f >> k);
        for (size_t j = 1; k && j < k; j++) {
            unsigned char b = i + j < n ? (unsigned char)s[i + j] : 0;
            if ((b & 0xc0) != 0x80)
                k = 0;
            cp = cp << 6 | (b & 0x3f);
        }
        if (!k || (k == 3 && cp < 0x800) || (k == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
            (cp >= 0xd800 && cp <= 0xdfff)) {
            snprintf(err, len, "'text' is not valid UTF-8");
            return -1;
        }
        if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) {
            snprintf(err, len, "'text' may not hold control characters (line breaks included)");
            return -1;
        }
        visible |= cp != ' ';
        chars++;
        i += k;
    }
    if (!visible) {
        snprintf(err, len, "'text' is empty");
        return -1;
    }
    if (chars > PLAY_CHAT_CHARS) {
        snprintf(err, len, "'text' is longer than %d characters", PLAY_CHAT_CHARS);
        return -1;
    }
    return 0;
}

unsigned play_say(play_game *g, const char *token, const char *text, int64_t *retry_ms, char *err,
                  size_t len)
{
    int seat = play_seat(g, token);
    if (seat < 0) {
        snprintf(err, len, "only the players write in this chat: you do not hold a seat");
        return 403;
    }
    if (chat_text(text, err, len))
        return 400;
    if (g->nchat >= PLAY_CHAT_MAX) {
        snprintf(err, len, "the chat of this game is full (%d messages)", PLAY_CHAT_MAX);
        return 409;
    }
    int64_t now = play_now(), *oldest = &g->said[seat][0];
    for (int i = 1; i < PLAY_CHAT_BURST; i++)
        if (g->said[seat][i] < *oldest)
            oldest = &g->said[seat][i];
    if (now - *oldest < PLAY_CHAT_WINDOW) {
        *retry_ms = PLAY_CHAT_WINDOW - (now - *oldest);
        snprintf(err, len, "%d messages in %d s: wait a little", PLAY_CHAT_BURST,
                 PLAY_CHAT_WINDOW / 1000);
        return 429;
    }
    if (play_chat_append(g, seat, text, now) != 0) {
        snprintf(err, len, "out of memory");
        return 500;
    }
    int rc = P.stored ? store_chat(g, g->nchat - 1) : 0;
    if (rc != 0) {
        free(g->chat[--g->nchat].text);
        if (rc == -3) { /* another server changed the game first: read it again */
            int n = store_load(g->id, adopt);
            changed(g->id);
            if (n == 0) { /* another server deleted it: the copy dropped */
                unlink_game(g);
                play_game_free(g);
                snprintf(err, len, "unknown game");
                return 404;
            }
            snprintf(err, len, "the game changed meanwhile (another server): try again");
            return 409;
        }
        snprintf(err, len, "the message could not be saved");
        return 500;
    }
    *oldest = now;
    g->version++;
    published(g);
    return 0;
}

/* For play_json.c: every game in turn. */
const play_game *play_first(void) { return P.games; }

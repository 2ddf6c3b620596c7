/*
 * store.c -- the store of games between people (store.h): picks SQLite or PostgreSQL by the text
 * given, then passes each call to the one open.
 */
#include "store.h"
#include "store_pg.h"
#include "store_sqlite.h"
#include "pg_sync.h"
#include "sqlite_sync.h"

#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

static const store_ops *S; /* the open store, NULL when none */
typedef void (*synced_fn)(uint64_t synced);
static _Atomic(synced_fn) synced_hooks[STORE_SYNCED_HOOKS]; /* store_on_synced */

int store_is_pg(const char *where)
{
    if (!strncmp(where, "postgresql://", 13) || !strncmp(where, "postgres://", 11))
        return 1;
    for (const char *p = where; *p && !isspace((unsigned char)*p); p++)
        if (*p == '=')
            return p > where; /* a conninfo's first keyword=value */
    return 0;
}

int store_open(const char *where, char *err, size_t errlen)
{
    const store_ops *ops = store_is_pg(where) ? &store_pg : &store_sqlite;
    if (ops->open(where, err, errlen) != 0)
        return -1;
    S = ops;
    return 0;
}

void store_close(void)
{
    if (S)
        S->close();
    S = NULL;
}

int store_save(play_game *g, int from) { return S ? S->save(g, from) : -1; }
int store_delete(const char *id, int64_t rev) { return S ? S->del(id, rev) : -1; }
int store_alive(int64_t now) { return S ? S->alive(now) : -1; }
int64_t store_last_alive(void) { return S ? S->last_alive() : 0; }
int store_chat(play_game *g, int i) { return S ? S->chat(g, i) : -1; }

glicko store_rating(const char *token, const char *variant)
{
    return S ? S->rating(token, variant) : GLICKO_NEW;
}

void store_player(const char *token, char *key, size_t cap)
{
    if (S)
        S->player(token, key, cap);
    else
        snprintf(key, cap, "%s", token);
}

int store_login_name(const char *token, char *name, size_t cap)
{
    return S ? S->login_name(token, name, cap) : 0;
}

int store_account_hash(const char *name, char *hash, size_t cap, char *canonical, size_t ncap)
{
    return S ? S->account_hash(name, hash, cap, canonical, ncap) : 0;
}

int store_account_add(const char *name, const char *hash, const char *token)
{
    return S ? S->account_add(name, hash, token) : -1;
}

int store_account_like(const char *key, char *name, size_t cap)
{
    return S ? S->account_like(key, name, cap) : 0;
}

int store_login(const char *token, const char *name) { return S ? S->login(token, name) : -1; }

int store_account_rehash(const char *name, const char *hash, const char *keep)
{
    return S ? S->account_rehash(name, hash, keep) : -1;
}

int store_load(const char *id, void (*add)(play_game *g)) { return S ? S->load(id, add) : -1; }

int store_shared(void) { return S && S->shared; }

int store_rev(const char *id, int64_t *rev) { return S && S->rev ? S->rev(id, rev) : -1; }

int store_heard(int timeout_ms, void (*heard)(const char *id, int64_t rev))
{
    return S && S->heard ? S->heard(timeout_ms, heard) : -1;
}

int store_revs(const char *const *ids, int n, int64_t *revs)
{
    return S && S->revs ? S->revs(ids, n, revs) : -1;
}

int store_read(const char *const *ids, int n, void (*add)(play_game *g))
{
    return S && S->read ? S->read(ids, n, add) : -1;
}

int store_seen(const char *const *ids, int n, int64_t now)
{
    return S && S->seen ? S->seen(ids, n, now) : -1;
}

int64_t store_seen_at(const char *id) { return S && S->seen_at ? S->seen_at(id) : 0; }

uint64_t store_written(void)
{
    return S == &store_sqlite ? sqlite_sync_written() : S == &store_pg ? pg_sync_written() : 0;
}

uint64_t store_synced(void)
{
    return S == &store_sqlite ? sqlite_sync_synced() : S == &store_pg ? pg_sync_synced() : 0;
}

void store_on_synced(void (*fn)(uint64_t synced))
{
    for (int i = 0; i < STORE_SYNCED_HOOKS; i++) {
        synced_fn none = NULL;
        if (atomic_load(&synced_hooks[i]) == fn ||
            atomic_compare_exchange_strong(&synced_hooks[i], &none, fn))
            return;
    }
}

void store_synced_report(uint64_t synced)
{
    for (int i = 0; i < STORE_SYNCED_HOOKS; i++) {
        synced_fn fn = atomic_load(&synced_hooks[i]);
        if (fn)
            fn(synced);
    }
}

int store_results(const char *player, int offset, int n, profile_result *out)
{
    return S ? S->results(player, offset, n, out) : -1;
}

int store_results_from(const char *player, const profile_cursor *at, int older, int n,
                       profile_result *out)
{
    return S ? S->results_from(player, at, older, n, out) : -1;
}

int store_game_results(const char *game, profile_result out[2])
{
    return S ? S->game_results(game, out) : -1;
}

int store_records(const char *player, profile_record *out, int cap)
{
    return S ? S->records(player, out, cap) : -1;
}

int store_board(const char *variant, int64_t now, int offset, int n, profile_rank *out,
                int64_t *total)
{
    if (total)
        *total = 0;
    return S ? S->board(variant, now, offset, n, out, total) : -1;
}

int store_history(const char *player, const char *variant, int n, profile_point *out)
{
    return S ? S->history(player, variant, n, out) : -1;
}

void store_key_of(const char *token, int (*login_name)(const char *token, char *name, size_t cap),
                  char *key, size_t cap)
{
    char name[PLAY_NAME_BYTES + 1];
    if (login_name(token, name, sizeof name))
        snprintf(key, cap, "@%s", name);
    else
        snprintf(key, cap, "%s", token);
}

int store_write_results(const play_game *g, int64_t ended, const store_results_writer *w)
{
    char keys[2][PROFILE_KEY], player[PROFILE_KEY];
    profile_result rows[2];
    for (int c = 0; c < 2; c++) {
        w->player(g->token[c], player, sizeof player);
        profile_key(player, keys[c]);
    }
    if (!profile_rows(g, keys, ended ? ended : play_now(), rows))
        return 1;
    for (int c = 0; c < 2; c++) {
        const profile_result *r = &rows[c];
        int added = w->add_result(r);
        if (added < 0)
            return 0;
        if (added == 0)
            continue; /* written before */
        const glicko *a = &g->after[c];
        int rated = a->rating > 0;
        profile_record d = {.wins = r->score == 2,
                            .draws = r->score == 1,
                            .losses = r->score == 0,
                            .rating = rated ? *a : (glicko){0, 0, 0},
                            .at = rated ? r->ended : 0};
        snprintf(d.variant, sizeof d.variant, "%s", r->variant);
        if (!w->add_record(r, &d))
            return 0;
    }
    return 1;
}

/* store_backfill's game, read back by the store's load. */
static const store_results_writer *backfill_writer;
static int backfill_ok;

static void backfill_add(play_game *g)
{
    int64_t ended = g->nmoves ? g->moves[g->nmoves - 1].at : g->created;
    if (!store_write_results(g, ended, backfill_writer))
        backfill_ok = 0;
    play_game_free(g);
}

int store_backfill(const char *id, int (*load)(const char *id, void (*add)(play_game *g)),
                   const store_results_writer *w)
{
    backfill_writer = w;
    backfill_ok = 1;
    return load(id, backfill_add) >= 0 && backfill_ok;
}

void store_listed_until(char *out, size_t cap, const char *trunc_open, const char *trunc_close)
{
    const double p2 = (double)GLICKO_PROVISIONAL_RD * GLICKO_PROVISIONAL_RD;
    const double s2 = GLICKO_SCALE * GLICKO_SCALE;
    const long long day = GLICKO_PERIOD_MS;
    /* doubles written as CAST(... AS DOUBLE PRECISION): a real in both dialects, and the same
     * double as in C (%.17g reads back exactly) */
    snprintf(out, cap,
             "CASE WHEN rd * rd > CAST(%.17g AS DOUBLE PRECISION) THEN 0 "
             "WHEN vol <= 0 OR CAST(%.17g AS DOUBLE PRECISION) - rd * rd >= %d * CAST(%.17g AS "
             "DOUBLE PRECISION) * vol * vol THEN at + %lld "
             "ELSE at + (%s(CAST(%.17g AS DOUBLE PRECISION) - rd * rd) / (CAST(%.17g AS DOUBLE "
             "PRECISION) * vol * vol)%s + 1) * %lld END",
             p2, p2, PROFILE_ACTIVE_DAYS, s2, PROFILE_ACTIVE_DAYS * day + 1, trunc_open, p2, s2,
             trunc_close, day);
}

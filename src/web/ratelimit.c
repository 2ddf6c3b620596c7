/*
 * ratelimit.c -- token buckets by key in a table of fixed size (ratelimit.h).
 */
#include "ratelimit.h"

#include <stdio.h>
#include <string.h>

#define PROBES 8 /* slots a key may use, from its hash on */

static unsigned hash_key(const char *key)
{
    unsigned h = 2166136261u; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 16777619u;
    return h;
}

/* key's slot: its own, or (make) a free or the least recently charged one, reset; or NULL. */
static rate_slot *slot_of(rate_table *t, const char *key, int make)
{
    char k[RATE_KEY];
    snprintf(k, sizeof k, "%s", key);
    unsigned h = hash_key(k);
    rate_slot *victim = NULL;
    for (unsigned i = 0; i < PROBES; i++) {
        rate_slot *s = &t->slot[(h + i) % RATE_SLOTS];
        if (s->last && !strcmp(s->key, k))
            return s;
        if (!victim || s->last < victim->last)
            victim = s;
    }
    if (!make)
        return NULL;
    memcpy(victim->key, k, sizeof k);
    victim->tokens = t->burst;
    victim->last = 0;
    return victim;
}

/* The slot's tokens brought up to `now`. */
static double refill(const rate_table *t, rate_slot *s, int64_t now)
{
    if (s->last && now > s->last)
        s->tokens += (double)(now - s->last) * t->burst / (double)t->window_ms;
    if (s->tokens > t->burst)
        s->tokens = t->burst;
    s->last = now > 0 ? now : 1;
    return s->tokens;
}

int64_t rate_wait(rate_table *t, const char *key, int64_t now)
{
    rate_slot *s = slot_of(t, key, 0);
    if (!s)
        return 0;
    double have = refill(t, s, now);
    if (have >= 1)
        return 0;
    return (int64_t)((1 - have) * (double)t->window_ms / t->burst) + 1;
}

void rate_charge(rate_table *t, const char *key, int64_t now)
{
    rate_slot *s = slot_of(t, key, 1);
    refill(t, s, now);
    s->tokens = s->tokens >= 1 ? s->tokens - 1 : 0;
}

void rate_forget(rate_table *t, const char *key)
{
    rate_slot *s = slot_of(t, key, 0);
    if (s)
        memset(s, 0, sizeof *s);
}

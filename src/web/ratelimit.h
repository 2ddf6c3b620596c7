/*
 * ratelimit.h -- limits by key (an address, a player token, an account name): a token bucket per
 * key in a table of fixed size, so that no number of keys can grow the server's memory.
 *
 * A bucket holds at most `burst` tokens and gains burst tokens every `window_ms`; a key without
 * an entry has a full bucket. The table has RATE_SLOTS entries: a new key takes a free slot or the
 * one, among the few its hash may use, that was charged longest ago (most often a bucket full
 * again, which forgets nothing). Not thread-safe: the caller's lock guards the table.
 */
#ifndef CD_WEB_RATELIMIT_H
#define CD_WEB_RATELIMIT_H

#include <stdint.h>

#define RATE_SLOTS 2048
#define RATE_KEY   112 /* bytes of a key (longer keys are cut) */

typedef struct rate_slot {
    char key[RATE_KEY];
    double tokens;
    int64_t last; /* when tokens was last brought up to date (ms); 0: a free slot */
} rate_slot;

typedef struct rate_table {
    int burst;
    int64_t window_ms;
    rate_slot slot[RATE_SLOTS];
} rate_table;

/* Milliseconds until key has a token (0: it has one now). */
int64_t rate_wait(rate_table *t, const char *key, int64_t now);
/* Take one of key's tokens (none left: the bucket stays empty). */
void rate_charge(rate_table *t, const char *key, int64_t now);
/* Forget key (its bucket full again). */
void rate_forget(rate_table *t, const char *key);

#endif

/*
 * profile.h -- what the site keeps of a player's finished games, for the profile pages and the
 * leaderboards (api_profile.c, docs/api.md "Players"): the rows the store writes when a game
 * ends, and the public id that names an anonymous browser.
 *
 * A player is named by a key: "@NAME" for an account (its name as registered), "~ID" for a
 * browser without an account, where ID (PROFILE_ID hex digits) is the browser's public id: a
 * BLAKE2b hash of its secret player token (play.h), under a key of its own, so that the id can be
 * shown to anyone and the token cannot be found from it. A seat is recorded under the key of the
 * account its token is logged in to when the game ends (as its rating is: store.h), else under
 * the browser's.
 *
 * When a game ends (PLAY_OVER, not aborted, both seats taken) the store writes, in the game's own
 * transaction, one `results` row a seat (profile_result: keyed by game and colour, written once)
 * and adds it to the seat's `records` row (player, variant: wins, draws, losses, and the rating
 * after its latest rated game there). The leaderboard reads `ratings` (store.h) for accounts.
 *
 * A leaderboard lists the accounts whose rating in its variant is established and active at the
 * moment it is asked for (`now`): their latest rated game there ended at most PROFILE_ACTIVE_DAYS
 * days before, and their deviation, grown by the whole days since (glicko_idle), is at most
 * GLICKO_PROVISIONAL_RD (not provisional). The others keep their ratings and come back with
 * their next rated games.
 *
 * So an account is listed from its latest rated game until a time fixed by that game's rating:
 * `ratings.listed_until` (ms; a column both stores compute from rd, vol and at:
 * store_listed_until), listed while now < listed_until. With q = (110^2 - rd^2) / (S^2 vol^2)
 * (S = GLICKO_SCALE), the idle days its deviation stays at most 110: listed_until = 0 (never)
 * when rd > 110, at + 90 days + 1 ms when q >= 90 (or vol <= 0: the activity rule ends it), else
 * at + (floor(q) + 1) days. The number listed is kept per variant and hour of listed_until
 * (`board_counts`: variant, hour = listed_until / PROFILE_BOARD_HOUR_MS, n), by a trigger on
 * `ratings` in the store itself (its every write, the server's or anyone's), so that a count at
 * `now` is the hours after now's (a row each) and the rows ending within now's hour (an index
 * range): a few thousand rows at most, whatever the number of accounts, and exact.
 */
#ifndef CD_WEB_PROFILE_H
#define CD_WEB_PROFILE_H

#include <stddef.h>
#include <stdint.h>

#include "play.h"

#include <cjson/cJSON.h>

#define PROFILE_ID      16                    /* hex digits of a browser's public id (64 bits) */
#define PROFILE_KEY     (PLAY_NAME_BYTES + 2) /* bytes of a key with its '\0' */
#define PROFILE_PAGE    20    /* games on a profile page, players on a leaderboard's */
#define PROFILE_PAGES   10000 /* pages that may be asked for (1 to this) */
#define PROFILE_VARIANT 32    /* bytes of a variant's name with its '\0' */
#define PROFILE_POINTS  200   /* rated games a rating graph shows (the latest) */
#define PROFILE_ACTIVE_DAYS 90 /* a leaderboard's players had a rated game within this */
#define PROFILE_BOARD_HOUR_MS 3600000 /* board_counts' buckets (above) */
/* the same in the stores' SQL text (store_pg.c, store_sqlite.c) */
#define PROFILE_BOARD_HOUR_MS_SQL "3600000"
_Static_assert(PROFILE_BOARD_HOUR_MS == 3600000, "PROFILE_BOARD_HOUR_MS_SQL spells it");

/* One seat of a finished game, as its player's profile lists it. */
typedef struct profile_result {
    char player[PROFILE_KEY]; /* the seat's key */
    char game[PLAY_ID_HEX + 1];
    int64_t ended; /* when it ended (ms since the epoch) */
    char variant[PROFILE_VARIANT];
    int colour;                     /* CD_WHITE, CD_BLACK */
    int score;                      /* 2 a win, 1 a draw, 0 a loss */
    char name[PLAY_NAME_BYTES + 1]; /* the seat's name in the game */
    char opponent[PROFILE_KEY];     /* the other seat's key and name */
    char opponent_name[PLAY_NAME_BYTES + 1];
    int ending;           /* END_* (play.h) */
    double rating, after; /* the seat's rating before and after (0: not rated) */
    int plies;
} profile_result;

/* A place in a player's list of finished games, which runs newest first (by `ended`, then by
 * game id, both descending): the row of game `game`, which ended at `ended`. */
typedef struct profile_cursor {
    int64_t ended;
    char game[PLAY_ID_HEX + 1];
} profile_cursor;

/* A player's record in one variant. */
typedef struct profile_record {
    char variant[PROFILE_VARIANT];
    int wins, draws, losses;
    glicko rating; /* after its latest rated game (rating 0: none) */
    int64_t at;    /* when that game ended (ms; 0: none) */
} profile_record;

/* A point of a player's rating graph: its rating after a rated game, and when that game ended. */
typedef struct profile_point {
    int64_t at;
    double rating;
} profile_point;

/* A line of a leaderboard. */
typedef struct profile_rank {
    char name[PLAY_NAME_BYTES + 1]; /* the account's name */
    glicko rating; /* after its latest rated game */
    int64_t at;    /* when that game ended (ms) */
    int games;
} profile_rank;

_Static_assert(sizeof((play_game *)0)->who[0] == PROFILE_KEY, "play_game.who holds a key");

/* The public id of a player token into out[PROFILE_ID + 1] (the token itself is not kept). */
void profile_id(const char *token, char *out);
/* The key of a seat recorded under `player` (store_player: "@NAME", or the token) into
 * key[PROFILE_KEY]. */
void profile_key(const char *player, char *key);
/* {"name", "account", "id"} of the player of key ("@NAME": an account, its name; "~ID": a browser,
 * its id, and `name` as its name), as the API shows a player (docs/api.md "Players"). */
cJSON *profile_who_json(const char *key, const char *name);
/* Is key a well-formed key ("@" and 1 to PLAY_NAME_BYTES bytes, "~" and PROFILE_ID hex digits)? */
int profile_key_ok(const char *key);
/* The rows of g's seats (g over, not aborted, both seats taken: else 0 and nothing written),
 * keys[c] each seat's key (profile_key), `ended` when it ended: 2. g's result is read from its
 * cd_game, or from its moves replayed when it has none (a game read back from the store). */
int profile_rows(const play_game *g, char keys[2][PROFILE_KEY], int64_t ended,
                 profile_result rows[2]);

#endif

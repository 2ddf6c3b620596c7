/*
 * play.h -- games between two people (docs/api.md, "Play a friend"): the game service.
 *
 * A play_game is a cd_game with two seats, a clock and the pending offers (draw, takeback,
 * rematch). A seat is held by a player token: 32 hex digits (128 bits from getrandom) that the
 * server gives a browser in an HttpOnly, SameSite=Strict cookie; every write names its token and
 * is refused (403) unless the token holds a seat of that game. Anyone else only watches.
 *
 * The server is the only clock authority. Times are wall-clock milliseconds (CLOCK_REALTIME) so
 * that they survive a restart: the side to move's clock runs from `turn_start`, which is set when
 * both sides have made their first move and after every move since. Before that, in a real-time
 * game, each side has PLAY_FIRST_MOVE_MS for its first move from `first_wait` (lidraughts' rule):
 * a side that lets it pass aborts the game (not rated, no one loses). A flag falls when the time
 * of the side to move is spent; play_tick (a thread of the server, every 100 ms) and every
 * request find it. The clock of a correspondence game is `days` per move, reset after each move.
 *
 * The games live in one list guarded by play_lock(); every change bumps the game's version and
 * wakes the live streams that watch the game (play_watch) once it is on disk (store_synced: the
 * SQLite store syncs the changes of many games at once). Every change is written to the store
 * (store.h) in one transaction before it is answered (a chat message: its row alone); when
 * the write fails the game is read back from the store and the request fails (507 when the disk is
 * full, else 500), so memory never runs ahead of the disk.
 *
 * With a store several servers share (store.h, PostgreSQL), the list is each server's copy of the
 * store's live games: a listener thread reads each change another server announces and wakes the
 * streams, so the copy is trusted between announcements and a read asks the store nothing; a
 * change is written only over the revision it was made from (play_game.rev), else refused (the
 * game read back), so each decision is taken once. A copy may lag an announcement by
 * milliseconds: an action it refuses, or whose write another server's change beat, is judged
 * once more on the game read again (play_recheck). While announcements may have been missed
 * (the listening connection lost, a write failed) every play_find asks the store for the game's
 * revision, until every game is read again. Presence (online[], seen) is each server's own; a
 * game not begun expires only when no server has seen its players' pages (store_seen).
 */
#ifndef CD_WEB_PLAY_H
#define CD_WEB_PLAY_H

#include <cjson/cJSON.h>
#include <stdint.h>

#include "condraughts.h"
#include "glicko.h"

#define PLAY_ID_HEX        12 /* game ids: 48 random bits */
#define PLAY_TOKEN         32 /* hex digits of a player token (128 bits) */
#define PLAY_NAME_MAX      24 /* characters of a player's name (UTF-8 bytes: 4 times that) */
#define PLAY_NAME_BYTES    (4 * PLAY_NAME_MAX)
#define PLAY_MAX           5000  /* live games (waiting or in progress) by default */
#define PLAY_FIRST_MOVE_MS 30000 /* a real-time game's first moves: each within this */
#define PLAY_CHAT_CHARS    140   /* characters (code points) of a chat message */
#define PLAY_CHAT_MAX      200   /* chat messages kept with a game (then it refuses more) */
#define PLAY_CHAT_BURST    5     /* chat messages a seat may post ... */
#define PLAY_CHAT_WINDOW   10000 /* ... within this many ms */
#define PLAY_ADDR          64    /* bytes of a client's address (text) */
/* Limits of one client (docs/api.md, "Limits of a client"): games waiting for a second player
 * (open challenges and invitations) of one player token and of one address, and games created a
 * minute by each (a token bucket: that many at once, then one every 60/N s). */
#define PLAY_WAITING_TOKEN 5
#define PLAY_WAITING_ADDR  20
#define PLAY_CREATES_TOKEN 10
#define PLAY_CREATES_ADDR  30
#define PLAY_CREATES_MS    60000
/* A game nobody came to (its second seat open) is deleted, and a game without a clock whose first
 * moves are not both made is aborted, when its players' pages have been away this long. */
#define PLAY_AWAY_MS 600000
#define PLAY_GRACE_MS                                                                              \
    10000 /* ... or, after a restart, this long (time for the pages to come back) */
#define PLAY_KEEP_MS    60000 /* a finished game stays in memory this long after it was last read */
#define PLAY_KEPT       1000  /* ... and at most this many finished games stay */
#define PLAY_LOBBY_PAGE 50    /* entries of each list of a lobby page (at most 100: ?per=) */
#define PLAY_ALIVE_MS   1000  /* the store is told the server is alive this often (downtime) */
#define PLAY_COUNT_MS   1000  /* a game's spectator count reaches its streams at most this often */
/* A shared store: every game in memory is compared with the store's revision this often, for
 * changes nobody announced (a server killed between a change's commit and its flush): a copy
 * found behind at two sweeps in a row is read again (play.c, sweep). */
#define PLAY_SWEEP_MS 2000

enum { PLAY_CLOCK_NONE, PLAY_CLOCK_CORRESPONDENCE, PLAY_CLOCK_REALTIME };
enum { PLAY_WAITING, PLAY_ONGOING, PLAY_OVER };
/* How a game ended (besides the rules: cd_game_status). */
enum { END_NONE, END_RULES, END_RESIGN, END_TIME, END_TIME_DRAW, END_AGREED, END_ABORTED };

typedef struct play_move {
    char hub[160]; /* the move in Hub form (unambiguous; cd_game_play_text reads it) */
    int64_t ms[2]; /* each side's time left after the move */
    int64_t at;    /* when it was played (ms since the epoch) */
} play_move;

/* A message of the players' chat (docs/api.md): which seat wrote it, when, its text (malloc'ed,
 * valid UTF-8 of at most PLAY_CHAT_CHARS characters, no control characters). */
typedef struct play_chat {
    int seat;
    int64_t at;
    char *text;
} play_chat;

typedef struct play_game {
    char id[PLAY_ID_HEX + 1];
    const cd_rules *rules;
    cd_game *game;
    char fen[256]; /* the start position ("" the variant's) */
    int clock;     /* PLAY_CLOCK_* */
    int64_t base_ms, inc_ms;
    char token[2][PLAY_TOKEN + 1]; /* [CD_WHITE], [CD_BLACK]; "" an open seat */
    char name[2][4 * PLAY_NAME_MAX + 1];
    int open;  /* an open challenge: listed in the lobby */
    int state; /* PLAY_* */
    int end;   /* END_* */
    int loser; /* END_RESIGN, END_TIME: the colour that lost */
    int64_t ms[2];
    int64_t turn_start; /* the running clock's start (0: no clock runs) */
    int64_t first_wait; /* while a side's first move is awaited (fewer than 2 plies), since when
                         * (0: none, or a game stored before the rule) */
    int64_t outage_ms;  /* the server's downtime given back to this game's clocks (play_open) */
    int outage_new;     /* (play_open) outage_ms grew at this start: to be saved */
    int draw_offer, takeback, rematch; /* the colour asking, or -1 */
    char rematch_id[PLAY_ID_HEX + 1];  /* the rematch game, once accepted */
    int64_t created;
    char addr[PLAY_ADDR]; /* the creator's address (memory only; "" unknown) */
    int64_t seen;         /* when a seat's page was last open (memory: the expiry of a game not
                           * begun) */
    int64_t touched;      /* when it was last looked up (memory: a finished game leaves then) */
    int online[3];        /* live streams open: of the white seat, the black seat, spectators */
    int64_t count_due;    /* (memory) when online[2] changed unshown (its streams are woken
                           * PLAY_COUNT_MS after; 0: nothing due) */
    glicko rating[2];     /* each seat's rating in the variant when it sat down (rating 0: none) */
    char who[2][PLAY_NAME_BYTES + 2]; /* each seat's profile key (profile.h: PROFILE_KEY bytes)
                                       * when it sat down, or when the game was read back; ""
                                       * an open seat, or no store (memory only) */
    glicko after[2];      /* after the game, once rated (rating 0: not rated) */
    int rate_now;         /* the ratings in after[] are to be written with the game (store_save) */
    play_move *moves;
    int nmoves, cap;
    play_chat *chat;
    int nchat, chat_cap;
    int64_t said[2][PLAY_CHAT_BURST]; /* each seat's last chat messages (memory only: the rate) */
    unsigned version;
    char *shown; /* (play_json_text) the last state rendered, as a spectator sees it ("you":
                  * null; NULL: none), of version shown_version at time shown_at: shown_len
                  * bytes, the null of "you" at offset shown_you */
    size_t shown_len, shown_you;
    unsigned shown_version;
    int64_t shown_at;
    int64_t rev; /* the revision of its row in a shared store (store.h; 0: not yet stored) */
    uint64_t saved; /* the store's number of its last change (store_written): its live streams
                     * show it once store_synced() reaches it (0: nothing to wait for) */
    struct play_game *next;
    struct play_game *id_next; /* (play.c) the next game in its id's hash list */
} play_game;

/* A game as a value (play_game.c, below both the service and the store). */
/* A new slot at the end of g's moves (the array grown as needed), or NULL out of memory. */
play_move *play_move_append(play_game *g);

/* A copy of text added to g's chat (the array grown as needed): 0, or -1 out of memory. */
int play_chat_append(play_game *g, int seat, const char *text, int64_t at);
/* g's chat emptied and freed; g freed with its cd_game (may be NULL), moves and chat. */
void play_chat_free(play_game *g);
void play_game_free(play_game *g);

/* Start the service: the live games from the store at path (NULL: in memory only); at most
 * max_live live games (0: PLAY_MAX); per_address 0: no limits by address (every client comes
 * through one address: a proxy, a benchmark). 0, or -1 with err. */
int play_open(const char *db_path, int max_live, int per_address, char *err, size_t errlen);
void play_close(void);
/* Is there a store (accounts and ratings need one)? */
int play_stored(void);
/* Flag falls (the server's clock thread calls this every 100 ms). */
void play_tick(void);

void play_lock(void);
void play_unlock(void);
/* Game id: a live game, or a finished one read back from the store (it stays in memory while it
 * is watched or was read within PLAY_KEEP_MS); NULL when there is none. Locked. */
play_game *play_find(const char *id);
/* Did the shared store (store_shared) not answer when the last play_find looked for a newer
 * revision (it looks while the server may have missed announcements, above)? The game found is
 * then the one in memory, maybe behind the store, and a change to it could not be saved: changes
 * are refused (503) until the store answers. Locked. */
int play_unanswered(void);
/* A shared store: an action on game id, judged on its copy at revision rev (play_game.rev before
 * the action), refused with *status 400, 403 or 409 (the game's state, or another server's
 * change written first) may have been judged on a copy behind the store. The game's revision is
 * looked up (one round trip) and the game read again when it moved: returns the game to judge
 * the action on once more (err to be emptied), or NULL: the answer stands, *status and err as
 * they were, or 404 (another server deleted the game) or 503 (the store does not answer) with
 * err set. NULL at once without a shared store or for other statuses. Locked. */
play_game *play_recheck(const char *id, int64_t rev, unsigned *status, char *err, size_t len);
/* Is g's last change on disk (play_game.saved)? Until then its streams do not show it. Locked. */
int play_synced(const play_game *g);
/* The first game in memory (then ->next), for the lobby. */
const play_game *play_first(void);
/* A live stream of game id opens for token: returns the slot it counts in (CD_WHITE, CD_BLACK,
 * 2 a spectator), -1 when there is no such game; it closes: play_absent with that slot. The
 * players see who is there. Locked. */
int play_present(const char *id, const char *token);
void play_absent(const char *id, int slot);
/* A live stream waiting for the next change of game id: play_watch puts w in the watch list (no
 * effect when it is there); the game's next change (a version bump, its deletion; not a
 * spectator's stream opening or closing, which the streams show at their next keep-alive) takes it out
 * and calls w->wake(w) once, with the lock held (so wake must not take it); play_unwatch takes
 * it out unwoken (no effect when it is not there). Both locked. */
typedef struct play_watcher {
    char id[PLAY_ID_HEX + 1];
    void (*wake)(struct play_watcher *w);
    int on; /* in the list */
    struct play_watcher *prev, *next;
} play_watcher;
void play_watch(play_watcher *w);
void play_unwatch(play_watcher *w);

/* Now, in ms since the epoch. */
int64_t play_now(void);
/* A new random token (PLAY_TOKEN hex digits) into out[PLAY_TOKEN + 1]; 0, -1 on failure. */
int play_new_token(char *out);
/* Are a and b the same token (PLAY_TOKEN hex digits each)? In time independent of where they
 * differ; 0 when either is NULL or not a token. */
int play_token_eq(const char *a, const char *b);
/* The seat (CD_WHITE, CD_BLACK) that token holds in g, or -1 (a NULL or "" token: -1). */
int play_seat(const play_game *g, const char *token);

/* The actions, each with the lock held; 0 or an HTTP status with err set. With a shared store,
 * 404 ("unknown game") when another server deleted the game before this copy heard it: nothing
 * written (store_save never writes a deleted game back), the copy freed (the caller must not use
 * g then; play_find(id) finds nothing). */
typedef struct play_new {
    const cd_rules *rules;
    int colour; /* CD_WHITE, CD_BLACK, or -1: random */
    int clock;
    int64_t base_ms, inc_ms;
    const char *name;
    int open;
    const char *addr; /* the creator's address ("" or NULL: unknown, no limit by address) */
} play_new;
/* A new game: 429 with *retry_ms when the creator's token or address is over its limits, 503
 * when the server holds max_live live games. */
unsigned play_create(const play_new *n, const char *token, play_game **out, int64_t *retry_ms,
                     char *err, size_t len);
unsigned play_join(play_game *g, const char *token, const char *name, char *err, size_t len);
unsigned play_move_text(play_game *g, const char *token, const char *move, char *err, size_t len);
unsigned play_resign(play_game *g, const char *token, char *err, size_t len);
unsigned play_abort(play_game *g, const char *token, char *err, size_t len);
/* what: "offer", "accept" or "decline" (draw, rematch); "ask", "accept", "decline" (takeback). */
unsigned play_draw(play_game *g, const char *token, const char *what, char *err, size_t len);
unsigned play_takeback(play_game *g, const char *token, const char *what, char *err, size_t len);
unsigned play_rematch(play_game *g, const char *token, const char *what, char *err, size_t len);
unsigned play_delete(play_game *g, const char *token, char *err, size_t len);
/* A message of a seat to the players' chat (saved before it is shown). 429: the seat has posted
 * PLAY_CHAT_BURST messages within PLAY_CHAT_WINDOW ms; *retry_ms then says when it may again. */
unsigned play_say(play_game *g, const char *token, const char *text, int64_t *retry_ms, char *err,
                  size_t len);

/* The game as the viewer holding `token` sees it (docs/api.md). */
cJSON *play_json(const play_game *g, const char *token);
/* The same as text (malloc'ed; NULL when out of memory). Every viewer shares one render while
 * the game's version holds, for at most PLAY_SHARE_MS (its clocks are as of its "now"), its "you"
 * set for each: one move seen by 1,500 streams, the players' included, is rendered once, not
 * 1,500 times, and the answer to a seat's action is the render its own stream then shows.
 * Locked. */
#define PLAY_SHARE_MS 100
char *play_json_text(play_game *g, const char *token);
/* The lobby: open challenges and games in progress, page `page` (0 the first) of `per` entries
 * of each list. */
cJSON *play_lobby_json(int page, int per);
/* Every position of the game, from the start to the current one ("positions"[i] the position
 * after i plies: "board", one character a square, '.' 'w' 'b' 'W' 'B'; "last", the move's two
 * end squares, null at ply 0); NULL when out of memory. */
cJSON *play_positions_json(const play_game *g);
/* The game as PDN (malloc'ed, *len its length), NULL when out of memory. */
char *play_pdn(const play_game *g, size_t *len);

#endif

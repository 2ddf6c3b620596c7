/*
 * match_player.h -- one player of `condraughts match` (match_player.c): the built-in engine or an
 * engine process driven over Hub, with the referee's clock. A move request returns what the
 * player answered, the wall time it took on the monotonic clock, the last score it reported,
 * and whether it answered at all: a player that does not answer within the limit is "hung".
 *
 * Protocols:
 *   self   the built-in engine ("self" or "self:option=value,...": the options of
 *          cd_engine_set_option; depth=N / nodes=N, this player's own search limit in place
 *          of the match's depth or nodes, e.g. a weaker opponent "self:depth=2"; time=S, its own
 *          seconds a move in place of the match's --time (time odds: "self:time=0.4" against
 *          0.2 s; the referee allows it S); egtb=DIR,
 *          the endgame tables its search probes, a folder that exists, without commas;
 *          book=FILE, the opening book it plays from, book=none no book; without it the
 *          shipped book of the match's variant, books/VARIANT.cdb, when there is one: in a
 *          book position it plays the book's first legal move at once, with no search)
 *   hub2   Hub protocol version 2 (Scan 3.x, `condraughts hub`): pos pos=P moves="..",
 *          level move-time=S | time=S inc=S | depth=N | nodes=N, go think, done move=M;
 *          info ... score=X.XX (men)
 *   hub1   the first Hub dialect (Scan 2.0): hub -> name/author/country/wait; init -> ready;
 *          new; pos P (side 'w'/'b' in lower case); move M; time MS (per move); level MOVES
 *          TIME_MS INC_MS; depth N; go -> move M [PONDER]; info DEPTH PLYAVG SCORE NODES TIME
 *          SPEED PV (score in hundredths of a man). No nodes limit, no variants.
 *   auto   hub2 or hub1, from the answer to `hub`: `id ...` is Hub 2, `name ...` is Hub 1.
 *   cb     a CheckerBoard engine library, "cb:PATH" (a .so exporting getmove and
 *          enginecommand: src/cb/cb_api.h), run by `condraughts cbhost PATH` in a process of its
 *          own (cb_host.h) with the library's folder as its working folder. Its game type must
 *          be the match's variant's (asked by `get gametype`, else set by `set gametype N`).
 *          Before each getmove it is sent `set gamehist` (the position after the last
 *          irreversible move and the moves since, so it sees repetitions); getmove gets the board,
 *          the colour, the time as maxtime with the "exact" bit (--time) or as the incremental
 *          clock of info bits 2-3 and moreinfo (--clock), and the "reset" bit at a new game. The
 *          move is read back from the board it returns when that changed, else from the CBmove;
 *          it must be one legal move of the library's generator, else the answer is illegal and
 *          .why says why. No depth or nodes limit.
 */
#ifndef CD_MATCH_PLAYER_H
#define CD_MATCH_PLAYER_H

#include <stddef.h>
#include <stdint.h>

#include "condraughts.h"
#include "proc.h"

typedef enum mp_proto { MP_AUTO = 0, MP_SELF, MP_HUB2, MP_HUB1, MP_CB } mp_proto;

#define MP_BUF 65536

typedef struct match_player {
    const char *spec;      /* "self[:opts]" or a shell command line */
    mp_proto proto;        /* as asked (MP_AUTO), then as found */
    const cd_rules *rules; /* the match's variant */
    size_t hash;           /* MiB for the built-in engine (0: default) */
    char name[128];
    cd_engine *engine; /* MP_SELF */
    cd_egtb *tb;       /* MP_SELF: the endgame tables it probes ("egtb=DIR"), or NULL */
    cd_book *book;     /* MP_SELF: the opening book it plays from ("book=FILE"), or NULL */
    int book_given;    /* MP_SELF: the spec named a book (or none) */
    int depth;         /* MP_SELF: its own limits from the spec (0: the match's) */
    uint64_t nodes;
    double movetime; /* MP_SELF: its own seconds a move from the spec (0: the match's) */
    int cb_gametype; /* MP_CB: the CheckerBoard game type of the match's variant */
    int cb_reset;    /* MP_CB: the next getmove carries the "reset" bit (a new game) */
    cli_proc proc;   /* Hub and cb engines: the process and its pipes */
    int deaf;        /* a line to it waited 10 s unread: nothing more is sent, its moves hang */
    size_t blen;
    char buf[MP_BUF]; /* bytes read but not yet split into lines */
} match_player;

/* What to search: one of depth, nodes, move time, or a clock (remaining seconds per colour). */
typedef struct mp_limits {
    int depth;
    uint64_t nodes;
    double movetime;
    int clocked; /* clock[] and inc are in force */
    double clock[2], inc;
} mp_limits;

typedef enum mp_status {
    MP_MOVED = 0, /* a legal move in .move */
    MP_ILLEGAL,   /* it answered something that is not a legal move (.text) */
    MP_DIED,      /* the process closed its output (crashed or quit) */
    MP_LATE,      /* no answer by the limit; `stop` made it answer within the grace time */
    MP_HUNG       /* no answer even after `stop` and the grace time, or it stopped reading its
                     input (.why says so) */
} mp_status;

typedef struct mp_reply {
    mp_status status;
    cd_move move;
    double used;   /* seconds from the request to the answer (referee's monotonic clock) */
    int has_score; /* a score was reported during this search */
    int score;     /* the last one, hundredths of a man, side to move's view */
    char text[64]; /* the move text as sent (Hub engines) */
    char why[256]; /* MP_ILLEGAL from a cb engine: what was wrong with its answer; MP_HUNG: that
                      it stopped reading (empty when it did not answer in time) */
} mp_reply;

/* Start the player. 0 on success, else -1 with err set. */
int mp_start(match_player *p, char *err, size_t errlen);
/* Stop it: `quit`, then a kill if it does not exit within a second. */
void mp_stop(match_player *p);
/* Kill a Hub engine's process group at once and start it again. 0 on success. */
int mp_restart(match_player *p, char *err, size_t errlen);
/* A new game: the built-in engine's tables are cleared, a Hub engine is told. */
void mp_new_game(match_player *p);
/*
 * Ask for a move in the game's current position under the limits. `limit` is the time after
 * which the answer is late (<= 0: none, wait forever); then `stop` is sent and the player gets
 * `grace` more seconds before it counts as hung. The built-in engine always answers.
 */
void mp_move(match_player *p, const cd_game *g, const mp_limits *l, double limit, double grace,
             mp_reply *out);
/* "self", "hub2", "hub1", "cb" */
const char *mp_proto_name(mp_proto proto);

#endif

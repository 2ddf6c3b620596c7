/*
 * dxp_session.h -- a DamExchange protocol (DXP) session: the games of one
 * connection, as Initiator or Follower, the engine choosing our moves on the
 * clock. The messages are the codec's (dxp.h); the socket is the caller's
 * (the program entry, src/cli/dxp_cmd.c, connects or accepts it).
 */
#ifndef CD_PROTO_DXP_SESSION_H
#define CD_PROTO_DXP_SESSION_H

#include <stdio.h>

#include "condraughts.h"
#include "dxp.h"

/* What the session plays: the options of `condraughts dxp` that are not about the socket. */
typedef struct cd_dxp_settings {
    const cd_rules *rules;          /* both programs must agree on it: DXP has no variant field */
    int follow;                     /* 1: the Follower (answers GAMEREQ); 0: the Initiator */
    double time;                    /* Initiator: seconds per game per player */
    int moves;                      /* Initiator: moves per game, 0: no limit */
    int depth;                      /* search depth limit, 0: by the clock */
    double movetime;                /* seconds a move for our engine whatever the clock says (the
                                       clock still counts our time); 0: by the clock */
    int games;                      /* games to play (Follower: 0, until the Initiator stops) */
    char name[CD_DXP_NAME_LEN + 1]; /* our name in GAMEREQ / GAMEACC */
    int colour;                     /* Initiator: our colour in game 1, alternating after */
    double timeout;                 /* seconds to wait for the peer; 0: the defaults */
    int no_takeback;                /* refuse BACKREQ */
    int verbose;                    /* log every message sent and received */
    FILE *pdn;                      /* each game written here as PDN when it ends, or NULL */
    int numbering;                  /* squares of MOVE messages: 0 ours; 1 pydraughts' numbering
                                       of the 8x8 variants written in algebraic notation
                                       (hub_variant_square, as Hub's numbering=variant); positions
                                       stay in ours */
} cd_dxp_settings;

/* The results of a session's games, from our side. */
typedef struct cd_dxp_tally {
    long w, d, l;    /* games with a result by our rules (or the peer's resignation or draw) */
    long unfinished; /* games without one ("*": the peer ended it, timeouts, errors) */
    /* game pairs (2k+1, 2k+2) with both games finished: penta[i], i our points in the pair x 2
     * (0: both lost ... 4: both won) */
    long penta[5];
    char peer[CD_DXP_NAME_LEN + 1]; /* the peer's name (its last GAMEREQ / GAMEACC) */
} cd_dxp_tally;

/*
 * Play the games of one connection over the connected stream socket fd (not
 * closed here), with engine (cleared before each game). starts[0..nstarts-1]
 * are the Initiator's starting positions: games 2k+1 and 2k+2 start from
 * starts[k % nstarts] (sent in GAMEREQ when not the standard one), our colour
 * set->colour in odd games and the other in even ones; unused by the
 * Follower (NULL, 0). Progress and results go to stdout, warnings and errors
 * to stderr; tally (may be NULL) is zeroed and counts the games. Returns 0,
 * or 1 after a protocol or network error.
 */
int cd_dxp_session_run(const cd_dxp_settings *set, int fd, cd_engine *engine,
                       const cd_position *starts, int nstarts, cd_dxp_tally *tally);

/* A diagnostic line on stderr, "dxp: " and the formatted text. */
void cd_dxp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

/*
 * dxp_session.h -- a DamExchange protocol (DXP) session: the games of one
 * connection, as Initiator or Follower, the engine choosing our moves on the
 * clock. The messages are the codec's (dxp.h); the socket is the caller's
 * (the program entry, src/cli/dxp_cmd.c, connects or accepts it).
 */
#ifndef CD_PROTO_DXP_SESSION_H
#define CD_PROTO_DXP_SESSION_H

#include "condraughts.h"
#include "dxp.h"

/* What the session plays: the options of `condraughts dxp` that are not about the socket. */
typedef struct cd_dxp_settings {
    const cd_rules *rules;          /* both programs must agree on it: DXP has no variant field */
    int follow;                     /* 1: the Follower (answers GAMEREQ); 0: the Initiator */
    double time;                    /* Initiator: seconds per game per player */
    int moves;                      /* Initiator: moves per game, 0: no limit */
    int depth;                      /* search depth limit, 0: by the clock */
    int games;                      /* games to play (Follower: 0, until the Initiator stops) */
    char name[CD_DXP_NAME_LEN + 1]; /* our name in GAMEREQ / GAMEACC */
    int colour;                     /* Initiator: our colour in game 1, alternating after */
    double timeout;                 /* seconds to wait for the peer; 0: the defaults */
    int no_takeback;                /* refuse BACKREQ */
    int verbose;                    /* log every message sent and received */
} cd_dxp_settings;

/*
 * Play the games of one connection over the connected stream socket fd (not
 * closed here), with engine (cleared before each game); start is the
 * Initiator's starting position (sent in GAMEREQ when it is not the standard
 * one; unused by the Follower). Progress and results go to stdout, warnings
 * and errors to stderr. Returns 0, or 1 after a protocol or network error.
 */
int cd_dxp_session_run(const cd_dxp_settings *set, int fd, cd_engine *engine,
                       const cd_position *start);

/* A diagnostic line on stderr, "dxp: " and the formatted text. */
void cd_dxp_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

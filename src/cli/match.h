/*
 * match.h -- engine-against-engine matches, the project's measuring instrument (see match.c).
 */
#ifndef CD_MATCH_H
#define CD_MATCH_H

#include "condraughts.h"
#include "match_player.h"
#include "opts.h"

typedef struct match_options {
    const cd_rules *rules;
    const char *engine[2]; /* "self[:opts]", a Hub command line or "cb:LIB"; NULL = "self" */
    mp_proto proto[2];     /* MP_AUTO: found from the handshake */
    const char *openings;  /* file: one FEN or move list per line; auto:K; NULL = start position */
    const char *pdn_file;  /* games written here when not NULL */
    int games;             /* 0: each opening twice (with --sprt: until a verdict) */
    int depth;
    uint64_t nodes;
    double movetime, game_time, increment;
    double timemargin; /* seconds an engine may overrun its clock or move time */
    double hang;       /* seconds after `stop` before a late engine counts as hung */
    double move_limit; /* without a time limit (depth, nodes): seconds a move may take */
    int max_plies;     /* adjudicate a draw after this many plies of a game */
    const char *egtb;  /* tablebase adjudication from this folder */
    int resign_score, resign_moves; /* hundredths of a man; 0 moves: off */
    int draw_score, draw_moves, draw_after;
    int sprt;                       /* stop on an SPRT verdict */
    double elo0, elo1, alpha, beta; /* its hypotheses and error rates */
    int concurrency;                /* games played at once (threads) */
    size_t hash;
    int quiet;
} match_options;

/* `condraughts match`: its options (`condraughts match --help`); run, it reads them (exit
 * status 2 on a bad one) and plays. */
extern const cli_command cd_match_command;
/* Play the match; 0 when it ran (whatever the result). */
int cd_match_main(const match_options *o);

#endif

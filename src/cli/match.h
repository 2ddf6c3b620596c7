/*
 * match.h -- engine-against-engine matches (see match.c).
 */
#ifndef CD_MATCH_H
#define CD_MATCH_H

#include "condraughts.h"

typedef struct match_options {
    const cd_rules *rules;
    const char *engine[2]; /* Hub command lines; NULL = the built-in engine */
    const char *openings;  /* file: one FEN or move list per line; NULL = start position */
    const char *pdn_file;  /* games written here when not NULL */
    int games;             /* 0: each opening twice */
    int depth;
    uint64_t nodes;
    double movetime, game_time, increment;
    int max_plies; /* adjudicate a draw after this many plies */
    size_t hash;
    int quiet;
} match_options;

int cd_match_main(const match_options *o);

#endif

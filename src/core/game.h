/*
 * game.h -- the cd_game structure, shared by game.c and the search (which
 * needs the history keys and the no-progress counter for draw detection).
 *
 * Invariants: pos[0..ply] are the positions, moves[i] leads from pos[i] to
 * pos[i+1]; quiet[i] counts plies since the last capture or man move at
 * pos[i]; since[i] is the ply at which pos[i]'s material balance arose; comment[i] (owned,
 * may be NULL) belongs to pos[i], and undo frees the comments past the new ply.
 */
#ifndef CD_GAME_H
#define CD_GAME_H

#include "condraughts.h"

struct cd_game {
    const cd_rules *rules;
    unsigned draw;
    int ply, cap;
    cd_position *pos; /* pos[0..ply] */
    cd_move *moves;   /* moves[0..ply-1] */
    int *quiet, *since;
    char **comment;   /* comment[0..ply]: text after move i (0: before the first), or NULL */
    cd_status forced; /* resignation, agreement, time: set by hand */
    cd_reason forced_reason;
};

/* A status read from a PDN result as if White moved first ("1-0": CD_WHITE_WINS) turned into
 * the rules' own: the two wins swapped where Black moves first (the first score of a result is
 * the first mover's); it is its own inverse. */
cd_status cd_status_first_mover(const cd_rules *r, cd_status s);

/* The balance of men and kings of p, one number: White's men, White's kings, Black's men and
 * Black's kings, a byte each. Two positions have the same balance when the numbers are equal. */
int cd_position_balance(const cd_position *p);

/* The endgame move-count limit in plies under the draw rules `draw` (CD_DRAW_FMJD_ENDGAME,
 * CD_DRAW_RUSSIAN_ENDGAME, CD_DRAW_POOL_3V1, CD_DRAW_FRISIAN_ENDGAME) for the balance of men and
 * kings of p, or 0 when none applies: the game is drawn once that many plies have passed since the
 * balance arose (since[]). The search applies it on its path too. */
int cd_endgame_limit(unsigned draw, const cd_position *p);

#endif

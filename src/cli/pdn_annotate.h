/*
 * pdn_annotate.h -- `condraughts pdn annotate FILE`: every move of every game of a PDN file
 * scored by the engine.
 */
#ifndef CD_PDN_ANNOTATE_H
#define CD_PDN_ANNOTATE_H

#include "opts.h"

/*
 * condraughts pdn annotate [--variant V] [--depth D | --time S] [--game N] [--mark M]
 * [--egtb DIR] [--hash MB] [--threads N] [--out FILE] FILE: each position of each game's main
 * line is searched (depth 10 by default), on a cleared table, with the game's history for
 * repetitions, so that one line is what `analyse` finds in that position. A move's loss is the
 * best move's score less the played move's (the next position's score, turned round), in men
 * for the side that moved, scores beyond +-10 men (wins) counted as 10; the best move itself
 * loses nothing. A loss of M/2 men or more is marked '?!', of M men or more (--mark, default
 * 0.5) '?', of 3M or more '??' (cd_loss_mark). Prints a table per game and each side's average
 * loss and marks; --out writes the games again as PDN with the score and, for a marked move, the best move as comments.
 */
extern const cli_command cd_pdn_annotate_command;

#endif

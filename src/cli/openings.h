/*
 * openings.h -- the opening lines of engine matches (openings.c): `condraughts match --openings`
 * and `condraughts dxp --openings`.
 */
#ifndef CD_CLI_OPENINGS_H
#define CD_CLI_OPENINGS_H

#include <stddef.h>

#include "condraughts.h"

/*
 * The openings of file under rules r into *out, a malloc'ed array of games (free it with
 * cli_free_openings): one a line, a FEN position (a line with ':') or a move list from the start
 * (move numbers "1." skipped); text after '#' and blank lines are skipped. "auto:K" (K from 1 to
 * 6): every line of K plies from the start, in a fixed shuffled order. file NULL: the start
 * position alone. Returns the number of openings (at least 1), or -1 with the reason in err
 * (e.g. "FILE:LINE: message"; nothing allocated).
 */
int cli_load_openings(const char *file, const cd_rules *r, cd_game ***out, char *err,
                      size_t errlen);

/* Free the n games of cli_load_openings and the array. */
void cli_free_openings(cd_game **games, int n);

#endif

/*
 * cb_board.h -- CheckerBoard's board, moves and square numbers (cb_api.h) <-> the library's
 * positions and moves, for the engine library (cb_engine.c) and for `match`'s cb: players
 * (src/cli/match_player.c).
 *
 * Where a square is: CheckerBoard's board[x][y] is the real board with y = 0 the rank Black's men
 * start on (the top of the library's diagrams, row 0) and x running right to left on the boards
 * whose bottom-left corner is a playing square (English, Russian, Brazilian, Czech: x = 7 - col)
 * and left to right on the mirrored ones (Italian, Spanish: x = col), so that x + y is even on
 * every playing square. A square's library number is found from its row and column
 * (cd_square_row, cd_square_col), never from a numbering.
 *
 * CheckerBoard's square numbers (its FEN in `set gamehist`, `get movelist`, islegal) are its own
 * per game type and may differ from the library's: English, Russian, Brazilian n = 4 (y + 1) -
 * x / 2; Italian n = 1 + 4 y + x / 2; Spanish n = 1 + 4 (7 - y) + (7 - x) / 2 (White's men on
 * 1-12); Czech n = 32 - 4 y - x / 2 (CheckerBoard's coorstonumber). cbb_number_xy and
 * cbb_xy_number convert them.
 *
 * Colours: CB_WHITE is CD_WHITE, CB_BLACK is CD_BLACK, in every game type.
 */
#ifndef CD_CB_BOARD_H
#define CD_CB_BOARD_H

#include <stddef.h>

#include "cb_api.h"
#include "condraughts.h"

/* The library's rules for a CheckerBoard game type, or NULL for one it does not play. */
const cd_rules *cbb_rules(int gametype);
/* The game type of rules (21, 22, 24, 25, 26, 29), or 0 if CheckerBoard has none for them. */
int cbb_gametype(const cd_rules *r);

/* The library's square number of board[x][y], 0 if (x, y) is off the board or not a playing
 * square. */
int cbb_square(const cd_rules *r, int x, int y);
/* (x, y) of the library's square sq (1..32). */
void cbb_xy(const cd_rules *r, int sq, int *x, int *y);
/* CheckerBoard's number of (x, y) in game type gt (0 if not a playing square), and back (0 if
 * n is not 1..32). */
int cbb_xy_number(int gt, int x, int y);
int cbb_number_xy(int gt, int n, int *x, int *y);

/* board and colour -> position: every cell a piece code or CB_FREE, the non-playing squares
 * free, colour CB_WHITE or CB_BLACK, and a position cd_position_validate accepts. CD_OK, or an
 * error with a message naming the cell. */
cd_result cbb_to_position(const cd_rules *r, const int board[8][8], int color, cd_position *pos,
                          char *err, size_t errlen);
/* position -> board (every cell written). */
void cbb_from_position(const cd_position *pos, int board[8][8]);
/* Do a and b hold the same pieces with the same side to move? */
int cbb_same(const cd_position *a, const cd_position *b);

/* The legal move m of pos as a struct cb_move (every field written, unused ones zero). */
void cbb_move_to_cb(const cd_position *pos, const cd_move *m, struct cb_move *out);
/* The legal move of pos whose result is the board `after` (with the other side to move): 1
 * with *out, or 0 with a message saying what is wrong with the board. */
int cbb_find_by_board(const cd_position *pos, const int after[8][8], cd_move *out, char *err,
                      size_t errlen);
/* The legal move of pos that the struct describes (from, to, and for a capture the set of
 * del[0 .. jumps - 1]): 1 with *out; 0 none, -1 more than one, each with a message. */
int cbb_find_by_cb(const cd_position *pos, const struct cb_move *cm, cd_move *out, char *err,
                   size_t errlen);

/* A FEN in CheckerBoard's numbers of game type gt ("B:W21,K22:B1-3"); *end gets the first
 * character after it. CD_OK or an error with a message. */
cd_result cbb_parse_fen(int gt, const char *s, cd_position *pos, const char **end, char *err,
                        size_t errlen);
/* pos as such a FEN; returns the length (truncated to len - 1). */
size_t cbb_write_fen(int gt, const cd_position *pos, char *buf, size_t len);
/* The move m of pos as "from-to" or "fromxto" in CheckerBoard's numbers. */
size_t cbb_write_move(int gt, const cd_position *pos, const cd_move *m, char *buf, size_t len);

/* `set gamehist` of game g (CheckerBoard's form): the position after the last capture or man
 * move (or the start), then the moves since, each in CheckerBoard's numbers. The length, or 0
 * if it does not fit. */
size_t cbb_write_gamehist(int gt, const cd_game *g, char *buf, size_t len);
/* Read a `set gamehist` text into a new game (its FEN and moves, each move legal). NULL with a
 * message on error. */
cd_game *cbb_read_gamehist(int gt, const char *s, char *err, size_t errlen);

#endif

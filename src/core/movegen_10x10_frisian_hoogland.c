/*
 * movegen_10x10_frisian_hoogland.c -- the move generator instance g10_frisian_hoogland: the 10x10
 * board with orthogonal captures (Frisian, Frysk, and Hoogland's orthogonal king captures), value
 * precedence and the king-move limit (cd_king_run) (movegen_body.h; chosen by the dispatch in
 * movegen.c). The orthogonal steps and row seams are worked out in board.h.
 */
#define GN               g10_frisian_hoogland
#define BB_BITS          64
#define HALF             5
#define ALLM             0x3ff7feffdffbffull
#define TOPM             0x1full
#define BOTM             0x3e000000000000ull
#define FRISIAN_HOOGLAND 1
#define VSTEP            11                 /* up -11, down +11: two rows, one column */
#define ORTHO_LSEAM      0x1002004008010ull /* bits 4, 15, 26, 37, 48: squares 5, 15, ..., 45 */
#define ORTHO_RSEAM      0x2004008010020ull /* bits 5, 16, 27, 38, 49: squares 6, 16, ..., 46 */
#include "movegen_body.h"

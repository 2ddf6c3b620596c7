/*
 * movegen_frisian.c -- the move generator with the Frisian rules: orthogonal
 * captures, value precedence and the king-move limit (cd_king_run), on the
 * 10x10 board. The same generic body as the diagonal variants (movegen_body.h)
 * compiled with FRISIAN = 1, in its own translation unit (see movegen.c); the
 * orthogonal steps and row seams are worked out in board.h.
 */
#include <stdlib.h>

#include "board.h"
#include "movegen.h"

#define FRISIAN     1
#define FOLK        0
#define BB          uint64_t
#define BB_BITS     64
#define LOADBB(a)   ((a)[0])
#define BBCTZ(x)    __builtin_ctzll(x)
#define BBPOP(x)    __builtin_popcountll(x)
#define GN          g10x
#define HALF        5
#define ALLM        0x3ff7feffdffbffull
#define TOPM        0x1full
#define BOTM        0x3e000000000000ull
#define VSTEP       11                 /* up -11, down +11: two rows, one column */
#define ORTHO_LSEAM 0x1002004008010ull /* bits 4, 15, 26, 37, 48: squares 5, 15, ..., 45 */
#define ORTHO_RSEAM 0x2004008010020ull /* bits 5, 16, 27, 38, 49: squares 6, 16, ..., 46 */
#include "movegen_body.h"

int cd_frisian_generate(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                        int *pathlen)
{
    return generate_g10x(pos, list, want, path, pathlen);
}

int cd_frisian_count(const cd_position *pos) { return count_g10x(pos); }

void cd_frisian_play(const cd_position *pos, const cd_move *m, cd_position *out)
{
    play_g10x(pos, m, out);
}

uint64_t cd_frisian_perft(const cd_position *pos, int depth) { return perft_g10x(pos, depth); }

void cd_frisian_king_zone(const cd_position *pos, uint64_t out[2]) { king_zone_g10x(pos, out); }

void cd_frisian_king_targets(const cd_position *pos, int from, uint64_t out[2])
{
    king_targets_g10x(pos, from, out);
}

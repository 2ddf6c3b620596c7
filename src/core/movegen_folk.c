/*
 * movegen_folk.c -- the 8x8 move generator with the folk rules of the Russian
 * row (docs/variants.md): Samoyed captures of either colour, Northern demotion
 * of captured kings, Stavropol moves of either colour, the two-move turn. The
 * generic body (movegen_body.h) compiled with FOLK = 1 in its own translation
 * unit, dispatched from movegen.c only for rows with one of those flags, so
 * Russian and the other 8x8 variants never run a line of it.
 */
#include "board.h"
#include "movegen.h"

#define FOLK      1
#define FRISIAN   0
#define BB        uint64_t
#define BB_BITS   64
#define LOADBB(a) ((a)[0])
#define BBCTZ(x)  __builtin_ctzll(x)
#define BBPOP(x)  __builtin_popcountll(x)
#define GN        g8f
#define HALF      4
#define ALLM      0x7fbfdfeffull
#define TOPM      0xfull
#define BOTM      0x780000000ull
#include "movegen_body.h"

int cd_folk_generate(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                     int *pathlen)
{
    return generate_g8f(pos, list, want, path, pathlen);
}

int cd_folk_count(const cd_position *pos) { return count_g8f(pos); }

void cd_folk_play(const cd_position *pos, const cd_move *m, cd_position *out)
{
    play_g8f(pos, m, out);
}

uint64_t cd_folk_perft(const cd_position *pos, int depth) { return perft_g8f(pos, depth); }

void cd_folk_king_zone(const cd_position *pos, uint64_t out[2]) { king_zone_g8f(pos, out); }

void cd_folk_king_targets(const cd_position *pos, int from, uint64_t out[2])
{
    king_targets_g8f(pos, from, out);
}

/*
 * movegen.c -- the move generator entry points: one instantiation of
 * movegen_body.h per board geometry, plus the 10x10 one with the Frisian
 * rules (movegen_frisian.c), dispatched once per call: the diagonal variants
 * never run a line of the Frisian code. The Frisian body lives in its own
 * translation unit so that its code does not change the compiler's inlining
 * budget, and so its decisions, for the diagonal bodies here. Turkish draughts
 * (CD_GEOM_8X8_FULL, every cell a square) has a generator of its own,
 * movegen_turkish.c, dispatched the same way.
 */
#include "movegen.h"

#include "board.h"

__extension__ typedef unsigned __int128 cd_u128;

static inline int ctz128(cd_u128 x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* 64-bit geometries */
#define FRISIAN   0
#define FOLK      0
#define BB        uint64_t
#define BB_BITS   64
#define LOADBB(a) ((a)[0])
#define BBCTZ(x)  __builtin_ctzll(x)
#define BBPOP(x)  __builtin_popcountll(x)

#define GN   g8
#define HALF 4
#define ALLM 0x7fbfdfeffull
#define TOPM 0xfull
#define BOTM 0x780000000ull
#include "movegen_body.h"
#undef GN
#undef HALF
#undef ALLM
#undef TOPM
#undef BOTM

#define GN   g10
#define HALF 5
#define ALLM 0x3ff7feffdffbffull
#define TOPM 0x1full
#define BOTM 0x3e000000000000ull
#include "movegen_body.h"
#undef GN
#undef ALLM
#undef TOPM
#undef BOTM

#define GN   g108
#define ALLM 0x7feffdffbffull
#define TOPM 0x1full
#define BOTM 0x7c000000000ull
#include "movegen_body.h"
#undef GN
#undef HALF
#undef ALLM
#undef TOPM
#undef BOTM
#undef BB
#undef LOADBB
#undef BBCTZ
#undef BBPOP

/* 12x12: 77 bits */
#undef BB_BITS
#define BB        cd_u128
#define BB_BITS   128
#define LOADBB(a) (((cd_u128)(a)[1] << 64) | (a)[0])
#define BBCTZ(x)  ctz128(x)
#define BBPOP(x)  (__builtin_popcountll((uint64_t)(x)) + __builtin_popcountll((uint64_t)((x) >> 64)))
#define GN        g12
#define HALF      6
#define ALLM      ((((cd_u128)0x1ffeull) << 64) | 0xfff7ffbffdffefffull)
#define TOPM      ((cd_u128)0x3full)
#define BOTM      (((cd_u128)0x1f80ull) << 64)
#include "movegen_body.h"

/* Does the position need the Frisian body (orthogonal captures, Hoogland's orthogonal king
 * captures, value precedence or a king-move limit)? */
static inline int frisian(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    return (r->flags & (CD_RULE_ORTHOGONAL | CD_RULE_HOOGLAND)) || r->king_moves ||
           r->precedence == CD_PREC_VALUE;
}

/* Does the position need the folk body (8x8 with a folk rule of the Russian row, or Thai)? */
static inline int folk(const cd_position *pos)
{
    return (pos->rules->flags & (CD_RULE_NORTHERN | CD_RULE_SAMOYED | CD_RULE_STAVROPOL |
                                 CD_RULE_TWO_MOVE | CD_RULE_REMOVE_AT_ONCE)) != 0 ||
           pos->rules->halt == CD_HALT_EVERY;
}

int cd_generate_ex(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                   int *pathlen)
{
    if (pathlen)
        *pathlen = 0;
    switch (pos->rules->geometry) {
    case CD_GEOM_8X8:
        return folk(pos) ? cd_folk_generate(pos, list, want, path, pathlen)
                         : generate_g8(pos, list, want, path, pathlen);
    case CD_GEOM_10X10:
        return frisian(pos) ? cd_frisian_generate(pos, list, want, path, pathlen)
                            : generate_g10(pos, list, want, path, pathlen);
    case CD_GEOM_12X12: return generate_g12(pos, list, want, path, pathlen);
    case CD_GEOM_8X8_FULL: return cd_turkish_generate(pos, list, want, path, pathlen);
    default: return generate_g108(pos, list, want, path, pathlen);
    }
}

int cd_generate(const cd_position *pos, cd_movelist *list)
{
    return cd_generate_ex(pos, list, NULL, NULL, NULL);
}

int cd_count_moves(const cd_position *pos)
{
    switch (pos->rules->geometry) {
    case CD_GEOM_8X8: return folk(pos) ? cd_folk_count(pos) : count_g8(pos);
    case CD_GEOM_10X10: return frisian(pos) ? cd_frisian_count(pos) : count_g10(pos);
    case CD_GEOM_12X12: return count_g12(pos);
    case CD_GEOM_8X8_FULL: return cd_turkish_count(pos);
    default: return count_g108(pos);
    }
}

void cd_play_nokey(const cd_position *pos, const cd_move *m, cd_position *out)
{
    switch (pos->rules->geometry) {
    case CD_GEOM_8X8:
        if (folk(pos))
            cd_folk_play(pos, m, out);
        else
            play_g8(pos, m, out);
        break;
    case CD_GEOM_10X10:
        if (frisian(pos))
            cd_frisian_play(pos, m, out);
        else
            play_g10(pos, m, out);
        break;
    case CD_GEOM_12X12: play_g12(pos, m, out); break;
    case CD_GEOM_8X8_FULL: cd_turkish_play(pos, m, out); break;
    default: play_g108(pos, m, out); break;
    }
}

void cd_play(const cd_position *pos, const cd_move *m, cd_position *out)
{
    if (folk(pos)) { /* moves of either colour, captures of either colour, two-move turns */
        cd_play_nokey(pos, m, out);
        cd_position_rekey(out);
        return;
    }
    int c = pos->side;
    int king = cd_bb_test(pos->kings, m->from);
    uint64_t key = pos->key ^ cd_zobrist(c, king, m->from) ^
                   cd_zobrist(c, king || (m->flags & CD_MOVE_PROMOTES), m->to) ^ CD_ZOBRIST_SIDE;
    uint64_t cap[2] = {m->captured, m->captured_hi};
    for (int w = 0; w < 2; w++)
        for (uint64_t x = cap[w]; x; x &= x - 1) {
            int bit = w * 64 + __builtin_ctzll(x);
            key ^= cd_zobrist(c ^ 1, cd_bb_test(pos->kings, bit), bit);
        }
    key ^= cd_run_key(&pos->run); /* read before out (maybe pos) is written */
    cd_play_nokey(pos, m, out);
    out->key = key ^ cd_run_key(&out->run);
}

uint64_t cd_perft(const cd_position *pos, int depth)
{
    switch (pos->rules->geometry) {
    case CD_GEOM_8X8: return folk(pos) ? cd_folk_perft(pos, depth) : perft_g8(pos, depth);
    case CD_GEOM_10X10: return frisian(pos) ? cd_frisian_perft(pos, depth) : perft_g10(pos, depth);
    case CD_GEOM_12X12: return perft_g12(pos, depth);
    case CD_GEOM_8X8_FULL: return cd_turkish_perft(pos, depth);
    default: return perft_g108(pos, depth);
    }
}

void cd_king_zone_bits(const cd_position *pos, uint64_t out[2])
{
    switch (pos->rules->geometry) {
    case CD_GEOM_8X8:
        if (folk(pos))
            cd_folk_king_zone(pos, out);
        else
            king_zone_g8(pos, out);
        break;
    case CD_GEOM_10X10:
        if (frisian(pos))
            cd_frisian_king_zone(pos, out);
        else
            king_zone_g10(pos, out);
        break;
    case CD_GEOM_12X12: king_zone_g12(pos, out); break;
    case CD_GEOM_8X8_FULL: cd_turkish_king_zone(pos, out); break;
    default: king_zone_g108(pos, out); break;
    }
}

void cd_king_targets(const cd_position *pos, int from, uint64_t out[2])
{
    switch (pos->rules->geometry) {
    case CD_GEOM_8X8:
        if (folk(pos))
            cd_folk_king_targets(pos, from, out);
        else
            king_targets_g8(pos, from, out);
        break;
    case CD_GEOM_10X10:
        if (frisian(pos))
            cd_frisian_king_targets(pos, from, out);
        else
            king_targets_g10(pos, from, out);
        break;
    case CD_GEOM_12X12: king_targets_g12(pos, from, out); break;
    case CD_GEOM_8X8_FULL: cd_turkish_king_targets(pos, from, out); break;
    default: king_targets_g108(pos, from, out); break;
    }
}

int cd_move_equal(const cd_move *a, const cd_move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured &&
           a->captured_hi == b->captured_hi;
}

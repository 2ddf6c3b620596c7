/*
 * movegen.c -- the move generator's entry points: each call picks one generator
 * instance (movegen.h: a geometry and rule family, its own translation unit)
 * from the position's rules row, so that a variant never runs a line of
 * another family's code, and each instance is compiled and optimised on its
 * own.
 */
#include "movegen.h"

#include "board.h"

/* Rows that need the Frisian-Hoogland body on 10x10: orthogonal captures (Frisian, Frysk),
 * Hoogland's orthogonal king captures, value precedence or a king-move limit. */
static inline int frisian_or_hoogland(const cd_rules *r)
{
    return (r->flags & (CD_RULE_ORTHOGONAL | CD_RULE_HOOGLAND)) || r->king_moves ||
           r->precedence == CD_PREC_VALUE;
}

/* Rows that need the folk-Thai body on 8x8: a folk rule of the Russian row (Northern, Samoyed,
 * Stavropol, two-move) or the Thai captures (taken pieces leave at once, a king lands right
 * behind each). */
static inline int folk_or_thai(const cd_rules *r)
{
    return (r->flags & (CD_RULE_NORTHERN | CD_RULE_SAMOYED | CD_RULE_STAVROPOL | CD_RULE_TWO_MOVE |
                        CD_RULE_REMOVE_AT_ONCE)) != 0 ||
           r->halt == CD_HALT_EVERY;
}

const cd_movegen *cd_movegen_of(const cd_rules *r)
{
    switch (r->geometry) {
    case CD_GEOM_8X8: return folk_or_thai(r) ? &cd_movegen_g8_folk_thai : &cd_movegen_g8;
    case CD_GEOM_10X10:
        return frisian_or_hoogland(r) ? &cd_movegen_g10_frisian_hoogland : &cd_movegen_g10;
    case CD_GEOM_12X12: return &cd_movegen_g12;
    case CD_GEOM_8X8_FULL: return &cd_movegen_turkish;
    default: return &cd_movegen_g108;
    }
}

/* The generator instance for the position's rules. */
static inline const cd_movegen *instance(const cd_position *pos)
{
    return cd_movegen_of(pos->rules);
}

int cd_generate_ex(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                   int *pathlen)
{
    if (pathlen)
        *pathlen = 0;
    return instance(pos)->generate(pos, list, want, path, pathlen);
}

int cd_generate(const cd_position *pos, cd_movelist *list)
{
    return cd_generate_ex(pos, list, NULL, NULL, NULL);
}

int cd_count_moves(const cd_position *pos) { return instance(pos)->count(pos); }

int cd_quiet_moves(const cd_position *pos) { return instance(pos)->quiet_moves(pos); }

void cd_play_nokey(const cd_position *pos, const cd_move *m, cd_position *out)
{
    instance(pos)->play(pos, m, out);
}

void cd_play(const cd_position *pos, const cd_move *m, cd_position *out)
{
    instance(pos)->play_key(pos, m, out);
}

uint64_t cd_perft(const cd_position *pos, int depth) { return instance(pos)->perft(pos, depth); }

void cd_king_zone_bits(const cd_position *pos, uint64_t out[2])
{
    instance(pos)->king_zone(pos, out);
}

void cd_king_targets(const cd_position *pos, int from, uint64_t out[2])
{
    instance(pos)->king_targets(pos, from, out);
}

int cd_move_equal(const cd_move *a, const cd_move *b)
{
    return a->from == b->from && a->to == b->to && a->captured == b->captured &&
           a->captured_hi == b->captured_hi;
}

/*
 * position.c -- position set-up, piece access, Zobrist key, validation.
 */
#include <stdio.h>
#include <string.h>

#include "board.h"

static uint64_t compute_key(const cd_position *pos)
{
    uint64_t key = pos->side == CD_BLACK ? CD_ZOBRIST_SIDE : 0;
    for (int c = 0; c < 2; c++) {
        const uint64_t *bb = c == CD_WHITE ? pos->white : pos->black;
        for (int w = 0; w < 2; w++)
            for (uint64_t x = bb[w]; x; x &= x - 1) {
                int bit = w * 64 + __builtin_ctzll(x);
                key ^= cd_zobrist(c, cd_bb_test(pos->kings, bit), bit);
            }
    }
    return key ^ cd_run_key(&pos->run) ^ (pos->second ? CD_ZOBRIST_SECOND : 0);
}

/* Does colour c have a king on bit `bit`, and men? (What a count > 0 needs.) */
static int run_possible(const cd_position *pos, int c, int bit)
{
    const uint64_t *own = c == CD_WHITE ? pos->white : pos->black;
    const cd_geom *g = cd_geom_of(pos->rules);
    if (bit < 0 || bit >= g->nbits || !cd_internal_of_bit(g, bit))
        return 0;
    return cd_bb_test(own, bit) && cd_bb_test(pos->kings, bit) && cd_position_count(pos, c, 0) > 0;
}

/* Clear a colour's count that the pieces no longer allow (after editing squares). */
static void run_fix(cd_position *pos)
{
    for (int c = 0; c < 2; c++)
        if (pos->run.len[c] && !run_possible(pos, c, pos->run.sq[c])) {
            pos->key ^= cd_zobrist_run(c, pos->run.sq[c], pos->run.len[c]);
            pos->run.len[c] = 0;
            pos->run.sq[c] = 0;
        }
}

int cd_position_king_run(const cd_position *pos, int colour, int *sq)
{
    int c = colour == CD_BLACK ? CD_BLACK : CD_WHITE;
    int len = pos->run.len[c];
    if (sq)
        *sq = len ? cd_bit_to_sq(pos->rules, pos->run.sq[c]) : 0;
    return len;
}

cd_result cd_position_set_king_run(cd_position *pos, int colour, int sq, int count)
{
    if (!pos || (colour != CD_WHITE && colour != CD_BLACK) || count < 0 ||
        count > pos->rules->king_moves)
        return CD_ERR_ARG;
    int bit = 0;
    if (count) {
        bit = cd_sq_to_bit(pos->rules, sq);
        if (!run_possible(pos, colour, bit))
            return CD_ERR_ARG;
    }
    pos->key ^= cd_run_key(&pos->run);
    pos->run.sq[colour] = (uint8_t)bit;
    pos->run.len[colour] = (uint8_t)count;
    pos->key ^= cd_run_key(&pos->run);
    return CD_OK;
}

void cd_position_empty(cd_position *pos, const cd_rules *rules, int side)
{
    memset(pos, 0, sizeof *pos);
    pos->rules = rules;
    pos->side = side == CD_BLACK ? CD_BLACK : CD_WHITE;
    pos->key = compute_key(pos);
}

void cd_position_start(cd_position *pos, const cd_rules *rules)
{
    const cd_geom *g = cd_geom_of(rules);
    cd_position_empty(pos, rules, rules->first);
    if ((rules->flags & CD_RULE_DIAGONAL_START) && rules->geometry == CD_GEOM_8X8) {
        /* docs/variants.md: Black in the a8 double corner (b8 a7 / d8 c7 b6 a5 / f8 e7 d6 c5 b4
         * a3), White in the h1 one, point-symmetric */
        static const int black[12] = {1, 2, 3, 5, 6, 7, 9, 10, 13, 14, 17, 21};
        for (int i = 0; i < 12; i++) {
            cd_bb_set(pos->black, cd_sq_to_bit(rules, black[i]));
            cd_bb_set(pos->white, cd_sq_to_bit(rules, 33 - black[i]));
        }
        pos->key = compute_key(pos);
        return;
    }
    int n = rules->men_rows * g->half;
    /* Turkish (the full board): the men stand on rows 2-3 and 6-7, the back rows stay empty */
    int skip = g->full ? g->half : 0;
    for (int sq = 1; sq <= n; sq++) {
        cd_bb_set(pos->black, cd_sq_to_bit(rules, skip + sq));
        cd_bb_set(pos->white, cd_sq_to_bit(rules, g->squares + 1 - skip - sq));
    }
    pos->key = compute_key(pos);
}

int cd_position_piece(const cd_position *pos, int sq)
{
    int bit = cd_sq_to_bit(pos->rules, sq);
    if (bit < 0)
        return -1;
    int king = cd_bb_test(pos->kings, bit);
    if (cd_bb_test(pos->white, bit))
        return king ? CD_WHITE_KING : CD_WHITE_MAN;
    if (cd_bb_test(pos->black, bit))
        return king ? CD_BLACK_KING : CD_BLACK_MAN;
    return CD_EMPTY;
}

cd_result cd_position_set(cd_position *pos, int sq, int piece)
{
    int bit = cd_sq_to_bit(pos->rules, sq);
    if (bit < 0 || piece < CD_EMPTY || piece > CD_BLACK_KING)
        return CD_ERR_ARG;
    int old = cd_position_piece(pos, sq);
    if (old != CD_EMPTY)
        pos->key ^=
            cd_zobrist(old == CD_BLACK_MAN || old == CD_BLACK_KING, old >= CD_WHITE_KING, bit);
    cd_bb_clear(pos->white, bit);
    cd_bb_clear(pos->black, bit);
    cd_bb_clear(pos->kings, bit);
    if (piece == CD_EMPTY) {
        run_fix(pos);
        return CD_OK;
    }
    int colour = (piece == CD_BLACK_MAN || piece == CD_BLACK_KING) ? CD_BLACK : CD_WHITE;
    int king = piece >= CD_WHITE_KING;
    cd_bb_set(colour == CD_WHITE ? pos->white : pos->black, bit);
    if (king)
        cd_bb_set(pos->kings, bit);
    pos->key ^= cd_zobrist(colour, king, bit);
    run_fix(pos);
    return CD_OK;
}

int cd_position_count(const cd_position *pos, int colour, int kings)
{
    const uint64_t *bb = colour == CD_WHITE ? pos->white : pos->black;
    uint64_t k[2] = {bb[0] & pos->kings[0], bb[1] & pos->kings[1]};
    uint64_t m[2] = {bb[0] & ~pos->kings[0], bb[1] & ~pos->kings[1]};
    if (kings < 0)
        return cd_bb_count(bb);
    return cd_bb_count(kings ? k : m);
}

cd_result cd_position_validate(const cd_position *pos, char *err, size_t errlen)
{
    const cd_rules *r = pos->rules;
    const cd_geom *g = cd_geom_of(r);
    int setup = r->men_rows * g->half;
    static const char *names[2] = {"white", "black"};
    for (int c = 0; c < 2; c++) {
        int n = cd_position_count(pos, c, -1);
        if (n > setup) {
            if (err)
                snprintf(err, errlen, "%s has %d pieces, more than the %d of the setup", names[c],
                         n, setup);
            return CD_ERR_POSITION;
        }
    }
    for (int i = 0; i < g->half; i++) {
        int top = i + 1, bottom = g->squares - i;
        if (cd_position_piece(pos, top) == CD_WHITE_MAN) {
            if (err)
                snprintf(err, errlen, "white man on square %d, white's promotion row", top);
            return CD_ERR_POSITION;
        }
        if (cd_position_piece(pos, bottom) == CD_BLACK_MAN) {
            if (err)
                snprintf(err, errlen, "black man on square %d, black's promotion row", bottom);
            return CD_ERR_POSITION;
        }
    }
    if (pos->side != CD_WHITE && pos->side != CD_BLACK) {
        if (err)
            snprintf(err, errlen, "bad side to move");
        return CD_ERR_POSITION;
    }
    if (pos->second > 1 || (pos->second && !(r->flags & CD_RULE_TWO_MOVE))) {
        if (err)
            snprintf(err, errlen, "a second move of the turn without the two-move rule");
        return CD_ERR_POSITION;
    }
    for (int c = 0; c < 2; c++) {
        int len = pos->run.len[c], bit = pos->run.sq[c];
        const char *why = NULL;
        if (!len && bit)
            why = "a counted king without a count";
        else if (len && len > r->king_moves)
            why = r->king_moves ? "over the variant's limit" : "the variant has no limit";
        else if (len && !run_possible(pos, c, bit))
            why = "no king of that colour on the counted square, or no men";
        if (why) {
            if (err)
                snprintf(err, errlen, "%s king-move count %d: %s", names[c], len, why);
            return CD_ERR_POSITION;
        }
    }
    return CD_OK;
}

cd_result cd_position_set_second(cd_position *pos, int second)
{
    if (!pos || (second != 0 && second != 1) || (second && !(pos->rules->flags & CD_RULE_TWO_MOVE)))
        return CD_ERR_ARG;
    pos->second = (uint8_t)second;
    pos->key = compute_key(pos);
    return CD_OK;
}

/* Used by notation.c after building a position square by square. */
void cd_position_rekey(cd_position *pos) { pos->key = compute_key(pos); }

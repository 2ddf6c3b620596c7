/*
 * movegen.h -- internal interface of the move generator.
 *
 * The generator is one generic body (movegen_body.h) compiled once per board
 * geometry with that geometry's bitboard type and shift constants; the public
 * entry points dispatch on the geometry once per call.
 *
 * Order of work in a generation: captures first (one generic depth-first
 * capture search driven by the rules row: man/king jump rules, promotion
 * during a capture, halt rule, precedence rank, duplicate removal); only when
 * there is no capture, quiet moves (men steps, king slides, the constitutional
 * filter on king slides).
 */
#ifndef CD_MOVEGEN_H
#define CD_MOVEGEN_H

#include "condraughts.h"

#define CD_MAX_PATH 32

/*
 * Generate legal moves. If `want` is not NULL, also record the landing squares
 * (internal bit indices) of the first capture path that yields exactly the
 * move *want, into path[0..*pathlen-1]. Returns the move count.
 */
int cd_generate_ex(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                   int *pathlen);

/* Append a non-capturing move (bit indices) to l, or mark it overflowed when full: the one
 * quiet-move store of every generator body. */
static inline void cd_push_quiet(cd_movelist *l, int from, int to, int flags)
{
    if (l->count >= CD_MAX_MOVES) {
        l->overflow = 1;
        return;
    }
    cd_move *m = &l->moves[l->count++];
    m->captured = 0;
    m->captured_hi = 0;
    m->from = (uint8_t)from;
    m->to = (uint8_t)to;
    m->ncaptured = 0;
    m->flags = (uint8_t)flags;
    m->reserved = 0;
}

/* Make a move without updating the Zobrist key (perft and other key-free loops). */
void cd_play_nokey(const cd_position *pos, const cd_move *m, cd_position *out);

/* Non-capturing destinations (bit indices into out[2]) of the side to move's king on bit
 * `from`, Rule C applied; the position's quiet king moves from there when it has no capture. */
void cd_king_targets(const cd_position *pos, int from, uint64_t out[2]);

/* Recompute pos->key from the pieces and side (after editing the bitboards directly). */
void cd_position_rekey(cd_position *pos);

/* Constitutional helper for show: squares (bit indices into out[2]) where a king
 * of the side not to move placed alone there would be capturable by a king of the
 * side to move in one direct jump. */
void cd_king_zone_bits(const cd_position *pos, uint64_t out[2]);

/* The entry points of the Frisian body (movegen_frisian.c: 10x10 with orthogonal captures, value
 * precedence or a king-move limit), called by the dispatch in movegen.c only. */
int cd_frisian_generate(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                        int *pathlen);
int cd_frisian_count(const cd_position *pos);
void cd_frisian_play(const cd_position *pos, const cd_move *m, cd_position *out);
uint64_t cd_frisian_perft(const cd_position *pos, int depth);
void cd_frisian_king_zone(const cd_position *pos, uint64_t out[2]);
void cd_frisian_king_targets(const cd_position *pos, int from, uint64_t out[2]);

/* The entry points of the folk body (movegen_folk.c: 8x8 with the Samoyed, Northern, Stavropol or
 * two-move rule), called by the dispatch in movegen.c only. */
int cd_folk_generate(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                     int *pathlen);
int cd_folk_count(const cd_position *pos);
void cd_folk_play(const cd_position *pos, const cd_move *m, cd_position *out);
uint64_t cd_folk_perft(const cd_position *pos, int depth);
void cd_folk_king_zone(const cd_position *pos, uint64_t out[2]);
void cd_folk_king_targets(const cd_position *pos, int from, uint64_t out[2]);

/* The entry points of the Turkish generator (movegen_turkish.c: the full 8x8 board,
 * CD_GEOM_8X8_FULL), called by the dispatch in movegen.c only. */
int cd_turkish_generate(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                        int *pathlen);
int cd_turkish_count(const cd_position *pos);
void cd_turkish_play(const cd_position *pos, const cd_move *m, cd_position *out);
uint64_t cd_turkish_perft(const cd_position *pos, int depth);
void cd_turkish_king_zone(const cd_position *pos, uint64_t out[2]);
void cd_turkish_king_targets(const cd_position *pos, int from, uint64_t out[2]);

#endif

/*
 * movegen.h -- internal interface of the move generator.
 *
 * The generator is one generic body (movegen_body.h) compiled once per board
 * geometry and rule family, each in its own translation unit, with that
 * geometry's bitboard type and shift constants; the public entry points
 * (movegen.c) choose the instance once per call.
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

/* CD_ALWAYS_INLINE before a small function that a hot caller must not call through a jump (play
 * inside play_key: it is also an entry point of its own, which makes gcc keep it out of line). */
#if defined(__GNUC__)
#define CD_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CD_ALWAYS_INLINE inline
#endif

/*
 * CD_RECURSIVE before the self-recursive king capture searches of the generators (king_caps,
 * track_hits): no cloning by gcc's interprocedural constant propagation. gcc 12 at -O3 otherwise
 * clones such a function once per constant value of its depth argument (n = 0, 1, 2, ...: --param
 * ipa-cp-max-recursive-depth, 8 levels) and inlines the unrolled direction loops and the man
 * search into each clone: 100 KB of code for the 8x8 king search alone, 90-110 s and 780 MB of gcc
 * for the four diagonal instances, and no perft speed gained. The man search (man_caps) keeps its
 * clones: they are small, and perft measured a little faster with them. clang does not clone like
 * this and has no such attribute.
 */
#if defined(__GNUC__) && !defined(__clang__)
#define CD_RECURSIVE __attribute__((noclone))
#else
#define CD_RECURSIVE
#endif

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
    /* one compound store: the compiler writes the 16 bytes in two words */
    l->moves[l->count++] =
        (cd_move){.from = (uint8_t)from, .to = (uint8_t)to, .flags = (uint8_t)flags};
}

/* -1 when the side to move may have a capture; else 0 when it has no move at all and a positive
 * number (not always the count) when it has a quiet move. Cheaper than generating: bitboards, no
 * list (the search's quiescence stands pat on it before it needs the moves). */
int cd_quiet_moves(const cd_position *pos);

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

/*
 * One generator instance: the entry points of one translation unit, chosen by cd_generate and
 * the other public functions once per call (movegen.c). The six instances of movegen_body.h:
 *   cd_movegen_g8                   8x8 (Russian, Brazilian, English, Italian, ...)
 *   cd_movegen_g8_folk_thai         8x8 with a folk rule of the Russian row (Samoyed, Northern,
 *                                   Stavropol, two-move) or Thai captures
 *   cd_movegen_g10                  10x10 with diagonal captures (International, Constitutional,
 *                                   Killer, Modern, ...)
 *   cd_movegen_g10_frisian_hoogland 10x10 with orthogonal captures (Frisian, Frysk, Hoogland),
 *                                   value precedence or a king-move limit
 *   cd_movegen_g108                 10 files x 8 ranks (Spantsiretti)
 *   cd_movegen_g12                  12x12 (Canadian), 128-bit boards
 * and cd_movegen_turkish, the full 8x8 board of Turkish draughts (movegen_turkish.c).
 */
typedef struct cd_movegen {
    int (*generate)(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                    int *pathlen);
    int (*count)(const cd_position *pos);
    void (*play)(const cd_position *pos, const cd_move *m, cd_position *out); /* key not updated */
    void (*play_key)(const cd_position *pos, const cd_move *m, cd_position *out); /* cd_play */
    uint64_t (*perft)(const cd_position *pos, int depth);
    void (*king_zone)(const cd_position *pos, uint64_t out[2]);
    void (*king_targets)(const cd_position *pos, int from, uint64_t out[2]);
    int (*quiet_moves)(const cd_position *pos);
    /* generate (no path) for a position whose quiet_moves was `quiets`: the same list, without
     * the capture test again (the search's quiescence asks quiet_moves first) */
    int (*generate_known)(const cd_position *pos, cd_movelist *list, int quiets);
} cd_movegen;

extern const cd_movegen cd_movegen_g8, cd_movegen_g8_folk_thai, cd_movegen_g10,
    cd_movegen_g10_frisian_hoogland, cd_movegen_g108, cd_movegen_g12, cd_movegen_turkish;

/* The instance for a rules row, which every entry point above picks again on each call. A caller
 * that makes many calls on one variant (the search) picks it once and calls it directly. */
const cd_movegen *cd_movegen_of(const cd_rules *r);

/* cd_play through the instance g, which must be cd_movegen_of(pos->rules): the same result. */
static inline void cd_play_with(const cd_movegen *g, const cd_position *pos, const cd_move *m,
                                cd_position *out)
{
    g->play_key(pos, m, out);
}

#endif

/*
 * board.h -- board geometry: square numbers <-> internal bit indices.
 *
 * Every geometry is W cells wide and H cells high (W, H even). The top-left
 * cell is never playable, so row 0 has its playable cells in the odd columns,
 * row 1 in the even ones, and so on. Squares are numbered 1..N row by row from
 * the top-left playable square, as White (at the bottom) sees the board.
 *
 * Internal layout: bit = (n - 1) + (n - 1) / W, i.e. one "ghost" bit after
 * every two rows. With it every diagonal step is the same constant shift on
 * every square (half = W / 2):
 *
 *     up-left  -(half + 1)    up-right  -half
 *     down-left +half         down-right +(half + 1)
 *
 * and a step off the side of the board lands on a ghost bit (or off the word),
 * which is never in the playable mask. 10x10 (numbers left, bits right):
 *
 *        01  02  03  04  05          00  01  02  03  04
 *      06  07  08  09  10          05  06  07  08  09        [10 ghost]
 *        11  12  13  14  15          11  12  13  14  15
 *      16  17  18  19  20          16  17  18  19  20        [21 ghost]
 *        21  22  23  24  25          22  23  24  25  26
 *      26  27  28  29  30          27  28  29  30  31        [32 ghost]
 *        31  32  33  34  35          33  34  35  36  37
 *      36  37  38  39  40          38  39  40  41  42        [43 ghost]
 *        41  42  43  44  45          44  45  46  47  48
 *      46  47  48  49  50          49  50  51  52  53
 *
 * Bits used: 8x8 0..34 (steps 4/5), 10x10 0..53 (5/6), 10x8 0..42 (5/6) all
 * fit one 64-bit word; 12x12 uses 0..76 (6/7) and needs two words.
 *
 * Orthogonal steps (Frisian captures along ranks and files, 10x10). The
 * nearest square of the same colour along a rank is two columns away, along a
 * file two rows away:
 *
 *     up -(W + 1) = -11    left -1    right +1    down +(W + 1) = +11
 *
 * Up and down stay in the column (two rows hold W squares plus one ghost bit)
 * and fall off the word past the top or bottom row (plain shifts, no
 * rotation: bit 53 + 11 would wrap round to bit 0). Left and right stay in the
 * row except at one seam per row pair: the last square of an even row (5, 15,
 * ..., 45: bits 4, 15, 26, 37, 48) is followed directly by the first square of
 * the next, odd row (6, 16, ..., 46: bits 5, 16, 27, 38, 49), with no ghost
 * bit between them. So a step right must not land on a first-of-odd-row bit,
 * a step left not on a last-of-even-row bit (the other row ends meet a ghost
 * bit, 10, 21, 32, 43, or fall off the word). Example: 23 (bit 24) has the
 * orthogonal neighbours 13 (bit 13), 22 (23), 24 (25) and 33 (35).
 *
 * Mirrored boards (Italian, Spanish, Portuguese: bottom-left corner light)
 * are the same graph reflected left-right; the variant's public square k-th
 * from the left in a row is internal square (half-1-k)-th from the left.
 *
 * The full board (CD_GEOM_8X8_FULL, Turkish draughts) is different: every
 * cell is playable, so a row holds W squares (half == W) and there are no
 * ghost bits: square n (row by row from the top-left, a8 = 1 ... h1 = 64) is
 * bit n - 1, i.e. bit = row * 8 + col. Its generator (movegen_turkish.c) steps
 * up -8, left -1, right +1, down +8 with file masks against the wrap-round.
 * `full` marks it; the helpers below branch on it, outside every hot path.
 */
#ifndef CD_BOARD_H
#define CD_BOARD_H

#include "condraughts.h"

typedef struct cd_geom {
    int width, height, half, squares, nbits;
    int full; /* 1: every cell is playable (half == width, bit = n - 1, no ghost bits) */
} cd_geom;

extern const cd_geom cd_geoms[CD_GEOM_COUNT];

static inline const cd_geom *cd_geom_of(const cd_rules *r) { return &cd_geoms[r->geometry]; }

/* Internal (unmirrored) square number 1..N -> bit. */
static inline int cd_bit_of_internal(const cd_geom *g, int n)
{
    return g->full ? n - 1 : (n - 1) + (n - 1) / g->width;
}

/* The bits of the playable squares in the low word (all of them below 12x12). */
static inline uint64_t cd_geom_playable(const cd_geom *g)
{
    uint64_t m = 0;
    for (int n = 1; n <= g->squares; n++) {
        int b = cd_bit_of_internal(g, n);
        if (b < 64)
            m |= (uint64_t)1 << b;
    }
    return m;
}

/* Bit -> internal square number 1..N, or 0 for a ghost/out-of-range bit. */
static inline int cd_internal_of_bit(const cd_geom *g, int bit)
{
    if (bit < 0 || bit >= g->nbits)
        return 0;
    if (g->full)
        return bit + 1;
    if (bit % (g->width + 1) == g->width)
        return 0;
    return bit - bit / (g->width + 1) + 1;
}

/* Public square number <-> internal square number (identity unless mirrored). */
static inline int cd_mirror_square(const cd_rules *r, int n)
{
    if (!(r->flags & CD_RULE_MIRRORED))
        return n;
    const cd_geom *g = cd_geom_of(r);
    int row = (n - 1) / g->half, k = (n - 1) % g->half;
    return row * g->half + (g->half - 1 - k) + 1;
}

/* Public square number 1..N -> bit, or -1 if out of range. */
static inline int cd_sq_to_bit(const cd_rules *r, int n)
{
    const cd_geom *g = cd_geom_of(r);
    if (n < 1 || n > g->squares)
        return -1;
    return cd_bit_of_internal(g, cd_mirror_square(r, n));
}

/* Bit -> public square number, or 0. */
static inline int cd_bit_to_sq(const cd_rules *r, int bit)
{
    int n = cd_internal_of_bit(cd_geom_of(r), bit);
    return n ? cd_mirror_square(r, n) : 0;
}

/* Two-word bitboard helpers for code outside the per-geometry hot paths. */
static inline int cd_bb_test(const uint64_t bb[2], int bit)
{
    return (int)((bb[bit >> 6] >> (bit & 63)) & 1u);
}
static inline void cd_bb_set(uint64_t bb[2], int bit) { bb[bit >> 6] |= (uint64_t)1 << (bit & 63); }
static inline void cd_bb_clear(uint64_t bb[2], int bit)
{
    bb[bit >> 6] &= ~((uint64_t)1 << (bit & 63));
}
static inline int cd_bb_count(const uint64_t bb[2])
{
    return __builtin_popcountll(bb[0]) + __builtin_popcountll(bb[1]);
}

/* splitmix64's finaliser of x * golden ratio, the Zobrist keys' source, written once as constant
 * expressions: the compiler evaluates it for the table below, cd_zobrist_mix at run time. */
#define CD_ZM1_(x)  ((uint64_t)(x)*0x9E3779B97F4A7C15ull)
#define CD_ZM2_(z)  (((z) ^ ((z) >> 30)) * 0xBF58476D1CE4E5B9ull)
#define CD_ZM3_(z)  (((z) ^ ((z) >> 27)) * 0x94D049BB133111EBull)
#define CD_ZM4_(z)  ((z) ^ ((z) >> 31))
#define CD_ZMIX_(x) CD_ZM4_(CD_ZM3_(CD_ZM2_(CD_ZM1_(x))))
static inline uint64_t cd_zobrist_mix(uint64_t x) { return CD_ZMIX_(x); }
#define CD_Z4_(b)                                                                                  \
    CD_ZMIX_(4 * (b) + 1), CD_ZMIX_(4 * (b) + 2), CD_ZMIX_(4 * (b) + 3), CD_ZMIX_(4 * (b) + 4)
#define CD_Z8_(b)   CD_Z4_(b), CD_Z4_((b) + 1)
#define CD_Z32_(b)  CD_Z8_(b), CD_Z8_((b) + 2), CD_Z8_((b) + 4), CD_Z8_((b) + 6)
#define CD_Z128_(b) CD_Z32_(b), CD_Z32_((b) + 8), CD_Z32_((b) + 16), CD_Z32_((b) + 24)

/* cd_zobrist_mix(bit * 4 + colour * 2 + king + 1) for every bit 0..127: a load instead of three
 * dependent multiplications on every move played (the search's copy-make, cd_play). */
static const uint64_t cd_zobrist_table[512] = {CD_Z128_(0), CD_Z128_(32), CD_Z128_(64),
                                               CD_Z128_(96)};

/* Zobrist key of one piece (bit 0..127): no state, the same values as cd_zobrist_mix. */
static inline uint64_t cd_zobrist(int colour, int king, int bit)
{
    return cd_zobrist_table[bit * 4 + colour * 2 + king];
}
#define CD_ZOBRIST_SIDE   0xA5F1C3D2E4B69788ull
#define CD_ZOBRIST_SECOND 0x3C6EF372FE94F82Bull /* cd_position.second (two-move rule) */

/* Zobrist key of the king-move limit state of one colour (cd_king_run): `len` (1..) moves by the
 * king on `bit`. Inputs disjoint from the pieces' (those stay below 4 * 128 + 4). */
static inline uint64_t cd_zobrist_run(int colour, int bit, int len)
{
    return cd_zobrist_mix((uint64_t)((1024 + (colour * 64 + len) * 128 + bit) * 4 + 1));
}

/* Zobrist key of a position's whole king-move limit state (0 when there is none). */
static inline uint64_t cd_run_key(const cd_king_run *run)
{
    uint64_t k = 0;
    for (int c = 0; c < 2; c++)
        if (run->len[c])
            k ^= cd_zobrist_run(c, run->sq[c], run->len[c]);
    return k;
}

/* The change of the Zobrist key (pieces and side; not a king-move limit state, not the two-move
 * turn) when the side to move plays m: its piece leaves `from` and stands on `to` (a king, or a
 * man that promotes there, as a king), the pieces in m's captured set leave. Read before the new
 * position is written over pos. cd_move_key_words with words = 1 reads only the low word of the
 * captured set (boards of at most 64 bits: a generator body calls it with its constant). */
static inline uint64_t cd_move_key_words(const cd_position *pos, const cd_move *m, int words)
{
    int c = pos->side;
    int king = cd_bb_test(pos->kings, m->from);
    uint64_t key = cd_zobrist(c, king, m->from) ^
                   cd_zobrist(c, king || (m->flags & CD_MOVE_PROMOTES), m->to) ^ CD_ZOBRIST_SIDE;
    uint64_t cap[2] = {m->captured, m->captured_hi};
    for (int w = 0; w < words; w++)
        for (uint64_t x = cap[w]; x; x &= x - 1) {
            int bit = w * 64 + __builtin_ctzll(x);
            key ^= cd_zobrist(c ^ 1, cd_bb_test(pos->kings, bit), bit);
        }
    return key;
}

static inline uint64_t cd_move_key(const cd_position *pos, const cd_move *m)
{
    return cd_move_key_words(pos, m, 2);
}

#endif

/*
 * movegen_turkish.c -- the move generator of Turkish draughts (Dama) on the
 * full 8x8 board (CD_GEOM_8X8_FULL), its entry points (cd_movegen_turkish) chosen by
 * the dispatch in movegen.c.
 *
 * Board: one 64-bit word, square n (a8 = 1, b8 = 2, ..., h1 = 64, row by row
 * from the top-left as White sees it) is bit n - 1 = row * 8 + col (board.h).
 * Directions: 0 up (-8), 1 left (-1), 2 right (+1), 3 down (+8); d ^ 3 is the
 * opposite of d. A step left or right that would wrap round to the next row
 * is masked off with the file masks, a step off the top or bottom falls off
 * the word.
 *
 * Rules (docs/turkish.md has them with their sources):
 *  - men step one square forward or sideways; kings slide any distance along
 *    ranks and files;
 *  - a man captures forward or sideways by jumping an adjacent enemy piece
 *    (man or king) to the empty square right behind it; a king flies: any
 *    number of empty squares, one enemy piece, and lands on any empty square
 *    beyond it;
 *  - a captured piece leaves the board at once, as it is jumped: its square is
 *    empty for the rest of the move (it may be crossed or landed on again) and
 *    so is the mover's origin;
 *  - no 180-degree turn between two jumps (a king may go on straight or turn
 *    90 degrees; for a man, which never moves backward, a reversal is
 *    impossible anyway: the square it would jump is the one it just emptied);
 *  - capturing is compulsory and the sequence taking the most pieces must be
 *    played (men and kings count the same); the rest is free;
 *  - promotion (cd_rules.promotion): CD_PROMO_END (the built-in row, kish's
 *    convention: a man that reaches the last row during a capture goes on
 *    capturing as a man, i.e. sideways along that row, and is crowned when the
 *    move ends there, which it then always does), CD_PROMO_CONTINUE (crowned at
 *    once, goes on as a king, still without a 180-degree turn) or
 *    CD_PROMO_STOP (the move ends there). The published keep perft (kish)
 *    needs CD_PROMO_END: from the start position the two first differ at d11.
 *
 * Capture paths. Under the drop convention a move is its from, to and
 * captured set: a king that goes on straight after a jump reaches the same
 * next piece from every landing square, so going on straight is tried once
 * (from the last landing square); turning is tried from each landing square.
 * Two different paths with the same from, to and captured set then need 3 or
 * more pieces taken (with 1 or 2 the order and the turning square are
 * forced), so only moves of 3 or more are compared. Under
 * CD_RULE_KEEP_DUPLICATES every path counts, a path being the pieces taken in
 * order and the landing square of every jump, as kish counts them (the
 * published keep perft needs it): going on straight is tried from every
 * landing square, each making its own path.
 *
 * Captures are stored in any buffer (room of them), so that perft can go on
 * with a heap buffer when a crowded keep-convention position has more capture
 * paths than a cd_movelist holds (cd_generate flags `overflow` then).
 */
#include <stdlib.h>

#include "board.h"
#include "movegen.h"

typedef uint64_t bb;

#define FILE_A 0x0101010101010101ull /* column 0: a1..a8 */
#define FILE_H 0x8080808080808080ull /* column 7 */
#define ROW_8  0x00000000000000ffull /* squares 1-8: White's promotion row */
#define ROW_1  0xff00000000000000ull /* squares 57-64: Black's promotion row */

enum { UP = 0, LEFT = 1, RIGHT = 2, DOWN = 3 };

/* One step in direction d (d a constant after inlining and unrolling). */
static inline bb sh(bb x, int d)
{
    switch (d) {
    case UP: return x >> 8;
    case LEFT: return (x >> 1) & ~FILE_H;
    case RIGHT: return (x << 1) & ~FILE_A;
    default: return x << 8;
    }
}

/* The squares x and every empty square reachable from x in direction d (occluded fill). */
static inline bb fill(bb x, bb empty, int d)
{
    switch (d) {
    case UP:
        x |= empty & (x >> 8);
        empty &= empty >> 8;
        x |= empty & (x >> 16);
        empty &= empty >> 16;
        return x | (empty & (x >> 32));
    case DOWN:
        x |= empty & (x << 8);
        empty &= empty << 8;
        x |= empty & (x << 16);
        empty &= empty << 16;
        return x | (empty & (x << 32));
    case LEFT:
        empty &= ~FILE_H;
        x |= empty & (x >> 1);
        empty &= empty >> 1;
        x |= empty & (x >> 2);
        empty &= empty >> 2;
        return x | (empty & (x >> 4));
    default:
        empty &= ~FILE_A;
        x |= empty & (x << 1);
        empty &= empty << 1;
        x |= empty & (x << 2);
        empty &= empty << 2;
        return x | (empty & (x << 4));
    }
}

static inline void store(bb x, uint64_t out[2])
{
    out[0] = x;
    out[1] = 0;
}

/* Capture and step directions of men (bit d): forward and sideways. */
static inline int man_dirs(int side)
{
    return side == CD_WHITE ? (1 << UP | 1 << LEFT | 1 << RIGHT)
                            : (1 << DOWN | 1 << LEFT | 1 << RIGHT);
}

/* ------------------------------------------------------------------ captures */

typedef struct tctx {
    cd_move *moves; /* room of them */
    int count, room, overflow;
    int best;      /* most pieces taken so far (0: no capture yet) */
    int uncounted; /* counted but not stored (counting mode) */
    int counting;  /* only the number of moves is wanted */
    int keep;      /* CD_RULE_KEEP_DUPLICATES */
    int promotion; /* cd_rules.promotion */
    int mandirs;
    int from, king; /* origin bit; the mover started as a king */
    bb promo;       /* the mover's promotion row */
    /* path recovery (notation): the landing squares of the first path giving *want */
    const cd_move *want;
    int *path_out, *pathlen_out;
    int path[CD_MAX_PATH];
} tctx;

static void add_capture(tctx *c, bb to, bb cap, int n, int promotes)
{
    if (n < c->best)
        return;
    if (n > c->best) {
        c->best = n;
        c->count = 0;
        c->uncounted = 0;
    }
    if (c->counting && (n < 3 || c->keep)) {
        c->uncounted++; /* no duplicate possible (or all kept): no need to store it */
        return;
    }
    cd_move m;
    m.captured = cap;
    m.captured_hi = 0;
    m.from = (uint8_t)c->from;
    m.to = (uint8_t)__builtin_ctzll(to);
    m.ncaptured = (uint8_t)n;
    m.flags = (uint8_t)((promotes ? CD_MOVE_PROMOTES : 0) | (c->king ? CD_MOVE_KING : 0));
    m.reserved = 0;
    if (c->want && c->path_out && *c->pathlen_out == 0 && cd_move_equal(&m, c->want)) {
        int len = n < CD_MAX_PATH ? n : CD_MAX_PATH;
        for (int i = 0; i < len; i++)
            c->path_out[i] = c->path[i];
        *c->pathlen_out = len;
    }
    if (n >= 3 && !c->keep)
        for (int i = 0; i < c->count; i++)
            if (cd_move_equal(&c->moves[i], &m))
                return;
    if (c->count >= c->room) {
        c->overflow = 1;
        return;
    }
    c->moves[c->count++] = m;
}

/*
 * Jumps of a king standing on sq, in the directions of the mask `dirs`; opp
 * and empty as they are now (pieces taken so far removed, the origin empty).
 * Returns 1 if it can jump at all. For each jump the landing squares from
 * which the capture goes on are followed; if it goes on from none, every
 * landing square ends the move. From a landing square the king turns to the
 * two perpendicular directions; straight on only from the last one.
 */
static CD_RECURSIVE int king_caps(tctx *c, bb sq, bb opp, bb empty, bb cap, int n, int dirs,
                                  int promoted)
{
    int found = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (!(dirs >> d & 1))
            continue;
        bb x = sh(sq, d);
        while (x & empty)
            x = sh(x, d);
        if (!(x & opp))
            continue;
        bb land = sh(x, d) & empty;
        if (!land)
            continue;
        found = 1;
        bb opp2 = opp ^ x, empty2 = empty | x, cap2 = cap | x;
        int perp = (d == UP || d == DOWN) ? (1 << LEFT | 1 << RIGHT) : (1 << UP | 1 << DOWN);
        int more = 0;
        for (bb l = land; l;) {
            bb next = sh(l, d) & empty;
            if (n < CD_MAX_PATH)
                c->path[n] = __builtin_ctzll(l);
            more |= king_caps(c, l, opp2, empty2, cap2, n + 1,
                              next && !c->keep ? perp : perp | 1 << d, promoted);
            l = next;
        }
        if (more)
            continue;
        for (bb l = land; l; l = sh(l, d) & empty) {
            if (n < CD_MAX_PATH)
                c->path[n] = __builtin_ctzll(l);
            add_capture(c, l, cap2, n + 1, promoted);
        }
    }
    return found;
}

/* Jumps of a man standing on sq. Returns 1 if it can jump at all; the caller adds the move
 * ending on sq when it cannot. */
static int man_caps(tctx *c, bb sq, bb opp, bb empty, bb cap, int n)
{
    int found = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (!(c->mandirs >> d & 1))
            continue;
        bb over = sh(sq, d) & opp;
        if (!over)
            continue;
        bb land = sh(over, d) & empty;
        if (!land)
            continue;
        found = 1;
        if (n < CD_MAX_PATH)
            c->path[n] = __builtin_ctzll(land);
        bb opp2 = opp ^ over, empty2 = empty | over, cap2 = cap | over;
        if (land & c->promo) {
            if (c->promotion == CD_PROMO_CONTINUE) {
                if (!king_caps(c, land, opp2, empty2, cap2, n + 1, 15 & ~(1 << (d ^ 3)), 1))
                    add_capture(c, land, cap2, n + 1, 1);
                continue;
            }
            if (c->promotion == CD_PROMO_STOP) {
                add_capture(c, land, cap2, n + 1, 1);
                continue;
            }
            if (!man_caps(c, land, opp2, empty2, cap2, n + 1))
                add_capture(c, land, cap2, n + 1, 1);
            continue;
        }
        if (!man_caps(c, land, opp2, empty2, cap2, n + 1))
            add_capture(c, land, cap2, n + 1, 0);
    }
    return found;
}

/* The position as the generator sees it. */
typedef struct tpos {
    bb own, opp, kings, empty;
    int side;
} tpos;

static inline void tpos_of(const cd_position *pos, tpos *t)
{
    bb w = pos->white[0], b = pos->black[0];
    t->side = pos->side;
    t->own = pos->side == CD_WHITE ? w : b;
    t->opp = pos->side == CD_WHITE ? b : w;
    t->kings = pos->kings[0];
    t->empty = ~(w | b);
}

/* Cheap test for any capture (bitboards only). */
static inline int has_captures(const tpos *t)
{
    bb men = t->own & ~t->kings, kings = t->own & t->kings;
    int fwd = t->side == CD_WHITE ? UP : DOWN;
    bb j = sh(sh(men, fwd) & t->opp, fwd) | sh(sh(men, LEFT) & t->opp, LEFT) |
           sh(sh(men, RIGHT) & t->opp, RIGHT);
    if (j & t->empty)
        return 1;
    if (!kings)
        return 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++)
        if (sh(sh(fill(kings, t->empty, d), d) & t->opp, d) & t->empty)
            return 1;
    return 0;
}

/* Every capture of the side to move into moves[0..room-1]; returns their number (0: none).
 * *stored of them are stored (all, unless counting), *overflow is set when they did not fit. */
static int gen_captures(const tpos *t, const cd_rules *r, cd_move *moves, int room, int *stored,
                        int *overflow, const cd_move *want, int *path, int *pathlen, int counting)
{
    tctx c;
    c.moves = moves;
    c.count = 0;
    c.room = room;
    c.overflow = 0;
    c.best = 0;
    c.uncounted = 0;
    c.counting = counting;
    c.keep = (r->flags & CD_RULE_KEEP_DUPLICATES) != 0;
    c.promotion = r->promotion;
    c.mandirs = man_dirs(t->side);
    c.promo = t->side == CD_WHITE ? ROW_8 : ROW_1;
    c.want = want;
    c.path_out = path;
    c.pathlen_out = pathlen;
    bb opp = t->opp, jumpers = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) /* only the men that have a first jump */
        if (c.mandirs >> d & 1)
            jumpers |= sh(opp & sh(t->empty, d ^ 3), d ^ 3);
    for (bb men = t->own & ~t->kings & jumpers; men; men &= men - 1) {
        bb m = men & (~men + 1);
        c.from = __builtin_ctzll(m);
        c.king = 0;
        man_caps(&c, m, opp, t->empty | m, 0, 0);
    }
    for (bb kings = t->own & t->kings; kings; kings &= kings - 1) {
        bb m = kings & (~kings + 1);
        c.from = __builtin_ctzll(m);
        c.king = 1;
        king_caps(&c, m, opp, t->empty | m, 0, 0, 15, 0);
    }
    *stored = c.count;
    *overflow = c.overflow;
    return c.count + c.uncounted;
}

/* ------------------------------------------------------------------ quiet moves */

static inline void push(cd_movelist *l, int from, bb to, int flags)
{
    cd_push_quiet(l, from, __builtin_ctzll(to), flags);
}

/* Non-capturing destinations of a king on o. */
static inline bb king_quiet(bb o, bb empty)
{
    bb res = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++)
        res |= sh(fill(o, empty, d), d) & empty;
    return res;
}

static void gen_quiet(const tpos *t, cd_movelist *list)
{
    bb men = t->own & ~t->kings;
    bb promo = t->side == CD_WHITE ? ROW_8 : ROW_1;
    int dirs = man_dirs(t->side);
    list->count = 0;
    list->overflow = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (!(dirs >> d & 1))
            continue;
        for (bb to = sh(men, d) & t->empty; to; to &= to - 1) {
            bb x = to & (~to + 1);
            push(list, __builtin_ctzll(sh(x, d ^ 3)), x, (x & promo) ? CD_MOVE_PROMOTES : 0);
        }
    }
    for (bb kings = t->own & t->kings; kings; kings &= kings - 1) {
        bb o = kings & (~kings + 1);
        int from = __builtin_ctzll(o);
        for (bb to = king_quiet(o, t->empty); to; to &= to - 1)
            push(list, from, to & (~to + 1), CD_MOVE_KING);
    }
}

static int generate(const tpos *t, const cd_rules *r, cd_movelist *list, const cd_move *want,
                    int *path, int *pathlen)
{
    if (has_captures(t)) {
        gen_captures(t, r, list->moves, CD_MAX_MOVES, &list->count, &list->overflow, want, path,
                     pathlen, 0);
        return list->count;
    }
    gen_quiet(t, list);
    return list->count;
}

/* ------------------------------------------------------------------ counting, playing, perft */

static uint64_t captures_big(const tpos *t, const cd_rules *r, int depth);

/* Number of legal moves (bulk counting: no quiet list is built). */
static uint64_t count(const tpos *t, const cd_rules *r)
{
    if (has_captures(t)) {
        cd_move moves[CD_MAX_MOVES];
        int stored, overflow;
        int n = gen_captures(t, r, moves, CD_MAX_MOVES, &stored, &overflow, NULL, NULL, NULL, 1);
        return overflow ? captures_big(t, r, 1) : (uint64_t)n;
    }
    bb men = t->own & ~t->kings, kings = t->own & t->kings, e = t->empty;
    int fwd = t->side == CD_WHITE ? UP : DOWN;
    uint64_t n = (uint64_t)(__builtin_popcountll(sh(men, fwd) & e) +
                            __builtin_popcountll(sh(men, LEFT) & e) +
                            __builtin_popcountll(sh(men, RIGHT) & e));
    if (kings) {
        /* the rays of different kings in one direction never overlap */
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            n += (uint64_t)__builtin_popcountll(sh(fill(kings, e, d), d) & e);
    }
    return n;
}

/* The position after m, seen from the other side. A capture may end on its own origin or on a
 * square emptied earlier in the same move, so nothing here assumes to is empty of captured
 * pieces. */
static inline void tplay(const tpos *t, const cd_move *m, tpos *out)
{
    bb from = (bb)1 << m->from, to = (bb)1 << m->to, cap = m->captured;
    bb k = t->kings & ~cap;
    int king = (k & from) != 0;
    k &= ~from;
    if (king || (m->flags & CD_MOVE_PROMOTES))
        k |= to;
    bb own = (t->own & ~from) | to, opp = t->opp & ~cap;
    out->own = opp;
    out->opp = own;
    out->kings = k;
    out->empty = ~(own | opp);
    out->side = t->side ^ 1;
}

static uint64_t perft_rec(const tpos *t, const cd_rules *r, int depth)
{
    if (depth <= 1)
        return depth == 1 ? count(t, r) : 1;
    cd_movelist list;
    generate(t, r, &list, NULL, NULL, NULL);
    if (list.overflow)
        return captures_big(t, r, depth);
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        tpos next;
        tplay(t, &list.moves[i], &next);
        n += perft_rec(&next, r, depth - 1);
    }
    return n;
}

/*
 * Captures that do not fit a cd_movelist (CD_MAX_MOVES): the number of
 * captures (depth 1) or the perft below them, with a heap buffer grown until
 * they all fit; 0 if memory runs out. Only crowded keep-convention positions
 * with kings get here.
 */
__attribute__((cold, noinline)) static uint64_t captures_big(const tpos *t, const cd_rules *r,
                                                             int depth)
{
    for (size_t room = 4 * CD_MAX_MOVES; room <= ((size_t)1 << 24); room *= 4) {
        cd_move *moves = malloc(room * sizeof *moves);
        if (!moves)
            return 0;
        int stored, overflow;
        int n =
            gen_captures(t, r, moves, (int)room, &stored, &overflow, NULL, NULL, NULL, depth <= 1);
        uint64_t total = depth <= 1 ? (uint64_t)n : 0;
        for (int i = 0; !overflow && depth > 1 && i < stored; i++) {
            tpos next;
            tplay(t, &moves[i], &next);
            total += perft_rec(&next, r, depth - 1);
        }
        free(moves);
        if (!overflow)
            return total;
    }
    return 0;
}

/* ------------------------------------------------------------------ entry points */

static int turkish_generate(const cd_position *pos, cd_movelist *list, const cd_move *want,
                            int *path, int *pathlen)
{
    tpos t;
    tpos_of(pos, &t);
    return generate(&t, pos->rules, list, want, path, pathlen);
}

static int turkish_count(const cd_position *pos)
{
    tpos t;
    tpos_of(pos, &t);
    uint64_t n = count(&t, pos->rules);
    return n > (uint64_t)INT32_MAX ? INT32_MAX : (int)n;
}

static void turkish_play(const cd_position *pos, const cd_move *m, cd_position *out)
{
    tpos t, n;
    tpos_of(pos, &t);
    tplay(&t, m, &n);
    bb mine = n.opp, theirs = n.own; /* n is seen from the side to move next */
    int side = pos->side;
    if (out != pos)
        *out = *pos; /* rules, key and every field without a meaning here */
    out->white[0] = side == CD_WHITE ? mine : theirs;
    out->black[0] = side == CD_WHITE ? theirs : mine;
    out->kings[0] = n.kings;
    out->white[1] = out->black[1] = out->kings[1] = 0;
    out->side = side ^ 1;
    out->run = (cd_king_run){{0, 0}, {0, 0}};
}

/* turkish_play and the key brought up to date from the move (board.h cd_move_key). */
static void turkish_play_key(const cd_position *pos, const cd_move *m, cd_position *out)
{
    uint64_t key = pos->key ^ cd_move_key_words(pos, m, 1); /* 64 squares: one word */
    turkish_play(pos, m, out);
    out->key = key;
}

static uint64_t turkish_perft(const cd_position *pos, int depth)
{
    tpos t;
    tpos_of(pos, &t);
    return perft_rec(&t, pos->rules, depth);
}

/* Squares where an enemy king standing alone could be captured by one of the side to move's
 * kings in one jump (cd_king_zone). */
static void turkish_king_zone(const cd_position *pos, uint64_t out[2])
{
    tpos t;
    tpos_of(pos, &t);
    bb kings = t.own & t.kings, zone = 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++)
        zone |= sh(fill(kings, t.empty, d), d) & t.empty & sh(t.empty, d ^ 3);
    store(zone, out);
}

/* Non-capturing destinations of the side to move's king on bit `from`. */
static void turkish_king_targets(const cd_position *pos, int from, uint64_t out[2])
{
    tpos t;
    tpos_of(pos, &t);
    store(king_quiet((bb)1 << from, t.empty), out);
}

static int turkish_quiet_moves(const cd_position *pos)
{
    tpos t;
    tpos_of(pos, &t);
    return has_captures(&t) ? -1 : (int)count(&t, pos->rules);
}

static int turkish_generate_known(const cd_position *pos, cd_movelist *list, int quiets)
{
    (void)quiets;
    return turkish_generate(pos, list, NULL, NULL, NULL);
}

const cd_movegen cd_movegen_turkish = {
    turkish_generate,     turkish_count,       turkish_play,
    turkish_play_key,     turkish_perft,       turkish_king_zone,
    turkish_king_targets, turkish_quiet_moves, turkish_generate_known};

/*
 * movegen_body.h -- the move generator, compiled once per board geometry and
 * rule family: each instance is its own translation unit (movegen_8x8.c,
 * movegen_10x10.c, ...), which defines these macros and includes this file:
 *   GN      name suffix of the instance (g8, g10, g108, g12, ...)
 *   BB_BITS bitboard width, 64 or 128 (BB, LOADBB, BBCTZ, BBPOP follow)
 *   HALF    playable squares per row (W / 2)    ALLM  mask of playable bits
 *   TOPM    top row (White's promotion row)     BOTM  bottom row (Black's)
 *   FOLK_THAI  1 for the 8x8 body with the folk rules of the Russian row
 *              (docs/variants.md: Samoyed captures of either colour, Northern
 *              demotion of captured kings, Stavropol moves of either colour,
 *              the two-move turn) and the Thai captures (pieces removed as
 *              they are jumped, kings landing right behind each); 0 or
 *              undefined elsewhere, which then contain none of it.
 *   FRISIAN_HOOGLAND  1 for the 10x10 body with orthogonal captures (Frisian,
 *              Frysk; Hoogland's orthogonal king captures), value precedence
 *              and the king-move limit (Frisian), and capture lists longer
 *              than a cd_movelist in perft; then also VSTEP (up/down step),
 *              ORTHO_LSEAM and ORTHO_RSEAM (bits a step left / right must not
 *              land on; board.h). 0 or undefined for the diagonal bodies,
 *              which contain none of that code.
 * It defines the instance's entry points, the const cd_movegen
 * cd_movegen_<GN> (movegen.h), and nothing else with external linkage.
 *
 * Directions: 0 up-left, 1 up-right, 2 down-left, 3 down-right, and in the
 * Frisian-Hoogland body 4 up, 5 left, 6 right, 7 down; d ^ 3 is the opposite
 * of d. Direction sets are bit masks (bit d). A shifted bitboard may carry
 * ghost bits; every use ANDs it with a subset of ALLM (empty, victims, ...)
 * before shifting again.
 */
#include <stdlib.h>

#include "board.h"
#include "movegen.h"

#ifndef FOLK_THAI
#define FOLK_THAI 0
#endif
#ifndef FRISIAN_HOOGLAND
#define FRISIAN_HOOGLAND 0
#endif

#if BB_BITS == 64
#define BB        uint64_t
#define LOADBB(a) ((a)[0])
#define BBCTZ(x)  __builtin_ctzll(x)
#define BBPOP(x)  __builtin_popcountll(x)
#else
__extension__ typedef unsigned __int128 cd_u128;
#define BB        cd_u128
#define LOADBB(a) (((cd_u128)(a)[1] << 64) | (a)[0])
#define BBCTZ(x)                                                                                   \
    ((uint64_t)(x) ? __builtin_ctzll((uint64_t)(x)) : 64 + __builtin_ctzll((uint64_t)((x) >> 64)))
#define BBPOP(x) (__builtin_popcountll((uint64_t)(x)) + __builtin_popcountll((uint64_t)((x) >> 64)))
#endif

#define CAT2(a, b) a##_##b
#define CAT(a, b)  CAT2(a, b)
#define F(name)    CAT(name, GN)

/* NDIR: capture directions. UNROLL_DIRS before the direction loops of the
 * recursive capture searches: unrolled in the diagonal bodies; not in the
 * Frisian-Hoogland one, where 8 unrolled directions inlined into the recursion make
 * the compiler run for tens of minutes and gigabytes, and the branch-free
 * table step below does not need it. */
#if FRISIAN_HOOGLAND
#define NDIR 8
#define UNROLL_DIRS
#else
#define NDIR        4
#define UNROLL_DIRS _Pragma("GCC unroll 4")
#endif

#if BB_BITS == 64 && FRISIAN_HOOGLAND
/* A rotation as below, with orthogonal steps (board.h): the source is masked
 * first so that no playable bit wraps round onto the board (up: bit 0 would
 * land on bit 53; down: bit 53 on bit 0), the result so that no step crosses
 * a row seam (left onto ORTHO_LSEAM, right onto ORTHO_RSEAM). */
static inline BB F(sh)(BB x, int d)
{
    static const int rot[8] = {64 - (HALF + 1), 64 - HALF, HALF, HALF + 1,
                               64 - VSTEP,      63,        1,    VSTEP};
    static const BB pre[8] = {~(BB)0, ~(BB)0, ~(BB)0, ~(BB)0,
                              ~(BB)1, ~(BB)0, ~(BB)0, ~((BB)1 << (64 - VSTEP))};
    static const BB post[8] = {~(BB)0, ~(BB)0,           ~(BB)0,           ~(BB)0,
                               ~(BB)0, ~(BB)ORTHO_LSEAM, ~(BB)ORTHO_RSEAM, ~(BB)0};
    int s = rot[d];
    x &= pre[d];
    return ((x << s) | (x >> ((64 - s) & 63))) & post[d];
}
#elif BB_BITS == 64
/* A rotation instead of a shift: the bits that wrap round land above the
 * board (every board here uses fewer than 57 bits), where every caller masks
 * them off, and a rotation by a table value needs no branch on d. */
static inline BB F(sh)(BB x, int d)
{
    static const int rot[4] = {64 - (HALF + 1), 64 - HALF, HALF, HALF + 1};
    int s = rot[d];
    return (x << s) | (x >> ((64 - s) & 63));
}
#else
#if FRISIAN_HOOGLAND
#error "the Frisian-Hoogland body is for 64-bit geometries"
#endif
static inline BB F(sh)(BB x, int d)
{
    switch (d) {
    case 0: return x >> (HALF + 1);
    case 1: return x >> HALF;
    case 2: return x << HALF;
    default: return x << (HALF + 1);
    }
}
#endif

static inline void F(store)(BB x, uint64_t out[2])
{
    out[0] = (uint64_t)x;
    out[1] = (uint64_t)(x >> 32 >> 32);
}

/* Squares reachable from `from` sliding in direction d over `empty` (excluding from). */
static inline BB F(slide)(BB from, BB empty, int d)
{
    BB r = 0, x = F(sh)(from, d) & empty;
    while (x) {
        r |= x;
        x = F(sh)(x, d) & empty;
    }
    return r;
}

/* ------------------------------------------------------------------ captures */

/* Where captures are stored. The diagonal bodies store into a cd_movelist (CD_MAX_MOVES); the
 * Frisian-Hoogland one into any buffer (CTX_ROOM), so that perft can go on with a bigger one when a
 * crowded position has more capture paths than that (F(captures_big)). */
#if FRISIAN_HOOGLAND
#define CTX_MOVES(c)    ((c)->moves)
#define CTX_COUNT(c)    ((c)->count)
#define CTX_OVERFLOW(c) ((c)->overflow)
#define CTX_ROOM(c)     ((c)->room)
#else
#define CTX_MOVES(c)    ((c)->list->moves)
#define CTX_COUNT(c)    ((c)->list->count)
#define CTX_OVERFLOW(c) ((c)->list->overflow)
#define CTX_ROOM(c)     CD_MAX_MOVES
#endif

typedef struct F(ctx) {
#if FRISIAN_HOOGLAND
    cd_move *moves; /* room of them */
    int count, room, overflow;
#else
    cd_movelist *list;
#endif
    const cd_rules *r;
    BB opp;      /* enemy pieces (all may be jumped by a king) */
    BB vman;     /* enemy pieces a man may jump */
    BB oppk;     /* enemy kings */
    BB empty;    /* empty squares, the mover's origin included */
    BB promo;    /* the mover's promotion row */
    int mandirs; /* bit d set: men capture in direction d */
#if FRISIAN_HOOGLAND
    int kdirs;  /* directions kings capture in from the start square */
    int kdirs2; /* ... after the first jump (Hoogland first-jump switch: diagonals only) */
    BB ovict;   /* pieces a king may jump orthogonally (Hoogland: enemy kings only) */
#endif
#if FOLK_THAI
    int remove; /* Thai: a jumped piece leaves at once (no block, its square may be crossed) */
    int every;  /* Thai: a king lands right behind every piece it jumps */
#endif
    int from;      /* origin bit index */
    int best;      /* best precedence rank so far, -1 if no capture yet */
    int king;      /* the moving piece started as a king */
    int counting;  /* only the number of moves is wanted (bulk counting) */
    int uncounted; /* moves counted but not stored (counting mode) */
    int flying;
    /* path recovery (notation): record the path of the capture equal to *want */
    const cd_move *want;
    int *path_out, *pathlen_out;
    int path[CD_MAX_PATH];
} F(ctx);

static void F(add_capture)(F(ctx) * c, BB to, BB cap, int n, int nk, unsigned order, int promotes)
{
    int rank;
    switch (c->r->precedence) {
    case CD_PREC_MAJORITY: rank = n; break;
    case CD_PREC_SPANISH: rank = n * 64 + nk; break;
    case CD_PREC_ITALIAN: rank = (n << 24) | (c->king << 23) | (nk << 18) | (int)order; break;
    case CD_PREC_CZECH: rank = c->king; break;
#if FRISIAN_HOOGLAND
    /* men + 2 kings, then fewer kings, then made by a king (only in this body: a bigger switch
     * costs the diagonal bodies the inlining of this function into the man capture search) */
    case CD_PREC_VALUE: rank = ((n + nk) * 32 - nk) * 2 + c->king; break;
#endif
    default: rank = 0; break;
    }
    if (rank < c->best)
        return;
    if (rank > c->best) {
        CTX_COUNT(c) = 0;
        c->uncounted = 0;
        c->best = rank;
    }
    if (c->counting && (n < 3 || (c->r->flags & CD_RULE_KEEP_DUPLICATES))) {
        c->uncounted++; /* counting only, and no duplicate is possible: no need to store it */
        return;
    }
    cd_move m;
    m.captured = (uint64_t)cap;
    m.captured_hi = (uint16_t)(cap >> 32 >> 32);
    m.from = (uint8_t)c->from;
    m.to = (uint8_t)BBCTZ(to);
    m.ncaptured = (uint8_t)n;
    m.flags = (uint8_t)((promotes ? CD_MOVE_PROMOTES : 0) | (c->king ? CD_MOVE_KING : 0));
    m.reserved = 0;
    if (c->want && c->path_out && *c->pathlen_out == 0 && cd_move_equal(&m, c->want)) {
        int len = n < CD_MAX_PATH ? n : CD_MAX_PATH;
        for (int i = 0; i < len; i++)
            c->path_out[i] = c->path[i];
        *c->pathlen_out = len;
    }
    if (n >= 3 && !(c->r->flags & CD_RULE_KEEP_DUPLICATES)) {
        for (int i = 0; i < CTX_COUNT(c); i++)
            if (cd_move_equal(&CTX_MOVES(c)[i], &m))
                return;
    }
    if (CTX_COUNT(c) >= CTX_ROOM(c)) {
        CTX_OVERFLOW(c) = 1;
        return;
    }
    CTX_MOVES(c)[CTX_COUNT(c)++] = m;
}

static CD_RECURSIVE int F(king_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order,
                                     int promoted, int dirs);

#if FOLK_THAI
/* King jumps under the Thai rules (c->remove, c->every): jumped pieces leave the board at once,
 * so they block nothing and their squares may be crossed and landed on again; the king flies up
 * to a piece but lands right behind it (c->every), then may jump on in any direction, even back
 * (nothing of the piece just taken is left to stop it). */
static CD_RECURSIVE int F(king_caps_thai)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order,
                                          int promoted, int dirs)
{
    int found = 0;
    BB empty = c->remove ? c->empty | cap : c->empty;
    for (int d = 0; d < NDIR; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(sq, d);
        if (c->flying)
            while (x & empty)
                x = F(sh)(x, d);
        if (!(x & c->opp & ~cap))
            continue;
        BB land = F(sh)(x, d) & empty;
        if (!land)
            continue;
        found = 1;
        int k = (x & c->oppk) != 0;
        BB cap2 = cap | x;
        int next_dirs = c->remove ? 15 : ((d == 0 || d == 3) ? 6 : 9) | 1 << d;
        for (BB l = land; l; l = c->flying && !c->every ? F(sh)(l, d) & empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            if (!F(king_caps)(c, l, cap2, n + 1, nk + k, order, promoted, next_dirs))
                F(add_capture)(c, l, cap2, n + 1, nk + k, order, promoted);
        }
    }
    return found;
}
#endif

/* Jumps of a man standing on sq. Returns 1 if it can jump at all; the caller
 * adds the move ending on sq when it cannot. */
static int F(man_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order)
{
    int found = 0;
    UNROLL_DIRS
    for (int d = 0; d < NDIR; d++) {
        if (!(c->mandirs >> d & 1))
            continue;
        BB over = F(sh)(sq, d) & c->vman & ~cap;
        if (!over)
            continue;
        BB land = F(sh)(over, d) & c->empty;
        if (!land)
            continue;
        found = 1;
        int k = (over & c->oppk) != 0;
        unsigned ord = order | (k && n < 16 ? 1u << (15 - n) : 0u);
        BB cap2 = cap | over;
        if (n < CD_MAX_PATH)
            c->path[n] = BBCTZ(land);
        if (land & c->promo) {
            if (c->r->promotion == CD_PROMO_CONTINUE) {
                if (!F(king_caps)(c, land, cap2, n + 1, nk + k, ord, 1, 15))
                    F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 1);
                continue;
            }
            if (c->r->promotion == CD_PROMO_STOP) {
                F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 1);
                continue;
            }
            if (!F(man_caps)(c, land, cap2, n + 1, nk + k, ord))
                F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 1);
            continue;
        }
        if (!F(man_caps)(c, land, cap2, n + 1, nk + k, ord))
            F(add_capture)(c, land, cap2, n + 1, nk + k, ord, 0);
    }
    return found;
}

/* Jumps of a king standing on sq, in the directions of the mask `dirs`.
 * Returns 1 if it can jump at all. For each jump, landing squares from which
 * the capture continues are taken; if none continues, every landing square
 * ends the move (only the first one under a halt rule that applies).
 * From a landing square the king turns to the two perpendicular directions;
 * going on straight is tried once, from the last landing square (from every
 * landing square it reaches the same next piece: trying it from each would
 * list one capture several times). Going back is blocked by the piece just
 * jumped. With orthogonal captures "the other directions" are the 6 that are
 * neither straight on nor back. */
static CD_RECURSIVE int F(king_caps)(F(ctx) * c, BB sq, BB cap, int n, int nk, unsigned order,
                                     int promoted, int dirs)
{
    int found = 0;
#if FOLK_THAI
    if (c->remove | c->every)
        return F(king_caps_thai)(c, sq, cap, n, nk, order, promoted, dirs);
#endif
    UNROLL_DIRS
    for (int d = 0; d < NDIR; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(sq, d);
        if (c->flying)
            while (x & c->empty)
                x = F(sh)(x, d);
#if FRISIAN_HOOGLAND
        if (!(x & (d < 4 ? c->opp : c->ovict) & ~cap))
            continue;
#else
        if (!(x & c->opp & ~cap))
            continue;
#endif
        BB land = F(sh)(x, d) & c->empty;
        if (!land)
            continue;
        found = 1;
        int k = (x & c->oppk) != 0;
        unsigned ord = order | (k && n < 16 ? 1u << (15 - n) : 0u);
        BB cap2 = cap | x;
#if FRISIAN_HOOGLAND
        int more = 0, perp = c->kdirs2 & ~(1 << d | 1 << (d ^ 3)), on = c->kdirs2 & 1 << d;
#else
        int more = 0, perp = (d == 0 || d == 3) ? 6 : 9, on = 1 << d; /* the other diagonals */
#endif
        for (BB l = land; l; l = c->flying ? F(sh)(l, d) & c->empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            BB next = c->flying ? F(sh)(l, d) & c->empty : 0;
            more |= F(king_caps)(c, l, cap2, n + 1, nk + k, ord, promoted, next ? perp : perp | on);
        }
        if (more)
            continue;
        int halt = k && (c->r->halt == CD_HALT_KILLER || (c->r->halt == CD_HALT_MODERN && n >= 1));
        for (BB l = land; l; l = c->flying ? F(sh)(l, d) & c->empty : 0) {
            if (n < CD_MAX_PATH)
                c->path[n] = BBCTZ(l);
            F(add_capture)(c, l, cap2, n + 1, nk + k, ord, promoted);
            if (halt)
                break;
        }
    }
    return found;
}

/* Men of `men` that have a jump (bitboard test, no search). */
static inline BB F(man_jumpers)(BB men, BB victims, BB empty, int dirs)
{
    BB r = 0;
#pragma GCC unroll 8
    for (int d = 0; d < NDIR; d++)
        if (dirs >> d & 1)
            r |= men & F(sh)(victims & F(sh)(empty, d ^ 3), d ^ 3);
    return r;
}

/* Does any king of `kings` have a jump in one of the directions `dirs`? */
static inline int F(king_can_jump)(BB kings, BB victims, BB empty, int flying, int dirs)
{
#pragma GCC unroll 8
    for (int d = 0; d < NDIR; d++) {
        if (!(dirs >> d & 1))
            continue;
        BB x = F(sh)(kings, d);
        if (flying) {
            BB f = x & empty;
            while (f) {
                x |= F(sh)(f, d);
                f = F(sh)(f, d) & empty;
            }
        }
        if (x & victims & F(sh)(empty, d ^ 3))
            return 1;
    }
    return 0;
}

/* Capture directions of men: the diagonals (forward only unless men capture backwards), and in
 * the Frisian-Hoogland body with orthogonal captures also up, left, right and down (without
 * backward captures: forward and sideways). */
static inline int F(man_dirs)(const cd_rules *r, int side)
{
    int dirs = (r->flags & CD_RULE_MEN_BACKWARD) ? 15 : side == CD_WHITE ? 3 : 12;
#if FRISIAN_HOOGLAND
    if (r->flags & CD_RULE_ORTHOGONAL)
        dirs |= (r->flags & CD_RULE_MEN_BACKWARD) ? 0xf0 : side == CD_WHITE ? 0x70 : 0xe0;
#endif
    return dirs;
}

/* Capture directions of kings: the diagonals, and the orthogonals in Frisian and in Hoogland
 * (there only over enemy kings, and under its kings-only switch only while no man is on the
 * board). */
static inline int F(king_dirs)(const cd_position *pos)
{
#if FRISIAN_HOOGLAND
    unsigned fl = pos->rules->flags;
    if (fl & CD_RULE_ORTHOGONAL)
        return 0xff;
    if ((fl & CD_RULE_HOOGLAND) &&
        (!(fl & CD_HOOG_KINGS_ONLY) ||
         !((LOADBB(pos->white) | LOADBB(pos->black)) & ~LOADBB(pos->kings))))
        return 0xff;
#endif
    (void)pos;
    return 15;
}

#if FRISIAN_HOOGLAND
/* The king of the side to move that has used up its non-capturing moves (cd_king_run), or 0. */
static inline BB F(run_blocked)(const cd_position *pos)
{
    int c = pos->side, len = pos->run.len[c], limit = pos->rules->king_moves;
    return limit && len >= limit ? (BB)1 << pos->run.sq[c] : 0;
}
#endif

/* Generate all captures of the side to move; returns their number (0: none). With `counting`,
 * only captures that could have duplicates are stored. The diagonal bodies store into list; the
 * Frisian-Hoogland one into moves[0..room-1] (*stored of them, *overflow set when they did not all
 * fit). */
#if FRISIAN_HOOGLAND
static int F(gen_captures_into)(const cd_position *pos, cd_move *moves, int room, int *stored,
                                int *overflow, const cd_move *want, int *path, int *pathlen,
                                int counting)
#else
static int F(gen_captures)(const cd_position *pos, cd_movelist *list, const cd_move *want,
                           int *path, int *pathlen, int counting)
#endif
{
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
#if FOLK_THAI
    int samoyed = (r->flags & CD_RULE_SAMOYED) != 0;
    if (samoyed)
        opp = w | b; /* narrowed to "all but the mover" for each mover below */
#endif
    BB vman = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? opp : opp & ~k;
    int mandirs = F(man_dirs)(r, pos->side);
    BB men = F(man_jumpers)(own & ~k, vman, empty, mandirs);
    BB kings = own & k;
    F(ctx) c;
#if FRISIAN_HOOGLAND
    *stored = 0;
    *overflow = 0;
    if (!men && !kings)
        return 0;
    c.moves = moves;
    c.count = 0;
    c.room = room;
    c.overflow = 0;
    c.kdirs = F(king_dirs)(pos);
    c.kdirs2 = (r->flags & CD_HOOG_FIRST_JUMP) ? 15 : c.kdirs;
    c.ovict = (r->flags & CD_RULE_HOOGLAND) ? opp & k : opp;
#else
    list->count = 0;
    list->overflow = 0;
    if (!men && !kings)
        return 0;
    c.list = list;
#endif
    c.r = r;
    c.opp = opp;
    c.oppk = opp & k;
    c.vman = vman;
    c.promo = pos->side == CD_WHITE ? TOPM : BOTM;
    c.mandirs = mandirs;
    c.best = -1;
    c.flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    c.want = want;
    c.path_out = path;
    c.pathlen_out = pathlen;
    c.counting = counting;
    c.uncounted = 0;
#if FOLK_THAI
    c.remove = (r->flags & CD_RULE_REMOVE_AT_ONCE) != 0;
    c.every = r->halt == CD_HALT_EVERY;
#endif
    for (; men; men &= men - 1) {
        BB m = men & (~men + 1);
        c.from = BBCTZ(m);
        c.king = 0;
        c.empty = empty | m;
#if FOLK_THAI
        if (samoyed) { /* every piece but the mover itself */
            c.opp = c.vman = (w | b) & ~m;
            c.oppk = k & ~m;
        }
#endif
        F(man_caps)(&c, m, 0, 0, 0, 0);
    }
    for (; kings; kings &= kings - 1) {
        BB m = kings & (~kings + 1);
        c.from = BBCTZ(m);
        c.king = 1;
        c.empty = empty | m;
#if FOLK_THAI
        if (samoyed) {
            c.opp = c.vman = (w | b) & ~m;
            c.oppk = k & ~m;
        }
#endif
        F(king_caps)(&c, m, 0, 0, 0, 0, 0, F(king_dirs)(pos));
    }
#if FRISIAN_HOOGLAND
    *stored = c.count;
    *overflow = c.overflow;
#endif
    return CTX_COUNT(&c) + c.uncounted;
}

#if FRISIAN_HOOGLAND
static int F(gen_captures)(const cd_position *pos, cd_movelist *list, const cd_move *want,
                           int *path, int *pathlen, int counting)
{
    return F(gen_captures_into)(pos, list->moves, CD_MAX_MOVES, &list->count, &list->overflow, want,
                                path, pathlen, counting);
}

/*
 * Captures that do not fit a cd_movelist (CD_MAX_MOVES): possible in crowded
 * positions under the keep convention, where every path counts (a Frisian
 * king alone against 15 pieces can have over a thousand). The number of
 * captures (depth 1: counting), or the perft below them, with a heap buffer
 * grown until they all fit; 0 if memory runs out. (The diagonal bodies keep
 * the plain cd_movelist: their keep lists stay far below CD_MAX_MOVES in
 * play, and a bigger store would cost their hot path; README, "Variants".)
 */
static uint64_t F(perft)(const cd_position *pos, int depth);
static void F(play)(const cd_position *pos, const cd_move *m, cd_position *out);

__attribute__((cold, noinline)) static uint64_t F(captures_big)(const cd_position *pos, int depth)
{
    for (size_t room = 4 * CD_MAX_MOVES; room <= ((size_t)1 << 24); room *= 4) {
        cd_move *moves = malloc(room * sizeof *moves);
        if (!moves)
            return 0;
        int stored, overflow;
        int n = F(gen_captures_into)(pos, moves, (int)room, &stored, &overflow, NULL, NULL, NULL,
                                     depth <= 1);
        uint64_t total = depth <= 1 ? (uint64_t)n : 0;
        for (int i = 0; !overflow && depth > 1 && i < stored; i++) {
            cd_position next;
            F(play)(pos, &moves[i], &next);
            total += F(perft)(&next, depth - 1);
        }
        free(moves);
        if (!overflow)
            return total;
    }
    return 0;
}
#endif

/* Cheap test for any capture (bitboards only), so that the capture search
 * and its set-up run only where a capture exists. */
static inline int F(has_captures)(const cd_position *pos)
{
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
#if FOLK_THAI
    if (r->flags & CD_RULE_SAMOYED)
        opp = w | b; /* a piece next to itself is impossible: every piece is a victim */
#endif
    BB vman = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? opp : opp & ~k;
    if (F(man_jumpers)(own & ~k, vman, empty, F(man_dirs)(r, pos->side)))
        return 1;
    if (!(own & k))
        return 0;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0, kd = F(king_dirs)(pos);
#if FRISIAN_HOOGLAND
    if (r->flags & CD_RULE_HOOGLAND) /* orthogonally only over kings */
        return F(king_can_jump)(own & k, opp, empty, flying, 15) ||
               ((kd & 0xf0) && F(king_can_jump)(own & k, opp & k, empty, flying, 0xf0));
#endif
    return F(king_can_jump)(own & k, opp, empty, flying, kd);
}

/* ------------------------------------------------------------ constitutional */

/*
 * Rule C (../shared/rules/constitutional.md section 2). For a king of the side
 * to move on O, compute the sets KT (king-threatened) and SAC (sacrifice
 * squares) over the empty squares, each judged in H(X): the king lifted from O
 * and put on X.
 *
 * Fast path (pure bitboards): if the enemy pieces that count have no capture
 * at all in the position without our king, every enemy capture track in H(X)
 * must start by jumping X (adding our king on X cannot enable a jump over
 * another piece; it only removes empty squares), so "capturable" is the direct
 * one-jump test: enemy king on X's diagonal with a clear path and an empty
 * square behind X, or an enemy man next to X with an empty square behind.
 * Otherwise an exact track search per candidate square (F(track_hits)).
 */
typedef struct F(tctx) {
    const cd_rules *r;
    BB victims, vman, empty, target, promo;
    int mandirs, flying;
} F(tctx);

/* Does some capture track of the piece on sq (king or man) jump t->target? */
static CD_RECURSIVE int F(track_hits)(const F(tctx) * t, BB sq, int king, BB cap)
{
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        if (king) {
            BB x = F(sh)(sq, d);
            if (t->flying)
                while (x & t->empty)
                    x = F(sh)(x, d);
            if (!(x & t->victims & ~cap))
                continue;
            BB land = F(sh)(x, d) & t->empty;
            if (!land)
                continue;
            if (x == t->target)
                return 1;
            for (BB l = land; l; l = t->flying ? F(sh)(l, d) & t->empty : 0)
                if (F(track_hits)(t, l, 1, cap | x))
                    return 1;
        } else {
            if (!(t->mandirs >> d & 1))
                continue;
            BB over = F(sh)(sq, d) & t->vman & ~cap;
            BB land = F(sh)(over, d) & t->empty;
            if (!over || !land)
                continue;
            if (over == t->target)
                return 1;
            if (land & t->promo) {
                if (t->r->promotion == CD_PROMO_STOP)
                    continue;
                if (t->r->promotion == CD_PROMO_CONTINUE) {
                    if (F(track_hits)(t, land, 1, cap | over))
                        return 1;
                    continue;
                }
            }
            if (F(track_hits)(t, land, 0, cap | over))
                return 1;
        }
    }
    return 0;
}

/* Direct one-jump capturability of every empty square, by kings and by men. */
static void F(direct_threats)(const cd_rules *r, BB ekings, BB emen, BB empty, int emandirs,
                              BB *bykings, BB *bymen)
{
    BB kt = 0, mt = 0;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        BB behind = F(sh)(empty, 3 - d); /* squares whose d-neighbour is empty */
        BB reach = flying ? F(slide)(ekings, empty, d) : F(sh)(ekings, d) & empty;
        kt |= reach & behind;
        if (emandirs >> d & 1)
            mt |= F(sh)(emen, d) & empty & behind;
    }
    *bykings = kt;
    *bymen = (r->flags & CD_RULE_MEN_TAKE_KINGS) ? mt : 0;
}

/* Rule C state for one of our kings on O: the direct sets, and the enemy
 * pieces that have a capture without our king (only they can have a track
 * that jumps X after another piece, so only they need the exact search). */
typedef struct F(con) {
    BB kt, sac;  /* direct one-jump threats by kings (+ men where they count) */
    BB kjump;    /* enemy kings with a capture in the position without our king */
    BB mjump;    /* enemy men likewise (only when men count) */
    BB ours;     /* our pieces the enemy may jump, without the moving king */
    BB ourkings; /* those of them that are kings */
    int men_obstruct, men_sacrifice;
    F(tctx) t;
} F(con);

static void F(con_init)(const cd_position *pos, BB o, F(con) * c)
{
    const cd_rules *r = pos->rules;
    unsigned fl = r->flags;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB occ = (w | b) & ~o;
    if (fl & CD_CON_ORIGIN_OCCUPIED)
        occ |= o; /* the origin stays a blocker that cannot be jumped */
    BB empty = ALLM & ~occ;
    BB ekings = opp & k, emen = opp & ~k;
    int emandirs = F(man_dirs)(r, pos->side ^ 1);
    int flying = (fl & CD_RULE_FLYING_KINGS) != 0;
    c->men_obstruct = (fl & CD_CON_OBSTRUCT_BY_MEN) != 0;
    c->men_sacrifice = !(fl & CD_CON_SAC_KINGS_ONLY);
    c->ours = own & ~o;
    c->ourkings = c->ours & k;
    BB vman = (fl & CD_RULE_MEN_TAKE_KINGS) ? c->ours : c->ours & ~k;
    BB bk, bm;
    F(direct_threats)(r, ekings, emen, empty, emandirs, &bk, &bm);
    c->kt = c->men_obstruct ? bk | bm : bk;
    c->sac = c->men_sacrifice ? bk | bm : bk;
    c->kjump = 0;
    for (BB e = ekings; e; e &= e - 1)
        if (F(king_can_jump)(e & (~e + 1), c->ours, empty, flying, 15))
            c->kjump |= e & (~e + 1);
    c->mjump =
        (c->men_obstruct || c->men_sacrifice) ? F(man_jumpers)(emen, vman, empty, emandirs) : 0;
    c->t.r = r;
    c->t.promo = pos->side == CD_WHITE ? BOTM : TOPM; /* the enemy's promotion row */
    c->t.mandirs = emandirs;
    c->t.flying = flying;
    c->t.empty = empty;
}

/* Exact test: can one of the enemy pieces `kings`/`men` jump our king put on x?
 * Each attacker's own start square counts as empty during its track. */
static int F(con_exact)(const F(con) * c, BB x, BB kings, BB men)
{
    F(tctx) t = c->t;
    t.target = x;
    t.victims = c->ours | x;
    t.vman = (t.r->flags & CD_RULE_MEN_TAKE_KINGS) ? c->ours | x : c->ours & ~c->ourkings;
    BB empty = t.empty & ~x;
    for (; kings; kings &= kings - 1) {
        BB a = kings & (~kings + 1);
        t.empty = empty | a;
        if (F(track_hits)(&t, a, 1, 0))
            return 1;
    }
    for (; men; men &= men - 1) {
        BB a = men & (~men + 1);
        t.empty = empty | a;
        if (F(track_hits)(&t, a, 0, 0))
            return 1;
    }
    return 0;
}

static inline int F(con_kt)(const F(con) * c, BB x)
{
    if (x & c->kt)
        return 1;
    BB men = c->men_obstruct ? c->mjump : 0;
    return (c->kjump | men) && F(con_exact)(c, x, c->kjump, men);
}

static inline int F(con_sac)(const F(con) * c, BB x)
{
    if (x & c->sac)
        return 1;
    BB men = c->men_sacrifice ? c->mjump : 0;
    return (c->kjump | men) && F(con_exact)(c, x, c->kjump, men);
}

/* ------------------------------------------------------------------ quiet moves */

static inline void F(push)(cd_movelist *l, int from, BB to, int flags)
{
    cd_push_quiet(l, from, BBCTZ(to), flags);
}

/* Is Rule C active for this position (constitutional and the enemy has kings)? */
static inline int F(con_active)(const cd_position *pos, BB opp, BB k)
{
    return (pos->rules->flags & CD_RULE_CONSTITUTIONAL) &&
           ((opp & k) || (pos->rules->flags & CD_CON_OBSTRUCT_BY_MEN));
}

/*
 * Non-capturing destinations of the king on o. Under Rule C, along each ray:
 * every square up to and including the first king-threatened one, and beyond
 * it only the sacrifice squares (none under no-pass-to-sacrifice).
 */
static BB F(king_quiet)(const cd_position *pos, BB o, BB empty, int con)
{
    const cd_rules *r = pos->rules;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    BB res = 0;
    if (!con) {
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            res |= flying ? F(slide)(o, empty, d) : F(sh)(o, d) & empty;
        return res;
    }
    F(con) c;
    F(con_init)(pos, o, &c);
    int nopass = (r->flags & CD_CON_NO_PASS_TO_SAC) != 0;
#pragma GCC unroll 4
    for (int d = 0; d < 4; d++) {
        int blocked = 0;
        for (BB x = F(sh)(o, d) & empty; x; x = flying ? F(sh)(x, d) & empty : 0) {
            if (!blocked || F(con_sac)(&c, x))
                res |= x;
            if (F(con_kt)(&c, x)) {
                blocked = 1;
                if (nopass)
                    break;
            }
        }
    }
    return res;
}

static void F(gen_quiet)(const cd_position *pos, cd_movelist *list)
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
    BB men = own & ~k;
    BB promo = pos->side == CD_WHITE ? TOPM : BOTM;
    int d0 = pos->side == CD_WHITE ? 0 : 2;
    list->count = 0;
    list->overflow = 0;
    for (int d = d0; d < d0 + 2; d++) {
        BB to = F(sh)(men, d) & empty;
        while (to) {
            BB t = to & (~to + 1);
            to ^= t;
            F(push)(list, BBCTZ(F(sh)(t, 3 - d)), t, (t & promo) ? CD_MOVE_PROMOTES : 0);
        }
    }
    int con = F(con_active)(pos, opp, k);
    BB movers = own & k;
#if FRISIAN_HOOGLAND
    movers &= ~F(run_blocked)(pos);
#endif
    for (BB kings = movers; kings; kings &= kings - 1) {
        BB o = kings & (~kings + 1);
        int from = BBCTZ(o);
        for (BB to = F(king_quiet)(pos, o, empty, con); to; to &= to - 1)
            F(push)(list, from, to & (~to + 1), CD_MOVE_KING);
    }
}

#if FOLK_THAI
/* Append `more` to `list` (overflow marked). */
static void F(append)(cd_movelist *list, const cd_movelist *more)
{
    for (int i = 0; i < more->count; i++) {
        if (list->count >= CD_MAX_MOVES) {
            list->overflow = 1;
            return;
        }
        list->moves[list->count++] = more->moves[i];
    }
    list->overflow |= more->overflow;
}

/* Stavropol: the moves of the pieces of either colour, each by its own colour's rules; a
 * capture by either colour is compulsory. A side without pieces of its own has no move. */
static int F(generate_stavropol)(const cd_position *pos, cd_movelist *list, const cd_move *want,
                                 int *path, int *pathlen)
{
    cd_position q = *pos;
    q.side ^= 1;
    list->count = 0;
    list->overflow = 0;
    if (!(LOADBB(pos->side == CD_WHITE ? pos->white : pos->black)))
        return 0;
    cd_movelist more;
    int ca = F(has_captures)(pos), cb = F(has_captures)(&q);
    if (ca || cb) {
        if (ca)
            F(gen_captures)(pos, list, want, path, pathlen, 0);
        if (cb) {
            F(gen_captures)(&q, &more, want, path, pathlen, 0);
            F(append)(list, &more);
        }
        return list->count;
    }
    F(gen_quiet)(pos, list);
    F(gen_quiet)(&q, &more);
    F(append)(list, &more);
    return list->count;
}
#endif

static int F(generate)(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                       int *pathlen)
{
#if FOLK_THAI
    if (pos->rules->flags & CD_RULE_STAVROPOL)
        return F(generate_stavropol)(pos, list, want, path, pathlen);
#endif
    if (F(has_captures)(pos) && F(gen_captures)(pos, list, want, path, pathlen, 0))
        return list->count;
    F(gen_quiet)(pos, list);
    return list->count;
}

/* Move count without building the quiet list (bulk counting). */
static int F(count)(const cd_position *pos)
{
#if FOLK_THAI
    if (pos->rules->flags & CD_RULE_STAVROPOL) {
        cd_movelist list;
        return F(generate_stavropol)(pos, &list, NULL, NULL, NULL);
    }
#endif
    if (F(has_captures)(pos)) {
        cd_movelist list;
#if FRISIAN_HOOGLAND
        int n = F(gen_captures)(pos, &list, NULL, NULL, NULL, 1);
        return list.overflow ? (int)F(captures_big)(pos, 1) : n;
#else
        return F(gen_captures)(pos, &list, NULL, NULL, NULL, 1);
#endif
    }
    const cd_rules *r = pos->rules;
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b, opp = pos->side == CD_WHITE ? b : w;
    BB empty = ALLM & ~(w | b);
    BB men = own & ~k, kings = own & k;
#if FRISIAN_HOOGLAND
    kings &= ~F(run_blocked)(pos);
#endif
    int n;
    if (pos->side == CD_WHITE)
        n = BBPOP(F(sh)(men, 0) & empty) + BBPOP(F(sh)(men, 1) & empty);
    else
        n = BBPOP(F(sh)(men, 2) & empty) + BBPOP(F(sh)(men, 3) & empty);
    if (!kings)
        return n;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    if (!F(con_active)(pos, opp, k)) {
/* rays of different kings in one direction never overlap */
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            n += BBPOP(flying ? F(slide)(kings, empty, d) : F(sh)(kings, d) & empty);
        return n;
    }
    for (; kings; kings &= kings - 1)
        n += BBPOP(F(king_quiet)(pos, kings & (~kings + 1), empty, 1));
    return n;
}

static void F(play)(const cd_position *pos, const cd_move *m, cd_position *out)
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB from = (BB)1 << m->from, to = (BB)1 << m->to;
    BB cap = (BB)m->captured | ((BB)m->captured_hi << 32 << 32);
    /* not XOR: a capture may end on its own origin square (from == to) */
    if ((k & from) || (m->flags & CD_MOVE_PROMOTES))
        k = (k & ~from) | to;
#if FOLK_THAI
    /* Stavropol: the piece on `from` may be the opponent's; Samoyed: captured pieces of either
     * colour; Northern: a captured king stays as a man of its colour. */
    BB gone = (pos->rules->flags & CD_RULE_NORTHERN) ? cap & ~LOADBB(pos->kings) : cap;
    if (w & from)
        w = (w & ~from) | to;
    else
        b = (b & ~from) | to;
    w &= ~gone;
    b &= ~gone;
#else
    if (pos->side == CD_WHITE) {
        w = (w & ~from) | to;
        b &= ~cap;
    } else {
        b = (b & ~from) | to;
        w &= ~cap;
    }
#endif
    k &= ~cap;
#if FRISIAN_HOOGLAND
    /* The king-move limit state (cd_king_run), computed before `out` (maybe pos) is written. */
    cd_king_run run = pos->run;
    int c = pos->side, o = c ^ 1;
    BB mine = c == CD_WHITE ? w : b, theirs = c == CD_WHITE ? b : w;
    if (run.len[o] && (!((BB)1 << run.sq[o] & theirs & k) || !(theirs & ~k)))
        run.sq[o] = run.len[o] = 0; /* the counted king or the last men were captured */
    if (pos->rules->king_moves && !m->ncaptured && (LOADBB(pos->kings) & from) && (mine & ~k)) {
        run.len[c] = run.len[c] && run.sq[c] == m->from ? run.len[c] + 1 : 1;
        run.sq[c] = m->to;
    } else {
        run.sq[c] = run.len[c] = 0;
    }
    out->run = run;
#else
    out->run = (cd_king_run){{0, 0}, {0, 0}};
#endif
    out->rules = pos->rules;
    out->key = pos->key;
    F(store)(w, out->white);
    F(store)(b, out->black);
    F(store)(k, out->kings);
#if FOLK_THAI
    /* two-move: the side changes after the second move of a turn */
    if (pos->rules->flags & CD_RULE_TWO_MOVE) {
        int second = pos->second;
        out->second = (uint8_t)!second;
        out->side = second ? pos->side ^ 1 : pos->side;
        return;
    }
#endif
    out->second = 0;
    out->side = pos->side ^ 1;
}

static uint64_t F(perft)(const cd_position *pos, int depth)
{
    if (depth <= 1)
        return depth == 1 ? (uint64_t)F(count)(pos) : 1;
    cd_movelist list;
    F(generate)(pos, &list, NULL, NULL, NULL);
#if FRISIAN_HOOGLAND
    if (list.overflow && F(has_captures)(pos))
        return F(captures_big)(pos, depth);
#endif
    uint64_t n = 0;
    for (int i = 0; i < list.count; i++) {
        cd_position next;
        F(play)(pos, &list.moves[i], &next);
        n += F(perft)(&next, depth - 1);
    }
    return n;
}

/* Direct capture zone of the side to move's kings over empty squares. */
static void F(king_zone)(const cd_position *pos, uint64_t out[2])
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB own = pos->side == CD_WHITE ? w : b;
    BB empty = ALLM & ~(w | b), bk, bm;
    F(direct_threats)(pos->rules, own & k, 0, empty, 0, &bk, &bm);
    F(store)(bk, out);
}

/* Non-capturing destinations of the side to move's king on bit `from` (its quiet moves
 * when the position has no capture; Rule C applied). */
static void F(king_targets)(const cd_position *pos, int from, uint64_t out[2])
{
    BB w = LOADBB(pos->white), b = LOADBB(pos->black), k = LOADBB(pos->kings);
    BB opp = pos->side == CD_WHITE ? b : w;
    BB o = (BB)1 << from;
#if FRISIAN_HOOGLAND
    if (o & F(run_blocked)(pos)) {
        F(store)(0, out);
        return;
    }
#endif
    F(store)(F(king_quiet)(pos, o, ALLM & ~(w | b), F(con_active)(pos, opp, k)), out);
}

/* The entry points of this instance, for the dispatch in movegen.c. */
const cd_movegen F(cd_movegen) = {F(generate), F(count),     F(play),
                                  F(perft),    F(king_zone), F(king_targets)};

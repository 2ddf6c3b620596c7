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
 * cd_movegen_<GN> (movegen.h), and nothing else with external linkage. Two
 * parts of it are files of their own, included where they stand:
 * movegen_captures.h (the capture search) and movegen_constitutional.h
 * (Rule C); this file holds the geometry, quiet moves, play, perft and the
 * entry points.
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

#include "movegen_captures.h"

#include "movegen_constitutional.h"

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

/* The moves of pos: its captures when `quiets` (a quiet_moves answer, or -2: not asked, the
 * capture test is made here) says it may have one and it has, else its quiet moves. */
static CD_ALWAYS_INLINE int F(generate_as)(const cd_position *pos, cd_movelist *list,
                                           const cd_move *want, int *path, int *pathlen, int quiets)
{
#if FOLK_THAI
    if (pos->rules->flags & CD_RULE_STAVROPOL)
        return F(generate_stavropol)(pos, list, want, path, pathlen);
#endif
    int may_capture = quiets == -2 ? F(has_captures)(pos) : quiets < 0;
    if (may_capture && F(gen_captures)(pos, list, want, path, pathlen, 0))
        return list->count;
    F(gen_quiet)(pos, list);
    return list->count;
}

static int F(generate)(const cd_position *pos, cd_movelist *list, const cd_move *want, int *path,
                       int *pathlen)
{
    return F(generate_as)(pos, list, want, path, pathlen, -2);
}

static int F(count_quiet)(const cd_position *pos, int any);

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
    return F(count_quiet)(pos, 0);
}

/* The number of quiet moves, for a position whose side to move has no capture; with any != 0,
 * only whether there is one (0 or a positive number, which need not be the count: the men's moves
 * are enough when they have some, and Rule C's kings stop at the first with a move). */
static int F(count_quiet)(const cd_position *pos, int any)
{
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
    if (!kings || (any && n))
        return n;
    int flying = (r->flags & CD_RULE_FLYING_KINGS) != 0;
    if (!F(con_active)(pos, opp, k)) {
/* rays of different kings in one direction never overlap */
#pragma GCC unroll 4
        for (int d = 0; d < 4; d++)
            n += BBPOP(flying ? F(slide)(kings, empty, d) : F(sh)(kings, d) & empty);
        return n;
    }
    for (; kings && !(any && n); kings &= kings - 1)
        n += BBPOP(F(king_quiet)(pos, kings & (~kings + 1), empty, 1));
    return n;
}

CD_ALWAYS_INLINE static void F(play)(const cd_position *pos, const cd_move *m, cd_position *out)
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

/* play, and the key brought up to date: incrementally from the move (board.h cd_move_key, and the
 * king-move limit states of both positions in the Frisian-Hoogland body); from scratch in the
 * folk-Thai body, whose moves and captures may be of either colour and whose turns may be two
 * moves long. */
static void F(play_key)(const cd_position *pos, const cd_move *m, cd_position *out)
{
#if FOLK_THAI
    F(play)(pos, m, out);
    cd_position_rekey(out);
#else
    uint64_t key = pos->key ^ cd_move_key_words(pos, m, BB_BITS / 64);
#if FRISIAN_HOOGLAND
    key ^= cd_run_key(&pos->run);
#endif
    F(play)(pos, m, out);
#if FRISIAN_HOOGLAND
    key ^= cd_run_key(&out->run);
#endif
    out->key = key;
#endif
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

/* -1 when the side to move may have a capture, else 0 without a move and a positive number
 * with one. */
static int F(quiet_moves)(const cd_position *pos)
{
#if FOLK_THAI
    if (pos->rules->flags & CD_RULE_STAVROPOL) {
        cd_movelist list;
        int n = F(generate_stavropol)(pos, &list, NULL, NULL, NULL);
        return n && list.moves[0].ncaptured ? -1 : n;
    }
#endif
    return F(has_captures)(pos) ? -1 : F(count_quiet)(pos, 1);
}

/* generate, for a position whose quiet_moves was `quiets`: the capture test is not made again
 * (-1 still allows the quiet moves, as generate does when the test was too wide) */
static int F(generate_known)(const cd_position *pos, cd_movelist *list, int quiets)
{
    return F(generate_as)(pos, list, NULL, NULL, NULL, quiets);
}

/* The entry points of this instance, for the dispatch in movegen.c. */
const cd_movegen F(cd_movegen) = {F(generate),     F(count),       F(play),
                                  F(play_key),     F(perft),       F(king_zone),
                                  F(king_targets), F(quiet_moves), F(generate_known)};

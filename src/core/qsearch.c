/*
 * qsearch.c -- quiescence (search.c step 4): the compulsory captures searched to the end, a
 * quiet position standing pat on its static value, and at the first quiescence ply the quiet
 * promotions (step 14) and the exchange offers (step 19) with the captures that answer them.
 * About three nodes in four are quiescence nodes: they take none of search_node's steps but
 * the shared ones (node_settled).
 */
#include "search_internal.h"

static int exchanges(search *s, const cd_position *pos, cd_movelist *list, int alpha, int beta,
                     int stand, int ply, int quiet);
static int promotions(search *s, const cd_position *pos, cd_movelist *list, int alpha, int beta,
                      int stand, int ply);

/* 4. Quiescence, a node of depth 0 or less (an exchange probe: QS_PROBE): the captures, searched to
 * the end; a quiet position stands pat on its static value, with quiet promotions, exchanges
 * (steps 14, 19) at the first ply only. No table, no pruning: the same values and nodes
 * as the full node function gave such a node. */
int cd_qsearch(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
               int quiet)
{
    const cd_search_params *sp = search_params(s->e);
    int pvnode = beta - alpha > 1;
    int probe = depth == QS_PROBE; /* an exchange probe: see step 19 */
    int settled;
    if (node_settled(s, pos, ply, quiet, probe, &settled))
        return settled;
    const cd_rules *r = s->r;

    /* 4a. a quiescence node without a capture stands pat before its moves are generated: the
     * move count alone says whether it is lost (no move) */
    int stand = 0, standing = 0, quiets = -2; /* -2: not asked */
    if (!probe) {
        quiets = s->mg->quiet_moves(pos);
        if (quiets == 0)
            return no_move(r, ply);
        if (quiets > 0) {
            stand = static_value(s, pos);
            if (stand >= beta || ply >= CD_MAX_PLY - 4)
                return stand;
            /* below the first quiescence ply a quiet node is worth its static value: no moves
             * needed */
            if (depth < 0)
                return stand;
            standing = 1;
        }
    } else if (ply < CD_MAX_PLY - 1) {
        /* a probe needs a capture: without one the move offered no exchange, or it left the
         * opponent without a move at all */
        quiets = s->mg->quiet_moves(pos);
        if (quiets == 0)
            return no_move(r, ply);
        if (quiets > 0) {
            s->notshot = 1;
            return 0;
        }
    }

    cd_movelist *list = &s->plies[ply].list;
    int n = quiets == -2 ? s->mg->generate(pos, list, NULL, NULL, NULL)
                         : s->mg->generate_known(pos, list, quiets);
    if (n == 0)
        return no_move(r, ply);
    if (ply >= CD_MAX_PLY - 1)
        return standing ? stand : evaluate(s, pos);
    int capture = list->moves[0].ncaptured > 0;

    if (probe) {
        if (!capture) {
            s->notshot = 1;
            return 0;
        }
        depth = -1; /* the capture answering an offer: no further offers below */
    }
    if (!capture) {
        if (!standing)
            stand = static_value(s, pos);
        if (stand >= beta || ply >= CD_MAX_PLY - 4)
            return stand;
        int best = sp->qpromo ? promotions(s, pos, list, alpha, beta, stand, ply) : stand;
        if (s->stopped || best >= beta)
            return best;
        /* 19. exchanges ("qexch"), only while no kings are on the board */
        if (sp->qexch && !(pos->kings[0] | pos->kings[1]))
            return exchanges(s, pos, list, alpha, beta, best, ply, quiet);
        return best;
    }

    /* the captures, most pieces taken first (then promotions), principal variation search */
    int *score = s->plies[ply].score;
    if (n > 1) /* (a single capture, the common case, needs no order) */
        score_moves(s, pos, list, -1, ply, score);
    int best = -INF;
    for (int i = 0; i < n; i++) {
        if (n > 1)
            pick(list, score, i, n);
        const cd_move *m = &list->moves[i];
        cd_position next;
        cd_play_with(s->mg, pos, m, &next);
        prefetch_eval(s, next.key);
        int v; /* (a capture: irreversible, the count of quiet plies starts again) */
        if (i == 0) {
            v = child(s, pos, &next, alpha, beta, -1, ply, 0);
        } else {
            v = child(s, pos, &next, alpha, alpha + 1, -1, ply, 0);
            if (v > alpha && v < beta)
                v = child(s, pos, &next, alpha, beta, -1, ply, 0);
        }
        if (s->stopped)
            return 0;
        if (improve(s, ply, m, v, pvnode, &best, &alpha, beta))
            break;
    }
    return best;
}

/* Quiet promotions in quiescence ("qpromo"): at the first quiescence ply of a quiet position
 * below beta, a man that can crown is moved and the answers' captures searched (depth -1: no
 * further promotions or exchanges below). Fail-soft from the static value. */
static int promotions(search *s, const cd_position *pos, cd_movelist *list, int alpha, int beta,
                      int stand, int ply)
{
    int best = stand, pvnode = beta - alpha > 1;
    if (stand > alpha)
        alpha = stand;
    for (int i = 0; i < list->count; i++) {
        const cd_move *m = &list->moves[i];
        if (!(m->flags & CD_MOVE_PROMOTES))
            continue;
        cd_position next;
        cd_play_with(s->mg, pos, m, &next);
        prefetch_eval(s, next.key);
        int v = child(s, pos, &next, alpha, beta, -1, ply, 0); /* a man move: irreversible */
        if (s->stopped)
            return 0;
        if (improve(s, ply, m, v, pvnode, &best, &alpha, beta))
            break;
    }
    return best;
}

/* 19. Exchange offers, at the first quiescence ply of a quiet position without kings whose
 * static value is below beta: each man move that offers an exchange is tried. Its child is a
 * probe (depth QS_PROBE): when the opponent then has no capture the move offered nothing and is
 * ignored (s->notshot); otherwise the forced capture and the captures that follow are searched,
 * with no further offers. */
static inline uint64_t near1(uint64_t x, int h) /* diagonal neighbours (ghost bits fall away) */
{
    return x << h | x << (h + 1) | x >> h | x >> (h + 1);
}

/* shift by d bits, left when d > 0 */
static inline uint64_t step(uint64_t x, int d) { return d > 0 ? x << d : x >> -d; }

/* 19. Does the man move from bit f to bit t offer an exchange? An enemy man next to t can take
 * it, landing on the empty square beyond, where an own man can take it back. (Men capture in
 * every direction here; where they cannot, the probe and the search below still decide.) */
static int offers_exchange(uint64_t own, uint64_t opp, uint64_t playable, int h, uint64_t f,
                           uint64_t t)
{
    const int dirs[4] = {-(h + 1), -h, h, h + 1};
    own = (own & ~f) | t;
    uint64_t empty = playable & ~(own | opp);
    for (int i = 0; i < 4; i++) {
        uint64_t o = step(t, dirs[i]) & opp, l = step(t, -dirs[i]) & empty;
        if (!o || !l)
            continue;
        uint64_t own2 = own & ~t, empty2 = (empty | o | t) & ~l;
        for (int j = 0; j < 4; j++)
            if ((step(l, dirs[j]) & own2) && (step(l, -dirs[j]) & empty2))
                return 1;
    }
    return 0;
}

static int exchanges(search *s, const cd_position *pos, cd_movelist *list, int alpha, int beta,
                     int stand, int ply, int quiet)
{
    int best = stand, pvnode = beta - alpha > 1;
    if (best > alpha)
        alpha = best;
    const cd_geom *g = cd_geom_of(pos->rules);
    if (g->full || g->nbits > 64 || (pos->rules->flags & CD_RULE_ORTHOGONAL))
        return best; /* the filter below knows single-word diagonal boards only */
    int h = g->half;
    uint64_t own = pos->side == CD_WHITE ? pos->white[0] : pos->black[0];
    uint64_t opp = pos->side == CD_WHITE ? pos->black[0] : pos->white[0];
    for (int i = 0; i < list->count; i++) {
        const cd_move *m = &list->moves[i];
        if (ply == 0 && excluded(s, m))
            continue;
        /* only a man's move that offers an exchange (which needs an enemy man next to its
         * square: tested first, in one step) */
        uint64_t from = (uint64_t)1 << m->from, to = (uint64_t)1 << m->to;
        if ((m->flags & CD_MOVE_PROMOTES) || !(near1(to, h) & opp) ||
            !offers_exchange(own, opp, s->playable, h, from, to))
            continue;
        cd_position next;
        cd_play_with(s->mg, pos, m, &next);
        prefetch_eval(s, next.key);
        int q = (m->flags & CD_MOVE_KING) ? quiet + 1 : 0;
        s->notshot = 0;
        int v = child(s, pos, &next, alpha, beta, QS_PROBE, ply, q);
        if (s->stopped)
            return 0;
        if (s->notshot) {
            s->notshot = 0;
            continue;
        }
        if (improve(s, ply, m, v, pvnode, &best, &alpha, beta))
            break;
    }
    return best;
}

/*
 * search_internal.h -- what the search's files share (search.c, search_node.c, qsearch.c,
 * search_options.c): the state of one thread's search (`search`), and the small steps every
 * node takes, static inline so that each file's hot loop keeps them inlined (the build uses no
 * link-time optimisation).
 *
 * A search runs one `search` per thread over that thread's cd_worker (engine.h). The path's
 * positions are keys[base + ply] (base: the game's reversible plies before the root); pv[ply]
 * holds the line of a PV node at ply, pvlen[ply] its length (0 at a null-window node). The
 * search's parameters come from search_params(e): constants in a release build.
 */
#ifndef CD_SEARCH_INTERNAL_H
#define CD_SEARCH_INTERNAL_H

#include <stdlib.h>
#include <string.h>

#include "board.h"
#include "engine.h"
#include "game.h"
#include "movegen.h"
#include "pattern.h"

#define INF      32000
#define HIST_MAX 1024
#define QS_PROBE (-100) /* depth of an exchange probe (step 19) */

/* The search's parameters: the constants of search_params.h, or a tuning build's copy. */
static inline const cd_search_params *search_params(const cd_engine *e)
{
#ifdef CD_TUNE
    return &e->params;
#else
    (void)e;
    return &cd_search_defaults;
#endif
}

typedef struct search {
    cd_engine *e;
    const cd_rules *r;
    const cd_movegen *mg;                /* r's move generator (cd_movegen_of), called directly */
    const struct cd_pattern_weights *pw; /* r's learned weights (cd_eval_for) or NULL */
    int id;                              /* thread: 0 the main one, else a helper */
    int (*history)[128][128];            /* [side][from][to] of this thread */
    cd_move (*killers)[2];               /* [ply][2] of this thread */
    cd_node_moves *plies;                /* [ply] of this thread: each node's moves and scores */
    uint64_t *evcache;                   /* this thread's evaluation cache (engine.h) */
    uint64_t evsalt;                     /* this search's salt of it */
    cd_net_cache *netcache;              /* this thread's network sums (net.h) */
    cd_corr *corr;                       /* this thread's correction history (engine.h) */
    int corr_pct;                        /* its share (step 21): the parameter where it acts, or 0 */
    int lmr2_from; /* step 52's move number: the parameter where it acts, or 0 (off) */
    int drawv[2];      /* a draw's value to the side to move, by side (step 1: contempt) */
    uint64_t ttsalt;   /* XORed into the table's keys: 0 without contempt, else one per
                          contempt and root side (draw values differ between them) */
    int notshot;       /* set by an exchange probe that found no capture (step 19) */
    uint64_t playable; /* the board's squares (cd_geom_playable), for step 19 */
    uint64_t nodes, node_limit;
    long long start, soft, hard;
    int tb_wait; /* a table being checked is waited for (no clock: the same nodes every run) */
    int stopped;
    int seldepth;
    /* keys of the positions since the last irreversible move: game history
     * then the search path; keys[base + ply] is the position at ply */
    uint64_t keys[HIST_MAX + CD_MAX_PLY + 1];
    int base;
    cd_move pv[CD_MAX_PLY + 1][CD_MAX_PLY + 1];
    int pvlen[CD_MAX_PLY + 1];
    const cd_move *exclude; /* root moves already given as better multipv lines */
    int nexclude;
    /* singular extensions (step 20): the move number + 1 left out at each ply by a
     * verification search, 0 when none */
    int se_skip[CD_MAX_PLY + 1];
    /* the endgame move-count rules (step 1b): the game's draw rules; the balance of men and
     * kings at each ply of the path (-1 above ENDGAME_PIECES pieces) and the ply at which it
     * arose (below 0 when before the root) */
    unsigned draw;
    int endgame; /* one of the endgame rules is in force */
    int bal[CD_MAX_PLY + 1], balfrom[CD_MAX_PLY + 1];
} search;

/* search_node.c: a node of depth 1 or more; qsearch.c: quiescence, depth 0 or less (QS_PROBE:
 * an exchange probe); search.c: the clock and stop flags, every 256 nodes. */
int cd_search_node(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                   int quiet);
int cd_qsearch(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
               int quiet);
void cd_search_check_time(search *s);

static inline int is_draw(const search *s, int ply, int quiet)
{
    if (quiet < 2) /* both rules below need two reversible plies at least */
        return 0;
    const cd_rules *r = s->r;
    if ((r->draw & CD_DRAW_KINGS_ONLY) && r->no_progress > 0 && quiet >= 2 * r->no_progress)
        return 1;
    if (r->draw & CD_DRAW_REPETITION) {
        int here = s->base + ply;
        uint64_t key = s->keys[here];
        for (int i = here - 2; i >= here - quiet && i >= 0; i -= 2)
            if (s->keys[i] == key)
                return 1;
    }
    return 0;
}

/* A draw's value to the side to move in pos: -contempt for the side to move at the root,
 * +contempt for the other (by side, not by ply: in two-move variants a side moves twice). */
static inline int draw_value(const search *s, const cd_position *pos)
{
    return s->drawv[pos->side];
}

/* 1b. The endgame move-count rules (FMJD: 16 moves for 3 pieces against a lone king, 5 for 2 or
 * 1; Russian: 15 moves for 3 kings or more against a lone king, 30 or 60 with kings on both sides
 * and 4-5 or 6-7 pieces; APCA 3 kings against 1; Frisian kings only, 7 moves for 2 against 1 and
 * 2 for 1 against 1: cd_endgame_limit): a position of the path is drawn once its balance of men
 * and kings has stood for the limit, counted as the game counts it (since[]). Above ENDGAME_PIECES
 * pieces no such rule applies (a lone king against 12 kings is the most the Russian rule can meet
 * on 8x8), and the balance is not worked out. */
#define ENDGAME_PIECES 13
#define ENDGAME_RULES                                                                              \
    (CD_DRAW_FMJD_ENDGAME | CD_DRAW_RUSSIAN_ENDGAME | CD_DRAW_POOL_3V1 | CD_DRAW_FRISIAN_ENDGAME)
/* The balance of pos (cd_position_balance), or -1 above ENDGAME_PIECES pieces. */
static inline int path_balance(const cd_position *pos)
{
    return __builtin_popcountll(pos->white[0] | pos->black[0]) +
                       __builtin_popcountll(pos->white[1] | pos->black[1]) <=
                   ENDGAME_PIECES
               ? cd_position_balance(pos)
               : -1;
}

static inline int endgame_draw(search *s, const cd_position *pos, int ply)
{
    int b = path_balance(pos);
    s->bal[ply] = b;
    if (b < 0)
        return 0;
    s->balfrom[ply] = b == s->bal[ply - 1] ? s->balfrom[ply - 1] : ply;
    int limit = cd_endgame_limit(s->draw, pos);
    return limit && ply - s->balfrom[ply] >= limit;
}

/* A quiet move and a killer (always quiet) are the same move when they go from and to the same
 * squares: cd_move_equal without the call. */
static inline int same_quiet(const cd_move *m, const cd_move *k)
{
    return m->from == k->from && m->to == k->to;
}

/* Move ordering scores. */
static inline void score_moves(const search *s, const cd_position *pos, cd_movelist *list,
                               int ttmove, int ply, int *score)
{
    const cd_search_params *sp = search_params(s->e);
    cd_move(*killers)[2] = s->killers;
    for (int i = 0; i < list->count; i++) {
        cd_move *m = &list->moves[i];
        m->reserved = (uint16_t)i; /* the generator's order, which the table's move index names */
        int v;
        if (i == ttmove)
            v = 1 << 30;
        else if (m->ncaptured)
            v = (1 << 25) + m->ncaptured * 16 + ((m->flags & CD_MOVE_PROMOTES) ? 8 : 0);
        else if (sp->killers && same_quiet(m, &killers[ply][0]))
            v = 1 << 24;
        else if (sp->killers && same_quiet(m, &killers[ply][1]))
            v = (1 << 24) - 1;
        else
            v = (sp->history ? s->history[pos->side][m->from & 127][m->to & 127] : 0) +
                ((m->flags & CD_MOVE_PROMOTES) ? (1 << 23) : 0);
        score[i] = v;
    }
}

static inline int excluded(const search *s, const cd_move *m)
{
    for (int i = 0; i < s->nexclude; i++)
        if (cd_move_equal(&s->exclude[i], m))
            return 1;
    return 0;
}

/* The principal variation at ply: m, then the child's. Only PV nodes (an open window) keep one:
 * a PV node's exact value always comes from a child searched with an open window, so the line
 * of a null-window node is never read, and copying it cost 2% of the search. */
static inline void pv_set(search *s, int ply, const cd_move *m)
{
    s->pv[ply][0] = *m;
    s->pv[ply][0].reserved = 0; /* the search's numbering of the node's moves stays inside */
    memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)s->pvlen[ply + 1] * sizeof(cd_move));
    s->pvlen[ply] = s->pvlen[ply + 1] + 1;
}

/* The value of child `next` of `pos` for the side to move in pos, in the window (alpha, beta):
 * negamax, except under the two-move rule, where the same side may move again in the child. */
static inline int child(search *s, const cd_position *pos, const cd_position *next, int alpha,
                        int beta, int depth, int ply, int quiet)
{
    if (next->side == pos->side)
        return depth > 0 ? cd_search_node(s, next, alpha, beta, depth, ply + 1, quiet)
                         : cd_qsearch(s, next, alpha, beta, depth, ply + 1, quiet);
    return depth > 0 ? -cd_search_node(s, next, -beta, -alpha, depth, ply + 1, quiet)
                     : -cd_qsearch(s, next, -beta, -alpha, depth, ply + 1, quiet);
}

/* The static value, side to move's view, through the thread's evaluation cache (engine.h): the
 * same value as cd_engine_evaluate, computed once for a position met again in the search. */
static inline int evaluate(search *s, const cd_position *pos)
{
    uint64_t tag = pos->key ^ s->evsalt;
    uint64_t *slot = &s->evcache[tag & ((1u << CD_EVCACHE_BITS) - 1)];
    if (!((*slot ^ tag) >> 16))
        return (int16_t)(uint16_t)*slot;
    int v = cd_engine_evaluate_with(s->e, s->pw, pos, s->netcache);
    if (v >= INT16_MIN && v <= INT16_MAX)
        *slot = (tag & ~(uint64_t)0xffff) | (uint16_t)v;
    return v;
}

/* 21. Correction history ("corr"): the entry of one colour's men (both words) with the number of
 * kings of both sides (kings, mixed in once for the two tables). */
static inline int corr_index(uint64_t men0, uint64_t men1, uint64_t kings)
{
    uint64_t k = (men0 ^ men1 * 0xc2b2ae3d27d4eb4fULL) * 0x9e3779b97f4a7c15ULL + kings;
    return (int)(cd_zobrist_mix(k) >> (64 - CD_CORR_BITS));
}

/* pos's entries in the two tables, one keyed by the white men, one by the black men */
static inline void corr_slots(search *s, const cd_position *pos, int16_t **a, int16_t **b)
{
    int wk = __builtin_popcountll(pos->kings[0] & pos->white[0]) +
             __builtin_popcountll(pos->kings[1] & pos->white[1]);
    int bk = __builtin_popcountll(pos->kings[0] & pos->black[0]) +
             __builtin_popcountll(pos->kings[1] & pos->black[1]);
    uint64_t kings = (uint64_t)(wk * 64 + bk) * 0xd6e8feb86659fd93ULL;
    int stm = pos->side;
    *a = &(*s->corr)[0][stm][corr_index(pos->white[0] & ~pos->kings[0],
                                        pos->white[1] & ~pos->kings[1], kings)];
    *b = &(*s->corr)[1][stm][corr_index(pos->black[0] & ~pos->kings[0],
                                        pos->black[1] & ~pos->kings[1], kings)];
}

/* The static value the search uses: the evaluation, plus with step 21 the errors this game's
 * searches found for the position's two men configurations (their mean, times corr percent). */
static inline int static_value(search *s, const cd_position *pos)
{
    int v = evaluate(s, pos);
    if (!s->corr_pct)
        return v;
    int16_t *a, *b;
    corr_slots(s, pos, &a, &b);
    return v + (*a + *b) * s->corr_pct / (2 * 100 * CD_CORR_GRAIN);
}

/* A node's search value against the static value it started from, weighted by depth: both
 * entries move toward the error by a bounded step ("gravity": an entry near the limit moves
 * less that way). */
static inline void corr_update(search *s, const cd_position *pos, int err, int depth)
{
    int bonus = err * CD_CORR_GRAIN * depth / 8;
    if (bonus > CD_CORR_LIMIT / 4)
        bonus = CD_CORR_LIMIT / 4;
    if (bonus < -CD_CORR_LIMIT / 4)
        bonus = -CD_CORR_LIMIT / 4;
    int16_t *slot[2];
    corr_slots(s, pos, &slot[0], &slot[1]);
    for (int i = 0; i < 2; i++)
        *slot[i] = (int16_t)(*slot[i] + bonus - *slot[i] * abs(bonus) / CD_CORR_LIMIT);
}

/* The evaluation cache's slot of a child about to be searched, fetched from memory while the
 * child's first steps run (without it, perf put 38% of the quiescence function's own samples,
 * about 5% of the search's time, on the probe's load). */
static inline void prefetch_eval(const search *s, uint64_t key)
{
    __builtin_prefetch(&s->evcache[(key ^ s->evsalt) & ((1u << CD_EVCACHE_BITS) - 1)]);
}

/* A child's value v: the best so far and alpha raised by it, the line kept at a PV node; 1 when
 * it cuts off (v >= beta). The move loops of quiescence, promotions and exchanges. */
static inline int improve(search *s, int ply, const cd_move *m, int v, int pvnode, int *best,
                          int *alpha, int beta)
{
    if (v <= *best)
        return 0;
    *best = v;
    if (v <= *alpha)
        return 0;
    *alpha = v;
    if (pvnode)
        pv_set(s, ply, m);
    return v >= beta;
}

/* The value of a position whose side to move has no move: lost, or won in antidraughts. */
static inline int no_move(const cd_rules *r, int ply)
{
    return r->goal == CD_GOAL_LOSING ? CD_SCORE_WIN - ply : -CD_SCORE_WIN + ply;
}

/* Selection sort, one step: the best-scored of moves i..n-1 moves to place i (the first of equals
 * stays first), with its score. */
static inline void pick(cd_movelist *list, int *score, int i, int n)
{
    /* the highest score, then its first place: two loops without a branch on the scores, which
     * the compiler turns into vector instructions (one loop of compares and jumps took a tenth of
     * the search's time) */
    int top = score[i];
    for (int j = i + 1; j < n; j++)
        top = score[j] > top ? score[j] : top;
    int bi = i;
    while (score[bi] != top)
        bi++;
    if (bi != i) {
        cd_move m = list->moves[i];
        list->moves[i] = list->moves[bi];
        list->moves[bi] = m;
        int tmp = score[i];
        score[i] = score[bi];
        score[bi] = tmp;
    }
}

/* Steps 1-2b of every node: count it, and settle it without moves where the path, the rules or
 * the endgame tables say its value (1, with the value in *value). */
static inline int node_settled(search *s, const cd_position *pos, int ply, int quiet, int probe,
                               int *value)
{
    cd_engine *e = s->e;
    *value = 0;
    s->pvlen[ply] = 0;
    if ((++s->nodes & 255) == 0)
        cd_search_check_time(s);
    if (s->stopped)
        return 1;
    if (ply > s->seldepth)
        s->seldepth = ply;

    /* 1. draws */
    s->keys[s->base + ply] = pos->key;
    if (ply > 0 && !probe && is_draw(s, ply, quiet))
        return *value = draw_value(s, pos), 1;
    /* (an exchange probe keeps the path's balance up to date but is never a draw, as in step 1) */
    if (ply > 0 && s->endgame && endgame_draw(s, pos, ply) && !probe)
        return *value = draw_value(s, pos), 1;

    /* 2. terminal positions */
    const cd_rules *r = s->r;
    if (r->goal == CD_GOAL_BREAKTHROUGH) {
        const uint64_t *them = pos->side == CD_WHITE ? pos->black : pos->white;
        if ((them[0] & pos->kings[0]) | (them[1] & pos->kings[1])) {
            *value = -CD_SCORE_WIN + ply;
            return 1;
        }
    }
    /* 2b. endgame tables: the exact value with the distance (not at the root, which needs
     * a move: there the children's exact values choose the fastest win or slowest loss) */
    if (e->egtb && ply > 0 && !probe &&
        __builtin_popcountll(pos->white[0] | pos->black[0]) <= CD_EGTB_MAX_PIECES) {
        int d, v = s->tb_wait ? cd_egtb_probe(e->egtb, pos, &d)
                              : cd_egtb_probe_ready(e->egtb, pos, &d);
        if (v == CD_EGTB_WIN)
            *value = CD_SCORE_WIN - ply - d;
        else if (v == CD_EGTB_LOSS)
            *value = -CD_SCORE_WIN + ply + d;
        else if (v == CD_EGTB_DRAW)
            *value = draw_value(s, pos);
        if (v == CD_EGTB_WIN || v == CD_EGTB_LOSS || v == CD_EGTB_DRAW)
            return 1;
    }
    return 0;
}

#endif

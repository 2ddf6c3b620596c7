/*
 * search.c -- iterative deepening principal variation search.
 *
 * What a node does, in order (the numbers are the steps docs/strength.md measures, "The
 * search's steps"):
 *  1. Draws: repetition since the last irreversible move (twofold inside the search) and the
 *     variant's no-progress rule; 1b: the endgame move-count rules, counted from the ply at
 *     which the balance of men and kings arose, as game.c counts them. A draw is worth 0, or
 *     with "contempt" C: -C to the side to move at the root, +C to its opponent.
 *  2. Terminal positions: no legal move loses (wins in antidraughts); in breakthrough a side
 *     whose opponent has crowned has lost. 2b: the endgame tables, exact with the distance.
 *  3. Transposition table (tt.c), probed before the moves are generated: cut-offs at non-PV
 *     nodes, and its move tried first. Not probed in quiescence.
 *  4. Quiescence (qsearch): at depth 0 the compulsory captures are searched on; a quiet
 *     position stands pat on its static value (4a: before its moves are generated), with quiet
 *     promotions (14) and exchange offers (19) at its first ply. 4b: at nodes of depth 2 or more
 *     the next move is played and its table bucket fetched while the current one is searched.
 *     Static values come through a per-thread evaluation cache (engine.h).
 *  5. Move ordering: the table's move, captures, killers, then history.
 *  6. PVS: the first move with the full window, the rest with a null window, re-searched on a
 *     fail-high.
 *  7. Late move reductions by a table, 0.5 + ln(depth) ln(moves searched) / 2.3 (10, 18), one
 *     ply less at PV nodes, at least one ply for every move after the first at non-PV nodes
 *     (15).
 *  8. A forced single reply is searched one ply deeper.
 * 11. ProbCut: at non-PV nodes of depth >= 5 a null-window search 4 plies shallower at
 *     beta + 80 that holds cuts the node.
 * 16. Reverse futility: a quiet non-PV node of depth <= 3 whose static value less 40 a ply is
 *     at least beta returns that value.
 * 17. Internal iterative reduction: a node of depth >= 5 without a table move loses a ply.
 * 18. History malus: the quiet moves tried before a cut-off lose what the cut-off move gains.
 * 20. Singular extensions: at depth >= 6, when the other moves searched to half the depth stay
 *     below the table's lower bound less 4 a ply, the table's move is searched a ply deeper.
 * 21. Correction history: where the 8x8 families' learned weights evaluate, two tables per
 *     thread learn how far the static value was off, and the static value adds their mean.
 * Iterative deepening with aspiration windows from depth 4 (30 either side, four times wider
 * after each fail), a soft time limit between iterations (12: longer while the best move
 * changes or the score drops) and a hard one checked every 256 nodes. Threads: lazy SMP, the
 * helpers search the same root with their own tables (odd ones a ply ahead) and share the
 * transposition table; the main thread's result is played.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "board.h"
#include "engine.h"
#include "game.h"
#include "movegen.h"
#include "pattern.h"

#define INF            32000
#define HIST_MAX       1024
#define QS_PROBE       (-100) /* depth of an exchange probe (step 19) */
#define LMR_DIV        230    /* steps 10 and 18, hundredths */
#define PROBCUT_MARGIN 80     /* step 11, hundredths of a man */
#define ASP_WINDOW     30     /* the aspiration window's first half-width ("aspwin") */
#define SE_MARGIN      4      /* step 20's margin a ply, hundredths of a man ("semargin") */
/* the defaults of steps 11-21 (docs/strength.md says why) */
#define DEFAULT_QPROMO    1
#define DEFAULT_LMRFROM   1
#define DEFAULT_RFP       40
#define DEFAULT_PROBCUT   1
#define DEFAULT_TIMEMAN   1
#define DEFAULT_IIR       5
#define DEFAULT_HISTMALUS 1
#define DEFAULT_QEXCH     1
#define DEFAULT_SEDEPTH   6
#define DEFAULT_CORR      200

typedef struct search {
    cd_engine *e;
    const cd_rules *r;
    const cd_movegen *mg;                /* r's move generator (cd_movegen_of), called directly */
    const struct cd_pattern_weights *pw; /* r's learned weights (cd_pattern_for) or NULL */
    int id;                              /* thread: 0 the main one, else a helper */
    int (*history)[128][128];            /* [side][from][to] of this thread */
    cd_move (*killers)[2];               /* [ply][2] of this thread */
    cd_node_moves *plies;                /* [ply] of this thread: each node's moves and scores */
    uint64_t *evcache;                   /* this thread's evaluation cache (engine.h) */
    uint64_t evsalt;                     /* this search's salt of it */
    cd_net_cache *netcache;              /* this thread's network sums (net.h) */
    cd_corr *corr;                       /* this thread's correction history (engine.h) */
    int corr_pct;                        /* its share (step 21): the option where it acts, or 0 */
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

static int score_to_tt(int s, int ply)
{
    return s > CD_SCORE_WIN - 1000 ? s + ply : s < -(CD_SCORE_WIN - 1000) ? s - ply : s;
}

static int score_from_tt(int s, int ply)
{
    return s > CD_SCORE_WIN - 1000 ? s - ply : s < -(CD_SCORE_WIN - 1000) ? s + ply : s;
}

static void check_time(search *s)
{
    cd_engine *e = s->e;
    if (atomic_load(&e->stop) || (s->id > 0 && atomic_load(&e->helpers_stop))) {
        s->stopped = 1;
        return;
    }
    if (s->id > 0) {
        /* helpers follow the main thread's stop; search_node calls this once every 256 nodes,
         * which the helper adds for the main thread's reports */
        atomic_fetch_add_explicit(&e->helper_nodes, 256, memory_order_relaxed);
        return;
    }
    if (s->node_limit && s->nodes >= s->node_limit) {
        s->stopped = 1;
        return;
    }
    if (atomic_load(&e->pondering) || s->hard < 0)
        return;
    long long start = s->start;
    long long ph = atomic_load(&e->ponderhit_ms);
    if (ph > start)
        start = ph;
    if (cd_now_ms() - start >= s->hard)
        s->stopped = 1;
}

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
static void score_moves(const search *s, const cd_position *pos, cd_movelist *list, int ttmove,
                        int ply, int *score)
{
    const cd_engine *e = s->e;
    cd_move(*killers)[2] = s->killers;
    for (int i = 0; i < list->count; i++) {
        cd_move *m = &list->moves[i];
        m->reserved = (uint16_t)i; /* the generator's order, which the table's move index names */
        int v;
        if (i == ttmove)
            v = 1 << 30;
        else if (m->ncaptured)
            v = (1 << 25) + m->ncaptured * 16 + ((m->flags & CD_MOVE_PROMOTES) ? 8 : 0);
        else if (e->use_killers && same_quiet(m, &killers[ply][0]))
            v = 1 << 24;
        else if (e->use_killers && same_quiet(m, &killers[ply][1]))
            v = (1 << 24) - 1;
        else
            v = (e->use_history ? s->history[pos->side][m->from & 127][m->to & 127] : 0) +
                ((m->flags & CD_MOVE_PROMOTES) ? (1 << 23) : 0);
        score[i] = v;
    }
}

static int excluded(const search *s, const cd_move *m)
{
    for (int i = 0; i < s->nexclude; i++)
        if (cd_move_equal(&s->exclude[i], m))
            return 1;
    return 0;
}

static int search_node(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                       int quiet);
static int qsearch(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                   int quiet);
static int exchanges(search *s, const cd_position *pos, cd_movelist *list, int alpha, int beta,
                     int stand, int ply, int quiet);
static int promotions(search *s, const cd_position *pos, cd_movelist *list, int alpha, int beta,
                      int stand, int ply);

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
        return depth > 0 ? search_node(s, next, alpha, beta, depth, ply + 1, quiet)
                         : qsearch(s, next, alpha, beta, depth, ply + 1, quiet);
    return depth > 0 ? -search_node(s, next, -beta, -alpha, depth, ply + 1, quiet)
                     : -qsearch(s, next, -beta, -alpha, depth, ply + 1, quiet);
}

/* History: quiet move i of the sorted list was best (a cut-off), so it gains depth^2; with
 * "histmalus" the quiet moves tried before it lose as much. All are halved when one grows
 * too large. */
static void reward(search *s, const cd_position *pos, const cd_movelist *list, int i, int depth)
{
    int(*hist)[128][128] = s->history;
    const cd_move *m = &list->moves[i];
    int *h = &hist[pos->side][m->from & 127][m->to & 127];
    *h += depth * depth;
    int halve = *h > (1 << 22);
    for (int j = 0; s->e->hist_malus && j < i; j++) {
        const cd_move *b = &list->moves[j];
        int *hb = &hist[pos->side][b->from & 127][b->to & 127];
        if (!b->ncaptured && (*hb -= depth * depth) < -(1 << 22))
            halve = 1;
    }
    if (halve)
        for (int a = 0; a < 2; a++)
            for (int b = 0; b < 128; b++)
                for (int c = 0; c < 128; c++)
                    hist[a][b][c] /= 2;
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
        check_time(s);
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

/* 4. Quiescence, a node of depth 0 or less (an exchange probe: QS_PROBE): the captures, searched to
 * the end; a quiet position stands pat on its static value, with quiet promotions, exchanges
 * (steps 14, 19) at the first ply only. No table, no pruning: the same values and nodes
 * as the full node function gave such a node. */
static int qsearch(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                   int quiet)
{
    cd_engine *e = s->e;
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
        int best = e->use_qpromo ? promotions(s, pos, list, alpha, beta, stand, ply) : stand;
        if (s->stopped || best >= beta)
            return best;
        /* 19. exchanges ("qexch"), only while no kings are on the board */
        if (e->use_qexch && !(pos->kings[0] | pos->kings[1]))
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

static int search_node(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                       int quiet)
{
    cd_engine *e = s->e;
    int pvnode = beta - alpha > 1;
    int settled;
    /* a verification search of step 20 leaves one move out: it neither reads the table's
     * bound for this position nor stores its own, and takes no ProbCut */
    int skip = s->se_skip[ply];
    if (!skip && node_settled(s, pos, ply, quiet, 0, &settled))
        return settled;
    const cd_rules *r = s->r;

    /* 3. transposition table, before the moves are generated: a cut-off
     * skips the generator */
    tt_data t;
    int tthit = !skip && cd_tt_probe(e, pos->key ^ s->ttsalt, &t);
    if (tthit) {
        int ts = score_from_tt(t.score, ply);
        if (e->use_ttcut && !pvnode && ply > 0 && t.depth >= depth &&
            (t.bound == TT_EXACT || (t.bound == TT_LOWER && ts >= beta) ||
             (t.bound == TT_UPPER && ts <= alpha)))
            return ts;
    }

    /* 17. internal iterative reduction ("iir"): a node of that depth or more with no move from
     * the table is searched one ply shallower (never below depth 1: quiescence has a function
     * of its own, so "iir 1" reduces nothing) */
    if (e->iir && depth >= e->iir && depth > 1 && !(tthit && t.move >= 0))
        depth--;

    /* 11. ProbCut: a reduced null-window search well above beta that holds
     * is taken as the cut-off of the full one */
    if (e->use_probcut && !skip && !pvnode && ply > 0 && depth >= e->probcut_min &&
        abs(beta) < CD_SCORE_WIN - 1000) {
        int rb = beta + e->probcut_margin;
        int rd = depth - 4;
        if (rd < 1)
            rd = 1;
        if (!(tthit && t.depth >= rd && t.bound == TT_UPPER && score_from_tt(t.score, ply) < rb)) {
            int v = search_node(s, pos, rb - 1, rb, rd, ply, quiet);
            if (s->stopped)
                return 0;
            if (v >= rb)
                return v;
            s->pvlen[ply] = 0;
        }
    }

    /* 20. singular extensions ("sedepth"): when the table's move holds a lower bound from
     * nearly this depth, the other moves are searched to half the depth against that bound
     * less a margin; if none reaches it, the table's move is the only good one and is
     * searched a ply deeper */
    int singular = 0;
    if (e->se_depth && depth >= e->se_depth && ply > 0 && tthit && t.move >= 0 &&
        t.bound != TT_UPPER && t.depth >= depth - 3) {
        int ts = score_from_tt(t.score, ply);
        if (abs(ts) < CD_SCORE_WIN - 1000) {
            int sb = ts - e->se_margin * depth;
            s->se_skip[ply] = t.move + 1;
            int v = search_node(s, pos, sb - 1, sb, depth > 2 ? (depth - 1) / 2 : 1, ply, quiet);
            s->se_skip[ply] = 0;
            if (s->stopped)
                return 0;
            singular = v < sb;
            s->pvlen[ply] = 0;
        }
    }

    cd_movelist *list = &s->plies[ply].list;
    int n = s->mg->generate(pos, list, NULL, NULL, NULL);
    if (n == 0)
        return no_move(r, ply);
    if (ply >= CD_MAX_PLY - 1)
        return evaluate(s, pos);
    int capture = list->moves[0].ncaptured > 0;

    /* 16. reverse futility: near the horizon, a quiet node whose static value is far enough
     * above beta is taken to hold ("rfp") */
    int quietnode = !pvnode && ply > 0 && !capture && abs(beta) < CD_SCORE_WIN - 1000;
    int rfpnode = quietnode && depth <= e->rfp_depth && e->rfp_margin;
    int corrnode = s->corr_pct && ply > 0 && !capture && !skip && abs(beta) < CD_SCORE_WIN - 1000;
    int sev = rfpnode || corrnode ? static_value(s, pos) : 0;
    if (rfpnode && sev - e->rfp_margin * depth >= beta)
        return sev - e->rfp_margin * depth;
    int ttmove = tthit && t.move >= 0 && t.move < n ? t.move : -1;

    /* 5. ordering */
    int *score = s->plies[ply].score;
    score_moves(s, pos, list, ttmove, ply, score); /* and numbers the moves (cd_move.reserved) */

    int best = -INF, bestidx = -1, searched = 0;
    int alpha0 = alpha;
    cd_position ahead; /* the position after move i + 1, played before move i is searched */
    int aheadi = -1;
    for (int i = 0; i < n; i++) {
        if (i != aheadi)
            pick(list, score, i, n);
        const cd_move *m = &list->moves[i];
        if ((ply == 0 && excluded(s, m)) || m->reserved + 1 == skip)
            continue;
        cd_position next;
        if (i == aheadi) {
            next = ahead;
        } else {
            cd_play_with(s->mg, pos, m, &next);
            if (depth >= 2) /* children of depth 1 nodes are quiescence: no probe */
                __builtin_prefetch(&e->tt[(next.key ^ s->ttsalt) & e->tt_mask]);
            if (depth <= 4) /* children that evaluate: quiescence, or reverse futility */
                prefetch_eval(s, next.key);
        }
        /* 4b. where the children probe the table, the next move's entry is fetched from memory
         * while this move is searched (the order is the same: pick is what the next turn of the
         * loop would do) */
        if (depth >= 2 && i + 1 < n) {
            pick(list, score, i + 1, n);
            cd_play_with(s->mg, pos, &list->moves[i + 1], &ahead);
            __builtin_prefetch(&e->tt[(ahead.key ^ s->ttsalt) & e->tt_mask]);
            if (depth <= 4)
                prefetch_eval(s, ahead.key);
            aheadi = i + 1;
        }
        int irreversible = m->ncaptured || !(m->flags & CD_MOVE_KING);
        int q = irreversible ? 0 : quiet + 1;
        /* a forced single reply costs nothing: search it one ply deeper */
        int newdepth = depth - 1 + (e->use_single && n == 1 && ply < 2 * depth + 8);
        if (singular && n > 1 && m->reserved == ttmove && ply < 2 * depth + 8)
            newdepth++;
        int v;
        if (searched == 0) {
            v = child(s, pos, &next, alpha, beta, newdepth, ply, q);
        } else {
            /* 7. late move reductions (10: by a table of depth and move number) */
            int red = 0;
            int from = pvnode || !e->lmr_from ? 2 : e->lmr_from;
            if (depth >= 3 && !capture && searched >= from && !(m->flags & CD_MOVE_PROMOTES) &&
                score[i] < (1 << 24) - 1) {
                red = e->lmr[depth < 63 ? depth : 63][searched < 63 ? searched : 63] - pvnode;
                if (!pvnode && e->lmr_from && red < 1) /* at least one ply ("lmrfrom") */
                    red = 1;
                if (red > newdepth - 1)
                    red = newdepth - 1;
                if (red < 0)
                    red = 0;
            }
            v = child(s, pos, &next, alpha, alpha + 1, newdepth - red, ply, q);
            if (v > alpha && red)
                v = child(s, pos, &next, alpha, alpha + 1, newdepth, ply, q);
            /* 6. PVS re-search */
            if (v > alpha && v < beta)
                v = child(s, pos, &next, alpha, beta, newdepth, ply, q);
        }
        searched++;
        if (s->stopped)
            return 0;
        if (v > best) {
            best = v;
            bestidx = m->reserved;
            if (v > alpha) {
                alpha = v;
                if (pvnode)
                    pv_set(s, ply, m);
                if (v >= beta) {
                    if (!m->ncaptured && ply <= CD_MAX_PLY) {
                        cd_move *k = s->killers[ply];
                        if (!cd_move_equal(m, &k[0])) {
                            k[1] = k[0];
                            k[0] = *m;
                        }
                        reward(s, pos, list, i, depth);
                    }
                    break;
                }
            }
        }
    }
    if (searched == 0) /* every root move excluded (multipv beyond the move count), or the
                          only move left out by step 20 */
        return -INF;
    int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    /* 21. the correction history learns where the value and the static value disagree in the
     * direction the bound can tell */
    if (corrnode && abs(best) < CD_SCORE_WIN - 1000 && !(bound == TT_LOWER && best <= sev) &&
        !(bound == TT_UPPER && best >= sev))
        corr_update(s, pos, best - sev, depth);
    if (!skip)
        cd_tt_store(e, pos->key ^ s->ttsalt, score_to_tt(best, ply), bestidx, depth, bound);
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

void cd_engine_stop(cd_engine *e) { atomic_store(&e->stop, 1); }

void cd_engine_ponderhit(cd_engine *e)
{
    atomic_store(&e->ponderhit_ms, cd_now_ms());
    atomic_store(&e->pondering, 0);
}

/* ln(x) for x >= 1, without libm: x = m 2^k with m in [1, 2), ln m = 2 atanh((m-1)/(m+1)) */
static double ln(double x)
{
    int k = 0;
    while (x >= 2.0) {
        x /= 2.0;
        k++;
    }
    double y = (x - 1.0) / (x + 1.0), y2 = y * y, sum = 0.0, term = y;
    for (int i = 1; i < 40; i += 2) {
        sum += term / i;
        term *= y2;
    }
    return 2.0 * sum + k * 0.69314718055994531;
}

/* 10. the LMR table: 0.5 + ln(depth) ln(moves searched) / (lmr_div / 100) */
static void lmr_init(cd_engine *e)
{
    for (int d = 0; d < 64; d++)
        for (int m = 0; m < 64; m++) {
            double r = d && m ? 0.5 + ln(d) * ln(m) * 100.0 / e->lmr_div : 0.0;
            e->lmr[d][m] = (int8_t)(r > 30 ? 30 : r);
        }
}

cd_engine *cd_engine_new(size_t tt_mb)
{
    cd_engine *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    if (!cd_tt_alloc(e, tt_mb)) {
        free(e);
        return NULL;
    }
    e->use_aspiration = e->use_killers = e->use_history = e->use_ttcut = e->use_single = 1;
    e->use_qpromo = DEFAULT_QPROMO;
    e->lmr_from = DEFAULT_LMRFROM;
    e->rfp_margin = DEFAULT_RFP;
    e->use_probcut = DEFAULT_PROBCUT;
    e->use_timeman = DEFAULT_TIMEMAN;
    e->iir = DEFAULT_IIR;
    e->hist_malus = DEFAULT_HISTMALUS;
    e->use_qexch = DEFAULT_QEXCH;
    e->se_depth = DEFAULT_SEDEPTH;
    e->corr_pct = DEFAULT_CORR;
    e->lmr_div = LMR_DIV;
    e->probcut_margin = PROBCUT_MARGIN;
    e->asp_window = ASP_WINDOW;
    e->end_scale = 100;
    e->probcut_min = 5;
    e->rfp_depth = 3;
    e->use_drawscale = 2;
    e->use_net = 1;
    e->se_margin = SE_MARGIN;
    e->threads = 1;
    lmr_init(e);
    atomic_init(&e->stop, 0);
    atomic_init(&e->pondering, 0);
    atomic_init(&e->ponderhit_ms, 0);
    atomic_init(&e->helpers_stop, 0);
    atomic_init(&e->helper_nodes, 0);
    return e;
}

/* threads - 1 helper tables; 0 when they cannot be allocated */
static int set_threads(cd_engine *e, int n)
{
    if (n < 1 || n > CD_MAX_THREADS)
        return 0;
    cd_worker *w = NULL;
    if (n > 1 && !(w = calloc((size_t)n - 1, sizeof *w)))
        return 0;
    free(e->workers);
    e->workers = w;
    e->threads = n;
    return 1;
}

/* The engine's options: switches (any value, nonzero on; lo 0 hi 1 for cd_engine_option_range)
 * and ranged knobs, each an int field of cd_engine; "lmrdiv" and "threads" do more
 * than set their field (cd_engine_set_option). */
static const struct {
    const char *name;
    size_t field;
    int lo, hi;
    int any; /* a switch: every value is taken, as on (nonzero) or off */
} options[] = {
    {"aspiration", offsetof(cd_engine, use_aspiration), 0, 1, 1},
    {"killers", offsetof(cd_engine, use_killers), 0, 1, 1},
    {"history", offsetof(cd_engine, use_history), 0, 1, 1},
    {"ttcut", offsetof(cd_engine, use_ttcut), 0, 1, 1},
    {"single", offsetof(cd_engine, use_single), 0, 1, 1},
    {"probcut", offsetof(cd_engine, use_probcut), 0, 1, 1},
    {"timeman", offsetof(cd_engine, use_timeman), 0, 1, 1},
    {"classic-eval", offsetof(cd_engine, use_classic_eval), 0, 1, 1},
    {"qpromo", offsetof(cd_engine, use_qpromo), 0, 1, 1},
    {"histmalus", offsetof(cd_engine, hist_malus), 0, 1, 1},
    {"lmrdiv", offsetof(cd_engine, lmr_div), 50, 1000, 0},
    {"pcmargin", offsetof(cd_engine, probcut_margin), 0, 10000, 0},
    {"pcmin", offsetof(cd_engine, probcut_min), 2, 60, 0},
    {"lmrfrom", offsetof(cd_engine, lmr_from), 0, 10, 0},
    {"rfp", offsetof(cd_engine, rfp_margin), 0, 1000, 0},
    {"rfpdepth", offsetof(cd_engine, rfp_depth), 0, 20, 0},
    {"iir", offsetof(cd_engine, iir), 0, 60, 0},
    {"qexch", offsetof(cd_engine, use_qexch), 0, 1, 0},
    {"aspwin", offsetof(cd_engine, asp_window), 5, 1000, 0},
    {"contempt", offsetof(cd_engine, contempt), 0, 100, 0},
    {"drawscale", offsetof(cd_engine, use_drawscale), 0, 2, 0},
    {"net", offsetof(cd_engine, use_net), 0, 1, 0},
    {"sedepth", offsetof(cd_engine, se_depth), 0, 60, 0},
    {"semargin", offsetof(cd_engine, se_margin), 0, 1000, 0},
    {"corr", offsetof(cd_engine, corr_pct), 0, 400, 0},
    {"threads", offsetof(cd_engine, threads), 1, CD_MAX_THREADS, 0},
};

static int option_index(const char *name)
{
    for (size_t i = 0; name && i < sizeof options / sizeof options[0]; i++)
        if (!strcmp(name, options[i].name))
            return (int)i;
    return -1;
}

int cd_engine_option_range(const char *name, int *lo, int *hi)
{
    int i = option_index(name);
    if (i < 0)
        return 0;
    if (lo)
        *lo = options[i].lo;
    if (hi)
        *hi = options[i].hi;
    return 1;
}

cd_result cd_engine_set_option(cd_engine *e, const char *name, int value)
{
    int i = option_index(name);
    if (!e || i < 0)
        return CD_ERR_ARG;
    if (!options[i].any && (value < options[i].lo || value > options[i].hi))
        return CD_ERR_ARG;
    if (!strcmp(name, "threads"))
        return set_threads(e, value) ? CD_OK : CD_ERR_OVERFLOW;
    *(int *)((char *)e + options[i].field) = options[i].any ? value != 0 : value;
    if (!strcmp(name, "lmrdiv"))
        lmr_init(e);
    return CD_OK;
}

void cd_engine_set_egtb(cd_engine *e, cd_egtb *tb) { e->egtb = tb; }

void cd_engine_free(cd_engine *e)
{
    if (!e)
        return;
    free(e->tt);
    free(e->workers);
    free(e);
}

cd_result cd_engine_set_hash(cd_engine *e, size_t tt_mb)
{
    return cd_tt_alloc(e, tt_mb) ? CD_OK : CD_ERR_OVERFLOW;
}

void cd_engine_clear(cd_engine *e)
{
    cd_tt_clear(e);
    memset(e->history, 0, sizeof e->history);
    memset(e->killers, 0, sizeof e->killers);
    memset(e->corr, 0, sizeof e->corr);
    for (int i = 0; e->workers && i < e->threads - 1; i++) { /* not their node moves */
        memset(e->workers[i].history, 0, sizeof e->workers[i].history);
        memset(e->workers[i].killers, 0, sizeof e->workers[i].killers);
        memset(e->workers[i].corr, 0, sizeof e->workers[i].corr);
    }
    atomic_store(&e->stop, 0); /* a stop that came after the last search ended */
}

static void report(search *s, cd_info_fn fn, void *user, int depth, int line, int score)
{
    if (!fn)
        return;
    cd_search_info info;
    memset(&info, 0, sizeof info);
    info.depth = depth;
    info.seldepth = s->seldepth;
    info.multipv = line;
    info.score = score;
    /* every thread's nodes: the helpers' as last published (at most 256 behind each) */
    info.nodes = s->nodes + atomic_load_explicit(&s->e->helper_nodes, memory_order_relaxed);
    long long ms = cd_now_ms() - s->start;
    info.time = (double)ms / 1000.0;
    info.nps = ms > 0 ? (double)info.nodes * 1000.0 / (double)ms : 0.0;
    info.pvlen = s->pvlen[0];
    memcpy(info.pv, s->pv[0], (size_t)s->pvlen[0] * sizeof(cd_move));
    fn(&info, user);
}

/* A helper thread of lazy SMP: iterative deepening on the root with its own
 * killers and history, sharing the table with the main thread, until the
 * main thread finishes (helpers_stop). Odd helpers start one ply deeper, so
 * the threads spread over two depths. */
typedef struct helper {
    search *s;
    const cd_position *root;
    int quiet, maxdepth;
} helper;

static int helper_main(void *arg)
{
    helper *h = arg;
    search *s = h->s;
    for (int depth = 1 + (s->id & 1); depth <= h->maxdepth && !s->stopped; depth++) {
        s->seldepth = 0;
        search_node(s, h->root, -INF, INF, depth, 0, h->quiet);
    }
    return 0;
}

/* 12. Time: the soft limit (no new iteration after it) of a clock game grows
 * while the best move changes from one iteration to the next or the score
 * falls, and shrinks while it stays; it never passes the hard limit. */
static long long soft_limit(const search *s, double unstable, int drop)
{
    if (!s->e->use_timeman || s->soft < 0 || s->soft >= s->hard)
        return s->soft;
    double f = (0.6 + unstable) * (drop ? 1.5 : 1.0);
    long long t = (long long)((double)s->soft * f);
    return t > s->hard ? s->hard : t;
}

cd_result cd_search(cd_engine *e, const cd_game *g, const cd_limits *limits, cd_info_fn on_info,
                    void *user, cd_search_result *out)
{
    memset(out, 0, sizeof *out);
    if (!e || !g || !limits)
        return CD_ERR_ARG;
    const cd_position *root = cd_game_position(g);
    search *s = calloc(1, sizeof *s);
    if (!s)
        return CD_ERR_OVERFLOW;
    s->e = e;
    s->r = root->rules;
    s->mg = cd_movegen_of(s->r);
    s->pw = cd_pattern_for(s->r);
    s->playable = cd_geom_playable(cd_geom_of(s->r));
    s->history = e->history;
    s->killers = e->killers;
    s->plies = e->moves;
    s->evcache = e->evcache;
    s->netcache = &e->netcache;
    s->corr = &e->corr;
    /* step 21 acts where the 8x8 families' learned weights evaluate (24 pieces at the start:
     * Russian's and the three begun from them), where it was measured to gain */
    s->corr_pct = s->pw && s->pw->layout.start == 24 ? e->corr_pct : 0;
    /* (mixed from numbers far above the 1..512 of the piece keys, cd_zobrist_table: a salt is
     * then no piece key, nor a difference of two salts a move's key change) */
    s->evsalt = cd_zobrist_mix(++e->searches + ((uint64_t)1 << 40));
    /* contempt: draws valued from the root side's view; the table entries of other contempts or
     * root sides hold other draw values, so they are kept apart by a salt (from numbers far
     * above the piece keys' and the evaluation salts') */
    s->drawv[root->side] = -e->contempt;
    s->drawv[!root->side] = e->contempt;
    s->ttsalt =
        e->contempt
            ? cd_zobrist_mix(((uint64_t)3 << 40) + 2 * (uint64_t)e->contempt + (uint64_t)root->side)
            : 0;
    s->start = cd_now_ms();
    s->node_limit = limits->nodes;
    cd_time_budget(limits, root->side, &s->soft, &s->hard);
    s->tb_wait = s->hard <= 0 && !limits->infinite && !limits->ponder;
    if (e->threads > 1 && s->hard > 0) { /* time for the helpers to stop and be joined */
        long long m = s->hard / 20 < 20 ? s->hard / 20 : 20;
        s->hard -= m;
        if (s->soft > s->hard)
            s->soft = s->hard;
    }
    atomic_store(&e->pondering, limits->ponder ? 1 : 0);
    atomic_store(&e->ponderhit_ms, 0);
    atomic_store(&e->helpers_stop, 0);
    atomic_store(&e->helper_nodes, 0);
    e->age++;

    /* history since the last irreversible move */
    int quiet = g->quiet[g->ply];
    if (quiet > HIST_MAX - 1)
        quiet = HIST_MAX - 1;
    for (int i = 0; i <= quiet; i++)
        s->keys[i] = g->pos[g->ply - quiet + i].key;
    s->base = quiet;
    s->draw = cd_game_draw_rules(g);
    s->endgame = (s->draw & ENDGAME_RULES) != 0;
    s->bal[0] = path_balance(root);
    s->balfrom[0] = g->since[g->ply] - g->ply;

    if (cd_game_status(g, NULL) != CD_ONGOING) {
        free(s);
        atomic_store(&e->stop, 0);
        return CD_ERR_ARG;
    }
    cd_movelist *rootlist = malloc(sizeof *rootlist);
    int lines = limits->multipv > 1 ? limits->multipv : 1;
    cd_move *chosen = calloc((size_t)lines, sizeof *chosen);
    if (!rootlist || !chosen) {
        free(rootlist);
        free(chosen);
        free(s);
        return CD_ERR_OVERFLOW;
    }
    int nroot = cd_generate(root, rootlist);
    out->best = rootlist->moves[0];
    out->has_move = 1;
    int maxdepth = limits->depth > 0 ? limits->depth : CD_MAX_PLY - 8;
    if (maxdepth > CD_MAX_PLY - 8)
        maxdepth = CD_MAX_PLY - 8;
    if (lines > nroot)
        lines = nroot;

    /* lazy SMP helpers (a helper that cannot start is left out) */
    int nhelp = nroot > 1 && e->workers ? e->threads - 1 : 0;
    search *hs = nhelp ? calloc((size_t)nhelp, sizeof *hs) : NULL;
    helper *ha = nhelp ? calloc((size_t)nhelp, sizeof *ha) : NULL;
    thrd_t *th = nhelp ? calloc((size_t)nhelp, sizeof *th) : NULL;
    int *started = nhelp ? calloc((size_t)nhelp, sizeof *started) : NULL;
    if (!hs || !ha || !th || !started)
        nhelp = 0;
    for (int i = 0; i < nhelp; i++) {
        hs[i] = *s;
        hs[i].id = i + 1;
        hs[i].history = e->workers[i].history;
        hs[i].killers = e->workers[i].killers;
        hs[i].plies = e->workers[i].moves;
        hs[i].evcache = e->workers[i].evcache;
        hs[i].netcache = &e->workers[i].netcache;
        hs[i].corr = &e->workers[i].corr;
        hs[i].node_limit = 0;
        ha[i] = (helper){&hs[i], root, g->quiet[g->ply], maxdepth};
        started[i] = thrd_create(&th[i], helper_main, &ha[i]) == thrd_success;
    }

    int prev = 0;
    double unstable = 0.0;
    for (int depth = 1; depth <= maxdepth && !s->stopped; depth++) {
        s->seldepth = 0;
        cd_move before = out->best;
        int drop = 0;
        for (int line = 1; line <= lines; line++) {
            s->exclude = chosen;
            s->nexclude = line - 1;
            int score;
            int window = e->asp_window;
            int alpha = -INF, beta = INF;
            if (e->use_aspiration && depth >= 4 && line == 1 && !CD_SCORE_IS_WIN(prev)) {
                alpha = prev - window;
                beta = prev + window;
            }
            for (;;) {
                score = search_node(s, root, alpha, beta, depth, 0, g->quiet[g->ply]);
                if (s->stopped)
                    break;
                if (score <= alpha) {
                    alpha = alpha - window * 4 < -INF ? -INF : alpha - window * 4;
                    window *= 4;
                } else if (score >= beta) {
                    beta = beta + window * 4 > INF ? INF : beta + window * 4;
                    window *= 4;
                } else {
                    break;
                }
            }
            if (s->stopped)
                break;
            if (s->pvlen[0] > 0)
                chosen[line - 1] = s->pv[0][0];
            if (line == 1) {
                drop = depth > 1 && score < prev - 30;
                prev = score;
                out->score = score;
                out->depth = depth;
                if (s->pvlen[0] > 0) {
                    out->best = s->pv[0][0];
                    out->has_ponder = s->pvlen[0] > 1;
                    if (out->has_ponder)
                        out->ponder = s->pv[0][1];
                }
            }
            report(s, on_info, user, depth, line, score);
        }
        if (s->stopped)
            break;
        unstable = unstable * 0.5 + (depth > 1 && !cd_move_equal(&before, &out->best) ? 1.0 : 0.0);
        /* soft limit: no new iteration; a single legal move needs no search */
        if (!atomic_load(&e->pondering) && s->soft >= 0) {
            long long start = s->start, ph = atomic_load(&e->ponderhit_ms);
            if (ph > start)
                start = ph;
            if (cd_now_ms() - start >= soft_limit(s, unstable, drop) || nroot == 1)
                break;
        }
        if (CD_SCORE_IS_WIN(prev) && depth >= 2 && CD_SCORE_WIN - abs(prev) < depth &&
            !limits->infinite)
            break;
    }
    /* a pondering or infinite search that finished early waits for stop or ponderhit */
    while (!atomic_load(&e->stop) && (limits->infinite || atomic_load(&e->pondering))) {
        struct timespec pause = {0, 2000000};
        thrd_sleep(&pause, NULL);
    }
    atomic_store(&e->helpers_stop, 1);
    out->nodes = s->nodes;
    for (int i = 0; i < nhelp; i++)
        if (started[i]) {
            thrd_join(th[i], NULL);
            out->nodes += hs[i].nodes;
        }
    out->time = (double)(cd_now_ms() - s->start) / 1000.0;
    atomic_store(&e->stop, 0);
    atomic_store(&e->pondering, 0);
    free(started);
    free(th);
    free(ha);
    free(hs);
    free(chosen);
    free(rootlist);
    free(s);
    return CD_OK;
}

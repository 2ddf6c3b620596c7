/*
 * search.c -- iterative deepening principal variation search: the root, the iterations, the
 * clock and the threads. The node search is search_node.c, quiescence qsearch.c, the engine's
 * options and lifetime search_options.c; what they share, search_internal.h.
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
 *     (15), at least two from the seventh on (52, Scan 2.0's reduction at small depths; not
 *     with English's learned weights).
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
 * after each fail), a soft time limit between iterations (12: the budget times 0.6 plus the
 * instability, halved each iteration and +1 when the best move changed, 1.5 times that after a
 * score drop of 0.3 man, never past the hard limit) and a hard one checked every 256 nodes.
 * Threads ("threads" N): lazy SMP. N - 1 helpers search the same root with their own tables
 * (cd_worker; odd helpers a ply ahead) and share the transposition table; the main thread's
 * result is played, and the helpers stop when it ends. With N > 1 the hard limit keeps 5% (at
 * most 20 ms) to join them. Reports and the result count every thread's nodes; a node limit
 * counts the main thread's. The bench is one thread.
 */
#include <threads.h>
#include <time.h>

#include "search_internal.h"

/* A thread's search runs over its worker's tables. */
static void use_worker(search *s, cd_worker *w)
{
    s->history = w->history;
    s->killers = w->killers;
    s->plies = w->moves;
    s->evcache = w->evcache;
    s->netcache = &w->netcache;
    s->corr = &w->corr;
}

void cd_search_check_time(search *s)
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

void cd_engine_stop(cd_engine *e) { atomic_store(&e->stop, 1); }

void cd_engine_ponderhit(cd_engine *e)
{
    atomic_store(&e->ponderhit_ms, cd_now_ms());
    atomic_store(&e->pondering, 0);
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
        cd_search_node(s, h->root, -INF, INF, depth, 0, h->quiet);
    }
    return 0;
}

/* 12. Time: the soft limit (no new iteration after it) of a clock game grows
 * while the best move changes from one iteration to the next or the score
 * falls, and shrinks while it stays; it never passes the hard limit. */
static long long soft_limit(const search *s, double unstable, int drop)
{
    const cd_search_params *sp = search_params(s->e);
    if (!sp->timeman || s->soft < 0 || s->soft >= s->hard)
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
    const cd_search_params *sp = search_params(e);
    s->e = e;
    s->r = root->rules;
    s->mg = cd_movegen_of(s->r);
    s->pw = cd_eval_for(e->eval, s->r);
    s->playable = cd_geom_playable(cd_geom_of(s->r));
    use_worker(s, &e->workers[0]);
    /* step 21 acts where the 8x8 families' learned weights evaluate (24 pieces at the start:
     * Russian's and the three begun from them), where it was measured to gain */
    s->corr_pct = s->pw && s->pw->layout.start == 24 ? sp->corr_pct : 0;
    /* step 52 acts except where English's learned weights evaluate, where it was measured to
     * lose (docs/strength.md) */
    s->lmr2_from =
        s->pw && s->pw->layout.short_rules == CD_PAT_SHORT_ENGLISH ? 0 : sp->lmr2_from;
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
    int nhelp = nroot > 1 ? e->threads - 1 : 0;
    search *hs = nhelp ? calloc((size_t)nhelp, sizeof *hs) : NULL;
    helper *ha = nhelp ? calloc((size_t)nhelp, sizeof *ha) : NULL;
    thrd_t *th = nhelp ? calloc((size_t)nhelp, sizeof *th) : NULL;
    int *started = nhelp ? calloc((size_t)nhelp, sizeof *started) : NULL;
    if (!hs || !ha || !th || !started)
        nhelp = 0;
    for (int i = 0; i < nhelp; i++) {
        hs[i] = *s;
        hs[i].id = i + 1;
        use_worker(&hs[i], &e->workers[i + 1]);
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
            int window = sp->asp_window;
            int alpha = -INF, beta = INF;
            if (sp->aspiration && depth >= 4 && line == 1 && !CD_SCORE_IS_WIN(prev)) {
                alpha = prev - window;
                beta = prev + window;
            }
            for (;;) {
                score = cd_search_node(s, root, alpha, beta, depth, 0, g->quiet[g->ply]);
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
        /* soft limit: no new iteration. A single legal move needs no search on a clock (the
         * time is kept for later moves); with a fixed time a move, which cannot be kept, it is
         * searched on to the limit, so the next move finds the table filled */
        if (!atomic_load(&e->pondering) && s->soft >= 0) {
            long long start = s->start, ph = atomic_load(&e->ponderhit_ms);
            if (ph > start)
                start = ph;
            if (cd_now_ms() - start >= soft_limit(s, unstable, drop) ||
                (nroot == 1 && !(limits->movetime > 0)))
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

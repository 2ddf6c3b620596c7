/*
 * search_node.c -- a node of depth 1 or more (search.c's header lists the steps): the table,
 * internal iterative reduction, ProbCut, singular extensions, reverse futility, then the moves
 * in order with PVS and late move reductions; a cut-off rewards the move (killers, history),
 * and the node's value goes to the table and the correction history.
 */
#include "search_internal.h"

/* Mate scores in the table count from the node, not the root. */
static int score_to_tt(int s, int ply)
{
    return s > CD_SCORE_WIN - 1000 ? s + ply : s < -(CD_SCORE_WIN - 1000) ? s - ply : s;
}

static int score_from_tt(int s, int ply)
{
    return s > CD_SCORE_WIN - 1000 ? s - ply : s < -(CD_SCORE_WIN - 1000) ? s + ply : s;
}

/* History: quiet move i of the sorted list was best (a cut-off), so it gains depth^2; with
 * "histmalus" the quiet moves tried before it lose as much. All are halved when one grows
 * too large. */
static void reward(search *s, const cd_position *pos, const cd_movelist *list, int i, int depth)
{
    const cd_search_params *sp = search_params(s->e);
    int(*hist)[128][128] = s->history;
    const cd_move *m = &list->moves[i];
    int *h = &hist[pos->side][m->from & 127][m->to & 127];
    *h += depth * depth;
    int halve = *h > (1 << 22);
    for (int j = 0; sp->histmalus && j < i; j++) {
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

int cd_search_node(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                   int quiet)
{
    cd_engine *e = s->e;
    const cd_search_params *sp = search_params(e);
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
        if (sp->ttcut && !pvnode && ply > 0 && t.depth >= depth &&
            (t.bound == TT_EXACT || (t.bound == TT_LOWER && ts >= beta) ||
             (t.bound == TT_UPPER && ts <= alpha)))
            return ts;
    }

    /* 17. internal iterative reduction ("iir"): a node of that depth or more with no move from
     * the table is searched one ply shallower (never below depth 1: quiescence has a function
     * of its own, so "iir 1" reduces nothing) */
    if (sp->iir && depth >= sp->iir && depth > 1 && !(tthit && t.move >= 0))
        depth--;

    /* 11. ProbCut: a reduced null-window search well above beta that holds
     * is taken as the cut-off of the full one */
    if (sp->probcut && !skip && !pvnode && ply > 0 && depth >= sp->probcut_min &&
        abs(beta) < CD_SCORE_WIN - 1000) {
        int rb = beta + sp->probcut_margin;
        int rd = depth - 4;
        if (rd < 1)
            rd = 1;
        if (!(tthit && t.depth >= rd && t.bound == TT_UPPER && score_from_tt(t.score, ply) < rb)) {
            int v = cd_search_node(s, pos, rb - 1, rb, rd, ply, quiet);
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
    if (sp->se_depth && depth >= sp->se_depth && ply > 0 && tthit && t.move >= 0 &&
        t.bound != TT_UPPER && t.depth >= depth - 3) {
        int ts = score_from_tt(t.score, ply);
        if (abs(ts) < CD_SCORE_WIN - 1000) {
            int sb = ts - sp->se_margin * depth;
            s->se_skip[ply] = t.move + 1;
            int v = cd_search_node(s, pos, sb - 1, sb, depth > 2 ? (depth - 1) / 2 : 1, ply, quiet);
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
    int rfpnode = quietnode && depth <= sp->rfp_depth && sp->rfp_margin;
    int corrnode = s->corr_pct && ply > 0 && !capture && !skip && abs(beta) < CD_SCORE_WIN - 1000;
    int sev = rfpnode || corrnode ? static_value(s, pos) : 0;
    if (rfpnode && sev - sp->rfp_margin * depth >= beta)
        return sev - sp->rfp_margin * depth;
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
        int newdepth = depth - 1 + (sp->single && n == 1 && ply < 2 * depth + 8);
        if (singular && n > 1 && m->reserved == ttmove && ply < 2 * depth + 8)
            newdepth++;
        int v;
        if (searched == 0) {
            v = child(s, pos, &next, alpha, beta, newdepth, ply, q);
        } else {
            /* 7. late move reductions (10: by a table of depth and move number) */
            int red = 0;
            int from = pvnode || !sp->lmr_from ? 2 : sp->lmr_from;
            if (depth >= 3 && !capture && searched >= from && !(m->flags & CD_MOVE_PROMOTES) &&
                score[i] < (1 << 24) - 1) {
                red = e->lmr[depth < 63 ? depth : 63][searched < 63 ? searched : 63] - pvnode;
                if (!pvnode && sp->lmr_from && red < 1) /* at least one ply ("lmrfrom") */
                    red = 1;
                if (!pvnode && s->lmr2_from && searched >= s->lmr2_from && red < 2)
                    red = 2; /* 52: at least two plies ("lmr2from") */
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

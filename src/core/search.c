/*
 * search.c -- iterative deepening principal variation search.
 *
 * The steps, in the order a node runs them, what each is for, and what it
 * gained (condraughts match, 200 games from every 3-move opening, 20,000
 * nodes a move, the engine against itself with the step switched off by
 * cd_engine_set_option; Elo with 95% interval):
 *  1. Draws: repetition of a position since the last capture or man move
 *     (twofold inside the search), and the variant's no-progress rule.
 *  2. Terminal positions: no legal move loses (wins in antidraughts); in
 *     breakthrough the side that just crowned a king has won.
 *  3. Quiescence: at depth 0 a position with a capture is not quiet, so the
 *     (compulsory) captures are searched on at depth 0; a quiet position
 *     returns the static evaluation.
 *  4. Transposition table: cut-offs at non-PV nodes, and the stored move is
 *     tried first. Not probed in quiescence (memory latency, measured).
 *  5. Move ordering: table move, then killers, then the history heuristic
 *     (killers + history: +58 [+23, +94] in International).
 *  6. PVS: the first move with the full window, the rest with a null window
 *     and a re-search on fail-high.
 *  7. Late move reductions: quiet moves late in the list at depth >= 3 are
 *     searched one ply (two ply very late) shallower first
 *     (+56 [+20, +94] International, +85 [+38, +135] Constitutional).
 *  8. A forced single reply is searched one ply deeper.
 * Iterative deepening adds aspiration windows from depth 4 (+21 [-17, +59]:
 * not shown to help yet), a soft time limit checked between iterations and a
 * hard one checked every 1024 nodes. Steps 5, 7, 8 and the aspiration windows
 * together: +125 [+85, +169] International, +115 [+68, +167] Constitutional.
 */
#include <stdlib.h>
#include <string.h>
#include <threads.h>
#include <time.h>

#include "board.h"
#include "engine.h"
#include "game.h"
#include "movegen.h"

#define INF      32000
#define HIST_MAX 1024

typedef struct search {
    cd_engine *e;
    const cd_rules *r;
    uint64_t nodes, node_limit;
    long long start, soft, hard;
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
    if (atomic_load(&e->stop)) {
        s->stopped = 1;
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

static int is_draw(const search *s, int ply, int quiet)
{
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

/* Move ordering scores. */
static void score_moves(const search *s, const cd_position *pos, const cd_movelist *list,
                        int ttmove, int ply, int *score)
{
    const cd_engine *e = s->e;
    for (int i = 0; i < list->count; i++) {
        const cd_move *m = &list->moves[i];
        int v;
        if (i == ttmove)
            v = 1 << 30;
        else if (m->ncaptured)
            v = (1 << 25) + m->ncaptured * 16 + ((m->flags & CD_MOVE_PROMOTES) ? 8 : 0);
        else if (e->use_killers && cd_move_equal(m, &e->killers[ply][0]))
            v = 1 << 24;
        else if (e->use_killers && cd_move_equal(m, &e->killers[ply][1]))
            v = (1 << 24) - 1;
        else
            v = (e->use_history ? e->history[pos->side][m->from & 127][m->to & 127] : 0) +
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

/* The value of child `next` of `pos` for the side to move in pos, in the window (alpha, beta):
 * negamax, except under the two-move rule, where the same side may move again in the child. */
static inline int child(search *s, const cd_position *pos, const cd_position *next, int alpha,
                        int beta, int depth, int ply, int quiet)
{
    if (next->side == pos->side)
        return search_node(s, next, alpha, beta, depth, ply + 1, quiet);
    return -search_node(s, next, -beta, -alpha, depth, ply + 1, quiet);
}

static int search_node(search *s, const cd_position *pos, int alpha, int beta, int depth, int ply,
                       int quiet)
{
    cd_engine *e = s->e;
    int pvnode = beta - alpha > 1;
    s->pvlen[ply] = 0;
    if ((++s->nodes & 1023) == 0)
        check_time(s);
    if (s->stopped)
        return 0;
    if (ply > s->seldepth)
        s->seldepth = ply;

    /* 1. draws */
    s->keys[s->base + ply] = pos->key;
    if (ply > 0 && is_draw(s, ply, quiet))
        return 0;

    /* 2. terminal positions */
    const cd_rules *r = s->r;
    if (r->goal == CD_GOAL_BREAKTHROUGH) {
        const uint64_t *them = pos->side == CD_WHITE ? pos->black : pos->white;
        if ((them[0] & pos->kings[0]) | (them[1] & pos->kings[1]))
            return -CD_SCORE_WIN + ply;
    }
    /* 2b. endgame tables: the exact value with the distance (not at the root, which needs
     * a move: there the children's exact values choose the fastest win or slowest loss) */
    if (e->egtb && ply > 0 &&
        __builtin_popcountll(pos->white[0] | pos->black[0]) <= CD_EGTB_MAX_PIECES) {
        int d, v = cd_egtb_probe(e->egtb, pos, &d);
        if (v == CD_EGTB_WIN)
            return CD_SCORE_WIN - ply - d;
        if (v == CD_EGTB_LOSS)
            return -CD_SCORE_WIN + ply + d;
        if (v == CD_EGTB_DRAW)
            return 0;
    }
    cd_movelist list;
    int n = cd_generate(pos, &list);
    if (n == 0)
        return r->goal == CD_GOAL_LOSING ? CD_SCORE_WIN - ply : -CD_SCORE_WIN + ply;
    if (ply >= CD_MAX_PLY - 1)
        return cd_engine_evaluate(e, pos);
    int capture = list.moves[0].ncaptured > 0;

    /* 3. quiescence */
    if (depth <= 0 && !capture)
        return cd_engine_evaluate(e, pos);
    if (depth < 0)
        depth = 0;

    /* 4. transposition table */
    int ttmove = -1;
    tt_entry *t = depth > 0 ? cd_tt_probe(e, pos->key) : NULL; /* not in quiescence */
    if (t) {
        if (t->move >= 0 && t->move < n)
            ttmove = t->move;
        int ts = score_from_tt(t->score, ply);
        if (e->use_ttcut && !pvnode && ply > 0 && t->depth >= depth &&
            (t->bound == TT_EXACT || (t->bound == TT_LOWER && ts >= beta) ||
             (t->bound == TT_UPPER && ts <= alpha)))
            return ts;
    }

    /* 5. ordering */
    int score[CD_MAX_MOVES];
    /* remember generator indices: the table stores the index of the original list */
    int index[CD_MAX_MOVES];
    for (int i = 0; i < n; i++)
        index[i] = i;
    score_moves(s, pos, &list, ttmove, ply, score);

    int best = -INF, bestidx = -1, searched = 0;
    int alpha0 = alpha;
    for (int i = 0; i < n; i++) {
        int bi = i;
        for (int j = i + 1; j < n; j++)
            if (score[j] > score[bi])
                bi = j;
        if (bi != i) {
            cd_move m = list.moves[i];
            list.moves[i] = list.moves[bi];
            list.moves[bi] = m;
            int tmp = score[i];
            score[i] = score[bi];
            score[bi] = tmp;
            tmp = index[i];
            index[i] = index[bi];
            index[bi] = tmp;
        }
        const cd_move *m = &list.moves[i];
        if (ply == 0 && excluded(s, m))
            continue;
        cd_position next;
        cd_play(pos, m, &next);
        __builtin_prefetch(&e->tt[next.key & e->tt_mask]);
        int irreversible = m->ncaptured || !(m->flags & CD_MOVE_KING);
        int q = irreversible ? 0 : quiet + 1;
        /* a forced single reply costs nothing: search it one ply deeper */
        int newdepth = depth - 1 + (e->use_single && n == 1 && depth > 0 && ply < 2 * depth + 8);
        int v;
        if (searched == 0) {
            v = child(s, pos, &next, alpha, beta, newdepth, ply, q);
        } else {
            /* 7. late move reductions */
            int red = 0;
            if (e->use_lmr && depth >= 3 && !capture && searched >= 3 &&
                !(m->flags & CD_MOVE_PROMOTES) && score[i] < (1 << 24) - 1)
                red = searched >= 8 ? 2 : 1;
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
            bestidx = index[i];
            if (v > alpha) {
                alpha = v;
                s->pv[ply][0] = *m;
                memcpy(&s->pv[ply][1], s->pv[ply + 1], (size_t)s->pvlen[ply + 1] * sizeof(cd_move));
                s->pvlen[ply] = s->pvlen[ply + 1] + 1;
                if (v >= beta) {
                    if (!m->ncaptured && ply <= CD_MAX_PLY) {
                        if (!cd_move_equal(m, &e->killers[ply][0])) {
                            e->killers[ply][1] = e->killers[ply][0];
                            e->killers[ply][0] = *m;
                        }
                        int *h = &e->history[pos->side][m->from & 127][m->to & 127];
                        *h += depth * depth;
                        if (*h > (1 << 22))
                            for (int a = 0; a < 2; a++)
                                for (int b = 0; b < 128; b++)
                                    for (int c = 0; c < 128; c++)
                                        e->history[a][b][c] /= 2;
                    }
                    break;
                }
            }
        }
    }
    if (searched == 0) /* every root move excluded (multipv beyond the move count) */
        return -INF;
    int bound = best >= beta ? TT_LOWER : best > alpha0 ? TT_EXACT : TT_UPPER;
    if (depth > 0)
        cd_tt_store(e, pos->key, score_to_tt(best, ply), bestidx, depth, bound);
    return best;
}

void cd_engine_stop(cd_engine *e) { atomic_store(&e->stop, 1); }

void cd_engine_ponderhit(cd_engine *e)
{
    atomic_store(&e->ponderhit_ms, cd_now_ms());
    atomic_store(&e->pondering, 0);
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
    e->use_lmr = e->use_aspiration = e->use_killers = e->use_history = e->use_ttcut =
        e->use_single = 1;
    atomic_init(&e->stop, 0);
    atomic_init(&e->pondering, 0);
    atomic_init(&e->ponderhit_ms, 0);
    return e;
}

cd_result cd_engine_set_option(cd_engine *e, const char *name, int value)
{
    static const char *names[] = {"lmr",   "aspiration", "killers",     "history",
                                  "ttcut", "single",     "classic-eval"};
    int *fields[] = {&e->use_lmr,   &e->use_aspiration, &e->use_killers,     &e->use_history,
                     &e->use_ttcut, &e->use_single,     &e->use_classic_eval};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (name && !strcmp(name, names[i])) {
            *fields[i] = value != 0;
            return CD_OK;
        }
    return CD_ERR_ARG;
}

void cd_engine_set_egtb(cd_engine *e, cd_egtb *tb) { e->egtb = tb; }

void cd_engine_free(cd_engine *e)
{
    if (!e)
        return;
    free(e->tt);
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
    info.nodes = s->nodes;
    long long ms = cd_now_ms() - s->start;
    info.time = (double)ms / 1000.0;
    info.nps = ms > 0 ? (double)s->nodes * 1000.0 / (double)ms : 0.0;
    info.pvlen = s->pvlen[0];
    memcpy(info.pv, s->pv[0], (size_t)s->pvlen[0] * sizeof(cd_move));
    fn(&info, user);
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
    s->start = cd_now_ms();
    s->node_limit = limits->nodes;
    cd_time_budget(limits, root->side, &s->soft, &s->hard);
    atomic_store(&e->pondering, limits->ponder ? 1 : 0);
    atomic_store(&e->ponderhit_ms, 0);
    e->age++;

    /* history since the last irreversible move */
    int quiet = g->quiet[g->ply];
    if (quiet > HIST_MAX - 1)
        quiet = HIST_MAX - 1;
    for (int i = 0; i <= quiet; i++)
        s->keys[i] = g->pos[g->ply - quiet + i].key;
    s->base = quiet;

    if (cd_game_status(g, NULL) != CD_ONGOING) {
        free(s);
        atomic_store(&e->stop, 0);
        return CD_ERR_ARG;
    }
    cd_movelist *rootlist = malloc(sizeof *rootlist);
    if (!rootlist) {
        free(s);
        return CD_ERR_OVERFLOW;
    }
    int nroot = cd_generate(root, rootlist);
    out->best = rootlist->moves[0];
    out->has_move = 1;
    int maxdepth = limits->depth > 0 ? limits->depth : CD_MAX_PLY - 8;
    if (maxdepth > CD_MAX_PLY - 8)
        maxdepth = CD_MAX_PLY - 8;
    int lines = limits->multipv > 1 ? limits->multipv : 1;
    if (lines > nroot)
        lines = nroot;
    cd_move *chosen = calloc((size_t)lines, sizeof *chosen);
    int prev = 0;
    for (int depth = 1; depth <= maxdepth && !s->stopped; depth++) {
        s->seldepth = 0;
        for (int line = 1; line <= lines; line++) {
            s->exclude = chosen;
            s->nexclude = line - 1;
            int score;
            int window = 30;
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
        /* soft limit: no new iteration; a single legal move needs no search */
        if (!atomic_load(&e->pondering) && s->soft >= 0) {
            long long start = s->start, ph = atomic_load(&e->ponderhit_ms);
            if (ph > start)
                start = ph;
            if (cd_now_ms() - start >= s->soft || nroot == 1)
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
    out->nodes = s->nodes;
    out->time = (double)(cd_now_ms() - s->start) / 1000.0;
    atomic_store(&e->stop, 0);
    atomic_store(&e->pondering, 0);
    free(chosen);
    free(rootlist);
    free(s);
    return CD_OK;
}

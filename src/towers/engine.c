/*
 * engine.c -- a small alpha-beta player for tower draughts (towers.h): iterative deepening
 * negamax with alpha-beta, captures and the previous iteration's best move searched first, no
 * transposition table. The evaluation counts material by the top pieces, which are the only
 * ones that can move: a man (soldier) 100, a king (officer) 250 in Bashni (flying) and 180 in
 * Lasca; every piece of the owner's colour right under the top (the reserve that takes over
 * when the top is captured) 40; prisoners 0 to the owner and 10 to the captor; plus a small
 * bonus for a man's progress towards the promotion row. Deterministic.
 */
#include "towers.h"

#include <stdlib.h>
#include <string.h>

typedef struct search {
    uint64_t nodes, max_nodes;
    int aborted;
} search;

int cd_tw_evaluate(const cd_tw_pos *p)
{
    int game = p->game, w = cd_tw_width((cd_tw_game)game);
    int king_value = game == CD_TW_BASHNI ? 250 : 180;
    int score[2] = {0, 0};
    for (uint32_t b = p->top[0] | p->top[1]; b; b &= b - 1) {
        int sq = __builtin_ctz(b);
        uint64_t st = p->stack[sq];
        int h = p->height[sq];
        int c = (int)(st & 1);
        int v = (st & 2) ? king_value : 100;
        if (!(st & 2)) {
            int rank = cd_tw_square_rank((cd_tw_game)game, sq);
            v += 3 * (c ? w - 1 - rank : rank);
        }
        int k = 1;
        while (k < h && (int)(st >> (2 * k) & 1) == c) {
            v += 40;
            k++;
        }
        v += 10 * (h - k); /* prisoners */
        score[c] += v;
    }
    return score[p->side] - score[p->side ^ 1];
}

static int negamax(search *s, cd_tw_pos *p, int depth, int alpha, int beta, int ply,
                   cd_tw_move *first)
{
    s->nodes++;
    if (s->max_nodes && s->nodes > s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    cd_tw_move *moves;
    long n;
    if (cd_tw_generate_all(p, &moves, &n) != CD_OK) {
        s->aborted = 1;
        return 0;
    }
    if (!n) {
        free(moves);
        return -CD_TW_WIN + ply;
    }
    /* a capture is not a quiet position: look one ply further (at most 8 plies) */
    if (depth <= 0 && (!moves[0].njumps || depth <= -8)) {
        free(moves);
        return cd_tw_evaluate(p);
    }
    if (first) /* previous iteration's best move first */
        for (long i = 0; i < n; i++)
            if (!memcmp(&moves[i], first, sizeof *first)) {
                cd_tw_move t = moves[0];
                moves[0] = moves[i];
                moves[i] = t;
                break;
            }
    int best = -CD_TW_WIN - 1;
    for (long i = 0; i < n; i++) {
        cd_tw_make(p, &moves[i]);
        int v = -negamax(s, p, depth - 1, -beta, -alpha, ply + 1, NULL);
        cd_tw_unmake(p, &moves[i]);
        if (s->aborted)
            break;
        if (v > best) {
            best = v;
            if (first && ply == 0)
                *first = moves[i];
        }
        if (v > alpha)
            alpha = v;
        if (alpha >= beta)
            break;
    }
    free(moves);
    return best;
}

void cd_tw_search(const cd_tw_pos *p0, int depth, uint64_t max_nodes, cd_tw_search_result *out)
{
    memset(out, 0, sizeof *out);
    cd_tw_pos p = *p0;
    cd_tw_move *moves;
    long n;
    if (cd_tw_generate_all(&p, &moves, &n) != CD_OK || !n) {
        out->score = -CD_TW_WIN;
        free(moves);
        return;
    }
    out->has_move = 1;
    out->best = moves[0];
    free(moves);
    search s = {0, max_nodes, 0};
    cd_tw_move best = out->best;
    for (int d = 1; d <= depth; d++) {
        cd_tw_move cand = best;
        int v = negamax(&s, &p, d, -CD_TW_WIN - 1, CD_TW_WIN + 1, 0, &cand);
        if (s.aborted)
            break;
        best = cand;
        out->best = best;
        out->score = v;
        out->depth = d;
        if (v > CD_TW_WIN - 1000 || v < -CD_TW_WIN + 1000)
            break; /* a forced result: deeper search cannot change it */
    }
    out->nodes = s.nodes;
}

/*
 * egtb_verify.c -- check built tablebases against forward moves.
 *
 * The builder works backwards (un-moves of the side that just moved); this
 * check works forwards with the public move generator only. For every K-th
 * position of every table found (both sides to move), the stored value must be
 * the minimax of its successors' values, probed from the tables:
 *   - no legal move: the goal's terminal value at distance 0;
 *   - win in d: some move leads to a loss in d - 1, none to a faster loss;
 *   - loss in d: every move leads to a win, the slowest in d - 1;
 *   - draw: no move leads to a loss, and some move leads to a draw.
 * A table that passes this for every position is exactly the retrograde
 * solution (values and distances are then fixed by induction on distance, and
 * draws are the positions where neither side can force the end). Used on
 * every position of small tables in `make test` and on samples of large ones
 * (`make egtb-verify`).
 *
 * usage: egtb_verify --dir D --variant V [--pieces P] [--every K]
 * Prints one line per table and a summary; exit status 1 on any mismatch.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "condraughts.h"

typedef struct verify {
    cd_egtb *tb;
    const cd_rules *rules;
    uint64_t every, seen, checked, bad, unknown;
    cd_movelist list;
} verify;

static int terminal_value(const cd_rules *r)
{
    return r->goal == CD_GOAL_LOSING ? CD_EGTB_WIN : CD_EGTB_LOSS;
}

static void report_bad(verify *V, const cd_position *pos, int v, int d, const char *why)
{
    if (V->bad++ < 10) {
        char fen[256];
        cd_position_to_fen(pos, 0, fen, sizeof fen);
        fprintf(stderr, "egtb_verify: %s: table says %d/%d: %s\n", fen, v, d, why);
    }
}

static int check_one(const cd_position *pos, int v, int d, void *user)
{
    verify *V = user;
    if (V->seen++ % V->every)
        return 0;
    V->checked++;
    int n = cd_generate(pos, &V->list);
    if (n == 0) {
        if (v != terminal_value(V->rules) || d != 0)
            report_bad(V, pos, v, d, "no legal move but not a terminal value");
        return 0;
    }
    int fastest_loss = -1, slowest_win = -1, draws = 0;
    for (int i = 0; i < n; i++) {
        cd_position c;
        cd_play(pos, &V->list.moves[i], &c);
        int cd, cv = cd_egtb_probe(V->tb, &c, &cd);
        if (cv == CD_EGTB_UNKNOWN) {
            V->unknown++;
            return 0; /* a successor table is missing: cannot judge */
        }
        if (cv == CD_EGTB_LOSS && (fastest_loss < 0 || cd < fastest_loss))
            fastest_loss = cd;
        else if (cv == CD_EGTB_DRAW)
            draws++;
        else if (cv == CD_EGTB_WIN && cd > slowest_win)
            slowest_win = cd;
    }
    if (v == CD_EGTB_WIN) {
        if (fastest_loss < 0)
            report_bad(V, pos, v, d, "a win without a move to a lost position");
        else if (fastest_loss + 1 != d)
            report_bad(V, pos, v, d, "win distance is not 1 + the fastest lost successor");
    } else if (v == CD_EGTB_LOSS) {
        if (fastest_loss >= 0 || draws)
            report_bad(V, pos, v, d, "a loss with a move that does not lose");
        else if (slowest_win + 1 != d)
            report_bad(V, pos, v, d, "loss distance is not 1 + the slowest won successor");
    } else if (v == CD_EGTB_DRAW) {
        if (fastest_loss >= 0)
            report_bad(V, pos, v, d, "a draw with a move to a lost position");
        else if (!draws)
            report_bad(V, pos, v, d, "a draw whose every move loses");
    } else {
        report_bad(V, pos, v, d, "unknown value in its own table");
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr, "usage: egtb_verify --dir D --variant V [--pieces P] [--every K]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    const char *dir = NULL, *variant = NULL;
    int pieces = CD_EGTB_MAX_PIECES;
    uint64_t every = 1;
    for (int i = 1; i < argc; i++) {
        if (i + 1 >= argc)
            usage();
        if (!strcmp(argv[i], "--dir"))
            dir = argv[++i];
        else if (!strcmp(argv[i], "--variant"))
            variant = argv[++i];
        else if (!strcmp(argv[i], "--pieces"))
            pieces = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--every"))
            every = strtoull(argv[++i], NULL, 10);
        else
            usage();
    }
    const cd_rules *r = variant ? cd_rules_find(variant) : NULL;
    if (!dir || !r || every < 1 || pieces < 2 || pieces > CD_EGTB_MAX_PIECES)
        usage();
    verify *V = calloc(1, sizeof *V);
    if (!V)
        return 2;
    V->rules = r;
    V->every = every;
    V->tb = cd_egtb_open(r, dir);
    if (!V->tb) {
        fprintf(stderr, "egtb_verify: no tables for %s\n", variant);
        return 2;
    }
    int tables = 0;
    uint64_t total = 0;
    for (int np = 2; np <= pieces; np++)
        for (int wk = 0; wk <= np; wk++)
            for (int wm = 0; wk + wm <= np; wm++)
                for (int bk = 0; wk + wm + bk <= np; bk++) {
                    int bm = np - wk - wm - bk;
                    int w = wk + wm, b = bk + bm;
                    if (!w || !b || w < b || (w == b && wk < bk))
                        continue; /* only the stored (canonical) signatures */
                    cd_egtb_material m = {wk, wm, bk, bm};
                    uint64_t before = V->checked, bad = V->bad;
                    int ok = 1;
                    for (int side = 0; side < 2 && ok; side++)
                        ok = cd_egtb_each(V->tb, m, side, check_one, V, NULL, 0) == CD_OK;
                    if (!ok)
                        continue; /* not built */
                    tables++;
                    total += V->checked - before;
                    printf("egtb_verify %s: %dK%dM v %dK%dM: %llu positions checked, %llu bad\n",
                           variant, wk, wm, bk, bm, (unsigned long long)(V->checked - before),
                           (unsigned long long)(V->bad - bad));
                }
    printf("egtb_verify %s: %d tables, %llu positions checked against their successors (every "
           "%llu), %llu mismatches, %llu not judged (a successor table missing)\n",
           variant, tables, (unsigned long long)total, (unsigned long long)every,
           (unsigned long long)V->bad, (unsigned long long)V->unknown);
    int status = V->bad || !tables;
    if (!tables)
        fprintf(stderr, "egtb_verify: no %s tables of up to %d pieces in %s\n", variant, pieces,
                dir);
    cd_egtb_close(V->tb);
    free(V);
    return status;
}

/*
 * bench.c -- the functional signature of the engine: fixed positions from
 * several variants, searched to a fixed depth with one thread and a cleared
 * 16 MiB table. The total node count changes whenever the search or the
 * evaluation changes behaviour; tests/bench.expected holds it.
 */
#include <stdlib.h>

#include "engine.h"

static const struct {
    const char *variant, *fen;
} positions[] = {
    {"international", "W:W31-50:B1-20"},
    {"international", "W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38"},
    {"international", "B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46"},
    {"constitutional", "W:W31-50:B1-20"},
    {"constitutional", "W:WK29:BK19"},
    {"constitutional", "W:WK46,K47:BK3"},
    {"constitutional", "W:WK10,K16,K48,K49:BK1,K6,K45"},
    {"killer", "W:W28,32,33,37,38,K50:B12,13,17,19,K3"},
    {"russian", "W:W21-32:B1-12"},
    {"brazilian", "W:W17,21,22,24,25,26,28,29,30,31:B1,2,3,5,6,8,9,10,11,13"},
    {"english", "B:W21-32:B1-12"},
    {"italian", "W:W21-32:B1-12"},
    {"canadian", "W:W43-72:B1-30"},
};

void cd_bench(const cd_eval *ev, int depth, uint64_t *nodes, double *seconds)
{
    cd_engine *e = cd_engine_new(16);
    if (e)
        cd_engine_set_eval(e, ev);
    uint64_t total = 0;
    long long t0 = cd_now_ms();
    for (size_t i = 0; e && i < sizeof positions / sizeof positions[0]; i++) {
        const cd_rules *r = cd_rules_find(positions[i].variant);
        cd_position p;
        if (cd_position_from_fen(&p, r, positions[i].fen, NULL, 0) != CD_OK)
            continue;
        cd_game *g = cd_game_new(r, &p);
        if (!g)
            continue;
        cd_engine_clear(e);
        cd_limits l = {0};
        l.depth = depth;
        cd_search_result res;
        if (cd_search(e, g, &l, NULL, NULL, &res) == CD_OK)
            total += res.nodes;
        cd_game_free(g);
    }
    cd_engine_free(e);
    *nodes = total;
    *seconds = (double)(cd_now_ms() - t0) / 1000.0;
}

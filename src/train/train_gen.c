/*
 * train_gen.c -- self-play games for the learned evaluation (train gen; pattern.h,
 * docs/training.md), and the trainer's fatal error and clock.
 *
 *   train gen  plays the engine against itself from randomised openings and writes every quiet
 *              position (the side to move has no capture) with the game's result and the search
 *              score. Game j is a function of (seed, j) alone: its opening is 'random-plies'
 *              uniformly random legal moves from the start, redrawn until a depth-4 search scores
 *              it within --balance of equal; then each side searches --nodes nodes a move with a
 *              cleared table, which is deterministic. Games are written in order, so the file is
 *              the same for any --threads. With --egtb the engines search with the endgame tables,
 *              a position the tables know takes their result and the positions before it the
 *              result of the first such position (the labels no longer depend on whether 1,500
 *              nodes find the win of a won ending); the game is still played out.
 *              With --corpus the games are also (or only) kept as a corpus file (train_corpus.c),
 *              written whole at the end; --first numbers the games from J, so chunks of one
 *              long run can be played apart. The other subcommands: train.h.
 *
 * The files (data file, corpus): docs/formats.md.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "board.h"
#include "condraughts.h"
#include "engine.h"
#include "pattern.h"
#include "pool.h"
#include "train_data.h"

/* ------------------------------------------------------------------ gen */

typedef struct game_out {
    record *rec;
    int n;
    corpus_buf game; /* the game in the corpus's form (with --corpus) */
} game_out;

typedef struct gen_shared {
    const gen_options *c;
    game_out *out;
    atomic_int *finished; /* [game] 1 once out[game] is complete */
    atomic_long next, done, positions, adjudicated;
} gen_shared;

/* A randomised opening for game j: plies uniformly random legal moves, kept when a depth-4
 * search scores it within the balance. */
static cd_game *opening(const gen_options *c, cd_engine *e, uint64_t *rng)
{
    cd_position start;
    cd_position_start(&start, c->rules);
    for (;;) {
        cd_game *g = cd_game_new(c->rules, &start);
        if (!g)
            fail("out of memory");
        long plies = c->lo + (long)(splitmix(rng) % (uint64_t)(c->hi - c->lo + 1));
        int ok = 1;
        for (long p = 0; p < plies && ok; p++) {
            cd_movelist list;
            int n = cd_generate(cd_game_position(g), &list);
            if (n == 0 || cd_game_status(g, NULL) != CD_ONGOING) {
                ok = 0;
                break;
            }
            cd_game_play(g, &list.moves[splitmix(rng) % (uint64_t)n]);
        }
        if (ok && cd_game_status(g, NULL) == CD_ONGOING) {
            cd_limits l = {0};
            l.depth = 4;
            cd_search_result res;
            cd_engine_clear(e);
            if (cd_search(e, g, &l, NULL, NULL, &res) == CD_OK && abs(res.score) <= c->balance)
                return g;
        }
        cd_game_free(g);
    }
}

#define UNDECIDED 255 /* a record's result until the game's is known */

/* Game number j played out into out; 1 when the tables decided its result. */
static int play_game(const gen_options *c, cd_engine *e, long j, game_out *out)
{
    uint64_t rng = c->seed * 0x100000001b3ull + (uint64_t)j;
    cd_game *g = opening(c, e, &rng);
    int opening_plies = cd_game_ply(g);
    cd_engine_clear(e);
    size_t cap = 64;
    out->rec = malloc(cap * sizeof *out->rec);
    out->n = 0;
    if (!out->rec)
        fail("out of memory");
    cd_limits l = {0};
    l.nodes = (uint64_t)c->nodes;
    int result = 1, first_known = -1; /* the result of the first position the tables know */
    for (;;) {
        cd_status st = cd_game_status(g, NULL);
        if (st != CD_ONGOING) {
            result = st == CD_WHITE_WINS ? 2 : st == CD_BLACK_WINS ? 0 : 1;
            break;
        }
        if (cd_game_ply(g) >= c->max_plies)
            break;
        const cd_position *p = cd_game_position(g);
        int v = c->tb ? cd_egtb_probe(c->tb, p, NULL) : CD_EGTB_UNKNOWN, known = -1;
        if (v != CD_EGTB_UNKNOWN) {
            int white_wins = (v == CD_EGTB_WIN) == (p->side == CD_WHITE);
            known = v == CD_EGTB_DRAW ? 1 : white_wins ? 2 : 0;
            if (first_known < 0)
                first_known = known;
        }
        cd_search_result res;
        if (cd_search(e, g, &l, NULL, NULL, &res) != CD_OK || !res.has_move)
            break;
        cd_movelist list;
        int n = cd_generate(p, &list);
        if (n > 0 && list.moves[0].ncaptured == 0) {
            if ((size_t)out->n == cap) {
                cap *= 2;
                record *bigger = realloc(out->rec, cap * sizeof *out->rec);
                if (!bigger)
                    fail("out of memory");
                out->rec = bigger;
            }
            record *r = &out->rec[out->n++];
            *r = (record){p->white[0],
                          p->black[0],
                          p->kings[0],
                          (uint32_t)j,
                          white_score(p->side, res.score),
                          (uint16_t)cd_game_ply(g),
                          (uint8_t)p->side,
                          (uint8_t)(known < 0 ? UNDECIDED : known),
                          0};
        }
        cd_game_play(g, &res.best);
    }
    if (first_known >= 0)
        result = first_known;
    for (int i = 0; i < out->n; i++)
        if (out->rec[i].result == UNDECIDED)
            out->rec[i].result = (uint8_t)result;
    if (c->corpus)
        corpus_put_game(&out->game, g, (uint32_t)j, opening_plies, result, out->rec, out->n);
    cd_game_free(g);
    return first_known >= 0;
}

static int gen_worker(void *arg)
{
    gen_shared *s = arg;
    cd_engine *e = cd_engine_new(16);
    if (!e)
        fail("out of memory (engine)");
    cd_engine_set_eval(e, s->c->eval);
    if (s->c->classic)
        cd_engine_set_option(e, "classic-eval", 1);
    cd_engine_set_egtb(e, s->c->tb);
    for (;;) {
        long j = atomic_fetch_add(&s->next, 1);
        if (j >= s->c->games)
            break;
        if (play_game(s->c, e, s->c->first + j, &s->out[j]))
            atomic_fetch_add(&s->adjudicated, 1);
        atomic_store(&s->finished[j], 1);
        atomic_fetch_add(&s->positions, s->out[j].n);
        atomic_fetch_add(&s->done, 1);
    }
    cd_engine_free(e);
    return 0;
}

/* The games written so far, in order: to the data file (f, NULL without --out) and the corpus
 * (with --corpus, written when the last game is in). */
typedef struct writer {
    FILE *f;
    int corpus;
    corpus_buf games;
    uint64_t records;
    long written;
    long wins[3]; /* games written by result: Black won, drawn, White won */
} writer;

static void writer_open(writer *w, const gen_options *c)
{
    memset(w, 0, sizeof *w);
    if (c->out)
        w->f = train_create(c->out, c->rules);
    if ((w->corpus = c->corpus != NULL))
        corpus_begin(&w->games, c);
}

/* Append the finished games that follow the written prefix; free their records. */
static void writer_flush(writer *w, game_out *out, const atomic_int *finished, long games)
{
    long before = w->written;
    while (w->written < games && atomic_load(&finished[w->written])) {
        game_out *o = &out[w->written++];
        for (int i = 0; i < o->n && w->f; i++)
            train_put(w->f, &o->rec[i]);
        w->records += (uint64_t)o->n;
        if (o->n)
            w->wins[o->rec[0].result]++;
        if (w->corpus)
            corpus_append(&w->games, &o->game);
        free(o->rec);
        o->rec = NULL;
    }
    if (w->written != before && w->f)
        train_set_count(w->f, w->records);
}

_Noreturn void train_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fflush(stdout);
    fputs("condraughts train: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

double train_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* The run's state as the pool's tick sees it. */
typedef struct gen_run {
    gen_shared s;
    writer wr;
    double t0;
} gen_run;

/* Once a second while the games are played: the progress line, the finished games written in
 * order; 1 once every game is. */
static int gen_tick(void *arg)
{
    gen_run *run = arg;
    const gen_options *c = run->s.c;
    long done = atomic_load(&run->s.done);
    char extra[64];
    snprintf(extra, sizeof extra, "%ld positions", atomic_load(&run->s.positions));
    train_progress("gen", (size_t)done, (size_t)c->games, "games", extra, run->t0);
    writer_flush(&run->wr, run->s.out, run->s.finished, c->games);
    return done >= c->games;
}

void train_progress(const char *name, size_t done, size_t total, const char *unit,
                    const char *extra, double t0)
{
    double el = train_now() - t0;
    double rate = el > 0 ? (double)done / el : 0;
    fprintf(stderr, "\rtrain %s: %zu/%zu %s, %s%s%.1f/s, eta %.0f s   ", name, done, total, unit,
            extra, *extra ? ", " : "", rate, rate > 0 ? (double)(total - done) / rate : 0.0);
}

int train_gen(const gen_options *o)
{
    gen_options c = *o;
    if (c.lo < 0) {
        c.lo = 4;
        c.hi = c.rules->geometry == CD_GEOM_10X10 ? 10 : 8;
    }
    gen_run run = {.s = {&c, calloc((size_t)c.games, sizeof(game_out)),
                         calloc((size_t)c.games, sizeof(atomic_int)), 0, 0, 0, 0}};
    if (!run.s.out || !run.s.finished)
        fail("out of memory");
    writer_open(&run.wr, &c);
    run.t0 = train_now();
    cd_pool_run((int)c.threads, gen_worker, &run.s, 0, gen_tick, &run);
    fputc('\n', stderr);
    for (long j = 0; j < c.games; j++) {
        free(run.s.out[j].rec);
        free(run.s.out[j].game.data);
    }
    writer *wr = &run.wr;
    if (wr->f && fclose(wr->f) != 0)
        fail("cannot write %s", c.out);
    if (wr->corpus)
        corpus_write(&wr->games, c.corpus);
    printf("wrote %s%s%s: %ld games (White won %ld, drawn %ld, Black won %ld), %ld positions, "
           "%.0f s\n",
           c.out ? c.out : "", c.out && c.corpus ? " and " : "", c.corpus ? c.corpus : "",
           c.games, wr->wins[2], wr->wins[1], wr->wins[0], atomic_load(&run.s.positions),
           train_now() - run.t0);
    if (c.tb)
        printf("%ld games ended by the endgame tables (up to %d pieces met)\n",
               atomic_load(&run.s.adjudicated), cd_egtb_pieces(c.tb));
    free(run.s.out);
    free(run.s.finished);
    return 0;
}

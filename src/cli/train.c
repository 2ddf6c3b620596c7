/*
 * train.c -- `condraughts train`: making the learned evaluation (pattern.h, docs/training.md).
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
 *   train label  scores a sample of a data file's positions again by a deeper search and writes
 *              the file again with those scores flagged (train_label.c), for a fit whose
 *              search-score target is better than the games' (train fit --deep-lambda).
 *   train siblings  writes, for a sample of a data file's positions, the leaf of every legal
 *              move and the move a deeper search prefers (train_sib.c), for train fit's
 *              ordering target (--siblings).
 *   train fit  fits the weights by logistic regression on the results (optionally mixed with the
 *              search scores, --lambda) with Adam on mini-batches, every position also seen with
 *              colours reversed (the board turned 180 degrees, the result and score negated), and
 *              writes a weights file. The logistic scale K is fitted first to the hand-set
 *              evaluation on the same data, so learned scores stay in hundredths of a man. The
 *              last --valid share of the games is held out and its loss printed each epoch.
 *              With --siblings the loss also has the ordering target (train_fit.c), weighted
 *              by --rank.
 *
 * Data file (little-endian): "CDTD", u32 version 1, char family[16] (train_file_name: the
 * learned family's name, NUL-padded), u64 records; then records of 40 bytes: u64 white, black,
 * kings (internal bitboards, low word), u32 game, i16 score (White's view), u16 ply, u8 side,
 * u8 result (0 Black won, 1 draw, 2 White won), u8 deep (1 if train label scored the position
 * again, 0 if the score is the game's), 5 zero bytes.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "board.h"
#include "cliutil.h"
#include "condraughts.h"
#include "engine.h"
#include "opts.h"
#include "pattern.h"
#include "train.h"
#include "train_data.h"

/* ------------------------------------------------------------------ gen */

typedef struct gen_config {
    const cd_rules *rules;
    long games, nodes, max_plies, lo, hi, balance;
    uint64_t seed;
    int classic;
    cd_egtb *tb; /* the endgame tables (--egtb), or NULL */
} gen_config;

typedef struct game_out {
    record *rec;
    int n;
} game_out;

typedef struct gen_shared {
    const gen_config *c;
    game_out *out;
    atomic_int *finished; /* [game] 1 once out[game] is complete */
    atomic_long next, done, positions, adjudicated;
} gen_shared;

/* A randomised opening for game j: plies uniformly random legal moves, kept when a depth-4
 * search scores it within the balance. */
static cd_game *opening(const gen_config *c, cd_engine *e, uint64_t *rng)
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

/* Game j played out into out; 1 when the tables decided its result. */
static int play_game(const gen_config *c, cd_engine *e, long j, game_out *out)
{
    uint64_t rng = c->seed * 0x100000001b3ull + (uint64_t)j;
    cd_game *g = opening(c, e, &rng);
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
    cd_game_free(g);
    return first_known >= 0;
}

static int gen_worker(void *arg)
{
    gen_shared *s = arg;
    cd_engine *e = cd_engine_new(16);
    if (!e)
        fail("out of memory (engine)");
    if (s->c->classic)
        cd_engine_set_option(e, "classic-eval", 1);
    cd_engine_set_egtb(e, s->c->tb);
    for (;;) {
        long j = atomic_fetch_add(&s->next, 1);
        if (j >= s->c->games)
            break;
        if (play_game(s->c, e, j, &s->out[j]))
            atomic_fetch_add(&s->adjudicated, 1);
        atomic_store(&s->finished[j], 1);
        atomic_fetch_add(&s->positions, s->out[j].n);
        atomic_fetch_add(&s->done, 1);
    }
    cd_engine_free(e);
    return 0;
}

typedef struct writer {
    FILE *f;
    uint64_t records;
    long written;
    long wins[3]; /* games written by result: Black won, drawn, White won */
} writer;

static void writer_open(writer *w, const char *path, const cd_rules *r)
{
    w->f = train_create(path, r);
    memset(w->wins, 0, sizeof w->wins);
    w->records = 0;
    w->written = 0;
}

/* Append the finished games that follow the written prefix; free their records. */
static void writer_flush(writer *w, game_out *out, const atomic_int *finished, long games)
{
    long before = w->written;
    while (w->written < games && atomic_load(&finished[w->written])) {
        game_out *o = &out[w->written++];
        for (int i = 0; i < o->n; i++)
            train_put(w->f, &o->rec[i]);
        w->records += (uint64_t)o->n;
        if (o->n)
            w->wins[o->rec[0].result]++;
        free(o->rec);
        o->rec = NULL;
    }
    if (w->written != before)
        train_set_count(w->f, w->records);
}

/* ------------------------------------------------------------------ the command line */

static int cmd_gen(int argc, char **argv);
static int cmd_fit(int argc, char **argv);
static int cmd_label(int argc, char **argv);
static int cmd_net(int argc, char **argv);
static int cmd_sib(int argc, char **argv);

enum {
    O_VARIANT,
    O_GAMES,
    O_NODES,
    O_RANDOM_PLIES,
    O_BALANCE,
    O_MAX_PLIES,
    O_SEED,
    O_THREADS,
    O_CLASSIC,
    O_OUT,
    O_INIT,
    O_DATA,
    O_EPOCHS,
    O_LR,
    O_BATCH,
    O_LAMBDA,
    O_L2,
    O_VALID,
    O_WIDE,
    O_SHARE,
    O_LIMIT,
    O_DEPTH,
    O_DEEP_LAMBDA,
    O_K,
    O_EGTB,
    O_HIDDEN,
    O_DEEP_ONLY,
    O_SIBLINGS,
    O_RANK,
    O_RANK_TEMP,
    O_LEAF_DEPTH,
    O_MIN_PIECES,
};

#define SEED_MAX 2147483647
/* The families of pattern.c, for --variant's help and its error */
#define FAMILIES                                                                                   \
    "international, constitutional, killer, modern, russian, brazilian, "                          \
    "russian-constitutional or brazilian-constitutional"
#define FAMILY_HELP "a learned family: " FAMILIES

static const cli_opt gen_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_INT_OPT(O_GAMES, "games", "N", 1, 100000000, "games to play"), .required = 1},
    {CLI_INT_OPT(O_NODES, "nodes", "N", 1, 1000000000,
                 "nodes a move for each side (default 2000)")},
    {CLI_TEXT_OPT(O_RANDOM_PLIES, "random-plies", "LO-HI",
                  "random legal moves opening each game, at most 40 (default 4-8; 10x10: 4-10)")},
    {CLI_INT_OPT(O_BALANCE, "balance", "S", 0, 10000,
                 "openings drawn until a depth-4 search scores within S (default 60)")},
    {CLI_INT_OPT(O_MAX_PLIES, "max-plies", "P", 10, 10000,
                 "a game stops after P plies (default 300)")},
    {CLI_INT_OPT(O_SEED, "seed", "S", 0, SEED_MAX,
                 "game j depends on the seed and j alone (default 1)")},
    {CLI_INT_OPT(O_THREADS, "threads", "T", 1, 256,
                 "games played at once; the file is the same for any T (default 1)")},
    {CLI_FLAG_OPT(O_CLASSIC, "classic",
                  "the games played with the hand-set evaluation (default: the learned one)")},
    {CLI_TEXT_OPT(O_EGTB, "egtb", "DIR",
                  "endgame tables: the engines search with them, and a position they know and "
                  "those before it take their result (default: none)")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the data file"), .required = 1},
    {0}};
static const cli_opt fit_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE[,FILE...]", "data files written by train gen"),
     .required = 1},
    {CLI_INT_OPT(O_EPOCHS, "epochs", "E", 1, 10000, "passes over the data (default 10)")},
    {CLI_REAL_OPT(O_LR, "lr", "R", 1e-6, 1000, "Adam's learning rate (default 1.0)")},
    {CLI_INT_OPT(O_BATCH, "batch", "B", 1, 10000000, "positions a mini-batch (default 4096)")},
    {CLI_REAL_OPT(O_LAMBDA, "lambda", "L", 0, 1,
                  "share of the search score in the target (default 0.4)")},
    {CLI_REAL_OPT(O_DEEP_LAMBDA, "deep-lambda", "L", 0, 1,
                  "the same for the positions train label scored (default: --lambda)")},
    {CLI_REAL_OPT(O_K, "k", "K", 1, 100000,
                  "the score scale: a score s predicts sigmoid(s / K) (default: the K that fits "
                  "the hand-set evaluation to the results); with --init, the K that made those "
                  "weights keeps the scale the search's margins assume")},
    {CLI_REAL_OPT(O_L2, "l2", "X", 0, 1, "L2 regularisation (default 0)")},
    {CLI_REAL_OPT(O_VALID, "valid", "F", 0, 0.5,
                  "the last share F of the games held out (default 0.05)")},
    {CLI_INT_OPT(O_SEED, "seed", "S", 0, SEED_MAX, "the random seed (default 1)")},
    {CLI_TEXT_OPT(O_INIT, "init", "FILE.cdw",
                  "start from these weights, of this family or another on the same board "
                  "(default: material alone, a man 100, a king 300)")},
    {CLI_FLAG_OPT(O_WIDE, "wide",
                  "the wide layout: 25 windows on 10x10, 13 on 8x8 (--init may hold 16 or 9)")},
    {CLI_TEXT_OPT(O_SIBLINGS, "siblings", "FILE[,FILE...]",
                  "also fit the order of the moves in these files of train siblings: the "
                  "teacher's move's leaf valued above its siblings' (default: none)")},
    {CLI_REAL_OPT(O_RANK, "rank", "W", 0, 1000,
                  "the ordering target's weight against the results' loss (default 0.1)")},
    {CLI_REAL_OPT(O_RANK_TEMP, "rank-temp", "T", 1, 10000,
                  "the ordering target's temperature, hundredths of a man (default 100)")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE.cdw", "the weights file"), .required = 1},
    {0}};

static const cli_opt sib_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE", "a data file written by train gen"), .required = 1},
    {CLI_INT_OPT(O_NODES, "nodes", "N", 1, 1000000000,
                 "nodes the teacher searches for each position (default 50000)")},
    {CLI_INT_OPT(O_LEAF_DEPTH, "leaf-depth", "D", 1, 20,
                 "each move's child searched to D plies for its leaf (default 2)")},
    {CLI_INT_OPT(O_MIN_PIECES, "min-pieces", "P", 0, 100,
                 "positions of P pieces or fewer left out, for the tables know them (default 5)")},
    {CLI_REAL_OPT(O_SHARE, "share", "F", 1e-9, 1,
                  "the share of the positions drawn, by the seed (default 0.05)")},
    {CLI_INT_OPT(O_LIMIT, "limit", "N", 1, 1000000000,
                 "only the first N positions of the file (default: all)")},
    {CLI_INT_OPT(O_SEED, "seed", "S", 0, SEED_MAX, "draws the sample (default 1)")},
    {CLI_INT_OPT(O_THREADS, "threads", "T", 1, 256,
                 "positions searched at once; the file is the same for any T (default 1)")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the siblings file"), .required = 1},
    {0}};

static const cli_opt label_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE", "a data file written by train gen"), .required = 1},
    {CLI_INT_OPT(O_NODES, "nodes", "N", 1, 1000000000,
                 "nodes searched for each position (default 20000)")},
    {CLI_INT_OPT(O_DEPTH, "depth", "D", 1, 100, "search each position to depth D instead")},
    {CLI_REAL_OPT(O_SHARE, "share", "F", 1e-9, 1,
                  "the share of the positions scored again, drawn by the seed (default 0.1)")},
    {CLI_INT_OPT(O_LIMIT, "limit", "N", 1, 1000000000,
                 "only the first N positions of the file (default: all)")},
    {CLI_INT_OPT(O_SEED, "seed", "S", 0, SEED_MAX, "draws the sample (default 1)")},
    {CLI_INT_OPT(O_THREADS, "threads", "T", 1, 256,
                 "positions searched at once; the file is the same for any T (default 1)")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the data file with the new scores"), .required = 1},
    {0}};

static const cli_opt net_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE[,FILE...]", "data files written by train gen"),
     .required = 1},
    {CLI_TEXT_OPT(O_HIDDEN, "hidden", "H1,H2",
                  "units of the two hidden layers (default 128,32; with --init: the file's)")},
    {CLI_INT_OPT(O_EPOCHS, "epochs", "E", 1, 10000, "passes over the data (default 8)")},
    {CLI_REAL_OPT(O_LR, "lr", "R", 1e-7, 1, "Adam's learning rate (default 0.002)")},
    {CLI_INT_OPT(O_BATCH, "batch", "B", 64, 10000000, "positions a mini-batch (default 16384)")},
    {CLI_REAL_OPT(O_LAMBDA, "lambda", "L", 0, 1,
                  "share of the search score in the target (default 0.8)")},
    {CLI_REAL_OPT(O_DEEP_LAMBDA, "deep-lambda", "L", 0, 1,
                  "the same for the positions train label scored (default: --lambda)")},
    {CLI_REAL_OPT(O_K, "k", "K", 1, 100000,
                  "the score scale: a score s predicts sigmoid(s / K); give the K the pattern "
                  "weights were fitted with (default 353, Russian's)")},
    {CLI_REAL_OPT(O_VALID, "valid", "F", 0, 0.5,
                  "the last share F of the games held out (default 0.05)")},
    {CLI_INT_OPT(O_LIMIT, "limit", "N", 100, 2000000000,
                 "only the first N positions (default: all)")},
    {CLI_FLAG_OPT(O_DEEP_ONLY, "deep-only", "only the positions train label scored again")},
    {CLI_INT_OPT(O_SEED, "seed", "S", 0, SEED_MAX, "the random seed (default 1)")},
    {CLI_INT_OPT(O_THREADS, "threads", "T", 1, 8,
                 "threads; the network is the same for any T (default 1)")},
    {CLI_TEXT_OPT(O_INIT, "init", "FILE.cdn",
                  "start from this network (default: random, its "
                  "last layer 0: the pattern weights alone)")},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE.cdn", "the network file"), .required = 1},
    {0}};

static const cli_command gen_cmd = {
    .name = "train gen",
    .about = "Self-play games labelled for the fit of the learned evaluation (docs/training.md).",
    .opts = gen_opts,
    .run = cmd_gen,
};
static const cli_command fit_cmd = {
    .name = "train fit",
    .about = "Fit the learned evaluation's weights to train gen's data (docs/training.md).",
    .opts = fit_opts,
    .run = cmd_fit,
};
static const cli_command label_cmd = {
    .name = "train label",
    .about = "Score a sample of train gen's positions again by a deeper search (docs/training.md).",
    .opts = label_opts,
    .run = cmd_label,
};
static const cli_command net_cmd = {
    .name = "train net",
    .about = "Fit the network stacked on a family's pattern weights to train gen's data "
             "(docs/training.md).",
    .opts = net_opts,
    .run = cmd_net,
};
static const cli_command sib_cmd = {
    .name = "train siblings",
    .about = "Positions with every move's leaf and a deeper search's choice, for train fit's "
             "ordering target (docs/training.md).",
    .opts = sib_opts,
    .run = cmd_sib,
};
static const cli_command *const train_subs[] = {&gen_cmd, &fit_cmd, &label_cmd,
                                                &sib_cmd, &net_cmd, NULL};
const cli_command cd_train_command = {
    .name = "train",
    .about = "Make and fit the learned evaluation (docs/training.md).",
    .subs = train_subs,
};

/* The rules of a variant the learned evaluation has a family for, or an error of cmd. */
static const cd_rules *family_rules(const cli_command *cmd, const char *name)
{
    const cd_rules *r = cli_variant(cmd, name);
    if (cd_pattern_family(r) < 0)
        cli_fail(cmd, "variant '%s' has no learned family (" FAMILIES ")", r->name);
    return r;
}

/* train gen's command line: the games' configuration, the file, the threads. */
typedef struct gen_options {
    gen_config c;
    const char *out, *egtb;
    long threads;
} gen_options;

static void gen_option(void *user, const cli_opt *opt, const cli_value *v)
{
    gen_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->c.rules = family_rules(&gen_cmd, v->text); break;
    case O_GAMES: o->c.games = (long)v->n; break;
    case O_NODES: o->c.nodes = (long)v->n; break;
    case O_MAX_PLIES: o->c.max_plies = (long)v->n; break;
    case O_SEED: o->c.seed = (uint64_t)v->n; break;
    case O_BALANCE: o->c.balance = (long)v->n; break;
    case O_THREADS: o->threads = (long)v->n; break;
    case O_CLASSIC: o->c.classic = 1; break;
    case O_EGTB: o->egtb = v->text; break;
    case O_OUT: o->out = v->text; break;
    case O_RANDOM_PLIES:
        if (sscanf(v->text, "%ld-%ld", &o->c.lo, &o->c.hi) != 2 || o->c.lo < 0 ||
            o->c.hi < o->c.lo || o->c.hi > 40)
            cli_fail(&gen_cmd, "--random-plies takes LO-HI with 0 <= LO <= HI <= 40, not '%s'",
                     v->text);
        break;
    }
}

static void fit_option(void *user, const cli_opt *opt, const cli_value *v)
{
    fit_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = family_rules(&fit_cmd, v->text); break;
    case O_DATA: o->data = v->text; break;
    case O_INIT: o->init = v->text; break;
    case O_WIDE: o->wide = 1; break;
    case O_OUT: o->out = v->text; break;
    case O_EPOCHS: o->epochs = (long)v->n; break;
    case O_BATCH: o->batch = (long)v->n; break;
    case O_LR: o->lr = v->x; break;
    case O_LAMBDA: o->lambda = v->x; break;
    case O_DEEP_LAMBDA: o->deep_lambda = v->x; break;
    case O_K: o->k = v->x; break;
    case O_L2: o->l2 = v->x; break;
    case O_VALID: o->valid = v->x; break;
    case O_SEED: o->seed = (uint64_t)v->n; break;
    case O_SIBLINGS: o->siblings = v->text; break;
    case O_RANK: o->rank = v->x; break;
    case O_RANK_TEMP: o->rank_temp = v->x; break;
    }
}

static void sib_option(void *user, const cli_opt *opt, const cli_value *v)
{
    sib_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = family_rules(&sib_cmd, v->text); break;
    case O_DATA: o->data = v->text; break;
    case O_OUT: o->out = v->text; break;
    case O_NODES: o->nodes = (long)v->n; break;
    case O_LEAF_DEPTH: o->leaf_depth = (long)v->n; break;
    case O_MIN_PIECES: o->min_pieces = (long)v->n; break;
    case O_SHARE: o->share = v->x; break;
    case O_LIMIT: o->limit = (long)v->n; break;
    case O_SEED: o->seed = (uint64_t)v->n; break;
    case O_THREADS: o->threads = (long)v->n; break;
    }
}

static void label_option(void *user, const cli_opt *opt, const cli_value *v)
{
    label_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = family_rules(&label_cmd, v->text); break;
    case O_DATA: o->data = v->text; break;
    case O_OUT: o->out = v->text; break;
    case O_NODES: o->nodes = (long)v->n; break;
    case O_SHARE: o->share = v->x; break;
    case O_LIMIT: o->limit = (long)v->n; break;
    case O_DEPTH: o->depth = (long)v->n; break;
    case O_SEED: o->seed = (uint64_t)v->n; break;
    case O_THREADS: o->threads = (long)v->n; break;
    }
}

static void net_option(void *user, const cli_opt *opt, const cli_value *v)
{
    net_options *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = family_rules(&net_cmd, v->text); break;
    case O_DATA: o->data = v->text; break;
    case O_INIT: o->init = v->text; break;
    case O_OUT: o->out = v->text; break;
    case O_EPOCHS: o->epochs = (long)v->n; break;
    case O_BATCH: o->batch = (long)v->n; break;
    case O_LR: o->lr = v->x; break;
    case O_LAMBDA: o->lambda = v->x; break;
    case O_DEEP_LAMBDA: o->deep_lambda = v->x; break;
    case O_K: o->k = v->x; break;
    case O_VALID: o->valid = v->x; break;
    case O_LIMIT: o->limit = (long)v->n; break;
    case O_DEEP_ONLY: o->deep_only = 1; break;
    case O_SEED: o->seed = (uint64_t)v->n; break;
    case O_THREADS: o->threads = (long)v->n; break;
    case O_HIDDEN:
        if (sscanf(v->text, "%ld,%ld", &o->h1, &o->h2) != 2)
            cli_fail(&net_cmd, "--hidden takes H1,H2, not '%s'", v->text);
        o->hidden_given = 1;
        break;
    }
}

static int cmd_gen(int argc, char **argv)
{
    gen_options o = {
        .c = {.nodes = 2000, .max_plies = 300, .seed = 1, .balance = 60, .lo = -1, .hi = -1},
        .threads = 1};
    cli_parse(&gen_cmd, argc, argv, gen_option, &o, NULL, 0);
    if (!o.c.rules || !o.c.games || !o.out)
        cli_fail(&gen_cmd,
                 "needs --variant, --games and --out (try: condraughts train gen --help)");
    /* the engine of the self-play games uses the shipped weights unless --classic */
    if (!o.c.classic)
        cli_load_weights();
    gen_config c = o.c;
    if (o.egtb) {
        cli_egtb_check(&gen_cmd, o.egtb);
        if (!(c.tb = cd_egtb_open(c.rules, o.egtb)))
            cli_fail(&gen_cmd, "variant %s cannot have endgame tables", c.rules->name);
        cd_egtb_stats st; /* the table of a king against a king: the folder holds tables */
        char err[256];
        if (cd_egtb_stats_of(c.tb, (cd_egtb_material){1, 0, 1, 0}, CD_WHITE, &st, err,
                             sizeof err) != CD_OK)
            cli_fail(&gen_cmd,
                     "--egtb %s: no endgame tables of %s there (%s; make them with: "
                     "condraughts egtb build --variant %s --dir %s)",
                     o.egtb, c.rules->name, err, c.rules->name, o.egtb);
    }
    const char *out = o.out;
    long threads = o.threads;
    if (c.lo < 0) {
        c.lo = 4;
        c.hi = c.rules->geometry == CD_GEOM_10X10 ? 10 : 8;
    }
    gen_shared s = {&c,
                    calloc((size_t)c.games, sizeof(game_out)),
                    calloc((size_t)c.games, sizeof(atomic_int)),
                    0,
                    0,
                    0,
                    0};
    if (!s.out || !s.finished)
        fail("out of memory");
    writer wr;
    writer_open(&wr, out, c.rules);

    thrd_t *t = malloc((size_t)threads * sizeof *t);
    if (!t)
        fail("out of memory");
    double t0 = cli_now();
    for (long i = 0; i < threads; i++)
        if (thrd_create(&t[i], gen_worker, &s) != thrd_success)
            fail("cannot start thread %ld", i);
    for (;;) {
        long done = atomic_load(&s.done);
        double el = cli_now() - t0;
        double rate = el > 0 ? done / el : 0;
        fprintf(stderr, "\rtrain gen: %ld/%ld games, %ld positions, %.1f games/s, eta %.0f s   ",
                done, c.games, atomic_load(&s.positions), rate,
                rate > 0 ? (c.games - done) / rate : 0.0);
        writer_flush(&wr, s.out, s.finished, c.games);
        if (done >= c.games)
            break;
        struct timespec ts = {1, 0};
        nanosleep(&ts, NULL);
    }
    fputc('\n', stderr);
    for (long i = 0; i < threads; i++)
        thrd_join(t[i], NULL);
    for (long j = 0; j < c.games; j++)
        free(s.out[j].rec);
    if (fclose(wr.f) != 0)
        fail("cannot write %s", out);
    printf("wrote %s: %ld games (White won %ld, drawn %ld, Black won %ld), %ld positions, %.0f s\n",
           out, c.games, wr.wins[2], wr.wins[1], wr.wins[0], atomic_load(&s.positions),
           cli_now() - t0);
    if (c.tb)
        printf("%ld games ended by the endgame tables (up to %d pieces met)\n",
               atomic_load(&s.adjudicated), cd_egtb_pieces(c.tb));
    cd_egtb_close(c.tb);
    free(s.out);
    free(s.finished);
    free(t);
    return 0;
}

static int cmd_fit(int argc, char **argv)
{
    fit_options o = {.epochs = 10,
                     .batch = 4096,
                     .lr = 1.0,
                     .lambda = 0.4,
                     .deep_lambda = -1,
                     .valid = 0.05,
                     .rank = 0.1,
                     .rank_temp = 100,
                     .seed = 1};
    cli_parse(&fit_cmd, argc, argv, fit_option, &o, NULL, 0);
    if (!o.rules || !o.data || !o.out)
        cli_fail(&fit_cmd, "needs --variant, --data and --out (try: condraughts train fit --help)");
    return train_fit(&o);
}

static int cmd_net(int argc, char **argv)
{
    net_options o = {.epochs = 8,
                     .batch = 16384,
                     .threads = 1,
                     .h1 = 128,
                     .h2 = 32,
                     .lr = 0.002,
                     .lambda = 0.8,
                     .deep_lambda = -1,
                     .valid = 0.05,
                     .k = 353,
                     .seed = 1};
    cli_parse(&net_cmd, argc, argv, net_option, &o, NULL, 0);
    if (!o.rules || !o.data || !o.out)
        cli_fail(&net_cmd, "needs --variant, --data and --out (try: condraughts train net --help)");
    if (o.init && !o.hidden_given)
        o.h1 = o.h2 = 0;
    cli_load_pattern_weights(); /* a network in the folder is not needed, perhaps stale */
    return train_net(&o);
}

static int cmd_label(int argc, char **argv)
{
    label_options o = {.nodes = 20000, .threads = 1, .share = 0.1, .seed = 1};
    cli_parse(&label_cmd, argc, argv, label_option, &o, NULL, 0);
    if (!o.rules || !o.data || !o.out)
        cli_fail(&label_cmd,
                 "needs --variant, --data and --out (try: condraughts train label --help)");
    cli_load_weights();
    return train_label(&o);
}

static int cmd_sib(int argc, char **argv)
{
    sib_options o = {
        .nodes = 50000, .leaf_depth = 2, .min_pieces = 5, .threads = 1, .share = 0.05, .seed = 1};
    cli_parse(&sib_cmd, argc, argv, sib_option, &o, NULL, 0);
    if (!o.rules || !o.data || !o.out)
        cli_fail(&sib_cmd,
                 "needs --variant, --data and --out (try: condraughts train siblings --help)");
    cli_load_weights();
    return train_siblings(&o);
}

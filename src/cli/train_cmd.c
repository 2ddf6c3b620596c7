/*
 * train_cmd.c -- `condraughts train` and its subcommands: the command lines parsed into the
 * trainer's options (src/train/train.h), the weights and tables loaded, the trainer called.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "cliutil.h"
#include "condraughts.h"
#include "opts.h"
#include "pattern.h"
#include "train_cmd.h"
#ifndef CD_NO_TRAIN
#include "train.h"
#endif

#ifdef CD_NO_TRAIN
/* A program built with NO_TRAIN=1 (the aarch64 cross build: no liblzma) says so. */
static int cmd_not_built(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    fprintf(stderr, "condraughts train: not built in (this program was built with NO_TRAIN=1)\n");
    return 1;
}
const cli_command cd_train_command = {
    .name = "train",
    .about = "Make and fit the learned evaluation (not built in: NO_TRAIN=1).",
    .run = cmd_not_built,
};
#else

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
    O_STRIPS,
    O_PIP,
    O_SHARE,
    O_LIMIT,
    O_DEPTH,
    O_DEEP_LAMBDA,
    O_DEEP_WEIGHT,
    O_K,
    O_EGTB,
    O_HIDDEN,
    O_DEEP_ONLY,
    O_SIBLINGS,
    O_RANK,
    O_RANK_TEMP,
    O_LEAF_DEPTH,
    O_MIN_PIECES,
    O_CORPUS,
    O_FIRST,
    O_LABELS,
};

#define SEED_MAX 2147483647
/* The families of pattern.c, for --variant's help and its error */
#define FAMILIES                                                                                   \
    "international, constitutional, killer, modern, russian, brazilian, "                          \
    "russian-constitutional, brazilian-constitutional, english, italian, spanish or czech"
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
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the data file")},
    {CLI_TEXT_OPT(O_CORPUS, "corpus", "FILE.cdg.xz",
                  "the games as a corpus file, the records re-derived by replay "
                  "(docs/formats.md); --out, --corpus or both")},
    {CLI_INT_OPT(O_FIRST, "first", "J", 0, 2000000000,
                 "the games are numbers J .. J+N-1 of the seed's sequence (default 0)")},
    {0}};
static const cli_opt unpack_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE[,FILE...]",
                  "corpus files or folders (or data files), read in order"),
     .required = 1},
    {CLI_TEXT_OPT(O_OUT, "out", "FILE", "the data file"), .required = 1},
    {CLI_TEXT_OPT(O_LABELS, "labels", "DIR[,DIR...]",
                  "the deep labels of the corpus files (train label --out FILE.cdl.xz) kept in "
                  "these folders, by the corpus file's name (default: none)")},
    {0}};
static const cli_opt fit_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE[,FILE...]",
                  "data files of train gen, corpus files or corpus folders, in order"),
     .required = 1},
    {CLI_INT_OPT(O_EPOCHS, "epochs", "E", 1, 10000, "passes over the data (default 10)")},
    {CLI_REAL_OPT(O_LR, "lr", "R", 1e-6, 1000, "Adam's learning rate (default 1.0)")},
    {CLI_INT_OPT(O_BATCH, "batch", "B", 1, 10000000, "positions a mini-batch (default 4096)")},
    {CLI_REAL_OPT(O_LAMBDA, "lambda", "L", 0, 1,
                  "share of the search score in the target (default 0.4)")},
    {CLI_REAL_OPT(O_DEEP_LAMBDA, "deep-lambda", "L", 0, 1,
                  "the same for the positions train label scored (default: --lambda)")},
    {CLI_INT_OPT(O_DEEP_WEIGHT, "deep-weight", "W", 1, 1000,
                 "each training position train label scored counts W times (default 1)")},
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
    {CLI_FLAG_OPT(O_STRIPS, "strips",
                  "the flank strips on 10x10: each wing's three outer columns over six rows, 3^9 "
                  "configurations each (--init may hold them or not)")},
    {CLI_FLAG_OPT(O_PIP, "pip",
                  "blend the middle-game and endgame weights by the men's total distance to "
                  "promotion (300 at the start on 10x10, 144 on 8x8) instead of the pieces "
                  "(--init may be of either phase)")},
    {CLI_TEXT_OPT(O_LABELS, "labels", "DIR[,DIR...]",
                  "the deep labels of the corpus files (train label --out FILE.cdl.xz) kept in "
                  "these folders, by the corpus file's name (default: none)")},
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
    {CLI_TEXT_OPT(O_DATA, "data", "FILE", "a data file of train gen, a corpus file or a corpus folder"), .required = 1},
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
    {CLI_TEXT_OPT(O_DATA, "data", "FILE", "a data file of train gen, a corpus file or a corpus folder"), .required = 1},
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
    {CLI_TEXT_OPT(O_OUT, "out", "FILE",
                  "the data file with the new scores, or FILE.cdl.xz: only the new scores, the "
                  "labels of the corpus file --data (docs/formats.md)"),
     .required = 1},
    {0}};

static const cli_opt net_opts[] = {
    {CLI_TEXT_OPT(O_VARIANT, "variant", "V", FAMILY_HELP), .required = 1},
    {CLI_TEXT_OPT(O_DATA, "data", "FILE[,FILE...]",
                  "data files of train gen, corpus files or corpus folders, in order"),
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
static int cmd_unpack(int argc, char **argv);
static const cli_command unpack_cmd = {
    .name = "train unpack",
    .about = "The training records of corpus files, re-derived by replay, as a data file "
             "(docs/formats.md).",
    .opts = unpack_opts,
    .run = cmd_unpack,
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
static const cli_command *const train_subs[] = {&gen_cmd, &unpack_cmd, &fit_cmd, &label_cmd,
                                                &sib_cmd,  &net_cmd,    NULL};
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

/* train gen's command line: the trainer's options and the tables' folder. */
typedef struct gen_cmdline {
    gen_options c;
    const char *egtb;
} gen_cmdline;

static void gen_option(void *user, const cli_opt *opt, const cli_value *v)
{
    gen_cmdline *o = user;
    switch (opt->id) {
    case O_VARIANT: o->c.rules = family_rules(&gen_cmd, v->text); break;
    case O_GAMES: o->c.games = (long)v->n; break;
    case O_NODES: o->c.nodes = (long)v->n; break;
    case O_MAX_PLIES: o->c.max_plies = (long)v->n; break;
    case O_SEED: o->c.seed = (uint64_t)v->n; break;
    case O_BALANCE: o->c.balance = (long)v->n; break;
    case O_THREADS: o->c.threads = (long)v->n; break;
    case O_CLASSIC: o->c.classic = 1; break;
    case O_EGTB: o->egtb = v->text; break;
    case O_OUT: o->c.out = v->text; break;
    case O_CORPUS:
        if (!corpus_is(v->text))
            cli_fail(&gen_cmd, "--corpus names a file ending in .cdg.xz, not '%s'", v->text);
        o->c.corpus = v->text;
        break;
    case O_FIRST: o->c.first = (long)v->n; break;
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
    case O_STRIPS: o->strips = 1; break;
    case O_PIP: o->pip = 1; break;
    case O_OUT: o->out = v->text; break;
    case O_EPOCHS: o->epochs = (long)v->n; break;
    case O_BATCH: o->batch = (long)v->n; break;
    case O_LR: o->lr = v->x; break;
    case O_LAMBDA: o->lambda = v->x; break;
    case O_DEEP_LAMBDA: o->deep_lambda = v->x; break;
    case O_DEEP_WEIGHT: o->deep_weight = (long)v->n; break;
    case O_K: o->k = v->x; break;
    case O_L2: o->l2 = v->x; break;
    case O_VALID: o->valid = v->x; break;
    case O_SEED: o->seed = (uint64_t)v->n; break;
    case O_SIBLINGS: o->siblings = v->text; break;
    case O_LABELS: o->labels = v->text; break;
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
    gen_cmdline o = {.c = {.nodes = 2000,
                           .max_plies = 300,
                           .seed = 1,
                           .balance = 60,
                           .lo = -1,
                           .hi = -1,
                           .threads = 1}};
    cli_parse(&gen_cmd, argc, argv, gen_option, &o, NULL, 0);
    if (!o.c.rules || !o.c.games || !(o.c.out || o.c.corpus))
        cli_fail(&gen_cmd, "needs --variant, --games and --out or --corpus (try: condraughts "
                           "train gen --help)");
    /* the engine of the self-play games uses the shipped weights unless --classic */
    if (!o.c.classic) {
        cli_load_weights();
        o.c.eval = cli_eval();
    }
    if (o.egtb) {
        cli_egtb_check(&gen_cmd, o.egtb);
        if (!(o.c.tb = cd_egtb_open(o.c.rules, o.egtb)))
            cli_fail(&gen_cmd, "variant %s cannot have endgame tables", o.c.rules->name);
        cd_egtb_stats st; /* the table of a king against a king: the folder holds tables */
        char err[256];
        if (cd_egtb_stats_of(o.c.tb, (cd_egtb_material){1, 0, 1, 0}, CD_WHITE, &st, err,
                             sizeof err) != CD_OK)
            cli_fail(&gen_cmd,
                     "--egtb %s: no endgame tables of %s there (%s; make them with: "
                     "condraughts egtb build --variant %s --dir %s)",
                     o.egtb, o.c.rules->name, err, o.c.rules->name, o.egtb);
    }
    int rc = train_gen(&o.c);
    cd_egtb_close(o.c.tb);
    return rc;
}

typedef struct unpack_cmdline {
    const cd_rules *rules;
    const char *data, *out, *labels;
} unpack_cmdline;

static void unpack_option(void *user, const cli_opt *opt, const cli_value *v)
{
    unpack_cmdline *o = user;
    switch (opt->id) {
    case O_VARIANT: o->rules = family_rules(&unpack_cmd, v->text); break;
    case O_DATA: o->data = v->text; break;
    case O_OUT: o->out = v->text; break;
    case O_LABELS: o->labels = v->text; break;
    }
}

static int cmd_unpack(int argc, char **argv)
{
    unpack_cmdline o = {0};
    cli_parse(&unpack_cmd, argc, argv, unpack_option, &o, NULL, 0);
    if (!o.rules || !o.data || !o.out)
        cli_fail(&unpack_cmd,
                 "needs --variant, --data and --out (try: condraughts train unpack --help)");
    return train_unpack(o.rules, o.data, o.labels, o.out);
}

static int cmd_fit(int argc, char **argv)
{
    fit_options o = {.epochs = 10,
                     .batch = 4096,
                     .lr = 1.0,
                     .lambda = 0.4,
                     .deep_lambda = -1,
                     .deep_weight = 1,
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
    o.eval = cli_eval();
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
    o.eval = cli_eval();
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
    o.eval = cli_eval();
    return train_siblings(&o);
}

#endif

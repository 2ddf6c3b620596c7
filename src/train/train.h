/*
 * train.h -- the trainer (src/train/): self-play data, deeper labels, the ordering target's
 * siblings, and the fits of the learned evaluation and of the network (docs/training.md). A
 * library beside the engine: `condraughts train` (src/cli/train_cmd.c) parses the command lines
 * into these options and calls the entry points. Each entry point returns 0, or stops the
 * program with a message on bad input (train_fail). File formats: docs/formats.md.
 */
#ifndef CD_TRAIN_H
#define CD_TRAIN_H

#include <stdint.h>

#include "condraughts.h"

/* train gen's configuration: the games (game j is a function of seed and j alone). */
typedef struct gen_options {
    const cd_rules *rules;
    long games, nodes, max_plies, balance;
    long first;          /* the games are numbers first .. first + games - 1 */
    long lo, hi;         /* the random opening plies; lo < 0: 4 to 10 on 10x10, else 4 to 8 */
    uint64_t seed;
    int classic;         /* play with the hand-set evaluation */
    const cd_eval *eval; /* the learned evaluation the engines play with (not owned), or NULL */
    cd_egtb *tb;         /* the endgame tables (both engines search with them), or NULL */
    const char *out;     /* the data file, or NULL */
    const char *corpus;  /* the corpus file (FILE.cdg.xz), or NULL */
    long threads;
} gen_options;

/* Play the games and write the data file and/or the corpus file. */
int train_gen(const gen_options *o);
/* 1 if path names a corpus file (it ends in ".cdg.xz"). */
int corpus_is(const char *path);
/* Write the records of data (a comma-separated list of corpus files or folders, or data files)
 * as one data file out, with the deep labels found in the folders of the list labels (NULL:
 * none). */
int train_unpack(const cd_rules *r, const char *data, const char *labels, const char *out);

/* train fit's command line. */
typedef struct fit_options {
    const cd_rules *rules;
    const char *data, *out, *init; /* init: a weights file to start from, or NULL */
    const char *labels; /* folders of the corpus files' deep labels (a comma-separated list), or
                           NULL */
    long epochs, batch;
    int wide;   /* the wide layout (pattern.h) */
    int strips; /* the flank strips (pattern.h; 10x10) */
    int pip;    /* the pip phase (pattern.h) */
    double lr, lambda, l2, valid;
    double deep_lambda; /* lambda of the records train label scored (deep), <0: lambda */
    long deep_weight;   /* copies of each deep record's training samples (>= 1) */
    double k;           /* the score scale K, or 0: fitted to the hand-set evaluation */
    const char
        *siblings; /* siblings files (a comma-separated list) for the ordering target, or NULL */
    double rank, rank_temp; /* its weight against the results' loss; its temperature */
    uint64_t seed;
} fit_options;

/* train label's command line. out: a data file, or a labels file (FILE.cdl.xz) of the corpus
 * file data. */
typedef struct label_options {
    const cd_rules *rules;
    const char *data, *out;
    long nodes, depth;   /* depth, when not 0, instead of nodes */
    long threads, limit; /* limit: only the input's first this many records, 0 for all */
    double share;
    uint64_t seed;
    const cd_eval *eval; /* the learned evaluation of the deeper search (not owned), or NULL */
} label_options;

/* train siblings' command line and file (train_sib.c): a position with the leaf of every legal
 * move and the teacher's move among them. */
typedef struct sib_options {
    const cd_rules *rules;
    const char *data, *out;
    long nodes, leaf_depth, min_pieces, threads, limit;
    double share;
    uint64_t seed;
    const cd_eval *eval; /* the learned evaluation of the teacher's search (not owned), or NULL */
} sib_options;

typedef struct sib_leaf {
    uint64_t white, black, kings;
    uint8_t side;
} sib_leaf;

typedef struct sib_group {
    uint8_t side;     /* the side to move at the position */
    uint16_t n, best; /* legal moves; the teacher's among them */
    int16_t score;    /* the teacher's score, side to move's view */
    sib_leaf *leaf;   /* [n], in the move generator's order; NULL: left out */
} sib_group;

/* Write the siblings file of a sample of a data file's positions; 0, or the program stops. */
int train_siblings(const sib_options *o);
/* The groups of a comma-separated list of siblings files of variant r, in order (the program
 * stops with a message on a fault). */
sib_group *train_read_siblings(const char *list, const cd_rules *r, size_t *n);

/* train net's command line (train_net.c). */
typedef struct net_options {
    const cd_rules *rules;
    const char *data, *out, *init; /* init: a network file to start from, or NULL */
    long epochs, batch, threads, limit;
    long h1, h2; /* the hidden layers' units (0 with --init: the file's) */
    int hidden_given;
    int deep_only; /* only the records train label scored again */
    double lr, lambda, deep_lambda, valid, k;
    uint64_t seed;
    const cd_eval *eval; /* the pattern weights the network is stacked on (their family's) */
} net_options;

/* Fit the network stacked on o->eval's pattern weights of the family and write its file. */
int train_net(const net_options *o);

/* Score a sample of a data file's positions again by a deeper search and write the file again
 * with those scores, flagged deep, or (out FILE.cdl.xz) only the new scores as the corpus file's
 * labels (train_label.c); 0, or the program stops with a message on bad input. */
int train_label(const label_options *o);

/* Fit the weights to the data files and write the weights file; 0, or the program stops with a
 * message (train_fail) on bad input. */
int train_fit(const fit_options *o);

#endif
